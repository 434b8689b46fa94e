// SPDX-License-Identifier: GPL-2.0
/*
 * value: what a variable protects, for candidates.tsv's value column
 * (FORMATS.md).  The first rule that holds decides:
 *
 *   fn-pointer      a function pointer (its declaration, a typedef of a
 *                   function type, a call through it), a struct that
 *                   holds one by value (members of members too), or a
 *                   pointer to an ops table or to such a struct
 *   object-pointer  a pointer to a struct, union, pointer or table
 *                   (not a string), or a struct that holds one by value;
 *                   a static key is a switch, whatever its struct holds
 *   bound           a shift count, a mask, a loop bound, an allocation
 *                   size or part of an index expression (uses.tsv)
 *   policy          a file of a security or hardening area (areas[])
 *                   whose code tests it in a condition after init (in a
 *                   function that is not init-only: a runtime check)
 *   param           a module_param/core_param, or written by a __setup
 *                   or early_param handler
 *   setting         anything else
 *
 * The type comes from defs.tsv and valtypes.tsv (cocci/layouts
 * --values), the uses from uses.tsv (cocci/facts.cocci's text pass).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "value.h"
#include "tsv.h"

const char *const value_names[V_NVALUES] = {
	"fn-pointer", "object-pointer", "bound", "policy", "param", "setting",
};

/* uses.tsv kinds */
enum use {
	U_CALL, U_INDEX, U_SUBSCRIPT, U_SHIFT, U_MASK, U_LOOP, U_SIZE, U_COND,
	U_FNPTR, U_NUSES
};
static const char *const use_names[U_NUSES] = {
	"call", "index", "subscript", "shift", "mask", "loop", "size", "cond",
	"fnptr",
};
/* a cond use in a function that is not init-only: a runtime check */
#define U_RCOND		U_NUSES
#define U_BOUNDS ((1u << U_INDEX) | (1u << U_SHIFT) | (1u << U_MASK) | \
		  (1u << U_LOOP) | (1u << U_SIZE))

/* valtypes.tsv kinds */
enum vt { VT_FNTYPE, VT_FN, VT_OPS, VT_OPSPTR, VT_OBJPTR, VT_N };
static const char *const vt_names[VT_N] = {
	"fntype", "fn", "ops", "ops-pointer", "object-pointer",
};

/*
 * Security and hardening areas: LSMs and lockdown, the speculation
 * mitigations, PTI, TSX, CET, kfence, KASAN, hardened usercopy, module
 * signatures.  A prefix ending in '/' is a directory; any other names a
 * file ("arch/" + any architecture for the bugs.c files).
 */
static const char *const areas[] = {
	"security/", "arch/x86/kernel/cpu/bugs.c", "arch/arm64/kernel/proton-pack.c",
	"arch/powerpc/kernel/security.c", "arch/x86/mm/pti.c",
	"arch/x86/kernel/cpu/tsx.c", "arch/x86/kernel/cet.c", "mm/kfence/",
	"mm/kasan/", "mm/usercopy.c", "kernel/module/signing.c",
	"kernel/stackleak.c",
};

struct vinfo {
	uint8_t value;
	char why[200];
};

static struct vinfo *info;
static uint32_t ninfo;

struct vtype {
	uint8_t has[VT_N];
	char field[VT_N][96];
};

struct vstate {
	const struct facts *f;
	const struct graph *g;
	struct strtab types;	/* valtypes.tsv names */
	struct vtype *vt;
	uint32_t nvt;
	uint32_t *uses;		/* per def: bits of enum use */
	uint32_t *use_line;	/* per def and use: the first line */
	struct map def_at;	/* (file, name) -> first def */
	uint32_t *def_next;	/* the next def of that (file, name) */
	struct map setup_fn;	/* (file, handler) -> 1 */
};

const char *value_of(uint32_t d)
{
	return d < ninfo ? value_names[info[d].value] : "setting";
}

const char *value_why(uint32_t d)
{
	return d < ninfo ? info[d].why : "-";
}

/* Open DIR/NAME into T (*PATH: free it after tsv_close()); 1 if absent. */
static int open_opt(struct tsv *t, const char *dir, const char *name,
		    const char *const *cols, int ncols, char **path, int *rc)
{
	*path = xasprintf("%s/%s", dir, name);
	if (access(*path, F_OK) && errno == ENOENT) {
		free(*path);
		*path = NULL;
		return 1;
	}
	*rc = tsv_open(t, *path, 0);
	if (!*rc)
		*rc = tsv_expect(t, cols, ncols);
	return 0;
}

