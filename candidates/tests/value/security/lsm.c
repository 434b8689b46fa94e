// SPDX-License-Identifier: GPL-2.0
/* The value column's policy rule: a security area's switch. */
static int vf_lsm_enabled;
/* policy: a security area's static key, tested in a condition */
DEFINE_STATIC_KEY_FALSE(vf_lsm_key);
/* tested only by its own __setup handler: a parameter, not a policy */
static int vf_lsm_hash_done;
/* in a security area, but no condition tests it: not a policy */
static int vf_lsm_count;

static int __init vf_lsm_hash_setup(char *s)
{
	if (vf_lsm_hash_done)
		return 1;
	vf_lsm_hash_done = 1;
	return 1;
}
__setup("vf_hash=", vf_lsm_hash_setup);

static int __init vf_lsm_init(void)
{
	vf_lsm_enabled = 1;
	vf_lsm_count = 3;
	static_branch_enable(&vf_lsm_key);
	return 0;
}

int vf_lsm_check(int op)
{
	if (!vf_lsm_enabled)
		return 0;
	if (static_branch_unlikely(&vf_lsm_key))
		return 1;
	pr_info("%d\n", vf_lsm_count);
	return op == 2;
}
