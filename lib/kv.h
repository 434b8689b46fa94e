/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kv: a "key value" TSV in memory (a header line "key<TAB>value", then one
 * row per setting), as validate's job.tsv, farm.tsv and a job's status and
 * journal.hash are (FORMATS.md, "validate jobs").
 */
#ifndef RO_KV_H
#define RO_KV_H

#include "tsv.h"

struct kv {
	struct tsv_table t;
	char *path;		/* t.path, a copy: the caller may free its own */
	int ck, cv;
};

/* 0, or -1 when PATH is not a key-value TSV (warned, naming FILE:LINE). */
int kv_load(struct kv *k, const char *path);
void kv_free(struct kv *k);
/* The value of KEY; with LINE, its file line.  NULL when absent. */
const char *kv_get(const struct kv *k, const char *key, unsigned long *line);
/* The value of KEY; dies RC_DATA when absent. */
const char *kv_need(const struct kv *k, const char *key);
/* KEY's value as a number from MIN to MAX; dies RC_DATA naming FILE:LINE. */
long kv_long(const struct kv *k, const char *key, long min, long max);

#endif
