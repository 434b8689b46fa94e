// SPDX-License-Identifier: GPL-2.0
/*
 * protos: which arguments of which functions are pointers to const.
 *
 * &x passed as such an argument is a read: the callee cannot write x
 * through it, and whatever it keeps is a pointer to const, so nobody it
 * hands the pointer to can write x either (short of a cast, which the
 * kernel does not do to objects it was given as const).  dentry_open()
 * takes a const struct path *, genlmsg_put() a const struct genl_family *.
 * candidates/classify.c counts such an escape as a read
 * (cocci/FACTS.md, protos.tsv).
 *
 * Reads the C files named in LIST (paths relative to TREE, one a line):
 * every function declaration and definition at file scope, and every
 * #define.  A name's argument K is const when EVERY declaration of the
 * name in those files (all architectures and configurations) declares
 * parameter K a pointer to const, and every macro of that name forwards
 * its K-th parameter, untouched, as a whole argument of a call whose
 * argument is const the same way (#define load_idt(dtr)
 * native_load_idt(dtr)); any other macro of the name makes all of its
 * arguments unknown.  Prints a TSV
 *
 *   name  arg  file  line
 *
 * one row per const argument (ARG counts from 0), with the first
 * declaration of the name.  A name it never sees declared has no rows.
 *
 * The same for members (arg "-"): a member name whose every declaration
 * in a struct or union body of those files is a pointer to const.  An
 * address stored there at file scope, ".regsets = x86_64_regsets", is a
 * read.  Arrays, function pointers, bit-fields, members a macro
 * declares, and "type name;" in a #define body count as not const.
 *
 * It is a token scan, not a parser: a declaration it cannot read (made by
 * a macro, or with a typedef that hides the pointer) has no rows, which
 * makes the table smaller, never wrong about a row it prints.
 *
 * Exit status: 0, 1 if a file could not be read (named on stderr; the
 * others are still read), 64 usage, 65 LIST cannot be opened, 70 a host
 * error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cattrs.h"
#include "ctok.h"
#include "strtab.h"

#define MAX_ARGS	32
#define MAX_DEPTH	8

/* Never the name of a function declared: keywords and type words. */
static const char *const not_names[] = {
	"if", "while", "for", "switch", "return", "sizeof", "typeof",
	"__typeof__", "__typeof", "__attribute__", "__attribute", "asm",
	"__asm__", "__asm", "_Static_assert", "static_assert", "alignof",
	"_Alignof", "__alignof__", "offsetof", "defined", "int", "void",
	"char", "short", "long", "unsigned", "signed", "float", "double",
	"_Bool", "bool", "const", "volatile", "struct", "union", "enum",
	"__section", "__aligned", "__printf", "__scanf", "__diag_ignore",
};

/* One declaration, definition or #define of a name. */
struct decl {
	uint32_t name, file, next;
	unsigned int line;
	uint32_t const_args;	/* a function: bit K, argument K is const */
	uint32_t target;	/* a forwarding macro: the callee, or STR_NONE */
	signed char fwd[MAX_ARGS];	/* its argument for our K, or -1 */
	unsigned char is_macro;
};

static struct strtab strs;
static struct decl *decls;
static size_t ndecls, capdecls;
static uint32_t *first;		/* name id -> first decl, UINT32_MAX none */
static size_t nfirst;

static struct {
	const struct toks *t;
	const char *buf;
	size_t len;
	uint32_t file;
	unsigned char *cont;	/* tok_continuations() */
	size_t ncont;
} cur;

static int is(size_t i, const char *s)
{
	return tok_is(cur.t, i, s);
}

static int ident(size_t i)
{
	return i < cur.t->n && cur.t->v[i].kind == T_IDENT;
}

static uint32_t tok_name(size_t i)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%.*s", (int)cur.t->v[i].len,
		 cur.t->v[i].s);
	return strtab_intern(&strs, buf);
}

static struct decl *add_decl(uint32_t name, unsigned int line)
{
	struct decl *d;

	if (ndecls == capdecls) {
		capdecls = capdecls ? capdecls * 2 : 65536;
		decls = xrealloc(decls, capdecls * sizeof(*decls));
	}
	d = &decls[ndecls++];
	memset(d, 0, sizeof(*d));
	d->name = name;
	d->file = cur.file;
	d->line = line;
	d->target = STR_NONE;
	memset(d->fwd, -1, sizeof(d->fwd));
	return d;
}

