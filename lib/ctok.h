/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctok: a C tokenizer for text scans that need no parser (cocci/mentions,
 * cocci/layouts).  Comments, strings and char literals vanish, numbers
 * are T_OTHER, and every token knows its line.
 */
#ifndef RO_CTOK_H
#define RO_CTOK_H

#include <stddef.h>

enum tok_kind { T_IDENT, T_PUNCT, T_OTHER };

struct tok {
	enum tok_kind kind;
	const char *s;
	size_t len;
	unsigned int line;
};

struct toks {
	struct tok *v;
	size_t n, cap;
};

void tokenize(const char *buf, size_t len, struct toks *t);
int tok_is(const struct toks *t, size_t i, const char *s);
int tok_in(const struct toks *t, size_t i, const char *const *set, size_t n);

#endif
