// SPDX-License-Identifier: GPL-2.0
/*
 * queue-plan: the plan of the queue, written below OUT.
 *
 * The accepted variables (queue-join.c) are grouped by MAINTAINERS area;
 * the areas become series (sorted by area name), the files patches
 * (sorted by path, at most max_vars variables each).  Output:
 *   README                     counts per area, what was not queued
 *   .plan/date                 the newest journal time: the commit date
 *   .plan/areas.tsv            dir, area, prefix, patches, variables
 *   .plan/DIR/NNNN.list        file, line, name: the annotation list
 *   .plan/DIR/NNNN.msg         the commit message
 *   .plan/DIR/files            the files of the series (get_maintainer)
 *   .plan/DIR/cover.subject    the cover letter's subject
 *   .plan/DIR/cover.blurb      the cover letter's text
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue-plan.h"

/* "NN-area-name": the series' directory. */
static char *slug(const char *area, unsigned int num)
{
	struct sb s;
	const char *p;
	int dash = 0;

	sb_init(&s);
	sb_addf(&s, "%02u-", num);
	for (p = area; *p && s.len < 44; p++) {
		char c = *p;

		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			if (dash && s.buf[s.len - 1] != '-')
				sb_addc(&s, '-');
			sb_addc(&s, c);
			dash = 0;
		} else {
			dash = 1;
		}
	}
	return s.buf;
}

/* The longest common prefix of the subject prefixes, on '/' bounds. */
static char *series_prefix(struct var *v, size_t n)
{
	size_t len = strlen(v[0].prefix), i, k;

	for (i = 1; i < n; i++) {
		for (k = 0; k < len && v[i].prefix[k] == v[0].prefix[k]; k++)
			;
		if (k < len && !(v[i].prefix[k] == '\0' ||
				 v[i].prefix[k] == '/'))
			while (k > 0 && v[0].prefix[k] != '/')
				k--;
		len = k;
	}
	if (!len)
		return xstrdup(v[0].prefix);
	return xstrndup(v[0].prefix, len);
}

static void put(const char *dir, const char *name, const struct sb *s)
{
	char *path = xasprintf("%s/%s", dir, name);

	if (write_file_atomic(path, s->buf, s->len))
		die(RC_HOST, "%s: cannot write: %s", path, strerror(errno));
	free(path);
}

static void make_dir(const char *dir)
{
	if (mkdirs(dir))
		die(RC_HOST, "%s: cannot create directory: %s", dir,
		    strerror(errno));
}

/* The series of the N variables V of one area, its row in AREAS. */
static void write_series(const struct plan_opts *o, const char *plan,
			 struct var *v, size_t n, unsigned int num,
			 struct sb *areas)
{
	char *name = slug(v[0].sec->name, num), *dir, *pfx;
	struct sb msg, list, files, cover, row;
	size_t i, j, k, np = 0, wvar = 8, wloc = 9;
	unsigned int levels = 0;
	struct var **unit = xmalloc(n * sizeof(*unit));

	dir = xasprintf("%s/%s", plan, name);
	make_dir(dir);
	sb_init(&msg);
	sb_init(&list);
	sb_init(&files);
	sb_init(&cover);
	sb_init(&row);
	for (i = 0; i < n; i++) {
		size_t l = strlen(v[i].file) + 12;

		if (strlen(v[i].name) > wvar)
			wvar = strlen(v[i].name);
		if (l > wloc)
			wloc = l;
	}
	for (i = 0; i < n; i = j) {
		char fname[32];

		for (j = i; j < n && j - i < (size_t)o->max_vars &&
		     !strcmp(v[j].file, v[i].file); j++)
			unit[j - i] = &v[j];
		np++;
		msg.len = 0;
		commit_msg(&msg, o, unit, j - i);
		snprintf(fname, sizeof(fname), "%04zu.msg", np);
		put(dir, fname, &msg);
		list.len = 0;
		sb_add(&list, "file\tline\tname\n");
		for (k = i; k < j; k++)
			sb_addf(&list, "%s\t%ld\t%s\n", v[k].file, v[k].line,
				v[k].name);
		snprintf(fname, sizeof(fname), "%04zu.list", np);
		put(dir, fname, &list);
		if (!i || strcmp(v[i].file, v[i - 1].file))
			sb_addf(&files, "%s\n", v[i].file);
		for (k = i; k < j; k++) {
			char *loc = xasprintf("%s:%ld", v[k].file, v[k].line);

			sb_addf(&row, "  %2zu  %-*s  %-*s  %s\n", np,
				(int)wvar, v[k].name, (int)wloc, loc,
				ev_level_name(v[k].level));
			levels |= 1u << v[k].level;
			free(loc);
		}
	}
	put(dir, "files", &files);
	pfx = series_prefix(v, n);
	msg.len = 0;
	sb_addf(&msg, "%s: Mark %zu variable%s as __ro_after_init\n", pfx, n,
		n > 1 ? "s" : "");
	put(dir, "cover.subject", &msg);
	cover_blurb(&cover, o, v[0].sec->name, n, np, row.buf, wvar, wloc,
		    levels);
	put(dir, "cover.blurb", &cover);
	sb_addf(areas, "%s\t%s\t%s\t%zu\t%zu\n", name, v[0].sec->name, pfx,
		np, n);
	sb_free(&msg);
	sb_free(&list);
	sb_free(&files);
	sb_free(&cover);
	sb_free(&row);
	free(pfx);
	free(unit);
	free(dir);
	free(name);
}

