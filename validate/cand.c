// SPDX-License-Identifier: GPL-2.0
/*
 * cand.c - read the finder's candidates TSV (FORMATS.md, candidates.tsv)
 * and check its conversions against the tree before anything is built.
 *
 * The columns file, line, name and class are taken by name, so extra or
 * reordered columns are fine.  Every class must be one the finder writes;
 * only rows of class ro_after_init are conversions to validate.  Bad rows
 * are all reported, as CANDIDATES:LINE, before the program exits with
 * RC_DATA.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tsv.h"
#include "validate.h"

/* candidates/classify.c's klass_names (initdata is not validated yet) */
static const char *const classes[] = {
	"ro_after_init", "const", "rejected", "already", "skip", "initdata",
};

#define MAX_LINE	100000000L
#define MAX_REPORTED	100

static int nbad;

/* One more bad row; the first MAX_REPORTED are printed. */
static void bad_row(const char *path, unsigned long lineno,
		    const char *fmt, ...)
{
	va_list ap;

	if (nbad++ >= MAX_REPORTED)
		return;
	fprintf(stderr, "%s: %s:%lu: ", prog_name, path, lineno);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void bad_rows_die(const char *path)
{
	if (!nbad)
		return;
	if (nbad > MAX_REPORTED)
		warnx("... and %d more bad rows", nbad - MAX_REPORTED);
	die(RC_DATA, "%s: %d bad row%s, nothing was built", path, nbad,
	    nbad == 1 ? "" : "s");
}

static int is_dup(struct cands *c, const char *file, int line,
		  const char *name)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (c->v[i].line == line && !strcmp(c->v[i].name, name) &&
		    !strcmp(c->v[i].file, file))
			return 1;
	return 0;
}

void cands_load(const char *path, struct cands *c)
{
	int cfile, cline, cname, cclass, k, cap = 0, rc;
	struct tsv t;
	long v;

	if (access(path, R_OK))
		die(RC_USAGE, "%s: %s", path, strerror(errno));
	/* The columns validate does not read may be empty. */
	if (tsv_open(&t, path, TSV_EMPTY_OK))
		die(RC_DATA, "%s: not a candidates TSV", path);
	cfile = tsv_need(&t, "file");
	cline = tsv_need(&t, "line");
	cname = tsv_need(&t, "name");
	cclass = tsv_need(&t, "class");
	if (cfile < 0 || cline < 0 || cname < 0 || cclass < 0)
		die(RC_DATA,
		    "%s:1: not a candidates TSV: the header needs the columns file, line, name and class",
		    path);
	c->v = NULL;
	c->n = 0;
	while ((rc = tsv_next(&t)) > 0) {
		struct cand *cd;

		k = tsv_enum(&t, cclass, classes, ARRAY_SIZE(classes));
		if (k < 0) {
			nbad++;
			continue;
		}
		if (k != 0)
			continue;
		if (tsv_long(&t, cline, 1, MAX_LINE, &v) ||
		    tsv_path(&t, cfile) || tsv_ident(&t, cname)) {
			nbad++;
			continue;
		}
		if (is_dup(c, t.field[cfile], (int)v, t.field[cname]))
			continue;
		if (c->n == cap) {
			cap = cap ? cap * 2 : 64;
			c->v = xrealloc(c->v, cap * sizeof(*c->v));
		}
		cd = &c->v[c->n++];
		cd->file = xstrdup(t.field[cfile]);
		cd->line = (int)v;
		cd->name = xstrdup(t.field[cname]);
		cd->verdict = V_UNDECIDED;
		cd->evidence = NULL;
		cd->lineno = t.lineno;
	}
	tsv_close(&t);
	if (rc < 0)
		die(RC_DATA, "%s: not a valid candidates TSV (see above), nothing was built",
		    path);
	bad_rows_die(path);
}

/* Line LINE (from 1) of BUF, cut in place; NULL past the end. */
static char *nth_line(char *buf, size_t len, int line, int *nlines)
{
	char *p = buf, *end = buf + len, *nl, *r = NULL;
	int i = 0;

	while (p < end) {
		nl = memchr(p, '\n', end - p);
		if (++i == line)
			r = p;
		if (!nl)
			break;
		if (i == line)
			*nl = '\0';
		p = nl + 1;
	}
	*nlines = i;
	return r;
}

/*
 * Each conversion against the tree: its file is a regular file, its line
 * exists, its name is on that line (cocci/annotate.cocci matches the
 * variable at exactly the (file, line, name) of the row).  Reports every
 * bad row and dies with RC_DATA, before any build.
 */
void cands_check_tree(const char *path, const struct cands *c,
		      const char *tree)
{
	char *buf = NULL, *file = NULL, *p, *l;
	size_t len = 0;
	struct stat st;
	int i, nlines, err = 0;

	for (i = 0; i < c->n; i++) {
		const struct cand *cd = &c->v[i];

		if (!file || strcmp(file, cd->file)) {
			free(file);
			free(buf);
			file = xstrdup(cd->file);
			p = xasprintf("%s/%s", tree, cd->file);
			buf = NULL;
			err = 0;
			if (stat(p, &st))
				err = errno;
			else if (!S_ISREG(st.st_mode))
				err = EISDIR;
			else
				buf = read_file(p, &len);
			if (!err && !buf)
				err = errno;
			free(p);
		}
		if (err) {
			bad_row(path, cd->lineno, "%s: %s in the tree %s",
				cd->file, err == ENOENT ? "no such file" :
				err == EISDIR ? "not a regular file" :
				strerror(err), tree);
			continue;
		}
		/* nth_line() cuts the buffer: work on a copy */
		p = xstrndup(buf, len);
		l = nth_line(p, len, cd->line, &nlines);
		if (!l)
			bad_row(path, cd->lineno,
				"%s:%d: past the end of the file (%d lines)",
				cd->file, cd->line, nlines);
		else if (!has_identifier(l, cd->name))
			bad_row(path, cd->lineno,
				"%s:%d: the line does not name '%s' (the candidates are from another tree?)",
				cd->file, cd->line, cd->name);
		free(p);
	}
	free(file);
	free(buf);
	bad_rows_die(path);
}
