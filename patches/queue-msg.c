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
#include <ctype.h>
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

char *patch_subject(struct var **v, size_t n, int split, int level)
{
	const char *attr = annot_attr[v[0]->kind];
	struct sb s, where;

	sb_init(&s);
	sb_init(&where);
	if (level == 1)
		sb_addf(&where, " in %s", base_of(v[0]->file));
	else if (level >= 2)
		sb_addf(&where, " in %s", v[0]->file);
	sb_addf(&s, "%s: Mark ", v[0]->prefix);
	names_list(&s, v, n, -1);
	sb_addf(&s, "%s as %s", where.buf ? where.buf : "", attr);
	if (s.len > WIDTH) {
		s.len = 0;
		if (split)
			sb_addf(&s, "%s: Mark %s%s as %s", v[0]->prefix,
				vgroup_words[v[0]->group],
				where.len ? where.buf : "", attr);
		else
			sb_addf(&s, "%s: Mark %zu variables in %s as %s",
				v[0]->prefix, nnames(v, n),
				level >= 2 ? v[0]->file : base_of(v[0]->file),
				attr);
	}
	sb_free(&where);
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

/* ---- why it is safe, each reason said once ------------------------------ */

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
 * A file-scope writer's class, the same for every variable it explains
 * in the same words: "param module_param 0444", "file sysctl 0444",
 * "asm", "initdata", "init".
 */
static char *scope_key(const struct ev_writer *w)
{
	const char *perm = strchr(w->form, '=');
	size_t n = strlen(w->file);

	if (perm)
		return xasprintf("%s %.*s %s",
				 writer_is_param(w) ? "param" : "file",
				 (int)(perm - w->form), w->form, perm + 1);
	if (n > 2 && !strcmp(w->file + n - 2, ".S"))
		return xstrdup("asm");
	if (!strcmp(w->form, "initdata-addr"))
		return xstrdup("initdata");
	return xstrdup("init");
}

/* The words of scope class KEY, for one variable or for several. */
static void scope_words(struct sb *s, const char *key, int many)
{
	char what[32], perm[32];

	if (sscanf(key, "param %31s %31s", what, perm) == 2)
		sb_addf(s, many ? "module parameters (%s) with permission %s, which has no write bit, so they are set only while parameters are parsed" :
			"a module parameter (%s) with permission %s, which has no write bit, so it is set only while parameters are parsed",
			what, perm);
	else if (sscanf(key, "file %31s %31s", what, perm) == 2)
		sb_addf(s, "exposed by %s with permission %s, a read-only file, so nothing writes %s through it",
			what, perm, many ? "them" : "it");
	else if (!strcmp(key, "asm"))
		sb_add(s, "referenced from assembly, but not as the destination of a store");
	else if (!strcmp(key, "initdata"))
		sb_add(s, "referred to from __initdata, which is freed after init");
	else
		sb_add(s, "set at file scope by an initializer that only init-only code reads");
}

/* The reasons of one variable: its file-scope classes and functions. */
struct why {
	char *scope;		/* the scope classes, '|'-joined, sorted */
	struct fn *f;		/* its writer functions, each once */
	size_t nf;
	char *key;		/* scope and functions: one sentence */
};

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void why_of(struct why *y, const struct plan_opts *o,
		   const struct var *v)
{
	char **sk = xmalloc((v->nw + 1) * sizeof(*sk));
	size_t nsk = 0, i, k;
	struct sb t;
	int j;

	memset(y, 0, sizeof(*y));
	y->f = xmalloc((v->nw + 1) * sizeof(*y->f));
	for (j = 0; j < v->nw; j++) {
		const struct ev_writer *w = &v->w[j];
		size_t def;
		enum wkind kind = writer_kind(o->tree, w, &def);

		if (kind == WK_FILE_SCOPE) {
			char *key = scope_key(w);

			for (k = 0; k < nsk && strcmp(sk[k], key); k++)
				;
			if (k < nsk)
				free(key);
			else
				sk[nsk++] = key;
			continue;
		}
		for (k = 0; k < y->nf; k++)
			if (!strcmp(y->f[k].func, w->func) &&
			    !strcmp(y->f[k].file, w->file))
				break;
		if (k < y->nf)
			continue;
		y->f[y->nf].func = w->func;
		y->f[y->nf].file = w->file;
		y->f[y->nf++].kind = kind;
	}
	qsort(sk, nsk, sizeof(*sk), str_cmp);
	sb_init(&t);
	for (i = 0; i < nsk; i++) {
		sb_addf(&t, "%s%s", i ? "|" : "", sk[i]);
		free(sk[i]);
	}
	free(sk);
	y->scope = xstrdup(t.buf);
	sb_addc(&t, '#');
	for (i = 0; i < y->nf; i++)
		sb_addf(&t, "%s:%s()%d;", y->f[i].file, y->f[i].func,
			y->f[i].kind == WK_INIT);
	y->key = t.buf;
}

static void why_free(struct why *y)
{
	free(y->scope);
	free(y->f);
	free(y->key);
}

/* "two", ..., "twelve"; digits from 13. */
static void count_words(struct sb *s, size_t n)
{
	static const char *const w[] = {
		"zero", "one", "two", "three", "four", "five", "six", "seven",
		"eight", "nine", "ten", "eleven", "twelve",
	};

	if (n < ARRAY_SIZE(w))
		sb_add(s, w[n]);
	else
		sb_addf(s, "%zu", n);
}

/*
 * The writer functions F[0..NF-1] of a group: "f() and g(), which are
 * __init", named when they are few, else counted.
 */
static void fn_words(struct sb *t, const struct fn *f, size_t nf)
{
	size_t i, ninit = 0, nother;

	for (i = 0; i < nf; i++)
		ninit += f[i].kind == WK_INIT;
	nother = nf - ninit;
	if (nf > 4) {
		sb_addf(t, "%zu functions, all init-only (", nf);
		if (ninit)
			sb_addf(t, "%zu __init", ninit);
		if (ninit && nother)
			sb_add(t, ", ");
		if (nother)
			sb_addf(t, "%zu called only from init-only code",
				nother);
		sb_add(t, ")");
		return;
	}
	if (ninit) {
		fn_list(t, f, nf, 1);
		sb_add(t, ninit > 1 ? ", which are __init" : ", which is __init");
	}
	if (ninit && nother)
		sb_add(t, ", and ");
	if (nother) {
		fn_list(t, f, nf, 0);
		sb_add(t, nother > 1 ?
		       ", which are called only from init-only code" :
		       ", which is called only from init-only code");
	}
}

/* The names of V[i] with SEL[i] set: "a, b and c", each once. */
static size_t sel_names(struct sb *t, struct var **v, size_t n,
			const char *sel)
{
	size_t i, k = 0, d = 0;

	for (i = 0; i < n; i++)
		d += sel[i] && !seen(v, i);
	for (i = 0; i < n; i++) {
		if (!sel[i] || seen(v, i))
			continue;
		if (k)
			sb_add(t, k + 1 == d ? " and " : ", ");
		sb_add(t, v[i]->name);
		k++;
	}
	return d;
}

/*
 * The key variables share a sentence by: their file-scope reasons, or
 * when they have none, their writer functions.
 */
static const char *group_key(const struct why *y)
{
	return *y->scope ? y->scope : y->key;
}

/* The function part of Y's key: the writer functions. */
static const char *fn_key(const struct why *y)
{
	return strchr(y->key, '#') + 1;
}

/*
 * One sentence for the variables V[i] with SEL[i] set, which share the
 * file-scope reasons Y[i].scope: "All nine are module parameters ...;
 * f(), which is __init, writes them."  The writer functions are said
 * once per set of variables that share them ("also writes a and b").
 * WHOLE: they are all of the patch's variables.
 */
static void scope_sentence(struct sb *t, struct var **v, size_t n,
			   const char *sel, const struct why *y, int whole,
			   enum vkind kind)
{
	char *sub = xmalloc(n + 1), *done = xcalloc(n + 1, 1);
	char *scope, *p, *save;
	size_t i, k, d = 0, ds;
	int many, first = 1, nsub = 0;

	for (i = 0; i < n; i++)
		d += sel[i] && !seen(v, i);
	many = d > 1;
	if (whole && d == 1) {
		sb_add(t, "It");
	} else if (whole && d == 2) {
		sb_add(t, "Both");
	} else if (whole) {
		sb_add(t, "All ");
		count_words(t, d);
	} else {
		sel_names(t, v, n, sel);
	}
	sb_add(t, many ? " are " : " is ");
	for (i = 0; i < n && !sel[i]; i++)
		;
	scope = xstrdup(y[i].scope);
	for (p = strtok_r(scope, "|", &save); p;
	     p = strtok_r(NULL, "|", &save)) {
		if (!first)
			sb_add(t, ", and ");
		scope_words(t, p, many);
		first = 0;
	}
	free(scope);
	/* the writer functions, per set of variables that share them */
	for (i = 0; i < n; i++) {
		if (!sel[i] || done[i])
			continue;
		for (k = 0; k < n; k++) {
			sub[k] = sel[k] && !done[k] &&
				!strcmp(fn_key(&y[k]), fn_key(&y[i]));
			done[k] |= sub[k];
		}
		if (!y[i].nf)
			continue;
		for (k = ds = 0; k < n; k++)
			ds += sub[k] && !seen(v, k);
		if (first) {
			/* no file-scope reason: written only by functions */
			sb_add(t, "written only by ");
			fn_words(t, y[i].f, y[i].nf);
			nsub++;
			continue;
		}
		sb_add(t, "; ");
		fn_words(t, y[i].f, y[i].nf);
		sb_addf(t, ", %s", y[i].nf > 1 ? "write" : "writes");
		if (ds == d) {
			sb_add(t, many ? " them" : " it");
		} else {
			sb_add(t, " ");
			sel_names(t, v, n, sub);
		}
		nsub++;
	}
	if (first && !nsub)
		sb_add(t, kind == VK_INITCONST ?
		       (many ? "const: no function writes them" :
			"const: no function writes it") :
		       "written by no function");
	sb_add(t, ". ");
	free(sub);
	free(done);
}

/*
 * Why V[0..N-1] are safe to mark: the variables grouped by the
 * file-scope reasons they share (a module parameter without a write bit,
 * a read-only sysctl), one sentence per group naming its writer
 * functions once; then once what the reasons add up to and where the
 * writers are listed.
 */
static void why_safe(struct sb *s, const struct plan_opts *o, struct var **v,
		     size_t n)
{
	struct why *y = xmalloc((n + 1) * sizeof(*y));
	char *sel = xmalloc(n + 1), *done = xcalloc(n + 1, 1);
	int many = nnames(v, n) > 1, anyw = 0;
	struct sb t;
	size_t i, k, ngroups = 0;
	long more = 0;

	sb_init(&t);
	for (i = 0; i < n; i++) {
		why_of(&y[i], o, v[i]);
		more += v[i]->more;
		anyw |= y[i].nf || *y[i].scope || v[i]->more;
	}
	describe_done();
	for (i = 0; i < n; i++)
		if (!done[i]) {
			ngroups++;
			for (k = i; k < n; k++)
				if (!strcmp(group_key(&y[k]), group_key(&y[i])))
					done[k] = 1;
		}
	memset(done, 0, n);
	for (i = 0; i < n; i++) {
		if (done[i])
			continue;
		for (k = 0; k < n; k++) {
			sel[k] = !done[k] &&
				!strcmp(group_key(&y[k]), group_key(&y[i]));
			done[k] |= sel[k];
		}
		scope_sentence(&t, v, n, sel, y, ngroups == 1, v[0]->kind);
	}
	if (more)
		sb_addf(&t, "The finder counted %ld more writes, all in init-only code. ",
			more);
	if (v[0]->kind == VK_RO)
		sb_addf(&t, "Nothing that runs after init writes %s; every writer is listed below the commit message.",
			many ? "them" : "it");
	else
		sb_addf(&t, "Only __init code reads %s, and nothing outside the init sections refers to %s: modpost, which reports any reference from other sections to init data as a section mismatch, reported none for %s. %s",
			many ? "them" : "it", many ? "them" : "it",
			many ? "them" : "it", anyw ?
			"Every writer is listed below the commit message." :
			"The finder's verdict is quoted below the commit message.");
	sb_wrap(s, t.buf, "", "", WIDTH);
	for (i = 0; i < n; i++)
		why_free(&y[i]);
	sb_free(&t);
	free(y);
	free(sel);
	free(done);
}

/* ---- what a write could do ------------------------------------------------ */

/*
 * What a stray or hostile write to a variable of value K could do, for
 * one variable and for several (the verb agrees with the subject).
 */
static const char *const harm[VV_NR][2] = {
	[VV_FN_POINTER] = {
		"holds a function pointer that is called after init: a stray or hostile write would redirect that call",
		"hold function pointers that are called after init: a stray or hostile write would redirect those calls",
	},
	[VV_OBJECT_POINTER] = {
		"points to an object the kernel uses after init: a stray or hostile write would make it use another one, of the writer's choosing",
		"point to objects the kernel uses after init: a stray or hostile write would make it use others, of the writer's choosing",
	},
	[VV_POLICY] = {
		"selects a policy the kernel applies after init: a stray or hostile write would switch it with nothing to show for it",
		"select policies the kernel applies after init: a stray or hostile write would switch them with nothing to show for it",
	},
	[VV_BOUND] = {
		"bounds sizes or indices that code after init trusts: a stray or hostile write could turn them into out-of-bounds accesses",
		"bound sizes or indices that code after init trusts: a stray or hostile write could turn them into out-of-bounds accesses",
	},
	[VV_PARAM] = {
		"holds a module parameter fixed at boot: a stray or hostile write would change it where no interface can, without a trace",
		"hold module parameters fixed at boot: a stray or hostile write would change them where no interface can, without a trace",
	},
	[VV_SETTING] = {
		"holds a setting made at boot: a stray or hostile write would change how the kernel behaves from then on",
		"hold settings made at boot: a stray or hostile write would change how the kernel behaves from then on",
	},
};

/*
 * One sentence per value kind present among V[0..N-1]: what a stray or
 * hostile write to them could do.  The most valuable kind first.
 */
static void harm_sentences(struct sb *t, struct var **v, size_t n)
{
	size_t i, d, k, total = nnames(v, n);
	int val;

	for (val = 0; val < VV_NR; val++) {
		for (i = d = 0; i < n; i++)
			d += !seen(v, i) && (int)v[i]->value == val;
		if (!d)
			continue;
		sb_addc(t, ' ');
		if (d == total) {
			sb_add(t, total > 1 ? "They" : "It");
		} else {
			for (i = k = 0; i < n; i++) {
				if (seen(v, i) || (int)v[i]->value != val)
					continue;
				if (k)
					sb_add(t, k + 1 == d ? " and " : ", ");
				sb_add(t, v[i]->name);
				k++;
			}
		}
		sb_addf(t, " %s.", harm[val][d > 1]);
	}
}

/* ---- how it was tested --------------------------------------------------- */

/* The module of the first variable of level module-cycled. */
static const char *first_module(struct var **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((v[i]->level == EV_LEVEL_MODULE_CYCLED ||
		     v[i]->level == EV_LEVEL_DEVICE_BOUND) && v[i]->module)
			return v[i]->module;
	return "?";
}

/* Level K of an __initdata/__initconst patch V[0..N-1], in words. */
static void tested_init(struct sb *t, struct var **v, size_t n, int k)
{
	const char *it = nnames(v, n) > 1 ? "them" : "it";

	if (k == EV_LEVEL_REACHED || k == EV_LEVEL_BOOTED)
		sb_addf(t, "built into an x86_64 vmlinux, where modpost reported no section mismatch for %s, and booted under QEMU twice, with ro_after_init=warn and with the protection on, each time through suspend/resume, CPU hotplug, module and sysfs/sysctl exercises, which run after the init sections are freed.",
			it);
	else if (k == EV_LEVEL_MODULE_CYCLED || k == EV_LEVEL_DEVICE_BOUND)
		sb_addf(t, "built as the module %s (x86_64), where modpost reported no section mismatch for %s, which was loaded under QEMU, its init returning 0, and unloaded, in two boots.",
			first_module(v, n), it);
	else
		sb_addf(t, "only compiled (x86_64): the symbol is in %s and modpost reported no section mismatch for %s, but no boot ran the code that uses %s, so the change is not tested at run time.",
			annot_section[v[0]->kind], it, it);
}

/*
 * What ran after init, for the variables of level K in V[0..N-1]: the
 * sentence of lib/evidence (ev_sentence()) for each, prefixed by its
 * name when the patch has several.  A module's bound= item is the same
 * for all its variables, so device-bound says it once.
 */
static void ran_sentences(struct sb *t, struct var **v, size_t n, int k)
{
	size_t i, d = 0;
	int named = nnames(v, n) > 1;

	for (i = 0; i < n; i++) {
		char *w;

		if (seen(v, i) || (int)v[i]->level != k)
			continue;
		if (k == EV_LEVEL_DEVICE_BOUND && d)
			break;
		w = ev_sentence(v[i]->verdict, v[i]->evidence);
		if (!w)
			continue;
		if (named && k != EV_LEVEL_DEVICE_BOUND)
			sb_addf(t, " For %s, %s.", v[i]->name, w);
		else
			sb_addf(t, " %c%s.", toupper((unsigned char)w[0]),
				w + 1);
		free(w);
		d++;
	}
}

/*
 * The validation paragraph of a commit message: how V[0..N-1] were
 * tested, one paragraph per evidence level present, in words.  This is
 * the one place the message says what ran; lib/evidence's sentence on
 * what ran after init belongs here when it is wired in.
 */
static void msg_validation_paragraph(struct sb *s, struct var **v, size_t n)
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
	for (k = EV_LEVEL_FIRST; k < EV_LEVEL_NR; k++) {
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
		else if (k == EV_LEVEL_REACHED) {
			sb_addf(&t, "built into an x86_64 vmlinux and booted under QEMU with ro_after_init=warn, which reported no write, and with the protection on, each time through suspend/resume, CPU hotplug, module and sysfs/sysctl exercises.");
			ran_sentences(&t, v, n, k);
		} else if (k == EV_LEVEL_BOOTED)
			sb_addf(&t, "built into an x86_64 vmlinux and booted under QEMU with ro_after_init=warn, which reported no write, and with the protection on, each time through suspend/resume, CPU hotplug, module and sysfs/sysctl exercises. The boot did not reach %s code.",
				nnames(v, n) > 1 ? "their" : "its");
		else if (k == EV_LEVEL_DEVICE_BOUND) {
			sb_addf(&t, "built as the module %s (x86_64), which was loaded under QEMU with the emulated device it drives, with ro_after_init=warn, which reported no write, and with the protection on.",
				first_module(v, n));
			ran_sentences(&t, v, n, k);
		} else if (k == EV_LEVEL_MODULE_CYCLED)
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
		evidence_items(s, v[i]->evidence, annot_section[v[i]->kind]);
	}
	sb_free(&t);
}

