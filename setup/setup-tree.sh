#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# setup-tree.sh - prepare the campaign's kernel tree.
#
# Unpacks the Debian linux-source-6.1 tarball into TREE, turns it into a
# git repository whose first commit is the pristine tree (tag "pristine"),
# and applies setup/core/series on top with "git am" (tag "core").
# Running it again on a prepared tree only checks it and changes nothing.
# When the core series changed, it re-applies it onto pristine; a tree
# with uncommitted changes is then refused, naming them, unless --force
# (which discards them) is given.
#
# Usage: setup-tree.sh [--force] TARBALL TREE SERIES_DIR
# Exit (README.md, "Exit codes"): 0 ready, 64 usage, 65 bad input (a
# tarball, a tree or a series, named on stderr), 70 a tool failed.

set -eu

prog_name=setup-tree
. "$(dirname "$0")/../lib/args.sh"

force=0
if [ "${1-}" = "--force" ]; then
	force=1
	shift
fi

[ $# -eq 3 ] || { echo "usage: setup-tree.sh [--force] TARBALL TREE SERIES_DIR" >&2; exit 64; }
tarball=$1
tree=$2
series_dir=$3
series=$series_dir/series

[ -f "$series" ] || die 65 "$series: no such file (the core patch series list)"

# The hash of the core series decides whether a prepared tree is current.
core_hash=$( (cat "$series"; grep -v '^#' "$series" | while read -r p; do
	[ -n "$p" ] && cat "$series_dir/$p"; done) | sha1sum | cut -c1-12)

is_kernel_tree() {
	[ -f "$1/Makefile" ] && [ -f "$1/Kconfig" ] &&
		[ -f "$1/include/linux/cache.h" ] && [ -d "$1/arch/x86" ]
}

# Refuse to reset a tree with changes this script did not make: the
# user's edits, untracked files (ignored build products are left alone
# by the reset and clean below, which skip -x).
refuse_dirty() {
	changed=$(git -C "$tree" status --porcelain --untracked-files=normal 2>/dev/null | head -n 20)
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

gitc() {
	git -C "$tree" -c user.name=ro-campaign \
		-c user.email=ro-campaign@localhost -c commit.gpgsign=false "$@"
}

if [ -d "$tree/.git" ] && [ -f "$tree/.git/ro-campaign-core" ]; then
	is_kernel_tree "$tree" || die 65 "$tree: a git repository but not a kernel tree"
	if [ "$(cat "$tree/.git/ro-campaign-core")" = "$core_hash" ]; then
		echo "setup-tree: $tree is ready (core series $core_hash)"
		exit 0
	fi
	echo "setup-tree: core series changed, re-applying onto pristine"
	refuse_dirty
	gitc reset -q --hard
	gitc clean -q -fd
	gitc checkout -q --detach pristine
elif [ -e "$tree" ] && [ -n "$(ls -A "$tree" 2>/dev/null)" ]; then
	if [ -d "$tree/.git" ] && is_kernel_tree "$tree" &&
	   git -C "$tree" rev-parse -q --verify pristine >/dev/null; then
		# A run was interrupted after the pristine commit: resume from it.
		refuse_dirty
		gitc reset -q --hard
		gitc clean -q -fd
		gitc checkout -q --detach pristine
	else
		die 65 "$tree exists but is not a tree prepared by ro-campaign; move it away or set TREE="
	fi
else
	[ -f "$tarball" ] || die 65 "$tarball: no such file (install linux-source-6.1, or set TARBALL=)"
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
	gitc commit -q -m "Pristine $(make -s -C "$tree" kernelversion 2>/dev/null || echo linux-source-6.1)"
	gitc tag pristine
fi

n=0
grep -v '^#' "$series" | while read -r p; do
	[ -n "$p" ] || continue
	[ -f "$series_dir/$p" ] || die 65 "$series_dir/$p: listed in series but missing"
	gitc am -q --keep-cr "$(cd "$series_dir" && pwd)/$p" || {
		gitc am --abort 2>/dev/null || true
		die 65 "$series_dir/$p: does not apply to the pristine tree"
	}
done
n=$(grep -vc '^#\|^$' "$series" || true)
gitc tag -f core >/dev/null
echo "$core_hash" > "$tree/.git/ro-campaign-core"
echo "setup-tree: $tree ready: pristine + $n core patch(es) (series $core_hash)"
