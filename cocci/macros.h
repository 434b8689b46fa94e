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
