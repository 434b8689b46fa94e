// SPDX-License-Identifier: GPL-2.0
/*
 * console.c - parse the guest's serial console and judge the run.
 *
 * The guest prints KTAP (see README.md): "# rocampaign: begin NAME" opens
 * the window of exercise NAME, its "ok"/"not ok" line closes it.  Kernel
 * oops, BUG, WARNING and panic lines are charged to the open window (or to
 * the pseudo-exercise "kernel" when none is open), except in the window of
 * the control, where an oops is the expected outcome.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot.h"

#define TAG		"# rocampaign: "
#define CONTROL		"control"
#define KERNEL_ROW	"kernel"

enum mark {
	MARK_NONE,
	MARK_WARN,	/* WARNING: a splat, but not a fault */
	MARK_OOPS,	/* an oops: the kernel faulted or BUG()ed */
	MARK_PANIC,
};

static const struct {
	const char *text;
	enum mark kind;
} marks[] = {
	{ "Kernel panic - not syncing", MARK_PANIC },
	{ "BUG: ", MARK_OOPS },
	{ "kernel BUG at", MARK_OOPS },
	{ "Oops: ", MARK_OOPS },
	{ "general protection fault", MARK_OOPS },
	{ "WARNING: ", MARK_WARN },
};

static const char *const status_names[] = {
	[EX_MISSING] = "missing",
	[EX_OK] = "ok",
	[EX_FAIL] = "fail",
	[EX_SKIP] = "skip",
	[EX_HANG] = "hang",
};

const char *verdict_name(enum verdict v)
{
	static const char *const names[] = {
		[VERDICT_PASS] = "pass",
		[VERDICT_FAIL] = "fail",
		[VERDICT_HANG] = "hang",
		[VERDICT_INVALID] = "invalid",
	};

	return names[v];
}

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* A detail goes into one TSV field: no tabs, no newlines. */
static char *field(const char *s)
{
	char *d = xstrdup(s), *p;

	for (p = d; *p; p++)
		if (*p == '\t' || *p == '\n' || *p == '\r')
			*p = ' ';
	return d;
}

static void set_detail(struct exercise *e, const char *s)
{
	free(e->detail);
	e->detail = field(s);
}

static void append_detail(struct exercise *e, const char *s)
{
	size_t n;
	char *d;

	if (!e->detail || !*e->detail) {
		set_detail(e, s);
		return;
	}
	n = strlen(e->detail) + strlen(s) + 4;
	d = xmalloc(n);
	snprintf(d, n, "%s | %s", e->detail, s);
	free(e->detail);
	e->detail = field(d);
	free(d);
}

static long find_ex(const struct console *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nex; i++)
		if (strcmp(c->ex[i].name, name) == 0)
			return (long)i;
	return -1;
}

static long add_ex(struct console *c, const char *name)
{
	long i = find_ex(c, name);

	if (i >= 0)
		return i;
	if (c->nex == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->ex = xrealloc(c->ex, c->cap * sizeof(*c->ex));
	}
	memset(&c->ex[c->nex], 0, sizeof(c->ex[c->nex]));
	c->ex[c->nex].name = xstrdup(name);
	c->ex[c->nex].status = EX_MISSING;
	return (long)c->nex++;
}

/* Rows known before the boot: --exercise NAMES, then the control. */
void console_init(struct console *c, FILE *log, double t0,
		  const char *exercises)
{
	memset(c, 0, sizeof(*c));
	c->log = log;
	c->t0 = t0;
	c->cur = -1;
	c->plan = -1;
	if (exercises && strcmp(exercises, "all") != 0) {
		char *list = xstrdup(exercises), *tok, *save;

		for (tok = strtok_r(list, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save))
			if (*tok && strcmp(tok, CONTROL) != 0)
				add_ex(c, tok);
		free(list);
	}
	add_ex(c, CONTROL);
}

void console_reset(struct console *c, FILE *log, double t0,
		   const char *exercises)
{
	size_t i;

	for (i = 0; i < c->nex; i++) {
		free(c->ex[i].name);
		free(c->ex[i].detail);
	}
	free(c->ex);
	free(c->violations);
	free_modules(c);
	free_bound(c);
	free(c->ctl_oops_line);
	console_init(c, log, t0, exercises);
}

