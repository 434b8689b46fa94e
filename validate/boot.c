// SPDX-License-Identifier: GPL-2.0
/*
 * boot.c - boot what is built: the initramfs (qemu-boot/mkinitramfs.sh),
 * then qemu-boot/boot in warn or default mode with the exercise suite;
 * bootparse.c reads what the boot wrote.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate.h"

const char *const mode_name[] = { "warn", "default" };

void boot_free(struct boot_out *o)
{
	int i;

	for (i = 0; i < o->nhit; i++)
		free(o->why[i]);
	free(o->hit);
	free(o->why);
	free(o->reason);
	free(o->exercised);
	mods_free(o->mods, o->nmods);
	free(o->dir);
	memset(o, 0, sizeof(*o));
}

const char *const boot_verdict[] = { "pass", "fail", "hang", "invalid" };

/* "a,b" with "devices" added, unless it runs all or has it already. */
static char *with_devices(const char *ex)
{
	const char *p;

	if (!ex || !strcmp(ex, "all"))
		return NULL;
	for (p = ex; *p; p += strcspn(p, ","), p += !!*p)
		if (!strncmp(p, "devices", 7) && (p[7] == ',' || !p[7]))
			return NULL;
	return xasprintf("%s,devices", ex);
}

/*
 * One run of qemu-boot/boot into DIR, with group G of the devices plan
 * attached (devices.c) and the guest CPU it chose.  Group 0 runs the
 * exercises of the campaign; a further group only the devices exercise.
 */
static int run_boot(struct ctx *x, enum mode m, const char *res,
		    const char *dir, int g, const char *deny,
		    const char *initrd)
{
	char *argv[40], *args, *append, *ex = NULL;
	const char *cpu = dev_cpu(x);
	int a = 0, rc, i;

	dev_boot_args(x, g, &args, &append);
	argv[a++] = xasprintf("%s/qemu-boot/boot", x->tools);
	argv[a++] = xasprintf("%s/bzImage", res);
	argv[a++] = "--out";
	argv[a++] = (char *)dir;
	argv[a++] = "--timeout";
	argv[a++] = xasprintf("%d", x->timeout);
	argv[a++] = "--accel";
	argv[a++] = (char *)x->accel;
	if (m == M_WARN) {
		argv[a++] = "--append";
		argv[a++] = "ro_after_init=warn";
	}
	if (deny) {
		argv[a++] = "--append";
		argv[a++] = (char *)deny;
	}
	if (append) {
		argv[a++] = "--append";
		argv[a++] = append;
	}
	if (args) {
		argv[a++] = "--devices";
		argv[a++] = args;
	}
	if (cpu) {
		argv[a++] = "--cpu";
		argv[a++] = (char *)cpu;
	}
	if (g > 0) {
		argv[a++] = "--exercise";
		argv[a++] = "devices";
	} else if (x->exercises) {
		ex = append ? with_devices(x->exercises) : NULL;
		argv[a++] = "--exercise";
		argv[a++] = ex ? ex : (char *)x->exercises;
	}
	if (initrd) {
		argv[a++] = "--initrd";
		argv[a++] = (char *)initrd;
	}
	argv[a] = NULL;
	rc = run_tool(argv, NULL, x->log);
	if (rc >= 0 && rc <= 3 && append)
		dev_write_attached(x, dir, g);
	for (i = 0; i < 2; i++)
		free(argv[i]);
	free(argv[5]);
	free(args);
	free(append);
	free(ex);
	return rc;
}

/*
 * The further device groups of the plan: one boot each, in the same mode,
 * running the devices exercise.  What they find joins O: their writers
 * and oopses, a failure as O's reason, the devices they bound.
 */
