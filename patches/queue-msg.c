// SPDX-License-Identifier: GPL-2.0
/*
 * queue-msg: the prose of the commit messages: the subject, what a write
 * could do and how the patch was tested (the files of the prose:
 * queue-msg.h).
 *
 * A commit message is a few short paragraphs
 * (Documentation/process/submitting-patches.rst, researcher-guidelines.rst):
 * what changes and why it helps, why it is safe (the writers, named),
 * how it was found, and how it was tested, naming the evidence level.
 * The evidence itself, every writer with file:line and how it is
 * init-only, the finder's verdict and the validation's items, goes below
 * the --- line (the patch's "notes"), where git am drops it and the
 * reviewer still reads it; so does the base.
 *
 * Text from the inputs is quoted either in indented bullets (writers,
 * journal evidence) or, for the few short fields that sit in a plain
 * paragraph, only after queue-join.c checked that it cannot start a
 * trailer; no input text can add a line of its own (sb_wrap() joins
 * words with spaces, the inputs have no control characters).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue-msg.h"

/* 1 if V[I]'s name is the name of an earlier V[K] (an #ifdef variant). */
int var_seen(struct var **v, size_t i)
{
	size_t k;

	for (k = 0; k < i; k++)
		if (!strcmp(v[k]->name, v[i]->name))
			return 1;
	return 0;
}

/* The number of names among V[0..N-1]. */
size_t var_nnames(struct var **v, size_t n)
{
	size_t i, d = 0;

	for (i = 0; i < n; i++)
		d += !var_seen(v, i);
	return d;
}

/* "a, b and c", each name once; only those of level LEVEL if >= 0. */
void names_list(struct sb *s, struct var **v, size_t n, int level)
{
	size_t i, k = 0, d = 0;

	for (i = 0; i < n; i++)
		d += !var_seen(v, i) && (level < 0 || (int)v[i]->level == level);
	for (i = 0; i < n; i++) {
		if (var_seen(v, i) || (level >= 0 && (int)v[i]->level != level))
			continue;
		if (k)
			sb_add(s, k + 1 == d ? " and " : ", ");
		sb_add(s, v[i]->name);
		k++;
	}
}

static const char *base_of(const char *file)
{
	const char *b = strrchr(file, '/');

	return b ? b + 1 : file;
}

char *patch_subject(struct var **v, size_t n, int split, int level)
{
	const char *attr = annot_attr[v[0]->kind];
	struct sb s, where;

	sb_init(&s);
	sb_init(&where);
	if (level == 1)
		sb_addf(&where, " in %s", base_of(v[0]->file));
	else if (level >= 2)
		sb_addf(&where, " in %s", v[0]->file);
	sb_addf(&s, "%s: Mark ", v[0]->prefix);
	names_list(&s, v, n, -1);
	sb_addf(&s, "%s as %s", where.buf ? where.buf : "", attr);
	if (s.len > WIDTH) {
		s.len = 0;
		if (split)
			sb_addf(&s, "%s: Mark %s%s as %s", v[0]->prefix,
				vgroup_words[v[0]->group],
				where.len ? where.buf : "", attr);
		else
			sb_addf(&s, "%s: Mark %zu variables in %s as %s",
				v[0]->prefix, var_nnames(v, n),
				level >= 2 ? v[0]->file : base_of(v[0]->file),
				attr);
	}
	sb_free(&where);
	return s.buf;
}

/* ---- what a write could do ------------------------------------------------ */

/*
 * What a stray or hostile write to a variable of value K could do, for
 * one variable and for several (the verb agrees with the subject).
 */
static const char *const harm[VV_NR][2] = {
	[VV_FN_POINTER] = {
		"holds a function pointer that is called after init: a stray or hostile write would redirect that call",
		"hold function pointers that are called after init: a stray or hostile write would redirect those calls",
	},
	[VV_OBJECT_POINTER] = {
		"points to an object the kernel uses after init: a stray or hostile write would make it use another one, of the writer's choosing",
		"point to objects the kernel uses after init: a stray or hostile write would make it use others, of the writer's choosing",
	},
	[VV_POLICY] = {
		"selects a policy the kernel applies after init: a stray or hostile write would switch it with nothing to show for it",
		"select policies the kernel applies after init: a stray or hostile write would switch them with nothing to show for it",
	},
	[VV_BOUND] = {
		"bounds sizes or indices that code after init trusts: a stray or hostile write could turn them into out-of-bounds accesses",
		"bound sizes or indices that code after init trusts: a stray or hostile write could turn them into out-of-bounds accesses",
	},
	[VV_PARAM] = {
		"holds a module parameter fixed at boot: a stray or hostile write would change it where no interface can, without a trace",
		"hold module parameters fixed at boot: a stray or hostile write would change them where no interface can, without a trace",
	},
	[VV_SETTING] = {
		"holds a setting made at boot: a stray or hostile write would change how the kernel behaves from then on",
		"hold settings made at boot: a stray or hostile write would change how the kernel behaves from then on",
	},
};

