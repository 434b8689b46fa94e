// SPDX-License-Identifier: GPL-2.0
/*
 * jobs-emit.c - the batches of a run as self-contained jobs for a farm
 * (FORMATS.md, "validate jobs"): --emit-jobs writes one job per batch
 * after the baseline; jobs-run.c runs one of them on a worker (--job),
 * jobs-merge.c appends the jobs' verdicts to the campaign journal
 * (--merge).
 *
 * A job directory holds job.tsv (the settings and the hashes the run must
 * reproduce), candidates.tsv (the batch's rows, job_role member, and the
 * #ifdef siblings annotate.sh annotates with them, job_role sibling),
 * base/ (the raw commit objects from pristine to the base commit, so a
 * worker whose tree has the same content has the same commit), the
 * baseline file, and cover.config or extra.patch when the run has them.
 * The worker writes journal.tsv, validate.log and boots/ next to them,
 * and validate/farm/run-job.sh writes status.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tsv.h"
#include "validate.h"
#include "jobs.h"

const char *const role_names[2] = { "member", "sibling" };

/* ---- small file helpers ------------------------------------------------ */

void put_file(const char *path, const char *buf, size_t len)
{
	if (write_file_atomic(path, buf, len))
		die(RC_HOST, "%s: %s", path, strerror(errno));
}

void copy_file(const char *from, const char *to)
{
	size_t len;
	char *buf = read_file(from, &len);

	if (!buf)
		die(RC_HOST, "%s: %s", from, strerror(errno));
	put_file(to, buf, len);
	free(buf);
}

/* The regular files of directory FROM into TO (made if need be). */
static void copy_dir(const char *from, const char *to)
{
	DIR *d = opendir(from);
	struct dirent *de;
	char *a, *b;

	if (!d)
		die(RC_HOST, "%s: %s", from, strerror(errno));
	if (mkdirs(to))
		die(RC_HOST, "%s: %s", to, strerror(errno));
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		a = xasprintf("%s/%s", from, de->d_name);
		b = xasprintf("%s/%s", to, de->d_name);
		copy_file(a, b);
		free(a);
		free(b);
	}
	closedir(d);
}

int is_hex(const char *s, size_t len)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!strchr("0123456789abcdef", s[i]))
			return 0;
	return i == len;
}

/* ---- emission ------------------------------------------------------------ */

/*
 * --emit-jobs DIR is checked before the baseline is built: DIR must be
 * new or empty, so an emission never mixes with another or with files
 * that are not validate's.
 */
void jobs_emit_check(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d) {
		if (errno == ENOENT)
			return;
		die(RC_USAGE, "--emit-jobs %s: %s", dir, strerror(errno));
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			closedir(d);
			die(RC_USAGE,
			    "--emit-jobs %s: the directory is not empty (merge an earlier emission with --merge %s, then remove it, or choose another directory)",
			    dir, dir);
		}
	closedir(d);
}

/* VERSION.PATCHLEVEL.SUBLEVEL of the tree's Makefile, or "-". */
static char *tree_version(struct ctx *x)
{
	char *p = xasprintf("%s/Makefile", x->tree), *buf = read_file(p, NULL);
	static const char *const keys[] = {
		"VERSION = ", "PATCHLEVEL = ", "SUBLEVEL = "
	};
	long v[3];
	char *l, *r;
	int i;

	free(p);
	for (i = 0; buf && i < 3; i++) {
		l = strstr(buf, keys[i]);
		if (!l || (l != buf && l[-1] != '\n'))
			break;
		v[i] = strtol(l + strlen(keys[i]), NULL, 10);
	}
	r = buf && i == 3 ? xasprintf("%ld.%ld.%ld", v[0], v[1], v[2]) :
			    xstrdup("-");
	free(buf);
	return r;
}

/*
 * The raw commit objects from pristine (the tree's unpacked tarball or
 * the user's commit) to the base commit, oldest first, as DIR/base/NN-HEX.
 * setup commits with the date of the day, so two machines that ran the
 * same make setup have the same trees but other commits: a worker writes
 * these objects (git hash-object) and has the emitter's commit.  Returns
 * how many.
 */
