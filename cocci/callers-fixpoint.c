// SPDX-License-Identifier: GPL-2.0
/*
 * callers-fixpoint.c: the names that pasting can build, and the least
 * fixpoint of the init-only names (see callers.c).
 */
#include <stdlib.h>
#include <string.h>

#include "callers.h"

uint32_t *in_start, *in_edge;
uint32_t *st_start, *st_idx;
uint32_t *fc_start, *fc_idx;

/* Is S (LEN bytes) an identifier that some file mentions? */
static int mentioned(const char *s, size_t len)
{
	char buf[1024];

	if (!len || len >= sizeof(buf) || !is_ident_start(*s))
		return 0;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return strtab_find(&strs, buf) != STR_NONE;
}

/* The fragment S (LEN bytes) if a macro pastes it as HOW, else STR_NONE. */
static uint32_t pasted(const char *s, size_t len, int how)
{
	char buf[1024];
	uint32_t f;

	if (len >= sizeof(buf))
		return STR_NONE;
	memcpy(buf, s, len);
	buf[len] = '\0';
	f = strtab_find(&strs, buf);
	return f != STR_NONE && (names[f].paste & how) ? f : STR_NONE;
}

/*
 * A name that a macro can build from a literal fragment it pastes to a
 * parameter (prefix_##x, x##_suffix, prefix_##x##_suffix) and a word
 * that some file mentions (the argument, prefix_ + x) may be called by
 * that built name, which the scan never sees as a call.
 */
void kill_pasted(void)
{
	uint32_t n, f = STR_NONE, g;
	size_t len, m, r;

	for (n = 0; n < strs.n; n++) {
		const char *s = strs.strs[n];

		if (!names[n].ndefs || names[n].kill ||
		    names[n].ninit == names[n].ndefs)
			continue;
		len = strlen(s);
		for (m = 1; m < len; m++) {
			/* suffix only: x##_suffix */
			f = pasted(s + m, len - m, 2);
			if (f != STR_NONE && mentioned(s, m))
				break;
			f = pasted(s, m, 1);
			if (f == STR_NONE)
				continue;
			if (mentioned(s + m, len - m))
				break;
			/* prefix_##x##_suffix */
			for (r = m + 1; r < len; r++) {
				g = pasted(s + r, len - r, 2);
				if (g != STR_NONE && mentioned(s + m, r - m))
					break;
			}
			if (r < len)
				break;
		}
		if (m == len)
			continue;
		names[n].kill = K_PASTE;
		names[n].kill_file = STR_NONE;
		names[n].kill_func = f;
	}
}

/* A CSR index of N items by KEY (a name id): *start, *idx. */
static void index_by(size_t n, uint32_t (*key)(size_t), uint32_t **start,
		     uint32_t **idx)
{
	uint32_t *fill, k;
	size_t e;

	*start = xcalloc(strs.n + 1, sizeof(**start));
	for (e = 0; e < n; e++)
		(*start)[key(e) + 1]++;
	for (k = 0; k < strs.n; k++)
		(*start)[k + 1] += (*start)[k];
	*idx = xmalloc((n + 1) * sizeof(**idx));
	fill = xmalloc((strs.n + 1) * sizeof(*fill));
	memcpy(fill, *start, (strs.n + 1) * sizeof(*fill));
	for (e = 0; e < n; e++)
		(*idx)[fill[key(e)]++] = e;
	free(fill);
}

static uint32_t edge_key(size_t e)
{
	return edges[e].callee;
}

static uint32_t store_key(size_t e)
{
	return stores[e].name;
}

static uint32_t fcall_key(size_t e)
{
	return fcalls[e].field;
}

/*
 * Member N may be init-only: no use but calls, stores and tests, at
 * least one call, and not a bare macro argument at file scope unless a
 * function has that name (arch_initcall(arch_setup) names the function).
 */
static int member_candidate(uint32_t n)
{
	const struct name *nm = &names[n];

	return !nm->fkill && fc_start[n] != fc_start[n + 1] &&
		!(nm->fsarg && !nm->ndefs);
}

/* Name N: every call from init-only code, every store in such a member. */
static int all_init(uint32_t n)
{
	uint32_t e;

	for (e = in_start[n]; e < in_start[n + 1]; e++) {
		if (!names[edges[in_edge[e]].caller].init)
			return 0;
	}
	for (e = st_start[n]; e < st_start[n + 1]; e++) {
		if (!names[stores[st_idx[e]].field].finit)
			return 0;
	}
	return 1;
}

void fixpoint(void)
{
	uint32_t n, e;
	int changed = 1;

	index_by(nedges, edge_key, &in_start, &in_edge);
	index_by(nstores, store_key, &st_start, &st_idx);
	index_by(nfcalls, fcall_key, &fc_start, &fc_idx);
	for (n = 0; n < strs.n; n++) {
		names[n].seed = names[n].ndefs &&
			names[n].ninit == names[n].ndefs;
		names[n].init = names[n].seed;
	}
	while (changed) {
		changed = 0;
		for (n = 0; n < strs.n; n++) {
			struct name *nm = &names[n];

			if (!nm->finit && member_candidate(n)) {
				for (e = fc_start[n]; e < fc_start[n + 1]; e++) {
					if (!names[fcalls[fc_idx[e]].caller].init)
						break;
				}
				if (e == fc_start[n + 1]) {
					nm->finit = 1;
					changed = 1;
				}
			}
			if (nm->init || !nm->ndefs || nm->kill ||
			    (in_start[n] == in_start[n + 1] &&
			     st_start[n] == st_start[n + 1]) || !all_init(n))
				continue;
			nm->init = 1;
			changed = 1;
		}
	}
}
