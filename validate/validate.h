/* SPDX-License-Identifier: GPL-2.0 */
/*
 * validate - batch boot-validation of __ro_after_init conversions.
 * Shared types and the interfaces between the files of the program:
 *
 *   main.c      the command line and the order of the steps
 *   cand.c      candidates.tsv, checked against the tree
 *   record.c    journal rows: resume and record verdicts
 *   git.c       git, locks, the reset of the work tree
 *   tree.c      what validate changed in the tree; refuse other changes
 *   build.c     annotate, build, bisect build failures
 *   section.c   the section check of a built conversion
 *   boot.c      boot a built kernel
 *   bootparse.c what a boot's result.tsv, violations.tsv, console say
 *   strategy.c  one batch: its phases, rejections and progress
 *   baseline.c  the bare kernel's cache and the config and core hashes
 *   plan.c      batches and group testing
 *   suspects.c  the candidates a failed boot's console names
 *   run.c       the tools as child processes, signals
 *   elfcheck.c  ELF symbol tables
 *   modules.c   module tables of boots, the deny list, the cover plan
 *   devices.c   emulated devices for the build's modules, bound= evidence
 *   util.c      paths and small helpers of this program
 *   jobs-*.c    the batches as jobs for a farm: emit, run one, merge
 *   reach.c     the functions of each conversion that ran after init
 */
#ifndef VALIDATE_H
#define VALIDATE_H

#include <stddef.h>

#include "base.h"
#include "cand.h"
#include "evidence.h"
#include "journal.h"

struct tsv_table;
struct reach;

/*
 * What a conversion adds (the annotate list's "annotation" column) is
 * lib/cand.h's enum annot, with its names, attributes and sections.
 */

struct cand {
	char *file;		/* relative to the tree root */
	int line;
	char *name;
	enum annot annot;
	enum verdict verdict;
	char *evidence;		/* set with the verdict */
	unsigned long lineno;	/* in the candidates TSV */
};

struct cands {
	struct cand *v;
	int n;
};

enum mode { M_WARN, M_DEFAULT };
extern const char *const mode_name[];

/* One row of a boot's modules.tsv (qemu-boot/README.md). */
struct modstat {
	char *name, *init, *exit, *detail;
	/* devices.c: what the devices exercise did with its devices */
	char *bound;		/* "DRIVER@QEMUDEV,...", or NULL */
	char *devices;		/* "QEMUDEV:probe=0,rebind=ok,...|..." */
	int bound_ok;		/* every device passed every exercise */
};

struct boot_out {
	int rc;			/* the boot tool's exit status */
	int ok;			/* passed, relative to the baseline */
	char *reason;		/* why not, one line */
	char *exercised;	/* exercises that passed, comma list */
	int *hit;		/* attributed candidates ... */
	char **why;		/* ... and their writers */
	int nhit;
	struct modstat *mods;	/* modules.tsv */
	int nmods;
	int mods_seen;		/* the boot wrote modules.tsv */
	char *dir;		/* where the boot wrote its files */
};

struct ctx {
	const char *tools, *tree, *work, *profile, *state, *log;
	const char *extra_patch, *exercises, *accel;
	struct tsv_table *plan;	/* --cover-plan: why files are not built */
	char **deny, **deny_why;	/* modules the bare kernel cannot cycle */
	int ndeny;
	char *commit, *build_dir, *config_hash, *core_hash, *batch;
	char *marker;		/* tree.c: what validate changed in the tree */
	int force;		/* --force: the first reset may discard changes */
	int timeout, timeout_set, retest;
	enum mode first_mode;	/* M_DEFAULT when the kernel has no warn mode */
	struct cands *c;
	struct journal j;
	struct jrows jrows;	/* what journal_open() read, for resume() */
	char **msg;		/* per candidate: why it failed alone */
	char *not_found;	/* per candidate: annotate.sh found no definition */
	char *mismatch;	/* per candidate: modpost names it (msg[] says how) */
	unsigned long long built_sig;
	int built_valid;
	/* the baseline: violations and failing exercises of the bare kernel */
	char **base_viol, **base_fail[2];
	int nbase_viol, nbase_fail[2];
	/* modpost's section mismatches in the baseline build (mismatch_key()) */
	char **base_mism;
	int nbase_mism;
	/* the objects of the baseline build, sorted: what the profile compiles */
	char **objs;
	int nobjs;
	/* figures */
	int builds, boots, nboot;
	double t_build, t_boot, t_bisect, t_start;
	double base_boot_s;	/* the slower of the bare kernel's two boots */
	int counts[V_SKIPPED + 1];
	struct reach *reach;	/* reach.c: what ran of each conversion */
	/* strategy.c: the batch size and what it came from */
	char *size_why;
	int done_batches, failed_batches;
};

/* util.c */
void check_intr(void);
char *abs_path(const char *p);
char *spath(struct ctx *x, const char *name);
char *last_line(const char *path);
int cmp_str(const void *a, const void *b);

/* cand.c */
int cands_classes(const char *list);
void cands_load(const char *path, struct cands *c);
void cands_check_tree(const char *path, const struct cands *c,
		      const char *tree);

/* record.c */
int resume(struct ctx *x);
void record(struct ctx *x, struct cand *cd, const char *batch, enum verdict v,
	    const char *evidence);

/* git.c */
int git(struct ctx *x, const char *out, const char *a1, const char *a2,
	const char *a3, const char *a4);
int lock_file(const char *path);
void resolve_commit(struct ctx *x);
int head_is_commit(struct ctx *x);
void reset_tree(struct ctx *x);

/* tree.c */
void tree_init(struct ctx *x);
int tree_guard(struct ctx *x, int force);
void tree_clean(struct ctx *x);
int tree_apply(struct ctx *x, const char *patch);

