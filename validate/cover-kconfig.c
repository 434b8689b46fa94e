// SPDX-License-Identifier: GPL-2.0
/*
 * cover-kconfig.c - cover-plan's Kconfig side: the symbols, their types
 * and depends, the .config values, and the tree's tools that resolve them
 * (see cover-plan.c).  The dependency closure is in cover-deps.c.
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <glob.h>
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

/* ---- symbols: Kconfig facts and .config values ---------------------- */


struct strtab names;
struct sym *syms;
static size_t syms_cap;

uint32_t sym_id(const char *name)
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

const char *tree;

char *tree_file(const char *rel)
{
	return xasprintf("%s/%s", tree, rel);
}

int exists(const char *rel)
{
	struct stat st;
	char *p = tree_file(rel);
	int ok = stat(p, &st) == 0 && S_ISREG(st.st_mode);

	free(p);
	return ok;
}

char *skip_ws(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

void rtrim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
}

/* S with the first FROM replaced by TO, newly allocated. */
char *subst(const char *s, const char *from, const char *to)
{
	const char *p = strstr(s, from);

	if (!p)
		return xstrdup(s);
	return xasprintf("%.*s%s%s", (int)(p - s), s, to, p + strlen(from));
}

/* Append the CONFIG_ symbols named in S to IDS (without the prefix). */
size_t config_syms(const char *s, uint32_t *ids, size_t n, size_t max)
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

/* ---- Kconfig: types and depends ------------------------------------ */

int in_other_arch(const char *rel, char *arch, size_t archsz)
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

/* Whether S begins with the keyword W: "endmenu # x" is endmenu. */
static int kw(const char *s, const char *w)
{
	size_t n = strlen(w);

	return !strncmp(s, w, n) && (!s[n] || s[n] == ' ' || s[n] == '\t' ||
				    s[n] == '#' || s[n] == '"');
}

/* "depends on INET # for TUN": the line without its comment. */
static void cut_comment(char *line)
{
	int quoted = 0;
	char *s;

	for (s = line; *s; s++) {
		if (*s == '"')
			quoted = !quoted;
		else if (*s == '\\' && quoted && s[1])
			s++;
		else if (*s == '#' && !quoted)
			break;
	}
	*s = '\0';
	rtrim(line);
}

#define MAX_NEST 32
#define MAX_SOURCE 32

/*
 * The blocks open where the parser is: if, menu and choice, across the
 * files that source each other (an "if SND" around a source applies to
 * the sourced file), with each one's condition or NULL.
 */
static struct {
	char *cond[MAX_NEST];
	int kind[MAX_NEST];	/* 'i' if, 'm' menu, 'c' choice */
	int n;
} blk;

static void add_cond(struct sym *y, char *text)
{
	y->cond = xrealloc(y->cond, (y->ncond + 1) * sizeof(*y->cond));
	y->cond[y->ncond++] = text;
}

static void new_symbol(struct sym *y, const char *rel, int lineno,
		       int other)
{
	int i;

	free(y->where);
	while (y->ncond)
		free(y->cond[--y->ncond]);
	y->where = xasprintf("%s:%d", rel, lineno);
	y->other_arch = other;
	y->type = T_UNKNOWN;
	y->prompt = 0;
	y->choice = 0;
	y->def_always = 0;
	if (y->defs.buf)
		sb_free(&y->defs);
	for (i = 0; i < blk.n; i++)
		y->choice |= blk.kind[i] == 'c';
	for (i = blk.n - 1; i >= 0; i--)
		if (blk.cond[i])
			add_cond(y, xasprintf("%s %s",
					      blk.kind[i] == 'i' ? "if" :
					      blk.kind[i] == 'm' ?
					      "menu depends on" :
					      "choice depends on",
					      blk.cond[i]));
	y->nenclosing = y->ncond;
}

/*
 * A default line of Y ("default V [if C]", def_bool, def_tristate): what
 * turns it on, in Y->defs (V && (C), or's between), or def_always.
 */
static void add_default(struct sym *y, const char *s)
{
	const char *v = skip_ws((char *)s + strcspn(s, " \t"));
	const char *c = strstr(v, " if ");
	char *val = c ? xstrndup(v, c - v) : xstrdup(v);
	int konst;

	rtrim(val);
	konst = !strcmp(val, "y") || !strcmp(val, "m");
	if (c)
		c = skip_ws((char *)c + 4);
	if (!*val || !strcmp(val, "n") || y->def_always) {
		free(val);
		return;
	}
	if (konst && !c) {
		y->def_always = 1;
		free(val);
		return;
	}
	if (!y->defs.buf)
		sb_init(&y->defs);
	sb_add(&y->defs, y->defs.len ? " || " : "");
	if (konst)
		sb_addf(&y->defs, "(%s)", c);
	else if (c)
		sb_addf(&y->defs, "(%s && (%s))", val, c);
	else
		sb_addf(&y->defs, "(%s)", val);
	free(val);
}

