// SPDX-License-Identifier: GPL-2.0
/*
 * journal.c - read and append the validation journal (journal.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"
#include "journal.h"
#include "tsv.h"

const char *const journal_cols[JOURNAL_NCOLS] = {
	"time", "variable", "file", "line", "batch", "verdict", "evidence",
	"level", "config_hash", "core_hash",
};

/* The header before the level column: read, and migrated on open. */
#define OLD_NCOLS 9
static const char *const old_cols[OLD_NCOLS] = {
	"time", "variable", "file", "line", "batch", "verdict", "evidence",
	"config_hash", "core_hash",
};

#define C_EVIDENCE 6
#define C_LEVEL 7

static const char *const verdict_names[] = {
	[V_UNDECIDED] = "undecided",
	[V_ACCEPTED] = "accepted",
	[V_REJECTED] = "rejected",
	[V_NOTBUILT] = "not-built",
	[V_SKIPPED] = "skipped",
};

const char *verdict_name(enum verdict v)
{
	return verdict_names[v];
}

enum verdict verdict_parse(const char *s)
{
	int v;

	for (v = V_ACCEPTED; v <= V_NOTBUILT; v++)
		if (!strcmp(s, verdict_names[v]))
			return v;
	return V_UNDECIDED;
}

/* An old journal's row has no level: its hashes come one column earlier. */
static int parse_row(struct tsv *t, struct jrow *r, int old)
{
	/* Only decisions are journaled: undecided and skipped never are. */
	static const char *const journaled[] = {
		[V_ACCEPTED] = "accepted",
		[V_REJECTED] = "rejected",
		[V_NOTBUILT] = "not-built",
	};
	char **f = t->field;
	int v, l, h = old ? C_LEVEL : C_LEVEL + 1;

	memset(r, 0, sizeof(*r));
	if (tsv_path(t, 2) || tsv_ident(t, 1) ||
	    tsv_long(t, 3, 1, 100000000, &r->line))
		return -1;
	v = tsv_enum(t, 5, journaled, ARRAY_SIZE(journaled));
	if (v < 0)
		return -1;
	r->level = ev_level(verdict_names[v], f[C_EVIDENCE]);
	if (!old) {
		/* "exercised", the old name of booted, reads as booted */
		l = ev_level_parse(f[C_LEVEL]);
		if (l < 0)
			l = tsv_enum(t, C_LEVEL, ev_level_names, EV_LEVEL_NR);
		if (l < 0)
			return -1;
		if (l != (int)r->level) {
			tsv_error(t, "column 'level': '%s', but a %s row with this evidence is '%s'",
				  f[C_LEVEL], verdict_names[v],
				  ev_level_name(r->level));
			return -1;
		}
	}
	r->time = xstrdup(f[0]);
	r->variable = xstrdup(f[1]);
	r->file = xstrdup(f[2]);
	r->batch = xstrdup(f[4]);
	r->verdict = v;
	r->evidence = xstrdup(f[C_EVIDENCE]);
	r->config_hash = xstrdup(f[h]);
	r->core_hash = xstrdup(f[h + 1]);
	r->lineno = t->lineno;
	return 0;
}

/* 1 if T's header is the one before the level column. */
static int old_header(const struct tsv *t)
{
	int i;

	if (t->ncols != OLD_NCOLS)
		return 0;
	for (i = 0; i < OLD_NCOLS; i++)
		if (strcmp(t->head[i], old_cols[i]))
			return 0;
	return 1;
}

int journal_read(const char *path, struct jrows *rows)
{
	struct tsv t;
	size_t cap = 0;
	int rc, old;

	rows->v = NULL;
	rows->n = 0;
	if (tsv_open(&t, path, TSV_TORN_OK))
		return -1;
	old = old_header(&t);
	if (!old && tsv_expect(&t, journal_cols, JOURNAL_NCOLS)) {
		tsv_close(&t);
		return -1;
	}
	while ((rc = tsv_next(&t)) > 0) {
		if (rows->n == cap) {
			cap = cap ? cap * 2 : 64;
			rows->v = xrealloc(rows->v, cap * sizeof(*rows->v));
		}
		if (parse_row(&t, &rows->v[rows->n], old)) {
			rc = -1;
			break;
		}
		rows->n++;
	}
	tsv_close(&t);
	if (rc < 0) {
		journal_rows_free(rows);
		return -1;
	}
	return 0;
}

