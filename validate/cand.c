// SPDX-License-Identifier: GPL-2.0
/*
 * cand.c - read the finder's candidates TSV.
 *
 * Header: file line name storage class confidence reason evidence (the
 * columns are found by name, so extra or reordered columns are fine).
 * Only rows of class ro_after_init are conversions to validate.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate.h"

#define MAXF 64

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

int cands_load(const char *path, struct cands *c)
{
	int cfile, cline, cname, cclass, n, lineno = 1, cap = 0;
	char *buf, *line, *next, *f[MAXF], *end;
	long v;

	buf = read_file(path, NULL);
	if (!buf)
		die(EXIT_USAGE, "%s: %s", path, strerror(errno));
	line = buf;
	next = strchr(line, '\n');
	if (next)
		*next++ = '\0';
	n = split_tabs(line, f, MAXF);
	cfile = tsv_col(f, n, "file");
	cline = tsv_col(f, n, "line");
	cname = tsv_col(f, n, "name");
	cclass = tsv_col(f, n, "class");
	if (cfile < 0 || cline < 0 || cname < 0 || cclass < 0)
		die(EXIT_DATA,
		    "%s:1: not a candidates TSV: the header needs the columns file, line, name and class",
		    path);
	c->v = NULL;
	c->n = 0;
	for (line = next; line && *line; line = next) {
		struct cand *cd;

		lineno++;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		n = split_tabs(line, f, MAXF);
		if (n <= cfile || n <= cline || n <= cname || n <= cclass)
			die(EXIT_DATA, "%s:%d: %d fields, the header has more",
			    path, lineno, n);
		if (strcmp(f[cclass], "ro_after_init"))
			continue;
		errno = 0;
		v = strtol(f[cline], &end, 10);
		if (errno || *end || v <= 0)
			die(EXIT_DATA, "%s:%d: line '%s' is not a positive number",
			    path, lineno, f[cline]);
		if (!*f[cfile] || f[cfile][0] == '/' || strstr(f[cfile], ".."))
			die(EXIT_DATA,
			    "%s:%d: file '%s' must be relative to the tree root",
			    path, lineno, f[cfile]);
		if (!*f[cname] || strspn(f[cname],
		    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
		    != strlen(f[cname]))
			die(EXIT_DATA, "%s:%d: '%s' is not a C identifier",
			    path, lineno, f[cname]);
		if (is_dup(c, f[cfile], (int)v, f[cname]))
			continue;
		if (c->n == cap) {
			cap = cap ? cap * 2 : 64;
			c->v = xrealloc(c->v, cap * sizeof(*c->v));
		}
		cd = &c->v[c->n++];
		cd->file = xstrdup(f[cfile]);
		cd->line = (int)v;
		cd->name = xstrdup(f[cname]);
		cd->verdict = V_UNDECIDED;
		cd->evidence = NULL;
	}
	free(buf);
	return c->n;
}
