// SPDX-License-Identifier: GPL-2.0
/*
 * cand.c - the one reader of candidates.tsv (cand.h, FORMATS.md) and the
 * tables of its vocabulary.
 */
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "cand.h"
#include "tsv.h"

/* candidates/classify.c writes these */
const char *const class_name[CL_NR] = {
	[CL_RO] = "ro_after_init", [CL_CONST] = "const",
	[CL_REJECTED] = "rejected", [CL_ALREADY] = "already",
	[CL_SKIP] = "skip", [CL_INITDATA] = "initdata",
};
const char *const conf_name[CONF_NR] = {
	[CONF_NONE] = "-", [CONF_HIGH] = "high", [CONF_MEDIUM] = "medium",
};
const char *const value_name[VAL_NR] = {
	[VAL_FN] = "fn-pointer", [VAL_OBJECT] = "object-pointer",
	[VAL_BOUND] = "bound", [VAL_POLICY] = "policy", [VAL_PARAM] = "param",
	[VAL_SETTING] = "setting", [VAL_NONE] = "-",
};
const char *const annot_name[AN_NR] = {
	"ro_after_init", "initdata", "initconst",
};
const char *const annot_attr[AN_NR] = {
	"__ro_after_init", "__initdata", "__initconst",
};
const char *const annot_section[AN_NR] = {
	".data..ro_after_init", ".init.data", ".init.rodata",
};

static const char *const col_name[CC_NR] = {
	[CC_STORAGE] = "storage", [CC_CONFIDENCE] = "confidence",
	[CC_REASON] = "reason", [CC_EVIDENCE] = "evidence",
	[CC_ANNOTATION] = "annotation", [CC_VALUE] = "value",
};

#define MAX_LINE	100000000L

static int key_cmp(const struct crow *a, const struct crow *b)
{
	int d = strcmp(a->file, b->file);

	if (!d)
		d = a->line < b->line ? -1 : a->line > b->line;
	if (!d)
		d = strcmp(a->name, b->name);
	return d;
}

static const struct crow *sort_rows;

/* By key, then by file order: the first of a repeated key comes first. */
static int idx_cmp(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int d = key_cmp(&sort_rows[i], &sort_rows[j]);

	return d ? d : (i > j) - (i < j);
}

static void row_free(struct crow *r)
{
	free(r->file);
	free(r->name);
	free(r->storage);
	free(r->reason);
	free(r->evidence);
}

/* Sort the index of C's rows by key. */
static void sort_index(struct crows *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		c->sorted[i] = i;
	sort_rows = c->v;
	qsort(c->sorted, c->n, sizeof(*c->sorted), idx_cmp);
}

/* Index the rows; drop the later rows of a repeated key. */
static void index_rows(struct crows *c)
{
	size_t i, n = 0;
	char *dup;

	c->sorted = xmalloc((c->n + 1) * sizeof(*c->sorted));
	sort_index(c);
	dup = xcalloc(c->n + 1, 1);
	for (i = 1; i < c->n; i++)
		if (!key_cmp(&c->v[c->sorted[i - 1]], &c->v[c->sorted[i]]))
			dup[c->sorted[i]] = 1;
	for (i = 0; i < c->n; i++) {
		if (dup[i])
			row_free(&c->v[i]);
		else
			c->v[n++] = c->v[i];
	}
	free(dup);
	if (n < c->n) {
		c->n = n;
		sort_index(c);
	}
}

/* An optional enum field: its index, DEF without the column, -1 bad. */
static int opt_enum(struct tsv *t, int col, const char *const *names,
		    int n, int def, int lenient)
{
	int k;

	if (col < 0)
		return def;
	if (!lenient)
		return tsv_enum(t, col, names, n);
	for (k = 0; k < n; k++)
		if (!strcmp(t->field[col], names[k]))
			return k;
	return def;
}

