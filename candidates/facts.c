// SPDX-License-Identifier: GPL-2.0
/*
 * facts: load and validate FACTS_DIR/{defs,writes,funcs,funcrefs,calls,
 * params,errors}.tsv.  Every value with a fixed vocabulary is checked, so
 * a change in the producer shows up as an error here, not as a silent
 * misclassification.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts.h"
#include "tsv.h"

const char *const form_names[F_NFORMS] = {
	"assign", "compound", "incdec", "field", "element",
	"addr", "array-arg", "memcpy", "asm", "initdata-addr",
};

const char *const pkind_names[] = {
	"module_param", "core_param", "sysctl", "setup", "early_param",
};

static const char *const attr_names[] = {
	"const", "read_mostly", "ro_after_init", "initdata", "initconst",
	"meminitdata", "percpu",
};

#define GROW(arr, n, cap) do {						\
	if ((n) == (cap)) {						\
		(cap) = (cap) ? (cap) * 2 : 4096;			\
		(arr) = xrealloc((arr), (cap) * sizeof(*(arr)));	\
	}								\
} while (0)

static int lookup(const char *s, const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (!strcmp(s, names[i]))
			return i;
	}
	return -1;
}

static int parse_storage(const struct tsv *t, int col, uint8_t *out)
{
	const char *s = t->field[col];

	if (!strcmp(s, "static")) {
		*out = ST_STATIC;
	} else if (!strcmp(s, "global")) {
		*out = ST_GLOBAL;
	} else {
		tsv_error(t, "storage must be static or global, not '%s'", s);
		return -1;
	}
	return 0;
}

static int parse_bool(const struct tsv *t, int col, uint8_t *out)
{
	const char *s = t->field[col];

	if (strcmp(s, "0") && strcmp(s, "1")) {
		tsv_error(t, "field %d must be 0 or 1, not '%s'", col + 1, s);
		return -1;
	}
	*out = s[0] == '1';
	return 0;
}

static int parse_attrs(struct facts *f, const struct tsv *t, struct def *d)
{
	char *s = t->field[6], *tok, *save = NULL;
	int a;

	d->attrs = 0;
	d->section = STR_NONE;
	if (!strcmp(s, "-"))
		return 0;
	for (tok = strtok_r(s, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strncmp(tok, "section=", 8) && tok[8]) {
			d->attrs |= A_SECTION;
			d->section = strtab_intern(&f->strs, tok + 8);
			continue;
		}
		a = lookup(tok, attr_names, 7);
		if (a < 0) {
			tsv_error(t, "unknown attribute '%s'", tok);
			return -1;
		}
		d->attrs |= 1u << a;
	}
	return 0;
}

static int line_of(const struct tsv *t, int col, uint32_t *out)
{
	long v = tsv_lineno(t, col);

	if (v < 0)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static uint32_t str(struct facts *f, const struct tsv *t, int col)
{
	return strtab_intern(&f->strs, t->field[col]);
}

static int need(const struct tsv *t, int col, const char *what)
{
	if (!strcmp(t->field[col], "-")) {
		tsv_error(t, "%s is missing ('-')", what);
		return -1;
	}
	return 0;
}

static int load_defs(struct facts *f, struct tsv *t)
{
	uint32_t cap = 0;
	int rc;

	while ((rc = tsv_next(t)) > 0) {
		struct def d;

		if (need(t, 0, "file") || line_of(t, 1, &d.line) ||
		    need(t, 2, "name") || parse_storage(t, 3, &d.storage) ||
		    parse_bool(t, 5, &d.array) || parse_bool(t, 7, &d.init) ||
		    parse_attrs(f, t, &d))
			return -1;
		d.file = str(f, t, 0);
		d.name = str(f, t, 2);
		d.type = str(f, t, 4);
		GROW(f->defs, f->ndefs, cap);
		f->defs[f->ndefs++] = d;
	}
	return rc;
}

static int load_writes(struct facts *f, struct tsv *t)
{
	uint32_t cap = 0;
	int rc, form;

	while ((rc = tsv_next(t)) > 0) {
		struct write w;

		if (need(t, 0, "file") || line_of(t, 1, &w.line) ||
		    need(t, 2, "var"))
			return -1;
		form = lookup(t->field[4], form_names, F_NFORMS);
		if (form < 0) {
			tsv_error(t, "unknown write form '%s'", t->field[4]);
			return -1;
		}
		w.form = (uint8_t)form;
		w.file = str(f, t, 0);
		w.var = str(f, t, 2);
		w.func = str(f, t, 3);
		GROW(f->writes, f->nwrites, cap);
		f->writes[f->nwrites++] = w;
	}
	return rc;
}

static int load_funcs(struct facts *f, struct tsv *t)
{
	uint32_t cap = 0;
	int rc;

	while ((rc = tsv_next(t)) > 0) {
		struct func fn;

		if (need(t, 0, "file") || line_of(t, 1, &fn.line) ||
		    need(t, 2, "name") || parse_storage(t, 3, &fn.storage))
			return -1;
		fn.file = str(f, t, 0);
		fn.name = str(f, t, 2);
		fn.section = str(f, t, 4);
		GROW(f->funcs, f->nfuncs, cap);
		f->funcs[f->nfuncs++] = fn;
	}
	return rc;
}

static int load_funcrefs(struct facts *f, struct tsv *t)
{
	uint32_t cap = 0;
	int rc;

	while ((rc = tsv_next(t)) > 0) {
		struct funcref r;

		if (need(t, 0, "file") || line_of(t, 1, &r.line) ||
		    need(t, 2, "name"))
			return -1;
		r.file = str(f, t, 0);
		r.name = str(f, t, 2);
		r.func = str(f, t, 3);
		GROW(f->funcrefs, f->nfuncrefs, cap);
		f->funcrefs[f->nfuncrefs++] = r;
	}
	return rc;
}

static int load_calls(struct facts *f, struct tsv *t)
{
	uint32_t cap = 0;
	int rc;

	while ((rc = tsv_next(t)) > 0) {
		struct call c;

		if (need(t, 0, "file") || line_of(t, 1, &c.line) ||
		    need(t, 3, "callee"))
			return -1;
		c.file = str(f, t, 0);
		c.caller = str(f, t, 2);
		c.callee = str(f, t, 3);
		GROW(f->calls, f->ncalls, cap);
		f->calls[f->ncalls++] = c;
	}
	return rc;
}

static int load_params(struct facts *f, struct tsv *t)
{
	uint32_t cap = 0;
	int rc, kind;

	while ((rc = tsv_next(t)) > 0) {
		struct param p;

		if (need(t, 0, "file") || line_of(t, 1, &p.line))
			return -1;
		kind = lookup(t->field[3], pkind_names, 5);
		if (kind < 0) {
			tsv_error(t, "unknown param kind '%s'", t->field[3]);
			return -1;
		}
		p.kind = (uint8_t)kind;
		/*
		 * module_param_call(create, set, get, (void *)MODE, perm):
		 * a callback parameter whose argument is no variable has
		 * nothing to judge (drivers/scsi/fcoe/fcoe_transport.c).
		 */
		if (kind == P_MODULE_PARAM && !strcmp(t->field[2], "-") &&
		    strcmp(t->field[5], "-"))
			continue;
		if ((kind == P_SETUP || kind == P_EARLY) ?
		    need(t, 5, "handler") : need(t, 2, "var"))
			return -1;
		p.file = str(f, t, 0);
		p.var = str(f, t, 2);
		p.perm = str(f, t, 4);
		p.handler = str(f, t, 5);
		GROW(f->params, f->nparams, cap);
		f->params[f->nparams++] = p;
	}
	return rc;
}

