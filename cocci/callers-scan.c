// SPDX-License-Identifier: GPL-2.0
/*
 * callers-scan.c: the token scan of one file (see callers.c): the
 * definitions, the calls and the mentions that kill a name, the stores
 * in members and the calls through them.
 */
#include <stdlib.h>
#include <string.h>

#include "callers.h"

struct strtab strs;
struct name *names;
static size_t capnames;
struct edge *edges;
size_t nedges;
static size_t capedges;
struct store *stores;
size_t nstores;
static size_t capstores;
struct fcall *fcalls;
size_t nfcalls;
static size_t capfcalls;
static uint32_t nbodies;
size_t nconfused;

/* Skipped as callees and mentions: never a function's name. */
static const char *const keywords[] = {
	"if", "else", "for", "while", "do", "switch", "case", "default",
	"return", "sizeof", "typeof", "__typeof__", "__typeof", "goto",
	"break", "continue", "struct", "union", "enum", "typedef", "static",
	"extern", "const", "volatile", "inline", "__inline__", "__inline",
	"unsigned", "signed", "int", "char", "short", "long", "void", "bool",
	"_Bool", "float", "double", "register", "auto", "restrict",
	"__restrict", "asm", "__asm__", "__asm", "defined", "_Static_assert",
	"static_assert", "__attribute__", "__attribute", "alignof",
	"_Alignof", "__alignof__", "typeof_unqual",
};

/*
 * Attributes with arguments that stand between a definition's ')' and
 * its '{': skipped when looking for the function's name.
 */
static const char *const post_attrs[] = {
	"__attribute__", "__attribute", "__acquires", "__releases",
	"__must_hold", "__cond_acquires", "__cond_releases", "__acquire",
	"__release", "__no_context_analysis", "__diag_ignore",
};

static struct {
	const struct toks *t;
	uint32_t file;
	int record;		/* 0: the dry pass that checks the balance */
	unsigned int confused;	/* the line of the first imbalance, or 0 */
	const char *confused_why;
	unsigned char *cont;	/* tok_continuations() */
	size_t ncont;
	uint32_t *code;		/* token indexes outside preprocessor lines */
	uint8_t *bnd;		/* a preprocessor line stands before code[k] */
	size_t ncode, capcode;
} cur;

struct state {
	int depth;		/* braces */
	int pdepth;		/* parentheses at file scope, depth 0 */
	int tbody;		/* in a file-scope struct, union or enum body */
	uint32_t func;		/* the body's name, FN_NONE, FN_UNKNOWN */
	uint32_t body;		/* the body's number */
};

struct cond {
	struct state saved, first_end;
	int has_first;
};

static struct state st;

/* The first imbalance of the file (LINE 0: at its end). */
static void confuse(unsigned int line, const char *why)
{
	if (cur.confused)
		return;
	cur.confused = line ? line : UINT32_MAX;
	cur.confused_why = why;
}
static struct cond *conds;
static size_t nconds, capconds;

static void ensure_names(uint32_t id)
{
	size_t old = capnames;

	if (id < capnames)
		return;
	capnames = capnames ? capnames * 2 : 1 << 16;
	while (capnames <= id)
		capnames *= 2;
	names = xrealloc(names, capnames * sizeof(*names));
	memset(names + old, 0, (capnames - old) * sizeof(*names));
}

static uint32_t intern_n(const char *s, size_t len)
{
	char buf[1024];
	uint32_t id;

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	id = strtab_intern(&strs, buf);
	ensure_names(id);
	return id;
}

static uint32_t tok_id(size_t i)
{
	return intern_n(cur.t->v[i].s, cur.t->v[i].len);
}

/*
 * The name of token i.  Interning may grow names[], so the id comes first:
 * in names[tok_id(i)] the array may be read before the call moves it.
 */
static struct name *tok_name(size_t i)
{
	uint32_t id = tok_id(i);

	return &names[id];
}

