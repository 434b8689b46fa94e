// SPDX-License-Identifier: GPL-2.0
/*
 * cover-plan.c - the build-need resolver: which config symbols compile the
 * file of each conversion (ro_after_init or initdata), and whether Kconfig lets an x86
 * build have them.
 *
 * The kbuild side is read here: the obj-$(CONFIG_X) line that names the
 * object, composite objects (foo-y, foo-objs, foo-$(CONFIG_Y)), and the
 * directory chain up to the top-level lists.  The Kconfig side is left to
 * the tree's own tools: scripts/config enables the symbols in a copy of
 * the base .config, make olddefconfig resolves them, and each symbol is
 * checked in the .config it leaves.  Nothing is written inside the tree.
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>


#include "base.h"
#include "cand.h"
#include "evidence.h"
#include "strtab.h"
#include "tsv.h"
#include "cover.h"

/* ---- main ---------------------------------------------------------- */

enum state { S_BUILDABLE, S_OTHER_ARCH, S_UNMET };

static const char *const state_names[] = {
	"buildable", "other-arch", "unmet",
};

struct file {
	char *path;
	struct need need;
	enum state state;
	char *detail;
	uint32_t deps[32];	/* added for its symbols' dependencies */
	uint32_t dep_for[32];	/* the symbol whose condition names it */
	const char *dep_cond[32];	/* and that condition */
	size_t ndeps;
};

static const char usage_text[] =
	"usage: cover-plan [--compile-test] --candidates FILE --tree TREE\n"
	"                  --config BASE_CONFIG --out DIR\n"
	"\n"
	"For the file of each ro_after_init or initdata row of FILE (candidates.tsv), find\n"
	"the config symbols that compile it (its obj-$(CONFIG_X) line, composite\n"
	"objects, the directory chain), enable them in a copy of BASE_CONFIG in\n"
	"DIR/kconfig with TREE's scripts/config (tristate =m, bool =y), resolve\n"
	"with make olddefconfig, and check which stuck.  Writes DIR/plan.tsv\n"
	"(file symbols state detail; FORMATS.md) and DIR/cover.config (the\n"
	"symbols the buildable files add to BASE_CONFIG), and prints a summary.\n"
	"Nothing is written inside TREE (DIR may not be in it); the paths are made\n"
	"absolute before make -C TREE runs.\n"
	"\n"
	"--compile-test  turn on CONFIG_COMPILE_TEST too (it goes into cover.config),\n"
	"                for the drivers that only ISA || COMPILE_TEST (or X ||\n"
	"                COMPILE_TEST with X off on x86_64) gates: the ISA sound\n"
	"                cards that QEMU emulates (sb16, gus, cs4231a, adlib).  ISA\n"
	"                itself depends on X86_32.  Prints what olddefconfig turned\n"
	"                on that nobody asked for.\n"
	"\n"
	"Exit: 0 done, 64 usage, 65 bad candidates or tree, 70 a tool or I/O.\n";


/* The files of the conversions (lib/cand.h), each once, in file order. */
static struct file *read_candidates(const char *path, size_t *nfiles)
{
	struct file *files = NULL;
	struct strtab seen;
	struct crows rows;
	size_t i, n = 0;
	long bad;

	/* a file that is not there is the host's, as it always was here */
	if (access(path, R_OK))
		die(RC_HOST, "%s: %s", path, strerror(errno));
	bad = crows_read(path, CL_CONVERSIONS, 0, 0, &rows);
	if (bad)
		exit(rows.sys_errno ? RC_HOST : RC_DATA);
	strtab_init(&seen);
	for (i = 0; i < rows.n; i++) {
		const char *f = rows.v[i].file;

		if (strtab_find(&seen, f) != STR_NONE)
			continue;
		strtab_intern(&seen, f);
		files = xrealloc(files, (n + 1) * sizeof(*files));
		memset(&files[n], 0, sizeof(*files));
		files[n++].path = xstrdup(f);
	}
	crows_free(&rows);
	strtab_free(&seen);
	*nfiles = n;
	return files;
}

static void syms_list(struct sb *s, const struct need *n)
{
	size_t i;

	if (!n->nsym)
		sb_add(s, "-");
	for (i = 0; i < n->nsym; i++)
		sb_addf(s, "%sCONFIG_%s", i ? "," : "",
			strtab_str(&names, n->sym[i]));
}

