/* SPDX-License-Identifier: GPL-2.0 */
/*
 * classify: judge every file-scope variable from its writes, escapes and
 * parameter exposures, using the init-only set of closure.c.
 */
#ifndef CANDIDATES_CLASSIFY_H
#define CANDIDATES_CLASSIFY_H

#include "closure.h"

enum klass {
	K_RO, K_CONST, K_REJECTED, K_ALREADY, K_SKIP, K_INITDATA, K_NCLASSES
};
enum conf { C_NONE, C_HIGH, C_MEDIUM };

/* What one write, escape or parameter means for its variable. */
enum ev_status {
	EV_INIT,	/* direct write in init-only code (or boot-time param) */
	EV_ESCAPE,	/* escape inside init-only code, or read-only sysctl */
	EV_BAD,		/* disqualifying */
	EV_IGNORED,	/* the mention inside a module_param()/sysctl fact */
	EV_CAP,		/* named in an unparsed region: never high */
	EV_READ,	/* &x passed as a pointer to const: a read, never high */
};

struct event {
	uint32_t idx;		/* index into writes or params */
	uint8_t is_param;
};

struct verdict {
	uint8_t klass, conf;
	char *reason;
	char *evidence;
};

struct defmap;

struct judge {
	const struct facts *f;
	struct defmap *dm;	/* defs by (file, name) and by global name */
	const struct graph *g;
	uint32_t *ev_start;	/* CSR: events of def d */
	struct event *ev;
	struct verdict *v;	/* one per def */
	/*
	 * per def: the first type-field write (writes index) of a field of
	 * its type by code that is not init-only, or MAP_NONE
	 */
	uint32_t *tf_write;
	struct map tf_at;	/* (file, line) -> a type-field write there */
	uint32_t *tf_next;	/* the next type-field write on that line */
	/*
	 * (type, field) -> the first type-pointee write through that member
	 * by code that is not init-only
	 */
	struct map tp_first;
	uint32_t count[K_NCLASSES], high, medium;
};

extern const char *const klass_names[K_NCLASSES];
extern const char *const conf_names[];

void judge_all(struct judge *j, const struct facts *f, const struct graph *g);
/* Status of event E of def D; a reason for it is written to BUF. */
int event_status(const struct judge *j, uint32_t d, const struct event *e,
		 char *buf, size_t len);
/* "file:line:func:form" of event E into BUF. */
void event_where(const struct judge *j, const struct event *e, char *buf,
		 size_t len);

#endif
