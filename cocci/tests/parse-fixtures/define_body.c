// SPDX-License-Identifier: GPL-2.0
/* a #define body spatch cannot parse (arch/ia64/kernel/topology.c) */
static int dd_mode;

#ifdef define_one_ro
	#undef define_one_ro
#endif
#define define_one_ro(_name) \
	static struct cache_attr _name = \
__ATTR(_name, 0444, show_##_name, NULL)

static int __init dd_init(void)
{
	dd_mode = 1;
	return 0;
}
