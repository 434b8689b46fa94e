/* SPDX-License-Identifier: GPL-2.0 */
/*
 * queue-plan: from the validation journal and candidates.tsv, decide the
 * series and patches and write their commit messages.  Four parts:
 *   queue-join.c     the journal joined with candidates.tsv: the variables
 *   queue-writers.c  each writer in words, from the source that explains it
 *   queue-msg.c      the prose of the commit messages and cover letters
 *                    (with queue-why.c, queue-notes.c and queue-cover.c:
 *                    queue-msg.h)
 *   queue-plan.c     the .plan/ layout and the README
 */
#ifndef QUEUE_PLAN_H
#define QUEUE_PLAN_H

#include <stddef.h>

#include "base.h"
#include "cand.h"
#include "evidence.h"
#include "journal.h"
#include "queue-maint.h"
#include "tsv.h"

/* The width of the commit messages' paragraphs. */
#define WIDTH 72

/*
 * At most this many patches in one posting (submitting-patches.rst: "do
 * not send more than 15 patches at once"); a larger area is split.
 */
#define MAX_POSTING 15

/* What the queue is based on (queue-base.c). */
struct queue_base {
	char *kind;		/* tarball, git, or tree (no origin file) */
	char *version;		/* make kernelversion, or "-" */
	char *commit;		/* the pristine commit, or "-" */
	char *source;		/* tarball: "Debian's linux-source-6.12" */
	char *text;		/* "Linux 6.12.118 (Debian's linux-source-6.12)" */
};

/*
 * The base of TREE, from ORIGIN (NULL: TREE/.git/ro-campaign-origin),
 * else, when that does not exist, from its Makefile; TEXT (--base), if
 * not NULL, names it instead.  Dies with RC_DATA naming
 * FILE:LINE on a bad origin file.
 */
void base_load(struct queue_base *b, const char *tree, const char *origin,
	       const char *text);
void base_free(struct queue_base *b);
/* "Base: TEXT", and for a git tree "base-commit: COMMIT", as lines. */
void base_lines(struct sb *s, const struct queue_base *b);

struct plan_opts {
	const char *journal;
	const char *candidates;
	const char *tree;	/* for MAINTAINERS and the writers' sources */
	const char *maintainers;
	const char *out;	/* the queue directory */
	const char *signoff;	/* "Name <email>" */
	const char *exclude;	/* TSV file name reason: leave out */
	const char *base_text;	/* --base: the base, in words, or NULL */
	const char *origin;	/* --origin: the origin file, or NULL */
	struct queue_base base;	/* the base (base_load()) */
	const char *profile;	/* the validated build profile */
	const char *tool;	/* --tool: ro-campaign's git describe, or NULL */
	const char *rules;	/* --rules: the finder rules used, or NULL */
	const char *prefixes;	/* --prefixes: TSV file prefix from the history */
	int max_vars;		/* variables per patch */
	int max_patches;	/* patches per posting */
	int allow_built;	/* queue accepted rows of level built too */
};

/*
 * What a patch adds to its variables: __ro_after_init (class
 * ro_after_init), or for class initdata __initdata or __initconst, as the
 * journal's accepted evidence names the section validate checked
 * (section=.init.data or .init.rodata).  Each kind has patches of its own.
 * The kinds are lib/cand.h's: annot_name[] (the annotate list's),
 * annot_attr[] and annot_section[].
 */
enum vkind { VK_RO = AN_RO, VK_INITDATA = AN_INITDATA,
	VK_INITCONST = AN_INITCONST, VK_NR = AN_NR };

/*
 * What a variable protects: candidates.tsv's value column (FORMATS.md),
 * "setting" when the column is absent or "-".  The first three are the
 * ones a hostile write profits from most: their patches come first in a
 * posting (this is the queue's order, not lib/cand.h's rank).
 */
enum vvalue {
	VV_FN_POINTER, VV_OBJECT_POINTER, VV_POLICY, VV_BOUND, VV_PARAM,
	VV_SETTING, VV_NR
};

/*
 * The group a variable goes in when its file has more than max_vars of
 * one annotation: each group is a patch of its own, with its own subject.
 */
enum vgroup { VG_POINTER, VG_TABLE, VG_PARAM, VG_OTHER, VG_NR };
extern const char *const vgroup_words[VG_NR];	/* "module parameters" */

