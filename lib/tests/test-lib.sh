#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-lib.sh - the base layer on real files: the strict TSV reader, the
# journal (header check before any repair, torn rows, the final verdict
# of each variable), the evidence grammar and the checks on paths, names
# and numbers.  Runs in a second; no kernel.

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/qemu-boot/tests/tap.sh"
bin=$top/lib/tests/lib-test
[ -x "$bin" ] || make -C "$top" -s lib/tests/lib-test >/dev/null ||
	{ not_ok "build lib-test" "make failed"; finish; }

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT INT TERM
tab=$(printf '\t')

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

# expect_out DESC PATTERN: the last command's output matches PATTERN.
expect_out() {
	if grep -q -- "$2" "$t/out"; then ok "$1"; else
		not_ok "$1" "no '$2' in: $(head -c 200 "$t/out")"; fi
}

# ---- the TSV reader ----------------------------------------------------
printf 'file\tline\tname\na.c\t1\tx\nb.c\t2\ty\n' >"$t/good.tsv"
expect "a good file is read" 0 "$bin" tsv "$t/good.tsv" name
[ "$(cat "$t/out")" = "$(printf '2 x\n3 y')" ] && ok "columns by name, file lines" ||
	not_ok "columns by name, file lines" "$(cat "$t/out")"
printf 'name\tfile\tline\nx\ta.c\t1\n' >"$t/swapped.tsv"
expect "reordered columns are read by name" 0 "$bin" tsv "$t/swapped.tsv" name
expect "a missing column is an error" 65 "$bin" tsv "$t/good.tsv" class
expect_out "... naming FILE:1 and the column" "good.tsv:1: no column 'class'"

printf 'file\tline\tname\na.c\t1\tx\nb.c\t2\0\ty\nc.c\t3\tz\n' >"$t/nul.tsv"
expect "a NUL byte is an error, not the end of the file" 65 "$bin" tsv "$t/nul.tsv" name
expect_out "... naming FILE:LINE" "nul.tsv:3: NUL byte"
printf 'file\tline\tname\r\na.c\t1\tx\r\n' >"$t/crlf.tsv"
expect "CR line endings are an error" 65 "$bin" tsv "$t/crlf.tsv" name
printf 'file\tline\tname\na.c\t1\tx\nb.c\t2' >"$t/torn.tsv"
expect "a torn last row is an error" 65 "$bin" tsv "$t/torn.tsv" name
expect_out "... naming its line" "torn.tsv:3: torn row"
printf 'file\tline\tname\na.c\t1\n' >"$t/short.tsv"
expect "a row with fewer fields is an error" 65 "$bin" tsv "$t/short.tsv" name
printf 'file\tline\tname\na.c\t\tx\n' >"$t/empty.tsv"
expect "an empty field is an error" 65 "$bin" tsv "$t/empty.tsv" name
printf 'file\tline\tname\na.c\t1\tx\n\n' >"$t/blank.tsv"
expect "an empty line is an error" 65 "$bin" tsv "$t/blank.tsv" name
: >"$t/zero.tsv"
expect "an empty file is an error" 65 "$bin" tsv "$t/zero.tsv" name
expect "a missing file is an error" 65 "$bin" tsv "$t/none.tsv" name

# ---- the journal -------------------------------------------------------
hdr="time${tab}variable${tab}file${tab}line${tab}batch${tab}verdict${tab}evidence${tab}config_hash${tab}core_hash"
row() { printf '%s\t%s\t%s\t%s\tb\t%s\t%s\tc\tk\n' T "$1" "$2" "${5:-3}" "$3" "${4:-ev}"; }
{ echo "$hdr"; row x kernel/a.c rejected; row y kernel/a.c accepted; row x kernel/a.c accepted; row x kernel/b.c not-built; row x kernel/b.c accepted ev 9; } >"$t/j.tsv"
expect "a journal is read" 0 "$bin" final "$t/j.tsv"
[ "$(cat "$t/out")" = "$(printf 'kernel/a.c y accepted 3\nkernel/a.c x accepted 4\nkernel/b.c x not-built 5\nkernel/b.c x accepted 6')" ] &&
	ok "the final row of each (file, line, variable) wins, in file order" ||
	not_ok "the final row of each (file, line, variable) wins, in file order" "$(cat "$t/out")"
{ echo "$hdr"; row x kernel/a.c maybe; } >"$t/jv.tsv"
expect "an unknown verdict is an error" 65 "$bin" final "$t/jv.tsv"
expect_out "... naming the value" "unknown value 'maybe'"
{ echo "$hdr"; row x ../etc/passwd accepted; } >"$t/jp.tsv"
expect "a path with .. is an error" 65 "$bin" final "$t/jp.tsv"
{ echo "$hdr"; row 'x;y' kernel/a.c accepted; } >"$t/ji.tsv"
expect "a variable that is not an identifier is an error" 65 "$bin" final "$t/ji.tsv"
{ echo "$hdr"; row x kernel/a.c accepted; printf 'T\ty\tkernel/a.c\t3\tb\tacc'; } >"$t/jt.tsv"
expect "a torn last row is skipped when reading" 0 "$bin" final "$t/jt.tsv"
[ "$(grep -c accepted "$t/out")" -eq 1 ] && ok "... and only the complete row counts" ||
	not_ok "... and only the complete row counts" "$(cat "$t/out")"

