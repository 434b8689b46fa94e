// SPDX-License-Identifier: GPL-2.0
/*
 * journal.c - the append-only verdict journal.
 *
 * TSV, one header line, then one row per decided conversion:
 *   time variable file line batch verdict evidence config_hash core_hash
 * Each row goes out in one write(2) followed by fsync(2), so a kill -9 or
 * a power cut loses at most the row being written.  A torn last row (no
 * newline) is cut off when the journal is opened again.  A conversion is
 * decided when a row has its file, line and name and the current config
 * and core hashes; a rerun skips it.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "validate.h"

static const char header[] =
	"time\tvariable\tfile\tline\tbatch\tverdict\tevidence\tconfig_hash\tcore_hash\n";

static const char *const names[] = {
	[V_UNDECIDED] = "undecided",
	[V_ACCEPTED] = "accepted",
	[V_REJECTED] = "rejected",
	[V_NOTBUILT] = "not-built",
	[V_SKIPPED] = "skipped",
};

const char *verdict_name(enum verdict v)
{
	return names[v];
}

static enum verdict parse_verdict(const char *s)
{
	int v;

	for (v = V_ACCEPTED; v <= V_NOTBUILT; v++)
		if (!strcmp(s, names[v]))
			return v;
	return V_UNDECIDED;
}

static void fsync_dir(const char *path)
{
	char *copy = xstrdup(path);
	int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(copy);
}

static void write_all(struct journal *j, const char *s, size_t n)
{
	ssize_t r;

	while (n) {
		r = write(j->fd, s, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			die(EXIT_HOST, "%s: write: %s", j->path, strerror(errno));
		s += r;
		n -= r;
	}
	if (fsync(j->fd))
		die(EXIT_HOST, "%s: fsync: %s", j->path, strerror(errno));
}

static void mark(struct cands *c, char **f)
{
	long line = strtol(f[3], NULL, 10);
	int i;

	for (i = 0; i < c->n; i++) {
		struct cand *cd = &c->v[i];

		if (cd->line != line || strcmp(cd->name, f[1]) ||
		    strcmp(cd->file, f[2]))
			continue;
		cd->verdict = parse_verdict(f[5]);
		free(cd->evidence);
		cd->evidence = xstrdup(f[6]);
	}
}

/*
 * Open (create) the journal and mark the candidates it has decided for
 * these hashes.  Returns the number of candidates already decided.
 */
int journal_open(struct journal *j, const char *path, const char *config_hash,
		 const char *core_hash, struct cands *c)
{
	size_t len, keep;
	char *buf, *line, *next, *f[10];
	int lineno = 1, n, i, done = 0;

	j->path = path;
	j->config_hash = config_hash;
	j->core_hash = core_hash;
	j->fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (j->fd < 0)
		die(EXIT_HOST, "%s: %s", path, strerror(errno));
	buf = read_file(path, &len);
	if (!buf)
		die(EXIT_HOST, "%s: %s", path, strerror(errno));
	/* Cut a torn last row: it was never a verdict. */
	keep = len;
	while (keep && buf[keep - 1] != '\n')
		keep--;
	if (keep != len) {
		warnx("%s: dropping a torn last row (%zu bytes)", path,
		      len - keep);
		if (ftruncate(j->fd, keep))
			die(EXIT_HOST, "%s: ftruncate: %s", path,
			    strerror(errno));
		buf[keep] = '\0';
	}
	if (!keep) {
		write_all(j, header, strlen(header));
		fsync_dir(path);
		free(buf);
		return 0;
	}
	if (strncmp(buf, header, strlen(header)))
		die(EXIT_DATA, "%s:1: not a validate journal (header differs)",
		    path);
	for (line = buf + strlen(header); *line; line = next) {
		lineno++;
		next = strchr(line, '\n');
		*next++ = '\0';
		n = split_tabs(line, f, 10);
		if (n != 9)
			die(EXIT_DATA, "%s:%d: %d fields, expected 9", path,
			    lineno, n);
		if (!strcmp(f[7], config_hash) && !strcmp(f[8], core_hash))
			mark(c, f);
	}
	free(buf);
	for (i = 0; i < c->n; i++)
		done += c->v[i].verdict != V_UNDECIDED;
	return done;
}

void journal_record(struct journal *j, struct cand *cd, const char *batch,
		    enum verdict v, const char *evidence)
{
	char stamp[32], *ev, *row;
	time_t t = time(NULL);

	if (cd->verdict != V_UNDECIDED)
		die(EXIT_HOST, "internal: %s:%d %s decided twice", cd->file,
		    cd->line, cd->name);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	ev = one_line(evidence, 900);
	row = xasprintf("%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\n", stamp,
			cd->name, cd->file, cd->line, batch, verdict_name(v),
			ev, j->config_hash, j->core_hash);
	write_all(j, row, strlen(row));
	free(row);
	cd->verdict = v;
	cd->evidence = ev;
}
