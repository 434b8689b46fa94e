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
