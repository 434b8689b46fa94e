// SPDX-License-Identifier: GPL-2.0
/*
 * lib-test.c - a command-line window into lib/ for test-lib.sh: each
 * subcommand runs one library call on its arguments and prints what it
 * got, so the shell test can feed real files and check real exit codes.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "ctok.h"
#include "evidence.h"
#include "cand.h"
#include "journal.h"
#include "kv.h"
#include "strtab.h"
#include "tsv.h"

static int cmd_tsv(const char *path, const char *col)
{
	struct tsv t;
	int c, rc;

	if (tsv_open(&t, path, 0))
		return RC_DATA;
	c = tsv_need(&t, col);
	if (c < 0) {
		tsv_close(&t);
		return RC_DATA;
	}
	while ((rc = tsv_next(&t)) > 0)
		printf("%lu %s\n", t.lineno, t.field[c]);
	tsv_close(&t);
	return rc < 0 ? RC_DATA : RC_OK;
}

/*
 * The rows of candidates.tsv PATH whose class is in the comma-separated
 * CLASSES ("all": every class), read as FLAGS says ("strict" or
 * "lenient"): one line each, "LINENO file line name class conf annot
 * value", then "rows N", and "find FILE:LINE:NAME" lookups.
 */
static int cmd_cands(const char *path, const char *classes, const char *how,
		     char **find, int nfind)
{
	unsigned int set = 0;
	struct crows c;
	const struct crow *r;
	char *copy = xstrdup(classes), *p = copy, *w;
	long bad;
	size_t i;
	int k;

	while ((w = strsep(&p, ","))) {
		for (k = 0; k < CL_NR; k++)
			if (!strcmp(w, "all") || !strcmp(w, class_name[k]))
				set |= 1u << k;
	}
	free(copy);
	bad = crows_read(path, set, 0, strcmp(how, "lenient") ? 0 :
			 CANDS_LENIENT, &c);
	if (bad) {
		fprintf(stderr, "lib-test: %s: %ld bad rows\n", path, bad);
		k = c.sys_errno ? RC_HOST : RC_DATA;
		crows_free(&c);
		return k;
	}
	for (i = 0; i < c.n; i++) {
		r = &c.v[i];
		printf("%lu %s %ld %s %s %s %s %s\n", r->lineno, r->file,
		       r->line, r->name, class_name[r->class],
		       conf_name[r->conf],
		       r->annot == AN_NONE ? "-" : annot_name[r->annot],
		       value_name[r->value]);
	}
	printf("rows %zu\n", c.nrows);
	for (k = 0; k < nfind; k++) {
		char *f = xstrdup(find[k]), *l = strchr(f, ':'), *n;

		n = l ? strchr(l + 1, ':') : NULL;
		if (!n)
			return RC_USAGE;
		*l = *n = '\0';
		r = crows_find(&c, f, strtol(l + 1, NULL, 10), n + 1);
		printf("find %s: %lu\n", find[k], r ? r->lineno : 0);
		free(f);
	}
	crows_free(&c);
	return RC_OK;
}

static int cmd_final(const char *path)
{
	struct jrows rows;
	size_t i;

	if (journal_read(path, &rows))
		return RC_DATA;
	journal_final(&rows, NULL, NULL);
	for (i = 0; i < rows.n; i++)
		printf("%s %s %s %lu\n", rows.v[i].file, rows.v[i].variable,
		       verdict_name(rows.v[i].verdict), rows.v[i].lineno);
	journal_rows_free(&rows);
	return RC_OK;
}

static int cmd_append(const char *path, const char *var, const char *ev)
{
	struct journal j;
	struct jrow r = {
		.time = "2026-01-01T00:00:00Z", .variable = (char *)var,
		.file = "kernel/x.c", .line = 3, .batch = "b1",
		.verdict = V_ACCEPTED, .evidence = (char *)ev,
		.level = EV_LEVEL_MODULE_CYCLED,	/* wrong: the writer ignores it */
		.config_hash = "c", .core_hash = "k",
	};

	journal_open(&j, path, NULL);
	journal_append(&j, &r);
	journal_close(&j);
	return RC_OK;
}

/* Every row, not only the final ones: the level and the hashes. */
static int cmd_levels(const char *path)
{
	struct jrows rows;
	size_t i;

	if (journal_read(path, &rows))
		return RC_DATA;
	for (i = 0; i < rows.n; i++)
		printf("%s %s %s %s %lu\n", rows.v[i].variable,
		       ev_level_name(rows.v[i].level), rows.v[i].config_hash,
		       rows.v[i].core_hash, rows.v[i].lineno);
	journal_rows_free(&rows);
	return RC_OK;
}

