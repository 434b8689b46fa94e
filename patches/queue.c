// SPDX-License-Identifier: GPL-2.0
/*
 * queue: turn the accepted conversions of a validation journal into
 * per-maintainer git format-patch series.  This program does the parts
 * that need reasoning (grouping by MAINTAINERS, commit messages, cover
 * letters, message-ids); patches/queue.sh drives git.  See --help.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue-maint.h"
#include "queue-plan.h"
#include "queue-prefix.h"
#include "queue-util.h"

#define DEFAULT_BASE "Base: Linux 6.1.192 (the Debian linux-source-6.1 tarball). The patch applies to it unchanged, with or without ro-campaign's core patches (a warn-and-continue mode for ro_after_init writes, used only for validation) on top."

static void print_help(FILE *fp)
{
	fputs("usage: queue area --tree DIR [--maintainers FILE] PATH...\n"
	      "       queue plan --journal FILE --candidates FILE --tree DIR\n"
	      "                  --out DIR --signoff 'NAME <EMAIL>'\n"
	      "                  [--maintainers FILE] [--max-vars N] [--profile NAME]\n"
	      "                  [--exclude FILE] [--base TEXT]\n"
	      "       queue finish PLAN_DIR SERIES_DIR DOMAIN\n"
	      "\n"
	      "area    print PATH, its MAINTAINERS area, the matching F: pattern\n"
	      "        and the subject prefix, TAB separated, one line per PATH\n"
	      "plan    read the validation journal (columns by header name:\n"
	      "        variable file line verdict evidence, optional batch\n"
	      "        config_hash core_hash profile; the last row of a\n"
	      "        variable wins) and candidates.tsv; write DIR/README and\n"
	      "        DIR/.plan/: one directory per MAINTAINERS area with the\n"
	      "        annotation lists and commit messages of its patches\n"
	      "finish  in SERIES_DIR (git format-patch --cover-letter output)\n"
	      "        fill in the cover letter from PLAN_DIR, add deterministic\n"
	      "        Message-ID/In-Reply-To/References headers, write 'series'\n"
	      "\n"
	      "  --tree DIR         the kernel tree (MAINTAINERS, writers' sources)\n"
	      "  --maintainers FILE default DIR/MAINTAINERS\n"
	      "  --max-vars N       at most N variables per patch (default 8)\n"
	      "  --signoff ID       the Signed-off-by identity\n"
	      "  --profile NAME     the validated build profile (default fast)\n"
	      "  --base TEXT        the paragraph naming the base\n"
	      "  --exclude FILE     TSV file name reason: accepted variables to leave\n"
	      "                     out, listed as dropped in the README\n"
	      "  -h, --help         this text\n"
	      "\n"
	      "Exit status: 0 done, 1 bad input (named on stderr), 2 usage.\n",
	      fp);
}

static char *default_maint(const char *tree)
{
	size_t n = strlen(tree) + 16;
	char *p = xmalloc(n);

	snprintf(p, n, "%s/MAINTAINERS", tree);
	return p;
}

static int cmd_area(int argc, char **argv)
{
	const char *tree = NULL, *mfile = NULL;
	char *dflt = NULL;
	struct maint m;
	int i, first;

	for (i = 0; i < argc && argv[i][0] == '-'; i++) {
		if (i + 1 < argc && !strcmp(argv[i], "--tree")) {
			tree = argv[++i];
		} else if (i + 1 < argc && !strcmp(argv[i], "--maintainers")) {
			mfile = argv[++i];
		} else {
			fprintf(stderr, "queue area: unknown option %s\n",
				argv[i]);
			return 2;
		}
	}
	first = i;
	if (!tree || first == argc) {
		fputs("queue area: --tree DIR and at least one PATH are needed\n",
		      stderr);
		return 2;
	}
	if (!mfile)
		mfile = dflt = default_maint(tree);
	if (maint_load(&m, mfile, tree)) {
		free(dflt);
		return 1;
	}
	for (i = first; i < argc; i++) {
		const struct mpat *p;
		const struct msec *s = maint_area(&m, argv[i], &p);
		char *pfx = subject_prefix(argv[i]);

		printf("%s\t%s\t%s\t%s\n", argv[i], s ? s->name : "-",
		       s ? p->pat : "-", pfx);
		free(pfx);
	}
	maint_free(&m);
	free(dflt);
	return 0;
}

static int cmd_plan(int argc, char **argv)
{
	struct plan_opts o = { 0 };
	char *dflt = NULL, *end;
	int i, ret;

	o.max_vars = 8;
	o.base = DEFAULT_BASE;
	o.profile = "fast";
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (i + 1 >= argc) {
			fprintf(stderr, "queue plan: %s needs a value\n", a);
			return 2;
		}
		if (!strcmp(a, "--journal")) {
			o.journal = argv[++i];
		} else if (!strcmp(a, "--candidates")) {
			o.candidates = argv[++i];
		} else if (!strcmp(a, "--tree")) {
			o.tree = argv[++i];
		} else if (!strcmp(a, "--maintainers")) {
			o.maintainers = argv[++i];
		} else if (!strcmp(a, "--out")) {
			o.out = argv[++i];
		} else if (!strcmp(a, "--signoff")) {
			o.signoff = argv[++i];
		} else if (!strcmp(a, "--exclude")) {
			o.exclude = argv[++i];
		} else if (!strcmp(a, "--profile")) {
			o.profile = argv[++i];
		} else if (!strcmp(a, "--base")) {
			o.base = argv[++i];
		} else if (!strcmp(a, "--max-vars")) {
			o.max_vars = strtol(argv[++i], &end, 10);
			if (*end || o.max_vars < 1) {
				fprintf(stderr, "queue plan: --max-vars '%s' is not a positive number\n",
					argv[i]);
				return 2;
			}
		} else {
			fprintf(stderr, "queue plan: unknown option %s\n", a);
			return 2;
		}
	}
	if (!o.journal || !o.candidates || !o.tree || !o.out) {
		fputs("queue plan: --journal, --candidates, --tree and --out are required\n",
		      stderr);
		return 2;
	}
	if (!o.signoff || !strchr(o.signoff, '<') || !strchr(o.signoff, '@')) {
		fputs("queue plan: --signoff 'NAME <EMAIL>' is required (set git config user.name and user.email)\n",
		      stderr);
		return 2;
	}
	if (!o.maintainers)
		o.maintainers = dflt = default_maint(o.tree);
	ret = plan_run(&o);
	free(dflt);
	return ret;
}

/* ---- finish ----------------------------------------------------------- */

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = xmalloc(n);

	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* Replace the first NEEDLE in S by WITH; -1 if absent. */
