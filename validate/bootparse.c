// SPDX-License-Identifier: GPL-2.0
/*
 * bootparse.c - what a boot of qemu-boot/boot says: result.tsv (the
 * exercises), violations.tsv (warn mode: the writes to ro_after_init
 * data) and console.log (default mode: the oopses of such writes).
 *
 * These files hold the guest's console text, not a stage's TSV: they are
 * read leniently, line by line, and what does not parse is skipped (a
 * guest's garbled line is no reason to stop a campaign).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate.h"

#define MAXF 16

static int in_list(char **v, int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

static void add_hit(struct boot_out *o, int cand, char *why)
{
	int i;

	for (i = 0; i < o->nhit; i++)
		if (o->hit[i] == cand) {
			free(why);
			return;
		}
	o->hit = xrealloc(o->hit, (o->nhit + 1) * sizeof(*o->hit));
	o->why = xrealloc(o->why, (o->nhit + 1) * sizeof(*o->why));
	o->hit[o->nhit] = cand;
	o->why[o->nhit++] = why;
}

/*
 * The candidate of set[] called NAME; with MOD (a module's variable), the
 * one whose section evidence says it is built into MOD, if any.
 */
static int find_in_set(struct ctx *x, const int *set, int n, const char *name,
		       const char *mod)
{
	int i, first = -1;
	char *m;

	for (i = 0; i < n; i++) {
		if (strcmp(x->c->v[set[i]].name, name))
			continue;
		if (!mod)
			return set[i];
		if (first < 0)
			first = set[i];
		m = cand_module(x->msg[set[i]]);
		if (m && mod_name_eq(m, mod)) {
			free(m);
			return set[i];
		}
		free(m);
	}
	return first;
}

/* violations.tsv: symbol address writer count first_cpu, with a header. */
void parse_violations(struct ctx *x, const char *dir, const int *set,
			     int n, struct boot_out *o, char ***names,
			     int *nnames)
{
	char *p = xasprintf("%s/violations.tsv", dir), *buf, *line, *next;
	char *vm = xasprintf("%s/ro-campaign/vmlinux", x->build_dir);
	char *f[MAXF], *name, *mod, sym[256];
	int k, i, nf;

	buf = read_file(p, NULL);
	free(p);
	for (next = buf, i = 0; (line = strsep(&next, "\n")); i++) {
		line[strcspn(line, "\r")] = '\0';
		for (nf = 0; nf < MAXF && (f[nf] = strsep(&line, "\t")); nf++)
			;
		if (i == 0 && !strcmp(f[0], "symbol"))
			continue;
		if (nf < 3 || !*f[0] || f[0][0] == '#')
			continue;
		f[0][strcspn(f[0], "+")] = '\0';
		/* a module's variable: "name [module]" */
		mod = strstr(f[0], " [");
		if (mod) {
			*mod = '\0';
			mod += 2;
			mod[strcspn(mod, "]")] = '\0';
		}
		name = f[0];
		/*
		 * kallsyms knows no sizes: of two symbols at one address (a
		 * zero-size lock_class_key before a struct) it may name the
		 * wrong one.  vmlinux's symbol table names the object that
		 * holds the address.
		 */
		if (!mod &&
		    !elf_symbolize(vm, strtoull(f[1], NULL, 16), sym, sizeof(sym)))
			name = sym;
		if (names) {
			*names = xrealloc(*names, (*nnames + 1) * sizeof(char *));
			(*names)[(*nnames)++] = xstrdup(name);
			continue;
		}
		if (in_list(x->base_viol, x->nbase_viol, name))
			continue;
		k = find_in_set(x, set, n, name, mod);
		if (k < 0)
			continue;
		if (strcmp(name, f[0]))
			add_hit(o, k, xasprintf("violation: written by %s (%s at %s, kallsyms: %s, %s times)",
						f[2], name, f[1], f[0],
						nf < 4 ? "?" : f[3]));
		else
			add_hit(o, k, xasprintf("violation: written by %s (%s, %s times)",
						f[2], name, nf < 4 ? "?" : f[3]));
	}
	free(vm);
	free(buf);
}

/*
 * Default mode: a write to ro_after_init data oopses with "BUG: unable to
 * handle page fault for address: A" and then "RIP: 0010:WRITER".  The
 * address names the variable through vmlinux's symbol table.
 */
void parse_oopses(struct ctx *x, const char *dir, const int *set,
			 int n, struct boot_out *o)
{
	char *p = xasprintf("%s/console.log", dir), *buf, *s, *rip, *vm;
	char sym[256];
	unsigned long long addr;
	int k;

	buf = read_file(p, NULL);
	free(p);
	vm = xasprintf("%s/ro-campaign/vmlinux", x->build_dir);
	for (s = buf; s && (s = strstr(s, "unable to handle page fault for address: ")); ) {
		s += strlen("unable to handle page fault for address: ");
		addr = strtoull(s, NULL, 16);
		rip = strstr(s, "RIP: 0010:");
		if (elf_symbolize(vm, addr, sym, sizeof(sym)))
			continue;
		k = find_in_set(x, set, n, sym, NULL);
		if (k < 0)
			continue;
		if (rip) {
			rip += strlen("RIP: 0010:");
			rip[strcspn(rip, " \r\n")] = '\0';
			add_hit(o, k, xasprintf("oops: written by %s (%s at 0x%llx)",
						rip, sym, addr));
			s = rip + strlen(rip) + 1;
		} else {
			add_hit(o, k, xasprintf("oops: write to %s at 0x%llx",
						sym, addr));
		}
	}
	free(vm);
	free(buf);
}

/* result.tsv: exercise status detail.  Fills ok/reason/exercised. */
void parse_results(struct ctx *x, const char *dir, enum mode m,
			  struct boot_out *o, char ***fails, int *nfails)
{
	char *p = xasprintf("%s/result.tsv", dir), *buf, *line, *next;
	char *f[MAXF], *ex = xstrdup(""), *t;
	int k, i;

	buf = read_file(p, NULL);
	free(p);
	for (next = buf, i = 0; (line = strsep(&next, "\n")); i++) {
		line[strcspn(line, "\r")] = '\0';
		for (k = 0; k < MAXF && (f[k] = strsep(&line, "\t")); k++)
			;
		if (i == 0 || k < 2)
			continue;
		if (!strcmp(f[1], "ok")) {
			t = xasprintf("%s%s%s", ex, *ex ? "," : "", f[0]);
			free(ex);
			ex = t;
			continue;
		}
		if (!strcmp(f[1], "skip"))
			continue;
		if (fails) {
			*fails = xrealloc(*fails, (*nfails + 1) * sizeof(char *));
			(*fails)[(*nfails)++] = xstrdup(f[0]);
			continue;
		}
		if (in_list(x->base_fail[m], x->nbase_fail[m], f[0]))
			continue;
		if (!o->reason)
			o->reason = xasprintf("%s %s: %s", f[0], f[1],
					      k > 2 ? f[2] : "-");
	}
	free(buf);
	o->exercised = ex;
}
