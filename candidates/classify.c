// SPDX-License-Identifier: GPL-2.0
/*
 * classify: attach writes and parameters to definitions (static in the
 * same file first, else every global of that name), then give each
 * definition a class, a confidence, a reason and its evidence.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "images.h"
#include "link.h"
#include "notkernel.h"
#include "perm.h"
#include "traps.h"

#define MAX_EVIDENCE 64

const char *const klass_names[K_NCLASSES] = {
	"ro_after_init", "const", "rejected", "already", "skip", "initdata",
};

const char *const conf_names[] = { "-", "high", "medium" };

struct defmap {
	struct map statics;	/* (file, name) -> first static def */
	struct map globals;	/* name -> first global def */
	uint32_t *next;		/* next def in the same chain */
};

static void defmap_build(struct defmap *m, const struct facts *f)
{
	uint32_t d;

	map_init(&m->statics);
	map_init(&m->globals);
	m->next = xmalloc((f->ndefs + 1) * sizeof(*m->next));
	for (d = f->ndefs; d-- > 0;) {
		const struct def *df = &f->defs[d];

		if (df->storage == ST_STATIC) {
			uint64_t key = map_key(df->file, df->name);

			m->next[d] = map_get(&m->statics, key);
			map_put(&m->statics, key, d);
		} else {
			m->next[d] = map_get(&m->globals, df->name);
			map_put(&m->globals, df->name, d);
		}
	}
}

static uint32_t def_first(const struct defmap *m, uint32_t file,
			  uint32_t name)
{
	uint32_t d = map_get(&m->statics, map_key(file, name));

	return d != MAP_NONE ? d : map_get(&m->globals, name);
}

static const struct facts *sort_facts;

static void ev_pos(const struct event *e, uint32_t *file, uint32_t *line)
{
	if (e->is_param) {
		*file = sort_facts->params[e->idx].file;
		*line = sort_facts->params[e->idx].line;
	} else {
		*file = sort_facts->writes[e->idx].file;
		*line = sort_facts->writes[e->idx].line;
	}
}

static int ev_cmp(const void *a, const void *b)
{
	const struct event *ea = a, *eb = b;
	uint32_t fa, la, fb, lb;
	int d;

	ev_pos(ea, &fa, &la);
	ev_pos(eb, &fb, &lb);
	if (fa != fb) {
		d = strcmp(strtab_str(&sort_facts->strs, fa),
			   strtab_str(&sort_facts->strs, fb));
		if (d)
			return d;
	}
	if (la != lb)
		return la < lb ? -1 : 1;
	if (ea->is_param != eb->is_param)
		return ea->is_param - eb->is_param;
	return ea->idx < eb->idx ? -1 : ea->idx > eb->idx;
}

/* Attach every write and variable parameter to the defs it may name. */
static void attach(struct judge *j)
{
	const struct facts *f = j->f;
	struct defmap m;
	uint32_t pass, i, d, *fill = NULL, total = 0;

	defmap_build(&m, f);
	j->dm = xmalloc(sizeof(*j->dm));
	*j->dm = m;
	j->ev_start = xcalloc(f->ndefs + 1, sizeof(*j->ev_start));
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < f->nwrites + f->nparams; i++) {
			struct event e = { i, 0 };
			uint32_t file, var;

			if (i >= f->nwrites) {
				e.idx = i - f->nwrites;
				e.is_param = 1;
				file = f->params[e.idx].file;
				var = f->params[e.idx].var;
				if (var == STR_NONE)
					continue;
			} else {
				file = f->writes[i].file;
				var = f->writes[i].var;
				if (f->writes[i].form == F_TYPE_FIELD ||
				    f->writes[i].form == F_TYPE_STORE ||
				    f->writes[i].form == F_TYPE_POINTEE)
					continue;
			}
			for (d = def_first(&m, file, var); d != MAP_NONE;
			     d = m.next[d]) {
				if (f->defs[d].file != file &&
				    !link_compatible(strtab_str(&f->strs, file),
						     strtab_str(&f->strs,
								f->defs[d].file)))
					continue;
				if (pass == 0) {
					j->ev_start[d + 1]++;
					total++;
				} else {
					j->ev[fill[d]++] = e;
				}
			}
		}
		if (pass == 0) {
			for (d = 0; d < f->ndefs; d++)
				j->ev_start[d + 1] += j->ev_start[d];
			j->ev = xmalloc((total + 1) * sizeof(*j->ev));
			fill = xmalloc((f->ndefs + 1) * sizeof(*fill));
			memcpy(fill, j->ev_start,
			       (f->ndefs + 1) * sizeof(*fill));
		}
	}
	free(fill);
	sort_facts = f;
	for (d = 0; d < f->ndefs; d++)
		qsort(j->ev + j->ev_start[d], j->ev_start[d + 1] -
		      j->ev_start[d], sizeof(*j->ev), ev_cmp);
}

void event_where(const struct judge *j, const struct event *e, char *buf,
		 size_t len)
{
	const struct strtab *s = &j->f->strs;

	if (e->is_param) {
		const struct param *p = &j->f->params[e->idx];

		snprintf(buf, len, "%s:%u:-:%s=%s", strtab_str(s, p->file),
			 p->line, pkind_names[p->kind], strtab_str(s, p->perm));
	} else {
		const struct write *w = &j->f->writes[e->idx];

		snprintf(buf, len, "%s:%u:%s:%s", strtab_str(s, w->file),
			 w->line, strtab_str(s, w->func), form_names[w->form]);
	}
}

/*
 * array-arg rows are printed for any bare identifier passed or assigned,
 * because SmPL does not know the types of other files' globals; only an
 * array (or an array typedef such as cpumask_var_t) decays to a pointer.
 */
static int def_is_array(const struct judge *j, const struct def *df)
{
	static const char *const array_types[] = {
		"cpumask_var_t", "jmp_buf", "sigjmp_buf",
	};
	const char *type = strtab_str(&j->f->strs, df->type);
	size_t i;

	if (df->array)
		return 1;
	for (i = 0; i < ARRAY_SIZE(array_types); i++) {
		if (strstr(type, array_types[i]))
			return 1;
	}
	return 0;
}

/*
 * The type trap: an object whose type is, or embeds by value, a list or
 * tree node, a reference count, an atomic, a lock, a completion, a work or
 * timer, or a notifier link is written after init by whoever keeps its
 * address: the next registration or unregistration rewrites its list links,
 * a get/put its count, a lock/unlock its lock word. So an escape of its
 * address, even from init-only code, is a write. The escape's callee is not
 * in the facts: every escape counts, __init callees included.
 * The types are lib/traps.tsv's: the base types, and a short list of
 * registered kernel types that embed one, with the header that defines
 * them and the function that links them (no line numbers: the list
 * serves 6.1 and 6.12, whose layouts differ, e.g. syscore_ops lost its
 * node to struct syscore); a type defined in a .c file is not resolved.
 */

/*
 * The base type of a definition into BASE: qualifiers and the array part
 * dropped ("const struct x [ 4 ]" is "struct x"); 0 for a pointer.
 */
static int base_type(const struct judge *j, const struct def *df,
		     char *base, size_t len)
{
	const char *t = strtab_str(&j->f->strs, df->type);
	char *b;
	size_t n = 0;

	if (strchr(t, '*'))
		return 0;
	while (*t && n + 1 < len) {
		if (!strncmp(t, "const ", 6) || !strncmp(t, "volatile ", 9)) {
			t = strchr(t, ' ') + 1;
			continue;
		}
		if (*t == '[')
			break;
		base[n++] = *t++;
	}
	base[n] = '\0';
	for (b = base + n; b > base && b[-1] == ' ';)
		*--b = '\0';
	return 1;
}

/* The trap entry of a definition's type (pointers never), or NULL. */
static const struct trap_type *type_trap(const struct judge *j,
					 const struct def *df)
{
	const struct trap_type *t;
	char base[256];

	if (!base_type(j, df, base, sizeof(base)))
		return NULL;
	t = trap_type_find(base);
	return t && !trap_is(t, "inert") ? t : NULL;
}