/* The annotation of a conversion row of class K (see cand.h); -1 bad. */
static int row_annot(struct tsv *t, int k, int cannot, int creason)
{
	int a;

	if (k == CL_RO)
		return AN_RO;
	if (k != CL_INITDATA)
		return AN_NONE;
	if (cannot >= 0 && strcmp(t->field[cannot], "-")) {
		a = tsv_enum(t, cannot, annot_name, AN_NR);
		if (a == AN_RO) {
			tsv_error(t, "column 'annotation': class initdata takes initdata or initconst, not ro_after_init");
			return -1;
		}
		return a;
	}
	if (creason >= 0 && strstr(t->field[creason], "__initconst"))
		return AN_INITCONST;
	return AN_INITDATA;
}

static char *opt_dup(const struct tsv *t, int col)
{
	return col < 0 ? NULL : xstrdup(t->field[col]);
}

long crows_read(const char *path, unsigned int classes, unsigned int need,
		int flags, struct crows *c)
{
	int lenient = !!(flags & CANDS_LENIENT);
	int cfile, cline, cname, cclass, cc[CC_NR], i, k, rc;
	size_t cap = 0;
	long nbad = 0, line;
	struct tsv t;

	memset(c, 0, sizeof(*c));
	/* a file that cannot be opened is bad input, a read error the host's */
	if (tsv_open(&t, path, lenient ? TSV_EMPTY_OK : 0))
		return -1;
	cfile = tsv_need(&t, "file");
	cline = tsv_need(&t, "line");
	cname = tsv_need(&t, "name");
	cclass = tsv_need(&t, "class");
	for (i = 0; i < CC_NR; i++) {
		cc[i] = need & 1u << i ? tsv_need(&t, col_name[i]) :
			tsv_col(&t, col_name[i]);
		c->has[i] = cc[i] >= 0;
		if (need & 1u << i && cc[i] < 0)
			cfile = -1;
	}
	if (cfile < 0 || cline < 0 || cname < 0 || cclass < 0) {
		tsv_close(&t);
		return -1;
	}
	while ((rc = tsv_next(&t)) > 0) {
		struct crow r = { 0 };
		int kept, a, conf, val;

		c->nrows++;
		k = tsv_enum(&t, cclass, class_name, CL_NR);
		if (k < 0) {
			nbad++;
			continue;
		}
		kept = !!(classes & 1u << k);
		if (lenient && !kept)
			continue;
		if (tsv_path(&t, cfile) ||
		    tsv_long(&t, cline, 1, MAX_LINE, &line) ||
		    tsv_ident(&t, cname)) {
			nbad++;
			continue;
		}
		conf = opt_enum(&t, cc[CC_CONFIDENCE], conf_name, CONF_NR,
				CONF_NONE, lenient);
		val = opt_enum(&t, cc[CC_VALUE], value_name, VAL_NR, VAL_NONE,
			       lenient);
		a = row_annot(&t, k, cc[CC_ANNOTATION], cc[CC_REASON]);
		if (conf < 0 || val < 0 || a < 0) {
			nbad++;
			continue;
		}
		if (!kept)
			continue;
		r.file = xstrdup(t.field[cfile]);
		r.line = line;
		r.name = xstrdup(t.field[cname]);
		r.class = k;
		r.conf = conf;
		r.value = val;
		r.annot = a;
		r.storage = opt_dup(&t, cc[CC_STORAGE]);
		r.reason = opt_dup(&t, cc[CC_REASON]);
		r.evidence = opt_dup(&t, cc[CC_EVIDENCE]);
		r.lineno = t.lineno;
		if (c->n == cap) {
			cap = cap ? 2 * cap : 64;
			c->v = xrealloc(c->v, cap * sizeof(*c->v));
		}
		c->v[c->n++] = r;
	}
	if (rc < 0)
		c->sys_errno = t.sys_errno;
	tsv_close(&t);
	index_rows(c);
	if (rc < 0)
		return -1;
	return nbad;
}

const struct crow *crows_find(const struct crows *c, const char *file,
			      long line, const char *name)
{
	struct crow want = { .file = (char *)file, .line = line,
			     .name = (char *)name };
	size_t lo = 0, hi = c->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int d = key_cmp(&c->v[c->sorted[mid]], &want);

		if (!d)
			return &c->v[c->sorted[mid]];
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void crows_free(struct crows *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		row_free(&c->v[i]);
	free(c->v);
	free(c->sorted);
	memset(c, 0, sizeof(*c));
}
