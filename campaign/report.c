// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - the campaign report: candidates, validation verdicts and the
 * queued patches joined per variable, as report.html (static, no network
 * fetches; the funnel is inline SVG) and as TSV for scripts.
 *
 * Usage: report --candidates FILE --journal FILE --out DIR
 *               [--queue DIR] [--facts DIR] [--title TEXT]
 *
 * Writes DIR/report.html, DIR/report.tsv (one row per conversion
 * candidate: class ro_after_init or initdata), DIR/funnel.tsv (stage,
 * count) and DIR/kinds.tsv (each annotation's funnel: __ro_after_init,
 * __initdata, __initconst).  The funnel stages:
 *   scanned     file-scope variables the finder judged (candidates.tsv rows)
 *   candidates  of those, class ro_after_init or initdata
 *   validated   candidates with a journal verdict (the last one counts)
 *   built       compiled in the profile, in its annotation's section
 *   booted      booted and exercised: accepted, or rejected by a boot
 *   accepted    the journal's accepted verdicts
 * and, after them, the accepted ones per evidence level (lib/evidence.h):
 *   accepted-reached, accepted-device-bound, accepted-module-cycled,
 *   accepted-booted, accepted-built
 *
 * This file: the command line and the funnel's counts.  report-read.c
 * reads and joins the inputs, report-html.c and report-tsv.c write.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence.h"
#include "report.h"

const char *const stage_name[S_NR] = {
	"scanned", "candidates", "validated", "built", "booted", "accepted",
};

const char *const stage_label[S_NR] = {
	"variables scanned", "conversion candidates", "validated",
	"built, in its annotation's section", "booted and exercised", "accepted",
};

const char *const kstage_name[KS_NR] = {
	"candidates", "validated", "accepted", "queued",
};

const char *const level_stage[EV_LEVEL_NR] = {
	[EV_LEVEL_NONE] = "-",
	[EV_LEVEL_REACHED] = "accepted-reached",
	[EV_LEVEL_DEVICE_BOUND] = "accepted-device-bound",
	[EV_LEVEL_MODULE_CYCLED] = "accepted-module-cycled",
	[EV_LEVEL_BOOTED] = "accepted-booted",
	[EV_LEVEL_BUILT] = "accepted-built",
};

const char *const level_label[EV_LEVEL_NR] = {
	[EV_LEVEL_NONE] = "-",
	[EV_LEVEL_REACHED] = "reached (its code ran after init)",
	[EV_LEVEL_DEVICE_BOUND] = "device-bound (bound, rebound, unloaded)",
	[EV_LEVEL_MODULE_CYCLED] = "module-cycled (loaded, unloaded)",
	[EV_LEVEL_BOOTED] = "booted (built in, its code not seen to run)",
	[EV_LEVEL_BUILT] = "only built (never ran)",
};

/*
 * A not-built reason (the evidence after "not-built: ") by its kind, the
 * KIND token validate writes (lib/evidence.h, ev_notbuilt_kinds; older
 * journals by their phrases): the group's label, "other" for the rest.
 */
const char *notbuilt_kind(const char *reason)
{
	return ev_notbuilt_kinds[ev_notbuilt_parse(reason)].label;
}

/*
 * A rejection decided before any boot: annotate, build, section check or
 * a new modpost section mismatch (an initdata conversion).
 */
static int rejected_before_boot(const char *ev)
{
	static const char *const before[] = { "annotate", "build", "section",
		"modpost" };
	char stage[32];
	size_t i;

	if (ev_stage(ev, stage, sizeof(stage)))
		return 0;
	for (i = 0; i < ARRAY_SIZE(before); i++)
		if (!strcmp(stage, before[i]))
			return 1;
	return 0;
}

/* Each candidate's furthest stage; each stage counts what got that far. */
void classify(struct report *r)
{
	int i, s;
	int *k;

	r->count[S_SCANNED] = r->scanned;
	for (i = 0; i < r->n; i++) {
		struct var *v = &r->v[i];

		v->reached = S_CANDIDATES;
		if (v->verdict) {
			v->reached = S_VALIDATED;
			if (!strcmp(v->verdict, "accepted")) {
				v->reached = S_ACCEPTED;
				r->level_count[v->level]++;
			} else if (!strcmp(v->verdict, "rejected") &&
				   !rejected_before_boot(v->vevidence)) {
				v->reached = S_BOOTED;
			}
		}
		for (s = S_CANDIDATES; s <= (int)v->reached; s++)
			r->count[s]++;
		k = r->kind_count[v->annot];
		k[KS_CANDIDATES]++;
		k[KS_VALIDATED] += !!v->verdict;
		k[KS_ACCEPTED] += v->reached == S_ACCEPTED;
		k[KS_QUEUED] += !!v->patch;
	}
}

