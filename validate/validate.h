/* SPDX-License-Identifier: GPL-2.0 */
/*
 * validate - batch boot-validation of __ro_after_init conversions.
 * Shared types and the interfaces between the files of the program.
 */
#ifndef VALIDATE_H
#define VALIDATE_H

#include <stddef.h>

#define EXIT_DONE	0	/* every candidate decided */
#define EXIT_DATA	65	/* bad input: candidates or journal malformed */
#define EXIT_USAGE	64
#define EXIT_HOST	70	/* a tool, the tree or the baseline failed */
#define EXIT_INTR	130	/* interrupted; rerun to resume */

enum verdict {
	V_UNDECIDED,
	V_ACCEPTED,
	V_REJECTED,
	V_NOTBUILT,
	V_SKIPPED,	/* beyond --max: left for a later run */
};

struct cand {
	char *file;		/* relative to the tree root */
	int line;
	char *name;
	enum verdict verdict;
	char *evidence;		/* set with the verdict */
};

struct cands {
	struct cand *v;
	int n;
};

/* util.c */
extern const char *prog_name;
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...);
void die(int code, const char *fmt, ...);
void warnx(const char *fmt, ...);
char *read_file(const char *path, size_t *len);
char *one_line(const char *s, size_t max);
unsigned long long fnv1a(unsigned long long h, const void *p, size_t n);
double now(void);
int split_tabs(char *line, char **f, int max);
char *next_line(char *line);
int tsv_col(char **f, int n, const char *name);

/* cand.c */
int cands_load(const char *path, struct cands *c);

/* journal.c */
struct journal {
	int fd;
	const char *path;
	const char *config_hash;
	const char *core_hash;
};

int journal_open(struct journal *j, const char *path, const char *config_hash,
		 const char *core_hash, struct cands *c);
void journal_record(struct journal *j, struct cand *cd, const char *batch,
		    enum verdict v, const char *evidence);
const char *verdict_name(enum verdict v);

/* elfcheck.c */
enum sec_result {
	SEC_OK,			/* in .data..ro_after_init */
	SEC_WRONG,		/* present, in another section */
	SEC_MISSING,		/* no such symbol */
	SEC_NOFILE,		/* the ELF file does not exist */
	SEC_ERROR,		/* not a readable ELF file */
};

enum sec_result elf_check_object(const char *path, const char *name,
				 char *where, size_t wlen);
enum sec_result elf_check_vmlinux(const char *path, const char *name,
				  const char *srcfile, char *where,
				  size_t wlen);
int elf_symbolize(const char *vmlinux, unsigned long long addr,
		  char *name, size_t len);

/* run.c */
int run_tool(char *const argv[], const char *out_path, const char *log_path);
extern int interrupted;
void run_init_signals(void);

/* plan.c */
typedef int (*set_test_fn)(void *ctx, const int *set, int n);
int plan_batches(struct cands *c, int size, int *order, int *starts);
int bisect(set_test_fn test, void *ctx, const int *set, int n,
	   int known_fail, int retest, int *culprits);

#endif