/* The index of the bracket that closes the one at OPEN, or END. */
static size_t close_of(size_t open, size_t end)
{
	return tok_close(cur.t, open, end);
}

/* The next top-level ',' (or END) of the list that starts at I. */
static size_t next_comma(size_t i, size_t end)
{
	for (; i < end; i++) {
		if (is(i, "(") || is(i, "[") || is(i, "{"))
			i = close_of(i, end);
		else if (is(i, ","))
			break;
	}
	return i;
}

/*
 * Is the parameter in tokens [A, B) a pointer to const?  The pointee is
 * what the last '*' points to: const if a 'const' stands between that
 * '*' and the one before it (or the start): "const struct x *p",
 * "const char *const *names", not "const char **p" or "char *const p".
 * An array parameter, "const u8 key[16]", is a pointer to its element.
 */
static int param_const(size_t a, size_t b)
{
	size_t i, last = b, prev = a, bracket = b;
	int seen_const = 0;

	for (i = a; i < b; i++) {
		if (is(i, "(")) {
			/* a function pointer "(*f)(...)": no object */
			if (is(i + 1, "*") || is(i + 1, "^"))
				return 0;
			i = close_of(i, b);
			continue;
		}
		if (is(i, "[") && bracket == b)
			bracket = i;
		if (is(i, "*") && bracket == b) {
			prev = last == b ? a : last + 1;
			last = i;
		}
	}
	if (last == b) {
		/* no pointer: an array parameter or a value */
		if (bracket == b)
			return 0;
		last = bracket;
		prev = a;
	}
	for (i = prev; i < last; i++) {
		if (is(i, "("))
			i = close_of(i, last);
		else if (is(i, "const"))
			seen_const = 1;
	}
	return seen_const;
}

/*
 * The declaration NAME ( params ) with NAME at I and the '(' at I + 1;
 * CLOSE is its ')'.
 */
static void add_function(size_t i, size_t close)
{
	struct decl *d = add_decl(tok_name(i), cur.t->v[i].line);
	size_t a = i + 2, b;
	int k = 0;

	if (is(a, "void") && a + 1 == close)
		return;
	while (a < close && k < MAX_ARGS) {
		b = next_comma(a, close);
		if (is(a, "..."))
			break;
		if (param_const(a, b))
			d->const_args |= 1u << k;
		k++;
		a = b + 1;
	}
}

/* The last physical line of the directive that starts on line LINE. */
static unsigned int directive_end(unsigned int line)
{
	while (line < cur.ncont && cur.cont[line])
		line++;
	return line;
}

/*
 * #define at I ('#'), its tokens up to index END.  A macro that only
 * forwards its parameters to one call, "#define f(a, b) g(b, a)", maps
 * each to the callee's argument; any other macro maps none.  An object
 * macro "#define f g" forwards all of them.
 */
static void add_macro(size_t i, size_t end)
{
	const struct tok *nm = &cur.t->v[i + 2];
	struct decl *d = add_decl(tok_name(i + 2), nm->line);
	uint32_t params[MAX_ARGS];
	size_t body, call, cclose, a, b, p;
	int np = 0, j, k, uses;

	d->is_macro = 1;
	if (!(i + 3 < end && is(i + 3, "(") &&
	      cur.t->v[i + 3].s == nm->s + nm->len)) {
		/* an object macro */
		if (i + 4 == end && ident(i + 3)) {
			d->target = tok_name(i + 3);
			for (k = 0; k < MAX_ARGS; k++)
				d->fwd[k] = k;
		}
		return;
	}
	p = i + 4;
	while (p < end && !is(p, ")")) {
		if (ident(p) && np < MAX_ARGS)
			params[np++] = tok_name(p);
		else if (!is(p, ","))
			return;		/* "..." and the like: no forwarding */
		p++;
	}
	body = p + 1;
	if (body >= end)
		return;
	/* one pair of parentheses around the whole body does not matter */
	if (is(body, "(") && close_of(body, end) == end - 1) {
		body++;
		end--;
	}
	call = body;
	if (!ident(call) || !is(call + 1, "(") ||
	    close_of(call + 1, end) != end - 1)
		return;
	cclose = end - 1;
	d->target = tok_name(call);
	for (k = 0; k < np; k++) {
		uses = 0;
		for (p = body; p < end; p++) {
			if (ident(p) && tok_name(p) == params[k])
				uses++;
		}
		if (uses != 1)
			continue;
		for (a = call + 2, j = 0; a <= cclose && j < MAX_ARGS; j++) {
			b = next_comma(a, cclose);
			if ((b == a + 1 && ident(a) &&
			     tok_name(a) == params[k]) ||
			    (b == a + 3 && is(a, "(") && ident(a + 1) &&
			     tok_name(a + 1) == params[k] && is(a + 2, ")")))
				d->fwd[k] = j;
			a = b + 1;
		}
	}
}

