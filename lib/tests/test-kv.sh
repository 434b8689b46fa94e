#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-kv.sh - lib/kv, the "key value" TSV reader of validate's job.tsv,
# farm.tsv, status and journal.hash: a value with its file line, a number
# in range, and bad input (a malformed line, no key or value column, a
# missing row, a bad number) exits 65 naming FILE:LINE.  And lib/strtab's
# strtab_destroy, which frees the strings of a table made and dropped
# often (validate --merge's key sets), under valgrind when it is there.
# Runs in a second; no kernel.

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/lib/tap.sh"
bin=$top/lib/tests/lib-test
[ -x "$bin" ] || make -C "$top" -s lib/tests/lib-test >/dev/null ||
	{ not_ok "build lib-test" "make failed"; finish; }

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT INT TERM

# expect DESC RC OUT CMD...: CMD exits RC and prints OUT (stdout+stderr,
# a grep pattern) into $t/out.
expect() {
	desc=$1
	want=$2
	pat=$3
	shift 3
	"$@" >"$t/out" 2>&1
	got=$?
	if [ "$got" -ne "$want" ]; then
		not_ok "$desc" "exit $got, want $want: $(head -c 200 "$t/out")"
	elif ! grep -q -- "$pat" "$t/out"; then
		not_ok "$desc" "no '$pat' in: $(head -c 200 "$t/out")"
	else
		ok "$desc"
	fi
}

printf 'key\tvalue\njob\tjob-0001\nbatch\t12\ntimeout\t-\n' >"$t/job.tsv"
expect "a value with its file line" 0 "^3 12$" "$bin" kv "$t/job.tsv" batch
expect "a number in range" 0 "^12$" "$bin" kv "$t/job.tsv" batch 1 100
expect "a number out of range: FILE:LINE, exit 65" 65 \
	"job.tsv:3: batch '12' is not a number from 1 to 5" \
	"$bin" kv "$t/job.tsv" batch 1 5
expect "a value that is no number: FILE:LINE, exit 65" 65 \
	"job.tsv:4: timeout '-' is not a number" \
	"$bin" kv "$t/job.tsv" timeout 10 86400
expect "a missing row: exit 65 naming the file and the key" 65 \
	"job.tsv: no row 'accel'" "$bin" kv "$t/job.tsv" accel
printf 'key\tvalue\njob\tjob-0001\nbatch\n' >"$t/short.tsv"
expect "a malformed line: FILE:LINE, exit 65" 65 "short.tsv:3: " \
	"$bin" kv "$t/short.tsv" job
printf 'key\tvalue\njob\tjob-0001\nbatch\t12' >"$t/torn.tsv"
expect "a torn last line: FILE:LINE, exit 65" 65 "torn.tsv:3: torn row" \
	"$bin" kv "$t/torn.tsv" job
printf 'key\tval\njob\tjob-0001\n' >"$t/nocol.tsv"
expect "no value column: FILE:1, exit 65" 65 "nocol.tsv:1: no column 'value'" \
	"$bin" kv "$t/nocol.tsv" job
expect "a missing file: exit 65" 65 "none.tsv" "$bin" kv "$t/none.tsv" job

# three tables of 40000 keys (several arena chunks) and a key of 400000
# bytes (a block of its own), each destroyed
expect "strtab: ids dense and stable, '-' no string, over three tables" 0 \
	"^40001$" "$bin" strtab 40000 400000
if command -v valgrind >/dev/null 2>&1; then
	expect "strtab_destroy frees every block (valgrind: nothing lost)" 0 "" \
		valgrind -q --leak-check=full --errors-for-leak-kinds=definite \
		--error-exitcode=99 "$bin" strtab 40000 400000
else
	ok "strtab_destroy frees every block # SKIP no valgrind"
fi

finish
