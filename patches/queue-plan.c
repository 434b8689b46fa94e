// SPDX-License-Identifier: GPL-2.0
/*
 * queue-plan: the plan of the queue, written below OUT.
 *
 * The accepted variables (queue-join.c) are grouped by MAINTAINERS area;
 * the areas become series (sorted by area name), the files patches
 * (sorted by path, at most max_vars variables each); an area of more than
 * max_patches patches is split into postings of about equal size.  Output:
 *   README                     counts per area, what was not queued
 *   .plan/date                 the newest journal time: the commit date
 *   .plan/base.tsv             key value: kind, version, commit of the base
 *   .plan/areas.tsv            dir, area, prefix, patches, variables,
 *                              part, parts: one row per posting
 *   .plan/DIR/NNNN.list        file, line, name: the annotation list
 *   .plan/DIR/NNNN.msg         the commit message
 *   .plan/DIR/NNNN.notes       what goes below its --- line
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
				 v[i].prefix[k] == '/' || v[i].prefix[k] == ':'))
			while (k > 0 && v[0].prefix[k] != '/' &&
			       v[0].prefix[k] != ':')
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

/* A patch: the variables V[first .. first + n) of one file. */
struct unit {
	size_t first, n;
	int split;	/* its file was split by group: a group of its own */
};

static int group_cmp(const void *a, const void *b)
{
	const struct var *va = a, *vb = b;

	if (va->group != vb->group)
		return (int)va->group - (int)vb->group;
	if (va->line != vb->line)
		return va->line < vb->line ? -1 : 1;
	return strcmp(va->name, vb->name);
}

/* 1 if the patch U protects a function or object pointer, or a policy. */
static int valuable(const struct var *v, const struct unit *u)
{
	size_t k;

	for (k = u->first; k < u->first + u->n; k++)
		if (v[k].value == VV_FN_POINTER ||
		    v[k].value == VV_OBJECT_POINTER || v[k].value == VV_POLICY)
			return 1;
	return 0;
}

/*
 * The patches of the N variables V of one area: one per file and kind
 * (the annotation: __ro_after_init and __initdata never share a patch).
 * A file with more than max_vars variables of one kind is split by group
 * instead (module parameters, pointers set once at init, tables,
 * settings), one patch per group, however many it holds: never two
 * patches of one file that differ only in their count.  The patches
 * that protect function pointers, object pointers and policies come
 * first, the others after them, each in path order.  Returns the count;
 * *OUT gets them.
 */
static size_t make_units(const struct plan_opts *o, struct var *v, size_t n,
			 struct unit **out)
{
	struct unit *u = xmalloc((n + 1) * sizeof(*u));
	struct unit *sorted = xmalloc((n + 1) * sizeof(*sorted));
	size_t i, j, k, nu = 0, ns = 0;
	int pass;

	for (i = 0; i < n; i = j) {
		for (j = i; j < n && !strcmp(v[j].file, v[i].file) &&
		     v[j].kind == v[i].kind; j++)
			;
		if (j - i <= (size_t)o->max_vars) {
			u[nu].first = i;
			u[nu].split = 0;
			u[nu++].n = j - i;
			continue;
		}
		qsort(v + i, j - i, sizeof(*v), group_cmp);
		for (k = i; k < j; ) {
			size_t e;

			for (e = k; e < j && v[e].group == v[k].group; e++)
				;
			u[nu].first = k;
			u[nu].split = 1;
			u[nu++].n = e - k;
			k = e;
		}
	}
	for (pass = 1; pass >= 0; pass--)
		for (i = 0; i < nu; i++)
			if (valuable(v, &u[i]) == pass)
				sorted[ns++] = u[i];
	free(u);
	*out = sorted;
	return nu;
}

/*
 * Where each posting of NU patches U starts: the fewest postings of at
 * most max_patches, k = ceil(NU / max), of about equal size (posting j
 * ends near (j + 1) * NU / k).  A posting runs on past its share rather
 * than split the patches of one file, but never past max_patches.
 * Returns the count; START[j] is the first patch of posting j, and
 * START[count] = NU.
 */