static int write_base(struct ctx *x, const char *dir)
{
	char *list = spath(x, "rev-list.out"), *bdir, *buf, *line, *next;
	char *argv[9];
	int n = 0;

	argv[0] = "git";
	argv[1] = "-C";
	argv[2] = (char *)x->tree;
	argv[3] = "rev-list";
	argv[4] = "--reverse";
	argv[5] = x->commit;
	argv[6] = "--not";
	argv[7] = "pristine^@";
	argv[8] = NULL;
	/* without the tag (a test's tree), the base commit alone */
	if (git(x, list, "rev-parse", "-q", "--verify", "pristine^{commit}")) {
		buf = xstrdup(x->commit);
	} else {
		if (run_tool(argv, list, x->log))
			die(RC_HOST, "git rev-list %s failed, see %s",
			    x->commit, x->log);
		buf = read_file(list, NULL);
		if (!buf)
			die(RC_HOST, "%s: %s", list, strerror(errno));
	}
	bdir = xasprintf("%s/base", dir);
	if (mkdirs(bdir))
		die(RC_HOST, "%s: %s", bdir, strerror(errno));
	for (next = buf; (line = strsep(&next, "\n"));) {
		char *out;

		if (!*line)
			continue;
		if (!is_hex(line, 40))
			die(RC_HOST, "git rev-list printed '%s'", line);
		out = xasprintf("%s/%04d-%s", bdir, ++n, line);
		if (git(x, out, "cat-file", "commit", line, NULL))
			die(RC_HOST, "git cat-file commit %s failed", line);
		free(out);
	}
	free(buf);
	free(bdir);
	free(list);
	return n;
}

/* The row of the candidates table that CD came from. */
static char **cand_row(const struct tsv_table *t, const struct cand *cd)
{
	size_t lo = 0, hi = t->nrows;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (t->lineno[mid] == cd->lineno)
			return t->rows[mid];
		if (t->lineno[mid] < cd->lineno)
			lo = mid + 1;
		else
			hi = mid;
	}
	die(RC_HOST, "internal: no row at line %lu", cd->lineno);
}

/* One candidates.tsv row: the source's columns but job_role, then ROLE. */
static void add_row(struct sb *s, const struct tsv_table *t, int skip,
		    char **row, const char *role)
{
	int c;

	for (c = 0; c < t->ncols; c++) {
		if (c == skip)
			continue;
		sb_add(s, row ? row[c] : t->head[c]);
		sb_addc(s, '\t');
	}
	sb_add(s, role);
	sb_addc(s, '\n');
}

struct emission {
	const char *dir, *cands, *journal;
	char *id, *version, *baseline;
	const char *cover_base, *cover_frag;
	int size, nbase;
};

static void write_job(struct ctx *x, struct emission *e,
		      const struct tsv_table *t, const int *set, int n, int k)
{
	char *jdir = xasprintf("%s/job-%04d", e->dir, k);
	char *listed = xcalloc(x->c->n + 1, 1), *p, *q;
	int skip = tsv_table_col(t, "job_role"), i, j;
	struct sb s;

	if (mkdirs(jdir))
		die(RC_HOST, "%s: %s", jdir, strerror(errno));
	sb_init(&s);
	add_row(&s, t, skip, NULL, "job_role");
	for (i = 0; i < n; i++) {
		listed[set[i]] = 1;
		add_row(&s, t, skip, cand_row(t, &x->c->v[set[i]]),
			role_names[0]);
	}
	/* build.c's write_with_siblings() annotates these with the batch */
	for (i = 0; i < n; i++)
		for (j = 0; j < x->c->n; j++) {
			const struct cand *a = &x->c->v[set[i]];
			const struct cand *b = &x->c->v[j];

			if (listed[j] || strcmp(a->name, b->name) ||
			    strcmp(a->file, b->file))
				continue;
			listed[j] = 1;
			add_row(&s, t, skip, cand_row(t, b), role_names[1]);
		}
	p = xasprintf("%s/candidates.tsv", jdir);
	put_file(p, s.buf, s.len);
	free(p);
	sb_free(&s);

	sb_init(&s);
	sb_addf(&s, "key\tvalue\njob\tjob-%04d\nemission\t%s\n", k, e->id);
	sb_addf(&s, "profile\t%s\nbase\t%s\n", x->profile, x->commit);
	sb_addf(&s, "config_hash\t%s\ncore_hash\t%s\n", x->config_hash,
		x->core_hash);
	sb_addf(&s, "cover_base\t%s\n", e->cover_base ? e->cover_base : "-");
	sb_addf(&s, "batch\t%d\nmembers\t%d\n", e->size, n);
	if (x->timeout_set)
		sb_addf(&s, "timeout\t%d\n", x->timeout);
	else
		sb_add(&s, "timeout\t-\n");
	sb_addf(&s, "accel\t%s\nexercises\t%s\nretest\t%d\n", x->accel,
		x->exercises ? x->exercises : "-", x->retest);
	sb_addf(&s, "kernel\t%s\n", e->version);
	sb_addf(&s, "command\tsh validate/farm/run-job.sh job-%04d\n", k);
	p = xasprintf("%s/job.tsv", jdir);
	put_file(p, s.buf, s.len);
	free(p);
	sb_free(&s);

	p = xasprintf("%s/%s", jdir, strrchr(e->baseline, '/') + 1);
	copy_file(e->baseline, p);
	free(p);
	if (e->cover_frag) {
		p = xasprintf("%s/cover.config", jdir);
		copy_file(e->cover_frag, p);
		free(p);
	}
	if (x->extra_patch) {
		p = xasprintf("%s/extra.patch", jdir);
		copy_file(x->extra_patch, p);
		free(p);
	}
	p = xasprintf("%s/base", e->dir);
	q = xasprintf("%s/base", jdir);
	copy_dir(p, q);
	free(p);
	free(q);
	free(jdir);
	free(listed);
}

