// SPDX-License-Identifier: GPL-2.0
/*
 * closure: build function nodes, resolve calls and address references,
 * and compute the init-only set as a fixpoint.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "closure.h"

static int is_header(const char *file)
{
	size_t len = strlen(file);

	return len > 2 && !strcmp(file + len - 2, ".h");
}

/*
 * Classify a section list: 1 = init (__init only), 0 = plain text,
 * -1 = some other section (__meminit, __ref, __exit, section=...).
 * x86 __head (.head.text) code runs only from startup_64, before
 * start_kernel, so it counts as init.  The list is read in place, token
 * by token: a copy into a fixed buffer would cut a long list and could
 * drop the section that makes the function a runtime one.
 */
static int tok_is(const char *tok, size_t len, const char *word)
{
	return strlen(word) == len && !strncmp(tok, word, len);
}

static int section_kind(const char *s)
{
	int init = 0, other = 0;
	size_t len;

	if (!strcmp(s, "-"))
		return 0;
	for (; *s; s += len + (s[len] == ',')) {
		len = strcspn(s, ",");
		if (!len)
			continue;
		if (tok_is(s, len, "init") ||
		    tok_is(s, len, "section=.init.text") ||
		    tok_is(s, len, "section=.head.text"))
			init = 1;
		else
			other = 1;
	}
	if (other)
		return -1;
	return init;
}

static void add_funcs(struct graph *g)
{
	const struct facts *f = g->f;
	uint32_t i, n;

	g->nodes = xcalloc(f->nfuncs, sizeof(*g->nodes));
	for (i = 0; i < f->nfuncs; i++) {
		const struct func *fn = &f->funcs[i];
		uint64_t key = map_key(fn->file, fn->name);
		int kind = section_kind(strtab_str(&f->strs, fn->section));
		struct fnode *nd;

		n = map_get(&g->by_file, key);
		if (n == MAP_NONE) {
			n = g->nnodes++;
			map_put(&g->by_file, key, n);
			nd = &g->nodes[n];
			nd->file = fn->file;
			nd->name = fn->name;
			nd->line = fn->line;
			nd->section = fn->section;
			nd->ref = MAP_NONE;
			nd->bad_call = MAP_NONE;
			nd->tree_row = MAP_NONE;
			nd->is_static = fn->storage == ST_STATIC;
			nd->seed = kind == 1;
			nd->nonplain = kind == -1;
			continue;
		}
		/* another #ifdef variant in the same file: merge */
		nd = &g->nodes[n];
		if (fn->storage != ST_STATIC)
			nd->is_static = 0;
		if (kind != 1)
			nd->seed = 0;
		if (kind == -1) {
			nd->nonplain = 1;
			nd->section = fn->section;
		}
		if (fn->line < nd->line)
			nd->line = fn->line;
	}
	for (n = g->nnodes; n-- > 0;) {
		struct fnode *nd = &g->nodes[n];
		const char *file = strtab_str(&f->strs, nd->file);

		nd->next_global = MAP_NONE;
		nd->next_hdr = MAP_NONE;
		if (!nd->is_static) {
			nd->next_global = map_get(&g->globals, nd->name);
			map_put(&g->globals, nd->name, n);
		} else if (is_header(file)) {
			nd->next_hdr = map_get(&g->hdrs, nd->name);
			map_put(&g->hdrs, nd->name, n);
		}
	}
}

uint32_t graph_node(const struct graph *g, uint32_t file, uint32_t name)
{
	if (name == STR_NONE)
		return MAP_NONE;
	return map_get(&g->by_file, map_key(file, name));
}

uint32_t resolve_first(const struct graph *g, struct resolve *r,
		       uint32_t file, uint32_t name)
{
	r->g = g;
	r->cur = graph_node(g, file, name);
	r->kind = 0;
	if (r->cur != MAP_NONE)
		return r->cur;
	r->kind = 1;
	r->cur = map_get(&g->globals, name);
	if (r->cur != MAP_NONE)
		return r->cur;
	r->kind = 2;
	r->cur = map_get(&g->hdrs, name);
	return r->cur;
}

