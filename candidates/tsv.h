/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tsv: read a fact file: one header line, TAB separated fields, no
 * quoting, no empty lines.  Errors name FILE:LINE.
 */
#ifndef CANDIDATES_TSV_H
#define CANDIDATES_TSV_H

#include <stdio.h>

#include "strtab.h"

#define TSV_MAX_FIELDS 16

struct tsv {
	FILE *fp;
	const char *path;
	unsigned long lineno;
	char *buf;
	size_t cap;
	int ncols;
	char *field[TSV_MAX_FIELDS];
};

/* Open PATH and check that its header is exactly COLS (NCOLS names). */
int tsv_open(struct tsv *t, const char *path, const char *const *cols,
	     int ncols);
/* Read the next row into t->field[]: 1 = row, 0 = end of file, -1 = error. */
int tsv_next(struct tsv *t);
void tsv_close(struct tsv *t);
/* Print "PATH:LINE: " followed by the message, to stderr. */
void tsv_error(const struct tsv *t, const char *fmt, ...);
/* Parse a positive line number field; -1 and a message on error. */
long tsv_lineno(const struct tsv *t, int col);

#endif