/*
 * One job per batch of order[starts[k]..starts[k + 1]), after the
 * baseline decided what it could: DIR/farm.tsv first (the emission is
 * validate's from then on), the job directories, DIR/jobs.tsv last (the
 * emission is complete).
 */
void jobs_emit(struct ctx *x, const char *dir, const char *cands,
	       const char *journal, const int *order, const int *starts,
	       int K, int size)
{
	struct emission e = { .dir = dir, .cands = cands, .journal = journal,
			      .size = size };
	struct tsv_table t;
	struct sb s;
	char *p;
	int k;

	if (mkdirs(dir))
		die(RC_HOST, "%s: %s", dir, strerror(errno));
	jobs_emit_check(dir);
	e.id = xasprintf("%ld.%ld", (long)time(NULL), (long)getpid());
	e.version = tree_version(x);
	e.baseline = xasprintf("%s/baseline-%s-%s.tsv", x->state,
			       x->config_hash, x->core_hash);
	if (access(e.baseline, R_OK))
		die(RC_HOST, "%s: %s", e.baseline, strerror(errno));
	if (!strcmp(x->profile, "cover")) {
		e.cover_base = getenv("COVER_BASE");
		if (!e.cover_base || !*e.cover_base)
			e.cover_base = "wide";
		e.cover_frag = getenv("COVER_FRAGMENT");
		if (!e.cover_frag || !*e.cover_frag)
			die(RC_USAGE, "profile cover needs COVER_FRAGMENT");
	}
	sb_init(&s);
	sb_addf(&s, "key\tvalue\nemission\t%s\nprofile\t%s\nbase\t%s\n",
		e.id, x->profile, x->commit);
	sb_addf(&s, "config_hash\t%s\ncore_hash\t%s\n", x->config_hash,
		x->core_hash);
	sb_addf(&s, "journal\t%s\ncandidates\t%s\nbatch\t%d\njobs\t%d\nkernel\t%s\n",
		journal, cands, size, K, e.version);
	p = xasprintf("%s/farm.tsv", dir);
	put_file(p, s.buf, s.len);
	free(p);
	sb_free(&s);

	e.nbase = write_base(x, dir);
	if (tsv_load(&t, cands, TSV_EMPTY_OK))
		die(RC_DATA, "%s: cannot read the candidates again", cands);
	sb_init(&s);
	sb_add(&s, "job\tmembers\tcommand\n");
	for (k = 0; k < K; k++) {
		int n = starts[k + 1] - starts[k];

		write_job(x, &e, &t, order + starts[k], n, k + 1);
		sb_addf(&s, "job-%04d\t%d\tsh validate/farm/run-job.sh job-%04d\n",
			k + 1, n, k + 1);
		check_intr();
	}
	p = xasprintf("%s/jobs.tsv", dir);
	put_file(p, s.buf, s.len);
	warnx("emitted %d job%s of at most %d conversions in %s (base %.12s, %d commit%s from pristine), run them with validate/farm/run-parallel.sh or submit-slurm.sh, then validate --merge %s",
	      K, K == 1 ? "" : "s", size, dir, x->commit, e.nbase,
	      e.nbase == 1 ? "" : "s", dir);
	free(p);
	sb_free(&s);
	tsv_table_free(&t);
	free(e.id);
	free(e.version);
	free(e.baseline);
}
