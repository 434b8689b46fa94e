// SPDX-License-Identifier: GPL-2.0
/*
 * layouts: which struct and union types embed, by value, an object that
 * its keeper writes after init.  An object of such a type whose address
 * escapes is written after init by whoever keeps it: the next list
 * registration rewrites its list links, a get or put its count, a lock
 * its lock word (candidates/classify.c, the type trap).  The trap types
 * are lib/traps.tsv's: its base types are the roots, its inert types
 * never trap, whatever they embed.
 *
 * Reads the C files named in LIST (paths relative to TREE, one a line)
 * and every struct, union and typedef defined in them, and prints a TSV
 *
 *   type  field  trap  file  line
 *
 * for every type that embeds a trap by value, directly or through
 * members of member types: "struct acpi_scan_handler  hotplug.kobj
 * struct kobject  include/acpi/acpi_bus.h  135" says that the struct
 * embeds a struct acpi_hotplug_profile named hotplug, which embeds the
 * kobject kobj; file and line are those of the first member of the chain.
 * The trap types themselves are not printed.  Pointers never count, arrays
 * do; members of anonymous structs and unions belong to the outer type,
 * named with the path of their declarators.
 *
 * It is a token scan, not a parser: a member whose type it cannot name
 * (a macro that expands to members, other than DECLARE_HASHTABLE and the
 * struct_group() family) is not seen, which makes the table smaller, never
 * wrong about a member it prints.  A type name defined more than once (per
 * architecture, or in several drivers) traps if any definition does.
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
#include "traps.h"

/* Never a member's type name: qualifiers and the like. */
static const char *const qualifiers[] = {
	"const", "volatile", "static", "extern", "register", "__rcu",
	"__percpu", "__iomem", "__user", "__force", "__private", "signed",
	"unsigned", "__signed__", "__unsigned__", "__data_racy",
};

struct member {
	uint32_t owner;		/* "struct x", "union y" or a typedef name */
	uint32_t field;		/* "f", "a.f" for members of anonymous parts */
	uint32_t type;		/* the member's type, by value */
	uint32_t file;
	unsigned int line;
};

static struct strtab strs;
static struct member *members;
static size_t nmembers, capmembers;

/*
 * --values: the pointer members too, for the finder's value column
 * (candidates/value.c): what a member points to, and function pointers.
 */
enum vkind { VM_PTR, VM_FN };

struct vmember {
	uint32_t owner, field, type;	/* type: what a VM_PTR points to */
	uint32_t file;
	unsigned int line;
	uint8_t kind;
};

static struct vmember *vmembers;
static size_t nvmembers, capvmembers;
static int values;		/* --values: print the value table */
/* typedef names of a function or function pointer type */
static struct strtab fntypes;

static struct {
	const struct toks *t;
	uint32_t file;
} cur;

static void add_member(uint32_t owner, const char *field, uint32_t type,
		       unsigned int line)
{
	if (nmembers == capmembers) {
		capmembers = capmembers ? capmembers * 2 : 65536;
		members = xrealloc(members, capmembers * sizeof(*members));
	}
	members[nmembers].owner = owner;
	members[nmembers].field = strtab_intern(&strs, field);
	members[nmembers].type = type;
	members[nmembers].file = cur.file;
	members[nmembers].line = line;
	nmembers++;
}

static void add_vmember(uint32_t owner, const char *field, uint32_t type,
			int kind, unsigned int line)
{
	if (!values)
		return;
	if (nvmembers == capvmembers) {
		capvmembers = capvmembers ? capvmembers * 2 : 65536;
		vmembers = xrealloc(vmembers,
				    capvmembers * sizeof(*vmembers));
	}
	vmembers[nvmembers].owner = owner;
	vmembers[nvmembers].field = strtab_intern(&strs, field);
	vmembers[nvmembers].type = type;
	vmembers[nvmembers].file = cur.file;
	vmembers[nvmembers].line = line;
	vmembers[nvmembers].kind = kind;
	nvmembers++;
}

static int is(size_t i, const char *s)
{
	return tok_is(cur.t, i, s);
}

static int ident(size_t i)
{
	return i < cur.t->n && cur.t->v[i].kind == T_IDENT;
}

static int in(size_t i, const char *const *set, size_t n)
{
	return tok_in(cur.t, i, set, n);
}

