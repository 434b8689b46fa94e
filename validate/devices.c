// SPDX-License-Identifier: GPL-2.0
/*
 * devices.c - give the build's drivers their emulated hardware.
 *
 * qemu-boot/devices.tsv lists the QEMU device models with the IDs they
 * present, as the modalias strings the kernel would give them.  The
 * build's modules.alias (written by modules_install) holds every module's
 * ID table as globs; a module whose glob matches a device's modalias, or
 * that the row names in its drivers column (an ISA card has no ID), gets
 * that device.  The devices are packed into boots: a q35 machine has 28
 * free slots on its root bus for PCI functions, the USB controller 4
 * ports, and ISA cards must not share an I/O port, IRQ or DMA channel.
 * The first group rides on every validation boot; each further group
 * costs one more boot per boot (the devices exercise alone).  CPU rows
 * add a feature flag to the TCG guest's CPU (svm for kvm_amd).
 *
 * After a boot, the guest's bound.tsv (module bus driver device probe
 * rebind suspend unload detail) names sysfs devices; attached.tsv, which
 * this file writes into the boot's directory, maps them back to the QEMU
 * models: by PCI address for PCI, by module and bus otherwise.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tsv.h"
#include "validate.h"

#define PCI_FIRST	0x03	/* 00.0 host bridge, 02.0 the USB controller */
#define PCI_LAST	0x1e	/* 1f.x is the ICH9 LPC, SATA and SMBus */
#define USB_PORTS	4
#define USB_ADDR	0x02

struct qdev {
	char *name, *bus, *modalias, *drivers, *params, *needs;
	char *resources, *options;
	int slots;
	char *mods;		/* the matching modules, "a,b" */
	int group, addr;	/* the boot group, the PCI slot */
};

static struct {
	char *alias_path;	/* the modules.alias the plan was made from */
	long long mtime, size;
	struct qdev *d;
	int n;
	int ngroups;
	char *cpu;		/* qemu64,+svm, or NULL */
} plan;

/* A device of the machine itself, "builtin:SLOT.FN" (the q35 SATA controller). */
static int is_builtin(const struct qdev *d)
{
	return !strncmp(d->options, "builtin", 7);
}

static void plan_reset(void)
{
	int i;

	for (i = 0; i < plan.n; i++) {
		free(plan.d[i].name);
		free(plan.d[i].bus);
		free(plan.d[i].modalias);
		free(plan.d[i].drivers);
		free(plan.d[i].params);
		free(plan.d[i].needs);
		free(plan.d[i].resources);
		free(plan.d[i].options);
		free(plan.d[i].mods);
	}
	free(plan.d);
	free(plan.cpu);
	free(plan.alias_path);
	memset(&plan, 0, sizeof(plan));
}

/* WORD is one of the comma-separated words of LIST. */
static int has_item(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while (p && *p) {
		size_t k = strcspn(p, ",");

		if (k == n && !strncmp(p, word, n))
			return 1;
		p += k;
		if (*p)
			p++;
	}
	return 0;
}

static void add_mod(char **mods, const char *m)
{
	char *t;

	if (*mods && has_item(*mods, m))
		return;
	t = xasprintf("%s%s%s", *mods ? *mods : "", *mods ? "," : "", m);
	free(*mods);
	*mods = t;
}

/* Each module of the list MODS joins *LIST, once. */
static void add_mods(char **list, const char *mods)
{
	char *l = xstrdup(mods), *save, *one;

	for (one = strtok_r(l, ",", &save); one;
	     one = strtok_r(NULL, ",", &save))
		add_mod(list, one);
	free(l);
}

/* The directory of the build's modules: BUILD/ro-campaign/modroot/... */
static char *mod_dir(struct ctx *x)
{
	char *p = xasprintf("%s/ro-campaign/kernelrelease", x->build_dir);
	char *rel = last_line(p), *d = NULL;

	free(p);
	if (rel && *rel)
		d = xasprintf("%s/ro-campaign/modroot/lib/modules/%s",
			      x->build_dir, rel);
	free(rel);
	return d;
}

