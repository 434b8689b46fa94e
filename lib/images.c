// SPDX-License-Identifier: GPL-2.0
/*
 * images.c - the table of lib/images.tsv, compiled in (images.h).
 */
#include <string.h>

#include "base.h"
#include "images.h"

static const struct image images[] = {
#include "images.inc"
};

/* Length of the prefix of PATH that PAT matches, or 0. */
static size_t match(const char *pat, const char *path)
{
	const char *p = path;

	for (; *pat; pat++) {
		if (*pat == '*') {
			size_t n = strcspn(p, "/");

			if (!n)
				return 0;
			p += n;
		} else if (*p++ != *pat) {
			return 0;
		}
	}
	return p - path;
}

const struct image *image_of(const char *path, size_t *len)
{
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(images); i++) {
		n = match(images[i].path, path);
		if (n) {
			*len = n;
			return &images[i];
		}
	}
	*len = 0;
	return NULL;
}

int image_skips(const struct image *im)
{
	return !strcmp(im->vars, "skip");
}