/* "struct NAME" for the tag at I (struct or union), interned. */
static uint32_t tag_name(size_t i)
{
	char buf[256];
	const struct tok *kw = &cur.t->v[i], *id = &cur.t->v[i + 1];

	snprintf(buf, sizeof(buf), "%.*s %.*s", (int)kw->len, kw->s,
		 (int)id->len, id->s);
	return strtab_intern(&strs, buf);
}

/* The text of token I, in a static buffer. */
static const char *tok_text(size_t i)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%.*s", (int)cur.t->v[i].len,
		 cur.t->v[i].s);
	return buf;
}

static uint32_t tok_name(size_t i)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%.*s", (int)cur.t->v[i].len,
		 cur.t->v[i].s);
	return strtab_intern(&strs, buf);
}

/* The index of the bracket that closes the one at OPEN, or t->n. */
static size_t close_of(size_t open)
{
	return tok_close(cur.t, open, cur.t->n);
}

/* The next token at or after I that is not an attribute (with its args). */
static size_t skip_attrs(size_t i, size_t end)
{
	while (i < end && in(i, c_member_attrs, n_c_member_attrs)) {
		i++;
		if (i < end && is(i, "("))
			i = close_of(i) + 1;
	}
	return i;
}

static size_t parse_body(uint32_t owner, const char *prefix, size_t open);

/*
 * The declarators of a member from I to END (exclusive), of type TYPE:
 * each one that is no pointer and no function is a member named by its
 * first identifier.  STR_NONE: a type not worth recording.
 */
static void declarators(uint32_t owner, const char *prefix, uint32_t type,
			size_t i, size_t end)
{
	char field[512];

	while (i < end) {
		size_t d = i, name = 0;
		int skip = 0;

		size_t fname = 0;
		int star = 0;

		for (; i < end && !is(i, ","); i++) {
			if (is(i, "*") || is(i, "("))
				skip = 1;
			if (is(i, "*"))
				star = 1;
			if (is(i, "(") && is(i + 1, "*") && !fname) {
				/* (*name)(...), (*name[N])(...) */
				size_t k, c = close_of(i);

				for (k = i + 2; k < c; k++) {
					if (ident(k) && !in(k, qualifiers,
							    ARRAY_SIZE(qualifiers))) {
						fname = k + 1;
						break;
					}
				}
			}
			if (is(i, "(") || is(i, "["))
				i = close_of(i);
			else if (!name && ident(i) &&
				 !in(i, c_member_attrs, n_c_member_attrs) &&
				 !in(i, qualifiers, ARRAY_SIZE(qualifiers)))
				name = i + 1;
		}
		i++;
		if (fname || (star && name)) {
			size_t nm = fname ? fname : name;

			snprintf(field, sizeof(field), "%s%.*s", prefix,
				 (int)cur.t->v[nm - 1].len,
				 cur.t->v[nm - 1].s);
			add_vmember(owner, field, type,
				    fname ? VM_FN : VM_PTR,
				    cur.t->v[d].line);
		}
		if (skip || !name || type == STR_NONE)
			continue;
		snprintf(field, sizeof(field), "%s%.*s", prefix,
			 (int)cur.t->v[name - 1].len, cur.t->v[name - 1].s);
		add_member(owner, field, type, cur.t->v[d].line);
	}
}

/*
 * One member declaration from A to B (the ';' excluded) of OWNER.
 * Anonymous and nested bodies have been handed to parse_body already.
 */
