// SPDX-License-Identifier: GPL-2.0
/*
 * report-tsv.c - report.tsv (one row per conversion candidate, by value
 * rank, its annotation and value last), funnel.tsv (stage, count; the accepted ones per level
 * last) and kinds.tsv (annotation, then its candidates, validated,
 * accepted and queued) for scripts; columns in FORMATS.md.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* DIR/NAME from S, atomically: a reader never sees half of it. */
void write_out(const char *dir, const char *name, struct sb *s)
{
	char *path = xasprintf("%s/%s", dir, name);

	if (write_file_atomic(path, s->buf, s->len))
		die(RC_HOST, "%s: %s", path, strerror(errno));
	free(path);
	sb_free(s);
}

/* A free-text field: TABs and newlines become spaces. */
static void tsv_field(struct sb *s, const char *p, int last)
{
	for (; p && *p; p++)
		sb_addc(s, *p == '\t' || *p == '\n' ? ' ' : *p);
	sb_addc(s, last ? '\n' : '\t');
}

void write_tsv(struct report *r, const char *dir)
{
	struct sb f;
	char *sub;
	int i, s, *order = value_order(r);

	sb_init(&f);
	sb_add(&f, "file\tline\tname\tconfidence\tverdict\tlevel\tstage\tdirectory\tpatch\tfinder_reason\tfinder_evidence\tvalidation_evidence\tannotation\tvalue\n");
	for (i = 0; i < r->n; i++) {
		struct var *v = &r->v[order[i]];

		sub = subsystem(v->file);
		sb_addf(&f, "%s\t%ld\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t", v->file,
			v->line, v->name, v->confidence,
			v->verdict ? v->verdict : "-", ev_level_name(v->level),
			stage_name[v->reached],
			sub, v->patch ? v->patch : "-");
		free(sub);
		tsv_field(&f, v->reason, 0);
		tsv_field(&f, v->evidence, 0);
		tsv_field(&f, v->vevidence ? v->vevidence : "-", 0);
		sb_addf(&f, "%s\t%s\n", annot_attr[v->annot],
			value_name[v->value]);
	}
	free(order);
	write_out(dir, "report.tsv", &f);

	sb_init(&f);
	sb_add(&f, "stage\tcount\n");
	for (s = 0; s < S_NR; s++)
		sb_addf(&f, "%s\t%d\n", stage_name[s], r->count[s]);
	for (s = EV_LEVEL_FIRST; s < EV_LEVEL_NR; s++)
		sb_addf(&f, "%s\t%d\n", level_stage[s], r->level_count[s]);
	write_out(dir, "funnel.tsv", &f);

	sb_init(&f);
	sb_add(&f, "annotation");
	for (s = 0; s < KS_NR; s++)
		sb_addf(&f, "\t%s", kstage_name[s]);
	sb_addc(&f, '\n');
	for (i = 0; i < AN_NR; i++) {
		sb_add(&f, annot_attr[i]);
		for (s = 0; s < KS_NR; s++)
			sb_addf(&f, "\t%d", r->kind_count[i][s]);
		sb_addc(&f, '\n');
	}
	write_out(dir, "kinds.tsv", &f);
}