/* After a ')' that closes parameters: attributes, then ; { or ,? */
static int ends_declaration(size_t i)
{
	while (ident(i)) {
		i++;
		if (is(i, "("))
			i = close_of(i, cur.t->n) + 1;
	}
	return is(i, ";") || is(i, "{") || is(i, ",");
}

/*
 * Is the ")" at I the end of an attribute, "__attribute__((x))" or
 * "__section(x)", that may stand before the name of a function?
 */
static int after_attr(size_t i)
{
	size_t k;
	int depth = 0;

	if (!is(i, ")"))
		return 0;
	for (k = i + 1; k-- > 0;) {
		if (is(k, ")"))
			depth++;
		else if (is(k, "(") && --depth == 0)
			break;
	}
	return k > 0 && k <= i && ident(k - 1) &&
	       !strncmp(cur.t->v[k - 1].s, "__", 2);
}

/*
 * Members of struct and union bodies, by name over the whole tree: how
 * many declarations, how many of them a pointer to const.  A member
 * whose every declaration is one (user_regset_view's "const struct
 * user_regset *regsets") holds no pointer anyone writes through: &x
 * stored there at file scope, ".regsets = x86_64_regsets", is a read.
 */
struct member {
	uint32_t ndecls, nconst;
	uint32_t file;
	unsigned int line;
};

static struct member *members;
static size_t capmembers;

static void add_member(size_t i, int is_const)
{
	uint32_t name = tok_name(i);
	size_t old = capmembers;
	struct member *m;

	if (name >= capmembers) {
		capmembers = capmembers ? capmembers : 65536;
		while (capmembers <= name)
			capmembers *= 2;
		members = xrealloc(members, capmembers * sizeof(*members));
		memset(members + old, 0,
		       (capmembers - old) * sizeof(*members));
	}
	m = &members[name];
	if (!m->ndecls++) {
		m->file = cur.file;
		m->line = cur.t->v[i].line;
	}
	m->nconst += is_const;
}

/* Every identifier in [A, B) may be a member, of unknown type. */
static void add_unknown(size_t a, size_t b)
{
	for (; a < b; a++) {
		if (ident(a))
			add_member(a, 0);
	}
}

/*
 * The name of the declarator that ends at B (before a '[', ':' or '='),
 * skipping attributes after it, or B if there is none the scan can
 * read.
 */
static size_t member_name(size_t a, size_t b)
{
	size_t k = b, o;
	int depth;

	while (k > a) {
		if (is(k - 1, ")")) {
			/* an attribute's arguments: __aligned(8) */
			for (o = k - 1, depth = 0; o > a; o--) {
				if (is(o, ")"))
					depth++;
				else if (is(o, "(") && --depth == 0)
					break;
			}
			if (o == a || !tok_in(cur.t, o - 1, c_member_attrs,
					      n_c_member_attrs))
				return b;
			k = o - 1;
		} else if (tok_in(cur.t, k - 1, c_member_attrs,
				  n_c_member_attrs)) {
			k--;
		} else {
			break;
		}
	}
	if (k == a || !ident(k - 1) ||
	    tok_in(cur.t, k - 1, not_names, ARRAY_SIZE(not_names)))
		return b;
	return k - 1;
}

/* The first '[', ':' or '=' in [A, B) outside parentheses, or B. */
static size_t declarator_end(size_t a, size_t b)
{
	for (; a < b; a++) {
		if (is(a, "("))
			a = close_of(a, b);
		else if (is(a, "[") || is(a, ":") || is(a, "="))
			break;
	}
	return a;
}

