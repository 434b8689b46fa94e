// SPDX-License-Identifier: GPL-2.0
/*
 * queue-plan: from the validation journal and candidates.tsv, decide the
 * series and patches and write their commit messages.
 *
 * The last journal row of a variable (file, name) is its verdict.  An
 * accepted variable is grouped by the MAINTAINERS area of its file; the
 * areas become series (sorted by area name), the files patches (sorted
 * by path, at most max_vars variables each).  Output, below OUT:
 *   README                     counts per area, what was not queued
 *   .plan/areas.tsv            dir, area, prefix, patches, variables
 *   .plan/DIR/NNNN.list        file, line, name: the annotation list
 *   .plan/DIR/NNNN.msg         the commit message
 *   .plan/DIR/files            the files of the series (get_maintainer)
 *   .plan/DIR/cover.subject    the cover letter's subject
 *   .plan/DIR/cover.blurb      the cover letter's text
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue-maint.h"
#include "queue-plan.h"
#include "queue-prefix.h"
#include "queue-tsv.h"
#include "queue-util.h"

#define WIDTH 72

/* A variable with its last journal row. */
struct var {
	const char *file, *name, *verdict, *evidence;
	const char *batch, *config_hash, *core_hash;
	long line;
	unsigned long jline;	/* line of the journal row */
	char **cand;		/* its candidates.tsv row */
	const struct msec *sec;
	char *prefix;
};

struct cols {
	int file, line, name, class, conf, reason, evidence;
};

static const struct table *sort_table;
static int sort_file, sort_name;

static int row_cmp(const void *a, const void *b)
{
	size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
	char **ra = sort_table->rows[ia], **rb = sort_table->rows[ib];
	int d = strcmp(ra[sort_file], rb[sort_file]);

	if (!d)
		d = strcmp(ra[sort_name], rb[sort_name]);
	if (!d)
		d = ia < ib ? -1 : ia > ib;
	return d;
}

static size_t *sorted_rows(const struct table *t, int file, int name)
{
	size_t *idx = xmalloc(t->nrows * sizeof(*idx)), i;

	for (i = 0; i < t->nrows; i++)
		idx[i] = i;
	sort_table = t;
	sort_file = file;
	sort_name = name;
	qsort(idx, t->nrows, sizeof(*idx), row_cmp);
	return idx;
}