static void load_table(struct ctx *x)
{
	static const char *const cols[] = {
		"device", "bus", "modalias", "drivers", "params", "slots",
		"needs", "resources", "options",
	};
	char *path = xasprintf("%s/qemu-boot/devices.tsv", x->tools);
	struct tsv_table t;
	int c[ARRAY_SIZE(cols)];
	size_t i, k;

	memset(&t, 0, sizeof(t));
	if (tsv_load(&t, path, 0))
		exit(RC_DATA);
	for (k = 0; k < ARRAY_SIZE(cols); k++) {
		c[k] = tsv_table_need(&t, cols[k]);
		if (c[k] < 0)
			exit(RC_DATA);
	}
	plan.d = xcalloc(t.nrows + 1, sizeof(*plan.d));
	for (i = 0; i < t.nrows; i++) {
		struct qdev *d = &plan.d[plan.n++];
		char **r = t.rows[i];
		long slots;

		if (parse_long(r[c[5]], 0, 8, &slots))
			die(RC_DATA, "%s:%lu: slots '%s' is not 0-8", path,
			    t.lineno[i], r[c[5]]);
		if (strcmp(r[c[1]], "pci") && strcmp(r[c[1]], "isa") &&
		    strcmp(r[c[1]], "usb") && strcmp(r[c[1]], "cpu"))
			die(RC_DATA, "%s:%lu: bus '%s' is not pci, isa, usb or cpu",
			    path, t.lineno[i], r[c[1]]);
		d->name = xstrdup(r[c[0]]);
		d->bus = xstrdup(r[c[1]]);
		d->modalias = xstrdup(r[c[2]]);
		d->drivers = xstrdup(r[c[3]]);
		d->params = xstrdup(r[c[4]]);
		d->slots = (int)slots;
		d->needs = xstrdup(r[c[6]]);
		d->resources = xstrdup(r[c[7]]);
		d->options = xstrdup(r[c[8]]);
		d->group = -1;
	}
	tsv_table_free(&t);
	free(path);
}

/* One "alias GLOB MODULE" line of modules.alias against every device. */
static void match_alias(const char *glob, const char *mod)
{
	int i;

	for (i = 0; i < plan.n; i++) {
		char *ma = xstrdup(plan.d[i].modalias), *save, *one;

		for (one = strtok_r(ma, " ", &save); one;
		     one = strtok_r(NULL, " ", &save))
			if (strcmp(one, "-") && !fnmatch(glob, one, 0)) {
				add_mod(&plan.d[i].mods, mod);
				break;
			}
		free(ma);
	}
}

/* The module names of modules.dep against the drivers columns. */
static void match_drivers(const char *dep)
{
	char *buf = read_file(dep, NULL), *line, *next, *b, *e;
	int i;

	for (next = buf; buf && (line = strsep(&next, "\n")); ) {
		e = strchr(line, ':');
		if (!e)
			continue;
		*e = '\0';
		b = strrchr(line, '/');
		b = b ? b + 1 : line;
		e = strstr(b, ".ko");
		if (!e)
			continue;
		*e = '\0';
		for (i = 0; i < plan.n; i++) {
			char *dr = xstrdup(plan.d[i].drivers), *save, *one;

			for (one = strtok_r(dr, ",", &save); one;
			     one = strtok_r(NULL, ",", &save))
				if (mod_name_eq(one, b))
					add_mod(&plan.d[i].mods, b);
			free(dr);
		}
	}
	free(buf);
}

/* Two ISA cards share an I/O port, an IRQ or a DMA channel. */
static int conflicts(const struct qdev *a, const struct qdev *b)
{
	char *r = xstrdup(a->resources), *save, *one;
	int hit = 0;

	for (one = strtok_r(r, ",", &save); one && !hit;
	     one = strtok_r(NULL, ",", &save))
		hit = strcmp(one, "-") && has_item(b->resources, one);
	free(r);
	return hit;
}

/*
 * A device is worth a slot only if one of its modules has none yet: the
 * e1000 module gets the e1000 model, not also its two siblings.
 */
