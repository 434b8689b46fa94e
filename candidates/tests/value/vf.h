/* SPDX-License-Identifier: GPL-2.0 */
/* Types for the value fixtures (candidates/tests/test-value.sh). */
struct kmem_cache;
struct hlist_head {
	struct hlist_node *first;
};

typedef void (*vf_cb_t)(void *data);

/* an ops table: every member is a function pointer but the owner */
struct vf_ops {
	struct module *owner;
	int (*open)(void *p);
	int (*release)(void *p);
};

/* a callback two levels down, by value */
struct vf_inner {
	int prio;
	vf_cb_t done;
};

struct vf_holder {
	int id;
	struct vf_inner in;
};

/* a pointer to another object, no function pointer */
struct vf_link {
	int id;
	struct kmem_cache *cache;
};

struct vf_conf {
	int a, b;
};

int vf_register(struct vf_ops *ops);
void *kmalloc(unsigned long size, int flags);
int pr_info(const char *fmt, ...);

/* a static key holds a pointer, but it is a switch */
struct static_key {
	int enabled;
	struct jump_entry *entries;
};

struct static_key_false {
	struct static_key key;
};
