// SPDX-License-Identifier: GPL-2.0
/*
 * cover-kconfig.c - cover-plan's Kconfig side: the symbols, their types
 * and depends, the .config values, and the tree's tools that resolve them
 * (see cover-plan.c).
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

void load_kconfig(void)
{
	tree_len = strlen(tree);
	if (nftw(tree, kconfig_walk, 32, FTW_PHYS | FTW_ACTIONRETVAL) < 0)
		die(RC_HOST, "%s: walking the Kconfig files: %s", tree,
		    strerror(errno));
}

/* Read PATH's CONFIG_X=y/m values into the base (or now) field. */
void load_config(const char *path, int now)
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

