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
	[EV_LEVEL_REACHED] = "reached",
	[EV_LEVEL_DEVICE_BOUND] = "device-bound",
	[EV_LEVEL_MODULE_CYCLED] = "module-cycled",
	[EV_LEVEL_BOOTED] = "booted",
	[EV_LEVEL_BUILT] = "built",
};

const char *ev_level_name(enum ev_level l)
{
	return l < EV_LEVEL_NR ? ev_level_names[l] : "-";
}

int ev_level_parse(const char *name)
{
	int i;

	for (i = 0; i < EV_LEVEL_NR; i++)
		if (!strcmp(name, ev_level_names[i]))
			return i;
	if (!strcmp(name, "exercised"))
		return EV_LEVEL_BOOTED;
	return -1;
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
	int n, i, ran = 0, bound = 0, cycled = 0, vmlinux = 0, booted = 0;

	if (strcmp(verdict, "accepted"))
		return EV_LEVEL_NONE;
	n = ev_items_parse(evidence, &it);
	for (i = 0; i < n; i++) {
		const char *val = it[i].value;

		if (!val || !*val)
			continue;
		if (!strcmp(it[i].key, "ran"))
			ran = 1;
		else if (!strcmp(it[i].key, "bound"))
			bound = 1;
		else if (!strcmp(it[i].key, "cycled"))
			cycled = 1;
		else if (!strcmp(it[i].key, "booted"))
			booted = 1;
		else if (!strcmp(it[i].key, "built"))
			vmlinux = in_vmlinux(val);
	}
	ev_items_free(it, n);
	if (ran)
		return EV_LEVEL_REACHED;
	if (bound)
		return EV_LEVEL_DEVICE_BOUND;
	if (cycled)
		return EV_LEVEL_MODULE_CYCLED;
	if (vmlinux && booted)
		return EV_LEVEL_BOOTED;
	return EV_LEVEL_BUILT;
}

/* The guest exercises (qemu-boot/guest/exercises/), in words. */
static const char *const exercise_words[][2] = {
	{ "boot", "the boot checks" },
	{ "cpu-online", "CPU online" },
	{ "cpu-hotplug", "CPU hotplug" },
	{ "pm-test", "the PM core test" },
	{ "suspend-s3", "S3 suspend/resume" },
	{ "s2idle-rtc", "suspend-to-idle" },
	{ "hibernate-core", "the hibernation core test" },
	{ "modules", "module load/unload" },
	{ "sysfs-write", "sysfs writes" },
	{ "read-all", "reads of /proc and /sys" },
	{ "devices", "device unbind/bind" },
};

static const char *exercise_word(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(exercise_words); i++)
		if (!strcmp(name, exercise_words[i][0]))
			return exercise_words[i][1];
	return name;
}

/*
 * The comma-separated items of V, each cut at the first CUT character;
 * "...", the end of a cut list, is left out.
 */
static int split_list(const char *v, char ***out, int cut)
{
	char **w = NULL;
	int n = 0;

	while (v && *v) {
		size_t len = strcspn(v, ","), k = len;
		const char *c = cut ? memchr(v, cut, len) : NULL;

		if (c)
			k = c - v;
		if (k && strncmp(v, "...", 3)) {
			w = xrealloc(w, (n + 1) * sizeof(*w));
			w[n++] = xstrndup(v, k);
		}
		v += len;
		if (*v == ',')
			v++;
	}
	*out = w;
	return n;
}

static void free_list(char **w, int n)
{
	while (n--)
		free(w[n]);
	free(w);
}

/*
 * "a", "a and b", "a, b and c"; SUFFIX after each word ("()"), at most
 * MAX words and then "and N more".
 */
static void add_words(struct sb *s, char **w, int n, const char *suffix,
		      int max)
{
	int i, shown = n > max ? max : n;

	for (i = 0; i < shown; i++) {
		if (i)
			sb_add(s, i == n - 1 ? " and " : ", ");
		sb_addf(s, "%s%s", w[i], suffix);
	}
	if (shown < n)
		sb_addf(s, " and %d more", n - shown);
}

/* N with a comma every three digits: 1,204. */
static void add_count(struct sb *s, unsigned long long n)
{
	char d[32];
	int len = snprintf(d, sizeof(d), "%llu", n), i;

	for (i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			sb_add(s, ",");
		sb_addf(s, "%c", d[i]);
	}
}

static const char *item(struct ev_item *it, int n, const char *key)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(it[i].key, key) && it[i].value && *it[i].value)
			return it[i].value;
	return NULL;
}

/* ran=FUNC:COUNT,...: the sum of the counts. */
static unsigned long long ran_total(const char *v)
{
	unsigned long long t = 0;

	while (v && *v) {
		size_t len = strcspn(v, ",");
		const char *c = memchr(v, ':', len);

		if (c)
			t += strtoull(c + 1, NULL, 10);
		v += len;
		if (*v == ',')
			v++;
	}
	return t;
}

