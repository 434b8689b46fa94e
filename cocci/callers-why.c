// SPDX-License-Identifier: GPL-2.0
/*
 * callers-why.c: the table of init-only names and the --why lines (see
 * callers.c).
 */
#include <stdlib.h>
#include <string.h>

#include "callers.h"

static const char *const kill_names[] = {
	[K_NONE] = "-",
	[K_ADDR] = "a mention that is not a call",
	[K_FILE] = "a mention at file scope",
	[K_DEFINE] = "a mention in a #define body",
	[K_DIRECTIVE] = "a mention in a preprocessor line",
	[K_STRING] = "a mention in a string literal",
	[K_ASM] = "a mention in a .S file",
	[K_RUST] = "a mention in a .rs file",
	[K_OTHER] = "a mention in a syscall table or linker script",
	[K_UNKNOWN] = "a mention in a body whose function name is unclear",
	[K_CONFUSED] = "a mention in a file whose braces or #if branches do not balance",
	[K_PASTE] = "a literal fragment pasted with ## in a #define body",
	[K_ARG] = "a bare macro argument",
};

/*
 * Calls of N, direct or through the members it is stored in, and the
 * distinct names of their callers; *first: the first call site (a
 * direct one if there is one).
 */
static void count_calls(uint32_t n, uint32_t *calls, uint32_t *callers,
			struct edge *first)
{
	static uint32_t *seen, *fseen, stamp;
	uint32_t e, k;

	if (!seen) {
		seen = xcalloc(strs.n + 1, sizeof(*seen));
		fseen = xcalloc(strs.n + 1, sizeof(*fseen));
	}
	stamp++;
	*calls = *callers = 0;
	first->caller = STR_NONE;
	for (e = in_start[n]; e < in_start[n + 1]; e++) {
		const struct edge *g = &edges[in_edge[e]];

		if (first->caller == STR_NONE)
			*first = *g;
		*calls += g->count;
		if (seen[g->caller] != stamp) {
			seen[g->caller] = stamp;
			(*callers)++;
		}
	}
	for (e = st_start[n]; e < st_start[n + 1]; e++) {
		uint32_t f = stores[st_idx[e]].field;

		if (fseen[f] == stamp)
			continue;
		fseen[f] = stamp;
		for (k = fc_start[f]; k < fc_start[f + 1]; k++) {
			const struct fcall *c = &fcalls[fc_idx[k]];

			if (first->caller == STR_NONE) {
				first->caller = c->caller;
				first->file = c->file;
				first->line = c->line;
			}
			(*calls)++;
			if (seen[c->caller] != stamp) {
				seen[c->caller] = stamp;
				(*callers)++;
			}
		}
	}
}

/* The members N is stored in, comma-separated, or "-". */
static void print_via(uint32_t n)
{
	static uint32_t *seen, stamp;
	uint32_t e, f;
	int any = 0;

	if (!seen)
		seen = xcalloc(strs.n + 1, sizeof(*seen));
	stamp++;
	for (e = st_start[n]; e < st_start[n + 1]; e++) {
		f = stores[st_idx[e]].field;
		if (seen[f] == stamp)
			continue;
		seen[f] = stamp;
		printf("%s%s", any ? "," : "", strtab_str(&strs, f));
		any = 1;
	}
	if (!any)
		putchar('-');
}

void print_table(void)
{
	uint32_t n, calls, callers;
	struct edge g;

	printf("name\tdefs\tcalls\tcallers\tcaller\tfile\tline\tvia\n");
	for (n = 0; n < strs.n; n++) {
		if (!names[n].init || names[n].seed)
			continue;
		count_calls(n, &calls, &callers, &g);
		printf("%s\t%u\t%u\t%u\t%s\t%s\t%u\t", strtab_str(&strs, n),
		       names[n].ndefs, calls, callers,
		       strtab_str(&strs, g.caller),
		       strtab_str(&strs, g.file), g.line);
		print_via(n);
		putchar('\n');
	}
}

