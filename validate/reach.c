// SPDX-License-Identifier: GPL-2.0
/*
 * reach.c - what of each conversion ran after init: the functions that
 * use its variable, their hits in the protected boots, and the evidence
 * items ran=, ran-in=, not-ran= and untraced= (FORMATS.md).
 *
 * The functions come from the compiled object, not from the source: a
 * function of the variable's object file uses it when one of its
 * instructions carries a relocation to the variable (objdump -dr).
 * That is what ftrace counts: a reader inlined into its caller shows up
 * as the caller.  Functions of the init, exit, entry and noinstr text
 * are left out (they cannot run after init, or ftrace never counts
 * them).  Limits: only the variable's own object (a global's readers in
 * other files are not looked for), and only vmlinux conversions (a
 * module's functions leave the profile when it is unloaded).
 *
 * Each boot of a batch gets the functions of its members in
 * /rocampaign/profile-functions, a newc cpio appended to the initramfs;
 * the guest (qemu-boot/guest/profile.sh) counts their hits exercise by
 * exercise and prints the table on the console.  The last boot of a
 * conversion, its passing protected boot, gives its items.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "validate.h"

#define MAXFUNCS 8	/* at most this many names per evidence item */

struct reach {
	char *looked;		/* per candidate: its functions are known */
	char ***funcs;		/* ... the functions that use it */
	int *nfuncs;
	char **ev;		/* its items from its last boot, or NULL */
};

static struct reach *reach_of(struct ctx *x)
{
	struct reach *r = x->reach;
	int n = x->c->n + 1;

	if (r)
		return r;
	r = xmalloc(sizeof(*r));
	r->looked = xmalloc(n);
	memset(r->looked, 0, n);
	r->funcs = xmalloc(n * sizeof(*r->funcs));
	memset(r->funcs, 0, n * sizeof(*r->funcs));
	r->nfuncs = xmalloc(n * sizeof(*r->nfuncs));
	memset(r->nfuncs, 0, n * sizeof(*r->nfuncs));
	r->ev = xmalloc(n * sizeof(*r->ev));
	memset(r->ev, 0, n * sizeof(*r->ev));
	x->reach = r;
	return r;
}

static int starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* Text whose functions never run after init, or that ftrace skips. */
static int dead_text(const char *sec)
{
	return starts(sec, ".init.") || starts(sec, ".exit.") ||
	       starts(sec, ".head.text") || starts(sec, ".noinstr.text") ||
	       starts(sec, ".entry.text") || starts(sec, ".ref.text.init");
}

static void add_func(char ***v, int *n, const char *name)
{
	char *f = xstrdup(name), *cold = strstr(f, ".cold");
	int i;

	if (cold)
		*cold = '\0';	/* foo.cold is a part of foo */
	for (i = 0; i < *n; i++)
		if (!strcmp((*v)[i], f)) {
			free(f);
			return;
		}
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = f;
}

/* A reference not yet placed: its offset, the target and the addend. */
struct pending {
	unsigned long long off;
	long long addend;
	int pcrel, direct;
};

struct scan {
	const char *name;	/* the variable */
	char sec[128];		/* its section ... */
	unsigned long long value, size;	/* ... offset and size there */
	int found;
	char text[128], func[256];	/* where the disassembly is */
	struct pending p[8];
	int np;
	char ***out;
	int *nout;
};

/* The pending references of the last instruction, which ends at NEXT. */
static void settle(struct scan *s, unsigned long long next, int known)
{
	int i;

	for (i = 0; i < s->np; i++) {
		struct pending *p = &s->p[i];
		long long t = p->addend;
		int hit;

		if (p->pcrel)
			t += known ? (long long)(next - p->off) : 4;
		hit = p->direct ||
		      (t >= (long long)s->value &&
		       t < (long long)(s->value + (s->size ? s->size : 1)));
		if (hit && s->func[0] && !dead_text(s->text))
			add_func(s->out, s->nout, s->func);
	}
	s->np = 0;
}

