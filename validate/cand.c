// SPDX-License-Identifier: GPL-2.0
/*
 * cand.c - read the finder's candidates TSV (FORMATS.md, candidates.tsv)
 * and check its conversions against the tree before anything is built.
 *
 * The columns file, line, name and class are taken by name, so extra or
 * reordered columns are fine.  Every class must be one the finder writes;
 * rows of class ro_after_init and initdata are conversions to validate
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

#include "tsv.h"
#include "validate.h"

/* candidates/classify.c's klass_names */
static const char *const classes[] = {
	"ro_after_init", "const", "rejected", "already", "skip", "initdata",
};
enum { CL_RO = 0, CL_INITDATA = 5 };

const char *const annot_name[] = { "ro_after_init", "initdata", "initconst" };
const char *const annot_attr[] = {
	"__ro_after_init", "__initdata", "__initconst",
};
const char *const annot_section[] = {
	".data..ro_after_init", ".init.data", ".init.rodata",
};

/* The classes that are conversions: bit k for classes[k]. */
static unsigned int conv_classes = 1u << CL_RO | 1u << CL_INITDATA;

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
		if (!strcmp(w, classes[CL_RO]))
			set |= 1u << CL_RO;
		else if (!strcmp(w, classes[CL_INITDATA]))
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

/* What the conversion of a row adds (see the head of this file). */
static int row_annot(struct tsv *t, int k, int cannot, int creason)
{
	int a;

	if (k == CL_RO)
		return AN_RO;
	if (cannot >= 0 && strcmp(t->field[cannot], "-")) {
		a = tsv_enum(t, cannot, annot_name, ARRAY_SIZE(annot_name));
		if (a == AN_RO) {
			tsv_error(t, "column 'annotation': class initdata takes initdata or initconst, not ro_after_init");
			return -1;
		}
		return a;
	}
	if (creason >= 0 && strstr(t->field[creason], "__initconst"))
		return AN_INITCONST;
	return AN_INITDATA;
}

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
	int cfile, cline, cname, cclass, cannot, creason, k, a, cap = 0, rc;
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
	cannot = tsv_col(&t, "annotation");
	creason = tsv_col(&t, "reason");
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
		if (!(conv_classes & 1u << k))
			continue;
		a = row_annot(&t, k, cannot, creason);
		if (a < 0) {
			nbad++;
			continue;
		}
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
		cd->annot = a;
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
