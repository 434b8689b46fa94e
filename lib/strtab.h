/* SPDX-License-Identifier: GPL-2.0 */
/*
 * strtab: string interning.  Every distinct string gets a small integer
 * id; ids are dense, starting at 0, so they can index arrays.
 */
#ifndef RO_STRTAB_H
#define RO_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#include "base.h"

#define STR_NONE UINT32_MAX

struct strtab {
	char **strs;		/* id -> string */
	uint32_t n;
	uint32_t cap;
	uint32_t *slots;	/* open addressing, holds id + 1, 0 = empty */
	uint32_t nslots;	/* power of two */
	char *chunk;		/* arena for the string bytes */
	size_t chunk_left;
	void *blocks;		/* every arena block, chained for strtab_destroy */
};

void strtab_init(struct strtab *t);
void strtab_free(struct strtab *t);
/* strtab_free and the strings too: for a table made and dropped often. */
void strtab_destroy(struct strtab *t);
uint32_t strtab_intern(struct strtab *t, const char *s);
uint32_t strtab_find(const struct strtab *t, const char *s);

static inline const char *strtab_str(const struct strtab *t, uint32_t id)
{
	return id == STR_NONE ? "-" : t->strs[id];
}

#endif