static int is(size_t i, const char *s)
{
	return tok_is(cur.t, i, s);
}

static int ident(size_t i)
{
	return i < cur.t->n && cur.t->v[i].kind == T_IDENT;
}

static int keyword(size_t i)
{
	return tok_in(cur.t, i, keywords, ARRAY_SIZE(keywords));
}

static void kill_id(uint32_t id, enum kill k, unsigned int line,
		    uint32_t func)
{
	struct name *n = &names[id];

	if (n->kill)
		return;
	n->kill = k;
	n->kill_file = cur.file;
	n->kill_line = line;
	n->kill_func = func;
}

static void kill_tok(size_t i, enum kill k, uint32_t func)
{
	if (!cur.record || !ident(i) || keyword(i))
		return;
	kill_id(tok_id(i), k, cur.t->v[i].line, func);
}

static void add_edge(size_t i, uint32_t caller)
{
	uint32_t callee = tok_id(i);
	struct name *n = &names[callee];

	if (callee == caller)
		return;
	if (n->body == st.body && n->edge < nedges &&
	    edges[n->edge].caller == caller) {
		edges[n->edge].count++;
		return;
	}
	if (nedges == capedges) {
		capedges = capedges ? capedges * 2 : 1 << 20;
		edges = xrealloc(edges, capedges * sizeof(*edges));
	}
	edges[nedges].callee = callee;
	edges[nedges].caller = caller;
	edges[nedges].file = cur.file;
	edges[nedges].line = cur.t->v[i].line;
	edges[nedges].count = 1;
	n->body = st.body;
	n->edge = nedges++;
}

static void fkill_tok(size_t i, enum kill k)
{
	struct name *n;

	if (!cur.record || !ident(i) || keyword(i))
		return;
	n = tok_name(i);
	if (n->fkill)
		return;
	n->fkill = k;
	n->fkill_file = cur.file;
	n->fkill_line = cur.t->v[i].line;
}

static void add_store(uint32_t name, uint32_t field, unsigned int line)
{
	if (nstores == capstores) {
		capstores = capstores ? capstores * 2 : 1 << 16;
		stores = xrealloc(stores, capstores * sizeof(*stores));
	}
	stores[nstores].name = name;
	stores[nstores].field = field;
	stores[nstores].file = cur.file;
	stores[nstores].line = line;
	nstores++;
}

static void add_fcall(size_t i, uint32_t caller)
{
	if (nfcalls == capfcalls) {
		capfcalls = capfcalls ? capfcalls * 2 : 1 << 16;
		fcalls = xrealloc(fcalls, capfcalls * sizeof(*fcalls));
	}
	fcalls[nfcalls].field = tok_id(i);
	fcalls[nfcalls].caller = caller;
	fcalls[nfcalls].file = cur.file;
	fcalls[nfcalls].line = cur.t->v[i].line;
	nfcalls++;
}

/*
 * The function name at I is stored in a member: '.F = NAME' or
 * 'p->F = NAME' (or '= &NAME'), the whole right-hand side, so followed
 * by ';', ',' or '}'.  The member's name, or STR_NONE.
 */
static uint32_t stored_in(size_t i)
{
	size_t k = i;

	if (!is(i + 1, ";") && !is(i + 1, ",") && !is(i + 1, "}"))
		return STR_NONE;
	if (k > 0 && is(k - 1, "&"))
		k--;
	if (k < 3 || !is(k - 1, "=") || !ident(k - 2) ||
	    !(is(k - 3, ".") || is(k - 3, "->")))
		return STR_NONE;
	return tok_id(k - 2);
}

/*
 * The member at I is only tested: 'if (p->F)', 'if (!p->F)',
 * 'p->F && ...', 'p->F ? a : b', 'p->F == fn'.  A member followed by ')'
 * anywhere else may be a macro's argument that the macro calls
 * (PVOP_VCALL0(cpu.io_delay)).
 */
