// SPDX-License-Identifier: GPL-2.0
/*
 * report-read.c - the report's inputs, joined per variable: the
 * candidates (lib/cand), the final verdict of each in the journal, the
 * writers' definitions in the facts and the queued patch that annotates
 * each (the queue's index.tsv), all by the key (file, line, name).  Bad
 * input dies with RC_DATA naming FILE:LINE (lib/tsv.h, lib/journal.h,
 * lib/cand.h); an I/O error dies with RC_HOST.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "journal.h"
#include "report.h"
#include "tsv.h"

/* A reader that failed has said why; say what it means and exit. */
static _Noreturn void tsv_fail(struct tsv *t)
{
	/* an open failure is a bad argument, a read failure the host's */
	int code = t->fp && t->sys_errno ? RC_HOST : RC_DATA;

	die(code, "%s: cannot be read (see above); nothing was written",
	    t->path);
}

static struct var *push(struct var **v, int *n, int *cap)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		*v = xrealloc(*v, *cap * sizeof(**v));
	}
	memset(&(*v)[*n], 0, sizeof(**v));
	return &(*v)[(*n)++];
}

/*
 * The conversions and the finder's rejections of candidates.tsv, read by
 * lib/cand (the key (file, line, name), a repeated key once).
 */
void read_candidates(struct report *r, const char *path)
{
	struct crows c;
	long bad;
	size_t i;

	bad = crows_read(path, CL_CONVERSIONS | 1u << CL_REJECTED,
			 1u << CC_CONFIDENCE | 1u << CC_REASON |
			 1u << CC_EVIDENCE, 0, &c);
	if (bad)
		die(c.sys_errno ? RC_HOST : RC_DATA,
		    "%s: cannot be read (see above); nothing was written", path);
	r->scanned = (int)c.nrows;
	for (i = 0; i < c.n; i++) {
		struct crow *row = &c.v[i];
		struct var *v;

		if (row->class == CL_REJECTED)
			v = push(&r->fr, &r->nfr, &r->capfr);
		else
			v = push(&r->v, &r->n, &r->cap);
		v->file = row->file;
		v->line = row->line;
		v->name = row->name;
		v->reason = row->reason;
		v->evidence = row->evidence;
		row->file = row->name = row->reason = row->evidence = NULL;
		v->confidence = xstrdup(conf_name[row->conf]);
		v->value = row->value;
		if (row->class != CL_REJECTED)
			v->annot = row->annot;
	}
	crows_free(&c);
}

/* The conversion of key (FILE, LINE, NAME), the journal's key too. */
static struct var *find_var(struct report *r, const char *file, long line,
			    const char *name)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (r->v[i].line == line && !strcmp(r->v[i].name, name) &&
		    !strcmp(r->v[i].file, file))
			return &r->v[i];
	return NULL;
}

/* Each candidate's final verdict: the last journal row of its key. */
void read_journal(struct report *r, const char *path)
{
	struct jrows rows;
	size_t i;

	if (journal_read(path, &rows))
		die(RC_DATA, "%s: not a valid journal (see above); nothing was written",
		    path);
	journal_final(&rows, NULL, NULL);
	for (i = 0; i < rows.n; i++) {
		struct jrow *j = &rows.v[i];
		struct var *v = find_var(r, j->file, j->line, j->variable);

		if (!v)
			continue; /* validated in another scope of the journal */
		v->verdict = verdict_name(j->verdict);
		v->level = j->level;
		v->vevidence = xstrdup(j->evidence);
		/* validate's section check names the annotation it took */
		if (j->verdict == V_ACCEPTED && v->annot != AN_RO)
			v->annot = strstr(j->evidence, "section=.init.rodata") ?
				   AN_INITCONST : AN_INITDATA;
	}
	journal_rows_free(&rows);
}

