// SPDX-License-Identifier: GPL-2.0
/*
 * queue-join: the journal joined with candidates.tsv and the exclude
 * list, checked before anything is written.
 *
 * The final journal row of a variable (file, line, name) is its verdict
 * (journal_final()).  An accepted variable must still be classed
 * ro_after_init in candidates.tsv, or initdata when validate checked it
 * in an init section (its evidence names section=.init.data or
 * .init.rodata); the finder's writers say why it is safe; it is grouped
 * by the MAINTAINERS area of its file, and its kind (the annotation) is
 * part of its sort key: kinds never share a patch.  Every other final
 * verdict, every accepted variable the exclude list names (by file, line
 * and name), and, unless allow_built, every accepted variable of
 * evidence level built (only compiled, not booted through its code) is
 * "not queued" with the journal's (or the list's) reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue-plan.h"
#include "queue-prefix.h"

static int var_cmp(const void *a, const void *b)
{
	const struct var *va = a, *vb = b;
	int d = strcmp(va->sec->name, vb->sec->name);

	if (!d)
		d = strcmp(va->file, vb->file);
	if (!d)
		d = (int)va->kind - (int)vb->kind;
	if (!d)
		d = va->line < vb->line ? -1 : va->line > vb->line;
	if (!d)
		d = strcmp(va->name, vb->name);
	return d;
}

static int other_cmp(const void *a, const void *b)
{
	const struct var *va = a, *vb = b;
	int d = strcmp(va->file, vb->file);

	if (!d)
		d = va->line < vb->line ? -1 : va->line > vb->line;
	if (!d)
		d = strcmp(va->name, vb->name);
	return d;
}

/* ---- checks ------------------------------------------------------------- */

/*
 * The first word of S that could start a trailer or a mail header if a
 * wrapped paragraph put it at the start of a line ("Signed-off-by:",
 * "Cc:"): letters, digits and '-', then ':'.  NULL if there is none.
 */
static char *trailer_word(const char *s, char *buf, size_t len)
{
	while (*s) {
		size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-");

		if (n && s[n] == ':' && (s[n + 1] == ' ' || !s[n + 1])) {
			snprintf(buf, len, "%.*s", (int)n + 1, s);
			return buf;
		}
		s += strcspn(s, " ");
		s += strspn(s, " ");
	}
	return NULL;
}

int quotable(const char *text)
{
	char word[80];

	return is_one_line(text) && !trailer_word(text, word, sizeof(word));
}

/*
 * TEXT, from column COL of PATH:LINE, goes into a paragraph of a commit
 * message that is not indented: it must not be able to start a trailer.
 */
static void check_quotable(const char *path, unsigned long line,
			   const char *col, const char *text)
{
	char word[80];

	if (!is_one_line(text))
		die(RC_DATA, "%s:%lu: column '%s': a control character in '%s'",
		    path, line, col, text);
	if (trailer_word(text, word, sizeof(word)))
		die(RC_DATA, "%s:%lu: column '%s': '%s' has the trailer-like word '%s', which could start a line of a commit message",
		    path, line, col, text, word);
}

static void load(struct tsv_table *t, const char *path)
{
	if (tsv_load(t, path, 0))
		die(RC_DATA, "%s: cannot read it (see above)", path);
}

static int need(const struct tsv_table *t, const char *name)
{
	int c = tsv_table_need(t, name);

	if (c < 0)
		die(RC_DATA, "%s: a column is missing (see above)", t->path);
	return c;
}

/*
 * The exclude list E: every row's file is a tree path, its line a number
 * or "-" (every definition of the name in the file; a list without the
 * line column, as they were before it, is read so), its name an
 * identifier.
 */
static void check_exclude(const struct tsv_table *e)
{
	int cf = need(e, "file"), cl = tsv_table_col(e, "line");
	int cn = need(e, "name");
	size_t i;
	long v;

	need(e, "reason");
	for (i = 0; i < e->nrows; i++) {
		char **r = e->rows[i];

		if (!is_tree_path(r[cf]))
			die(RC_DATA, "%s:%lu: column 'file': '%s' is not a path relative to the tree root (no '/' at the start, no '.' or '..')",
			    e->path, e->lineno[i], r[cf]);
		if (cl >= 0 && strcmp(r[cl], "-") &&
		    parse_long(r[cl], 1, 100000000, &v))
			die(RC_DATA, "%s:%lu: column 'line': '%s' is neither a number from 1 to 100000000 nor '-'",
			    e->path, e->lineno[i], r[cl]);
		if (!is_identifier(r[cn]))
			die(RC_DATA, "%s:%lu: column 'name': '%s' is not a C identifier",
			    e->path, e->lineno[i], r[cn]);
	}
}