static int only_tested(size_t i)
{
	static const char *const tests[] = { "&&", "||", "?", "==", "!=" };
	static const char *const chain[] = { ".", "->", "!", "&&", "||",
					     "[", "]" };
	size_t k;

	if (tok_in(cur.t, i + 1, tests, ARRAY_SIZE(tests)))
		return 1;
	if (!is(i + 1, ")"))
		return 0;
	for (k = i; k > 0; k--) {
		const struct tok *t = &cur.t->v[k - 1];

		if (t->kind == T_PUNCT && !tok_in(cur.t, k - 1, chain,
						  ARRAY_SIZE(chain)))
			break;
	}
	return k >= 2 && is(k - 1, "(") &&
		(is(k - 2, "if") || is(k - 2, "while"));
}

/*
 * A member name at I (after '.' or '->'): a call through it from the
 * body it is in, a store into it (the stored name decides), a test, a
 * designator at file scope; anything else (its value read, passed or
 * returned) may call it from anywhere.
 */
static void member(size_t i)
{
	if (!cur.record || keyword(i))
		return;
	if (st.func == FN_NONE) {
		if (!is(i + 1, "="))
			fkill_tok(i, K_FILE);
	} else if (st.func == FN_UNKNOWN) {
		fkill_tok(i, K_UNKNOWN);
	} else if (is(i + 1, "(")) {
		add_fcall(i, st.func);
	} else if (!is(i + 1, "=") && !only_tested(i)) {
		fkill_tok(i, K_ADDR);
	}
}

/* A bare word at I passed as a macro's argument: 'M(a, NAME)'. */
static int bare_arg(size_t i)
{
	return i > 0 && (is(i - 1, "(") || is(i - 1, ",")) &&
		(is(i + 1, ",") || is(i + 1, ")"));
}
/*
 * Fragments of one or two letters (d##channel, d##_##r) name fields and
 * constants; a function family has a longer prefix (__do_sys##name,
 * trace_##name).
 */
static void add_paste(size_t i, int how)
{
	const struct tok *k = &cur.t->v[i];
	size_t n, letters = 0;

	for (n = 0; n < k->len; n++)
		letters += k->s[n] != '_';
	if (cur.record && k->len >= 3 && letters >= 2)
		tok_name(i)->paste |= how;
}

/* The code index of the '(' that matches the ')' at code index K. */
static size_t open_of(size_t k)
{
	int depth = 0;

	for (;; k--) {
		size_t i = cur.code[k];

		if (is(i, ")"))
			depth++;
		else if (is(i, "(") && --depth == 0)
			return k;
		if (!k)
			return SIZE_MAX;
	}
}

/*
 * The '{' at code index C opens a function body at file scope: its name
 * (the identifier before the parameter list), FN_UNKNOWN for a body with
 * no name the scan can tell, FN_NONE if it is no function body.  *init
 * is set if the tokens before the name, back to the previous ';', '}',
 * '{' or preprocessor line, include __init.
 */
static uint32_t body_name(size_t c, int *init)
{
	size_t k = c, o, q;

	*init = 0;
	/* attributes without arguments between ')' and '{' */
	while (k > 0 && ident(cur.code[k - 1]) && !cur.bnd[k])
		k--;
	for (;;) {
		if (k == 0 || !is(cur.code[k - 1], ")"))
			return FN_NONE;
		o = open_of(k - 1);
		if (o == SIZE_MAX || o == 0)
			return FN_UNKNOWN;
		q = o - 1;
		if (!ident(cur.code[q]) || keyword(cur.code[q]))
			return FN_UNKNOWN;
		if (!tok_in(cur.t, cur.code[q], post_attrs,
			    ARRAY_SIZE(post_attrs)))
			break;
		k = q;
	}
	for (k = q; k > 0 && !cur.bnd[k];) {
		size_t i = cur.code[--k];

		if (is(i, ";") || is(i, "}") || is(i, "{"))
			break;
		if (is(i, "__init"))
			*init = 1;
	}
	return cur.record ? tok_id(cur.code[q]) : 0;
}

