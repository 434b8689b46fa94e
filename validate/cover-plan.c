// SPDX-License-Identifier: GPL-2.0
/*
 * cover-plan.c - the build-need resolver: which config symbols compile the
 * file of each ro_after_init candidate, and whether Kconfig lets an x86
 * build have them.
 *
 * The kbuild side is read here: the obj-$(CONFIG_X) line that names the
 * object, composite objects (foo-y, foo-objs, foo-$(CONFIG_Y)), and the
 * directory chain up to the top-level lists.  The Kconfig side is left to
 * the tree's own tools: scripts/config enables the symbols in a copy of
 * the base .config, make olddefconfig resolves them, and each symbol is
 * checked in the .config it leaves.  Nothing is written inside the tree.
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
#include "evidence.h"
#include "strtab.h"
#include "tsv.h"

#define ARCH "x86"
#define MAX_DEPTH 16
#define CONFIG_BATCH 100	/* symbols per scripts/config call */

/* ---- symbols: Kconfig facts and .config values ---------------------- */

enum sym_type { T_UNKNOWN, T_BOOL, T_TRISTATE, T_OTHER };

struct sym {
	enum sym_type type;
	int other_arch;		/* defined only under arch/OTHER so far */
	int prompt;		/* the primary definition has a prompt */
	int choice;		/* a member of a choice */
	char *where;		/* FILE:LINE of the primary definition */
	char *depends;		/* its depends on / if / menu lines, or NULL */
	char base;		/* value in the base .config: y, m, or 0 */
	char now;		/* value after olddefconfig */
	int need;		/* wanted by a buildable-so-far file */
	uint32_t sel[8];	/* symbols that select it */
	size_t nsel;
};

static struct strtab names;
static struct sym *syms;
static size_t syms_cap;

static uint32_t sym_id(const char *name)
{
	uint32_t id = strtab_intern(&names, name);

	if (id >= syms_cap) {
		size_t cap = syms_cap ? syms_cap * 2 : 4096;

		while (cap <= id)
			cap *= 2;
		syms = xrealloc(syms, cap * sizeof(*syms));
		memset(syms + syms_cap, 0, (cap - syms_cap) * sizeof(*syms));
		syms_cap = cap;
	}
	return id;
}

/* ---- small helpers ------------------------------------------------- */

static const char *tree;

static char *tree_file(const char *rel)
{
	return xasprintf("%s/%s", tree, rel);
}

static int exists(const char *rel)
{
	struct stat st;
	char *p = tree_file(rel);
	int ok = stat(p, &st) == 0 && S_ISREG(st.st_mode);

	free(p);
	return ok;
}

static char *skip_ws(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static void rtrim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
}

/* S with the first FROM replaced by TO, newly allocated. */
static char *subst(const char *s, const char *from, const char *to)
{
	const char *p = strstr(s, from);

	if (!p)
		return xstrdup(s);
	return xasprintf("%.*s%s%s", (int)(p - s), s, to, p + strlen(from));
}

/* Append the CONFIG_ symbols named in S to IDS (without the prefix). */
static size_t config_syms(const char *s, uint32_t *ids, size_t n, size_t max)
{
	const char *p = s;
	char name[128];

	while ((p = strstr(p, "CONFIG_"))) {
		size_t len = 0;

		p += strlen("CONFIG_");
		while (is_ident_char((unsigned char)p[len]) &&
		       len < sizeof(name) - 1) {
			name[len] = p[len];
			len++;
		}
		name[len] = '\0';
		p += len;
		if (len && n < max)
			ids[n++] = sym_id(name);
	}
	return n;
}

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

/* A resolution: the symbols that compile a target, or why none do. */
struct need {
	int found;
	uint32_t sym[64];
	size_t nsym;
	char *why;		/* when !found */
};

static void need_add(struct need *n, const uint32_t *ids, size_t k)
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

static void need_free(struct need *n)
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

static void need_file(const char *file, struct need *out)
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

/* ---- Kconfig: types and depends ------------------------------------ */