void commit_msg(struct sb *s, struct sb *notes, const struct plan_opts *o,
		struct var **v, size_t n, const char *subj)
{
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
	if (v[0]->kind == VK_RO)
		harm_sentences(&t, v, n);
	sb_wrap(s, t.buf, "", "", WIDTH);
	sb_addc(s, '\n');
	why_safe(s, o, v, n);
	sb_addc(s, '\n');
	sb_wrap(s, v[0]->kind == VK_RO ?
		"Found with ro-campaign, which uses Coccinelle to find the global variables that only init-only code writes, in the whole tree." :
		"Found with ro-campaign, which uses Coccinelle to find, in the whole tree, the static variables that only __init code reads and writes.",
		"", "", WIDTH);
	msg_validation_paragraph(s, v, n);
	sb_addf(s, "\nSigned-off-by: %s\n", o->signoff);

	notes_writers(notes, o, v, n);
	notes_validation(notes, o, v, n);
	sb_addc(notes, '\n');
	base_lines(notes, &o->base);
	sb_free(&t);
}

/*
 * What made the posting and how to check it
 * (Documentation/process/generated-content.rst, researcher-guidelines.rst):
 * the tool and its version, the rules that produced the finding, the
 * kernel and profile it was validated on, and the one command that
 * reproduces the finding and the validation.
 */
