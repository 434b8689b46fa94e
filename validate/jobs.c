// SPDX-License-Identifier: GPL-2.0
/*
 * jobs.c - the batches of a run as self-contained jobs for a farm
 * (FORMATS.md, "validate jobs"): --emit-jobs writes one job per batch
 * after the baseline, --job runs one of them on a worker, --merge appends
 * the jobs' verdicts to the campaign journal.
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

static const char *const role_names[] = { "member", "sibling" };

/* ---- small file helpers ------------------------------------------------ */

static void put_file(const char *path, const char *buf, size_t len)
{
	if (write_file_atomic(path, buf, len))
		die(RC_HOST, "%s: %s", path, strerror(errno));
}

static void copy_file(const char *from, const char *to)
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

/* A "key value" TSV (job.tsv, farm.tsv, status) in memory. */
struct kv {
	struct tsv_table t;
	int ck, cv;
};

static int kv_load(struct kv *k, const char *path)
{
	if (tsv_load(&k->t, path, 0))
		return -1;
	k->ck = tsv_table_need(&k->t, "key");
	k->cv = tsv_table_need(&k->t, "value");
	if (k->ck < 0 || k->cv < 0) {
		tsv_table_free(&k->t);
		return -1;
	}
	return 0;
}

/* The value of KEY; with line, its file line.  NULL when absent. */
static const char *kv_get(const struct kv *k, const char *key,
			  unsigned long *line)
{
	size_t i;

	for (i = 0; i < k->t.nrows; i++)
		if (!strcmp(k->t.rows[i][k->ck], key)) {
			if (line)
				*line = k->t.lineno[i];
			return k->t.rows[i][k->cv];
		}
	return NULL;
}

static const char *kv_need(const struct kv *k, const char *key)
{
	const char *v = kv_get(k, key, NULL);

	if (!v)
		die(RC_DATA, "%s: no row '%s'", k->t.path, key);
	return v;
}

static long kv_long(const struct kv *k, const char *key, long min, long max)
{
	unsigned long line;
	const char *v = kv_get(k, key, &line);
	long n;

	if (!v)
		die(RC_DATA, "%s: no row '%s'", k->t.path, key);
	if (parse_long(v, min, max, &n))
		die(RC_DATA, "%s:%lu: %s '%s' is not a number from %ld to %ld",
		    k->t.path, line, key, v, min, max);
	return n;
}

static int is_hex(const char *s, size_t len)
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

/* ---- one job on a worker ---------------------------------------------------- */

/*
 * --job DIR: the settings of DIR/job.tsv.  Its candidates, journal and
 * state are DIR's; the cover fragment and the extra patch are the copies
 * in DIR, so nothing of the emitting machine is needed.
 */