static int in_other_arch(const char *rel, char *arch, size_t archsz)
{
	const char *p;

	if (strncmp(rel, "arch/", 5))
		return 0;
	p = strchr(rel + 5, '/');
	if (!p || (size_t)(p - rel - 5) >= archsz)
		return 0;
	memcpy(arch, rel + 5, p - rel - 5);
	arch[p - rel - 5] = '\0';
	return strcmp(arch, ARCH) != 0;
}

static size_t indent_of(const char *s)
{
	size_t w = 0;

	for (; *s == ' ' || *s == '\t'; s++)
		w = *s == '\t' ? (w / 8 + 1) * 8 : w + 1;
	return w;
}

#define MAX_NEST 32

static void parse_kconfig(const char *rel)
{
	char *path = tree_file(rel), *text, *line, *next;
	char *stack[MAX_NEST];	/* if/menu conditions, NULL for none */
	int kind[MAX_NEST];	/* 'i' if, 'm' menu, 'c' choice */
	int nst = 0, lineno = 0, help = -1, other;
	struct sb dep;
	uint32_t cur = STR_NONE;
	char arch[64];
	size_t len;

	other = in_other_arch(rel, arch, sizeof(arch));
	text = read_file(path, &len);
	if (!text)
		die(RC_HOST, "%s: %s", path, strerror(errno));
	sb_init(&dep);
	for (line = text; line && *line; line = next) {
		char *s;
		size_t ind;
		struct sym *y = cur == STR_NONE ? NULL : &syms[cur];

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		ind = indent_of(line);
		s = skip_ws(line);
		rtrim(s);
		if (help >= 0) {
			if (!*s || ind > (size_t)help)
				continue;
			help = -1;
		}
		if (!*s || *s == '#')
			continue;
		if (!strncmp(s, "help", 4) || !strncmp(s, "---help---", 10)) {
			help = ind;
			continue;
		}
		if (!strncmp(s, "config ", 7) || !strncmp(s, "menuconfig ", 11)) {
			const char *n = skip_ws(strchr(s, ' '));
			int i;

			cur = sym_id(n);
			y = &syms[cur];
			if (y->where && (other || !y->other_arch)) {
				cur = STR_NONE;	/* keep the first definition */
				continue;
			}
			free(y->where);
			free(y->depends);
			y->where = xasprintf("%s:%d", rel, lineno);
			y->other_arch = other;
			y->type = T_UNKNOWN;
			y->prompt = 0;
			y->choice = 0;
			sb_init(&dep);
			for (i = 0; i < nst; i++)
				y->choice |= kind[i] == 'c';
			for (i = 0; i < nst; i++)
				if (stack[i])
					sb_addf(&dep, "%s%s %s",
						dep.len ? "; " : "",
						kind[i] == 'i' ? "if" : "menu depends on",
						stack[i]);
			y->depends = dep.len ? xstrdup(dep.buf) : NULL;
			sb_free(&dep);
			continue;
		}
		if (!strncmp(s, "if ", 3) || !strcmp(s, "menu") ||
		    !strncmp(s, "menu ", 5) || !strncmp(s, "choice", 6)) {
			if (nst < MAX_NEST) {
				kind[nst] = s[0] == 'i' ? 'i' :
					    s[0] == 'm' ? 'm' : 'c';
				stack[nst++] = s[0] == 'i' ?
					xstrdup(skip_ws(s + 2)) : NULL;
			}
			cur = STR_NONE;
			continue;
		}
		if (!strcmp(s, "endif") || !strcmp(s, "endmenu") ||
		    !strcmp(s, "endchoice")) {
			if (nst)
				free(stack[--nst]);
			cur = STR_NONE;
			continue;
		}
		if (!strncmp(s, "source ", 7) || !strncmp(s, "comment ", 8) ||
		    !strncmp(s, "mainmenu ", 9)) {
			cur = STR_NONE;
			continue;
		}
		if (y && !strncmp(s, "select ", 7)) {
			char *e = skip_ws(s + 7), *sp = strpbrk(e, " \t");
			uint32_t id;

			if (sp)
				*sp = '\0';
			id = sym_id(e);	/* may move syms[] */
			if (syms[id].nsel < ARRAY_SIZE(syms[id].sel))
				syms[id].sel[syms[id].nsel++] = cur;
			continue;
		}
		if (!strncmp(s, "depends on", 10)) {
			const char *e = skip_ws(s + 10);

			if (y) {
				char *d = y->depends ?
					xasprintf("%s; depends on %s",
						  y->depends, e) :
					xasprintf("depends on %s", e);

				free(y->depends);
				y->depends = d;
			} else if (nst && kind[nst - 1] != 'i') {
				char *d = stack[nst - 1] ?
					xasprintf("%s && %s",
						  stack[nst - 1], e) :
					xstrdup(e);

				free(stack[nst - 1]);
				stack[nst - 1] = d;
			}
			continue;
		}
		if (!y)
			continue;
		if (!strncmp(s, "tristate", 8) || !strncmp(s, "def_tristate", 12))
			y->type = T_TRISTATE;
		else if (!strncmp(s, "bool", 4) || !strncmp(s, "def_bool", 8))
			y->type = T_BOOL;
		else if (!strncmp(s, "string", 6) || !strncmp(s, "int", 3) ||
			 !strncmp(s, "hex", 3))
			y->type = T_OTHER;
		if ((!strncmp(s, "tristate", 8) || !strncmp(s, "bool", 4) ||
		     !strncmp(s, "prompt", 6)) && strchr(s, '"'))
			y->prompt = 1;
	}
	while (nst)
		free(stack[--nst]);
	free(text);
	free(path);
}