static void free_row(struct jrow *r)
{
	free(r->time);
	free(r->variable);
	free(r->file);
	free(r->batch);
	free(r->evidence);
	free(r->config_hash);
	free(r->core_hash);
}

/* A small open-addressing set of (file, line, variable) keys. */
struct keyset {
	size_t *slot;		/* row index + 1, 0 = empty */
	size_t mask;
};

static size_t key_hash(const struct jrow *r)
{
	unsigned long long h = fnv1a(FNV1A_INIT, r->file, strlen(r->file) + 1);

	h = fnv1a(h, &r->line, sizeof(r->line));
	return fnv1a(h, r->variable, strlen(r->variable));
}

static size_t *key_slot(struct keyset *s, struct jrow *v, size_t i)
{
	size_t k = key_hash(&v[i]) & s->mask;

	while (s->slot[k]) {
		struct jrow *o = &v[s->slot[k] - 1];

		if (o->line == v[i].line && !strcmp(o->file, v[i].file) &&
		    !strcmp(o->variable, v[i].variable))
			break;
		k = (k + 1) & s->mask;
	}
	return &s->slot[k];
}

size_t journal_final(struct jrows *rows, const char *config_hash,
		     const char *core_hash)
{
	struct keyset s;
	size_t i, n = 0, size = 16;
	char *last;

	while (size < 2 * rows->n)
		size *= 2;
	s.slot = xcalloc(size, sizeof(*s.slot));
	s.mask = size - 1;
	/* The final row of each key: the last one that passes the filter. */
	for (i = 0; i < rows->n; i++) {
		struct jrow *r = &rows->v[i];

		if ((config_hash && strcmp(r->config_hash, config_hash)) ||
		    (core_hash && strcmp(r->core_hash, core_hash)))
			continue;
		*key_slot(&s, rows->v, i) = i + 1;
	}
	last = xcalloc(rows->n ? rows->n : 1, 1);
	for (i = 0; i < size; i++)
		if (s.slot[i])
			last[s.slot[i] - 1] = 1;
	for (i = 0; i < rows->n; i++) {
		if (last[i])
			rows->v[n++] = rows->v[i];
		else
			free_row(&rows->v[i]);
	}
	rows->n = n;
	free(last);
	free(s.slot);
	return n;
}

void journal_rows_free(struct jrows *rows)
{
	size_t i;

	for (i = 0; i < rows->n; i++)
		free_row(&rows->v[i]);
	free(rows->v);
	rows->v = NULL;
	rows->n = 0;
}

static char *header_line(const char *const *cols, int ncols)
{
	struct sb s;
	int i;

	sb_init(&s);
	for (i = 0; i < ncols; i++)
		sb_addf(&s, "%s%c", cols[i], i + 1 < ncols ? '\t' : '\n');
	return s.buf;
}

/* BUF, LEN bytes, starts with the line HEAD. */
static int starts_with(const char *buf, size_t len, const char *head)
{
	size_t n = strlen(head);

	return len >= n && !memcmp(buf, head, n);
}

/*
 * An old journal BUF (LEN bytes of complete rows that journal_read()
 * read well) under the header HEAD, each row with its level inserted
 * after the evidence, its other bytes as they were.
 */
static struct sb migrated(const char *buf, size_t len, const char *head)
{
	const char *p = memchr(buf, '\n', len), *end = buf + len, *nl;
	struct sb s;

