// SPDX-License-Identifier: GPL-2.0
/*
 * report-html.c - report.html: a static page (no network fetches) with
 * the funnel as inline SVG, a table per directory, every candidate and
 * the finder's rejections.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

static void html_esc(struct sb *s, const char *p)
{
	for (; p && *p; p++) {
		switch (*p) {
		case '<':
			sb_add(s, "&lt;");
			break;
		case '>':
			sb_add(s, "&gt;");
			break;
		case '&':
			sb_add(s, "&amp;");
			break;
		case '"':
			sb_add(s, "&quot;");
			break;
		default:
			sb_addc(s, *p);
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

/* One bar of the funnel: LABEL, COUNT of TOP on a linear scale. */
static void svg_bar(struct sb *f, int y, const char *stage, const char *label,
		    int c, int top, const char *fill)
{
	const int w = 640, bar = 28, left = 250;
	/* a count that is not 0 gets at least 2 pixels */
	int len = c ? 2 + (int)((double)(w - 2) * c / (top ? top : 1)) : 0;

	sb_addf(f, "<g class=\"stage\" data-stage=\"%s\" data-count=\"%d\">",
		stage, c);
	sb_addf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>",
		left - 10, y + bar - 9, label);
	sb_addf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>",
		left, y, len, bar, fill);
	sb_addf(f, "<text class=\"count\" x=\"%d\" y=\"%d\">%d</text></g>\n",
		left + len + 8, y + bar - 9, c);
}

/*
 * The funnel, every bar on one linear scale (the scanned count is the
 * full width) and labelled with its count; the accepted ones split by
 * evidence level below them.
 */
static void svg_funnel(struct sb *f, const struct report *r)
{
	static const char *const level_fill[EV_LEVEL_NR] = {
		[EV_LEVEL_REACHED] = "#2e7d32",
		[EV_LEVEL_DEVICE_BOUND] = "#43a047",
		[EV_LEVEL_MODULE_CYCLED] = "#9ccc65",
		[EV_LEVEL_BOOTED] = "#d4e157",
		[EV_LEVEL_BUILT] = "#bdbdbd",
	};
	const int w = 640, bar = 28, gap = 8, left = 250;
	const int nbars = S_NR + EV_LEVEL_NR - 1;
	int s, k = 0, top = r->count[S_SCANNED];

	for (s = 0; s < S_NR; s++)
		if (r->count[s] > top)
			top = r->count[s];
	sb_addf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"funnel\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"campaign funnel\">\n",
		w + left + 80, nbars * (bar + gap) + gap);
	for (s = 0; s < S_NR; s++, k++)
		svg_bar(f, gap + k * (bar + gap), stage_name[s], stage_label[s],
			r->count[s], top,
			s == S_ACCEPTED ? "#2e7d32" : "#4a6fa5");
	for (s = EV_LEVEL_FIRST; s < EV_LEVEL_NR; s++, k++)
		svg_bar(f, gap + k * (bar + gap), level_stage[s],
			level_label[s], r->level_count[s], top, level_fill[s]);
	sb_add(f, "</svg>\n<p class=\"note\">Bar lengths are linear in the count (the scanned variables are the full width). The last five bars split the accepted ones by evidence level: reached = a function that uses the variable ran after init, in the exercises, with ro_after_init=warn silent and with the protection on; device-bound = its driver bound an emulated device, and unbind/bind, suspend/resume and unload passed in those boots; module-cycled = the module was loaded, its init returned 0, and it was unloaded in those boots; booted = built into vmlinux and booted through the exercises, but none of its functions was seen to run after init; only built = compiled, but no boot ran its code (not queued by default).</p>\n");
}

static void subsystem_table(struct sb *f, struct report *r)
{
	int i = 0;

	sb_add(f, "<table id=\"subsystems\"><tr><th>directory</th><th>candidates</th><th>accepted</th><th>rejected</th><th>not-built</th><th>not validated</th></tr>\n");
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
		sb_add(f, "<tr><td>");
		html_esc(f, sub);
		sb_addf(f, "</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td></tr>\n",
			total, c[0], c[1], c[2], c[3]);
		free(sub);
	}
	sb_add(f, "</table>\n");
}

/*
 * <tr class=CLS [data-value=VALUE] data-variable=NAME><td>NAME</td>
 * <td>FILE:LINE</td><td>; the value for the candidates' filter
 */
static void row_head(struct sb *f, const char *cls, const struct var *v,
		     int value)
{
	sb_addf(f, "<tr class=\"%s\"", cls);
	if (value)
		sb_addf(f, " data-value=\"%s\"", value_name[v->value]);
	sb_add(f, " data-variable=\"");
	html_esc(f, v->name);
	sb_add(f, "\"><td><code>");
	html_esc(f, v->name);
	sb_add(f, "</code></td><td>");
	html_esc(f, v->file);
	sb_addf(f, ":%ld</td><td>", v->line);
}

