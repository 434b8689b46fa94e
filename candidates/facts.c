// SPDX-License-Identifier: GPL-2.0
/*
 * facts: load and validate FACTS_DIR/{defs,writes,funcs,funcrefs,calls,
 * params,errors}.tsv, and features.tsv when there is one, with lib/tsv.h.  Every header must be exactly the one
 * of cocci/FACTS.md, columns are taken by name, and every value with a
 * fixed vocabulary is checked, so a change in the producer shows up as an
 * error here, not as a silent misclassification.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "facts.h"
#include "tsv.h"

const char *const form_names[F_NFORMS] = {
	"assign", "compound", "incdec", "field", "element",
	"addr", "array-arg", "memcpy", "asm", "initdata-addr",
	"pointee", "pointee-addr",
	"read", "unparsed", "type-field", "type-store", "type-pointee",
};

const char *const pkind_names[] = {
	"module_param", "core_param", "sysctl", "setup", "early_param", "debugfs",
	"arg", "alias", "member", "holder", "macro",
};

static const char *const attr_names[] = {
	"const", "read_mostly", "ro_after_init", "initdata", "initconst",
	"meminitdata", "percpu",
};

static const char *const storage_names[] = { "static", "global" };
static const char *const bool_names[] = { "0", "1" };

#define GROW(arr, n, cap) do {						\
	if ((n) == (cap)) {						\
		(cap) = (cap) ? (cap) * 2 : 4096;			\
		(arr) = xrealloc((arr), (cap) * sizeof(*(arr)));	\
	}								\
} while (0)

/* Column NAME of a file whose header tsv_expect() has checked. */
static int col(const struct tsv *t, const char *name)
{
	int c = tsv_need(t, name);

	if (c < 0)
		die(RC_HOST, "%s: column '%s' is not in the header", t->path,
		    name);
	return c;
}

/* Field C as one of NAMES into *OUT; -1 (reported) when it is not. */
static int enum_of(const struct tsv *t, int c, const char *const *names,
		   int n, uint8_t *out)
{
	int v = tsv_enum(t, c, names, n);

	if (v < 0)
		return -1;
	*out = (uint8_t)v;
	return 0;
}

