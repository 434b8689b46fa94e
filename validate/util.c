// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - allocation, messages, files and hashing helpers of validate.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "validate.h"

/* The name messages start with; report.c, which shares this file, sets it. */
const char *prog_name = "validate";

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die(EXIT_HOST, "out of memory");
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die(EXIT_HOST, "out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = xmalloc(n + 1);
	va_start(ap, fmt);
	vsnprintf(s, n + 1, fmt, ap);
	va_end(ap);
	return s;
}

void die(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", prog_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

void warnx(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The whole file, NUL-terminated; NULL with errno set on failure. */
char *read_file(const char *path, size_t *len)
{
	size_t n = 0, cap = 65536;
	char *buf;
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (r == 0)
			break;
		n += r;
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/*
 * A copy of s fit for one journal field: TABs and newlines become spaces,
 * runs of blanks shrink to one, at most max bytes.
 */
char *one_line(const char *s, size_t max)
{
	char *d = xmalloc(strlen(s) + 1), *p = d;
	int blank = 1;

	for (; *s && (size_t)(p - d) < max; s++) {
		int c = (unsigned char)*s;

		if (c == '\t' || c == '\n' || c == '\r' || c == ' ') {
			if (!blank)
				*p++ = ' ';
			blank = 1;
			continue;
		}
		if (c < 0x20)
			continue;
		*p++ = c;
		blank = 0;
	}
	while (p > d && p[-1] == ' ')
		p--;
	*p = '\0';
	if (!*d) {
		free(d);
		return xstrdup("-");
	}
	return d;
}

unsigned long long fnv1a(unsigned long long h, const void *p, size_t n)
{
	const unsigned char *s = p;

	if (!h)
		h = 0xcbf29ce484222325ULL;
	while (n--) {
		h ^= *s++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Split a line in place at TABs; returns the number of fields. */
/*
 * Cut the line at line (NUL over its '\n') and return where the next one
 * starts: the terminating NUL of the buffer after the last line.
 */
char *next_line(char *line)
{
	char *next = strchr(line, '\n');

	if (!next)
		return line + strlen(line);
	*next = '\0';
	return next + 1;
}

/* The index of the header column called name, or -1. */
int tsv_col(char **f, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(f[i], name))
			return i;
	return -1;
}

int split_tabs(char *line, char **f, int max)
{
	int n = 0;

	line[strcspn(line, "\r\n")] = '\0';
	while (n < max) {
		f[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}
