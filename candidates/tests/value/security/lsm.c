// SPDX-License-Identifier: GPL-2.0
/* The value column's policy rule: a security area's switch. */
static int vf_lsm_enabled;
/* in a security area, but no condition tests it: not a policy */
static int vf_lsm_count;

extern int printk(const char *fmt, ...);

static int __init vf_lsm_init(void)
{
	vf_lsm_enabled = 1;
	vf_lsm_count = 3;
	return 0;
}

int vf_lsm_check(int op)
{
	if (!vf_lsm_enabled)
		return 0;
	printk("%d\n", vf_lsm_count);
	return op == 2;
}