/*
 * Ask scripts/config in CFG for each wanted symbol that is off (ALL) or
 * marked to retry: the candidates' symbols (tristate m, bool y) and those
 * added for their dependencies.  It shifts through its arguments, so its
 * time grows with their square: CONFIG_BATCH symbols at a time.
 */
static void request(const char *cfg, int all)
{
	char **args = xcalloc(2 * CONFIG_BATCH + 8, sizeof(char *));
	size_t i, nargs = 0;

	args[nargs++] = tree_file("scripts/config");
	args[nargs++] = "--file";
	args[nargs++] = (char *)cfg;
	for (i = 0; i < names.n; i++) {
		struct sym *y = &syms[i];
		char v = y->added ? y->added :
			 y->type == T_TRISTATE ? 'm' : 'y';

		/* A choice member would change the base's choice: leave it. */
		if (!(y->need || y->added) || y->now || y->base ||
		    y->choice || !(all || y->retry))
			continue;
		args[nargs++] = v == 'm' ? "--module" : "--enable";
		args[nargs++] = names.strs[i];
		if (nargs >= 3 + 2 * CONFIG_BATCH) {
			args[nargs] = NULL;
			run(args);
			nargs = 3;
		}
	}
	args[nargs] = NULL;
	if (nargs > 3)
		run(args);
	free(args[0]);
	free(args);
}

static int has_id(const uint32_t *ids, size_t n, uint32_t id)
{
	while (n--)
		if (ids[n] == id)
			return 1;
	return 0;
}

/*
 * The symbols added for the dependencies of F's symbols, and of those in
 * turn: the added ones that their conditions name, with the symbol and
 * condition that named each first.
 */
static void need_deps(struct file *f)
{
	const struct need *n = &f->need;
	size_t k = 0, i, j, m, nc;
	uint32_t c[32];

	for (i = 0; i < n->nsym + k; i++) {
		uint32_t id = i < n->nsym ? n->sym[i] : f->deps[i - n->nsym];
		const struct sym *y = &syms[id];

		for (j = 0; j < y->ncond; j++) {
			nc = cond_syms(cond_expr(y->cond[j]), c, ARRAY_SIZE(c));
			for (m = 0; m < nc; m++) {
				if (!syms[c[m]].added ||
				    k == ARRAY_SIZE(f->deps) ||
				    has_id(n->sym, n->nsym, c[m]) ||
				    has_id(f->deps, k, c[m]))
					continue;
				f->dep_for[k] = id;
				f->dep_cond[k] = y->cond[j];
				f->deps[k++] = c[m];
			}
		}
	}
	f->ndeps = k;
}

/* CONFIG_X=m (for CONFIG_Y: FILE:LINE depends on X), for each of F's. */
static void deps_text(struct sb *s, const struct file *f)
{
	size_t i;

	for (i = 0; i < f->ndeps; i++) {
		const struct sym *y = &syms[f->deps[i]];

		sb_addf(s, "%sCONFIG_%s=%c (for CONFIG_%s: %s %s)",
			i ? "," : "", names.strs[f->deps[i]],
			y->now ? y->now : y->added,
			names.strs[f->dep_for[i]], syms[f->dep_for[i]].where,
			f->dep_cond[i]);
	}
}

/* The detail of a buildable file: what it adds to the base .config. */
static char *added(const struct file *f)
{
	const struct need *n = &f->need;
	struct sb s;
	size_t i;

	sb_init(&s);
	for (i = 0; i < n->nsym; i++)
		if (!syms[n->sym[i]].base)
			sb_addf(&s, "%sCONFIG_%s=%c", s.len ? "," : "adds ",
				strtab_str(&names, n->sym[i]),
				syms[n->sym[i]].now);
	if (f->ndeps)
		sb_add(&s, s.len ? "," : "adds ");
	deps_text(&s, f);
	if (!s.len)
		sb_add(&s, "in the base .config");
	return s.buf;
}

/*
 * The detail of a file whose symbols were found: what it adds, or the
 * first symbol that did not stick (one with a prompt first: a select
 * follows it) and what was added for its dependencies.
 */
