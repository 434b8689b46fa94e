// SPDX-License-Identifier: GPL-2.0
/*
 * tsv.c - the strict TSV reader described in tsv.h and FORMATS.md.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "tsv.h"

void tsv_error(const struct tsv *t, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s:%lu: ", prog_name, t->path, t->lineno);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* One line into t->buf without its newline: 1, 0 at the end, -1 error. */
static int read_line(struct tsv *t)
{
	ssize_t len;

	errno = 0;
	len = getline(&t->buf, &t->cap, t->fp);
	if (len < 0) {
		if (ferror(t->fp) || (errno && errno != EINVAL)) {
			t->sys_errno = errno ? errno : EIO;
			t->lineno++;
			tsv_error(t, "read error: %s",
				  strerror(errno ? errno : EIO));
			return -1;
		}
		return 0;
	}
	t->lineno++;
	if (len == 0 || t->buf[len - 1] != '\n') {
		if (t->flags & TSV_TORN_OK) {
			warnx("%s:%lu: skipping a torn last row (%zd bytes, no newline)",
			      t->path, t->lineno, len);
			return 0;
		}
		tsv_error(t, "torn row: the file ends without a newline");
		return -1;
	}
	t->buf[--len] = '\0';
	if (memchr(t->buf, '\0', len)) {
		tsv_error(t, "NUL byte in the line");
		return -1;
	}
	if (len > 0 && t->buf[len - 1] == '\r') {
		tsv_error(t, "CR line ending");
		return -1;
	}
	if (memchr(t->buf, '\r', len)) {
		tsv_error(t, "CR inside the line");
		return -1;
	}
	return 1;
}

/* Split buf at TABs into at most max fields; returns the real count. */
static int split(char *p, char **f, int max)
{
	int n = 0;

	for (;;) {
		char *tab = strchr(p, '\t');

		if (n < max)
			f[n] = p;
		n++;
		if (!tab)
			break;
		*tab = '\0';
		p = tab + 1;
	}
	return n;
}

int tsv_open(struct tsv *t, const char *path, int flags)
{
	int rc, n, i;

	memset(t, 0, sizeof(*t));
	t->path = path;
	t->flags = flags & ~TSV_TORN_OK;
	t->fp = fopen(path, "r");
	if (!t->fp) {
		t->sys_errno = errno;
		fprintf(stderr, "%s: %s: cannot open: %s\n", prog_name, path,
			strerror(errno));
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
	t->flags = flags;
	if (!t->buf[0]) {
		tsv_error(t, "empty header line");
		return -1;
	}
	/* One column more than TABs; the rows are split to this count. */
	for (n = 1, i = 0; t->buf[i]; i++)
		n += t->buf[i] == '\t';
	t->head_buf = xstrdup(t->buf);
	t->head = xcalloc(n, sizeof(*t->head));
	t->field = xcalloc(n, sizeof(*t->field));
	t->ncols = split(t->head_buf, t->head, n);
	for (i = 0; i < n; i++) {
		if (!t->head[i][0]) {
			tsv_error(t, "header column %d has no name", i + 1);
			return -1;
		}
	}
	return 0;
}

/* The index of column NAME in HEAD, or -1 (said, naming PATH, if given). */
static int head_col(char *const *head, int ncols, const char *name,
		    const char *path)
{
	int i;

	for (i = 0; i < ncols; i++)
		if (!strcmp(head[i], name))
			return i;
	if (path)
		fprintf(stderr, "%s: %s:1: no column '%s' in the header\n",
			prog_name, path, name);
	return -1;
}

int tsv_col(const struct tsv *t, const char *name)
{
	return head_col(t->head, t->ncols, name, NULL);
}

int tsv_need(const struct tsv *t, const char *name)
{
	return head_col(t->head, t->ncols, name, t->path);
}

int tsv_expect(const struct tsv *t, const char *const *cols, int ncols)
{
	int i;

	for (i = 0; i < ncols && i < t->ncols; i++)
		if (strcmp(t->head[i], cols[i]))
			break;
	if (i == ncols && t->ncols == ncols)
		return 0;
	fprintf(stderr, "%s: %s:1: bad header, expected:", prog_name,
		t->path);
	for (i = 0; i < ncols; i++)
		fprintf(stderr, " %s", cols[i]);
	fprintf(stderr, " (TAB separated)\n");
	return -1;
}

int tsv_next(struct tsv *t)
{
	int rc = read_line(t), n, i;

	if (rc <= 0)
		return rc;
	if (!t->buf[0]) {
		tsv_error(t, "empty line");
		return -1;
	}
	n = split(t->buf, t->field, t->ncols);
	if (n != t->ncols) {
		tsv_error(t, "%d fields, the header has %d", n, t->ncols);
		return -1;
	}
	if (!(t->flags & TSV_EMPTY_OK)) {
		for (i = 0; i < n; i++) {
			if (!t->field[i][0]) {
				tsv_error(t, "column '%s' is empty (use '-')",
					  t->head[i]);
				return -1;
			}
		}
	}
	return 1;
}

void tsv_close(struct tsv *t)
{
	if (t->fp)
		fclose(t->fp);
	free(t->buf);
	free(t->head_buf);
	free(t->head);
	free(t->field);
	memset(t, 0, sizeof(*t));
}

int tsv_long(const struct tsv *t, int col, long min, long max, long *out)
{
	if (!parse_long(t->field[col], min, max, out))
		return 0;
	tsv_error(t, "column '%s': '%s' is not a number from %ld to %ld",
		  t->head[col], t->field[col], min, max);
	return -1;
}

int tsv_enum(const struct tsv *t, int col, const char *const *names, int n)
{
	struct sb allowed;
	int i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(t->field[col], names[i]))
			return i;
	sb_init(&allowed);
	for (i = 0; i < n; i++)
		if (names[i])
			sb_addf(&allowed, "%s%s", allowed.len ? ", " : "",
				names[i]);
	tsv_error(t, "column '%s': unknown value '%s' (one of: %s)",
		  t->head[col], t->field[col], allowed.buf);
	sb_free(&allowed);
	return -1;
}

