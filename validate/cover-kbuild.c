// SPDX-License-Identifier: GPL-2.0
/*
 * cover-kbuild.c - cover-plan's kbuild files: each directory's obj- and
 * composite lists, read once (see cover-plan.c; cover-need.c resolves a
 * file with them).
 *
 * A kbuild file's include lines are followed (arch/x86/kvm/Makefile
 * includes virt/kvm/Makefile.kvm), and its plain variables are expanded
 * in its lists (kvm-y := $(KVM)/kvm_main.o).  A member that names a file
 * of another directory (../../../virt/kvm/kvm_main.o, $(srctree)/...)
 * goes into the foreign table under its tree path, for cover-need.c to
 * find from that file's side.
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
#include "cover-kbuild.h"

#define MAX_INCLUDE 8		/* include lines nested in kbuild files */

static struct strtab mkdir_ids;
static struct mkdir **mkdirs_tab;
static size_t mkdirs_cap;

struct foreign *foreigns;
size_t nforeigns;

static const char *const ignored_bases[] = {
	"ccflags", "asflags", "ldflags", "subdir-ccflags", "subdir-asflags",
	"always", "hostprogs", "userprogs", "targets", "clean-files",
	"userccflags", "subdir",
};

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
struct mkdir *get_mkdir(const char *dir)
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
void read_all_kbuild(void)
{
	static int done;

	if (!done)
		read_dir_kbuild("", 0);
	done = 1;
}
