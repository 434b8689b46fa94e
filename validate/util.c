// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - the small helpers of validate itself; the base layer
 * (allocation, messages, files, hashing) is lib/base.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "validate.h"

void check_intr(void)
{
	if (interrupted)
		die(RC_INTR, "interrupted (signal %d); rerun to resume",
		    interrupted);
}

char *abs_path(const char *p)
{
	char buf[PATH_MAX];

	if (!realpath(p, buf))
		die(RC_USAGE, "%s: %s", p, strerror(errno));
	return xstrdup(buf);
}

/* NAME in the state directory, next to the journal. */
char *spath(struct ctx *x, const char *name)
{
	return xasprintf("%s/%s", x->state, name);
}

/* Last line of a file, without the newline; NULL if none. */
char *last_line(const char *path)
{
	char *buf = read_file(path, NULL), *p, *r;

	if (!buf)
		return NULL;
	p = buf + strlen(buf);
	while (p > buf && p[-1] == '\n')
		*--p = '\0';
	while (p > buf && p[-1] != '\n')
		p--;
	r = *p ? xstrdup(p) : NULL;
	free(buf);
	return r;
}

int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}
