/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tsv.h - the one strict reader of the TSV files that pass between the
 * stages (FORMATS.md): one header line, fields separated by one TAB, no
 * quoting, every line ended by '\n'.  Columns are taken by header name.
 *
 * Rejected, with "PATH:LINE: what" on stderr: a NUL byte, a CR, a row
 * with another field count than the header, an empty line, a last row
 * without its newline (torn), an empty field unless TSV_EMPTY_OK, and a
 * read error (never taken for the end of the file).
 */
#ifndef RO_TSV_H
#define RO_TSV_H

#include <stdio.h>

#include "base.h"

enum {
	TSV_EMPTY_OK = 1,	/* empty fields are allowed */
	TSV_TORN_OK = 2,	/* a torn last row is skipped with a warning */
};

struct tsv {
	FILE *fp;
	const char *path;
	unsigned long lineno;	/* of the row just read */
	int flags;
	char *buf;
	size_t cap;
	char *head_buf;
	char **head;		/* header names */
	int ncols;
	char **field;		/* the fields of the row just read */
	int sys_errno;		/* errno of an open or read failure, else 0 */
};

/* Open PATH and read its header; 0, or -1 with a message. */
int tsv_open(struct tsv *t, const char *path, int flags);
/* Index of column NAME, or -1. */
int tsv_col(const struct tsv *t, const char *name);
/* Like tsv_col(), with "PATH:1: no column NAME" when it is missing. */
int tsv_need(const struct tsv *t, const char *name);
/* The header is exactly COLS (NCOLS names, in order); else -1 and why. */
int tsv_expect(const struct tsv *t, const char *const *cols, int ncols);
/* Next row into t->field[]: 1 a row, 0 the end, -1 an error (reported). */
int tsv_next(struct tsv *t);
void tsv_close(struct tsv *t);
/* "PATH:LINE: message" on stderr. */
void tsv_error(const struct tsv *t, const char *fmt, ...)
	__printf(2, 3);
/* Field COL as a number in [MIN, MAX]; -1 and a message when it is not. */
int tsv_long(const struct tsv *t, int col, long min, long max, long *out);
/*
 * Field COL as one of NAMES (N of them): its index, or -1 and a message
 * naming the value and the allowed ones.
 */
int tsv_enum(const struct tsv *t, int col, const char *const *names, int n);
/* Field COL is a tree path / a C identifier (base.h); else -1, reported. */
int tsv_path(const struct tsv *t, int col);
int tsv_ident(const struct tsv *t, int col);

/* A whole file in memory, for programs that join tables. */
struct tsv_table {
	const char *path;
	char **head;
	int ncols;
	char ***rows;		/* rows[i][col], owned by the table */
	unsigned long *lineno;	/* file line of each row */
	size_t nrows;
};

/* Load all of PATH; 0, or -1 with a message naming PATH:LINE. */
int tsv_load(struct tsv_table *tab, const char *path, int flags);
int tsv_table_col(const struct tsv_table *tab, const char *name);
int tsv_table_need(const struct tsv_table *tab, const char *name);
void tsv_table_free(struct tsv_table *tab);

#endif
