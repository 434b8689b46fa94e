// SPDX-License-Identifier: GPL-2.0
/*
 * boot - boot a kernel under QEMU, run the guest exercise suite, judge it.
 *
 * Parses the options, checks the inputs, runs QEMU through qemu.c (with a
 * KVM probe and a TCG fallback), then has console.c judge the console and
 * write the results.  See README.md for the protocol and the rules.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "boot.h"

#define BASE_APPEND	"console=ttyS0 panic=-1 maxcpus=1"


static const char usage_text[] =
"usage: boot KERNEL [--initrd FILE] [--exercise NAMES] [--append ARGS]\n"
"            [--timeout S] [--accel auto|tcg|kvm] [--smp N] [--mem MB]\n"
"            [--out DIR] [--qemu BIN] [--probe-timeout S]\n"
"            [--devices ARGS] [--cpu MODEL]\n"
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
"  --devices ARGS      emulated devices to add (repeatable): QEMU options in\n"
"                      pairs, blank-separated, each one of -device,\n"
"                      -audiodev, -chardev, -blockdev or -object with its\n"
"                      value (validate/devices.c writes them from\n"
"                      qemu-boot/devices.tsv)\n"
"  --cpu MODEL         the guest CPU under TCG (default QEMU's, qemu64),\n"
"                      e.g. qemu64,+svm; KVM always uses the host CPU\n"
"\n"
"DIR gets console.log, result.tsv (exercise, status, detail), verdict,\n"
"violations.tsv (if the guest printed violations), modules.tsv (if it\n"
"printed its modules table: module, init, exit, detail), bound.tsv (if it\n"
"printed its bound-devices table: module, bus, driver, device, probe,\n"
"rebind, suspend, unload, detail), qmp.log, qemu.log and cmdline (the\n"
"QEMU command).\n"
"\n"
"Exit status: 0 pass, 1 fail, 2 hang, 3 invalid (the control did not show\n"
"protection on), 64 usage error, 65 the kernel is not a bzImage, 70\n"
"host-side error.\n";

static _Noreturn void usage_error(const char *fmt,
						   const char *arg)
{
	fprintf(stderr, "boot: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'boot --help'.\n");
	exit(EXIT_USAGE);
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

/*
 * --devices ARGS: QEMU options in pairs, "-device e1000,addr=0x3 ...".
 * Only options that add a device or a backend for one: nothing that could
 * change the machine, the console or the monitor the launcher relies on.
 */
static void add_devices(struct opts *o, const char *s)
{
	static const char *const ok[] = {
		"-device", "-audiodev", "-chardev", "-blockdev", "-object",
	};
	char *copy = xstrdup(s), *save, *opt, *val;
	size_t i;

	for (opt = strtok_r(copy, " \t\n", &save); opt;
	     opt = strtok_r(NULL, " \t\n", &save)) {
		for (i = 0; i < ARRAY_SIZE(ok); i++)
			if (strcmp(opt, ok[i]) == 0)
				break;
		if (i == ARRAY_SIZE(ok))
			usage_error("--devices: '%s' is not one of -device, -audiodev, -chardev, -blockdev, -object",
				    opt);
		val = strtok_r(NULL, " \t\n", &save);
		if (!val || val[0] == '-')
			usage_error("--devices: %s without a value", opt);
		if (o->ndev_args + 2 > ARGV_MAX / 2)
			usage_error("--devices: more than %s arguments", "128");
		o->dev_args = xrealloc(o->dev_args,
				       (o->ndev_args + 2) * sizeof(char *));
		o->dev_args[o->ndev_args++] = xstrdup(opt);
		o->dev_args[o->ndev_args++] = xstrdup(val);
	}
	free(copy);
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
		{ "devices", required_argument, NULL, 'd' },
		{ "cpu", required_argument, NULL, 'c' },
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
			o->timeout = (int)opt_long("--timeout", optarg, 1, 86400);
			break;
		case 'P':
			o->probe = (int)opt_long("--probe-timeout", optarg, 1, 3600);
			break;
		case 's':
			o->smp = (int)opt_long("--smp", optarg, 1, 64);
			break;
		case 'm':
			o->mem = (int)opt_long("--mem", optarg, 64, 65536);
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
		case 'd':
			add_devices(o, optarg);
			break;
		case 'c':
			if (!*optarg || strpbrk(optarg, " \t\n") || optarg[0] == '-')
				usage_error("--cpu: '%s' is not a CPU model", optarg);
			o->cpu = optarg;
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

_Noreturn void host_error(const char *fmt,
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

/*
 * An x86 bzImage has the boot protocol's "HdrS" at offset 0x202
 * (Documentation/arch/x86/boot.rst); anything else is not a kernel QEMU
 * can boot, so it is refused before QEMU starts.
 */
static void check_bzimage(const char *path)
{
	char magic[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0) {
		fprintf(stderr, "boot: error: kernel %s: %s\n", path,
			strerror(errno));
		exit(EXIT_HOST);
	}
	n = pread(fd, magic, sizeof(magic), 0x202);
	close(fd);
	if (n != (ssize_t)sizeof(magic) || memcmp(magic, "HdrS", 4)) {
		fprintf(stderr,
			"boot: error: kernel %s: not an x86 bzImage (no \"HdrS\" boot header at offset 0x202; build it with make kernel)\n",
			path);
		exit(RC_DATA);
	}
}

/* mkdir -p: a caller's per-boot directory may be the first of its tree. */
static int make_dirs(const char *path)
{
	char *p = xstrdup(path), *s;
	int r = 0;

	for (s = p + 1; *s && !r; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST)
			r = -1;
		*s = '/';
	}
	if (!r && mkdir(p, 0777) != 0 && errno != EEXIST)
		r = -1;
	free(p);
	return r;
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


static void kill_qemu_atexit(void)
{
	kill_qemu();
}
FILE *open_out(const char *dir, const char *name, const char *mode)
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
		"verdict", "result.tsv", "violations.tsv", "modules.tsv",
		"qemu.log", "bound.tsv",
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

	prog_name = "boot";

	parse_args(&o, argc, argv);
	initrd = o.initrd ? o.initrd : default_initrd(o.kernel);
	check_file("kernel", o.kernel);
	check_bzimage(o.kernel);
	check_file("initrd", initrd);
	if (make_dirs(o.out) != 0)
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

		t0 = now();
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
			"boot: KVM probe: no KTAP header after %.1f s (%zu console bytes), falling back to TCG\n",
			now() - t0, con.bytes);
		console_reset(&con, NULL, t0, o.exercises);
		if (ftruncate(fileno(log), 0) || fseek(log, 0, SEEK_SET) ||
		    fprintf(qlog, "# KVM probe failed, TCG run follows\n") < 0)
			host_error("%s", "cannot reset console.log");
		accel = "tcg";
	}
	fclose(log);
	if (end == RUN_SIGNAL) {
		fprintf(stderr, "boot: %s: QEMU killed, no verdict\n",
			strsignal(r.signo));
		return 128 + r.signo;
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
		verdict_name(v), now() - t0,
		strcmp(accel, "tcg") ? "KVM" : "TCG", qmp.suspends, qmp.wakeups);
	return (int)v;
}