static int replace(struct sb *s, const char *needle, const char *with)
{
	char *p = strstr(s->buf, needle);
	struct sb t;

	if (!p)
		return -1;
	sb_init(&t);
	sb_addn(&t, s->buf, p - s->buf);
	sb_add(&t, with);
	sb_add(&t, p + strlen(needle));
	sb_free(s);
	*s = t;
	return 0;
}

/* Insert LINES after the Subject: header (and its continuation lines). */
static int add_headers(struct sb *s, const char *lines)
{
	char *p = strstr(s->buf, "\nSubject: ");
	struct sb t;

	if (!p)
		return -1;
	for (p++; ; ) {
		p = strchr(p, '\n');
		if (!p)
			return -1;
		p++;
		if (*p != ' ' && *p != '\t')
			break;
	}
	sb_init(&t);
	sb_addn(&t, s->buf, p - s->buf);
	sb_add(&t, lines);
	sb_add(&t, p);
	sb_free(s);
	*s = t;
	return 0;
}

static char *load_trimmed(const char *dir, const char *name)
{
	char *path = join(dir, name), *buf = read_file(path, NULL);
	size_t n;

	free(path);
	if (!buf)
		return NULL;
	n = strlen(buf);
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return buf;
}

static int cmd_finish(int argc, char **argv)
{
	const char *plan, *dir, *domain;
	char **names = NULL, *subject = NULL, *blurb = NULL, *path;
	size_t n = 0, i;
	struct sb *files = NULL, hdr, list;
	unsigned long long h = 0xcbf29ce484222325ULL;
	struct dirent *de;
	DIR *d;
	int ret = 1;

	if (argc != 3) {
		fputs("queue finish: PLAN_DIR SERIES_DIR DOMAIN expected\n",
		      stderr);
		return 2;
	}
	plan = argv[0];
	dir = argv[1];
	domain = argv[2];
	d = opendir(dir);
	if (!d) {
		fprintf(stderr, "queue finish: %s: cannot open directory\n",
			dir);
		return 1;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len < 7 || strcmp(de->d_name + len - 6, ".patch"))
			continue;
		names = xrealloc(names, (n + 1) * sizeof(*names));
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), str_cmp);
	if (!n || strcmp(names[0], "0000-cover-letter.patch")) {
		fprintf(stderr, "queue finish: %s: no 0000-cover-letter.patch (run git format-patch --cover-letter)\n",
			dir);
		goto out;
	}
	subject = load_trimmed(plan, "cover.subject");
	blurb = load_trimmed(plan, "cover.blurb");
	if (!subject || !blurb)
		goto out;
	files = xmalloc(n * sizeof(*files));
	for (i = 0; i < n; i++) {
		size_t len;

		path = join(dir, names[i]);
		files[i].buf = read_file(path, &len);
		free(path);
		if (!files[i].buf)
			goto out;
		files[i].len = len;
		files[i].cap = len + 1;
		if (strstr(files[i].buf, "\nMessage-ID: ")) {
			fprintf(stderr, "queue finish: %s/%s: already has a Message-ID\n",
				dir, names[i]);
			goto out;
		}
	}
	if (replace(&files[0], "*** SUBJECT HERE ***", subject) ||
	    replace(&files[0], "*** BLURB HERE ***", blurb)) {
		fprintf(stderr, "queue finish: %s/%s: not a git format-patch cover letter template\n",
			dir, names[0]);
		goto out;
	}
	for (i = 0; i < n; i++)
		h = fnv1a(files[i].buf, files[i].len, h);
	sb_init(&hdr);
	sb_init(&list);
	for (i = 0; i < n; i++) {
		hdr.len = 0;
		sb_addf(&hdr, "Message-ID: <ro-campaign-%016llx-%zu@%s>\n", h,
			i, domain);
		if (i)
			sb_addf(&hdr, "In-Reply-To: <ro-campaign-%016llx-0@%s>\nReferences: <ro-campaign-%016llx-0@%s>\n",
				h, domain, h, domain);
		if (add_headers(&files[i], hdr.buf)) {
			fprintf(stderr, "queue finish: %s/%s: no Subject: header\n",
				dir, names[i]);
			goto out_sb;
		}
		path = join(dir, names[i]);
		if (write_file(path, files[i].buf, files[i].len)) {
			free(path);
			goto out_sb;
		}
		free(path);
		if (i)
			sb_addf(&list, "%s\n", names[i]);
	}
	path = join(dir, "series");
	ret = write_file(path, list.buf, list.len) ? 1 : 0;
	free(path);
out_sb:
	sb_free(&hdr);
	sb_free(&list);
out:
	for (i = 0; i < n; i++) {
		if (files && files[i].buf)
			free(files[i].buf);
		free(names[i]);
	}
	free(files);
	free(names);
	free(subject);
	free(blurb);
	return ret;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		print_help(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		print_help(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "area"))
		return cmd_area(argc - 2, argv + 2);
	if (!strcmp(argv[1], "plan"))
		return cmd_plan(argc - 2, argv + 2);
	if (!strcmp(argv[1], "finish"))
		return cmd_finish(argc - 2, argv + 2);
	fprintf(stderr, "queue: unknown command '%s'\n", argv[1]);
	print_help(stderr);
	return 2;
}
