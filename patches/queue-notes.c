// SPDX-License-Identifier: GPL-2.0
/*
 * queue-notes: what goes below a patch's --- line, where git am drops it
 * and the reviewer still reads it: every writer of each variable with
 * the finder's verdict, and the journal's evidence of its validation.
 */
#include <stdio.h>
#include <string.h>

#include "queue-msg.h"

/* "a,b,c" as "a, b, c". */
static void comma_list(struct sb *s, const char *list)
{
	for (; *list; list++) {
		sb_addc(s, *list);
		if (*list == ',')
			sb_addc(s, ' ');
	}
}

/*
 * One evidence item of the journal ("key=value") in words; SEC is the
 * section the section check found the symbol in.
 */
static void evidence_item(struct sb *t, const struct ev_item *it,
			  const char *sec)
{
	const char *val = it->value, *comma;

	if (!val) {
		sb_add(t, it->key);
		return;
	}
	comma = strchr(val, ',');
	if (!strcmp(it->key, "built") && comma) {
		sb_addf(t, "section check: the symbol is in %s of %.*s and of %s",
			sec, (int)(comma - val), val, comma + 1);
	} else if (!strcmp(it->key, "modpost") && !strcmp(val, "no-mismatch")) {
		sb_add(t, "modpost: no section mismatch names it (nothing outside the init sections refers to it)");
	} else if (!strcmp(it->key, "booted") && !strcmp(val, "warn,default")) {
		sb_add(t, "booted with ro_after_init=warn, which reported no write, then with the protection on");
	} else if (!strcmp(it->key, "booted")) {
		sb_add(t, "booted in mode ");
		comma_list(t, val);
	} else if (!strcmp(it->key, "exercised")) {
		sb_add(t, "exercises passed: ");
		comma_list(t, val);
	} else if (!strcmp(it->key, "cycled")) {
		sb_addf(t, "module %s loaded, its init returned 0, unloaded", val);
	} else if (!strcmp(it->key, "not-cycled")) {
		sb_addf(t, "module not cycled: %s", val);
	} else {
		sb_addf(t, "%s: ", it->key);
		comma_list(t, val);
	}
}

/* The journal's evidence as bullets, indented: never a line of its own. */
static void evidence_items(struct sb *s, const char *evidence,
			   const char *sec)
{
	struct ev_item *it;
	int n = ev_items_parse(evidence, &it), i;
	struct sb t;

	sb_init(&t);
	for (i = 0; i < n; i++) {
		/* the section is in the built= item's words */
		if (!strcmp(it[i].key, "section"))
			continue;
		t.len = 0;
		evidence_item(&t, &it[i], sec);
		sb_wrap(s, t.buf, "  - ", "    ", WIDTH);
	}
	sb_free(&t);
	ev_items_free(it, n);
}

static int same_validation(const struct var *a, const struct var *b)
{
	return !strcmp(a->evidence, b->evidence) &&
		!strcmp(a->batch, b->batch) &&
		!strcmp(a->config_hash, b->config_hash);
}

/* Every writer of each variable, with the finder's verdict. */
void notes_writers(struct sb *s, const struct plan_opts *o,
		   struct var **v, size_t n)
{
	struct sb t;
	size_t i;
	int k;

	sb_init(&t);
	for (i = 0; i < n; i++) {
		t.len = 0;
		if (i)
			sb_addc(s, '\n');
		if (v[i]->kind == VK_RO) {
			sb_addf(&t, "Writers of %s (%s:%ld), all init-only (finder: \"%s\", confidence %s):",
				v[i]->name, v[i]->file, v[i]->line,
				v[i]->reason, v[i]->conf);
			sb_wrap(s, t.buf, "", "", WIDTH);
		} else {
			/* the finder's reason may hold "code: ", so a bullet */
			if (v[i]->nw || v[i]->more)
				sb_addf(&t, "Writers of %s (%s:%ld), all in __init code; the finder's verdict first:",
					v[i]->name, v[i]->file, v[i]->line);
			else
				sb_addf(&t, "%s (%s:%ld) has no writers; the finder's verdict:",
					v[i]->name, v[i]->file, v[i]->line);
			sb_wrap(s, t.buf, "", "", WIDTH);
			t.len = 0;
			sb_addf(&t, "finder: %s", v[i]->reason);
			sb_wrap(s, t.buf, "  - ", "    ", WIDTH);
		}
		for (k = 0; k < v[i]->nw; k++)
			describe_writer(s, o->tree, &v[i]->w[k], "  ");
		if (v[i]->more)
			describe_more(s, v[i]->more, "  ");
	}
	describe_done();
	sb_free(&t);
}

/* The validation of each distinct (evidence, batch, config) of V. */
void notes_validation(struct sb *s, const struct plan_opts *o,
		      struct var **v, size_t n)
{
	size_t i, k, ndist = 0;
	struct sb t;

	for (i = 0; i < n; i++) {
		for (k = 0; k < i && !same_validation(v[k], v[i]); k++)
			;
		ndist += k == i;
	}
	sb_init(&t);
	for (i = 0; i < n; i++) {
		for (k = 0; k < i && !same_validation(v[k], v[i]); k++)
			;
		if (k < i)
			continue;
		t.len = 0;
		sb_add(&t, "Validation");
		if (ndist > 1)
			sb_addf(&t, " of %s", v[i]->name);
		sb_addf(&t, " (level: %s): ro-campaign's %s profile, x86_64, config_hash %s, batch %s; a boot counted only if the lkdtm WRITE_RO_AFTER_INIT control write was caught in it:",
			ev_level_name(v[i]->level), o->profile,
			v[i]->config_hash, v[i]->batch);
		sb_addc(s, '\n');
		sb_wrap(s, t.buf, "", "", WIDTH);
		evidence_items(s, v[i]->evidence, annot_section[v[i]->kind]);
	}
	sb_free(&t);
}
