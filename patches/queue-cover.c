// SPDX-License-Identifier: GPL-2.0
/*
 * queue-cover: the prose of a posting's cover letter: what the series
 * marks, how the variables were found, the validation levels, the table
 * of its variables and the tool's disclosure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue-msg.h"

/*
 * What made the posting and how to check it
 * (Documentation/process/generated-content.rst, researcher-guidelines.rst):
 * the tool and its version, the rules that produced the finding, the
 * kernel and profile it was validated on, and the one command that
 * reproduces the finding and the validation.
 */
static void tool_note(struct sb *s, const struct plan_opts *o,
		       const struct posting *p)
{
	char *t, *kernel;
	const char *ver = o->base.version, *dot;

	t = xasprintf("Tool disclosure: the variables were found, and these patches and this letter written, by ro-campaign %s, a tool, from its finder rules (%s). They were validated on %s with ro-campaign's %s profile (x86_64), under QEMU, as each patch says. This command, run in ro-campaign at that commit, reproduces the finding and the validation of this posting:",
		      o->tool ? o->tool : "(version unknown)",
		      o->rules ? o->rules : "Coccinelle write facts, then the init-only closure",
		      o->base.text, o->profile);
	sb_wrap(s, t, "", "", WIDTH);
	free(t);
	sb_addc(s, '\n');
	if (!strcmp(o->base.kind, "git")) {
		sb_addf(s, "  make TREE=YOUR-CHECKOUT-AT-%.12s setup campaign PROFILE=%s \\\n",
			o->base.commit, o->profile);
	} else {
		dot = strchr(ver, '.');
		dot = dot ? strchr(dot + 1, '.') : NULL;
		kernel = dot ? xstrndup(ver, dot - ver) : xstrdup(ver);
		sb_addf(s, "  make KERNEL=%s setup campaign PROFILE=%s \\\n",
			kernel, o->profile);
		free(kernel);
	}
	sb_addf(s, "    SCOPE=\"%s\"\n", p->scope);
}

void cover_blurb(struct sb *s, const struct plan_opts *o,
		 const struct posting *p, const char *rows, size_t wvar,
		 size_t wloc, unsigned int levels)
{
	static const char *const meaning[EV_LEVEL_NR] = {
		[EV_LEVEL_REACHED] = "reached = built into vmlinux and booted with ro_after_init=warn reporting no write and again with the protection on, through the exercise suite, and a function that uses the variable ran after init (counted by ftrace's function profiler);",
		[EV_LEVEL_DEVICE_BOUND] = "device-bound = built as a module that bound the emulated device it drives, which passed unbind/bind, suspend/resume and unload with the protection on;",
		[EV_LEVEL_BOOTED] = "booted = built into vmlinux, booted with ro_after_init=warn reporting no write and again with the protection on, each time through the exercise suite (suspend/resume, CPU hotplug, modules, sysfs/sysctl writes), but none of its functions was seen to run after init;",
		[EV_LEVEL_MODULE_CYCLED] = "module-cycled = built as a module that was loaded (its init returned 0) and unloaded in the same two boots;",
		[EV_LEVEL_BUILT] = "built = only compiled: the symbol is in .data..ro_after_init, but no boot ran its code;",
	};
	size_t ninit = p->nkind[VK_INITDATA] + p->nkind[VK_INITCONST];
	struct sb l;
	char *t;
	int k;

	if (!ninit)
		t = xasprintf("This series marks %zu variable%s of %s (MAINTAINERS) as __ro_after_init, in %zu patch%s, one per file (a file with more than %d is split by kind: module parameters, pointers set once at init, tables, settings), those that protect function pointers, object pointers and policies first. Each of them is written only by init-only code and only read after init; once it is marked, a stray write after boot faults instead of silently changing it.",
			      p->nvars, p->nvars > 1 ? "s" : "", p->area,
			      p->npatches, p->npatches > 1 ? "es" : "",
			      o->max_vars);
	else
		t = xasprintf("This series marks %zu variable%s of %s (MAINTAINERS), in %zu patch%s, one per file and annotation: %zu as __ro_after_init, %zu as __initdata and %zu as __initconst. Those marked __ro_after_init are written only by init-only code and only read after init; once marked, a stray write after boot faults instead of silently changing them. Those marked __initdata or __initconst are read and written only by __init code: they are freed with the init sections once boot is done, and modpost reported no section mismatch for them, so nothing outside the init sections refers to them.",
			      p->nvars, p->nvars > 1 ? "s" : "", p->area,
			      p->npatches, p->npatches > 1 ? "es" : "",
			      p->nkind[VK_RO], p->nkind[VK_INITDATA],
			      p->nkind[VK_INITCONST]);
	sb_wrap(s, t, "", "", WIDTH);
	free(t);
	if (p->parts > 1) {
		t = xasprintf("This is part %u of %u: the area has %zu such variables in %zu patches, sent as %u postings of at most %d patches each, one after the other (Documentation/process/submitting-patches.rst: \"only post say 15 or so at a time\").",
			      p->part, p->parts, p->area_nvars,
			      p->area_npatches, p->parts, o->max_patches);
		sb_addc(s, '\n');
		sb_wrap(s, t, "", "", WIDTH);
		free(t);
	}
	sb_addc(s, '\n');
	sb_wrap(s, "They were found with ro-campaign: Coccinelle rules list every write to a global variable in the whole tree (assignments, compound assignments, increments, stores to members and elements, memcpy()-like calls, inline asm outputs, and the address taken unless the use is provably read-only), and a whole-tree pass keeps the variables that only init-only code writes. A function is init-only if it is __init, or if it is static, its address is never taken and all its callers are init-only (a fixpoint over the call graph). A module parameter or sysctl entry with a write bit disqualifies a variable.",
		"", "", WIDTH);
	sb_addc(s, '\n');
	sb_init(&l);
	sb_add(&l, "Validation levels:");
	for (k = EV_LEVEL_FIRST; k < EV_LEVEL_NR; k++)
		if (levels & (1u << k))
			sb_addf(&l, " %s", meaning[k]);
	l.buf[l.len - 1] = '.';
	sb_wrap(s, l.buf, "", "", WIDTH);
	sb_free(&l);
	sb_addc(s, '\n');
	sb_addf(s, "  %2s  %-*s  %-*s  %s\n", "#", (int)wvar, "variable",
		(int)wloc, "file:line", "level");
	sb_add(s, rows);
	sb_addc(s, '\n');
	sb_wrap(s, "Each patch lists, below its commit message, every writer with its file and line and how it is init-only, and the evidence of its validation.",
		"", "", WIDTH);
	sb_addc(s, '\n');
	tool_note(s, o, p);
	sb_addc(s, '\n');
	sb_addf(s, "Base: %s\n", o->base.text);
}
