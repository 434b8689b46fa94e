// SPDX-License-Identifier: GPL-2.0
/*
 * report-read.c - the report's inputs, joined per variable: the
 * candidates (candidates.tsv columns, by name), the final verdict of each
 * in the journal, the writers' definitions in the facts and the queued
 * patch that annotates each.  Bad input dies with RC_DATA naming
 * FILE:LINE (lib/tsv.h, lib/journal.h); an I/O error dies with RC_HOST.
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

enum { K_RO, K_CONST, K_REJECTED, K_ALREADY, K_SKIP, K_INITDATA };

/*
 * An initdata row's annotation, as validate takes it: the optional
 * annotation column's, else __initconst when the reason names it.
 */
static enum annot initdata_annot(struct tsv *t, int col, const char *reason)
{
	static const char *const names[] = {
		[A_RO_AFTER_INIT] = "ro_after_init", [A_INITDATA] = "initdata",
		[A_INITCONST] = "initconst", [A_NR] = "-" };
	int k = col < 0 ? A_NR : tsv_enum(t, col, names, ARRAY_SIZE(names));

	if (k < 0)
		tsv_fail(t);
	if (k < A_NR)
		return (enum annot)k;
	return strstr(reason, "__initconst") ? A_INITCONST : A_INITDATA;
}

void read_candidates(struct report *r, const char *path)
{
	static const char *const cols[] = { "file", "line", "name", "class",
		"confidence", "reason", "evidence" };
	static const char *const classes[] = { [K_RO] = "ro_after_init",
		[K_CONST] = "const", [K_REJECTED] = "rejected",
		[K_ALREADY] = "already", [K_SKIP] = "skip",
		[K_INITDATA] = "initdata" };
	static const char *const confidences[] = { "-", "high", "medium",
		"low" };
	enum { C_FILE, C_LINE, C_NAME, C_CLASS, C_CONF, C_REASON, C_EV };
	struct tsv t;
	int c[ARRAY_SIZE(cols)], k, rc, ca, cv;
	size_t i;

	if (tsv_open(&t, path, 0))
		tsv_fail(&t);
	for (i = 0; i < ARRAY_SIZE(cols); i++) {
		c[i] = tsv_need(&t, cols[i]);
		if (c[i] < 0)
			tsv_fail(&t);
	}
	ca = tsv_col(&t, "annotation");	/* optional */
	cv = tsv_col(&t, "value");	/* optional: an older finder's has none */
	while ((rc = tsv_next(&t)) > 0) {
		char **f = t.field;
		struct var *v;
		long line;

		r->scanned++;
		if (tsv_path(&t, c[C_FILE]) || tsv_ident(&t, c[C_NAME]) ||
		    tsv_long(&t, c[C_LINE], 1, 100000000, &line) ||
		    tsv_enum(&t, c[C_CONF], confidences,
			     ARRAY_SIZE(confidences)) < 0)
			tsv_fail(&t);
		k = tsv_enum(&t, c[C_CLASS], classes, ARRAY_SIZE(classes));
		if (k < 0)
			tsv_fail(&t);
		if (k == K_RO || k == K_INITDATA)
			v = push(&r->v, &r->n, &r->cap);
		else if (k == K_REJECTED)
			v = push(&r->fr, &r->nfr, &r->capfr);
		else
			continue;
		v->file = xstrdup(f[c[C_FILE]]);
		v->line = line;
		v->name = xstrdup(f[c[C_NAME]]);
		v->confidence = xstrdup(f[c[C_CONF]]);
		v->reason = xstrdup(f[c[C_REASON]]);
		v->evidence = xstrdup(f[c[C_EV]]);
		v->value = VAL_NONE;
		if (cv >= 0) {
			int val = tsv_enum(&t, cv, value_name, VAL_NONE);

			if (val < 0)
				tsv_fail(&t);
			v->value = val;
		}
		if (k == K_INITDATA)
			v->annot = initdata_annot(&t, ca, v->reason);
	}
	if (rc < 0)
		tsv_fail(&t);
	tsv_close(&t);
}

static struct var *find_var(struct report *r, const char *file,
			    const char *name)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].name, name) && !strcmp(r->v[i].file, file))
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
		struct var *v = find_var(r, j->file, j->variable);

		if (!v)
			continue; /* validated in another scope of the journal */
		v->verdict = verdict_name(j->verdict);
		v->level = j->level;
		v->vevidence = xstrdup(j->evidence);
		/* validate's section check names the annotation it took */
		if (j->verdict == V_ACCEPTED && v->annot != A_RO_AFTER_INIT)
			v->annot = strstr(j->evidence, "section=.init.rodata") ?
				   A_INITCONST : A_INITDATA;
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

/* Cut the line at S off at its newline; the next line. */
static char *cut_line(char *s)
{
	char *nl = strchr(s, '\n');

	if (!nl)
		return s + strlen(s);
	*nl = '\0';
	return nl + 1;
}

/* Text files only: a NUL byte would hide what follows it. */
static void refuse_nul(const char *path, const char *buf, size_t len)
{
	const char *nul = memchr(buf, '\0', len), *p;
	unsigned long line = 1;

	if (!nul)
		return;
	for (p = buf; p < nul; p++)
		line += *p == '\n';
	die(RC_DATA, "%s:%lu: NUL byte in a text file", path, line);
}

/* The conversions whose name one of PATCH's added lines annotates. */
static void link_patch(struct report *r, const char *queue,
		       const char *series, unsigned long lineno,
		       const char *patch)
{
	char *path = xasprintf("%s/%s", queue, patch), *buf, *l, *next;
	size_t len;
	int i;

	buf = read_file(path, &len);
	if (!buf)
		die(errno == ENOENT ? RC_DATA : RC_HOST, "%s:%lu: %s: %s",
		    series, lineno, path, strerror(errno));
	refuse_nul(path, buf, len);
	for (l = buf; *l; l = next) {
		next = cut_line(l);
		if (l[0] != '+' || l[1] == '+')
			continue;
		for (i = 0; i < r->n; i++) {
			struct var *v = &r->v[i];

			if (!v->patch && strstr(l, annot_name[v->annot]) &&
			    has_identifier(l, v->name))
				v->patch = xstrdup(patch);
		}
	}
	free(buf);
	free(path);
}

/* QUEUE/series names the patches; no series, no links. */
void link_patches(struct report *r, const char *queue)
{
	char *path = xasprintf("%s/series", queue), *series, *line, *next;
	unsigned long lineno = 0;
	struct stat st;
	size_t len;

	series = read_file(path, &len);
	if (!series) {
		if (errno != ENOENT)
			die(RC_HOST, "%s: %s", path, strerror(errno));
		/* a queue without patches has no series; a typo has no queue */
		if (stat(queue, &st) || !S_ISDIR(st.st_mode))
			die(RC_DATA, "--queue %s: no such directory (the queue that patches/queue.sh wrote)",
			    queue);
		free(path);
		return;
	}
	refuse_nul(path, series, len);
	for (line = series; *line; line = next) {
		lineno++;
		next = cut_line(line);
		if (!*line || *line == '#')
			continue;
		if (!is_tree_path(line))
			die(RC_DATA, "%s:%lu: '%s' is not a path inside the queue",
			    path, lineno, line);
		link_patch(r, queue, path, lineno, line);
	}
	free(series);
	free(path);
}
