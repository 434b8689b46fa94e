// SPDX-License-Identifier: GPL-2.0
/*
 * validate - batch boot-validation of __ro_after_init conversions.
 *
 * For each batch of candidates: reset the work tree, annotate it with
 * cocci/annotate.sh, build it with qemu-boot/build-kernel.sh (bisecting
 * build failures), check every symbol's section, boot it in warn mode
 * with the whole exercise suite (violations reject their variable; other
 * failures are bisected), confirm the survivors with a boot in the
 * default oops-on-write mode, and journal every verdict.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "validate.h"

#define MAXF 16

enum mode { M_WARN, M_DEFAULT };
static const char *const mode_name[] = { "warn", "default" };

struct boot_out {
	int rc;			/* the boot tool's exit status */
	int ok;			/* passed, relative to the baseline */
	char *reason;		/* why not, one line */
	char *exercised;	/* exercises that passed, comma list */
	int *hit;		/* attributed candidates ... */
	char **why;		/* ... and their writers */
	int nhit;
};

struct ctx {
	const char *tools, *tree, *work, *profile, *state, *log;
	const char *extra_patch, *exercises, *accel;
	char *commit, *build_dir, *config_hash, *core_hash, *batch;
	int timeout, timeout_set, retest;
	enum mode first_mode;	/* M_DEFAULT when the kernel has no warn mode */
	struct cands *c;
	struct journal j;
	char **msg;		/* per candidate: why it failed alone */
	char *not_found;	/* per candidate: annotate.sh found no definition */
	unsigned long long built_sig;
	int built_valid;
	/* the baseline: violations and failing exercises of the bare kernel */
	char **base_viol, **base_fail[2];
	int nbase_viol, nbase_fail[2];
	/* the objects of the baseline build, sorted: what the profile compiles */
	char **objs;
	int nobjs;
	/* figures */
	int builds, boots, nboot;
	double t_build, t_boot, t_bisect, t_start;
	double base_boot_s;	/* the slower of the bare kernel's two boots */
	int counts[V_SKIPPED + 1];
};

static const char usage_text[] =
"usage: validate --candidates FILE --tree DIR --work DIR [options]\n"
"\n"
"Validate the class ro_after_init rows of a candidates TSV by batches:\n"
"annotate, build, section check, boot in warn mode with the exercise\n"
"suite, bisect what fails, confirm in the default mode, journal.\n"
"Candidates in files that the bare kernel's build does not compile are\n"
"not-built at once, without a place in a batch.\n"
"\n"
"  --candidates FILE  the finder's TSV (file line name ... class ...)\n"
"  --tree DIR         a git work tree of the prepared kernel, used only by\n"
"                     this program (it is reset before every batch)\n"
"  --work DIR         the work directory (build dirs, build.lock)\n"
"  --profile NAME     kernel profile, fast or wide (default fast)\n"
"  --batch N          conversions per batch (default 128)\n"
"  --journal FILE     verdict journal (default WORK/validate/PROFILE/journal.tsv)\n"
"  --base REF         the tree's base commit (default core)\n"
"  --tools DIR        the ro-campaign checkout (default: the program's ../)\n"
"  --timeout S        limit of each boot (default: ten times the bare\n"
"                     kernel's boot, at least 120 s and at most 400 s)\n"
"  --accel MODE       qemu-boot/boot --accel: tcg (default: KVM stalls on\n"
"                     the machines of DESIGN.md), kvm or auto\n"
"  --exercise NAMES   exercises of every boot (default all)\n"
"  --retest N         extra lone failures a boot culprit needs (default 1)\n"
"  --extra-patch FILE a patch applied after every reset (test fixtures)\n"
"  --max N            build and boot at most N undecided conversions\n"
"                     (not-built ones decided from the baseline are\n"
"                     not counted)\n"
"  -h, --help         this text\n"
"\n"
"The journal is append-only and fsync'ed; a rerun skips what it decided\n"
"for the same kernel config and core hashes.  Progress goes to stderr,\n"
"the tools' output to STATE/validate.log next to the journal.\n"
"\n"
"Exit: 0 all decided, 64 usage, 65 bad candidates or journal,\n"
"70 a tool, the tree or the baseline boot failed, 130 interrupted.\n";

static void usage_error(const char *fmt, const char *arg)
{
	fputs("validate: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\n(validate --help for usage)\n", stderr);
	exit(EXIT_USAGE);
}

static void check_intr(void)
{
	if (interrupted)
		die(EXIT_INTR, "interrupted (signal %d); rerun to resume",
		    interrupted);
}

static char *abs_path(const char *p)
{
	char buf[PATH_MAX];

	if (!realpath(p, buf))
		die(EXIT_USAGE, "%s: %s", p, strerror(errno));
	return xstrdup(buf);
}

static char *spath(struct ctx *x, const char *name)
{
	return xasprintf("%s/%s", x->state, name);
}

/* Last line of a file, without the newline; NULL if none. */
static char *last_line(const char *path)
{
	char *buf = read_file(path, NULL), *p, *r;

	if (!buf)
		return NULL;
	p = buf + strlen(buf);
	while (p > buf && p[-1] == '\n')
		*--p = '\0';
	while (p > buf && p[-1] != '\n')
		p--;
	r = *p ? xstrdup(p) : NULL;
	free(buf);
	return r;
}

static int git(struct ctx *x, const char *out, const char *a1,
	       const char *a2, const char *a3, const char *a4)
{
	char *argv[8];

	argv[0] = "git";
	argv[1] = "-C";
	argv[2] = (char *)x->tree;
	argv[3] = (char *)a1;
	argv[4] = (char *)a2;
	argv[5] = (char *)a3;
	argv[6] = (char *)a4;
	argv[7] = NULL;

	return run_tool(argv, out, x->log);
}

/* ---- the work tree ------------------------------------------------------ */

