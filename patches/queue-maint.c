// SPDX-License-Identifier: GPL-2.0
/*
 * queue-maint: parse MAINTAINERS and find a file's maintainer area.
 *
 * Matching follows scripts/get_maintainer.pl: a pattern is anchored at
 * the start of the path; '*' matches any characters (including '/'), '?'
 * one character, "[...]" one of a set.  A pattern ending in '/' (or
 * naming a directory of the tree) matches every file below it; any other
 * pattern must also have as many '/' as the path.  The depth of a pattern
 * is its number of '/' (plus one for a file pattern, -1 if it starts with
 * '*'); the deepest match wins.  N: (regex) and K: (content) entries are
 * not used for grouping.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base.h"
#include "queue-maint.h"

static int slashes(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '/';
	return n;
}

/* Match one "[...]" set at P against C; *END gets the character after. */
static int match_set(const char *p, char c, const char **end)
{
	const char *q = p + 1;
	int neg = 0, hit = 0;

	if (*q == '^' || *q == '!') {
		neg = 1;
		q++;
	}
	for (; *q && *q != ']'; q++) {
		if (q[1] == '-' && q[2] && q[2] != ']') {
			hit |= c >= q[0] && c <= q[2];
			q += 2;
		} else {
			hit |= c == *q;
		}
	}
	if (!*q) {		/* no closing bracket: a literal '[' */
		*end = p + 1;
		return c == '[';
	}
	*end = q + 1;
	return neg ? !hit : hit;
}

/* 1 if P matches a prefix of S. */
static int match_prefix(const char *p, const char *s)
{
	const char *next;

	for (;;) {
		switch (*p) {
		case '\0':
			return 1;
		case '*':
			for (; ; s++) {
				if (match_prefix(p + 1, s))
					return 1;
				if (!*s)
					return 0;
			}
		case '?':
			if (!*s)
				return 0;
			p++;
			s++;
			break;
		case '[':
			if (!*s || !match_set(p, *s, &next))
				return 0;
			p = next;
			s++;
			break;
		default:
			if (*p != *s)
				return 0;
			p++;
			s++;
		}
	}
}

int maint_match(const struct mpat *p, const char *file)
{
	if (!match_prefix(p->pat, file))
		return 0;
	return p->dir || slashes(p->pat) == slashes(file);
}

static int is_dir(const char *tree, const char *pat)
{
	struct stat st;
	char *path;
	int ret;

	if (!tree || strpbrk(pat, "*?["))
		return 0;
	path = xasprintf("%s/%s", tree, pat);
	ret = !stat(path, &st) && S_ISDIR(st.st_mode);
	free(path);
	return ret;
}

static void add_pat(struct mpat **v, size_t *n, const char *val,
		    unsigned long lineno, const char *tree)
{
	struct mpat *p;
	size_t len = strlen(val);

	while (len && (val[len - 1] == ' ' || val[len - 1] == '\t'))
		len--;
	if (!len)
		return;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	p = &(*v)[(*n)++];
	p->pat = xmalloc(len + 2);
	memcpy(p->pat, val, len);
	p->pat[len] = '\0';
	if (p->pat[len - 1] != '/' && is_dir(tree, p->pat))
		strcpy(p->pat + len, "/");
	len = strlen(p->pat);
	p->dir = p->pat[len - 1] == '/';
	p->depth = slashes(p->pat) + !p->dir;
	if (p->pat[0] == '*')
		p->depth = -1;
	p->lineno = lineno;
}

static int is_type_line(const char *s)
{
	return s[0] >= 'A' && s[0] <= 'Z' && s[1] == ':';
}

int maint_load(struct maint *m, const char *path, const char *tree)
{
	char *p, *nl, *title = NULL;
	unsigned long lineno = 0, title_line = 0;
	int in_list = 0, prev_type = 0;
	size_t cap = 0;

	memset(m, 0, sizeof(*m));
	m->path = path;
	m->data = read_file(path, NULL);
	if (!m->data) {
		warnx("%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	for (p = m->data; *p; p = nl + 1) {
		struct msec *sec;
		const char *val;

		lineno++;
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p) - 1;
		else
			*nl = '\0';
		if (!in_list) {
			in_list = !strcmp(p, "Maintainers List");
			continue;
		}
		if (!is_type_line(p)) {
			prev_type = 0;
			if (*p) {
				char *tab;

				/* "HPET:<TAB>x86": a tab would split plan TSVs */
				for (tab = p; (tab = strchr(tab, '\t'));)
					*tab = ' ';
				title = p;
				title_line = lineno;
			}
			continue;
		}
		if (!prev_type) {
			if (!title) {
				warnx("%s:%lu: entry without a section title",
				      path, lineno);
				return -1;
			}
			if (m->nsecs == cap) {
				cap = cap ? cap * 2 : 1024;
				m->secs = xrealloc(m->secs,
						   cap * sizeof(*m->secs));
			}
			sec = &m->secs[m->nsecs++];
			memset(sec, 0, sizeof(*sec));
			sec->name = title;
			sec->lineno = title_line;
			title = NULL;
		}
		prev_type = 1;
		sec = &m->secs[m->nsecs - 1];
		val = p + 2;
		while (*val == ' ' || *val == '\t')
			val++;
		if (p[0] == 'F')
			add_pat(&sec->f, &sec->nf, val, lineno, tree);
		else if (p[0] == 'X')
			add_pat(&sec->x, &sec->nx, val, lineno, tree);
	}
	if (!in_list || !m->nsecs) {
		warnx("%s: no \"Maintainers List\" with sections found; is this a kernel MAINTAINERS file?",
		      path);
		return -1;
	}
	return 0;
}

const struct msec *maint_area(const struct maint *m, const char *file,
			      const struct mpat **pat)
{
	const struct msec *best = NULL;
	const struct mpat *bp = NULL;
	size_t i, j;

	for (i = 0; i < m->nsecs; i++) {
		const struct msec *s = &m->secs[i];
		const struct mpat *hit = NULL;

		for (j = 0; j < s->nf; j++) {
			const struct mpat *p = &s->f[j];

			if (!maint_match(p, file))
				continue;
			if (!hit || p->depth > hit->depth ||
			    (p->depth == hit->depth &&
			     strlen(p->pat) > strlen(hit->pat)))
				hit = p;
		}
		if (!hit)
			continue;
		for (j = 0; j < s->nx; j++)
			if (maint_match(&s->x[j], file))
				break;
		if (j < s->nx)
			continue;
		if (!bp || hit->depth > bp->depth ||
		    (hit->depth == bp->depth &&
		     strlen(hit->pat) > strlen(bp->pat))) {
			best = s;
			bp = hit;
		}
	}
	if (pat)
		*pat = bp;
	return best;
}

void maint_free(struct maint *m)
{
	size_t i, j;

	for (i = 0; i < m->nsecs; i++) {
		for (j = 0; j < m->secs[i].nf; j++)
			free(m->secs[i].f[j].pat);
		for (j = 0; j < m->secs[i].nx; j++)
			free(m->secs[i].x[j].pat);
		free(m->secs[i].f);
		free(m->secs[i].x);
	}
	free(m->secs);
	free(m->data);
	memset(m, 0, sizeof(*m));
}
