// SPDX-License-Identifier: GPL-2.0
/*
 * queue-why: why a patch's variables are safe to mark, each reason said
 * once: the variables grouped by the file-scope reasons they share, one
 * sentence per group naming its writer functions once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue-msg.h"

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
		d += sel[i] && !var_seen(v, i);
	for (i = 0; i < n; i++) {
		if (!sel[i] || var_seen(v, i))
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
		d += sel[i] && !var_seen(v, i);
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
			ds += sub[k] && !var_seen(v, k);
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
void why_safe(struct sb *s, const struct plan_opts *o, struct var **v,
	      size_t n)
{
	struct why *y = xmalloc((n + 1) * sizeof(*y));
	char *sel = xmalloc(n + 1), *done = xcalloc(n + 1, 1);
	int many = var_nnames(v, n) > 1, anyw = 0;
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
