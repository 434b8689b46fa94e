// SPDX-License-Identifier: GPL-2.0
/*
 * strategy.c - one batch: build it (rejecting what breaks the build),
 * check each symbol's section, boot it in warn mode (rejecting the writers
 * a boot names, searching the failures that name none from their
 * suspects), confirm the rest in the default mode, and journal every
 * verdict; the batch size and the progress line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evidence.h"
#include "validate.h"

int in_set(const int *set, int n, int cand)
{
	int i;

	for (i = 0; i < n; i++)
		if (set[i] == cand)
			return 1;
	return 0;
}

static void drop(int *set, int *n, int cand)
{
	int i, k = 0;

	for (i = 0; i < *n; i++)
		if (set[i] != cand)
			set[k++] = set[i];
	*n = k;
}

void reject(struct ctx *x, int *set, int *n, int cand,
		   const char *why)
{
	record(x, &x->c->v[cand], x->batch, V_REJECTED, why);
	drop(set, n, cand);
}

/*
 * The steps of a boot phase's search: each is one build and one boot of a
 * subset of the batch, noted in STATE/steps.tsv (FORMATS.md) with its
 * result; a rerun of the same set, mode and exercises for the same
 * hashes takes the result from there instead of building and booting
 * again, so a killed search resumes where it was, whatever the order of
 * the members.
 */
struct step_ctx {
	struct ctx *x;
	enum mode m;
	const char *kind;	/* suspects, bisect, alone */
	int steps;		/* builds and boots, or steps.tsv's results */
	char **keys;		/* the steps so far: a retest is a step of its own */
	int nkeys;
	char *why;		/* why the last step failed */
};

static const struct cands *key_c;

static int cmp_key(const void *a, const void *b)
{
	const struct cand *p = &key_c->v[*(const int *)a];
	const struct cand *q = &key_c->v[*(const int *)b];
	int r = strcmp(p->file, q->file);

	if (r)
		return r;
	if (p->line != q->line)
		return p->line < q->line ? -1 : 1;
	return strcmp(p->name, q->name);
}

/* The step's key: its members (file, line, name, annotation), the mode, the boots. */
static char *step_key(struct ctx *x, enum mode m, const int *set, int n)
{
	int *s = xmalloc((n + 1) * sizeof(int)), i;
	unsigned long long h = FNV1A_INIT;
	char *deny = deny_arg(x), *k;

	memcpy(s, set, n * sizeof(int));
	key_c = x->c;
	qsort(s, n, sizeof(int), cmp_key);
	for (i = 0; i < n; i++) {
		const struct cand *cd = &x->c->v[s[i]];

		h = fnv1a(h, cd->file, strlen(cd->file) + 1);
		h = fnv1a(h, &cd->line, sizeof(cd->line));
		h = fnv1a(h, cd->name, strlen(cd->name) + 1);
		h = fnv1a(h, annot_name[cd->annot],
			  strlen(annot_name[cd->annot]) + 1);
	}
	h = fnv1a(h, mode_name[m], strlen(mode_name[m]) + 1);
	if (x->exercises)
		h = fnv1a(h, x->exercises, strlen(x->exercises) + 1);
	if (deny)
		h = fnv1a(h, deny, strlen(deny) + 1);
	k = xasprintf("%016llx", h);
	free(deny);
	free(s);
	return k;
}

/* steps.tsv's result for KEY: 1 pass, 0 fail (the reason to *why), -1 none. */
static int step_lookup(struct ctx *x, const char *key, char **why)
{
	char *p = spath(x, "steps.tsv"), *buf = read_file(p, NULL), *line;
	char *next = buf, *f[8];
	int r = -1, k;

	free(p);
	while (buf && (line = strsep(&next, "\n"))) {
		if (!next)
			break;	/* a torn last row is no result */
		for (k = 0; k < 8 && (f[k] = strsep(&line, "\t")); k++)
			;
		if (k < 8 || strcmp(f[0], key) || strcmp(f[1], x->config_hash) ||
		    strcmp(f[2], x->core_hash))
			continue;
		r = !strcmp(f[5], "pass");
		free(*why);
		*why = r ? NULL : xstrdup(f[7]);
	}
	free(buf);
	return r;
}

