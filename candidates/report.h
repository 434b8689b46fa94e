/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CANDIDATES_REPORT_H
#define CANDIDATES_REPORT_H

#include "classify.h"

/* Write candidates.tsv to PATH atomically (PATH.tmp, fsync, rename). */
int report_write(const struct judge *j, const char *path);
/* Print the reasoning for every definition named NAME; 0 if none. */
int report_explain(const struct judge *j, const char *name, FILE *out);

#endif