static int cmd_writers(const char *s)
{
	struct ev_writer *w;
	struct sb out;
	long more;
	int n, i;

	n = ev_writers_parse(s, &w, &more);
	if (n < 0) {
		printf("bad\n");
		return RC_DATA;
	}
	sb_init(&out);
	for (i = 0; i < n; i++) {
		if (i)
			sb_addc(&out, ';');
		ev_writer_print(&out, &w[i]);
	}
	if (more)
		sb_addf(&out, ";...(+%ld more)", more);
	printf("%d %s\n", n, out.buf);
	sb_free(&out);
	ev_writers_free(w, n);
	return RC_OK;
}

/* Each token of FILE: its line, its kind and its text. */
static int cmd_tokens(const char *path)
{
	static const char kinds[] = "ipso";
	struct toks t = { 0 };
	size_t len, i;
	char *buf = read_file(path, &len);

	if (!buf)
		return RC_DATA;
	tokenize(buf, len, &t);
	for (i = 0; i < t.n; i++)
		printf("%u %c %.*s\n", t.v[i].line, kinds[t.v[i].kind],
		       (int)t.v[i].len, t.v[i].s);
	free(t.v);
	free(buf);
	return RC_OK;
}

/*
 * Each bracket of FILE's tokens, "INDEX TEXT CLOSE" (tok_close() up to
 * END, default the last token), and each '#' that starts a directive,
 * "INDEX #".
 */
static int cmd_brackets(const char *path, const char *end_arg)
{
	struct toks t = { 0 };
	size_t len, i, end;
	char *buf = read_file(path, &len);

	if (!buf)
		return RC_DATA;
	tokenize(buf, len, &t);
	end = end_arg ? (size_t)opt_long("END", end_arg, 0, t.n) : t.n;
	for (i = 0; i < t.n; i++) {
		if (tok_is(&t, i, "{") || tok_is(&t, i, "(") ||
		    tok_is(&t, i, "["))
			printf("%zu %c %zu\n", i, *t.v[i].s,
			       tok_close(&t, i, end));
		else if (tok_directive(&t, i))
			printf("%zu #\n", i);
	}
	free(t.v);
	free(buf);
	return RC_OK;
}

/* The lines of FILE that tok_continuations() says go on to the next. */
static int cmd_conts(const char *path)
{
	unsigned char *cont = NULL;
	size_t len, ncont = 0, l;
	char *buf = read_file(path, &len);

	if (!buf)
		return RC_DATA;
	tok_continuations(buf, len, &cont, &ncont);
	for (l = 0; l < ncont; l++)
		if (cont[l])
			printf("%zu\n", l);
	free(cont);
	free(buf);
	return RC_OK;
}

static int cmd_items(const char *s)
{
	struct ev_item *it;
	char stage[32];
	int n, i;

	n = ev_items_parse(s, &it);
	for (i = 0; i < n; i++)
		printf("[%s|%s]", it[i].key, it[i].value ? it[i].value : "");
	if (!ev_stage(s, stage, sizeof(stage)))
		printf(" stage=%s", stage);
	printf("\n");
	ev_items_free(it, n);
	return RC_OK;
}

/* KEY of the key-value TSV PATH with its line, or as a number. */
static int cmd_kv(const char *path, const char *key, char **range)
{
	unsigned long line;
	const char *v;
	long min, max;
	struct kv k;

	if (kv_load(&k, path))
		return RC_DATA;
	if (range) {
		if (parse_long(range[0], LONG_MIN, LONG_MAX, &min) ||
		    parse_long(range[1], LONG_MIN, LONG_MAX, &max))
			return RC_USAGE;
		printf("%ld\n", kv_long(&k, key, min, max));
	} else {
		v = kv_get(&k, key, &line);
		if (!v)
			kv_need(&k, key);
		printf("%lu %s\n", line, v);
	}
	kv_free(&k);
	return RC_OK;
}

/*
 * ROUNDS tables of COUNT keys and one key of BIG bytes, each destroyed
 * after its keys are found again: ids dense and stable, "-" no string.
 */