static size_t tree_len;

static int kconfig_walk(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	const char *base = path + ftw->base;

	(void)st;
	if (flag == FTW_D && (!strcmp(base, ".git") ||
			      !strcmp(base, "Documentation")))
		return FTW_SKIP_SUBTREE;
	if (flag == FTW_F && !strncmp(base, "Kconfig", 7))
		parse_kconfig(path + tree_len + 1);
	return FTW_CONTINUE;
}

static void load_kconfig(void)
{
	tree_len = strlen(tree);
	if (nftw(tree, kconfig_walk, 32, FTW_PHYS | FTW_ACTIONRETVAL) < 0)
		die(RC_HOST, "%s: walking the Kconfig files: %s", tree,
		    strerror(errno));
}

/* Read PATH's CONFIG_X=y/m values into the base (or now) field. */
static void load_config(const char *path, int now)
{
	size_t len;
	char *text = read_file(path, &len), *line, *next;

	if (!text)
		die(RC_HOST, "%s: %s", path, strerror(errno));
	for (line = text; line && *line; line = next) {
		char *eq;
		uint32_t id;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (strncmp(line, "CONFIG_", 7))
			continue;
		eq = strchr(line, '=');
		if (!eq || (strcmp(eq, "=y") && strcmp(eq, "=m")))
			continue;
		*eq = '\0';
		id = sym_id(line + 7);
		if (now)
			syms[id].now = eq[1];
		else
			syms[id].base = eq[1];
	}
	free(text);
}

/* Where a symbol is defined: its Kconfig file, without the line. */
static int same_kconfig(const struct sym *a, const struct sym *b)
{
	const char *ca = strrchr(a->where, ':'), *cb = strrchr(b->where, ':');

	return ca - a->where == cb - b->where &&
	       !strncmp(a->where, b->where, ca - a->where);
}

/*
 * A symbol without a prompt cannot be set; only a select turns it on.
 * For each such symbol N needs that the base lacks, add one symbol that
 * selects it: one with a prompt, not of another arch, preferably from
 * the same Kconfig file.
 */