static void parse_kconfig(const char *rel, int depth, int optional);

/* source "FILE", rsource (relative to REL's directory), osource. */
static void source_kconfig(const char *rel, char *s, int depth)
{
	int r = s[0] == 'r', o = s[0] == 'o';
	char *q = strchr(s, '"'), *e = q ? strchr(q + 1, '"') : NULL, *a, *b;
	glob_t g;
	size_t i;

	if (!e)
		return;
	*e = '\0';
	a = subst(q + 1, "$(SRCARCH)", ARCH);
	b = subst(a, "$(ARCH)", ARCH);
	free(a);
	if (r) {
		const char *sl = strrchr(rel, '/');

		a = xasprintf("%.*s%s", sl ? (int)(sl - rel + 1) : 0, rel, b);
		free(b);
		b = a;
	}
	if (strstr(b, "$(")) {
		warnx("%s: source \"%s\": a variable it does not know", rel, b);
	} else if (!strpbrk(b, "*?[")) {
		parse_kconfig(b, depth + 1, o);
	} else {
		a = tree_file(b);
		if (!glob(a, 0, NULL, &g)) {
			for (i = 0; i < g.gl_pathc; i++)
				parse_kconfig(g.gl_pathv[i] + strlen(tree) + 1,
					      depth + 1, 1);
			globfree(&g);
		}
		free(a);
	}
	free(b);
}

/*
 * One Kconfig file, and the files it sources, in Kconfig's order.  What
 * follows a config line belongs to that symbol ('y'); a depends on after
 * menu or choice belongs to the block ('b'); after anything else
 * (comment, if, source, a second definition) it is skipped.
 */
static void parse_kconfig(const char *rel, int depth, int optional)
{
	char *path = tree_file(rel), *text, *line, *next;
	int lineno = 0, help = -1, other, nst0 = blk.n, owner = 0;
	uint32_t cur = STR_NONE;
	char arch[64];
	size_t len;

	if (depth > MAX_SOURCE)
		die(RC_DATA, "%s: sources nested more than %d deep", rel,
		    MAX_SOURCE);
	other = in_other_arch(rel, arch, sizeof(arch));
	text = read_file(path, &len);
	if (!text && optional && errno == ENOENT) {
		free(path);
		return;
	}
	if (!text)
		die(RC_DATA, "%s: %s", path, strerror(errno));
	for (line = text; line && *line; line = next) {
		char *s;
		size_t ind;
		struct sym *y = owner == 'y' ? &syms[cur] : NULL;

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
		cut_comment(s);
		if (!*s)
			continue;
		if (kw(s, "help") || kw(s, "---help---")) {
			help = ind;
			continue;
		}
		if (kw(s, "config") || kw(s, "menuconfig")) {
			char *sp = strpbrk(s, " \t"), *n, *c;

			/* "config" alone, or "config A B": not a symbol */
			n = sp ? skip_ws(sp) : s + strlen(s);
			for (c = n; is_ident_char((unsigned char)*c); c++)
				;
			if (c == n || *c)
				die(RC_DATA, "%s:%d: '%s' does not name one symbol",
				    rel, lineno, s);
			cur = sym_id(n);
			owner = 'y';
			if (syms[cur].where && (other || !syms[cur].other_arch)) {
				owner = 0;	/* keep the first definition */
				continue;
			}
			new_symbol(&syms[cur], rel, lineno, other);
			continue;
		}
		if (kw(s, "if") || kw(s, "menu") || kw(s, "choice")) {
			if (blk.n >= MAX_NEST)
				die(RC_DATA, "%s:%d: blocks nested more than %d deep",
				    rel, lineno, MAX_NEST);
			blk.kind[blk.n] = s[0] == 'i' ? 'i' :
					  s[0] == 'm' ? 'm' : 'c';
			blk.cond[blk.n++] = s[0] == 'i' ?
				xstrdup(skip_ws(s + 2)) : NULL;
			owner = s[0] == 'i' ? 0 : 'b';
			continue;
		}
		if (kw(s, "endif") || kw(s, "endmenu") || kw(s, "endchoice")) {
			if (blk.n > nst0)
				free(blk.cond[--blk.n]);
			owner = 0;
			continue;
		}
		if (kw(s, "source") || kw(s, "rsource") || kw(s, "osource")) {
			source_kconfig(rel, s, depth);
			owner = 0;
			continue;
		}
		if (kw(s, "comment") || kw(s, "mainmenu")) {
			owner = 0;
			continue;
		}
		if (y && kw(s, "select")) {
			char *e = skip_ws(s + 7), *sp = strpbrk(e, " \t");
			uint32_t id;

			if (sp)
				*sp = '\0';
			id = sym_id(e);	/* may move syms[] */
			if (syms[id].nsel < ARRAY_SIZE(syms[id].sel))
				syms[id].sel[syms[id].nsel++] = cur;
			continue;
		}
		if (kw(s, "depends") && !strncmp(s, "depends on", 10)) {
			const char *e = skip_ws(s + 10);

			if (y) {
				add_cond(y, xasprintf("depends on %s", e));
			} else if (owner == 'b' && blk.n > nst0) {
				char **c = &blk.cond[blk.n - 1];
				char *d = *c ? xasprintf("%s && %s", *c, e) :
					  xstrdup(e);

				free(*c);
				*c = d;
			}
			continue;
		}
		if (!y)
			continue;
		if (kw(s, "default") || kw(s, "def_bool") ||
		    kw(s, "def_tristate"))
			add_default(y, s);
		if (kw(s, "tristate") || kw(s, "def_tristate"))
			y->type = T_TRISTATE;
		else if (kw(s, "bool") || kw(s, "def_bool"))
			y->type = T_BOOL;
		else if (kw(s, "string") || kw(s, "int") || kw(s, "hex"))
			y->type = T_OTHER;
		/* Kconfig quotes a prompt with " or ' (drivers/char/ipmi) */
		if ((kw(s, "tristate") || kw(s, "bool") || kw(s, "prompt")) &&
		    strpbrk(s, "\"'"))
			y->prompt = 1;
	}
	while (blk.n > nst0)
		free(blk.cond[--blk.n]);
	free(text);
	free(path);
}

