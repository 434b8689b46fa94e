// SPDX-License-Identifier: GPL-2.0
/*
 * cover-deps.c - cover-plan's dependency closure: when a symbol that a
 * candidate's file needs does not stick, the off symbols its conditions
 * name, to add and try again (see cover-plan.c).
 *
 * A wanted symbol with a prompt that olddefconfig dropped has a condition
 * that is false: its depends on lines and the enclosing if/menu blocks.
 * Each false conjunct that is a plain symbol or an A || B of them names
 * one off symbol to turn on (m if tristate, else y), when that one may be:
 * defined for x86, with a prompt, bool or tristate, not a choice member,
 * not one of the base's basics and not an x86 platform or CPU option.
 * Then scripts/config and olddefconfig run again, asking again only for
 * the dropped symbols whose conditions name something that changed, for
 * at most MAX_ROUNDS more rounds.  This file only chooses what to ask
 * for; the .config that olddefconfig leaves is the judge.  It lives apart
 * from cover-kconfig.c, which reads the Kconfig facts it works on.
 */
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "strtab.h"
#include "cover.h"

/* ---- dependencies: what to add when a symbol does not stick ---------- */

/*
 * Never turned on for a dependency: the base's basics (its word size,
 * SMP, modules, the test-only and debugging switches that change every
 * object).
 */
static const char *const basics[] = {
	"64BIT", "X86_32", "X86_64", "SMP", "MODULES", "UML", "COMPILE_TEST",
	"EXPERT", "BROKEN", "PREEMPT_RT", "KASAN", "KCSAN", "KMSAN", "UBSAN",
	"KCOV", "GCOV_KERNEL", "DEBUG_INFO",
};

/* The expression of a condition: what follows "if", "depends on". */
const char *cond_expr(const char *cond)
{
	static const char dflt[] = "has a default if ";
	const char *on = strstr(cond, "depends on ");

	if (!strncmp(cond, dflt, strlen(dflt)))
		return cond + strlen(dflt);
	return on ? on + strlen("depends on ") : cond + strlen("if ");
}

static int tri(char c)
{
	return c == 'y' ? 2 : c == 'm' ? 1 : 0;
}

/* [*B, *E) without blanks and enclosing parentheses. */
static void strip(const char **b, const char **e)
{
	for (;;) {
		const char *p;
		int depth = 0;

		while (*b < *e && (**b == ' ' || **b == '\t'))
			(*b)++;
		while (*e > *b && ((*e)[-1] == ' ' || (*e)[-1] == '\t'))
			(*e)--;
		if (*e - *b < 2 || **b != '(' || (*e)[-1] != ')')
			return;
		for (p = *b; p < *e - 1; p++) {
			depth += (*p == '(') - (*p == ')');
			if (!depth)
				return;	/* (A) && (B) */
		}
		(*b)++;
		(*e)--;
	}
}

/* The end of the part of [B, E) before the first top-level OP. */
static const char *part_end(const char *b, const char *e, const char *op)
{
	int depth = 0;

	for (; b < e; b++) {
		depth += (*b == '(') - (*b == ')');
		if (!depth && b + 1 < e && b[0] == op[0] && b[1] == op[1])
			return b;
	}
	return e;
}

/* X, !X, X=y, X!=n, or a constant y, m, n. */
struct atom {
	uint32_t id;		/* STR_NONE: a constant or an unknown symbol */
	int val;		/* a constant's value */
	int neg;
	char op;		/* 0, '=' or '!' (!=) */
	int rhs;
};

static int parse_atom(const char *b, const char *e, struct atom *a)
{
	char name[128];
	size_t n = 0;

	memset(a, 0, sizeof(*a));
	if (b < e && *b == '!' && (b + 1 == e || b[1] != '=')) {
		a->neg = 1;
		b++;
		strip(&b, &e);
	}
	while (b < e && is_ident_char((unsigned char)*b) &&
	       n < sizeof(name) - 1)
		name[n++] = *b++;
	name[n] = '\0';
	if (!n)
		return -1;
	a->id = strtab_find(&names, name);
	if (!strcmp(name, "y") || !strcmp(name, "m") || !strcmp(name, "n")) {
		a->id = STR_NONE;
		a->val = tri(name[0]);
	} else if (a->id != STR_NONE && syms[a->id].type == T_OTHER) {
		return -1;
	}
	strip(&b, &e);
	if (b == e)
		return 0;
	if (a->neg || !(*b == '=' || (*b == '!' && b[1] == '=')))
		return -1;
	a->op = *b;
	b += *b == '=' ? 1 : 2;
	strip(&b, &e);
	if (b < e && *b == '"' && e - b == 3 && e[-1] == '"') {
		b++;
		e--;
	}
	if (e - b != 1 || !strchr("ymn", *b))
		return -1;
	a->rhs = tri(*b);
	return 0;
}

static int atom_true(const struct atom *a)
{
	int v = a->id == STR_NONE ? a->val : tri(syms[a->id].now);

	if (a->op == '=')
		return v == a->rhs;
	if (a->op == '!')
		return v != a->rhs;
	return a->neg ? v < 2 : v > 0;
}

