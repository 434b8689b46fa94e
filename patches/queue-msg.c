// SPDX-License-Identifier: GPL-2.0
/*
 * queue-msg: the prose of the commit messages and the cover letters
 * (Documentation/process/researcher-guidelines.rst): what and why it
 * helps, why it is safe (every writer with file:line), how it was found,
 * the base, and how it was tested (the journal's evidence).
 *
 * Text from the inputs is quoted either in indented bullets (writers,
 * journal evidence) or, for the few short fields that sit in a plain
 * paragraph, only after queue-join.c checked that it cannot start a
 * trailer; no input text can add a line of its own (sb_wrap() joins
 * words with spaces, the inputs have no control characters).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue-plan.h"

/* 1 if V[I]'s name is the name of an earlier V[K] (an #ifdef variant). */
static int seen(struct var **v, size_t i)
{
	size_t k;

	for (k = 0; k < i; k++)
		if (!strcmp(v[k]->name, v[i]->name))
			return 1;
	return 0;
}

/* The number of names among V[0..N-1]. */
static size_t nnames(struct var **v, size_t n)
{
	size_t i, d = 0;

	for (i = 0; i < n; i++)
		d += !seen(v, i);
	return d;
}

/* "a, b and c", each name once. */
static void names_list(struct sb *s, struct var **v, size_t n)
{
	size_t i, k = 0, d = nnames(v, n);

	for (i = 0; i < n; i++) {
		if (seen(v, i))
			continue;
		if (k)
			sb_add(s, k + 1 == d ? " and " : ", ");
		sb_add(s, v[i]->name);
		k++;
	}
}

static const char *base_of(const char *file)
{
	const char *b = strrchr(file, '/');

	return b ? b + 1 : file;
}

static char *patch_subject(struct var **v, size_t n)
{
	struct sb s;

	sb_init(&s);
	sb_addf(&s, "%s: Mark ", v[0]->prefix);
	names_list(&s, v, n);
	sb_add(&s, " as __ro_after_init");
	if (s.len > WIDTH) {
		s.len = 0;
		sb_addf(&s, "%s: Mark %zu variables in %s as __ro_after_init",
			v[0]->prefix, nnames(v, n), base_of(v[0]->file));
	}
	return s.buf;
}

/* "a,b,c" as "a, b, c". */
static void comma_list(struct sb *s, const char *list)
{
	for (; *list; list++) {
		sb_addc(s, *list);
		if (*list == ',')
			sb_addc(s, ' ');
	}
}

/* One evidence item of the journal ("key=value") in words. */
static void evidence_item(struct sb *t, const struct ev_item *it)
{
	const char *val = it->value, *comma;

	if (!val) {
		sb_add(t, it->key);
		return;
	}
	comma = strchr(val, ',');
	if (!strcmp(it->key, "built") && comma) {
		sb_addf(t, "section check: the symbol is in .data..ro_after_init of %.*s and of %s",
			(int)(comma - val), val, comma + 1);
	} else if (!strcmp(it->key, "booted") && !strcmp(val, "warn,default")) {
		sb_add(t, "booted with ro_after_init=warn, which reported no write, then with the protection on");
	} else if (!strcmp(it->key, "booted")) {
		sb_add(t, "booted in mode ");
		comma_list(t, val);
	} else if (!strcmp(it->key, "exercised")) {
		sb_add(t, "exercises passed: ");
		comma_list(t, val);
	} else if (!strcmp(it->key, "cycled")) {
		sb_addf(t, "module %s loaded, its init returned 0, unloaded", val);
	} else if (!strcmp(it->key, "not-cycled")) {
		sb_addf(t, "module not cycled: %s", val);
	} else {
		sb_addf(t, "%s: ", it->key);
		comma_list(t, val);
	}
}

/*
 * The journal's evidence as bullets, indented: never a line of its own.
 * ALL: every item; else only those the level's paragraph did not say
 * (the exercises, and anything unknown).  Returns the bullets written.
 */
static int evidence_items(struct sb *s, const char *evidence, int all)
{
	struct ev_item *it;
	int n = ev_items_parse(evidence, &it), i, k = 0;
	struct sb t;

	sb_init(&t);
	for (i = 0; i < n; i++) {
		if (!all && (!strcmp(it[i].key, "built") ||
			     !strcmp(it[i].key, "booted") ||
			     !strcmp(it[i].key, "cycled")))
			continue;
		t.len = 0;
		evidence_item(&t, &it[i]);
		sb_wrap(s, t.buf, "  - ", "    ", WIDTH);
		k++;
	}
	sb_free(&t);
	ev_items_free(it, n);
	return k;
}

