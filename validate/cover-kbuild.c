// SPDX-License-Identifier: GPL-2.0
/*
 * cover-kbuild.c - cover-plan's kbuild side: the obj- lines, composite
 * objects and the directory chain that compile a file (see cover-plan.c).
 *
 * A kbuild file's include lines are followed (arch/x86/kvm/Makefile
 * includes virt/kvm/Makefile.kvm), and its plain variables are expanded
 * in its lists (kvm-y := $(KVM)/kvm_main.o).  A member that names a file
 * of another directory (../../../virt/kvm/kvm_main.o, $(srctree)/...) is
 * found from that file's side too: when a file's own directory chain
 * does not compile it, every kbuild file of the tree is read once for
 * such members.  Each (directory, member) is resolved once and then
 * remembered, and one that is asked for while it is being resolved
 * (composites that name each other) resolves to nothing: the time is
 * linear in the rules, whatever they name.
 */
#include <errno.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "base.h"
#include "strtab.h"
#include "cover.h"

/* ---- kbuild: the Makefiles ----------------------------------------- */

#define MAX_SYMS 16
#define MAX_INCLUDE 8		/* include lines nested in kbuild files */
#define MAX_INCLUDERS 8		/* a .c #included by a .c #included by ... */

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
	char **vname, **vval;	/* its plain variables (KVM ?= ...) */
	size_t nvars;
};

static struct strtab mkdir_ids;
static struct mkdir **mkdirs_tab;
static size_t mkdirs_cap;

/* A member of DIR's lists that names a file elsewhere: PATH in the tree. */
struct foreign {
	char *path;		/* "virt/kvm/kvm_main.o" */
	char *dir;		/* "arch/x86/kvm" */
	char *val;		/* "../../../virt/kvm/kvm_main.o" */
};

static struct foreign *foreigns;
static size_t nforeigns;

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

static int is_var_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!is_ident_char((unsigned char)*s))
			return 0;
	return 1;
}

static ssize_t var_find(const struct mkdir *m, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < m->nvars; i++)
		if (strlen(m->vname[i]) == len &&
		    !strncmp(m->vname[i], name, len))
			return i;
	return -1;
}

/*
 * S with $(SRCARCH), $(BITS) and DIR's plain variables expanded, a few
 * levels deep; what it does not know stays as written.
 */
static char *expand(const struct mkdir *m, const char *s)
{
	char *r = subst(s, "$(SRCARCH)", ARCH), *t;
	int pass;

	for (pass = 0; pass < 8; pass++) {
		struct sb b;
		const char *p, *q;
		int changed = 0;

		t = subst(r, "$(BITS)", "64");
		free(r);
		r = t;
		sb_init(&b);
		for (p = r; *p; p = q) {
			const char *e;
			ssize_t v;

			q = strstr(p, "$(");
			if (!q) {
				sb_add(&b, p);
				break;
			}
			sb_addn(&b, p, q - p);
			e = strchr(q + 2, ')');
			v = e ? var_find(m, q + 2, e - q - 2) : -1;
			if (v < 0) {
				sb_add(&b, "$(");
				q += 2;
				continue;
			}
			sb_add(&b, m->vval[v]);
			q = e + 1;
			changed = 1;
		}
		free(r);
		r = b.buf;
		if (!changed)
			break;
	}
	return r;
}

/* NAME OP VALUE, a plain variable of M: =, :=, ::=, ?= and +=. */
static void var_set(struct mkdir *m, const char *name, char op,
		    const char *val)
{
	ssize_t v = var_find(m, name, strlen(name));
	char *x = expand(m, val);

	if (v >= 0) {
		char *old = m->vval[v];

		if (op == '?') {
			free(x);
			return;
		}
		m->vval[v] = op == '+' ? xasprintf("%s %s", old, x) :
			     xstrdup(x);
		free(old);
		free(x);
		return;
	}
	m->vname = xrealloc(m->vname, (m->nvars + 1) * sizeof(char *));
	m->vval = xrealloc(m->vval, (m->nvars + 1) * sizeof(char *));
	m->vname[m->nvars] = xstrdup(name);
	m->vval[m->nvars++] = x;
}

