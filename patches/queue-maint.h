/* SPDX-License-Identifier: GPL-2.0 */
/*
 * queue-maint: parse MAINTAINERS and find a file's maintainer area, the
 * section with the most specific matching F: pattern, the way
 * scripts/get_maintainer.pl ranks them.
 */
#ifndef QUEUE_MAINT_H
#define QUEUE_MAINT_H

#include <stddef.h>

struct mpat {
	char *pat;		/* as written, plus '/' if it names a directory */
	int dir;		/* matches everything below it */
	int depth;		/* get_maintainer.pl's pattern depth */
	unsigned long lineno;
};

struct msec {
	char *name;
	unsigned long lineno;
	struct mpat *f, *x;
	size_t nf, nx;
};

struct maint {
	const char *path;
	char *data;
	struct msec *secs;
	size_t nsecs;
};

/*
 * Load MAINTAINERS from PATH.  TREE (may be NULL) is the tree root, used
 * to tell directory patterns without a trailing slash.  0 or -1.
 */
int maint_load(struct maint *m, const char *path, const char *tree);
/*
 * The area of FILE (a path relative to the tree root): the section with
 * the deepest matching F: pattern (ties: the longer pattern, then the
 * earlier section) that no X: pattern of the same section excludes.
 * *PAT gets the pattern.  NULL if nothing matches.
 */
const struct msec *maint_area(const struct maint *m, const char *file,
			      const struct mpat **pat);
/* 1 if glob pattern P (with '*', '?', '[...]') matches FILE as above. */
int maint_match(const struct mpat *p, const char *file);
void maint_free(struct maint *m);

#endif
