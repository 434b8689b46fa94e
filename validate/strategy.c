// SPDX-License-Identifier: GPL-2.0
/*
 * strategy.c - one batch: build it (rejecting what breaks the build),
 * check each symbol's section, boot it in warn mode (rejecting the writers
 * a boot names, bisecting the failures that name none), confirm the rest
 * in the default mode, and journal every verdict; the progress line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
 * Boot set[] in mode m until a boot passes: reject the candidates a boot
 * names, bisect the failures that name none.  The passing boot (its
 * exercises, its module table) goes to *pass, for the caller to free.
 */
static void boot_phase(struct ctx *x, enum mode m, int *set, int *n,
		       struct boot_out *pass)
{
	struct boot_test_ctx bt = { x, m };
	int *cul = xmalloc((*n + 1) * sizeof(int)), k, i, rounds = 0;
	struct boot_out o;
	double t;

	while (*n) {
		build_phase(x, set, n);
		if (!*n)
			break;
		boot_kernel(x, m, set, *n, &o, 0);
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
		if (o.ok) {
			*pass = o;
			break;
		}
		warnx("batch %s: %s boot failed (%s), bisecting %d", x->batch,
		      mode_name[m], o.reason, *n);
		t = now();
		k = bisect(boot_test, &bt, set, *n, 1, x->retest, cul);
		x->t_bisect += now() - t;
		for (i = 0; i < k; i++) {
			char *why = xasprintf("%s", x->msg[cul[i]]);

			reject(x, set, n, cul[i], why);
			free(why);
		}
		if (k == 0 && ++rounds >= 2) {
			char *why = xasprintf("%s boot: fails, no single culprit: %s",
					      mode_name[m], o.reason);

			while (*n)
				reject(x, set, n, set[0], why);
			free(why);
		}
		boot_free(&o);
	}
	free(cul);
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
		"validate: batch %d/%d: %d accepted, %d rejected, %d not-built; elapsed %s, ETA %s\n",
		k, K, x->counts[V_ACCEPTED], x->counts[V_REJECTED],
		x->counts[V_NOTBUILT], el, eta);
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