static int line_of(const struct tsv *t, int c, uint32_t *out)
{
	long v;

	if (tsv_long(t, c, 1, UINT32_MAX - 1, &v))
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int parse_attrs(struct facts *f, const struct tsv *t, int c,
		       struct def *d)
{
	char *s = t->field[c], *tok, *save = NULL;
	size_t a;

	d->attrs = 0;
	d->section = STR_NONE;
	d->key_macro = STR_NONE;
	if (!strcmp(s, "-"))
		return 0;
	for (tok = strtok_r(s, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strncmp(tok, "section=", 8) && tok[8]) {
			d->attrs |= A_SECTION;
			d->section = strtab_intern(&f->strs, tok + 8);
			continue;
		}
		if (!strncmp(tok, "static_key=", 11) && tok[11]) {
			d->attrs |= A_STATIC_KEY;
			d->key_macro = strtab_intern(&f->strs, tok + 11);
			continue;
		}
		if (!strcmp(tok, "exported")) {
			d->attrs |= A_EXPORTED;
			continue;
		}
		for (a = 0; a < ARRAY_SIZE(attr_names); a++)
			if (!strcmp(tok, attr_names[a]))
				break;
		if (a == ARRAY_SIZE(attr_names)) {
			tsv_error(t, "column '%s': unknown attribute '%s'",
				  t->head[c], tok);
			return -1;
		}
		d->attrs |= 1u << a;
	}
	return 0;
}

static uint32_t str(struct facts *f, const struct tsv *t, int c)
{
	return strtab_intern(&f->strs, t->field[c]);
}

/* Field C must have a value, not '-'. */
static int need(const struct tsv *t, int c)
{
	if (!strcmp(t->field[c], "-")) {
		tsv_error(t, "column '%s' is missing ('-')", t->head[c]);
		return -1;
	}
	return 0;
}

/*
 * A repeated defs.tsv row is the same fact (FORMATS.md): keep its first
 * row only, or the variable would be judged, and written out, once per
 * copy.  The key is (file, line, name); the order of the rest is kept.
 */
static const struct def *dedup_defs;

static int def_key_cmp(const void *a, const void *b)
{
	const struct def *x = &dedup_defs[*(const uint32_t *)a];
	const struct def *y = &dedup_defs[*(const uint32_t *)b];

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->name != y->name)
		return x->name < y->name ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

static void drop_repeated_defs(struct facts *f)
{
	uint32_t *order, i, kept = 0;
	unsigned char *dup;

	if (f->ndefs < 2)
		return;
	order = xmalloc(f->ndefs * sizeof(*order));
	dup = xcalloc(f->ndefs, 1);
	for (i = 0; i < f->ndefs; i++)
		order[i] = i;
	dedup_defs = f->defs;
	qsort(order, f->ndefs, sizeof(*order), def_key_cmp);
	for (i = 1; i < f->ndefs; i++) {
		const struct def *p = &f->defs[order[i - 1]];
		const struct def *d = &f->defs[order[i]];

		if (p->file == d->file && p->line == d->line &&
		    p->name == d->name)
			dup[order[i]] = 1;
	}
	for (i = 0; i < f->ndefs; i++)
		if (!dup[i])
			f->defs[kept++] = f->defs[i];
	f->ndefs = kept;
	free(dup);
	free(order);
}

static int load_defs(struct facts *f, struct tsv *t)
{
	int c_file = col(t, "file"), c_line = col(t, "line");
	int c_name = col(t, "name"), c_storage = col(t, "storage");
	int c_type = col(t, "type"), c_array = col(t, "array");
	int c_attrs = col(t, "attrs"), c_init = col(t, "init");
	uint32_t cap = 0;
	int rc;

	while ((rc = tsv_next(t)) > 0) {
		struct def d;

		if (need(t, c_file) || line_of(t, c_line, &d.line) ||
		    need(t, c_name) ||
		    enum_of(t, c_storage, storage_names, 2, &d.storage) ||
		    enum_of(t, c_array, bool_names, 2, &d.array) ||
		    enum_of(t, c_init, bool_names, 2, &d.init) ||
		    parse_attrs(f, t, c_attrs, &d))
			return -1;
		d.file = str(f, t, c_file);
		d.name = str(f, t, c_name);
		d.type = str(f, t, c_type);
		GROW(f->defs, f->ndefs, cap);
		f->defs[f->ndefs++] = d;
	}
	if (!rc)
		drop_repeated_defs(f);
	return rc;
}

static int load_writes(struct facts *f, struct tsv *t)
{
	int c_file = col(t, "file"), c_line = col(t, "line");
	int c_var = col(t, "var"), c_func = col(t, "func");
	int c_form = col(t, "form");
	uint32_t cap = 0;
	int rc;

	while ((rc = tsv_next(t)) > 0) {
		struct write w;

		if (need(t, c_file) || line_of(t, c_line, &w.line) ||
		    need(t, c_var) ||
		    enum_of(t, c_form, form_names, F_NFORMS, &w.form))
			return -1;
		w.file = str(f, t, c_file);
		w.func = str(f, t, c_func);
		w.field = STR_NONE;
		if (w.form == F_TYPE_FIELD || w.form == F_TYPE_STORE ||
		    w.form == F_TYPE_POINTEE) {
			/* "struct foo->bar": the type and the field */
			char *v = t->field[c_var], *arrow = strstr(v, "->");

			while (arrow && strstr(arrow + 2, "->"))
				arrow = strstr(arrow + 2, "->");
			if (!arrow || arrow == v || !arrow[2] ||
			    w.func == STR_NONE) {
				tsv_error(t, "form %s wants var TYPE->FIELD and a function, not '%s'",
					  form_names[w.form], v);
				return -1;
			}
			*arrow = '\0';
			w.var = strtab_intern(&f->strs, v);
			w.field = strtab_intern(&f->strs, arrow + 2);
		} else {
			w.var = str(f, t, c_var);
		}
		GROW(f->writes, f->nwrites, cap);
		f->writes[f->nwrites++] = w;
	}
	return rc;
}

static int load_funcs(struct facts *f, struct tsv *t)
{
	int c_file = col(t, "file"), c_line = col(t, "line");
	int c_name = col(t, "name"), c_storage = col(t, "storage");
	int c_section = col(t, "section");
	uint32_t cap = 0;
	int rc;

	while ((rc = tsv_next(t)) > 0) {
		struct func fn;

		if (need(t, c_file) || line_of(t, c_line, &fn.line) ||
		    need(t, c_name) ||
		    enum_of(t, c_storage, storage_names, 2, &fn.storage))
			return -1;
		fn.file = str(f, t, c_file);
		fn.name = str(f, t, c_name);
		fn.section = str(f, t, c_section);
		GROW(f->funcs, f->nfuncs, cap);
		f->funcs[f->nfuncs++] = fn;
	}
	return rc;
}

static int load_funcrefs(struct facts *f, struct tsv *t)
{
	int c_file = col(t, "file"), c_line = col(t, "line");
	int c_name = col(t, "name"), c_func = col(t, "func");
	uint32_t cap = 0;
	int rc;

	while ((rc = tsv_next(t)) > 0) {
		struct funcref r;

		if (need(t, c_file) || line_of(t, c_line, &r.line) ||
		    need(t, c_name))
			return -1;
		r.file = str(f, t, c_file);
		r.name = str(f, t, c_name);
		r.func = str(f, t, c_func);
		GROW(f->funcrefs, f->nfuncrefs, cap);
		f->funcrefs[f->nfuncrefs++] = r;
	}
	return rc;
}

static int load_calls(struct facts *f, struct tsv *t)
{
	int c_file = col(t, "file"), c_line = col(t, "line");
	int c_caller = col(t, "caller"), c_callee = col(t, "callee");
	uint32_t cap = 0;
	int rc;

	while ((rc = tsv_next(t)) > 0) {
		struct call c;

		if (need(t, c_file) || line_of(t, c_line, &c.line) ||
		    need(t, c_callee))
			return -1;
		c.file = str(f, t, c_file);
		c.caller = str(f, t, c_caller);
		c.callee = str(f, t, c_callee);
		GROW(f->calls, f->ncalls, cap);
		f->calls[f->ncalls++] = c;
	}
	return rc;
}

static int load_params(struct facts *f, struct tsv *t)
{
	int c_file = col(t, "file"), c_line = col(t, "line");
	int c_var = col(t, "var"), c_kind = col(t, "kind");
	int c_perm = col(t, "perm"), c_handler = col(t, "handler");
	uint32_t cap = 0;
	int rc;

	while ((rc = tsv_next(t)) > 0) {
		struct param p;

		if (need(t, c_file) || line_of(t, c_line, &p.line) ||
		    enum_of(t, c_kind, pkind_names, ARRAY_SIZE(pkind_names),
			    &p.kind))
			return -1;
		/*
		 * module_param_call(create, set, get, (void *)MODE, perm):
		 * a callback parameter whose argument is no variable has
		 * nothing to judge (drivers/scsi/fcoe/fcoe_transport.c).
		 */
		if (p.kind == P_MODULE_PARAM && !strcmp(t->field[c_var], "-") &&
		    strcmp(t->field[c_handler], "-"))
			continue;
		if (need(t, (p.kind == P_SETUP || p.kind == P_EARLY) ?
			 c_handler : c_var))
			return -1;
		p.file = str(f, t, c_file);
		p.var = str(f, t, c_var);
		p.perm = str(f, t, c_perm);
		p.handler = str(f, t, c_handler);
		GROW(f->params, f->nparams, cap);
		f->params[f->nparams++] = p;
	}
	return rc;
}

static int load_errors(struct facts *f, struct tsv *t)
{
	int c_file = col(t, "file"), c_reason = col(t, "reason");
	uint32_t cap = 0;
	int rc;

	while ((rc = tsv_next(t)) > 0) {
		struct errrow e;

		if (need(t, c_file))
			return -1;
		e.file = str(f, t, c_file);
		e.reason = str(f, t, c_reason);
		GROW(f->errors, f->nerrors, cap);
		f->errors[f->nerrors++] = e;
	}
	return rc;
}

/*
 * features.tsv: "feature value" rows about the tree, not about a file.
 * A feature this program does not know is left alone (a newer producer);
 * a known one must have a known value.
 */
static int load_features(struct facts *f, struct tsv *t)
{
	static const char *const yes_no[] = { "no", "yes" };
	int c_feature = col(t, "feature"), c_value = col(t, "value");
	int rc;

	while ((rc = tsv_next(t)) > 0) {
		if (!strcmp(t->field[c_feature], "sealed_static_keys") &&
		    enum_of(t, c_value, yes_no, 2, &f->sealed_keys))
			return -1;
	}
	return rc;
}

/*
 * layouts.tsv: "type field trap file line", one row per type that embeds
 * what a keeper writes after init (cocci/layouts).  The first row of a
 * type wins.
 */
static int load_layouts(struct facts *f, struct tsv *t)
{
	int c_type = col(t, "type"), c_field = col(t, "field");
	int c_trap = col(t, "trap"), c_file = col(t, "file");
	int c_line = col(t, "line");
	uint32_t cap = 0;
	int rc;

	while ((rc = tsv_next(t)) > 0) {
		struct layout l;

		if (need(t, c_type) || need(t, c_trap) ||
		    line_of(t, c_line, &l.line))
			return -1;
		l.type = str(f, t, c_type);
		l.field = str(f, t, c_field);
		l.trap = str(f, t, c_trap);
		l.file = str(f, t, c_file);
		if (map_get(&f->layout_of, l.type) != MAP_NONE)
			continue;
		GROW(f->layouts, f->nlayouts, cap);
		map_put(&f->layout_of, l.type, f->nlayouts);
		f->layouts[f->nlayouts++] = l;
	}
	return rc;
}

/*
 * callers.tsv: "name defs calls callers caller file line via", one row
 * per function name whose every mention in the whole tree is a direct
 * call from init-only code, or a store into a member (via) that only
 * init-only code calls through (cocci/callers).  A name twice is an
 * error.
 */
static int load_callers(struct facts *f, struct tsv *t)
{
	int c_name = col(t, "name"), c_calls = col(t, "calls");
	int c_callers = col(t, "callers"), c_caller = col(t, "caller");
	int c_file = col(t, "file"), c_line = col(t, "line"), c_via = col(t, "via");
	uint32_t cap = 0;
	int rc;

	while ((rc = tsv_next(t)) > 0) {
		struct caller_row r;
		long calls, callers;

		if (need(t, c_name) || need(t, c_caller) || need(t, c_file) ||
		    tsv_long(t, c_calls, 1, UINT32_MAX - 1, &calls) ||
		    tsv_long(t, c_callers, 1, UINT32_MAX - 1, &callers) ||
		    line_of(t, c_line, &r.line))
			return -1;
		if (!is_identifier(t->field[c_name])) {
			tsv_error(t, "column 'name': '%s' is not a C identifier",
				  t->field[c_name]);
			return -1;
		}
		r.name = str(f, t, c_name);
		if (map_get(&f->caller_of, r.name) != MAP_NONE) {
			tsv_error(t, "'%s' has a row already", t->field[c_name]);
			return -1;
		}
		r.calls = calls;
		r.callers = callers;
		r.caller = str(f, t, c_caller);
		r.file = str(f, t, c_file);
		r.via = strcmp(t->field[c_via], "-") ? str(f, t, c_via) : STR_NONE;
		GROW(f->callers, f->ncallers, cap);
		map_put(&f->caller_of, r.name, f->ncallers);
		f->callers[f->ncallers++] = r;
	}
	return rc;
}

/*
 * protos.tsv: "name arg file line", one row per argument that every
 * declaration of the function takes as a pointer to const (cocci/protos).
 */
static int load_protos(struct facts *f, struct tsv *t)
{
	int c_name = col(t, "name"), c_arg = col(t, "arg");
	int c_file = col(t, "file"), c_line = col(t, "line");
	uint32_t cap = 0;
	long arg;
	int rc;

	while ((rc = tsv_next(t)) > 0) {
		struct proto p;

		if (need(t, c_name) || need(t, c_file) ||
		    (strcmp(t->field[c_arg], "-") &&
		     tsv_long(t, c_arg, 0, 63, &arg)) ||
		    line_of(t, c_line, &p.line))
			return -1;
		p.name = str(f, t, c_name);
		p.arg = strcmp(t->field[c_arg], "-") ? (uint32_t)arg : PROTO_MEMBER;
		p.file = str(f, t, c_file);
		if (map_get(&f->proto_of, map_key(p.name, p.arg)) != MAP_NONE)
			continue;
		GROW(f->protos, f->nprotos, cap);
		map_put(&f->proto_of, map_key(p.name, p.arg), f->nprotos);
		f->protos[f->nprotos++] = p;
	}
	return rc;
}

/*
 * decls.tsv: "file line name attr", one row per variable that an extern
 * declaration places in a section (run-facts.sh).  The first row of a
 * name wins.
 */
static int load_decls(struct facts *f, struct tsv *t)
{
	int c_file = col(t, "file"), c_line = col(t, "line");
	int c_name = col(t, "name"), c_attr = col(t, "attr");
	uint32_t cap = 0;
	int rc;

	while ((rc = tsv_next(t)) > 0) {
		struct decl dc;

		if (need(t, c_file) || need(t, c_name) || need(t, c_attr) ||
		    line_of(t, c_line, &dc.line))
			return -1;
		dc.file = str(f, t, c_file);
		dc.name = str(f, t, c_name);
		dc.attr = str(f, t, c_attr);
		if (map_get(&f->decl_of, dc.name) != MAP_NONE)
			continue;
		GROW(f->decls, f->ndecls, cap);
		map_put(&f->decl_of, dc.name, f->ndecls);
		f->decls[f->ndecls++] = dc;
	}
	return rc;
}

/* The headers of cocci/FACTS.md, exactly. */
struct fact_file {
	const char *name;
	const char *cols[8];
	int ncols;
	int (*load)(struct facts *f, struct tsv *t);
	/* absent: no feature, no derived trap, no whole-tree callers */
	int optional;
};

static const struct fact_file files[] = {
	{ "defs.tsv", { "file", "line", "name", "storage", "type", "array",
			"attrs", "init" }, 8, load_defs, 0 },
	{ "writes.tsv", { "file", "line", "var", "func", "form" }, 5,
	  load_writes, 0 },
	{ "funcs.tsv", { "file", "line", "name", "storage", "section" }, 5,
	  load_funcs, 0 },
	{ "funcrefs.tsv", { "file", "line", "name", "func" }, 4,
	  load_funcrefs, 0 },
	{ "calls.tsv", { "file", "line", "caller", "callee" }, 4, load_calls, 0 },
	{ "params.tsv", { "file", "line", "var", "kind", "perm", "handler" },
	  6, load_params, 0 },
	{ "errors.tsv", { "file", "reason" }, 2, load_errors, 0 },
	{ "features.tsv", { "feature", "value" }, 2, load_features, 1 },
	{ "layouts.tsv", { "type", "field", "trap", "file", "line" }, 5,
	  load_layouts, 1 },
	{ "callers.tsv", { "name", "defs", "calls", "callers", "caller", "file",
			  "line", "via" }, 8, load_callers, 1 },
	{ "protos.tsv", { "name", "arg", "file", "line" }, 4, load_protos, 1 },
	{ "decls.tsv", { "file", "line", "name", "attr" }, 4, load_decls, 1 },
};

int facts_load(struct facts *f, const char *dir)
{
	size_t i;
	int err;

	memset(f, 0, sizeof(*f));
	strtab_init(&f->strs);
	map_init(&f->layout_of);
	map_init(&f->caller_of);
	map_init(&f->proto_of);
	map_init(&f->decl_of);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		char *path = xasprintf("%s/%s", dir, files[i].name);
		struct tsv t;
		int rc;

		if (files[i].optional && access(path, F_OK) && errno == ENOENT) {
			free(path);
			continue;
		}
		rc = tsv_open(&t, path, 0);
		if (!rc)
			rc = tsv_expect(&t, files[i].cols, files[i].ncols);
		if (!rc)
			rc = files[i].load(f, &t);
		err = t.sys_errno;
		tsv_close(&t);
		free(path);
		if (rc < 0)
			return err && err != ENOENT ? RC_HOST : RC_DATA;
	}
	return 0;
}

