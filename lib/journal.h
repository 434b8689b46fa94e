/* SPDX-License-Identifier: GPL-2.0 */
/*
 * journal.h - the validation journal (FORMATS.md, "journal.tsv"):
 *   time variable file line batch verdict evidence level config_hash core_hash
 * appended one row per decision, each row in one write(2) and fsync(2).
 * The level is computed from the verdict and the evidence (ev_level())
 * by the writer, and checked against them by the reader.  A journal of
 * the 9 columns before "level" is read too (the level derived), and
 * journal_open() migrates it in place (FILE.tmp, fsync, rename).
 *
 * Reading: the header is checked first; a torn last row (no newline) was
 * never a verdict and is skipped with a warning; any other defect is an
 * error naming FILE:LINE.  The final verdict of a variable is the last row
 * of its key (file, line, variable), the key of candidates.tsv, optionally
 * only among rows of given hashes.  The line is part of the key because
 * the #ifdef variants of one variable are definitions of their own.
 */
#ifndef RO_JOURNAL_H
#define RO_JOURNAL_H

#include <stddef.h>

#include "evidence.h"

enum verdict {
	V_UNDECIDED,
	V_ACCEPTED,
	V_REJECTED,
	V_NOTBUILT,
	V_SKIPPED,	/* beyond --max: left for a later run, never journaled */
};

#define JOURNAL_NCOLS 10
extern const char *const journal_cols[JOURNAL_NCOLS];

const char *verdict_name(enum verdict v);
/* The verdict called S (accepted, rejected, not-built), or V_UNDECIDED. */
enum verdict verdict_parse(const char *s);

struct jrow {
	char *time;
	char *variable;
	char *file;
	long line;
	char *batch;
	enum verdict verdict;
	char *evidence;
	enum ev_level level;	/* read: checked or derived; append: ignored */
	char *config_hash;
	char *core_hash;
	unsigned long lineno;	/* in the journal file */
};

struct jrows {
	struct jrow *v;
	size_t n;
};

/*
 * Read every row of PATH.  0, or -1 with a message.  A missing file is
 * an error here; callers that allow it check first.
 */
int journal_read(const char *path, struct jrows *rows);
/*
 * Keep only the final row of each (file, line, variable), in the order of
 * those final rows; rows of other hashes are dropped first when
 * CONFIG_HASH or CORE_HASH is not NULL.  Returns the new count.
 */
size_t journal_final(struct jrows *rows, const char *config_hash,
		     const char *core_hash);
void journal_rows_free(struct jrows *rows);

struct journal {
	int fd;
	char *path;
};

/*
 * Open PATH for appending: a missing or empty file gets the header; an
 * existing file must start with the header or the old 9-column one
 * (checked before anything is changed), and its torn last row is cut off
 * only after that.  An old journal whose rows all read well is rewritten
 * with the level column (FILE.tmp, fsync, rename), every complete row
 * kept byte for byte apart from the new field.  Dies with
 * RC_DATA for a file that is not a journal, RC_HOST on I/O errors.  ROWS,
 * unless NULL, gets the rows it read (none for a new journal), so a
 * caller that resumes need not read the file again.
 */
void journal_open(struct journal *j, const char *path, struct jrows *rows);
/*
 * Append one row (fsync'ed); the evidence must be one line.  Its level is
 * computed here from the verdict and the evidence; R->level is ignored.
 */
void journal_append(struct journal *j, const struct jrow *r);
void journal_close(struct journal *j);

#endif
