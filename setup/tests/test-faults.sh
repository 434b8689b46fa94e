#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-faults.sh - setup-tree.sh on bad input, in seconds: a tiny git
# repository stands for a prepared kernel tree.  A tree with uncommitted
# work must never be reset or cleaned unless --force is given, and usage
# and input errors exit with README.md's codes.

here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/../qemu-boot/tests/tap.sh"

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT INT TERM
setup="$here/setup-tree.sh"

gitq() {
	git -C "$t/tree" -c user.name=t -c user.email=t@localhost \
		-c commit.gpgsign=false "$@"
}

# A "prepared" tree: what is_kernel_tree looks at, tag pristine, and a
# core-series hash that no longer matches, so setup-tree re-applies.
mk_tree() {
	rm -rf "$t/tree"
	mkdir -p "$t/tree/include/linux" "$t/tree/arch/x86"
	printf 'VERSION = 6\n' >"$t/tree/Makefile"
	printf 'mainmenu "x"\n' >"$t/tree/Kconfig"
	printf '/* cache.h */\n' >"$t/tree/include/linux/cache.h"
	printf 'x86\n' >"$t/tree/arch/x86/Kconfig"
	gitq init -q
	gitq add -A
	gitq commit -q -m pristine
	gitq tag pristine
	echo old-series-hash >"$t/tree/.git/ro-campaign-core"
}

# A one-patch core series that adds a file.
mkdir -p "$t/series"
(
	cd "$t" && rm -rf gen && mkdir gen && cd gen && git init -q &&
	printf 'VERSION = 6\n' >Makefile && git add Makefile &&
	git -c user.name=t -c user.email=t@localhost commit -q -m base &&
	printf 'core\n' >core.txt && git add core.txt &&
	git -c user.name=t -c user.email=t@localhost commit -q -m "core: add core.txt" &&
	git format-patch -q -1 -o "$t/series" >/dev/null
)
(cd "$t/series" && ls *.patch) >"$t/series/series"

mk_tree
printf 'my uncommitted work\n' >>"$t/tree/Makefile"
printf 'precious\n' >"$t/tree/notes.txt"
sh "$setup" /nonexistent.tar.xz "$t/tree" "$t/series" >"$t/out" 2>&1
rc=$?
if [ $rc -eq 65 ] && grep -q 'Makefile' "$t/out" && grep -q 'notes.txt' "$t/out"; then
	ok "a dirty tree is refused with 65, naming the changed files"
else
	not_ok "a dirty tree is refused with 65, naming the changed files" "rc=$rc: $(head -c 300 "$t/out")"
fi
if grep -q 'my uncommitted work' "$t/tree/Makefile" && [ -f "$t/tree/notes.txt" ]; then
	ok "the refused tree keeps the edit and the untracked file"
else
	not_ok "the refused tree keeps the edit and the untracked file" "user data lost"
fi
if [ ! -f "$t/tree/core.txt" ]; then
	ok "the refused tree was not re-applied"
else
	not_ok "the refused tree was not re-applied" "core.txt exists"
fi

sh "$setup" --force /nonexistent.tar.xz "$t/tree" "$t/series" >"$t/out" 2>&1
rc=$?
if [ $rc -eq 0 ] && [ -f "$t/tree/core.txt" ] &&
   ! grep -q 'my uncommitted work' "$t/tree/Makefile"; then
	ok "--force discards the changes and applies the series"
else
	not_ok "--force discards the changes and applies the series" "rc=$rc: $(head -c 300 "$t/out")"
fi

mk_tree
sh "$setup" /nonexistent.tar.xz "$t/tree" "$t/series" >"$t/out" 2>&1
rc=$?
if [ $rc -eq 0 ] && [ -f "$t/tree/core.txt" ]; then
	ok "a clean tree is re-applied without --force"
else
	not_ok "a clean tree is re-applied without --force" "rc=$rc: $(head -c 300 "$t/out")"
fi

sh "$setup" only-two "$t/tree" >"$t/out" 2>&1
rc=$?
[ $rc -eq 64 ] && ok "wrong argument count exits 64" ||
	not_ok "wrong argument count exits 64" "rc=$rc"

rm -rf "$t/fresh"
sh "$setup" "$t/missing.tar.xz" "$t/fresh" "$t/series" >"$t/out" 2>&1
rc=$?
if [ $rc -eq 65 ] && grep -q 'missing.tar.xz' "$t/out"; then
	ok "a missing tarball exits 65 naming it"
else
	not_ok "a missing tarball exits 65 naming it" "rc=$rc: $(cat "$t/out")"
fi

mkdir -p "$t/other"
printf 'keep\n' >"$t/other/README"
sh "$setup" "$t/missing.tar.xz" "$t/other" "$t/series" >"$t/out" 2>&1
rc=$?
if [ $rc -eq 65 ] && [ "$(cat "$t/other/README")" = keep ]; then
	ok "a directory that is not our tree is refused and left alone"
else
	not_ok "a directory that is not our tree is refused and left alone" "rc=$rc"
fi
finish
