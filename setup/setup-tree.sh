#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# setup-tree.sh - prepare the campaign's kernel tree.
#
# From a tarball (Debian's linux-source-6.12 or -6.1): unpacks it into
# TREE and makes it a git repository whose first commit is the pristine
# tree (tag "pristine").  From the user's own git checkout (--from-git
# SRC): TREE becomes a clone of SRC that borrows its objects (git clone
# --shared), on a detached HEAD at SRC's commit, tagged "pristine".  SRC
# itself is only read: its branches, index, work tree and refs stay as they
# are, and its uncommitted changes are not part of the campaign (a warning
# names them).  Either way the core series goes on top with "git am"
# (tag "core").
#
# SERIES is a directory with a "series" file, or a directory of such
# directories named by kernel version (setup/core/6.1, setup/core/6.12):
# the one for the tree's "make kernelversion", else the newest, and a
# patch that does not apply is named with how to port it.
# Running it again on a prepared tree only checks it and changes nothing.
# When the core series or SRC's commit changed, it re-applies onto the
# new pristine; a tree with uncommitted changes is then refused, naming
# them, unless --force (which discards them) is given.
# TREE/.git/ro-campaign-origin (FORMATS.md) records where the tree came
# from: the queue's base line is made from it.
#
# Usage: setup-tree.sh [--force] [--from-git SRC] TARBALL TREE SERIES
# Exit (README.md, "Exit codes"): 0 ready, 64 usage, 65 bad input (a
# tarball, a tree, a source checkout or a series, named on stderr), 70 a
# tool failed.

set -eu

prog_name=setup-tree
. "$(dirname "$0")/../lib/args.sh"
. "$(dirname "$0")/../lib/ktree.sh"

force=0
src=
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) help_text "$0"; exit 0 ;;
	--force) force=1; shift ;;
	--from-git)
		[ $# -ge 2 ] || die 64 "--from-git wants a directory"
		src=$2
		shift 2
		;;
	*) break ;;
	esac
done

[ $# -eq 3 ] || { echo "usage: setup-tree.sh [--force] [--from-git SRC] TARBALL TREE SERIES" >&2; exit 64; }
tarball=$1
tree=$2
series_root=$3

# A path that starts with - is not an option to the tools below.
case $tarball in -*) tarball=./$tarball ;; esac
case $tree in -*) tree=./$tree ;; esac
case $series_root in -*) series_root=./$series_root ;; esac
case $src in -*) src=./$src ;; esac

[ -d "$series_root" ] || die 65 "$series_root: no such directory (the core patch series)"

