// SPDX-License-Identifier: GPL-2.0
/*
 * baseline.c - the bare kernel of the profile: its config and core
 * hashes (the journal's key to a kernel), its build and boots, cached in
 * STATE/baseline-CONFIG-CORE.tsv (violations and failing exercises that
 * are not the candidates' fault, the boot time, the compiled objects,
 * modpost's section mismatches),
 * and the not-built verdicts those objects decide without a batch.
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "validate.h"

static char *hash_hex(unsigned long long h)
{
	return xasprintf("%012llx", h & 0xffffffffffffULL);
}

/*
 * The core hash: the base commit (resolve_commit()) and --extra-patch; the
 * config hash: the profile's .config (build-kernel.sh --config-only).
 * FNV1A_INIT is the start of both, as in every earlier journal.
 */
void setup_hashes(struct ctx *x)
{
	char *out = spath(x, "rev.out"), *argv[7], *cfg, *buf;
	unsigned long long h;
	size_t len;

	h = fnv1a(FNV1A_INIT, x->commit, strlen(x->commit));
	if (x->extra_patch) {
		buf = read_file(x->extra_patch, &len);
		if (!buf)
			die(RC_DATA, "%s: %s", x->extra_patch,
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
		die(RC_HOST, "build-kernel.sh --config-only %s failed, see %s",
		    x->profile, x->log);
	free(argv[1]);
	x->build_dir = last_line(out);
	if (!x->build_dir)
		die(RC_HOST, "build-kernel.sh printed no build directory");
	cfg = xasprintf("%s/.config", x->build_dir);
	buf = read_file(cfg, &len);
	if (!buf)
		die(RC_HOST, "%s: %s", cfg, strerror(errno));
	x->config_hash = hash_hex(fnv1a(FNV1A_INIT, buf, len));
	free(buf);
	free(cfg);
	free(out);
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
		die(RC_HOST, "%s: cannot list the objects: %s", x->build_dir,
		    strerror(errno));
	qsort(x->objs, x->nobjs, sizeof(char *), cmp_str);
}

/*
 * Journal not-built for the undecided candidates the baseline build did
 * not compile, with the evidence section_check() would give them.  A
 * baseline file of an older validate lists no objects: then batches
 * decide them as before.
 */
void decide_unbuilt(struct ctx *x)
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
			ev = ev_notbuilt(EV_NB_NOT_C,
					 "not a .c file, no object to check");
			record(x, cd, "baseline", V_NOTBUILT, ev);
			free(ev);
			continue;
		}
		rel = xasprintf("%.*s.o", (int)(l - 2), cd->file);
		if (!bsearch(&rel, x->objs, x->nobjs, sizeof(char *), cmp_str)) {
			enum ev_notbuilt k = EV_NB_PROFILE;
			char *why = plan_reason(x, cd->file, &k);

			if (!why)
				why = xasprintf("%s is not compiled in profile %s",
						rel, x->profile);
			ev = ev_notbuilt(k, why);
			free(why);
			record(x, cd, "baseline", V_NOTBUILT, ev);
			free(ev);
		}
		free(rel);
	}
}

/* Bare-kernel boots that may each add modules to the deny list. */
#define DENY_ROUNDS 8

static void free_list(char ***v, int *n)
{
	int i;

	for (i = 0; i < *n; i++)
		free((*v)[i]);
	free(*v);
	*v = NULL;
	*n = 0;
}

/*
 * Boot the bare kernel in mode M; while a module hangs or crashes it,
 * deny-list that module and boot again, so that the lists of the last
 * boot are the baseline's.
 */
static void baseline_boot(struct ctx *x, enum mode m, struct boot_out *o)
{
	double slowest = x->base_boot_s;
	int round;

	for (round = 1; ; round++) {
		boot_kernel(x, m, NULL, 0, o, 1);
		if (round == DENY_ROUNDS || !deny_from_boot(x, o->dir, m))
			return;
		/* that boot's failures and time were the module's doing */
		free_list(&x->base_fail[m], &x->nbase_fail[m]);
		if (m == M_WARN)
			free_list(&x->base_viol, &x->nbase_viol);
		x->base_boot_s = slowest;
		boot_free(o);
	}
}

