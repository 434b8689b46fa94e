// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - the campaign report: candidates, validation verdicts and the
 * queued patches joined per variable, as report.html (static, no network
 * fetches; the funnel is inline SVG) and as TSV for scripts.
 *
 * Usage: report --candidates FILE --journal FILE --out DIR
 *               [--queue DIR] [--facts DIR] [--title TEXT]
 *
 * Writes DIR/report.html, DIR/report.tsv (one row per ro_after_init
 * candidate) and DIR/funnel.tsv (stage, count).  The funnel stages:
 *   scanned     file-scope variables the finder judged (candidates.tsv rows)
 *   candidates  of those, class ro_after_init
 *   validated   candidates with a journal verdict (the last one counts)
 *   built       compiled in the profile, annotation in .data..ro_after_init
 *   booted      booted and exercised: accepted, or rejected by a boot
 *   accepted    the journal's accepted verdicts
 * Exit: 0 written, 64 usage, 65 malformed input, 70 cannot write.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate.h"

enum stage { S_SCANNED, S_CANDIDATES, S_VALIDATED, S_BUILT, S_BOOTED,
	     S_ACCEPTED, S_NR };

static const char *const stage_name[S_NR] = {
	"scanned", "candidates", "validated", "built", "booted", "accepted",
};

static const char *const stage_label[S_NR] = {
	"variables scanned", "ro_after_init candidates", "validated",
	"built, in .data..ro_after_init", "booted and exercised", "accepted",
};

struct var {
	char *file, *name, *confidence, *reason, *evidence;
	int line;
	char *verdict;		/* NULL: not validated yet */
	char *vevidence;	/* the journal's evidence */
	char *patch;		/* queued patch, relative to the queue dir */
	enum stage reached;
};

struct report {
	struct var *v;
	int n, cap;
	struct var *fr;		/* rejected by the finder, with the writer */
	int nfr, capfr;
	int scanned;
	int count[S_NR];
	char **fn_name, **fn_where;	/* function -> file:line (facts) */
	int nfn;
};

/* Read a TSV with a header; cb gets the fields of each row. */
static void read_tsv(const char *path, const char *const *want, int nwant,
		     void (*cb)(struct report *, char **, int *, const char *,
				int),
		     struct report *r)
{
	char *buf = read_file(path, NULL), *line, *next, *f[32];
	int idx[16], n, i, lineno = 1;

	if (!buf)
		die(EXIT_DATA, "%s: %s", path, strerror(errno));
	next = strchr(buf, '\n');
	if (!next)
		die(EXIT_DATA, "%s:1: no header line", path);
	*next++ = '\0';
	n = split_tabs(buf, f, 32);
	for (i = 0; i < nwant; i++) {
		idx[i] = tsv_col(f, n, want[i]);
		if (idx[i] < 0)
			die(EXIT_DATA, "%s:1: header has no column '%s'", path,
			    want[i]);
	}
	for (line = next; *line; line = next) {
		lineno++;
		next = next_line(line);
		if (!*line)
			continue;
		n = split_tabs(line, f, 32);
		for (i = 0; i < nwant; i++)
			if (idx[i] >= n)
				die(EXIT_DATA, "%s:%d: %d columns, want %s",
				    path, lineno, n, want[i]);
		cb(r, f, idx, path, lineno);
	}
	free(buf);
}

static int parse_line(const char *s, const char *path, int lineno)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (!*s || *end || v < 0 || v > 10000000)
		die(EXIT_DATA, "%s:%d: line '%s' is not a number", path, lineno,
		    s);
	return (int)v;
}

