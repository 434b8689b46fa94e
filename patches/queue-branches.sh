#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# queue-branches.sh - one git branch per posting of a queue, for b4 or
# git send-email: ro-queue/DIR in TREE, the campaign's own tree (the one
# make setup prepared), never in the user's checkout it was cloned from.
#
# Each branch is the posting's patches applied with git am onto tag
# pristine (onto the area's previous posting if they do not apply alone),
# in a worktree WORK/qtree-branches, with the queue's dates, so the same
# queue gives the same commits.  A branch of the same name is replaced;
# one checked out in a worktree is refused (exit 65).
#
# Then, for b4 (Debian 12's 0.12 enrolls it offline):
#   git -C TREE worktree add ../send ro-queue/DIR && cd ../send
#   b4 prep -e pristine        # enroll the branch, pristine its fork base
#   b4 prep --edit-cover       # paste DIR/0000-cover-letter.patch's text
#   b4 send --dry-run
# or with git send-email, the posting as it is, To:/Cc: from its headers:
#   git send-email --dry-run QUEUE_DIR/DIR/*.patch
#
# Usage: queue-branches.sh QUEUE_DIR TREE WORK
# Exit: 0 done, 64 usage, 65 bad input (not a queue, not the campaign's
#   tree, a branch checked out), 1 a posting does not apply, 70 git failed.

set -eu

usage() {
	sed -n '3,24p' "$0" | sed 's/^# \{0,1\}//'
}

case ${1-} in -h | --help) usage; exit 0 ;; esac
[ $# -eq 3 ] || { usage >&2; exit 64; }
trap 'exit 130' INT TERM
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
prog_name=queue-branches
. "$root/lib/args.sh"
. "$root/lib/tsv.sh"
queue=$1
tree=$2
work=$3

[ -f "$queue/.ro-campaign-queue" ] && [ -f "$queue/.plan/areas.tsv" ] ||
	die 65 "$queue: not a queue made by make queue (no .ro-campaign-queue, .plan/areas.tsv)"
[ -d "$tree" ] || die 65 "$tree: no such tree"
queue=$(cd "$queue" && pwd)
tree=$(cd "$tree" && pwd)
mkdir -p "$work"
work=$(cd "$work" && pwd)
gdir=$(git -C "$tree" rev-parse --path-format=absolute --git-common-dir 2>/dev/null) ||
	die 65 "$tree: not a git tree"
origin=$gdir/ro-campaign-origin
[ -f "$origin" ] ||
	die 65 "$tree: not a tree make setup prepared (no .git/ro-campaign-origin): queue-branches writes only into the campaign's own tree"
src=$(tsv_awk "$origin" 'NR > 1 && $c_key == "source" { print $c_value }')
if [ -d "$src" ] && [ "$(cd "$src" && pwd)" = "$tree" ]; then
	die 65 "$tree is the user's checkout ($origin names it as the source): refusing to write branches into it"
fi
git -C "$tree" rev-parse -q --verify refs/tags/pristine >/dev/null ||
	die 65 "$tree: no tag pristine (run make setup)"

name=$(git -C "$tree" config user.name || true)
email=$(git -C "$tree" config user.email || true)
[ -n "$name" ] && [ -n "$email" ] ||
	die 70 "git config user.name and user.email must be set"
date=$(cat "$queue/.plan/date")
g() {
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null \
	GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email \
	GIT_COMMITTER_DATE=$date git -c commit.gpgsign=false "$@"
}

wt=$work/qtree-branches
exec 9>"$work/queue.lock"
flock 9
if [ -d "$wt" ] &&
   [ "$(git -C "$wt" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)" != "$gdir" ]; then
	die 65 "$wt is a worktree of another tree than $tree: remove it (git worktree remove) and run again"
fi
if [ -d "$wt" ]; then
	git -C "$wt" am --abort >/dev/null 2>&1 || true
	git -C "$wt" checkout -q -f --detach pristine ||
		die 70 "$wt: cannot check out pristine (remove it; it is recreated)"
	git -C "$wt" clean -q -fdx
else
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q --detach "$wt" pristine ||
		die 70 "cannot add worktree $wt"
fi

# apply BASE DIR: the posting's patches onto BASE in the worktree.
apply() {
	git -C "$wt" checkout -q -f --detach "$1" || return 1
	set --
	while read -r p; do
		set -- "$@" "$queue/$dir/$p"
	done <"$queue/$dir/series"
	if ! g -C "$wt" am -q "$@" >/dev/null 2>&1; then
		git -C "$wt" am --abort >/dev/null 2>&1 || true
		return 1
	fi
}

n=0
prev=
prev_area=
while IFS='	' read -r dir area _pfx np _nv _part _parts <&3; do
	br=ro-queue/$dir
	git check-ref-format "refs/heads/$br" ||
		die 65 "$queue/.plan/areas.tsv: '$dir' does not make a branch name"
	if git -C "$tree" worktree list --porcelain | grep -qxF "branch refs/heads/$br"; then
		die 65 "$br is checked out in a worktree of $tree; leave it (git checkout --detach) and run again"
	fi
	base=pristine
	if ! apply pristine; then
		if [ -n "$prev" ] && [ "$prev_area" = "$area" ] && apply "$prev"; then
			base=$prev
		else
			die 1 "$dir: its patches do not apply onto pristine"
		fi
	fi
	git -C "$tree" branch -f "$br" "$(git -C "$wt" rev-parse HEAD)" >/dev/null ||
		die 70 "$br: git branch failed"
	echo "queue-branches: $br: $np patches on $base"
	prev=$br
	prev_area=$area
	n=$((n + 1))
done 3<"$queue/.plan/areas.tsv"
git -C "$wt" checkout -q -f --detach pristine
echo "queue-branches: $n branches in $tree (ro-queue/*); enroll one with b4: git checkout ro-queue/DIR && b4 prep -e pristine"
