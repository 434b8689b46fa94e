// SPDX-License-Identifier: GPL-2.0
/*
 * tree.c - never destroy what validate did not create.
 *
 * validate resets its work tree before every build (git.c), which throws
 * away every uncommitted change.  The changes validate makes itself, the
 * annotations and --extra-patch, are listed in a marker file in the
 * tree's git directory before they are applied, with a hash of each
 * changed file after:
 *
 *   HASH<TAB>PATH      (HASH: 16 hex digits of fnv1a, "-" while applying,
 *                       "gone" for a file the patch deleted)
 *
 * A killed run leaves its annotations and the marker behind; the next run
 * may reset those.  Any other change (modified, deleted or untracked, as
 * git status shows it) stops validate with RC_DATA and a list of the
 * files, unless --force was given: then the first reset discards it.
 * The marker is removed by every reset that leaves the tree clean.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "validate.h"

#define MARKER_NAME	"ro-campaign-validate.applied"
#define MAX_NAMED	20

struct mark {
	char *hash;
	char *path;
};

struct marks {
	struct mark *v;
	int n;
};

void tree_init(struct ctx *x)
{
	char *out = spath(x, "git.out"), *dir;

	dir = git(x, out, "rev-parse", "--absolute-git-dir", NULL, NULL) ?
	      NULL : last_line(out);
	if (!dir)
		die(RC_USAGE, "%s: not a git work tree (see --help: --tree)",
		    x->tree);
	x->marker = xasprintf("%s/%s", dir, MARKER_NAME);
	free(dir);
	free(out);
}

/* The hash of the tree's file PATH as the marker writes it. */
static char *file_hash(struct ctx *x, const char *path)
{
	char *p = xasprintf("%s/%s", x->tree, path), *buf, *r;
	size_t len;

	buf = read_file(p, &len);
	free(p);
	if (!buf)
		return xstrdup(errno == ENOENT ? "gone" : "-");
	r = xasprintf("%016llx", fnv1a(FNV1A_INIT, buf, len));
	free(buf);
	return r;
}

static void marks_load(struct ctx *x, struct marks *m)
{
	char *buf = read_file(x->marker, NULL), *p = buf, *line, *path;

	m->v = NULL;
	m->n = 0;
	if (!buf && errno != ENOENT)
		die(RC_HOST, "%s: %s", x->marker, strerror(errno));
	while (p && (line = strsep(&p, "\n"))) {
		path = strchr(line, '\t');
		if (!path)
			continue;
		*path++ = '\0';
		m->v = xrealloc(m->v, (m->n + 1) * sizeof(*m->v));
		m->v[m->n].hash = xstrdup(line);
		m->v[m->n++].path = xstrdup(path);
	}
	free(buf);
}

static void marks_free(struct marks *m)
{
	int i;

	for (i = 0; i < m->n; i++) {
		free(m->v[i].hash);
		free(m->v[i].path);
	}
	free(m->v);
}

static struct mark *marks_find(struct marks *m, const char *path)
{
	int i;

	for (i = 0; i < m->n; i++)
		if (!strcmp(m->v[i].path, path))
			return &m->v[i];
	return NULL;
}

/* Set PATH's hash (adding PATH), a path that is not one line is skipped. */
static void marks_set(struct marks *m, const char *path, char *hash)
{
	struct mark *k = marks_find(m, path);

	if (!is_one_line(path)) {
		free(hash);
		return;
	}
	if (!k) {
		m->v = xrealloc(m->v, (m->n + 1) * sizeof(*m->v));
		k = &m->v[m->n++];
		k->path = xstrdup(path);
		k->hash = NULL;
	}
	free(k->hash);
	k->hash = hash;
}

static void marks_save(struct ctx *x, struct marks *m)
{
	struct sb s;
	int i;

	sb_init(&s);
	for (i = 0; i < m->n; i++)
		sb_addf(&s, "%s\t%s\n", m->v[i].hash, m->v[i].path);
	if (write_file_atomic(x->marker, s.buf, s.len))
		die(RC_HOST, "%s: %s", x->marker, strerror(errno));
	sb_free(&s);
}

/* The tree holds validate's changes only: forget them. */
void tree_clean(struct ctx *x)
{
	if (unlink(x->marker) && errno != ENOENT)
		die(RC_HOST, "%s: %s", x->marker, strerror(errno));
}