/* "\t\t\tb: R_X86_64_PC32\t.data..ro_after_init-0x4" */
static void reloc_line(struct scan *s, const char *l)
{
	char type[64], target[256], *sign;
	unsigned long long off;
	long long add = 0;
	struct pending *p;

	if (sscanf(l, " %llx: %63s %255s", &off, type, target) != 3 ||
	    !starts(type, "R_X86_64_"))
		return;
	sign = strpbrk(target, "+-");
	if (sign) {
		add = strtoll(sign + 1, NULL, 16);
		if (*sign == '-')
			add = -add;
		*sign = '\0';
	}
	if (s->np == ARRAY_SIZE(s->p))
		return;
	p = &s->p[s->np];
	p->off = off;
	p->addend = add;
	p->pcrel = strstr(type, "PC") || strstr(type, "PLT");
	p->direct = !strcmp(target, s->name);
	if (p->direct || (s->found && !strcmp(target, s->sec)))
		s->np++;
}

/*
 * A symbol table line: "VALUE FLAGS SECTION\tSIZE NAME", flags 7 wide.
 * The variable is a data object ('O') of that name.
 */
static void sym_line(struct scan *s, const char *l)
{
	const char *sec = l + 25, *tab, *name;
	unsigned long long size;
	size_t n = strlen(l);

	if (n < 27 || l[16] != ' ' || l[23] != 'O')
		return;
	tab = strchr(sec, '\t');
	if (!tab || (size_t)(tab - sec) >= sizeof(s->sec))
		return;
	size = strtoull(tab + 1, (char **)&name, 16);
	while (*name == ' ')
		name++;
	if (starts(name, ".hidden "))
		name += strlen(".hidden ");
	if (strcmp(name, s->name) || s->found)
		return;
	memcpy(s->sec, sec, tab - sec);
	s->sec[tab - sec] = '\0';
	s->value = strtoull(l, NULL, 16);
	s->size = size;
	s->found = 1;
}

/* The functions of OBJ (objdump -t -dr output in DUMP) that use NAME. */
static void scan_dump(const char *dump, const char *name, char ***out,
		      int *nout)
{
	char *buf = read_file(dump, NULL), *next, *l, *colon;
	struct scan s;
	int syms = 0;

	memset(&s, 0, sizeof(s));
	s.name = name;
	s.out = out;
	s.nout = nout;
	for (next = buf; next && (l = strsep(&next, "\n")); ) {
		unsigned long long a;

		if (!strcmp(l, "SYMBOL TABLE:")) {
			syms = 1;
			continue;
		}
		if (syms) {
			if (!*l)
				syms = 0;
			else
				sym_line(&s, l);
			continue;
		}
		if (starts(l, "Disassembly of section ")) {
			settle(&s, 0, 0);
			snprintf(s.text, sizeof(s.text), "%s",
				 l + strlen("Disassembly of section "));
			s.text[strcspn(s.text, ":")] = '\0';
			s.func[0] = '\0';
			continue;
		}
		/* "0000000000000010 <foo>:" */
		if (l[0] != ' ' && l[0] != '\t' && strstr(l, " <") &&
		    l[strlen(l) - 1] == ':') {
			a = strtoull(l, NULL, 16);
			settle(&s, a, 1);
			snprintf(s.func, sizeof(s.func), "%s",
				 strstr(l, " <") + 2);
			s.func[strcspn(s.func, ">")] = '\0';
			continue;
		}
		if (strstr(l, ": R_X86_64_")) {
			reloc_line(&s, l);
			continue;
		}
		/* "   9:\tmov ..." */
		colon = strchr(l, ':');
		if (colon && colon[1] == '\t' &&
		    strspn(l, " ") + strspn(l + strspn(l, " "),
					    "0123456789abcdef") ==
		    (size_t)(colon - l)) {
			a = strtoull(l, NULL, 16);
			settle(&s, a, 1);
		}
	}
	settle(&s, 0, 0);
	free(buf);
}