static void member(uint32_t owner, const char *prefix, size_t a, size_t b)
{
	uint32_t type;
	size_t i = skip_attrs(a, b);

	while (i < b && in(i, qualifiers, ARRAY_SIZE(qualifiers)))
		i = skip_attrs(i + 1, b);
	if (i >= b || !ident(i))
		return;
	if (is(i, "DECLARE_HASHTABLE") && is(i + 1, "(") && ident(i + 2)) {
		char field[512];

		snprintf(field, sizeof(field), "%s%.*s", prefix,
			 (int)cur.t->v[i + 2].len, cur.t->v[i + 2].s);
		add_member(owner, field,
			   strtab_intern(&strs, "struct hlist_head"),
			   cur.t->v[i].line);
		return;
	}
	if ((is(i, "struct_group") || is(i, "struct_group_tagged") ||
	     is(i, "struct_group_attr")) && is(i + 1, "(")) {
		/* the members are the arguments after the name (and tag) */
		size_t end = close_of(i + 1), k = i + 2, m;
		int commas = is(i, "struct_group") ? 1 : 2;

		for (; k < end && commas; k++) {
			if (is(k, ","))
				commas--;
		}
		for (m = k; k <= end; k++) {
			if (k == end || is(k, ";")) {
				if (k > m)
					member(owner, prefix, m, k);
				m = k + 1;
			} else if (is(k, "(") || is(k, "[") || is(k, "{")) {
				k = close_of(k);
			}
		}
		return;
	}
	if (is(i, "enum") || ((is(i, "struct") || is(i, "union")) &&
				 !ident(i + 1)))
		return;
	if (is(i, "struct") || is(i, "union")) {
		type = tag_name(i);
		i += 2;
	} else {
		type = tok_name(i);
		i++;
		/* "long long", "unsigned int": the rest is no declarator */
		while (i < b && ident(i) && i + 1 < b &&
		       (ident(i + 1) || is(i + 1, "*")))
			i++;
	}
	declarators(owner, prefix, type, i, b);
}

/*
 * The members of the body that opens at OPEN, for OWNER, each named
 * PREFIX + its name; returns the index of the closing brace.
 */
static size_t parse_body(uint32_t owner, const char *prefix, size_t open)
{
	size_t close = close_of(open), i = open + 1, a = open + 1;

	while (i < close) {
		if ((is(i, "struct") || is(i, "union")) &&
		    (is(i + 1, "{") || (ident(i + 1) && is(i + 2, "{")))) {
			/* a nested body: named tag, or anonymous part */
			int named = !is(i + 1, "{");
			size_t body = named ? i + 2 : i + 1, end, k;
			uint32_t nested = named ? tag_name(i) : owner;
			char sub[512];

			end = parse_body(nested, named ? "" : prefix, body);
			/* its declarators, up to the ';' */
			for (k = end + 1; k < close && !is(k, ";"); k++) {
				if (is(k, "(") || is(k, "["))
					k = close_of(k);
			}
			if (named) {
				declarators(owner, prefix, nested, end + 1, k);
			} else {
				size_t n = skip_attrs(end + 1, k);

				/*
				 * struct { ... } name; gives its members
				 * again as name.member: the first pass named
				 * them with PREFIX alone, which reads as
				 * well and is what a reason needs
				 */
				if (n < k && ident(n)) {
					snprintf(sub, sizeof(sub), "%s%.*s.",
						 prefix, (int)cur.t->v[n].len,
						 cur.t->v[n].s);
					parse_body(owner, sub, body);
				}
			}
			i = k + 1;
			a = i;
			continue;
		}
		if (is(i, "(") || is(i, "[") || is(i, "{")) {
			i = close_of(i) + 1;
			continue;
		}
		if (is(i, ";")) {
			member(owner, prefix, a, i);
			a = i + 1;
		}
		i++;
	}
	return close;
}

/* typedef at I: members or an alias for the names it defines. */
static size_t parse_typedef(size_t i)
{
	size_t end = i + 1, body = 0, k, n, tag = 0;
	uint32_t owner = STR_NONE;

	for (; end < cur.t->n && !is(end, ";"); end++) {
		if (is(end, "{") && !body)
			body = end;
		if (is(end, "{") || is(end, "(") || is(end, "["))
			end = close_of(end);
	}
	k = skip_attrs(i + 1, end);
	while (k < end && in(k, qualifiers, ARRAY_SIZE(qualifiers)))
		k = skip_attrs(k + 1, end);
	if ((is(k, "struct") || is(k, "union")) && ident(k + 1))
		tag = k;
	if (body) {
		size_t close = close_of(body);

		if (tag) {
			owner = tag_name(tag);
			parse_body(owner, "", body);
		}
		/* the typedef names: the anonymous body's owner is the first */
		for (n = close + 1; n < end; n++) {
			if (is(n, "*") || is(n, "("))
				break;
			if (!ident(n) || in(n, c_member_attrs, n_c_member_attrs))
				continue;
			if (owner == STR_NONE) {
				owner = tok_name(n);
				parse_body(owner, "", body);
			} else {
				add_member(tok_name(n), "", owner,
					   cur.t->v[n].line);
			}
			break;
		}
		return end;
	}
	/* typedef void (*fn_t)(void);  typedef int fn_t(void); */
	for (n = k; n < end; n++) {
		if (is(n, "(") && is(n + 1, "*") && ident(n + 2)) {
			strtab_intern(&fntypes, tok_text(n + 2));
			return end;
		}
		if (is(n, "(") && n > k + 1 && ident(n - 1) &&
		    !in(n - 1, c_member_attrs, n_c_member_attrs)) {
			strtab_intern(&fntypes, tok_text(n - 1));
			return end;
		}
		if (is(n, "(") || is(n, "["))
			break;
	}
	/* typedef struct x y;  typedef atomic_t z; an alias, no pointer */
	for (n = k; n < end; n++) {
		if (is(n, "*") || is(n, "(") || is(n, "["))
			return end;
	}
	if (end >= 2 && ident(end - 1) && end - 1 > k) {
		uint32_t target = tag ? tag_name(tag) : tok_name(k);

		add_member(tok_name(end - 1), "", target, cur.t->v[end - 1].line);
	}
	return end;
}

