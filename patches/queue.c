// SPDX-License-Identifier: GPL-2.0
/*
 * queue: turn the accepted conversions of a validation journal into
 * per-maintainer git format-patch series.  This program does the parts
 * that need reasoning (grouping by MAINTAINERS, commit messages, cover
 * letters, message-ids); patches/queue.sh drives git.  See --help.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "defaults.h"
#include "queue-maint.h"
#include "queue-plan.h"
#include "queue-prefix.h"

#define STR_(x) #x
#define STR(x) STR_(x)

static void print_help(FILE *fp)
{
	fputs("usage: queue area --tree DIR [--maintainers FILE] PATH...\n"
	      "       queue plan --journal FILE --candidates FILE --tree DIR\n"
	      "                  --out DIR --signoff 'NAME <EMAIL>'\n"
	      "                  [--maintainers FILE] [--max-vars N] [--profile NAME]\n"
	      "                  [--exclude FILE] [--base TEXT] [--allow-built]\n"
	      "                  [--max-patches N] [--origin FILE] [--tool TEXT]\n"
	      "                  [--rules TEXT] [--prefixes FILE]\n"
	      "       queue finish PLAN_DIR SERIES_DIR DOMAIN\n"
	      "\n"
	      "area    print PATH, its MAINTAINERS area, the matching F: pattern\n"
	      "        and the subject prefix, TAB separated, one line per PATH\n"
	      "plan    read the validation journal (FORMATS.md; the final verdict\n"
	      "        of a variable is its last row) and candidates.tsv, check\n"
	      "        every path, name and quoted text in them, then write\n"
	      "        DIR/README and DIR/.plan/: one directory per posting (a\n"
	      "        MAINTAINERS area, or part of one) with the annotation lists,\n"
	      "        commit messages and notes of its patches\n"
	      "        (accepted rows of evidence level exercised or module-cycled;\n"
	      "        built ones only with --allow-built)\n"
	      "finish  in SERIES_DIR (git format-patch --cover-letter output)\n"
	      "        fill in the cover letter from PLAN_DIR, put each patch's\n"
	      "        PLAN_DIR/NNNN.notes below its --- line, add deterministic\n"
	      "        Message-ID/In-Reply-To/References headers, write 'series'\n"
	      "\n"
	      "  --tree DIR         the kernel tree (MAINTAINERS, writers' sources)\n"
	      "  --maintainers FILE default DIR/MAINTAINERS\n"
	      "  --max-vars N       at most N variables per patch (default "
	      STR(DEFAULT_MAX_VARS) ")\n"
	      "  --signoff ID       the Signed-off-by identity, one line 'NAME <EMAIL>'\n"
	      "  --profile NAME     the validated build profile (default fast)\n"
	      "  --base TEXT        names the base (default: from DIR/.git/ro-campaign-origin,\n"
	      "                     which make setup writes, else DIR/Makefile's version)\n"
	      "  --origin FILE      the origin file, for a DIR whose .git is not a\n"
	      "                     directory (a worktree)\n"
	      "  --max-patches N    at most N patches per posting (default "
	      STR(MAX_POSTING) "); an area\n"
	      "                     with more is split into postings NN-area-KofP\n"
	      "  --tool TEXT        the ro-campaign version (git describe), for the\n"
	      "                     cover letters' disclosure\n"
	      "  --rules TEXT       the finder rules used, for the disclosure\n"
	      "  --prefixes FILE    TSV file prefix: subject prefixes from the tree's\n"
	      "                     history (queue-prefixes.sh); other files get the\n"
	      "                     table's (queue-prefix.c)\n"
	      "  --exclude FILE     TSV file line name reason: accepted variables to\n"
	      "                     leave out, listed as dropped in the README (a\n"
	      "                     line '-', or no line column: every line)\n"
	      "  --allow-built      queue accepted rows of level built (only compiled,\n"
	      "                     not booted through their code) too; their commit\n"
	      "                     messages say so\n"
	      "  -h, --help         this text\n"
	      "\n"
	      "Exit status: 0 done, 64 usage, 65 bad input data (named on stderr\n"
	      "with its FILE:LINE), 70 a host error (I/O, memory).\n",
	      fp);
}

static char *default_maint(const char *tree)
{
	return xasprintf("%s/MAINTAINERS", tree);
}

static int cmd_area(int argc, char **argv)
{
	const char *tree = NULL, *mfile = NULL;
	char *dflt = NULL;
	struct maint m;
	int i, first;

	for (i = 0; i < argc && argv[i][0] == '-'; i++) {
		if (i + 1 < argc && !strcmp(argv[i], "--tree"))
			tree = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--maintainers"))
			mfile = argv[++i];
		else
			die(RC_USAGE, "area: unknown option %s", argv[i]);
	}
	first = i;
	if (!tree || first == argc)
		die(RC_USAGE, "area: --tree DIR and at least one PATH are needed");
	for (i = first; i < argc; i++)
		if (!is_tree_path(argv[i]))
			die(RC_USAGE, "area: '%s' is not a path relative to the tree root",
			    argv[i]);
	if (!mfile)
		mfile = dflt = default_maint(tree);
	if (maint_load(&m, mfile, tree))
		die(RC_DATA, "%s: cannot use it (see above)", mfile);
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
	return RC_OK;
}

/*
 * One line "NAME <EMAIL>": the Signed-off-by trailer must not be able to
 * add a line, a second address or a header of its own.
 */