static char *plan_detail(struct file *f)
{
	struct sb s;
	size_t j;
	char *d;

	for (j = 0; j < 2 * f->need.nsym; j++) {
		uint32_t id = f->need.sym[j % f->need.nsym];
		struct sym *y = &syms[id];

		if (y->now || (j < f->need.nsym && !y->prompt))
			continue;
		f->state = S_UNMET;
		sb_init(&s);
		if (!y->where) {
			sb_addf(&s, "CONFIG_%s did not stick: no Kconfig defines it",
				names.strs[id]);
		} else if (y->choice) {
			sb_addf(&s, "CONFIG_%s is not set: %s: a member of a choice, and the base chose another",
				names.strs[id], y->where);
		} else {
			d = sym_depends(y);
			sb_addf(&s, "CONFIG_%s did not stick: %s: %s%s",
				names.strs[id], y->where, d, y->prompt ? "" :
				" (no prompt: only a select sets it)");
			free(d);
		}
		if (f->ndeps)
			sb_add(&s, "; tried ");
		deps_text(&s, f);
		return s.buf;
	}
	return added(f);
}


/*
 * PATH made absolute, without . and .., and with its deepest existing
 * ancestor resolved (symlinks): make -C TREE O=DIR would read a relative
 * DIR from inside TREE.
 */
static char *abs_of(const char *path)
{
	char cwd[PATH_MAX], buf[PATH_MAX], *head, *tail, *cut, *t;

	if (path[0] == '/') {
		t = xstrdup(path);
	} else {
		if (!getcwd(cwd, sizeof(cwd)))
			die(RC_HOST, "getcwd: %s", strerror(errno));
		t = xasprintf("%s/%s", cwd, path);
	}
	head = path_collapse(t);
	free(t);
	if (!head)
		die(RC_USAGE, "%s: climbs above /", path);
	t = xasprintf("/%s", head);
	free(head);
	head = t;
	tail = xstrdup("");
	while (!realpath(head, buf)) {
		if (errno != ENOENT)
			die(RC_HOST, "%s: %s", head, strerror(errno));
		cut = strrchr(head, '/');
		t = xasprintf("%s%s%s", cut + 1, *tail ? "/" : "", tail);
		free(tail);
		tail = t;
		cut[cut == head] = '\0';
	}
	free(head);
	t = xasprintf("%s%s%s", buf, *tail && strcmp(buf, "/") ? "/" : "",
		      tail);
	free(tail);
	return t;
}

/* Whether PATH (absolute, resolved) is DIR or below it. */
static int is_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) &&
	       (path[n] == '\0' || path[n] == '/' || !strcmp(dir, "/"));
}