static unsigned int split_postings(const struct plan_opts *o, struct var *v,
				   const struct unit *u, size_t nu,
				   size_t *start)
{
	size_t max = (size_t)o->max_patches, k, cur = 0, i;
	unsigned int parts = 0;

	k = (nu + max - 1) / max;
	start[parts++] = 0;
	for (i = 0; i < nu; i++) {
		size_t end = (parts * nu + k - 1) / k;

		if (cur && (cur >= max || (parts < k && i >= end &&
		    strcmp(v[u[i].first].file, v[u[i - 1].first].file)))) {
			start[parts++] = i;
			cur = 0;
		}
		cur++;
	}
	start[parts] = nu;
	return parts;
}

/*
 * A cover letter's subject: "PFX: Mark N variables as __ro_after_init",
 * naming every annotation of the posting ("as __ro_after_init or
 * __initdata").
 */
static void cover_subject(struct sb *s, const char *pfx,
			  const struct posting *p)
{
	int k, nk = 0, i = 0;

	for (k = 0; k < VK_NR; k++)
		nk += !!p->nkind[k];
	sb_addf(s, "%s: Mark %zu variable%s as ", pfx, p->nvars,
		p->nvars > 1 ? "s" : "");
	for (k = 0; k < VK_NR; k++) {
		if (!p->nkind[k])
			continue;
		if (i++)
			sb_add(s, i == nk ? " or " : ", ");
		sb_add(s, annot_attr[k]);
	}
}

/* The first J > I with subject S[I], and that I, in *A, *B; 0 if none. */
static int first_twin(char **s, size_t nu, size_t *a, size_t *b)
{
	size_t i, j;

	for (i = 0; i < nu; i++)
		for (j = i + 1; j < nu; j++)
			if (!strcmp(s[i], s[j])) {
				*a = i;
				*b = j;
				return 1;
			}
	return 0;
}

/*
 * The subjects of the NU patches U of one posting, each distinct: a
 * subject two patches share is made again with the file's base name,
 * then with its path.  Dies (RC_HOST, a bug) if two still agree.
 */
static char **subjects(struct var *v, const struct unit *u, size_t nu)
{
	char **s = xcalloc(nu + 1, sizeof(*s));
	int *level = xcalloc(nu + 1, sizeof(*level));
	struct var **unit;
	size_t i, k, a, b;

	for (;;) {
		for (i = 0; i < nu; i++) {
			if (s[i])
				continue;
			unit = xmalloc((u[i].n + 1) * sizeof(*unit));
			for (k = 0; k < u[i].n; k++)
				unit[k] = &v[u[i].first + k];
			s[i] = patch_subject(unit, u[i].n, u[i].split,
					     level[i]);
			free(unit);
		}
		if (!first_twin(s, nu, &a, &b))
			break;
		if (level[a] >= 2 && level[b] >= 2)
			die(RC_HOST, "internal error: two patches of one posting have the subject '%s'",
			    s[a]);
		for (i = 0; i < 2; i++) {
			k = i ? b : a;
			if (level[k] < 2) {
				level[k]++;
				free(s[k]);
				s[k] = NULL;
			}
		}
	}
	free(level);
	return s;
}

/*
 * Posting P (patches U[0..NU-1] of the variables V) into PLAN/NAME/:
 * the annotation lists, commit messages and notes of its patches, its
 * files, the cover letter's subject and text; its row in AREAS.
 */
static void write_posting(const struct plan_opts *o, const char *plan,
			  const char *name, struct var *v,
			  const struct unit *u, size_t nu,
			  const struct posting *p, const char *pfx,
			  struct sb *areas)
{
	char *dir = xasprintf("%s/%s", plan, name);
	struct sb msg, notes, list, files, cover, row, scope;
	struct posting pp;
	char **subj;
	size_t i, k, nv = 0, wvar = 8, wloc = 9;
	unsigned int levels = 0;
	struct var **unit;

