/* SPDX-License-Identifier: GPL-2.0 */
/*
 * images.h - the directories of lib/images.tsv, whose code is linked
 * apart from the kernel proper: a boot image, the purgatory, the EFI
 * stub, the vDSO.  A name used in one of them is not the kernel's
 * namesake (candidates/link.c), and the finder skips the variables of the
 * ones marked skip (candidates/classify.c).  Compiled in from the TSV
 * (lib/tsv2c.awk).
 */
#ifndef RO_IMAGES_H
#define RO_IMAGES_H

#include <stddef.h>

struct image {
	unsigned int line;	/* its line in lib/images.tsv */
	const char *path;	/* "arch/x/boot/": a '*' is one component */
	/*
	 * skip: no kernel variable is defined there; kept: kernel objects
	 * share the directory (arch/x86/entry/vdso/vma.c), so its
	 * variables are judged
	 */
	const char *vars;
	const char *why;	/* what the directory holds */
};

/*
 * The image directory PATH is in, or NULL; *LEN gets the length of the
 * prefix it matched ("arch/x86/boot/"), which names the image.
 */
const struct image *image_of(const char *path, size_t *len);
/* 1 if the finder skips the variables of IM. */
int image_skips(const struct image *im);

#endif
