#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tree-key.sh - what TREE= on the make command line means.
#
# Usage: tree-key.sh --user PATH   print PATH's git top level when PATH is
#                                  a kernel git checkout that ro-campaign
#                                  did not prepare (the user's own); print
#                                  nothing for a tree setup prepared
#        tree-key.sh --key PATH    the work directory name of a user tree:
#                                  its base name (each character but
#                                  A-Za-z0-9._+- made _) and a hash of
#                                  its path
# The Makefile calls it before anything runs, so a wrong TREE= stops make
# with this message instead of unpacking a tarball into a typo.
# Exit: 0, 64 usage, 65 PATH is not a kernel git checkout (named).

set -eu
prog_name=tree-key
. "$(dirname "$0")/../lib/args.sh"

help_maybe "$0" "$@"
[ $# -eq 2 ] || die 64 "usage: tree-key.sh --user|--key PATH"
path=$2

case $1 in
--user)
	[ -d "$path" ] || die 65 "TREE=$path: no such directory (TREE= names your own kernel git checkout; leave it unset to use Debian's linux-source-KERNEL)"
	# A tree setup made from a tarball or a clone: use it as it is.
	gd=$(git -C "$path" rev-parse --absolute-git-dir 2>/dev/null) || gd=
	if [ -n "$gd" ] && [ -f "$gd/ro-campaign-core" ]; then
		exit 0
	fi
	[ -n "$gd" ] || die 65 "TREE=$path: not a git checkout (TREE= names your own kernel git checkout; a tarball tree is prepared by make setup KERNEL=)"
	top=$(git -C "$path" rev-parse --show-toplevel) ||
		die 65 "TREE=$path: a bare repository has no work tree"
	[ -f "$top/Kconfig" ] && [ -f "$top/include/linux/cache.h" ] &&
		[ -d "$top/arch/x86" ] || die 65 "TREE=$path: $top is not a Linux kernel tree"
	git -C "$top" rev-parse -q --verify HEAD >/dev/null ||
		die 65 "TREE=$path: no commit yet"
	echo "$top"
	;;
--key)
	abs=$(cd "$path" && pwd -P) || die 65 "TREE=$path: no such directory"
	printf '%s-%s\n' "$(basename "$abs" | tr -c 'A-Za-z0-9._+\n-' _)" \
		"$(printf '%s' "$abs" | sha1sum | cut -c1-8)"
	;;
*)
	die 64 "usage: tree-key.sh --user|--key PATH"
	;;
esac