	make_dir(dir);
	sb_init(&msg);
	sb_init(&notes);
	sb_init(&list);
	sb_init(&files);
	sb_init(&cover);
	sb_init(&scope);
	sb_init(&row);
	for (i = 0; i < nu; i++) {
		for (k = u[i].first; k < u[i].first + u[i].n; k++) {
			size_t l = strlen(v[k].file) + 12;

			if (strlen(v[k].name) > wvar)
				wvar = strlen(v[k].name);
			if (l > wloc)
				wloc = l;
		}
		nv += u[i].n;
	}
	unit = xmalloc((nv + 1) * sizeof(*unit));
	subj = subjects(v, u, nu);
	for (i = 0; i < nu; i++) {
		const struct var *f = &v[u[i].first];
		char fname[32];

		for (k = 0; k < u[i].n; k++)
			unit[k] = &v[u[i].first + k];
		msg.len = 0;
		notes.len = 0;
		commit_msg(&msg, &notes, o, unit, u[i].n, subj[i]);
		snprintf(fname, sizeof(fname), "%04zu.msg", i + 1);
		put(dir, fname, &msg);
		snprintf(fname, sizeof(fname), "%04zu.notes", i + 1);
		put(dir, fname, &notes);
		list.len = 0;
		sb_add(&list, "file\tline\tname\tannotation\n");
		for (k = 0; k < u[i].n; k++)
			sb_addf(&list, "%s\t%ld\t%s\t%s\n", f[k].file,
				f[k].line, f[k].name, annot_name[f[k].kind]);
		snprintf(fname, sizeof(fname), "%04zu.list", i + 1);
		put(dir, fname, &list);
		for (k = 0; k < i && strcmp(f->file, v[u[k].first].file); k++)
			;
		if (k == i) {
			sb_addf(&files, "%s\n", f->file);
			sb_addf(&scope, "%s%s", i ? " " : "", f->file);
		}
		for (k = 0; k < u[i].n; k++) {
			char *loc = xasprintf("%s:%ld", f[k].file, f[k].line);

			sb_addf(&row, "  %2zu  %-*s  %-*s  %s\n", i + 1,
				(int)wvar, f[k].name, (int)wloc, loc,
				ev_level_name(f[k].level));
			levels |= 1u << f[k].level;
			free(loc);
		}
	}
	put(dir, "files", &files);
	msg.len = 0;
	cover_subject(&msg, pfx, p);
	if (p->parts > 1)
		sb_addf(&msg, " (part %u of %u)", p->part, p->parts);
	sb_addc(&msg, '\n');
	put(dir, "cover.subject", &msg);
	pp = *p;
	pp.scope = scope.buf;
	cover_blurb(&cover, o, &pp, row.buf, wvar, wloc, levels);
	put(dir, "cover.blurb", &cover);
	sb_addf(areas, "%s\t%s\t%s\t%zu\t%zu\t%u\t%u\n", name, p->area, pfx,
		nu, nv, p->part, p->parts);
	sb_free(&msg);
	sb_free(&notes);
	sb_free(&list);
	sb_free(&files);
	sb_free(&cover);
	sb_free(&scope);
	for (i = 0; i < nu; i++)
		free(subj[i]);
	free(subj);
	sb_free(&row);
	free(unit);
	free(dir);
}

/*
 * The series of the N variables V of one area: one posting, or several
 * of at most max_patches patches each, "NN-area-KofP"; their rows in
 * AREAS.
 */
static void write_series(const struct plan_opts *o, const char *plan,
			 struct var *v, size_t n, unsigned int num,
			 struct sb *areas)
{
	char *name = slug(v[0].sec->name, num), *pfx = series_prefix(v, n);
	struct unit *u;
	size_t nu = make_units(o, v, n, &u), *start;
	struct posting p = { 0 };
	unsigned int k;

	start = xmalloc((nu + 2) * sizeof(*start));
	p.area = v[0].sec->name;
	p.parts = split_postings(o, v, u, nu, start);
	p.area_nvars = n;
	p.area_npatches = nu;
	for (k = 0; k < p.parts; k++) {
		const struct unit *pu = u + start[k];
		size_t pn = start[k + 1] - start[k], i, j;
		char *dir;

		p.part = k + 1;
		p.npatches = pn;
		memset(p.nkind, 0, sizeof(p.nkind));
		for (i = p.nvars = 0; i < pn; i++) {
			p.nvars += pu[i].n;
			for (j = 0; j < pu[i].n; j++)
				p.nkind[v[pu[i].first + j].kind]++;
		}
		if (p.parts > 1)
			dir = xasprintf("%s-%0*uof%u", name,
					p.parts >= 10 ? 2 : 1, p.part,
					p.parts);
		else
			dir = xstrdup(name);
		write_posting(o, plan, dir, v, pu, pn, &p, pfx, areas);
		free(dir);
	}
	free(start);
	free(u);
	free(pfx);
	free(name);
}

