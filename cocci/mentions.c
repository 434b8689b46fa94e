// SPDX-License-Identifier: GPL-2.0
/*
 * mentions: the phase-2 prefilter of cocci/run-facts.sh.  Reads a list of
 * identifiers and a list of C files, and prints the files in which one of
 * the identifiers appears where facts.cocci could report a write or an
 * escape of it:
 *
 *   &x...          address taken (rule ad, and memcpy-like &x arguments)
 *   ++x  --x       increment (rule lv)
 *   x... OP        x, then .f ->f [i] chains, then an assignment operator,
 *                  ++ or -- (rule lv)
 *   (x.f,  ,x[i])  a member or element as a whole argument (rule mc)
 *   (x)  ,x,       an array x as a whole argument (rules mc and aa), unless
 *                  the parenthesis is the one of if/while/switch/sizeof...
 *   = x ;          an array x as the whole right-hand side (rule aa)
 *
 * A bare scalar or pointer passed by value (time_after(jiffies, t)) is no
 * write: candidates/ ignores the array-arg rows of non-arrays, so only the
 * names marked "array" in NAMES_FILE count there.
 *
 * A file that only reads the names (if (x), y = x + 1, x.f, x->f = 1) has
 * no row facts.cocci could print for them, so spatch need not parse it.
 *
 * --asm reads assembly files (.S), which SmPL never sees, and prints a
 * writes row "file line name - form" for every mention: form asm when the
 * name is in the last operand of an instruction (AT&T syntax puts the
 * destination last: "btsq $63, early_pmd_flags(%rip)" in head_64.S is
 * run by every CPU coming online), addr for any other mention (lea, .quad
 * tables, source operands), which lets the pointer escape.
 * Reading tokens (comments and strings skipped) instead of lines keeps it
 * exact where git grep -w would pull in every file that merely reads a
 * global: on the whole tree that is most of it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctok.h"
#include "strtab.h"

static const char *const assign_ops[] = {
	"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=",
	"++", "--",
};

/* a parenthesis after these is not a function call's */
static const char *const not_calls[] = {
	"if", "while", "switch", "for", "return", "sizeof", "typeof",
	"__typeof__", "_Alignof", "__alignof__", "ARRAY_SIZE", "likely",
	"unlikely", "READ_ONCE", "defined",
};

/* The index after the postfix chain (.f ->f [i]) that starts at I. */
static size_t skip_chain(const struct toks *t, size_t i)
{
	for (;;) {
		if ((tok_is(t, i, ".") || tok_is(t, i, "->")) &&
		    i + 1 < t->n && t->v[i + 1].kind == T_IDENT) {
			i += 2;
		} else if (tok_is(t, i, "[")) {
			i = tok_close(t, i, t->n) + 1;
		} else {
			return i;
		}
	}
}

/*
 * Could facts.cocci report the identifier at I as written or escaped?
 * ARRAY: the name is an array, so passing or storing it bare counts.
 */
static int write_context(const struct toks *t, size_t i, int array)
{
	size_t next;
	int prev_open, prev_comma;

	if (i == 0)
		return 0;
	if (tok_is(t, i - 1, ".") || tok_is(t, i - 1, "->"))
		return 0;	/* a member that happens to share the name */
	if (tok_is(t, i - 1, "&") || tok_is(t, i - 1, "++") ||
	    tok_is(t, i - 1, "--"))
		return 1;
	next = skip_chain(t, i + 1);
	if (tok_in(t, next, assign_ops, ARRAY_SIZE(assign_ops)))
		return 1;
	prev_open = tok_is(t, i - 1, "(");
	prev_comma = tok_is(t, i - 1, ",");
	if ((prev_open || prev_comma) &&
	    (tok_is(t, next, ",") || tok_is(t, next, ")"))) {
		if (prev_open && i >= 2 &&
		    tok_in(t, i - 2, not_calls, ARRAY_SIZE(not_calls)))
			return 0;
		return array || next > i + 1;
	}
	if (array && tok_is(t, i - 1, "=") && next == i + 1 &&
	    (tok_is(t, next, ";") || tok_is(t, next, ",") ||
	     tok_is(t, next, ")")))
		return 1;
	return 0;
}

/*
 * The form of an assembly mention at I: asm when it is in the last operand
 * of an instruction (nothing but its addressing follows on the line, a
 * comma precedes it, the line is no directive), else addr.
 */
static const char *asm_form(const struct toks *t, size_t i)
{
	unsigned int line = t->v[i].line;
	size_t first = i, k;
	int comma_before = 0;

	while (first > 0 && t->v[first - 1].line == line)
		first--;
	for (k = first; k < i; k++)
		comma_before |= tok_is(t, k, ",");
	for (k = i + 1; k < t->n && t->v[k].line == line; k++) {
		if (tok_is(t, k, ",") || tok_is(t, k, ";"))
			return "addr";
	}
	if (tok_is(t, first, ".") || tok_is(t, first, "#"))
		return "addr";
	return comma_before ? "asm" : "addr";
}

/* --asm: one writes row per mention of a name in the file at PATH. */
static int asm_rows(const struct strtab *names, const char *path,
		    struct toks *t)
{
	char word[256];
	size_t len, i;
	char *buf = read_file(path, &len);