static int same_validation(const struct var *a, const struct var *b)
{
	return !strcmp(a->evidence, b->evidence) &&
		!strcmp(a->batch, b->batch) &&
		!strcmp(a->config_hash, b->config_hash);
}

/*
 * How V was tested, its level named: a paragraph (WHO names the
 * variable, NULL for the patch's first validation), then the journal's
 * evidence as bullets.
 */
static void level_para(struct sb *s, const struct plan_opts *o,
		       const struct var *v, const char *who)
{
	struct sb t, items;
	int all = v->level != EV_LEVEL_EXERCISED &&
		  v->level != EV_LEVEL_MODULE_CYCLED;
	int nitems;

	sb_init(&t);
	sb_init(&items);
	nitems = evidence_items(&items, v->evidence, all);
	if (who)
		sb_addf(&t, "How %s was tested", who);
	else
		sb_add(&t, "How it was tested");
	sb_addf(&t, " (level: %s): ", ev_level_name(v->level));
	if (v->level == EV_LEVEL_EXERCISED)
		sb_addf(&t, "built into vmlinux in ro-campaign's %s profile (x86_64, config_hash=%s, validation batch %s, with the other conversions of that batch), then booted under QEMU with ro_after_init=warn, which reported no write, and again with the protection on, each time through the exercise suite (a boot counted only if the lkdtm WRITE_RO_AFTER_INIT control write was caught in it)",
			o->profile, v->config_hash, v->batch);
	else if (v->level == EV_LEVEL_MODULE_CYCLED)
		sb_addf(&t, "built as the module %s in ro-campaign's %s profile (x86_64, config_hash=%s, validation batch %s), then booted under QEMU with ro_after_init=warn, which reported no write, and again with the protection on; in each boot %s was loaded, its init returned 0, and it was unloaded",
			v->module, o->profile, v->config_hash, v->batch,
			v->module);
	else
		sb_addf(&t, "only compiled, not booted through its code. In ro-campaign's %s profile (x86_64, config_hash=%s, validation batch %s) the symbol is in .data..ro_after_init, but no validation boot ran the code that uses it, so the change is not tested at run time",
			o->profile, v->config_hash, v->batch);
	sb_add(&t, nitems ? ":" : ".");
	sb_wrap(s, t.buf, "", "", WIDTH);
	sb_add(s, items.buf);
	sb_free(&t);
	sb_free(&items);
}

/* How each distinct validation of V[0..N-1] was tested. */
static void how_tested(struct sb *s, const struct plan_opts *o,
		       struct var **v, size_t n)
{
	size_t i, k;

	level_para(s, o, v[0], NULL);
	for (i = 1; i < n; i++) {
		for (k = 0; k < i && !same_validation(v[k], v[i]); k++)
			;
		if (k < i)
			continue;
		sb_addc(s, '\n');
		level_para(s, o, v[i], v[i]->name);
	}
}

/* Why it is safe: every writer of each variable, as bullets. */
static void why_safe(struct sb *s, const struct plan_opts *o, struct var **v,
		     size_t n)
{
	const char *indent = n > 1 ? "    " : "  ";
	struct sb t;
	size_t i;
	int k;

	sb_init(&t);
	if (n > 1)
		sb_add(&t, "Why this is safe: in the whole tree, every write to each of them is made by init-only code:");
	else
		sb_addf(&t, "Why this is safe: in the whole tree, every write to %s (%s:%ld) is made by init-only code:",
			v[0]->name, v[0]->file, v[0]->line);
	sb_addc(s, '\n');
	sb_wrap(s, t.buf, "", "", WIDTH);
	for (i = 0; i < n; i++) {
		sb_addc(s, '\n');
		if (n > 1)
			sb_addf(s, "  %s (%s:%ld):\n", v[i]->name, v[i]->file,
				v[i]->line);
		for (k = 0; k < v[i]->nw; k++)
			describe_writer(s, o->tree, &v[i]->w[k], indent);
		if (v[i]->more)
			describe_more(s, v[i]->more, indent);
	}
	describe_done();
	sb_free(&t);
}

