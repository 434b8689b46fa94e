// SPDX-License-Identifier: GPL-2.0
/*
 * queue-base: what the queue is based on, from the tree itself.
 *
 * TREE/.git/ro-campaign-origin (FORMATS.md, written by make setup) says
 * where the tree came from: kind tarball (Debian's linux-source-KERNEL)
 * or git (the user's own checkout), the kernel version, the source and
 * the pristine commit.  A git base is named by its commit (queue.sh
 * passes it to git format-patch --base, so each cover letter ends with
 * base-commit:), a tarball by its version and file.  A tree prepared
 * before the file existed is named by its top Makefile's VERSION,
 * PATCHLEVEL, SUBLEVEL and EXTRAVERSION, which is what make kernelversion
 * prints.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "queue-plan.h"

/* S is one short word of CHARS, or a 40/64 digit hex commit for HEX. */
static int word_of(const char *s, const char *chars, size_t max)
{
	size_t n = strlen(s);

	return n && n <= max && strspn(s, chars) == n;
}

#define VERSION_CHARS \
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.+-_~"

static int is_commit(const char *s)
{
	size_t n = strlen(s);

	return (n == 40 || n == 64) && strspn(s, "0123456789abcdef") == n;
}

/* The value of "NAME = value" in the kernel's top Makefile, or NULL. */
static char *make_var(char *const *lines, size_t n, const char *name)
{
	size_t i, len = strlen(name);

	for (i = 0; i < n; i++) {
		const char *l = lines[i], *p;
		char *v;
		size_t k;

		if (strncmp(l, name, len))
			continue;
		p = l + len;
		p += strspn(p, " \t");
		if (*p != '=')
			continue;
		p++;
		p += strspn(p, " \t");
		k = strcspn(p, " \t#");
		v = xstrndup(p, k);
		return v;
	}
	return NULL;
}

