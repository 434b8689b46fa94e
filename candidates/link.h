/* SPDX-License-Identifier: GPL-2.0 */
/*
 * link: can code in one file refer to a global defined in another?
 * Different architectures are never linked together, and separate
 * images (lib/images.tsv: arch/X/boot/ with the decompressor, the
 * real-mode trampoline, purgatory, the EFI stub, the vDSO) have their own
 * copies of the globals they define.
 */
#ifndef CANDIDATES_LINK_H
#define CANDIDATES_LINK_H

int link_compatible(const char *from, const char *def);

#endif
