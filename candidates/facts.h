/* SPDX-License-Identifier: GPL-2.0 */
/*
 * facts: the fact files of cocci/FACTS.md, loaded into arrays of rows.
 * All strings are interned in facts.strs; STR_NONE stands for "-".
 */
#ifndef CANDIDATES_FACTS_H
#define CANDIDATES_FACTS_H

#include <stdint.h>

#include "map.h"
#include "strtab.h"

enum storage { ST_STATIC, ST_GLOBAL };

/* defs.tsv attrs, as bits */
#define A_CONST		(1u << 0)
#define A_READ_MOSTLY	(1u << 1)
#define A_RO_AFTER_INIT	(1u << 2)
#define A_INITDATA	(1u << 3)
#define A_INITCONST	(1u << 4)
#define A_MEMINITDATA	(1u << 5)
#define A_PERCPU	(1u << 6)
#define A_SECTION	(1u << 7)
#define A_STATIC_KEY	(1u << 8)	/* static_key=MACRO: def.key_macro */
#define A_EXPORTED	(1u << 9)	/* a static key the file exports */

enum form {
	F_ASSIGN, F_COMPOUND, F_INCDEC, F_FIELD, F_ELEMENT,
	F_ADDR, F_ARRAY_ARG, F_MEMCPY, F_ASM, F_INITDATA_ADDR,
	F_POINTEE, F_POINTEE_ADDR,
	F_READ,		/* a mention of a static variable: no write */
	F_UNPARSED,	/* a mention in an unparsed region: facts may be missing */
	F_TYPE_FIELD,	/* field of a type written through a pointer: var the type */
	F_TYPE_STORE,	/* a file-scope object stored in a field: var the type */
	F_TYPE_POINTEE,	/* a write through a member of a type: var the type */
	F_NFORMS
};

enum pkind {
	P_MODULE_PARAM, P_CORE_PARAM, P_SYSCTL, P_SETUP, P_EARLY, P_DEBUGFS,
	P_ARG,		/* &x or array x passed: perm the argument, handler the callee */
	P_ALIAS,	/* P = &x, P file-scope: handler P */
	P_MEMBER,	/* .f = &x in a file-scope initializer: handler f */
	P_HOLDER,	/* &x in the initializer of H, a def of the file: handler H */
	P_MACRO,	/* x a whole argument of macro M called at file scope: handler M */
};

/*
 * candidates/registrations.tsv: a function that keeps an argument which
 * the kernel writes after init (kind arg), or a field of a type whose
 * pointee the kernel writes after init (kind store: an object stored in
 * it, TYPE->FIELD = &x, is written), or a macro called at file scope that
 * stores its argument's address in a table only init code reads (kind
 * init-table: apic_driver(x)).
 */
enum rkind { R_ARG, R_STORE, R_INIT_TABLE };

struct reg {
	uint32_t callee;	/* the function, or TYPE->FIELD */
	uint32_t arg;		/* argument, 0-based, as a string id; R_ARG */
	uint32_t writes, cite;
	uint8_t kind;
};

struct def {
	uint32_t file, line, name, type, section;
	uint32_t key_macro;	/* the static key's macro, or "struct" */
	uint32_t attrs;
	uint8_t storage, array, init;
};

struct write {
	uint32_t file, line, var, func;
	uint32_t field;		/* F_TYPE_*: the field (var: the type) */
	uint8_t form;
};

struct func {
	uint32_t file, line, name, section;	/* section: the raw list */
	uint8_t storage;
};

struct funcref {
	uint32_t file, line, name, func;
};

struct call {
	uint32_t file, line, caller, callee;
};

struct param {
	uint32_t file, line, var, perm, handler;
	uint8_t kind;
};

struct errrow {
	uint32_t file, reason;
};

/*
 * A function name whose every mention in the whole tree is a direct call
 * from init-only code (callers.tsv, cocci/callers): its first call site.
 */