static char **find_cand(const struct table *c, const size_t *idx,
			const struct cols *cc, const char *file,
			const char *name)
{
	size_t lo = 0, hi = c->nrows;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		char **r = c->rows[idx[mid]];
		int d = strcmp(r[cc->file], file);

		if (!d)
			d = strcmp(r[cc->name], name);
		if (!d)
			return r;
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int var_cmp(const void *a, const void *b)
{
	const struct var *va = a, *vb = b;
	int d = strcmp(va->sec->name, vb->sec->name);

	if (!d)
		d = strcmp(va->file, vb->file);
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

static const char *opt_col(char **row, int col)
{
	return col >= 0 && row[col][0] ? row[col] : "-";
}

/* ---- how a writer was established as init-only ------------------------ */

struct srcfile {
	char *path;
	char *data;
	char **lines;
	size_t nlines;
};

static void src_load(struct srcfile *f, const char *tree, const char *file)
{
	size_t n = strlen(tree) + strlen(file) + 2, cap = 1024;
	char *path = xmalloc(n), *p;

	snprintf(path, n, "%s/%s", tree, file);
	if (f->path && !strcmp(f->path, path)) {
		free(path);
		return;
	}
	free(f->path);
	free(f->data);
	free(f->lines);
	f->path = path;
	f->data = read_file(path, NULL);
	f->nlines = 0;
	f->lines = xmalloc(cap * sizeof(*f->lines));
	for (p = f->data; p && *p; ) {
		char *nl = strchr(p, '\n');

		if (f->nlines == cap) {
			cap *= 2;
			f->lines = xrealloc(f->lines, cap * sizeof(*f->lines));
		}
		f->lines[f->nlines++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
}

static int is_ident(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		(c >= '0' && c <= '9');
}

/* 1 if LINE contains the identifier WORD. */
static int has_word(const char *line, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = strstr(line, word); p; p = strstr(p + 1, word))
		if ((p == line || !is_ident(p[-1])) && !is_ident(p[n]))
			return 1;
	return 0;
}

/*
 * The 1-based line of FUNC's definition above line AT, looking for
 * "FUNC(" at the start of a declaration (column 0); 0 if not found.
 */
static size_t find_def(const struct srcfile *f, const char *func, long at)
{
	size_t i = at > 0 && (size_t)at <= f->nlines ? (size_t)at : f->nlines;
	size_t n = strlen(func);

	while (i-- > 0) {
		const char *l = f->lines[i], *p;

		if (l[0] == ' ' || l[0] == '\t' || l[0] == '#' || !l[0])
			continue;
		for (p = strstr(l, func); p; p = strstr(p + 1, func)) {
			const char *q = p + n;

			if (p != l && is_ident(p[-1]))
				continue;
			while (*q == ' ')
				q++;
			if (*q == '(')
				return i + 1;
		}
	}
	return 0;
}

static const char *const init_marks[] = {
	"__init", "__init_or_module", "__ref", "__meminit", "__cpuinit",
};

/* The section annotation on the definition at 1-based line DEF. */
static const char *def_mark(const struct srcfile *f, size_t def)
{
	size_t i, k;

	for (k = def; k > 0 && k + 2 >= def; k--) {
		const char *l = f->lines[k - 1];

		if (k < def && (!l[0] || strchr(l, ';') || strchr(l, '}') ||
				strstr(l, "*/")))
			break;
		for (i = ARRAY_SIZE(init_marks); i-- > 0;)
			if (has_word(l, init_marks[i]))
				return init_marks[i];
	}
	return NULL;
}

static const char *form_words(const char *form)
{
	static const char *const names[][2] = {
		{ "assign", "assignment" },
		{ "compound", "compound assignment" },
		{ "incdec", "increment or decrement" },
		{ "field", "store to a member" },
		{ "element", "store to an element" },
		{ "addr", "address taken" },
		{ "array-arg", "array passed by address" },
		{ "memcpy", "written by a memcpy()-like call" },
		{ "asm", "inline asm output" },
		{ "initdata-addr", "address stored in init data" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(form, names[i][0]))
			return names[i][1];
	return form;
}

/*
 * One bullet for writer W ("file:line:func:form") of a variable.  The
 * finder only says the writer is init-only; the source says how: an
 * __init annotation on the definition, or none, in which case it was the
 * call-graph closure (static, address never taken, every caller
 * init-only).
 */
static void describe_writer(struct sb *s, const char *tree,
			    struct srcfile *src, const char *w, const char *indent)
{
	char *copy = xstrdup(w), *file, *line, *func, *form, *p, *first, *rest;
	struct sb t;
	size_t def;
	const char *mark;

	sb_init(&t);
	file = copy;
	line = strchr(file, ':');
	func = line ? strchr(line + 1, ':') : NULL;
	form = func ? strchr(func + 1, ':') : NULL;
	if (!strncmp(w, "...(+", 5)) {
		/* The finder lists at most 64 writers. */
		sb_addf(&t, "and %ld more writes, all in init-only code (candidates --explain lists them)",
			atol(w + 5));
		goto out;
	}
	if (!form) {
		sb_addf(&t, "%s", w);
		goto out;
	}
	*line++ = '\0';
	*func++ = '\0';
	*form++ = '\0';
	if (!strcmp(func, "-")) {
		p = strchr(form, '=');
		if (p) {
			*p++ = '\0';
			sb_addf(&t, "%s:%s: %s with permission %s: no write bit, so only set while parameters are parsed at boot",
				file, line, form, p);
		} else if (strlen(file) > 2 &&
			   !strcmp(file + strlen(file) - 2, ".S")) {
			sb_addf(&t, "%s:%s: referenced from assembly, not as the destination of an instruction; the warn-mode boot saw no write",
				file, line);
		} else if (!strcmp(form, "initdata-addr")) {
			sb_addf(&t, "%s:%s: address stored in an __initdata/.init table, which is freed after init and which only init code may refer to (modpost checks)",
				file, line);
		} else {
			sb_addf(&t, "%s:%s: %s at file scope, in an initializer read only by init-only code",
				file, line, form_words(form));
		}
		goto out;
	}
	sb_addf(&t, "%s:%s in %s(): %s; ", file, line, func,
		form_words(form));
	src_load(src, tree, file);
	def = src->data ? find_def(src, func, atol(line)) : 0;
	mark = def ? def_mark(src, def) : NULL;
	if (mark && !strcmp(mark, "__init"))
		sb_addf(&t, "%s() is __init (%s:%zu)", func, file, def);
	else if (def)
		sb_addf(&t, "%s() (%s:%zu) is static and called only from init-only code",
			func, file, def);
	else
		sb_addf(&t, "%s() is init-only by the call-graph closure",
			func);
out:
	first = xmalloc(strlen(indent) + 3);
	rest = xmalloc(strlen(indent) + 3);
	sprintf(first, "%s- ", indent);
	sprintf(rest, "%s  ", indent);
	sb_wrap(s, t.buf, first, rest, WIDTH);
	free(first);
	free(rest);
	sb_free(&t);
	free(copy);
}

/* ---- commit messages -------------------------------------------------- */

static void names_list(struct sb *s, struct var **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i)
			sb_add(s, i + 1 == n ? " and " : ", ");
		sb_add(s, v[i]->name);
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
			v[0]->prefix, n, base_of(v[0]->file));
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
static void evidence_item(struct sb *t, char *item)
{
	char *eq = strchr(item, '='), *val, *comma;

	if (!eq) {
		sb_add(t, item);
		return;
	}
	*eq = '\0';
	val = eq + 1;
	comma = strchr(val, ',');
	if (!strcmp(item, "built") && comma) {
		*comma = '\0';
		sb_addf(t, "section check: the symbol is in .data..ro_after_init of %s and of %s",
			val, comma + 1);
	} else if (!strcmp(item, "booted") && !strcmp(val, "warn,default")) {
		sb_add(t, "booted twice with the exercise suite: with ro_after_init=warn, which reported no violation, then with the protection on (oops on a write)");
	} else if (!strcmp(item, "booted")) {
		sb_add(t, "booted with the exercise suite in mode ");
		comma_list(t, val);
	} else if (!strcmp(item, "exercised")) {
		sb_add(t, "exercises passed: ");
		comma_list(t, val);
	} else {
		sb_addf(t, "%s: ", item);
		comma_list(t, val);
	}
}

static void evidence_items(struct sb *s, const char *evidence)
{
	char *ev = xstrdup(evidence), *item, *save = NULL;
	struct sb t;

	sb_init(&t);
	for (item = strtok_r(ev, ";", &save); item;
	     item = strtok_r(NULL, ";", &save)) {
		while (*item == ' ')
			item++;
		if (!*item)
			continue;
		t.len = 0;
		evidence_item(&t, item);
		sb_wrap(s, t.buf, "  - ", "    ", WIDTH);
	}
	sb_free(&t);
	free(ev);
}

static int same_validation(const struct var *a, const struct var *b)
{
	return !strcmp(a->evidence, b->evidence) &&
		!strcmp(a->batch, b->batch) &&
		!strcmp(a->config_hash, b->config_hash);
}

/* The evidence of the journal rows: "key=value; key=value; ..." items. */
static void how_tested(struct sb *s, const struct plan_opts *o,
		   struct var **v, size_t n)
{
	struct sb t;
	size_t i, k;

	sb_init(&t);
	sb_addf(&t, "How it was tested: built in ro-campaign's %s profile (x86_64, config_hash=%s) in validation batch %s, together with the other conversions of that batch, and booted under QEMU (TCG, 2 CPUs, started with maxcpus=1 so that onlining CPU1 after boot is exercised). A boot counted only if the lkdtm WRITE_RO_AFTER_INIT control write was caught in that same boot. The validation journal recorded:",
		o->profile, v[0]->config_hash, v[0]->batch);
	sb_wrap(s, t.buf, "", "", WIDTH);
	sb_addc(s, '\n');
	evidence_items(s, v[0]->evidence);
	for (i = 1; i < n; i++) {
		for (k = 0; k < i && !same_validation(v[k], v[i]); k++)
			;
		if (k < i)
			continue;
		t.len = 0;
		sb_addf(&t, "For %s, in batch %s (config_hash=%s):",
			v[i]->name, v[i]->batch, v[i]->config_hash);
		sb_addc(s, '\n');
		sb_wrap(s, t.buf, "", "", WIDTH);
		evidence_items(s, v[i]->evidence);
	}
	sb_free(&t);
}

static void commit_msg(struct sb *s, const struct plan_opts *o,
		       struct var **v, size_t n, const struct cols *cc)
{
	struct srcfile src = { 0 };
	char *subj = patch_subject(v, n);
	struct sb t;
	size_t i;

	sb_init(&t);
	sb_addf(s, "%s\n\n", subj);
	names_list(&t, v, n);
	sb_addf(&t, " %s written only while the kernel initializes and only read after that. Mark %s __ro_after_init, so that %s placed in .data..ro_after_init, which mark_rodata_ro() makes read-only once init is done: a stray or malicious write after boot then faults instead of silently changing %s.",
		n > 1 ? "are" : "is", n > 1 ? "them" : "it",
		n > 1 ? "they are" : "it is", n > 1 ? "them" : "it");
	sb_wrap(s, t.buf, "", "", WIDTH);
	t.len = 0;
	if (n > 1)
		sb_add(&t, "Why this is safe: in the whole tree, every write to each of them is made by init-only code:");
	else
		sb_addf(&t, "Why this is safe: in the whole tree, every write to %s (%s:%ld) is made by init-only code:",
			v[0]->name, v[0]->file, v[0]->line);
	sb_addc(s, '\n');
	sb_wrap(s, t.buf, "", "", WIDTH);
	for (i = 0; i < n; i++) {
		char *w = xstrdup(v[i]->cand[cc->evidence]), *one, *save;

		sb_addc(s, '\n');
		if (n > 1)
			sb_addf(s, "  %s (%s:%ld):\n", v[i]->name, v[i]->file,
				v[i]->line);
		for (one = strtok_r(w, ";", &save); one;
		     one = strtok_r(NULL, ";", &save))
			describe_writer(s, o->tree, &src, one,
					n > 1 ? "    " : "  ");
		free(w);
	}
	sb_addc(s, '\n');
	sb_wrap(s, "A function is init-only if it is __init, or if it is static, its address is never taken and all its callers are init-only (a fixpoint over the call graph of the whole tree). Writes are assignments, compound assignments, increments, stores to members and elements, memcpy()-like calls and inline asm outputs; taking the address counts as a write unless the use is provably read-only, and a module parameter or sysctl entry with a write bit disqualifies a variable.",
		"", "", WIDTH);
	sb_addc(s, '\n');
	t.len = 0;
	sb_add(&t, "How it was found: the ro-campaign finder (Coccinelle rules that print definition, write, call and parameter facts, and a C aggregator that reasons over the whole tree), rule ro_after_init: at least one write, and every write in init-only code. Its verdict:");
	for (i = 0; i < n; i++)
		sb_addf(&t, "%s%s%s\"%s\" (confidence %s)%s", i ? " " : " ",
			n > 1 ? v[i]->name : "", n > 1 ? ": " : "",
			v[i]->cand[cc->reason], v[i]->cand[cc->conf],
			i + 1 < n ? ";" : ".");
	sb_wrap(s, t.buf, "", "", WIDTH);
	sb_addc(s, '\n');
	sb_wrap(s, o->base, "", "", WIDTH);
	sb_addc(s, '\n');
	how_tested(s, o, v, n);
	sb_addf(s, "\nSigned-off-by: %s\n", o->signoff);
	sb_free(&t);
	free(subj);
	free(src.path);
	free(src.data);
	free(src.lines);
}

/* ---- series ----------------------------------------------------------- */

static char *slug(const char *area, unsigned int num)
{
	struct sb s;
	const char *p;
	int dash = 0;

	sb_init(&s);
	sb_addf(&s, "%02u-", num);
	for (p = area; *p && s.len < 44; p++) {
		char c = *p;

		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		if (is_ident(c) && c != '_') {
			if (dash && s.buf[s.len - 1] != '-')
				sb_addc(&s, '-');
			sb_addc(&s, c);
			dash = 0;
		} else {
			dash = 1;
		}
	}
	return s.buf;
}

/* The longest common prefix of the subject prefixes, on '/' bounds. */
static char *series_prefix(struct var *v, size_t n)
{
	size_t len = strlen(v[0].prefix), i, k;

	for (i = 1; i < n; i++) {
		for (k = 0; k < len && v[i].prefix[k] == v[0].prefix[k]; k++)
			;
		if (k < len && !(v[i].prefix[k] == '\0' ||
				 v[i].prefix[k] == '/'))
			while (k > 0 && v[0].prefix[k] != '/')
				k--;
		len = k;
	}
	if (!len)
		return xstrdup(v[0].prefix);
	return xstrndup(v[0].prefix, len);
}

static int put(const char *dir, const char *name, struct sb *s)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *path = xmalloc(n);
	int ret;

	snprintf(path, n, "%s/%s", dir, name);
	ret = write_file(path, s->buf, s->len);
	free(path);
	return ret;
}

static const char *level_of(const struct var *v)
{
	if (strstr(v->evidence, "exercise"))
		return "exercised";
	if (strstr(v->evidence, "boot"))
		return "booted";
	if (strstr(v->evidence, "section"))
		return "built";
	return "accepted";
}

static int write_series(const struct plan_opts *o, const char *plan,
			struct var *v, size_t n, unsigned int num,
			const struct cols *cc, struct sb *areas)
{
	char *name = slug(v[0].sec->name, num), *dir, *pfx = NULL;
	struct sb msg, list, files, cover, row;
	size_t i, j, np = 0, len = strlen(plan) + strlen(name) + 2;
	struct var **unit = xmalloc(n * sizeof(*unit));
	int ret = -1;
	size_t wvar = 8, wloc = 9;

	dir = xmalloc(len);
	snprintf(dir, len, "%s/%s", plan, name);
	if (mkdirs(dir))
		goto out;
	sb_init(&msg);
	sb_init(&list);
	sb_init(&files);
	sb_init(&cover);
	sb_init(&row);
	for (i = 0; i < n; i++) {
		size_t l = strlen(v[i].file) + 12;

		if (strlen(v[i].name) > wvar)
			wvar = strlen(v[i].name);
		if (l > wloc)
			wloc = l;
	}
	for (i = 0; i < n; i = j) {
		char fname[32];

		for (j = i; j < n && j - i < (size_t)o->max_vars &&
		     !strcmp(v[j].file, v[i].file); j++)
			unit[j - i] = &v[j];
		np++;
		msg.len = 0;
		commit_msg(&msg, o, unit, j - i, cc);
		snprintf(fname, sizeof(fname), "%04zu.msg", np);
		if (put(dir, fname, &msg))
			goto out_sb;
		list.len = 0;
		sb_add(&list, "file\tline\tname\n");
		for (size_t k = i; k < j; k++)
			sb_addf(&list, "%s\t%ld\t%s\n", v[k].file, v[k].line,
				v[k].name);
		snprintf(fname, sizeof(fname), "%04zu.list", np);
		if (put(dir, fname, &list))
			goto out_sb;
		if (!i || strcmp(v[i].file, v[i - 1].file))
			sb_addf(&files, "%s\n", v[i].file);
		for (size_t k = i; k < j; k++) {
			char loc[4200];

			snprintf(loc, sizeof(loc), "%s:%ld", v[k].file,
				 v[k].line);
			sb_addf(&row, "  %2zu  %-*s  %-*s  %s\n", np,
				(int)wvar, v[k].name, (int)wloc, loc,
				level_of(&v[k]));
		}
	}
	if (put(dir, "files", &files))
		goto out_sb;
	pfx = series_prefix(v, n);
	msg.len = 0;
	sb_addf(&msg, "%s: Mark %zu variable%s as __ro_after_init\n", pfx, n,
		n > 1 ? "s" : "");
	if (put(dir, "cover.subject", &msg))
		goto out_sb;
	msg.len = 0;
	sb_addf(&msg, "This series marks %zu variable%s of %s (MAINTAINERS) as __ro_after_init, in %zu patch%s, one per file. Each of them is written only by init-only code and read after that; each patch lists every writer with its file and line and says how it was shown to be init-only.",
		n, n > 1 ? "s" : "", v[0].sec->name, np, np > 1 ? "es" : "");
	sb_wrap(&cover, msg.buf, "", "", WIDTH);
	sb_addc(&cover, '\n');
	sb_wrap(&cover, "Validation levels: built = the symbol sits in .data..ro_after_init of the object and of vmlinux; booted = the kernel booted with the protection on and the lkdtm control write was caught; exercised = in addition suspend/resume, CPU hotplug, module and sysfs/sysctl write-back exercises passed, with ro_after_init=warn reporting no violation and again with the protection on.",
		"", "", WIDTH);
	sb_addc(&cover, '\n');
	sb_addf(&cover, "  %2s  %-*s  %-*s  %s\n", "#", (int)wvar, "variable",
		(int)wloc, "file:line", "level");
	sb_add(&cover, row.buf);
	sb_addc(&cover, '\n');
	sb_wrap(&cover, "Found by the ro-campaign finder (Coccinelle facts and a whole-tree C aggregator) and validated by booting batches of conversions under QEMU; see the patches for the details.",
		"", "", WIDTH);
	sb_addc(&cover, '\n');
	sb_wrap(&cover, o->base, "", "", WIDTH);
	if (put(dir, "cover.blurb", &cover))
		goto out_sb;
	sb_addf(areas, "%s\t%s\t%s\t%zu\t%zu\n", name, v[0].sec->name, pfx,
		np, n);
	ret = 0;
out_sb:
	sb_free(&msg);
	sb_free(&list);
	sb_free(&files);
	sb_free(&cover);
	sb_free(&row);
out:
	free(pfx);
	free(unit);
	free(dir);
	free(name);
	return ret;
}

/* ---- the plan --------------------------------------------------------- */

static void readme(struct sb *s, const struct plan_opts *o,
		   const struct sb *areas, struct var *other, size_t nother,
		   size_t nacc, size_t nvars, size_t nrows)
{
	char *copy = xstrdup(areas->buf), *line, *save;
	size_t i;

	sb_add(s, "ro-campaign patch queue\n=======================\n\n");
	sb_wrap(s, o->base, "", "", WIDTH);
	sb_addf(s, "\nJournal:    %s (%zu rows, %zu variables)\n", o->journal,
		nrows, nvars);
	sb_addf(s, "Candidates: %s\n", o->candidates);
	sb_addf(s, "Queued:     %zu, below\n", nacc);
	sb_addf(s, "Not queued: %zu, listed at the end\n\n", nother);
	sb_add(s, "Series, in the order the top-level `series` file applies them\n(each directory has a cover letter, the patches and its own `series`):\n\n");
	sb_addf(s, "  %-46s %7s %9s  %s\n", "directory", "patches", "variables",
		"area (prefix)");
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[5], *p = line;
		int k;

		for (k = 0; k < 5; k++) {
			f[k] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = '\0';
			else
				p = "";
		}
		sb_addf(s, "  %-46s %7s %9s  %s (%s)\n", f[0], f[3], f[4], f[1],
			f[2]);
	}
	free(copy);
	sb_add(s, "\nNot queued: variables whose last journal verdict is not \"accepted\"\n(the reason is the journal's evidence), and accepted ones the queue\ndropped (the reason starts with \"dropped:\").\n\n");
	if (!nother)
		sb_add(s, "  (none)\n");
	for (i = 0; i < nother; i++) {
		const char *ev = other[i].evidence;
		size_t l = strlen(other[i].verdict);

		/* validate's not-built evidence already starts with its verdict */
		if (!strncmp(ev, other[i].verdict, l) && ev[l] == ':')
			sb_addf(s, "  %s:%ld %s: %s\n", other[i].file,
				other[i].line, other[i].name, ev);
		else
			sb_addf(s, "  %s:%ld %s: %s: %s\n", other[i].file,
				other[i].line, other[i].name, other[i].verdict,
				ev);
	}
}

static int journal_cols(const struct table *j, int *c)
{
	static const char *const need[] = {
		"variable", "file", "line", "verdict", "evidence",
	};
	static const char *const opt[] = {
		"batch", "config_hash", "core_hash", "time",
	};
	size_t i;
	int bad = 0;

	for (i = 0; i < 5; i++)
		bad |= (c[i] = table_need(j, need[i])) < 0;
	for (i = 0; i < 4; i++)
		c[5 + i] = table_col(j, opt[i]);
	return bad ? -1 : 0;
}

static int cand_cols(const struct table *t, struct cols *cc)
{
	cc->file = table_need(t, "file");
	cc->line = table_need(t, "line");
	cc->name = table_need(t, "name");
	cc->class = table_need(t, "class");
	cc->conf = table_need(t, "confidence");
	cc->reason = table_need(t, "reason");
	cc->evidence = table_need(t, "evidence");
	return (cc->file | cc->line | cc->name | cc->class | cc->conf |
		cc->reason | cc->evidence) < 0 ? -1 : 0;
}

/*
 * 1 if (FILE, NAME) is in the exclude table E (columns file, name,
 * reason); *WHY gets the reason.
 */
static int excluded(const struct table *e, const char *file,
		    const char *name, const char **why)
{
	int cf = table_col(e, "file"), cn = table_col(e, "name");
	int cr = table_col(e, "reason");
	size_t i;

	for (i = 0; cf >= 0 && cn >= 0 && cr >= 0 && i < e->nrows; i++) {
		char **r = e->rows[i];

		if (!strcmp(r[cf], file) && !strcmp(r[cn], name)) {
			*why = r[cr];
			return 1;
		}
	}
	return 0;
}

int plan_run(const struct plan_opts *o)
{
	struct table jt, ct, et = { 0 };
	struct maint m;
	struct cols cc;
	int jc[9], ret = 1;
	size_t *jidx = NULL, *cidx = NULL, i, nacc = 0, nother = 0, nvars = 0;
	struct var *acc = NULL, *other = NULL;
	struct sb areas, text;
	char *plan = NULL;
	unsigned int num = 0;

	sb_init(&areas);
	sb_init(&text);
	if (table_load(&jt, o->journal) || journal_cols(&jt, jc))
		return 1;
	if (table_load(&ct, o->candidates) || cand_cols(&ct, &cc))
		return 1;
	if (o->exclude) {
		if (table_load(&et, o->exclude))
			return 1;
		if (table_need(&et, "file") < 0 || table_need(&et, "name") < 0 ||
		    table_need(&et, "reason") < 0)
			return 1;
	}
	if (maint_load(&m, o->maintainers, o->tree))
		return 1;
	jidx = sorted_rows(&jt, jc[1], jc[0]);
	cidx = sorted_rows(&ct, cc.file, cc.name);
	acc = xmalloc((jt.nrows + 1) * sizeof(*acc));
	other = xmalloc((jt.nrows + 1) * sizeof(*other));
	for (i = 0; i < jt.nrows; i++) {
		char **r = jt.rows[jidx[i]], *end;
		struct var v = { 0 };

		if (i + 1 < jt.nrows) {
			char **n = jt.rows[jidx[i + 1]];

			if (!strcmp(n[jc[1]], r[jc[1]]) &&
			    !strcmp(n[jc[0]], r[jc[0]]))
				continue;	/* a later row decides */
		}
		nvars++;
		v.name = r[jc[0]];
		v.file = r[jc[1]];
		v.line = strtol(r[jc[2]], &end, 10);
		v.verdict = r[jc[3]];
		v.evidence = r[jc[4]];
		v.batch = opt_col(r, jc[5]);
		v.config_hash = opt_col(r, jc[6]);
		v.core_hash = opt_col(r, jc[7]);
		v.jline = jt.lineno[jidx[i]];
		if (end == r[jc[2]] || *end || v.line <= 0) {
			fprintf(stderr, "queue: %s:%lu: line '%s' is not a positive number\n",
				o->journal, v.jline, r[jc[2]]);
			goto out;
		}
		if (strcmp(v.verdict, "accepted")) {
			other[nother++] = v;
			continue;
		}
		if (excluded(&et, v.file, v.name, &v.evidence)) {
			v.verdict = "dropped";
			other[nother++] = v;
			continue;
		}
		v.cand = find_cand(&ct, cidx, &cc, v.file, v.name);
		if (!v.cand) {
			fprintf(stderr, "queue: %s:%lu: %s in %s is accepted but not in %s; cannot say why it is safe\n",
				o->journal, v.jline, v.name, v.file,
				o->candidates);
			goto out;
		}
		if (strcmp(v.cand[cc.class], "ro_after_init")) {
			fprintf(stderr, "queue: %s:%lu: %s in %s is accepted but %s now classes it '%s' (%s); re-run validation\n",
				o->journal, v.jline, v.name, v.file,
				o->candidates, v.cand[cc.class],
				v.cand[cc.reason]);
			goto out;
		}
		v.sec = maint_area(&m, v.file, NULL);
		if (!v.sec) {
			fprintf(stderr, "queue: %s: no MAINTAINERS section matches %s\n",
				o->maintainers, v.file);
			goto out;
		}
		v.prefix = subject_prefix(v.file);
		acc[nacc++] = v;
	}
	qsort(acc, nacc, sizeof(*acc), var_cmp);
	qsort(other, nother, sizeof(*other), other_cmp);
	i = strlen(o->out) + 8;
	plan = xmalloc(i);
	snprintf(plan, i, "%s/.plan", o->out);
	if (mkdirs(plan))
		goto out;
	for (i = 0; i < nacc; ) {
		size_t j = i;

		while (j < nacc && acc[j].sec == acc[i].sec)
			j++;
		if (write_series(o, plan, acc + i, j - i, ++num, &cc, &areas))
			goto out;
		i = j;
	}
	/* The newest journal time dates the commits, so reruns agree. */
	text.len = 0;
	sb_add(&text, "2000-01-01T00:00:00Z");
	for (i = 0; jc[8] >= 0 && i < jt.nrows; i++)
		if (strcmp(jt.rows[i][jc[8]], text.buf) > 0) {
			text.len = 0;
			sb_add(&text, jt.rows[i][jc[8]]);
		}
	sb_addc(&text, '\n');
	if (put(plan, "date", &text))
		goto out;
	text.len = 0;
	if (put(plan, "areas.tsv", &areas))
		goto out;
	readme(&text, o, &areas, other, nother, nacc, nvars, jt.nrows);
	if (put(o->out, "README", &text))
		goto out;
	printf("queue: %zu queued in %u series, %zu not queued (%s/README)\n",
	       nacc, num, nother, o->out);
	ret = 0;
out:
	for (i = 0; i < nacc; i++)
		free(acc[i].prefix);
	free(acc);
	free(other);
	free(jidx);
	free(cidx);
	free(plan);
	sb_free(&areas);
	sb_free(&text);
	maint_free(&m);
	table_free(&jt);
	table_free(&ct);
	if (o->exclude)
		table_free(&et);
	return ret;
}
