// SPDX-License-Identifier: GPL-2.0
/*
 * lib-test.c - a command-line window into lib/ for test-lib.sh: each
 * subcommand runs one library call on its arguments and prints what it
 * got, so the shell test can feed real files and check real exit codes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "ctok.h"
#include "evidence.h"
#include "journal.h"
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

int main(int argc, char **argv)
{
	long v;

	prog_name = "lib-test";
	if (argc == 4 && !strcmp(argv[1], "tsv"))
		return cmd_tsv(argv[2], argv[3]);
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
	if (argc == 3 && !strcmp(argv[1], "path"))
		return is_tree_path(argv[2]) ? RC_OK : RC_DATA;
	if (argc == 3 && !strcmp(argv[1], "ident"))
		return is_identifier(argv[2]) ? RC_OK : RC_DATA;
	if (argc == 3 && !strcmp(argv[1], "long")) {
		v = opt_long("--n", argv[2], 1, 1000000);
		printf("%ld\n", v);
		return RC_OK;
	}
	if (argc == 3 && !strcmp(argv[1], "oneline")) {
		printf("%s\n", ev_one_line(argv[2], 900));
		return RC_OK;
	}
	fprintf(stderr, "usage: lib-test tsv FILE COL | final FILE | levels FILE | append FILE VAR [EVIDENCE] | level VERDICT EVIDENCE | notbuilt REASON | writers S | items S | tokens FILE | path S | ident S | long S | oneline S\n");
	return RC_USAGE;
}
