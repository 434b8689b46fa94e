/* SPDX-License-Identifier: GPL-2.0 */
/*
 * notkernel.h - the directories of lib/notkernel.tsv, which hold no
 * kernel code: tools/, scripts/, Documentation/, which no stage reads,
 * and samples/, which only spatch's facts read (the whole-tree scans
 * leave it out).  lib/notkernel.sh gives the scripts the same rows as
 * git pathspecs; C has them compiled in (lib/tsv2c.awk).
 */
#ifndef RO_NOTKERNEL_H
#define RO_NOTKERNEL_H

struct notkernel {
	unsigned int line;	/* its line in lib/notkernel.tsv */
	const char *path;	/* "samples/" */
	const char *scans;	/* none, or facts: only spatch's facts */
	const char *why;	/* why its variables are no candidates */
};

/* The row of the directory PATH is in, or NULL. */
const struct notkernel *notkernel_of(const char *path);

#endif