uint32_t resolve_next(struct resolve *r)
{
	if (r->cur == MAP_NONE)
		return MAP_NONE;
	if (r->kind == 0)
		r->cur = MAP_NONE;
	else if (r->kind == 1)
		r->cur = r->g->nodes[r->cur].next_global;
	else
		r->cur = r->g->nodes[r->cur].next_hdr;
	return r->cur;
}

/* Is call or ref at (FILE, LINE) of NAME the __setup registration itself? */
static int is_setup_site(const struct graph *g, uint32_t file, uint32_t line,
			 uint32_t name)
{
	uint32_t p = map_get(&g->param_at, map_key(file, line));

	for (; p != MAP_NONE; p = g->param_next[p]) {
		const struct param *pp = &g->f->params[p];

		if ((pp->kind == P_SETUP || pp->kind == P_EARLY) &&
		    pp->handler == name)
			return 1;
	}
	return 0;
}

static void mark_refs(struct graph *g)
{
	const struct facts *f = g->f;
	struct resolve r;
	uint32_t i, n;

	g->param_next = xmalloc((f->nparams + 1) * sizeof(*g->param_next));
	for (i = 0; i < f->nparams; i++) {
		const struct param *p = &f->params[i];
		uint64_t key = map_key(p->file, p->line);

		g->param_next[i] = map_get(&g->param_at, key);
		map_put(&g->param_at, key, i);
		if (p->kind != P_SETUP && p->kind != P_EARLY)
			continue;
		for (n = resolve_first(g, &r, p->file, p->handler);
		     n != MAP_NONE; n = resolve_next(&r))
			g->nodes[n].setup = 1;
	}
	for (i = 0; i < f->nfuncrefs; i++) {
		const struct funcref *fr = &f->funcrefs[i];

		if (is_setup_site(g, fr->file, fr->line, fr->name))
			continue;
		for (n = resolve_first(g, &r, fr->file, fr->name);
		     n != MAP_NONE; n = resolve_next(&r)) {
			if (g->nodes[n].ref == MAP_NONE)
				g->nodes[n].ref = i;
		}
	}
}

static void build_edges(struct graph *g)
{
	const struct facts *f = g->f;
	uint32_t *fill, i, n, total = 0;
	struct resolve r;

	g->in_start = xcalloc(g->nnodes + 1, sizeof(*g->in_start));
	for (i = 0; i < f->ncalls; i++) {
		const struct call *c = &f->calls[i];

		for (n = resolve_first(g, &r, c->file, c->callee);
		     n != MAP_NONE; n = resolve_next(&r)) {
			g->in_start[n + 1]++;
			total++;
		}
	}
	for (n = 0; n < g->nnodes; n++)
		g->in_start[n + 1] += g->in_start[n];
	g->in_call = xmalloc(total * sizeof(*g->in_call));
	g->in_caller = xmalloc(total * sizeof(*g->in_caller));
	fill = xmalloc((g->nnodes + 1) * sizeof(*fill));
	memcpy(fill, g->in_start, (g->nnodes + 1) * sizeof(*fill));
	for (i = 0; i < f->ncalls; i++) {
		const struct call *c = &f->calls[i];
		uint32_t caller = graph_node(g, c->file, c->caller);

		for (n = resolve_first(g, &r, c->file, c->callee);
		     n != MAP_NONE; n = resolve_next(&r)) {
			g->in_call[fill[n]] = i;
			g->in_caller[fill[n]] = caller;
			fill[n]++;
		}
	}
	free(fill);
	for (n = 0; n < g->nnodes; n++)
		g->nodes[n].ncallers = g->in_start[n + 1] - g->in_start[n];
}

static int eligible(const struct fnode *nd)
{
	return nd->is_static && !nd->nonplain && !nd->failed &&
		nd->ref == MAP_NONE &&
		(nd->ncallers > 0 || nd->setup);
}