static int load_valtypes(struct vstate *s, const char *dir)
{
	static const char *const cols[] = {
		"type", "kind", "field", "file", "line",
	};
	struct tsv t;
	char *path;
	int rc, k;
	uint32_t cap = 0;

	if (open_opt(&t, dir, "valtypes.tsv", cols, 5, &path, &rc))
		return 0;
	while (rc >= 0 && (rc = tsv_next(&t)) > 0) {
		uint32_t id;

		k = tsv_enum(&t, 1, vt_names, VT_N);
		if (k < 0) {
			rc = -1;
			break;
		}
		id = strtab_intern(&s->types, t.field[0]);
		while (id >= s->nvt) {
			if (s->nvt == cap) {
				cap = cap ? cap * 2 : 4096;
				s->vt = xrealloc(s->vt, cap * sizeof(*s->vt));
			}
			memset(&s->vt[s->nvt], 0, sizeof(*s->vt));
			s->nvt++;
		}
		if (s->vt[id].has[k])
			continue;
		s->vt[id].has[k] = 1;
		snprintf(s->vt[id].field[k], sizeof(s->vt[id].field[k]), "%s",
			 t.field[2]);
	}
	k = t.sys_errno;
	tsv_close(&t);
	free(path);
	if (rc < 0)
		return k && k != ENOENT ? RC_HOST : RC_DATA;
	return 0;
}

static void use_add(struct vstate *s, uint32_t file, uint32_t name, int k,
		    long line)
{
	uint32_t d;

	for (d = map_get(&s->def_at, map_key(file, name)); d != MAP_NONE;
	     d = s->def_next[d]) {
		if (!(s->uses[d] & (1u << k)))
			s->use_line[d * (U_NUSES + 1) + k] = (uint32_t)line;
		s->uses[d] |= 1u << k;
	}
}

/* FUNC of FILE is init-only (closure.c); an unknown function is not. */
static int init_only(const struct vstate *s, uint32_t file, uint32_t func)
{
	uint32_t n = func == STR_NONE ? MAP_NONE :
		graph_node(s->g, file, func);

	return n != MAP_NONE && s->g->nodes[n].init_only;
}

static int load_uses(struct vstate *s, const char *dir)
{
	static const char *const cols[] = {
		"file", "line", "var", "func", "use",
	};
	const struct strtab *st = &s->f->strs;
	struct tsv t;
	char *path;
	int rc, k;

	if (open_opt(&t, dir, "uses.tsv", cols, 5, &path, &rc))
		return 0;
	while (rc >= 0 && (rc = tsv_next(&t)) > 0) {
		uint32_t file, name;
		long line;

		k = tsv_enum(&t, 4, use_names, U_NUSES);
		if (k < 0 || tsv_long(&t, 1, 1, 4294967294L, &line) ||
		    tsv_path(&t, 0) || tsv_ident(&t, 2)) {
			rc = -1;
			break;
		}
		file = strtab_find(st, t.field[0]);
		name = strtab_find(st, t.field[2]);
		if (file == STR_NONE || name == STR_NONE)
			continue;
		if (k == U_COND && !init_only(s, file, strtab_find(st, t.field[3])))
			use_add(s, file, name, U_RCOND, line);
		use_add(s, file, name, k, line);
	}
	k = t.sys_errno;
	tsv_close(&t);
	free(path);
	if (rc < 0)
		return k && k != ENOENT ? RC_HOST : RC_DATA;
	return 0;
}

static int in_area(const char *file)
{
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(areas); i++) {
		n = strlen(areas[i]);
		if (areas[i][n - 1] == '/' ? !strncmp(file, areas[i], n) :
		    !strcmp(file, areas[i]))
			return 1;
	}
	return 0;
}

/*
 * The declared type, parsed: the base type name ("struct foo", "u32",
 * "unsigned long"), the pointer depth, whether it is a function pointer.
 */
struct ptype {
	char base[128];
	int stars, fn;
};

