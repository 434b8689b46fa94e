/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jobs.h - what the three parts of the job path share (FORMATS.md,
 * "validate jobs"): jobs-emit.c writes the jobs (--emit-jobs),
 * jobs-run.c loads and runs one on a worker (--job), jobs-merge.c
 * appends their verdicts to the campaign journal (--merge).  Their entry
 * points are in validate.h.
 */
#ifndef VALIDATE_JOBS_H
#define VALIDATE_JOBS_H

#include <stddef.h>

/* The job_role of a job's candidates.tsv: 0 member, 1 sibling. */
extern const char *const role_names[2];

/* PATH written atomically; dies RC_HOST. */
void put_file(const char *path, const char *buf, size_t len);
void copy_file(const char *from, const char *to);
/* S is LEN lowercase hex digits. */
int is_hex(const char *s, size_t len);
/*
 * The hash of a job's journal, when the job has finished, and its LEN;
 * NULL when it cannot be read.
 */
char *journal_hash(const char *path, size_t *len);

#endif