/* A variable with its final journal row. */
struct var {
	const char *file, *name, *verdict;
	char *evidence;		/* one line, control characters removed */
	const char *batch, *config_hash, *core_hash;
	long line;
	unsigned long jline;	/* line of the journal row */
	enum ev_level level;	/* the journal row's */
	char *module;		/* cycled=MOD: the module, else NULL */
	enum vkind kind;	/* accepted ones: what the patch adds */
	enum vvalue value;	/* accepted ones: what it protects */
	enum vgroup group;	/* accepted ones: its patch when split */
	/* accepted ones only: */
	const char *reason, *conf;	/* the finder's, from candidates.tsv */
	struct ev_writer *w;	/* the writers, from candidates.tsv */
	int nw;
	long more;		/* writers the finder did not list */
	const struct msec *sec;
	char *prefix;
	const char *prefix_src;	/* "git log" or "table" */
};

/* The inputs, checked and joined. */
struct plan_in {
	struct jrows j;		/* the final row of each variable */
	struct crows cands;	/* candidates.tsv, every class */
	struct tsv_table excl, pfx;	/* pfx: --prefixes */
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

/*
 * 1 if TEXT can sit in a paragraph of a message: one line, and no word
 * that could start a trailer ("Signed-off-by:") if wrapping put it first.
 */
int quotable(const char *text);

/* How a writer was shown to be init-only. */
enum wkind {
	WK_INIT,	/* its function is __init */
	WK_CLOSURE,	/* its function is static, called only from init code */
	WK_FUNC,	/* a function the source did not explain */
	WK_FILE_SCOPE,	/* a parameter, assembly, an initializer */
};

/* The kind of writer W; *DEF gets its definition's line, or 0. */
enum wkind writer_kind(const char *tree, const struct ev_writer *w,
		       size_t *def);
/* One bullet for writer W, in words, indented by INDENT. */
void describe_writer(struct sb *s, const char *tree, const struct ev_writer *w,
		     const char *indent);
/* A writer at file scope (W->func is "-"), in a few words. */
void file_scope_words(struct sb *s, const struct ev_writer *w);
/* The bullet for the writers the finder did not list. */
void describe_more(struct sb *s, long more, const char *indent);
/* The shape of the definition of NAME at FILE:LINE, from the source. */
#define SHAPE_ARRAY	1u	/* NAME[ */
#define SHAPE_POINTER	2u	/* a * before NAME */
unsigned int decl_shape(const char *tree, const char *file, long line,
			const char *name);
/* 1 if W is a parameter (module_param=PERM, core_param=PERM). */
int writer_is_param(const struct ev_writer *w);
/* Forget the source file describe_writer() keeps. */
void describe_done(void);

/*
 * The subject of the patch of V[0..N-1] (without "[PATCH]"): the names
 * when they fit, else the group's words when SPLIT (the file was split by
 * group), else a count.  LEVEL 1 adds the file's base name, 2 its path,
 * to tell apart patches of a posting that would have the same subject.
 */
char *patch_subject(struct var **v, size_t n, int split, int level);

/*
 * The commit message of one patch, the variables V[0..N-1] of one file,
 * with subject SUBJ, into S, and the text that goes below its --- line
 * into NOTES.
 */
void commit_msg(struct sb *s, struct sb *notes, const struct plan_opts *o,
		struct var **v, size_t n, const char *subj);

/* One posting: part PART of PARTS of the series of an area. */
struct posting {
	const char *area;
	size_t nvars, npatches;		/* in this posting */
	unsigned int part, parts;
	size_t area_nvars, area_npatches;	/* in all parts */
	size_t nkind[VK_NR];		/* this posting's variables per kind */
	const char *scope;		/* its files, space-separated */
};

/*
 * The cover letter's text of posting P, ROWS the table of its variables
 * (with its column widths WVAR, WLOC), LEVELS the set of their levels
 * (1 << enum ev_level).
 */
void cover_blurb(struct sb *s, const struct plan_opts *o,
		 const struct posting *p, const char *rows, size_t wvar,
		 size_t wloc, unsigned int levels);

/* 0 done; dies on bad input (RC_DATA) or a write error (RC_HOST). */
int plan_run(const struct plan_opts *o);

#endif
