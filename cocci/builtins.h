/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Builtin macros for spatch (cocci/run-facts.sh appends them to its copy
 * of Coccinelle's standard.h, --macro-file-builtins). spatch applies a
 * builtin to the tokens before it parses, everywhere, as it does
 * standard.h's __initdata or __read_mostly; cocci/macros.h (--macro-file)
 * is only tried where the code fails to parse. An attribute spatch does
 * not know fails as a macro hint where a builtin works:
 *
 *   static struct { int a; } x __ro_after_init = { 1 };
 *
 * (arch/x86/kernel/cpu/topology.c: topo_info) makes spatch skip every
 * function that uses x. So an attribute that the kernel writes after a
 * declarator belongs here. facts.cocci reads attributes from the source
 * text, never from what spatch parsed: dropping them hides nothing.
 * Nothing here may hide a write (see macros.h).
 */

/* include/linux/cache.h, include/linux/lsm_hooks.h */
#define __ro_after_init
#define __lsm_ro_after_init
/* include/linux/compiler_types.h, include/linux/compiler_attributes.h */
#define __latent_entropy
#define __nonstring
#define __cold
/* after a struct definition: "} __randomize_layout;" is no variable */
#define __randomize_layout
#define __no_randomize_layout
#define __section(section)
#define __alias(symbol)
#define __counted_by(member)
#define __counted_by_le(member)
#define __counted_by_be(member)
/* arch/s390/include/asm/sections.h */
#define __amode31_ref
/* kernel/sched/sched.h */
#define const_debug

/*
 * String macros. spatch's lexer takes NAME "text" for a string only when
 * it knows NAME is one (standard.h: KBUILD_MODNAME), so
 *
 *   #define pr_fmt(fmt) KMSG_COMPONENT ": " fmt
 *
 * does not parse. These names are defined as string literals wherever the
 * tree defines them (DRIVER_NAME: or NULL).
 */
#define KMSG_COMPONENT YACFE_STRING
#define DRV_NAME YACFE_STRING
#define DRVNAME YACFE_STRING
#define DRIVER_NAME YACFE_STRING
#define DRV_MODULE_NAME YACFE_STRING
#define QIB_DRV_NAME YACFE_STRING
#define FW_DIR YACFE_STRING
