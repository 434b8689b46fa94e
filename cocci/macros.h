/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Macro hints for spatch (--macro-file): kernel macros that break parsing
 * when spatch does not know them. spatch expands these only where the
 * source fails to parse otherwise. Variable definitions through
 * DEFINE_PER_CPU* keep the macro name in their source text, which
 * facts.cocci turns into the percpu attribute.
 */
#define DEFINE_PER_CPU(type, name) type name
#define DEFINE_PER_CPU_READ_MOSTLY(type, name) type name
#define DEFINE_PER_CPU_ALIGNED(type, name) type name
#define DEFINE_PER_CPU_SHARED_ALIGNED(type, name) type name
#define DEFINE_PER_CPU_PAGE_ALIGNED(type, name) type name
#define DEFINE_PER_CPU_DECRYPTED(type, name) type name
#define DEFINE_PER_CPU_FIRST(type, name) type name
#define DEFINE_PER_CPU_SECTION(type, name, sec) type name
#define DECLARE_PER_CPU(type, name) extern type name
#define DECLARE_PER_CPU_READ_MOSTLY(type, name) extern type name
#define DECLARE_BITMAP(name, bits) unsigned long name[bits]
#define DEFINE_EARLY_PER_CPU(type, name, val) type name
#define DEFINE_EARLY_PER_CPU_READ_MOSTLY(type, name, val) type name
/* security/: the definition lands in .lsm_info.init, see facts.cocci */
#define DEFINE_LSM(lsm) static struct lsm_info lsm
#define DEFINE_EARLY_LSM(lsm) static struct lsm_info lsm

/*
 * Parse-error fixes (cocci/bench-parse.sh buckets). run-facts.sh passes
 * spatch a copy of Coccinelle's standard.h without the macros defined
 * here: spatch lets standard.h's definition win, and its DEFINE_PER_CPU
 * and MACHINE_START carry an __attribute__((__section__(...))) that
 * spatch 1.1.1 cannot parse. Nothing here may hide a write: no
 * WRITE_ONCE, smp_store_*, xchg/cmpxchg, static_branch_* or
 * DEFINE_STATIC_KEY_* (facts.cocci reads those as writes).
 */

/* include/linux/pm.h: designated initializers inside dev_pm_ops */
#define SYSTEM_SLEEP_PM_OPS(suspend_fn, resume_fn) .suspend = suspend_fn, .resume = resume_fn, .freeze = suspend_fn, .thaw = resume_fn, .poweroff = suspend_fn, .restore = resume_fn,
#define LATE_SYSTEM_SLEEP_PM_OPS(suspend_fn, resume_fn) .suspend_late = suspend_fn, .resume_early = resume_fn, .freeze_late = suspend_fn, .thaw_early = resume_fn, .poweroff_late = suspend_fn, .restore_early = resume_fn,
#define NOIRQ_SYSTEM_SLEEP_PM_OPS(suspend_fn, resume_fn) .suspend_noirq = suspend_fn, .resume_noirq = resume_fn, .freeze_noirq = suspend_fn, .thaw_noirq = resume_fn, .poweroff_noirq = suspend_fn, .restore_noirq = resume_fn,
#define RUNTIME_PM_OPS(suspend_fn, resume_fn, idle_fn) .runtime_suspend = suspend_fn, .runtime_resume = resume_fn, .runtime_idle = idle_fn,
#define SET_SYSTEM_SLEEP_PM_OPS(suspend_fn, resume_fn) .suspend = suspend_fn, .resume = resume_fn, .freeze = suspend_fn, .thaw = resume_fn, .poweroff = suspend_fn, .restore = resume_fn,
#define SET_LATE_SYSTEM_SLEEP_PM_OPS(suspend_fn, resume_fn) .suspend_late = suspend_fn, .resume_early = resume_fn, .freeze_late = suspend_fn, .thaw_early = resume_fn, .poweroff_late = suspend_fn, .restore_early = resume_fn,
#define SET_NOIRQ_SYSTEM_SLEEP_PM_OPS(suspend_fn, resume_fn) .suspend_noirq = suspend_fn, .resume_noirq = resume_fn, .freeze_noirq = suspend_fn, .thaw_noirq = resume_fn, .poweroff_noirq = suspend_fn, .restore_noirq = resume_fn,
#define SET_RUNTIME_PM_OPS(suspend_fn, resume_fn, idle_fn) .runtime_suspend = suspend_fn, .runtime_resume = resume_fn, .runtime_idle = idle_fn,
#define USE_PLATFORM_PM_SLEEP_OPS .suspend = platform_pm_suspend, .resume = platform_pm_resume,

/* arch/arm/include/asm/mach/arch.h, without the section attribute */
#define MACHINE_START(_type, _name) static const struct machine_desc __mach_desc_##_type = { .nr = MACH_TYPE_##_type, .name = _name,
#define DT_MACHINE_START(_name, _namestr) static const struct machine_desc __mach_desc_##_name = { .nr = ~0, .name = _namestr,
#define MACHINE_END };

/* declarations made by macros */
#define DECLARE_VM_GET_PAGE_PROT pgprot_t vm_get_page_prot(unsigned long vm_flags);
#define __ETHTOOL_DECLARE_LINK_MODE_MASK(name) unsigned long name[4]

/* attributes (those after a declarator: cocci/builtins.h) */
#define SEC(name)

