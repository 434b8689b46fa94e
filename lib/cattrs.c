// SPDX-License-Identifier: GPL-2.0
/*
 * cattrs.c - the attributes skipped in struct bodies (cattrs.h).
 */
#include "base.h"
#include "cattrs.h"

const char *const c_member_attrs[] = {
	"__attribute__", "__attribute", "__aligned", "__packed",
	"__counted_by", "__counted_by_le", "__counted_by_be", "__nonstring",
	"__randomize_layout", "__no_randomize_layout",
	"____cacheline_aligned", "____cacheline_aligned_in_smp",
	"__cacheline_aligned", "__cacheline_aligned_in_smp",
	"____cacheline_internodealigned_in_smp", "__may_alias",
	"__designated_init", "__guarded_by", "__pt_guarded_by", "__deprecated",
	"__maybe_unused", "__always_unused", "__ro_after_init",
	"__read_mostly", "__bitwise", "__tag",
	/* sparse's annotations */
	"__rcu", "__percpu", "__iomem", "__user", "__force", "__private",
	"__data_racy",
};

const size_t n_c_member_attrs = ARRAY_SIZE(c_member_attrs);
