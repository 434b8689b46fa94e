// SPDX-License-Identifier: GPL-2.0
/*
 * callers: which functions run only during init, judged by every call
 * site of the whole tree.  cocci/facts.cocci sees calls inside one file
 * only, so a global function that is not __init looks callable from
 * anywhere; this token scan reads every .c, .h and .S file (and .rs) and
 * finds the global functions whose every mention is a direct call from
 * code that runs only during init.
 *
 * By NAME, not by definition (names repeat across architectures and
 * configurations, and static functions repeat across files), a least
 * fixpoint:
 *
 *  - a name is init-only if it has at least one function definition and
 *    every definition has __init among the tokens before its name
 *    (__ref, __meminit, __init_or_module and any other section are not
 *    init);
 *  - or if it has at least one definition and at least one call, and
 *    every mention of it, other than its definitions, its prototypes and
 *    the name of a #define or #undef, is a direct call NAME( inside the
 *    body of a function whose name is already init-only, other than its
 *    own body (recursion is no caller).
 *
 * Any other mention makes the name not init-only: a mention not followed
 * by '(' (its address taken: ops tables, EXPORT_SYMBOL*(NAME),
 * static_call, alternative_call, a function pointer, a variable or
 * member declared with the name), a mention at file scope other than a
 * definition's or prototype's own name (initializers, macro arguments),
 * a mention in a preprocessor line (#define bodies can be expanded
 * anywhere; #if, #pragma weak), in a string literal (asm("call NAME"),
 * kallsyms_lookup_name("NAME")), in a file that is not C (.S, .s, .rs,
 * and the .tbl syscall tables and .lds/.ld linker scripts when LIST
 * names them), inside a body whose function name the scan cannot tell,
 * or anywhere in a file whose braces and #if branches do not balance
 * (--stats names them).  Member names (s.NAME, p->NAME) and tags (struct
 * NAME) are not mentions; the declarations in a file-scope struct, union
 * or enum body are not either.  #if and #else branches are all read
 * (ctags-style: each branch starts from the state before the #if; after
 * #endif the first branch's state goes on).
 *
 * Limits: token pasting hides names.  A macro that pastes a literal
 * fragment of three or more characters to a parameter (do_##x,
 * x##_setup, pre_##x##_post) can build NAME from the fragment and a word
 * some file mentions (the argument): such a NAME is not init-only.  A
 * name built only from arguments (__PASTE(a, b), CONCATENATE, a##b##c
 * with short fragments) is invisible; a function called only that way
 * has no call in the scan and is never init-only, but one that also has
 * direct calls from init code would be wrongly init-only.  Generated
 * files are not read (the syscall tables' entries are SYSCALL_DEFINE*
 * names, pasted too).  Calls from tools/, scripts/, samples/ and
 * Documentation/ are not kernel code.
 *
 * Prints a TSV, one row per init-only name that is not __init in every
 * definition (those are what a per-file analysis misses):
 *
 *   name  defs  calls  callers  caller  file  line
 *
 * defs: its definitions (bodies) found; calls: its call sites outside
 * its own body; callers: the distinct names of the functions they are
 * in; caller, file, line: the first call site in LIST order.
 *
 * With --why NAME (repeatable) it prints instead, for each NAME, a line
 * "NAME  verdict  reason": verdict init (every definition __init),
 * callers (a row of the table) or no, and the evidence.
 *
 * Exit status: 0, 1 if a file could not be read (named on stderr; the
 * others are still read), 64 usage, 65 LIST cannot be opened, 70 a host
 * error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callers.h"

int stats;
static size_t nfiles;

static void print_usage(FILE *out)
{
	fprintf(out,
		"usage: callers [--stats] [--why NAME]... TREE LIST\n"
		"\n"
		"Read the .c, .h, .S and .rs files of LIST (paths relative to TREE,\n"
		"one a line, '-' for standard input) and print, as TSV (name defs\n"
		"calls callers caller file line via), every function name that is not\n"
		"__init in all its definitions but whose every mention in those\n"
		"files is a direct call from code that runs only during init, or a\n"
		"store into a member (via) that only such code calls through.\n"
		"--why NAME: print 'NAME verdict reason' for each NAME instead.\n"
		"--stats: counts on stderr, and each file whose braces or #if\n"
		"branches do not balance.\n"
		"Exit status: 0, 1 a file could not be read, 64 usage, 65 LIST\n"
		"cannot be opened, 70 host.\n");
}

int main(int argc, char **argv)
{
	FILE *list;
	char *line = NULL, path[4096];
	const char **why = NULL;
	size_t cap = 0, nwhy = 0, i;
	struct toks t = { 0 };
	int status = 0, a = 1;

	prog_name = "callers";
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		print_usage(stdout);
		return 0;
	}
	why = xcalloc(argc, sizeof(*why));
	for (; a < argc; a++) {
		if (a + 1 < argc && !strcmp(argv[a], "--why"))
			why[nwhy++] = argv[++a];
		else if (!strcmp(argv[a], "--stats"))
			stats = 1;
		else
			break;
	}
	if (argc - a != 2) {
		print_usage(stderr);
		return RC_USAGE;
	}
	list = strcmp(argv[a + 1], "-") ? fopen(argv[a + 1], "r") : stdin;
	if (!list)
		die(RC_DATA, "%s: %s", argv[a + 1], strerror(errno));
	strtab_init(&strs);
	while (read_text_line(list, argv[a + 1], &line, &cap)) {
		size_t len;
		char *buf;

		if (!line[0])
			continue;
		snprintf(path, sizeof(path), "%s/%s", argv[a], line);
		buf = read_file(path, &len);
		if (!buf) {
			warnx("%s: %s", path, strerror(errno));
			status = 1;
			continue;
		}
		scan_file(line, buf, len, &t);
		nfiles++;
		free(buf);
	}
	if (list != stdin)
		fclose(list);
	kill_pasted();
	fixpoint();
	if (stats)
		fprintf(stderr, "callers: %zu files, %zu unbalanced (every mention in them counts as no call), %u names, %zu call edges, %zu stores in members, %zu calls through members\n",
			nfiles, nconfused, strs.n, nedges, nstores, nfcalls);
	if (nwhy) {
		for (i = 0; i < nwhy; i++)
			print_why(why[i]);
	} else {
		print_table();
	}
	if (fflush(stdout) || ferror(stdout))
		die(RC_HOST, "stdout: write error: %s", strerror(errno));
	free(line);
	free(t.v);
	free(why);
	return status;
}
