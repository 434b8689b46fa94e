// SPDX-License-Identifier: GPL-2.0
/*
 * build.c - annotate a set of conversions (cocci/annotate.sh) in a reset
 * tree and build it (qemu-boot/build-kernel.sh); find the conversions
 * that break the build, by the files the compiler names or by bisection.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence.h"
#include "validate.h"

unsigned long long set_sig(const int *set, int n)
{
	return fnv1a(fnv1a(FNV1A_INIT, &n, sizeof(n)), set, n * sizeof(*set));
}

/*
 * The first error of the build log (the compiler's, or modpost's "ERROR:
 * modpost: Section mismatches detected."), preferring one in file.
 */
static char *build_error(struct ctx *x, const char *file)
{
	char *p = xasprintf("%s/build.log", x->build_dir);
	char *buf = read_file(p, NULL), *line, *next = buf, *first = NULL, *r;

	free(p);
	if (!buf)
		return xstrdup("build failed (no build.log)");
	while ((line = strsep(&next, "\n"))) {
		if (!strstr(line, "error:") && !strstr(line, "Error ") &&
		    !strstr(line, "ERROR: "))
			continue;
		if (file && strstr(line, file)) {
			first = line;
			break;
		}
		if (!first)
			first = line;
	}
	r = ev_one_line(first ? first : "build failed", 400);
	free(buf);
	return r;
}

/*
 * modpost's section mismatch warnings (scripts/mod/modpost.c, 6.1 and
 * 6.12): "WARNING: modpost: MOD: section mismatch in reference: FROM+0xOFF
 * (section: FSEC) -> TO (section: TSEC)", where MOD is vmlinux (vmlinux.o
 * on 6.1) or the module's path.  Parses LINE into F[]: MOD, FROM (without
 * its offset), FSEC, TO, TSEC, cut in place.  0 done, -1 not such a line.
 */
static int parse_mismatch(char *line, char *f[5])
{
	static const char head[] = ": section mismatch in reference: ";
	char *p = strstr(line, "modpost: "), *e = p ? strstr(p, head) : NULL;

	if (!e)
		return -1;
	f[0] = p + strlen("modpost: ");
	*e = '\0';
	f[1] = e + strlen(head);
	p = strstr(f[1], " (section: ");
	if (!p)
		return -1;
	*p = '\0';
	f[2] = p + strlen(" (section: ");
	p = strstr(f[2], ") -> ");
	if (!p)
		return -1;
	*p = '\0';
	f[3] = p + strlen(") -> ");
	p = strstr(f[3], " (section: ");
	if (!p)
		return -1;
	*p = '\0';
	f[4] = p + strlen(" (section: ");
	p = strchr(f[4], ')');
	if (!p)
		return -1;
	*p = '\0';
	p = strstr(f[1], "+0x");
	if (p)
		*p = '\0';
	return 0;
}

/* "MOD: FROM (FSEC) -> TO (TSEC)": a mismatch without its offset. */
static char *mismatch_key(char *const f[5])
{
	return xasprintf("%s: %s (%s) -> %s (%s)", f[0], f[1], f[2], f[3],
			 f[4]);
}

/* The section mismatches of build log LOG, as mismatch_key()s. */
char **mismatch_keys(const char *log, int *n)
{
	char *buf = read_file(log, NULL), *line, *next = buf, *f[5];
	char **v = NULL;

	*n = 0;
	while (buf && (line = strsep(&next, "\n"))) {
		if (parse_mismatch(line, f))
			continue;
		v = xrealloc(v, (*n + 1) * sizeof(char *));
		v[(*n)++] = mismatch_key(f);
	}
	free(buf);
	return v;
}

/*
 * Does TO name the variable NAME?  gcc may add a suffix to a static's
 * symbol ("name.0", "name.lto_priv.0").
 */
static int names_var(const char *to, const char *name)
{
	size_t l = strlen(name);

	return !strncmp(to, name, l) && (!to[l] || to[l] == '.');
}

/*
 * An __initdata/__initconst conversion is wrong when code outside the
 * init sections refers to the variable: after init it reads freed
 * memory.  modpost says so, "section mismatch in reference: FROM (section:
 * .text) -> NAME (section: .init.data)"; a mismatch the baseline build
 * had too is not the conversion's.  Marks the initdata members of set[]
 * that the last build's log names, with the reason in msg[]; returns how
 * many.
 */
