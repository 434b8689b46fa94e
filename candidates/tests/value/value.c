// SPDX-License-Identifier: GPL-2.0
/* The value column: one variable of each kind (test-value.sh). */
#include "vf.h"

/* fn-pointer: a function pointer, declared as one */
static int (*vf_hook)(int);
/* fn-pointer: a typedef of a function pointer type */
static vf_cb_t vf_cb;
/* fn-pointer: points to an ops table */
static struct vf_ops *vf_cur_ops;
/* fn-pointer: holds a function pointer two levels down, by value */
static struct vf_holder vf_hold;
/* fn-pointer: an array of function pointers */
static void (*vf_handlers[4])(void);
/* object-pointer: a kmem_cache and a hash table */
static struct kmem_cache *vf_cache;
static struct hlist_head *vf_hash_table;
/* object-pointer: holds a pointer to an object, by value */
static struct vf_link vf_lnk;
/* bound: a hash shift, a mask, a loop bound, an allocation size */
static unsigned int vf_hash_shift;
static unsigned int vf_hash_mask;
static unsigned int vf_nr_slots;
static unsigned long vf_buf_size;
/* param: a read-only module parameter, and a __setup target */
static int vf_debug;
module_param(vf_debug, int, 0444);
static int vf_boot_opt;
/* setting: a mode tested in a condition, outside a security area */
static int vf_mode;
/* setting: a static key outside a security area, whatever it holds */
DEFINE_STATIC_KEY_FALSE(vf_fast_key);
/* setting: a string, and a plain struct of numbers */
static char *vf_name;
static struct vf_conf vf_cfg;
/* setting: used only as a whole index (a name table's subscript) */
static int vf_level;
static const char *const vf_level_names[] = { "a", "b" };

static int __init vf_setup(char *s)
{
	vf_boot_opt = 1;
	return 1;
}
__setup("vf=", vf_setup);

static int __init vf_init(void)
{
	vf_hook = 0;
	vf_cb = 0;
	vf_cur_ops = 0;
	vf_hold.id = 1;
	vf_handlers[0] = 0;
	vf_cache = 0;
	vf_hash_table = 0;
	vf_lnk.id = 2;
	vf_hash_shift = 4;
	vf_hash_mask = 15;
	vf_nr_slots = 8;
	vf_buf_size = 4096;
	vf_mode = 1;
	vf_name = 0;
	vf_cfg.a = 1;
	vf_level = 1;
	static_branch_enable(&vf_fast_key);
	return 0;
}

int vf_lookup(unsigned int h, int v)
{
	unsigned int i;
	void *p;

	if (vf_mode)
		v++;
	if (static_branch_unlikely(&vf_fast_key))
		v++;
	for (i = 0; i < vf_nr_slots; i++)
		v += vf_hash_table[h & vf_hash_mask].first != 0;
	v += h >> vf_hash_shift;
	p = kmalloc(vf_buf_size, 0);
	vf_handlers[h & 3]();
	v += vf_hook(v) + vf_cur_ops->open(p);
	vf_cb(p);
	vf_hold.in.done(p);
	pr_info("%d %d %s %d %p %s\n", vf_debug, vf_boot_opt, vf_name,
	       vf_cfg.b, vf_lnk.cache, vf_level_names[vf_level]);
	return v;
}