static void add_selectors(struct need *n)
{
	size_t i, j, k = n->nsym;

	for (i = 0; i < k; i++) {
		const struct sym *y = &syms[n->sym[i]];
		uint32_t best = STR_NONE;

		if (y->prompt || y->base || !y->where)
			continue;
		for (j = 0; j < y->nsel; j++) {
			const struct sym *s = &syms[y->sel[j]];

			if (!s->prompt || s->other_arch || !s->where)
				continue;
			if (best == STR_NONE ||
			    (same_kconfig(s, y) && !same_kconfig(&syms[best], y)))
				best = y->sel[j];
		}
		if (best != STR_NONE)
			need_add(n, &best, 1);
	}
}

/* ---- the tools ----------------------------------------------------- */

/* Run ARGV with its stdout on our stderr; die unless it exits 0. */
static void run(char **argv)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die(RC_HOST, "fork: %s", strerror(errno));
	if (!pid) {
		dup2(STDERR_FILENO, STDOUT_FILENO);
		unsetenv("MAKEFLAGS");
		unsetenv("MFLAGS");
		unsetenv("MAKELEVEL");
		execvp(argv[0], argv);
		fprintf(stderr, "%s: %s: %s\n", prog_name, argv[0],
			strerror(errno));
		_exit(RC_HOST);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die(RC_HOST, "waitpid: %s", strerror(errno));
	if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT ||
				    WTERMSIG(status) == SIGTERM))
		die(RC_INTR, "%s: interrupted", argv[0]);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		die(RC_HOST, "%s %s failed (status %d)", argv[0],
		    argv[1] ? argv[1] : "", status);
}

/* make olddefconfig in SCRATCH, a build directory of the tree. */
static void olddefconfig(const char *scratch)
{
	char *argv[7];

	argv[0] = "make";
	argv[1] = "-s";
	argv[2] = "-C";
	argv[3] = (char *)tree;
	argv[4] = xasprintf("O=%s", scratch);
	argv[5] = "olddefconfig";
	argv[6] = NULL;
	run(argv);
	free(argv[4]);
}

/* ---- main ---------------------------------------------------------- */

enum state { S_BUILDABLE, S_OTHER_ARCH, S_UNMET };

static const char *const state_names[] = {
	"buildable", "other-arch", "unmet",
};

struct file {
	char *path;
	struct need need;
	enum state state;
	char *detail;
};

static const char usage_text[] =
	"usage: cover-plan --candidates FILE --tree TREE --config BASE_CONFIG --out DIR\n"
	"\n"
	"For the file of each ro_after_init row of FILE (candidates.tsv), find\n"
	"the config symbols that compile it (its obj-$(CONFIG_X) line, composite\n"
	"objects, the directory chain), enable them in a copy of BASE_CONFIG in\n"
	"DIR/kconfig with TREE's scripts/config (tristate =m, bool =y), resolve\n"
	"with make olddefconfig, and check which stuck.  Writes DIR/plan.tsv\n"
	"(file symbols state detail; FORMATS.md) and DIR/cover.config (the\n"
	"symbols the buildable files add to BASE_CONFIG), and prints a summary.\n"
	"Nothing is written inside TREE.\n"
	"\n"
	"Exit: 0 done, 64 usage, 65 bad candidates or tree, 70 a tool or I/O.\n";

static const char *const classes[] = {
	"ro_after_init", "const", "rejected", "already", "skip",
};

static struct file *read_candidates(const char *path, size_t *nfiles)
{
	struct file *files = NULL;
	struct strtab seen;
	struct tsv t;
	int cfile, cclass, rc;
	size_t n = 0;