static int find_mismatches(struct ctx *x, const int *set, int n)
{
	char *p = xasprintf("%s/build.log", x->build_dir);
	char *buf = read_file(p, NULL), *line, *next = buf, *f[5], *key;
	int i, k, found = 0;

	free(p);
	for (i = 0; i < n; i++)
		x->mismatch[set[i]] = 0;
	while (buf && (line = strsep(&next, "\n"))) {
		if (parse_mismatch(line, f) || strncmp(f[4], ".init.", 6))
			continue;
		key = mismatch_key(f);
		for (k = 0; k < x->nbase_mism; k++)
			if (!strcmp(x->base_mism[k], key))
				break;
		free(key);
		if (k < x->nbase_mism)
			continue;
		for (i = 0; i < n; i++) {
			struct cand *cd = &x->c->v[set[i]];

			if (cd->annot == AN_RO || x->mismatch[set[i]] ||
			    !names_var(f[3], cd->name))
				continue;
			x->mismatch[set[i]] = 1;
			found++;
			free(x->msg[set[i]]);
			x->msg[set[i]] = xasprintf("modpost: section mismatch in %s: %s (section: %s) refers to %s (section: %s), which is freed after init",
						   f[0], *f[1] ? f[1] : "?",
						   f[2], f[3], f[4]);
		}
	}
	free(buf);
	return found;
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

		fprintf(f, "%s\t%d\t%s\t%s\n", cd->file, cd->line, cd->name,
			annot_name[cd->annot]);
		for (j = 0; j < x->c->n; j++) {
			const struct cand *sib = &x->c->v[j];

			if (listed[j] || strcmp(sib->name, cd->name) ||
			    strcmp(sib->file, cd->file))
				continue;
			listed[j] = 1;
			fprintf(f, "%s\t%d\t%s\t%s\n", sib->file, sib->line,
				sib->name, annot_name[sib->annot]);
		}
	}
	free(listed);
}

/*
 * Reset, annotate set[] and build.  1 built, 0 failed (the reason in
 * msg[] when the set is one candidate), -1 never (host errors exit).
 */
int prepare(struct ctx *x, const int *set, int n)
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
		die(RC_HOST, "%s: %s", list, strerror(errno));
	fputs("file\tline\tname\tannotation\n", f);
	write_with_siblings(x, f, set, n);
	if (fclose(f))
		die(RC_HOST, "%s: %s", list, strerror(errno));
	argv[0] = "sh";
	argv[1] = xasprintf("%s/cocci/annotate.sh", x->tools);
	argv[2] = (char *)x->tree;
	argv[3] = list;
	argv[4] = NULL;
	err = spath(x, "annotate.err");
	rc = run_tool(argv, diff, err);
	check_intr();
	if (rc != 0 && rc != 1)
		die(RC_HOST, "%s failed (exit %d) on %s, see %s", argv[1], rc,
		    list, err);
	if (rc == 1)
		mark_not_found(x, err, set, n);
	free(err);
	free(argv[1]);
	if (tree_apply(x, diff)) {
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
		die(RC_HOST, "build-kernel.sh exit %d, see %s", rc, x->log);
	/* modpost's verdict on the initdata members: a failed build too */
	if (n && find_mismatches(x, set, n))
		rc = 1;
	if (rc == 1) {
		if (n == 1 && !x->mismatch[set[0]]) {
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
 * Build set[] until it builds, rejecting what breaks the build: the
 * initdata conversions that modpost names (find_mismatches()) at once,
 * then the culprits of compiler errors.
 */
void build_phase(struct ctx *x, int *set, int *n)
{
	int *cul = xmalloc((*n + 1) * sizeof(int)), k, i;
	double t;

	while (*n && !prepare(x, set, *n)) {
		/* modpost named them: no bisection needed */
		for (i = k = 0; i < *n; i++)
			if (x->mismatch[set[i]])
				cul[k++] = set[i];
		if (k) {
			for (i = 0; i < k; i++)
				reject(x, set, n, cul[i], x->msg[cul[i]]);
			continue;
		}
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