static void tool_note(struct sb *s, const struct plan_opts *o,
		       const struct posting *p)
{
	char *t, *kernel;
	const char *ver = o->base.version, *dot;

	t = xasprintf("Tool disclosure: the variables were found, and these patches and this letter written, by ro-campaign %s, a tool, from its finder rules (%s). They were validated on %s with ro-campaign's %s profile (x86_64), under QEMU, as each patch says. This command, run in ro-campaign at that commit, reproduces the finding and the validation of this posting:",
		      o->tool ? o->tool : "(version unknown)",
		      o->rules ? o->rules : "Coccinelle write facts, then the init-only closure",
		      o->base.text, o->profile);
	sb_wrap(s, t, "", "", WIDTH);
	free(t);
	sb_addc(s, '\n');
	if (!strcmp(o->base.kind, "git")) {
		sb_addf(s, "  make TREE=YOUR-CHECKOUT-AT-%.12s setup campaign PROFILE=%s \\\n",
			o->base.commit, o->profile);
	} else {
		dot = strchr(ver, '.');
		dot = dot ? strchr(dot + 1, '.') : NULL;
		kernel = dot ? xstrndup(ver, dot - ver) : xstrdup(ver);
		sb_addf(s, "  make KERNEL=%s setup campaign PROFILE=%s \\\n",
			kernel, o->profile);
		free(kernel);
	}
	sb_addf(s, "    SCOPE=\"%s\"\n", p->scope);
}

