// SPDX-License-Identifier: GPL-2.0
/*
 * tables.c - the tables the guest prints on the console between
 * "# rocampaign: NAME-begin" and "# rocampaign: NAME-end" lines: the
 * violations file of ro_after_init=warn and the modules exercise's table.
 * Kernel messages can reach the console in between, so only the header
 * and well-formed rows are kept.
 */
#include <stdlib.h>
#include <string.h>

#include "boot.h"

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int all_digits(const char *s, size_t n, int sign)
{
	size_t i = (sign && n && s[0] == '-') ? 1 : 0;

	if (i == n)
		return 0;
	for (; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/*
 * Kernel messages reach the serial console while the guest prints the
 * violations file, so only its header and well-formed rows count:
 * symbol, 0xADDRESS, writer, count, first_cpu.
 */
static int violation_row(const char *s)
{
	const char *f[5], *t;
	size_t len[5];
	int i;

	if (starts(s, "symbol\taddress\t"))
		return 1;
	for (i = 0; i < 5; i++) {
		t = i < 4 ? strchr(s, '\t') : s + strlen(s);
		if (!t || t == s)
			return 0;
		f[i] = s;
		len[i] = t - s;
		s = t + (i < 4);
	}
	if (strchr(f[4], '\t') || len[1] < 3 || !starts(f[1], "0x"))
		return 0;
	for (t = f[1] + 2; t < f[1] + len[1]; t++)
		if (!((*t >= '0' && *t <= '9') || (*t >= 'a' && *t <= 'f')))
			return 0;
	return all_digits(f[3], len[3], 0) && all_digits(f[4], len[4], 1);
}

void add_violation(struct console *c, const char *line)
{
	size_t n = strlen(line);

	if (!violation_row(line))
		return;

	if (c->vlen + n + 2 > c->vcap) {
		c->vcap = 2 * (c->vcap + n + 2);
		c->violations = xrealloc(c->violations, c->vcap);
	}
	memcpy(c->violations + c->vlen, line, n);
	c->vlen += n;
	c->violations[c->vlen++] = '\n';
}

/* The N bytes at S are WORD. */
static int is_word(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && strncmp(s, word, n) == 0;
}

static int one_of(const char *s, size_t n, const char *const *words)
{
	for (; *words; words++)
		if (is_word(s, n, *words))
			return 1;
	return 0;
}

#define MOD_HEADER	"module\tinit\texit\tdetail"

/*
 * A row of the modules table: module (a .ko basename), init, exit and a
 * detail without tabs ("-" if empty); a denied or preloaded module has
 * exit "-".  Like the violations, only well-formed rows count.
 */
static int module_row(const char *s)
{
	static const char *const inits[] = {
		"ok", "failed", "timeout", "killed", "denied", "preloaded", NULL
	};
	static const char *const exits[] = {
		"ok", "failed", "timeout", "killed", "-", NULL
	};
	const char *f[3], *t, *p;
	size_t len[3];
	int i;

	for (i = 0; i < 3; i++) {
		t = strchr(s, '\t');
		if (!t || t == s)
			return 0;
		f[i] = s;
		len[i] = t - s;
		s = t + 1;
	}
	if (!*s || strchr(s, '\t'))
		return 0;
	for (p = f[0]; p < f[0] + len[0]; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			return 0;
	if (!one_of(f[1], len[1], inits) || !one_of(f[2], len[2], exits))
		return 0;
	if (is_word(f[1], len[1], "denied") ||
	    is_word(f[1], len[1], "preloaded"))
		return is_word(f[2], len[2], "-");
	return 1;
}

/*
 * Returns 1 if LINE belongs to the table (the header or a row), else 0:
 * the caller parses it as any other line.  A module printed again (the
 * exercise run twice) keeps its last row.
 */
int add_module(struct console *c, const char *line)
{
	size_t i, n;

	if (strcmp(line, MOD_HEADER) == 0)
		return 1;
	if (!module_row(line))
		return 0;
	n = strchr(line, '\t') - line + 1;
	for (i = 0; i < c->nmods; i++)
		if (strncmp(c->mods[i], line, n) == 0) {
			free(c->mods[i]);
			c->mods[i] = xstrdup(line);
			return 1;
		}
	if (c->nmods == c->capmods) {
		c->capmods = c->capmods ? 2 * c->capmods : 64;
		c->mods = xrealloc(c->mods, c->capmods * sizeof(*c->mods));
	}
	c->mods[c->nmods++] = xstrdup(line);
	return 1;
}

/* modules.tsv: the header, then the rows received, in their order. */
int write_modules(const struct console *c, const char *dir)
{
	char *buf = NULL;
	size_t n = 0, i;
	FILE *f = open_memstream(&buf, &n);
	int ret;

	if (!f) {
		perror("boot: open_memstream");
		return -1;
	}
	fprintf(f, "%s\n", MOD_HEADER);
	for (i = 0; i < c->nmods; i++)
		fprintf(f, "%s\n", c->mods[i]);
	fclose(f);
	ret = write_out(dir, "modules.tsv", buf, n);
	free(buf);
	return ret;
}

void free_modules(struct console *c)
{
	size_t i;

	for (i = 0; i < c->nmods; i++)
		free(c->mods[i]);
	free(c->mods);
	c->mods = NULL;
	c->nmods = c->capmods = 0;
}

/*
 * The bound-devices table of the devices exercise, one row per device
 * that a module's driver bound (or per module that bound none):
 * module bus driver device probe rebind suspend unload detail.
 */
#define BOUND_HEADER \
	"module\tbus\tdriver\tdevice\tprobe\trebind\tsuspend\tunload\tdetail"
#define BOUND_COLS	9

static int bound_row(const char *s)
{
	static const char *const probes[] = {
		"0", "failed", "none", "load-failed", NULL
	};
	static const char *const results[] = { "ok", "fail", "-", NULL };
	const char *t;
	int i = 0;

	for (;;) {
		size_t n;

		t = strchr(s, '\t');
		n = t ? (size_t)(t - s) : strlen(s);
		if (!n)
			return 0;
		if (i == 4 && !one_of(s, n, probes))
			return 0;
		if (i >= 5 && i <= 7 && !one_of(s, n, results))
			return 0;
		i++;
		if (!t)
			break;
		s = t + 1;
	}
	return i == BOUND_COLS;
}

/* As add_module(): 1 if LINE is the header or a row.  Key: module, device. */
int add_bound(struct console *c, const char *line)
{
	size_t i, n;
	const char *t;

	if (strcmp(line, BOUND_HEADER) == 0)
		return 1;
	if (!bound_row(line))
		return 0;
	t = strchr(line, '\t');
	t = strchr(t + 1, '\t');
	t = strchr(t + 1, '\t');
	t = strchr(t + 1, '\t');
	n = t - line;
	for (i = 0; i < c->nbound; i++)
		if (strncmp(c->bound[i], line, n) == 0 &&
		    c->bound[i][n] == '\t') {
			free(c->bound[i]);
			c->bound[i] = xstrdup(line);
			return 1;
		}
	if (c->nbound == c->capbound) {
		c->capbound = c->capbound ? 2 * c->capbound : 16;
		c->bound = xrealloc(c->bound, c->capbound * sizeof(*c->bound));
	}
	c->bound[c->nbound++] = xstrdup(line);
	return 1;
}

/* bound.tsv: the header, then the rows received, in their order. */
int write_bound(const struct console *c, const char *dir)
{
	struct sb s;
	size_t i;
	int ret;

	sb_init(&s);
	sb_add(&s, BOUND_HEADER "\n");
	for (i = 0; i < c->nbound; i++)
		sb_addf(&s, "%s\n", c->bound[i]);
	ret = write_out(dir, "bound.tsv", s.buf, s.len);
	sb_free(&s);
	return ret;
}

void free_bound(struct console *c)
{
	size_t i;

	for (i = 0; i < c->nbound; i++)
		free(c->bound[i]);
	free(c->bound);
	c->bound = NULL;
	c->nbound = c->capbound = 0;
}
