// SPDX-License-Identifier: GPL-2.0
/*
 * ctok: a C tokenizer for text scans that need no parser.  See ctok.h.
 */
#include <string.h>

#include "base.h"
#include "ctok.h"

static const char *const puncts[] = {
	/* longest first, so that ">>=" wins over ">>" and ">" */
	"<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==",
	"!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
	"##",
};

static void push(struct toks *t, enum tok_kind kind, const char *s,
		 size_t len, unsigned int line)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 4096;
		t->v = xrealloc(t->v, t->cap * sizeof(*t->v));
	}
	t->v[t->n].kind = kind;
	t->v[t->n].s = s;
	t->v[t->n].len = len;
	t->v[t->n].line = line;
	t->n++;
}

/*
 * Split BUF into tokens; comments vanish.  Every token knows the line it
 * starts on; newlines in comments and backslash-newlines, in a literal
 * too, count.
 */
void tokenize(const char *buf, size_t len, struct toks *t)
{
	size_t i = 0, k;
	unsigned int line = 1;

	t->n = 0;
	while (i < len) {
		char c = buf[i];

		if (c == '\n') {
			line++;
			i++;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' ||
			   c == '\v' || c == '\\') {
			i++;
		} else if (c == '/' && i + 1 < len && buf[i + 1] == '*') {
			for (i += 2; i + 1 < len; i++) {
				if (buf[i] == '*' && buf[i + 1] == '/')
					break;
				if (buf[i] == '\n')
					line++;
			}
			i += 2;
		} else if (c == '/' && i + 1 < len && buf[i + 1] == '/') {
			while (i < len && buf[i] != '\n')
				i++;
		} else if (c == '"' || c == '\'') {
			unsigned int first = line;

			k = i;
			for (i++; i < len && buf[i] != c && buf[i] != '\n'; i++) {
				if (buf[i] != '\\')
					continue;
				i++;
				if (i < len && buf[i] == '\n')
					line++;
			}
			i++;
			if (c == '"')
				push(t, T_STRING, buf + k,
				     (i < len ? i : len) - k, first);
			else
				push(t, T_OTHER, buf, 0, first);
		} else if (is_ident_start(c)) {
			k = i;
			while (i < len && is_ident_char(buf[i]))
				i++;
			push(t, T_IDENT, buf + k, i - k, line);
		} else if (c >= '0' && c <= '9') {
			while (i < len && (is_ident_char(buf[i]) || buf[i] == '.'))
				i++;
			push(t, T_OTHER, buf, 0, line);
		} else {
			size_t n = 1, p;

			for (p = 0; p < ARRAY_SIZE(puncts); p++) {
				size_t pl = strlen(puncts[p]);

				if (i + pl <= len && !memcmp(buf + i, puncts[p], pl)) {
					n = pl;
					break;
				}
			}
			push(t, T_PUNCT, buf + i, n, line);
			i += n;
		}
	}
}

int tok_is(const struct toks *t, size_t i, const char *s)
{
	return i < t->n &&
	       (t->v[i].kind == T_IDENT || t->v[i].kind == T_PUNCT) &&
	       t->v[i].len == strlen(s) && !memcmp(t->v[i].s, s, t->v[i].len);
}

int tok_in(const struct toks *t, size_t i, const char *const *set, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++) {
		if (tok_is(t, i, set[k]))
			return 1;
	}
	return 0;
}

size_t tok_close(const struct toks *t, size_t open, size_t end)
{
	char oc = *t->v[open].s;
	char cc = oc == '{' ? '}' : oc == '(' ? ')' : ']';
	size_t i;
	int depth = 0;

	for (i = open; i < end; i++) {
		const struct tok *k = &t->v[i];

		if (k->kind != T_PUNCT || k->len != 1)
			continue;
		if (*k->s == oc)
			depth++;
		else if (*k->s == cc && --depth == 0)
			return i;
	}
	return end;
}

int tok_directive(const struct toks *t, size_t i)
{
	return tok_is(t, i, "#") &&
	       (i == 0 || t->v[i - 1].line < t->v[i].line);
}

void tok_continuations(const char *buf, size_t len, unsigned char **cont,
		       size_t *ncont)
{
	unsigned int line = 1;
	unsigned char *cn;
	size_t i;
	int incom = 0;

	for (i = 0; i < len; i++)
		line += buf[i] == '\n';
	if (line + 2 > *ncont) {
		*ncont = line + 2;
		*cont = xrealloc(*cont, *ncont);
	}
	cn = *cont;
	memset(cn, 0, *ncont);
	for (i = 0, line = 1; i < len; i++) {
		char c = buf[i];

		if (incom) {
			if (c == '*' && i + 1 < len && buf[i + 1] == '/') {
				incom = 0;
				i++;
			} else if (c == '\n') {
				cn[line++] = 1;
			}
		} else if (c == '/' && i + 1 < len && buf[i + 1] == '*') {
			incom = 1;
			i++;
		} else if (c == '/' && i + 1 < len && buf[i + 1] == '/') {
			while (i + 1 < len && buf[i + 1] != '\n')
				i++;
		} else if (c == '"' || c == '\'') {
			while (i + 1 < len && buf[i + 1] != c &&
			       buf[i + 1] != '\n') {
				if (buf[++i] == '\\' && i + 1 < len &&
				    buf[i + 1] != '\n')
					i++;
			}
			if (i + 1 < len && buf[i + 1] == c)
				i++;
		} else if (c == '\n') {
			if ((i >= 1 && buf[i - 1] == '\\') ||
			    (i >= 2 && buf[i - 1] == '\r' && buf[i - 2] == '\\'))
				cn[line] = 1;
			line++;
		}
	}
}
