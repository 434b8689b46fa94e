// SPDX-License-Identifier: GPL-2.0
/*
 * A struct definition whose declarator has an attribute
 * (arch/x86/kernel/cpu/topology.c: topo_info): spatch 1.1.1 skipped
 * every function that uses the variable unless the attribute is a
 * builtin (cocci/builtins.h).
 */
static struct {
	unsigned int nr_assigned;
	unsigned int max_threads;
} sa_info __ro_after_init = {
	.nr_assigned = 1,
};

static unsigned int sa_max_threads;

static int __init sa_init(void)
{
	sa_info.nr_assigned++;
	sa_max_threads = sa_info.max_threads;
	return 0;
}

int sa_hotplug(unsigned int cpu)
{
	sa_info.max_threads = cpu;
	return 0;
}