int regs_load(struct facts *f, const char *path)
{
	static const char *const cols[] = {
		"kind", "callee", "arg", "writes", "citation",
	};
	static const char *const kinds[] = { "arg", "store", "init-table" };
	struct tsv t;
	uint32_t cap = 0;
	int rc, err, c_kind, c_callee, c_arg, c_writes, c_cite;

	rc = tsv_open(&t, path, 0);
	if (!rc)
		rc = tsv_expect(&t, cols, ARRAY_SIZE(cols));
	if (!rc) {
		c_kind = col(&t, "kind");
		c_callee = col(&t, "callee");
		c_arg = col(&t, "arg");
		c_writes = col(&t, "writes");
		c_cite = col(&t, "citation");
		while ((rc = tsv_next(&t)) > 0) {
			struct reg r;
			long a;

			if (enum_of(&t, c_kind, kinds, ARRAY_SIZE(kinds), &r.kind) ||
			    need(&t, c_callee) || need(&t, c_writes) ||
			    need(&t, c_cite)) {
				rc = -1;
				break;
			}
			if (r.kind == R_ARG &&
			    tsv_long(&t, c_arg, 0, 63, &a)) {
				rc = -1;
				break;
			}
			if (r.kind == R_STORE &&
			    !strstr(t.field[c_callee], "->")) {
				tsv_error(&t, "a store row names TYPE->FIELD, not '%s'",
					  t.field[c_callee]);
				rc = -1;
				break;
			}
			r.callee = str(f, &t, c_callee);
			r.arg = str(f, &t, c_arg);
			r.writes = str(f, &t, c_writes);
			r.cite = str(f, &t, c_cite);
			GROW(f->regs, f->nregs, cap);
			f->regs[f->nregs++] = r;
		}
	}
	err = t.sys_errno;
	tsv_close(&t);
	if (rc < 0)
		return err && err != ENOENT ? RC_HOST : RC_DATA;
	return 0;
}
