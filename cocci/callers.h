/* SPDX-License-Identifier: GPL-2.0 */
/*
 * callers: the state that the scan (callers-scan.c) fills, the fixpoint
 * (callers-fixpoint.c) judges and the report (callers-why.c) prints.
 * What the program does is told in callers.c.
 */
#ifndef RO_CALLERS_H
#define RO_CALLERS_H

#include <stdint.h>
#include <stdio.h>

#include "ctok.h"
#include "strtab.h"

enum kill {
	K_NONE, K_ADDR, K_FILE, K_DEFINE, K_DIRECTIVE, K_STRING, K_ASM,
	K_RUST, K_OTHER, K_UNKNOWN, K_CONFUSED, K_PASTE, K_ARG,
};

#define FN_NONE		UINT32_MAX		/* file scope */
#define FN_UNKNOWN	(UINT32_MAX - 1)	/* a body, name unclear */

struct name {
	uint32_t ndefs, ninit;
	uint32_t kill_file, kill_line, kill_func;
	uint32_t body;		/* the last body that called it */
	uint32_t edge;		/* its edge from that body */
	uint32_t nin;		/* incoming edges (CSR) */
	uint8_t kill, init, seed;
	uint8_t paste;		/* 1: pasted as a prefix, 2: as a suffix */
	/*
	 * As a member name (s.NAME, p->NAME): fkill, a use that is not a
	 * call, a store or a test; finit, every call through it is in
	 * init-only code; fsarg, also a bare macro argument at file scope.
	 */
	uint8_t fkill, finit, fsarg;
	uint32_t fkill_file, fkill_line;
};

struct edge {
	uint32_t callee, caller, file, line, count;
};

/* NAME stored in a member: .FIELD = NAME, p->FIELD = NAME; */
struct store {
	uint32_t name, field, file, line;
};

/* A call through a member, p->FIELD(...), in the body of CALLER. */
struct fcall {
	uint32_t field, caller, file, line;
};

/* Every name the scan met (files, functions, members), by strtab id. */
extern struct strtab strs;
extern struct name *names;
extern struct edge *edges;
extern size_t nedges;
extern struct store *stores;
extern size_t nstores;
extern struct fcall *fcalls;
extern size_t nfcalls;
extern size_t nconfused;	/* files whose balance failed */
extern int stats;		/* --stats */

/* CSR indexes that fixpoint() builds: calls, stores, member calls. */
extern uint32_t *in_start, *in_edge;
extern uint32_t *st_start, *st_idx;	/* stores by name */
extern uint32_t *fc_start, *fc_idx;	/* calls through a member, by member */

/* callers-scan.c: read one file of LIST, PATH its name in LIST. */
void scan_file(const char *path, const char *buf, size_t len,
	       struct toks *t);

/* callers-fixpoint.c */
void kill_pasted(void);
void fixpoint(void);

/* callers-why.c */
void print_table(void);
void print_why(const char *s);

#endif
