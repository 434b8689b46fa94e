// SPDX-License-Identifier: GPL-2.0
/*
 * boot - boot a kernel under QEMU, run the guest exercise suite, judge it.
 *
 * Starts qemu-system-x86_64 with the serial console and QMP on socketpairs,
 * feeds the console to console.c and QMP to qmp.c, enforces the wall-clock
 * timeout and never leaves a QEMU behind.  See README.md for the protocol.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "boot.h"

#define EXIT_USAGE	64
#define EXIT_HOST	70
#define BASE_APPEND	"console=ttyS0 panic=-1 maxcpus=1"
#define SERIAL_FD	3	/* in QEMU */
#define QMP_FD		4
#define KILL_GRACE	3.0	/* SIGTERM to SIGKILL */
#define DONE_GRACE	5.0	/* "done" to stopping QEMU */

struct opts {
	const char *kernel;
	const char *initrd;
	const char *exercises;
	char *append;		/* the user's --append words */
	const char *accel;
	const char *out;
	const char *qemu;
	int timeout;
	int probe;
	int smp;
	int mem;
};

enum run_end {
	RUN_EXITED,		/* QEMU exited on its own */
	RUN_TIMEOUT,
	RUN_PROBE_FAILED,	/* KVM probe: nothing from the guest in time */
	RUN_SIGNAL,
	RUN_HOST_ERROR,
};

static pid_t qemu_pid;
static int got_signal;

static const char usage_text[] =
"usage: boot KERNEL [--initrd FILE] [--exercise NAMES] [--append ARGS]\n"
"            [--timeout S] [--accel auto|tcg|kvm] [--smp N] [--mem MB]\n"
"            [--out DIR] [--qemu BIN] [--probe-timeout S]\n"
"\n"
"Boot KERNEL under qemu-system-x86_64 (q35, S3 enabled), run the guest\n"
"exercise suite of the initramfs and judge the run from its KTAP console.\n"
"\n"
"  --initrd FILE       initramfs (default: initramfs.cpio.gz next to KERNEL)\n"
"  --exercise NAMES    comma-separated exercises (default: all); the\n"
"                      control always runs\n"
"  --append ARGS       extra kernel command line (repeatable); always there:\n"
"                      " BASE_APPEND "\n"
"  --timeout S         wall-clock limit of the boot (default 300)\n"
"  --accel MODE        tcg, kvm, or auto: a KVM probe boot, TCG if the\n"
"                      guest shows no KTAP header within --probe-timeout\n"
"                      (default auto)\n"
"  --probe-timeout S   budget of the KVM probe (default 20)\n"
"  --smp N             virtual CPUs (default 2)\n"
"  --mem MB            guest memory (default 512)\n"
"  --out DIR           results directory (default ./boot-out)\n"
"  --qemu BIN          QEMU binary (default qemu-system-x86_64)\n"
"\n"
"DIR gets console.log, result.tsv (exercise, status, detail), verdict,\n"
"violations.tsv (if the guest printed violations), qmp.log, qemu.log and\n"
"cmdline (the QEMU command).\n"
"\n"
"Exit status: 0 pass, 1 fail, 2 hang, 3 invalid (the control did not show\n"
"protection on), 64 usage error, 70 host-side error.\n";

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		perror("boot: malloc");
		exit(EXIT_HOST);
	}
	return p;
}

char *xstrdup(const char *s)
{
	char *d = xmalloc(strlen(s) + 1);

	strcpy(d, s);
	return d;
}

static _Noreturn void usage_error(const char *fmt,
						   const char *arg)
{
	fprintf(stderr, "boot: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'boot --help'.\n");
	exit(EXIT_USAGE);
}

static int parse_int(const char *opt, const char *s, int min, int max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "boot: %s: '%s' is not a number in %d..%d\n",
			opt, s, min, max);
		fprintf(stderr, "Try 'boot --help'.\n");
		exit(EXIT_USAGE);
	}
	return (int)v;
}

static void add_append(struct opts *o, const char *s)
{
	size_t n = (o->append ? strlen(o->append) + 1 : 0) + strlen(s) + 1;
	char *a = xmalloc(n);

	snprintf(a, n, "%s%s%s", o->append ? o->append : "",
		 o->append ? " " : "", s);
	free(o->append);
	o->append = a;
}