static void write_out(const char *path, struct sb *s)
{
	if (write_file_atomic(path, s->buf, s->len) < 0)
		die(RC_HOST, "%s: %s", path, strerror(errno));
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "candidates", required_argument, NULL, 'c' },
		{ "tree", required_argument, NULL, 't' },
		{ "config", required_argument, NULL, 'b' },
		{ "out", required_argument, NULL, 'o' },
		{ "compile-test", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cand = NULL, *base = NULL, *out = NULL;
	char *scratch, *cfg, *text, *p;
	size_t nfiles, i, j, len, count[3] = { 0 }, nfrag = 0, ndep = 0;
	size_t rounds;
	struct file *files;
	struct sb plan, frag;
	int c, compile_test = 0;

	prog_name = "cover-plan";
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			cand = optarg;
			break;
		case 't':
			tree = optarg;
			break;
		case 'b':
			base = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'T':
			compile_test = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return RC_OK;
		default:
			fputs(usage_text, stderr);
			return RC_USAGE;
		}
	}
	if (optind < argc || !cand || !tree || !base || !out) {
		fputs(usage_text, stderr);
		return RC_USAGE;
	}
	/* make -C TREE O=DIR: DIR must not be relative to TREE */
	tree = abs_of(tree);
	out = abs_of(out);
	cand = abs_of(cand);
	base = abs_of(base);
	if (is_under(out, tree))
		die(RC_USAGE, "--out %s is inside --tree %s: nothing is written there",
		    out, tree);
	p = tree_file("scripts/config");
	if (access(p, X_OK) || !exists("Kconfig") || !exists("Kbuild"))
		die(RC_DATA, "%s: not a kernel tree", tree);
	free(p);

	strtab_init(&names);
	files = read_candidates(cand, &nfiles);
	load_config(base, 0);
	load_kconfig();
	if (compile_test) {
		struct sym *y = &syms[sym_id("COMPILE_TEST")];

		if (!y->where)
			die(RC_DATA, "--compile-test: %s: no Kconfig defines COMPILE_TEST",
			    tree);
		y->need = 1;
	}

	/* The kbuild side. */
	for (i = 0; i < nfiles; i++) {
		struct file *f = &files[i];
		char arch[64];

		if (in_other_arch(f->path, arch, sizeof(arch))) {
			f->state = S_OTHER_ARCH;
			f->detail = xstrdup(arch);
			continue;
		}
		if (!exists(f->path)) {
			f->state = S_UNMET;
			f->detail = xasprintf("%s is not in the tree", f->path);
			continue;
		}
		if (strlen(f->path) > 2 &&
		    !strcmp(f->path + strlen(f->path) - 2, ".h")) {
			f->state = S_UNMET;
			f->detail = xstrdup("a header: no object of its own; it is compiled where it is included");
			continue;
		}
		need_file(f->path, &f->need);
		if (!f->need.found) {
			f->state = S_UNMET;
			f->detail = xstrdup(f->need.why);
			continue;
		}
		add_selectors(&f->need);
		for (j = 0; j < f->need.nsym; j++)
			syms[f->need.sym[j]].need = 1;
	}

	/* The Kconfig side: scripts/config, then olddefconfig. */
	scratch = xasprintf("%s/kconfig", out);
	if (mkdirs(scratch) < 0)
		die(RC_HOST, "%s: %s", scratch, strerror(errno));
	cfg = xasprintf("%s/.config", scratch);
	text = read_file(base, &len);
	if (!text || write_file_atomic(cfg, text, len) < 0)
		die(RC_HOST, "%s: %s", text ? cfg : base, strerror(errno));
	free(text);
	request(cfg, 1);
	olddefconfig(scratch);
	load_config(cfg, 1);
	for (i = 0; i < names.n; i++)
		syms[i].prev = syms[i].now;	/* asked for together: no news */
	for (i = 0; i < MAX_ROUNDS && depends_round(); i++) {
		request(cfg, 0);
		olddefconfig(scratch);
		load_config(cfg, 1);
	}
	rounds = i;

	/* The plan. */
	sb_init(&plan);
	sb_add(&plan, "file\tsymbols\tstate\tdetail\n");
	for (i = 0; i < nfiles; i++) {
		struct file *f = &files[i];

		need_deps(f);
		if (f->need.found)
			f->detail = plan_detail(f);
		count[f->state]++;
		sb_addf(&plan, "%s\t", f->path);
		syms_list(&plan, &f->need);
		p = ev_one_line(f->detail, 900);
		sb_addf(&plan, "\t%s\t%s\n", state_names[f->state], p);
		free(p);
	}
	p = xasprintf("%s/plan.tsv", out);
	write_out(p, &plan);
	free(p);

	/*
	 * The fragment: every symbol asked for that stuck and the base lacks.
	 * Not only the buildable files' own: a symbol an unmet file asked
	 * for may be what makes a buildable file's symbol stick (a select,
	 * a promptless symbol between them), and the resolved .config had it.
	 */
	sb_init(&frag);
	for (i = 0; i < names.n; i++) {
		if (!(syms[i].need || syms[i].added) || syms[i].base ||
		    !syms[i].now)
			continue;
		sb_addf(&frag, "CONFIG_%s=%c\n", names.strs[i], syms[i].now);
		nfrag++;
		ndep += syms[i].added != 0;
	}
	p = xasprintf("%s/cover.config", out);
	write_out(p, &frag);
	free(p);

	printf("cover-plan: %zu files: %zu buildable, %zu other-arch, %zu unmet; fragment %zu symbols, %zu for dependencies (%zu olddefconfig runs)\n",
	       nfiles, count[S_BUILDABLE], count[S_OTHER_ARCH],
	       count[S_UNMET], nfrag, ndep, rounds + 1);
	if (compile_test) {
		size_t extra = 0;

		for (i = 0; i < names.n; i++)
			extra += syms[i].now && !syms[i].base &&
				 !syms[i].need && !syms[i].added;
		printf("cover-plan: --compile-test: CONFIG_COMPILE_TEST=%c; olddefconfig turned on %zu more symbols that no file asked for\n",
		       syms[sym_id("COMPILE_TEST")].now ?
		       syms[sym_id("COMPILE_TEST")].now : 'n', extra);
	}
	return RC_OK;
}

