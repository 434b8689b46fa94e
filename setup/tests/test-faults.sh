#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-faults.sh - setup-tree.sh on bad input, in seconds: a tiny git
# repository stands for a prepared kernel tree.  A tree with uncommitted
# work must never be reset or cleaned unless --force is given, and usage
# and input errors exit with README.md's codes.

here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/../lib/tap.sh"

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

# ---- the series per kernel version (setup/core/VERSION) --------------------
# A root with 6.1/ and 6.12/, each one patch adding its own file; the tiny
# tree answers "make kernelversion" with the version it is given.
mk_series() {
	rm -rf "$t/gen2"
	mkdir -p "$t/gen2" "$t/root/$1"
	(
		cd "$t/gen2" && git init -q &&
		printf 'mainmenu "x"\n' >Kconfig && git add Kconfig &&
		git -c user.name=t -c user.email=t@localhost commit -q -m base &&
		printf '%s\n' "$2" >"$3" && git add "$3" &&
		git -c user.name=t -c user.email=t@localhost commit -q -a -m "core: $1" &&
		git format-patch -q -1 -o "$t/root/$1" >/dev/null
	)
	(cd "$t/root/$1" && ls *.patch) >"$t/root/$1/series"
}
rm -rf "$t/root"
mk_series 6.1 'core for 6.1' core-6.1.txt
mk_series 6.12 'core for 6.12' core-6.12.txt

# mk_vtree VERSION: a clean tree whose "make kernelversion" says VERSION.
mk_vtree() {
	mk_tree
	printf 'kernelversion:\n\t@echo %s\n' "$1" >"$t/tree/Makefile"
	gitq commit -q -a -m "version $1"
	gitq tag -f pristine >/dev/null
}

for v in 6.1.192 6.12.118; do
	mm=${v%.*}
	mk_vtree "$v"
	sh "$setup" /nonexistent.tar.xz "$t/tree" "$t/root" >"$t/out" 2>&1
	rc=$?
	other=6.12
	[ "$mm" = 6.12 ] && other=6.1
	if [ $rc -eq 0 ] && [ -f "$t/tree/core-$mm.txt" ] && [ ! -f "$t/tree/core-$other.txt" ]; then
		ok "Linux $v gets the series of $mm"
	else
		not_ok "Linux $v gets the series of $mm" "rc=$rc: $(head -c 300 "$t/out")"
	fi
done

mk_vtree 7.0.0
sh "$setup" /nonexistent.tar.xz "$t/tree" "$t/root" >"$t/out" 2>&1
rc=$?
if [ $rc -eq 0 ] && [ -f "$t/tree/core-6.12.txt" ] &&
   grep -q 'no core series for Linux 7.0.0; trying the newest, 6.12' "$t/out"; then
	ok "an unknown version tries the newest series and says so"
else
	not_ok "an unknown version tries the newest series and says so" "rc=$rc: $(head -c 300 "$t/out")"
fi

# The newest series does not apply: the patch, the failure, how to port it.
mk_vtree 7.0.0
printf 'mainmenu "changed in 7.0"\n' >"$t/tree/Kconfig"
gitq commit -q -a -m "7.0 changes Kconfig"
gitq tag -f pristine >/dev/null
rm -rf "$t/root/6.12"
(
	cd "$t/gen2" && printf 'mainmenu "y"\n' >Kconfig &&
	git -c user.name=t -c user.email=t@localhost commit -q -a -m "core: a new menu title" &&
	mkdir -p "$t/root/6.12" && git format-patch -q -1 -o "$t/root/6.12" >/dev/null
)
(cd "$t/root/6.12" && ls *.patch) >"$t/root/6.12/series"
p=$(cat "$t/root/6.12/series")
sh "$setup" /nonexistent.tar.xz "$t/tree" "$t/root" >"$t/out" 2>&1
rc=$?
if [ $rc -eq 65 ] && grep -q "6.12/$p: does not apply to Linux 7.0.0" "$t/out" &&
   grep -v "\.patch" "$t/out" | grep -q "Kconfig" && grep -q 'To port it' "$t/out" &&
   [ -z "$(git -C "$t/tree" status --porcelain)" ]; then
	ok "a series that does not apply: 65, naming the patch, the file and how to port it; the tree is left clean"
else
	not_ok "a series that does not apply: 65, naming the patch, the file and how to port it; the tree is left clean" \
		"rc=$rc: $(head -c 400 "$t/out" | tr "\n" " ")"
fi
finish