void commit_msg(struct sb *s, const struct plan_opts *o, struct var **v,
		size_t n)
{
	char *subj = patch_subject(v, n);
	size_t i, d = nnames(v, n);
	struct sb t;

	sb_init(&t);
	sb_addf(s, "%s\n\n", subj);
	names_list(&t, v, n);
	sb_addf(&t, " %s written only while the kernel initializes and only read after that. Mark %s __ro_after_init, so that %s placed in .data..ro_after_init, which mark_rodata_ro() makes read-only once init is done: a stray or malicious write after boot then faults instead of silently changing %s.",
		d > 1 ? "are" : "is", d > 1 ? "them" : "it",
		d > 1 ? "they are" : "it is", d > 1 ? "them" : "it");
	sb_wrap(s, t.buf, "", "", WIDTH);
	why_safe(s, o, v, n);
	sb_addc(s, '\n');
	sb_wrap(s, "A function is init-only if it is __init, or if it is static, its address is never taken and all its callers are init-only (a fixpoint over the call graph of the whole tree). Writes are assignments, compound assignments, increments, stores to members and elements, memcpy()-like calls and inline asm outputs; taking the address counts as a write unless the use is provably read-only, and a module parameter or sysctl entry with a write bit disqualifies a variable.",
		"", "", WIDTH);
	sb_addc(s, '\n');
	t.len = 0;
	sb_add(&t, "How it was found: the ro-campaign finder (Coccinelle rules that print definition, write, call and parameter facts, and a C aggregator that reasons over the whole tree), rule ro_after_init: at least one write, and every write in init-only code. Its verdict:");
	for (i = 0; i < n; i++)
		sb_addf(&t, "%s%s%s\"%s\" (confidence %s)%s", i ? " " : " ",
			n > 1 ? v[i]->name : "", n > 1 ? ": " : "",
			v[i]->reason, v[i]->conf, i + 1 < n ? ";" : ".");
	sb_wrap(s, t.buf, "", "", WIDTH);
	sb_addc(s, '\n');
	sb_wrap(s, o->base, "", "", WIDTH);
	sb_addc(s, '\n');
	how_tested(s, o, v, n);
	sb_addf(s, "\nSigned-off-by: %s\n", o->signoff);
	sb_free(&t);
	free(subj);
}

void cover_blurb(struct sb *s, const struct plan_opts *o, const char *area,
		 size_t n, size_t np, const char *rows, size_t wvar,
		 size_t wloc, unsigned int levels)
{
	static const char *const meaning[EV_LEVEL_NR] = {
		[EV_LEVEL_EXERCISED] = "exercised = built into vmlinux, booted with ro_after_init=warn reporting no write and again with the protection on, each time through the exercise suite (suspend/resume, CPU hotplug, modules, sysfs/sysctl writes);",
		[EV_LEVEL_MODULE_CYCLED] = "module-cycled = built as a module that was loaded (its init returned 0) and unloaded in the same two boots;",
		[EV_LEVEL_BUILT] = "built = only compiled: the symbol is in .data..ro_after_init, but no boot ran its code;",
	};
	char *t = xasprintf("This series marks %zu variable%s of %s (MAINTAINERS) as __ro_after_init, in %zu patch%s, one per file. Each of them is written only by init-only code and read after that; each patch lists every writer with its file and line and says how it was shown to be init-only.",
			    n, n > 1 ? "s" : "", area, np, np > 1 ? "es" : "");
	struct sb l;
	int k;

	sb_wrap(s, t, "", "", WIDTH);
	free(t);
	sb_addc(s, '\n');
	sb_init(&l);
	sb_add(&l, "Validation levels:");
	for (k = EV_LEVEL_EXERCISED; k < EV_LEVEL_NR; k++)
		if (levels & (1u << k))
			sb_addf(&l, " %s", meaning[k]);
	l.buf[l.len - 1] = '.';
	sb_wrap(s, l.buf, "", "", WIDTH);
	sb_free(&l);
	sb_addc(s, '\n');
	sb_addf(s, "  %2s  %-*s  %-*s  %s\n", "#", (int)wvar, "variable",
		(int)wloc, "file:line", "level");
	sb_add(s, rows);
	sb_addc(s, '\n');
	sb_wrap(s, "Found by the ro-campaign finder (Coccinelle facts and a whole-tree C aggregator) and validated by booting batches of conversions under QEMU; see the patches for the details.",
		"", "", WIDTH);
	sb_addc(s, '\n');
	sb_wrap(s, o->base, "", "", WIDTH);
}