/* 1 if every caller of node N is init-only (self-recursion ignored). */
static int callers_init(const struct graph *g, uint32_t n)
{
	uint32_t e, others = 0;

	for (e = g->in_start[n]; e < g->in_start[n + 1]; e++) {
		uint32_t c = g->in_caller[e];

		if (c == n)
			continue;
		if (c == MAP_NONE || !g->nodes[c].init_only)
			return 0;
		others++;
	}
	return others > 0 || g->nodes[n].setup;
}

static int call_before(const struct facts *f, uint32_t a, uint32_t b)
{
	const struct call *ca = &f->calls[a], *cb = &f->calls[b];
	int d = strcmp(strtab_str(&f->strs, ca->file),
		       strtab_str(&f->strs, cb->file));

	return d < 0 || (d == 0 && ca->line < cb->line);
}

/*
 * Node N is a plain-text function (not __init, not in another section)
 * whose name callers.tsv lists: the whole tree calls it only from
 * init-only code.  A global one whose address its file does not take,
 * or any one stored only in members that only init-only code calls
 * through (the row's via: bsp_init_amd in cpu_dev's c_bsp_init).  Its
 * row, or MAP_NONE.
 */
static uint32_t callers_row(const struct graph *g, uint32_t n)
{
	const struct fnode *nd = &g->nodes[n];
	uint32_t row;

	if (nd->seed || nd->nonplain || nd->failed)
		return MAP_NONE;
	row = map_get(&g->f->caller_of, nd->name);
	if (row == MAP_NONE || g->f->callers[row].via != STR_NONE)
		return row;
	return nd->is_static || nd->ref != MAP_NONE ? MAP_NONE : row;
}

/* 1 if every caller of node N in its own file is init-only. */
static int file_callers_init(const struct graph *g, uint32_t n)
{
	uint32_t e;

	for (e = g->in_start[n]; e < g->in_start[n + 1]; e++) {
		uint32_t c = g->in_caller[e];

		if (c != n && (c == MAP_NONE || !g->nodes[c].init_only))
			return 0;
	}
	return 1;
}

/*
 * What callers.tsv made init-only, and every node that is init-only only
 * through one of them (a caller carries its row): tree_row.
 */
static void mark_tree(struct graph *g)
{
	uint32_t n, e;
	int changed = 1;

	for (n = 0; n < g->nnodes; n++) {
		struct fnode *nd = &g->nodes[n];

		if (nd->by_callers)
			nd->tree_row = callers_row(g, n);
	}
	while (changed) {
		changed = 0;
		for (n = 0; n < g->nnodes; n++) {
			struct fnode *nd = &g->nodes[n];

			if (!nd->init_only || nd->seed ||
			    nd->tree_row != MAP_NONE)
				continue;
			for (e = g->in_start[n]; e < g->in_start[n + 1]; e++) {
				uint32_t c = g->in_caller[e];

				if (c != MAP_NONE && c != n &&
				    g->nodes[c].tree_row != MAP_NONE) {
					nd->tree_row = g->nodes[c].tree_row;
					changed = 1;
					break;
				}
			}
		}
	}
}

static void explain_nodes(struct graph *g)
{
	uint32_t n, e;

	for (n = 0; n < g->nnodes; n++) {
		struct fnode *nd = &g->nodes[n];

		if (nd->seed) {
			nd->why = WHY_INIT;
		} else if (nd->by_callers) {
			nd->why = WHY_CALLERS;
		} else if (nd->init_only) {
			nd->why = WHY_CLOSURE;
		} else if (nd->nonplain) {
			nd->why = WHY_SECTION;
		} else if (nd->failed) {
			nd->why = WHY_INCOMPLETE;
		} else if (nd->ref != MAP_NONE) {
			nd->why = WHY_ADDR;
		} else if (!nd->is_static) {
			nd->why = WHY_GLOBAL;
		} else if (!nd->ncallers && !nd->setup) {
			nd->why = WHY_NOCALLERS;
		} else {
			nd->why = WHY_CALLER;
			for (e = g->in_start[n]; e < g->in_start[n + 1]; e++) {
				uint32_t c = g->in_caller[e];

				if (c == n || (c != MAP_NONE &&
					       g->nodes[c].init_only))
					continue;
				if (nd->bad_call == MAP_NONE ||
				    call_before(g->f, g->in_call[e],
						nd->bad_call))
					nd->bad_call = g->in_call[e];
			}
			if (nd->bad_call == MAP_NONE)
				nd->why = WHY_NOCALLERS;
		}
	}
}

