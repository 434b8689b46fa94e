// SPDX-License-Identifier: GPL-2.0
/*
 * link: linkage between source files, from their paths alone.
 */
#include <string.h>

#include "link.h"
#include "strtab.h"

static const char *const images[] = {
	"boot", "realmode", "purgatory", "vdso", "entry/vdso", "kernel/vdso",
	"kernel/vdso32", "kernel/vdso64",
};

/* Length of the "arch/X" prefix of PATH, or 0 if not under arch/. */
static size_t arch_len(const char *path)
{
	const char *slash;

	if (strncmp(path, "arch/", 5))
		return 0;
	slash = strchr(path + 5, '/');
	return slash ? (size_t)(slash - path) : 0;
}

/* Length of the "arch/X/IMAGE" prefix if PATH is in a separate image. */
static size_t image_len(const char *path)
{
	size_t a = arch_len(path), i, n;

	if (!a)
		return 0;
	for (i = 0; i < ARRAY_SIZE(images); i++) {
		n = strlen(images[i]);
		if (!strncmp(path + a + 1, images[i], n) &&
		    path[a + 1 + n] == '/')
			return a + 1 + n;
	}
	return 0;
}

int link_compatible(const char *from, const char *def)
{
	size_t fi = image_len(from), di = image_len(def);
	size_t fa = arch_len(from), da = arch_len(def);

	if (fi || di)
		return fi == di && !strncmp(from, def, fi);
	if (fa && da)
		return fa == da && !strncmp(from, def, fa);
	return 1;
}