void job_load(struct ctx *x, const char *dir, struct job *jb)
{
	static const char *const profiles[] = { "fast", "wide", "cover" };
	static const char *const accels[] = { "tcg", "kvm", "auto" };
	struct kv k;
	const char *v;
	char *p;
	size_t i;

	jb->dir = abs_path(dir);
	p = xasprintf("%s/job.tsv", jb->dir);
	if (kv_load(&k, p))
		die(RC_DATA, "%s: not a validate job (see above)", jb->dir);
	free(p);
	jb->name = xstrdup(kv_need(&k, "job"));
	if (!is_tree_path(jb->name) || strchr(jb->name, '/'))
		die(RC_DATA, "%s/job.tsv: bad job name '%s'", jb->dir,
		    jb->name);
	v = kv_need(&k, "profile");
	for (i = 0; i < ARRAY_SIZE(profiles) && strcmp(v, profiles[i]); i++)
		;
	if (i == ARRAY_SIZE(profiles))
		die(RC_DATA, "%s/job.tsv: unknown profile '%s'", jb->dir, v);
	x->profile = profiles[i];
	jb->base = xstrdup(kv_need(&k, "base"));
	jb->config_hash = xstrdup(kv_need(&k, "config_hash"));
	jb->core_hash = xstrdup(kv_need(&k, "core_hash"));
	if (!is_hex(jb->base, 40) || !is_hex(jb->config_hash, 12) ||
	    !is_hex(jb->core_hash, 12))
		die(RC_DATA, "%s/job.tsv: base, config_hash and core_hash must be 40, 12 and 12 hex digits",
		    jb->dir);
	jb->size = kv_long(&k, "batch", 1, 100000);
	v = kv_need(&k, "timeout");
	if (strcmp(v, "-")) {
		x->timeout = kv_long(&k, "timeout", 10, 86400);
		x->timeout_set = 1;
	}
	v = kv_need(&k, "accel");
	for (i = 0; i < ARRAY_SIZE(accels) && strcmp(v, accels[i]); i++)
		;
	if (i == ARRAY_SIZE(accels))
		die(RC_DATA, "%s/job.tsv: unknown accel '%s'", jb->dir, v);
	x->accel = accels[i];
	v = kv_need(&k, "exercises");
	x->exercises = strcmp(v, "-") ? xstrdup(v) : NULL;
	x->retest = kv_long(&k, "retest", 0, 100);
	if (!strcmp(x->profile, "cover")) {
		v = kv_need(&k, "cover_base");
		if (strcmp(v, "fast") && strcmp(v, "wide"))
			die(RC_DATA, "%s/job.tsv: cover_base '%s' is not fast or wide",
			    jb->dir, v);
		p = xasprintf("%s/cover.config", jb->dir);
		if (setenv("COVER_BASE", v, 1) || setenv("COVER_FRAGMENT", p, 1))
			die(RC_HOST, "setenv: %s", strerror(errno));
		free(p);
	}
	p = xasprintf("%s/extra.patch", jb->dir);
	if (!access(p, F_OK))
		x->extra_patch = p;
	else
		free(p);
	jb->cands = xasprintf("%s/candidates.tsv", jb->dir);
	jb->journal = xasprintf("%s/journal.tsv", jb->dir);
	/* a rerun: the journal.hash of an earlier run is no longer true */
	p = xasprintf("%s/journal.hash", jb->dir);
	if (unlink(p) && errno != ENOENT)
		die(RC_HOST, "%s: %s", p, strerror(errno));
	free(p);
	tsv_table_free(&k.t);
}

/*
 * After setup_hashes(): this worker's kernel must be the emitter's (same
 * .config, same base commit), or its verdicts would be for another
 * kernel; and the baseline must be the one shipped with the job.
 */
void job_check(struct ctx *x, const struct job *jb)
{
	char *p;

	if (strcmp(x->config_hash, jb->config_hash))
		die(RC_HOST,
		    "%s: this worker's %s .config (%s/.config) hashes to %s, the emitter's to %s: its compiler or tree differs from the emitting machine's (make setup with the same KERNEL on the same Debian release)",
		    jb->name, x->profile, x->build_dir, x->config_hash,
		    jb->config_hash);
	if (strcmp(x->core_hash, jb->core_hash))
		die(RC_HOST, "%s: core hash %s, the emitter's is %s",
		    jb->name, x->core_hash, jb->core_hash);
	p = xasprintf("%s/baseline-%s-%s.tsv", jb->dir, jb->config_hash,
		      jb->core_hash);
	if (access(p, R_OK))
		die(RC_DATA, "%s: %s", p, strerror(errno));
	free(p);
}

/*
 * The siblings of a job's members are there to be annotated with them,
 * not to be validated: the job that holds them as members does that.
 */
int job_mark_siblings(struct ctx *x, const struct job *jb)
{
	struct tsv t;
	int col, role, rc, i, n = 0;

	if (tsv_open(&t, jb->cands, TSV_EMPTY_OK))
		die(RC_DATA, "%s: cannot read it", jb->cands);
	col = tsv_need(&t, "job_role");
	if (col < 0)
		die(RC_DATA, "%s: not a job's candidates", jb->cands);
	while ((rc = tsv_next(&t)) > 0) {
		role = tsv_enum(&t, col, role_names, ARRAY_SIZE(role_names));
		if (role < 0)
			die(RC_DATA, "%s: bad job_role (see above)", jb->cands);
		if (role == 0)
			continue;
		for (i = 0; i < x->c->n; i++)
			if (x->c->v[i].lineno == t.lineno &&
			    x->c->v[i].verdict == V_UNDECIDED) {
				x->c->v[i].verdict = V_SKIPPED;
				n++;
			}
	}
	tsv_close(&t);
	if (rc < 0)
		die(RC_DATA, "%s: not a valid TSV (see above)", jb->cands);
	if (n)
		warnx("%s: %d #ifdef sibling%s annotated with the members, decided by their own job",
		      jb->name, n, n == 1 ? "" : "s");
	return n;
}