# Every patch a series lists is there, before anything is unpacked or
# reset: the series for the tree is known only after that.
for s in "$series_root/series" "$series_root"/*/series; do
	[ -f "$s" ] || continue
	grep -v '^#' "$s" | while read -r p; do
		[ -z "$p" ] || [ -f "${s%/series}/$p" ] ||
			die 65 "${s%/series}/$p: listed in $s but missing"
	done || exit $?
done

# pick_series VERSION: set series_dir for a kernel version ("6.12.118")
# as lib/ktree.sh's ktree_series picks it.
pick_series() {
	_rc=0
	series_dir=$(ktree_series "$series_root" "$1") || _rc=$?
	case $_rc in
	1) die 65 "$series_root: no VERSION/series in it" ;;
	2) echo "setup-tree: no core series for Linux ${1:-of unknown version}; trying the newest, $(basename "$series_dir")" ;;
	esac
}

# core_hash_of: the hash of the chosen series decides whether a prepared
# tree is current.
core_hash_of() {
	(cat "$series_dir/series"; grep -v '^#' "$series_dir/series" | while read -r p; do
		[ -n "$p" ] && cat "$series_dir/$p"; done) | sha1sum | cut -c1-12
}

tree_version() {
	make -s -C "$tree" kernelversion 2>/dev/null | tail -n 1
}

is_kernel_tree() {
	[ -f "$1/Makefile" ] && [ -f "$1/Kconfig" ] &&
		[ -f "$1/include/linux/cache.h" ] && [ -d "$1/arch/x86" ]
}

# Refuse to reset a tree with changes this script did not make: the
# user's edits, untracked files (ignored build products are left alone
# by the reset and clean below, which skip -x).
refuse_dirty() {
	changed=$(git --no-optional-locks -C "$tree" status --porcelain --untracked-files=normal 2>/dev/null | head -n 20)
	[ -n "$changed" ] || return 0
	if [ $force -eq 1 ]; then
		echo "setup-tree: --force: discarding uncommitted changes in $tree"
		return 0
	fi
	echo "setup-tree: error: $tree has uncommitted changes; re-applying the core series would discard them:" >&2
	echo "$changed" | sed 's/^/  /' >&2
	echo "setup-tree: commit or move them away, or rerun with --force (make setup SETUP_FORCE=1) to discard them" >&2
	exit 65
}

KERNEL_HINT=${KERNEL:-6.12}

gitc() {
	git -C "$tree" -c user.name=ro-campaign \
		-c user.email=ro-campaign@localhost -c commit.gpgsign=false "$@"
}

# ---- the user's checkout: read, never written --------------------------------

src_commit=
if [ -n "$src" ]; then
	[ -d "$src" ] || die 65 "$src: no such directory (the kernel git checkout to use)"
	src_top=$(git -C "$src" rev-parse --show-toplevel 2>/dev/null) ||
		die 65 "$src: not a git checkout with a work tree"
	is_kernel_tree "$src_top" || die 65 "$src_top: not a Linux kernel tree"
	src_commit=$(git -C "$src_top" rev-parse -q --verify 'HEAD^{commit}') ||
		die 65 "$src_top: no commit yet"
	src_dirty=$(git --no-optional-locks -C "$src_top" status --porcelain --untracked-files=normal 2>/dev/null | head -n 5)
	if [ -n "$src_dirty" ]; then
		echo "setup-tree: warning: $src_top has uncommitted changes; they stay as they are and are not part of the campaign, which runs on commit $(echo "$src_commit" | cut -c1-12):" >&2
		echo "$src_dirty" | sed 's/^/  /' >&2
	fi
fi

# write_origin KIND SOURCE: TREE/.git/ro-campaign-origin (FORMATS.md)
write_origin() {
	printf 'key\tvalue\nkind\t%s\nversion\t%s\nsource\t%s\ncommit\t%s\n' \
		"$1" "$(tree_version)" "$2" "$(git -C "$tree" rev-parse pristine)" \
		>"$tree/.git/ro-campaign-origin.tmp" &&
		mv "$tree/.git/ro-campaign-origin.tmp" "$tree/.git/ro-campaign-origin" ||
		die 70 "cannot write $tree/.git/ro-campaign-origin"
}

# from_src: fetch SRC's commit into TREE and make it the new pristine.
from_src() {
	gitc fetch -q --no-tags "$src_top" HEAD ||
		die 70 "cannot fetch $src_commit from $src_top"
	gitc checkout -q --detach "$src_commit" ||
		die 70 "cannot check out $src_commit in $tree"
	gitc tag -f pristine >/dev/null
}

recorded_source() {
	awk -F '\t' '$1 == "commit" { print $2 }' "$tree/.git/ro-campaign-origin" 2>/dev/null
}

if [ -d "$tree/.git" ] && [ -f "$tree/.git/ro-campaign-core" ]; then
	is_kernel_tree "$tree" || die 65 "$tree: a git repository but not a kernel tree"
	moved=0
	if [ -n "$src" ] && [ "$(recorded_source)" != "$src_commit" ]; then
		moved=1
	fi
	pick_series "$(tree_version)"
	core_hash=$(core_hash_of)
	if [ $moved -eq 0 ] && [ "$(cat "$tree/.git/ro-campaign-core")" = "$core_hash" ]; then
		echo "setup-tree: $tree is ready: Linux $(tree_version), core series $(basename "$series_dir") ($core_hash)"
		exit 0
	fi
	if [ $moved -eq 1 ]; then
		echo "setup-tree: $src_top moved to $(echo "$src_commit" | cut -c1-12); re-applying the core series onto it"
	else
		echo "setup-tree: core series changed, re-applying onto pristine"
	fi
	refuse_dirty
	gitc reset -q --hard
	gitc clean -q -fd
	gitc checkout -q --detach pristine
	[ $moved -eq 0 ] || from_src
elif [ -e "$tree" ] && [ -n "$(ls -A "$tree" 2>/dev/null)" ]; then
	if [ -d "$tree/.git" ] && is_kernel_tree "$tree" &&
	   git -C "$tree" rev-parse -q --verify pristine >/dev/null; then
		# A run was interrupted after the pristine commit: resume from it.
		refuse_dirty
		gitc reset -q --hard
		gitc clean -q -fd
		gitc checkout -q --detach pristine
		[ -z "$src" ] || from_src
	else
		die 65 "$tree exists but is not a tree prepared by ro-campaign; move it away or set TREE="
	fi
elif [ -n "$src" ]; then
	parent=$(dirname "$tree")
	mkdir -p "$parent" || die 70 "cannot create $parent"
	tmp=$(mktemp -d "$parent/.clone.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT INT TERM
	echo "setup-tree: cloning $src_top (objects shared, nothing written to it)"
	git clone -q --shared --no-checkout --no-tags "$src_top" "$tmp/linux" ||
		die 70 "git clone --shared $src_top failed"
	[ ! -d "$tree" ] || rmdir "$tree"
	mv "$tmp/linux" "$tree"
	rm -rf "$tmp"
	trap - EXIT INT TERM
	echo "setup-tree: checking out $(echo "$src_commit" | cut -c1-12)"
	gitc checkout -q --detach "$src_commit" || die 70 "cannot check out $src_commit in $tree"
	gitc tag -f pristine >/dev/null
else
	[ -f "$tarball" ] || die 65 "$tarball: no such file (install linux-source-$KERNEL_HINT, or set TARBALL=)"
	xz -t "$tarball" 2>/dev/null || die 65 "$tarball: corrupt or not an xz archive"
	parent=$(dirname "$tree")
	mkdir -p "$parent"
	tmp=$(mktemp -d "$parent/.unpack.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT INT TERM
	echo "setup-tree: unpacking $tarball"
	tar -xJf "$tarball" -C "$tmp" || die 70 "$tarball: unpacking failed"
	top=$(ls "$tmp")
	[ "$(echo "$top" | wc -l)" -eq 1 ] && is_kernel_tree "$tmp/$top" ||
		die 65 "$tarball: does not contain a single kernel tree"
	[ ! -d "$tree" ] || rmdir "$tree"
	mv "$tmp/$top" "$tree"
	rm -rf "$tmp"
	trap - EXIT INT TERM
	echo "setup-tree: creating pristine commit"
	gitc init -q
	# The tarball ships no .gitignore for generated dirs we add; keep
	# git's view identical to the tarball's.
	gitc add -A -f .
	gitc commit -q -m "Pristine $(tree_version) ($(basename "$tarball"))"
	gitc tag pristine
fi

if [ -n "$src" ]; then
	write_origin git "$src_top"
else
	write_origin tarball "$(basename "$tarball")"
fi
pick_series "$(tree_version)"
core_hash=$(core_hash_of)
grep -v '^#' "$series_dir/series" | while read -r p; do
	[ -n "$p" ] || continue
	[ -f "$series_dir/$p" ] || die 65 "$series_dir/$p: listed in series but missing"
	gitc am --3way --keep-cr "$(cd "$series_dir" && pwd)/$p" >"$tree/.git/ro-campaign-am.log" 2>&1 || {
		grep -v "^Applying: \|^hint: \|^When you have\|^If you prefer\|^To restore" "$tree/.git/ro-campaign-am.log" | head -n 12 | sed "s/^/  /" >&2
		gitc am --abort 2>/dev/null || true
		die 65 "$series_dir/$p: does not apply to Linux $(tree_version) (the series is for $(basename "$series_dir")).  To port it: cd $tree && git am --3way $(cd "$series_dir" && pwd)/$p, resolve, git am --continue, then git format-patch -o setup/core/VERSION pristine.. and list the files in setup/core/VERSION/series"
	}
done || exit $?
n=$(grep -vc '^#\|^$' "$series_dir/series" || true)
gitc tag -f core >/dev/null
echo "$core_hash" > "$tree/.git/ro-campaign-core"
echo "setup-tree: $tree ready: Linux $(tree_version), pristine + $n core patch(es) from $series_dir (series $core_hash)"
