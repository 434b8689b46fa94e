// SPDX-License-Identifier: GPL-2.0
/*
 * tsv: strict reader for the fact files described in cocci/FACTS.md.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "strtab.h"
#include "tsv.h"

void tsv_error(const struct tsv *t, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%lu: ", t->path, t->lineno);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Read one line into t->buf without its newline; 0 at end of file. */
static int read_line(struct tsv *t)
{
	ssize_t len = getline(&t->buf, &t->cap, t->fp);

	if (len < 0)
		return 0;
	t->lineno++;
	if (len > 0 && t->buf[len - 1] == '\n')
		t->buf[--len] = '\0';
	if (len > 0 && t->buf[len - 1] == '\r') {
		tsv_error(t, "CR line ending");
		return -1;
	}
	if (memchr(t->buf, '\0', len)) {
		tsv_error(t, "NUL byte in line");
		return -1;
	}
	return 1;
}

/* Split t->buf into fields; returns the count, or more than ncols. */
static int split(struct tsv *t)
{
	char *p = t->buf;
	int n = 0;

	for (;;) {
		char *tab = strchr(p, '\t');

		if (n < TSV_MAX_FIELDS)
			t->field[n] = p;
		n++;
		if (!tab)
			break;
		*tab = '\0';
		p = tab + 1;
	}
	return n;
}

int tsv_open(struct tsv *t, const char *path, const char *const *cols,
	     int ncols)
{
	int i, n, rc;

	memset(t, 0, sizeof(*t));
	t->path = path;
	t->ncols = ncols;
	t->fp = fopen(path, "r");
	if (!t->fp) {
		fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
		return -1;
	}
	rc = read_line(t);
	if (rc <= 0) {
		if (rc == 0) {
			t->lineno = 1;
			tsv_error(t, "empty file, expected a header line");
		}
		return -1;
	}
	n = split(t);
	for (i = 0; i < ncols && i < n; i++) {
		if (strcmp(t->field[i], cols[i]))
			break;
	}
	if (n != ncols || i != ncols) {
		fprintf(stderr, "%s:1: bad header, expected:", path);
		for (i = 0; i < ncols; i++)
			fprintf(stderr, " %s", cols[i]);
		fprintf(stderr, " (TAB separated)\n");
		return -1;
	}
	return 0;
}

int tsv_next(struct tsv *t)
{
	int rc = read_line(t), n, i;

	if (rc <= 0)
		return rc;
	if (t->buf[0] == '\0') {
		tsv_error(t, "empty line");
		return -1;
	}
	n = split(t);
	if (n != t->ncols) {
		tsv_error(t, "expected %d fields, got %d", t->ncols, n);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (t->field[i][0] == '\0') {
			tsv_error(t, "field %d is empty (use '-')", i + 1);
			return -1;
		}
	}
	return 1;
}

long tsv_lineno(const struct tsv *t, int col)
{
	const char *s = t->field[col];
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v <= 0 || end == s) {
		tsv_error(t, "field %d: bad line number '%s'", col + 1, s);
		return -1;
	}
	return v;
}

void tsv_close(struct tsv *t)
{
	if (t->fp)
		fclose(t->fp);
	free(t->buf);
	t->fp = NULL;
	t->buf = NULL;
}