static void candidate_row(struct sb *f, struct report *r, struct var *v)
{
	const char *vd = v->verdict ? v->verdict : "not validated";
	const char *where = v->vevidence ? writer_where(r, v->vevidence) : NULL;
	const char *base;

	row_head(f, vd, v, 1);
	sb_addf(f, "<code class=\"annotation\">%s</code></td><td class=\"value\">%s</td><td>",
		annot_attr[v->annot], value_name[v->value]);
	html_esc(f, v->confidence);
	sb_add(f, "</td><td>");
	html_esc(f, v->reason);
	sb_add(f, "<br><small>");
	html_esc(f, v->evidence);
	sb_addf(f, "</small></td><td class=\"verdict\">%s", vd);
	if (v->level != EV_LEVEL_NONE)
		sb_addf(f, "<br><small class=\"level\">%s</small>",
			ev_level_name(v->level));
	sb_add(f, "</td><td class=\"evidence\">");
	html_esc(f, v->vevidence ? v->vevidence : "");
	if (v->level != EV_LEVEL_NONE && v->vevidence) {
		char *said = ev_sentence(v->verdict, v->vevidence);

		sb_add(f, "<br><span class=\"said\">");
		html_esc(f, said);
		sb_add(f, "</span>");
		free(said);
	}
	if (where) {
		sb_add(f, " <span class=\"writer\">(writer defined at ");
		html_esc(f, where);
		sb_add(f, ")</span>");
	}
	sb_add(f, "</td><td>");
	if (v->patch) {
		base = strrchr(v->patch, '/');
		sb_add(f, "<a href=\"queue/");
		html_esc(f, v->patch);
		sb_add(f, "\">");
		html_esc(f, base ? base + 1 : v->patch);
		sb_add(f, "</a>");
	}
	sb_add(f, "</td></tr>\n");
}

/*
 * By value rank (what the candidate protects), with a filter: a select
 * that hides the rows of the other values (inline script, no fetch).
 */
static void candidate_table(struct sb *f, struct report *r)
{
	int i, *order = value_order(r), count[VAL_NR] = { 0 };

	for (i = 0; i < r->n; i++)
		count[r->v[i].value]++;
	sb_add(f, "<p>Value: <select id=\"value-filter\" onchange=\"var v=this.value;document.querySelectorAll('#candidates tr[data-value]').forEach(function(t){t.style.display=(v===''||t.dataset.value===v)?'':'none';});\"><option value=\"\">all</option>");
	for (i = 0; i < VAL_NR; i++) {
		if (count[i])
			sb_addf(f, "<option value=\"%s\">%s (%d)</option>",
				value_name[i], value_name[i], count[i]);
	}
	sb_add(f, "</select></p>\n");
	sb_add(f, "<table id=\"candidates\"><tr><th>variable</th><th>definition</th><th>annotation</th><th>value</th><th>confidence</th><th>finder: why init-only, writers</th><th>verdict</th><th>validation: section check, exercises, reason</th><th>patch</th></tr>\n");
	for (i = 0; i < r->n; i++)
		candidate_row(f, r, &r->v[order[i]]);
	sb_add(f, "</table>\n");
	free(order);
}

/* The reason of a not-built verdict: its evidence after "not-built: ". */
static const char *notbuilt_reason(const struct var *v)
{
	const char *e = v->vevidence;

	return strncmp(e, "not-built: ", 11) ? e : e + 11;
}

static int is_notbuilt(const struct var *v)
{
	return v->verdict && !strcmp(v->verdict, "not-built");
}

/*
 * Every not-built candidate with its reason, grouped by the reason's
 * kind (other-arch, unmet, not compiled in the profile, ...), the kinds
 * with the most candidates first.
 */
