/* SPDX-License-Identifier: GPL-2.0 */
/*
 * closure: the function graph and its init-only set.
 *
 * A function node is one (file, name) pair; several definitions of the
 * same name in one file (#ifdef variants) are merged conservatively.
 * A call or address reference to NAME in FILE resolves to FILE's own
 * NAME if there is one, else to every global NAME (all arch/config
 * variants), else to every static NAME defined in a header.
 *
 * Init-only is a least fixpoint: __init functions, plus static plain-text
 * functions whose address is never taken and whose every caller is
 * init-only.  __setup/early_param handlers may have no callers.
 * With callers.tsv, a global plain-text function whose name only
 * init-only code calls in the whole tree (cocci/callers) is init-only too,
 * once its callers in its own file are; whatever it alone reaches carries
 * tree_row, and a write there is never high (classify.c).
 */
#ifndef CANDIDATES_CLOSURE_H
#define CANDIDATES_CLOSURE_H

#include "facts.h"
#include "map.h"

enum why {
	WHY_INIT,	/* __init */
	WHY_CLOSURE,	/* static, only called from init-only code */
	WHY_SECTION,	/* a non-init section: __meminit, __ref, __exit... */
	WHY_ADDR,	/* its address is taken */
	WHY_GLOBAL,	/* a global function that is not __init */
	WHY_NOCALLERS,	/* static, never called and not a boot handler */
	WHY_CALLER,	/* called from code that is not init-only */
	WHY_INCOMPLETE,	/* its file is in errors.tsv: callers may be missing */
	WHY_CALLERS,	/* global, and only init-only code calls it in the whole tree */
};

struct fnode {
	uint32_t file, name, line, section;
	uint32_t ref;		/* first funcref index, or MAP_NONE */
	uint32_t bad_call;	/* first call from non-init code, or MAP_NONE */
	uint32_t ncallers;	/* incoming call edges */
	uint32_t next_global;	/* next global node of the same name */
	uint32_t next_hdr;	/* next header static of the same name */
	uint8_t is_static, seed, nonplain, setup, init_only, why, failed;
	uint8_t partial;	/* its file has unparsed regions */
	uint8_t by_callers;	/* init-only by its own callers.tsv row */
	uint8_t weak;		/* init-only through a partially parsed file */
	/*
	 * init-only by callers.tsv (the whole tree's call sites), itself
	 * or through a caller: tree_row is the callers.tsv row that made
	 * it so, MAP_NONE if none
	 */
	uint32_t tree_row;

};

struct graph {
	const struct facts *f;
	struct fnode *nodes;
	uint32_t nnodes;
	struct map by_file;	/* (file, name) -> node */
	struct map globals;	/* name -> first global node */
	struct map hdrs;	/* name -> first header static node */
	struct map param_at;	/* (file, line) -> params index */
	struct map failed;	/* file -> worst errors index */
	uint32_t *param_next;	/* next params index on the same line */
	uint32_t *in_start;	/* CSR of incoming call edges per node */
	uint32_t *in_call;	/* call index */
	uint32_t *in_caller;	/* caller node, or MAP_NONE */
	uint32_t rounds;	/* fixpoint iterations */
};

struct resolve {
	const struct graph *g;
	uint32_t cur;
	int kind;
};

void graph_build(struct graph *g, const struct facts *f);
uint32_t resolve_first(const struct graph *g, struct resolve *r,
		       uint32_t file, uint32_t name);
uint32_t resolve_next(struct resolve *r);
/* The node of the function named NAME defined in FILE, or MAP_NONE. */
uint32_t graph_node(const struct graph *g, uint32_t file, uint32_t name);
/*
 * Why node N, whose tree_row is set, runs only during init: the
 * callers.tsv row that says so.
 */
void graph_tree_why(const struct graph *g, uint32_t n, char *buf,
		    size_t len);
/* Append a one-line reason for node N's status to BUF. */
void graph_why(const struct graph *g, uint32_t n, char *buf, size_t len);
/*
 * The errors.tsv row of FILE, or MAP_NONE; *partial is set if spatch only
 * skipped some regions of it (parse errors), not the whole file.
 */
uint32_t graph_file_error(const struct graph *g, uint32_t file, int *partial);
/* Errors row E is a parse error only in #define bodies: not an error. */
int error_define_only(const struct facts *f, uint32_t e);
/* Number of init-only function nodes. */
uint32_t count_init(const struct graph *g);

#endif
