// SPDX-License-Identifier: GPL-2.0-only
/*
 * Twenty variables that only init code writes, of every
 * kind patches/queue splits a file by: module parameters, pointers set
 * once at init, tables and settings.  A fixture of ro-campaign's queue
 * tests (test-queue-split.sh): it is committed into a clone of the tree,
 * never built.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/slab.h>

struct ro_fixture_ops {
	int (*probe)(void);
	void (*remove)(void);
};

static unsigned int fix_halt_poll = 10;
module_param(fix_halt_poll, uint, 0444);

static unsigned int fix_ple_gap = 128;
module_param(fix_ple_gap, uint, 0444);

static unsigned int fix_ple_window = 4096;
module_param(fix_ple_window, uint, 0444);

static bool fix_nested = true;
module_param(fix_nested, bool, 0444);

static bool fix_avic;
module_param(fix_avic, bool, 0444);

static bool fix_vnmi = true;
module_param(fix_vnmi, bool, 0444);

static int fix_lbrv = 1;
module_param(fix_lbrv, int, 0444);

static int fix_vgif = 1;
module_param(fix_vgif, int, 0444);

static const struct ro_fixture_ops *fix_ops;
static int (*fix_hook)(void);
static void *fix_buffer;
static struct kmem_cache *fix_cache;

static unsigned int fix_table[4];
static const char *fix_names[3];
static u8 fix_bytes[8];

static bool fix_strict;
static bool fix_lockdown;
static unsigned int fix_max_len;
static unsigned long fix_flags;
static int fix_mode;

static int fix_probe(void)
{
	return 0;
}

static void fix_remove(void)
{
}

static const struct ro_fixture_ops fix_default_ops = {
	.probe = fix_probe,
	.remove = fix_remove,
};

static int __init ro_fixture_init(void)
{
	if (!boot_cpu_has(X86_FEATURE_SVM)) {
		fix_avic = false;
		fix_vnmi = false;
	}
	fix_ops = &fix_default_ops;
	fix_hook = fix_probe;
	fix_buffer = kzalloc(PAGE_SIZE, GFP_KERNEL);
	fix_cache = KMEM_CACHE(ro_fixture_ops, 0);
	fix_table[0] = fix_ple_gap;
	fix_names[0] = "fixture";
	fix_bytes[0] = 0x0f;
	fix_strict = true;
	fix_lockdown = true;
	fix_max_len = PAGE_SIZE;
	fix_flags = 1;
	fix_mode = 2;
	return 0;
}
module_init(ro_fixture_init);

MODULE_DESCRIPTION("ro-campaign queue fixture");
MODULE_LICENSE("GPL");