/*
 * The hash of a job's journal, when the job has finished: --merge takes
 * the journal only as it was then (an edited verdict is not merged).
 * "fnv1a" is lib's 64-bit FNV-1a of the whole file.
 */
static char *journal_hash(const char *path, size_t *len)
{
	char *buf = read_file(path, len), *h;

	if (!buf)
		return NULL;
	h = xasprintf("%016llx", fnv1a(FNV1A_INIT, buf, *len));
	free(buf);
	return h;
}

void job_finish(const struct job *jb)
{
	char *p = xasprintf("%s/journal.hash", jb->dir), *h;
	size_t len;
	struct sb s;

	h = journal_hash(jb->journal, &len);
	if (!h)
		die(RC_HOST, "%s: %s", jb->journal, strerror(errno));
	sb_init(&s);
	sb_addf(&s, "key\tvalue\nfnv1a\t%s\nbytes\t%zu\n", h, len);
	put_file(p, s.buf, s.len);
	sb_free(&s);
	free(h);
	free(p);
}

/* ---- merge ------------------------------------------------------------------ */

/* A set of "file\tline\tname" keys: open addressing, grown at half full. */
struct keyset {
	char **slot;
	size_t cap, n;
};

static char *row_key(const char *file, long line, const char *name)
{
	return xasprintf("%s\t%ld\t%s", file, line, name);
}

static size_t ks_find(const struct keyset *s, const char *key)
{
	size_t i = fnv1a(FNV1A_INIT, key, strlen(key)) & (s->cap - 1);

	while (s->slot[i] && strcmp(s->slot[i], key))
		i = (i + 1) & (s->cap - 1);
	return i;
}

static int ks_has(const struct keyset *s, const char *key)
{
	return s->cap && s->slot[ks_find(s, key)];
}

/* Adds KEY (taking it); 0 if it was there already (KEY freed). */
static int ks_add(struct keyset *s, char *key)
{
	size_t i;

	if (2 * (s->n + 1) > s->cap) {
		struct keyset g = { xcalloc(s->cap ? 2 * s->cap : 64,
					    sizeof(char *)),
				    s->cap ? 2 * s->cap : 64, 0 };

		for (i = 0; i < s->cap; i++)
			if (s->slot[i])
				g.slot[ks_find(&g, s->slot[i])] = s->slot[i];
		g.n = s->n;
		free(s->slot);
		*s = g;
	}
	i = ks_find(s, key);
	if (s->slot[i]) {
		free(key);
		return 0;
	}
	s->slot[i] = key;
	s->n++;
	return 1;
}

static void ks_free(struct keyset *s)
{
	size_t i;

	for (i = 0; i < s->cap; i++)
		free(s->slot[i]);
	free(s->slot);
}

/* The member keys of a job's candidates.tsv; -1 when it cannot be read. */
static int job_members(const char *path, struct keyset *m)
{
	int cf, cl, cn, cr, rc;
	struct tsv t;
	long line;

	if (tsv_open(&t, path, TSV_EMPTY_OK))
		return -1;
	cf = tsv_need(&t, "file");
	cl = tsv_need(&t, "line");
	cn = tsv_need(&t, "name");
	cr = tsv_need(&t, "job_role");
	if (cf < 0 || cl < 0 || cn < 0 || cr < 0) {
		tsv_close(&t);
		return -1;
	}
	while ((rc = tsv_next(&t)) > 0) {
		int r = tsv_enum(&t, cr, role_names, ARRAY_SIZE(role_names));

		if (r < 0 || tsv_long(&t, cl, 1, 100000000, &line)) {
			rc = -1;
			break;
		}
		if (r == 0)
			ks_add(m, row_key(t.field[cf], line, t.field[cn]));
	}
	tsv_close(&t);
	return rc < 0 ? -1 : 0;
}

/* "exit RC on HOST" from run-job.sh's status file, or NULL. */
static char *job_status(const char *jdir)
{
	char *p = xasprintf("%s/status", jdir), *r = NULL;
	const char *rc, *host;
	struct kv k;

	if (!access(p, F_OK) && !kv_load(&k, p)) {
		rc = kv_get(&k, "rc", NULL);
		host = kv_get(&k, "host", NULL);
		r = xasprintf("exit %s on %s", rc ? rc : "?",
			      host ? host : "?");
		tsv_table_free(&k.t);
	}
	free(p);
	return r;
}

