// SPDX-License-Identifier: GPL-2.0
/*
 * traps.c - the table of lib/traps.tsv, compiled in (traps.h).
 */
#include <string.h>

#include "base.h"
#include "traps.h"

const struct trap_type trap_types[] = {
#include "traps.inc"
};

const size_t ntrap_types = ARRAY_SIZE(trap_types);

const struct trap_type *trap_type_find(const char *type)
{
	size_t i;

	for (i = 0; i < ntrap_types; i++) {
		if (!strcmp(trap_types[i].type, type))
			return &trap_types[i];
	}
	return NULL;
}

int trap_is(const struct trap_type *t, const char *kind)
{
	return !strcmp(t->kind, kind);
}

int trap_counted(const struct trap_type *t)
{
	return !strcmp(t->counted, "yes");
}