/*
 * Where each file's subject prefix came from: its own git history (the
 * --prefixes file), else the table of queue-prefix.c.
 */
static void prefix_sources(struct sb *s, const struct plan_in *in)
{
	size_t i, k, nlog = 0, ntab = 0;
	struct sb l;

	sb_init(&l);
	for (i = 0; i < in->nacc; i++) {
		const struct var *v = &in->acc[i];

		for (k = 0; k < i && strcmp(in->acc[k].file, v->file); k++)
			;
		if (k < i)
			continue;
		if (!strcmp(v->prefix_src, "git log"))
			nlog++;
		else
			ntab++;
		sb_addf(&l, "  %-46s %s (%s)\n", v->file, v->prefix,
			v->prefix_src);
	}
	sb_addf(s, "\nSubject prefixes: %zu files from the tree's git history (git log:\nthe most common prefix of the last 20 commits that touched the file,\npatches/queue-prefixes.sh), %zu from ro-campaign's table (table:\npatches/queue-prefix.c, for a tree without history, such as Debian's\ntarball, or a file whose commits have none):\n\n%s",
		nlog, ntab, l.len ? l.buf : "  (none)\n");
	sb_free(&l);
}

static void readme(struct sb *s, const struct plan_opts *o,
		   const struct sb *areas, const struct plan_in *in)
{
	char *copy = xstrdup(areas->buf), *line, *save;
	size_t i;

	sb_add(s, "ro-campaign patch queue\n=======================\n\n");
	base_lines(s, &o->base);
	sb_wrap(s, !strcmp(o->base.kind, "git") ?
		"The patches are made on that commit and apply to it with or without ro-campaign's core patches (a warn mode for validation only); each cover letter ends with its base-commit: line (git format-patch --base)." :
		"The patches are made on it and apply to it with or without ro-campaign's core patches (a warn mode for validation only).",
		"", "", WIDTH);
	sb_addf(s, "\nJournal:    %s (%zu rows, %zu variables)\n", o->journal,
		in->nrows, in->nvars);
	sb_addf(s, "Candidates: %s\n", o->candidates);
	sb_addf(s, "Queued:     %zu, below (reached %zu, device-bound %zu, module-cycled %zu,\n            booted %zu, built %zu)\n",
		in->nacc, in->nlevel[EV_LEVEL_REACHED],
		in->nlevel[EV_LEVEL_DEVICE_BOUND],
		in->nlevel[EV_LEVEL_MODULE_CYCLED],
		in->nlevel[EV_LEVEL_BOOTED], in->nlevel[EV_LEVEL_BUILT]);
	sb_addf(s, "Not queued: %zu, listed at the end\n", in->nother);
	if (o->allow_built)
		sb_addf(s, "Only built: %zu queued (--allow-built); their messages say they were\n            only compiled, not booted through their code\n\n",
			in->nlevel[EV_LEVEL_BUILT]);
	else
		sb_addf(s, "Only built: %zu accepted but left out: only compiled, not booted\n            through their code (queue plan --allow-built,\n            make queue QUEUE_ALLOW_BUILT=1 queues them)\n\n",
			in->nbuilt);
	sb_addf(s, "Series, in the order the top-level `series` file applies them. Each\ndirectory is one posting: a cover letter, at most %d patches and its\nown `series`; an area with more patches is split into postings\nNN-area-KofP, to be sent one after the other:\n\n",
		o->max_patches);
	sb_addf(s, "  %-46s %7s %9s  %s\n", "directory", "patches", "variables",
		"area (prefix)");
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[7], *p = line;
		int k;

		for (k = 0; k < 7; k++) {
			f[k] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = '\0';
			else
				p = "";
		}
		sb_addf(s, "  %-46s %7s %9s  %s (%s)", f[0], f[3], f[4], f[1],
			f[2]);
		if (strcmp(f[6], "1"))
			sb_addf(s, ", part %s of %s", f[5], f[6]);
		sb_addc(s, '\n');
	}
	free(copy);
	prefix_sources(s, in);
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
	text.len = 0;
	sb_addf(&text, "key\tvalue\nkind\t%s\nversion\t%s\ncommit\t%s\n",
		o->base.kind, o->base.version, o->base.commit);
	put(plan, "base.tsv", &text);
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