/*
 * A job's journal against the hash its job recorded when it finished:
 * 0 the same, 1 no hash (the job did not finish: nothing of it is
 * merged, its rerun resumes from that journal), -1 changed since, or the
 * hash cannot be read (warned, naming the job).
 */
static int journal_check(const char *jdir, const char *jp, const char *name)
{
	char *p = xasprintf("%s/journal.hash", jdir), *h = NULL;
	const char *want = NULL;
	struct kv k;
	size_t len;
	int r = -1;

	if (access(p, F_OK)) {
		warnx("%s: the job did not finish (no %s): its journal is not merged; rerun the job",
		      name, p);
		free(p);
		return 1;
	}
	if (kv_load(&k, p)) {
		warnx("%s: %s is not valid (see above)", name, p);
		free(p);
		return -1;
	}
	want = kv_get(&k, "fnv1a", NULL);
	h = journal_hash(jp, &len);
	if (!want || !h)
		warnx("%s: %s has no fnv1a row, or %s cannot be read", name, p, jp);
	else if (strcmp(want, h))
		warnx("%s: %s was changed after the job finished (fnv1a %s, %s recorded %s): not merged; rerun the job, or restore its journal",
		      name, jp, h, p, want);
	else
		r = 0;
	free(h);
	tsv_table_free(&k.t);
	free(p);
	return r;
}

struct merge {
	struct journal j;
	struct keyset done;	/* decided in the campaign journal */
	const char *config_hash, *core_hash;
	int appended, already;
};

/*
 * Merge one job: every final row of the emission's hashes whose key is a
 * member and not yet in the campaign journal is appended as it is.
 * Returns the number of members still undecided, or -1 when the job's
 * files are not what validate writes (a foreign key, an unreadable
 * journal), in which case nothing of it is merged.
 */
static int merge_job(struct merge *m, const char *jdir, const char *name,
		     int *members)
{
	char *cp = xasprintf("%s/candidates.tsv", jdir);
	char *jp = xasprintf("%s/journal.tsv", jdir);
	struct keyset mem = { NULL, 0, 0 }, got = { NULL, 0, 0 };
	struct jrows rows = { NULL, 0 };
	size_t r, other = 0;
	int left = -1;

	if (job_members(cp, &mem)) {
		warnx("%s: cannot read the job's candidates (see above)", name);
		goto out;
	}
	*members = (int)mem.n;
	if (access(jp, F_OK)) {
		left = (int)mem.n;
		goto out;
	}
	switch (journal_check(jdir, jp, name)) {
	case 1:
		left = (int)mem.n;
		goto out;
	case -1:
		goto out;
	}
	if (journal_read(jp, &rows)) {
		warnx("%s: the job's journal is not valid (see above)", name);
		goto out;
	}
	for (r = 0; r < rows.n; r++)
		if (strcmp(rows.v[r].config_hash, m->config_hash) ||
		    strcmp(rows.v[r].core_hash, m->core_hash))
			other++;
	if (other)
		warnx("%s: %zu row%s of another kernel (config/core hash) left out: the worker was not like the emitter",
		      name, other, other == 1 ? "" : "s");
	journal_final(&rows, m->config_hash, m->core_hash);
	for (r = 0; r < rows.n; r++) {
		char *key = row_key(rows.v[r].file, rows.v[r].line,
				    rows.v[r].variable);

		if (!ks_has(&mem, key)) {
			warnx("%s:%lu: %s is not a member of %s: the job's journal is not its own",
			      jp, rows.v[r].lineno, rows.v[r].variable, name);
			free(key);
			goto out;
		}
		free(key);
	}
	for (r = 0; r < rows.n; r++) {
		struct jrow *row = &rows.v[r];
		char *key = row_key(row->file, row->line, row->variable);

		ks_add(&got, xstrdup(key));
		if (ks_has(&m->done, key)) {
			m->already++;
			free(key);
			continue;
		}
		journal_append(&m->j, row);
		ks_add(&m->done, key);
		m->appended++;
	}
	left = (int)(mem.n - got.n);
out:
	journal_rows_free(&rows);
	ks_free(&mem);
	ks_free(&got);
	free(cp);
	free(jp);
	return left;
}