static void add_candidate(struct report *r, char **f, int *idx,
			  const char *path, int lineno)
{
	struct var *v;

	r->scanned++;
	if (!strcmp(f[idx[3]], "ro_after_init")) {
		if (r->n == r->cap) {
			r->cap = r->cap ? 2 * r->cap : 64;
			r->v = xrealloc(r->v, r->cap * sizeof(*r->v));
		}
		v = &r->v[r->n++];
	} else if (!strcmp(f[idx[3]], "rejected")) {
		if (r->nfr == r->capfr) {
			r->capfr = r->capfr ? 2 * r->capfr : 64;
			r->fr = xrealloc(r->fr, r->capfr * sizeof(*r->fr));
		}
		v = &r->fr[r->nfr++];
	} else {
		return;
	}
	memset(v, 0, sizeof(*v));
	v->file = xstrdup(f[idx[0]]);
	v->line = parse_line(f[idx[1]], path, lineno);
	v->name = xstrdup(f[idx[2]]);
	v->confidence = xstrdup(f[idx[4]]);
	v->reason = xstrdup(f[idx[5]]);
	v->evidence = xstrdup(f[idx[6]]);
}

static struct var *find_var(struct report *r, const char *file,
			    const char *name)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].name, name) && !strcmp(r->v[i].file, file))
			return &r->v[i];
	return NULL;
}

/* Later journal rows win: a rerun's verdict replaces an earlier one. */
static void add_verdict(struct report *r, char **f, int *idx,
			const char *path, int lineno)
{
	struct var *v = find_var(r, f[idx[1]], f[idx[0]]);
	const char *verdict = f[idx[2]];

	if (strcmp(verdict, "accepted") && strcmp(verdict, "rejected") &&
	    strcmp(verdict, "not-built"))
		die(EXIT_DATA, "%s:%d: unknown verdict '%s'", path, lineno,
		    verdict);
	if (!v)
		return;	/* validated in another scope of the same journal */
	free(v->verdict);
	free(v->vevidence);
	v->verdict = xstrdup(verdict);
	v->vevidence = xstrdup(f[idx[3]]);
}

static void add_func(struct report *r, char **f, int *idx, const char *path,
		     int lineno)
{
	(void)path;
	(void)lineno;
	r->fn_name = xrealloc(r->fn_name, (r->nfn + 1) * sizeof(char *));
	r->fn_where = xrealloc(r->fn_where, (r->nfn + 1) * sizeof(char *));
	r->fn_name[r->nfn] = xstrdup(f[idx[2]]);
	r->fn_where[r->nfn++] = xasprintf("%s:%s", f[idx[0]], f[idx[1]]);
}

/* A rejection decided before any boot: annotate, build or section check. */
static int rejected_before_boot(const char *ev)
{
	return !strncmp(ev, "annotate:", 9) || !strncmp(ev, "build:", 6) ||
	       !strncmp(ev, "section:", 8);
}

static void classify(struct report *r)
{
	int i, s;

	r->count[S_SCANNED] = r->scanned;
	for (i = 0; i < r->n; i++) {
		struct var *v = &r->v[i];

		v->reached = S_CANDIDATES;
		if (v->verdict) {
			v->reached = S_VALIDATED;
			if (!strcmp(v->verdict, "accepted"))
				v->reached = S_ACCEPTED;
			else if (!strcmp(v->verdict, "rejected") &&
				 !rejected_before_boot(v->vevidence))
				v->reached = S_BOOTED;
		}
		/* each stage counts what got at least that far */
		for (s = S_CANDIDATES; s <= (int)v->reached; s++)
			r->count[s]++;
	}
}

static int ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* Does s hold word as a whole C identifier (as in the first match)? */
static int has_word(const char *s, const char *word)
{
	const char *at = strstr(s, word);

	return at && (at == s || !ident_char(at[-1])) &&
	       !ident_char(at[strlen(word)]);
}

/* The queued patch whose added lines annotate name. */
static void link_patches(struct report *r, const char *queue)
{
	char *p = xasprintf("%s/series", queue), *series, *line, *next;

	series = read_file(p, NULL);
	free(p);
	if (!series)
		return;
	for (line = series; *line; line = next) {
		char *patch, *l, *n2;

		next = next_line(line);
		if (!*line || *line == '#')
			continue;
		p = xasprintf("%s/%s", queue, line);
		patch = read_file(p, NULL);
		free(p);
		for (l = patch; patch && *l; l = n2) {
			int i;

			n2 = next_line(l);
			if (l[0] != '+' || l[1] == '+' ||
			    !strstr(l, "__ro_after_init"))
				continue;
			for (i = 0; i < r->n; i++) {
				struct var *v = &r->v[i];

				if (!v->patch && has_word(l, v->name))
					v->patch = xstrdup(line);
			}
		}
		free(patch);
	}
	free(series);
}