/* PATH with "." and ".." resolved; NULL if it climbs out of the tree. */
char *path_collapse(const char *path)
{
	char *s = xstrdup(path), *out = xcalloc(1, strlen(path) + 1);
	char *tok, *save;
	size_t n = 0;

	for (tok = strtok_r(s, "/", &save); tok;
	     tok = strtok_r(NULL, "/", &save)) {
		if (!strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..")) {
			char *sl;

			if (!n) {
				free(s);
				free(out);
				return NULL;
			}
			sl = strrchr(out, '/');
			n = sl ? (size_t)(sl - out) : 0;
			out[n] = '\0';
			continue;
		}
		n += sprintf(out + n, "%s%s", n ? "/" : "", tok);
	}
	free(s);
	return out;
}

/*
 * A member V of DIR's lists, as the rules keep it: $(obj)/f.o is f.o.
 * One that names a file outside DIR ($(srctree)/x/f.o, ../x/f.o) stays
 * as written, and goes into the foreign table under its tree path.
 */
static char *member_val(const char *dir, char *v)
{
	static const char *const here[] = { "$(obj)/", "$(src)/" };
	static const char *const top[] = { "$(srctree)/", "$(objtree)/" };
	size_t i, dl = strlen(dir), n = strlen(v);
	char *path = NULL, *j;

	for (i = 0; i < ARRAY_SIZE(here); i++)
		if (!strncmp(v, here[i], strlen(here[i])))
			memmove(v, v + strlen(here[i]),
				strlen(v + strlen(here[i])) + 1);
	for (i = 0; i < ARRAY_SIZE(top); i++)
		if (!strncmp(v, top[i], strlen(top[i])))
			path = path_collapse(v + strlen(top[i]));
	if (!path && (!strncmp(v, "./", 2) || !strncmp(v, "../", 3) ||
		      strstr(v, "/../") || strstr(v, "/./"))) {
		j = xasprintf("%s%s%s", dir, *dir ? "/" : "", v);
		path = path_collapse(j);
		free(j);
	}
	if (!path || strstr(path, "$("))
		goto out;
	if (!strncmp(path, dir, dl) && (!dl || path[dl] == '/')) {
		/* inside DIR after all: the rest of the path */
		memmove(v, path + dl + !!dl, strlen(path + dl + !!dl) + 1);
		goto out;
	}
	n = strlen(path);
	if (n > 2 && !strcmp(path + n - 2, ".o")) {
		foreigns = xrealloc(foreigns,
				    (nforeigns + 1) * sizeof(*foreigns));
		foreigns[nforeigns].path = path;
		foreigns[nforeigns].dir = xstrdup(dir);
		foreigns[nforeigns++].val = xstrdup(v);
		return v;
	}
out:
	free(path);
	return v;
}

static void parse_makefile(struct mkdir *m, const char *rel, int depth);

/*
 * An include line of REL (include, -include, sinclude): each file it
 * names, read into M as if it stood there.  Paths are the tree's
 * ($(srctree)/...); a file that is not there (a generated one) is
 * skipped, as -include would.
 */