/*
 * One sentence per value kind present among V[0..N-1]: what a stray or
 * hostile write to them could do.  The most valuable kind first.
 */
static void harm_sentences(struct sb *t, struct var **v, size_t n)
{
	size_t i, d, k, total = var_nnames(v, n);
	int val;

	for (val = 0; val < VV_NR; val++) {
		for (i = d = 0; i < n; i++)
			d += !var_seen(v, i) && (int)v[i]->value == val;
		if (!d)
			continue;
		sb_addc(t, ' ');
		if (d == total) {
			sb_add(t, total > 1 ? "They" : "It");
		} else {
			for (i = k = 0; i < n; i++) {
				if (var_seen(v, i) || (int)v[i]->value != val)
					continue;
				if (k)
					sb_add(t, k + 1 == d ? " and " : ", ");
				sb_add(t, v[i]->name);
				k++;
			}
		}
		sb_addf(t, " %s.", harm[val][d > 1]);
	}
}

/* ---- how it was tested --------------------------------------------------- */

/* The module of the first variable of level module-cycled. */
static const char *first_module(struct var **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((v[i]->level == EV_LEVEL_MODULE_CYCLED ||
		     v[i]->level == EV_LEVEL_DEVICE_BOUND) && v[i]->module)
			return v[i]->module;
	return "?";
}

/* Level K of an __initdata/__initconst patch V[0..N-1], in words. */
static void tested_init(struct sb *t, struct var **v, size_t n, int k)
{
	const char *it = var_nnames(v, n) > 1 ? "them" : "it";

	if (k == EV_LEVEL_REACHED || k == EV_LEVEL_BOOTED)
		sb_addf(t, "built into an x86_64 vmlinux, where modpost reported no section mismatch for %s, and booted under QEMU twice, with ro_after_init=warn and with the protection on, each time through suspend/resume, CPU hotplug, module and sysfs/sysctl exercises, which run after the init sections are freed.",
			it);
	else if (k == EV_LEVEL_MODULE_CYCLED || k == EV_LEVEL_DEVICE_BOUND)
		sb_addf(t, "built as the module %s (x86_64), where modpost reported no section mismatch for %s, which was loaded under QEMU, its init returning 0, and unloaded, in two boots.",
			first_module(v, n), it);
	else
		sb_addf(t, "only compiled (x86_64): the symbol is in %s and modpost reported no section mismatch for %s, but no boot ran the code that uses %s, so the change is not tested at run time.",
			annot_section[v[0]->kind], it, it);
}

/*
 * What ran after init, for the variables of level K in V[0..N-1]: the
 * sentence of lib/evidence (ev_sentence()) for each, prefixed by its
 * name when the patch has several.  A module's bound= item is the same
 * for all its variables, so device-bound says it once.
 */
static void ran_sentences(struct sb *t, struct var **v, size_t n, int k)
{
	size_t i, d = 0;
	int named = var_nnames(v, n) > 1;

	for (i = 0; i < n; i++) {
		char *w;

		if (var_seen(v, i) || (int)v[i]->level != k)
			continue;
		if (k == EV_LEVEL_DEVICE_BOUND && d)
			break;
		w = ev_sentence(v[i]->verdict, v[i]->evidence);
		if (!w)
			continue;
		if (named && k != EV_LEVEL_DEVICE_BOUND)
			sb_addf(t, " For %s, %s.", v[i]->name, w);
		else
			sb_addf(t, " %c%s.", toupper((unsigned char)w[0]),
				w + 1);
		free(w);
		d++;
	}
}

/*
 * The validation paragraph of a commit message: how V[0..N-1] were
 * tested, one paragraph per evidence level present, in words.  This is
 * the one place the message says what ran; lib/evidence's sentence on
 * what ran after init belongs here when it is wired in.
 */