static int good_signoff(const char *s)
{
	const char *lt = strstr(s, " <"), *at;
	size_t n = strlen(s);

	if (!is_one_line(s) || !lt || lt == s || n < 2 || s[n - 1] != '>')
		return 0;
	if (strcspn(s, "<>") != (size_t)(lt + 1 - s))
		return 0;
	at = strchr(lt, '@');
	return at && at > lt + 2 && at < s + n - 2 &&
		strcspn(lt + 2, " <>,;\"") == (size_t)(s + n - 1 - (lt + 2));
}

static int cmd_plan(int argc, char **argv)
{
	struct plan_opts o = { 0 };
	char *dflt = NULL;
	int i, ret;

	o.max_vars = DEFAULT_MAX_VARS;
	o.max_patches = MAX_POSTING;
	o.profile = "fast";
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--allow-built")) {
			o.allow_built = 1;
			continue;
		}
		if (i + 1 >= argc)
			die(RC_USAGE, "plan: %s needs a value", a);
		if (!strcmp(a, "--journal"))
			o.journal = argv[++i];
		else if (!strcmp(a, "--candidates"))
			o.candidates = argv[++i];
		else if (!strcmp(a, "--tree"))
			o.tree = argv[++i];
		else if (!strcmp(a, "--maintainers"))
			o.maintainers = argv[++i];
		else if (!strcmp(a, "--out"))
			o.out = argv[++i];
		else if (!strcmp(a, "--signoff"))
			o.signoff = argv[++i];
		else if (!strcmp(a, "--exclude"))
			o.exclude = argv[++i];
		else if (!strcmp(a, "--profile"))
			o.profile = argv[++i];
		else if (!strcmp(a, "--base"))
			o.base_text = argv[++i];
		else if (!strcmp(a, "--origin"))
			o.origin = argv[++i];
		else if (!strcmp(a, "--tool"))
			o.tool = argv[++i];
		else if (!strcmp(a, "--rules"))
			o.rules = argv[++i];
		else if (!strcmp(a, "--prefixes"))
			o.prefixes = argv[++i];
		else if (!strcmp(a, "--max-patches"))
			o.max_patches = opt_long("--max-patches", argv[++i], 1,
						 1000);
		else if (!strcmp(a, "--max-vars"))
			o.max_vars = opt_long("--max-vars", argv[++i], 1, 10000);
		else
			die(RC_USAGE, "plan: unknown option %s", a);
	}
	if (!o.journal || !o.candidates || !o.tree || !o.out)
		die(RC_USAGE, "plan: --journal, --candidates, --tree and --out are required");
	if (!o.signoff)
		die(RC_USAGE, "plan: --signoff 'NAME <EMAIL>' is required (set git config user.name and user.email)");
	if (!good_signoff(o.signoff))
		die(RC_USAGE, "plan: --signoff '%s' is not one line 'NAME <EMAIL>' (check git config user.name and user.email)",
		    o.signoff);
	if ((o.tool && !quotable(o.tool)) || (o.rules && !quotable(o.rules)))
		die(RC_USAGE, "plan: --tool and --rules must be one line with no trailer-like word");
	if (!is_one_line(o.profile) || !*o.profile)
		die(RC_USAGE, "plan: --profile must be one word on one line");
	if (!o.maintainers)
		o.maintainers = dflt = default_maint(o.tree);
	base_load(&o.base, o.tree, o.origin, o.base_text);
	ret = plan_run(&o);
	base_free(&o.base);
	free(dflt);
	return ret;
}

/* ---- finish ----------------------------------------------------------- */

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
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

/*
 * Put NOTES below the --- line that ends the commit message of patch S,
 * before the diffstat: git am drops that part, a reviewer reads it.
 */
static int add_notes(struct sb *s, const char *notes)
{
	char *p = strstr(s->buf, "\n---\n");
	struct sb t;

	if (!p)
		return -1;
	p += 5;
	sb_init(&t);
	sb_addn(&t, s->buf, p - s->buf);
	sb_add(&t, notes);
	sb_add(&t, "\n\n");
	sb_add(&t, p);
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

/* The whole file PATH; dies naming it when it cannot be read. */
static char *must_read(const char *path, size_t *len)
{
	char *buf = read_file(path, len);

	if (!buf)
		die(RC_HOST, "finish: %s: cannot read: %s", path,
		    strerror(errno));
	return buf;
}

static void must_write(const char *path, const char *buf, size_t len)
{
	if (write_file_atomic(path, buf, len))
		die(RC_HOST, "finish: %s: cannot write: %s", path,
		    strerror(errno));
}

static char *load_trimmed(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name), *buf;
	size_t n;

	buf = must_read(path, NULL);
	free(path);
	n = strlen(buf);
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return buf;
}

