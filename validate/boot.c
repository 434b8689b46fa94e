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

/* Boot what is built.  Baseline: fill the baseline lists instead. */
void boot_kernel(struct ctx *x, enum mode m, const int *set, int n,
		 struct boot_out *o, int baseline)
{
	char *res = xasprintf("%s/ro-campaign", x->build_dir);
	char *argv[20], *dir, *t, *deny = deny_arg(x), *initrd;
	double t0;
	int a = 0;

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
	argv[a++] = xasprintf("%s/qemu-boot/boot", x->tools);
	argv[a++] = xasprintf("%s/bzImage", res);
	argv[a++] = "--out";
	argv[a++] = dir;
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
		argv[a++] = deny;
	}
	if (x->exercises) {
		argv[a++] = "--exercise";
		argv[a++] = (char *)x->exercises;
	}
	/* the functions of the batch's conversions, to count (reach.c) */
	initrd = baseline ? NULL : reach_initrd(x, set, n, dir);
	if (initrd) {
		argv[a++] = "--initrd";
		argv[a++] = initrd;
	}
	argv[a] = NULL;
	t0 = now();
	o->rc = run_tool(argv, NULL, x->log);
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
	if (o->rc >= 2 && !o->reason) {
		free(o->reason);
		o->reason = xasprintf("boot %s", boot_verdict[o->rc]);
	} else if (o->rc >= 2) {
		t = xasprintf("boot %s: %s", boot_verdict[o->rc], o->reason);
		free(o->reason);
		o->reason = t;
	}
	o->ok = o->rc <= 1 && !o->reason;
	free(argv[0]);
	free(argv[1]);
	free(argv[5]);
	free(deny);
	free(initrd);
	o->dir = dir;
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
