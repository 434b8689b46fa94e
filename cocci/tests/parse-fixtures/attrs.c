// SPDX-License-Identifier: GPL-2.0
/* 6.12's attribute, declaration and loop macros (cocci/macros.h) */
static char at_buf[64] __attribute__((aligned(8)));
void (*at_handler)(int) __ro_after_init = NULL;
static int at_count;

struct at_desc {
	int n;
	int v[] __counted_by(n);
} __attribute__((aligned(32)));

PNAME(at_parents) = { "a", "b" };

struct at_tree {
	GENRADIX(struct at_desc) objs;
};

static int at_lock(struct drm_exec *exec)
{
	u8 *p __free(kfree) = kmalloc(3, GFP_KERNEL);
	IP_TUNNEL_DECLARE_FLAGS(flags) = { };

	drm_exec_until_all_locked(exec) {
		at_count++;
	}
	if (BUGLVL(D_DURING))
		at_count = 0;
	asm volatile(ALTERNATIVE("nop", "isb", 3) : : : "memory");
	return at_count;
}

static struct dev_pm_domain at_domain = {
	.ops = {
		USE_PM_CLK_RUNTIME_OPS
		USE_PLATFORM_PM_SLEEP_OPS
	},
};

static int __init at_init(void)
{
	at_handler = at_handle;
	strscpy(at_buf, "x", sizeof(at_buf));
	return 0;
}

noinstr static void at_nmi(void)
{
	at_count = 3;
}

static u32 at_pool[4] __latent_entropy;

static int __init at_seeded(void)
{
	static const u8 seed[BLAKE2S_BLOCK_SIZE] __initconst __latent_entropy;

	at_count = seed[0];
	return 0;
}

extern int at_lookup(int a)
	__weak __alias(at_lookup2);