/* A file-scope '{' that opens a struct, union or enum body. */
static int type_body(size_t c)
{
	static const char *const tags[] = { "struct", "union", "enum" };

	if (c >= 1 && tok_in(cur.t, cur.code[c - 1], tags, ARRAY_SIZE(tags)))
		return 1;
	return c >= 2 && ident(cur.code[c - 1]) &&
		tok_in(cur.t, cur.code[c - 2], tags, ARRAY_SIZE(tags));
}

static void open_brace(void)
{
	size_t c = cur.ncode - 1;
	uint32_t name;
	int init;

	if (st.depth == 0 && st.func == FN_NONE) {
		st.pdepth = 0;
		if (type_body(c)) {
			st.tbody = 1;
		} else {
			name = body_name(c, &init);
			if (name != FN_NONE) {
				st.func = name;
				st.body = ++nbodies;
			}
			if (cur.record && name != FN_NONE &&
			    name != FN_UNKNOWN) {
				names[name].ndefs++;
				names[name].ninit += init;
			}
		}
	}
	st.depth++;
}

static void close_brace(void)
{
	if (--st.depth < 0) {
		confuse(cur.t->v[cur.code[cur.ncode - 1]].line, "a '}' closes more than was opened");
		st.depth = 0;
	}
	if (st.depth == 0) {
		st.func = FN_NONE;
		st.tbody = 0;
		st.pdepth = 0;
	}
}

/* One identifier outside preprocessor lines. */
static void mention(size_t i)
{
	int call = is(i + 1, "(");
	uint32_t field;
	size_t prev;

	if (i > 0 && (is(i - 1, ".") || is(i - 1, "->"))) {
		member(i);
		return;
	}
	if (i > 0 && (is(i - 1, "struct") || is(i - 1, "union") ||
		      is(i - 1, "enum")))
		return;
	if (st.func != FN_NONE && is(i, "__init"))
		confuse(cur.t->v[i].line, "__init inside a function body");
	if (!cur.record || keyword(i))
		return;
	/* a member name passed bare may be pasted into p->NAME( */
	if (!call && bare_arg(i)) {
		if (st.func == FN_NONE)
			tok_name(i)->fsarg = 1;
		else
			fkill_tok(i, K_ARG);
	}
	field = call || st.tbody || st.func == FN_UNKNOWN ? STR_NONE :
		stored_in(i);
	if (field != STR_NONE) {
		add_store(tok_id(i), field, cur.t->v[i].line);
	} else if (st.func == FN_UNKNOWN) {
		kill_tok(i, K_UNKNOWN, FN_NONE);
	} else if (st.func != FN_NONE) {
		if (call)
			add_edge(i, st.func);
		else
			kill_tok(i, K_ADDR, st.func);
	} else if (!st.tbody) {
		/*
		 * A definition's or prototype's own name (or a file-scope
		 * macro's): NAME( after a type, an attribute or the end of
		 * the previous declaration.
		 */
		prev = cur.ncode >= 2 ? cur.code[cur.ncode - 2] : SIZE_MAX;
		if (call && st.depth == 0 && st.pdepth == 0 &&
		    (prev == SIZE_MAX || cur.bnd[cur.ncode - 1] || ident(prev) ||
		     is(prev, "*") || is(prev, ")") || is(prev, ";") ||
		     is(prev, "}")))
			return;
		kill_tok(i, K_FILE, FN_NONE);
	}
}

static void push_cond(void)
{
	if (nconds == capconds) {
		capconds = capconds ? capconds * 2 : 16;
		conds = xrealloc(conds, capconds * sizeof(*conds));
	}
	conds[nconds].saved = st;
	conds[nconds].has_first = 0;
	nconds++;
}