static void progress(const struct console *c, double now, const char *what,
		     const char *name, const char *detail)
{
	fprintf(stderr, "boot: [%6.1f s] %-7s %s%s%s\n", now - c->t0, what,
		name, detail && *detail ? "  " : "", detail ? detail : "");
}

/* "# rocampaign: control expect=oops result=oops" */
static void parse_control(struct console *c, const char *s)
{
	const char *e = strstr(s, "expect="), *r = strstr(s, "result=");

	c->ctl_seen = 1;
	c->ctl_expect[0] = c->ctl_result[0] = '\0';
	if (e)
		sscanf(e, "expect=%15[a-z]", c->ctl_expect);
	if (r)
		sscanf(r, "result=%15[a-z]", c->ctl_result);
}

static void handle_tag(struct console *c, const char *s, double now)
{
	if (starts(s, "begin ")) {
		s += strlen("begin ");
		c->cur = add_ex(c, s);
		c->ex[c->cur].began = 1;
		progress(c, now, "begin", s, NULL);
	} else if (starts(s, "control ")) {
		parse_control(c, s);
	} else if (strcmp(s, "violations-begin") == 0) {
		c->in_violations = 1;
		c->violations_seen = 1;
	} else if (strcmp(s, "modules-begin") == 0) {
		c->in_modules = 1;
		c->modules_seen = 1;
	} else if (strcmp(s, "bound-begin") == 0) {
		c->in_bound = 1;
		c->bound_seen = 1;
	} else if (strcmp(s, "done") == 0) {
		c->done = 1;
	}
}

/*
 * "ok 3 NAME", "ok 3 NAME # SKIP why", "not ok 3 NAME # why".
 * Indented lines are nested subtests and are not ours.
 */
static void handle_result(struct console *c, const char *s, double now)
{
	int ok = starts(s, "ok ");
	char name[256];
	const char *p, *hash, *why = "";
	struct exercise *e;
	size_t n;
	long i;

	p = s + (ok ? 3 : 7);
	while (*p >= '0' && *p <= '9')
		p++;
	while (*p == ' ')
		p++;
	if (starts(p, "- "))
		p += 2;
	hash = strstr(p, " #");
	n = hash ? (size_t)(hash - p) : strlen(p);
	while (n && p[n - 1] == ' ')
		n--;
	if (!n)
		return;
	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	memcpy(name, p, n);
	name[n] = '\0';
	if (hash) {
		why = hash + 2;
		while (*why == ' ')
			why++;
	}

	i = add_ex(c, name);
	e = &c->ex[i];
	e->reported = 1;
	e->guest_ok = ok;
	if (c->cur == i)
		c->cur = -1;
	if (e->status == EX_FAIL) {
		/* The host saw an oops here: that wins over the guest. */
		if (!ok)
			append_detail(e, why);
	} else if (!ok) {
		e->status = EX_FAIL;
		set_detail(e, *why ? why : "not ok");
	} else if (starts(why, "SKIP") || starts(why, "skip")) {
		e->status = EX_SKIP;
		why += 4;
		while (*why == ' ')
			why++;
		set_detail(e, why);
	} else {
		e->status = EX_OK;
	}
	progress(c, now, ok ? (e->status == EX_SKIP ? "skip" : "ok") :
		 "not ok", name, e->detail);
}

static enum mark mark_of(const char *s)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(marks); i++)
		if (strstr(s, marks[i].text))
			return marks[i].kind;
	return MARK_NONE;
}

static void handle_mark(struct console *c, const char *s, enum mark m,
			double now)
{
	long i = c->cur;
	struct exercise *e;

	if (m == MARK_PANIC)
		c->panic = 1;
	if (i >= 0 && strcmp(c->ex[i].name, CONTROL) == 0 &&
	    m != MARK_PANIC) {
		/* Expected (or judged) at the end: count real faults only. */
		if (m == MARK_OOPS && !c->ctl_oopses++)
			c->ctl_oops_line = field(s);
		return;
	}
	if (i < 0)
		i = add_ex(c, KERNEL_ROW);
	e = &c->ex[i];
	if (m == MARK_PANIC) {
		e->status = EX_FAIL;
		append_detail(e, s);
		progress(c, now, "PANIC", e->name, s);
	} else if (e->status != EX_FAIL) {
		e->status = EX_FAIL;
		set_detail(e, s);
		progress(c, now, m == MARK_WARN ? "WARNING" : "OOPS",
			 e->name, s);
	}
}

