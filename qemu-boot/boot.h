/* SPDX-License-Identifier: GPL-2.0 */
/*
 * boot.h - shared declarations of the ro-campaign QEMU launcher.
 *
 * boot.c: options and main.  qemu.c runs QEMU.  console.c parses the
 * serial console (KTAP, oopses, the control) and writes the results;
 * tables.c keeps the tables printed on it (violations, modules).
 * qmp.c talks QMP (S3 wakeups).
 */
#ifndef RO_CAMPAIGN_BOOT_H
#define RO_CAMPAIGN_BOOT_H

#include <stddef.h>
#include <stdio.h>

#include "base.h"

#define BOOT_LINE_MAX	4096
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define ARGV_MAX	256	/* QEMU arguments, with the devices */

enum ex_status {
	EX_MISSING,
	EX_OK,
	EX_FAIL,
	EX_SKIP,
	EX_HANG,
};

struct exercise {
	char *name;
	enum ex_status status;
	char *detail;
	int began;		/* saw "# rocampaign: begin NAME" */
	int reported;		/* saw its KTAP result line */
	int guest_ok;		/* the guest's own verdict was "ok" */
};

enum verdict {
	VERDICT_PASS,
	VERDICT_FAIL,
	VERDICT_HANG,
	VERDICT_INVALID,
};

struct console {
	FILE *log;
	double t0;
	char line[BOOT_LINE_MAX];
	size_t len;
	size_t bytes;		/* console bytes so far */

	struct exercise *ex;
	size_t nex, cap;
	long cur;		/* index of the open window, or -1 */
	int plan;		/* N of "1..N", or -1 */
	int header;		/* saw "KTAP version" */
	int done;		/* saw "# rocampaign: done" */
	int panic;

	int in_violations;
	int violations_seen;
	char *violations;
	size_t vlen, vcap;

	/* The modules table: one "module init exit detail" row each. */
	int in_modules;
	int modules_seen;
	char **mods;
	size_t nmods, capmods;

	/* The bound-devices table (the devices exercise): one row a device. */
	int in_bound;
	int bound_seen;
	char **bound;
	size_t nbound, capbound;

	/* The control: what the guest said and what the console showed. */
	int ctl_seen;
	char ctl_expect[16];
	char ctl_result[16];
	int ctl_oopses;
	char *ctl_oops_line;
};

/* console.c */
void console_init(struct console *c, FILE *log, double t0,
		  const char *exercises);
void console_reset(struct console *c, FILE *log, double t0,
		   const char *exercises);
void console_feed(struct console *c, const char *buf, size_t n, double now);
void console_flush(struct console *c, double now);
enum verdict console_finish(struct console *c, int timed_out, int timeout,
			    const char *expect, const char *stop);
int console_write(const struct console *c, const char *dir, enum verdict v);
int write_out(const char *dir, const char *name, const char *text, size_t n);

/* tables.c */
void add_violation(struct console *c, const char *line);
int add_module(struct console *c, const char *line);
int write_modules(const struct console *c, const char *dir);
void free_modules(struct console *c);
int add_bound(struct console *c, const char *line);
int write_bound(const struct console *c, const char *dir);
void free_bound(struct console *c);
const char *verdict_name(enum verdict v);

/* qmp.c */
struct qmp {
	int fd;
	FILE *log;
	double t0;
	char buf[16384];
	size_t len;
	int ready;
	int suspends;		/* SUSPEND events */
	int wakeups;		/* system_wakeup commands that succeeded */
	int wake_events;	/* WAKEUP events */
	int wake_tries;
	int wake_inflight;
	double wake_at;		/* when to send system_wakeup, or 0 */
	char shutdown[32];	/* reason of the SHUTDOWN event */
};

void qmp_init(struct qmp *q, int fd, FILE *log, double t0);
int qmp_input(struct qmp *q, double now);
void qmp_tick(struct qmp *q, double now);
double qmp_deadline(const struct qmp *q);

/* boot.c */
/* The verdict codes 0-3 are boot's own; errors use lib's RC_USAGE/RC_HOST. */
#define EXIT_USAGE	RC_USAGE
#define EXIT_HOST	RC_HOST

struct opts {
	const char *kernel;
	const char *initrd;
	const char *exercises;
	char *append;		/* the user's --append words */
	const char *accel;
	const char *out;
	const char *qemu;
	char **dev_args;	/* --devices: QEMU arguments, in pairs */
	int ndev_args;
	const char *cpu;	/* --cpu: the TCG guest CPU model */
	int timeout;
	int probe;
	int smp;
	int mem;
};

_Noreturn void host_error(const char *fmt, const char *arg);
FILE *open_out(const char *dir, const char *name, const char *mode);

/* qemu.c */
enum run_end {
	RUN_EXITED,		/* QEMU exited on its own */
	RUN_TIMEOUT,
	RUN_PROBE_FAILED,	/* KVM probe: nothing from the guest in time */
	RUN_SIGNAL,
	RUN_HOST_ERROR,
};

struct argv_buf {
	char *v[ARGV_MAX + 2];
	int n;
};

struct run {
	struct console *con;
	struct qmp *qmp;
	int status;		/* QEMU's wait status */
	int signo;		/* the signal that stopped the run */
	int con_fd, qmp_fd;
	int exited;
	double deadline;	/* the wall-clock timeout */
	double probe_end;	/* the end of a KVM probe, or 0 */
	double done_end;	/* "done" seen: stop QEMU then, or 0 */
};

void build_argv(struct argv_buf *a, const struct opts *o, const char *accel,
		const char *initrd, const char *append);
void free_argv(struct argv_buf *a);
void write_cmdline(const char *dir, const struct argv_buf *a);
int kill_qemu(void);
enum run_end run_qemu(const struct argv_buf *a, const struct opts *o,
		      int sigfd, struct run *r, double t0, int probe);

#endif