/*
 * One member declaration, tokens [A, B) without its ';': "const struct
 * x *p", "const char *a, *b", "void (*fn)(void)", "int n : 3".
 */
static void member_decl(size_t a, size_t b)
{
	size_t c, e, n, k, spec;
	int first = 1, spec_const = 0, stars, is_const;

	for (k = a; k < b; k++) {
		if (is(k, "{")) {
			/* a nested body, which the scan reads on its own */
			add_unknown(close_of(k, b), b);
			return;
		}
		if (is(k, "(") && (is(k + 1, "*") || is(k + 1, "^"))) {
			/* a pointer to a function or an array: no slot */
			add_unknown(a, b);
			return;
		}
	}
	while (a < b) {
		c = next_comma(a, b);
		e = declarator_end(a, c);
		n = member_name(a, e);
		if (n == e) {
			add_unknown(a, c);
		} else if (first) {
			is_const = e == c && param_const(a, n + 1);
			add_member(n, is_const);
			/* the specifiers: up to the first '*' or the name */
			for (spec = a; spec < n && !is(spec, "*"); spec++)
				spec_const |= is(spec, "const");
		} else {
			for (stars = 0, k = a; k < n; k++)
				stars += is(k, "*");
			is_const = e == c && spec_const && stars == 1 &&
				n == a + 1;
			add_member(n, is_const);
		}
		first = 0;
		a = c + 1;
	}
}

/* Does the '{' at I open a struct or union body? */
static int opens_struct(size_t i)
{
	if (i >= 1 && (is(i - 1, "struct") || is(i - 1, "union")))
		return 1;
	return i >= 2 && ident(i - 1) &&
		(is(i - 2, "struct") || is(i - 2, "union"));
}

/* The struct or union body from OPEN ('{') to CLOSE, and those in it. */
static void struct_body(size_t open, size_t close)
{
	size_t a = open + 1, k, e;
	unsigned int last;

	for (k = a; k < close; k++) {
		if (is(k, "{")) {
			e = close_of(k, close);
			if (opens_struct(k))
				struct_body(k, e);
			k = e;
		} else if (is(k, ";")) {
			if (k > a)
				member_decl(a, k);
			a = k + 1;
		} else if (is(k, "#") && cur.t->v[k - 1].line < cur.t->v[k].line) {
			/* #ifdef in the body: declarations on both sides */
			if (k > a)
				add_unknown(a, k);
			last = directive_end(cur.t->v[k].line);
			while (k + 1 < close && cur.t->v[k + 1].line <= last)
				k++;
			a = k + 1;
		}
	}
	if (a < close)
		add_unknown(a, close);
}

static void scan(const struct toks *t)
{
	size_t i, e, k2;
	int depth = 0;

	cur.t = t;
	tok_continuations(cur.buf, cur.len, &cur.cont, &cur.ncont);
	for (i = 0; i < t->n; i++) {
		const struct tok *k = &t->v[i];

		if (tok_directive(t, i)) {
			unsigned int last = directive_end(k->line);

			for (e = i + 1; e < t->n && t->v[e].line <= last; e++)
				;
			if (is(i + 1, "define") && ident(i + 2))
				add_macro(i, e);
			/* a member a macro declares: "type name;" */
			for (k2 = i + 3; is(i + 1, "define") && k2 + 1 < e; k2++) {
				if (ident(k2) && is(k2 + 1, ";"))
					add_member(k2, 0);
			}
			i = e - 1;
			continue;
		}
		if (is(i, "{")) {
			if (depth == 0 && opens_struct(i))
				struct_body(i, close_of(i, t->n));
			depth++;
		} else if (is(i, "}")) {
			if (depth > 0)
				depth--;
		} else if (depth == 0 && is(i, "typedef")) {
			/* up to its ';': never a function declaration */
			while (i + 1 < t->n && !is(i + 1, ";")) {
				i++;
				if (is(i, "{") || is(i, "(")) {
					e = close_of(i, t->n);
					if (is(i, "{") && opens_struct(i))
						struct_body(i, e);
					i = e;
				}
			}
		} else if (depth == 0 && ident(i) && is(i + 1, "(") && i > 0 &&
			   (ident(i - 1) || is(i - 1, "*") || after_attr(i - 1)) &&
			   !tok_in(t, i, not_names, ARRAY_SIZE(not_names)) &&
			   !is(i - 1, "struct") && !is(i - 1, "union") &&
			   !is(i - 1, "enum")) {
			size_t close = close_of(i + 1, t->n);

			if (close < t->n && ends_declaration(close + 1))
				add_function(i, close);
			i = close < t->n ? close : i;
		}
	}
}