static void handle_line(struct console *c, char *s, double now)
{
	enum mark m;
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\r' || s[n - 1] == ' '))
		s[--n] = '\0';
	if (starts(s, TAG)) {
		s += strlen(TAG);
		if (c->in_violations) {
			if (strcmp(s, "violations-end") == 0)
				c->in_violations = 0;
			return;
		}
		/* A table cut off (any other tag) ends there. */
		if (c->in_modules) {
			c->in_modules = 0;
			if (strcmp(s, "modules-end") == 0)
				return;
		}
		if (c->in_bound) {
			c->in_bound = 0;
			if (strcmp(s, "bound-end") == 0)
				return;
		}
		handle_tag(c, s, now);
		return;
	}
	m = mark_of(s);
	if (m != MARK_NONE && !starts(s, "ok ") && !starts(s, "not ok ")) {
		handle_mark(c, s, m, now);
		return;
	}
	if (c->in_modules && add_module(c, s))
		return;
	if (c->in_bound && add_bound(c, s))
		return;
	if (c->in_violations) {
		if (*s)
			add_violation(c, s);
	} else if (starts(s, "KTAP version")) {
		c->header = 1;
	} else if (starts(s, "1..")) {
		c->plan = atoi(s + 3);
	} else if (starts(s, "ok ") || starts(s, "not ok ")) {
		handle_result(c, s, now);
	}
}

/* Serial bytes in: log them (without CRs) and parse them line by line. */
void console_feed(struct console *c, const char *buf, size_t n, double now)
{
	size_t i;

	c->bytes += n;
	for (i = 0; i < n; i++) {
		char ch = buf[i];

		if (ch == '\r')
			continue;
		if (c->log)
			fputc(ch, c->log);
		if (ch == '\n' || c->len == sizeof(c->line) - 1) {
			c->line[c->len] = '\0';
			handle_line(c, c->line, now);
			c->len = 0;
			if (ch == '\n')
				continue;
		}
		if (ch != '\0')
			c->line[c->len++] = ch;
	}
	if (c->log)
		fflush(c->log);
}

void console_flush(struct console *c, double now)
{
	if (c->len) {
		c->line[c->len] = '\0';
		handle_line(c, c->line, now);
		c->len = 0;
	}
}

/*
 * Judge the control.  expect is what the host derived from the kernel
 * command line ("oops" or "survive").  Returns 1 if the run is valid and
 * leaves the reason in the control's detail either way.
 */
static int judge_control(struct console *c, const char *expect)
{
	struct exercise *e = &c->ex[find_ex(c, CONTROL)];
	const char *seen = c->ctl_oopses ? "oops" : "survive";
	char d[BOOT_LINE_MAX + 128];
	int valid = 0;

	if (e->status == EX_FAIL && c->panic)
		return 0;	/* a panic in the control: already a fail */
	if (!e->reported)
		snprintf(d, sizeof(d), "control never reported");
	else if (!e->guest_ok)
		snprintf(d, sizeof(d), "guest: not ok%s%s",
			 e->detail ? ": " : "", e->detail ? e->detail : "");
	else if (!c->ctl_seen)
		snprintf(d, sizeof(d), "no '%scontrol' line", TAG);
	else if (strcmp(c->ctl_expect, expect) != 0)
		snprintf(d, sizeof(d),
			 "guest expected %s, the command line implies %s",
			 c->ctl_expect, expect);
	else if (strcmp(c->ctl_expect, seen) != 0)
		snprintf(d, sizeof(d), "expected %s, console shows %s%s%s",
			 c->ctl_expect, seen, c->ctl_oops_line ? ": " : "",
			 c->ctl_oops_line ? c->ctl_oops_line : "");
	else if (strcmp(c->ctl_result, seen) != 0)
		snprintf(d, sizeof(d), "guest says result=%s, console shows %s",
			 c->ctl_result, seen);
	else if (strcmp(expect, "survive") == 0 && c->violations_seen &&
		 !c->vlen)
		snprintf(d, sizeof(d), "violations file is empty");
	else
		valid = 1;
	if (valid) {
		e->status = EX_OK;
		snprintf(d, sizeof(d), "expect=%s observed=%s%s%s", expect,
			 seen, c->ctl_oops_line ? ": " : "",
			 c->ctl_oops_line ? c->ctl_oops_line : "");
	} else if (e->reported) {
		e->status = EX_FAIL;
	}
	set_detail(e, d);
	return valid;
}