/*
 * The layouts.tsv row of a definition's type (pointers never), or NULL:
 * a type that embeds a trap by value, found in the tree's own struct
 * definitions (cocci/layouts) rather than in the hand list above.
 */
static const struct layout *layout_trap(const struct judge *j,
					const struct def *df)
{
	char base[256];
	uint32_t id, l;

	if (!j->f->nlayouts || !base_type(j, df, base, sizeof(base)))
		return NULL;
	id = strtab_find(&j->f->strs, base);
	if (id == STR_NONE)
		return NULL;
	l = map_get(&j->f->layout_of, id);
	return l == MAP_NONE ? NULL : &j->f->layouts[l];
}

/*
 * Trap types whose keeper changes them through a pointer to const, by a
 * cast: a count (get_cred() takes a const struct cred * and counts a
 * reference) or a lock; lib/traps.tsv says counted.  The others are links
 * (a list node, the resource tree, a notifier chain), which nobody makes
 * through a const pointer.
 */
static int counted_trap(const char *type)
{
	const struct trap_type *t = trap_type_find(type);

	return t && trap_counted(t);
}

/*
 * EV_BAD with the reason if D's type is a trap, else 0; *COUNTED says
 * whether the trap is a count or a lock (counted_trap()).
 */
static int trap_status(const struct judge *j, uint32_t d,
		       const struct write *w, char *buf, size_t len,
		       int *counted)
{
	const struct def *df = &j->f->defs[d];
	const struct strtab *s = &j->f->strs;
	const struct trap_type *t = type_trap(j, df);
	const struct layout *l = t ? NULL : layout_trap(j, df);
	const char *where = w->func == STR_NONE ? "at file scope" : "in ";
	const char *func = w->func == STR_NONE ? "" : strtab_str(s, w->func);

	if (l) {
		*counted = counted_trap(strtab_str(s, l->trap));
		snprintf(buf, len,
			 "%s %s%s: a %s escapes, and it embeds %s (a %s, %s:%u), which whoever keeps it writes after init",
			 form_names[w->form], where, func,
			 strtab_str(s, l->type), strtab_str(s, l->field),
			 strtab_str(s, l->trap), strtab_str(s, l->file),
			 l->line);
		return EV_BAD;
	}
	if (!t)
		return 0;
	l = layout_trap(j, df);
	*counted = counted_trap(t->type) ||
		   (l && counted_trap(strtab_str(s, l->trap)));
	snprintf(buf, len,
		 "%s %s%s: a %s escapes, and whoever keeps it writes %s after init%s%s%s",
		 form_names[w->form], where, func,
		 t->type, t->writes, t->citation ? " (" : "",
		 t->citation ? t->citation : "", t->citation ? ")" : "");
	return EV_BAD;
}

/*
 * &x passed to a function of registrations.tsv that keeps it for the
 * kernel to write after init: EV_BAD; any other call: EV_IGNORED (the
 * escape is its addr or array-arg row).
 */
static int arg_status(const struct judge *j, const struct param *p,
		      char *buf, size_t len)
{
	const struct facts *f = j->f;
	uint32_t r;

	for (r = 0; r < f->nregs; r++) {
		const struct reg *g = &f->regs[r];

		if (g->kind != R_ARG || g->callee != p->handler ||
		    g->arg != p->perm)
			continue;
		snprintf(buf, len,
			 "passed to %s (argument %s), which keeps it: %s (registrations.tsv: %s)",
			 strtab_str(&f->strs, p->handler),
			 strtab_str(&f->strs, p->perm),
			 strtab_str(&f->strs, g->writes),
			 strtab_str(&f->strs, g->cite));
		return EV_BAD;
	}
	snprintf(buf, len, "passed to %s", strtab_str(&f->strs, p->handler));
	return EV_IGNORED;
}

static int param_status(const struct judge *j, const struct param *p,
			char *buf, size_t len)
{
	const char *perm = strtab_str(&j->f->strs, p->perm);
	long bits;
	const char *kind = pkind_names[p->kind];

	/*
	 * Kinds judged at the escape on their line: alias_status(),
	 * const_read(), macro_status(), holder_status().
	 */
	static const char *const at_escape[] = {
		[P_ALIAS] = "kept in the file-scope pointer %s",
		[P_MEMBER] = "stored in member %s at file scope",
		[P_MACRO] = "named in %s() at file scope",
		[P_HOLDER] = "stored in the initializer of %s",
	};

	if (p->kind == P_ARG)
		return arg_status(j, p, buf, len);
	if (p->kind < ARRAY_SIZE(at_escape) && at_escape[p->kind]) {
		snprintf(buf, len, at_escape[p->kind],
			 strtab_str(&j->f->strs, p->handler));
		return EV_IGNORED;
	}
	bits = perm_parse(perm);

	if (p->kind == P_DEBUGFS) {
		/* debugfs_create_*(name, mode, parent, &x, ...): cocci/FACTS.md */
		const char *fn = strtab_str(&j->f->strs, p->handler);

		if (bits < 0)
			snprintf(buf, len, "debugfs file by %s, mode '%s' not understood",
				 fn, perm);
		else if (bits & PERM_WRITE_BITS)
			snprintf(buf, len, "debugfs file by %s with mode %s is writable at runtime",
				 fn, perm);
		else
			snprintf(buf, len, "exposed by a read-only debugfs file (%s, mode %s)",
				 fn, perm);
		return bits < 0 || (bits & PERM_WRITE_BITS) ? EV_BAD : EV_ESCAPE;
	}
	if (bits < 0) {
		snprintf(buf, len, "%s permission '%s' not understood", kind,
			 perm);
		return EV_BAD;
	}
	if (bits & PERM_WRITE_BITS) {
		snprintf(buf, len, "%s %s is writable at runtime",
			 p->kind == P_SYSCTL ? "sysctl with mode" : kind, perm);
		return EV_BAD;
	}
	if (p->kind == P_SYSCTL) {
		snprintf(buf, len, "exposed by a read-only sysctl (mode %s)",
			 perm);
		return EV_ESCAPE;
	}
	snprintf(buf, len, "%s %s: set only while parsing at boot/load", kind,
		 perm);
	return EV_INIT;
}

