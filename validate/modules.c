// SPDX-License-Identifier: GPL-2.0
/*
 * modules.c - what a boot proved about a module, and what the campaign's
 * cover plan says about a file that is not compiled.
 *
 * A module's __ro_after_init data turns read-only when its init returns,
 * so a conversion in a module is tested only if the module loaded with
 * init returning 0 and was unloaded again (the guest's modules exercise,
 * qemu-boot/boot's modules.tsv).  A module that refused to load under
 * QEMU (no device) proved nothing: its conversion is only "built".
 *
 * The deny list: modules that hang or crash the bare kernel would fail or
 * stall every boot of the campaign.  The baseline boots the bare kernel
 * again with each such module denied until the modules exercise runs to
 * its end, and records the list with the baseline (baseline.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tsv.h"
#include "validate.h"

#define MAXF 8

void mods_free(struct modstat *m, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(m[i].name);
		free(m[i].init);
		free(m[i].exit);
		free(m[i].detail);
		free(m[i].bound);
		free(m[i].devices);
	}
	free(m);
}

/*
 * modules.tsv of a boot: module init exit detail.  Console text, read
 * leniently like the violations (bootparse.c): malformed rows are skipped.
 */
void parse_modules(const char *dir, struct boot_out *o)
{
	char *p = xasprintf("%s/modules.tsv", dir), *buf, *line, *next;
	char *f[MAXF];
	int i, nf;

	buf = read_file(p, NULL);
	free(p);
	o->mods_seen = buf != NULL;
	for (next = buf, i = 0; buf && (line = strsep(&next, "\n")); i++) {
		struct modstat *m;

		line[strcspn(line, "\r")] = '\0';
		for (nf = 0; nf < MAXF && (f[nf] = strsep(&line, "\t")); nf++)
			;
		if (nf < 3 || !*f[0] || (i == 0 && !strcmp(f[0], "module")))
			continue;
		o->mods = xrealloc(o->mods, (o->nmods + 1) * sizeof(*o->mods));
		m = &o->mods[o->nmods++];
		memset(m, 0, sizeof(*m));
		m->name = xstrdup(f[0]);
		m->init = xstrdup(f[1]);
		m->exit = xstrdup(f[2]);
		m->detail = xstrdup(nf > 3 ? f[3] : "-");
	}
	free(buf);
	parse_bound(dir, o);
}

/* Module names: kbuild's file name and /proc/modules differ in - and _. */
int mod_name_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !((*a == '-' || *a == '_') &&
				  (*b == '-' || *b == '_')))
			return 0;
	return *a == *b;
}

/*
 * The module a candidate is built into, from its section evidence
 * "built=OBJECT,DIR/NAME.ko": NAME, or NULL when it is in vmlinux.
 */
char *cand_module(const char *section_ev)
{
	const char *c, *b, *e;

	if (!section_ev || strncmp(section_ev, "built=", 6))
		return NULL;
	c = strchr(section_ev, ',');
	if (!c)
		return NULL;
	e = c + 1 + strcspn(c + 1, ";");
	if (e - c < 4 || strncmp(e - 3, ".ko", 3))
		return NULL;
	for (b = e - 3; b > c + 1 && b[-1] != '/'; b--)
		;
	return xasprintf("%.*s", (int)(e - 3 - b), b);
}

static const struct modstat *mod_find(const struct modstat *m, int n,
				      const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (mod_name_eq(m[i].name, name))
			return &m[i];
	return NULL;
}

/*
 * The evidence item of module NAME over the passing boots' tables:
 * "cycled=NAME" when every boot loaded it (init returned 0) and unloaded
 * it, else "not-cycled=NAME: why".
 */
static char *cycle_evidence(const char *name, struct modstat *const *tabs,
			    const int *ns, const int *seen, int ntabs)
{
	const struct modstat *m;
	int t;

	for (t = 0; t < ntabs; t++) {
		if (!seen[t])
			return xasprintf("not-cycled=%s: the boot printed no module table",
					 name);
		m = mod_find(tabs[t], ns[t], name);
		if (!m)
			return xasprintf("not-cycled=%s: not in the boot's module table",
					 name);
		if (strcmp(m->init, "ok"))
			return xasprintf("not-cycled=%s: init %s (%s)", name,
					 m->init, m->detail);
		if (strcmp(m->exit, "ok"))
			return xasprintf("not-cycled=%s: unload %s (%s)", name,
					 m->exit, m->detail);
	}
	return xasprintf("cycled=%s", name);
}

/*
 * The evidence items of module NAME: cycle_evidence's, then the devices
 * it bound (devices.c), if any: "cycled=foo; bound=foo@e1000; devices=...".
 */
char *mod_evidence(const char *name, struct modstat *const *tabs,
		   const int *ns, const int *seen, int ntabs)
{
	char *c = cycle_evidence(name, tabs, ns, seen, ntabs);
	char *d = dev_evidence(name, tabs, ns, ntabs), *all;

	if (!d)
		return c;
	all = xasprintf("%s; %s", c, d);
	free(c);
	free(d);
	return all;
}

