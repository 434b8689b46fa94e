#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-hostile.sh - setup on hostile and careless input (issue 34): a
# TREE= that is shell code for the Makefile, the user's checkout whose
# index must stay as it is, a series with a missing patch, a TREE whose
# name starts with "-".  Tiny git trees stand for kernels.  Seconds.

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
. "$top/qemu-boot/tests/tap.sh"

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT INT TERM
setup=$here/setup-tree.sh

# all "SHELL-CONDITION": for check, a condition of several commands
all() {
	eval "$1"
}

gitq() {
	_d=$1
	shift
	git -C "$_d" -c user.name=t -c user.email=t@localhost \
		-c commit.gpgsign=false "$@"
}

# mk_kernel DIR: what is_kernel_tree and tree-key.sh look at, committed
mk_kernel() {
	mkdir -p "$1/include/linux" "$1/arch/x86"
	printf 'kernelversion:\n\t@echo 6.12.0\n' >"$1/Makefile"
	printf 'mainmenu "x"\n' >"$1/Kconfig"
	printf '/* cache.h */\n' >"$1/include/linux/cache.h"
	printf 'x86\n' >"$1/arch/x86/Kconfig"
	gitq "$1" init -q
	gitq "$1" add -A
	gitq "$1" commit -q -m base
}

# ---- the Makefile: TREE= is a path, never shell code ----------------------------

env -u WORK -u USER_TREE make -C "$top" -n help TREE="x\`touch $t/PWN1\`y" >"$t/make1.out" 2>&1
why="$(tr '\n' ' ' <"$t/make1.out")"
check "make -n help TREE='x\`touch PWN\`y': the command does not run" \
	all '[ ! -e "$t/PWN1" ] && grep -q "is not usable" "$t/make1.out"'

# the user's checkout whose name is shell code: its key (WORK's name)
# and every \$(shell) are quoted (a $ is make's, not the path's)
evil='k b;touch PWN2;`touch PWN3`'"'"'q'
mkdir -p "$t/cwd"
mk_kernel "$t/$evil"
(cd "$t/cwd" && env -u WORK -u USER_TREE make -C "$top" -n help TREE="$t/$evil") >"$t/make2.out" 2>&1
rc=$?
why="exit $rc: $(tr '\n' ' ' <"$t/make2.out")"
check "make -n help TREE=CHECKOUT named ;, \`..\`, ' and a space: nothing runs" \
	all '[ $rc -eq 0 ] && ! find "$t" "$top" -maxdepth 2 -name "PWN*" | grep -q .'
check "the work directory of that checkout is named with safe characters only" \
	all 'grep -q "WORK=.*/own/k_b_touch_PWN2__touch_PWN3__q-[0-9a-f]\{8\}\"" "$t/make2.out"'

finish
