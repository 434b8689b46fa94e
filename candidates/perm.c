// SPDX-License-Identifier: GPL-2.0
/*
 * perm: evaluate permission expressions such as "0644" or
 * "S_IRUGO | S_IWUSR".
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "perm.h"
#include "strtab.h"

static const struct {
	const char *name;
	long bits;
} modes[] = {
	{ "S_IRWXU", 0700 }, { "S_IRUSR", 0400 }, { "S_IWUSR", 0200 },
	{ "S_IXUSR", 0100 }, { "S_IRWXG", 0070 }, { "S_IRGRP", 0040 },
	{ "S_IWGRP", 0020 }, { "S_IXGRP", 0010 }, { "S_IRWXO", 0007 },
	{ "S_IROTH", 0004 }, { "S_IWOTH", 0002 }, { "S_IXOTH", 0001 },
	{ "S_IRWXUGO", 0777 }, { "S_IALLUGO", 07777 }, { "S_IRUGO", 0444 },
	{ "S_IWUGO", 0222 }, { "S_IXUGO", 0111 },
};

static long word(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		if (strlen(modes[i].name) == len &&
		    !strncmp(modes[i].name, s, len))
			return modes[i].bits;
	}
	return -1;
}

long perm_parse(const char *s)
{
	long bits = 0, v;
	int any = 0;
	char *end;

	while (*s) {
		if (isspace((unsigned char)*s) || *s == '|' || *s == '(' ||
		    *s == ')') {
			s++;
			continue;
		}
		if (isdigit((unsigned char)*s)) {
			v = strtol(s, &end, 0);
			if (v < 0 || isalnum((unsigned char)*end) || *end == '_')
				return -1;
			s = end;
		} else if (isalpha((unsigned char)*s) || *s == '_') {
			const char *w = s;

			while (isalnum((unsigned char)*s) || *s == '_')
				s++;
			v = word(w, s - w);
			if (v < 0)
				return -1;
		} else {
			return -1;
		}
		bits |= v;
		any = 1;
	}
	return any ? bits : -1;
}
