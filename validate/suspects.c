// SPDX-License-Identifier: GPL-2.0
/*
 * suspects.c - the suspects of a boot that failed in a way warn mode
 * could not attribute: the candidates that its console names.
 *
 * What the console names, strongest first:
 *   0  the data symbol at the faulting address of an oops: in vmlinux, or
 *      in a module through the load addresses of its sections that the
 *      modules exercise printed ("# rocampaign: module-sections NAME
 *      SEC=ADDR ...") before the oops, and the module file;
 *   1  the module that a failed KTAP line was loading or unloading
 *      ("modprobe -r NAME", "rmmod NAME"), the module of the faulting RIP,
 *      a module named in the failing exercise's reason, a module being
 *      unloaded in "Modules linked in" ("NAME(-)"), the function of the
 *      faulting RIP;
 *   2  "[last unloaded: NAME]", the functions and modules of the call
 *      trace;
 *   3  the other modules of "Modules linked in".
 * A candidate is a suspect when it is that symbol, when it is built into
 * that module (its section evidence, "built=OBJ,PATH.ko"), or when its
 * object defines that function (the object's symbol table).
 * What faulted narrows them: a fault on a not-present page (freed init
 * memory) leaves the __initdata and __initconst conversions, a write
 * denied on a present page the __ro_after_init ones, if any is named.
 *
 * The console is the guest's text, read leniently: what does not parse
 * is skipped.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate.h"

#define NRANK 4

struct name {
	char *s;
	int rank;
};

struct names {
	struct name *v;
	int n;
};

static void add_name(struct names *l, const char *s, size_t len, int rank)
{
	int i;

	if (!len || len > 200)
		return;
	for (i = 0; i < l->n; i++)
		if (strlen(l->v[i].s) == len && !strncmp(l->v[i].s, s, len)) {
			if (rank < l->v[i].rank)
				l->v[i].rank = rank;
			return;
		}
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n].s = xstrndup(s, len);
	l->v[l->n++].rank = rank;
}

static void names_free(struct names *l)
{
	int i;

	for (i = 0; i < l->n; i++)
		free(l->v[i].s);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static size_t ident_len(const char *s)
{
	size_t n = 0;

	while (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '-')
		n++;
	return n;
}

/* "NAME" after each "WORD " in LINE ("modprobe -r x", "rmmod x"). */
static void after_word(struct names *mods, const char *line, const char *w,
		       int rank)
{
	const char *p = line;
	size_t l = strlen(w);

	while ((p = strstr(p, w))) {
		p += l;
		if (!strncmp(p, "-r ", 3))
			p += 3;
		add_name(mods, p, ident_len(p), rank);
	}
}

/* "FUNC+0x1f/0x40 [MOD]": FUNC and MOD. */
static void frame(struct names *funcs, struct names *mods, const char *s,
		  int rank)
{
	size_t l = strcspn(s, "+ ");
	const char *m;

	if (s[l] != '+')
		return;
	add_name(funcs, s, l, rank);
	m = strchr(s + l, '[');
	if (m)
		add_name(mods, m + 1, ident_len(m + 1), rank);
}

/* The kernel's "[    1.234567] " prefix, if any, skipped. */
static const char *text_of(const char *line)
{
	const char *p;

	if (line[0] != '[')
		return line;
	p = strchr(line, ']');
	return p ? p + 1 + (p[1] == ' ') : line;
}

struct modsecs {
	char *mod;	/* as /proc/modules names it */
	char *secs;	/* "SEC=0xADDR SEC=0xADDR ..." */
};

struct console_names {
	struct names mods, funcs, syms;
	struct modsecs *ms;	/* each module's last load before the oops */
	int nms;
	unsigned long long fault;	/* the first oops's faulting address */
	int faulted;
	char *rip;	/* the first oops's RIP function, for the signature */
	int absent;	/* a page fault on a not-present page */
	int denied;	/* a page fault on a present page (a write) */
};

/*
 * "# rocampaign: module-sections NAME SEC=ADDR ..." (the modules
 * exercise, after each load): the load of NAME that the console shows
 * last before the first oops is the one the oops can be in.
 */
static void add_modsecs(struct console_names *c, const char *s)
{
	size_t l = ident_len(s);
	int i;

	if (!l || c->faulted)
		return;
	for (i = 0; i < c->nms; i++)
		if (strlen(c->ms[i].mod) == l && !strncmp(c->ms[i].mod, s, l))
			break;
	if (i == c->nms) {
		c->ms = xrealloc(c->ms, (c->nms + 1) * sizeof(*c->ms));
		c->ms[c->nms++].mod = xstrndup(s, l);
	} else {
		free(c->ms[i].secs);
	}
	c->ms[i].secs = xstrdup(s + l + (s[l] == ' '));
}

static void read_console(struct ctx *x, const char *dir,
			 struct console_names *c)
{
	char *p = xasprintf("%s/console.log", dir), *buf, *next, *line;
	char *vm = xasprintf("%s/ro-campaign/vmlinux", x->build_dir), sym[256];
	const char *t, *q;
	int trace = 0;

