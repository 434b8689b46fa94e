// SPDX-License-Identifier: GPL-2.0
/*
 * cand.c - read the finder's candidates TSV (FORMATS.md, candidates.tsv)
 * and check its conversions against the tree before anything is built.
 *
 * lib/cand reads it (CANDS_LENIENT): the columns file, line, name and
 * class are taken by name, so extra or reordered columns are fine, and
 * a repeated key (file, line, name) is read once.  Every class must be
 * one the finder writes; rows of class ro_after_init and initdata are conversions to validate
 * (--classes narrows that).  What a conversion adds: __ro_after_init for
 * ro_after_init; for initdata __initconst when the row's optional
 * "annotation" column says initconst or, without that column, when its
 * "reason" names __initconst (the finder's "const and read only by __init
 * code: __initconst, ..."), else __initdata.  Bad rows are all reported,
 * as CANDIDATES:LINE, before the program exits with RC_DATA.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cand.h"
#include "validate.h"

/* The classes that are conversions: bit k for class_name[k] (lib/cand.h). */
static unsigned int conv_classes = CL_CONVERSIONS;

/*
 * --classes LIST: the comma-separated classes to validate, each
 * ro_after_init or initdata.  0 done, -1 a bad list.
 */
int cands_classes(const char *list)
{
	char *copy = xstrdup(list), *p = copy, *w;
	unsigned int set = 0;
	int bad = 0;

	while ((w = strsep(&p, ","))) {
		if (!strcmp(w, class_name[CL_RO]))
			set |= 1u << CL_RO;
		else if (!strcmp(w, class_name[CL_INITDATA]))
			set |= 1u << CL_INITDATA;
		else
			bad = 1;
	}
	free(copy);
	if (bad || !set)
		return -1;
	conv_classes = set;
	return 0;
}

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

void cands_load(const char *path, struct cands *c)
{
	struct crows rows;
	long nrows_bad;
	size_t i;

	if (access(path, R_OK))
		die(RC_DATA, "%s: %s", path, strerror(errno));
	/* The columns validate does not read may be empty. */
	nrows_bad = crows_read(path, conv_classes, 0, CANDS_LENIENT, &rows);
	if (nrows_bad < 0)
		die(rows.sys_errno ? RC_HOST : RC_DATA,
		    "%s: not a valid candidates TSV (see above), nothing was built",
		    path);
	nbad += nrows_bad;
	c->v = xmalloc((rows.n + 1) * sizeof(*c->v));
	c->n = 0;
	for (i = 0; i < rows.n; i++) {
		struct crow *r = &rows.v[i];
		struct cand *cd = &c->v[c->n++];

		cd->file = r->file;
		cd->line = (int)r->line;
		cd->name = r->name;
		r->file = r->name = NULL;	/* moved */
		cd->annot = r->annot;
		cd->verdict = V_UNDECIDED;
		cd->evidence = NULL;
		cd->lineno = r->lineno;
	}
	crows_free(&rows);
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