static int brings_new(const struct qdev *d, const char *covered)
{
	char *l = xstrdup(d->mods), *save, *one;
	int hit = 0;

	for (one = strtok_r(l, ",", &save); one && !hit;
	     one = strtok_r(NULL, ",", &save))
		hit = !covered || !has_item(covered, one);
	free(l);
	return hit;
}

/*
 * First fit, in the table's order: the first group with room and no
 * conflict, else a new one.
 */
static void pack(void)
{
	int pci[64] = { 0 }, usb[64] = { 0 }, i, j, g;
	char *covered = NULL;

	for (i = 0; i < plan.n; i++) {
		struct qdev *d = &plan.d[i];

		if (!d->mods || !strcmp(d->bus, "cpu") ||
		    is_builtin(d))
			continue;
		if (!brings_new(d, covered)) {
			free(d->mods);
			d->mods = NULL;
			continue;
		}
		for (g = 0; g < 64; g++) {
			int ok = 1;

			if (!strcmp(d->bus, "pci") &&
			    PCI_FIRST + pci[g] + d->slots > PCI_LAST + 1)
				ok = 0;
			if (!strcmp(d->bus, "usb") && usb[g] + d->slots > USB_PORTS)
				ok = 0;
			for (j = 0; ok && j < i; j++)
				if (plan.d[j].group == g &&
				    !strcmp(plan.d[j].bus, "isa") &&
				    !strcmp(d->bus, "isa") &&
				    conflicts(d, &plan.d[j]))
					ok = 0;
			if (ok)
				break;
		}
		if (g == 64) {
			warnx("devices: no room for %s in 64 boots, left out",
			      d->name);
			continue;
		}
		d->group = g;
		add_mod(&covered, d->mods);
		if (!strcmp(d->bus, "pci") && d->slots) {
			d->addr = PCI_FIRST + pci[g];
			pci[g] += d->slots;
		}
		if (!strcmp(d->bus, "usb"))
			usb[g] += d->slots;
		if (g + 1 > plan.ngroups)
			plan.ngroups = g + 1;
	}
	free(covered);
}

static void choose_cpu(void)
{
	struct sb s;
	int i;

	sb_init(&s);
	for (i = 0; i < plan.n; i++)
		if (plan.d[i].mods && !strcmp(plan.d[i].bus, "cpu"))
			sb_addf(&s, ",%s", plan.d[i].options);
	if (s.len)
		plan.cpu = xasprintf("qemu64%s", s.buf);
	sb_free(&s);
}

/* STATE/devices-plan.tsv: what each boot group attaches, and the CPU. */
static void write_plan(struct ctx *x)
{
	char *p = spath(x, "devices-plan.tsv");
	struct sb s;
	int i, n = 0;

	sb_init(&s);
	sb_add(&s, "group\tdevice\tbus\taddr\tmodules\toptions\n");
	for (i = 0; i < plan.n; i++) {
		struct qdev *d = &plan.d[i];

		if (!d->mods)
			continue;
		n++;
		if (d->group >= 0)
			sb_addf(&s, "%d\t%s\t%s\t", d->group + 1, d->name,
				d->bus);
		else
			sb_addf(&s, "%s\t%s\t%s\t",
				!strcmp(d->bus, "cpu") ? "cpu" :
				is_builtin(d) ? "builtin" : "none",
				d->name, d->bus);
		if (d->addr)
			sb_addf(&s, "00:%02x.0", d->addr);
		else
			sb_add(&s, "-");
		sb_addf(&s, "\t%s\t%s\n", d->mods, d->options);
	}
	if (!n && !plan.cpu) {
		sb_free(&s);
		free(p);
		return;
	}
	if (write_file_atomic(p, s.buf, s.len))
		die(RC_HOST, "cannot write %s", p);
	warnx("devices: %d emulated devices match the build's modules, in %d boot group%s: %d extra boot%s per boot; guest CPU %s (%s)",
	      n, plan.ngroups, plan.ngroups == 1 ? "" : "s",
	      plan.ngroups > 1 ? plan.ngroups - 1 : 0,
	      plan.ngroups == 2 ? "" : "s",
	      plan.cpu ? plan.cpu : "qemu64 (QEMU's default)", p);
	sb_free(&s);
	free(p);
}