/* candidates.tsv, every class (lib/cand.h): its key and vocabulary checked. */
static void load_cands(struct crows *c, const char *path)
{
	long bad = crows_read(path, (1u << CL_NR) - 1, 1u << CC_CONFIDENCE |
			      1u << CC_REASON | 1u << CC_EVIDENCE, 0, c);

	if (bad)
		die(c->sys_errno ? RC_HOST : RC_DATA,
		    "%s: cannot read it (see above)", path);
}

/*
 * 1 if (FILE, LINE, NAME) is in the exclude table E (columns file, line,
 * name, reason; a line "-" or no line column: any line); *WHY gets the
 * reason.
 */
static int excluded(const struct tsv_table *e, const char *file, long line,
		    const char *name, const char **why)
{
	int cf = tsv_table_col(e, "file"), cn = tsv_table_col(e, "name");
	int cl = tsv_table_col(e, "line"), cr = tsv_table_col(e, "reason");
	size_t i;

	for (i = 0; cf >= 0 && cn >= 0 && cr >= 0 && i < e->nrows; i++) {
		char **r = e->rows[i];

		if (strcmp(r[cf], file) || strcmp(r[cn], name))
			continue;
		if (cl >= 0 && strcmp(r[cl], "-") &&
		    strtol(r[cl], NULL, 10) != line)
			continue;
		*why = r[cr];
		return 1;
	}
	return 0;
}

const char *const vgroup_words[VG_NR] = {
	"pointers set once at init", "tables", "module parameters", "settings",
};

/* The queue's value of candidates.tsv's row R ("-": a setting). */
static enum vvalue value_of(const struct crow *r)
{
	static const enum vvalue vv[VAL_NR] = {
		[VAL_FN] = VV_FN_POINTER, [VAL_OBJECT] = VV_OBJECT_POINTER,
		[VAL_BOUND] = VV_BOUND, [VAL_POLICY] = VV_POLICY,
		[VAL_PARAM] = VV_PARAM, [VAL_SETTING] = VV_SETTING,
		[VAL_NONE] = VV_SETTING,
	};

	return vv[r->value];
}

/*
 * The group of accepted variable V: a parameter if a writer is its
 * module_param() or core_param(), else a table if it is an array, else a
 * pointer if its value or its declaration says so, else a setting.
 */
static enum vgroup group_of(const struct var *v, const struct plan_opts *o)
{
	unsigned int shape = decl_shape(o->tree, v->file, v->line, v->name);
	int i;

	for (i = 0; i < v->nw; i++)
		if (writer_is_param(&v->w[i]))
			return VG_PARAM;
	if (shape & SHAPE_ARRAY)
		return VG_TABLE;
	if (v->value == VV_FN_POINTER || v->value == VV_OBJECT_POINTER ||
	    (shape & SHAPE_POINTER))
		return VG_POINTER;
	return VG_OTHER;
}

/*
 * The kind of accepted variable V, from its journal evidence: the
 * section= item validate writes for an init-section conversion, none for
 * __ro_after_init.  -1 for a section of no kind.
 */
static int evidence_kind(const struct var *v)
{
	struct ev_item *it;
	int n = ev_items_parse(v->evidence, &it), i, k = VK_RO;

	for (i = 0; i < n; i++) {
		if (strcmp(it[i].key, "section"))
			continue;
		for (k = VK_INITDATA; k < VK_NR; k++)
			if (it[i].value && !strcmp(it[i].value, annot_section[k]))
				break;
		if (k == VK_NR)
			k = -1;
		break;
	}
	ev_items_free(it, n);
	return k;
}