static void html_esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

/* "writer_fn+0x10/0x40": writer_fn's definition, from the facts. */
static const char *writer_where(struct report *r, const char *ev)
{
	const char *w = strstr(ev, "written by ");
	char name[128];
	size_t k = 0;
	int i;

	if (!w)
		return NULL;
	for (w += 11; *w && *w != '+' && *w != ' ' && k + 1 < sizeof(name); w++)
		name[k++] = *w;
	name[k] = '\0';
	for (i = 0; i < r->nfn; i++)
		if (!strcmp(r->fn_name[i], name))
			return r->fn_where[i];
	return NULL;
}

static void svg_funnel(FILE *f, const struct report *r)
{
	const int w = 640, bar = 28, gap = 8, left = 250;
	double top = log1p(r->count[0] > 0 ? r->count[0] : 1);
	int s, y;

	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"funnel\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"campaign funnel\">\n",
		w + left + 80, S_NR * (bar + gap) + gap);
	for (s = 0; s < S_NR; s++) {
		int c = r->count[s];
		int len = c ? 4 + (int)((w - 4) * log1p(c) / top) : 0;

		y = gap + s * (bar + gap);
		fprintf(f, "<g class=\"stage\" data-stage=\"%s\" data-count=\"%d\">", stage_name[s], c);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>",
			left - 10, y + bar - 9, stage_label[s]);
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>",
			left, y, len, bar, s == S_ACCEPTED ? "#2e7d32" : "#4a6fa5");
		fprintf(f, "<text class=\"count\" x=\"%d\" y=\"%d\">%d</text></g>\n",
			left + len + 8, y + bar - 9, c);
	}
	fputs("</svg>\n<p class=\"note\">Bar lengths are logarithmic in the count.</p>\n", f);
}

/* "kernel/power/main.c" -> "kernel/power" */
static char *subsystem(const char *file)
{
	const char *slash = strrchr(file, '/');

	return slash ? xasprintf("%.*s", (int)(slash - file), file) :
		       xstrdup(".");
}

static int cmp_var(const void *a, const void *b)
{
	const struct var *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	return c ? c : x->line - y->line;
}

static void subsystem_table(FILE *f, struct report *r)
{
	int i = 0;

	fputs("<table id=\"subsystems\"><tr><th>directory</th><th>candidates</th><th>accepted</th><th>rejected</th><th>not-built</th><th>not validated</th></tr>\n", f);
	while (i < r->n) {
		char *sub = subsystem(r->v[i].file), *s2;
		int c[4] = { 0 }, total = 0;

		for (; i < r->n; i++) {
			const char *vd = r->v[i].verdict;

			s2 = subsystem(r->v[i].file);
			if (strcmp(s2, sub)) {
				free(s2);
				break;
			}
			free(s2);
			total++;
			c[!vd ? 3 : !strcmp(vd, "accepted") ? 0 :
			  !strcmp(vd, "rejected") ? 1 : 2]++;
		}
		fputs("<tr><td>", f);
		html_esc(f, sub);
		fprintf(f, "</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td></tr>\n",
			total, c[0], c[1], c[2], c[3]);
		free(sub);
	}
	fputs("</table>\n", f);
}