int tsv_path(const struct tsv *t, int col)
{
	if (is_tree_path(t->field[col]))
		return 0;
	tsv_error(t, "column '%s': '%s' is not a path relative to the tree root (no '/' at the start, no '.' or '..')",
		  t->head[col], t->field[col]);
	return -1;
}

int tsv_ident(const struct tsv *t, int col)
{
	if (is_identifier(t->field[col]))
		return 0;
	tsv_error(t, "column '%s': '%s' is not a C identifier", t->head[col],
		  t->field[col]);
	return -1;
}

int tsv_load(struct tsv_table *tab, const char *path, int flags)
{
	struct tsv t;
	size_t cap = 0;
	int rc, i;

	memset(tab, 0, sizeof(*tab));
	tab->path = path;
	if (tsv_open(&t, path, flags))
		return -1;
	tab->ncols = t.ncols;
	tab->head = xcalloc(t.ncols, sizeof(*tab->head));
	for (i = 0; i < t.ncols; i++)
		tab->head[i] = xstrdup(t.head[i]);
	while ((rc = tsv_next(&t)) > 0) {
		char **row = xcalloc(t.ncols, sizeof(*row));

		for (i = 0; i < t.ncols; i++)
			row[i] = xstrdup(t.field[i]);
		if (tab->nrows == cap) {
			cap = cap ? cap * 2 : 64;
			tab->rows = xrealloc(tab->rows,
					     cap * sizeof(*tab->rows));
			tab->lineno = xrealloc(tab->lineno,
					       cap * sizeof(*tab->lineno));
		}
		tab->rows[tab->nrows] = row;
		tab->lineno[tab->nrows++] = t.lineno;
	}
	tsv_close(&t);
	if (rc < 0) {
		tsv_table_free(tab);
		return -1;
	}
	return 0;
}

int tsv_table_col(const struct tsv_table *tab, const char *name)
{
	return head_col(tab->head, tab->ncols, name, NULL);
}

int tsv_table_need(const struct tsv_table *tab, const char *name)
{
	return head_col(tab->head, tab->ncols, name, tab->path);
}

void tsv_table_free(struct tsv_table *tab)
{
	size_t r;
	int i;

	for (r = 0; r < tab->nrows; r++) {
		for (i = 0; i < tab->ncols; i++)
			free(tab->rows[r][i]);
		free(tab->rows[r]);
	}
	for (i = 0; i < tab->ncols; i++)
		free(tab->head[i]);
	free(tab->head);
	free(tab->rows);
	free(tab->lineno);
	memset(tab, 0, sizeof(*tab));
}