	buf = read_file(p, NULL);
	free(p);
	for (next = buf; next && (line = strsep(&next, "\n")); ) {
		line[strcspn(line, "\r")] = '\0';
		t = text_of(line);
		q = strstr(t, "# rocampaign: module-sections ");
		if (q) {
			add_modsecs(c, q + strlen("# rocampaign: module-sections "));
			continue;
		}
		if (!strncmp(t, "not ok ", 7)) {
			after_word(&c->mods, t, "modprobe ", 1);
			after_word(&c->mods, t, "rmmod ", 1);
			continue;
		}
		q = strstr(t, "unable to handle page fault for address: ");
		if (q) {
			q += strlen("unable to handle page fault for address: ");
			if (!c->faulted) {
				c->fault = strtoull(q, NULL, 16);
				c->faulted = 1;
			}
			if (!elf_symbolize(vm, strtoull(q, NULL, 16), sym,
					   sizeof(sym)))
				add_name(&c->syms, sym, strlen(sym), 0);
			continue;
		}
		if (strstr(t, "#PF: error_code(") && strstr(t, "not-present page"))
			c->absent = 1;
		else if (strstr(t, "#PF: error_code(") && strstr(t, "permissions violation"))
			c->denied = 1;
		q = strstr(t, "RIP: 0010:");
		if (q) {
			q += strlen("RIP: 0010:");
			if (!c->rip && strchr(q, '+'))
				c->rip = xstrndup(q, strcspn(q, "+"));
			frame(&c->funcs, &c->mods, q, 1);
			trace = 0;
			continue;
		}
		q = strstr(t, "Modules linked in:");
		if (q) {
			q += strlen("Modules linked in:");
			while (*q == ' ')
				q++;
			while (*q && *q != '[') {
				size_t l = ident_len(q);

				if (!l)
					break;
				add_name(&c->mods, q, l,
					 !strncmp(q + l, "(-", 2) ? 1 : 3);
				q += l + strcspn(q + l, " ");
				while (*q == ' ')
					q++;
			}
		}
		q = strstr(t, "[last unloaded: ");
		if (q) {
			q += strlen("[last unloaded: ");
			add_name(&c->mods, q, ident_len(q), 2);
			continue;
		}
		if (strstr(t, "Call Trace:")) {
			trace = 1;
			continue;
		}
		if (!trace)
			continue;
		while (*t == ' ')
			t++;
		if (!strncmp(t, "</TASK>", 7) || !strncmp(t, "---[", 4) ||
		    !*t) {
			trace = 0;
			continue;
		}
		if (*t == '?' || *t == '<')
			continue;	/* an unreliable frame, <TASK>, <IRQ> */
		frame(&c->funcs, &c->mods, t, 2);
	}
	free(buf);
	free(vm);
}

/* Does TEXT hold WORD as a word of its own (a module name)? */
static int has_word(const char *text, const char *word)
{
	size_t l = strlen(word);
	const char *p = text;

	while (text && l && (p = strstr(p, word))) {
		int before = p == text || !(isalnum((unsigned char)p[-1]) ||
					    p[-1] == '_' || p[-1] == '-');
		int after = !(isalnum((unsigned char)p[l]) || p[l] == '_' ||
			      p[l] == '-');

		if (before && after)
			return 1;
		p += l;
	}
	return 0;
}

/* The object of a candidate's section evidence: "built=OBJ,IMAGE". */
static char *cand_object(struct ctx *x, int cand)
{
	const char *ev = x->msg[cand], *c;

	if (!ev || strncmp(ev, "built=", 6))
		return NULL;
	c = strchr(ev, ',');
	if (!c)
		return NULL;
	return xasprintf("%s/%.*s", x->build_dir, (int)(c - ev - 6), ev + 6);
}

/* The module of a candidate's section evidence, "built=OBJ,PATH.ko". */
static char *cand_ko(struct ctx *x, int cand)
{
	const char *ev = x->msg[cand], *c;
	size_t l;

	if (!ev || strncmp(ev, "built=", 6))
		return NULL;
	c = strchr(ev, ',');
	if (!c)
		return NULL;
	l = strcspn(++c, ";");
	if (l < 4 || strncmp(c + l - 3, ".ko", 3))
		return NULL;
	return xasprintf("%s/%.*s", x->build_dir, (int)l, c);
}

/*
 * Is the oops's faulting address the candidate CAND itself, inside the
 * load of its module MOD that the console recorded?  Each SEC=ADDR of
 * the record is a section's load address; the module file says what
 * sits at the offset.
 */