/* The candidates.tsv side of accepted variable V: its row R. */
static void take_cand(struct var *v, const struct crow *r,
		      const struct plan_opts *o)
{
	int kind = evidence_kind(v), init = r->class == CL_INITDATA;
	unsigned long line = r->lineno;
	struct ev_writer *w;
	int i;

	if (r->class != CL_RO && !init)
		die(RC_DATA, "%s:%lu: %s in %s is accepted but %s now classes it '%s' (%s); re-run validation",
		    o->journal, v->jline, v->name, v->file, o->candidates,
		    class_name[r->class], r->reason);
	if (kind < 0)
		die(RC_DATA, "%s:%lu: column 'evidence': %s in %s was accepted in a section of no annotation (%s)",
		    o->journal, v->jline, v->name, v->file, v->evidence);
	if (init != (kind != VK_RO))
		die(RC_DATA, "%s:%lu: %s in %s was accepted as %s but %s classes it '%s' (%s); re-run validation",
		    o->journal, v->jline, v->name, v->file, annot_attr[kind],
		    o->candidates, class_name[r->class], r->reason);
	v->kind = kind;
	v->reason = r->reason;
	v->conf = conf_name[r->conf];
	/* an init kind's reason goes in a bullet (queue-notes.c) */
	if (kind == VK_RO)
		check_quotable(o->candidates, line, "reason", v->reason);
	else if (!is_one_line(v->reason))
		die(RC_DATA, "%s:%lu: column 'reason': a control character in '%s'",
		    o->candidates, line, v->reason);
	check_quotable(o->candidates, line, "confidence", v->conf);
	v->nw = ev_writers_parse(r->evidence, &v->w, &v->more);
	if (v->nw < 0)
		die(RC_DATA, "%s:%lu: column 'evidence': '%s' is not a list of writers FILE:LINE:FUNC:FORM;...",
		    o->candidates, line, r->evidence);
	for (i = 0; i < v->nw; i++) {
		w = &v->w[i];
		if (!is_tree_path(w->file))
			die(RC_DATA, "%s:%lu: column 'evidence': writer file '%s' is not a path relative to the tree root",
			    o->candidates, line, w->file);
		/* quoted in indented bullets only: one line is enough */
		if (!is_one_line(w->func) || !is_one_line(w->form))
			die(RC_DATA, "%s:%lu: column 'evidence': a control character in writer %s:%ld",
			    o->candidates, line, w->file, w->line);
	}
	v->value = value_of(r);
	v->group = group_of(v, o);
}

/*
 * The module of EVIDENCE's cycled=MOD item, from PATH:LINE: a module
 * name (letters, digits, '_', '-'), since a paragraph of the commit
 * message names it.
 */