static void step_append(struct ctx *x, const char *key, const char *kind,
			enum mode m, int n, int pass, const char *why)
{
	char *p = spath(x, "steps.tsv"), *w = ev_one_line(why ? why : "-", 300);
	int fd, new = access(p, F_OK) != 0;
	struct sb s;

	sb_init(&s);
	if (new)
		sb_add(&s, "key\tconfig_hash\tcore_hash\tbatch\tstep\tresult\tmembers\treason\n");
	sb_addf(&s, "%s\t%s\t%s\t%s\t%s-%s\t%s\t%d\t%s\n", key, x->config_hash,
		x->core_hash, x->batch, kind, mode_name[m],
		pass ? "pass" : "fail", n, w);
	fd = open(p, O_WRONLY | O_APPEND | O_CREAT, 0644);
	if (fd < 0 || write(fd, s.buf, strlen(s.buf)) < 0 || fsync(fd))
		die(RC_HOST, "%s: %s", p, strerror(errno));
	close(fd);
	sb_free(&s);
	free(w);
	free(p);
}

/* A step: 1 the set passes, 0 it fails. */
static int step_test(void *ctx, const int *set, int n)
{
	struct step_ctx *sc = ctx;
	struct ctx *x = sc->x;
	char *h = step_key(x, sc->m, set, n), *key;
	int r, i, rep = 0;
	struct boot_out o;

	for (i = 0; i < sc->nkeys; i++)
		rep += !strcmp(sc->keys[i], h);
	sc->keys = xrealloc(sc->keys, (sc->nkeys + 1) * sizeof(char *));
	sc->keys[sc->nkeys++] = h;
	key = xasprintf("%s.%d", h, rep);
	free(sc->why);
	sc->why = NULL;
	r = step_lookup(x, key, &sc->why);
	sc->steps++;
	if (r >= 0) {
		free(key);
		return r;
	}
	if (!prepare(x, set, n)) {
		sc->why = xstrdup("does not build");
		step_append(x, key, sc->kind, sc->m, n, 0, sc->why);
		free(key);
		return 0;
	}
	boot_kernel(x, sc->m, set, n, &o, 0);
	r = o.ok && !o.nhit;
	if (!r)
		sc->why = xstrdup(o.nhit ? o.why[0] : o.reason ? o.reason : "failed");
	step_append(x, key, sc->kind, sc->m, n, r, sc->why);
	boot_free(&o);
	free(key);
	return r;
}

/* A culprit found, before its failures are enough to reject it. */
struct found {
	int cand;
	char *why;		/* the failure it explains, how it was found */
};

/*
 * The first failure that C explains, with how the search found it: the
 * evidence of its rejection.
 */
static char *culprit_evidence(const struct found *f, int fails)
{
	return xasprintf("%s; confirmed=%d failures", f->why, fails);
}

/*
 * Boot C alone while that adds failures it explains: until they are
 * 1 + retest, or until it passes alone (then it is clean).
 */
static void confirm(struct ctx *x, struct gt *g, struct step_ctx *sc, int c)
{
	const char *kind = sc->kind;

	sc->kind = "alone";
	while (!g->clean[c] && gt_explained(g, c) < 1 + x->retest)
		gt_note(g, &c, 1, !step_test(sc, &c, 1));
	sc->kind = kind;
}

/*
 * Do two boots fail the same way?  Their reasons begin alike, up to the
 * first colon: the first failing exercise and its status ("modules
 * fail"), or the boot's verdict ("boot hang").
 */
static int same_failure(const char *a, const char *b)
{
	size_t l;

	if (!a || !b)
		return 0;
	l = strcspn(a, ":");
	return l == strcspn(b, ":") && !strncmp(a, b, l);
}

/*
 * set[] failed its boot O in a way that names no writer: find one
 * culprit.  The suspects (the candidates O's console names) are tested
 * alone first; if they fail, the search goes on among them, else among
 * the rest.  Returns the culprit, or a negative value when none is left
 * (the clean members fail together); f->why says how it was found.
 */
static int search(struct ctx *x, struct gt *g, struct step_ctx *sc,
		  const int *set, int n, const struct boot_out *o,
		  struct found *f)
{
	int *u = xmalloc((n + 1) * sizeof(int)), *r = NULL, nu = 0, nr, i, c;
	struct suspects s;
	char *how = xstrdup("");
	int steps0 = sc->steps, bsteps = 0;

