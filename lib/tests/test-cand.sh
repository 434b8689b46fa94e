#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-cand.sh - lib/cand, the one reader of candidates.tsv, on real
# files: the key (file, line, name), repeated keys read once, columns by
# name, the classes, confidences, values and annotations it knows, and
# bad rows named FILE:LINE with exit 65.  Runs in a second; no kernel.

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/qemu-boot/tests/tap.sh"
bin=$top/lib/tests/lib-test
[ -x "$bin" ] || make -C "$top" -s lib/tests/lib-test >/dev/null ||
	{ not_ok "build lib-test" "make failed"; finish; }

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT INT TERM

# expect DESC RC CMD...: CMD exits RC; its stdout+stderr are in $t/out.
expect() {
	desc=$1
	want=$2
	shift 2
	"$@" >"$t/out" 2>&1
	got=$?
	if [ "$got" -eq "$want" ]; then
		ok "$desc"
	else
		not_ok "$desc" "exit $got, want $want: $(head -c 200 "$t/out")"
	fi
}

# has DESC LINE: the last command's output has exactly LINE.
has() {
	if grep -qxF -- "$2" "$t/out"; then ok "$1"; else
		not_ok "$1" "no '$2' in: $(head -c 300 "$t/out")"; fi
}

hdr='file\tline\tname\tstorage\tclass\tconfidence\treason\tevidence\tannotation\tvalue\n'
# The #ifdef variants of x in a.c (lines 3 and 9), a namesake x in b.c,
# a repeated key (a.c 3 x again), a const row.
printf "$hdr"'a.c\t3\tx\tstatic\tro_after_init\thigh\tw\t-\tro_after_init\tbound\na.c\t9\tx\tstatic\tro_after_init\tmedium\tw\t-\tro_after_init\t-\nb.c\t3\tx\tstatic\tinitdata\t-\tconst and read only by __init code: __initconst\t-\t-\tsetting\na.c\t3\tx\tstatic\tconst\t-\tagain\t-\t-\tsetting\nc.c\t1\ty\tglobal\tconst\t-\tnever written\t-\t-\tparam\n' >"$t/c.tsv"

expect "a good candidates.tsv is read" 0 "$bin" cands "$t/c.tsv" all strict \
	a.c:3:x a.c:9:x b.c:3:x a.c:4:x
has "the #ifdef variant at another line is a row of its own" "3 a.c 9 x ro_after_init medium ro_after_init -"
has "... found by its own key" "find a.c:9:x: 3"
has "a repeated key is read once: its first row" "find a.c:3:x: 2"
[ "$(grep -c '^[0-9]* a\.c 3 x ' "$t/out")" -eq 1 ] &&
	ok "... and the repeat is not kept" ||
	not_ok "... and the repeat is not kept" "$(cat "$t/out")"
has "the namesake in another file is its own row" "find b.c:3:x: 4"
has "a line that no row has finds nothing" "find a.c:4:x: 0"
has "an initdata row whose reason names __initconst is initconst" "4 b.c 3 x initdata - initconst setting"
has "every data row is counted, kept or not" "rows 5"

expect "only the classes asked for are kept" 0 "$bin" cands "$t/c.tsv" const strict
has "... the const row" "6 c.c 1 y const - - param"
has "... and a repeat of a key whose first row is not kept" "5 a.c 3 x const - - setting"

# Columns by name: the same rows, the columns in another order.
awk -F '\t' -v OFS='\t' '{ print $10, $5, $3, $9, $1, $6, $4, $2, $8, $7 }' \
	"$t/c.tsv" >"$t/swapped.tsv"
expect "reordered columns are read by name" 0 "$bin" cands "$t/swapped.tsv" all strict a.c:9:x
has "... the same row" "3 a.c 9 x ro_after_init medium ro_after_init -"

# An older finder's file: no annotation, no value column.
cut -f 1-8 "$t/c.tsv" >"$t/old.tsv"
expect "a file without annotation and value is read" 0 "$bin" cands "$t/old.tsv" all strict
has "... the value is -" "3 a.c 9 x ro_after_init medium ro_after_init -"
has "... the reason decides initconst" "4 b.c 3 x initdata - initconst -"

# bad ROW DESC FILE:LINE-PATTERN [CLASSES [HOW]]: one bad row after a good
# one is refused, exit 65, naming its line 3.
bad() {
	printf "$hdr"'a.c\t3\tx\tstatic\tro_after_init\thigh\tw\t-\tro_after_init\tbound\n%s\n' "$1" >"$t/bad.tsv"
	expect "$2: exit 65" 65 "$bin" cands "$t/bad.tsv" "${4:-all}" "${5:-strict}"
	if grep -q -- "bad.tsv:3: $3" "$t/out"; then ok "... naming bad.tsv:3"; else
		not_ok "... naming bad.tsv:3" "$(head -c 300 "$t/out")"; fi
}
TAB=$(printf '\t')
r() { printf '%s' "$1"; shift; for f; do printf '\t%s' "$f"; done; }
bad "$(r a.c 4 x static ro_after_init sure w - ro_after_init bound)" "an unknown confidence" "column 'confidence'"
bad "$(r a.c 4 x static ro_after_init low w - ro_after_init bound)" "confidence low, which nothing writes" "column 'confidence'"
bad "$(r a.c 4 x static bogus high w - ro_after_init bound)" "an unknown class" "column 'class'"
bad "$(r a.c 4 x static ro_after_init high w - ro_after_init bounded)" "an unknown value" "column 'value'"
bad "$(r a.c 4 x static initdata - w - initconstant setting)" "an unknown annotation" "column 'annotation'"
bad "$(r a.c 4 x static initdata - w - ro_after_init setting)" "an initdata row annotated ro_after_init" "column 'annotation'"
bad "$(r a.c 0 x static ro_after_init high w - ro_after_init bound)" "line 0" "column 'line'"
bad "$(r ../a.c 4 x static ro_after_init high w - ro_after_init bound)" "a file outside the tree" "column 'file'"
bad "$(r a.c 4 x-y static ro_after_init high w - ro_after_init bound)" "a name that is no identifier" "column 'name'"
bad "$(r a.c 4 x static ro_after_init high w -)" "a short row" ""
# lenient (validate): a row of a class not kept has only its class checked
bad "$(r a.c 0 x static konst high w - - bound)" "lenient: a bad class of a row not kept" "column 'class'" ro_after_init lenient
printf "$hdr"'a.c\t3\tx\tstatic\tro_after_init\thigh\tw\t-\tro_after_init\tbound\na.c\t0\t-\t\tconst\t\t\t\t\t\n' >"$t/len.tsv"
expect "lenient: a row not kept is not checked beyond its class" 0 "$bin" cands "$t/len.tsv" ro_after_init lenient
expect "strict: the same row is refused" 65 "$bin" cands "$t/len.tsv" ro_after_init strict
has "... naming len.tsv:3" "$(grep -m1 'len.tsv:3:' "$t/out")"

printf 'file\tline\tname\na.c\t3\tx\n' >"$t/noclass.tsv"
expect "a file without the class column is refused" 65 "$bin" cands "$t/noclass.tsv" all strict
if grep -q "noclass.tsv:1: no column 'class'" "$t/out"; then ok "... naming FILE:1 and the column"; else
	not_ok "... naming FILE:1 and the column" "$(cat "$t/out")"; fi
expect "a missing file is refused" 65 "$bin" cands "$t/none.tsv" all strict

finish