static void readme(struct sb *s, const struct plan_opts *o,
		   const struct sb *areas, const struct plan_in *in)
{
	char *copy = xstrdup(areas->buf), *line, *save;
	size_t i;

	sb_add(s, "ro-campaign patch queue\n=======================\n\n");
	sb_wrap(s, o->base, "", "", WIDTH);
	sb_addf(s, "\nJournal:    %s (%zu rows, %zu variables)\n", o->journal,
		in->nrows, in->nvars);
	sb_addf(s, "Candidates: %s\n", o->candidates);
	sb_addf(s, "Queued:     %zu, below (exercised %zu, module-cycled %zu, built %zu)\n",
		in->nacc, in->nlevel[EV_LEVEL_EXERCISED],
		in->nlevel[EV_LEVEL_MODULE_CYCLED],
		in->nlevel[EV_LEVEL_BUILT]);
	sb_addf(s, "Not queued: %zu, listed at the end\n", in->nother);
	if (o->allow_built)
		sb_addf(s, "Only built: %zu queued (--allow-built); their messages say they were\n            only compiled, not booted through their code\n\n",
			in->nlevel[EV_LEVEL_BUILT]);
	else
		sb_addf(s, "Only built: %zu accepted but left out: only compiled, not booted\n            through their code (queue plan --allow-built,\n            make queue QUEUE_ALLOW_BUILT=1 queues them)\n\n",
			in->nbuilt);
	sb_add(s, "Series, in the order the top-level `series` file applies them\n(each directory has a cover letter, the patches and its own `series`):\n\n");
	sb_addf(s, "  %-46s %7s %9s  %s\n", "directory", "patches", "variables",
		"area (prefix)");
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[5], *p = line;
		int k;

		for (k = 0; k < 5; k++) {
			f[k] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = '\0';
			else
				p = "";
		}
		sb_addf(s, "  %-46s %7s %9s  %s (%s)\n", f[0], f[3], f[4], f[1],
			f[2]);
	}
	free(copy);
	sb_add(s, "\nNot queued: variables whose last journal verdict is not \"accepted\"\n(the reason is the journal's evidence), accepted ones the queue\ndropped (the reason starts with \"dropped:\"), and accepted ones of\nlevel built (\"accepted, only built:\", then the journal's evidence).\n\n");
	if (!in->nother)
		sb_add(s, "  (none)\n");
	for (i = 0; i < in->nother; i++) {
		const struct var *v = &in->other[i];
		size_t l = strlen(v->verdict);

		/* validate's not-built evidence already starts with its verdict */
		if (!strncmp(v->evidence, v->verdict, l) && v->evidence[l] == ':')
			sb_addf(s, "  %s:%ld %s: %s\n", v->file, v->line,
				v->name, v->evidence);
		else
			sb_addf(s, "  %s:%ld %s: %s: %s\n", v->file, v->line,
				v->name, v->verdict, v->evidence);
	}
}

int plan_run(const struct plan_opts *o)
{
	struct plan_in in;
	struct maint m;
	struct sb areas, text;
	unsigned int num = 0;
	size_t i, j;
	char *plan;

	if (maint_load(&m, o->maintainers, o->tree))
		die(RC_DATA, "%s: cannot use it (see above)", o->maintainers);
	plan_join(&in, o, &m);
	/* Everything is checked: only now is anything written. */
	sb_init(&areas);
	sb_init(&text);
	plan = xasprintf("%s/.plan", o->out);
	make_dir(plan);
	for (i = 0; i < in.nacc; i = j) {
		for (j = i; j < in.nacc && in.acc[j].sec == in.acc[i].sec; j++)
			;
		write_series(o, plan, in.acc + i, j - i, ++num, &areas);
	}
	sb_addf(&text, "%s\n", in.date);
	put(plan, "date", &text);
	put(plan, "areas.tsv", &areas);
	text.len = 0;
	readme(&text, o, &areas, &in);
	put(o->out, "README", &text);
	printf("queue: %zu queued in %u series, %zu not queued (%zu only built) (%s/README)\n",
	       in.nacc, num, in.nother, in.nbuilt, o->out);
	free(plan);
	sb_free(&areas);
	sb_free(&text);
	plan_in_free(&in);
	maint_free(&m);
	return 0;
}