static void scan(const struct toks *t, uint32_t file)
{
	size_t i;

	cur.t = t;
	cur.file = file;
	for (i = 0; i < t->n; i++) {
		if (is(i, "typedef")) {
			i = parse_typedef(i);
		} else if ((is(i, "struct") || is(i, "union")) && ident(i + 1) &&
			   is(i + 2, "{")) {
			parse_body(tag_name(i), "", i + 2);
			/* the declarators after it are variables: go on */
			i += 2;
			i = close_of(i);
		}
	}
}

/* Trap closure: via[type] is the member that makes TYPE a trap. */
#define VIA_NONE	UINT32_MAX
#define VIA_BASE	(UINT32_MAX - 1)
#define VIA_INERT	(UINT32_MAX - 2)

/* The field path from TYPE to its trap, then a TAB and the trap type. */
static void print_path(const uint32_t *via, uint32_t type, int depth,
		       int printed)
{
	const struct member *m;
	const char *field;

	if (depth > 32 || via[type] >= VIA_INERT) {
		/* a typedef of a trap type itself has no field: "-" */
		printf("%s\t%s", printed ? "" : "-", strtab_str(&strs, type));
		return;
	}
	m = &members[via[type]];
	field = strtab_str(&strs, m->field);
	if (*field)
		printf("%s%s", printed ? "." : "", field);
	print_path(via, m->type, depth + 1, printed || *field);
}

/*
 * --values: what a variable of each type holds, for the finder's value
 * column (candidates/value.c).  Rows "type kind field file line":
 *   fntype          a typedef of a function or function pointer type
 *   fn              it holds a function pointer by value (field: the path)
 *   ops             an ops table: at least half of its members are
 *                   function pointers (field "-": the first one's place)
 *   ops-pointer     it holds a pointer to an ops table (the path)
 *   object-pointer  it holds a pointer to a struct or union (the path)
 * "Holds" is by value, through members of member types, as for traps.
 */
enum { VK_FN, VK_OPS, VK_OPSPTR, VK_OBJPTR, VK_N };
static const char *const vk_names[VK_N] = {
	"fn", "ops", "ops-pointer", "object-pointer",
};

struct vrow {
	uint32_t field, file;	/* field: a string id, or STR_NONE: "-" */
	unsigned int line;
	int set;
};

static uint32_t vpath(uint32_t prefix, uint32_t field)
{
	char buf[1024];
	const char *a = strtab_str(&strs, prefix), *b;

	if (field == STR_NONE)
		return prefix;
	b = strtab_str(&strs, field);
	if (!*a)
		return field;
	if (!*b)
		return prefix;
	snprintf(buf, sizeof(buf), "%s.%s", a, b);
	return strtab_intern(&strs, buf);
}

static void vset(struct vrow *r, uint32_t field, uint32_t file,
		 unsigned int line, int *changed)
{
	if (r->set)
		return;
	r->set = 1;
	r->field = field;
	r->file = file;
	r->line = line;
	*changed = 1;
}

static int is_fntype(uint32_t type)
{
	return strtab_find(&fntypes, strtab_str(&strs, type)) != STR_NONE;
}