static void parse_args(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "initrd", required_argument, NULL, 'i' },
		{ "exercise", required_argument, NULL, 'e' },
		{ "append", required_argument, NULL, 'a' },
		{ "timeout", required_argument, NULL, 't' },
		{ "accel", required_argument, NULL, 'A' },
		{ "probe-timeout", required_argument, NULL, 'P' },
		{ "smp", required_argument, NULL, 's' },
		{ "mem", required_argument, NULL, 'm' },
		{ "out", required_argument, NULL, 'o' },
		{ "qemu", required_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	memset(o, 0, sizeof(*o));
	o->accel = "auto";
	o->out = "boot-out";
	o->qemu = "qemu-system-x86_64";
	o->timeout = 300;
	o->probe = 20;
	o->smp = 2;
	o->mem = 512;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'i':
			o->initrd = optarg;
			break;
		case 'e':
			o->exercises = optarg;
			break;
		case 'a':
			add_append(o, optarg);
			break;
		case 't':
			o->timeout = parse_int("--timeout", optarg, 1, 86400);
			break;
		case 'P':
			o->probe = parse_int("--probe-timeout", optarg, 1, 3600);
			break;
		case 's':
			o->smp = parse_int("--smp", optarg, 1, 64);
			break;
		case 'm':
			o->mem = parse_int("--mem", optarg, 64, 65536);
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'q':
			o->qemu = optarg;
			break;
		case 'A':
			o->accel = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(0);
		case ':':
			usage_error("%s: missing argument", argv[optind - 1]);
		default:
			usage_error("%s: unknown option", argv[optind - 1]);
		}
	}
	if (strcmp(o->accel, "auto") && strcmp(o->accel, "tcg") &&
	    strcmp(o->accel, "kvm"))
		usage_error("--accel: '%s' is not auto, tcg or kvm", o->accel);
	if (o->exercises && strpbrk(o->exercises, " \t\n"))
		usage_error("--exercise: '%s' has blanks (use commas)",
			    o->exercises);
	if (optind == argc)
		usage_error("%s", "missing KERNEL");
	if (optind + 1 < argc)
		usage_error("%s: extra argument", argv[optind + 1]);
	o->kernel = argv[optind];
}

static _Noreturn void host_error(const char *fmt,
						  const char *arg)
{
	fprintf(stderr, "boot: error: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(EXIT_HOST);
}

static void check_file(const char *what, const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
	    access(path, R_OK) != 0) {
		fprintf(stderr, "boot: error: %s %s: %s\n", what, path,
			errno ? strerror(errno) : "not a regular file");
		exit(EXIT_HOST);
	}
}

/* initramfs.cpio.gz in the directory of KERNEL. */
static char *default_initrd(const char *kernel)
{
	const char *slash = strrchr(kernel, '/');
	size_t dn = slash ? (size_t)(slash - kernel + 1) : 0;
	char *p = xmalloc(dn + sizeof("initramfs.cpio.gz"));

	memcpy(p, kernel, dn);
	strcpy(p + dn, "initramfs.cpio.gz");
	return p;
}