static void include_line(struct mkdir *m, const char *rel, int lineno,
			 const char *files, int depth)
{
	char *s = expand(m, files), *tok, *save;

	for (tok = strtok_r(s, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		char *f = tok, *c;

		if (!strncmp(f, "$(srctree)/", 11))
			f += 11;
		if (strstr(f, "$(") || *f == '/')
			continue;
		c = path_collapse(f);
		if (c && exists(c)) {
			if (depth >= MAX_INCLUDE)
				warnx("%s:%d: include %s: kbuild files include each other more than %d deep; not followed",
				      rel, lineno, c, MAX_INCLUDE);
			else
				parse_makefile(m, c, depth + 1);
		}
		free(c);
	}
	free(s);
}

static void parse_makefile(struct mkdir *m, const char *rel, int depth)
{
	char *path = tree_file(rel), *text, *line, *next, *p;
	uint32_t ifs[MAX_SYMS];
	int nif = 0, skipped = 0, lineno = 0;
	size_t len;

	text = read_file(path, &len);
	if (!text)
		die(RC_HOST, "%s: %s", path, strerror(errno));
	/* Join continuation lines (counted: FILE:LINE stays right). */
	for (line = text; line && *line; line = next) {
		char *op, *lhs, *tok, *save, *rhs;
		struct rule r = { 0 };
		size_t i;

		next = line;
		for (;;) {
			next = strchr(next, '\n');
			lineno++;
			if (!next || next == line || next[-1] != '\\')
				break;
			next[-1] = next[0] = ' ';
		}
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
		for (i = 0; i < 3; i++) {
			static const char *const inc[] = {
				"include", "-include", "sinclude",
			};
			size_t k = strlen(inc[i]);

			if (!strncmp(line, inc[i], k) &&
			    (line[k] == ' ' || line[k] == '\t'))
				break;
		}
		if (i < 3) {
			include_line(m, rel, lineno, strpbrk(line, " \t"),
				     depth);
			continue;
		}
		op = strchr(line, '=');
		if (!op || op == line)
			continue;
		p = op;
		if (p[-1] == '+' || p[-1] == ':' || p[-1] == '?')
			p--;
		if (p > line && p[0] == ':' && p[-1] == ':')
			p--;		/* ::= */
		lhs = xstrndup(line, p - line);
		rtrim(lhs);
		r.base = rule_base(lhs);
		if (!r.base) {
			if (is_var_name(lhs))
				var_set(m, lhs, *p, skip_ws(op + 1));
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
		rhs = expand(m, op + 1);
		for (tok = strtok_r(rhs, " \t", &save); tok;
		     tok = strtok_r(NULL, " \t", &save)) {
			char *v = member_val(m->dir, xstrdup(tok));

			r.vals = xrealloc(r.vals, (r.nvals + 1) * sizeof(char *));
			r.vals[r.nvals++] = v;
		}
		free(rhs);
		m->rules = xrealloc(m->rules,
				    (m->nrules + 1) * sizeof(*m->rules));
		m->rules[m->nrules++] = r;
	}
	free(text);
	free(path);
}

/* The rules of directory DIR: its Kbuild, else its Makefile. */
static struct mkdir *get_mkdir(const char *dir)
{
	struct mkdir *m;
	uint32_t id;
	char *rel;

	if (!mkdir_ids.slots)
		strtab_init(&mkdir_ids);
	id = strtab_find(&mkdir_ids, dir);
	if (id != STR_NONE)
		return mkdirs_tab[id];
	id = strtab_intern(&mkdir_ids, dir);
	if (id >= mkdirs_cap) {
		mkdirs_cap = mkdirs_cap ? 2 * mkdirs_cap : 256;
		mkdirs_tab = xrealloc(mkdirs_tab,
				      mkdirs_cap * sizeof(*mkdirs_tab));
	}
	m = xcalloc(1, sizeof(*m));
	m->dir = xstrdup(dir);
	mkdirs_tab[id] = m;
	if (!*dir) {
		/* The top: Kbuild, Makefile, and the arch Makefile's lists. */
		parse_makefile(m, "Kbuild", 0);
		parse_makefile(m, "Makefile", 0);
		parse_makefile(m, "arch/" ARCH "/Makefile", 0);
		return m;
	}
	rel = xasprintf("%s/Kbuild", dir);
	if (!exists(rel)) {
		free(rel);
		rel = xasprintf("%s/Makefile", dir);
	}
	if (exists(rel))
		parse_makefile(m, rel, 0);
	free(rel);
	return m;
}

/*
 * The kbuild files of directory REL and below (not Documentation/,
 * tools/ or hidden ones), read for their foreign members.  Directories
 * by readdir's d_type: the tree's 90,000 files are not stat'ed.
 */
static void read_dir_kbuild(const char *rel, int depth)
{
	char *path = tree_file(rel);
	DIR *d = opendir(path);
	struct dirent *e;

	if (!d)
		die(RC_HOST, "%s: %s", path, strerror(errno));
	get_mkdir(rel);
	while ((e = readdir(d))) {
		char *sub;
		int isdir = e->d_type == DT_DIR;

		if (e->d_name[0] == '.' || (e->d_type != DT_DIR &&
					    e->d_type != DT_UNKNOWN))
			continue;
		if (!depth && (!strcmp(e->d_name, "Documentation") ||
			       !strcmp(e->d_name, "tools")))
			continue;
		sub = xasprintf("%s%s%s", rel, *rel ? "/" : "", e->d_name);
		if (e->d_type == DT_UNKNOWN) {
			struct stat st;
			char *p = tree_file(sub);

			isdir = !lstat(p, &st) && S_ISDIR(st.st_mode);
			free(p);
		}
		if (isdir && depth < 64)
			read_dir_kbuild(sub, depth + 1);
		free(sub);
	}
	closedir(d);
	free(path);
}

/* Every kbuild file of the tree, read once for its foreign members. */
static void read_all_kbuild(void)
{
	static int done;

	if (!done)
		read_dir_kbuild("", 0);
	done = 1;
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

static void need_dir(const char *dir, struct need *out);
static void need_member(const char *dir, const char *name, struct need *out);

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
			   struct need *out)
{
	static const char *const forms[] = { "%s.o", "$(%s-y)", "$(%s-objs)" };
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < ARRAY_SIZE(forms); i++) {
		char *name = xasprintf(forms[i], base);
		struct need c;

		need_member(dir, name, &c);
		need_pick(out, &c);
		free(name);
	}
}

/* The resolutions of (directory, member), once each. */
enum { M_NEW, M_BUSY, M_DONE };

static struct strtab memo_ids;
static struct {
	int state;
	struct need need;
} *memo;
static size_t memo_cap;

static void need_copy(struct need *to, const struct need *from)
{
	*to = *from;
	to->why = from->why ? xstrdup(from->why) : NULL;
}

static void need_member_rules(const char *dir, const char *name,
			      struct need *out)
{
	struct mkdir *m = get_mkdir(dir);
	size_t i, j;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < m->nrules; i++) {
		struct rule *r = &m->rules[i];
		struct need c = { 0 };

		for (j = 0; j < r->nvals; j++)
			if (!strcmp(r->vals[j], name))
				break;
		if (j == r->nvals)
			continue;
		if (is_link_base(r->base))
			need_dir(dir, &c);
		else
			need_composite(dir, r->base, &c);
		if (c.found)
			need_add(&c, r->sym, r->nsym);
		need_pick(out, &c);
	}
	if (!out->found && !out->why)
		out->why = xasprintf("no kbuild rule in %s names %s",
				     *dir ? dir : "the top Makefile", name);
}