/* The value that makes A true, if adding A's symbol may: m, y or 0. */
static char atom_fix(const struct atom *a)
{
	const struct sym *y;
	size_t i;

	if (a->neg || a->id == STR_NONE || (a->op == '!' && a->rhs) ||
	    (a->op == '=' && !a->rhs))
		return 0;
	y = &syms[a->id];
	if (!y->where || y->other_arch || !y->prompt || y->choice ||
	    (y->type != T_BOOL && y->type != T_TRISTATE))
		return 0;
	for (i = 0; i < ARRAY_SIZE(basics); i++)
		if (!strcmp(names.strs[a->id], basics[i]))
			return 0;
	/* The x86 platform and CPU options (X86_UV, NUMA, ...) too. */
	if (!strncmp(y->where, "arch/x86/Kconfig:", 17) ||
	    !strncmp(y->where, "arch/x86/Kconfig.cpu:", 21))
		return 0;
	if (a->op == '=' && a->rhs == 2)
		return 'y';
	if (y->type == T_BOOL)
		return a->op == '=' ? 0 : 'y';
	return 'm';
}

/*
 * One conjunct of SYM's condition COND: when it is false, is a plain
 * symbol or an A || B of them, and one side may be turned on, add that
 * side for SYM.  Returns 1 when it added one.
 */
static int fix_conjunct(uint32_t sym, const char *cond, const char *b,
			const char *e)
{
	struct atom a[8];
	size_t n = 0, i;

	while (b < e) {
		const char *pe = part_end(b, e, "||"), *xb = b, *xe = pe;

		strip(&xb, &xe);
		if (n == ARRAY_SIZE(a) || parse_atom(xb, xe, &a[n]) < 0)
			return 0;
		if (atom_true(&a[n]))
			return 0;
		n++;
		b = pe < e ? pe + 2 : e;
	}
	for (i = 0; i < n; i++) {
		struct sym *y = a[i].id == STR_NONE ? NULL : &syms[a[i].id];

		if (y && (y->need || y->added))
			return 0;	/* asked for already: wait for it */
	}
	for (i = 0; i < n; i++) {
		char v = atom_fix(&a[i]);
		struct sym *y;

		if (!v)
			continue;
		y = &syms[a[i].id];
		y->added = v;
		y->for_id = sym;
		y->for_cond = cond;
		y->retry = 1;
		syms[sym].retry = 1;
		return 1;
	}
	return 0;
}

/* Whether SYM is wanted and did not stick, so olddefconfig dropped it. */
static int dropped(const struct sym *y)
{
	return (y->need || y->added) && !y->now && !y->choice;
}

/* Whether olddefconfig changed the symbol last time, or it is marked. */
static int news(uint32_t id)
{
	return syms[id].retry || syms[id].now != syms[id].prev;
}

/*
 * A conjunct [B, E) of a dropped symbol's condition: 2 when it is false
 * and names nothing new (the symbol would drop again), 1 when it names a
 * symbol with news, else 0 (true, or not an expression of plain symbols).
 */
static int conjunct_state(const char *b, const char *e)
{
	char *x = xstrndup(b, e - b);
	uint32_t c[32];
	size_t nc = cond_syms(x, c, ARRAY_SIZE(c)), m;
	int state = 2;

	free(x);
	for (m = 0; m < nc; m++)
		if (news(c[m]))
			return 1;
	while (b < e && state) {
		const char *pe = part_end(b, e, "||"), *xb = b, *xe = pe;
		struct atom a;

		strip(&xb, &xe);
		if (parse_atom(xb, xe, &a) < 0 || atom_true(&a))
			state = 0;
		b = pe < e ? pe + 2 : e;
	}
	return state;
}

/* Calls FN for each top-level conjunct of each condition of Y. */
static int each_conjunct(const struct sym *y, uint32_t id,
			 int (*fn)(uint32_t id, const char *cond,
				   const char *b, const char *e))
{
	size_t j;
	int r = 0;

	for (j = 0; j < y->ncond; j++) {
		const char *b = cond_expr(y->cond[j]);
		const char *e = b + strlen(b);

		strip(&b, &e);
		while (b < e) {
			const char *pe = part_end(b, e, "&&"), *xb = b;
			const char *xe = pe;

			strip(&xb, &xe);
			r |= fn(id, y->cond[j], xb, xe);
			b = pe < e ? pe + 2 : e;
		}
	}
	return r;
}

static int retry_state(uint32_t id, const char *cond, const char *b,
		       const char *e)
{
	(void)id;
	(void)cond;
	return 1 << conjunct_state(b, e);
}

/*
 * Mark for asking again the dropped symbols that may stick now: none of
 * their conjuncts hopeless, and one naming a symbol marked or changed by
 * the last olddefconfig (SND_SEQ_DUMMY when SOUND was added for SND).
 * The others would drop again, and scripts/config takes its time over
 * each.  Returns how many it marked.
 */
static size_t mark_retries(void)
{
	size_t i, n = 0, more = 1;
	int st;

	while (more) {
		more = 0;
		for (i = 0; i < names.n; i++) {
			struct sym *y = &syms[i];

			if (y->retry || !dropped(y))
				continue;
			st = each_conjunct(y, i, retry_state);
			if ((st & 2) && !(st & 4)) {
				y->retry = 1;
				more = 1;
				n++;
			}
		}
	}
	return n;
}

/*
 * A round of the dependency closure: for each wanted symbol with a
 * prompt that did not stick, the off symbols its conditions need, and
 * the symbols to ask for again (retry).  Only chooses what to ask for:
 * olddefconfig decides.  Returns how many it added or marked: none, and
 * another round would change nothing.
 */
size_t depends_round(void)
{
	size_t i, added = 0;

	for (i = 0; i < names.n; i++)
		syms[i].retry = 0;
	for (i = 0; i < names.n; i++)
		if (dropped(&syms[i]) && (syms[i].prompt ||
					  syms[i].def_always))
			added += each_conjunct(&syms[i], i, fix_conjunct);
	return added + mark_retries();
}
