// SPDX-License-Identifier: GPL-2.0
/*
 * candidates: read the fact files of a tree (cocci/FACTS.md) and propose
 * __ro_after_init candidates, one row per file-scope variable, with the
 * evidence.  See --help.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"
#include "value.h"

static void print_help(FILE *fp)
{
	fputs("usage: candidates --facts DIR [--out FILE] [--explain NAME]\n"
	      "                  [--registrations FILE]\n"
	      "\n"
	      "Reads DIR/{defs,writes,funcs,funcrefs,calls,params,errors}.tsv\n"
	      "(the format is in cocci/FACTS.md), computes the init-only\n"
	      "functions as a fixpoint over the call graph and classifies every\n"
	      "file-scope variable as ro_after_init (high|medium), const,\n"
	      "rejected, already or skip.\n"
	      "\n"
	      "  --facts DIR     directory holding the fact files (required)\n"
	      "  --out FILE      output TSV (default: candidates.tsv), written\n"
	      "                  to FILE.tmp, synced, then renamed: a failed\n"
	      "                  run leaves FILE as it was\n"
	      "  --explain NAME  print the reasoning for every variable named\n"
	      "                  NAME; writes FILE only if --out is given too\n"
	      "  --registrations FILE\n"
	      "                  functions that keep an argument the kernel\n"
	      "                  writes after init, and fields whose pointee\n"
	      "                  it writes (default: registrations.tsv next\n"
	      "                  to this program)\n"
	      "  -q, --quiet     no summary line on stderr\n"
	      "  -h, --help      this text\n"
	      "\n"
	      "Output columns: file line name storage class confidence reason\n"
	      "evidence (all writers as file:line:func:form joined by ';') annotation\n"
	      "(what the annotate step adds: ro_after_init, initdata, initconst,\n"
	      "or -), value (what it protects: fn-pointer, object-pointer, bound,\n"
	      "policy, param or setting; from DIR/valtypes.tsv and DIR/uses.tsv\n"
	      "when present).\n"
	      "Exit status: 0 done, 1 --explain NAME found no such variable,\n"
	      "64 bad usage, 65 a missing or malformed fact file (FILE:LINE:\n"
	      "message), 70 out of memory or a read or write error.\n", fp);
}

/*
 * Files with errors rows, and those whose every row is a parse error only
 * in #define bodies.  A file may have two rows: spatch's, and a function
 * it dropped (cocci/FACTS.md errors.tsv).
 */
static uint32_t error_files(const struct facts *f, uint32_t *define_only)
{
	struct map files;	/* file -> 1 if only #define bodies so far */
	uint32_t e, n = 0, only;

	map_init(&files);
	*define_only = 0;
	for (e = 0; e < f->nerrors; e++) {
		only = map_get(&files, f->errors[e].file);
		if (only == MAP_NONE) {
			n++;
			only = error_define_only(f, e);
			*define_only += only;
		} else if (only && !error_define_only(f, e)) {
			only = 0;
			(*define_only)--;
		}
		map_put(&files, f->errors[e].file, only);
	}
	map_free(&files);
	return n;
}

static void summary(const struct judge *j, double secs)
{
	const struct facts *f = j->f;
	uint32_t define_only, nfiles = error_files(f, &define_only);

	fprintf(stderr,
		"candidates: %u variables: ro_after_init %u (high %u, medium %u), initdata %u, const %u, rejected %u, already %u, skip %u; %u functions, %u init-only after %u rounds; parse errors: %u files (%u only in #define bodies); %.2f s\n",
		f->ndefs, j->count[K_RO], j->high, j->medium,
		j->count[K_INITDATA], j->count[K_CONST], j->count[K_REJECTED],
		j->count[K_ALREADY],
		j->count[K_SKIP], j->g->nnodes, count_init(j->g),
		j->g->rounds, nfiles, define_only, secs);
}

/* registrations.tsv in the directory of this program. */
static char *default_regs(void)
{
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return xstrdup("registrations.tsv");
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		slash[1] = '\0';
	return xasprintf("%sregistrations.tsv", slash ? exe : "");
}

int main(int argc, char **argv)
{
	const char *dir = NULL, *out = NULL, *explain = NULL, *regs = NULL;
	char *regs_path;
	struct facts f;
	struct graph g;
	struct judge j;
	double t0 = now();
	int i, rc, quiet = 0;

	prog_name = "candidates";

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			print_help(stdout);
			return 0;
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			quiet = 1;
		} else if (i + 1 < argc && !strcmp(a, "--facts")) {
			dir = argv[++i];
		} else if (i + 1 < argc && !strcmp(a, "--out")) {
			out = argv[++i];
		} else if (i + 1 < argc && !strcmp(a, "--explain")) {
			explain = argv[++i];
		} else if (i + 1 < argc && !strcmp(a, "--registrations")) {
			regs = argv[++i];
		} else {
			warnx("bad argument '%s'", a);
			print_help(stderr);
			return RC_USAGE;
		}
	}
	if (!dir) {
		warnx("--facts DIR is required");
		print_help(stderr);
		return RC_USAGE;
	}
	rc = facts_load(&f, dir);
	if (rc)
		return rc;
	regs_path = regs ? xstrdup(regs) : default_regs();
	rc = regs_load(&f, regs_path);
	free(regs_path);
	if (rc)
		return rc;
	graph_build(&g, &f);
	judge_all(&j, &f, &g);
	rc = value_all(&j, dir);
	if (rc)
		return rc;
	if (explain && !report_explain(&j, explain, stdout)) {
		warnx("%s: no such variable in %s/defs.tsv", explain, dir);
		return RC_FAIL;
	}
	if (!explain || out) {
		if (report_write(&j, out ? out : "candidates.tsv"))
			return RC_HOST;
	}
	if (!quiet)
		summary(&j, now() - t0);
	return 0;
}
