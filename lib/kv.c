// SPDX-License-Identifier: GPL-2.0
/*
 * kv.c - the "key value" TSV reader (kv.h): the strict TSV reader's table,
 * its key and value columns by name, a row looked up by its key.
 */
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "kv.h"

int kv_load(struct kv *k, const char *path)
{
	if (tsv_load(&k->t, path, 0))
		return -1;
	k->ck = tsv_table_need(&k->t, "key");
	k->cv = tsv_table_need(&k->t, "value");
	if (k->ck < 0 || k->cv < 0) {
		tsv_table_free(&k->t);
		return -1;
	}
	k->path = xstrdup(path);
	k->t.path = k->path;
	return 0;
}

void kv_free(struct kv *k)
{
	tsv_table_free(&k->t);
	free(k->path);
}

const char *kv_get(const struct kv *k, const char *key, unsigned long *line)
{
	size_t i;

	for (i = 0; i < k->t.nrows; i++)
		if (!strcmp(k->t.rows[i][k->ck], key)) {
			if (line)
				*line = k->t.lineno[i];
			return k->t.rows[i][k->cv];
		}
	return NULL;
}

const char *kv_need(const struct kv *k, const char *key)
{
	const char *v = kv_get(k, key, NULL);

	if (!v)
		die(RC_DATA, "%s: no row '%s'", k->t.path, key);
	return v;
}

long kv_long(const struct kv *k, const char *key, long min, long max)
{
	unsigned long line;
	const char *v = kv_get(k, key, &line);
	long n;

	if (!v)
		die(RC_DATA, "%s: no row '%s'", k->t.path, key);
	if (parse_long(v, min, max, &n))
		die(RC_DATA, "%s:%lu: %s '%s' is not a number from %ld to %ld",
		    k->t.path, line, key, v, min, max);
	return n;
}
