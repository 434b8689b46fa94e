/* SPDX-License-Identifier: GPL-2.0 */
/*
 * base.h - the one base layer of ro-campaign's programs: exit codes,
 * messages, checked allocation, growable strings, files and hashing.
 *
 * Every program and script exits with a code from this table (README.md,
 * "Exit codes"); qemu-boot/boot keeps its documented verdict codes 0-3.
 */
#ifndef RO_BASE_H
#define RO_BASE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#define RC_OK		0	/* done, nothing failed */
#define RC_FAIL		1	/* the work ran and found a failure */
#define RC_USAGE	64	/* bad command line */
#define RC_DATA		65	/* bad input data: a file, a row, a path */
#define RC_HOST		70	/* internal or host error: a tool, memory, I/O */
#define RC_INTR		130	/* interrupted; a rerun resumes */

/*
 * The kernel's spellings, as tools/include/linux/compiler.h has them
 * (checkpatch warns on these two definitions, as it would on the kernel's).
 */
#ifndef __printf
#define __printf(a, b) __attribute__((format(printf, a, b)))
#endif
#ifndef __noreturn
#define __noreturn __attribute__((noreturn))
#endif

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* The name that messages start with; each program sets it in main(). */
extern const char *prog_name;

void die(int code, const char *fmt, ...)
	__printf(2, 3) __noreturn;
void warnx(const char *fmt, ...) __printf(1, 2);
void vwarnx(const char *fmt, va_list ap);

/* Allocation that cannot fail: out of memory exits with RC_HOST. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __printf(1, 2);

/* A growable string, always NUL-terminated. */
struct sb {
	char *buf;
	size_t len;
	size_t cap;
};

void sb_init(struct sb *s);
void sb_free(struct sb *s);
void sb_add(struct sb *s, const char *str);
void sb_addn(struct sb *s, const char *str, size_t n);
void sb_addc(struct sb *s, char c);
void sb_addf(struct sb *s, const char *fmt, ...)
	__printf(2, 3);
/*
 * Append TEXT as a paragraph wrapped at WIDTH columns; the first line
 * starts with FIRST, the others with REST.  Long words are kept whole.
 */
void sb_wrap(struct sb *s, const char *text, const char *first,
	     const char *rest, size_t width);

/*
 * The whole file, NUL-terminated; NULL with errno set on failure (a read
 * error is a failure, never a short file).  *len gets the byte count,
 * which can be more than strlen() if the file holds NUL bytes.
 */
char *read_file(const char *path, size_t *len);
/*
 * The next line of FP into *LINE (getline's buffer, *CAP), without its
 * newline: 1, or 0 at the end; a read error exits RC_HOST naming WHAT.
 */
int read_text_line(FILE *fp, const char *what, char **line, size_t *cap);
/*
 * Write LEN bytes to PATH atomically: a new PATH.tmp.XXXXXX (mkstemp),
 * fsync, rename, fsync of the directory.  A symlink PATH stays: the file
 * it leads to is replaced, keeping its mode.  0 on success, -1 with errno.
 */
int write_file_atomic(const char *path, const void *buf, size_t len);
/* Write all of BUF to FD (retrying short writes); 0, or -1 with errno. */
int write_all(int fd, const void *buf, size_t len);
/* fsync the directory that holds PATH. */
void fsync_parent(const char *path);
/* mkdir -p PATH; 0, or -1 with errno set. */
int mkdirs(const char *path);

/* 64-bit FNV-1a: start with FNV1A_INIT, chain the result. */
#define FNV1A_INIT 0xcbf29ce484222325ULL
unsigned long long fnv1a(unsigned long long h, const void *buf, size_t len);

/* Monotonic seconds. */
double now(void);

/*
 * Strict numbers: all of S is a decimal number within [MIN, MAX].  0 and
 * *out set, or -1 (overflow, junk, empty, out of range).
 */
int parse_long(const char *s, long min, long max, long *out);
/* A command-line number: dies with RC_USAGE naming OPT when it is bad. */
long opt_long(const char *opt, const char *s, long min, long max);

/* A C identifier: [A-Za-z_][A-Za-z0-9_]*; its first and other characters. */
int is_ident_start(int c);
int is_ident_char(int c);
int is_identifier(const char *s);
/*
 * NAME occurs in S as a whole identifier: every occurrence is tried, one
 * not inside a longer identifier counts ("foo" is in "x = foo;", not in
 * "foobar" or "my_foo").
 */
int has_identifier(const char *s, const char *name);
/*
 * A path relative to a tree: not empty, not absolute, no "." or ".."
 * component, no empty component, no control characters.
 */
int is_tree_path(const char *s);
/* One line of text: no control characters (newline, TAB, CR, NUL...). */
int is_one_line(const char *s);

#endif