	if (tsv_open(&t, path, 0) < 0)
		exit(t.sys_errno ? RC_HOST : RC_DATA);
	cfile = tsv_need(&t, "file");
	cclass = tsv_need(&t, "class");
	if (cfile < 0 || cclass < 0)
		exit(RC_DATA);
	strtab_init(&seen);
	while ((rc = tsv_next(&t)) > 0) {
		const char *f = t.field[cfile];

		if (tsv_path(&t, cfile) < 0)
			exit(RC_DATA);
		rc = tsv_enum(&t, cclass, classes, ARRAY_SIZE(classes));
		if (rc < 0)
			exit(RC_DATA);
		if (rc != 0 || strtab_find(&seen, f) != STR_NONE)
			continue;
		strtab_intern(&seen, f);
		files = xrealloc(files, (n + 1) * sizeof(*files));
		memset(&files[n], 0, sizeof(*files));
		files[n++].path = xstrdup(f);
	}
	if (rc < 0)
		exit(t.sys_errno ? RC_HOST : RC_DATA);
	tsv_close(&t);
	strtab_free(&seen);
	*nfiles = n;
	return files;
}

static void syms_list(struct sb *s, const struct need *n)
{
	size_t i;

	if (!n->nsym)
		sb_add(s, "-");
	for (i = 0; i < n->nsym; i++)
		sb_addf(s, "%sCONFIG_%s", i ? "," : "",
			strtab_str(&names, n->sym[i]));
}

/* The detail of a buildable file: what it adds to the base .config. */
static char *added(const struct need *n)
{
	struct sb s;
	size_t i;

	sb_init(&s);
	for (i = 0; i < n->nsym; i++)
		if (!syms[n->sym[i]].base)
			sb_addf(&s, "%sCONFIG_%s=%c", s.len ? "," : "adds ",
				strtab_str(&names, n->sym[i]),
				syms[n->sym[i]].now);
	if (!s.len)
		sb_add(&s, "in the base .config");
	return s.buf;
}