/*
 * Make the plan for the build in x->build_dir, again only when its
 * modules.alias changed.  Without modules (or without modules.alias) the
 * plan is empty: no devices, no extra boots.
 */
static void dev_plan(struct ctx *x)
{
	char *dir = mod_dir(x), *alias, *dep, *buf, *line, *next;
	struct stat st;

	alias = dir ? xasprintf("%s/modules.alias", dir) : xstrdup("-");
	if (stat(alias, &st))
		memset(&st, 0, sizeof(st));
	if (plan.alias_path && !strcmp(plan.alias_path, alias) &&
	    plan.mtime == (long long)st.st_mtime &&
	    plan.size == (long long)st.st_size) {
		free(alias);
		free(dir);
		return;
	}
	plan_reset();
	plan.alias_path = alias;
	plan.mtime = (long long)st.st_mtime;
	plan.size = (long long)st.st_size;
	load_table(x);
	buf = dir ? read_file(alias, NULL) : NULL;
	for (next = buf; buf && (line = strsep(&next, "\n")); ) {
		char *w[3], *save;

		w[0] = strtok_r(line, " \t", &save);
		w[1] = w[0] ? strtok_r(NULL, " \t", &save) : NULL;
		w[2] = w[1] ? strtok_r(NULL, " \t", &save) : NULL;
		if (w[2] && !strcmp(w[0], "alias"))
			match_alias(w[1], w[2]);
	}
	free(buf);
	if (dir) {
		dep = xasprintf("%s/modules.dep", dir);
		match_drivers(dep);
		free(dep);
	}
	free(dir);
	pack();
	choose_cpu();
	write_plan(x);
}

int dev_groups(struct ctx *x)
{
	dev_plan(x);
	return plan.ngroups;
}

const char *dev_cpu(struct ctx *x)
{
	dev_plan(x);
	return plan.cpu;
}

/* "%id" in OPT becomes ID. */
static void add_opt(struct sb *s, const char *opt, const char *id)
{
	const char *p;

	for (p = opt; *p; p++)
		if (!strncmp(p, "%id", 3)) {
			sb_add(s, id);
			p += 2;
		} else {
			sb_addc(s, *p);
		}
}

/*
 * The boot arguments of group G (0-based): *args, for qemu-boot/boot
 * --devices, and *append, for --append (rocampaign.devices= and the
 * modules' options).  Both NULL when the group attaches nothing and no
 * builtin device has a module.  Group 0 also exercises the modules of the
 * machine's own devices (the q35 SATA controller).
 */
