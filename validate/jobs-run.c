// SPDX-License-Identifier: GPL-2.0
/*
 * jobs-run.c - one job of an emission (jobs-emit.c) on a worker: --job
 * DIR loads DIR/job.tsv, checks that the worker's kernel is the
 * emitter's, leaves the #ifdef siblings to their own job, and records the
 * hash of the journal when the job has finished, for --merge
 * (jobs-merge.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kv.h"
#include "tsv.h"
#include "validate.h"
#include "jobs.h"


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
	kv_free(&k);
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
char *journal_hash(const char *path, size_t *len)
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
