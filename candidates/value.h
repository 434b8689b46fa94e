/* SPDX-License-Identifier: GPL-2.0 */
/*
 * value: what a variable protects, candidates.tsv's value column
 * (FORMATS.md): from its type (valtypes.tsv, cocci/layouts --values),
 * its uses (uses.tsv) and its parameters.
 */
#ifndef CANDIDATES_VALUE_H
#define CANDIDATES_VALUE_H

#include <stdio.h>

#include "classify.h"

/* In rank order: the report and the queue sort by it. */
enum value {
	V_FN, V_OBJECT, V_BOUND, V_POLICY, V_PARAM, V_SETTING, V_NVALUES
};

extern const char *const value_names[V_NVALUES];

/*
 * Read DIR/uses.tsv and DIR/valtypes.tsv (both optional: without them
 * only the declared type and the parameters count) and decide the value
 * of every definition of J.  0, or the exit code after a FILE:LINE
 * message.
 */
int value_all(const struct judge *j, const char *dir);
/* The value of definition D (after value_all()). */
const char *value_of(uint32_t d);
/* Why: one line, for --explain. */
const char *value_why(uint32_t d);

#endif