static char *cycled_module(const char *path, unsigned long line,
			   const char *evidence)
{
	struct ev_item *it;
	char *mod = NULL;
	int n = ev_items_parse(evidence, &it), i;

	for (i = 0; i < n && !mod; i++)
		if (!strcmp(it[i].key, "cycled") && it[i].value)
			mod = xstrdup(it[i].value);
	ev_items_free(it, n);
	if (!mod || strspn(mod, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") != strlen(mod))
		die(RC_DATA, "%s:%lu: column 'evidence': cycled=%s is not a module name",
		    path, line, mod ? mod : "");
	return mod;
}

/* The variable of journal row R, checked. */
static struct var var_of(const struct jrow *r, const struct plan_opts *o)
{
	struct var v = { 0 };

	v.name = r->variable;
	v.file = r->file;
	v.line = r->line;
	v.verdict = verdict_name(r->verdict);
	v.evidence = ev_one_line(r->evidence, (size_t)-1);
	v.batch = r->batch;
	v.config_hash = r->config_hash;
	v.core_hash = r->core_hash;
	v.jline = r->lineno;
	v.level = r->level;
	if (r->verdict == V_ACCEPTED) {
		check_quotable(o->journal, r->lineno, "batch", v.batch);
		check_quotable(o->journal, r->lineno, "config_hash",
			       v.config_hash);
	}
	/* a device-bound module was cycled too: it names the module */
	if (v.level == EV_LEVEL_MODULE_CYCLED ||
	    v.level == EV_LEVEL_DEVICE_BOUND)
		v.module = cycled_module(o->journal, r->lineno, v.evidence);
	return v;
}

/*
 * The --prefixes file (queue-prefixes.sh): file, prefix, the prefix of
 * the file's own recent commits.  A prefix goes into the subject: one
 * line of [A-Za-z0-9 _.,/+:-], at most 40 characters, not empty.
 */
static void load_prefixes(struct tsv_table *t, const char *path)
{
	int cf, cp;
	size_t i;

	load(t, path);
	cf = need(t, "file");
	cp = need(t, "prefix");
	for (i = 0; i < t->nrows; i++) {
		const char *p = t->rows[i][cp];

		if (!is_tree_path(t->rows[i][cf]))
			die(RC_DATA, "%s:%lu: column 'file': '%s' is not a path relative to the tree root",
			    path, t->lineno[i], t->rows[i][cf]);
		if (!*p || strlen(p) > 40 ||
		    strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 _.,/+:-") != strlen(p) ||
		    p[0] == ' ' || p[strlen(p) - 1] == ' ')
			die(RC_DATA, "%s:%lu: column 'prefix': '%s' is not a subject prefix (at most 40 of A-Z a-z 0-9 and ' _.,/+:-')",
			    path, t->lineno[i], p);
	}
}

/* FILE's prefix from the --prefixes table T, malloc'ed; NULL if none. */
static char *history_prefix(const struct tsv_table *t, const char *file)
{
	int cf = tsv_table_col(t, "file"), cp = tsv_table_col(t, "prefix");
	size_t i;

	for (i = 0; cf >= 0 && cp >= 0 && i < t->nrows; i++)
		if (!strcmp(t->rows[i][cf], file))
			return xstrdup(t->rows[i][cp]);
	return NULL;
}

void plan_join(struct plan_in *in, const struct plan_opts *o,
	       const struct maint *m)
{
	size_t i;
	const char *date = "2000-01-01T00:00:00Z";

	memset(in, 0, sizeof(*in));
	if (journal_read(o->journal, &in->j))
		die(RC_DATA, "%s: not a valid journal (see above)", o->journal);
	load_cands(&in->cands, o->candidates);
	if (o->prefixes)
		load_prefixes(&in->pfx, o->prefixes);
	if (o->exclude) {
		load(&in->excl, o->exclude);
		check_exclude(&in->excl);
	}
	/* The newest journal time dates the commits, so reruns agree. */
	for (i = 0; i < in->j.n; i++)
		if (strcmp(in->j.v[i].time, date) > 0)
			date = in->j.v[i].time;
	in->date = xstrdup(date);
	in->nrows = in->j.n;
	in->nvars = journal_final(&in->j, NULL, NULL);
	in->acc = xmalloc((in->nvars + 1) * sizeof(*in->acc));
	in->other = xmalloc((in->nvars + 1) * sizeof(*in->other));
	for (i = 0; i < in->nvars; i++) {
		struct var v = var_of(&in->j.v[i], o);
		const struct crow *c;
		const char *why;

		if (strcmp(v.verdict, "accepted")) {
			in->other[in->nother++] = v;
			continue;
		}
		if (excluded(&in->excl, v.file, v.line, v.name, &why)) {
			free(v.evidence);
			v.evidence = ev_one_line(why, (size_t)-1);
			v.verdict = "dropped";
			in->other[in->nother++] = v;
			continue;
		}
		if (v.level == EV_LEVEL_BUILT && !o->allow_built) {
			v.verdict = "accepted, only built";
			in->other[in->nother++] = v;
			in->nbuilt++;
			continue;
		}
		c = crows_find(&in->cands, v.file, v.line, v.name);
		if (!c)
			die(RC_DATA, "%s:%lu: %s in %s (line %ld) is accepted but not in %s; cannot say why it is safe",
			    o->journal, v.jline, v.name, v.file, v.line,
			    o->candidates);
		take_cand(&v, c, o);
		v.sec = maint_area(m, v.file, NULL);
		if (!v.sec)
			die(RC_DATA, "%s: no MAINTAINERS section matches %s",
			    o->maintainers, v.file);
		v.prefix = history_prefix(&in->pfx, v.file);
		v.prefix_src = "git log";
		if (!v.prefix) {
			v.prefix = subject_prefix(v.file);
			v.prefix_src = "table";
		}
		in->nlevel[v.level]++;
		in->acc[in->nacc++] = v;
	}
	describe_done();
	qsort(in->acc, in->nacc, sizeof(*in->acc), var_cmp);
	qsort(in->other, in->nother, sizeof(*in->other), other_cmp);
}

void plan_in_free(struct plan_in *in)
{
	size_t i;

	for (i = 0; i < in->nacc; i++) {
		free(in->acc[i].prefix);
		free(in->acc[i].evidence);
		free(in->acc[i].module);
		ev_writers_free(in->acc[i].w, in->acc[i].nw);
	}
	for (i = 0; i < in->nother; i++) {
		free(in->other[i].evidence);
		free(in->other[i].module);
	}
	free(in->acc);
	free(in->other);
	free(in->date);
	journal_rows_free(&in->j);
	crows_free(&in->cands);
	tsv_table_free(&in->excl);
	tsv_table_free(&in->pfx);
}
