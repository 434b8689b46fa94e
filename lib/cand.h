/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cand.h - the finder's candidates.tsv (FORMATS.md): its one reader and
 * the tables of its vocabulary, the classes, confidences, values and
 * annotation kinds, for every stage that reads it (validate, cover-plan,
 * the queue, the report).
 *
 * Columns are taken by name; file, line, name and class are needed, the
 * others are optional unless the caller asks for them.  The key is
 * (file, line, name), the journal's too: the #ifdef variants of one
 * variable are definitions of their own.  A repeated key is a duplicate
 * and is read once (its first row among the rows kept).
 *
 * Every bad row is reported as "PATH:LINE: what" (lib/tsv.h's
 * reader); the caller then exits with RC_DATA, or RC_HOST on a read
 * error (crows.sys_errno).  A file that cannot be opened is bad input.
 */
#ifndef RO_CAND_H
#define RO_CAND_H

#include <stddef.h>

/* candidates.tsv's class column; the finder's klass order. */
enum cand_class {
	CL_RO, CL_CONST, CL_REJECTED, CL_ALREADY, CL_SKIP, CL_INITDATA,
	CL_NR
};
extern const char *const class_name[CL_NR];
/* The classes that are conversions (validated, queued, reported). */
#define CL_CONVERSIONS	(1u << CL_RO | 1u << CL_INITDATA)

/* The confidence column: "-" for the classes that are no conversion. */
enum cand_conf { CONF_NONE, CONF_HIGH, CONF_MEDIUM, CONF_NR };
extern const char *const conf_name[CONF_NR];

/*
 * The value column, in rank order (FORMATS.md); VAL_NONE is "-" or a
 * file without the column.
 */
enum cand_value { VAL_FN, VAL_OBJECT, VAL_BOUND, VAL_POLICY, VAL_PARAM,
	VAL_SETTING, VAL_NONE, VAL_NR };
extern const char *const value_name[VAL_NR];

/* What a conversion adds: the annotation column, its attribute, section. */
enum annot { AN_RO, AN_INITDATA, AN_INITCONST, AN_NR, AN_NONE = AN_NR };
extern const char *const annot_name[AN_NR];	/* ro_after_init, ... */
extern const char *const annot_attr[AN_NR];	/* __ro_after_init, ... */
extern const char *const annot_section[AN_NR];	/* .data..ro_after_init */

/* The optional columns a caller can require (bits of crows_read's NEED). */
enum cand_col { CC_STORAGE, CC_CONFIDENCE, CC_REASON, CC_EVIDENCE,
	CC_ANNOTATION, CC_VALUE, CC_NR };

struct crow {
	char *file;
	long line;
	char *name;
	enum cand_class class;
	enum cand_conf conf;	/* CONF_NONE without the column */
	char *storage, *reason, *evidence;	/* NULL without the column */
	/*
	 * A conversion's annotation: ro_after_init for its class; for
	 * initdata the annotation column's (initdata or initconst), else,
	 * with "-" or no column, initconst when the reason names
	 * __initconst.  AN_NONE for the other classes.
	 */
	enum annot annot;
	enum cand_value value;
	unsigned long lineno;	/* in the candidates file */
};

struct crows {
	struct crow *v;		/* the rows kept, in file order */
	size_t n;
	size_t nrows;		/* data rows in the file, kept or not */
	int has[CC_NR];		/* which optional columns the file has */
	size_t *sorted;		/* indexes of v by key, for crows_find() */
	int sys_errno;		/* errno of a read failure (not an open one) */
};

enum {
	/*
	 * Lenient, as validate reads: empty fields are allowed, and a row
	 * not kept has only its class checked.
	 */
	CANDS_LENIENT = 1,
};

/*
 * Read PATH, keeping the rows whose class is in CLASSES (bit k for class
 * k).  NEED: bits (1u << CC_x) of the optional columns that must be
 * there.  Returns 0, the number of bad rows (each reported), or -1 when
 * the file is no candidates TSV at all (reported).  C is set in all
 * cases; free it with crows_free().
 */
long crows_read(const char *path, unsigned int classes, unsigned int need,
		int flags, struct crows *c);
/* The kept row of key (FILE, LINE, NAME), or NULL. */
const struct crow *crows_find(const struct crows *c, const char *file,
			      long line, const char *name);
void crows_free(struct crows *c);

#endif