static uint32_t decl_first(uint32_t name)
{
	return name < nfirst ? first[name] : UINT32_MAX;
}

/* Is argument K of NAME const in every declaration and macro? */
static int arg_const(uint32_t name, int k, int depth)
{
	uint32_t d = decl_first(name);

	if (d == UINT32_MAX || depth > MAX_DEPTH || k < 0 || k >= MAX_ARGS)
		return 0;
	for (; d != UINT32_MAX; d = decls[d].next) {
		const struct decl *x = &decls[d];

		if (!x->is_macro && !(x->const_args & (1u << k)))
			return 0;
		if (x->is_macro && (x->target == STR_NONE ||
				    !arg_const(x->target, x->fwd[k],
					       depth + 1)))
			return 0;
	}
	return 1;
}

static void print_usage(FILE *out)
{
	fprintf(out,
		"usage: protos TREE LIST\n"
		"\n"
		"Print, as TSV (name arg file line), every argument of a function\n"
		"declared in the C files of LIST (paths relative to TREE, one a\n"
		"line, '-' for standard input) that every declaration and macro of\n"
		"that name takes as a pointer to const: &x passed there is a read;\n"
		"and, with arg '-', every struct or union member that every\n"
		"declaration of that name makes a pointer to const.\n"
		"Exit status: 0, 1 a file could not be read, 64 usage, 65 LIST\n"
		"cannot be opened, 70 host.\n");
}

int main(int argc, char **argv)
{
	FILE *list;
	char *line = NULL, path[4096];
	size_t cap = 0, i;
	struct toks t = { 0 };
	uint32_t name;
	int status = 0, k;

	prog_name = "protos";
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		print_usage(stdout);
		return 0;
	}
	if (argc != 3) {
		print_usage(stderr);
		return RC_USAGE;
	}
	list = strcmp(argv[2], "-") ? fopen(argv[2], "r") : stdin;
	if (!list)
		die(RC_DATA, "%s: %s", argv[2], strerror(errno));
	strtab_init(&strs);
	while (read_text_line(list, argv[2], &line, &cap)) {
		char *buf;

		if (!line[0])
			continue;
		snprintf(path, sizeof(path), "%s/%s", argv[1], line);
		buf = read_file(path, &cur.len);
		if (!buf) {
			warnx("%s: %s", path, strerror(errno));
			status = 1;
			continue;
		}
		cur.buf = buf;
		cur.file = strtab_intern(&strs, line);
		tokenize(buf, cur.len, &t);
		scan(&t);
		free(buf);
	}
	if (list != stdin)
		fclose(list);

	/* chain the declarations of each name, in the order read */
	nfirst = strs.n;
	first = xmalloc(nfirst * sizeof(*first));
	for (i = 0; i < nfirst; i++)
		first[i] = UINT32_MAX;
	for (i = ndecls; i-- > 0;) {
		decls[i].next = first[decls[i].name];
		first[decls[i].name] = i;
	}
	printf("name\targ\tfile\tline\n");
	for (name = 0; name < nfirst; name++) {
		const struct decl *d;

		if (first[name] == UINT32_MAX)
			continue;
		d = &decls[first[name]];
		for (k = 0; k < MAX_ARGS; k++) {
			if (arg_const(name, k, 0))
				printf("%s\t%d\t%s\t%u\n", strtab_str(&strs, name),
				       k, strtab_str(&strs, d->file), d->line);
		}
	}
	for (name = 0; name < capmembers; name++) {
		const struct member *m = &members[name];

		if (m->ndecls && m->nconst == m->ndecls)
			printf("%s\t-\t%s\t%u\n", strtab_str(&strs, name),
			       strtab_str(&strs, m->file), m->line);
	}
	if (fflush(stdout) || ferror(stdout))
		die(RC_HOST, "stdout: write error: %s", strerror(errno));
	free(line);
	free(t.v);
	free(cur.cont);
	free(decls);
	free(members);
	free(first);
	strtab_free(&strs);
	return status;
}
