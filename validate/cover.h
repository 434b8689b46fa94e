/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cover.h - what the five files of cover-plan share: the symbol table
 * (Kconfig facts and .config values), a resolution ("need"), and the
 * tree's path.
 */
#ifndef COVER_H
#define COVER_H

#include <stddef.h>
#include <stdint.h>

#include "strtab.h"

#define ARCH "x86"
#define CONFIG_BATCH 100	/* symbols per scripts/config call */
#define MAX_ROUNDS 4		/* of the dependency closure */

enum sym_type { T_UNKNOWN, T_BOOL, T_TRISTATE, T_OTHER };

struct sym {
	enum sym_type type;
	int other_arch;		/* defined only under arch/OTHER so far */
	int prompt;		/* the primary definition has a prompt */
	int choice;		/* a member of a choice */
	char *where;		/* FILE:LINE of the primary definition */
	char **cond;		/* "if X", "menu depends on X", "depends on X" */
	size_t ncond;
	size_t nenclosing;	/* cond[0..nenclosing): if/menu, innermost first */
	char base;		/* value in the base .config: y, m, or 0 */
	char now;		/* value after olddefconfig */
	char prev;		/* value after the olddefconfig before */
	int need;		/* wanted by a buildable-so-far file */
	char added;		/* set for a dependency: its value (m or y) */
	int retry;		/* ask for it again in this round */
	uint32_t for_id;	/* when added: the symbol that depends on it */
	const char *for_cond;	/* and the condition of that symbol */
	int def_always;		/* 1: a default y or m; 2: one with an if */
	struct sb defs;		/* while parsing: what else turns it on */
	uint32_t sel[8];	/* symbols that select it */
	size_t nsel;
};

/* A resolution: the symbols that compile a target, or why none do. */
struct need {
	int found;
	uint32_t sym[64];
	size_t nsym;
	char *why;		/* when !found */
};

extern struct strtab names;
extern struct sym *syms;
extern const char *tree;

/* cover-kconfig.c */
uint32_t sym_id(const char *name);
char *tree_file(const char *rel);
int exists(const char *rel);
char *skip_ws(char *s);
void rtrim(char *s);
char *subst(const char *s, const char *from, const char *to);
size_t config_syms(const char *s, uint32_t *ids, size_t n, size_t max);
int in_other_arch(const char *rel, char *arch, size_t archsz);
void load_kconfig(void);
char *sym_depends(const struct sym *y);
size_t cond_syms(const char *expr, uint32_t *ids, size_t max);
void load_config(const char *path, int now);
void add_selectors(struct need *n);
void olddefconfig(const char *scratch);
void run(char **argv);

/* cover-deps.c */
const char *cond_expr(const char *cond);
size_t depends_round(void);

/* cover-kbuild.c */
char *path_collapse(const char *path);

/* cover-need.c */
void need_add(struct need *n, const uint32_t *ids, size_t k);
void need_free(struct need *n);
void need_file(const char *file, struct need *out);

#endif