static void candidate_table(FILE *f, struct report *r)
{
	int i;

	fputs("<table id=\"candidates\"><tr><th>variable</th><th>definition</th><th>confidence</th><th>finder: why init-only, writers</th><th>verdict</th><th>validation: section check, exercises, reason</th><th>patch</th></tr>\n", f);
	for (i = 0; i < r->n; i++) {
		struct var *v = &r->v[i];
		const char *vd = v->verdict ? v->verdict : "not validated";
		const char *where = v->vevidence ? writer_where(r, v->vevidence) : NULL;

		fprintf(f, "<tr class=\"%s\" data-variable=\"", vd);
		html_esc(f, v->name);
		fputs("\"><td><code>", f);
		html_esc(f, v->name);
		fputs("</code></td><td>", f);
		html_esc(f, v->file);
		fprintf(f, ":%d</td><td>", v->line);
		html_esc(f, v->confidence);
		fputs("</td><td>", f);
		html_esc(f, v->reason);
		fputs("<br><small>", f);
		html_esc(f, v->evidence);
		fprintf(f, "</small></td><td class=\"verdict\">%s</td><td class=\"evidence\">", vd);
		html_esc(f, v->vevidence ? v->vevidence : "");
		if (where) {
			fputs(" <span class=\"writer\">(writer defined at ", f);
			html_esc(f, where);
			fputs(")</span>", f);
		}
		fputs("</td><td>", f);
		if (v->patch) {
			fputs("<a href=\"queue/", f);
			html_esc(f, v->patch);
			fputs("\">", f);
			html_esc(f, strrchr(v->patch, '/') ? strrchr(v->patch, '/') + 1 : v->patch);
			fputs("</a>", f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* The finder's rejections: the first disqualifying writer, file:line. */
static void finder_table(FILE *f, struct report *r)
{
	int i;

	fputs("<table id=\"finder-rejected\"><tr><th>variable</th><th>definition</th><th>why not init-only</th><th>disqualifying writer (file:line function form)</th></tr>\n", f);
	for (i = 0; i < r->nfr; i++) {
		struct var *v = &r->fr[i];

		fputs("<tr class=\"finder-rejected\" data-variable=\"", f);
		html_esc(f, v->name);
		fputs("\"><td><code>", f);
		html_esc(f, v->name);
		fputs("</code></td><td>", f);
		html_esc(f, v->file);
		fprintf(f, ":%d</td><td>", v->line);
		html_esc(f, v->reason);
		fputs("</td><td>", f);
		html_esc(f, v->evidence);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static FILE *create(const char *dir, const char *name, char **path)
{
	FILE *f;

	*path = xasprintf("%s/%s.tmp", dir, name);
	f = fopen(*path, "w");
	if (!f)
		die(EXIT_HOST, "%s: %s", *path, strerror(errno));
	return f;
}

/* Written to NAME.tmp, renamed into place: a reader never sees half. */
static void finish(FILE *f, char *tmp)
{
	size_t n = strlen(tmp) - 4;
	char *final = xasprintf("%.*s", (int)n, tmp);

	if (fclose(f) || rename(tmp, final))
		die(EXIT_HOST, "%s: %s", final, strerror(errno));
	free(final);
	free(tmp);
}

static void write_html(struct report *r, const char *dir, const char *title)
{
	char *tmp;
	FILE *f = create(dir, "report.html", &tmp);

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", f);
	html_esc(f, title);
	fputs("</title>\n<style>\nbody{font-family:sans-serif;margin:2em;max-width:90em}\n"
	      "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:.25em .5em;vertical-align:top;text-align:left}\n"
	      "td.evidence,td small{overflow-wrap:anywhere}td.verdict{white-space:nowrap}\n"
	      "tr.accepted td.verdict{color:#2e7d32}tr.rejected td.verdict{color:#b71c1c}\n"
	      "small{color:#555}.note{color:#555;font-size:small}svg text{font-size:13px}\n"
	      "</style></head><body>\n<h1>", f);
	html_esc(f, title);
	fputs("</h1>\n<h2>Funnel</h2>\n", f);
	svg_funnel(f, r);
	fputs("<h2>Per directory</h2>\n", f);
	subsystem_table(f, r);
	fputs("<h2>Every candidate</h2>\n", f);
	candidate_table(f, r);
	fprintf(f, "<h2>Rejected by the finder (%d)</h2>\n", r->nfr);
	finder_table(f, r);
	fputs("</body></html>\n", f);
	finish(f, tmp);
}

static void tsv_field(FILE *f, const char *s, int last)
{
	for (; s && *s; s++)
		fputc(*s == '\t' || *s == '\n' ? ' ' : *s, f);
	fputc(last ? '\n' : '\t', f);
}

static void write_tsv(struct report *r, const char *dir)
{
	char *tmp, *sub;
	FILE *f = create(dir, "report.tsv", &tmp);
	int i, s;

	fputs("file\tline\tname\tconfidence\tverdict\tstage\tdirectory\tpatch\tfinder_reason\tfinder_evidence\tvalidation_evidence\n", f);
	for (i = 0; i < r->n; i++) {
		struct var *v = &r->v[i];

		sub = subsystem(v->file);
		fprintf(f, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t", v->file, v->line,
			v->name, v->confidence,
			v->verdict ? v->verdict : "-", stage_name[v->reached],
			sub, v->patch ? v->patch : "-");
		free(sub);
		tsv_field(f, v->reason, 0);
		tsv_field(f, v->evidence, 0);
		tsv_field(f, v->vevidence ? v->vevidence : "-", 1);
	}
	finish(f, tmp);
	f = create(dir, "funnel.tsv", &tmp);
	fputs("stage\tcount\n", f);
	for (s = 0; s < S_NR; s++)
		fprintf(f, "%s\t%d\n", stage_name[s], r->count[s]);
	finish(f, tmp);
}

static const char usage[] =
"usage: report --candidates FILE --journal FILE --out DIR [--queue DIR]\n"
"              [--facts DIR] [--title TEXT]\n"
"\n"
"Join a campaign's candidates.tsv, the validator's journal.tsv and the\n"
"queue into DIR/report.html (static page, inline SVG funnel), and\n"
"DIR/report.tsv and DIR/funnel.tsv for scripts.  --facts (the finder's\n"
"facts directory) lets a rejection name the writer's file:line.\n"
"Exit: 0 written, 64 usage, 65 malformed input, 70 cannot write.\n";

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "candidates", required_argument, NULL, 'c' },
		{ "journal", required_argument, NULL, 'j' },
		{ "out", required_argument, NULL, 'o' },
		{ "queue", required_argument, NULL, 'q' },
		{ "facts", required_argument, NULL, 'f' },
		{ "title", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const cand_cols[] = { "file", "line", "name",
		"class", "confidence", "reason", "evidence" };
	static const char *const jour_cols[] = { "variable", "file", "verdict",
		"evidence" };
	static const char *const func_cols[] = { "file", "line", "name" };
	const char *cands = NULL, *journal = NULL, *out = NULL, *queue = NULL;
	const char *facts = NULL, *title = "ro-campaign report";
	struct report r;
	int c;

	prog_name = "report";
	memset(&r, 0, sizeof(r));
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			cands = optarg;
			break;
		case 'j':
			journal = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'q':
			queue = optarg;
			break;
		case 'f':
			facts = optarg;
			break;
		case 't':
			title = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (!cands || !journal || !out || optind != argc) {
		fputs(usage, stderr);
		return EXIT_USAGE;
	}
	read_tsv(cands, cand_cols, 7, add_candidate, &r);
	qsort(r.v, r.n, sizeof(*r.v), cmp_var);
	qsort(r.fr, r.nfr, sizeof(*r.fr), cmp_var);
	read_tsv(journal, jour_cols, 4, add_verdict, &r);
	if (facts) {
		char *p = xasprintf("%s/funcs.tsv", facts);

		read_tsv(p, func_cols, 3, add_func, &r);
		free(p);
	}
	if (queue)
		link_patches(&r, queue);
	classify(&r);
	write_html(&r, out, title);
	write_tsv(&r, out);
	printf("report: %s/report.html: %d scanned, %d candidates, %d validated, %d built, %d booted, %d accepted\n",
	       out, r.count[S_SCANNED], r.count[S_CANDIDATES],
	       r.count[S_VALIDATED], r.count[S_BUILT], r.count[S_BOOTED],
	       r.count[S_ACCEPTED]);
	return 0;
}
