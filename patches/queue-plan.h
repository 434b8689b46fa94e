/* SPDX-License-Identifier: GPL-2.0 */
/*
 * queue-plan: from the validation journal and candidates.tsv, decide the
 * series and patches and write their commit messages.  Four parts:
 *   queue-join.c     the journal joined with candidates.tsv: the variables
 *   queue-writers.c  each writer in words, from the source that explains it
 *   queue-msg.c      the prose of the commit messages and cover letters
 *   queue-plan.c     the .plan/ layout and the README
 */
#ifndef QUEUE_PLAN_H
#define QUEUE_PLAN_H

#include <stddef.h>

#include "base.h"
#include "evidence.h"
#include "journal.h"
#include "queue-maint.h"
#include "tsv.h"

/* The width of the commit messages' paragraphs. */
#define WIDTH 72

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
	int allow_built;	/* queue accepted rows of level built too */
};

/* A variable with its final journal row. */
struct var {
	const char *file, *name, *verdict;
	char *evidence;		/* one line, control characters removed */
	const char *batch, *config_hash, *core_hash;
	long line;
	unsigned long jline;	/* line of the journal row */
	enum ev_level level;	/* the journal row's */
	char *module;		/* cycled=MOD: the module, else NULL */
	/* accepted ones only: */
	const char *reason, *conf;	/* the finder's, from candidates.tsv */
	struct ev_writer *w;	/* the writers, from candidates.tsv */
	int nw;
	long more;		/* writers the finder did not list */
	const struct msec *sec;
	char *prefix;
};

/* The inputs, checked and joined. */
struct plan_in {
	struct jrows j;		/* the final row of each variable */
	struct tsv_table cands, excl;
	struct var *acc, *other;	/* queued; not queued (and dropped) */
	size_t nacc, nother;
	size_t nrows, nvars;	/* journal rows, distinct variables */
	size_t nlevel[EV_LEVEL_NR];	/* queued, per level */
	size_t nbuilt;		/* accepted, only built, left out */
	char *date;		/* the newest journal time */
};

/*
 * Read and check the journal, candidates.tsv and the exclude list (every
 * path relative to the tree, every name an identifier, every text that
 * reaches a commit message safe to quote), then join them.  Dies with
 * RC_DATA naming FILE:LINE on bad input.
 */
void plan_join(struct plan_in *in, const struct plan_opts *o,
	       const struct maint *m);
void plan_in_free(struct plan_in *in);

/* One bullet for writer W, in words, indented by INDENT. */
void describe_writer(struct sb *s, const char *tree, const struct ev_writer *w,
		     const char *indent);
/* The bullet for the writers the finder did not list. */
void describe_more(struct sb *s, long more, const char *indent);
/* Forget the source file describe_writer() keeps. */
void describe_done(void);

/* The commit message of one patch: the variables V[0..N-1] of one file. */
void commit_msg(struct sb *s, const struct plan_opts *o, struct var **v,
		size_t n);
/*
 * The cover letter's text: N variables of AREA in NP patches, ROWS the
 * table of them (with its column widths WVAR, WLOC), LEVELS the set of
 * their levels (1 << enum ev_level).
 */
void cover_blurb(struct sb *s, const struct plan_opts *o, const char *area,
		 size_t n, size_t np, const char *rows, size_t wvar,
		 size_t wloc, unsigned int levels);

/* 0 done; dies on bad input (RC_DATA) or a write error (RC_HOST). */
int plan_run(const struct plan_opts *o);

#endif
