// SPDX-License-Identifier: GPL-2.0
/*
 * qmp.c - the launcher's QMP client: negotiate capabilities, then wake the
 * guest up about a second after each SUSPEND event.
 *
 * QEMU writes one JSON object per line, so a line-based reader and a
 * key lookup are enough; everything sent and received goes to qmp.log.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "boot.h"

#define WAKE_DELAY	1.0	/* seconds between SUSPEND and system_wakeup */
#define WAKE_RETRIES	10

static void qmp_log(struct qmp *q, double now, const char *dir,
		    const char *msg)
{
	if (!q->log)
		return;
	fprintf(q->log, "%.3f\t%s\t%s\n", now - q->t0, dir, msg);
	fflush(q->log);
}

static void qmp_send(struct qmp *q, double now, const char *msg)
{
	size_t n = strlen(msg);

	qmp_log(q, now, ">", msg);
	if (send(q->fd, msg, n, MSG_NOSIGNAL) != (ssize_t)n ||
	    send(q->fd, "\n", 1, MSG_NOSIGNAL) != 1)
		qmp_log(q, now, "!", strerror(errno));
}

/* The string value of "key" in a flat-enough JSON line, into val. */
static int json_str(const char *line, const char *key, char *val, size_t n)
{
	char pat[64];
	const char *p;
	size_t i = 0;

	snprintf(pat, sizeof(pat), "\"%s\"", key);
	p = strstr(line, pat);
	if (!p)
		return 0;
	p += strlen(pat);
	while (*p == ' ' || *p == ':')
		p++;
	if (*p++ != '"')
		return 0;
	while (*p && *p != '"' && i + 1 < n)
		val[i++] = *p++;
	val[i] = '\0';
	return 1;
}

void qmp_init(struct qmp *q, int fd, FILE *log, double t0)
{
	memset(q, 0, sizeof(*q));
	q->fd = fd;
	q->log = log;
	q->t0 = t0;
}

static void qmp_line(struct qmp *q, const char *line, double now)
{
	char ev[64];

	qmp_log(q, now, "<", line);
	if (strstr(line, "\"QMP\"")) {
		qmp_send(q, now, "{\"execute\": \"qmp_capabilities\"}");
	} else if (json_str(line, "event", ev, sizeof(ev))) {
		if (strcmp(ev, "SUSPEND") == 0) {
			q->suspends++;
			q->wake_tries = 0;
			q->wake_at = now + WAKE_DELAY;
			fprintf(stderr, "boot: [%6.1f s] guest suspended (S3), waking it in %.0f s\n",
				now - q->t0, WAKE_DELAY);
		} else if (strcmp(ev, "WAKEUP") == 0) {
			q->wake_events++;
		} else if (strcmp(ev, "SHUTDOWN") == 0 &&
			   !json_str(line, "reason", q->shutdown,
				     sizeof(q->shutdown))) {
			strcpy(q->shutdown, "shutdown");
		}
	} else if (strstr(line, "\"return\"")) {
		if (!q->ready) {
			q->ready = 1;
		} else if (q->wake_inflight) {
			q->wake_inflight = 0;
			q->wakeups++;
		}
	} else if (strstr(line, "\"error\"") && q->wake_inflight) {
		/* Not suspended (yet)?  Try again a little later. */
		q->wake_inflight = 0;
		if (++q->wake_tries < WAKE_RETRIES)
			q->wake_at = now + WAKE_DELAY;
	}
}

/* Read what QEMU sent.  Returns -1 when the socket is closed. */
int qmp_input(struct qmp *q, double now)
{
	ssize_t n;
	char *nl;

	n = read(q->fd, q->buf + q->len, sizeof(q->buf) - 1 - q->len);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -1;
	if (n == 0)
		return -1;
	q->len += (size_t)n;
	q->buf[q->len] = '\0';
	while ((nl = strchr(q->buf, '\n'))) {
		*nl = '\0';
		if (nl > q->buf && nl[-1] == '\r')
			nl[-1] = '\0';
		if (*q->buf)
			qmp_line(q, q->buf, now);
		q->len -= (size_t)(nl + 1 - q->buf);
		memmove(q->buf, nl + 1, q->len + 1);
	}
	if (q->len == sizeof(q->buf) - 1)
		q->len = 0;	/* an absurd line: drop it */
	return 0;
}

/* Send system_wakeup if one is due. */
void qmp_tick(struct qmp *q, double now)
{
	if (!q->wake_at || now < q->wake_at || !q->ready || q->wake_inflight)
		return;
	q->wake_at = 0;
	q->wake_inflight = 1;
	qmp_send(q, now, "{\"execute\": \"system_wakeup\"}");
}

double qmp_deadline(const struct qmp *q)
{
	return q->wake_at;
}
