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
#include "link.h"
#include "perm.h"

#define MAX_EVIDENCE 64

const char *const klass_names[K_NCLASSES] = {
	"ro_after_init", "const", "rejected", "already", "skip",
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
	map_free(&m.statics);
	map_free(&m.globals);
	free(m.next);
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

static int param_status(const struct judge *j, const struct param *p,
			char *buf, size_t len)
{
	const char *perm = strtab_str(&j->f->strs, p->perm);
	long bits = perm_parse(perm);
	const char *kind = pkind_names[p->kind];

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
		if (j->f->params[p].var == w->var)
			return 1;
	}
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

int event_status(const struct judge *j, uint32_t d, const struct event *e,
		 char *buf, size_t len)
{
	const struct strtab *s = &j->f->strs;
	const struct write *w;
	uint32_t n;

	buf[0] = '\0';
	if (e->is_param)
		return param_status(j, &j->f->params[e->idx], buf, len);
	w = &j->f->writes[e->idx];
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
	if (w->func == STR_NONE) {
		snprintf(buf, len, form_is_direct(w->form) ?
			 "written at file scope" :
			 "address stored at file scope (table or initializer)");
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
	if (!form_is_direct(w->form)) {
		snprintf(buf, len, "%s escapes in init-only %s",
			 form_names[w->form], strtab_str(s, w->func));
		return EV_ESCAPE;
	}
	return EV_INIT;
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

		/* by-value mentions and a parameter's own mention are no writes */
		if (event_status(j, d, &j->ev[i], why, sizeof(why)) == EV_IGNORED)
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

static const char *skip_reason(const struct judge *j, const struct def *df)
{
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

static void judge_def(struct judge *j, uint32_t d)
{
	const struct def *df = &j->f->defs[d];
	struct verdict *v = &j->v[d];
	char why[512], first[1100], where[512];
	uint32_t i, ninit = 0, nesc = 0, nbad = 0;
	const char *skip = skip_reason(j, df);
	int partial;
	uint32_t err = graph_file_error(j->g, df->file, &partial);

	first[0] = '\0';
	for (i = j->ev_start[d]; i < j->ev_start[d + 1]; i++) {
		int st = event_status(j, d, &j->ev[i], why, sizeof(why));

		if (st == EV_INIT)
			ninit++;
		else if (st == EV_ESCAPE)
			nesc++;
		if (st != EV_BAD || nbad++)
			continue;
		event_where(j, &j->ev[i], where, sizeof(where));
		snprintf(first, sizeof(first), "%s: %s", where, why);
	}
	v->conf = C_NONE;
	if (skip) {
		v->klass = K_SKIP;
		snprintf(why, sizeof(why), "%s", skip);
	} else if (df->attrs & (A_RO_AFTER_INIT | A_CONST) || ro_section(j, df)) {
		v->klass = K_ALREADY;
		snprintf(why, sizeof(why), "%s%s%s",
			 df->attrs & A_CONST ? "const" : "__ro_after_init",
			 nbad && !(df->attrs & A_CONST) ?
			 "; written after init: " : "",
			 nbad && !(df->attrs & A_CONST) ? first : "");
	} else if (err != MAP_NONE && !partial) {
		v->klass = K_REJECTED;
		snprintf(why, sizeof(why),
			 "facts incomplete: spatch failed on %s (%s)",
			 strtab_str(&j->f->strs, df->file),
			 strtab_str(&j->f->strs, j->f->errors[err].reason));
	} else if (nbad) {
		v->klass = K_REJECTED;
		snprintf(why, sizeof(why), "%s", first);
	} else if (ninit + nesc) {
		v->klass = K_RO;
		v->conf = nesc || err != MAP_NONE ? C_MEDIUM : C_HIGH;
		snprintf(why, sizeof(why),
			 "%u init-only writes, %u escapes in init-only code%s",
			 ninit, nesc, err != MAP_NONE ?
			 "; its file has unparsed regions" : "");
	} else {
		v->klass = K_CONST;
		snprintf(why, sizeof(why), "never written%s",
			 df->init ? " after its initializer" :
			 " (zero-initialized)");
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
	j->v = xcalloc(f->ndefs, sizeof(*j->v));
	for (d = 0; d < f->ndefs; d++)
		judge_def(j, d);
}
