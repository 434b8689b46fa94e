#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-hostile.sh - setup on hostile and careless input (issue 34): a
# TREE= that is shell code for the Makefile, the user's checkout whose
# index must stay as it is, a series with a missing patch, a TREE whose
# name starts with "-".  Tiny git trees stand for kernels.  Seconds.

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
. "$top/lib/tap.sh"

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

env -u WORK -u USER_TREE -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$top" -n help TREE="x\`touch $t/PWN1\`y" >"$t/make1.out" 2>&1
why="$(tr '\n' ' ' <"$t/make1.out")"
check "make -n help TREE='x\`touch PWN\`y': the command does not run" \
	all '[ ! -e "$t/PWN1" ] && grep -q "is not usable" "$t/make1.out"'

# the user's checkout whose name is shell code: its key (WORK's name)
# and every \$(shell) are quoted (a $ is make's, not the path's)
evil='k b;touch PWN2;`touch PWN3`'"'"'q'
mkdir -p "$t/cwd"
mk_kernel "$t/$evil"
(cd "$t/cwd" && env -u WORK -u USER_TREE -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$top" -n help TREE="$t/$evil") >"$t/make2.out" 2>&1
rc=$?
why="exit $rc: $(tr '\n' ' ' <"$t/make2.out")"
check "make -n help TREE=CHECKOUT named ;, \`..\`, ' and a space: nothing runs" \
	all '[ $rc -eq 0 ] && ! find "$t" "$top" -maxdepth 2 -name "PWN*" | grep -q .'
check "the work directory of that checkout is named with safe characters only" \
	all 'grep -q "WORK=.*/own/k_b_touch_PWN2__touch_PWN3__q-[0-9a-f]\{8\}\"" "$t/make2.out"'

# ---- setup-tree.sh ------------------------------------------------------------------

# a one-patch series that adds core.txt
mkdir -p "$t/gen" "$t/series"
mk_kernel "$t/gen"
printf 'core\n' >"$t/gen/core.txt"
gitq "$t/gen" add core.txt
gitq "$t/gen" commit -q -m "core: add core.txt"
gitq "$t/gen" format-patch -q -1 -o "$t/series" >/dev/null
(cd "$t/series" && ls *.patch) >"$t/series/series"

# --from-git: the user's checkout, whose index is stale (a file's time
# changed), is only read: git status would rewrite its .git/index
mk_kernel "$t/user"
touch -d '2001-01-01 00:00' "$t/user/Kconfig"
before=$(sha1sum <"$t/user/.git/index")
sh "$setup" --from-git "$t/user" /nonexistent.tar.xz "$t/own" "$t/series" >"$t/own.out" 2>&1
rc=$?
why="exit $rc: $(tr '\n' ' ' <"$t/own.out")"
check "setup-tree --from-git: the user's .git/index is not rewritten" \
	all '[ $rc -eq 0 ] && [ "$(sha1sum <"$t/user/.git/index")" = "$before" ]'

# a series that lists a missing patch: refused before the tarball is
# unpacked
mk_kernel "$t/src/linux-6.12"
rm -rf "$t/src/linux-6.12/.git"
tar -cJf "$t/linux.tar.xz" -C "$t/src" linux-6.12
mkdir -p "$t/bad"
cp "$t/series/"*.patch "$t/bad/"
{ cat "$t/series/series"; echo 0002-gone.patch; } >"$t/bad/series"
sh "$setup" "$t/linux.tar.xz" "$t/fresh" "$t/bad" >"$t/bad.out" 2>&1
rc=$?
why="exit $rc: $(tr '\n' ' ' <"$t/bad.out")"
check "setup-tree: a missing patch is named (exit 65) before anything is unpacked" \
	all '[ $rc -eq 65 ] && grep -q "0002-gone.patch: listed in" "$t/bad.out" && [ ! -e "$t/fresh" ]'

# a TREE named -tree, relative
(cd "$t" && sh "$setup" linux.tar.xz -tree series) >"$t/dash.out" 2>&1
rc=$?
why="exit $rc: $(tr '\n' ' ' <"$t/dash.out")"
check "setup-tree: TREE=-tree (starts with -) is a path, prepared" \
	all '[ $rc -eq 0 ] && [ -f "$t/-tree/core.txt" ] && [ -f "$t/-tree/.git/ro-campaign-core" ]'

finish
