// SPDX-License-Identifier: GPL-2.0
/*
 * cover-kbuild.c - cover-plan's kbuild side: the obj- lines, composite
 * objects and the directory chain that compile a file (see cover-plan.c).
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>


#include "base.h"
#include "strtab.h"
#include "cover.h"

/* ---- kbuild: the Makefiles ----------------------------------------- */

#define MAX_SYMS 16

struct rule {
	char *base;		/* "obj", "lib", "core", ... or a composite */
	uint32_t sym[MAX_SYMS];	/* CONFIG_ symbols of the name and ifs */
	size_t nsym;
	char **vals;
	size_t nvals;
};

struct mkdir {
	char *dir;		/* tree-relative, "" for the top */
	struct rule *rules;
	size_t nrules;
	struct mkdir *next;
};

static struct mkdir *mkdirs_cache;

static const char *const ignored_bases[] = {
	"ccflags", "asflags", "ldflags", "subdir-ccflags", "subdir-asflags",
	"always", "hostprogs", "userprogs", "targets", "clean-files",
	"userccflags", "subdir",
};

/* Link-level lists: their members are compiled into the kernel or a module. */
static int is_link_base(const char *b)
{
	static const char *const link[] = {
		"obj", "lib", "core", "drivers", "libs", "net", "virt", "init",
		"head", "extra",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(link); i++)
		if (!strcmp(b, link[i]))
			return 1;
	return 0;
}

/* "foo-$(CONFIG_X)", "foo-y", "foo-objs": "foo", or NULL. */
static char *rule_base(const char *lhs)
{
	const char *d = strstr(lhs, "-$(");

	size_t n = strlen(lhs), i;
	char *b;

	if (!d) {
		if (n > 2 && (!strcmp(lhs + n - 2, "-y") ||
			      !strcmp(lhs + n - 2, "-m")))
			d = lhs + n - 2;
		else if (n > 5 && !strcmp(lhs + n - 5, "-objs"))
			d = lhs + n - 5;
		else
			return NULL;
	}
	b = xstrndup(lhs, d - lhs);
	for (i = 0; i < ARRAY_SIZE(ignored_bases); i++)
		if (!strcmp(b, ignored_bases[i]))
			break;
	if (i < ARRAY_SIZE(ignored_bases) || !*b || strchr(b, '$') ||
	    strchr(b, ' ')) {
		free(b);
		return NULL;
	}
	return b;
}

/* The symbol an ifdef/ifeq line requires, or STR_NONE. */
static uint32_t cond_sym(const char *line)
{
	char *s = xstrdup(line), *p, *q;
	uint32_t id[1], ret = STR_NONE;

	for (p = q = s; *p; p++)	/* ifeq ($(CONFIG_X), y) */
		if (*p != ' ' && *p != '\t')
			*q++ = *p;
	*q = '\0';
	if (!strncmp(s, "ifdef", 5) ||
	    (!strncmp(s, "ifeq", 4) && strstr(s, "),y)")) ||
	    (!strncmp(s, "ifneq", 5) && strstr(s, "),)")))
		if (config_syms(s, id, 0, 1) == 1)
			ret = id[0];
	free(s);
	return ret;
}