/* An orphaned build of a killed run must finish before the tree moves. */
static void wait_builds(struct ctx *x)
{
	char *p = xasprintf("%s/build.lock", x->work);
	int fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		die(EXIT_HOST, "%s: %s", p, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		warnx("waiting for a kernel build to finish (%s)", p);
		while (flock(fd, LOCK_EX) && errno == EINTR)
			check_intr();
	}
	close(fd);
	free(p);
}

static void reset_tree(struct ctx *x)
{
	wait_builds(x);
	x->built_valid = 0;
	if (git(x, NULL, "checkout", "-q", "--", ".") ||
	    git(x, NULL, "clean", "-fdq", NULL, NULL) ||
	    git(x, NULL, "checkout", "-q", "--detach", x->commit))
		die(EXIT_HOST, "%s: cannot reset the work tree to %s (see %s)",
		    x->tree, x->commit, x->log);
	if (x->extra_patch &&
	    git(x, NULL, "apply", x->extra_patch, NULL, NULL))
		die(EXIT_HOST, "%s: does not apply to %s (see %s)",
		    x->extra_patch, x->commit, x->log);
	check_intr();
}

static unsigned long long set_sig(const int *set, int n)
{
	return fnv1a(fnv1a(0, &n, sizeof(n)), set, n * sizeof(*set));
}

/* The first compiler error of the build log, preferring one in file. */
static char *build_error(struct ctx *x, const char *file)
{
	char *p = xasprintf("%s/build.log", x->build_dir);
	char *buf = read_file(p, NULL), *line, *next, *first = NULL, *r;

	free(p);
	if (!buf)
		return xstrdup("build failed (no build.log)");
	for (line = buf; *line; line = next) {
		next = next_line(line);
		if (!strstr(line, "error:") && !strstr(line, "Error "))
			continue;
		if (file && strstr(line, file)) {
			first = line;
			break;
		}
		if (!first)
			first = line;
	}
	r = one_line(first ? first : "build failed", 400);
	free(buf);
	return r;
}

/*
 * annotate.sh exits 1 when it finds no definition for some keys and names
 * them on stderr: "annotate: not found: FILE:LINE NAME".
 */
static void mark_not_found(struct ctx *x, const char *err, const int *set,
			   int n)
{
	char *buf = read_file(err, NULL), *key;
	int i;

	for (i = 0; buf && i < n; i++) {
		struct cand *cd = &x->c->v[set[i]];

		key = xasprintf("annotate: not found: %s:%d %s\n", cd->file,
				cd->line, cd->name);
		if (strstr(buf, key))
			x->not_found[set[i]] = 1;
		free(key);
	}
	free(buf);
}

/*
 * The annotate list of set[]: each conversion with its siblings, the other
 * definitions of the same name in the same file.  Those are #ifdef
 * variants (pci-dma.c's "int force_iommu __read_mostly = 1;" under
 * CONFIG_IOMMU_DEBUG and "= 0;" under #else): the profile compiles one of
 * them, so converting only the one a batch holds would leave the symbol
 * in .data..read_mostly and fail the section check for a good conversion.
 */
static void write_with_siblings(struct ctx *x, FILE *f, const int *set, int n)
{
	char *listed = xmalloc(x->c->n ? x->c->n : 1);
	int i, j;

	memset(listed, 0, x->c->n);
	for (i = 0; i < n; i++)
		listed[set[i]] = 1;
	for (i = 0; i < n; i++) {
		const struct cand *cd = &x->c->v[set[i]];

		fprintf(f, "%s\t%d\t%s\n", cd->file, cd->line, cd->name);
		for (j = 0; j < x->c->n; j++) {
			const struct cand *sib = &x->c->v[j];

			if (listed[j] || strcmp(sib->name, cd->name) ||
			    strcmp(sib->file, cd->file))
				continue;
			listed[j] = 1;
			fprintf(f, "%s\t%d\t%s\n", sib->file, sib->line,
				sib->name);
		}
	}
	free(listed);
}

/*
 * Reset, annotate set[] and build.  1 built, 0 failed (the reason in
 * msg[] when the set is one candidate), -1 never (host errors exit).
 */
static int prepare(struct ctx *x, const int *set, int n)
{
	char *list, *diff, *res, *err, *argv[6];
	unsigned long long sig = set_sig(set, n);
	double t;
	FILE *f;
	int rc;

	if (x->built_valid && x->built_sig == sig)
		return 1;
	reset_tree(x);
	list = spath(x, "annotate.list");
	diff = spath(x, "annotate.diff");
	if (!n)
		goto build;
	f = fopen(list, "w");
	if (!f)
		die(EXIT_HOST, "%s: %s", list, strerror(errno));
	fputs("file\tline\tname\n", f);
	write_with_siblings(x, f, set, n);
	if (fclose(f))
		die(EXIT_HOST, "%s: %s", list, strerror(errno));
	argv[0] = "sh";
	argv[1] = xasprintf("%s/cocci/annotate.sh", x->tools);
	argv[2] = (char *)x->tree;
	argv[3] = list;
	argv[4] = NULL;
	err = spath(x, "annotate.err");
	rc = run_tool(argv, diff, err);
	check_intr();
	if (rc != 0 && rc != 1)
		die(EXIT_HOST, "%s failed (exit %d) on %s, see %s", argv[1], rc,
		    list, err);
	if (rc == 1)
		mark_not_found(x, err, set, n);
	free(err);
	free(argv[1]);
	if (git(x, NULL, "apply", diff, NULL, NULL)) {
		check_intr();
		if (n == 1) {
			free(x->msg[set[0]]);
			x->msg[set[0]] = xstrdup("annotate: the diff does not apply");
		}
		return 0;
	}
build:
	argv[0] = "sh";
	argv[1] = xasprintf("%s/qemu-boot/build-kernel.sh", x->tools);
	argv[2] = (char *)x->profile;
	argv[3] = (char *)x->tree;
	argv[4] = (char *)x->work;
	argv[5] = NULL;
	res = spath(x, "build.out");
	t = now();
	rc = run_tool(argv, res, x->log);
	x->t_build += now() - t;
	x->builds++;
	free(argv[1]);
	check_intr();
	if (rc != 0 && rc != 1)
		die(EXIT_HOST, "build-kernel.sh exit %d, see %s", rc, x->log);
	if (rc == 1) {
		if (n == 1) {
			free(x->msg[set[0]]);
			x->msg[set[0]] = build_error(x, x->c->v[set[0]].file);
		}
		free(list);
		free(diff);
		free(res);
		return 0;
	}
	free(list);
	free(diff);
	free(res);
	x->built_sig = sig;
	x->built_valid = 1;
	return 1;
}