/* A write at (FILE, LINE) that is the variable's own module_param()? */
static int is_param_site(const struct judge *j, const struct write *w)
{
	uint32_t p = map_get(&j->g->param_at, map_key(w->file, w->line));

	if (w->func != STR_NONE)
		return 0;
	for (; p != MAP_NONE; p = j->g->param_next[p]) {
		if (j->f->params[p].var == w->var &&
		    j->f->params[p].kind != P_ALIAS &&
		    j->f->params[p].kind != P_MEMBER &&
		    j->f->params[p].kind != P_HOLDER &&
		    j->f->params[p].kind != P_MACRO &&
		    j->f->params[p].kind != P_ARG)
			return 1;
	}
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/*
 * One use of the alias pointer P (a writes row of P): EV_BAD when it
 * writes through P (pointee) or passes or stores P (array-arg,
 * pointee-addr) in code that is not init-only, EV_ESCAPE for such a use
 * in init-only code, a mention in assembly or an unparsed region, else
 * EV_IGNORED (P itself assigned, its own address, a read).
 */
static int alias_use(const struct judge *j, const struct write *u)
{
	uint32_t n;

	if (u->form == F_UNPARSED)
		return EV_ESCAPE;
	if (u->form != F_POINTEE && u->form != F_ARRAY_ARG &&
	    u->form != F_POINTEE_ADDR)
		return EV_IGNORED;
	if (u->func == STR_NONE)
		return EV_ESCAPE;
	n = graph_node(j->g, u->file, u->func);
	return n != MAP_NONE && j->g->nodes[n].init_only ? EV_ESCAPE : EV_BAD;
}

/*
 * The escape W of def D stores its address in a file-scope pointer P
 * (params kind alias on W's line): P carries it to other files, where
 * writes through P (P->f = v) are writes of D. EV_BAD naming the first
 * use of P after init, else EV_ESCAPE; -1 if W is no such escape.
 */
static int alias_status(const struct judge *j, uint32_t d,
			const struct write *w, char *buf, size_t len)
{
	const struct facts *f = j->f;
	const struct strtab *s = &f->strs;
	uint32_t p = map_get(&j->g->param_at, map_key(w->file, w->line));
	uint32_t pd, i;
	int found = 0;

	for (; p != MAP_NONE; p = j->g->param_next[p]) {
		const struct param *a = &f->params[p];

		if (a->kind != P_ALIAS || a->var != f->defs[d].name)
			continue;
		found = 1;
		for (pd = def_first(j->dm, a->file, a->handler);
		     pd != MAP_NONE; pd = j->dm->next[pd]) {
			const struct def *pdf = &f->defs[pd];

			if (pdf->file != a->file && pdf->storage == ST_STATIC)
				continue;
			for (i = j->ev_start[pd]; i < j->ev_start[pd + 1]; i++) {
				const struct write *u;

				if (j->ev[i].is_param)
					continue;
				u = &f->writes[j->ev[i].idx];
				if (alias_use(j, u) != EV_BAD)
					continue;
				snprintf(buf, len,
					 "address kept in the file-scope pointer %s, and %s %s it after init (%s:%u)",
					 strtab_str(s, a->handler),
					 strtab_str(s, u->func),
					 u->form == F_POINTEE ?
					 "writes through" : "passes or stores",
					 strtab_str(s, u->file), u->line);
				return EV_BAD;
			}
		}
	}
	if (!found)
		return -1;
	snprintf(buf, len,
		 "address kept in a file-scope pointer that only init-only code writes through, passes or stores");
	return EV_ESCAPE;
}

/*
 * W, an escape of x (&x or an array x passed) in a function, is a read
 * when every escape of x on its line is an argument that every
 * declaration of the callee takes as a pointer to const (protos.tsv,
 * cocci/protos): dentry_open(&selinux_null, ...).  Nothing the callee
 * keeps can write x.  At file scope the same holds for a member that
 * every struct of the tree declares a pointer to const:
 * ".regsets = x86_64_regsets" in a user_regset_view.  The rows carry no
 * column, so "p = &x; f(&x);" on one line has two escapes and one
 * argument: not a read.
 */
static int const_read(const struct judge *j, uint32_t d,
		      const struct write *w, char *buf, size_t len)
{
	const struct facts *f = j->f;
	const struct proto *pr = NULL;
	const struct param *first = NULL;
	enum pkind want = w->func == STR_NONE ? P_MEMBER : P_ARG;
	uint32_t p, i, nargs = 0, nesc = 0;

	if (!f->nprotos || (w->form != F_ADDR && w->form != F_ARRAY_ARG))
		return 0;
	p = map_get(&j->g->param_at, map_key(w->file, w->line));
	for (; p != MAP_NONE; p = j->g->param_next[p]) {
		const struct param *q = &f->params[p];
		const char *idx = strtab_str(&f->strs, q->perm);
		uint32_t r, arg = PROTO_MEMBER;
		char *end;
		long n;

		if (q->kind != want || q->var != w->var)
			continue;
		if (want == P_ARG) {
			n = strtol(idx, &end, 10);
			if (end == idx || *end || n < 0 || n > 63)
				return 0;
			arg = (uint32_t)n;
		}
		r = map_get(&f->proto_of, map_key(q->handler, arg));
		if (r == MAP_NONE)
			return 0;
		if (!nargs++) {
			pr = &f->protos[r];
			first = q;
		}
	}
	for (i = j->ev_start[d]; i < j->ev_start[d + 1]; i++) {
		const struct write *x;

		if (j->ev[i].is_param)
			continue;
		x = &f->writes[j->ev[i].idx];
		if (x->file == w->file && x->line == w->line &&
		    x->var == w->var &&
		    (x->form == F_ADDR || x->form == F_ARRAY_ARG))
			nesc++;
	}
	if (!nargs || nesc > nargs)
		return 0;
	if (want == P_MEMBER)
		snprintf(buf, len,
			 "a read: stored in member %s at file scope, a pointer to const in every struct of the tree (%s:%u)",
			 strtab_str(&f->strs, first->handler),
			 strtab_str(&f->strs, pr->file), pr->line);
	else
		snprintf(buf, len,
			 "a read: passed to %s as argument %s, a pointer to const in every declaration (%s:%u)",
			 strtab_str(&f->strs, first->handler),
			 strtab_str(&f->strs, first->perm),
			 strtab_str(&f->strs, pr->file), pr->line);
	return 1;
}

/* The first params row of KIND for W's variable on W's line, or NULL. */
static const struct param *param_on_line(const struct judge *j,
					 const struct write *w,
					 enum pkind kind)
{
	uint32_t p = map_get(&j->g->param_at, map_key(w->file, w->line));

	for (; p != MAP_NONE; p = j->g->param_next[p]) {
		if (j->f->params[p].kind == kind && j->f->params[p].var == w->var)
			return &j->f->params[p];
	}
	return NULL;
}

/*
 * W, x named as a whole argument of a macro called at file scope (a
 * params row of kind macro): the macro may take its address and hand it
 * to code no row shows (module_platform_driver(x) registers &x in the
 * __init function it defines, and the driver core writes it).  A macro
 * of registrations.tsv kind init-table stores the address in a table
 * that only init code reads (apic_driver(x)): an escape into init-only
 * code.  -1: no macro row.
 */
static int macro_status(const struct judge *j, const struct write *w,
			char *buf, size_t len)
{
	const struct facts *f = j->f;
	const struct param *q = param_on_line(j, w, P_MACRO);
	uint32_t r;

	if (!q)
		return -1;
	for (r = 0; r < f->nregs; r++) {
		const struct reg *g = &f->regs[r];

		if (g->kind != R_INIT_TABLE || g->callee != q->handler)
			continue;
		snprintf(buf, len,
			 "named in %s() at file scope, which keeps its address in a table that only init code reads: %s (registrations.tsv: %s)",
			 strtab_str(&f->strs, q->handler),
			 strtab_str(&f->strs, g->writes),
			 strtab_str(&f->strs, g->cite));
		return EV_ESCAPE;
	}
	snprintf(buf, len,
		 "named in %s() at file scope, which may take its address and hand it to code no fact shows (module_platform_driver() registers it)",
		 strtab_str(&f->strs, q->handler));
	return EV_BAD;
}

/* Has D a row of one of FORMS (bit 1 << form) on the line of W? */
static int form_on_line(const struct judge *j, uint32_t d,
			const struct write *w, unsigned int forms)
{
	uint32_t i;

	for (i = j->ev_start[d]; i < j->ev_start[d + 1]; i++) {
		const struct write *u;

		if (j->ev[i].is_param)
			continue;
		u = &j->f->writes[j->ev[i].idx];
		if ((forms & 1u << u->form) && u->file == w->file &&
		    u->line == w->line)
			return 1;
	}
	return 0;
}

/* Is def H an array of attribute pointers, what sysfs groups hold? */
static int sysfs_table(const struct judge *j, uint32_t h)
{
	const char *t = strtab_str(&j->f->strs, j->f->defs[h].type);

	if (!strncmp(t, "const ", 6))
		t += 6;
	return j->f->defs[h].array && (!strncmp(t, "struct attribute * [", 20) ||
		!strncmp(t, "struct bin_attribute * [", 24) ||
		!strncmp(t, "const struct bin_attribute * [", 30));
}

/*
 * The holder row's table H is a struct attribute_group and the array is
 * its .attrs or .bin_attrs: registering the group does not write the
 * attributes (6.12 fs/sysfs/group.c create_files() reads grp->attrs[i]
 * and grp->bin_attrs[i] and hands each to kernfs as the node's priv;
 * fs/kernfs/ only reads it, and sysfs_attr_init()'s lockdep key is set
 * by the code that calls it).  Whatever H's own escapes, the array's is
 * an escape into sysfs, which only reads it: EV_ESCAPE, medium.  -1 when
 * H is no attribute group.
 */
static int sysfs_holder(const struct judge *j, const struct write *w,
			uint32_t h, char *buf, size_t len)
{
	const struct strtab *s = &j->f->strs;
	const char *t = strtab_str(s, j->f->defs[h].type);
	const struct param *m = param_on_line(j, w, P_MEMBER);
	const char *f;

	if (!strncmp(t, "const ", 6))
		t += 6;
	if (strcmp(t, "struct attribute_group") || j->f->defs[h].array || !m)
		return -1;
	f = strtab_str(s, m->handler);
	if (strcmp(f, "attrs") && strcmp(f, "bin_attrs"))
		return -1;
	snprintf(buf, len,
		 "stored in attribute group %s (%s:%u) as .%s: registering it does not write the attributes (fs/sysfs/group.c create_files)",
		 strtab_str(s, j->f->defs[h].name), strtab_str(s, w->file),
		 j->f->defs[h].line, f);
	return EV_ESCAPE;
}

/*
 * W stores x's address (or array x) at file scope in the initializer of
 * H, another static of its file (a params row of kind holder): a table
 * whose entries are only read ("static struct bin_attribute *attrs[] =
 * { &data_attr, NULL }", ".chip = &hpet_msi_controller").  x is then as
 * safe as H: H is static, so only its file reaches it; every write and
 * escape of H must be init-only or an escape into init-only code,
 * judged the same way (a table in a table, four deep at most); and no
 * function but init-only ones may name H (a read row), since code that
 * reads the table may write through what it holds.  x's escape is then
 * an escape into init-only code: medium at most.  -1: no holder row.
 */
static int holder_status(const struct judge *j, uint32_t d,
			 const struct write *w, char *buf, size_t len)
{
	static int depth;
	const struct facts *f = j->f;
	const struct strtab *s = &f->strs;
	const struct param *q;
	char why[1024], where[512];
	uint32_t h, i, n;
	int st, bad = 0, used = 0;

	if (w->form != F_ADDR && w->form != F_ARRAY_ARG)
		return -1;
	q = param_on_line(j, w, P_HOLDER);
	if (!q)
		return -1;
	h = map_get(&j->dm->statics, map_key(w->file, q->handler));
	if (h == MAP_NONE || h == d)
		return -1;
	st = sysfs_holder(j, w, h, buf, len);
	if (st >= 0)
		return st;
	if (depth >= 4) {
		snprintf(buf, len, "stored in %s, a table nested too deep",
			 strtab_str(s, q->handler));
		return EV_BAD;
	}
	depth++;
	for (i = j->ev_start[h]; i < j->ev_start[h + 1] && !bad; i++) {
		const struct event *e = &j->ev[i];
		const struct write *u = e->is_param ? NULL : &f->writes[e->idx];

		if (u && u->form == F_READ) {
			if (u->func == STR_NONE &&
			    form_on_line(j, h, u, 1u << F_ADDR | 1u << F_ARRAY_ARG))
				continue;
			n = u->func == STR_NONE ? MAP_NONE :
				graph_node(j->g, u->file, u->func);
			if (n != MAP_NONE && j->g->nodes[n].init_only) {
				used++;
				continue;
			}
			snprintf(why, sizeof(why), u->func == STR_NONE ?
				 "it is named at file scope" :
				 "%s reads it, and may write through what it holds",
				 strtab_str(s, u->func));
			bad = 1;
		} else {
			st = event_status(j, h, e, why, sizeof(why));
			bad = st == EV_BAD;
			used += st != EV_IGNORED;
		}
		if (bad)
			event_where(j, e, where, sizeof(where));
	}
	depth--;
	if (bad) {
		snprintf(buf, len, "stored in %s (%s:%u), and at %s %s",
			 strtab_str(s, q->handler), strtab_str(s, w->file),
			 j->f->defs[h].line, where, why);
		return EV_BAD;
	}
	if (!used && sysfs_table(j, h)) {
		snprintf(buf, len,
			 "stored in %s (%s:%u), an attribute array that a macro such as ATTRIBUTE_GROUPS() puts in a group: sysfs only reads it",
			 strtab_str(s, q->handler), strtab_str(s, w->file),
			 j->f->defs[h].line);
		return EV_ESCAPE;
	}
	if (!used) {
		/* ATTRIBUTE_GROUPS(foo) uses foo_attrs, a name it pastes */
		snprintf(buf, len,
			 "stored in %s (%s:%u), which nothing in the file visibly uses: a macro may paste its name",
			 strtab_str(s, q->handler), strtab_str(s, w->file),
			 j->f->defs[h].line);
		return EV_BAD;
	}
	snprintf(buf, len,
		 "stored in %s (%s:%u), a table that only init-only code uses",
		 strtab_str(s, q->handler), strtab_str(s, w->file),
		 j->f->defs[h].line);
	return EV_ESCAPE;
}


static int status_of(const struct judge *j, uint32_t d,
		     const struct event *e, char *buf, size_t len)
{
	const struct strtab *s = &j->f->strs;
	const struct write *w;
	uint32_t n;
	int counted = 0;

	buf[0] = '\0';
	if (e->is_param)
		return param_status(j, &j->f->params[e->idx], buf, len);
	w = &j->f->writes[e->idx];
	if (w->form == F_READ) {
		snprintf(buf, len, "a read (initdata only)");
		return EV_IGNORED;
	}
	if (w->form == F_UNPARSED) {
		/*
		 * spatch skipped the region: whatever it does with the
		 * variable is not in the facts, so no proposal is high
		 */
		snprintf(buf, len, "named in a region spatch did not parse");
		return EV_CAP;
	}
	if (is_param_site(j, w)) {
		snprintf(buf, len, "the mention inside its own parameter");
		return EV_IGNORED;
	}
	if (w->form == F_ARRAY_ARG && !def_is_array(j, &j->f->defs[d])) {
		snprintf(buf, len, "not an array: passed by value");
		return EV_IGNORED;
	}
	/*
	 * x[i] (pointee) and &x[i] (pointee-addr) of a name the writing file
	 * does not define as an array: for a pointer they reach its pointee,
	 * not the pointer; for an array they are element writes and escapes.
	 */
	if ((w->form == F_POINTEE || w->form == F_POINTEE_ADDR) &&
	    !def_is_array(j, &j->f->defs[d])) {
		snprintf(buf, len, "through a pointer: %s the pointee",
			 w->form == F_POINTEE ? "writes" : "exposes");
		return EV_IGNORED;
	}
	if (w->func == STR_NONE && ends_with(strtab_str(s, w->file), ".S")) {
		/* cocci/run-facts.sh reads .S files with cocci/mentions */
		if (w->form == F_ASM) {
			snprintf(buf, len,
				 "written by assembly (destination operand)");
			return EV_BAD;
		}
		snprintf(buf, len,
			 "referenced from assembly (address or read)");
		return EV_ESCAPE;
	}
	/*
	 * A const argument is a read even for a trap type whose trap is a
	 * link (resource_size(&res)); not for a count or a lock: get_cred()
	 * takes a const struct cred * and casts it away to count a reference.
	 */
	if (!form_is_direct(w->form) &&
	    trap_status(j, d, w, buf, len, &counted)) {
		char rd[512];

		if (!counted && const_read(j, d, w, rd, sizeof(rd))) {
			snprintf(buf, len, "%s", rd);
			return EV_READ;
		}
		return EV_BAD;
	}
	if (const_read(j, d, w, buf, len))
		return EV_READ;
	if (w->func == STR_NONE && w->form == F_INITDATA_ADDR) {
		/*
		 * Init data is freed after boot and modpost flags any non-init
		 * code that refers to it, so whoever writes through this
		 * pointer runs during init; boot validation has the last word.
		 */
		snprintf(buf, len,
			 "address stored in init data (freed after init)");
		return EV_ESCAPE;
	}
	if (w->func == STR_NONE && !form_is_direct(w->form)) {
		int a = alias_status(j, d, w, buf, len);

		if (a >= 0)
			return a;
	}
	if (w->func == STR_NONE) {
		int h = holder_status(j, d, w, buf, len);

		if (h >= 0)
			return h;
		h = macro_status(j, w, buf, len);
		if (h >= 0)
			return h;
	}
	if (w->func == STR_NONE && w->form == F_ARRAY_ARG &&
	    form_on_line(j, d, w, 1u << F_UNPARSED)) {
		/* the text pass named it in code spatch did not parse */
		snprintf(buf, len, "named in a region spatch did not parse");
		return EV_CAP;
	}
	if (w->func == STR_NONE) {
		snprintf(buf, len, form_is_direct(w->form) ?
			 "written at file scope" :
			 "address stored at file scope (a table, an initializer or a macro's argument)");
		return EV_BAD;
	}
	n = graph_node(j->g, w->file, w->func);
	if (n == MAP_NONE) {
		snprintf(buf, len, "writer %s not found in funcs.tsv",
			 strtab_str(s, w->func));
		return EV_BAD;
	}
	if (!j->g->nodes[n].init_only) {
		graph_why(j->g, n, buf, len);
		return EV_BAD;
	}
	if (j->g->nodes[n].weak) {
		snprintf(buf, len,
			 "%s is init-only through a partially parsed file",
			 strtab_str(s, w->func));
		return EV_ESCAPE;
	}
	if (j->g->nodes[n].tree_row != MAP_NONE) {
		/*
		 * Init-only by callers.tsv, a token scan of the whole tree
		 * by name: it cannot see a call whose name a macro pastes
		 * together from its arguments (cocci/callers.c, Limits), and
		 * the writer's own file does not show that nothing else
		 * calls it.  A write there is medium at most; boot
		 * validation has the last word.
		 */
		graph_tree_why(j->g, n, buf, len);
		return EV_ESCAPE;
	}
	if (!form_is_direct(w->form)) {
		snprintf(buf, len, "%s escapes in init-only %s",
			 form_names[w->form], strtab_str(s, w->func));
		return EV_ESCAPE;
	}
	return EV_INIT;
}

/*
 * The escape W stores the address in a field of registrations.tsv kind
 * store (input_dev->keycode = keymap): a type-field row at its line names
 * that field.
 */
static int store_status(const struct judge *j, const struct write *w,
			char *buf, size_t len)
{
	const struct facts *f = j->f;
	uint32_t i = map_get(&j->tf_at, map_key(w->file, w->line)), r;
	char key[512];
	size_t n;

	for (; i != MAP_NONE; i = j->tf_next[i]) {
		const struct write *t = &f->writes[i];

		if (t->func != w->func)
			continue;
		snprintf(key, sizeof(key), "%s->%s", strtab_str(&f->strs, t->var),
			 strtab_str(&f->strs, t->field));
		for (r = 0; r < f->nregs; r++) {
			const struct reg *g = &f->regs[r];

			if (g->kind != R_STORE ||
			    strcmp(strtab_str(&f->strs, g->callee), key))
				continue;
			n = strlen(buf);
			snprintf(buf + n, len - n,
				 "; stored in %s: %s (registrations.tsv: %s)",
				 key, strtab_str(&f->strs, g->writes),
				 strtab_str(&f->strs, g->cite));
			return 1;
		}
	}
	return 0;
}

/*
 * The escape W stores x's address (or array x) in member m of an object
 * of type T: at file scope in the initializer of H (".rates = x", a
 * holder and a member row on W's line), or in a function (a type-store
 * or type-field row T->m on W's line: "clk.params = &x", "p->m = &x").
 * When code that is not init-only writes through T->m (a type-pointee
 * row: "c->m[i].f = v", "r = &c->m[i]; r->f = v" with c = to_foo(hw),
 * typically a callback of the registered object on a rate change or a
 * resume), it writes x after init: 1 with the reason in BUF, else 0
 * (BUF untouched).
 */
static int through_status(const struct judge *j, const struct write *w,
			  char *buf, size_t len)
{
	const struct facts *f = j->f;
	const struct strtab *s = &f->strs;
	const struct write *tw;
	uint32_t tp = MAP_NONE, type = STR_NONE, field = STR_NONE, h, i, n;
	char base[256], held[512], cb[512] = "";

	if (!j->tp_first.n)
		return 0;
	if (w->func == STR_NONE) {
		const struct param *q = param_on_line(j, w, P_HOLDER);
		const struct param *m = param_on_line(j, w, P_MEMBER);

		if (!q || !m)
			return 0;
		h = def_first(j->dm, w->file, q->handler);
		if (h == MAP_NONE || f->defs[h].file != w->file ||
		    !base_type(j, &f->defs[h], base, sizeof(base)))
			return 0;
		type = strtab_find(s, base);
		field = m->handler;
		if (type != STR_NONE)
			tp = map_get(&j->tp_first, map_key(type, field));
		snprintf(held, sizeof(held), "%s.%s (%s:%u)",
			 strtab_str(s, q->handler), strtab_str(s, field),
			 strtab_str(s, f->defs[h].file), f->defs[h].line);
	} else {
		i = map_get(&j->tf_at, map_key(w->file, w->line));
		for (; i != MAP_NONE && tp == MAP_NONE; i = j->tf_next[i]) {
			if (f->writes[i].func != w->func)
				continue;
			type = f->writes[i].var;
			field = f->writes[i].field;
			tp = map_get(&j->tp_first, map_key(type, field));
		}
		if (tp != MAP_NONE)
			snprintf(held, sizeof(held), "member %s of a %s by %s",
				 strtab_str(s, field), strtab_str(s, type),
				 strtab_str(s, w->func));
	}
	if (tp == MAP_NONE)
		return 0;
	tw = &f->writes[tp];
	n = graph_node(j->g, tw->file, tw->func);
	if (n != MAP_NONE && j->g->nodes[n].ref != MAP_NONE) {
		const struct funcref *r = &f->funcrefs[j->g->nodes[n].ref];

		snprintf(cb, sizeof(cb), ", a callback (its address taken at %s:%u),",
			 strtab_str(s, r->file), r->line);
	}
	snprintf(buf, len,
		 "stored in %s, and %s%s writes through %s->%s after init (%s:%u)",
		 held, strtab_str(s, tw->func), cb, strtab_str(s, tw->var),
		 strtab_str(s, tw->field), strtab_str(s, tw->file), tw->line);
	return 1;
}

/*
 * An escape of an object of type T, even in init-only code, is a write
 * when code that is not init-only writes a field of some T through a
 * pointer (a sysfs store, an ioctl handler, a notifier): whoever keeps
 * the address may hand it there.
 */
int event_status(const struct judge *j, uint32_t d, const struct event *e,
		 char *buf, size_t len)
{
	const struct strtab *s = &j->f->strs;
	int st = status_of(j, d, e, buf, len);
	const struct write *w, *tw;
	char alias[512];
	size_t n;

	if ((st != EV_ESCAPE && st != EV_READ) || e->is_param)
		return st;
	w = &j->f->writes[e->idx];
	if (form_is_direct(w->form))
		return st;
	if (store_status(j, w, buf, len))
		return EV_BAD;
	if (w->func != STR_NONE &&
	    alias_status(j, d, w, alias, sizeof(alias)) == EV_BAD) {
		snprintf(buf, len, "%s", alias);
		return EV_BAD;
	}
	if (through_status(j, w, buf, len))
		return EV_BAD;
	if (j->tf_write[d] == MAP_NONE)
		return st;
	tw = &j->f->writes[j->tf_write[d]];
	n = strlen(buf);
	snprintf(buf + n, len - n,
		 "; %s's field %s is written after init by %s (%s:%u)",
		 strtab_str(s, tw->var), strtab_str(s, tw->field),
		 strtab_str(s, tw->func), strtab_str(s, tw->file), tw->line);
	return EV_BAD;
}

static int tf_before(const struct facts *f, uint32_t a, uint32_t b)
{
	const struct write *wa = &f->writes[a], *wb = &f->writes[b];
	int c;

	if (wa->file != wb->file) {
		c = strcmp(strtab_str(&f->strs, wa->file),
			   strtab_str(&f->strs, wb->file));
		if (c)
			return c < 0;
	}
	return wa->line < wb->line;
}

/*
 * For each def of a struct (or array of struct) type, the first
 * type-field write of its type by a function that is not init-only.
 */
static void type_field_writes(struct judge *j)
{
	const struct facts *f = j->f;
	struct map first;	/* type -> first non-init type-field write */
	uint32_t i, d, cur, n;
	char base[256];

	map_init(&first);
	map_init(&j->tf_at);
	map_init(&j->tp_first);
	j->tf_next = xmalloc((f->nwrites + 1) * sizeof(*j->tf_next));
	for (i = 0; i < f->nwrites; i++) {
		const struct write *w = &f->writes[i];
		uint64_t at = map_key(w->file, w->line);

		if (w->form == F_TYPE_POINTEE) {
			uint64_t key = map_key(w->var, w->field);

			n = graph_node(j->g, w->file, w->func);
			if (n != MAP_NONE && j->g->nodes[n].init_only)
				continue;
			cur = map_get(&j->tp_first, key);
			if (cur == MAP_NONE || tf_before(f, i, cur))
				map_put(&j->tp_first, key, i);
			continue;
		}
		if (w->form != F_TYPE_FIELD && w->form != F_TYPE_STORE)
			continue;
		j->tf_next[i] = map_get(&j->tf_at, at);
		map_put(&j->tf_at, at, i);
		/* a store only serves registrations.tsv kind store */
		if (w->form == F_TYPE_STORE)
			continue;
		n = graph_node(j->g, w->file, w->func);
		if (n != MAP_NONE && j->g->nodes[n].init_only)
			continue;
		cur = map_get(&first, w->var);
		if (cur == MAP_NONE || tf_before(f, i, cur))
			map_put(&first, w->var, i);
	}
	j->tf_write = xmalloc((f->ndefs + 1) * sizeof(*j->tf_write));
	for (d = 0; d < f->ndefs; d++) {
		uint32_t t;

		j->tf_write[d] = MAP_NONE;
		if (!base_type(j, &f->defs[d], base, sizeof(base)))
			continue;
		t = strtab_find(&f->strs, base);
		if (t != STR_NONE)
			j->tf_write[d] = map_get(&first, t);
	}
	map_free(&first);
}

static char *evidence(const struct judge *j, uint32_t d)
{
	uint32_t a = j->ev_start[d], b = j->ev_start[d + 1], i;
	size_t cap = 256, used = 0;
	char *out = xmalloc(cap), one[1024], why[512];
	int shown = 0;

	out[0] = '\0';
	for (i = a; i < b; i++) {
		size_t len;
		int st;

		/*
		 * by-value mentions and a parameter's own mention are no
		 * writes; a mention in an unparsed region is in the reason
		 */
		st = event_status(j, d, &j->ev[i], why, sizeof(why));
		if (st == EV_IGNORED || st == EV_CAP)
			continue;
		if (shown == MAX_EVIDENCE) {
			snprintf(one, sizeof(one), ";...(+%u more)", b - i);
		} else {
			one[0] = ';';
			event_where(j, &j->ev[i], one + 1, sizeof(one) - 1);
		}
		len = strlen(one);
		if (used + len + 1 > cap) {
			cap = (used + len + 1) * 2;
			out = xrealloc(out, cap);
		}
		memcpy(out + used, one, len + 1);
		used += len;
		if (shown++ == MAX_EVIDENCE)
			break;
	}
	if (!used)
		return xstrdup("-");
	memmove(out, out + 1, used);
	return out;
}

static int ro_section(const struct judge *j, const struct def *df)
{
	return df->section != STR_NONE &&
		!strcmp(strtab_str(&j->f->strs, df->section),
			".data..ro_after_init");
}

/*
 * A variable defined twice in one file is one variable when one is a
 * tentative definition: "static struct genl_family fam;" before the
 * "static struct genl_family fam __ro_after_init = { ... }" that
 * registration code needs to see first (net/ipv4/fou_core.c).  Proposing
 * the annotation for the tentative line would be noise.  Returns the
 * later definition with an initializer, or MAP_NONE.  Two definitions
 * with an initializer, or none, are #ifdef alternatives: each is judged
 * on its own.  So is a line without an initializer whose later twin has
 * no annotation either: "static bool x;" #else "static bool x = 1;"
 * (arch/x86/kernel/apm_32.c power_off) needs the annotation on both.
 */
static uint32_t later_definition(const struct judge *j, uint32_t d)
{
	const struct def *df = &j->f->defs[d];
	uint32_t o;

	/* with an initializer: #ifdef alternatives, not one variable */
	if (df->init)
		return MAP_NONE;
	for (o = def_first(j->dm, df->file, df->name); o != MAP_NONE;
	     o = j->dm->next[o]) {
		const struct def *od = &j->f->defs[o];

		if (o != d && od->file == df->file && od->name == df->name &&
		    od->init && od->line > df->line)
			return o;
	}
	return MAP_NONE;
}

/*
 * Code that is linked apart from the kernel proper and runs before it:
 * it has no .data..ro_after_init that mark_rodata_ro() seals, so an
 * annotation there does nothing or breaks the build.  The directories of
 * lib/images.tsv marked skip (arch/ARCH/boot/, purgatory/, kernel/pi/,
 * realmode/rm/, the EFI stub).  And the paths of lib/notkernel.tsv:
 * samples/, example code, which the whole-tree token scans (layouts,
 * protos, callers) leave out, so its type traps are unknown, and the
 * others, which only a --list of run-facts.sh can bring in.
 */
static const char *outside_kernel(const char *path)
{
	const struct notkernel *nk = notkernel_of(path);
	const struct image *im;
	size_t len;

	if (nk)
		return nk->why;
	im = image_of(path, &len);
	return im && image_skips(im) ? im->why : NULL;
}

static const char *skip_reason(const struct judge *j, const struct def *df)
{
	const char *outside = outside_kernel(strtab_str(&j->f->strs, df->file));

	if (outside)
		return outside;
	if (df->attrs & A_INITDATA)
		return "__initdata: freed after init";
	if (df->attrs & A_INITCONST)
		return "__initconst: freed after init";
	if (df->attrs & A_MEMINITDATA)
		return "__meminitdata: not a candidate";
	if (df->attrs & A_PERCPU)
		return "per-cpu variable";
	if ((df->attrs & A_SECTION) && !ro_section(j, df))
		return "placed in an explicit section";
	return NULL;
}

/*
 * An array, struct or union: a const scalar that is only read is folded
 * by the compiler and has no storage to free.
 */
static int has_storage(const struct judge *j, const struct def *df)
{
	const char *type = strtab_str(&j->f->strs, df->type);

	return df->array || !strncmp(type, "struct ", 7) ||
		!strncmp(type, "union ", 6) || strstr(type, " struct ") ||
		strstr(type, " union ");
}

/* Is the read row W the variable's own mention in init data? */
static int initdata_site(const struct judge *j, uint32_t d,
			 const struct write *w)
{
	uint32_t i;

	for (i = j->ev_start[d]; i < j->ev_start[d + 1]; i++) {
		const struct write *o;

		if (j->ev[i].is_param)
			continue;
		o = &j->f->writes[j->ev[i].idx];
		if (o->form == F_INITDATA_ADDR && o->file == w->file &&
		    o->line == w->line && o->func == STR_NONE)
			return 1;
	}
	return 0;
}

/*
 * Is def D a module parameter whose kernel_param_ops have a free
 * (kernel/params.c): a charp (param_ops_charp.free, param_free_charp())
 * or an array of charp (param_array_ops.free calls the element's)?
 * destroy_params() reads it when the module unloads, long after its init
 * sections are gone, so it must not be __initdata (module_destroy_params
 * oopsed in a validation boot).  The type says charp: a char pointer or
 * an array of char pointers.  Any module_param counts, as the facts do
 * not know whether the code can be a module.
 */
static int freed_param(const struct judge *j, uint32_t d)
{
	const struct def *df = &j->f->defs[d];
	const char *type = strtab_str(&j->f->strs, df->type);
	uint32_t i;

	if (!strncmp(type, "const ", 6))
		type += 6;
	if (strncmp(type, "char *", 6) || strchr(type + 6, '*'))
		return 0;
	for (i = j->ev_start[d]; i < j->ev_start[d + 1]; i++)
		if (j->ev[i].is_param &&
		    j->f->params[j->ev[i].idx].kind == P_MODULE_PARAM)
			return 1;
	return 0;
}

/*
 * Does only init code touch def D, so that __initdata (__initconst for a
 * const one) frees it with the init sections?  Every write is direct and
 * in an __init function (not merely init-only: a plain helper that
 * touches init data is a modpost section mismatch), or its address is
 * stored in init data; every parameter is a module_param or core_param
 * with permission 0 (nothing in /sys/module/.../parameters); and every
 * read row (cocci/ prints one for each function that mentions it, and for
 * each mention at file scope) is in an __init function, or is the
 * variable's own parameter or init-data table, with at least one read in
 * an __init function: a variable nothing reads may be there for a
 * debugger or crash tool.  Only static variables of .c files that spatch
 * finished (unparsed regions are fine: a mention in one is outside every
 * function's span, a read row at file scope, which disqualifies): nothing
 * else can name them, and the text pass saw every mention.  No static
 * keys.
 */
static int init_data(const struct judge *j, uint32_t d, int incomplete)
{
	const struct facts *f = j->f;
	const struct def *df = &f->defs[d];
	uint32_t i, nread = 0;
	char why[512];

	if (df->storage != ST_STATIC || incomplete ||
	    !ends_with(strtab_str(&f->strs, df->file), ".c") ||
	    strstr(strtab_str(&f->strs, df->type), "static_key") ||
	    freed_param(j, d))
		return 0;
	for (i = j->ev_start[d]; i < j->ev_start[d + 1]; i++) {
		const struct event *e = &j->ev[i];
		const struct write *w;
		uint32_t n;

		if (e->is_param) {
			const struct param *p = &f->params[e->idx];

			if (p->kind == P_ALIAS || p->kind == P_MEMBER ||
			    p->kind == P_HOLDER || p->kind == P_MACRO)
				return 0;
			if (p->kind == P_ARG) {
				/* a plain call: its addr row decides */
				if (event_status(j, d, e, why, sizeof(why)) ==
				    EV_BAD)
					return 0;
				continue;
			}
			if ((p->kind != P_MODULE_PARAM &&
			     p->kind != P_CORE_PARAM) ||
			    perm_parse(strtab_str(&f->strs, p->perm)) != 0)
				return 0;
			continue;
		}
		w = &f->writes[e->idx];
		if (w->form == F_READ && w->func == STR_NONE) {
			if (is_param_site(j, w) || initdata_site(j, d, w))
				continue;
			return 0;
		}
		if (w->form == F_READ) {
			n = graph_node(j->g, w->file, w->func);
			if (n == MAP_NONE || j->g->nodes[n].why != WHY_INIT)
				return 0;
			nread++;
			continue;
		}
		switch (event_status(j, d, e, why, sizeof(why))) {
		case EV_IGNORED:
			continue;
		case EV_BAD:
			return 0;
		}
		if (w->func == STR_NONE && w->form == F_INITDATA_ADDR)
			continue;
		if (w->func == STR_NONE || !form_is_direct(w->form))
			return 0;
		n = graph_node(j->g, w->file, w->func);
		if (n == MAP_NONE || j->g->nodes[n].why != WHY_INIT)
			return 0;
	}
	return nread > 0;
}

/*
 * A static key defined by a macro without an _RO form in 6.1's
 * include/linux/jump_label.h (DEFINE_STATIC_KEY_ARRAY_*): NULL if it has
 * one (TRUE, FALSE, MAYBE) or is a plain struct static_key.
 */
static const char *key_without_ro(const struct judge *j,
				  const struct def *df)
{
	const char *m;

	if (!(df->attrs & A_STATIC_KEY))
		return NULL;
	m = strtab_str(&j->f->strs, df->key_macro);
	return strstr(m, "_ARRAY_") ? m : NULL;
}

/*
 * Is event E a write or escape in code that is init-only through
 * callers.tsv (and not weak, whose reason says so instead)?
 */
static int event_tree(const struct judge *j, const struct event *e)
{
	const struct write *w;
	uint32_t n;

	if (e->is_param)
		return 0;
	w = &j->f->writes[e->idx];
	if (w->func == STR_NONE)
		return 0;
	n = graph_node(j->g, w->file, w->func);
	return n != MAP_NONE && j->g->nodes[n].tree_row != MAP_NONE &&
		!j->g->nodes[n].weak;
}

/*
 * An extern declaration of global def DF that places it in a section
 * (decls.tsv): "extern u32 msrpm_offsets[] __read_mostly;" in a header.
 * Every file that includes it keeps that section, and the compiler drops
 * a __ro_after_init added to the definition alone, with a warning.  NULL
 * if there is none.
 */
static const struct decl *section_decl(const struct judge *j,
				       const struct def *df)
{
	uint32_t r;

	if (df->storage != ST_GLOBAL || !j->f->ndecls)
		return NULL;
	r = map_get(&j->f->decl_of, df->name);
	return r == MAP_NONE ? NULL : &j->f->decls[r];
}

/*
 * Event E, an escape (EV_ESCAPE) of def D: the table H it is stored in at
 * file scope (a holder row), or MAP_NONE if it is no such escape (an
 * attribute array is none: sysfs takes struct attribute **, never const).  *CP
 * says whether H is an array of pointers to const ("const struct foo *
 * [ ]", "const struct foo *const [ ]"), which no code can write through
 * without a cast.
 */
static uint32_t escape_holder(const struct judge *j, uint32_t d,
			      const struct event *e, int *cp)
{
	const struct write *w;
	const struct param *q;
	const struct def *hd;
	uint32_t h;

	*cp = 0;
	if (e->is_param)
		return MAP_NONE;
	w = &j->f->writes[e->idx];
	if (w->func != STR_NONE ||
	    (w->form != F_ADDR && w->form != F_ARRAY_ARG))
		return MAP_NONE;
	q = param_on_line(j, w, P_HOLDER);
	if (!q)
		return MAP_NONE;
	h = map_get(&j->dm->statics, map_key(w->file, q->handler));
	if (h == MAP_NONE || h == d)
		return MAP_NONE;
	hd = &j->f->defs[h];
	if (!hd->array || sysfs_table(j, h))
		return MAP_NONE;
	*cp = !strncmp(strtab_str(&j->f->strs, hd->type), "const ", 6) &&
		strchr(strtab_str(&j->f->strs, hd->type), '*');
	return h;
}

static void judge_def(struct judge *j, uint32_t d)
{
	const struct def *df = &j->f->defs[d];
	struct verdict *v = &j->v[d];
	char why[1024], first[1600], where[512], cap[600], reads[64], tree[600];
	uint32_t i, ninit = 0, nesc = 0, nbad = 0, ncap = 0, nread = 0;
	uint32_t ntree = 0;
	uint32_t nhold = 0, nhold_const = 0, hold = MAP_NONE;
	const char *skip = skip_reason(j, df);
	int partial;
	uint32_t twin = later_definition(j, d);
	uint32_t err = graph_file_error(j->g, df->file, &partial);
	const struct decl *dc = section_decl(j, df);

	first[0] = '\0';
	cap[0] = '\0';
	tree[0] = '\0';
	for (i = j->ev_start[d]; i < j->ev_start[d + 1]; i++) {
		int st = event_status(j, d, &j->ev[i], why, sizeof(why));
		uint32_t h;
		int cp;

		if (st == EV_INIT) {
			ninit++;
		} else if (st == EV_ESCAPE) {
			nesc++;
			if (event_tree(j, &j->ev[i]) && !ntree++)
				snprintf(tree, sizeof(tree), "; %.590s", why);
			h = escape_holder(j, d, &j->ev[i], &cp);
			if (h != MAP_NONE) {
				nhold++;
				nhold_const += cp;
				if (!cp && hold == MAP_NONE)
					hold = h;
			}
		} else if (st == EV_READ) {
			nread++;
		} else if (st == EV_CAP && !ncap++) {
			event_where(j, &j->ev[i], where, sizeof(where));
			snprintf(cap, sizeof(cap),
				 "; named in a region spatch did not parse (%s)",
				 where);
		}
		if (st != EV_BAD || nbad++)
			continue;
		event_where(j, &j->ev[i], where, sizeof(where));
		snprintf(first, sizeof(first), "%s: %s", where, why);
	}
	v->conf = C_NONE;
	if (skip) {
		v->klass = K_SKIP;
		snprintf(why, sizeof(why), "%s", skip);
	} else if ((df->attrs & (A_RO_AFTER_INIT | A_CONST)) == A_CONST &&
		   !ro_section(j, df) && !nbad && has_storage(j, df) &&
		   init_data(j, d, err != MAP_NONE && !partial)) {
		v->klass = K_INITDATA;
		snprintf(why, sizeof(why),
			 "const and read only by __init code: __initconst, freed with the init sections");
	} else if (df->attrs & (A_RO_AFTER_INIT | A_CONST) || ro_section(j, df)) {
		v->klass = K_ALREADY;
		snprintf(why, sizeof(why), "%s%s%s",
			 df->attrs & A_CONST ? "const" : "__ro_after_init",
			 nbad && !(df->attrs & A_CONST) ?
			 "; written after init: " : "",
			 nbad && !(df->attrs & A_CONST) ? first : "");
	} else if (twin != MAP_NONE &&
		   (j->f->defs[twin].attrs & (A_RO_AFTER_INIT | A_CONST) ||
		    ro_section(j, &j->f->defs[twin]))) {
		v->klass = K_ALREADY;
		snprintf(why, sizeof(why),
			 "a tentative definition: the definition on line %u has %s",
			 j->f->defs[twin].line,
			 j->f->defs[twin].attrs & A_CONST ? "const" :
			 "__ro_after_init");
	} else if (err != MAP_NONE && !partial) {
		v->klass = K_REJECTED;
		snprintf(why, sizeof(why),
			 "facts incomplete: spatch failed on %s (%s)",
			 strtab_str(&j->f->strs, df->file),
			 strtab_str(&j->f->strs, j->f->errors[err].reason));
	} else if (nbad) {
		v->klass = K_REJECTED;
		snprintf(why, sizeof(why), "%s%s",
			 df->attrs & A_STATIC_KEY ?
			 "static key toggled after init: " : "", first);
	} else if (!j->f->sealed_keys &&
		   (df->attrs & (A_STATIC_KEY | A_EXPORTED)) ==
		   (A_STATIC_KEY | A_EXPORTED)) {
		/*
		 * Without sealed keys (6.1) a module's jump entries link
		 * it; with them (6.12) jump_label_add_module() leaves a
		 * sealed key alone and patches the module's code only.
		 */
		v->klass = K_REJECTED;
		snprintf(why, sizeof(why),
			 "exported static key: a module that uses it writes it when it loads, after init (kernel/jump_label.c jump_label_add_module: static_key_set_mod)");
	} else if (key_without_ro(j, df)) {
		v->klass = K_SKIP;
		snprintf(why, sizeof(why),
			 "static key array: %s has no _RO form in include/linux/jump_label.h",
			 key_without_ro(j, df));
	} else if (!(ninit + nesc) && (df->attrs & A_STATIC_KEY)) {
		/* static_branch_*() take no const key */
		v->klass = K_RO;
		v->conf = C_MEDIUM;
		snprintf(why, sizeof(why),
			 "static key never toggled: only jump_label_init() writes it, at boot");
	} else if ((ninit + nesc || ncap) && dc) {
		v->klass = K_REJECTED;
		snprintf(why, sizeof(why),
			 "declared %s at %s:%u (extern): the compiler keeps that section and drops a __ro_after_init on the definition alone; change the declaration with it",
			 strtab_str(&j->f->strs, dc->attr),
			 strtab_str(&j->f->strs, dc->file), dc->line);
	} else if (ninit + nesc && init_data(j, d, err != MAP_NONE && !partial)) {
		v->klass = K_INITDATA;
		snprintf(why, sizeof(why),
			 "read and written only by __init code (%u writes): __initdata, freed with the init sections",
			 ninit);
	} else if (!ninit && nesc && nhold_const == nesc && !ncap &&
		   err == MAP_NONE && !(df->attrs & A_STATIC_KEY)) {
		/* only in tables of pointers to const that init code uses */
		v->klass = K_CONST;
		snprintf(why, sizeof(why),
			 "never written%s; its address only stored at file scope in tables of pointers to const (%u): make it const",
			 df->init ? " after its initializer" :
			 " (zero-initialized)", nesc);
	} else if (ninit + nesc) {
		v->klass = K_RO;
		/* a const argument is a read by its declarations' word only */
		v->conf = nesc || nread || ncap || err != MAP_NONE ?
			  C_MEDIUM : C_HIGH;
		snprintf(reads, sizeof(reads),
			 "; %u passed or stored as a pointer to const", nread);
		if (ntree)
			snprintf(first, sizeof(first),
				 ", %u in code that only init code calls by the whole tree's callers",
				 ntree);
		else
			first[0] = '\0';
		snprintf(why, sizeof(why),
			 "%u init-only writes, %u escapes in init-only code%s%s%s%s%s",
			 ninit, nesc - ntree, first, nread ? reads : "",
			 err != MAP_NONE ? "; its file has unparsed regions" : "",
			 cap, tree);
		if (!ninit && nhold == nesc && hold != MAP_NONE)
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 "; never written: const if %s (%s), which holds its address, took pointers to const",
				 strtab_str(&j->f->strs, j->f->defs[hold].name),
				 strtab_str(&j->f->strs, j->f->defs[hold].type));
		if (freed_param(j, d))
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 "; not __initdata: a charp module parameter, which destroy_params() frees when the module unloads");
	} else if (ncap) {
		/*
		 * No write seen, but const would be a guess: a write may
		 * hide where spatch gave up.  __ro_after_init is safe for
		 * every write made during init.
		 */
		v->klass = K_RO;
		v->conf = C_MEDIUM;
		snprintf(why, sizeof(why),
			 "no write seen, but %.440s: __ro_after_init, not const",
			 cap + 2);
	} else {
		v->klass = K_CONST;
		snprintf(why, sizeof(why), "never written%s%s: make it const",
			 df->init ? " after its initializer" :
			 " (zero-initialized)",
			 nread ? "; its address only passed or stored as a pointer to const" : "");
	}
	v->reason = xstrdup(why);
	v->evidence = evidence(j, d);
	j->count[v->klass]++;
	if (v->conf == C_HIGH)
		j->high++;
	else if (v->conf == C_MEDIUM)
		j->medium++;
}

void judge_all(struct judge *j, const struct facts *f, const struct graph *g)
{
	uint32_t d;

	memset(j, 0, sizeof(*j));
	j->f = f;
	j->g = g;
	attach(j);
	type_field_writes(j);
	j->v = xcalloc(f->ndefs, sizeof(*j->v));
	for (d = 0; d < f->ndefs; d++)
		judge_def(j, d);
}
