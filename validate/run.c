// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - run the shell tools (build, annotate, boot, git) as children.
 *
 * A child's stdout goes to a file of our choosing, its stderr is appended
 * to the run log.  SIGINT/SIGTERM set a flag and are passed on to the
 * running child; the caller then stops without recording anything.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "validate.h"

int interrupted;		/* re-read after every call, set by on_signal() */
static pid_t child;

static void on_signal(int sig)
{
	interrupted = sig;
	if (child > 0)
		kill(child, sig);
}

void run_init_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static void redirect(const char *path, int fd, int flags)
{
	int f = open(path, flags, 0644);

	if (f < 0) {
		fprintf(stderr, "validate: %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	dup2(f, fd);
	close(f);
}

/*
 * Run argv[0] (looked up in PATH).  out_path: the child's stdout, or NULL
 * for the log.  Returns the exit status, 128 + N when killed by signal N,
 * -1 when it could not be started.
 */
int run_tool(char *const argv[], const char *out_path, const char *log_path)
{
	int status;
	pid_t pid, r;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		warnx("fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		redirect("/dev/null", 0, O_RDONLY);
		redirect(log_path, 2, O_WRONLY | O_CREAT | O_APPEND);
		if (out_path)
			redirect(out_path, 1, O_WRONLY | O_CREAT | O_TRUNC);
		else
			dup2(2, 1);
		execvp(argv[0], argv);
		fprintf(stderr, "validate: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	child = pid;
	if (interrupted)
		kill(pid, interrupted);
	do
		r = waitpid(pid, &status, 0);
	while (r < 0 && errno == EINTR);
	child = 0;
	if (r < 0)
		return -1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	if (WEXITSTATUS(status) == 127)
		return -1;
	return WEXITSTATUS(status);
}