	if (!buf) {
		warnx("%s: %s", path, strerror(errno));
		return -1;
	}
	tokenize(buf, len, t);
	for (i = 0; i < t->n; i++) {
		const struct tok *k = &t->v[i];

		if (k->kind != T_IDENT || k->len >= sizeof(word))
			continue;
		memcpy(word, k->s, k->len);
		word[k->len] = '\0';
		if (strtab_find(names, word) == STR_NONE)
			continue;
		printf("%s\t%u\t%s\t-\t%s\n", path, k->line, word,
		       asm_form(t, i));
	}
	free(buf);
	return 0;
}

static int file_hits(const struct strtab *names, const unsigned char *arrays,
		     const char *path, struct toks *t, int any)
{
	char word[256];
	uint32_t id;
	size_t len, i;
	char *buf = read_file(path, &len);
	int hit = 0;

	if (!buf) {
		warnx("%s: %s", path, strerror(errno));
		return -1;
	}
	tokenize(buf, len, t);
	for (i = 0; i < t->n && !hit; i++) {
		const struct tok *k = &t->v[i];

		if (k->kind != T_IDENT || k->len >= sizeof(word))
			continue;
		memcpy(word, k->s, k->len);
		word[k->len] = '\0';
		id = strtab_find(names, word);
		if (id == STR_NONE)
			continue;
		hit = any || write_context(t, i, arrays[id]);
	}
	free(buf);
	return hit;
}

/*
 * The next line of FP into *LINE, cut at its first CR or LF: 1, or 0 at
 * the end.  A read error (out of memory, I/O) is no end: it dies.
 */
static int next_line(FILE *fp, const char *what, char **line, size_t *cap)
{
	errno = 0;
	if (getline(line, cap, fp) < 0) {
		if (ferror(fp) || (errno && errno != EINVAL))
			die(RC_HOST, "%s: read error: %s", what,
			    strerror(errno ? errno : EIO));
		return 0;
	}
	(*line)[strcspn(*line, "\r\n")] = '\0';
	return 1;
}

static void print_usage(FILE *out)
{
	fprintf(out,
		"usage: mentions [--any | --asm] NAMES_FILE < FILE_LIST\n"
		"\n"
		"Print the files of FILE_LIST (one path per line) in which a\n"
		"name of NAMES_FILE may be written or escape: after & ++ --,\n"
		"before an assignment operator, a member or element of it as a\n"
		"whole call argument, and for an array also the bare name as a\n"
		"whole call argument or right-hand side.  NAMES_FILE has one\n"
		"name per line, followed by a tab and \"array\" for arrays.\n"
		"--any: print the files with any mention.\n"
		"--asm: FILE_LIST is assembly; print a writes row\n"
		"\"file line name - asm|addr\" for every mention (asm: in\n"
		"the last, destination, operand of an instruction).\n"
		"Exit: 0 done, 1 a file of FILE_LIST could not be read (named\n"
		"on stderr; the others are done), 64 usage, 65 no NAMES_FILE,\n"
		"70 a read or write error on NAMES_FILE, stdin or stdout.\n");
}

int main(int argc, char **argv)
{
	struct strtab names;
	struct toks t = { 0 };
	unsigned char *arrays = NULL;
	size_t arrays_cap = 0, cap = 0;
	char *line = NULL;
	int any = 0, asm_mode = 0, status = 0, argi = 1;
	FILE *nf;

	prog_name = "mentions";
	if (argi < argc && !strcmp(argv[argi], "--any")) {
		any = 1;
		argi++;
	} else if (argi < argc && !strcmp(argv[argi], "--asm")) {
		asm_mode = 1;
		argi++;
	}
	if (argi < argc && (!strcmp(argv[argi], "-h") ||
			    !strcmp(argv[argi], "--help"))) {
		print_usage(stdout);
		return 0;
	}
	if (argc - argi != 1) {
		print_usage(stderr);
		return RC_USAGE;
	}
	nf = fopen(argv[argi], "r");
	if (!nf)
		die(errno == ENOENT ? RC_DATA : RC_HOST, "%s: %s", argv[argi],
		    strerror(errno));
	strtab_init(&names);
	while (next_line(nf, argv[argi], &line, &cap)) {
		char *tab;
		uint32_t id;

		tab = strchr(line, '\t');
		if (tab)
			*tab++ = '\0';
		if (!line[0])
			continue;
		id = strtab_intern(&names, line);
		if (id >= arrays_cap) {
			size_t old = arrays_cap;

			arrays_cap = arrays_cap ? arrays_cap * 2 : 1024;
			while (arrays_cap <= id)
				arrays_cap *= 2;
			arrays = xrealloc(arrays, arrays_cap);
			memset(arrays + old, 0, arrays_cap - old);
		}
		if (tab && !strcmp(tab, "array"))
			arrays[id] = 1;
	}
	if (!arrays)
		arrays = xcalloc(1, 1);
	fclose(nf);
	while (next_line(stdin, "stdin", &line, &cap)) {
		int r;

		if (!line[0])
			continue;
		if (asm_mode)
			r = asm_rows(&names, line, &t);
		else
			r = file_hits(&names, arrays, line, &t, any);
		if (r < 0)
			status = 1;
		else if (r && !asm_mode)
			printf("%s\n", line);
	}
	if (fflush(stdout) || ferror(stdout))
		die(RC_HOST, "stdout: write error: %s", strerror(errno));
	free(line);
	free(t.v);
	free(arrays);
	strtab_free(&names);
	return status;
}
