// SPDX-License-Identifier: GPL-2.0
/*
 * record.c - validate's use of the journal (lib/journal.h): resume from
 * it, append each verdict to it.
 *
 * A conversion is decided when a row of the journal has its file, line
 * and name and the current config and core hashes; the last such row
 * (journal_final()) gives its verdict, and a rerun skips it.  The #ifdef
 * variants of one variable (pci-dma.c's two force_iommu) are candidates
 * of their own, each with its own row.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "evidence.h"
#include "validate.h"

static const struct cands *sort_c;

static int cmp_cand(const void *a, const void *b)
{
	const struct cand *x = &sort_c->v[*(const int *)a];
	const struct cand *y = &sort_c->v[*(const int *)b];
	int r = strcmp(x->file, y->file);

	if (r)
		return r;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The candidate of ROW, or -1: a binary search of the sorted index. */
static int find_cand(const struct cands *c, const int *index,
		     const struct jrow *row)
{
	int lo = 0, hi = c->n - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		const struct cand *m = &c->v[index[mid]];
		int r = strcmp(row->file, m->file);

		if (!r && row->line != m->line)
			r = row->line < m->line ? -1 : 1;
		if (!r)
			r = strcmp(row->variable, m->name);
		if (!r)
			return index[mid];
		if (r < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return -1;
}

/*
 * Mark the candidates that the journal decided for the current hashes,
 * from the rows journal_open() read (it refuses a file that is not a
 * journal).  Returns how many candidates are decided.
 */
int resume(struct ctx *x)
{
	struct cands *c = x->c;
	struct jrows *rows = &x->jrows;
	int *index, i, k, done = 0;
	size_t r;

	index = xmalloc((c->n + 1) * sizeof(*index));
	for (i = 0; i < c->n; i++)
		index[i] = i;
	sort_c = c;
	qsort(index, c->n, sizeof(*index), cmp_cand);
	journal_final(rows, x->config_hash, x->core_hash);
	for (r = 0; r < rows->n; r++) {
		const struct jrow *row = &rows->v[r];

		k = find_cand(c, index, row);
		if (k < 0)
			continue;
		c->v[k].verdict = row->verdict;
		free(c->v[k].evidence);
		c->v[k].evidence = xstrdup(row->evidence);
	}
	journal_rows_free(rows);
	free(index);
	for (i = 0; i < c->n; i++)
		done += c->v[i].verdict != V_UNDECIDED;
	return done;
}

/* Journal verdict V of CD with EVIDENCE (printed as one line). */
void record(struct ctx *x, struct cand *cd, const char *batch, enum verdict v,
	    const char *evidence)
{
	char stamp[32];
	time_t t = time(NULL);
	const char *ran;
	char *all = NULL;
	struct jrow row = {
		.time = stamp,
		.variable = cd->name,
		.file = cd->file,
		.line = cd->line,
		.batch = (char *)batch,
		.verdict = v,
		.config_hash = x->config_hash,
		.core_hash = x->core_hash,
	};

	if (cd->verdict != V_UNDECIDED)
		die(RC_HOST, "internal: %s:%d %s decided twice", cd->file,
		    cd->line, cd->name);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	/* what of it ran after init, in the passing boots (reach.c) */
	ran = v == V_ACCEPTED ? reach_evidence(x, cd - x->c->v) : NULL;
	if (ran) {
		all = xasprintf("%s; %s", evidence, ran);
		evidence = all;
	}
	row.evidence = ev_one_line(evidence, 900);
	free(all);
	journal_append(&x->j, &row);
	cd->verdict = v;
	cd->evidence = row.evidence;
}