static void extra_boots(struct ctx *x, enum mode m, const int *set, int n,
			struct boot_out *o, int baseline, const char *res,
			const char *deny)
{
	int g, G = dev_groups(x);

	for (g = 1; g < G; g++) {
		char *dir = xasprintf("%s-dev%d", o->dir, g + 1);
		struct boot_out e;
		double t0 = now();
		int rc;

		memset(&e, 0, sizeof(e));
		warnx("batch %s: device boot %d/%d (%s)", x->batch, g + 1, G,
		      mode_name[m]);
		rc = run_boot(x, m, res, dir, g, deny, NULL);
		x->t_boot += now() - t0;
		x->boots++;
		check_intr();
		if (rc < 0 || rc > 3)
			die(RC_HOST, "qemu-boot/boot exit %d (%s), see %s", rc,
			    dir, x->log);
		if (baseline) {
			parse_results(x, dir, m, &e, &x->base_fail[m],
				      &x->nbase_fail[m]);
			if (m == M_WARN)
				parse_violations(x, dir, set, n, o,
						 &x->base_viol,
						 &x->nbase_viol);
		} else {
			parse_results(x, dir, m, &e, NULL, NULL);
			parse_violations(x, dir, set, n, o, NULL, NULL);
			parse_oopses(x, dir, set, n, o);
		}
		if (!o->reason && (e.reason || rc >= 2))
			o->reason = xasprintf("device boot %d: %s", g + 1,
					      e.reason ? e.reason :
					      boot_verdict[rc]);
		parse_bound(dir, o);
		boot_free(&e);
		free(dir);
	}
}

/* Boot what is built.  Baseline: fill the baseline lists instead. */
void boot_kernel(struct ctx *x, enum mode m, const int *set, int n,
		 struct boot_out *o, int baseline)
{
	char *res = xasprintf("%s/ro-campaign", x->build_dir);
	char *argv[4], *dir, *t, *deny = deny_arg(x), *initrd;
	double t0;

	memset(o, 0, sizeof(*o));
	argv[0] = "sh";
	argv[1] = xasprintf("%s/qemu-boot/mkinitramfs.sh", x->tools);
	argv[2] = res;
	argv[3] = NULL;
	if (run_tool(argv, NULL, x->log)) {
		check_intr();
		die(RC_HOST, "mkinitramfs.sh %s failed, see %s", res, x->log);
	}
	free(argv[1]);
	dir = xasprintf("%s/boots/%s-%d-%s", x->state, x->batch, ++x->nboot,
			mode_name[m]);
	/* the functions of the batch's conversions, to count (reach.c) */
	initrd = baseline ? NULL : reach_initrd(x, set, n, dir);
	t0 = now();
	o->rc = run_boot(x, m, res, dir, 0, deny, initrd);
	t0 = now() - t0;
	x->t_boot += t0;
	if (baseline && t0 > x->base_boot_s)
		x->base_boot_s = t0;
	x->boots++;
	check_intr();
	if (o->rc < 0 || o->rc > 3)
		die(RC_HOST, "qemu-boot/boot exit %d (%s), see %s", o->rc,
		    dir, x->log);
	if (baseline) {
		parse_results(x, dir, m, o, &x->base_fail[m],
			      &x->nbase_fail[m]);
		if (m == M_WARN)
			parse_violations(x, dir, set, n, o, &x->base_viol,
					 &x->nbase_viol);
	} else {
		parse_results(x, dir, m, o, NULL, NULL);
		parse_violations(x, dir, set, n, o, NULL, NULL);
		parse_oopses(x, dir, set, n, o);
		reach_collect(x, dir, set, n);
	}
	parse_modules(dir, o);
	o->dir = dir;
	extra_boots(x, m, set, n, o, baseline, res, deny);
	if (o->rc >= 2 && !o->reason) {
		free(o->reason);
		o->reason = xasprintf("boot %s", boot_verdict[o->rc]);
	} else if (o->rc >= 2) {
		t = xasprintf("boot %s: %s", boot_verdict[o->rc], o->reason);
		free(o->reason);
		o->reason = t;
	}
	o->ok = o->rc <= 1 && !o->reason;
	free(deny);
	free(initrd);
	free(res);
}

int boot_test(void *ctx, const int *set, int n)
{
	struct boot_test_ctx *b = ctx;
	struct ctx *x = b->x;
	struct boot_out o;
	int r;

	if (!prepare(x, set, n))
		return 0;
	boot_kernel(x, b->m, set, n, &o, 0);
	r = o.ok && !o.nhit;
	if (!r && n == 1) {
		free(x->msg[set[0]]);
		x->msg[set[0]] = xasprintf("%s boot: %s", mode_name[b->m],
					   o.nhit ? o.why[0] : o.reason);
	}
	boot_free(&o);
	return r;
}