static int load_errors(struct facts *f, struct tsv *t)
{
	uint32_t cap = 0;
	int rc;

	while ((rc = tsv_next(t)) > 0) {
		struct errrow e;

		if (need(t, 0, "file"))
			return -1;
		e.file = str(f, t, 0);
		e.reason = str(f, t, 1);
		GROW(f->errors, f->nerrors, cap);
		f->errors[f->nerrors++] = e;
	}
	return rc;
}

struct fact_file {
	const char *name;
	const char *cols[8];
	int ncols;
	int (*load)(struct facts *f, struct tsv *t);
};

static const struct fact_file files[] = {
	{ "defs.tsv", { "file", "line", "name", "storage", "type", "array",
			"attrs", "init" }, 8, load_defs },
	{ "writes.tsv", { "file", "line", "var", "func", "form" }, 5,
	  load_writes },
	{ "funcs.tsv", { "file", "line", "name", "storage", "section" }, 5,
	  load_funcs },
	{ "funcrefs.tsv", { "file", "line", "name", "func" }, 4,
	  load_funcrefs },
	{ "calls.tsv", { "file", "line", "caller", "callee" }, 4, load_calls },
	{ "params.tsv", { "file", "line", "var", "kind", "perm", "handler" },
	  6, load_params },
	{ "errors.tsv", { "file", "reason" }, 2, load_errors },
};

int facts_load(struct facts *f, const char *dir)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	strtab_init(&f->strs);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		size_t len = strlen(dir) + strlen(files[i].name) + 2;
		char *path = xmalloc(len);
		struct tsv t;
		int rc;

		snprintf(path, len, "%s/%s", dir, files[i].name);
		rc = tsv_open(&t, path, files[i].cols, files[i].ncols);
		if (!rc)
			rc = files[i].load(f, &t);
		tsv_close(&t);
		free(path);
		if (rc < 0)
			return -1;
	}
	return 0;
}
