/* SPDX-License-Identifier: GPL-2.0 */
/*
 * queue-tsv: read a whole TSV file with a header line; columns are looked
 * up by name, so their order does not matter.
 */
#ifndef QUEUE_TSV_H
#define QUEUE_TSV_H

#include <stddef.h>

struct table {
	const char *path;
	char *data;		/* the file, split in place */
	char **head;		/* header names */
	size_t ncols;
	char ***rows;		/* rows[i][col] */
	unsigned long *lineno;	/* file line of each row */
	size_t nrows;
};

/* Load PATH; 0 on success, -1 with a message naming PATH:LINE. */
int table_load(struct table *t, const char *path);
/* Index of column NAME, or -1. */
int table_col(const struct table *t, const char *name);
/* Like table_col() but prints "PATH: no column NAME" and returns -1. */
int table_need(const struct table *t, const char *name);
void table_free(struct table *t);

#endif
