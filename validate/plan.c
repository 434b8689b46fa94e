// SPDX-License-Identifier: GPL-2.0
/*
 * plan.c - batches and group testing.
 *
 * plan_batches() cuts the undecided candidates into batches, never two
 * variables of the same name in one batch (a violation names a symbol,
 * and the symbol must name one candidate).
 *
 * bisect() finds the members of a failing set that make it fail, by
 * adaptive group testing: split in halves, test each half, recurse into
 * the failing ones; when the first half passes the second is known to
 * fail and is not tested again.  A culprit must then fail alone, 1 +
 * retest times in all (KernelCI's rule against flaky culprits); one that
 * passes alone is dropped.
 */
#include <stdlib.h>
#include <string.h>

#include "validate.h"

int plan_batches(struct cands *c, int size, int *order, int *starts)
{
	char *taken = xmalloc(c->n);
	int i, j, k = 0, n = 0, left = 0;

	for (i = 0; i < c->n; i++) {
		taken[i] = c->v[i].verdict != V_UNDECIDED;
		left += !taken[i];
	}
	while (left) {
		int first = n;

		starts[k++] = n;
		for (i = 0; i < c->n && n - first < size; i++) {
			if (taken[i])
				continue;
			for (j = first; j < n; j++)
				if (!strcmp(c->v[order[j]].name, c->v[i].name))
					break;
			if (j < n)
				continue;
			order[n++] = i;
			taken[i] = 1;
			left--;
		}
	}
	starts[k] = n;
	free(taken);
	return k;
}

struct bis {
	set_test_fn test;
	void *ctx;
	int *cul;
	int *fails;	/* failures alone, per culprit */
	int ncul;
};

static int find(struct bis *b, const int *set, int n, int known_fail)
{
	int h, before, r;

	if (!known_fail) {
		r = b->test(b->ctx, set, n);
		if (r < 0)
			return -1;
		if (r == 1)
			return 0;
	}
	if (n == 1) {
		b->cul[b->ncul] = set[0];
		b->fails[b->ncul++] = !known_fail;
		return 0;
	}
	h = n / 2;
	before = b->ncul;
	if (find(b, set, h, 0) < 0)
		return -1;
	return find(b, set + h, n - h, b->ncul == before);
}

/*
 * set fails (known_fail: already seen failing).  Writes the confirmed
 * culprits to culprits[] and returns how many, or -1 if a test could not
 * be run.
 */
int bisect(set_test_fn test, void *ctx, const int *set, int n,
	   int known_fail, int retest, int *culprits)
{
	struct bis b = { test, ctx, xmalloc(n * sizeof(int)),
			 xmalloc(n * sizeof(int)), 0 };
	int i, r, out = 0;

	if (find(&b, set, n, known_fail) < 0)
		goto fail;
	for (i = 0; i < b.ncul; i++) {
		while (b.fails[i] < 1 + retest) {
			r = test(ctx, &b.cul[i], 1);
			if (r < 0)
				goto fail;
			if (r == 1)
				break;
			b.fails[i]++;
		}
		if (b.fails[i] >= 1 + retest)
			culprits[out++] = b.cul[i];
	}
	free(b.cul);
	free(b.fails);
	return out;
fail:
	free(b.cul);
	free(b.fails);
	return -1;
}
