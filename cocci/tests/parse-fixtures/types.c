// SPDX-License-Identifier: GPL-2.0
/*
 * 6.12 constructs for cocci/macros.h and cocci/builtins.h: bcachefs's
 * DARRAY types, bfa's segment loop, __attribute__((alias("f"))),
 * __section() before the name, asm_goto_output, powerpc's PPC_SLBIA.
 */
typedef DARRAY(struct ty_bucket) ty_buckets;

struct ty_seq {
	DARRAY_PREALLOCATED(struct ty_bucket, 4) objs;
};

unsigned int __section(".data") ty_level;
static int ty_count;
static int ty_segs;

int ty_alias(int primary) __attribute__((alias("ty_real")));

static void ty_walk(struct ty_mod *mod)
{
	struct ty_seg *seg;
	int idx;

	bfa_mem_dma_seg_iter(mod, seg, 4, idx) {
		ty_segs++;
	}
}

static int ty_read(int *p)
{
	int v;

	asm_goto_output("1: mov %1, %0" : "=r"(v) : "m"(*p) : : fault);
	ty_count++;
	return v;
fault:
	return -1;
}

static void ty_flush(void)
{
	asm volatile(PPC_SLBIA(3));
	ty_count = 0;
}
