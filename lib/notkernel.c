// SPDX-License-Identifier: GPL-2.0
/*
 * notkernel.c - the table of lib/notkernel.tsv, compiled in
 * (notkernel.h).
 */
#include <string.h>

#include "base.h"
#include "notkernel.h"

static const struct notkernel rows[] = {
#include "notkernel.inc"
};

const struct notkernel *notkernel_of(const char *path)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		if (!strncmp(path, rows[i].path, strlen(rows[i].path)))
			return &rows[i];
	}
	return NULL;
}
