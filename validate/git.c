// SPDX-License-Identifier: GPL-2.0
/*
 * git.c - git in the work tree, the locks, and the reset of the tree
 * before every build.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "validate.h"

/* git -C TREE A1 [A2 [A3 [A4]]], its stdout to OUT (NULL: the log). */
int git(struct ctx *x, const char *out, const char *a1, const char *a2,
	const char *a3, const char *a4)
{
	char *argv[8];

	argv[0] = "git";
	argv[1] = "-C";
	argv[2] = (char *)x->tree;
	argv[3] = (char *)a1;
	argv[4] = (char *)a2;
	argv[5] = (char *)a3;
	argv[6] = (char *)a4;
	argv[7] = NULL;

	return run_tool(argv, out, x->log);
}

int lock_file(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		die(RC_HOST, "%s: %s", path, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB))
		die(RC_HOST, "%s: another validate holds this lock", path);
	return fd;
}

/* An orphaned build of a killed run must finish before the tree moves. */
static void wait_builds(struct ctx *x)
{
	char *p = xasprintf("%s/build.lock", x->work);
	int fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		die(RC_HOST, "%s: %s", p, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		warnx("waiting for a kernel build to finish (%s)", p);
		while (flock(fd, LOCK_EX) && errno == EINTR)
			check_intr();
	}
	close(fd);
	free(p);
}

/*
 * The commit of REV in the tree, full hex; NULL if there is none (git
 * rev-parse --verify -q says so with status 1 and no message).  Any
 * other failure is the host's (a full disk, a broken repository, no
 * git): it stops the run with git's own message, exit 70.
 */
static char *rev_parse(struct ctx *x, const char *rev)
{
	char *out = spath(x, "rev.out"), *err = spath(x, "rev.err");
	char *ref = xasprintf("%s^{commit}", rev), *r = NULL, *msg;
	char *argv[8];
	int rc;

	argv[0] = "git";
	argv[1] = "-C";
	argv[2] = (char *)x->tree;
	argv[3] = "rev-parse";
	argv[4] = "--verify";
	argv[5] = "-q";
	argv[6] = ref;
	argv[7] = NULL;
	if (unlink(err) && errno != ENOENT)
		die(RC_HOST, "%s: %s", err, strerror(errno));
	rc = run_tool(argv, out, err);
	if (rc == 0)
		r = last_line(out);
	if (rc == 0 && r)
		goto done;
	msg = last_line(err);
	if (rc == 1 && !msg)
		goto done;	/* no such commit */
	die(RC_HOST, "%s: git rev-parse %s %s: %s", x->tree, ref,
	    rc < 0 ? "could not run" : rc ? "failed" : "printed no commit",
	    msg ? msg : "(no message; see the disk and the repository)");
done:
	free(ref);
	free(err);
	free(out);
	return r;
}

/* x->commit (--base, a name) becomes the commit it names. */
void resolve_commit(struct ctx *x)
{
	char *c = rev_parse(x, x->commit);

	if (!c)
		die(RC_USAGE, "%s: no commit '%s' in %s", x->tree, x->commit,
		    x->tree);
	free(x->commit);
	x->commit = c;
}

int head_is_commit(struct ctx *x)
{
	char *h = rev_parse(x, "HEAD");
	int r = h && !strcmp(h, x->commit);

	free(h);
	return r;
}

/*
 * Back to x->commit with nothing else in the tree (git checkout, clean),
 * then --extra-patch.  Changes that validate did not make stop the run
 * (tree.c), except the ones --force allowed at the start.
 */
void reset_tree(struct ctx *x)
{
	wait_builds(x);
	x->built_valid = 0;
	tree_guard(x, x->force);
	x->force = 0;
	if (git(x, NULL, "checkout", "-q", "--", ".") ||
	    git(x, NULL, "clean", "-fdq", NULL, NULL) ||
	    git(x, NULL, "checkout", "-q", "--detach", x->commit))
		die(RC_HOST, "%s: cannot reset the work tree to %s (see %s)",
		    x->tree, x->commit, x->log);
	tree_clean(x);
	if (x->extra_patch && tree_apply(x, x->extra_patch))
		die(RC_HOST, "%s: does not apply to %s (see %s)",
		    x->extra_patch, x->commit, x->log);
	check_intr();
}