struct caller_row {
	uint32_t name;
	uint32_t calls, callers;	/* call sites, distinct calling functions */
	uint32_t caller, file, line;	/* the first call site */
	uint32_t via;		/* the members it is stored in, or STR_NONE */
};

/* A type that embeds a trap by value (layouts.tsv). */
struct layout {
	uint32_t type;		/* "struct x", "union y" or a typedef name */
	uint32_t field;		/* the path to the trap: "hotplug.kobj" */
	uint32_t trap;		/* what it embeds: "struct kobject" */
	uint32_t file, line;	/* the first member of the path */
};

/* An argument every declaration takes as a pointer to const (protos.tsv). */
/* protos.tsv arg "-": a struct or union member, a pointer to const */
#define PROTO_MEMBER	UINT32_MAX

struct proto {
	uint32_t name;		/* the function, or a macro that forwards to one */
	uint32_t arg;		/* from 0, or PROTO_MEMBER: name is a member */
	uint32_t file, line;	/* its first declaration */
};

/* An extern declaration that places a variable in a section (decls.tsv). */
struct decl {
	uint32_t file, line;
	uint32_t name;
	uint32_t attr;		/* "__read_mostly", "__section(\".x\")"... */
};

struct facts {
	struct strtab strs;
	struct def *defs;
	struct write *writes;
	struct func *funcs;
	struct funcref *funcrefs;
	struct call *calls;
	struct param *params;
	struct errrow *errors;
	struct reg *regs;
	uint32_t ndefs, nwrites, nfuncs, nfuncrefs, ncalls, nparams, nerrors;
	uint32_t nregs;
	/*
	 * features.tsv (optional): the tree seals ro_after_init static keys
	 * at init (jump_label_init_ro; 6.12 does, 6.1 does not), so a module
	 * that uses a kernel key patches its own code and never writes it
	 */
	uint8_t sealed_keys;
	/*
	 * layouts.tsv (optional, cocci/layouts): the types that embed, by
	 * value, what a keeper writes after init; type string id -> row
	 */
	struct layout *layouts;
	uint32_t nlayouts;
	struct map layout_of;
	/*
	 * callers.tsv (optional, cocci/callers): function names that only
	 * init-only code calls, in the whole tree; name string id -> row
	 */
	struct caller_row *callers;
	uint32_t ncallers;
	struct map caller_of;
	/*
	 * protos.tsv (optional, cocci/protos): &x passed as such an argument
	 * is a read; (name id, arg) -> row
	 */
	struct proto *protos;
	uint32_t nprotos;
	struct map proto_of;
	/*
	 * decls.tsv (optional, run-facts.sh): extern declarations with a
	 * section attribute; name string id -> first row
	 */
	struct decl *decls;
	uint32_t ndecls;
	struct map decl_of;
};

extern const char *const form_names[F_NFORMS];
extern const char *const pkind_names[];

/*
 * Load every fact file of DIR: 0, or the exit code (RC_DATA for a missing
 * or malformed file, RC_HOST for a read error) after FILE:LINE messages.
 * features.tsv is optional: without it, no feature.
 * layouts.tsv is optional too: without it, no derived type trap.
 * callers.tsv is optional too: without it, a global function that is not
 * __init is never init-only.
 * protos.tsv is optional too: without it, every &x passed is an escape.
 * decls.tsv is optional too: without it, no declaration conflicts.
 */
int facts_load(struct facts *f, const char *dir);

/*
 * Load the registration table PATH (candidates/registrations.tsv): 0, or
 * the exit code after a PATH:LINE message.
 */
int regs_load(struct facts *f, const char *path);

/* A direct write (not an escape of the address). */
static inline int form_is_direct(int form)
{
	return form != F_ADDR && form != F_ARRAY_ARG &&
		form != F_INITDATA_ADDR && form != F_POINTEE_ADDR &&
		form != F_UNPARSED && form != F_TYPE_FIELD &&
		form != F_TYPE_STORE && form != F_TYPE_POINTEE;
}

#endif
