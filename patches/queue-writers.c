// SPDX-License-Identifier: GPL-2.0
/*
 * queue-writers: how each writer of a variable was established as
 * init-only, in words, from the source that explains it.
 *
 * The finder only says a writer is init-only; the source says how: an
 * __init annotation on the writing function's definition, or none, in
 * which case it was the call-graph closure (static, address never taken,
 * every caller init-only).  The definition is found by its name at the
 * start of a line above the write.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue-plan.h"

/* The source file being read, kept while its writers are described. */
static struct {
	char *path;
	char *data;
	char **lines;
	size_t nlines;
} src;

static void src_load(const char *tree, const char *file)
{
	char *path = xasprintf("%s/%s", tree, file), *p;
	size_t cap = 1024;

	if (src.path && !strcmp(src.path, path)) {
		free(path);
		return;
	}
	free(src.path);
	free(src.data);
	free(src.lines);
	src.path = path;
	/* an unreadable source only makes the words vaguer */
	src.data = read_file(path, NULL);
	src.nlines = 0;
	src.lines = xmalloc(cap * sizeof(*src.lines));
	for (p = src.data; p && *p; ) {
		char *nl = strchr(p, '\n');

		if (src.nlines == cap) {
			cap *= 2;
			src.lines = xrealloc(src.lines,
					     cap * sizeof(*src.lines));
		}
		src.lines[src.nlines++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
}

void describe_done(void)
{
	free(src.path);
	free(src.data);
	free(src.lines);
	memset(&src, 0, sizeof(src));
}

/*
 * The 1-based line of FUNC's definition above line AT, looking for
 * "FUNC(" at the start of a declaration (column 0); 0 if not found.
 */
static size_t find_def(const char *func, long at)
{
	size_t i = at > 0 && (size_t)at <= src.nlines ? (size_t)at : src.nlines;
	size_t n = strlen(func);

	while (i-- > 0) {
		const char *l = src.lines[i], *p;

		if (l[0] == ' ' || l[0] == '\t' || l[0] == '#' || !l[0])
			continue;
		for (p = strstr(l, func); p; p = strstr(p + 1, func)) {
			const char *q = p + n;

			if (p != l && is_ident_char((unsigned char)p[-1]))
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
static const char *def_mark(size_t def)
{
	size_t i, k;

	for (k = def; k > 0 && k + 2 >= def; k--) {
		const char *l = src.lines[k - 1];

		if (k < def && (!l[0] || strchr(l, ';') || strchr(l, '}') ||
				strstr(l, "*/")))
			break;
		for (i = ARRAY_SIZE(init_marks); i-- > 0;)
			if (has_identifier(l, init_marks[i]))
				return init_marks[i];
	}
	return NULL;
}

/* Is the definition at 1-based line DEF (or the two above it) static? */
static int def_static(size_t def)
{
	size_t k;

	for (k = def; k > 0 && k + 2 >= def; k--) {
		const char *l = src.lines[k - 1];

		if (k < def && (!l[0] || strchr(l, ';') || strchr(l, '}') ||
				strstr(l, "*/")))
			break;
		if (has_identifier(l, "static"))
			return 1;
	}
	return 0;
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

/* TEXT as a bullet: "- " after INDENT, the rest aligned below it. */
static void bullet(struct sb *s, const char *text, const char *indent)
{
	char *first = xasprintf("%s- ", indent);
	char *rest = xasprintf("%s  ", indent);

	sb_wrap(s, text, first, rest, WIDTH);
	free(first);
	free(rest);
}

/*
 * A sysctl or debugfs entry is a file, not a parameter: without a write
 * bit nothing writes the variable through it, at boot or later.
 */
static int form_is_file(const char *form, const char *perm)
{
	size_t k = perm - form;

	return (k == 6 && !strncmp(form, "sysctl", 6)) ||
	       (k == 7 && !strncmp(form, "debugfs", 7));
}

/* A writer at file scope: a parameter, assembly, or an initializer. */
static void file_scope(struct sb *t, const struct ev_writer *w)
{
	const char *perm = strchr(w->form, '=');
	size_t n = strlen(w->file);

	if (perm && form_is_file(w->form, perm))
		sb_addf(t, "%s:%ld: %.*s with permission %s: a read-only file, so nothing writes it through that file",
			w->file, w->line, (int)(perm - w->form), w->form,
			perm + 1);
	else if (perm)
		sb_addf(t, "%s:%ld: %.*s with permission %s: no write bit, so only set while parameters are parsed at boot",
			w->file, w->line, (int)(perm - w->form), w->form,
			perm + 1);
	else if (n > 2 && !strcmp(w->file + n - 2, ".S"))
		sb_addf(t, "%s:%ld: referenced from assembly, not as the destination of an instruction; the warn-mode boot saw no write",
			w->file, w->line);
	else if (!strcmp(w->form, "initdata-addr"))
		sb_addf(t, "%s:%ld: address stored in an __initdata/.init table, which is freed after init and which only init code may refer to (modpost checks)",
			w->file, w->line);
	else
		sb_addf(t, "%s:%ld: %s at file scope, in an initializer read only by init-only code",
			w->file, w->line, form_words(w->form));
}

enum wkind writer_kind(const char *tree, const struct ev_writer *w,
		       size_t *def)
{
	const char *mark;

	*def = 0;
	if (!strcmp(w->func, "-"))
		return WK_FILE_SCOPE;
	src_load(tree, w->file);
	*def = src.data ? find_def(w->func, w->line) : 0;
	mark = *def ? def_mark(*def) : NULL;
	if (mark && !strcmp(mark, "__init"))
		return WK_INIT;
	return *def ? WK_CLOSURE : WK_FUNC;
}

void describe_writer(struct sb *s, const char *tree, const struct ev_writer *w,
		     const char *indent)
{
	enum wkind k;
	struct sb t;
	size_t def;

	sb_init(&t);
	if (!strcmp(w->func, "-")) {
		file_scope(&t, w);
		bullet(s, t.buf, indent);
		sb_free(&t);
		return;
	}
	sb_addf(&t, "%s:%ld in %s(): %s; ", w->file, w->line, w->func,
		form_words(w->form));
	k = writer_kind(tree, w, &def);
	if (k == WK_INIT)
		sb_addf(&t, "%s() is __init (%s:%zu)", w->func, w->file, def);
	else if (k == WK_CLOSURE && def_static(def))
		sb_addf(&t, "%s() (%s:%zu) is static and called only from init-only code",
			w->func, w->file, def);
	else if (k == WK_CLOSURE)
		sb_addf(&t, "%s() (%s:%zu) is called only from init-only code in the whole tree",
			w->func, w->file, def);
	else
		sb_addf(&t, "%s() is init-only by the call-graph closure",
			w->func);
	bullet(s, t.buf, indent);
	sb_free(&t);
}

void describe_more(struct sb *s, long more, const char *indent)
{
	char *t = xasprintf("and %ld more writes, all in init-only code (candidates --explain lists them)",
			    more);

	bullet(s, t, indent);
	free(t);
}

void file_scope_words(struct sb *s, const struct ev_writer *w)
{
	const char *perm = strchr(w->form, '=');
	size_t n = strlen(w->file);

	if (perm && form_is_file(w->form, perm))
		sb_addf(s, "exposed by %.*s with permission %s, a read-only file, so nothing writes it through that file",
			(int)(perm - w->form), w->form, perm + 1);
	else if (perm)
		sb_addf(s, "named by %.*s with permission %s, which has no write bit, so it is set only while parameters are parsed",
			(int)(perm - w->form), w->form, perm + 1);
	else if (n > 2 && !strcmp(w->file + n - 2, ".S"))
		sb_add(s, "referenced from assembly, but not as the destination of a store");
	else if (!strcmp(w->form, "initdata-addr"))
		sb_add(s, "referred to from __initdata, which is freed after init");
	else
		sb_add(s, "set at file scope by an initializer that only init-only code reads");
}

int writer_is_param(const struct ev_writer *w)
{
	const char *perm = strchr(w->form, '=');

	return !strcmp(w->func, "-") && perm && !form_is_file(w->form, perm);
}

unsigned int decl_shape(const char *tree, const char *file, long line,
			const char *name)
{
	unsigned int shape = 0;
	const char *l, *p, *q;
	size_t n = strlen(name);

	src_load(tree, file);
	if (!src.data || line < 1 || (size_t)line > src.nlines)
		return 0;
	l = src.lines[line - 1];
	for (p = strstr(l, name); p; p = strstr(p + 1, name)) {
		if ((p != l && is_ident_char((unsigned char)p[-1])) ||
		    is_ident_char((unsigned char)p[n]))
			continue;
		for (q = p + n; *q == ' ' || *q == ')'; q++)
			;
		if (*q == '[')
			shape |= SHAPE_ARRAY;
		for (q = l; q < p; q++)
			if (*q == '*')
				shape |= SHAPE_POINTER;
		break;
	}
	return shape;
}