/*
 * Which symbols compile member NAME ("f.o", "sub/f.o", "dir/") of DIR.
 * A member asked for again while it is being resolved is a cycle of
 * composites: that way resolves to nothing.
 */
static void need_member(const char *dir, const char *name, struct need *out)
{
	char *key = xasprintf("%s\001%s", dir, name);
	uint32_t id;

	if (!memo_ids.slots)
		strtab_init(&memo_ids);
	id = strtab_intern(&memo_ids, key);
	free(key);
	if (id >= memo_cap) {
		size_t cap = memo_cap ? 2 * memo_cap : 1024;

		memo = xrealloc(memo, cap * sizeof(*memo));
		memset(memo + memo_cap, 0, (cap - memo_cap) * sizeof(*memo));
		memo_cap = cap;
	}
	if (memo[id].state == M_BUSY) {
		memset(out, 0, sizeof(*out));
		out->why = xasprintf("%s%skbuild: composites name each other (%s)",
				     dir, *dir ? "/" : "", name);
		return;
	}
	if (memo[id].state == M_NEW) {
		struct need n;

		memo[id].state = M_BUSY;
		need_member_rules(dir, name, &n);
		/* memo may have moved */
		memo[id].need = n;
		memo[id].state = M_DONE;
	}
	need_copy(out, &memo[id].need);
}