int jobs_merge(const char *dir, const char *journal)
{
	struct merge m = { .done = { NULL, 0, 0 } };
	struct jrows rows;
	struct tsv_table jobs;
	struct kv farm;
	struct sb rerun, failed;
	char *p, *state, *slash;
	int cj, nfail = 0, nmissing = 0, ncomplete = 0, nbad = 0, lock;
	size_t i;

	p = xasprintf("%s/farm.tsv", dir);
	if (access(p, F_OK))
		die(RC_USAGE, "--merge %s: no farm.tsv: not an emission of validate --emit-jobs",
		    dir);
	if (kv_load(&farm, p))
		die(RC_DATA, "%s: not valid (see above)", p);
	free(p);
	p = xasprintf("%s/jobs.tsv", dir);
	if (access(p, F_OK))
		die(RC_DATA, "%s: missing: the emission was interrupted; emit the jobs again",
		    p);
	if (tsv_load(&jobs, p, 0))
		die(RC_DATA, "%s: not valid (see above)", p);
	free(p);
	cj = tsv_table_need(&jobs, "job");
	if (cj < 0)
		die(RC_DATA, "%s/jobs.tsv: no column 'job'", dir);
	m.config_hash = kv_need(&farm, "config_hash");
	m.core_hash = kv_need(&farm, "core_hash");
	if (!journal)
		journal = kv_need(&farm, "journal");
	/* validate's own lock on the journal's directory */
	state = xstrdup(journal);
	slash = strrchr(state, '/');
	if (slash)
		*slash = '\0';
	p = xasprintf("%s/validate.lock", slash ? (*state ? state : "/") : ".");
	lock = lock_file(p);
	free(p);
	free(state);
	journal_open(&m.j, journal, &rows);
	journal_final(&rows, m.config_hash, m.core_hash);
	for (i = 0; i < rows.n; i++)
		ks_add(&m.done, row_key(rows.v[i].file, rows.v[i].line,
					rows.v[i].variable));
	journal_rows_free(&rows);

	sb_init(&rerun);
	sb_init(&failed);
	for (i = 0; i < jobs.nrows; i++) {
		const char *name = jobs.rows[i][cj];
		char *jdir, *st;
		int members = 0, left;

		if (!is_tree_path(name) || strchr(name, '/'))
			die(RC_DATA, "%s/jobs.tsv:%lu: bad job name '%s'", dir,
			    jobs.lineno[i], name);
		jdir = xasprintf("%s/%s", dir, name);
		left = merge_job(&m, jdir, name, &members);
		st = job_status(jdir);
		if (left == 0) {
			ncomplete++;
		} else {
			if (left < 0)
				nbad++;
			else if (!st && left == members)
				nmissing++;
			else
				nfail++;
			sb_addf(&rerun, "%s\n", name);
			if (left < 0)
				sb_addf(&failed, "\n  %s: its files are not a job's (see above)",
					name);
			else
				sb_addf(&failed, "\n  %s: %d of %d undecided%s%s",
					name, left, members, st ? ", " : ", never ran",
					st ? st : "");
		}
		free(st);
		free(jdir);
	}
	p = xasprintf("%s/rerun.txt", dir);
	put_file(p, rerun.buf ? rerun.buf : "", rerun.len);
	warnx("merged %s into %s: %zu jobs, %d complete, %d failed, %d never ran, %d unreadable; %d verdicts appended, %d already there%s",
	      dir, journal, jobs.nrows, ncomplete, nfail, nmissing, nbad,
	      m.appended, m.already, failed.len ? ":" : "");
	if (failed.len)
		fprintf(stderr, "%s\n", failed.buf + 1);
	if (rerun.len)
		warnx("rerun them (listed in %s): validate/farm/run-parallel.sh %s $(cat %s), then validate --merge %s again",
		      p, dir, p, dir);
	free(p);
	sb_free(&rerun);
	sb_free(&failed);
	journal_close(&m.j);
	ks_free(&m.done);
	tsv_table_free(&jobs);
	tsv_table_free(&farm.t);
	close(lock);
	if (nbad)
		return RC_DATA;
	return nfail || nmissing ? RC_FAIL : RC_OK;
}
