/* SPDX-License-Identifier: GPL-2.0 */
/*
 * queue-util: memory, growable strings and text wrapping for patches/queue.
 */
#ifndef QUEUE_UTIL_H
#define QUEUE_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct sb {
	char *buf;
	size_t len;
	size_t cap;
};

void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

void sb_init(struct sb *s);
void sb_free(struct sb *s);
void sb_add(struct sb *s, const char *str);
void sb_addn(struct sb *s, const char *str, size_t n);
void sb_addc(struct sb *s, char c);
void sb_addf(struct sb *s, const char *fmt, ...);

/*
 * Append TEXT to S as a paragraph wrapped at WIDTH columns; the first line
 * starts with FIRST, the following ones with REST (both count as columns).
 * Words longer than a line are kept whole.
 */
void sb_wrap(struct sb *s, const char *text, const char *first,
	     const char *rest, size_t width);

/* Read a whole file; NULL with a message naming PATH on error. */
char *read_file(const char *path, size_t *len);
/* Write LEN bytes to PATH through PATH.tmp and rename(); 0 on success. */
int write_file(const char *path, const char *buf, size_t len);
/* mkdir -p; 0 on success, -1 with a message. */
int mkdirs(const char *path);

/* 64-bit FNV-1a, for deterministic identifiers. */
unsigned long long fnv1a(const void *buf, size_t len, unsigned long long h);

#endif