static int is_aggregate(uint32_t type, const uint8_t *owns)
{
	const char *n = strtab_str(&strs, type);

	return !strncmp(n, "struct ", 7) || !strncmp(n, "union ", 6) ||
		owns[type];
}

static void print_values(void)
{
	uint32_t ntypes = strs.n, *nfn, *ntot, round, i, k;
	struct vrow (*v)[VK_N];
	uint8_t *owns;
	int changed = 1;

	v = xmalloc(ntypes * sizeof(*v));
	memset(v, 0, ntypes * sizeof(*v));
	nfn = xmalloc(ntypes * sizeof(*nfn));
	ntot = xmalloc(ntypes * sizeof(*ntot));
	owns = xmalloc(ntypes);
	memset(nfn, 0, ntypes * sizeof(*nfn));
	memset(ntot, 0, ntypes * sizeof(*ntot));
	memset(owns, 0, ntypes);
	/* the direct members: function pointers among them */
	for (i = 0; i < nmembers; i++) {
		const struct member *m = &members[i];

		owns[m->owner] = 1;
		if (!*strtab_str(&strs, m->field))
			continue;	/* a typedef alias */
		ntot[m->owner]++;
		if (is_fntype(m->type)) {
			nfn[m->owner]++;
			vset(&v[m->owner][VK_FN], m->field, m->file, m->line,
			     &changed);
		}
	}
	for (i = 0; i < nvmembers; i++) {
		const struct vmember *m = &vmembers[i];

		owns[m->owner] = 1;
		ntot[m->owner]++;
		if (m->kind == VM_FN || is_fntype(m->type)) {
			nfn[m->owner]++;
			vset(&v[m->owner][VK_FN], m->field, m->file, m->line,
			     &changed);
		}
	}
	for (i = 0; i < ntypes; i++) {
		if (nfn[i] && 2 * nfn[i] >= ntot[i])
			vset(&v[i][VK_OPS], STR_NONE, v[i][VK_FN].file,
			     v[i][VK_FN].line, &changed);
	}
	/* typedef aliases of ops tables are ops tables */
	for (round = 0; changed && round < 64; round++) {
		changed = 0;
		for (i = 0; i < nmembers; i++) {
			const struct member *m = &members[i];

			if (!*strtab_str(&strs, m->field) &&
			    v[m->type][VK_OPS].set)
				vset(&v[m->owner][VK_OPS], STR_NONE,
				     v[m->type][VK_OPS].file,
				     v[m->type][VK_OPS].line, &changed);
		}
	}
	for (i = 0; i < nvmembers; i++) {
		const struct vmember *m = &vmembers[i];

		if (m->kind != VM_PTR || is_fntype(m->type))
			continue;
		if (v[m->type][VK_OPS].set)
			vset(&v[m->owner][VK_OPSPTR], m->field, m->file,
			     m->line, &changed);
		else if (is_aggregate(m->type, owns))
			vset(&v[m->owner][VK_OBJPTR], m->field, m->file,
			     m->line, &changed);
	}
	/* by value, through members of member types */
	changed = 1;
	for (round = 0; changed && round < 64; round++) {
		changed = 0;
		for (i = 0; i < nmembers; i++) {
			const struct member *m = &members[i];

			for (k = 0; k < VK_N; k++) {
				const struct vrow *r = &v[m->type][k];

				if (k == VK_OPS || !r->set ||
				    v[m->owner][k].set || m->type == m->owner)
					continue;
				vset(&v[m->owner][k], vpath(m->field, r->field),
				     r->file, r->line, &changed);
			}
		}
	}
	printf("type\tkind\tfield\tfile\tline\n");
	for (i = 0; i < fntypes.n; i++)
		printf("%s\tfntype\t-\t-\t-\n", strtab_str(&fntypes, i));
	for (i = 0; i < ntypes; i++) {
		for (k = 0; k < VK_N; k++) {
			const struct vrow *r = &v[i][k];
			const char *fld;

			if (!r->set)
				continue;
			fld = r->field == STR_NONE ? "-" :
				strtab_str(&strs, r->field);
			printf("%s\t%s\t%s\t%s\t%u\n", strtab_str(&strs, i),
			       vk_names[k], *fld ? fld : "-",
			       strtab_str(&strs, r->file), r->line);
		}
	}
	free(v);
	free(nfn);
	free(ntot);
	free(owns);
}