	for (i = 0; i < n; i++)
		if (!g->clean[set[i]])
			u[nu++] = set[i];
	find_suspects(x, o, u, nu, NULL, &s);
	r = u;
	nr = nu;
	if (s.n && s.n < nu) {
		sc->kind = "suspects";
		fprintf(stderr, "validate: batch %s: %s boot failed (%s): %d suspects (%s), of %d\n",
			x->batch, mode_name[sc->m], s.sig, s.n, s.label, nu);
		if (!step_test(sc, s.v, s.n)) {
			gt_note(g, s.v, s.n, 1);
			free(how);
			if (same_failure(sc->why, o->reason)) {
				r = s.v;
				nr = s.n;
				how = xasprintf("suspects=%s:%d; ", s.label,
						s.n);
			} else {
				/* another failure: the whole set, as before */
				how = xasprintf("suspects=%s:%d failed otherwise (%.80s); ",
						s.label, s.n, sc->why);
			}
		} else {
			gt_note(g, s.v, s.n, 0);
			free(how);
			how = xasprintf("suspects=%s:%d passed; ", s.label, s.n);
		}
	}
	sc->kind = "bisect";
	c = gt_find(g, step_test, sc, r, nr, &bsteps);
	f->cand = c;
	f->why = xasprintf("%s boot: %s; %sbisect=%d steps", mode_name[sc->m],
			   o->reason ? o->reason : "failed", how, bsteps);
	fprintf(stderr, "validate: batch %s: %s in %d steps\n", x->batch,
		c >= 0 ? x->c->v[c].name : "no culprit", sc->steps - steps0);
	free(how);
	suspects_free(&s);
	free(u);
	return c;
}

/* The bound on the builds of one boot phase of a batch of N. */
static int build_bound(int n)
{
	int l = 0;

	while ((1 << l) < n)
		l++;
	return 4 * l + 8;
}

/*
 * Boot set[] in mode m until a boot passes: reject the candidates a boot
 * names; search the failures that name none, one culprit at a time, and
 * boot the rest again (adaptive group testing: it passes when that was
 * the last culprit, else the search goes on in what still fails).  A
 * culprit is rejected when 1 + retest failures are its alone: tests in
 * which every other member passed somewhere (booting it alone, or the
 * rest passing, gives it those).  The passing boot (its exercises, its
 * module table) goes to *pass, for the caller to free.
 */
static void boot_phase(struct ctx *x, enum mode m, int *set, int *n,
		       struct boot_out *pass)
{
	struct step_ctx sc = { x, m, "bisect", 0, NULL, 0, NULL };
	struct found *pend = xmalloc((*n + 1) * sizeof(*pend)), f;
	int npend = 0, rounds = 0, builds0 = x->builds, bound = build_bound(*n);
	int i, k, back, c, searched = 0;
	struct boot_out o;
	struct gt g;
	double t;