static void msg_validation_paragraph(struct sb *s, struct var **v, size_t n)
{
	unsigned int levels = 0;
	size_t i;
	int k, nlevels = 0;
	struct sb t;

	for (i = 0; i < n; i++)
		levels |= 1u << v[i]->level;
	for (k = 0; k < EV_LEVEL_NR; k++)
		nlevels += !!(levels & (1u << k));
	sb_init(&t);
	for (k = EV_LEVEL_FIRST; k < EV_LEVEL_NR; k++) {
		if (!(levels & (1u << k)))
			continue;
		t.len = 0;
		if (nlevels > 1) {
			names_list(&t, v, n, k);
			sb_add(&t, ": t");
		} else {
			sb_add(&t, "T");
		}
		sb_addf(&t, "ested (level: %s): ", ev_level_name(k));
		if (v[0]->kind != VK_RO)
			tested_init(&t, v, n, k);
		else if (k == EV_LEVEL_REACHED) {
			sb_addf(&t, "built into an x86_64 vmlinux and booted under QEMU with ro_after_init=warn, which reported no write, and with the protection on, each time through suspend/resume, CPU hotplug, module and sysfs/sysctl exercises.");
			ran_sentences(&t, v, n, k);
		} else if (k == EV_LEVEL_BOOTED)
			sb_addf(&t, "built into an x86_64 vmlinux and booted under QEMU with ro_after_init=warn, which reported no write, and with the protection on, each time through suspend/resume, CPU hotplug, module and sysfs/sysctl exercises. The boot did not reach %s code.",
				var_nnames(v, n) > 1 ? "their" : "its");
		else if (k == EV_LEVEL_DEVICE_BOUND) {
			sb_addf(&t, "built as the module %s (x86_64), which was loaded under QEMU with the emulated device it drives, with ro_after_init=warn, which reported no write, and with the protection on.",
				first_module(v, n));
			ran_sentences(&t, v, n, k);
		} else if (k == EV_LEVEL_MODULE_CYCLED)
			sb_addf(&t, "built as the module %s (x86_64), which was loaded under QEMU, its init returning 0, and unloaded, with ro_after_init=warn, which reported no write, and with the protection on.",
				first_module(v, n));
		else
			sb_addf(&t, "only compiled (x86_64): the symbol is in .data..ro_after_init, but no boot ran the code that uses it, so the change is not tested at run time.");
		sb_addc(s, '\n');
		sb_wrap(s, t.buf, "", "", WIDTH);
	}
	sb_free(&t);
}

void commit_msg(struct sb *s, struct sb *notes, const struct plan_opts *o,
		struct var **v, size_t n, const char *subj)
{
	size_t d = var_nnames(v, n);
	struct sb t;

	sb_init(&t);
	sb_addf(s, "%s\n\n", subj);
	names_list(&t, v, n, -1);
	if (v[0]->kind == VK_RO)
		sb_addf(&t, " %s set during boot and only read after that. Mark %s __ro_after_init, so that %s made read-only once init is done: a stray write later faults instead of silently changing %s.",
			d > 1 ? "are" : "is", d > 1 ? "them" : "it",
			d > 1 ? "they are" : "it is", d > 1 ? "them" : "it");
	else if (v[0]->kind == VK_INITDATA)
		sb_addf(&t, " %s read and written only by __init code, and never after boot. Mark %s __initdata, so that %s freed with the init sections once boot is done instead of taking memory for the life of the system.",
			d > 1 ? "are" : "is", d > 1 ? "them" : "it",
			d > 1 ? "they are" : "it is");
	else
		sb_addf(&t, " %s const and read only by __init code, and never after boot. Mark %s __initconst, so that %s freed with the init sections once boot is done instead of taking memory for the life of the system.",
			d > 1 ? "are" : "is", d > 1 ? "them" : "it",
			d > 1 ? "they are" : "it is");
	if (v[0]->kind == VK_RO)
		harm_sentences(&t, v, n);
	sb_wrap(s, t.buf, "", "", WIDTH);
	sb_addc(s, '\n');
	why_safe(s, o, v, n);
	sb_addc(s, '\n');
	sb_wrap(s, v[0]->kind == VK_RO ?
		"Found with ro-campaign, which uses Coccinelle to find the global variables that only init-only code writes, in the whole tree." :
		"Found with ro-campaign, which uses Coccinelle to find, in the whole tree, the static variables that only __init code reads and writes.",
		"", "", WIDTH);
	msg_validation_paragraph(s, v, n);
	sb_addf(s, "\nSigned-off-by: %s\n", o->signoff);

	notes_writers(notes, o, v, n);
	notes_validation(notes, o, v, n);
	sb_addc(notes, '\n');
	base_lines(notes, &o->base);
	sb_free(&t);
}
