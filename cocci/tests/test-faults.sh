#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Fault tests of the cocci/ scripts (issue 15), with real spatch on tiny
# trees.  COCCI=DIR runs them on another copy of cocci/ (the old code).
#
# #4 run-facts.sh built its pathspecs with eval: a SCOPE named
#    q'$(touch X)' ran "touch X".  annotate.sh copied (and spatch then
#    rewrote) a LIST entry ../../victim.c outside its temp directory.
#    run-facts.sh --list wrote cache files under the entry's path too.
# #7 run-checker.sh ignored spatch and xargs failures ("0 reports", exit
#    0), and -j 0 meant unlimited processes in both runners.
# #6 (its cocci/ side) mentions took a read error of its file list for
#    the end of it, so run-facts.sh's phase 2 could miss files silently.
# MENTIONS=PROGRAM tests another mentions (the old one was in candidates/).
set -u
here=$(cd "$(dirname "$0")" && pwd)
cocci=${COCCI:-$here/..}
cocci=$(cd "$cocci" && pwd)
mentions=${MENTIONS:-$cocci/mentions}
T=$(mktemp -d "${TMPDIR:-/tmp}/cocci-faults.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
. "$here/../../lib/tap.sh"

# mktree DIR: a git work tree of the files already in DIR
mktree() {
	git -C "$1" init -q && git -C "$1" add . &&
		git -C "$1" -c user.name=t -c user.email=t@t commit -qm t
}

# ---- #4: a SCOPE is a path, never shell code ---------------------------------

evil="q'\$(touch X)'"
mkdir -p "$T/tree/$evil" "$T/cwd"
printf 'static int v;\nstatic int __init v_init(void)\n{\n\tv = 1;\n\treturn 0;\n}\n' \
	>"$T/tree/$evil/a.c"
mktree "$T/tree"
(cd "$T/cwd" && sh "$cocci/run-facts.sh" -j 1 "$T/tree" "$T/facts" "$evil") \
	>/dev/null 2>"$T/err"
rc=$?
if [ -e "$T/cwd/X" ] || [ -e "$T/tree/X" ] || [ -e "$T/facts/X" ]; then
	not_ok "a SCOPE named $evil runs no command" "X was created (exit $rc)"
else
	ok "a SCOPE named $evil runs no command"
fi
if [ $rc -eq 0 ] && grep -qxF "$evil/a.c" "$T/facts/files.txt" &&
	grep -qF "$evil/a.c	1	v	static" "$T/facts/defs.tsv"; then
	ok "the SCOPE is taken as the path it names"
elif [ $rc -eq 64 ]; then
	ok "the SCOPE is refused with 64"
else
	not_ok "the SCOPE is taken as a path or refused" "exit $rc: $(cat "$T/err")"
fi

# --list entries name cache files (CACHE/RULEHASH/ENTRY.BLOBHASH): the old
# code wrote ../outside.c's to CACHE/outside.c.BLOBHASH
printf 'int w;\n' >"$T/outside.c"
printf '../outside.c\n' >"$T/list"
sh "$cocci/run-facts.sh" -j 1 --list "$T/list" --cache "$T/cache/c" \
	"$T/tree" "$T/facts2" >/dev/null 2>"$T/err"
rc=$?
leak=$(find "$T" -name 'outside.c.*')
if [ $rc -eq 65 ] && [ -z "$leak" ] && grep -qF "$T/list:1: '../outside.c'" "$T/err"
then
	ok "a --list entry ../outside.c is refused with 65 naming LIST:LINE"
else
	not_ok "a --list entry ../outside.c is refused with 65 naming LIST:LINE" \
		"exit $rc, outside the cache: '$leak', $(cat "$T/err")"
fi

# annotate.sh: a LIST entry ../../victim.c, with TMPDIR=$T/tmp its temp
# directory is $T/tmp/annotate.XXXXXX and its copy of the entry would be
# $T/tmp/victim.c
mkdir -p "$T/a/b/t" "$T/tmp"
printf 'static int v;\n' >"$T/a/b/t/ok.c"
printf 'static int victim;\n' >"$T/a/victim.c"
echo precious >"$T/tmp/victim.c"
printf 'file\tline\tname\nok.c\t1\tv\n../../victim.c\t1\tvictim\n' >"$T/keys"
TMPDIR=$T/tmp sh "$cocci/annotate.sh" "$T/a/b/t" "$T/keys" >"$T/diff" 2>"$T/err"
rc=$?
if [ "$(cat "$T/tmp/victim.c")" = precious ] &&
	[ "$(cat "$T/a/victim.c")" = "static int victim;" ]; then
	ok "annotate.sh writes no file outside its temp directory"
else
	not_ok "annotate.sh writes no file outside its temp directory" \
		"victim.c: $(cat "$T/tmp/victim.c")"
fi
if [ $rc -eq 65 ] && grep -qF "$T/keys:3: file '../../victim.c'" "$T/err" &&
	[ ! -s "$T/diff" ]; then
	ok "annotate.sh refuses ../../victim.c with 65 naming LIST:LINE"
else
	not_ok "annotate.sh refuses ../../victim.c with 65 naming LIST:LINE" \
		"exit $rc: $(cat "$T/err")"
fi
printf 'file\tline\tname\nnothere.c\t1\tv\n' >"$T/keys2"
sh "$cocci/annotate.sh" "$T/a/b/t" "$T/keys2" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 65 ] && grep -qF "$T/keys2:2: no such file in TREE: nothere.c" "$T/err" &&
	ok "annotate.sh refuses a file missing from TREE with 65 naming LIST:LINE" ||
	not_ok "annotate.sh refuses a missing file with 65 naming LIST:LINE" \
		"exit $rc: $(cat "$T/err")"