	sb_init(&s);
	sb_add(&s, head);
	for (p++; p < end; p = nl + 1) {
		const char *f[OLD_NCOLS], *q;
		char *verdict, *evidence;
		int k = 0;

		nl = memchr(p, '\n', end - p);
		f[0] = p;
		for (q = p; q < nl; q++)
			if (*q == '\t' && ++k < OLD_NCOLS)
				f[k] = q + 1;
		if (k != OLD_NCOLS - 1)
			die(RC_HOST, "internal: a journal row of %d fields to migrate",
			    k + 1);
		verdict = xstrndup(f[5], f[6] - 1 - f[5]);
		evidence = xstrndup(f[C_EVIDENCE], f[7] - 1 - f[C_EVIDENCE]);
		sb_addn(&s, p, f[7] - p);
		sb_add(&s, ev_level_name(ev_level(verdict, evidence)));
		sb_addc(&s, '\t');
		sb_addn(&s, f[7], nl + 1 - f[7]);
		free(verdict);
		free(evidence);
	}
	return s;
}

void journal_open(struct journal *j, const char *path, struct jrows *rows)
{
	char *head = header_line(journal_cols, JOURNAL_NCOLS), *buf;
	char *ohead = header_line(old_cols, OLD_NCOLS);
	size_t len, keep, hlen = strlen(head);
	struct jrows read = { NULL, 0 };
	size_t nread;
	int old;

	j->path = xstrdup(path);
	buf = read_file(path, &len);
	if (!buf && errno != ENOENT)
		die(RC_HOST, "%s: %s", path, strerror(errno));
	/* Check what the file is before changing a byte of it. */
	old = buf && starts_with(buf, len, ohead);
	if (buf && len && !old && !starts_with(buf, len, head))
		die(RC_DATA, "%s:1: not a validation journal: the first line must be the header '%.*s' (refusing to change the file)",
		    path, (int)hlen - 1, head);
	if (buf && len && journal_read(path, &read))
		die(RC_DATA, "%s: not a valid journal (see above); it was not changed",
		    path);
	nread = read.n;
	if (rows)
		*rows = read;
	else
		journal_rows_free(&read);
	keep = len;
	while (buf && keep && buf[keep - 1] != '\n')
		keep--;
	if (buf && keep != len)
		warnx("%s: cutting off a torn last row (%zu bytes): it was never a verdict",
		      path, len - keep);
	if (old) {
		/* Every complete row, with its level: a new file, renamed. */
		struct sb s = migrated(buf, keep, head);

		if (write_file_atomic(path, s.buf, s.len))
			die(RC_HOST, "%s: cannot migrate it to the level column: %s",
			    path, strerror(errno));
		warnx("%s: added the level column to its %zu rows (it had the old 9-column header)",
		      path, nread);
		free(buf);
		buf = s.buf;
		len = keep = s.len;
	}
	j->fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (j->fd < 0)
		die(RC_HOST, "%s: %s", path, strerror(errno));
	if (buf && keep != len && ftruncate(j->fd, keep))
		die(RC_HOST, "%s: ftruncate: %s", path, strerror(errno));
	if (!buf || !len) {
		if (write_all(j->fd, head, hlen) || fsync(j->fd))
			die(RC_HOST, "%s: write: %s", path, strerror(errno));
		fsync_parent(path);
	}
	free(buf);
	free(head);
	free(ohead);
}

void journal_append(struct journal *j, const struct jrow *r)
{
	char *row;
	enum ev_level level;

	if (!is_one_line(r->evidence) || !is_one_line(r->batch))
		die(RC_HOST, "internal: journal row for %s has a control character",
		    r->variable);
	level = ev_level(verdict_name(r->verdict), r->evidence);
	row = xasprintf("%s\t%s\t%s\t%ld\t%s\t%s\t%s\t%s\t%s\t%s\n", r->time,
			r->variable, r->file, r->line, r->batch,
			verdict_name(r->verdict), r->evidence,
			ev_level_name(level), r->config_hash, r->core_hash);
	if (write_all(j->fd, row, strlen(row)) || fsync(j->fd))
		die(RC_HOST, "%s: write: %s", j->path, strerror(errno));
	free(row);
}

void journal_close(struct journal *j)
{
	if (j->fd >= 0)
		close(j->fd);
	j->fd = -1;
	free(j->path);
	j->path = NULL;
}
