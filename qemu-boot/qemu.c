// SPDX-License-Identifier: GPL-2.0
/*
 * qemu.c - run one QEMU: build its command, fork and exec it in its own
 * process group, pump the console and QMP sockets, stop it on timeout,
 * signal or a failed KVM probe, and never leave it behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "boot.h"

#define SERIAL_FD	3	/* in QEMU */
#define QMP_FD		4
#define KILL_GRACE	3.0	/* SIGTERM to SIGKILL */
#define DONE_GRACE	5.0	/* "done" to stopping QEMU */

static pid_t qemu_pid;

static void arg(struct argv_buf *a, const char *s)
{
	if (a->n >= ARGV_MAX)
		host_error("more than %s QEMU arguments", "256");
	a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

void build_argv(struct argv_buf *a, const struct opts *o,
		       const char *accel, const char *initrd,
		       const char *append)
{
	char buf[64];
	int i;

	a->n = 0;
	arg(a, o->qemu);
	arg(a, "-machine");
	arg(a, "q35");
	arg(a, "-global");
	arg(a, "ICH9-LPC.disable_s3=0");
	arg(a, "-nodefaults");
	arg(a, "-nographic");
	arg(a, "-display");
	arg(a, "none");
	arg(a, "-monitor");
	arg(a, "none");
	arg(a, "-no-reboot");
	arg(a, "-chardev");
	snprintf(buf, sizeof(buf), "socket,id=con,fd=%d", SERIAL_FD);
	arg(a, buf);
	arg(a, "-serial");
	arg(a, "chardev:con");
	arg(a, "-chardev");
	snprintf(buf, sizeof(buf), "socket,id=qmp,fd=%d", QMP_FD);
	arg(a, buf);
	arg(a, "-mon");
	arg(a, "chardev=qmp,mode=control");
	arg(a, "-accel");
	if (strcmp(accel, "kvm") == 0) {
		arg(a, "kvm");
		arg(a, "-cpu");
		arg(a, "host,-arch-capabilities");
	} else {
		arg(a, "tcg,thread=multi");
		if (o->cpu) {
			arg(a, "-cpu");
			arg(a, o->cpu);
		}
	}
	arg(a, "-m");
	snprintf(buf, sizeof(buf), "%d", o->mem);
	arg(a, buf);
	arg(a, "-smp");
	snprintf(buf, sizeof(buf), "%d", o->smp);
	arg(a, buf);
	arg(a, "-kernel");
	arg(a, o->kernel);
	arg(a, "-initrd");
	arg(a, initrd);
	arg(a, "-append");
	arg(a, append);
	for (i = 0; i < o->ndev_args; i++)
		arg(a, o->dev_args[i]);
}

void free_argv(struct argv_buf *a)
{
	while (a->n)
		free(a->v[--a->n]);
}

/* The QEMU command, shell-quoted, one line. */
void write_cmdline(const char *dir, const struct argv_buf *a)
{
	char path[PATH_MAX];
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/cmdline", dir);
	f = fopen(path, "w");
	if (!f)
		host_error("cannot write %s", path);
	for (i = 0; i < a->n; i++) {
		const char *p;

		fputs(i ? " '" : "'", f);
		for (p = a->v[i]; *p; p++)
			if (*p == '\'')
				fputs("'\\''", f);
			else
				fputc(*p, f);
		fputc('\'', f);
	}
	fputc('\n', f);
	fclose(f);
}

/* SIGTERM the QEMU process group, SIGKILL after a grace period, reap. */
int kill_qemu(void)
{
	double end = now() + KILL_GRACE;
	int status = 0;

	if (qemu_pid <= 0)
		return 0;
	kill(-qemu_pid, SIGTERM);
	while (waitpid(qemu_pid, &status, WNOHANG) == 0) {
		if (now() > end) {
			kill(-qemu_pid, SIGKILL);
			waitpid(qemu_pid, &status, 0);
			break;
		}
		usleep(20000);
	}
	qemu_pid = 0;
	return status;
}


/* The child: own process group, die with the launcher, exec QEMU. */
static _Noreturn void exec_qemu(const struct argv_buf *a,
						 pid_t parent, int con,
						 int qmp, int err, int logfd)
{
	sigset_t none;
	int null = open("/dev/null", O_RDWR);

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	if (null < 0 || dup2(null, 0) < 0 || dup2(logfd, 1) < 0 ||
	    dup2(logfd, 2) < 0 || dup2(con, SERIAL_FD) < 0 ||
	    dup2(qmp, QMP_FD) < 0)
		goto fail;
	execvp(a->v[0], a->v);
fail:
	{
		int e = errno;

		if (write(err, &e, sizeof(e)) < 0)
			_exit(127);
	}
	_exit(127);
}


/* Fork and exec QEMU; returns the launcher ends of the two sockets. */
static void spawn_qemu(const struct argv_buf *a, const char *out, int *con,
		       int *qmp)
{
	int cs[2], qs[2], ep[2], e = 0;
	FILE *log = open_out(out, "qemu.log", "a");
	pid_t parent = getpid();
	ssize_t n;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, cs) ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, qs) ||
	    pipe2(ep, O_CLOEXEC))
		host_error("socketpair: %s", strerror(errno));
	fflush(NULL);
	qemu_pid = fork();
	if (qemu_pid < 0)
		host_error("fork: %s", strerror(errno));
	if (qemu_pid == 0)
		exec_qemu(a, parent, cs[1], qs[1], ep[1], fileno(log));
	setpgid(qemu_pid, qemu_pid);
	close(cs[1]);
	close(qs[1]);
	close(ep[1]);
	fclose(log);
	do
		n = read(ep[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(ep[0]);
	if (n == sizeof(e)) {
		waitpid(qemu_pid, NULL, 0);
		qemu_pid = 0;
		fprintf(stderr, "boot: error: cannot run %s: %s\n", a->v[0],
			strerror(e));
		exit(EXIT_HOST);
	}
	*con = cs[0];
	*qmp = qs[0];
}

static double min_deadline(double a, double b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	return a < b ? a : b;
}


static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void stop_run(struct run *r)
{
	if (!r->exited)
		r->status = kill_qemu();
	r->exited = 1;
	close_fd(&r->con_fd);
	close_fd(&r->qmp_fd);
}

/* One poll round: read what came in, reap QEMU if it exited. */
static int poll_once(struct run *r, int sigfd)
{
	struct pollfd p[3] = {
		{ .fd = r->con_fd, .events = POLLIN },
		{ .fd = r->qmp_fd, .events = POLLIN },
		{ .fd = sigfd, .events = POLLIN },
	};
	double t = now(), next;
	char buf[4096];
	int ms;

	qmp_tick(r->qmp, t);
	next = min_deadline(r->deadline, qmp_deadline(r->qmp));
	if (r->probe_end && !r->con->header)
		next = min_deadline(next, r->probe_end);
	next = min_deadline(next, r->done_end);
	ms = next > t ? (int)((next - t) * 1000) + 1 : 0;
	if (r->con_fd < 0 && ms > 100)
		ms = 100;	/* console closed: wait for QEMU to exit */
	if (poll(p, 3, ms) < 0 && errno != EINTR)
		host_error("poll: %s", strerror(errno));
	t = now();
	if (p[2].revents & POLLIN) {
		struct signalfd_siginfo si;

		if (read(sigfd, &si, sizeof(si)) == sizeof(si) &&
		    si.ssi_signo != SIGCHLD) {
			r->signo = (int)si.ssi_signo;
			return -1;
		}
	}
	if (r->con_fd >= 0 && p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
		ssize_t n = read(r->con_fd, buf, sizeof(buf));

		if (n > 0) {
			console_feed(r->con, buf, (size_t)n, t);
		} else if (n == 0 || errno != EINTR) {
			console_flush(r->con, t);
			close_fd(&r->con_fd);
		}
	}
	if (r->qmp_fd >= 0 && p[1].revents & (POLLIN | POLLHUP | POLLERR) &&
	    qmp_input(r->qmp, t) < 0)
		close_fd(&r->qmp_fd);
	if (!r->exited && waitpid(qemu_pid, &r->status, WNOHANG) == qemu_pid) {
		r->exited = 1;
		qemu_pid = 0;
	}
	if (r->con->done && !r->done_end)
		r->done_end = t + DONE_GRACE;
	return 0;
}

/*
 * One QEMU run.  probe > 0: a KVM probe, given up after probe seconds
 * without a KTAP header.
 */
enum run_end run_qemu(const struct argv_buf *a, const struct opts *o,
			     int sigfd, struct run *r, double t0, int probe)
{
	r->exited = 0;
	r->deadline = t0 + o->timeout;
	r->probe_end = probe ? t0 + probe : 0;
	r->done_end = 0;
	spawn_qemu(a, o->out, &r->con_fd, &r->qmp_fd);
	r->qmp->fd = r->qmp_fd;
	for (;;) {
		double t;

		if (poll_once(r, sigfd) < 0) {
			stop_run(r);
			return RUN_SIGNAL;
		}
		if (r->exited && r->con_fd < 0)
			break;
		t = now();
		if (t >= r->deadline) {
			stop_run(r);
			return RUN_TIMEOUT;
		}
		if (r->probe_end && !r->con->header && t >= r->probe_end) {
			stop_run(r);
			return RUN_PROBE_FAILED;
		}
		if (r->done_end && t >= r->done_end) {
			fprintf(stderr, "boot: [%6.1f s] the guest is done but did not power off in %.0f s: stopping QEMU\n",
				t - t0, DONE_GRACE);
			stop_run(r);
			return RUN_EXITED;
		}
	}
	close_fd(&r->qmp_fd);
	if (r->probe_end && !r->con->header &&
	    (!WIFEXITED(r->status) || WEXITSTATUS(r->status)))
		return RUN_PROBE_FAILED;
	if (!WIFEXITED(r->status) || WEXITSTATUS(r->status))
		return RUN_HOST_ERROR;
	return RUN_EXITED;
}
