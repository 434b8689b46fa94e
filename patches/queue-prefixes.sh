#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# queue-prefixes.sh - the subject prefix each file's own history uses, as
# Kees Cook's split-on-maintainer takes it: the most common prefix among
# the last 20 non-merge commits at REV that touched the file (ties: the
# most recent).  A subject's prefix is its leading "WORD: " parts, each
# without spaces (the first may have two words: "driver core: "), with
# some text left after them; reverts, merges and subjects without a
# prefix are skipped.  A file without such commits is left out, and
# patches/queue falls back to its table (queue-prefix.c).
#
# Usage: queue-prefixes.sh TREE REV <FILES
#   FILES: tree paths, one a line.  Output: TSV with the header
#   "file prefix commits" (commits: how many of the 20 had that prefix).
# Exit: 0 done, 64 usage, 70 git failed.

set -eu

case ${1-} in -h | --help) sed -n '3,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
[ $# -eq 2 ] || { sed -n '3,16p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 64; }
tree=$1
rev=$2
git -C "$tree" rev-parse -q --verify "$rev^{commit}" >/dev/null || {
	echo "queue-prefixes: $tree: no commit '$rev'" >&2
	exit 70
}
printf 'file\tprefix\tcommits\n'
while IFS= read -r f; do
	[ -n "$f" ] || continue
	subjects=$(git -C "$tree" log -n 20 --no-merges --format=%s "$rev" -- "$f") || {
		echo "queue-prefixes: $tree: git log $rev -- $f failed" >&2
		exit 70
	}
	printf '%s\n' "$subjects" | awk -v f="$f" '
	function prefix(s,    n, parts, i, p, seg) {
		if (s ~ /^(Revert|Merge|Reapply) /)
			return ""
		n = split(s, parts, ": ")
		p = ""
		for (i = 1; i < n; i++) {
			seg = parts[i]
			if (seg !~ /^[A-Za-z0-9_.,\/+-]+$/ &&
			    !(i == 1 && seg ~ /^[A-Za-z0-9_.\/+-]+ [A-Za-z0-9_.\/+-]+$/))
				break
			p = p (p == "" ? "" : ": ") seg
		}
		if (i == 1 || length(p) > 40)
			return ""
		return p
	}
	{
		p = prefix($0)
		if (p == "")
			next
		if (!(p in count))
			order[++n] = p
		count[p]++
	}
	END {
		best = ""
		for (i = 1; i <= n; i++)
			if (best == "" || count[order[i]] > count[best])
				best = order[i]
		if (best != "")
			print f "\t" best "\t" count[best]
	}'
done