# ---- #7: -j 0 and junk numbers are usage errors --------------------------------

mkdir -p "$T/ck"
cp "$here/fixtures/ro_writes.c" "$T/ck/"
mktree "$T/ck"
for j in 0 x 99999999999999999999; do
	sh "$cocci/run-checker.sh" -j "$j" "$T/ck" "$T/ckout" >/dev/null 2>&1
	rc=$?
	[ $rc -eq 64 ] && ok "run-checker.sh -j $j exits 64" ||
		not_ok "run-checker.sh -j $j exits 64" "exit $rc"
done
for o in "-j 0" "-j -1" "--chunk 0" "--timeout 0"; do
	# shellcheck disable=SC2086 # the option and its value, split
	sh "$cocci/run-facts.sh" $o "$T/tree" "$T/facts3" >/dev/null 2>&1
	rc=$?
	[ $rc -eq 64 ] && ok "run-facts.sh $o exits 64" ||
		not_ok "run-facts.sh $o exits 64" "exit $rc"
done

# ---- #7: spatch failing is a failure of run-checker.sh -------------------------

# checker DIR COCCI-TEXT: a copy of run-checker.sh whose rule is COCCI-TEXT
checker() {
	mkdir -p "$1"
	cp "$cocci/run-checker.sh" "$cocci/macros.h" "$1/"
	mkdir -p "$1/../lib"
	cp "$cocci/../lib/args.sh" "$cocci/../lib/notkernel.sh" \
		"$cocci/../lib/notkernel.tsv" "$1/../lib/"
	printf '%s\n' "$2" >"$1/ro_after_init_writes.cocci"
}
checker "$T/c1" '@@
@@
- foo('
sh "$T/c1/run-checker.sh" -j 2 "$T/ck" "$T/out1" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 70 ] && [ ! -e "$T/out1/report.txt" ] &&
	ok "a rule spatch cannot parse: exit 70, no report.txt" ||
	not_ok "a rule spatch cannot parse: exit 70, no report.txt" \
		"exit $rc: $(cat "$T/err")"

# a rule that parses but makes spatch exit 255 on one file (a Python
# error when it matches there)
printf 'int boom __ro_after_init;\nvoid f(void)\n{\n\tboom = 1;\n}\n' >"$T/ck/bad.c"
git -C "$T/ck" add bad.c && git -C "$T/ck" -c user.name=t -c user.email=t@t commit -qm bad
checker "$T/c2" 'virtual report