/* "rodata=off" or "ro_after_init=warn" on the command line: no oops. */
static const char *host_expect(const char *append)
{
	char *a = xstrdup(append), *tok, *save;
	const char *e = "oops";

	for (tok = strtok_r(a, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		if (strncmp(tok, "rodata=", 7) == 0)
			e = strcmp(tok + 7, "off") == 0 ? "survive" : "oops";
		else if (strcmp(tok, "ro_after_init=warn") == 0)
			e = "survive";
	}
	free(a);
	return e;
}

struct argv_buf {
	char *v[64];
	int n;
};

static void arg(struct argv_buf *a, const char *s)
{
	if (a->n < 62)
		a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

static void build_argv(struct argv_buf *a, const struct opts *o,
		       const char *accel, const char *initrd,
		       const char *append)
{
	char buf[64];

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
}

static void free_argv(struct argv_buf *a)
{
	while (a->n)
		free(a->v[--a->n]);
}

/* The QEMU command, shell-quoted, one line. */
static void write_cmdline(const char *dir, const struct argv_buf *a)
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
static int kill_qemu(void)
{
	double end = now_s() + KILL_GRACE;
	int status = 0;

	if (qemu_pid <= 0)
		return 0;
	kill(-qemu_pid, SIGTERM);
	while (waitpid(qemu_pid, &status, WNOHANG) == 0) {
		if (now_s() > end) {
			kill(-qemu_pid, SIGKILL);
			waitpid(qemu_pid, &status, 0);
			break;
		}
		usleep(20000);
	}
	qemu_pid = 0;
	return status;
}

static void kill_qemu_atexit(void)
{
	kill_qemu();
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

static FILE *open_out(const char *dir, const char *name, const char *mode)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, mode);
	if (!f) {
		fprintf(stderr, "boot: error: %s: %s\n", path, strerror(errno));
		exit(EXIT_HOST);
	}
	return f;
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

struct run {
	struct console *con;
	struct qmp *qmp;
	int status;		/* QEMU's wait status */
	int con_fd, qmp_fd;
	int exited;
	double deadline;	/* the wall-clock timeout */
	double probe_end;	/* the end of a KVM probe, or 0 */
	double done_end;	/* "done" seen: stop QEMU then, or 0 */
};

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
	double now = now_s(), next;
	char buf[4096];
	int ms;

	qmp_tick(r->qmp, now);
	next = min_deadline(r->deadline, qmp_deadline(r->qmp));
	if (r->probe_end && !r->con->header)
		next = min_deadline(next, r->probe_end);
	next = min_deadline(next, r->done_end);
	ms = next > now ? (int)((next - now) * 1000) + 1 : 0;
	if (r->con_fd < 0 && ms > 100)
		ms = 100;	/* console closed: wait for QEMU to exit */
	if (poll(p, 3, ms) < 0 && errno != EINTR)
		host_error("poll: %s", strerror(errno));
	now = now_s();
	if (p[2].revents & POLLIN) {
		struct signalfd_siginfo si;

		if (read(sigfd, &si, sizeof(si)) == sizeof(si) &&
		    si.ssi_signo != SIGCHLD) {
			got_signal = (int)si.ssi_signo;
			return -1;
		}
	}
	if (r->con_fd >= 0 && p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
		ssize_t n = read(r->con_fd, buf, sizeof(buf));

		if (n > 0) {
			console_feed(r->con, buf, (size_t)n, now);
		} else if (n == 0 || errno != EINTR) {
			console_flush(r->con, now);
			close_fd(&r->con_fd);
		}
	}
	if (r->qmp_fd >= 0 && p[1].revents & (POLLIN | POLLHUP | POLLERR) &&
	    qmp_input(r->qmp, now) < 0)
		close_fd(&r->qmp_fd);
	if (!r->exited && waitpid(qemu_pid, &r->status, WNOHANG) == qemu_pid) {
		r->exited = 1;
		qemu_pid = 0;
	}
	if (r->con->done && !r->done_end)
		r->done_end = now + DONE_GRACE;
	return 0;
}

/*
 * One QEMU run.  probe > 0: a KVM probe, given up after probe seconds
 * without a KTAP header.
 */
static enum run_end run_qemu(const struct argv_buf *a, const struct opts *o,
			     int sigfd, struct run *r, double t0, int probe)
{
	r->exited = 0;
	r->deadline = t0 + o->timeout;
	r->probe_end = probe ? t0 + probe : 0;
	r->done_end = 0;
	spawn_qemu(a, o->out, &r->con_fd, &r->qmp_fd);
	r->qmp->fd = r->qmp_fd;
	for (;;) {
		double now;

		if (poll_once(r, sigfd) < 0) {
			stop_run(r);
			return RUN_SIGNAL;
		}
		if (r->exited && r->con_fd < 0)
			break;
		now = now_s();
		if (now >= r->deadline) {
			stop_run(r);
			return RUN_TIMEOUT;
		}
		if (r->probe_end && !r->con->header && now >= r->probe_end) {
			stop_run(r);
			return RUN_PROBE_FAILED;
		}
		if (r->done_end && now >= r->done_end) {
			fprintf(stderr, "boot: [%6.1f s] the guest is done but did not power off in %.0f s: stopping QEMU\n",
				now - t0, DONE_GRACE);
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

static int kvm_usable(void)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

static int setup_signals(void)
{
	sigset_t set;
	int fd;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	fd = signalfd(-1, &set, SFD_CLOEXEC);
	if (fd < 0)
		host_error("signalfd: %s", strerror(errno));
	return fd;
}

static void print_qemu_log(const char *dir)
{
	char line[1024];
	FILE *f = open_out(dir, "qemu.log", "r");

	while (fgets(line, sizeof(line), f))
		fprintf(stderr, "boot: qemu: %s", line);
	fclose(f);
}

static void reset_outputs(const char *dir)
{
	static const char *const names[] = {
		"verdict", "result.tsv", "violations.tsv", "qemu.log",
	};
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
}

int main(int argc, char **argv)
{
	struct opts o;
	struct argv_buf a = { .n = 0 };
	struct console con;
	struct qmp qmp;
	struct run r = { .con = &con, .qmp = &qmp };
	const char *accel, *initrd;
	char *append;
	enum run_end end;
	enum verdict v;
	FILE *log, *qlog;
	double t0;
	size_t n;
	int sigfd;

	parse_args(&o, argc, argv);
	initrd = o.initrd ? o.initrd : default_initrd(o.kernel);
	check_file("kernel", o.kernel);
	check_file("initrd", initrd);
	if (mkdir(o.out, 0777) != 0 && errno != EEXIST)
		host_error("cannot create --out directory: %s", strerror(errno));
	reset_outputs(o.out);

	n = strlen(BASE_APPEND) + (o.append ? strlen(o.append) : 0) +
	    (o.exercises ? strlen(o.exercises) : 0) + 64;
	append = xmalloc(n);
	snprintf(append, n, "%s%s%s%s%s", BASE_APPEND,
		 o.exercises ? " rocampaign.exercises=" : "",
		 o.exercises ? o.exercises : "", o.append ? " " : "",
		 o.append ? o.append : "");

	sigfd = setup_signals();
	atexit(kill_qemu_atexit);
	accel = o.accel;
	if (strcmp(accel, "auto") == 0)
		accel = kvm_usable() ? "kvm-probe" : "tcg";

	log = open_out(o.out, "console.log", "w");
	qlog = open_out(o.out, "qmp.log", "w");
	for (;;) {
		int kvm = strncmp(accel, "kvm", 3) == 0;
		int probe = strcmp(accel, "kvm-probe") == 0;

		t0 = now_s();
		console_init(&con, log, t0, o.exercises);
		qmp_init(&qmp, -1, qlog, t0);
		build_argv(&a, &o, kvm ? "kvm" : "tcg", initrd, append);
		write_cmdline(o.out, &a);
		fprintf(stderr, "boot: %s, %s, timeout %d s, out %s\n",
			o.kernel, probe ? "KVM probe" : kvm ? "KVM" : "TCG",
			o.timeout, o.out);
		qmp.fd = -1;
		end = run_qemu(&a, &o, sigfd, &r, t0,
			       probe ? (o.probe < o.timeout ? o.probe :
					o.timeout) : 0);
		free_argv(&a);
		if (end != RUN_PROBE_FAILED)
			break;
		fprintf(stderr,
			"boot: KVM probe: no KTAP header after %.1f s, falling back to TCG\n",
			now_s() - t0);
		console_reset(&con, NULL, t0, o.exercises);
		if (ftruncate(fileno(log), 0) || fseek(log, 0, SEEK_SET) ||
		    fprintf(qlog, "# KVM probe failed, TCG run follows\n") < 0)
			host_error("%s", "cannot reset console.log");
		accel = "tcg";
	}
	fclose(log);
	if (end == RUN_SIGNAL) {
		fprintf(stderr, "boot: %s: QEMU killed, no verdict\n",
			strsignal(got_signal));
		return 128 + got_signal;
	}
	if (end == RUN_HOST_ERROR && !con.header) {
		print_qemu_log(o.out);
		fprintf(stderr, "boot: error: QEMU failed (%s %d) before the guest printed KTAP\n",
			WIFEXITED(r.status) ? "exit status" : "signal",
			WIFEXITED(r.status) ? WEXITSTATUS(r.status) :
			WTERMSIG(r.status));
		return EXIT_HOST;
	}
	if (end == RUN_HOST_ERROR)
		fprintf(stderr, "boot: warning: QEMU exit status %d\n",
			WEXITSTATUS(r.status));
	v = console_finish(&con, end == RUN_TIMEOUT, o.timeout,
			   host_expect(append), qmp.shutdown);
	if (console_write(&con, o.out, v))
		return EXIT_HOST;
	fprintf(qlog, "# suspends %d, system_wakeup %d, WAKEUP events %d\n",
		qmp.suspends, qmp.wakeups, qmp.wake_events);
	fclose(qlog);
	fprintf(stderr, "boot: verdict %s after %.1f s (%s; %d suspend, %d wakeup)\n",
		verdict_name(v), now_s() - t0,
		strcmp(accel, "tcg") ? "KVM" : "TCG", qmp.suspends, qmp.wakeups);
	return (int)v;
}