static void parse_type(const char *type, struct ptype *p)
{
	static const char *const drop[] = {
		"const", "volatile", "static", "extern", "__rcu", "__percpu",
		"__iomem", "__user", "__force", "register", "inline",
	};
	char buf[256], *tok, *save = NULL;
	size_t i;

	memset(p, 0, sizeof(*p));
	/* void ( * [ 4 ] ) ( void ): an array of function pointers */
	if (strchr(type, '('))
		p->fn = 1;
	snprintf(buf, sizeof(buf), "%s", type);
	for (tok = strtok_r(buf, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		char *star;
		int skip = 0;

		for (star = tok; *star; star++) {
			if (*star == '*')
				p->stars++;
		}
		if (*tok == '*' || *tok == '[' || *tok == ']' || *tok == '(' ||
		    *tok == ')' || isdigit((unsigned char)*tok))
			continue;
		star = strpbrk(tok, "*[");
		if (star)
			*star = '\0';
		for (i = 0; i < ARRAY_SIZE(drop); i++)
			skip |= !strcmp(tok, drop[i]);
		if (skip || !*tok || strchr(tok, '{'))
			continue;
		if (strlen(p->base) + strlen(tok) + 2 < sizeof(p->base)) {
			if (*p->base)
				strcat(p->base, " ");
			strcat(p->base, tok);
		}
	}
}

static const struct vtype *vtype_of(const struct vstate *s, const char *base)
{
	uint32_t id = strtab_find(&s->types, base);

	return id == STR_NONE || id >= s->nvt ? NULL : &s->vt[id];
}

static int is_char(const char *base)
{
	return !strcmp(base, "char") || !strcmp(base, "signed char") ||
		!strcmp(base, "unsigned char");
}

/* A module_param, core_param, or a write by a __setup/early_param handler. */
static int param_of(const struct judge *j, const struct vstate *s, uint32_t d,
		    char *why, size_t len)
{
	const struct facts *f = j->f;
	uint32_t i;

	for (i = j->ev_start[d]; i < j->ev_start[d + 1]; i++) {
		const struct event *e = &j->ev[i];
		const struct param *p = e->is_param ? &f->params[e->idx] : NULL;
		const struct write *w = e->is_param ? NULL : &f->writes[e->idx];

		if (p) {
			if (p->kind != P_MODULE_PARAM && p->kind != P_CORE_PARAM)
				continue;
			snprintf(why, len, "%s at %s:%u", pkind_names[p->kind],
				 strtab_str(&f->strs, p->file), p->line);
			return 1;
		}
		if (w->func == STR_NONE ||
		    map_get(&s->setup_fn, map_key(w->file, w->func)) == MAP_NONE)
			continue;
		snprintf(why, len, "written by the boot parameter handler %s (%s:%u)",
			 strtab_str(&f->strs, w->func),
			 strtab_str(&f->strs, w->file), w->line);
		return 1;
	}
	return 0;
}

static const char *uses_text(const struct vstate *s, uint32_t d, uint32_t mask,
			     char *buf, size_t len)
{
	size_t n = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; k <= U_NUSES && n < len; k++) {
		if (!(s->uses[d] & mask & (1u << k)))
			continue;
		n += snprintf(buf + n, len - n, "%s%s at line %u", n ? ", " : "",
			      k == U_RCOND ? "runtime cond" : use_names[k],
			      s->use_line[d * (U_NUSES + 1) + k]);
	}
	return buf;
}

static void decide(const struct judge *j, const struct vstate *s, uint32_t d,
		   struct vinfo *vi)
{
	const struct facts *f = j->f;
	const struct def *df = &f->defs[d];
	const char *type = strtab_str(&f->strs, df->type);
	const char *file = strtab_str(&f->strs, df->file);
	const struct vtype *vt;
	struct ptype p;
	char u[120], why[160];