void load_baseline(struct ctx *x)
{
	char *p = xasprintf("%s/baseline-%s-%s.tsv", x->state, x->config_hash,
			    x->core_hash);
	char *buf = read_file(p, NULL), *line, *next = buf, *f[4];
	char *p2;
	struct boot_out o;
	struct sb s;
	int i, m;

	if (buf) {
		while ((line = strsep(&next, "\n"))) {
			line[strcspn(line, "\r")] = '\0';
			for (i = 0; i < 4 && (f[i] = strsep(&line, "\t")); i++)
				;
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
			} else if (i == 3 && !strcmp(f[0], "moddeny")) {
				x->deny = xrealloc(x->deny,
					(x->ndeny + 1) * sizeof(char *));
				x->deny_why = xrealloc(x->deny_why,
					(x->ndeny + 1) * sizeof(char *));
				x->deny[x->ndeny] = xstrdup(f[1]);
				x->deny_why[x->ndeny++] = xstrdup(f[2]);
			} else if (i == 2 && !strcmp(f[0], "mismatch")) {
				x->base_mism = xrealloc(x->base_mism,
					(x->nbase_mism + 1) * sizeof(char *));
				x->base_mism[x->nbase_mism++] = xstrdup(f[1]);
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
		die(RC_HOST, "the unannotated tree does not build, see %s/build.log",
		    x->build_dir);
	p2 = xasprintf("%s/build.log", x->build_dir);
	x->base_mism = mismatch_keys(p2, &x->nbase_mism);
	free(p2);
	list_objects(x);
	baseline_boot(x, M_DEFAULT, &o);
	if (o.rc >= 2)
		die(RC_HOST, "baseline: the bare kernel's default boot is %s (see %s/boots)",
		    boot_verdict[o.rc], x->state);
	boot_free(&o);
	baseline_boot(x, M_WARN, &o);
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
	sb_init(&s);
	sb_addf(&s, "first-mode\t%s\n", mode_name[x->first_mode]);
	sb_addf(&s, "boot-seconds\t%.1f\n", x->base_boot_s);
	for (i = 0; i < x->nbase_viol; i++)
		sb_addf(&s, "violation\t%s\n", x->base_viol[i]);
	for (m = 0; m < 2; m++)
		for (i = 0; i < x->nbase_fail[m]; i++)
			sb_addf(&s, "fail\t%s\t%s\n", mode_name[m],
				x->base_fail[m][i]);
	for (i = 0; i < x->ndeny; i++)
		sb_addf(&s, "moddeny\t%s\t%s\n", x->deny[i], x->deny_why[i]);
	for (i = 0; i < x->nobjs; i++)
		sb_addf(&s, "object\t%s\n", x->objs[i]);
	for (i = 0; i < x->nbase_mism; i++)
		sb_addf(&s, "mismatch\t%s\n", x->base_mism[i]);
	if (write_file_atomic(p, s.buf, s.len))
		die(RC_HOST, "%s: %s", p, strerror(errno));
	warnx("baseline: first boots in %s mode, %d baseline violations, %d+%d failing exercises, %d modules deny-listed",
	      mode_name[x->first_mode], x->nbase_viol, x->nbase_fail[0],
	      x->nbase_fail[1], x->ndeny);
	sb_free(&s);
	free(p);
	free(x->batch);
}

/*
 * A boot ten times slower than the bare kernel's is a hang: waiting the
 * full --timeout for it costs minutes per hang and per bisection step.
 * Kept between 120 s (TCG jitter on a fast profile) and the default.
 */
void set_boot_timeout(struct ctx *x)
{
	int t = (int)(10 * x->base_boot_s + 0.5);

	if (x->timeout_set || x->base_boot_s <= 0)
		return;
	x->timeout = t < 120 ? 120 : t > x->timeout ? x->timeout : t;
	warnx("baseline: the bare kernel boots in %.1f s, boot timeout %d s",
	      x->base_boot_s, x->timeout);
}