/* Which symbols make kbuild descend into DIR: its parents' lines. */
static void need_dir(const char *dir, struct need *out)
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
		need_member(anc, member, &c);
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

/* The member of a foreign list that names OBJ (a tree path), if any. */
static void need_foreign(const char *obj, struct need *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	read_all_kbuild();
	for (i = 0; i < nforeigns; i++) {
		struct need c;

		if (strcmp(foreigns[i].path, obj))
			continue;
		need_member(foreigns[i].dir, foreigns[i].val, &c);
		need_pick(out, &c);
	}
}

/*
 * FILE's resolution; CHAIN[0..NCHAIN) are the files that #include it,
 * which are being resolved already.
 */
static void need_file_in(const char *file, struct need *out,
			 const char **chain, size_t nchain)
{
	const char *slash = strrchr(file, '/');
	char *dir = slash ? xstrndup(file, slash - file) : xstrdup("");
	const char *base = slash ? slash + 1 : file;
	size_t n = strlen(base), i;
	char *obj, *inc, *tobj;

	if (n > 2 && (!strcmp(base + n - 2, ".c") ||
		      !strcmp(base + n - 2, ".S")))
		obj = xasprintf("%.*s.o", (int)(n - 2), base);
	else
		obj = xasprintf("%s.o", base);
	need_member(dir, obj, out);
	/* A composite or obj line in a parent: obj-y += sub/f.o */
	if (!out->found && slash) {
		char *anc = xstrdup(dir), *s;

		while (!out->found && (s = strrchr(anc, '/'))) {
			struct need c;
			char *m;

			*s = '\0';
			m = xasprintf("%s/%s", dir + strlen(anc) + 1, obj);
			need_member(anc, m, &c);
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
	/* A list elsewhere: kvm-y := $(KVM)/kvm_main.o in arch/x86/kvm */
	tobj = xasprintf("%s%s%s", dir, *dir ? "/" : "", obj);
	if (!out->found) {
		struct need c;

		need_foreign(tobj, &c);
		if (c.found) {
			need_free(out);
			*out = c;
		} else {
			need_free(&c);
		}
	}
	free(tobj);
	inc = out->found ? NULL : includer(file);
	for (i = 0; inc && i < nchain; i++)
		if (!strcmp(chain[i], inc))
			break;
	if (inc && (i < nchain || nchain >= MAX_INCLUDERS)) {
		need_free(out);
		out->why = i < nchain ?
			xasprintf("%s is #included by %s, which it #includes in turn: no object compiles them",
				  file, inc) :
			xasprintf("%s: #included through more than %d .c files",
				  file, MAX_INCLUDERS);
	} else if (inc) {
		struct need c;

		chain[nchain] = file;
		need_file_in(inc, &c, chain, nchain + 1);
		if (c.found) {
			need_free(out);
			*out = c;
		} else {
			char *why = xasprintf("%s; it is #included by %s: %s",
					      out->why, inc, c.why);

			need_free(&c);
			need_free(out);
			out->why = why;
		}
	}
	free(inc);
	free(obj);
	free(dir);
}

void need_file(const char *file, struct need *out)
{
	const char *chain[MAX_INCLUDERS + 1];

	need_file_in(file, out, chain, 0);
}