/*
 * Every change in the tree must be one validate made: otherwise die with
 * RC_DATA naming the files, or with FORCE only warn.  Returns the number
 * of changed paths.
 */
int tree_guard(struct ctx *x, int force)
{
	char *out = spath(x, "status.out"), *buf, *p, *end, *path;
	int nchanged = 0, nforeign = 0;
	struct marks m;
	struct sb s;
	size_t len;

	if (git(x, out, "status", "--porcelain", "-z",
		"--untracked-files=all"))
		die(RC_HOST, "%s: git status failed (see %s)", x->tree, x->log);
	buf = read_file(out, &len);
	if (!buf)
		die(RC_HOST, "%s: %s", out, strerror(errno));
	marks_load(x, &m);
	sb_init(&s);
	/* "XY PATH\0", for a rename or copy "XY TO\0FROM\0" */
	for (p = buf, end = buf + len; p < end; p += strlen(p) + 1) {
		struct mark *k;
		char *h;
		int ours;

		if (strlen(p) < 4)
			continue;
		path = p + 3;
		nchanged++;
		k = marks_find(&m, path);
		h = k ? file_hash(x, path) : NULL;
		ours = k && (!strcmp(k->hash, "-") || !strcmp(k->hash, h));
		free(h);
		if (!ours && nforeign++ < MAX_NAMED)
			sb_addf(&s, "\n  %.2s %s", p, path);
		if (p[0] == 'R' || p[0] == 'C')
			p += strlen(p) + 1;
	}
	if (nforeign > MAX_NAMED)
		sb_addf(&s, "\n  ... and %d more", nforeign - MAX_NAMED);
	if (nforeign && !force)
		die(RC_DATA, "%s: %d uncommitted change%s that validate did not make (git status):%s\nvalidate resets this tree before every build: commit or stash them, use another work tree, or pass --force to discard them",
		    x->tree, nforeign, nforeign == 1 ? "" : "s", s.buf);
	if (nforeign)
		warnx("%s: --force: discarding %d uncommitted change%s:%s",
		      x->tree, nforeign, nforeign == 1 ? "" : "s", s.buf);
	sb_free(&s);
	marks_free(&m);
	free(buf);
	free(out);
	/* nothing in the tree: nothing of validate's either */
	if (!nchanged)
		tree_clean(x);
	return nchanged;
}

/*
 * git apply PATCH in the tree, its files in the marker first (so a run
 * killed in between may still reset them) and with their hashes after.
 * 0 applied, else git apply's status: then the tree is unchanged.
 */
int tree_apply(struct ctx *x, const char *patch)
{
	char *out = spath(x, "apply.out"), *buf, *p, *end, *orig;
	size_t len, olen;
	struct marks m;
	int rc, i;

	rc = git(x, out, "apply", "--numstat", "-z", patch);
	if (rc)
		goto out;
	buf = read_file(out, &len);
	if (!buf)
		die(RC_HOST, "%s: %s", out, strerror(errno));
	orig = read_file(x->marker, &olen);
	marks_load(x, &m);
	/* "ADDED\tDELETED\tPATH\0", for a rename "ADDED\tDELETED\t\0FROM\0TO\0" */
	for (p = buf, end = buf + len; p < end; p += strlen(p) + 1) {
		char *path = strrchr(p, '\t');

		if (path && !path[1]) {
			p += strlen(p) + 1;
			if (p < end)
				marks_set(&m, p, xstrdup("-"));
			if (p < end)
				p += strlen(p) + 1;
			if (p < end)
				marks_set(&m, p, xstrdup("-"));
		} else if (path) {
			marks_set(&m, path + 1, xstrdup("-"));
		}
	}
	free(buf);
	marks_save(x, &m);
	rc = git(x, NULL, "apply", patch, NULL, NULL);
	if (!rc) {
		for (i = 0; i < m.n; i++)
			if (!strcmp(m.v[i].hash, "-"))
				marks_set(&m, m.v[i].path,
					  file_hash(x, m.v[i].path));
		marks_save(x, &m);
	} else if (!orig) {
		tree_clean(x);
	} else if (write_file_atomic(x->marker, orig, olen)) {
		die(RC_HOST, "%s: %s", x->marker, strerror(errno));
	}
	free(orig);
	marks_free(&m);
out:
	free(out);
	return rc;
}