static void parse_makefile(struct mkdir *m, const char *rel)
{
	char *path = tree_file(rel), *text, *line, *next, *p;
	uint32_t ifs[MAX_SYMS];
	int nif = 0, skipped = 0;
	size_t len, cap = m->nrules;

	text = read_file(path, &len);
	if (!text)
		die(RC_HOST, "%s: %s", path, strerror(errno));
	/* Join continuation lines. */
	for (p = text; (p = strstr(p, "\\\n")); )
		p[0] = p[1] = ' ';
	for (line = text; line && *line; line = next) {
		char *op, *lhs, *tok, *save;
		struct rule r = { 0 };
		size_t i;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		p = strchr(line, '#');
		if (p)
			*p = '\0';
		line = skip_ws(line);
		rtrim(line);
		for (p = line; *p; p++)	/* ${CONFIG_X} is $(CONFIG_X) */
			if (p[0] == '$' && p[1] == '{') {
				char *e = strchr(p, '}');

				p[1] = '(';
				if (e)
					*e = ')';
			}
		if (!strncmp(line, "if", 2) && (line[2] == 'd' ||
						line[2] == 'n' ||
						line[2] == 'e')) {
			if (nif < MAX_SYMS)
				ifs[nif++] = cond_sym(line);
			else
				skipped++;
			continue;
		}
		if (!strncmp(line, "else", 4)) {
			if (nif)
				ifs[nif - 1] = STR_NONE;
			continue;
		}
		if (!strcmp(line, "endif")) {
			if (skipped)
				skipped--;
			else if (nif)
				nif--;
			continue;
		}
		op = strchr(line, '=');
		if (!op || op == line)
			continue;
		p = op;
		if (p[-1] == '+' || p[-1] == ':' || p[-1] == '?')
			p--;
		lhs = xstrndup(line, p - line);
		rtrim(lhs);
		r.base = rule_base(lhs);
		if (!r.base) {
			free(lhs);
			continue;
		}
		r.nsym = config_syms(lhs, r.sym, 0, MAX_SYMS);
		if (!r.nsym && strchr(lhs, '$')) {
			/* acpi-$(ACPI_FUTURE_USAGE): not a config symbol */
			free(lhs);
			free(r.base);
			continue;
		}
		free(lhs);
		for (i = 0; i < (size_t)nif; i++)
			if (ifs[i] != STR_NONE && r.nsym < MAX_SYMS)
				r.sym[r.nsym++] = ifs[i];
		for (tok = strtok_r(op + 1, " \t", &save); tok;
		     tok = strtok_r(NULL, " \t", &save)) {
			char *v = subst(tok, "$(SRCARCH)", ARCH), *w;

			w = subst(v, "$(BITS)", "64");
			free(v);
			v = w;
			if (!strncmp(v, "$(obj)/", 6))
				memmove(v, v + 6, strlen(v + 6) + 1);
			r.vals = xrealloc(r.vals, (r.nvals + 1) * sizeof(char *));
			r.vals[r.nvals++] = v;
		}
		if (m->nrules == cap) {
			cap = cap ? cap * 2 : 32;
			m->rules = xrealloc(m->rules, cap * sizeof(*m->rules));
		}
		m->rules[m->nrules++] = r;
	}
	free(text);
	free(path);
}

/* The rules of directory DIR: its Kbuild, else its Makefile. */
static struct mkdir *get_mkdir(const char *dir)
{
	struct mkdir *m;
	char *rel;

	for (m = mkdirs_cache; m; m = m->next)
		if (!strcmp(m->dir, dir))
			return m;
	m = xcalloc(1, sizeof(*m));
	m->dir = xstrdup(dir);
	m->next = mkdirs_cache;
	mkdirs_cache = m;
	if (!*dir) {
		/* The top: Kbuild, Makefile, and the arch Makefile's lists. */
		parse_makefile(m, "Kbuild");
		parse_makefile(m, "Makefile");
		parse_makefile(m, "arch/" ARCH "/Makefile");
		return m;
	}
	rel = xasprintf("%s/Kbuild", dir);
	if (!exists(rel)) {
		free(rel);
		rel = xasprintf("%s/Makefile", dir);
	}
	if (exists(rel))
		parse_makefile(m, rel);
	free(rel);
	return m;
}


void need_add(struct need *n, const uint32_t *ids, size_t k)
{
	size_t i, j;

	for (i = 0; i < k; i++) {
		for (j = 0; j < n->nsym; j++)
			if (n->sym[j] == ids[i])
				break;
		if (j == n->nsym && n->nsym < ARRAY_SIZE(n->sym))
			n->sym[n->nsym++] = ids[i];
	}
}

/* How many of N's symbols the base config lacks (lower is better). */
static size_t need_cost(const struct need *n)
{
	size_t i, c = 0;

	for (i = 0; i < n->nsym; i++)
		if (!syms[n->sym[i]].base)
			c++;
	return c;
}

void need_free(struct need *n)
{
	free(n->why);
	n->why = NULL;
}

static void need_dir(const char *dir, struct need *out, int depth);
static void need_member(const char *dir, const char *name, struct need *out,
			int depth);

/* Prefer the resolution found, then the one with fewest symbols to add. */
static void need_pick(struct need *best, struct need *cand)
{
	if (cand->found && (!best->found ||
			    need_cost(cand) < need_cost(best))) {
		need_free(best);
		*best = *cand;
		return;
	}
	if (!best->found && !best->why) {
		*best = *cand;
		return;
	}
	need_free(cand);
}

/*
 * Which symbols compile the composite BASE of DIR: its object (foo-y is
 * linked into foo.o), or a list that names it (i915-y += $(gem-y)).
 */
static void need_composite(const char *dir, const char *base,
			   struct need *out, int depth)
{
	static const char *const forms[] = { "%s.o", "$(%s-y)", "$(%s-objs)" };
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < ARRAY_SIZE(forms); i++) {
		char *name = xasprintf(forms[i], base);
		struct need c;

		need_member(dir, name, &c, depth);
		need_pick(out, &c);
		free(name);
	}
}