static int build_test(void *ctx, const int *set, int n)
{
	return prepare(ctx, set, n);
}

/* ---- section check ------------------------------------------------------ */

/* The module (.ko, relative to O) an object is linked into, or NULL. */
static char *module_of(struct ctx *x, const char *obj)
{
	char *p = xasprintf("%s/modules.order", x->build_dir);
	char *order = read_file(p, NULL), *ko, *next, *r = NULL;

	free(p);
	for (ko = order; ko && *ko && !r; ko = next) {
		char *mod, *objs, *o, *on;
		size_t l;

		next = strchr(ko, '\n');
		if (next)
			*next++ = '\0';
		else
			next = ko + strlen(ko);
		l = strlen(ko);
		if (l < 4 || strcmp(ko + l - 3, ".ko"))
			continue;
		mod = xasprintf("%s/%.*s.mod", x->build_dir, (int)(l - 3), ko);
		objs = read_file(mod, NULL);
		free(mod);
		for (o = objs; o && *o; o = on) {
			on = o + strcspn(o, "\n ");
			if (*on)
				*on++ = '\0';
			if (!strcmp(o, obj)) {
				r = xstrdup(ko);
				break;
			}
		}
		free(objs);
	}
	free(order);
	return r;
}

/*
 * gcc keeps the section of an earlier declaration (a header's
 * __read_mostly, say) and only warns "ignoring attribute 'section' ...
 * because it conflicts with previous": that warning, if the last build
 * printed one at the candidate's file:line, else NULL.
 */
static char *section_warning(struct ctx *x, const struct cand *cd)
{
	char *p = xasprintf("%s/build.log", x->build_dir);
	char *buf = read_file(p, NULL), *line, *next, *r = NULL;
	char *key = xasprintf("%s:%d:", cd->file, cd->line);

	free(p);
	for (line = buf; buf && *line && !r; line = next) {
		next = next_line(line);
		/* from file:line on: the tree's absolute path is noise */
		if (strstr(line, key) && strstr(line, "conflicts with") &&
		    strstr(line, "section"))
			r = one_line(strstr(line, key), 300);
	}
	free(key);
	free(buf);
	return r;
}

/* Decide not-built / rejected, or return 1 with the evidence in *ev. */
static int section_check(struct ctx *x, int i, char **ev)
{
	struct cand *cd = &x->c->v[i];
	size_t l = strlen(cd->file);
	char where[256], *rel, *obj, *ko, *path, *e;
	enum sec_result r;

	if (l < 3 || strcmp(cd->file + l - 2, ".c")) {
		journal_record(&x->j, cd, x->batch, V_NOTBUILT,
			       "not-built: not a .c file, no object to check");
		return 0;
	}
	rel = xasprintf("%.*s.o", (int)(l - 2), cd->file);
	obj = xasprintf("%s/%s", x->build_dir, rel);
	r = elf_check_object(obj, cd->name, where, sizeof(where));
	if (r == SEC_NOFILE || r == SEC_MISSING) {
		e = r == SEC_NOFILE ?
			xasprintf("not-built: %s is not compiled in profile %s",
				  rel, x->profile) :
			xasprintf("not-built: no symbol %s in %s (compiled out)",
				  cd->name, rel);
		journal_record(&x->j, cd, x->batch, V_NOTBUILT, e);
		goto out;
	}
	if (r != SEC_OK) {
		char *w = r == SEC_WRONG ? section_warning(x, cd) : NULL;

		if (r != SEC_WRONG)
			e = xasprintf("section: %s is not a readable ELF file", rel);
		else if (w)
			e = xasprintf("section: %s is in %s of %s, not .data..ro_after_init: %s",
				      cd->name, where, rel, w);
		else
			e = xasprintf("section: %s is in %s of %s, not .data..ro_after_init (annotation not applied?)",
				      cd->name, where, rel);
		free(w);
		journal_record(&x->j, cd, x->batch, V_REJECTED, e);
		goto out;
	}
	ko = module_of(x, rel);
	if (ko) {
		path = xasprintf("%s/%s", x->build_dir, ko);
		r = elf_check_object(path, cd->name, where, sizeof(where));
	} else {
		path = xasprintf("%s/vmlinux", x->build_dir);
		r = elf_check_vmlinux(path, cd->name, cd->file, where,
				      sizeof(where));
	}
	free(path);
	if (r == SEC_OK) {
		*ev = xasprintf("built=%s,%s", rel, ko ? ko : "vmlinux");
		free(ko);
		free(obj);
		free(rel);
		return 1;
	}
	if (r == SEC_MISSING)
		e = xasprintf("not-built: %s not linked into %s (discarded)",
			      cd->name, ko ? ko : "vmlinux");
	else
		e = xasprintf("section: %s is at %s in %s, outside ro_after_init",
			      cd->name, where, ko ? ko : "vmlinux");
	journal_record(&x->j, cd, x->batch,
		       r == SEC_MISSING ? V_NOTBUILT : V_REJECTED, e);
	free(ko);
out:
	free(e);
	free(obj);
	free(rel);
	return 0;
}

/* ---- boots --------------------------------------------------------------- */

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

static int find_in_set(struct ctx *x, const int *set, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(x->c->v[set[i]].name, name))
			return set[i];
	return -1;
}