/* The Kconfig files the top-level Kconfig reaches, as x86 reads them. */
void load_kconfig(void)
{
	uint32_t i;

	parse_kconfig("Kconfig", 0, 0);
	/*
	 * A bool or tristate without a prompt that defaults to on only under
	 * conditions (def_tristate KVM if KVM_INTEL != n || KVM_AMD != n)
	 * needs one of them: a condition, as its depends on lines are.
	 */
	for (i = 0; i < names.n; i++) {
		struct sym *y = &syms[i];

		if (!y->prompt && !y->def_always && y->defs.len &&
		    (y->type == T_BOOL || y->type == T_TRISTATE)) {
			add_cond(y, xasprintf("has a default if %s",
					      y->defs.buf));
			y->def_always = 2;
		}
		if (y->defs.buf)
			sb_free(&y->defs);
	}
}

/*
 * What a symbol depends on, one line: its own depends on lines, then
 * the enclosing if/menu conditions from the innermost out.
 */
char *sym_depends(const struct sym *y)
{
	struct sb s;
	size_t i;

	sb_init(&s);
	for (i = y->nenclosing; i < y->ncond; i++)
		sb_addf(&s, "%s%s", s.len ? "; " : "", y->cond[i]);
	for (i = 0; i < y->nenclosing; i++)
		sb_addf(&s, "%s%s", s.len ? "; " : "", y->cond[i]);
	if (!s.len)
		sb_add(&s, "no depends on");
	return s.buf;
}

/* The known symbols that the expression EXPR names, in IDS. */
size_t cond_syms(const char *expr, uint32_t *ids, size_t max)
{
	const char *p = expr;
	char name[128];
	size_t n = 0, len;
	uint32_t id;

	while (*p) {
		if (*p == '"') {
			p = strchr(p + 1, '"');
			if (!p)
				break;
			p++;
			continue;
		}
		for (len = 0; is_ident_char((unsigned char)p[len]); len++)
			;
		if (!len) {
			p++;
			continue;
		}
		if (len < sizeof(name)) {
			memcpy(name, p, len);
			name[len] = '\0';
			id = strtab_find(&names, name);
			if (id != STR_NONE && n < max)
				ids[n++] = id;
		}
		p += len;
	}
	return n;
}

/* Read PATH's CONFIG_X=y/m values into the base (or now) field. */
void load_config(const char *path, int now)
{
	size_t len;
	char *text = read_file(path, &len), *line, *next;
	uint32_t id;

	if (!text)
		die(RC_HOST, "%s: %s", path, strerror(errno));
	for (id = 0; now && id < names.n; id++) {
		syms[id].prev = syms[id].now;
		syms[id].now = 0;
	}
	for (line = text; line && *line; line = next) {
		char *eq;

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
void add_selectors(struct need *n)
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
void run(char **argv)
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
void olddefconfig(const char *scratch)
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

