// SPDX-License-Identifier: GPL-2.0
/*
 * report: candidates.tsv (sorted, written by rename) and --explain.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "value.h"

static const struct facts *sort_facts;

static int def_cmp(const void *a, const void *b)
{
	const struct def *da = &sort_facts->defs[*(const uint32_t *)a];
	const struct def *db = &sort_facts->defs[*(const uint32_t *)b];
	const struct strtab *s = &sort_facts->strs;
	int d = 0;

	if (da->file != db->file)
		d = strcmp(strtab_str(s, da->file), strtab_str(s, db->file));
	if (!d && da->line != db->line)
		d = da->line < db->line ? -1 : 1;
	if (!d && da->name != db->name)
		d = strcmp(strtab_str(s, da->name), strtab_str(s, db->name));
	if (!d)
		d = *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
	return d;
}

/*
 * What the annotate step adds for a proposal (cocci/annotate.sh's
 * annotation column): __initconst for a const one freed with init.
 */
static const char *annotation(const struct def *df, const struct verdict *v)
{
	if (v->klass == K_RO)
		return "ro_after_init";
	if (v->klass == K_INITDATA)
		return df->attrs & A_CONST ? "initconst" : "initdata";
	return "-";
}

int report_write(const struct judge *j, const char *path)
{
	const struct facts *f = j->f;
	const struct strtab *s = &f->strs;
	uint32_t *order = xmalloc((f->ndefs + 1) * sizeof(*order)), i;
	struct sb out;
	int rc = 0;

	for (i = 0; i < f->ndefs; i++)
		order[i] = i;
	sort_facts = f;
	qsort(order, f->ndefs, sizeof(*order), def_cmp);
	sb_init(&out);
	sb_add(&out,
	       "file\tline\tname\tstorage\tclass\tconfidence\treason\tevidence\tannotation\tvalue\n");
	for (i = 0; i < f->ndefs; i++) {
		const struct def *df = &f->defs[order[i]];
		const struct verdict *v = &j->v[order[i]];

		sb_addf(&out, "%s\t%u\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
			strtab_str(s, df->file), df->line,
			strtab_str(s, df->name),
			df->storage == ST_STATIC ? "static" : "global",
			klass_names[v->klass], conf_names[v->conf], v->reason,
			v->evidence, annotation(df, v), value_of(order[i]));
	}
	if (write_file_atomic(path, out.buf, out.len)) {
		fprintf(stderr, "%s: %s: cannot write: %s\n", prog_name, path,
			strerror(errno));
		rc = -1;
	}
	sb_free(&out);
	free(order);
	return rc;
}

static const char *const status_names[] = {
	"init-only write", "escape in init-only code", "DISQUALIFIES",
	"ignored", "never high (unparsed region)",
	"read (a pointer to const argument)",
};

/* Follow the chain of non-init callers that make a writer non-init. */
static void explain_chain(const struct judge *j, uint32_t n, FILE *out)
{
	const struct graph *g = j->g;
	char buf[512];
	int depth;

	for (depth = 0; depth < 8 && n != MAP_NONE; depth++) {
		const struct fnode *nd = &g->nodes[n];
		const struct call *c;

		graph_why(g, n, buf, sizeof(buf));
		fprintf(out, "        %*s%s\n", 2 * depth, "", buf);
		if (nd->why != WHY_CALLER)
			return;
		c = &j->f->calls[nd->bad_call];
		n = graph_node(g, c->file, c->caller);
		if (n == MAP_NONE) {
			fprintf(out, "        %*s%s is not a known function\n",
				2 * depth + 2, "", strtab_str(&j->f->strs,
							     c->caller));
			return;
		}
	}
}

int report_explain(const struct judge *j, const char *name, FILE *out)
{
	const struct facts *f = j->f;
	const struct strtab *s = &f->strs;
	uint32_t id = strtab_find(s, name), d, i, found = 0;
	char where[512], why[512];

	if (id == STR_NONE)
		return 0;
	for (d = 0; d < f->ndefs; d++) {
		const struct def *df = &f->defs[d];
		const struct verdict *v = &j->v[d];

		if (df->name != id)
			continue;
		found++;
		fprintf(out, "%s %s:%u %s type '%s'%s%s\n", name,
			strtab_str(s, df->file), df->line,
			df->storage == ST_STATIC ? "static" : "global",
			strtab_str(s, df->type), df->array ? " array" : "",
			df->init ? " initialized" : "");
		fprintf(out, "  class %s, confidence %s: %s\n",
			klass_names[v->klass], conf_names[v->conf], v->reason);
		fprintf(out, "  value %s: %s\n", value_of(d), value_why(d));
		for (i = j->ev_start[d]; i < j->ev_start[d + 1]; i++) {
			const struct event *e = &j->ev[i];
			int st = event_status(j, d, e, why, sizeof(why));
			uint32_t n = MAP_NONE;

			event_where(j, e, where, sizeof(where));
			fprintf(out, "    %s: %s%s%s\n", where, status_names[st],
				why[0] ? ": " : "", why);
			if (!e->is_param)
				n = graph_node(j->g, f->writes[e->idx].file,
					       f->writes[e->idx].func);
			if (n != MAP_NONE && st != EV_IGNORED)
				explain_chain(j, n, out);
		}
		if (j->ev_start[d] == j->ev_start[d + 1])
			fprintf(out, "    no writes, escapes or parameters\n");
	}
	return found;
}