static void write_out(const char *path, struct sb *s)
{
	if (write_file_atomic(path, s->buf, s->len) < 0)
		die(RC_HOST, "%s: %s", path, strerror(errno));
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "candidates", required_argument, NULL, 'c' },
		{ "tree", required_argument, NULL, 't' },
		{ "config", required_argument, NULL, 'b' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cand = NULL, *base = NULL, *out = NULL;
	char *scratch, *cfg, *text, **args, *p;
	size_t nfiles, i, j, nargs = 0, len, count[3] = { 0 }, nfrag = 0;
	struct file *files;
	struct sb plan, frag;
	int c;

	prog_name = "cover-plan";
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			cand = optarg;
			break;
		case 't':
			tree = optarg;
			break;
		case 'b':
			base = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return RC_OK;
		default:
			fputs(usage_text, stderr);
			return RC_USAGE;
		}
	}
	if (optind < argc || !cand || !tree || !base || !out) {
		fputs(usage_text, stderr);
		return RC_USAGE;
	}
	p = tree_file("scripts/config");
	if (access(p, X_OK) || !exists("Kconfig") || !exists("Kbuild"))
		die(RC_DATA, "%s: not a kernel tree", tree);
	free(p);

	strtab_init(&names);
	files = read_candidates(cand, &nfiles);
	load_config(base, 0);
	load_kconfig();

	/* The kbuild side. */
	for (i = 0; i < nfiles; i++) {
		struct file *f = &files[i];
		char arch[64];

		if (in_other_arch(f->path, arch, sizeof(arch))) {
			f->state = S_OTHER_ARCH;
			f->detail = xstrdup(arch);
			continue;
		}
		if (!exists(f->path)) {
			f->state = S_UNMET;
			f->detail = xasprintf("%s is not in the tree", f->path);
			continue;
		}
		if (strlen(f->path) > 2 &&
		    !strcmp(f->path + strlen(f->path) - 2, ".h")) {
			f->state = S_UNMET;
			f->detail = xstrdup("a header: no object of its own; it is compiled where it is included");
			continue;
		}
		need_file(f->path, &f->need);
		if (!f->need.found) {
			f->state = S_UNMET;
			f->detail = xstrdup(f->need.why);
			continue;
		}
		add_selectors(&f->need);
		for (j = 0; j < f->need.nsym; j++)
			syms[f->need.sym[j]].need = 1;
	}

	/* The Kconfig side: scripts/config, then olddefconfig. */
	scratch = xasprintf("%s/kconfig", out);
	if (mkdirs(scratch) < 0)
		die(RC_HOST, "%s: %s", scratch, strerror(errno));
	cfg = xasprintf("%s/.config", scratch);
	text = read_file(base, &len);
	if (!text || write_file_atomic(cfg, text, len) < 0)
		die(RC_HOST, "%s: %s", text ? cfg : base, strerror(errno));
	free(text);
	/*
	 * scripts/config shifts through its arguments, so its time grows with
	 * their square: call it for CONFIG_BATCH symbols at a time.
	 */
	args = xcalloc(2 * CONFIG_BATCH + 8, sizeof(char *));
	args[nargs++] = tree_file("scripts/config");
	args[nargs++] = "--file";
	args[nargs++] = cfg;
	for (i = 0; i < names.n; i++) {
		struct sym *y = &syms[i];

		/* A choice member would change the base's choice: leave it. */
		if (!y->need || y->base || y->choice)
			continue;
		args[nargs++] = y->type == T_TRISTATE ? "--module" : "--enable";
		args[nargs++] = names.strs[i];
		if (nargs >= 3 + 2 * CONFIG_BATCH) {
			args[nargs] = NULL;
			run(args);
			nargs = 3;
		}
	}
	args[nargs] = NULL;
	if (nargs > 3)
		run(args);
	free(args[0]);
	free(args);
	olddefconfig(scratch);
	load_config(cfg, 1);

	/* The plan. */
	sb_init(&plan);
	sb_add(&plan, "file\tsymbols\tstate\tdetail\n");
	for (i = 0; i < nfiles; i++) {
		struct file *f = &files[i];

		/* Name a symbol with a prompt first: a select follows it. */
		for (j = 0; f->need.found && j < 2 * f->need.nsym; j++) {
			uint32_t id = f->need.sym[j % f->need.nsym];
			struct sym *y = &syms[id];

			if (y->now || (j < f->need.nsym && !y->prompt))
				continue;
			f->state = S_UNMET;
			if (!y->where)
				f->detail = xasprintf("CONFIG_%s did not stick: no Kconfig defines it",
						      names.strs[id]);
			else if (y->choice)
				f->detail = xasprintf("CONFIG_%s is not set: %s: a member of a choice, and the base chose another",
						      names.strs[id], y->where);
			else
				f->detail = xasprintf("CONFIG_%s did not stick: %s: %s%s",
						      names.strs[id],
						      y->where,
						      y->depends ? y->depends :
						      "no depends on",
						      y->prompt ? "" :
						      " (no prompt: only a select sets it)");
			break;
		}
		if (f->need.found && f->state == S_BUILDABLE)
			f->detail = added(&f->need);
		count[f->state]++;
		sb_addf(&plan, "%s\t", f->path);
		syms_list(&plan, &f->need);
		p = ev_one_line(f->detail, 900);
		sb_addf(&plan, "\t%s\t%s\n", state_names[f->state], p);
		free(p);
	}
	p = xasprintf("%s/plan.tsv", out);
	write_out(p, &plan);
	free(p);

	/* The fragment: what the buildable files add to the base. */
	for (i = 0; i < names.n; i++)
		syms[i].need = 0;
	for (i = 0; i < nfiles; i++)
		for (j = 0; files[i].state == S_BUILDABLE &&
		     j < files[i].need.nsym; j++)
			syms[files[i].need.sym[j]].need = 1;
	sb_init(&frag);
	for (i = 0; i < names.n; i++) {
		if (!syms[i].need || syms[i].base)
			continue;
		sb_addf(&frag, "CONFIG_%s=%c\n", names.strs[i], syms[i].now);
		nfrag++;
	}
	p = xasprintf("%s/cover.config", out);
	write_out(p, &frag);
	free(p);

	printf("cover-plan: %zu files: %zu buildable, %zu other-arch, %zu unmet; fragment %zu symbols\n",
	       nfiles, count[S_BUILDABLE], count[S_OTHER_ARCH],
	       count[S_UNMET], nfrag);
	return RC_OK;
}
