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
 *
 * gt_*(): the same over one batch's boots, one culprit at a time, with
 * what every test showed kept: a member of a passing test is clean
 * (strategy.c's boot phases).
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

/*
 * Adaptive group testing over the conversions of one batch (strategy.c):
 * every test of a set is noted; the members of a passing set are clean.
 * A failing set is explained by C when C is its only member that is not
 * clean: that is how a culprit gets its failures, alone or not.
 */
void gt_init(struct gt *g, int ncand)
{
	memset(g, 0, sizeof(*g));
	g->clean = xcalloc(ncand + 1, 1);
}

void gt_free(struct gt *g)
{
	int i;

	for (i = 0; i < g->n; i++)
		free(g->v[i].set);
	free(g->v);
	free(g->clean);
	memset(g, 0, sizeof(*g));
}

void gt_note(struct gt *g, const int *set, int n, int failed)
{
	int i;

	if (!failed) {
		for (i = 0; i < n; i++)
			g->clean[set[i]] = 1;
		return;
	}
	g->v = xrealloc(g->v, (g->n + 1) * sizeof(*g->v));
	g->v[g->n].set = xmalloc((n + 1) * sizeof(int));
	memcpy(g->v[g->n].set, set, n * sizeof(int));
	g->v[g->n++].n = n;
}

int gt_explained(const struct gt *g, int c)
{
	int i, k, in, others, count = 0;

	if (g->clean[c])
		return 0;
	for (i = 0; i < g->n; i++) {
		in = others = 0;
		for (k = 0; k < g->v[i].n; k++) {
			if (g->v[i].set[k] == c)
				in = 1;
			else if (!g->clean[g->v[i].set[k]])
				others = 1;
		}
		count += in && !others;
	}
	return count;
}

/*
 * set[] is known to fail, and a culprit is among its members that are
 * not clean: isolate one by halving, testing the first half only (when
 * it passes, the second is known to fail).  Returns the member, -2 when
 * no member is left (clean ones fail together), -1 when a test could not
 * be run; *steps counts the tests.
 */
int gt_find(struct gt *g, set_test_fn test, void *ctx, const int *set,
	    int n, int *steps)
{
	int *w = xmalloc((n + 1) * sizeof(int)), *p = w, k = 0, h, r, c;

	for (h = 0; h < n; h++)
		if (!g->clean[set[h]])
			w[k++] = set[h];
	while (k > 1) {
		h = k / 2;
		r = test(ctx, p, h);
		(*steps)++;
		if (r < 0) {
			free(w);
			return -1;
		}
		gt_note(g, p, h, !r);
		if (r) {
			p += h;
			k -= h;
		} else {
			k = h;
		}
	}
	c = k ? p[0] : -2;
	free(w);
	return c;
}
