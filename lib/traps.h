/* SPDX-License-Identifier: GPL-2.0 */
/*
 * traps.h - the trap types of lib/traps.tsv: what a keeper writes after
 * init in an object whose address it holds (a list node, a count, a lock),
 * so an escape of such an object is a write.  cocci/layouts starts from
 * the base types, candidates/ traps a variable of any non-inert type.
 * The table is compiled in from the TSV (lib/tsv2c.awk).
 */
#ifndef RO_TRAPS_H
#define RO_TRAPS_H

#include <stddef.h>

struct trap_type {
	unsigned int line;	/* its line in lib/traps.tsv */
	const char *type;	/* as defs.tsv prints it: "struct list_head" */
	/*
	 * base: what a keeper writes itself (cocci/layouts' roots);
	 * embeds: a registered type holding one, listed for when layouts
	 * cannot see its definition; inert: never a trap, whatever it holds
	 */
	const char *kind;
	const char *counted;	/* "yes": changed through a pointer to const */
	const char *writes;	/* what the keeper writes */
	const char *citation;	/* where that is, or NULL */
};

extern const struct trap_type trap_types[];
extern const size_t ntrap_types;

/* The row of TYPE, or NULL. */
const struct trap_type *trap_type_find(const char *type);
/* 1 if T is of KIND ("base", "embeds", "inert"). */
int trap_is(const struct trap_type *t, const char *kind);
/* 1 if a keeper changes T through a pointer to const (a count, a lock). */
int trap_counted(const struct trap_type *t);

#endif