/* The patch files of DIR, sorted: the cover letter first. */
static char **patch_names(const char *dir, size_t *count)
{
	char **names = NULL;
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		die(RC_HOST, "finish: %s: cannot open directory: %s", dir,
		    strerror(errno));
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len < 7 || strcmp(de->d_name + len - 6, ".patch"))
			continue;
		names = xrealloc(names, (n + 1) * sizeof(*names));
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), str_cmp);
	if (!n || strcmp(names[0], "0000-cover-letter.patch"))
		die(RC_DATA, "finish: %s: no 0000-cover-letter.patch (run git format-patch --cover-letter)",
		    dir);
	*count = n;
	return names;
}

static int cmd_finish(int argc, char **argv)
{
	const char *plan, *dir, *domain;
	char **names, *subject, *blurb, *path;
	size_t n, i;
	struct sb *files, hdr, list;
	unsigned long long h = FNV1A_INIT;

	if (argc != 3)
		die(RC_USAGE, "finish: PLAN_DIR SERIES_DIR DOMAIN expected");
	plan = argv[0];
	dir = argv[1];
	domain = argv[2];
	/* The domain ends up in Message-ID headers: one plain word. */
	if (!*domain || !is_one_line(domain) ||
	    strcspn(domain, " <>()[]\\,;:@\"") != strlen(domain))
		die(RC_USAGE, "finish: '%s' is not a mail domain", domain);
	names = patch_names(dir, &n);
	subject = load_trimmed(plan, "cover.subject");
	blurb = load_trimmed(plan, "cover.blurb");
	files = xmalloc(n * sizeof(*files));
	for (i = 0; i < n; i++) {
		size_t len;

		path = xasprintf("%s/%s", dir, names[i]);
		files[i].buf = must_read(path, &len);
		free(path);
		files[i].len = len;
		files[i].cap = len + 1;
		if (strstr(files[i].buf, "\nMessage-ID: "))
			die(RC_DATA, "finish: %s/%s: already has a Message-ID",
			    dir, names[i]);
	}
	if (replace(&files[0], "*** SUBJECT HERE ***", subject) ||
	    replace(&files[0], "*** BLURB HERE ***", blurb))
		die(RC_DATA, "finish: %s/%s: not a git format-patch cover letter template",
		    dir, names[0]);
	for (i = 1; i < n; i++) {
		char fname[32], *notes;

		snprintf(fname, sizeof(fname), "%04zu.notes", i);
		notes = load_trimmed(plan, fname);
		if (add_notes(&files[i], notes) || !*notes)
			die(RC_DATA, "finish: %s/%s: no --- line for the notes, or %s/%s is empty",
			    dir, names[i], plan, fname);
		free(notes);
	}
	for (i = 0; i < n; i++)
		h = fnv1a(h, files[i].buf, files[i].len);
	sb_init(&hdr);
	sb_init(&list);
	for (i = 0; i < n; i++) {
		hdr.len = 0;
		sb_addf(&hdr, "Message-ID: <ro-campaign-%016llx-%zu@%s>\n", h,
			i, domain);
		if (i)
			sb_addf(&hdr, "In-Reply-To: <ro-campaign-%016llx-0@%s>\nReferences: <ro-campaign-%016llx-0@%s>\n",
				h, domain, h, domain);
		if (add_headers(&files[i], hdr.buf))
			die(RC_DATA, "finish: %s/%s: no Subject: header", dir,
			    names[i]);
		path = xasprintf("%s/%s", dir, names[i]);
		must_write(path, files[i].buf, files[i].len);
		free(path);
		if (i)
			sb_addf(&list, "%s\n", names[i]);
	}
	path = xasprintf("%s/series", dir);
	must_write(path, list.buf, list.len);
	free(path);
	sb_free(&hdr);
	sb_free(&list);
	for (i = 0; i < n; i++) {
		free(files[i].buf);
		free(names[i]);
	}
	free(files);
	free(names);
	free(subject);
	free(blurb);
	return RC_OK;
}

int main(int argc, char **argv)
{
	prog_name = "queue";
	if (argc < 2) {
		print_help(stderr);
		return RC_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		print_help(stdout);
		return RC_OK;
	}
	if (!strcmp(argv[1], "area"))
		return cmd_area(argc - 2, argv + 2);
	if (!strcmp(argv[1], "plan"))
		return cmd_plan(argc - 2, argv + 2);
	if (!strcmp(argv[1], "finish"))
		return cmd_finish(argc - 2, argv + 2);
	warnx("unknown command '%s'", argv[1]);
	print_help(stderr);
	return RC_USAGE;
}
