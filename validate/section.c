// SPDX-License-Identifier: GPL-2.0
/*
 * section.c - the section check: a conversion the compiler never saw is
 * untested, so the built symbol must sit in the section of its annotation
 * (.data..ro_after_init; .init.data for __initdata, .init.rodata for
 * __initconst) of its object and of vmlinux or its module (elfcheck.c
 * reads the ELF files).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence.h"
#include "validate.h"

/*
 * The module (.ko, relative to O) an object is linked into, or NULL.
 * modules.order names a module by its .ko on 6.1 and by its .o on
 * 6.12; its .mod file lists the objects either way.
 */
static char *module_of(struct ctx *x, const char *obj)
{
	char *p = xasprintf("%s/modules.order", x->build_dir);
	char *order = read_file(p, NULL), *ko, *next = order, *r = NULL;

	free(p);
	while (!r && (ko = strsep(&next, "\n"))) {
		char *mod, *objs, *o, *on;
		size_t l;

		l = strlen(ko);
		if (l > 3 && !strcmp(ko + l - 3, ".ko"))
			l -= 3;
		else if (l > 2 && !strcmp(ko + l - 2, ".o"))
			l -= 2;
		else
			continue;
		mod = xasprintf("%s/%.*s.mod", x->build_dir, (int)l, ko);
		objs = read_file(mod, NULL);
		free(mod);
		for (o = objs; o && *o; o = on) {
			on = o + strcspn(o, "\n ");
			if (*on)
				*on++ = '\0';
			if (!strcmp(o, obj)) {
				r = xasprintf("%.*s.ko", (int)l, ko);
				break;
			}
		}
		free(objs);
	}
	free(order);
	return r;
}

/*
 * gcc keeps the section of an earlier declaration (a header's
 * __read_mostly, say) and only warns "ignoring attribute 'section' ...
 * because it conflicts with previous": that warning, if the last build
 * printed one at the candidate's file:line, else NULL.
 */
static char *section_warning(struct ctx *x, const struct cand *cd)
{
	char *p = xasprintf("%s/build.log", x->build_dir);
	char *buf = read_file(p, NULL), *line, *next = buf, *r = NULL;
	char *key = xasprintf("%s:%d:", cd->file, cd->line);

	free(p);
	while (!r && (line = strsep(&next, "\n"))) {
		/* from file:line on: the tree's absolute path is noise */
		if (strstr(line, key) && strstr(line, "conflicts with") &&
		    strstr(line, "section"))
			r = ev_one_line(strstr(line, key), 300);
	}
	free(key);
	free(buf);
	return r;
}

/* Decide not-built / rejected, or return 1 with the evidence in *ev. */
int section_check(struct ctx *x, int i, char **ev)
{
	struct cand *cd = &x->c->v[i];
	size_t l = strlen(cd->file);
	char where[256], *rel, *obj, *ko, *path, *e;
	const char *want = annot_section[cd->annot];
	enum sec_result r;

	if (l < 3 || strcmp(cd->file + l - 2, ".c")) {
		e = ev_notbuilt(EV_NB_NOT_C, "not a .c file, no object to check");
		record(x, cd, x->batch, V_NOTBUILT, e);
		free(e);
		return 0;
	}
	rel = xasprintf("%.*s.o", (int)(l - 2), cd->file);
	obj = xasprintf("%s/%s", x->build_dir, rel);
	r = elf_check_object(obj, cd->name, want, where, sizeof(where));
	if (r == SEC_NOFILE || r == SEC_MISSING) {
		enum ev_notbuilt k = EV_NB_COMPILED_OUT;
		char *why;

		if (r == SEC_NOFILE) {
			k = EV_NB_PROFILE;
			why = plan_reason(x, cd->file, &k);
			if (!why)
				why = xasprintf("%s is not compiled in profile %s",
						rel, x->profile);
		} else {
			why = xasprintf("no symbol %s in %s (compiled out)",
					cd->name, rel);
		}
		e = ev_notbuilt(k, why);
		free(why);
		record(x, cd, x->batch, V_NOTBUILT, e);
		goto out;
	}
	if (r != SEC_OK) {
		char *w = r == SEC_WRONG ? section_warning(x, cd) : NULL;

		if (r != SEC_WRONG)
			e = xasprintf("section: %s is not a readable ELF file", rel);
		else if (w)
			e = xasprintf("section: %s is in %s of %s, not %s: %s",
				      cd->name, where, rel, want, w);
		else
			e = xasprintf("section: %s is in %s of %s, not %s (annotation not applied?)",
				      cd->name, where, rel, want);
		free(w);
		record(x, cd, x->batch, V_REJECTED, e);
		goto out;
	}
	ko = module_of(x, rel);
	if (ko) {
		path = xasprintf("%s/%s", x->build_dir, ko);
		r = elf_check_object(path, cd->name, want, where,
				     sizeof(where));
	} else {
		path = xasprintf("%s/vmlinux", x->build_dir);
		r = elf_check_vmlinux(path, cd->name, cd->file, want, where,
				      sizeof(where));
	}
	free(path);
	if (r == SEC_OK) {
		/*
		 * An init-section conversion also names its section, and
		 * that modpost found no reference to it from code outside
		 * the init sections (build.c rejected it otherwise).
		 */
		if (cd->annot == AN_RO)
			*ev = xasprintf("built=%s,%s", rel,
					ko ? ko : "vmlinux");
		else
			*ev = xasprintf("built=%s,%s; section=%s; modpost=no-mismatch",
					rel, ko ? ko : "vmlinux", want);
		free(ko);
		free(obj);
		free(rel);
		return 1;
	}
	if (r == SEC_MISSING) {
		char *why = xasprintf("%s not linked into %s (discarded)",
				      cd->name, ko ? ko : "vmlinux");

		e = ev_notbuilt(EV_NB_DISCARDED, why);
		free(why);
	} else {
		e = xasprintf("section: %s is at %s in %s, outside %s",
			      cd->name, where, ko ? ko : "vmlinux",
			      cd->annot == AN_RO ? "ro_after_init" : "the init sections");
	}
	record(x, cd, x->batch,
		       r == SEC_MISSING ? V_NOTBUILT : V_REJECTED, e);
	free(ko);
out:
	free(e);
	free(obj);
	free(rel);
	return 0;
}