/* Which symbols compile member NAME ("f.o", "sub/f.o", "dir/") of DIR. */
static void need_member(const char *dir, const char *name, struct need *out,
			int depth)
{
	struct mkdir *m = get_mkdir(dir);
	size_t i, j;

	memset(out, 0, sizeof(*out));
	if (depth > MAX_DEPTH) {
		out->why = xasprintf("%s/Makefile: composites nest too deep at %s",
				     dir, name);
		return;
	}
	for (i = 0; i < m->nrules; i++) {
		struct rule *r = &m->rules[i];
		struct need c = { 0 };

		for (j = 0; j < r->nvals; j++)
			if (!strcmp(r->vals[j], name))
				break;
		if (j == r->nvals)
			continue;
		if (is_link_base(r->base))
			need_dir(dir, &c, depth + 1);
		else
			need_composite(dir, r->base, &c, depth + 1);
		if (c.found)
			need_add(&c, r->sym, r->nsym);
		need_pick(out, &c);
	}
	if (!out->found && !out->why)
		out->why = xasprintf("no kbuild rule in %s names %s",
				     *dir ? dir : "the top Makefile", name);
}

/* Which symbols make kbuild descend into DIR: its parents' lines. */
static void need_dir(const char *dir, struct need *out, int depth)
{
	size_t len = strlen(dir);
	char *anc = xstrdup(dir), *slash;

	memset(out, 0, sizeof(*out));
	if (!len) {
		out->found = 1;
		free(anc);
		return;
	}
	/* The nearest ancestor whose Makefile names the rest of the path. */
	for (;;) {
		char *member;
		struct need c;

		slash = strrchr(anc, '/');
		if (slash)
			*slash = '\0';
		else
			anc[0] = '\0';
		member = xasprintf("%s/", dir + (*anc ? strlen(anc) + 1 : 0));
		need_member(anc, member, &c, depth);
		free(member);
		if (c.found) {
			need_free(out);
			*out = c;
			break;
		}
		need_free(&c);
		if (!*anc)
			break;
	}
	if (!out->found)
		out->why = xasprintf("no Makefile above %s descends into it",
				     dir);
	free(anc);
}

/* A file that is #included by another .c of its directory: that one. */
static char *includer(const char *file)
{
	const char *slash = strrchr(file, '/');
	char *dir = slash ? xstrndup(file, slash - file) : xstrdup(".");
	char *path = tree_file(dir), *found = NULL, *pat;
	struct dirent *e;
	DIR *d = opendir(path);

	pat = xasprintf("#include \"%s\"", slash ? slash + 1 : file);
	while (d && !found && (e = readdir(d))) {
		size_t n = strlen(e->d_name), len;
		char *rel, *text;

		if (n < 3 || strcmp(e->d_name + n - 2, ".c"))
			continue;
		rel = xasprintf("%s/%s", dir, e->d_name);
		if (strcmp(rel, file)) {
			char *p = tree_file(rel);

			text = read_file(p, &len);
			free(p);
			if (text && strstr(text, pat))
				found = xstrdup(rel);
			free(text);
		}
		free(rel);
	}
	if (d)
		closedir(d);
	free(pat);
	free(path);
	free(dir);
	return found;
}

void need_file(const char *file, struct need *out)
{
	const char *slash = strrchr(file, '/');
	char *dir = slash ? xstrndup(file, slash - file) : xstrdup("");
	const char *base = slash ? slash + 1 : file;
	size_t n = strlen(base);
	char *obj, *inc;

	if (n > 2 && (!strcmp(base + n - 2, ".c") ||
		      !strcmp(base + n - 2, ".S")))
		obj = xasprintf("%.*s.o", (int)(n - 2), base);
	else
		obj = xasprintf("%s.o", base);
	need_member(dir, obj, out, 0);
	/* A composite or obj line in a parent: obj-y += sub/f.o */
	if (!out->found && slash) {
		char *anc = xstrdup(dir), *s;

		while (!out->found && (s = strrchr(anc, '/'))) {
			struct need c;
			char *m;

			*s = '\0';
			m = xasprintf("%s/%s", dir + strlen(anc) + 1, obj);
			need_member(anc, m, &c, 0);
			free(m);
			if (c.found) {
				need_free(out);
				*out = c;
			} else {
				need_free(&c);
			}
		}
		free(anc);
	}
	inc = out->found ? NULL : includer(file);
	if (inc) {
		struct need c;

		need_file(inc, &c);
		if (c.found) {
			need_free(out);
			*out = c;
		} else {
			need_free(&c);
		}
		free(inc);
	}
	free(obj);
	free(dir);
}