/* statement iterators whose names spatch does not take for loops */
#define scoped_guard(_name, args...) for (;;)
#define scoped_cond_guard(_name, _fail, args...) for (;;)
#define with_intel_runtime_pm(rpm, wf) for (;;)
#define with_intel_runtime_pm_if_in_use(rpm, wf) for (;;)
#define with_intel_runtime_pm_if_active(rpm, wf) for (;;)
#define with_intel_display_power(i915, domain, wf) for (;;)
#define with_intel_display_power_if_enabled(i915, domain, wf) for (;;)
#define with_intel_pps_lock(dp, wf) for (;;)
#define with_intel_gt_pm(gt, tmp) for (;;)
#define with_intel_gt_pm_if_awake(gt, wf) for (;;)
#define for_i915_gem_ww(_ww, _err, _intr) for (;;)
#define intel_wedge_on_timeout(W, GT, TIMEOUT) for (;;)
#define skb_queue_walk(queue, skb) for (;;)
#define skb_queue_walk_safe(queue, skb, tmp) for (;;)
#define skb_queue_walk_from(queue, skb) for (;;)
#define skb_queue_walk_from_safe(queue, skb, tmp) for (;;)
#define skb_queue_reverse_walk(queue, skb) for (;;)
#define skb_queue_reverse_walk_safe(queue, skb, tmp) for (;;)
#define skb_queue_reverse_walk_from_safe(queue, skb, tmp) for (;;)
#define skb_walk_frags(skb, iter) for (;;)
#define skb_list_walk_safe(first, skb, next_skb) for (;;)
#define skb_rbtree_walk(skb, root) for (;;)
#define skb_rbtree_walk_from(skb) for (;;)
#define skb_rbtree_walk_from_safe(skb, tmp) for (;;)
#define do_each_thread(g, t) for (;;) for (;;)
#define while_each_thread(g, t) while (0)
#define printk_cpu_sync_get_irqsave(flags) for (;;)
#define gen6_for_all_pdes(pt, pd, iter) for (;;)
#define for_next_zone_zonelist_nodemask(zone, z, highidx, nodemask) for (;;)
#define for_ftrace_rec_iter(iter) for (;;)
#define tcp_skb_tsorted_save(skb) for (;;)
#define BKEY_PADDED(key) struct { struct bkey key; __u64 key##_pad[8]; }
#define HID_BPF_OPS(name) struct hid_bpf_ops name

/*
 * 6.12 (cocci/bench-parse.sh buckets on the whole tree): attributes
 * spatch 1.1.1 cannot parse where the kernel puts them. facts.cocci reads
 * attributes from the source text, so dropping them here hides nothing.
 */
/* __attribute__((aligned(N))) fails on the argument, not on the name */
#define aligned(x) aligned
#define __aligned__(x) aligned
/* before the storage class: noinstr static void f(void) (powerpc) */
#define noinstr
/* include/linux/cleanup.h (the attributes: cocci/builtins.h) */
#define __free(_name) __maybe_unused
/* include/net/ip_tunnels.h */
#define IP_TUNNEL_DECLARE_FLAGS(_name) unsigned long _name[1]
/* drivers/clk/rockchip/clk.h, drivers/clk/samsung/clk.h; __initconst: facts.cocci MACRO_DEFS */
#define PNAME(x) static const char *const x[]
/* an asm template: the instructions before patching */
#define ALTERNATIVE(oldinstr, rest...) oldinstr
/* drivers/net/arcnet/arcdevice.h: an expression (standard.h: "if") */
#define BUGLVL(x) ((x) & arcnet_debug)
/* include/linux/pm_clock.h: designated initializers inside dev_pm_ops */
#define USE_PM_CLK_RUNTIME_OPS .runtime_suspend = pm_clk_runtime_suspend, .runtime_resume = pm_clk_runtime_resume,
/* include/drm/drm_exec.h: a loop over the body */
#define drm_exec_until_all_locked(exec) for (;;)
/* include/linux/generic-radix-tree.h: GENRADIX(type) name; */
#define GENRADIX(_type) struct { struct __genradix tree; _type type[0]; }
/* __attribute__((weak, alias("f"))): as aligned(x) above */
#define alias(x) alias
/* include/linux/compiler_types.h: asm goto is read with goto blanked (run-facts.sh) */
#define asm_goto_output(x...) asm volatile(x)
/* fs/bcachefs/darray.h: a struct type */
#define DARRAY(_type) struct { size_t nr, size; _type *data; }
#define DARRAY_PREALLOCATED(_type, _nr) struct { size_t nr, size; _type *data; _type preallocated[_nr]; }
/* drivers/scsi/bfa/bfa.h: a loop over the body */
#define bfa_mem_dma_seg_iter(_mod, _sptr, _nr, _i) for (;;)
/* arch/powerpc/include/asm/ppc-opcode.h: an instruction word as an asm template */
#define PPC_TLBIE_5(rb, rs, ric, prs, r) "tlbie"
#define PPC_TLBIEL(rb, rs, ric, prs, r) "tlbiel"
#define PPC_DARN(t, l) "darn"
#define PPC_MSGSND(b) "msgsnd"
#define PPC_MSGCLR(b) "msgclr"
#define PPC_SLBIA(IH) "slbia"
#define __PPC_SLBFEE_DOT(t, b) "slbfee."
