/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cattrs.h - the attributes and annotations the token scans skip in a
 * struct or union body (cocci/layouts, cocci/protos): a member's type
 * and name are the words around them.
 */
#ifndef RO_CATTRS_H
#define RO_CATTRS_H

#include <stddef.h>

/*
 * Each may take a parenthesised argument list (__aligned(8),
 * __counted_by(n)); the sparse annotations (__rcu, __user...) are in it
 * too.
 */
extern const char *const c_member_attrs[];
extern const size_t n_c_member_attrs;

#endif