/* violations.tsv: symbol address writer count first_cpu, with a header. */
static void parse_violations(struct ctx *x, const char *dir, const int *set,
			     int n, struct boot_out *o, char ***names,
			     int *nnames)
{
	char *p = xasprintf("%s/violations.tsv", dir), *buf, *line, *next;
	char *vm = xasprintf("%s/ro-campaign/vmlinux", x->build_dir);
	char *f[MAXF], *name, sym[256];
	int k, i, nf;

	buf = read_file(p, NULL);
	free(p);
	for (line = buf, i = 0; line && *line; line = next, i++) {
		next = next_line(line);
		nf = split_tabs(line, f, MAXF);
		if (i == 0 && !strcmp(f[0], "symbol"))
			continue;
		if (nf < 3 || !*f[0] || f[0][0] == '#')
			continue;
		f[0][strcspn(f[0], "+")] = '\0';
		name = f[0];
		/*
		 * kallsyms knows no sizes: of two symbols at one address (a
		 * zero-size lock_class_key before a struct) it may name the
		 * wrong one.  vmlinux's symbol table names the object that
		 * holds the address.
		 */
		if (!elf_symbolize(vm, strtoull(f[1], NULL, 16), sym, sizeof(sym)))
			name = sym;
		if (names) {
			*names = xrealloc(*names, (*nnames + 1) * sizeof(char *));
			(*names)[(*nnames)++] = xstrdup(name);
			continue;
		}
		if (in_list(x->base_viol, x->nbase_viol, name))
			continue;
		k = find_in_set(x, set, n, name);
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
static void parse_oopses(struct ctx *x, const char *dir, const int *set,
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
		k = find_in_set(x, set, n, sym);
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
static void parse_results(struct ctx *x, const char *dir, enum mode m,
			  struct boot_out *o, char ***fails, int *nfails)
{
	char *p = xasprintf("%s/result.tsv", dir), *buf, *line, *next;
	char *f[MAXF], *ex = xstrdup(""), *t;
	int k, i;

	buf = read_file(p, NULL);
	free(p);
	for (line = buf, i = 0; line && *line; line = next, i++) {
		next = next_line(line);
		k = split_tabs(line, f, MAXF);
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

static void boot_free(struct boot_out *o)
{
	int i;

	for (i = 0; i < o->nhit; i++)
		free(o->why[i]);
	free(o->hit);
	free(o->why);
	free(o->reason);
	free(o->exercised);
	memset(o, 0, sizeof(*o));
}

static const char *const boot_verdict[] = { "pass", "fail", "hang",
					    "invalid" };

/* Boot what is built.  Baseline: fill the baseline lists instead. */
static void boot_kernel(struct ctx *x, enum mode m, const int *set, int n,
		 struct boot_out *o, int baseline)
{
	char *res = xasprintf("%s/ro-campaign", x->build_dir);
	char *argv[16], *dir, *t;
	double t0;
	int a = 0;

	memset(o, 0, sizeof(*o));
	argv[0] = "sh";
	argv[1] = xasprintf("%s/qemu-boot/mkinitramfs.sh", x->tools);
	argv[2] = res;
	argv[3] = NULL;
	if (run_tool(argv, NULL, x->log)) {
		check_intr();
		die(EXIT_HOST, "mkinitramfs.sh %s failed, see %s", res, x->log);
	}
	free(argv[1]);
	dir = xasprintf("%s/boots/%s-%d-%s", x->state, x->batch, ++x->nboot,
			mode_name[m]);
	argv[a++] = xasprintf("%s/qemu-boot/boot", x->tools);
	argv[a++] = xasprintf("%s/bzImage", res);
	argv[a++] = "--out";
	argv[a++] = dir;
	argv[a++] = "--timeout";
	argv[a++] = xasprintf("%d", x->timeout);
	argv[a++] = "--accel";
	argv[a++] = (char *)x->accel;
	if (m == M_WARN) {
		argv[a++] = "--append";
		argv[a++] = "ro_after_init=warn";
	}
	if (x->exercises) {
		argv[a++] = "--exercise";
		argv[a++] = (char *)x->exercises;
	}
	argv[a] = NULL;
	t0 = now();
	o->rc = run_tool(argv, NULL, x->log);
	t0 = now() - t0;
	x->t_boot += t0;
	if (baseline && t0 > x->base_boot_s)
		x->base_boot_s = t0;
	x->boots++;
	check_intr();
	if (o->rc < 0 || o->rc > 3)
		die(EXIT_HOST, "qemu-boot/boot exit %d (%s), see %s", o->rc,
		    dir, x->log);
	if (baseline) {
		parse_results(x, dir, m, o, &x->base_fail[m],
			      &x->nbase_fail[m]);
		if (m == M_WARN)
			parse_violations(x, dir, set, n, o, &x->base_viol,
					 &x->nbase_viol);
	} else {
		parse_results(x, dir, m, o, NULL, NULL);
		parse_violations(x, dir, set, n, o, NULL, NULL);
		parse_oopses(x, dir, set, n, o);
	}
	if (o->rc >= 2 && !o->reason) {
		free(o->reason);
		o->reason = xasprintf("boot %s", boot_verdict[o->rc]);
	} else if (o->rc >= 2) {
		t = xasprintf("boot %s: %s", boot_verdict[o->rc], o->reason);
		free(o->reason);
		o->reason = t;
	}
	o->ok = o->rc <= 1 && !o->reason;
	free(argv[0]);
	free(argv[1]);
	free(argv[5]);
	free(dir);
	free(res);
}

struct boot_test_ctx {
	struct ctx *x;
	enum mode m;
};

static int boot_test(void *ctx, const int *set, int n)
{
	struct boot_test_ctx *b = ctx;
	struct ctx *x = b->x;
	struct boot_out o;
	int r;

	if (!prepare(x, set, n))
		return 0;
	boot_kernel(x, b->m, set, n, &o, 0);
	r = o.ok && !o.nhit;
	if (!r && n == 1) {
		free(x->msg[set[0]]);
		x->msg[set[0]] = xasprintf("%s boot: %s", mode_name[b->m],
					   o.nhit ? o.why[0] : o.reason);
	}
	boot_free(&o);
	return r;
}

static int in_set(const int *set, int n, int cand)
{
	int i;

	for (i = 0; i < n; i++)
		if (set[i] == cand)
			return 1;
	return 0;
}

static void drop(int *set, int *n, int cand)
{
	int i, k = 0;

	for (i = 0; i < *n; i++)
		if (set[i] != cand)
			set[k++] = set[i];
	*n = k;
}

static void reject(struct ctx *x, int *set, int *n, int cand,
		   const char *why)
{
	journal_record(&x->j, &x->c->v[cand], x->batch, V_REJECTED, why);
	drop(set, n, cand);
}

/*
 * A compiler error names its file.  The candidates of the failing set in
 * the files the errors name are the suspects: if the set builds without
 * them, the culprits are among them (one suspect: it is the culprit).
 * Returns the number of culprits found, 0 when the shortcut does not
 * apply, and the caller bisects the whole set.
 */
static int suspects(struct ctx *x, const int *set, int n, int *cul)
{
	char *p = xasprintf("%s/build.log", x->build_dir), *log;
	int *s = xmalloc((n + 1) * sizeof(int)), *rest, ns = 0, nr = 0, i, k;

	log = read_file(p, NULL);
	free(p);
	for (i = 0; log && i < n; i++) {
		struct cand *cd = &x->c->v[set[i]];
		char *key = xasprintf("%s:", cd->file);

		if (strstr(log, key)) {
			s[ns++] = set[i];
			free(x->msg[set[i]]);
			x->msg[set[i]] = build_error(x, cd->file);
		}
		free(key);
	}
	free(log);
	if (ns == 0 || ns == n) {
		free(s);
		return 0;
	}
	rest = xmalloc((n + 1) * sizeof(int));
	for (i = 0; i < n; i++)
		if (!in_set(s, ns, set[i]))
			rest[nr++] = set[i];
	k = 0;
	if (prepare(x, rest, nr)) {
		if (ns == 1) {
			cul[0] = s[0];
			k = 1;
		} else {
			k = bisect(build_test, x, s, ns, 0, 0, cul);
		}
	}
	free(rest);
	free(s);
	return k;
}

/*
 * Build set[] until it builds, rejecting what breaks the build.
 */
static void build_phase(struct ctx *x, int *set, int *n)
{
	int *cul = xmalloc((*n + 1) * sizeof(int)), k, i;
	double t;

	while (*n && !prepare(x, set, *n)) {
		t = now();
		k = suspects(x, set, *n, cul);
		if (k <= 0)
			k = bisect(build_test, x, set, *n, 1, 0, cul);
		x->t_bisect += now() - t;
		if (k == 0) {
			char *why = xasprintf("build: fails only together with others: %s",
					      build_error(x, NULL));

			while (*n)
				reject(x, set, n, set[0], why);
			free(why);
			break;
		}
		for (i = 0; i < k; i++) {
			char *why = xasprintf("build: %s", x->msg[cul[i]]);

			reject(x, set, n, cul[i], why);
			free(why);
		}
	}
	free(cul);
}

/*
 * Boot set[] in mode m until a boot passes: reject the candidates a boot
 * names, bisect the failures that name none.  The exercises of the
 * passing boot go to *exercised.
 */
static void boot_phase(struct ctx *x, enum mode m, int *set, int *n,
		       char **exercised)
{
	struct boot_test_ctx bt = { x, m };
	int *cul = xmalloc((*n + 1) * sizeof(int)), k, i, rounds = 0;
	struct boot_out o;
	double t;

	while (*n) {
		build_phase(x, set, n);
		if (!*n)
			break;
		boot_kernel(x, m, set, *n, &o, 0);
		if (o.nhit) {
			for (i = 0; i < o.nhit; i++) {
				char *why = xasprintf("%s boot: %s",
						      mode_name[m], o.why[i]);

				reject(x, set, n, o.hit[i], why);
				free(why);
			}
			/*
			 * Warn mode lets every offending write through, so a
			 * boot that otherwise passed ran the rest exactly as
			 * without the offenders: it is their warn boot too.
			 * An oops in default mode stopped the writer, so that
			 * boot proves nothing for the rest.
			 */
			if (m != M_WARN || !o.ok) {
				boot_free(&o);
				continue;
			}
		}
		if (o.ok) {
			*exercised = o.exercised;
			o.exercised = NULL;
			boot_free(&o);
			break;
		}
		warnx("batch %s: %s boot failed (%s), bisecting %d", x->batch,
		      mode_name[m], o.reason, *n);
		t = now();
		k = bisect(boot_test, &bt, set, *n, 1, x->retest, cul);
		x->t_bisect += now() - t;
		for (i = 0; i < k; i++) {
			char *why = xasprintf("%s", x->msg[cul[i]]);

			reject(x, set, n, cul[i], why);
			free(why);
		}
		if (k == 0 && ++rounds >= 2) {
			char *why = xasprintf("%s boot: fails, no single culprit: %s",
					      mode_name[m], o.reason);

			while (*n)
				reject(x, set, n, set[0], why);
			free(why);
		}
		boot_free(&o);
	}
	free(cul);
}

/* ---- baseline, batches, progress ---------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* nftw() has no context argument: list_objects() lends it these. */
static struct ctx *walk_ctx;
static size_t walk_root;

static int add_object(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	size_t l = strlen(path);
	struct ctx *x = walk_ctx;

	(void)st;
	(void)ftw;
	if (type == FTW_F && l > walk_root + 2 && !strcmp(path + l - 2, ".o")) {
		x->objs = xrealloc(x->objs, (x->nobjs + 1) * sizeof(char *));
		x->objs[x->nobjs++] = xstrdup(path + walk_root + 1);
	}
	return 0;
}

/*
 * The .o files of the finished baseline build: which files the profile
 * compiles does not depend on annotations, so a candidate whose file has
 * none is not-built without taking a place in a batch.
 */
static void list_objects(struct ctx *x)
{
	walk_ctx = x;
	walk_root = strlen(x->build_dir);
	if (nftw(x->build_dir, add_object, 16, FTW_PHYS))
		die(EXIT_HOST, "%s: cannot list the objects: %s", x->build_dir,
		    strerror(errno));
	qsort(x->objs, x->nobjs, sizeof(char *), cmp_str);
}

/*
 * Journal not-built for the undecided candidates the baseline build did
 * not compile, with the evidence section_check() would give them.  A
 * baseline file of an older validate lists no objects: then batches
 * decide them as before.
 */
static void decide_unbuilt(struct ctx *x)
{
	int i;

	if (!x->nobjs)
		return;
	for (i = 0; i < x->c->n; i++) {
		struct cand *cd = &x->c->v[i];
		size_t l = strlen(cd->file);
		char *rel, *ev;

		if (cd->verdict != V_UNDECIDED)
			continue;
		if (l < 3 || strcmp(cd->file + l - 2, ".c")) {
			journal_record(&x->j, cd, "baseline", V_NOTBUILT,
				       "not-built: not a .c file, no object to check");
			continue;
		}
		rel = xasprintf("%.*s.o", (int)(l - 2), cd->file);
		if (!bsearch(&rel, x->objs, x->nobjs, sizeof(char *), cmp_str)) {
			ev = xasprintf("not-built: %s is not compiled in profile %s",
				       rel, x->profile);
			journal_record(&x->j, cd, "baseline", V_NOTBUILT, ev);
			free(ev);
		}
		free(rel);
	}
}

static void load_baseline(struct ctx *x)
{
	char *p = xasprintf("%s/baseline-%s-%s.tsv", x->state, x->config_hash,
			    x->core_hash);
	char *buf = read_file(p, NULL), *line, *next, *f[4], *tmp;
	struct boot_out o;
	FILE *fp;
	int i, m;

	if (buf) {
		for (line = buf; *line; line = next) {
			next = next_line(line);
			i = split_tabs(line, f, 4);
			if (i == 2 && !strcmp(f[0], "violation")) {
				x->base_viol = xrealloc(x->base_viol,
					(x->nbase_viol + 1) * sizeof(char *));
				x->base_viol[x->nbase_viol++] = xstrdup(f[1]);
			} else if (i == 3 && !strcmp(f[0], "fail")) {
				m = !strcmp(f[1], "default");
				x->base_fail[m] = xrealloc(x->base_fail[m],
					(x->nbase_fail[m] + 1) * sizeof(char *));
				x->base_fail[m][x->nbase_fail[m]++] = xstrdup(f[2]);
			} else if (i == 2 && !strcmp(f[0], "boot-seconds")) {
				x->base_boot_s = strtod(f[1], NULL);
			} else if (i == 2 && !strcmp(f[0], "first-mode")) {
				x->first_mode = !strcmp(f[1], "default");
			} else if (i == 2 && !strcmp(f[0], "object")) {
				x->objs = xrealloc(x->objs,
					(x->nobjs + 1) * sizeof(char *));
				x->objs[x->nobjs++] = xstrdup(f[1]);
			}
		}
		free(buf);
		free(p);
		qsort(x->objs, x->nobjs, sizeof(char *), cmp_str);
		return;
	}
	warnx("baseline: building and booting the bare %s kernel", x->profile);
	x->batch = xstrdup("baseline");
	if (!prepare(x, NULL, 0))
		die(EXIT_HOST, "the unannotated tree does not build, see %s/build.log",
		    x->build_dir);
	list_objects(x);
	boot_kernel(x, M_DEFAULT, NULL, 0, &o, 1);
	if (o.rc >= 2)
		die(EXIT_HOST, "baseline: the bare kernel's default boot is %s (see %s/boots)",
		    boot_verdict[o.rc], x->state);
	boot_free(&o);
	boot_kernel(x, M_WARN, NULL, 0, &o, 1);
	x->first_mode = M_WARN;
	if (o.rc >= 2) {
		warnx("baseline: warn-mode boot is %s: no ro_after_init=warn in this kernel, first boots use the default mode",
		      boot_verdict[o.rc]);
		x->first_mode = M_DEFAULT;
		for (i = 0; i < x->nbase_viol; i++)
			free(x->base_viol[i]);
		x->nbase_viol = 0;
	}
	boot_free(&o);
	tmp = xasprintf("%s.tmp", p);
	fp = fopen(tmp, "w");
	if (!fp)
		die(EXIT_HOST, "%s: %s", tmp, strerror(errno));
	fprintf(fp, "first-mode\t%s\n", mode_name[x->first_mode]);
	fprintf(fp, "boot-seconds\t%.1f\n", x->base_boot_s);
	for (i = 0; i < x->nbase_viol; i++)
		fprintf(fp, "violation\t%s\n", x->base_viol[i]);
	for (m = 0; m < 2; m++)
		for (i = 0; i < x->nbase_fail[m]; i++)
			fprintf(fp, "fail\t%s\t%s\n", mode_name[m],
				x->base_fail[m][i]);
	for (i = 0; i < x->nobjs; i++)
		fprintf(fp, "object\t%s\n", x->objs[i]);
	if (fflush(fp) || fsync(fileno(fp)) || fclose(fp) || rename(tmp, p))
		die(EXIT_HOST, "%s: %s", p, strerror(errno));
	warnx("baseline: first boots in %s mode, %d baseline violations, %d+%d failing exercises",
	      mode_name[x->first_mode], x->nbase_viol, x->nbase_fail[0],
	      x->nbase_fail[1]);
	free(tmp);
	free(p);
	free(x->batch);
}

/*
 * A boot ten times slower than the bare kernel's is a hang: waiting the
 * full --timeout for it costs minutes per hang and per bisection step.
 * Kept between 120 s (TCG jitter on a fast profile) and the default.
 */
static void set_boot_timeout(struct ctx *x)
{
	int t = (int)(10 * x->base_boot_s + 0.5);

	if (x->timeout_set || x->base_boot_s <= 0)
		return;
	x->timeout = t < 120 ? 120 : t > x->timeout ? x->timeout : t;
	warnx("baseline: the bare kernel boots in %.1f s, boot timeout %d s",
	      x->base_boot_s, x->timeout);
}

static void count_verdicts(struct ctx *x)
{
	int i;

	memset(x->counts, 0, sizeof(x->counts));
	for (i = 0; i < x->c->n; i++)
		x->counts[x->c->v[i].verdict]++;
}

static void fmt_time(char *b, size_t n, double s)
{
	int t = (int)(s + 0.5);

	if (t >= 3600)
		snprintf(b, n, "%dh%02dm", t / 3600, t / 60 % 60);
	else
		snprintf(b, n, "%dm%02ds", t / 60, t % 60);
}

static void progress(struct ctx *x, int k, int K, int done, int todo)
{
	char el[32], eta[32];
	double e = now() - x->t_start;

	fmt_time(el, sizeof(el), e);
	if (done)
		fmt_time(eta, sizeof(eta), e / done * (todo - done));
	else
		snprintf(eta, sizeof(eta), "?");
	fprintf(stderr,
		"validate: batch %d/%d: %d accepted, %d rejected, %d not-built; elapsed %s, ETA %s\n",
		k, K, x->counts[V_ACCEPTED], x->counts[V_REJECTED],
		x->counts[V_NOTBUILT], el, eta);
}

static void do_batch(struct ctx *x, const int *members, int n)
{
	int *set = xmalloc((n + 1) * sizeof(int)), *built, nb = 0, i;
	char *ev;
	char *ex1 = NULL, *ex2 = NULL, *all;

	memcpy(set, members, n * sizeof(int));
	built = xmalloc((n + 1) * sizeof(int));
	build_phase(x, set, &n);
	for (i = 0; i < n; i++) {
		struct cand *cd = &x->c->v[set[i]];

		if (!x->not_found[set[i]])
			continue;
		ev = xasprintf("annotate: no definition of %s at %s:%d",
			       cd->name, cd->file, cd->line);
		reject(x, set, &n, set[i--], ev);
		free(ev);
	}
	for (i = 0; i < n; i++)
		if (section_check(x, set[i], &ev)) {
			built[nb++] = set[i];
			free(x->msg[set[i]]);
			x->msg[set[i]] = ev;	/* the section evidence */
		}
	/*
	 * What the section check turned away is not in .data..ro_after_init
	 * of the kernel just built, so its annotation changes nothing a boot
	 * can see: boot that kernel for built[] instead of building again.
	 */
	if (x->built_valid && x->built_sig == set_sig(set, n))
		x->built_sig = set_sig(built, nb);
	boot_phase(x, x->first_mode, built, &nb, &ex1);
	if (nb && x->first_mode == M_WARN)
		boot_phase(x, M_DEFAULT, built, &nb, &ex2);
	for (i = 0; i < nb; i++) {
		struct cand *cd = &x->c->v[built[i]];

		all = xasprintf("%s; booted=%s%s; exercised=%s",
				x->msg[built[i]], mode_name[x->first_mode],
				x->first_mode == M_WARN ? ",default" : "",
				ex2 ? ex2 : ex1);
		journal_record(&x->j, cd, x->batch, V_ACCEPTED, all);
		free(all);
	}
	free(ex1);
	free(ex2);
	free(built);
	free(set);
}

static char *hash_hex(unsigned long long h)
{
	return xasprintf("%012llx", h & 0xffffffffffffULL);
}

static void setup_hashes(struct ctx *x)
{
	char *out = spath(x, "git.out"), *argv[7], *cfg, *buf;
	unsigned long long h;
	size_t len;

	free(out);
	out = spath(x, "rev.out");
	{
		char *ref = xasprintf("%s^{commit}", x->commit);

		if (git(x, out, "rev-parse", "--verify", "-q", ref))
			die(EXIT_USAGE, "%s: no commit '%s' in %s", x->tree,
			    x->commit, x->tree);
		free(ref);
	}
	free(x->commit);
	x->commit = last_line(out);
	if (!x->commit)
		die(EXIT_HOST, "git rev-parse printed nothing");
	h = fnv1a(0, x->commit, strlen(x->commit));
	if (x->extra_patch) {
		buf = read_file(x->extra_patch, &len);
		if (!buf)
			die(EXIT_USAGE, "%s: %s", x->extra_patch,
			    strerror(errno));
		h = fnv1a(h, buf, len);
		free(buf);
	}
	x->core_hash = hash_hex(h);
	argv[0] = "sh";
	argv[1] = xasprintf("%s/qemu-boot/build-kernel.sh", x->tools);
	argv[2] = "--config-only";
	argv[3] = (char *)x->profile;
	argv[4] = (char *)x->tree;
	argv[5] = (char *)x->work;
	argv[6] = NULL;
	if (run_tool(argv, out, x->log))
		die(EXIT_HOST, "build-kernel.sh --config-only %s failed, see %s",
		    x->profile, x->log);
	free(argv[1]);
	x->build_dir = last_line(out);
	if (!x->build_dir)
		die(EXIT_HOST, "build-kernel.sh printed no build directory");
	cfg = xasprintf("%s/.config", x->build_dir);
	buf = read_file(cfg, &len);
	if (!buf)
		die(EXIT_HOST, "%s: %s", cfg, strerror(errno));
	x->config_hash = hash_hex(fnv1a(0, buf, len));
	free(buf);
	free(cfg);
	free(out);
}

static int lock_file(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		die(EXIT_HOST, "%s: %s", path, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB))
		die(EXIT_HOST, "%s: another validate holds this lock", path);
	return fd;
}

static long num_arg(const char *opt, const char *s, long min)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min)
		usage_error("bad number for --%s", opt);
	return v;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "candidates", required_argument, NULL, 'c' },
		{ "tree", required_argument, NULL, 't' },
		{ "work", required_argument, NULL, 'w' },
		{ "profile", required_argument, NULL, 'p' },
		{ "batch", required_argument, NULL, 'b' },
		{ "journal", required_argument, NULL, 'j' },
		{ "base", required_argument, NULL, 'B' },
		{ "tools", required_argument, NULL, 'T' },
		{ "timeout", required_argument, NULL, 'o' },
		{ "accel", required_argument, NULL, 'A' },
		{ "exercise", required_argument, NULL, 'e' },
		{ "retest", required_argument, NULL, 'r' },
		{ "extra-patch", required_argument, NULL, 'x' },
		{ "max", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *cands_path = NULL, *journal_path = NULL, *base = "core";
	struct ctx x = { .profile = "fast", .timeout = 400, .retest = 1,
			 .accel = "tcg" };
	struct cands c;
	int opt, size = 128, max = -1, done, decided, undecided, todo, K, k, i;
	int *order, *starts;
	char *p, *t;

	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			cands_path = optarg;
			break;
		case 't':
			x.tree = optarg;
			break;
		case 'w':
			x.work = optarg;
			break;
		case 'p':
			x.profile = optarg;
			break;
		case 'b':
			size = num_arg("batch", optarg, 1);
			break;
		case 'j':
			journal_path = optarg;
			break;
		case 'B':
			base = optarg;
			break;
		case 'T':
			x.tools = optarg;
			break;
		case 'o':
			x.timeout = num_arg("timeout", optarg, 10);
			x.timeout_set = 1;
			break;
		case 'A':
			if (strcmp(optarg, "tcg") && strcmp(optarg, "kvm") &&
			    strcmp(optarg, "auto"))
				usage_error("--accel must be tcg, kvm or auto, not '%s'",
					    optarg);
			x.accel = optarg;
			break;
		case 'e':
			x.exercises = optarg;
			break;
		case 'r':
			x.retest = num_arg("retest", optarg, 0);
			break;
		case 'x':
			x.extra_patch = optarg;
			break;
		case 'm':
			max = num_arg("max", optarg, 0);
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			usage_error("%s", "unknown option");
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (!cands_path || !x.tree || !x.work)
		usage_error("%s", "--candidates, --tree and --work are required");
	if (strcmp(x.profile, "fast") && strcmp(x.profile, "wide"))
		usage_error("unknown profile '%s' (known: fast wide)", x.profile);
	x.tree = abs_path(x.tree);
	x.work = abs_path(x.work);
	if (!x.tools) {
		p = abs_path(argv[0]);
		t = strrchr(p, '/');
		*t = '\0';
		x.tools = xasprintf("%s/..", p);
	}
	x.tools = abs_path(x.tools);
	p = xasprintf("%s/qemu-boot/build-kernel.sh", x.tools);
	if (access(p, R_OK))
		usage_error("%s: not an ro-campaign checkout (use --tools)",
			    x.tools);
	free(p);
	p = xasprintf("%s/.git", x.tree);
	if (access(p, F_OK))
		usage_error("%s: not a git work tree (see --help: --tree)",
			    x.tree);
	free(p);
	if (x.extra_patch)
		x.extra_patch = abs_path(x.extra_patch);
	if (!journal_path)
		journal_path = xasprintf("%s/validate/%s/journal.tsv", x.work,
					 x.profile);
	p = xstrdup(journal_path);
	t = strrchr(p, '/');
	if (t)
		*t = '\0';
	if (t && *p) {
		char *cmd[4];

		cmd[0] = "mkdir";
		cmd[1] = "-p";
		cmd[2] = p;
		cmd[3] = NULL;
		if (run_tool(cmd, NULL, "/dev/null"))
			die(EXIT_HOST, "cannot create %s", p);
	}
	x.state = abs_path(t ? (*p ? p : "/") : ".");
	free(p);
	x.log = spath(&x, "validate.log");
	p = spath(&x, "validate.lock");
	lock_file(p);
	free(p);
	p = xasprintf("%s.validate-lock", x.tree);
	lock_file(p);
	free(p);
	run_init_signals();

	cands_load(cands_path, &c);
	x.c = &c;
	x.msg = calloc(c.n + 1, sizeof(char *));
	x.not_found = calloc(c.n + 1, 1);
	x.commit = xstrdup(base);
	setup_hashes(&x);
	done = journal_open(&x.j, journal_path, x.config_hash, x.core_hash,
			    &c);
	count_verdicts(&x);
	fprintf(stderr,
		"validate: %d conversions (profile %s, config %s, core %s): %d decided before, journal %s\n",
		c.n, x.profile, x.config_hash, x.core_hash, done, journal_path);
	order = xmalloc((c.n + 1) * sizeof(int));
	starts = xmalloc((c.n + 2) * sizeof(int));
	K = plan_batches(&c, size, order, starts);
	undecided = x.counts[V_UNDECIDED];
	x.t_start = now();
	if (K) {
		load_baseline(&x);
		set_boot_timeout(&x);
		decide_unbuilt(&x);
		/*
		 * --max counts what needs a build: the not-built ones the
		 * baseline decided cost nothing and do not use it up.
		 */
		if (max >= 0) {
			int left = max;

			for (i = 0; i < c.n; i++)
				if (c.v[i].verdict == V_UNDECIDED && left-- <= 0)
					c.v[i].verdict = V_SKIPPED;
		}
		count_verdicts(&x);
		K = plan_batches(&c, size, order, starts);
	}
	todo = starts[K];
	for (k = 0; k < K; k++) {
		x.batch = xasprintf("%ld.%d", (long)time(NULL), k + 1);
		progress(&x, k + 1, K, starts[k], todo);
		do_batch(&x, order + starts[k], starts[k + 1] - starts[k]);
		count_verdicts(&x);
		free(x.batch);
	}
	if (K)
		reset_tree(&x);
	progress(&x, K, K, todo, todo);
	decided = undecided - x.counts[V_UNDECIDED] - x.counts[V_SKIPPED];
	p = spath(&x, "stats.tsv");
	{
		FILE *f = fopen(p, "w");

		if (f) {
			fprintf(f, "decided\t%d\nwall_s\t%.1f\nbuilds\t%d\nbuild_s\t%.1f\nboots\t%d\nboot_s\t%.1f\nbisect_s\t%.1f\n",
				decided, now() - x.t_start, x.builds, x.t_build,
				x.boots, x.t_boot, x.t_bisect);
			fclose(f);
		}
	}
	free(p);
	return EXIT_DONE;
}