/* Look up the functions that use candidate K, once. */
static void look_up(struct ctx *x, struct reach *r, int k)
{
	struct cand *cd = &x->c->v[k];
	size_t l = strlen(cd->file);
	char *mod, *obj, *dump, *argv[8];

	r->looked[k] = 1;
	mod = x->msg[k] ? cand_module(x->msg[k]) : NULL;
	if (mod || cd->annot != AN_RO || l < 3 ||
	    strcmp(cd->file + l - 2, ".c")) {
		free(mod);
		return;
	}
	obj = xasprintf("%s/%.*s.o", x->build_dir, (int)(l - 2), cd->file);
	dump = spath(x, "objdump.txt");
	argv[0] = "objdump";
	argv[1] = "-t";
	argv[2] = "-dr";
	argv[3] = "--no-show-raw-insn";
	argv[4] = obj;
	argv[5] = NULL;
	if (run_tool(argv, dump, x->log) == 0)
		scan_dump(dump, cd->name, &r->funcs[k], &r->nfuncs[k]);
	remove(dump);
	free(dump);
	free(obj);
}

static void put32(struct sb *s, unsigned long v)
{
	sb_addf(s, "%08lX", v);
}

/* A newc cpio of one file, NAME with DATA, and its trailer. */
static void newc_entry(struct sb *s, const char *name, const char *data,
		       unsigned long mode)
{
	size_t len = data ? strlen(data) : 0;
	unsigned long f[13] = { 0 };
	int i;

	f[0] = 1;		/* ino */
	f[1] = mode;
	f[4] = 1;		/* nlink */
	f[6] = len;
	f[11] = strlen(name) + 1;
	sb_add(s, "070701");
	for (i = 0; i < 13; i++)
		put32(s, f[i]);
	sb_add(s, name);
	do
		sb_addc(s, '\0');
	while (s->len % 4);
	if (len) {
		sb_add(s, data);
		while (s->len % 4)
			sb_addc(s, '\0');
	}
}

char *reach_initrd(struct ctx *x, const int *set, int n, const char *dir)
{
	struct reach *r = reach_of(x);
	struct sb list, cpio;
	char **all = NULL, *base, *gz, *out, *parent, *slash;
	int nall = 0, i, j, fd;
	size_t glen;

	for (i = 0; i < n; i++) {
		if (!r->looked[set[i]])
			look_up(x, r, set[i]);
		for (j = 0; j < r->nfuncs[set[i]]; j++)
			add_func(&all, &nall, r->funcs[set[i]][j]);
	}
	if (!nall)
		return NULL;
	sb_init(&list);
	for (i = 0; i < nall; i++) {
		sb_addf(&list, "%s\n", all[i]);
		free(all[i]);
	}
	free(all);
	sb_init(&cpio);
	newc_entry(&cpio, "rocampaign/profile-functions", list.buf, 0100644);
	newc_entry(&cpio, "TRAILER!!!", NULL, 0);
	sb_free(&list);
	base = xasprintf("%s/ro-campaign/initramfs.cpio.gz", x->build_dir);
	gz = read_file(base, &glen);
	if (!gz)
		die(RC_HOST, "%s: cannot read it", base);
	out = xasprintf("%s.initrd", dir);
	/* the boot makes DIR itself; its parent may not be there yet */
	parent = xstrdup(dir);
	slash = strrchr(parent, '/');
	if (slash) {
		*slash = '\0';
		if (mkdirs(parent))
			die(RC_HOST, "%s: %s", parent, strerror(errno));
	}
	free(parent);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		die(RC_HOST, "%s: %s", out, strerror(errno));
	/*
	 * The kernel unpacks archives one after the other; zeros between
	 * them are padding, and an uncompressed one starts 4-aligned.
	 */
	if (write_all(fd, gz, glen) ||
	    write_all(fd, "\0\0\0", (4 - glen % 4) % 4) ||
	    write_all(fd, cpio.buf, cpio.len) || close(fd))
		die(RC_HOST, "%s: cannot write it", out);
	free(gz);
	free(base);
	sb_free(&cpio);
	return out;
}

/* A row of the console's profile table: exercise, function, count. */
struct hit {
	char *ex, *func;
	unsigned long long n;
};