static int fault_is_cand(struct ctx *x, int cand, const char *mod,
			 const struct console_names *c)
{
	char *ko = NULL, *secs, *tok, *save, *eq, sym[256];
	unsigned long long base;
	int i, hit = 0;

	for (i = 0; i < c->nms && !mod_name_eq(c->ms[i].mod, mod); i++)
		;
	if (!c->faulted || i == c->nms)
		return 0;
	secs = xstrdup(c->ms[i].secs);
	for (tok = strtok_r(secs, " ", &save); tok && !hit;
	     tok = strtok_r(NULL, " ", &save)) {
		eq = strchr(tok, '=');
		if (!eq)
			continue;
		*eq = '\0';
		base = strtoull(eq + 1, NULL, 16);
		if (!base || c->fault < base)
			continue;	/* 0: the guest hid the addresses */
		if (!ko)
			ko = cand_ko(x, cand);
		if (!ko)
			break;
		hit = !elf_module_symbolize(ko, tok, c->fault - base, sym,
					    sizeof(sym)) &&
		      !strcmp(sym, x->c->v[cand].name);
	}
	free(secs);
	free(ko);
	return hit;
}

/*
 * The best rank at which the console names candidate CAND, NRANK if it
 * does not; *by gets the name that did (to free).
 */
static int rank_of(struct ctx *x, int cand, const struct console_names *c,
		   const char *reason, char **by)
{
	char *mod = cand_module(x->msg[cand]), *obj = NULL;
	int best = NRANK, i;

	for (i = 0; i < c->syms.n; i++)
		if (!strcmp(c->syms.v[i].s, x->c->v[cand].name)) {
			best = 0;
			free(*by);
			*by = xstrdup(c->syms.v[i].s);
		}
	if (mod && best > 0 && fault_is_cand(x, cand, mod, c)) {
		best = 0;
		free(*by);
		*by = xstrdup(x->c->v[cand].name);
	}
	for (i = 0; mod && i < c->mods.n; i++)
		if (mod_name_eq(c->mods.v[i].s, mod) && c->mods.v[i].rank < best) {
			best = c->mods.v[i].rank;
			free(*by);
			*by = xstrdup(c->mods.v[i].s);
		}
	if (mod && best > 1 && has_word(reason, mod)) {
		best = 1;
		free(*by);
		*by = xstrdup(mod);
	}
	for (i = 0; i < c->funcs.n && best > c->funcs.v[i].rank; i++) {
		if (!obj)
			obj = cand_object(x, cand);
		if (obj && elf_defines_func(obj, c->funcs.v[i].s) == 1) {
			best = c->funcs.v[i].rank;
			free(*by);
			*by = xstrdup(c->funcs.v[i].s);
		}
	}
	free(obj);
	free(mod);
	return best;
}

void find_suspects(struct ctx *x, const struct boot_out *o, const int *set,
		   int n, const char *clean, struct suspects *s)
{
	struct console_names c;
	int *rank = xmalloc((n + 1) * sizeof(int)), i, k, r, best = NRANK;
	char **by = xcalloc(n + 1, sizeof(char *));
	const char *why = o->reason ? o->reason : "?";

	memset(s, 0, sizeof(*s));
	memset(&c, 0, sizeof(c));
	if (o->dir)
		read_console(x, o->dir, &c);
	s->v = xmalloc((n + 1) * sizeof(int));
	for (i = 0; i < n; i++)
		rank[i] = clean && clean[set[i]] ? NRANK :
			  rank_of(x, set[i], &c, o->reason, &by[i]);
	/*
	 * What faulted says which kind of conversion can be the culprit:
	 * a not-present page is freed init memory (an __initdata or
	 * __initconst conversion), a present page denied a write is
	 * read-only data (__ro_after_init).  The others named are no
	 * suspects then, if any of the right kind is.
	 */
	for (i = k = 0; (c.absent || c.denied) && i < n; i++)
		k += rank[i] < NRANK &&
		     (x->c->v[set[i]].annot == AN_RO) == c.denied;
	for (i = 0; k && i < n; i++)
		if ((x->c->v[set[i]].annot == AN_RO) != c.denied)
			rank[i] = NRANK;
	for (r = 0; r < NRANK; r++)
		for (i = 0; i < n; i++)
			if (rank[i] == r)
				s->v[s->n++] = set[i];
	for (i = 0; i < n; i++)
		if (rank[i] < best) {
			best = rank[i];
			free(s->label);
			s->label = by[i];
			by[i] = NULL;
		}
	if (!s->label)
		s->label = xstrdup("?");
	s->sig = xasprintf("%.*s%s%s", (int)strcspn(why, ":"), why,
			   c.rip ? "/" : "", c.rip ? c.rip : "");
	for (i = 0; i < n; i++)
		free(by[i]);
	free(by);
	free(c.rip);
	names_free(&c.mods);
	names_free(&c.funcs);
	names_free(&c.syms);
	for (i = 0; i < c.nms; i++) {
		free(c.ms[i].mod);
		free(c.ms[i].secs);
	}
	free(c.ms);
	free(rank);
}

void suspects_free(struct suspects *s)
{
	free(s->v);
	free(s->label);
	free(s->sig);
	memset(s, 0, sizeof(*s));
}
