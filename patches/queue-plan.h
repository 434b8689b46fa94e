/* SPDX-License-Identifier: GPL-2.0 */
/*
 * queue-plan: from the validation journal and candidates.tsv, decide the
 * series and patches and write their commit messages.
 */
#ifndef QUEUE_PLAN_H
#define QUEUE_PLAN_H

struct plan_opts {
	const char *journal;
	const char *candidates;
	const char *tree;	/* for MAINTAINERS and the writers' sources */
	const char *maintainers;
	const char *out;	/* the queue directory */
	const char *signoff;	/* "Name <email>" */
	const char *exclude;	/* TSV file name reason: leave out */
	const char *base;	/* the base, in words */
	const char *profile;	/* the validated build profile */
	int max_vars;		/* variables per patch */
};

/* 0 done, 1 bad input (named on stderr). */
int plan_run(const struct plan_opts *o);

#endif
