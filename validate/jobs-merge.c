// SPDX-License-Identifier: GPL-2.0
/*
 * jobs-merge.c - --merge DIR: the verdicts of an emission's jobs
 * (jobs-emit.c, run by jobs-run.c) appended to the campaign journal,
 * each job's only when it finished and its journal is as it was then.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kv.h"
#include "strtab.h"
#include "tsv.h"
#include "validate.h"
#include "jobs.h"


/* The sets of "file\tline\tname" keys are lib's string tables. */
static char *row_key(const char *file, long line, const char *name)
{
	return xasprintf("%s\t%ld\t%s", file, line, name);
}

static int ks_has(const struct strtab *s, const char *key)
{
	return strtab_find(s, key) != STR_NONE;
}

/* Adds KEY to S (a copy: KEY is freed). */
static void ks_add(struct strtab *s, char *key)
{
	strtab_intern(s, key);
	free(key);
}
/* The member keys of a job's candidates.tsv; -1 when it cannot be read. */
static int job_members(const char *path, struct strtab *m)
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
		kv_free(&k);
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
	kv_free(&k);
	free(p);
	return r;
}

struct merge {
	struct journal j;
	struct strtab done;	/* decided in the campaign journal */
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
	struct strtab mem, got;
	struct jrows rows = { NULL, 0 };
	size_t r, other = 0;
	int left = -1;

	strtab_init(&mem);
	strtab_init(&got);
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
	strtab_destroy(&mem);
	strtab_destroy(&got);
	free(cp);
	free(jp);
	return left;
}

int jobs_merge(const char *dir, const char *journal)
{
	struct merge m = { .appended = 0 };
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
	strtab_init(&m.done);
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
	strtab_destroy(&m.done);
	tsv_table_free(&jobs);
	kv_free(&farm);
	close(lock);
	if (nbad)
		return RC_DATA;
	return nfail || nmissing ? RC_FAIL : RC_OK;
}
