// SPDX-License-Identifier: GPL-2.0
/*
 * queue-tsv: read a whole TSV file with a header line; columns are looked
 * up by name, so their order does not matter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue-tsv.h"
#include "queue-util.h"

static size_t split(char *line, char **out, size_t max)
{
	size_t n = 0;
	char *p = line;

	for (;;) {
		char *tab = strchr(p, '\t');

		if (n < max)
			out[n] = p;
		n++;
		if (!tab)
			break;
		*tab = '\0';
		p = tab + 1;
	}
	return n;
}

static size_t count_fields(const char *line)
{
	size_t n = 1;

	for (; *line; line++)
		n += *line == '\t';
	return n;
}

int table_load(struct table *t, const char *path)
{
	size_t len, cap = 64;
	char *p, *nl;
	unsigned long lineno = 1;

	memset(t, 0, sizeof(*t));
	t->path = path;
	t->data = read_file(path, &len);
	if (!t->data)
		return -1;
	if (memchr(t->data, '\0', len)) {
		fprintf(stderr, "queue: %s: NUL byte in file\n", path);
		return -1;
	}
	nl = strchr(t->data, '\n');
	if (!len || !nl) {
		fprintf(stderr, "queue: %s:1: no header line\n", path);
		return -1;
	}
	*nl = '\0';
	t->ncols = count_fields(t->data);
	t->head = xmalloc(t->ncols * sizeof(*t->head));
	split(t->data, t->head, t->ncols);
	t->rows = xmalloc(cap * sizeof(*t->rows));
	t->lineno = xmalloc(cap * sizeof(*t->lineno));
	for (p = nl + 1; *p; p = nl + 1) {
		size_t n;

		lineno++;
		nl = strchr(p, '\n');
		if (!nl) {
			fprintf(stderr, "queue: %s:%lu: last line has no newline (truncated write?)\n",
				path, lineno);
			return -1;
		}
		*nl = '\0';
		if (nl > p && nl[-1] == '\r') {
			fprintf(stderr, "queue: %s:%lu: CR line ending\n",
				path, lineno);
			return -1;
		}
		if (!*p || *p == '#')
			continue;
		n = count_fields(p);
		if (n != t->ncols) {
			fprintf(stderr, "queue: %s:%lu: %zu fields, the header has %zu\n",
				path, lineno, n, t->ncols);
			return -1;
		}
		if (t->nrows == cap) {
			cap *= 2;
			t->rows = xrealloc(t->rows, cap * sizeof(*t->rows));
			t->lineno = xrealloc(t->lineno,
					     cap * sizeof(*t->lineno));
		}
		t->rows[t->nrows] = xmalloc(n * sizeof(char *));
		split(p, t->rows[t->nrows], n);
		t->lineno[t->nrows++] = lineno;
	}
	return 0;
}

int table_col(const struct table *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->ncols; i++)
		if (!strcmp(t->head[i], name))
			return (int)i;
	return -1;
}

int table_need(const struct table *t, const char *name)
{
	int c = table_col(t, name);

	if (c < 0)
		fprintf(stderr, "queue: %s:1: no column '%s' in the header\n",
			t->path, name);
	return c;
}

void table_free(struct table *t)
{
	size_t i;

	for (i = 0; i < t->nrows; i++)
		free(t->rows[i]);
	free(t->rows);
	free(t->lineno);
	free(t->head);
	free(t->data);
	memset(t, 0, sizeof(*t));
}