void dev_boot_args(struct ctx *x, int g, char **args, char **append)
{
	struct sb a, p;
	char *m = NULL;
	int i, audio = 0, usb = 0;

	*args = *append = NULL;
	dev_plan(x);
	sb_init(&a);
	sb_init(&p);
	/* The USB devices need their controller's driver, loaded first. */
	for (i = 0; i < plan.n; i++)
		if (plan.d[i].mods && plan.d[i].group == g &&
		    !strcmp(plan.d[i].bus, "usb"))
			usb = 1;
	for (i = 0; usb && i < plan.n; i++)
		if (!strcmp(plan.d[i].name, "qemu-xhci") && plan.d[i].mods)
			add_mods(&m, plan.d[i].mods);
	usb = 0;
	for (i = 0; i < plan.n; i++) {
		struct qdev *d = &plan.d[i];
		char *id, *opts, *save, *one;
		int first = 1;

		if (!d->mods || !strcmp(d->bus, "cpu"))
			continue;
		if (is_builtin(d) ? g != 0 : d->group != g)
			continue;
		add_mods(&m, d->mods);
		if (strcmp(d->params, "-"))
			sb_addf(&p, " %s", d->params);
		if (is_builtin(d))
			continue;
		id = xasprintf("rocdev%d", i);
		if (has_item(d->needs, "audio") && !audio++)
			sb_add(&a, " -audiodev none,id=rocaud");
		if (has_item(d->needs, "usb") && !usb++)
			sb_addf(&a, " -device qemu-xhci,id=rocusb,addr=0x%02x",
				USB_ADDR);
		if (has_item(d->needs, "chardev"))
			sb_addf(&a, " -chardev null,id=%s", id);
		if (has_item(d->needs, "memdev"))
			sb_addf(&a, " -object memory-backend-ram,id=%s,size=1M",
				id);
		if (has_item(d->needs, "disk"))
			sb_addf(&a, " -blockdev driver=null-co,node-name=%s",
				id);
		opts = xstrdup(d->options);
		for (one = strtok_r(opts, ";", &save); one;
		     one = strtok_r(NULL, ";", &save)) {
			sb_add(&a, " -device ");
			add_opt(&a, one, id);
			if (first && d->addr)
				sb_addf(&a, ",addr=0x%02x", d->addr);
			if (first && !strcmp(d->name, "qemu-xhci") && !usb++)
				sb_add(&a, ",id=rocusb");
			first = 0;
		}
		free(opts);
		free(id);
	}
	if (m) {
		*append = xasprintf("rocampaign.devices=%s%s", m,
				    p.len ? p.buf : "");
		if (a.len)
			*args = xstrdup(a.buf + 1);
	}
	free(m);
	sb_free(&a);
	sb_free(&p);
}

/*
 * attached.tsv in a boot's directory DIR: "device bus addr modules" of
 * what group G attached (and the builtin devices in group 0), so that
 * the guest's bound.tsv can be read back in QEMU's names.
 */
void dev_write_attached(struct ctx *x, const char *dir, int g)
{
	char *p = xasprintf("%s/attached.tsv", dir);
	struct sb s;
	int i;

	dev_plan(x);
	sb_init(&s);
	sb_add(&s, "device\tbus\taddr\tmodules\n");
	for (i = 0; i < plan.n; i++) {
		struct qdev *d = &plan.d[i];

		if (!d->mods || !strcmp(d->bus, "cpu"))
			continue;
		if (is_builtin(d) ? g != 0 : d->group != g)
			continue;
		sb_addf(&s, "%s\t%s\t", d->name, d->bus);
		if (d->addr)
			sb_addf(&s, "0000:00:%02x.0", d->addr);
		else if (is_builtin(d) && d->options[7] == ':')
			sb_addf(&s, "0000:00:%s", d->options + 8);
		else
			sb_add(&s, "-");
		sb_addf(&s, "\t%s\n", d->mods);
	}
	if (write_file_atomic(p, s.buf, s.len))
		die(RC_HOST, "cannot write %s", p);
	sb_free(&s);
	free(p);
}

struct att {
	char *device, *bus, *addr, *mods;
};

static struct att *read_attached(const char *dir, int *n)
{
	char *p = xasprintf("%s/attached.tsv", dir), *buf, *line, *next;
	struct att *a = NULL;
	int i;

	*n = 0;
	buf = read_file(p, NULL);
	free(p);
	for (next = buf, i = 0; buf && (line = strsep(&next, "\n")); i++) {
		char *f[4];
		int k;

		for (k = 0; k < 4 && (f[k] = strsep(&line, "\t")); k++)
			;
		if (i == 0 || k < 4)
			continue;
		a = xrealloc(a, (*n + 1) * sizeof(*a));
		a[*n].device = xstrdup(f[0]);
		a[*n].bus = xstrdup(f[1]);
		a[*n].addr = xstrdup(f[2]);
		a[(*n)++].mods = xstrdup(f[3]);
	}
	free(buf);
	return a;
}

static int mods_have(const char *list, const char *mod)
{
	char *l = xstrdup(list), *save, *one;
	int hit = 0;

	for (one = strtok_r(l, ",", &save); one && !hit;
	     one = strtok_r(NULL, ",", &save))
		hit = mod_name_eq(one, mod);
	free(l);
	return hit;
}

