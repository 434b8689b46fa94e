/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evidence.h - the evidence grammar of FORMATS.md, one parser and one
 * printer for each of its two forms.
 *
 * Writers (candidates.tsv "evidence"): items joined by ';', each
 *   FILE:LINE:FUNC:FORM     (FUNC is '-' at file scope)
 *
 * Journal evidence (journal.tsv "evidence"): one line of items joined by
 * "; ".  An accepted row has key=value items (built=OBJ,IMAGE;
 * booted=MODES; exercised=NAMES; for a module, cycled=MOD or
 * not-cycled=MOD: REASON; what ran after init: ran=FUNC:COUNT,...,
 * ran-in=EXERCISES, not-ran=FUNC,..., untraced=FUNC,...; a bound
 * device: bound=DRIVER@QEMU_DEVICE,...).  Any other row starts with its stage,
 * "STAGE: free text" (annotate, build, section, not-built, violation,
 * oops, boot, ...).
 */
#ifndef RO_EVIDENCE_H
#define RO_EVIDENCE_H

#include <stddef.h>

#include "base.h"

struct ev_writer {
	char *file;
	long line;
	char *func;
	char *form;
};

/*
 * Parse a writers list into *out (count returned); -1 when an item does
 * not have the FILE:LINE:FUNC:FORM shape ("-" alone is an empty list).
 * The last item may be "...(+N more)" (the finder lists at most 64
 * writers): *MORE gets N, or 0 when there is no such item.
 */
int ev_writers_parse(const char *s, struct ev_writer **out, long *more);
void ev_writers_free(struct ev_writer *w, int n);
void ev_writer_print(struct sb *s, const struct ev_writer *w);

struct ev_item {
	char *key;		/* "built", or the whole item without '=' */
	char *value;		/* after '=', NULL if there is none */
};

/* Split journal evidence into its "; "-separated items; returns count. */
int ev_items_parse(const char *s, struct ev_item **out);
void ev_items_free(struct ev_item *it, int n);
/*
 * The stage of a non-accepted row's evidence: the word before ": " at
 * the start ("build" for "build: ..."), copied into BUF; 0, or -1 when
 * the evidence does not start with a stage.
 */
int ev_stage(const char *evidence, char *buf, size_t len);
/*
 * The evidence level of a journal row (FORMATS.md, journal "level"), a
 * pure function of its verdict and evidence, strongest first: an
 * accepted row with a non-empty ran=FUNC:COUNT,... item is reached (a
 * function that uses the variable ran after init with the protection
 * on, the warn boot silent); one with a non-empty bound= item is
 * device-bound; one with a cycled=MOD item is module-cycled; one with
 * built=OBJECT,vmlinux and a booted= item is booted (built in and booted
 * through the suite, none of its functions seen to run); any other
 * accepted row is built; a row of any other verdict has no level ("-").
 */
enum ev_level {
	EV_LEVEL_NONE,
	EV_LEVEL_REACHED,
	EV_LEVEL_DEVICE_BOUND,
	EV_LEVEL_MODULE_CYCLED,
	EV_LEVEL_BOOTED,
	EV_LEVEL_BUILT,
	EV_LEVEL_NR
};
/* The strongest level: loops over the levels of accepted rows start here. */
#define EV_LEVEL_FIRST EV_LEVEL_REACHED
/* The old name of booted (journals before the reached level). */
#define EV_LEVEL_EXERCISED EV_LEVEL_BOOTED

/* "-", "reached", "device-bound", "module-cycled", "booted", "built". */
extern const char *const ev_level_names[EV_LEVEL_NR];
/* VERDICT is the journal's word: "accepted", "rejected", "not-built". */
enum ev_level ev_level(const char *verdict, const char *evidence);
const char *ev_level_name(enum ev_level l);
/*
 * A level column's word: one of ev_level_names, or "exercised", the old
 * name of booted (old journals keep reading); -1 when it is neither.
 */
int ev_level_parse(const char *name);

/*
 * The maintainer's sentence for an accepted row's journal EVIDENCE
 * (malloc'ed, no final period), from its ran=, ran-in=, not-ran=,
 * bound= and cycled= items: "its users foo() and bar() ran 1,204 times
 * during S3 suspend/resume and CPU hotplug, with the section read-only";
 * for booted, "it was built in and booted, but the boot did not reach
 * its code (foo() never ran after init)".  NULL for a row that is not
 * accepted.
 */
char *ev_sentence(const char *verdict, const char *evidence);

/*
 * Print text as one journal field: TABs, newlines and other control
 * characters become single spaces, at most MAX bytes, "-" when empty.
 */
char *ev_one_line(const char *s, size_t max);

/*
 * The kinds of a not-built verdict (FORMATS.md, journal "evidence"):
 * validate writes "not-built: KIND: text", KIND one of the tokens below
 * and the text for humans; the report groups by KIND.
 */
enum ev_notbuilt {
	EV_NB_OTHER_ARCH,	/* the cover plan: a file of another arch */
	EV_NB_UNMET,		/* the cover plan: its symbols do not stick */
	EV_NB_NO_KBUILD_RULE,	/* no rule names its object (old journals) */
	EV_NB_NOT_C,		/* not a .c file: no object to check */
	EV_NB_BUILDABLE,	/* buildable by the cover plan, not compiled */
	EV_NB_PROFILE,		/* its object is not compiled in the profile */
	EV_NB_COMPILED_OUT,	/* the object has no such symbol */
	EV_NB_DISCARDED,	/* the symbol is not linked into the image */
	EV_NB_OTHER,		/* none of these (and unknown tokens) */
	EV_NB_NR
};

struct ev_notbuilt_kind {
	const char *token;	/* the KIND of "not-built: KIND: text" */
	const char *label;	/* the report's name for the group */
	/*
	 * how journals written before the kinds said it: the reason
	 * starts with LEGACY (LEGACY_PREFIX) or holds it
	 */
	const char *legacy;
	int legacy_prefix;
};

extern const struct ev_notbuilt_kind ev_notbuilt_kinds[EV_NB_NR];

/* "not-built: KIND: TEXT", malloc'ed. */
char *ev_notbuilt(enum ev_notbuilt kind, const char *text);
/*
 * The kind of a not-built REASON (the evidence after "not-built: "): its
 * KIND token, else the legacy phrase of an older journal, else
 * EV_NB_OTHER.
 */
enum ev_notbuilt ev_notbuilt_parse(const char *reason);

#endif
