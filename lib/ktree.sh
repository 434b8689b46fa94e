# SPDX-License-Identifier: GPL-2.0
# ktree.sh - what a test or a bench asks of the kernel tree under test:
# its version, and the line a definition is on, read from the tree and
# never written into the test, so that a test names the same variables
# on every kernel (6.12, 6.1, a user's tree).
# Source it: . "$top/lib/ktree.sh".

# ktree_line TREE REV FILE REGEX [N]: the number of the Nth line (default
# the first) of FILE at git revision REV of TREE that matches the basic
# regular expression REGEX; empty when FILE or the line is missing.
ktree_line() {
	git -C "$1" show "$2:$3" 2>/dev/null | grep -n -- "$4" |
		sed -n "${5:-1}p" | cut -d: -f1
}

# ktree_version TREE: the kernel's version (make kernelversion: 6.12.118),
# '-' when TREE does not say
ktree_version() {
	_v=$(make -s -C "$1" kernelversion 2>/dev/null | tail -n 1)
	echo "${_v:--}"
}

# ktree_series ROOT VERSION: the core series for kernel VERSION (6.12.118)
# under ROOT, as setup-tree.sh applies it: ROOT itself when it holds a
# series file, else ROOT/MAJOR.MINOR, else the newest ROOT/*/series by
# version.  Prints the directory; returns 0, 2 when it is the newest and
# not VERSION's own, 1 when ROOT holds no series.
ktree_series() {
	if [ -f "$1/series" ]; then
		echo "$1"
		return 0
	fi
	_mm=$(echo "$2" | sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p')
	if [ -n "$_mm" ] && [ -f "$1/$_mm/series" ]; then
		echo "$1/$_mm"
		return 0
	fi
	_newest=$(cd "$1" && for _d in */series; do
		[ -f "$_d" ] && dirname "$_d"; done | sort -V | tail -n 1)
	[ -n "$_newest" ] || return 1
	echo "$1/$_newest"
	return 2
}