static int read_table(const char *dir, struct hit **out)
{
	char *p = xasprintf("%s/console.log", dir), *buf, *next, *l;
	char *f[3];
	struct hit *h = NULL;
	int n = 0, in = 0, seen = 0, k;

	buf = read_file(p, NULL);
	free(p);
	for (next = buf; next && (l = strsep(&next, "\n")); ) {
		l[strcspn(l, "\r")] = '\0';
		if (!strcmp(l, "# rocampaign: profile-begin")) {
			in = seen = 1;
			continue;
		}
		if (!strcmp(l, "# rocampaign: profile-end")) {
			in = 0;
			continue;
		}
		if (!in)
			continue;
		for (k = 0; k < 3 && (f[k] = strsep(&l, "\t")); k++)
			;
		if (k != 3 || l || !*f[0] || !*f[1] || !*f[2] ||
		    strspn(f[2], "0123456789") != strlen(f[2]) ||
		    !strcmp(f[0], "exercise"))
			continue;
		h = xrealloc(h, (n + 1) * sizeof(*h));
		h[n].ex = xstrdup(f[0]);
		h[n].func = xstrdup(f[1]);
		h[n++].n = strtoull(f[2], NULL, 10);
	}
	free(buf);
	*out = h;
	return seen ? n : -1;
}

/* The profiler prints a function's name cut at 30 characters. */
static int same_func(const char *row, const char *f)
{
	return strlen(f) > 30 ? !strncmp(row, f, 30) && strlen(row) == 30 :
				!strcmp(row, f);
}

static void add_name(struct sb *s, int *k, const char *name, const char *tail)
{
	if (*k == MAXFUNCS)
		sb_add(s, ",...");
	if (*k >= MAXFUNCS) {
		++*k;
		return;
	}
	sb_addf(s, "%s%s%s", (*k)++ ? "," : "", name, tail);
}

/* The items of candidate K from the table H[0..N-1]. */
static char *items(struct reach *r, int k, const struct hit *h, int n)
{
	struct sb ran, in, notran, untr, all;
	char num[32], **ex = NULL;
	int j, i, nran = 0, nnot = 0, nun = 0, nex = 0, e;

	sb_init(&ran);
	sb_init(&in);
	sb_init(&notran);
	sb_init(&untr);
	for (j = 0; j < r->nfuncs[k]; j++) {
		const char *f = r->funcs[k][j];
		unsigned long long c = 0;
		int traced = 0;

		for (i = 0; i < n; i++) {
			if (!same_func(h[i].func, f))
				continue;
			if (!strcmp(h[i].ex, "-")) {
				traced = 1;
				continue;
			}
			c += h[i].n;
			if (!h[i].n)
				continue;
			for (e = 0; e < nex && strcmp(ex[e], h[i].ex); e++)
				;
			if (e == nex) {
				ex = xrealloc(ex, (nex + 1) * sizeof(*ex));
				ex[nex++] = h[i].ex;
			}
		}
		if (c) {
			snprintf(num, sizeof(num), ":%llu", c);
			add_name(&ran, &nran, f, num);
		} else if (traced) {
			add_name(&notran, &nnot, f, "");
		} else {
			add_name(&untr, &nun, f, "");
		}
	}
	for (e = 0; e < nex; e++)
		sb_addf(&in, "%s%s", e ? "," : "", ex[e]);
	free(ex);
	sb_init(&all);
	if (nran)
		sb_addf(&all, "ran=%s; ran-in=%s", ran.buf, in.buf);
	if (nnot)
		sb_addf(&all, "%snot-ran=%s", all.len ? "; " : "", notran.buf);
	if (nun)
		sb_addf(&all, "%suntraced=%s", all.len ? "; " : "", untr.buf);
	sb_free(&ran);
	sb_free(&in);
	sb_free(&notran);
	sb_free(&untr);
	if (!all.len) {
		sb_free(&all);
		return NULL;
	}
	return all.buf;
}

void reach_collect(struct ctx *x, const char *dir, const int *set, int n)
{
	struct reach *r = reach_of(x);
	struct hit *h;
	int nh = read_table(dir, &h), i;

	for (i = 0; i < n; i++) {
		free(r->ev[set[i]]);
		r->ev[set[i]] = NULL;
		if (nh >= 0 && r->nfuncs[set[i]])
			r->ev[set[i]] = items(r, set[i], h, nh);
	}
	for (i = 0; i < nh; i++) {
		free(h[i].ex);
		free(h[i].func);
	}
	free(h);
}

const char *reach_evidence(struct ctx *x, int k)
{
	return x->reach ? x->reach->ev[k] : NULL;
}