/* FACTS/funcs.tsv: where each function is defined, for writer_where(). */
void read_funcs(struct report *r, const char *facts)
{
	char *path = xasprintf("%s/funcs.tsv", facts);
	struct tsv t;
	int cf, cl, cn, rc, cap = 0;
	long line;

	if (tsv_open(&t, path, 0))
		tsv_fail(&t);
	cf = tsv_need(&t, "file");
	cl = tsv_need(&t, "line");
	cn = tsv_need(&t, "name");
	if (cf < 0 || cl < 0 || cn < 0)
		tsv_fail(&t);
	while ((rc = tsv_next(&t)) > 0) {
		if (tsv_path(&t, cf) || tsv_long(&t, cl, 1, 100000000, &line))
			tsv_fail(&t);
		if (r->nfn == cap) {
			cap = cap ? 2 * cap : 256;
			r->fn_name = xrealloc(r->fn_name, cap * sizeof(char *));
			r->fn_where = xrealloc(r->fn_where,
					       cap * sizeof(char *));
		}
		r->fn_name[r->nfn] = xstrdup(t.field[cn]);
		r->fn_where[r->nfn++] = xasprintf("%s:%s", t.field[cf],
						  t.field[cl]);
	}
	if (rc < 0)
		tsv_fail(&t);
	tsv_close(&t);
	free(path);
}

/* The queue holds PATCH, a regular file; else die naming INDEX:LINE. */
static void need_patch(const struct tsv *t, const char *queue,
		       const char *patch)
{
	char *path = xasprintf("%s/%s", queue, patch);
	struct stat st;

	if (stat(path, &st))
		die(errno == ENOENT ? RC_DATA : RC_HOST, "%s:%lu: %s: %s",
		    t->path, t->lineno, path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		die(RC_DATA, "%s:%lu: %s: not a patch file", t->path,
		    t->lineno, path);
	free(path);
}

/*
 * QUEUE/index.tsv (FORMATS.md, written by patches/queue.sh) names the
 * patch of each queued variable by its key (file, line, name) and its
 * annotation; a conversion links the patch of its own key and kind.  A
 * queue without index.tsv and without patches (no series, or an empty
 * one) has no links; one with patches was made before queue.sh wrote the
 * index and is refused.
 */
void link_patches(struct report *r, const char *queue)
{
	static const char *const cols[] = { "file", "line", "name",
		"annotation", "patch" };
	enum { C_FILE, C_LINE, C_NAME, C_ANNOT, C_PATCH };
	char *path = xasprintf("%s/index.tsv", queue), *series;
	int c[ARRAY_SIZE(cols)], a, rc;
	struct stat st;
	struct tsv t;
	struct var *v;
	size_t i;
	long line;

	if (stat(queue, &st) || !S_ISDIR(st.st_mode))
		die(RC_DATA, "--queue %s: no such directory (the queue that patches/queue.sh wrote)",
		    queue);
	if (stat(path, &st)) {
		if (errno != ENOENT)
			die(RC_HOST, "%s: %s", path, strerror(errno));
		series = xasprintf("%s/series", queue);
		if (!stat(series, &st) && st.st_size > 0)
			die(RC_DATA, "%s: no such file, but %s names patches: the queue was made before patches/queue.sh wrote its index (make queue again)",
			    path, series);
		free(series);
		free(path);
		return;
	}
	if (tsv_open(&t, path, 0))
		tsv_fail(&t);
	for (i = 0; i < ARRAY_SIZE(cols); i++) {
		c[i] = tsv_need(&t, cols[i]);
		if (c[i] < 0)
			tsv_fail(&t);
	}
	while ((rc = tsv_next(&t)) > 0) {
		if (tsv_path(&t, c[C_FILE]) || tsv_ident(&t, c[C_NAME]) ||
		    tsv_long(&t, c[C_LINE], 1, 100000000, &line) ||
		    tsv_path(&t, c[C_PATCH]))
			tsv_fail(&t);
		a = tsv_enum(&t, c[C_ANNOT], annot_name, AN_NR);
		if (a < 0)
			tsv_fail(&t);
		need_patch(&t, queue, t.field[c[C_PATCH]]);
		v = find_var(r, t.field[c[C_FILE]], line, t.field[c[C_NAME]]);
		if (v && !v->patch && v->annot == (enum annot)a)
			v->patch = xstrdup(t.field[c[C_PATCH]]);
	}
	if (rc < 0)
		tsv_fail(&t);
	tsv_close(&t);
	free(path);
}