/* "kernel/power/main.c" -> "kernel/power" */
char *subsystem(const char *file)
{
	const char *slash = strrchr(file, '/');

	return slash ? xasprintf("%.*s", (int)(slash - file), file) :
		       xstrdup(".");
}

static int cmp_var(const void *a, const void *b)
{
	const struct var *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

static const struct report *order_r;

static int cmp_value(const void *a, const void *b)
{
	const struct var *x = &order_r->v[*(const int *)a];
	const struct var *y = &order_r->v[*(const int *)b];

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return cmp_var(x, y);
}

int *value_order(const struct report *r)
{
	int *o = xmalloc((r->n + 1) * sizeof(*o)), i;

	for (i = 0; i < r->n; i++)
		o[i] = i;
	order_r = r;
	qsort(o, r->n, sizeof(*o), cmp_value);
	return o;
}

static const char usage[] =
"usage: report --candidates FILE --journal FILE --out DIR [--queue DIR]\n"
"              [--facts DIR] [--title TEXT]\n"
"\n"
"Join a campaign's candidates.tsv, the validator's journal.tsv and the\n"
"queue's index.tsv, by the key (file, line, name), into DIR/report.html\n"
"(static page, inline SVG funnel), and\n"
"DIR/report.tsv, DIR/funnel.tsv and DIR/kinds.tsv (each annotation's\n"
"funnel) for scripts.  --facts (the finder's facts directory) lets a\n"
"rejection name the writer's file:line.\n"
"Exit: 0 written, 64 usage, 65 malformed input (named FILE:LINE),\n"
"70 cannot write.\n";

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
			return RC_OK;
		default:
			fputs(usage, stderr);
			return RC_USAGE;
		}
	}
	if (!cands || !journal || !out || optind != argc) {
		fputs(usage, stderr);
		return RC_USAGE;
	}
	read_candidates(&r, cands);
	qsort(r.v, r.n, sizeof(*r.v), cmp_var);
	qsort(r.fr, r.nfr, sizeof(*r.fr), cmp_var);
	read_journal(&r, journal);
	if (facts)
		read_funcs(&r, facts);
	if (queue)
		link_patches(&r, queue);
	classify(&r);
	write_html(&r, out, title);
	write_tsv(&r, out);
	printf("report: %s/report.html: %d scanned, %d candidates, %d validated, %d built, %d booted, %d accepted (reached %d, device-bound %d, module-cycled %d, booted %d, built %d)\n",
	       out, r.count[S_SCANNED], r.count[S_CANDIDATES],
	       r.count[S_VALIDATED], r.count[S_BUILT], r.count[S_BOOTED],
	       r.count[S_ACCEPTED], r.level_count[EV_LEVEL_REACHED],
	       r.level_count[EV_LEVEL_DEVICE_BOUND],
	       r.level_count[EV_LEVEL_MODULE_CYCLED],
	       r.level_count[EV_LEVEL_BOOTED],
	       r.level_count[EV_LEVEL_BUILT]);
	printf("report: by annotation: %s %d (accepted %d, queued %d), %s %d (accepted %d, queued %d), %s %d (accepted %d, queued %d)\n",
	       annot_attr[AN_RO],
	       r.kind_count[AN_RO][KS_CANDIDATES],
	       r.kind_count[AN_RO][KS_ACCEPTED],
	       r.kind_count[AN_RO][KS_QUEUED],
	       annot_attr[AN_INITDATA], r.kind_count[AN_INITDATA][KS_CANDIDATES],
	       r.kind_count[AN_INITDATA][KS_ACCEPTED],
	       r.kind_count[AN_INITDATA][KS_QUEUED],
	       annot_attr[AN_INITCONST], r.kind_count[AN_INITCONST][KS_CANDIDATES],
	       r.kind_count[AN_INITCONST][KS_ACCEPTED],
	       r.kind_count[AN_INITCONST][KS_QUEUED]);
	return RC_OK;
}