static int error_partial(const struct facts *f, uint32_t e)
{
	return !strncmp(strtab_str(&f->strs, f->errors[e].reason),
			"parse-error", 11);
}

uint32_t graph_file_error(const struct graph *g, uint32_t file, int *partial)
{
	uint32_t e = map_get(&g->failed, file);

	*partial = e != MAP_NONE && error_partial(g->f, e);
	return e;
}

/*
 * A parse error only in #define bodies ("..., 0 outside #define bodies:",
 * cocci/run-facts.sh): no function and no statement is missing from the
 * facts.  What those bodies name has its own rows: an unparsed row for
 * each variable (never high), a funcrefs row for each function (never
 * init-only through them).  So the file is whole.
 */
int error_define_only(const struct facts *f, uint32_t e)
{
	const char *r = strtab_str(&f->strs, f->errors[e].reason);

	return !strncmp(r, "parse-error", 11) &&
	       strstr(r, ", 0 outside #define bodies:");
}

/* Remember each file's worst error: a partial parse, or a failure. */
static void add_errors(struct graph *g)
{
	const struct facts *f = g->f;
	uint32_t e, old;

	for (e = 0; e < f->nerrors; e++) {
		if (error_define_only(f, e))
			continue;
		old = map_get(&g->failed, f->errors[e].file);
		if (old == MAP_NONE || (error_partial(f, old) &&
					!error_partial(f, e)))
			map_put(&g->failed, f->errors[e].file, e);
	}
}

/* Closure members reached through partially parsed files are weak. */
static void mark_weak(struct graph *g)
{
	uint32_t n, e;
	int changed = 1;

	for (n = 0; n < g->nnodes; n++) {
		struct fnode *nd = &g->nodes[n];

		nd->weak = nd->init_only && !nd->seed && nd->partial;
	}
	while (changed) {
		changed = 0;
		for (n = 0; n < g->nnodes; n++) {
			struct fnode *nd = &g->nodes[n];

			if (!nd->init_only || nd->seed || nd->weak)
				continue;
			for (e = g->in_start[n]; e < g->in_start[n + 1]; e++) {
				uint32_t c = g->in_caller[e];

				if (c != MAP_NONE && c != n && g->nodes[c].weak) {
					nd->weak = 1;
					changed = 1;
					break;
				}
			}
		}
	}
}

void graph_build(struct graph *g, const struct facts *f)
{
	uint32_t n;
	int changed = 1;

	memset(g, 0, sizeof(*g));
	g->f = f;
	map_init(&g->by_file);
	map_init(&g->globals);
	map_init(&g->hdrs);
	map_init(&g->param_at);
	map_init(&g->failed);
	add_errors(g);
	add_funcs(g);
	for (n = 0; n < g->nnodes; n++) {
		int partial;

		if (graph_file_error(g, g->nodes[n].file, &partial) ==
		    MAP_NONE)
			continue;
		g->nodes[n].partial = partial;
		g->nodes[n].failed = !partial;
	}
	mark_refs(g);
	build_edges(g);
	for (n = 0; n < g->nnodes; n++)
		g->nodes[n].init_only = g->nodes[n].seed;
	while (changed) {
		changed = 0;
		g->rounds++;
		for (n = 0; n < g->nnodes; n++) {
			struct fnode *nd = &g->nodes[n];

			if (nd->init_only)
				continue;
			if (eligible(nd) && callers_init(g, n)) {
				nd->init_only = 1;
				changed = 1;
			} else if (callers_row(g, n) != MAP_NONE &&
				   file_callers_init(g, n)) {
				/* the whole tree's call sites: callers.tsv */
				nd->init_only = 1;
				nd->by_callers = 1;
				changed = 1;
			}
		}
	}
	mark_weak(g);
	mark_tree(g);
	explain_nodes(g);
}

