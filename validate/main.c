// SPDX-License-Identifier: GPL-2.0
/*
 * validate - batch boot-validation of __ro_after_init conversions (and
 * of __initdata/__initconst ones).
 *
 * For each batch of candidates: reset the work tree, annotate it with
 * cocci/annotate.sh, build it with qemu-boot/build-kernel.sh (bisecting
 * build failures), check every symbol's section, boot it in warn mode
 * with the whole exercise suite (violations reject their variable; other
 * failures are bisected), confirm the survivors with a boot in the
 * default oops-on-write mode, and journal every verdict.
 *
 * This file: the command line, the checks of the input before anything
 * is built, and the order of the steps (validate.h lists the others).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "defaults.h"
#include "validate.h"

#define STR_(x) #x
#define STR(x) STR_(x)

static const char usage_text[] =
"usage: validate --candidates FILE --tree DIR --work DIR [options]\n"
"       validate --job DIR --tree DIR --work DIR [--tools DIR]\n"
"       validate --merge DIR [--journal FILE]\n"
"\n"
"Validate the class ro_after_init and initdata rows of a candidates TSV by\n"
"batches: annotate (__ro_after_init; __initdata or __initconst), build\n"
"(an initdata conversion that modpost finds referenced from code outside\n"
"the init sections is rejected), section check, boot in warn mode with\n"
"the exercise suite, bisect what fails, confirm in the default mode,\n"
"journal.\n"
"Candidates in files that the bare kernel's build does not compile are\n"
"not-built at once, without a place in a batch.\n"
"\n"
"  --candidates FILE  the finder's TSV (file line name ... class ...)\n"
"  --tree DIR         a git work tree of the prepared kernel, used only by\n"
"                     this program (it is reset before every batch)\n"
"  --work DIR         the work directory (build dirs, build.lock)\n"
"  --profile NAME     kernel profile, fast, wide or cover (default fast;\n"
"                     cover needs COVER_FRAGMENT=FILE in the environment,\n"
"                     see qemu-boot/build-kernel.sh)\n"
"  --classes LIST     the classes to validate, comma-separated:\n"
"                     ro_after_init, initdata (default both)\n"
"  --cover-plan FILE  validate/cover-plan's plan.tsv: the reason (other-arch,\n"
"                     unmet dependency) of each not-built verdict\n"
"  --batch N          conversions per batch, 1 to 100000 (default: each\n"
"                     batch's size from the measured build and boot times\n"
"                     and the culprits so far, " STR(DEFAULT_BATCH)
" until measured; jobs\n"
"                     of --emit-jobs: " STR(DEFAULT_BATCH) ")\n"
"  --journal FILE     verdict journal (default WORK/validate/PROFILE/journal.tsv)\n"
"  --base REF         the tree's base commit (default core)\n"
"  --tools DIR        the ro-campaign checkout (default: the program's ../)\n"
"  --timeout S        limit of each boot, 10 to 86400 (default: ten times\n"
"                     the bare kernel's boot, at least 120 s and at most\n"
"                     400 s)\n"
"  --accel MODE       qemu-boot/boot --accel: tcg (default: KVM stalls on\n"
"                     the machines measured, qemu-boot/README.md,\n"
"                     \"Launcher\"), kvm or auto\n"
"  --exercise NAMES   exercises of every boot (default all)\n"
"  --retest N         extra failures a boot culprit must explain alone, 0 to\n"
"                     100 (default 1)\n"
"  --extra-patch FILE a patch applied after every reset (test fixtures)\n"
"  --max N            build and boot at most N undecided conversions\n"
"                     (not-built ones decided from the baseline are\n"
"                     not counted)\n"
"  --force            discard uncommitted changes in the tree that\n"
"                     validate did not make (it refuses them otherwise)\n"
"  --emit-jobs DIR    after the baseline, write each batch into DIR (new or\n"
"                     empty) as a self-contained job instead of running it;\n"
"                     validate/farm/ runs the jobs (GNU parallel, Slurm)\n"
"  --job DIR          run one emitted job (validate/farm/run-job.sh does):\n"
"                     its settings, candidates and journal are DIR's\n"
"  --merge DIR        append the verdicts of DIR's jobs to the emission's\n"
"                     journal (or --journal), none twice; jobs that did not\n"
"                     finish are named and listed in DIR/rerun.txt\n"
"  -h, --help         this text\n"
"\n"
"Before anything is built, every conversion is checked against the tree\n"
"(the file exists, the line exists and names the variable), and the tree\n"
"must hold no uncommitted change but validate's own (those of a killed\n"
"run, listed in the git directory).\n"
"The journal is append-only and fsync'ed; a rerun skips what it decided\n"
"for the same kernel config and core hashes.  Progress goes to stderr,\n"
"the tools' output to STATE/validate.log next to the journal.\n"
"\n"
"Exit: 0 all decided, 1 --merge: a job did not finish (rerun it, merge\n"
"again), 64 usage, 65 bad input data (candidates, journal,\n"
"a candidate that does not match the tree, a tree with changes that\n"
"validate did not make), 70 a tool, the tree or the baseline boot\n"
"failed, 130 interrupted (rerun to resume).\n";

static void usage_error(const char *fmt, const char *arg)
{
	fputs("validate: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\n(validate --help for usage)\n", stderr);
	exit(RC_USAGE);
}

struct opts {
	const char *cands, *journal, *base, *plan;
	const char *emit, *merge, *job;	/* --emit-jobs, --merge, --job */
	int size, max;
	int auto_size;	/* no --batch: each batch sized from the costs */
	int nset;	/* options that --job and --merge take from elsewhere */
};