	gt_init(&g, x->c->n);
	while (*n || npend) {
		if (*n)
			build_phase(x, set, n);
		if (!*n && !npend)
			break;
		memset(&o, 0, sizeof(o));
		if (*n)
			boot_kernel(x, m, set, *n, &o, 0);
		else
			o.ok = 1;	/* nothing left but the pending */
		if (o.nhit) {
			for (i = 0; i < o.nhit; i++) {
				char *why = xasprintf("%s boot: %s",
						      mode_name[m], o.why[i]);

				reject(x, set, n, o.hit[i], why);
				free(why);
			}
			/*
			 * Warn mode lets every offending write through, so a
			 * boot that otherwise passed ran the rest exactly as
			 * without the offenders: it is their warn boot too.
			 * An oops in default mode stopped the writer, so that
			 * boot proves nothing for the rest.
			 */
			if (m != M_WARN || !o.ok) {
				boot_free(&o);
				continue;
			}
		}
		if (*n)
			gt_note(&g, set, *n, !o.ok);
		/* the found culprits: this boot was without them */
		for (i = back = 0; i < npend; i++) {
			c = pend[i].cand;
			confirm(x, &g, &sc, c);
			k = gt_explained(&g, c);
			if (k >= 1 + x->retest) {
				char *why = culprit_evidence(&pend[i], k);

				record(x, &x->c->v[c], x->batch, V_REJECTED,
				       why);
				free(why);
			} else {
				/* it passed alone: back into the set */
				set[(*n)++] = c;
				back = 1;
			}
			free(pend[i].why);
		}
		npend = 0;
		if (o.ok) {
			if (back || !*n) {
				boot_free(&o);
				continue;
			}
			*pass = o;
			break;
		}
		if (x->builds - builds0 >= bound) {
			char *why = xasprintf("%s boot: fails, no culprit within %d builds: %s",
					      mode_name[m], bound, o.reason);

			while (*n)
				reject(x, set, n, set[0], why);
			free(why);
			boot_free(&o);
			break;
		}
		if (!searched++)
			x->failed_batches++;
		warnx("batch %s: %s boot failed (%s), searching %d", x->batch,
		      mode_name[m], o.reason, *n);
		t = now();
		c = search(x, &g, &sc, set, *n, &o, &f);
		if (c >= 0 && x->built_valid && x->built_sig == set_sig(&c, 1))
			confirm(x, &g, &sc, c);	/* built already: boots only */
		x->t_bisect += now() - t;
		if (c < 0 || g.clean[c]) {
			free(f.why);
			if (++rounds >= 2) {
				char *why = xasprintf("%s boot: fails, no single culprit: %s",
						      mode_name[m], o.reason);

				while (*n)
					reject(x, set, n, set[0], why);
				free(why);
			}
		} else if (gt_explained(&g, c) >= 1 + x->retest) {
			char *why = culprit_evidence(&f, gt_explained(&g, c));

			reject(x, set, n, c, why);
			free(why);
			free(f.why);
		} else {
			/* the next boot, of the rest, may give the failures */
			for (i = 0; set[i] != c; i++)
				;
			memmove(set + i, set + i + 1, (*n - i - 1) * sizeof(int));
			(*n)--;
			pend[npend++] = f;
		}
		boot_free(&o);
	}
	gt_free(&g);
	free(pend);
	for (i = 0; i < sc.nkeys; i++)
		free(sc.keys[i]);
	free(sc.keys);
	free(sc.why);
}

void count_verdicts(struct ctx *x)
{
	int i;

	memset(x->counts, 0, sizeof(x->counts));
	for (i = 0; i < x->c->n; i++)
		x->counts[x->c->v[i].verdict]++;
}

static void fmt_time(char *b, size_t n, double s)
{
	int t = (int)(s + 0.5);

	if (t >= 3600)
		snprintf(b, n, "%dh%02dm", t / 3600, t / 60 % 60);
	else
		snprintf(b, n, "%dm%02ds", t / 60, t % 60);
}

void progress(struct ctx *x, int k, int K, int done, int todo)
{
	char el[32], eta[32];
	double e = now() - x->t_start;

	fmt_time(el, sizeof(el), e);
	if (done)
		fmt_time(eta, sizeof(eta), e / done * (todo - done));
	else
		snprintf(eta, sizeof(eta), "?");
	fprintf(stderr,
		"validate: batch %d/%d%s%s%s: %d accepted, %d rejected, %d not-built; elapsed %s, ETA %s\n",
		k, K, x->size_why && k <= K ? " (" : "",
		x->size_why && k <= K ? x->size_why : "",
		x->size_why && k <= K ? ")" : "", x->counts[V_ACCEPTED],
		x->counts[V_REJECTED], x->counts[V_NOTBUILT], el, eta);
}

/*
 * The accepted evidence: the section check's, the boots', and for a
 * module whether the passing boots cycled it (modules.c).
 */
static char *accepted_evidence(struct ctx *x, int cand, struct boot_out *b,
			       int nb)
{
	struct modstat *tabs[2];
	int ns[2], seen[2], i;
	char *mod = cand_module(x->msg[cand]), *item = NULL, *all;

	for (i = 0; i < nb; i++) {
		tabs[i] = b[i].mods;
		ns[i] = b[i].nmods;
		seen[i] = b[i].mods_seen;
	}
	if (mod)
		item = mod_evidence(mod, tabs, ns, seen, nb);
	all = xasprintf("%s; booted=%s%s; exercised=%s%s%s",
			x->msg[cand], mode_name[x->first_mode],
			x->first_mode == M_WARN ? ",default" : "",
			b[nb - 1].exercised ? b[nb - 1].exercised : "",
			item ? "; " : "", item ? item : "");
	free(item);
	free(mod);
	return all;
}

