// SPDX-License-Identifier: GPL-2.0
/*
 * queue-msg: the prose of the commit messages and the cover letters.
 *
 * A commit message is a few short paragraphs
 * (Documentation/process/submitting-patches.rst, researcher-guidelines.rst):
 * what changes and why it helps, why it is safe (the writers, named),
 * how it was found, and how it was tested, naming the evidence level.
 * The evidence itself, every writer with file:line and how it is
 * init-only, the finder's verdict and the validation's items, goes below
 * the --- line (the patch's "notes"), where git am drops it and the
 * reviewer still reads it; so does the base.
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

/* "a, b and c", each name once; only those of level LEVEL if >= 0. */
static void names_list(struct sb *s, struct var **v, size_t n, int level)
{
	size_t i, k = 0, d = 0;

	for (i = 0; i < n; i++)
		d += !seen(v, i) && (level < 0 || (int)v[i]->level == level);
	for (i = 0; i < n; i++) {
		if (seen(v, i) || (level >= 0 && (int)v[i]->level != level))
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
	names_list(&s, v, n, -1);
	sb_addf(&s, " as %s", vkind_attr[v[0]->kind]);
	if (s.len > WIDTH) {
		s.len = 0;
		sb_addf(&s, "%s: Mark %zu variables in %s as %s",
			v[0]->prefix, nnames(v, n), base_of(v[0]->file),
			vkind_attr[v[0]->kind]);
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

/*
 * One evidence item of the journal ("key=value") in words; SEC is the
 * section the section check found the symbol in.
 */
static void evidence_item(struct sb *t, const struct ev_item *it,
			  const char *sec)
{
	const char *val = it->value, *comma;

	if (!val) {
		sb_add(t, it->key);
		return;
	}
	comma = strchr(val, ',');
	if (!strcmp(it->key, "built") && comma) {
		sb_addf(t, "section check: the symbol is in %s of %.*s and of %s",
			sec, (int)(comma - val), val, comma + 1);
	} else if (!strcmp(it->key, "modpost") && !strcmp(val, "no-mismatch")) {
		sb_add(t, "modpost: no section mismatch names it (nothing outside the init sections refers to it)");
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

/* The journal's evidence as bullets, indented: never a line of its own. */
static void evidence_items(struct sb *s, const char *evidence,
			   const char *sec)
{
	struct ev_item *it;
	int n = ev_items_parse(evidence, &it), i;
	struct sb t;

	sb_init(&t);
	for (i = 0; i < n; i++) {
		/* the section is in the built= item's words */
		if (!strcmp(it[i].key, "section"))
			continue;
		t.len = 0;
		evidence_item(&t, &it[i], sec);
		sb_wrap(s, t.buf, "  - ", "    ", WIDTH);
	}
	sb_free(&t);
	ev_items_free(it, n);
}

static int same_validation(const struct var *a, const struct var *b)
{
	return !strcmp(a->evidence, b->evidence) &&
		!strcmp(a->batch, b->batch) &&
		!strcmp(a->config_hash, b->config_hash);
}

/* ---- why it is safe, in a sentence or two ------------------------------ */

struct fn {
	const char *func, *file;
	enum wkind kind;
};

/* "f()", "f() and g()", "f(), g() and h()": the functions of KIND. */
static size_t fn_list(struct sb *s, const struct fn *f, size_t n, int init)
{
	size_t i, k = 0, d = 0;

	for (i = 0; i < n; i++)
		d += (f[i].kind == WK_INIT) == init;
	for (i = 0; i < n; i++) {
		if ((f[i].kind == WK_INIT) != init)
			continue;
		if (k)
			sb_add(s, k + 1 == d ? " and " : ", ");
		sb_addf(s, "%s()", f[i].func);
		k++;
	}
	return d;
}

/*
 * "It is written only by f(), which is __init." and so on: the writer
 * functions of V[0..N-1], named when they are few, else counted; the
 * file-scope writers in words; and where the list is.
 */
static void why_safe(struct sb *s, const struct plan_opts *o, struct var **v,
		     size_t n)
{
	size_t nf = 0, cap = 8, i, k, ninit, nother;
	struct fn *f = xmalloc(cap * sizeof(*f));
	struct sb t, scope;
	long more = 0;
	int many = nnames(v, n) > 1, nscope = 0;

	sb_init(&t);
	sb_init(&scope);
	for (i = 0; i < n; i++) {
		int j;

		more += v[i]->more;
		for (j = 0; j < v[i]->nw; j++) {
			const struct ev_writer *w = &v[i]->w[j];
			size_t def;
			enum wkind kind = writer_kind(o->tree, w, &def);

			if (kind == WK_FILE_SCOPE) {
				sb_add(&scope, nscope++ ? "; " : "");
				file_scope_words(&scope, w);
				continue;
			}
			for (k = 0; k < nf; k++)
				if (!strcmp(f[k].func, w->func) &&
				    !strcmp(f[k].file, w->file))
					break;
			if (k < nf)
				continue;
			if (nf == cap) {
				cap *= 2;
				f = xrealloc(f, cap * sizeof(*f));
			}
			f[nf].func = w->func;
			f[nf].file = w->file;
			f[nf++].kind = kind;
		}
	}
	describe_done();
	for (i = ninit = 0; i < nf; i++)
		ninit += f[i].kind == WK_INIT;
	nother = nf - ninit;
	sb_add(&t, many ? "They are" : "It is");
	if (!nf && v[0]->kind == VK_INITCONST) {
		sb_addf(&t, " const: no function writes %s",
			many ? "them" : "it");
	} else if (!nf) {
		sb_add(&t, " written by no function");
	} else if (nf <= 4) {
		sb_add(&t, " written only by ");
		if (ninit) {
			fn_list(&t, f, nf, 1);
			sb_add(&t, ninit > 1 ? ", which are __init" :
			       ", which is __init");
		}
		if (ninit && nother)
			sb_add(&t, ", and by ");
		if (nother) {
			fn_list(&t, f, nf, 0);
			sb_add(&t, nother > 1 ?
			       ", which are called only from init-only code" :
			       ", which is called only from init-only code");
		}
	} else {
		sb_addf(&t, " written in %zu functions, all init-only: ", nf);
		if (ninit)
			sb_addf(&t, "%zu %s __init", ninit,
				ninit > 1 ? "are" : "is");
		if (ninit && nother)
			sb_add(&t, " and ");
		if (nother)
			sb_addf(&t, "%zu %s called only from init-only code",
				nother, nother > 1 ? "are" : "is");
	}
	sb_add(&t, ".");
	if (nscope)
		sb_addf(&t, " Besides, %s %s.", many ? "they are" : "it is",
			scope.buf);
	if (more)
		sb_addf(&t, " The finder counted %ld more writes, all in init-only code.",
			more);
	if (v[0]->kind == VK_RO)
		sb_addf(&t, " Nothing that runs after init writes %s; every writer is listed below the commit message.",
			many ? "them" : "it");
	else
		sb_addf(&t, " Only __init code reads %s, and nothing outside the init sections refers to %s: modpost, which reports any reference from other sections to init data as a section mismatch, reported none for %s. %s",
			many ? "them" : "it", many ? "them" : "it",
			many ? "them" : "it", nf || nscope ?
			"Every writer is listed below the commit message." :
			"The finder's verdict is quoted below the commit message.");
	sb_wrap(s, t.buf, "", "", WIDTH);
	sb_free(&t);
	sb_free(&scope);
	free(f);
}

/* ---- how it was tested --------------------------------------------------- */

/* The module of the first variable of level module-cycled. */
static const char *first_module(struct var **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i]->level == EV_LEVEL_MODULE_CYCLED && v[i]->module)
			return v[i]->module;
	return "?";
}

/* Level K of an __initdata/__initconst patch V[0..N-1], in words. */
static void tested_init(struct sb *t, struct var **v, size_t n, int k)
{
	const char *it = nnames(v, n) > 1 ? "them" : "it";

	if (k == EV_LEVEL_EXERCISED)
		sb_addf(t, "built into an x86_64 vmlinux, where modpost reported no section mismatch for %s, and booted under QEMU twice, with ro_after_init=warn and with the protection on, each time through suspend/resume, CPU hotplug, module and sysfs/sysctl exercises, which run after the init sections are freed.",
			it);
	else if (k == EV_LEVEL_MODULE_CYCLED)
		sb_addf(t, "built as the module %s (x86_64), where modpost reported no section mismatch for %s, which was loaded under QEMU, its init returning 0, and unloaded, in two boots.",
			first_module(v, n), it);
	else
		sb_addf(t, "only compiled (x86_64): the symbol is in %s and modpost reported no section mismatch for %s, but no boot ran the code that uses %s, so the change is not tested at run time.",
			vkind_section[v[0]->kind], it, it);
}

/* One paragraph per level present: what it means, in words. */
static void how_tested(struct sb *s, struct var **v, size_t n)
{
	unsigned int levels = 0;
	size_t i;
	int k, nlevels = 0;
	struct sb t;

	for (i = 0; i < n; i++)
		levels |= 1u << v[i]->level;
	for (k = 0; k < EV_LEVEL_NR; k++)
		nlevels += !!(levels & (1u << k));
	sb_init(&t);
	for (k = EV_LEVEL_EXERCISED; k < EV_LEVEL_NR; k++) {
		if (!(levels & (1u << k)))
			continue;
		t.len = 0;
		if (nlevels > 1) {
			names_list(&t, v, n, k);
			sb_add(&t, ": t");
		} else {
			sb_add(&t, "T");
		}
		sb_addf(&t, "ested (level: %s): ", ev_level_name(k));
		if (v[0]->kind != VK_RO)
			tested_init(&t, v, n, k);
		else if (k == EV_LEVEL_EXERCISED)
			sb_addf(&t, "built into an x86_64 vmlinux and booted under QEMU with ro_after_init=warn, which reported no write, and with the protection on, each time through suspend/resume, CPU hotplug, module and sysfs/sysctl exercises.");
		else if (k == EV_LEVEL_MODULE_CYCLED)
			sb_addf(&t, "built as the module %s (x86_64), which was loaded under QEMU, its init returning 0, and unloaded, with ro_after_init=warn, which reported no write, and with the protection on.",
				first_module(v, n));
		else
			sb_addf(&t, "only compiled (x86_64): the symbol is in .data..ro_after_init, but no boot ran the code that uses it, so the change is not tested at run time.");
		sb_addc(s, '\n');
		sb_wrap(s, t.buf, "", "", WIDTH);
	}
	sb_free(&t);
}

/* ---- below the --- line ------------------------------------------------- */

/* Every writer of each variable, with the finder's verdict. */
static void notes_writers(struct sb *s, const struct plan_opts *o,
			  struct var **v, size_t n)
{
	struct sb t;
	size_t i;
	int k;

	sb_init(&t);
	for (i = 0; i < n; i++) {
		t.len = 0;
		if (i)
			sb_addc(s, '\n');
		if (v[i]->kind == VK_RO) {
			sb_addf(&t, "Writers of %s (%s:%ld), all init-only (finder: \"%s\", confidence %s):",
				v[i]->name, v[i]->file, v[i]->line,
				v[i]->reason, v[i]->conf);
			sb_wrap(s, t.buf, "", "", WIDTH);
		} else {
			/* the finder's reason may hold "code: ", so a bullet */
			if (v[i]->nw || v[i]->more)
				sb_addf(&t, "Writers of %s (%s:%ld), all in __init code; the finder's verdict first:",
					v[i]->name, v[i]->file, v[i]->line);
			else
				sb_addf(&t, "%s (%s:%ld) has no writers; the finder's verdict:",
					v[i]->name, v[i]->file, v[i]->line);
			sb_wrap(s, t.buf, "", "", WIDTH);
			t.len = 0;
			sb_addf(&t, "finder: %s", v[i]->reason);
			sb_wrap(s, t.buf, "  - ", "    ", WIDTH);
		}
		for (k = 0; k < v[i]->nw; k++)
			describe_writer(s, o->tree, &v[i]->w[k], "  ");
		if (v[i]->more)
			describe_more(s, v[i]->more, "  ");
	}
	describe_done();
	sb_free(&t);
}

/* The validation of each distinct (evidence, batch, config) of V. */
static void notes_validation(struct sb *s, const struct plan_opts *o,
			     struct var **v, size_t n)
{
	size_t i, k, ndist = 0;
	struct sb t;

	for (i = 0; i < n; i++) {
		for (k = 0; k < i && !same_validation(v[k], v[i]); k++)
			;
		ndist += k == i;
	}
	sb_init(&t);
	for (i = 0; i < n; i++) {
		for (k = 0; k < i && !same_validation(v[k], v[i]); k++)
			;
		if (k < i)
			continue;
		t.len = 0;
		sb_add(&t, "Validation");
		if (ndist > 1)
			sb_addf(&t, " of %s", v[i]->name);
		sb_addf(&t, " (level: %s): ro-campaign's %s profile, x86_64, config_hash %s, batch %s; a boot counted only if the lkdtm WRITE_RO_AFTER_INIT control write was caught in it:",
			ev_level_name(v[i]->level), o->profile,
			v[i]->config_hash, v[i]->batch);
		sb_addc(s, '\n');
		sb_wrap(s, t.buf, "", "", WIDTH);
		evidence_items(s, v[i]->evidence, vkind_section[v[i]->kind]);
	}
	sb_free(&t);
}

void commit_msg(struct sb *s, struct sb *notes, const struct plan_opts *o,
		struct var **v, size_t n)
{
	char *subj = patch_subject(v, n);
	size_t d = nnames(v, n);
	struct sb t;

	sb_init(&t);
	sb_addf(s, "%s\n\n", subj);
	names_list(&t, v, n, -1);
	if (v[0]->kind == VK_RO)
		sb_addf(&t, " %s set during boot and only read after that. Mark %s __ro_after_init, so that %s made read-only once init is done: a stray write later faults instead of silently changing %s.",
			d > 1 ? "are" : "is", d > 1 ? "them" : "it",
			d > 1 ? "they are" : "it is", d > 1 ? "them" : "it");
	else if (v[0]->kind == VK_INITDATA)
		sb_addf(&t, " %s read and written only by __init code, and never after boot. Mark %s __initdata, so that %s freed with the init sections once boot is done instead of taking memory for the life of the system.",
			d > 1 ? "are" : "is", d > 1 ? "them" : "it",
			d > 1 ? "they are" : "it is");
	else
		sb_addf(&t, " %s const and read only by __init code, and never after boot. Mark %s __initconst, so that %s freed with the init sections once boot is done instead of taking memory for the life of the system.",
			d > 1 ? "are" : "is", d > 1 ? "them" : "it",
			d > 1 ? "they are" : "it is");
	sb_wrap(s, t.buf, "", "", WIDTH);
	sb_addc(s, '\n');
	why_safe(s, o, v, n);
	sb_addc(s, '\n');
	sb_wrap(s, v[0]->kind == VK_RO ?
		"Found with ro-campaign, which uses Coccinelle to find the global variables that only init-only code writes, in the whole tree." :
		"Found with ro-campaign, which uses Coccinelle to find, in the whole tree, the static variables that only __init code reads and writes.",
		"", "", WIDTH);
	how_tested(s, v, n);
	sb_addf(s, "\nSigned-off-by: %s\n", o->signoff);

	notes_writers(notes, o, v, n);
	notes_validation(notes, o, v, n);
	sb_addc(notes, '\n');
	base_lines(notes, &o->base);
	sb_free(&t);
	free(subj);
}

void cover_blurb(struct sb *s, const struct plan_opts *o,
		 const struct posting *p, const char *rows, size_t wvar,
		 size_t wloc, unsigned int levels)
{
	static const char *const meaning[EV_LEVEL_NR] = {
		[EV_LEVEL_EXERCISED] = "exercised = built into vmlinux, booted with ro_after_init=warn reporting no write and again with the protection on, each time through the exercise suite (suspend/resume, CPU hotplug, modules, sysfs/sysctl writes);",
		[EV_LEVEL_MODULE_CYCLED] = "module-cycled = built as a module that was loaded (its init returned 0) and unloaded in the same two boots;",
		[EV_LEVEL_BUILT] = "built = only compiled: the symbol is in .data..ro_after_init, but no boot ran its code;",
	};
	size_t ninit = p->nkind[VK_INITDATA] + p->nkind[VK_INITCONST];
	struct sb l;
	char *t;
	int k;

	if (!ninit)
		t = xasprintf("This series marks %zu variable%s of %s (MAINTAINERS) as __ro_after_init, in %zu patch%s, one per file. Each of them is written only by init-only code and only read after init; once it is marked, a stray write after boot faults instead of silently changing it.",
			      p->nvars, p->nvars > 1 ? "s" : "", p->area,
			      p->npatches, p->npatches > 1 ? "es" : "");
	else
		t = xasprintf("This series marks %zu variable%s of %s (MAINTAINERS), in %zu patch%s, one per file and annotation: %zu as __ro_after_init, %zu as __initdata and %zu as __initconst. Those marked __ro_after_init are written only by init-only code and only read after init; once marked, a stray write after boot faults instead of silently changing them. Those marked __initdata or __initconst are read and written only by __init code: they are freed with the init sections once boot is done, and modpost reported no section mismatch for them, so nothing outside the init sections refers to them.",
			      p->nvars, p->nvars > 1 ? "s" : "", p->area,
			      p->npatches, p->npatches > 1 ? "es" : "",
			      p->nkind[VK_RO], p->nkind[VK_INITDATA],
			      p->nkind[VK_INITCONST]);
	sb_wrap(s, t, "", "", WIDTH);
	free(t);
	if (p->parts > 1) {
		t = xasprintf("This is part %u of %u: the area has %zu such variables in %zu patches, sent as %u postings of at most %d patches each, one after the other (Documentation/process/submitting-patches.rst: \"only post say 15 or so at a time\").",
			      p->part, p->parts, p->area_nvars,
			      p->area_npatches, p->parts, o->max_patches);
		sb_addc(s, '\n');
		sb_wrap(s, t, "", "", WIDTH);
		free(t);
	}
	sb_addc(s, '\n');
	sb_wrap(s, "They were found with ro-campaign: Coccinelle rules list every write to a global variable in the whole tree (assignments, compound assignments, increments, stores to members and elements, memcpy()-like calls, inline asm outputs, and the address taken unless the use is provably read-only), and a whole-tree pass keeps the variables that only init-only code writes. A function is init-only if it is __init, or if it is static, its address is never taken and all its callers are init-only (a fixpoint over the call graph). A module parameter or sysctl entry with a write bit disqualifies a variable.",
		"", "", WIDTH);
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
	sb_wrap(s, "Each patch lists, below its commit message, every writer with its file and line and how it is init-only, and the evidence of its validation.",
		"", "", WIDTH);
	sb_addc(s, '\n');
	sb_addf(s, "Base: %s\n", o->base.text);
}