static void notbuilt_section(struct sb *f, struct report *r)
{
	const char *kind[16];	/* notbuilt_kind() has fewer */
	int count[16], nk = 0, total = 0, i, k, best;
	char *done = xcalloc(16, 1);

	for (i = 0; i < r->n; i++) {
		const char *kd;

		if (!is_notbuilt(&r->v[i]))
			continue;
		total++;
		kd = notbuilt_kind(notbuilt_reason(&r->v[i]));
		for (k = 0; k < nk && strcmp(kind[k], kd); k++)
			;
		if (k == nk) {
			kind[nk] = kd;
			count[nk++] = 0;
		}
		count[k]++;
	}
	sb_addf(f, "<h2 id=\"not-built\">Not built (%d)</h2>\n", total);
	sb_add(f, "<p class=\"note\">A candidate that no validation build compiled proves nothing: why each was not built, from the validation journal, grouped by the kind of reason.</p>\n");
	sb_add(f, "<table id=\"not-built-kinds\"><tr><th>reason</th><th>candidates</th></tr>\n");
	for (k = 0; k < nk; k++)
		sb_addf(f, "<tr data-kind=\"%s\"><td><a href=\"#not-built-%d\">%s</a></td><td>%d</td></tr>\n",
			kind[k], k, kind[k], count[k]);
	sb_add(f, "</table>\n");
	for (;;) {
		for (best = -1, k = 0; k < nk; k++)
			if (!done[k] && (best < 0 || count[k] > count[best]))
				best = k;
		if (best < 0)
			break;
		done[best] = 1;
		sb_addf(f, "<h3 id=\"not-built-%d\">%s (%d)</h3>\n", best,
			kind[best], count[best]);
		sb_addf(f, "<table class=\"not-built\" data-kind=\"%s\" data-count=\"%d\"><tr><th>variable</th><th>definition</th><th>why it was not built</th></tr>\n",
			kind[best], count[best]);
		for (i = 0; i < r->n; i++) {
			struct var *v = &r->v[i];

			if (!is_notbuilt(v) ||
			    strcmp(notbuilt_kind(notbuilt_reason(v)), kind[best]))
				continue;
			row_head(f, "not-built", v, 0);
			html_esc(f, notbuilt_reason(v));
			sb_add(f, "</td></tr>\n");
		}
		sb_add(f, "</table>\n");
	}
	free(done);
}

/*
 * Each kind of conversion, by the annotation it adds, through its own
 * funnel: candidates, validated, accepted, queued.
 */
static void kind_table(struct sb *f, const struct report *r)
{
	int a, s;

	sb_add(f, "<table id=\"kinds\"><tr><th>annotation</th>");
	for (s = 0; s < KS_NR; s++)
		sb_addf(f, "<th>%s</th>", kstage_name[s]);
	sb_add(f, "</tr>\n");
	for (a = 0; a < AN_NR; a++) {
		sb_addf(f, "<tr data-annotation=\"%s\"><td><code>%s</code></td>",
			annot_attr[a], annot_attr[a]);
		for (s = 0; s < KS_NR; s++)
			sb_addf(f, "<td data-stage=\"%s\">%d</td>",
				kstage_name[s], r->kind_count[a][s]);
		sb_add(f, "</tr>\n");
	}
	sb_add(f, "</table>\n<p class=\"note\">__initdata and __initconst conversions (variables that only __init code reads and writes, freed with the init sections) are validated like __ro_after_init ones, checked in .init.data or .init.rodata and against new modpost section mismatches, and queued in patches of their own.</p>\n");
}

/* The finder's rejections: the first disqualifying writer, file:line. */
static void finder_table(struct sb *f, struct report *r)
{
	int i;

	sb_add(f, "<table id=\"finder-rejected\"><tr><th>variable</th><th>definition</th><th>why not init-only</th><th>disqualifying writer (file:line function form)</th></tr>\n");
	for (i = 0; i < r->nfr; i++) {
		struct var *v = &r->fr[i];

		row_head(f, "finder-rejected", v, 0);
		html_esc(f, v->reason);
		sb_add(f, "</td><td>");
		html_esc(f, v->evidence);
		sb_add(f, "</td></tr>\n");
	}
	sb_add(f, "</table>\n");
}

void write_html(struct report *r, const char *dir, const char *title)
{
	struct sb f;

	sb_init(&f);
	sb_add(&f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>");
	html_esc(&f, title);
	sb_add(&f, "</title>\n<style>\nbody{font-family:sans-serif;margin:2em;max-width:90em}\n"
	       "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:.25em .5em;vertical-align:top;text-align:left}\n"
	       "td.evidence,td small{overflow-wrap:anywhere}td.verdict{white-space:nowrap}\n"
	       "tr.accepted td.verdict{color:#2e7d32}tr.rejected td.verdict{color:#b71c1c}\n"
	       "small{color:#555}.note{color:#555;font-size:small}svg text{font-size:13px}\n"
	       "</style></head><body>\n<h1>");
	html_esc(&f, title);
	sb_add(&f, "</h1>\n<h2>Funnel</h2>\n");
	svg_funnel(&f, r);
	sb_add(&f, "<h2>By annotation</h2>\n");
	kind_table(&f, r);
	sb_add(&f, "<h2>Per directory</h2>\n");
	subsystem_table(&f, r);
	notbuilt_section(&f, r);
	sb_add(&f, "<h2>Every candidate</h2>\n");
	candidate_table(&f, r);
	sb_addf(&f, "<h2>Rejected by the finder (%d)</h2>\n", r->nfr);
	finder_table(&f, r);
	sb_add(&f, "</body></html>\n");
	write_out(dir, "report.html", &f);
}
