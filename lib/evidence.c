// SPDX-License-Identifier: GPL-2.0
/*
 * evidence.c - parse and print the evidence strings (evidence.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "evidence.h"

/* One FILE:LINE:FUNC:FORM item, taken apart from the right. */
static int writer_parse(const char *s, size_t n, struct ev_writer *w)
{
	char *item = xstrndup(s, n), *form, *func, *line;
	long v;

	form = strrchr(item, ':');
	if (!form)
		goto bad;
	*form++ = '\0';
	func = strrchr(item, ':');
	if (!func)
		goto bad;
	*func++ = '\0';
	line = strrchr(item, ':');
	if (!line)
		goto bad;
	*line++ = '\0';
	if (!*item || !*func || !*form || parse_long(line, 1, 100000000, &v))
		goto bad;
	w->file = xstrdup(item);
	w->line = v;
	w->func = xstrdup(func);
	w->form = xstrdup(form);
	free(item);
	return 0;
bad:
	free(item);
	return -1;
}

/* The "...(+N more)" item that ends a cut list: N, or -1 if it is not one. */
static long more_item(const char *s)
{
	long v;
	int len = 0;

	if (sscanf(s, "...(+%ld more)%n", &v, &len) != 1 || s[len] || v < 1)
		return -1;
	return v;
}

int ev_writers_parse(const char *s, struct ev_writer **out, long *more)
{
	int n = 0, cap = 0;
	struct ev_writer *w = NULL;

	*out = NULL;
	*more = 0;
	if (!strcmp(s, "-") || !*s)
		return 0;
	while (*s) {
		size_t len = strcspn(s, ";");

		if (!strncmp(s, "...(+", 5) && !s[len]) {
			*more = more_item(s);
			if (*more < 0)
				goto bad;
			break;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			w = xrealloc(w, cap * sizeof(*w));
		}
		if (writer_parse(s, len, &w[n]))
			goto bad;
		n++;
		s += len;
		if (*s == ';')
			s++;
	}
	*out = w;
	return n;
bad:
	ev_writers_free(w, n);
	*more = 0;
	return -1;
}

void ev_writers_free(struct ev_writer *w, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(w[i].file);
		free(w[i].func);
		free(w[i].form);
	}
	free(w);
}

void ev_writer_print(struct sb *s, const struct ev_writer *w)
{
	sb_addf(s, "%s:%ld:%s:%s", w->file, w->line, w->func, w->form);
}

int ev_items_parse(const char *s, struct ev_item **out)
{
	struct ev_item *it = NULL;
	int n = 0, cap = 0;

	while (*s) {
		size_t len;
		const char *eq;

		while (*s == ' ')
			s++;
		len = strcspn(s, ";");
		while (len && s[len - 1] == ' ')
			len--;
		if (len) {
			if (n == cap) {
				cap = cap ? cap * 2 : 8;
				it = xrealloc(it, cap * sizeof(*it));
			}
			eq = memchr(s, '=', len);
			if (eq) {
				it[n].key = xstrndup(s, eq - s);
				it[n].value = xstrndup(eq + 1, s + len - eq - 1);
			} else {
				it[n].key = xstrndup(s, len);
				it[n].value = NULL;
			}
			n++;
		}
		s += strcspn(s, ";");
		if (*s == ';')
			s++;
	}
	*out = it;
	return n;
}

void ev_items_free(struct ev_item *it, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(it[i].key);
		free(it[i].value);
	}
	free(it);
}

int ev_stage(const char *evidence, char *buf, size_t len)
{
	size_t n = strspn(evidence, "abcdefghijklmnopqrstuvwxyz-");

	if (!n || evidence[n] != ':' || n >= len)
		return -1;
	memcpy(buf, evidence, n);
	buf[n] = '\0';
	return 0;
}

char *ev_one_line(const char *s, size_t max)
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
		if (c < 0x20 || c == 0x7f)
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

const char *const ev_level_names[EV_LEVEL_NR] = {
	[EV_LEVEL_NONE] = "-",
	[EV_LEVEL_EXERCISED] = "exercised",
	[EV_LEVEL_MODULE_CYCLED] = "module-cycled",
	[EV_LEVEL_BUILT] = "built",
};

const char *ev_level_name(enum ev_level l)
{
	return l < EV_LEVEL_NR ? ev_level_names[l] : "-";
}

/* built=OBJECT,IMAGE: IMAGE is vmlinux (not a module's .ko). */
static int in_vmlinux(const char *built)
{
	const char *comma = strrchr(built, ',');

	return comma && comma != built && !strcmp(comma + 1, "vmlinux");
}

enum ev_level ev_level(const char *verdict, const char *evidence)
{
	struct ev_item *it;
	int n, i, cycled = 0, vmlinux = 0, booted = 0;

	if (strcmp(verdict, "accepted"))
		return EV_LEVEL_NONE;
	n = ev_items_parse(evidence, &it);
	for (i = 0; i < n; i++) {
		const char *val = it[i].value;

		if (!val || !*val)
			continue;
		if (!strcmp(it[i].key, "cycled"))
			cycled = 1;
		else if (!strcmp(it[i].key, "booted"))
			booted = 1;
		else if (!strcmp(it[i].key, "built"))
			vmlinux = in_vmlinux(val);
	}
	ev_items_free(it, n);
	if (cycled)
		return EV_LEVEL_MODULE_CYCLED;
	if (vmlinux && booted)
		return EV_LEVEL_EXERCISED;
	return EV_LEVEL_BUILT;
}