/*
 * The verdict, by precedence: fail (a panic, or an exercise failed: the
 * kernel misbehaved, whatever else happened), hang (timeout), invalid (the
 * control did not prove protection on, or exercises went missing), pass.
 * A guest that stops inside an exercise without a panic (a triple fault,
 * a stray reset) fails that exercise; stop is the QMP SHUTDOWN reason.
 */
enum verdict console_finish(struct console *c, int timed_out, int timeout,
			    const char *expect, const char *stop)
{
	int fail = c->panic, missing = 0, valid;
	size_t i;

	if (!timed_out && !c->done && !c->panic && c->cur >= 0 &&
	    strcmp(c->ex[c->cur].name, CONTROL) != 0) {
		struct exercise *e = &c->ex[c->cur];
		char d[128];

		snprintf(d, sizeof(d), "the guest stopped in this exercise (QEMU: %s)",
			 stop && *stop ? stop : "exited");
		if (e->status != EX_FAIL) {
			e->status = EX_FAIL;
			set_detail(e, d);
		}
	}
	valid = judge_control(c, expect);
	for (i = 0; i < c->nex; i++) {
		struct exercise *e = &c->ex[i];
		int is_ctl = strcmp(e->name, CONTROL) == 0;

		if (timed_out && (long)i == c->cur && e->status != EX_FAIL) {
			char d[64];

			e->status = EX_HANG;
			snprintf(d, sizeof(d), "timeout after %d s", timeout);
			set_detail(e, d);
		}
		if (e->status == EX_FAIL && !is_ctl)
			fail = 1;
		if (e->status == EX_MISSING && !is_ctl)
			missing = 1;
	}
	if (c->plan >= 0 && !timed_out && !c->panic) {
		size_t reported = 0;

		for (i = 0; i < c->nex; i++)
			reported += c->ex[i].reported;
		if (reported < (size_t)c->plan) {
			fprintf(stderr, "boot: plan 1..%d, %zu results\n",
				c->plan, reported);
			missing = 1;
		}
	}
	if (fail)
		return VERDICT_FAIL;
	if (timed_out)
		return VERDICT_HANG;
	if (!valid || missing)
		return VERDICT_INVALID;
	return VERDICT_PASS;
}

/* Write DIR/NAME through a temporary file and a rename. */
int write_out(const char *dir, const char *name, const char *text, size_t n)
{
	char path[4096], tmp[4096 + 8];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f || fwrite(text, 1, n, f) != n || fclose(f) != 0 ||
	    rename(tmp, path) != 0) {
		fprintf(stderr, "boot: error: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static void write_row(FILE *f, const struct exercise *e)
{
	fprintf(f, "%s\t%s\t%s\n", e->name, status_names[e->status],
		e->detail ? e->detail : "");
}

/*
 * result.tsv, violations.tsv and modules.tsv (when the guest printed
 * them), verdict.
 */
int console_write(const struct console *c, const char *dir, enum verdict v)
{
	char *buf = NULL;
	char word[16];
	size_t n = 0, i;
	FILE *f = open_memstream(&buf, &n);
	int ret = 0;

	if (!f) {
		perror("boot: open_memstream");
		return -1;
	}
	fprintf(f, "exercise\tstatus\tdetail\n");
	/* The control last, as the guest runs it. */
	for (i = 0; i < c->nex; i++)
		if (strcmp(c->ex[i].name, CONTROL) != 0)
			write_row(f, &c->ex[i]);
	write_row(f, &c->ex[find_ex(c, CONTROL)]);
	fclose(f);
	ret |= write_out(dir, "result.tsv", buf, n);
	free(buf);
	if (c->violations_seen)
		ret |= write_out(dir, "violations.tsv",
				  c->violations ? c->violations : "", c->vlen);
	if (c->modules_seen)
		ret |= write_modules(c, dir);
	if (c->bound_seen)
		ret |= write_bound(c, dir);
	snprintf(word, sizeof(word), "%s\n", verdict_name(v));
	ret |= write_out(dir, "verdict", word, strlen(word));
	return ret;
}
