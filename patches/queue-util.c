// SPDX-License-Identifier: GPL-2.0
/*
 * queue-util: memory, growable strings and text wrapping for patches/queue.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "queue-util.h"

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fputs("queue: out of memory\n", stderr);
		exit(70);
	}
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fputs("queue: out of memory\n", stderr);
		exit(70);
	}
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void sb_init(struct sb *s)
{
	s->cap = 64;
	s->len = 0;
	s->buf = xmalloc(s->cap);
	s->buf[0] = '\0';
}

void sb_free(struct sb *s)
{
	free(s->buf);
	s->buf = NULL;
	s->len = 0;
	s->cap = 0;
}

static void sb_grow(struct sb *s, size_t n)
{
	if (s->len + n + 1 <= s->cap)
		return;
	while (s->len + n + 1 > s->cap)
		s->cap *= 2;
	s->buf = xrealloc(s->buf, s->cap);
}

void sb_addn(struct sb *s, const char *str, size_t n)
{
	sb_grow(s, n);
	memcpy(s->buf + s->len, str, n);
	s->len += n;
	s->buf[s->len] = '\0';
}

void sb_add(struct sb *s, const char *str)
{
	sb_addn(s, str, strlen(str));
}

void sb_addc(struct sb *s, char c)
{
	sb_addn(s, &c, 1);
}

void sb_addf(struct sb *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	sb_grow(s, n);
	va_start(ap, fmt);
	vsnprintf(s->buf + s->len, n + 1, fmt, ap);
	va_end(ap);
	s->len += n;
}

void sb_wrap(struct sb *s, const char *text, const char *first,
	     const char *rest, size_t width)
{
	const char *p = text;
	size_t col;
	int words = 0;

	sb_add(s, first);
	col = strlen(first);
	for (;;) {
		const char *w;
		size_t n;

		while (*p == ' ' || *p == '\n' || *p == '\t')
			p++;
		if (!*p)
			break;
		w = p;
		while (*p && *p != ' ' && *p != '\n' && *p != '\t')
			p++;
		n = p - w;
		if (words && col + 1 + n > width) {
			sb_addc(s, '\n');
			sb_add(s, rest);
			col = strlen(rest);
		} else if (words) {
			sb_addc(s, ' ');
			col++;
		}
		sb_addn(s, w, n);
		col += n;
		words++;
	}
	sb_addc(s, '\n');
}

char *read_file(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "r");
	struct sb s;
	char buf[65536];
	size_t n;

	if (!fp) {
		fprintf(stderr, "queue: %s: cannot open: %s\n", path,
			strerror(errno));
		return NULL;
	}
	sb_init(&s);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		sb_addn(&s, buf, n);
	if (ferror(fp)) {
		fprintf(stderr, "queue: %s: read error\n", path);
		fclose(fp);
		sb_free(&s);
		return NULL;
	}
	fclose(fp);
	if (len)
		*len = s.len;
	return s.buf;
}

int write_file(const char *path, const char *buf, size_t len)
{
	size_t n = strlen(path) + 8;
	char *tmp = xmalloc(n);
	FILE *fp;

	snprintf(tmp, n, "%s.tmp", path);
	fp = fopen(tmp, "w");
	if (!fp) {
		fprintf(stderr, "queue: %s: cannot create: %s\n", tmp,
			strerror(errno));
		free(tmp);
		return -1;
	}
	if (fwrite(buf, 1, len, fp) != len || fflush(fp) || ferror(fp)) {
		fprintf(stderr, "queue: %s: write error: %s\n", tmp,
			strerror(errno));
		fclose(fp);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	fclose(fp);
	if (rename(tmp, path)) {
		fprintf(stderr, "queue: %s: cannot rename to %s: %s\n", tmp,
			path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

int mkdirs(const char *path)
{
	char *p = xstrdup(path), *q;
	int ret = 0;

	for (q = p + 1; ; q++) {
		char c = *q;

		if (c != '/' && c != '\0')
			continue;
		*q = '\0';
		if (mkdir(p, 0777) && errno != EEXIST) {
			fprintf(stderr, "queue: %s: cannot create directory: %s\n",
				p, strerror(errno));
			ret = -1;
			break;
		}
		*q = c;
		if (!c)
			break;
	}
	free(p);
	return ret;
}

unsigned long long fnv1a(const void *buf, size_t len, unsigned long long h)
{
	const unsigned char *p = buf;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}