void graph_tree_why(const struct graph *g, uint32_t n, char *buf,
		    size_t len)
{
	const struct strtab *s = &g->f->strs;
	const struct fnode *nd = &g->nodes[n];
	const struct caller_row *r = &g->f->callers[nd->tree_row];
	size_t k = 0;

	if (r->name != nd->name)
		k = snprintf(buf, len,
			     "%s is only called from init-only code that includes %s, which ",
			     strtab_str(s, nd->name), strtab_str(s, r->name));
	else
		k = snprintf(buf, len, "%s ", strtab_str(s, nd->name));
	if (k >= len)
		return;
	if (r->via != STR_NONE) {
		snprintf(buf + k, len - k,
			 "is stored only in members (%s) that only init-only code calls through in the whole tree (callers.tsv: %u call%s from %u function%s, first %s at %s:%u)",
			 strtab_str(s, r->via), r->calls,
			 r->calls == 1 ? "" : "s", r->callers,
			 r->callers == 1 ? "" : "s", strtab_str(s, r->caller),
			 strtab_str(s, r->file), r->line);
		return;
	}
	snprintf(buf + k, len - k,
		 "is a global function that only init-only code calls in the whole tree (callers.tsv: %u call%s from %u function%s, first %s at %s:%u)",
		 r->calls, r->calls == 1 ? "" : "s", r->callers,
		 r->callers == 1 ? "" : "s", strtab_str(s, r->caller),
		 strtab_str(s, r->file), r->line);
}

void graph_why(const struct graph *g, uint32_t n, char *buf, size_t len)
{
	const struct strtab *s = &g->f->strs;
	const struct fnode *nd = &g->nodes[n];
	const char *name = strtab_str(s, nd->name);
	const struct funcref *fr;
	const struct call *c;

	switch (nd->why) {
	case WHY_INIT:
		snprintf(buf, len, "%s is __init", name);
		break;
	case WHY_CLOSURE:
		snprintf(buf, len, "%s is static and only called from init-only code",
			 name);
		break;
	case WHY_SECTION:
		snprintf(buf, len, "%s is in section %s, not init-only", name,
			 strtab_str(s, nd->section));
		break;
	case WHY_ADDR:
		fr = &g->f->funcrefs[nd->ref];
		snprintf(buf, len, "address of %s taken at %s:%u in %s", name,
			 strtab_str(s, fr->file), fr->line,
			 strtab_str(s, fr->func));
		break;
	case WHY_INCOMPLETE:
		snprintf(buf, len, "%s is in %s, which spatch failed on (%s)",
			 name, strtab_str(s, nd->file),
			 strtab_str(s, g->f->errors[map_get(&g->failed,
							    nd->file)].reason));
		break;
	case WHY_GLOBAL:
		snprintf(buf, len, "%s is a global function, not __init", name);
		break;
	case WHY_CALLERS:
		graph_tree_why(g, n, buf, len);
		break;
	case WHY_NOCALLERS:
		snprintf(buf, len, "%s is not __init and has no known callers",
			 name);
		break;
	default:
		c = &g->f->calls[nd->bad_call];
		snprintf(buf, len, "%s is called from non-init %s at %s:%u", name,
			 strtab_str(s, c->caller), strtab_str(s, c->file),
			 c->line);
		break;
	}
}

uint32_t count_init(const struct graph *g)
{
	uint32_t n, k = 0;

	for (n = 0; n < g->nnodes; n++)
		k += g->nodes[n].init_only;
	return k;
}