/* "round 1 modprobe foo" (or "modprobe -r foo") in a result's detail. */
static char *last_modprobe(const char *detail)
{
	const char *s = strstr(detail, "(last: "), *p;

	if (!s)
		return NULL;
	p = strstr(s, "modprobe ");
	if (!p)
		return NULL;
	p += strlen("modprobe ");
	if (!strncmp(p, "-r ", 3))
		p += 3;
	return xasprintf("%.*s", (int)strcspn(p, " )"), p);
}

static int add_deny(struct ctx *x, const char *name, char *why)
{
	int i;

	for (i = 0; i < x->ndeny; i++)
		if (mod_name_eq(x->deny[i], name)) {
			free(why);
			return 0;
		}
	x->deny = xrealloc(x->deny, (x->ndeny + 1) * sizeof(char *));
	x->deny_why = xrealloc(x->deny_why, (x->ndeny + 1) * sizeof(char *));
	x->deny[x->ndeny] = xstrdup(name);
	x->deny_why[x->ndeny++] = why;
	warnx("baseline: deny-listing module %s: %s", name, why);
	return 1;
}

/*
 * The modules that hung or crashed the bare kernel's boot in directory
 * DIR join the deny list.  Returns how many were added.
 */
int deny_from_boot(struct ctx *x, const char *dir, enum mode m)
{
	char *p = xasprintf("%s/result.tsv", dir), *buf, *line, *next;
	char *f[MAXF], *name;
	struct boot_out o;
	int i, nf, added = 0;

	memset(&o, 0, sizeof(o));
	parse_modules(dir, &o);
	for (i = 0; i < o.nmods; i++) {
		struct modstat *s = &o.mods[i];
		const char *bad = NULL;

		if (!strcmp(s->init, "timeout") || !strcmp(s->init, "killed"))
			bad = s->init;
		else if (!strcmp(s->exit, "timeout") || !strcmp(s->exit, "killed"))
			bad = s->exit;
		if (bad)
			added += add_deny(x, s->name,
					  xasprintf("%s boot of the bare kernel: %s %s (%s)",
						    mode_name[m], bad == s->init ? "init" : "unload",
						    bad, s->detail));
	}
	mods_free(o.mods, o.nmods);
	/* The exercise died or hung inside one modprobe: deny that one. */
	buf = read_file(p, NULL);
	free(p);
	for (next = buf; buf && (line = strsep(&next, "\n")); ) {
		for (nf = 0; nf < MAXF && (f[nf] = strsep(&line, "\t")); nf++)
			;
		if (nf < 3 || strcmp(f[0], "modules") || !strcmp(f[1], "ok") ||
		    !strcmp(f[1], "skip"))
			continue;
		name = last_modprobe(f[2]);
		if (name)
			added += add_deny(x, name,
					  xasprintf("%s boot of the bare kernel: modules %s while loading or unloading it",
						    mode_name[m], f[1]));
		free(name);
	}
	free(buf);
	return added;
}

/* "a,b,c": the deny list for rocampaign.moddeny=, or NULL when empty. */
char *deny_arg(struct ctx *x)
{
	struct sb s;
	int i;

	if (!x->ndeny)
		return NULL;
	sb_init(&s);
	sb_add(&s, "rocampaign.moddeny=");
	for (i = 0; i < x->ndeny; i++)
		sb_addf(&s, "%s%s", i ? "," : "", x->deny[i]);
	return s.buf;
}

/*
 * The cover plan (validate/cover-plan's plan.tsv): why a file that the
 * build did not compile is not built, its kind in *KIND.  NULL when the
 * plan does not know the file, or when no plan was given.
 */
char *plan_reason(struct ctx *x, const char *file, enum ev_notbuilt *kind)
{
	struct tsv_table *t = x->plan;
	int cf, cs, cd;
	size_t i;

	if (!t)
		return NULL;
	cf = tsv_table_col(t, "file");
	cs = tsv_table_col(t, "state");
	cd = tsv_table_col(t, "detail");
	for (i = 0; i < t->nrows; i++) {
		char **r = t->rows[i];

		if (strcmp(r[cf], file))
			continue;
		if (!strcmp(r[cs], "other-arch")) {
			*kind = EV_NB_OTHER_ARCH;
			return xasprintf("%s (%s is under arch/%s)", r[cd],
					 file, r[cd]);
		}
		if (!strcmp(r[cs], "unmet")) {
			*kind = EV_NB_UNMET;
			return xstrdup(r[cd]);
		}
		*kind = EV_NB_BUILDABLE;
		return xasprintf("not compiled, although the cover plan has it buildable (%s)",
				 r[cd]);
	}
	return NULL;
}

void plan_load(struct ctx *x, const char *path)
{
	struct tsv_table *t = xcalloc(1, sizeof(*t));

	if (tsv_load(t, path, 0))
		exit(RC_DATA);
	if (tsv_table_need(t, "file") < 0 || tsv_table_need(t, "state") < 0 ||
	    tsv_table_need(t, "detail") < 0)
		exit(RC_DATA);
	x->plan = t;
}