static void parse_args(int argc, char **argv, struct ctx *x, struct opts *o)
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
		{ "cover-plan", required_argument, NULL, 'P' },
		{ "classes", required_argument, NULL, 'C' },
		{ "force", no_argument, NULL, 'f' },
		{ "emit-jobs", required_argument, NULL, 'E' },
		{ "merge", required_argument, NULL, 'M' },
		{ "job", required_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (!strchr("twTJh", opt))
			o->nset++;
		switch (opt) {
		case 'c':
			o->cands = optarg;
			break;
		case 't':
			x->tree = optarg;
			break;
		case 'w':
			x->work = optarg;
			break;
		case 'p':
			x->profile = optarg;
			break;
		case 'b':
			o->size = opt_long("--batch", optarg, 1, 100000);
			o->auto_size = 0;
			break;
		case 'j':
			o->journal = optarg;
			break;
		case 'B':
			o->base = optarg;
			break;
		case 'T':
			x->tools = optarg;
			break;
		case 'o':
			x->timeout = opt_long("--timeout", optarg, 10, 86400);
			x->timeout_set = 1;
			break;
		case 'A':
			if (strcmp(optarg, "tcg") && strcmp(optarg, "kvm") &&
			    strcmp(optarg, "auto"))
				usage_error("--accel must be tcg, kvm or auto, not '%s'",
					    optarg);
			x->accel = optarg;
			break;
		case 'e':
			x->exercises = optarg;
			break;
		case 'r':
			x->retest = opt_long("--retest", optarg, 0, 100);
			break;
		case 'x':
			x->extra_patch = optarg;
			break;
		case 'm':
			o->max = opt_long("--max", optarg, 0, 100000000);
			break;
		case 'f':
			x->force = 1;
			break;
		case 'C':
			if (cands_classes(optarg))
				usage_error("--classes takes ro_after_init and initdata, comma-separated, not '%s'",
					    optarg);
			break;
		case 'P':
			o->plan = optarg;
			break;
		case 'E':
			o->emit = optarg;
			break;
		case 'M':
			o->merge = optarg;
			break;
		case 'J':
			o->job = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(RC_OK);
		default:
			usage_error("%s", "unknown option");
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (o->merge) {
		if (o->nset != 1 + !!o->journal || x->tree || x->work || o->job)
			usage_error("%s", "--merge takes only --journal");
		return;
	}
	if (o->job) {
		if (o->nset)
			usage_error("%s",
				    "--job takes only --tree, --work and --tools: the rest is the job's");
		if (!x->tree || !x->work)
			usage_error("%s", "--job needs --tree and --work");
		return;
	}
	if (!o->cands || !x->tree || !x->work)
		usage_error("%s", "--candidates, --tree and --work are required");
	if (strcmp(x->profile, "fast") && strcmp(x->profile, "wide") &&
	    strcmp(x->profile, "cover"))
		usage_error("unknown profile '%s' (known: fast wide cover)",
			    x->profile);
}

/* Absolute paths and the tools: nothing is written yet. */
static void setup_paths(struct ctx *x, struct opts *o, const char *argv0)
{
	char *p, *t;

	x->tree = abs_path(x->tree);
	x->work = abs_path(x->work);
	if (!x->tools) {
		p = abs_path(argv0);
		t = strrchr(p, '/');
		*t = '\0';
		x->tools = xasprintf("%s/..", p);
	}
	x->tools = abs_path(x->tools);
	p = xasprintf("%s/qemu-boot/build-kernel.sh", x->tools);
	if (access(p, R_OK))
		usage_error("%s: not an ro-campaign checkout (use --tools)",
			    x->tools);
	free(p);
	p = xasprintf("%s/.git", x->tree);
	if (access(p, F_OK))
		usage_error("%s: not a git work tree (see --help: --tree)",
			    x->tree);
	free(p);
	if (x->extra_patch) {
		/* an input file: one that is not there is bad input */
		if (access(x->extra_patch, R_OK))
			die(RC_DATA, "--extra-patch %s: %s", x->extra_patch,
			    strerror(errno));
		x->extra_patch = abs_path(x->extra_patch);
	}
	if (!o->journal)
		o->journal = xasprintf("%s/validate/%s/journal.tsv", x->work,
				       x->profile);
}

/*
 * The state directory next to the journal, made if need be: only after
 * the input passed the checks that need no lock (setup_paths(), the
 * candidates), so that a refused run leaves nothing behind.
 */
static void setup_state(struct ctx *x, struct opts *o)
{
	char *p, *t;

	p = xstrdup(o->journal);
	t = strrchr(p, '/');
	if (t)
		*t = '\0';
	if (t && *p && mkdirs(p))
		die(RC_HOST, "cannot create %s", p);
	x->state = abs_path(t ? (*p ? p : "/") : ".");
	free(p);
	x->log = spath(x, "validate.log");
}

/*
 * Everything that can refuse the input, before anything is built: the
 * candidates, the tree's uncommitted changes, the candidates against the
 * tree at the base commit, the journal.
 */
static void check_input(struct ctx *x, struct opts *o, struct cands *c)
{
	int dirty;

	x->c = c;
	x->msg = xcalloc(c->n + 1, sizeof(char *));
	x->not_found = xcalloc(c->n + 1, 1);
	x->mismatch = xcalloc(c->n + 1, 1);
	x->mismatch = xcalloc(c->n + 1, 1);
	x->commit = xstrdup(o->base);
	resolve_commit(x);
	tree_init(x);
	dirty = tree_guard(x, x->force);
	/* the candidates' lines are those of the commit (and extra patch) */
	if (dirty || x->extra_patch || !head_is_commit(x))
		reset_tree(x);
	cands_check_tree(o->cands, c, x->tree);
	if (o->plan)
		plan_load(x, o->plan);
	journal_open(&x->j, o->journal, &x->jrows);
}

static void write_stats(struct ctx *x, int decided)
{
	char *p = spath(x, "stats.tsv");
	FILE *f = fopen(p, "w");

	if (f) {
		fprintf(f, "decided\t%d\nwall_s\t%.1f\nbuilds\t%d\nbuild_s\t%.1f\nboots\t%d\nboot_s\t%.1f\nbisect_s\t%.1f\nbatches\t%d\nfailed_batches\t%d\n",
			decided, now() - x->t_start, x->builds, x->t_build,
			x->boots, x->t_boot, x->t_bisect, x->done_batches,
			x->failed_batches);
		fclose(f);
	}
	free(p);
}

int main(int argc, char **argv)
{
	struct ctx x = { .profile = "fast", .timeout = 400, .retest = 1,
			 .accel = "tcg" };
	struct opts o = { .base = "core", .size = DEFAULT_BATCH, .max = -1,
			 .auto_size = 1 };
	int done, decided, undecided, todo, K, k, i, nsib = 0;
	int *order, *starts;
	struct cands c;
	struct job jb;
	char *p;

	prog_name = "validate";
	parse_args(argc, argv, &x, &o);
	if (o.merge)
		return jobs_merge(o.merge, o.journal);
	if (o.job) {
		job_load(&x, o.job, &jb);
		o.cands = jb.cands;
		o.journal = jb.journal;
		o.base = jb.base;
		o.size = jb.size;
		o.auto_size = 0;
	}
	if (o.emit)
		jobs_emit_check(o.emit);
	setup_paths(&x, &o, argv[0]);
	cands_load(o.cands, &c);
	setup_state(&x, &o);
	p = spath(&x, "validate.lock");
	lock_file(p);
	free(p);
	p = xasprintf("%s.validate-lock", x.tree);
	lock_file(p);
	free(p);
	run_init_signals();

	check_input(&x, &o, &c);
	setup_hashes(&x);
	if (o.job)
		job_check(&x, &jb);
	done = resume(&x);
	if (o.job)
		nsib = job_mark_siblings(&x, &jb);
	count_verdicts(&x);
	fprintf(stderr,
		"validate: %d conversions (profile %s, config %s, core %s): %d decided before, journal %s\n",
		c.n, x.profile, x.config_hash, x.core_hash, done, o.journal);
	order = xmalloc((c.n + 1) * sizeof(int));
	starts = xmalloc((c.n + 2) * sizeof(int));
	K = plan_batches(&c, o.size, order, starts);
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
		if (o.max >= 0) {
			int left = o.max;

			for (i = 0; i < c.n; i++)
				if (c.v[i].verdict == V_UNDECIDED && left-- <= 0)
					c.v[i].verdict = V_SKIPPED;
		}
		count_verdicts(&x);
		K = plan_batches(&c, o.size, order, starts);
	}
	if (o.emit) {
		p = strrchr(o.journal, '/');
		p = xasprintf("%s/%s", x.state, p ? p + 1 : o.journal);
		jobs_emit(&x, o.emit, abs_path(o.cands), p, order, starts, K,
			  o.size);
		free(p);
		if (K)
			reset_tree(&x);
		journal_close(&x.j);
		return RC_OK;
	}
	todo = starts[K];
	for (k = 0, i = 0; k < K; k++) {
		/* without --batch, each batch's size comes from the costs */
		if (o.auto_size) {
			i = plan_batches(&c, choose_batch(&x, o.size), order,
					 starts);
			if (!i)
				break;
			K = k + i;
			i = todo - starts[K - k];
		}
		if (o.job)
			x.batch = xasprintf("%s.%ld.%d", jb.name,
					    (long)time(NULL), k + 1);
		else
			x.batch = xasprintf("%ld.%d", (long)time(NULL), k + 1);
		progress(&x, k + 1, K, o.auto_size ? i : starts[k], todo);
		if (o.auto_size)
			do_batch(&x, order, starts[1]);
		else
			do_batch(&x, order + starts[k], starts[k + 1] - starts[k]);
		count_verdicts(&x);
		free(x.batch);
	}
	if (K)
		reset_tree(&x);
	free(x.size_why);
	x.size_why = NULL;
	progress(&x, K, K, todo, todo);
	decided = undecided - x.counts[V_UNDECIDED] - x.counts[V_SKIPPED] + nsib;
	write_stats(&x, decided);
	journal_close(&x.j);
	if (o.job)
		job_finish(&jb);
	return RC_OK;
}