	parse_type(type, &p);
	vt = vtype_of(s, p.base);
	if (df->attrs & A_STATIC_KEY) {
		/* a switch: its entries pointer is the jump label code's */
		vt = NULL;
		p.fn = p.stars = 0;
	}
	if (p.fn || (s->uses[d] & (1u << U_FNPTR))) {
		vi->value = V_FN;
		snprintf(vi->why, sizeof(vi->why), "a function pointer (%s)",
			 p.fn ? type : "declared (*name)(...)");
		return;
	}
	if (vt && vt->has[VT_FNTYPE]) {
		vi->value = V_FN;
		snprintf(vi->why, sizeof(vi->why), "%s is a function type", p.base);
		return;
	}
	if (p.stars && vt && vt->has[VT_OPS] && p.stars == 1) {
		vi->value = V_FN;
		snprintf(vi->why, sizeof(vi->why),
			 "points to an ops table (%s: function pointers, first %s)",
			 p.base, vt->field[VT_FN]);
		return;
	}
	if (!p.stars && vt && (vt->has[VT_FN] || vt->has[VT_OPSPTR])) {
		int k = vt->has[VT_FN] ? VT_FN : VT_OPSPTR;

		vi->value = V_FN;
		snprintf(vi->why, sizeof(vi->why), "%s holds %s %s", p.base,
			 k == VT_FN ? "the function pointer" :
			 "the ops table pointer", vt->field[k]);
		return;
	}
	if (s->uses[d] & (1u << U_CALL)) {
		vi->value = V_FN;
		snprintf(vi->why, sizeof(vi->why), "called through (%s)",
			 uses_text(s, d, 1u << U_CALL, u, sizeof(u)));
		return;
	}
	if (p.stars && (p.stars > 1 || !is_char(p.base))) {
		vi->value = V_OBJECT;
		snprintf(vi->why, sizeof(vi->why), "points to %s%s", p.base,
			 p.stars > 1 ? " pointers" : "");
		return;
	}
	if (!p.stars && vt && vt->has[VT_OBJPTR]) {
		vi->value = V_OBJECT;
		snprintf(vi->why, sizeof(vi->why), "%s holds the pointer %s",
			 p.base, vt->field[VT_OBJPTR]);
		return;
	}
	if (!p.stars && (s->uses[d] & U_BOUNDS)) {
		vi->value = V_BOUND;
		snprintf(vi->why, sizeof(vi->why), "bounds an access (%s)",
			 uses_text(s, d, U_BOUNDS, u, sizeof(u)));
		return;
	}
	if (!p.stars && in_area(file) && (s->uses[d] & (1u << U_RCOND))) {
		vi->value = V_POLICY;
		snprintf(vi->why, sizeof(vi->why),
			 "a security or hardening area's switch (%s)",
			 uses_text(s, d, 1u << U_RCOND, u, sizeof(u)));
		return;
	}
	if (param_of(j, s, d, why, sizeof(why))) {
		vi->value = V_PARAM;
		snprintf(vi->why, sizeof(vi->why), "%s", why);
		return;
	}
	vi->value = V_SETTING;
	snprintf(vi->why, sizeof(vi->why), "%s", p.stars ? "a string" :
		 "no pointer, bound, policy or parameter");
}

int value_all(const struct judge *j, const char *dir)
{
	const struct facts *f = j->f;
	struct vstate s;
	uint32_t d, i;
	int rc;

	memset(&s, 0, sizeof(s));
	s.f = f;
	s.g = j->g;
	strtab_init(&s.types);
	map_init(&s.def_at);
	map_init(&s.setup_fn);
	s.uses = xcalloc(f->ndefs + 1, sizeof(*s.uses));
	s.use_line = xcalloc((size_t)(f->ndefs + 1) * U_NUSES,
			     sizeof(*s.use_line));
	s.def_next = xmalloc((f->ndefs + 1) * sizeof(*s.def_next));
	for (d = f->ndefs; d-- > 0;) {
		uint64_t key = map_key(f->defs[d].file, f->defs[d].name);

		s.def_next[d] = map_get(&s.def_at, key);
		map_put(&s.def_at, key, d);
	}
	for (i = 0; i < f->nparams; i++) {
		const struct param *p = &f->params[i];

		if ((p->kind == P_SETUP || p->kind == P_EARLY) &&
		    p->handler != STR_NONE)
			map_put(&s.setup_fn, map_key(p->file, p->handler), 1);
	}
	rc = load_valtypes(&s, dir);
	if (!rc)
		rc = load_uses(&s, dir);
	if (!rc) {
		free(info);
		info = xcalloc(f->ndefs + 1, sizeof(*info));
		ninfo = f->ndefs;
		for (d = 0; d < f->ndefs; d++)
			decide(j, &s, d, &info[d]);
	}
	free(s.uses);
	free(s.use_line);
	free(s.def_next);
	free(s.vt);
	map_free(&s.def_at);
	map_free(&s.setup_fn);
	strtab_free(&s.types);
	return rc;
}
