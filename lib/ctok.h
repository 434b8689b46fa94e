/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctok: a C tokenizer for text scans that need no parser (cocci/mentions,
 * cocci/layouts, cocci/protos, cocci/callers).  Comments vanish, string
 * literals are T_STRING, numbers and char literals T_OTHER, and every
 * token knows its line (a backslash-newline counts, in a literal too).
 */
#ifndef RO_CTOK_H
#define RO_CTOK_H

#include <stddef.h>

/*
 * T_STRING: a string literal, its quotes included (s, len); T_OTHER: a
 * number or a character literal (len 0).
 */
enum tok_kind { T_IDENT, T_PUNCT, T_STRING, T_OTHER };

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

/*
 * The index of the bracket that closes the one ({, ( or [) at OPEN, the
 * brackets between counted, or END if none does before END.
 */
size_t tok_close(const struct toks *t, size_t open, size_t end);
/* 1 if token I is a '#' that is the first token of its line: a directive. */
int tok_directive(const struct toks *t, size_t i);

/*
 * (*CONT)[L] = 1 if physical line L of BUF (1-based) goes on to the next
 * for a preprocessor line: it ends with '\' (or '\' CR), or its newline
 * is inside a comment (the preprocessor replaces a comment by a space
 * before it ends directives).  *CONT is grown to *NCONT >= its lines + 2
 * and zeroed first.
 */
void tok_continuations(const char *buf, size_t len, unsigned char **cont,
		       size_t *ncont);

#endif
