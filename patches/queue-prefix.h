/* SPDX-License-Identifier: GPL-2.0 */
/*
 * queue-prefix: the subject prefix a maintainer expects for a file.
 */
#ifndef QUEUE_PREFIX_H
#define QUEUE_PREFIX_H

/* The prefix (without ": ") for FILE, a path in the tree; malloc'ed. */
char *subject_prefix(const char *file);

#endif
