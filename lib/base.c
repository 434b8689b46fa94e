// SPDX-License-Identifier: GPL-2.0
/*
 * base.c - messages, allocation, strings, files and hashing for every
 * program of ro-campaign (see base.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base.h"

const char *prog_name = "ro-campaign";

void vwarnx(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", prog_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
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

static void out_of_memory(size_t n)
{
	die(RC_HOST, "out of memory (%zu bytes)", n);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		out_of_memory(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		out_of_memory(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		out_of_memory(n);
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		die(RC_HOST, "%s: bad format '%s'", __func__, fmt);
	s = xmalloc(n + 1);
	va_start(ap, fmt);
	vsnprintf(s, n + 1, fmt, ap);
	va_end(ap);
	return s;
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

int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t r;

	while (len) {
		r = write(fd, p, len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		p += r;
		len -= r;
	}
	return 0;
}

void fsync_parent(const char *path)
{
	char *copy = xstrdup(path);
	int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(copy);
}

/*
 * Where a write to PATH lands: PATH, or the file its symlinks lead to
 * (dangling or not), so that the link stays a link.  NULL with errno
 * set on a loop.
 */
static char *link_target(const char *path)
{
	char *cur = xstrdup(path), buf[PATH_MAX];
	struct stat st;
	int i;

	for (i = 0; i < 40; i++) {
		ssize_t n;
		char *next, *copy;

		if (lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return cur;
		n = readlink(cur, buf, sizeof(buf) - 1);
		if (n < 0) {
			free(cur);
			return NULL;
		}
		buf[n] = '\0';
		copy = xstrdup(cur);
		next = buf[0] == '/' ? xstrdup(buf) :
		       xasprintf("%s/%s", dirname(copy), buf);
		free(copy);
		free(cur);
		cur = next;
	}
	free(cur);
	errno = ELOOP;
	return NULL;
}

int write_file_atomic(const char *path, const void *buf, size_t len)
{
	char *target = link_target(path), *tmp;
	struct stat st;
	mode_t mode;
	int fd, e;

	if (!target)
		return -1;
	/* A new name in the target's directory: never someone's file. */
	tmp = xasprintf("%s.tmp.XXXXXX", target);
	if (!stat(target, &st)) {
		mode = st.st_mode & 07777;
	} else {
		mode = umask(0);
		umask(mode);
		mode = 0644 & ~mode;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		goto fail;
	if (fchmod(fd, mode) || write_all(fd, buf, len) || fsync(fd)) {
		e = errno;
		close(fd);
		unlink(tmp);
		errno = e;
		goto fail;
	}
	if (close(fd) || rename(tmp, target)) {
		e = errno;
		unlink(tmp);
		errno = e;
		goto fail;
	}
	fsync_parent(target);
	free(tmp);
	free(target);
	return 0;
fail:
	e = errno;
	free(tmp);
	free(target);
	errno = e;
	return -1;
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

unsigned long long fnv1a(unsigned long long h, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	while (len--) {
		h ^= *p++;
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

int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s || (*s != '-' && (*s < '0' || *s > '9')))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

long opt_long(const char *opt, const char *s, long min, long max)
{
	long v;

	if (parse_long(s, min, max, &v))
		die(RC_USAGE, "%s: '%s' is not a number from %ld to %ld", opt,
		    s, min, max);
	return v;
}

int is_ident_start(int c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

int is_ident_char(int c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

int is_identifier(const char *s)
{
	if (!s || !is_ident_start((unsigned char)*s))
		return 0;
	for (s++; *s; s++)
		if (!is_ident_char((unsigned char)*s))
			return 0;
	return 1;
}

int is_one_line(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

int is_tree_path(const char *s)
{
	const char *c = s;

	if (!*s || *s == '/' || !is_one_line(s))
		return 0;
	while (*c) {
		size_t n = strcspn(c, "/");

		if (n == 0 || (n == 1 && c[0] == '.') ||
		    (n == 2 && c[0] == '.' && c[1] == '.'))
			return 0;
		c += n;
		if (*c == '/')
			c++;
		if (!*c && c[-1] == '/')
			return 0;
	}
	return 1;
}

int has_identifier(const char *s, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	if (!n)
		return 0;
	for (p = s; (p = strstr(p, name)); p++)
		if ((p == s || !is_ident_char((unsigned char)p[-1])) &&
		    !is_ident_char((unsigned char)p[n]))
			return 1;
	return 0;
}

int read_text_line(FILE *fp, const char *what, char **line, size_t *cap)
{
	ssize_t n = getline(line, cap, fp);

	if (n < 0) {
		if (ferror(fp))
			die(RC_HOST, "%s: read error: %s", what, strerror(errno));
		return 0;
	}
	if (n > 0 && (*line)[n - 1] == '\n')
		(*line)[n - 1] = '\0';
	return 1;
}