/* The QEMU model behind the guest's BUS DEVICE, bound by MOD, or NULL. */
static const char *qemu_name(const struct att *a, int n, const char *mod,
			     const char *bus, const char *dev)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(a[i].bus, "pci") && !strcmp(bus, "pci") &&
		    !strcmp(a[i].addr, dev))
			return a[i].device;
	if (!strcmp(bus, "pci"))
		return NULL;
	for (i = 0; i < n; i++)
		if (strcmp(a[i].bus, "pci") && mods_have(a[i].mods, mod))
			return a[i].device;
	return NULL;
}

static struct modstat *mod_get(struct boot_out *o, const char *name)
{
	struct modstat *m;
	int i;

	for (i = 0; i < o->nmods; i++)
		if (mod_name_eq(o->mods[i].name, name))
			return &o->mods[i];
	o->mods = xrealloc(o->mods, (o->nmods + 1) * sizeof(*o->mods));
	m = &o->mods[o->nmods++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	m->init = xstrdup("-");
	m->exit = xstrdup("-");
	m->detail = xstrdup("not in this boot's modules table");
	return m;
}

static void append(char **s, const char *sep, const char *item)
{
	char *t = xasprintf("%s%s%s", *s ? *s : "", *s ? sep : "", item);

	free(*s);
	*s = t;
}

/*
 * bound.tsv of the boot in DIR, read back through its attached.tsv into
 * the module rows of O: each device a module bound, in QEMU's name, and
 * what the exercises did with it.  Console text: read leniently.
 */
void parse_bound(const char *dir, struct boot_out *o)
{
	char *p = xasprintf("%s/bound.tsv", dir), *buf, *line, *next;
	struct att *a;
	int na, i;

	buf = read_file(p, NULL);
	free(p);
	if (!buf)
		return;
	a = read_attached(dir, &na);
	for (next = buf, i = 0; (line = strsep(&next, "\n")); i++) {
		char *f[9], *item;
		const char *q;
		struct modstat *m;
		int k, ok;

		for (k = 0; k < 9 && (f[k] = strsep(&line, "\t")); k++)
			;
		if (i == 0 || k < 9 || strcmp(f[4], "0"))
			continue;
		q = qemu_name(a, na, f[0], f[1], f[3]);
		if (!q)
			continue;
		m = mod_get(o, f[0]);
		ok = !strcmp(f[5], "ok") && !strcmp(f[6], "ok") &&
		     !strcmp(f[7], "ok");
		m->bound_ok = (m->bound ? m->bound_ok : 1) && ok;
		item = xasprintf("%s@%s", f[2], q);
		append(&m->bound, ",", item);
		free(item);
		item = xasprintf("%s:probe=0,rebind=%s,suspend=%s,unload=%s",
				 q, f[5], f[6], f[7]);
		append(&m->devices, "|", item);
		free(item);
	}
	for (i = 0; i < na; i++) {
		free(a[i].device);
		free(a[i].bus);
		free(a[i].addr);
		free(a[i].mods);
	}
	free(a);
	free(buf);
}

/*
 * The device items of module NAME over the passing boots' tables:
 * "bound=DRIVER@DEV,...; devices=..." when every boot bound its devices
 * and every exercise passed on each, "devices=..." alone when one did
 * not, NULL when no boot bound a device of it.
 */
char *dev_evidence(const char *name, struct modstat *const *tabs,
		   const int *ns, int ntabs)
{
	const struct modstat *m, *last = NULL, *bad = NULL;
	int t, i, missing = 0;

	for (t = 0; t < ntabs; t++) {
		m = NULL;
		for (i = 0; i < ns[t]; i++)
			if (mod_name_eq(tabs[t][i].name, name))
				m = &tabs[t][i];
		if (!m || !m->bound) {
			missing = 1;
			continue;
		}
		last = m;
		if (!m->bound_ok && !bad)
			bad = m;
	}
	if (!last)
		return NULL;
	if (bad)
		return xasprintf("devices=%s", bad->devices);
	if (missing)
		return xasprintf("devices=%s (not bound in every boot)",
				 last->devices);
	return xasprintf("bound=%s; devices=%s", last->bound, last->devices);
}