/* Is token K of the preprocessor line that ends at LAST the string S? */
static int dir_is(size_t k, size_t last, const char *s)
{
	return k <= last && is(k, s);
}

/*
 * The parameters of the function-like macro whose name is at I (the '('
 * right after the name, no space), up to LAST: *open and *close get the
 * parentheses' indexes, 0 if it is object-like.
 */
static void macro_params(size_t i, size_t last, size_t *open, size_t *close)
{
	const struct tok *n = &cur.t->v[i];
	size_t k;

	*open = *close = 0;
	if (!dir_is(i + 1, last, "(") || cur.t->v[i + 1].s != n->s + n->len)
		return;
	for (k = i + 1; k <= last; k++) {
		if (is(k, ")")) {
			*open = i + 1;
			*close = k;
			return;
		}
	}
}

/* Is the identifier at K one of the parameters between OPEN and CLOSE? */
static int is_param(size_t k, size_t open, size_t close)
{
	const struct tok *a = &cur.t->v[k];
	size_t p;

	if (tok_is(cur.t, k, "__VA_ARGS__"))
		return 1;
	for (p = open + 1; p < close; p++) {
		const struct tok *b = &cur.t->v[p];

		if (b->kind == T_IDENT && b->len == a->len &&
		    !memcmp(a->s, b->s, a->len))
			return 1;
	}
	return 0;
}

/*
 * The preprocessor line that starts with the '#' at I: conditionals move
 * the state, mentions are kills.  Returns the index of its last token.
 */
static size_t directive(size_t i)
{
	unsigned int end = cur.t->v[i].line;
	size_t last = i, k, from = i + 1, open = 0, close = 0;
	enum kill kind = K_DIRECTIVE;

	while (end < cur.ncont && cur.cont[end])
		end++;
	while (last + 1 < cur.t->n && cur.t->v[last + 1].line <= end)
		last++;
	if (dir_is(i + 1, last, "if") || dir_is(i + 1, last, "ifdef") ||
	    dir_is(i + 1, last, "ifndef")) {
		push_cond();
	} else if (dir_is(i + 1, last, "elif") || dir_is(i + 1, last, "else")) {
		if (!nconds) {
			confuse(cur.t->v[i].line, "#else or #elif without #if");
		} else {
			struct cond *c = &conds[nconds - 1];

			if (!c->has_first) {
				c->first_end = st;
				c->has_first = 1;
			}
			st = c->saved;
		}
	} else if (dir_is(i + 1, last, "endif")) {
		if (!nconds) {
			confuse(cur.t->v[i].line, "#endif without #if");
		} else {
			nconds--;
			if (conds[nconds].has_first)
				st = conds[nconds].first_end;
		}
	} else if (dir_is(i + 1, last, "define") ||
		   dir_is(i + 1, last, "undef")) {
		/* the macro's own name is no mention */
		from = i + 3;
		kind = K_DEFINE;
		if (i + 2 <= last)
			macro_params(i + 2, last, &open, &close);
	} else if (dir_is(i + 1, last, "include") ||
		   dir_is(i + 1, last, "include_next")) {
		from = last + 1;
	}
	for (k = from; k <= last; k++) {
		/* a literal fragment pasted to a parameter names a family */
		if (is(k, "##") && kind == K_DEFINE) {
			if (k - 1 >= from && ident(k - 1) &&
			    !(close && is_param(k - 1, open, close)))
				add_paste(k - 1, 1);
			if (k + 1 <= last && ident(k + 1) &&
			    !(close && is_param(k + 1, open, close)))
				add_paste(k + 1, 2);
		}
		/* a member in a #define body is used wherever it expands */
		if (ident(k) && (is(k - 1, ".") || is(k - 1, "->")))
			fkill_tok(k, kind);
		else if (ident(k) && !is(k, "defined"))
			kill_tok(k, kind, FN_NONE);
	}
	return last;
}

