// SPDX-License-Identifier: GPL-2.0
/*
 * cover-need.c - cover-plan's resolution of a file: the obj- lines,
 * composite objects and the directory chain that compile it, from the
 * rules cover-kbuild.c read (see cover-plan.c).
 *
 * When a file's own directory chain does not compile it, every kbuild
 * file of the tree is read once for members that name it from another
 * directory (kvm-y := $(KVM)/kvm_main.o in arch/x86/kvm).  Each
 * (directory, member) is resolved once and then remembered, and one that
 * is asked for while it is being resolved (composites that name each
 * other) resolves to nothing: the time is linear in the rules, whatever
 * they name.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "strtab.h"
#include "cover.h"
#include "cover-kbuild.h"

#define MAX_INCLUDERS 8		/* a .c #included by a .c #included by ... */

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