/* " (foo() and bar()TAIL)" from a list of functions V. */
static void add_aside(struct sb *s, const char *v, const char *tail)
{
	char **w;
	int nw = split_list(v, &w, 0);

	sb_add(s, " (");
	add_words(s, w, nw, "()", 4);
	sb_addf(s, "%s)", tail);
	free_list(w, nw);
}

char *ev_sentence(const char *verdict, const char *evidence)
{
	enum ev_level l = ev_level(verdict, evidence);
	struct ev_item *it;
	struct sb s;
	char **w, **e;
	const char *v;
	int n, nw, ne, i;

	if (l == EV_LEVEL_NONE)
		return NULL;
	n = ev_items_parse(evidence, &it);
	sb_init(&s);
	switch (l) {
	case EV_LEVEL_REACHED:
		nw = split_list(item(it, n, "ran"), &w, ':');
		sb_add(&s, nw > 1 ? "its readers " : "its reader ");
		add_words(&s, w, nw, "()", 4);
		sb_add(&s, " ran ");
		add_count(&s, ran_total(item(it, n, "ran")));
		sb_add(&s, ran_total(item(it, n, "ran")) == 1 ? " time" :
		       " times");
		free_list(w, nw);
		ne = split_list(item(it, n, "ran-in"), &e, 0);
		if (ne) {
			for (i = 0; i < ne; i++) {
				char *t = xstrdup(exercise_word(e[i]));

				free(e[i]);
				e[i] = t;
			}
			sb_add(&s, " during ");
			add_words(&s, e, ne, "", 6);
		}
		free_list(e, ne);
		sb_add(&s, " after init, with the section read-only");
		break;
	case EV_LEVEL_DEVICE_BOUND:
		nw = split_list(item(it, n, "bound"), &w, 0);
		sb_add(&s, "its driver bound ");
		add_words(&s, w, nw, "", 4);
		sb_add(&s, ", and unbind/bind, suspend/resume and unload passed with the section read-only");
		free_list(w, nw);
		break;
	case EV_LEVEL_MODULE_CYCLED:
		sb_addf(&s, "its module %s loaded, its init returning 0, and unloaded, with the section read-only",
			item(it, n, "cycled") ? item(it, n, "cycled") : "?");
		break;
	case EV_LEVEL_BOOTED:
		sb_add(&s, "it was built into vmlinux and booted through the exercises, but the boot did not reach its code");
		v = item(it, n, "not-ran");
		if (v)
			add_aside(&s, v, " never ran after init");
		else if (item(it, n, "untraced"))
			add_aside(&s, item(it, n, "untraced"),
				  " cannot be counted");
		break;
	default:
		sb_add(&s, "it was only compiled: no boot ran its code");
		break;
	}
	ev_items_free(it, n);
	return s.buf;
}

const struct ev_notbuilt_kind ev_notbuilt_kinds[EV_NB_NR] = {
	[EV_NB_OTHER_ARCH] = { "other-arch", "other-arch", "other-arch: ", 1 },
	[EV_NB_UNMET] = { "unmet", "unmet", "unmet: ", 1 },
	[EV_NB_NO_KBUILD_RULE] = { "no-kbuild-rule", "no kbuild rule",
				   "no kbuild rule", 1 },
	[EV_NB_NOT_C] = { "not-c", "not a .c file", "not a .c file", 1 },
	[EV_NB_BUILDABLE] = { "buildable", "not compiled, although buildable",
			      "not compiled, although", 1 },
	[EV_NB_PROFILE] = { "not-in-profile", "not compiled in the profile",
			    " is not compiled in profile ", 0 },
	[EV_NB_COMPILED_OUT] = { "compiled-out", "compiled out",
				 "(compiled out)", 0 },
	[EV_NB_DISCARDED] = { "discarded", "discarded", "(discarded)", 0 },
	[EV_NB_OTHER] = { "other", "other", NULL, 0 },
};

char *ev_notbuilt(enum ev_notbuilt kind, const char *text)
{
	return xasprintf("not-built: %s: %s", ev_notbuilt_kinds[kind].token,
			 text);
}

enum ev_notbuilt ev_notbuilt_parse(const char *reason)
{
	size_t n = strspn(reason, "abcdefghijklmnopqrstuvwxyz-");
	int k;

	for (k = 0; n && reason[n] == ':' && k < EV_NB_NR; k++) {
		if (strlen(ev_notbuilt_kinds[k].token) == n &&
		    !strncmp(reason, ev_notbuilt_kinds[k].token, n))
			return k;
	}
	for (k = 0; k < EV_NB_NR; k++) {
		const struct ev_notbuilt_kind *e = &ev_notbuilt_kinds[k];

		if (!e->legacy)
			continue;
		if (e->legacy_prefix ?
		    !strncmp(reason, e->legacy, strlen(e->legacy)) :
		    !!strstr(reason, e->legacy))
			return k;
	}
	return EV_NB_OTHER;
}