static void add_code(size_t i)
{
	if (cur.ncode == cur.capcode) {
		cur.capcode = cur.capcode ? cur.capcode * 2 : 1 << 16;
		cur.code = xrealloc(cur.code, cur.capcode * sizeof(*cur.code));
		cur.bnd = xrealloc(cur.bnd, cur.capcode);
	}
	cur.code[cur.ncode] = i;
	cur.bnd[cur.ncode] = 0;
	cur.ncode++;
}

static void walk(void)
{
	size_t i;
	int pending_bnd = 0;

	memset(&st, 0, sizeof(st));
	st.func = FN_NONE;
	nconds = 0;
	cur.ncode = 0;
	cur.confused = 0;
	for (i = 0; i < cur.t->n; i++) {
		if (tok_directive(cur.t, i)) {
			i = directive(i);
			pending_bnd = 1;
			continue;
		}
		add_code(i);
		if (pending_bnd) {
			cur.bnd[cur.ncode - 1] = 1;
			pending_bnd = 0;
		}
		if (is(i, "{")) {
			open_brace();
		} else if (is(i, "}")) {
			close_brace();
		} else if (is(i, "(")) {
			if (st.func == FN_NONE && st.depth == 0)
				st.pdepth++;
		} else if (is(i, ")")) {
			if (st.func == FN_NONE && st.depth == 0 && st.pdepth > 0)
				st.pdepth--;
		} else if (is(i, ";")) {
			if (st.func == FN_NONE && st.depth == 0)
				st.pdepth = 0;
		} else if (ident(i)) {
			mention(i);
		}
	}
	if (st.depth || nconds)
		confuse(0, st.depth ? "braces still open at the end" : "#if still open at the end");
}

/*
 * Identifiers in string literals are mentions: asm("call NAME"),
 * kallsyms_lookup_name("NAME"), __stringify() results.  Each is killed
 * at the line its literal starts on.
 */
static void scan_strings(void)
{
	size_t n, i, k;

	for (n = 0; n < cur.t->n; n++) {
		const struct tok *s = &cur.t->v[n];

		if (s->kind != T_STRING)
			continue;
		for (i = 1; i < s->len && s->s[i] != '"' && s->s[i] != '\n';) {
			if (s->s[i] == '\\') {
				i += 2;
			} else if (is_ident_start(s->s[i])) {
				k = i;
				while (i < s->len && is_ident_char(s->s[i]))
					i++;
				kill_id(intern_n(s->s + k, i - k), K_STRING,
					s->line, FN_NONE);
			} else {
				i++;
			}
		}
	}
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

void scan_file(const char *path, const char *buf, size_t len,
	       struct toks *t)
{
	enum kill all = K_NONE;
	size_t i;

	cur.file = strtab_intern(&strs, path);
	ensure_names(cur.file);
	tokenize(buf, len, t);
	cur.t = t;
	cur.record = 1;
	if (ends_with(path, ".S") || ends_with(path, ".s"))
		all = K_ASM;
	else if (ends_with(path, ".rs"))
		all = K_RUST;
	else if (!ends_with(path, ".c") && !ends_with(path, ".h"))
		all = K_OTHER;
	if (all == K_NONE) {
		tok_continuations(buf, len, &cur.cont, &cur.ncont);
		cur.record = 0;
		walk();
		if (cur.confused) {
			all = K_CONFUSED;
			nconfused++;
			if (stats && cur.confused == UINT32_MAX)
				fprintf(stderr, "callers: unbalanced: %s: %s\n",
					path, cur.confused_why);
			else if (stats)
				fprintf(stderr, "callers: unbalanced: %s:%u: %s\n",
					path, cur.confused, cur.confused_why);
		}
		cur.record = 1;
	}
	if (all != K_NONE) {
		for (i = 0; i < t->n; i++) {
			kill_tok(i, all, FN_NONE);
			fkill_tok(i, all);
		}
	} else {
		walk();
	}
	scan_strings();
}
