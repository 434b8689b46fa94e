/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CANDIDATES_PERM_H
#define CANDIDATES_PERM_H

/*
 * Parse a permission as written in module_param()/ctl_table: an octal
 * or decimal number, S_I* names, joined with '|' and parentheses.
 * Returns the mode bits, or -1 if any part is not understood.
 */
long perm_parse(const char *s);

#define PERM_WRITE_BITS 0222

#endif