/* make kernelversion of TREE, read from its Makefile; NULL if absent. */
static char *makefile_version(const char *tree)
{
	char *path = xasprintf("%s/Makefile", tree), *buf, *p;
	char *lines[64], *ver, *pl, *sl, *ex, *out = NULL;
	size_t n = 0;

	buf = read_file(path, NULL);
	free(path);
	if (!buf)
		return NULL;
	/* VERSION and friends are the Makefile's first lines */
	for (p = buf; *p && n < ARRAY_SIZE(lines); ) {
		char *nl = strchr(p, '\n');

		lines[n++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	ver = make_var(lines, n, "VERSION");
	pl = make_var(lines, n, "PATCHLEVEL");
	sl = make_var(lines, n, "SUBLEVEL");
	ex = make_var(lines, n, "EXTRAVERSION");
	if (ver && *ver) {
		struct sb s;

		sb_init(&s);
		sb_add(&s, ver);
		if (pl && *pl) {
			sb_addf(&s, ".%s", pl);
			if (sl && *sl)
				sb_addf(&s, ".%s", sl);
		}
		if (ex)
			sb_add(&s, ex);
		out = s.buf;
		if (!word_of(out, VERSION_CHARS, 64)) {
			free(out);
			out = NULL;
		}
	}
	free(ver);
	free(pl);
	free(sl);
	free(ex);
	free(buf);
	return out;
}

/* "linux-source-6.12.tar.xz" as "Debian's linux-source-6.12". */
static char *tarball_words(const char *file)
{
	static const char *const ext[] = {
		".tar.xz", ".tar.gz", ".tar.bz2", ".tar.zst", ".tar", ".tgz",
	};
	size_t n = strlen(file), i, e;

	for (i = 0; i < ARRAY_SIZE(ext); i++) {
		e = strlen(ext[i]);
		if (n > e && !strcmp(file + n - e, ext[i])) {
			n -= e;
			break;
		}
	}
	if (!strncmp(file, "linux-source-", 13))
		return xasprintf("Debian's %.*s", (int)n, file);
	return xasprintf("the tarball %s", file);
}

/* The origin file's rows; dies naming PATH:LINE on a bad one. */
static void read_origin(struct queue_base *b, const char *path)
{
	struct tsv t;
	int ck, cv, r;
	char *source = NULL;

	if (tsv_open(&t, path, 0))
		die(RC_DATA, "%s: cannot read it (see above)", path);
	ck = tsv_need(&t, "key");
	cv = tsv_need(&t, "value");
	if (ck < 0 || cv < 0)
		die(RC_DATA, "%s: not an origin file (see above; make setup writes it)",
		    path);
	while ((r = tsv_next(&t)) > 0) {
		const char *k = t.field[ck], *v = t.field[cv];

		if (!strcmp(k, "kind")) {
			if (strcmp(v, "tarball") && strcmp(v, "git"))
				die(RC_DATA, "%s:%lu: kind '%s': expected tarball or git",
				    path, t.lineno, v);
			free(b->kind);
			b->kind = xstrdup(v);
		} else if (!strcmp(k, "version")) {
			if (!word_of(v, VERSION_CHARS, 64))
				die(RC_DATA, "%s:%lu: version '%s' is not a kernel version",
				    path, t.lineno, v);
			free(b->version);
			b->version = xstrdup(v);
		} else if (!strcmp(k, "commit")) {
			if (!is_commit(v))
				die(RC_DATA, "%s:%lu: commit '%s' is not a full hexadecimal commit id",
				    path, t.lineno, v);
			free(b->commit);
			b->commit = xstrdup(v);
		} else if (!strcmp(k, "source")) {
			if (!is_one_line(v))
				die(RC_DATA, "%s:%lu: source: a control character",
				    path, t.lineno);
			free(source);
			source = xstrdup(v);
		}
	}
	if (r < 0)
		die(RC_DATA, "%s: cannot read it (see above)", path);
	tsv_close(&t);
	if (!b->kind || !b->version || !b->commit || !source)
		die(RC_DATA, "%s: needs the rows kind, version, source and commit (make setup writes them)",
		    path);
	if (!strcmp(b->kind, "tarball")) {
		/* only the file's name reaches the patches */
		const char *f = strrchr(source, '/');

		f = f ? f + 1 : source;
		if (!word_of(f, VERSION_CHARS, 128))
			die(RC_DATA, "%s: source '%s' is not a tarball's file name",
			    path, source);
		b->source = tarball_words(f);
	}
	free(source);
}

void base_load(struct queue_base *b, const char *tree, const char *origin,
	       const char *text)
{
	char *path = origin ? xstrdup(origin) :
		     xasprintf("%s/.git/ro-campaign-origin", tree);

	memset(b, 0, sizeof(*b));
	if (!access(path, F_OK)) {
		read_origin(b, path);
	} else if (errno != ENOENT) {
		die(RC_HOST, "%s: %s", path, strerror(errno));
	} else {
		b->kind = xstrdup("tree");
		b->version = makefile_version(tree);
		if (origin)
			die(RC_DATA, "%s: no such file (--origin)", path);
		if (!b->version && !text)
			die(RC_DATA, "%s: no such file, and %s/Makefile names no VERSION: cannot say what the queue is based on (run make setup, or pass --base TEXT)",
			    path, tree);
	}
	free(path);
	if (text) {
		if (!is_one_line(text) || !*text)
			die(RC_USAGE, "--base: one line of text is needed");
		b->text = xstrdup(text);
	} else if (!strcmp(b->kind, "tarball")) {
		b->text = xasprintf("Linux %s (%s)", b->version, b->source);
	} else {
		b->text = xasprintf("Linux %s", b->version);
	}
	if (!b->commit)
		b->commit = xstrdup("-");
	if (!b->version)
		b->version = xstrdup("-");
}

void base_free(struct queue_base *b)
{
	free(b->kind);
	free(b->version);
	free(b->commit);
	free(b->source);
	free(b->text);
}

void base_lines(struct sb *s, const struct queue_base *b)
{
	sb_addf(s, "Base: %s\n", b->text);
	if (!strcmp(b->kind, "git"))
		sb_addf(s, "base-commit: %s\n", b->commit);
}