/* build.c */
unsigned long long set_sig(const int *set, int n);
int prepare(struct ctx *x, const int *set, int n);
char **mismatch_keys(const char *log, int *n);
void build_phase(struct ctx *x, int *set, int *n);

/* section.c */
int section_check(struct ctx *x, int i, char **ev);

/* boot.c */
extern const char *const boot_verdict[];
void boot_kernel(struct ctx *x, enum mode m, const int *set, int n,
		 struct boot_out *o, int baseline);
void boot_free(struct boot_out *o);
int boot_test(void *ctx, const int *set, int n);
struct boot_test_ctx {
	struct ctx *x;
	enum mode m;
};

/* bootparse.c */
void parse_violations(struct ctx *x, const char *dir, const int *set, int n,
		      struct boot_out *o, char ***names, int *nnames);
void parse_oopses(struct ctx *x, const char *dir, const int *set, int n,
		  struct boot_out *o);
void parse_results(struct ctx *x, const char *dir, enum mode m,
		   struct boot_out *o, char ***fails, int *nfails);

/* strategy.c */
int in_set(const int *set, int n, int cand);
void reject(struct ctx *x, int *set, int *n, int cand, const char *why);
void count_verdicts(struct ctx *x);
void progress(struct ctx *x, int k, int K, int done, int todo);
void do_batch(struct ctx *x, const int *members, int n);
int choose_batch(struct ctx *x, int dflt);

/* baseline.c */
void setup_hashes(struct ctx *x);
void load_baseline(struct ctx *x);
void set_boot_timeout(struct ctx *x);
void decide_unbuilt(struct ctx *x);

/* devices.c */
int dev_groups(struct ctx *x);
const char *dev_cpu(struct ctx *x);
void dev_boot_args(struct ctx *x, int g, char **args, char **append);
void dev_write_attached(struct ctx *x, const char *dir, int g);
void parse_bound(const char *dir, struct boot_out *o);
char *dev_evidence(const char *name, struct modstat *const *tabs,
		   const int *ns, int ntabs);

/* modules.c */
void mods_free(struct modstat *m, int n);
void parse_modules(const char *dir, struct boot_out *o);
int mod_name_eq(const char *a, const char *b);
char *cand_module(const char *section_ev);
char *mod_evidence(const char *name, struct modstat *const *tabs,
		   const int *ns, const int *seen, int ntabs);
int deny_from_boot(struct ctx *x, const char *dir, enum mode m);
char *deny_arg(struct ctx *x);
char *plan_reason(struct ctx *x, const char *file, enum ev_notbuilt *kind);
void plan_load(struct ctx *x, const char *path);

/* reach.c */
char *reach_initrd(struct ctx *x, const int *set, int n, const char *dir);
void reach_collect(struct ctx *x, const char *dir, const int *set, int n);
const char *reach_evidence(struct ctx *x, int cand);

/* elfcheck.c */
enum sec_result {
	SEC_OK,			/* in the wanted section */
	SEC_WRONG,		/* present, in another section */
	SEC_MISSING,		/* no such symbol */
	SEC_NOFILE,		/* the ELF file does not exist */
	SEC_ERROR,		/* not a readable ELF file */
};

enum sec_result elf_check_object(const char *path, const char *name,
				 const char *want, char *where, size_t wlen);
enum sec_result elf_check_vmlinux(const char *path, const char *name,
				  const char *srcfile, const char *want,
				  char *where, size_t wlen);
int elf_symbolize(const char *vmlinux, unsigned long long addr,
		  char *name, size_t len);
int elf_defines_func(const char *path, const char *name);
int elf_module_symbolize(const char *path, const char *sec,
			 unsigned long long off, char *name, size_t len);

/* suspects.c: the candidates that a failed boot's console names */
struct suspects {
	int *v;			/* the suspects, the most strongly named first */
	int n;
	char *label;		/* what named the first: a module, a function */
	char *sig;		/* the failure: exercise, "/" and the RIP's function */
};
void find_suspects(struct ctx *x, const struct boot_out *o, const int *set,
		   int n, const char *clean, struct suspects *s);
void suspects_free(struct suspects *s);

/* run.c */
int run_tool(char *const argv[], const char *out_path, const char *log_path);
extern int interrupted;
void run_init_signals(void);

/* plan.c */
typedef int (*set_test_fn)(void *ctx, const int *set, int n);
int plan_batches(struct cands *c, int size, int *order, int *starts);
int bisect(set_test_fn test, void *ctx, const int *set, int n,
	   int known_fail, int retest, int *culprits);
struct gt {
	char *clean;		/* per candidate: a member of a passing test */
	struct gt_test {
		int *set;
		int n;
	} *v;			/* the failing tests */
	int n;
};
void gt_init(struct gt *g, int ncand);
void gt_free(struct gt *g);
void gt_note(struct gt *g, const int *set, int n, int failed);
int gt_explained(const struct gt *g, int c);
int gt_find(struct gt *g, set_test_fn test, void *ctx, const int *set,
	    int n, int *steps);

/* jobs-*.c: batches as jobs for a farm (--emit-jobs, --job, --merge) */
struct job {
	char *dir, *name, *cands, *journal, *base, *config_hash, *core_hash;
	int size;
};
void jobs_emit_check(const char *dir);
void jobs_emit(struct ctx *x, const char *dir, const char *cands,
	       const char *journal, const int *order, const int *starts,
	       int K, int size);
void job_load(struct ctx *x, const char *dir, struct job *jb);
void job_check(struct ctx *x, const struct job *jb);
int job_mark_siblings(struct ctx *x, const struct job *jb);
void job_finish(const struct job *jb);
int jobs_merge(const char *dir, const char *journal);

#endif
