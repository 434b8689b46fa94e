// SPDX-License-Identifier: GPL-2.0
/*
 * link: linkage between source files, from their paths alone.
 */
#include <string.h>

#include "images.h"
#include "link.h"

/* Length of the "arch/X" prefix of PATH, or 0 if not under arch/. */
static size_t arch_len(const char *path)
{
	const char *slash;

	if (strncmp(path, "arch/", 5))
		return 0;
	slash = strchr(path + 5, '/');
	return slash ? (size_t)(slash - path) : 0;
}

int link_compatible(const char *from, const char *def)
{
	size_t fi, di, fa = arch_len(from), da = arch_len(def);

	image_of(from, &fi);
	image_of(def, &di);
	if (fi || di)
		return fi == di && !strncmp(from, def, fi);
	if (fa && da)
		return fa == da && !strncmp(from, def, fa);
	return 1;
}