void cover_blurb(struct sb *s, const struct plan_opts *o,
		 const struct posting *p, const char *rows, size_t wvar,
		 size_t wloc, unsigned int levels)
{
	static const char *const meaning[EV_LEVEL_NR] = {
		[EV_LEVEL_REACHED] = "reached = built into vmlinux and booted with ro_after_init=warn reporting no write and again with the protection on, through the exercise suite, and a function that uses the variable ran after init (counted by ftrace's function profiler);",
		[EV_LEVEL_DEVICE_BOUND] = "device-bound = built as a module that bound the emulated device it drives, which passed unbind/bind, suspend/resume and unload with the protection on;",
		[EV_LEVEL_BOOTED] = "booted = built into vmlinux, booted with ro_after_init=warn reporting no write and again with the protection on, each time through the exercise suite (suspend/resume, CPU hotplug, modules, sysfs/sysctl writes), but none of its functions was seen to run after init;",
		[EV_LEVEL_MODULE_CYCLED] = "module-cycled = built as a module that was loaded (its init returned 0) and unloaded in the same two boots;",
		[EV_LEVEL_BUILT] = "built = only compiled: the symbol is in .data..ro_after_init, but no boot ran its code;",
	};
	size_t ninit = p->nkind[VK_INITDATA] + p->nkind[VK_INITCONST];
	struct sb l;
	char *t;
	int k;

	if (!ninit)
		t = xasprintf("This series marks %zu variable%s of %s (MAINTAINERS) as __ro_after_init, in %zu patch%s, one per file (a file with more than %d is split by kind: module parameters, pointers set once at init, tables, settings), those that protect function pointers, object pointers and policies first. Each of them is written only by init-only code and only read after init; once it is marked, a stray write after boot faults instead of silently changing it.",
			      p->nvars, p->nvars > 1 ? "s" : "", p->area,
			      p->npatches, p->npatches > 1 ? "es" : "",
			      o->max_vars);
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
	for (k = EV_LEVEL_FIRST; k < EV_LEVEL_NR; k++)
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
	tool_note(s, o, p);
	sb_addc(s, '\n');
	sb_addf(s, "Base: %s\n", o->base.text);
}