/* Why member F is not init-only. */
static void print_member_why(uint32_t f)
{
	const struct name *nm = &names[f];
	uint32_t e;

	if (nm->fkill) {
		printf("member %s: %s at %s:%u", strtab_str(&strs, f),
		       kill_names[nm->fkill], strtab_str(&strs, nm->fkill_file),
		       nm->fkill_line);
		return;
	}
	if (fc_start[f] == fc_start[f + 1]) {
		printf("member %s is never called", strtab_str(&strs, f));
		return;
	}
	if (nm->fsarg && !nm->ndefs) {
		printf("member %s is a bare macro argument at file scope",
		       strtab_str(&strs, f));
		return;
	}
	for (e = fc_start[f]; e < fc_start[f + 1]; e++) {
		const struct fcall *c = &fcalls[fc_idx[e]];

		if (!names[c->caller].init) {
			printf("->%s() is called from %s at %s:%u, which is not init-only",
			       strtab_str(&strs, f),
			       strtab_str(&strs, c->caller),
			       strtab_str(&strs, c->file), c->line);
			return;
		}
	}
}

void print_why(const char *s)
{
	uint32_t n = strtab_find(&strs, s), e, calls, callers;
	const struct name *nm;
	const struct edge *g = NULL;
	struct edge first;

	if (n == STR_NONE) {
		printf("%s\tno\tnever mentioned\n", s);
		return;
	}
	nm = &names[n];
	if (nm->seed) {
		printf("%s\tinit\tall %u definitions are __init\n", s, nm->ndefs);
		return;
	}
	if (nm->init) {
		count_calls(n, &calls, &callers, &first);
		printf("%s\tcallers\t%u call%s from %u function%s, all init-only; first %s at %s:%u",
		       s, calls, calls == 1 ? "" : "s", callers,
		       callers == 1 ? "" : "s", strtab_str(&strs, first.caller),
		       strtab_str(&strs, first.file), first.line);
		if (st_start[n] != st_start[n + 1]) {
			printf("; stored in ");
			print_via(n);
		}
		putchar('\n');
		return;
	}
	if (nm->kill == K_PASTE) {
		printf("%s\tno\t%s (%s)\n", s, kill_names[nm->kill],
		       strtab_str(&strs, nm->kill_func));
		return;
	}
	if (nm->kill) {
		printf("%s\tno\t%s at %s:%u%s%s\n", s, kill_names[nm->kill],
		       strtab_str(&strs, nm->kill_file), nm->kill_line,
		       nm->kill_func < FN_UNKNOWN ? " in " : "",
		       nm->kill_func < FN_UNKNOWN ?
		       strtab_str(&strs, nm->kill_func) : "");
		return;
	}
	if (!nm->ndefs) {
		printf("%s\tno\tno function definition\n", s);
		return;
	}
	if (in_start[n] == in_start[n + 1] && st_start[n] == st_start[n + 1]) {
		printf("%s\tno\t%u definitions (%u __init), no call outside its own body\n",
		       s, nm->ndefs, nm->ninit);
		return;
	}
	for (e = in_start[n]; e < in_start[n + 1]; e++) {
		g = &edges[in_edge[e]];
		if (!names[g->caller].init) {
			printf("%s\tno\tcalled from %s at %s:%u, which is not init-only\n",
			       s, strtab_str(&strs, g->caller),
			       strtab_str(&strs, g->file), g->line);
			return;
		}
	}
	for (e = st_start[n]; e < st_start[n + 1]; e++) {
		const struct store *r = &stores[st_idx[e]];

		if (!names[r->field].finit) {
			printf("%s\tno\tstored in member %s at %s:%u: ", s,
			       strtab_str(&strs, r->field),
			       strtab_str(&strs, r->file), r->line);
			print_member_why(r->field);
			putchar('\n');
			return;
		}
	}
}