@r@
identifier f;
position p;
@@
f(...) { ... boom@p = 1; ... }

@script:python@
p << r.p;
@@
raise Exception("boom in " + p[0].file)'
sh "$T/c2/run-checker.sh" -j 2 "$T/ck" "$T/out2" >/dev/null 2>"$T/err"
rc=$?
if [ $rc -eq 70 ] && grep -q 'spatch failed on 1 file(s), first bad.c' "$T/err" &&
	grep -q '^bad.c	' "$T/out2/failed.txt" && [ ! -e "$T/out2/report.txt" ]
then
	ok "spatch exiting 255 on bad.c: exit 70 naming bad.c"
else
	not_ok "spatch exiting 255 on bad.c: exit 70 naming bad.c" \
		"exit $rc: $(cat "$T/err")"
fi
# the real rule on the same tree: spatch exits 0 on both files
sh "$cocci/run-checker.sh" -j 2 "$T/ck" "$T/out3" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && grep -q '^bad.c:4:' "$T/out3/report.txt" &&
	ok "the real rule on the same tree: exit 0, bad.c reported" ||
	not_ok "the real rule on the same tree: exit 0, bad.c reported" \
		"exit $rc: $(cat "$T/err")"

# ---- issue 30: a file named in SCOPE is analysed -------------------------------

# sysfs.c has no init marker (no __init, module_param...): a directory
# SCOPE leaves it to the prefilter, but named as a file it is analysed
# (power_supply_sysfs.c said "no files to analyse").
mkdir -p "$T/sc/drv"
printf 'static const char *sc_names[] = { "a", "b" };\nconst char *sc_name(int i)\n{\n\treturn sc_names[i];\n}\n' \
	>"$T/sc/drv/sysfs.c"
printf 'static int sc_v;\nstatic int __init sc_init(void)\n{\n\tsc_v = 1;\n\treturn 0;\n}\n' \
	>"$T/sc/drv/core.c"
printf 'extern int sc_v;\n' >"$T/sc/drv/sc.h"
mktree "$T/sc"
sh "$cocci/run-facts.sh" -j 1 "$T/sc" "$T/scf" drv/sysfs.c >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && grep -qx 'drv/sysfs.c' "$T/scf/files.txt" &&
	grep -q '	sc_names	' "$T/scf/defs.tsv" &&
	ok "a .c file named in SCOPE is analysed without an init marker" ||
	not_ok "a .c file named in SCOPE is analysed without an init marker" \
		"exit $rc: $(cat "$T/err")"
sh "$cocci/run-facts.sh" -j 1 "$T/sc" "$T/scd" drv >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && grep -qx 'drv/core.c' "$T/scd/files.txt" &&
	! grep -qx 'drv/sysfs.c' "$T/scd/files.txt" &&
	ok "a directory SCOPE is still prefiltered" ||
	not_ok "a directory SCOPE is still prefiltered" \
		"exit $rc: $(cat "$T/scd/files.txt" "$T/err")"

# issue 34: the facts of headers alone give no candidate, and say so
sh "$cocci/run-facts.sh" -j 1 "$T/sc" "$T/sch" drv/sc.h >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && grep -q "warning: only headers to analyse in scope 'drv/sc.h'" "$T/err" &&
	ok "a SCOPE of headers only is warned about" ||
	not_ok "a SCOPE of headers only is warned about" "exit $rc: $(cat "$T/err")"
sh "$cocci/run-facts.sh" -j 1 "$T/sc" "$T/sch2" drv/sc.h drv/core.c >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && ! grep -q "only headers" "$T/err" &&
	ok "... and not when a .c file is in it" ||
	not_ok "... and not when a .c file is in it" "exit $rc: $(cat "$T/err")"

# ---- #6: mentions: a read error is no end of the list --------------------------

echo v >"$T/names"
"$mentions" "$T/names" <"$T" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 70 ] && grep -q 'stdin: read error' "$T/err" &&
	ok "mentions: a read error on the file list exits 70" ||
	not_ok "mentions: a read error on the file list exits 70" \
		"exit $rc: $(cat "$T/err")"

finish