void do_batch(struct ctx *x, const int *members, int n)
{
	int *set = xmalloc((n + 1) * sizeof(int)), *built, nb = 0, i;
	struct boot_out pass[2];
	int npass;
	char *ev;

	memset(pass, 0, sizeof(pass));
	x->done_batches++;
	memcpy(set, members, n * sizeof(int));
	built = xmalloc((n + 1) * sizeof(int));
	build_phase(x, set, &n);
	for (i = 0; i < n; i++) {
		struct cand *cd = &x->c->v[set[i]];

		if (!x->not_found[set[i]])
			continue;
		ev = xasprintf("annotate: no definition of %s at %s:%d",
			       cd->name, cd->file, cd->line);
		reject(x, set, &n, set[i--], ev);
		free(ev);
	}
	for (i = 0; i < n; i++)
		if (section_check(x, set[i], &ev)) {
			built[nb++] = set[i];
			free(x->msg[set[i]]);
			x->msg[set[i]] = ev;	/* the section evidence */
		}
	/*
	 * What the section check turned away is not in .data..ro_after_init
	 * of the kernel just built, so its annotation changes nothing a boot
	 * can see: boot that kernel for built[] instead of building again.
	 */
	if (x->built_valid && x->built_sig == set_sig(set, n))
		x->built_sig = set_sig(built, nb);
	/*
	 * The __initdata/__initconst conversions boot with the rest.  The
	 * warn mode sees no write to them (they are not in
	 * .data..ro_after_init, and are freed after init); their evidence
	 * is modpost's (build.c).  But they are in the kernel the batch
	 * boots, and a late access to freed init memory (poisoned, or
	 * unmapped under PTI) can crash it or fail an exercise: so they
	 * take the boots too, and bisection or an oops at their address
	 * rejects them as it rejects the others.
	 */
	boot_phase(x, x->first_mode, built, &nb, &pass[0]);
	npass = 1;
	if (nb && x->first_mode == M_WARN) {
		boot_phase(x, M_DEFAULT, built, &nb, &pass[1]);
		npass = 2;
	}
	for (i = 0; i < nb; i++) {
		ev = accepted_evidence(x, built[i], pass, npass);
		record(x, &x->c->v[built[i]], x->batch, V_ACCEPTED, ev);
		free(ev);
	}
	boot_free(&pass[0]);
	boot_free(&pass[1]);
	free(built);
	free(set);
}

/*
 * The size of the next batch, from what the campaign measured: a batch
 * of n costs a build and two boots, b + 2t, and each culprit in it a
 * search of about log2(n) + 2 steps of a build and a boot, b + t.  With
 * p culprits per conversion (those of the journal so far, and one in 100
 * before any), the cost per conversion (b + 2t) / n + p (log2 n + 2)
 * (b + t) is least at n = ln 2 (b + 2t) / (p (b + t)).  Before a build
 * and a boot are measured, DEFAULT_BATCH.  x->size_why says how.
 */
int choose_batch(struct ctx *x, int dflt)
{
	double b = x->builds ? x->t_build / x->builds : 0;
	double t = x->boots ? x->t_boot / x->boots : x->base_boot_s;
	double p, n;
	int good = 0, bad = 0, i, size;

	for (i = 0; i < x->c->n; i++) {
		const struct cand *cd = &x->c->v[i];

		if (cd->verdict == V_ACCEPTED)
			good++;
		else if (cd->verdict == V_REJECTED && cd->evidence &&
			 strstr(cd->evidence, " boot: "))
			bad++;
	}
	p = (bad + 1.0) / (good + bad + 100.0);
	free(x->size_why);
	if (b <= 0 || t <= 0) {
		x->size_why = xasprintf("size %d, the default: no build and boot measured yet",
					dflt);
		return dflt;
	}
	n = 0.6931 * (b + 2 * t) / (p * (b + t));
	size = n < 8 ? 8 : n > 1024 ? 1024 : (int)(n + 0.5);
	x->size_why = xasprintf("size %d from build %.0f s, boot %.0f s, %d of %d boot-tested failing, %d of %d batches",
				size, b, t, bad, good + bad, x->failed_batches,
				x->done_batches);
	return size;
}