cp "$t/jt.tsv" "$t/ja.tsv"
expect "appending to a journal with a torn row" 0 "$bin" append "$t/ja.tsv" z
[ "$(tail -n 1 "$t/ja.tsv" | cut -f 2)" = z ] && [ "$(wc -l <"$t/ja.tsv")" -eq 3 ] &&
	ok "... cuts the torn row off first" || not_ok "... cuts the torn row off first" "$(cat "$t/ja.tsv")"
expect "appending to a missing journal" 0 "$bin" append "$t/new.tsv" z
[ "$(head -n 1 "$t/new.tsv")" = "$hdr" ] && ok "... writes the header" ||
	not_ok "... writes the header" "$(head -n 1 "$t/new.tsv")"

printf 'just one line without a newline' >"$t/oneline"
cp "$t/oneline" "$t/oneline.orig"
expect "a one-line file that is not a journal is refused" 65 "$bin" append "$t/oneline" z
cmp -s "$t/oneline" "$t/oneline.orig" && ok "... and left byte for byte" ||
	not_ok "... and left byte for byte" "changed"
printf '# README\nsome text\nlast line without newline' >"$t/readme"
cp "$t/readme" "$t/readme.orig"
expect "a README is refused as a journal" 65 "$bin" append "$t/readme" z
cmp -s "$t/readme" "$t/readme.orig" && ok "... and its last line is not cut off" ||
	not_ok "... and its last line is not cut off" "changed"
{ echo "$hdr"; row x kernel/a.c accepted; printf 'a\0b\tx\n'; } >"$t/jn.tsv"
cp "$t/jn.tsv" "$t/jn.orig"
expect "a journal with a NUL byte is refused for appending" 65 "$bin" append "$t/jn.tsv" z
cmp -s "$t/jn.tsv" "$t/jn.orig" && ok "... and left alone" || not_ok "... and left alone" "changed"

# ---- evidence ----------------------------------------------------------
w='kernel/a.c:12:foo_init:assign;kernel/b.c:7:-:addr'
expect "writers parse" 0 "$bin" writers "$w"
[ "$(cat "$t/out")" = "2 $w" ] && ok "writers print back as they were read" ||
	not_ok "writers print back as they were read" "$(cat "$t/out")"
expect "a writer without a line number is refused" 65 "$bin" writers "kernel/a.c:foo:assign"
expect "'-' is an empty writer list" 0 "$bin" writers "-"
expect "a cut list ends with ...(+N more)" 0 "$bin" writers "$w;...(+3 more)"
[ "$(cat "$t/out")" = "2 $w;...(+3 more)" ] && ok "... and N is kept" ||
	not_ok "... and N is kept" "$(cat "$t/out")"
expect "a malformed ...(+N more) is refused" 65 "$bin" writers "$w;...(+x more)"
expect "...(+N more) anywhere but last is refused" 65 "$bin" writers "...(+3 more);$w"
expect "journal items parse" 0 "$bin" items "built=kernel/a.o,vmlinux; booted=warn,default; exercised=suspend-s3,cpu-hotplug"
[ "$(cat "$t/out")" = "[built|kernel/a.o,vmlinux][booted|warn,default][exercised|suspend-s3,cpu-hotplug]" ] &&
	ok "... into key=value items" || not_ok "... into key=value items" "$(cat "$t/out")"
expect "a stage prefix is found" 0 "$bin" items "build: kernel/a.c:3: error: expected ';'"
expect_out "... as the stage" "stage=build"
expect "control characters become spaces in one journal field" 0 "$bin" oneline "$(printf 'a\tb\nSigned-off-by: x')"
[ "$(cat "$t/out")" = "a b Signed-off-by: x" ] && ok "... on one line" ||
	not_ok "... on one line" "$(cat "$t/out")"

# ---- paths, names, numbers ---------------------------------------------
expect "kernel/a.c is a tree path" 0 "$bin" path kernel/a.c
for p in /etc/passwd ../x kernel/../x ./x kernel//x kernel/ ""; do
	expect "'$p' is not a tree path" 65 "$bin" path "$p"
done
expect "foo_1 is an identifier" 0 "$bin" ident foo_1
for p in 1foo 'a b' 'x;y' ""; do
	expect "'$p' is not an identifier" 65 "$bin" ident "$p"
done
expect "a number in range" 0 "$bin" long 128
for p in 4294967296 99999999999999999999 -1 0 12x "" " 5"; do
	expect "'$p' is refused as a number with 64" 64 "$bin" long "$p"
done
finish