static void print_usage(FILE *out)
{
	fprintf(out,
		"usage: layouts [--values] TREE LIST\n"
		"\n"
		"Print, as TSV (type field trap file line), every struct, union or\n"
		"typedef defined in the C files of LIST (paths relative to TREE, one\n"
		"a line, '-' for standard input) that embeds by value a type its\n"
		"keeper writes after init (a list node, a kobject, a lock...).\n"
		"With --values, print instead (type kind field file line) what a\n"
		"variable of each type holds: fntype (a typedef of a function\n"
		"type), fn (a function pointer), ops (an ops table: half of its\n"
		"members or more are function pointers), ops-pointer and\n"
		"object-pointer (a pointer to an ops table, to a struct or union).\n"
		"Exit status: 0, 1 a file could not be read, 64 usage, 65 LIST\n"
		"cannot be opened, 70 host.\n");
}

int main(int argc, char **argv)
{
	FILE *list;
	char *line = NULL, path[4096];
	size_t cap = 0, i;
	struct toks t = { 0 };
	uint32_t *via, ntypes, round;
	int status = 0, changed = 1;

	prog_name = "layouts";
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		print_usage(stdout);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "--values")) {
		values = 1;
		argv++;
		argc--;
	}
	if (argc != 3) {
		print_usage(stderr);
		return RC_USAGE;
	}
	list = strcmp(argv[2], "-") ? fopen(argv[2], "r") : stdin;
	if (!list)
		die(RC_DATA, "%s: %s", argv[2], strerror(errno));
	strtab_init(&strs);
	strtab_init(&fntypes);
	while (read_text_line(list, argv[2], &line, &cap)) {
		size_t len;
		char *buf;

		if (!line[0])
			continue;
		snprintf(path, sizeof(path), "%s/%s", argv[1], line);
		buf = read_file(path, &len);
		if (!buf) {
			warnx("%s: %s", path, strerror(errno));
			status = 1;
			continue;
		}
		tokenize(buf, len, &t);
		scan(&t, strtab_intern(&strs, line));
		free(buf);
	}
	if (list != stdin)
		fclose(list);
	if (values) {
		print_values();
		if (fflush(stdout) || ferror(stdout))
			die(RC_HOST, "stdout: write error: %s",
			    strerror(errno));
		return status;
	}

	/*
	 * every name gets a slot; the base trap types of lib/traps.tsv are
	 * the roots, and its inert types stop the walk: a static key's count
	 * is the jump label code's own business, lockdep only takes the
	 * address of a lock_class_key
	 */
	for (i = 0; i < ntrap_types; i++) {
		if (!trap_is(&trap_types[i], "embeds"))
			strtab_intern(&strs, trap_types[i].type);
	}
	ntypes = strs.n;
	via = xmalloc(ntypes * sizeof(*via));
	for (i = 0; i < ntypes; i++)
		via[i] = VIA_NONE;
	for (i = 0; i < ntrap_types; i++) {
		const struct trap_type *t = &trap_types[i];

		if (trap_is(t, "base"))
			via[strtab_find(&strs, t->type)] = VIA_BASE;
		else if (trap_is(t, "inert"))
			via[strtab_find(&strs, t->type)] = VIA_INERT;
	}
	for (round = 0; changed && round < 64; round++) {
		changed = 0;
		for (i = 0; i < nmembers; i++) {
			const struct member *m = &members[i];

			if (via[m->owner] != VIA_NONE || via[m->type] == VIA_NONE ||
			    via[m->type] == VIA_INERT)
				continue;
			via[m->owner] = i;
			changed = 1;
		}
	}
	printf("type\tfield\ttrap\tfile\tline\n");
	for (i = 0; i < ntypes; i++) {
		const struct member *m;

		if (via[i] >= VIA_INERT)
			continue;
		m = &members[via[i]];
		printf("%s\t", strtab_str(&strs, i));
		print_path(via, i, 0, 0);
		printf("\t%s\t%u\n", strtab_str(&strs, m->file), m->line);
	}
	if (fflush(stdout) || ferror(stdout))
		die(RC_HOST, "stdout: write error: %s", strerror(errno));
	free(line);
	free(t.v);
	free(via);
	free(members);
	strtab_free(&strs);
	return status;
}
