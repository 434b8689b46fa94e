/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - the campaign report's one data structure, shared by its
 * parts: report-read.c joins the inputs into it, report.c counts the
 * funnel, report-html.c and report-tsv.c write it out.
 */
#ifndef RO_REPORT_H
#define RO_REPORT_H

#include "base.h"
#include "cand.h"
#include "evidence.h"

enum stage { S_SCANNED, S_CANDIDATES, S_VALIDATED, S_BUILT, S_BOOTED,
	     S_ACCEPTED, S_NR };

extern const char *const stage_name[S_NR];
extern const char *const stage_label[S_NR];
/* The accepted ones split by evidence level: funnel.tsv rows, HTML bars. */
extern const char *const level_stage[EV_LEVEL_NR];
extern const char *const level_label[EV_LEVEL_NR];

/*
 * A conversion's kind, the annotation it adds, and what it protects (the
 * value column, VAL_NONE without it) are lib/cand.h's: enum annot with
 * annot_attr[], enum cand_value with value_name[].
 */

/* Its funnel, per kind: kinds.tsv columns, the HTML table. */
enum kstage { KS_CANDIDATES, KS_VALIDATED, KS_ACCEPTED, KS_QUEUED, KS_NR };
extern const char *const kstage_name[KS_NR];

struct var {
	char *file, *name, *confidence, *reason, *evidence;
	enum cand_value value;
	long line;
	const char *verdict;	/* NULL: not validated yet */
	enum ev_level level;	/* the journal's, "-" unless accepted */
	enum annot annot;	/* __ro_after_init, __initdata, __initconst */
	char *vevidence;	/* the journal's evidence */
	char *patch;		/* queued patch, relative to the queue dir */
	enum stage reached;
};

struct report {
	struct var *v;		/* the conversions: ro_after_init, initdata */
	int n, cap;
	struct var *fr;		/* rejected by the finder, with the writer */
	int nfr, capfr;
	int scanned;
	int count[S_NR];
	int level_count[EV_LEVEL_NR];	/* the accepted ones, per level */
	int kind_count[AN_NR][KS_NR];	/* each kind's funnel */
	char **fn_name, **fn_where;	/* function -> file:line (facts) */
	int nfn;
};

/* report-read.c: the inputs, joined per variable.  Die on bad input. */
void read_candidates(struct report *r, const char *path);
void read_journal(struct report *r, const char *path);
void read_funcs(struct report *r, const char *facts);
void link_patches(struct report *r, const char *queue);

/* report.c */
void classify(struct report *r);
/* The indexes of r->v by value rank, then file and line; free() it. */
int *value_order(const struct report *r);
/* The kind of a not-built reason ("other-arch", "unmet", ...). */
const char *notbuilt_kind(const char *reason);
char *subsystem(const char *file);

/* report-html.c, report-tsv.c: written atomically into DIR. */
void write_html(struct report *r, const char *dir, const char *title);
void write_tsv(struct report *r, const char *dir);
void write_out(const char *dir, const char *name, struct sb *s);

#endif