static int cmd_strtab(const char *count, const char *big)
{
	long n, nbig, round, i;
	struct strtab t;
	char key[96], *b;

	if (parse_long(count, 1, 10000000, &n) ||
	    parse_long(big, 1, 100000000, &nbig))
		return RC_USAGE;
	b = xmalloc(nbig + 1);
	memset(b, 'b', nbig);
	b[nbig] = '\0';
	for (round = 0; round < 3; round++) {
		strtab_init(&t);
		for (i = 0; i < n; i++) {
			snprintf(key, sizeof(key), "a.c\t%ld\tname_%060ld", i, i);
			if (strtab_intern(&t, key) != (uint32_t)i)
				die(RC_FAIL, "key %ld: not id %ld", i, i);
		}
		if (strtab_intern(&t, b) != (uint32_t)n ||
		    strtab_intern(&t, "-") != STR_NONE)
			die(RC_FAIL, "the big key or '-'");
		for (i = 0; i < n; i++) {
			snprintf(key, sizeof(key), "a.c\t%ld\tname_%060ld", i, i);
			if (strtab_find(&t, key) != (uint32_t)i ||
			    strtab_intern(&t, key) != (uint32_t)i)
				die(RC_FAIL, "key %ld: not found again", i);
		}
		if (strtab_find(&t, b) != (uint32_t)n ||
		    strtab_find(&t, "a.c\t0\tname") != STR_NONE)
			die(RC_FAIL, "find");
		printf("%u\n", t.n);
		strtab_destroy(&t);
	}
	free(b);
	return RC_OK;
}

int main(int argc, char **argv)
{
	long v;

	prog_name = "lib-test";
	if (argc == 4 && !strcmp(argv[1], "tsv"))
		return cmd_tsv(argv[2], argv[3]);
	if (argc >= 5 && !strcmp(argv[1], "cands"))
		return cmd_cands(argv[2], argv[3], argv[4], argv + 5, argc - 5);
	if (argc == 3 && !strcmp(argv[1], "final"))
		return cmd_final(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "append"))
		return cmd_append(argv[2], argv[3], "built=kernel/x.o,vmlinux");
	if (argc == 5 && !strcmp(argv[1], "append"))
		return cmd_append(argv[2], argv[3], argv[4]);
	if (argc == 3 && !strcmp(argv[1], "levels"))
		return cmd_levels(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "level")) {
		printf("%s\n", ev_level_name(ev_level(argv[2], argv[3])));
		return RC_OK;
	}
	if (argc == 3 && !strcmp(argv[1], "notbuilt")) {
		printf("%s\n",
		       ev_notbuilt_kinds[ev_notbuilt_parse(argv[2])].label);
		return RC_OK;
	}
	if (argc == 4 && !strcmp(argv[1], "sentence")) {
		char *s = ev_sentence(argv[2], argv[3]);

		printf("%s\n", s ? s : "(none)");
		free(s);
		return RC_OK;
	}
	if (argc == 3 && !strcmp(argv[1], "writers"))
		return cmd_writers(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "items"))
		return cmd_items(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "tokens"))
		return cmd_tokens(argv[2]);
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "brackets"))
		return cmd_brackets(argv[2], argc == 4 ? argv[3] : NULL);
	if (argc == 3 && !strcmp(argv[1], "conts"))
		return cmd_conts(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "path"))
		return is_tree_path(argv[2]) ? RC_OK : RC_DATA;
	if (argc == 3 && !strcmp(argv[1], "ident"))
		return is_identifier(argv[2]) ? RC_OK : RC_DATA;
	if (argc == 3 && !strcmp(argv[1], "long")) {
		v = opt_long("--n", argv[2], 1, 1000000);
		printf("%ld\n", v);
		return RC_OK;
	}
	if ((argc == 4 || argc == 6) && !strcmp(argv[1], "kv"))
		return cmd_kv(argv[2], argv[3], argc == 6 ? argv + 4 : NULL);
	if (argc == 4 && !strcmp(argv[1], "strtab"))
		return cmd_strtab(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "oneline")) {
		printf("%s\n", ev_one_line(argv[2], 900));
		return RC_OK;
	}
	fprintf(stderr, "usage: lib-test tsv FILE COL | cands FILE CLASSES strict|lenient [FILE:LINE:NAME...] | final FILE | levels FILE | append FILE VAR [EVIDENCE] | level VERDICT EVIDENCE | notbuilt REASON | writers S | items S | tokens FILE | brackets FILE [END] | conts FILE | path S | ident S | long S | oneline S | kv FILE KEY [MIN MAX] | strtab COUNT BIG\n");
	return RC_USAGE;
}
