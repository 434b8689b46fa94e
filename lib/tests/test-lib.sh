#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-lib.sh - the base layer on real files: the strict TSV reader, the
# journal (header check before any repair, torn rows, the final verdict
# of each variable, the level column and the migration of journals
# without it), the evidence grammar and its levels, the checks on paths,
# names and numbers, candidates.tsv's reader (lib/cand), the key-value
# reader (lib/kv), strtab_destroy, the C tokenizer with its bracket and
# directive helpers, and lib/args.sh's help_maybe.  Runs in a second; no
# kernel.

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/lib/tap.sh"
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

# ---- the key-value reader (lib/kv) and strtab_destroy ------------------
# job.tsv, farm.tsv, status and journal.hash are "key value" TSVs
printf 'key\tvalue\njob\tjob-0001\nbatch\t12\ntimeout\t-\n' >"$t/kv.tsv"
expect "kv: a value" 0 "$bin" kv "$t/kv.tsv" batch
expect_out "... with its file line" "^3 12$"
expect "kv: a number in range" 0 "$bin" kv "$t/kv.tsv" batch 1 100
expect_out "... read" "^12$"
expect "kv: a number out of range: exit 65" 65 "$bin" kv "$t/kv.tsv" batch 1 5
expect_out "... naming FILE:LINE" "kv.tsv:3: batch '12' is not a number from 1 to 5"
expect "kv: a value that is no number: exit 65" 65 "$bin" kv "$t/kv.tsv" timeout 10 86400
expect_out "... naming FILE:LINE" "kv.tsv:4: timeout '-' is not a number"
expect "kv: a missing row: exit 65" 65 "$bin" kv "$t/kv.tsv" accel
expect_out "... naming the file and the key" "kv.tsv: no row 'accel'"
printf 'key\tvalue\njob\tjob-0001\nbatch\n' >"$t/kvshort.tsv"
expect "kv: a malformed line: exit 65" 65 "$bin" kv "$t/kvshort.tsv" job
expect_out "... naming FILE:LINE" "kvshort.tsv:3: "
printf 'key\tvalue\njob\tjob-0001\nbatch\t12' >"$t/kvtorn.tsv"
expect "kv: a torn last line: exit 65" 65 "$bin" kv "$t/kvtorn.tsv" job
expect_out "... naming FILE:LINE" "kvtorn.tsv:3: torn row"
printf 'key\tval\njob\tjob-0001\n' >"$t/kvcol.tsv"
expect "kv: no value column: exit 65" 65 "$bin" kv "$t/kvcol.tsv" job
expect_out "... naming FILE:1" "kvcol.tsv:1: no column 'value'"
expect "kv: a missing file: exit 65" 65 "$bin" kv "$t/none.tsv" job
# three tables of 40000 keys (several arena chunks) and a key of 400000
# bytes (a block of its own), each destroyed
expect "strtab: ids dense and stable, '-' no string, over three tables" 0 \
	"$bin" strtab 40000 400000
expect_out "... 40001 strings each" "^40001$"
if command -v valgrind >/dev/null 2>&1; then
	expect "strtab_destroy frees every block (valgrind: nothing lost)" 0 \
		valgrind -q --leak-check=full --errors-for-leak-kinds=definite \
		--error-exitcode=99 "$bin" strtab 40000 400000
else
	ok "strtab_destroy frees every block # SKIP no valgrind"
fi

# ---- the journal -------------------------------------------------------
ohdr="time${tab}variable${tab}file${tab}line${tab}batch${tab}verdict${tab}evidence${tab}config_hash${tab}core_hash"
hdr="time${tab}variable${tab}file${tab}line${tab}batch${tab}verdict${tab}evidence${tab}level${tab}config_hash${tab}core_hash"
# row VARIABLE FILE VERDICT [EVIDENCE] [LINE]: a row of the current journal
# (evidence "ev": an accepted row is only built); orow the same without
# the level column, as journals were before it.
row() {
	_l=-
	[ "$3" = accepted ] && _l=built
	printf '%s\t%s\t%s\t%s\tb\t%s\t%s\t%s\tc\tk\n' T "$1" "$2" "${5:-3}" "$3" "${4:-ev}" "$_l"
}
orow() { printf '%s\t%s\t%s\t%s\tb\t%s\t%s\tc\tk\n' T "$1" "$2" "${5:-3}" "$3" "${4:-ev}"; }
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

# ---- evidence levels and the level column ------------------------------
# level VERDICT EVIDENCE WANT
level() {
	got=$("$bin" level "$1" "$2")
	[ "$got" = "$3" ] && ok "level of $1 '$2' is $3" ||
		not_ok "level of $1 '$2' is $3" "got '$got'"
}
exv='built=kernel/a.o,vmlinux; booted=warn,default; exercised=boot,cpu-hotplug'
level accepted "$exv" booted
level accepted 'built=kernel/a.o,vmlinux; booted=warn,default' booted
level accepted "$exv; ran=pm_suspend_foo:12,bar:1; ran-in=suspend-s3; not-ran=baz" reached
level accepted "$exv; not-ran=baz,qux" booted
level accepted "$exv; ran=; not-ran=baz" booted
level accepted 'built=drivers/x/foo.o,drivers/x/foo.ko; booted=warn,default; exercised=boot,modules; cycled=foo; bound=foo@e1000' device-bound
level accepted 'built=drivers/x/foo.o,drivers/x/foo.ko; booted=warn,default; exercised=modules; cycled=foo; bound=foo@e1000; ran=foo_probe:1; ran-in=devices' reached
level accepted 'built=drivers/x/foo.o,drivers/x/foo.ko; booted=warn,default; exercised=modules; cycled=foo; bound=' module-cycled
level accepted 'built=drivers/x/foo.o,drivers/x/foo.ko; booted=warn,default; exercised=boot,modules; cycled=foo' module-cycled
level accepted 'built=drivers/x/foo.o,drivers/x/foo.ko; booted=warn,default; exercised=boot,modules; not-cycled=foo: init failed (No such device)' built
level accepted 'built=drivers/x/foo.o,drivers/x/foo.ko; booted=warn,default; exercised=boot' built
level accepted 'built=kernel/a.o,vmlinux' built
level accepted 'built=kernel/a.o,vmlinux; exercised=boot' built
level accepted 'booted=warn,default; cycled=' built
level rejected 'violation: written by foo_exit+0x1a/0x40 [foo]' -
level rejected "$exv" -
level not-built 'not-built: other-arch: arm64 (arch/arm64/kernel/a.c is under arch/arm64)' -

# The maintainer's sentence of a journal evidence (ev_sentence()).
# sentence VERDICT EVIDENCE WANT
sentence() {
	got=$("$bin" sentence "$1" "$2")
	[ "$got" = "$3" ] && ok "sentence of '$2'" ||
		not_ok "sentence of '$2'" "got '$got', want '$3'"
}
sentence accepted "$exv; ran=foo:1200,bar:4; ran-in=suspend-s3,cpu-hotplug; not-ran=baz" \
	"its readers foo() and bar() ran 1,204 times during S3 suspend/resume and CPU hotplug after init, with the section read-only"
sentence accepted "$exv; ran=foo:1; ran-in=pm-test" \
	"its reader foo() ran 1 time during the PM core test after init, with the section read-only"
sentence accepted "$exv; not-ran=baz,qux" \
	"it was built into vmlinux and booted through the exercises, but the boot did not reach its code (baz() and qux() never ran after init)"
sentence accepted "$exv" \
	"it was built into vmlinux and booted through the exercises, but the boot did not reach its code"
sentence accepted 'built=drivers/x/foo.o,drivers/x/foo.ko; booted=warn,default; cycled=foo' \
	"its module foo loaded, its init returning 0, and unloaded, with the section read-only"
sentence accepted 'built=kernel/a.o,vmlinux' "it was only compiled: no boot ran its code"
sentence rejected 'violation: written by foo+0x1/0x2' "(none)"

# A journal of the current columns: a level that does not follow from the
# verdict and the evidence, or is not a level, is refused.
{ echo "$hdr"; printf 'T\tx\tkernel/a.c\t3\tb\taccepted\t%s\texercised\tc\tk\n' "$exv"; row y kernel/a.c rejected; } >"$t/lv.tsv"
expect "a journal with the level column is read (its old level name exercised reads as booted)" 0 "$bin" levels "$t/lv.tsv"
[ "$(cat "$t/out")" = "$(printf 'x booted c k 2\ny - c k 3')" ] &&
	ok "... its levels and hashes by column" || not_ok "... its levels and hashes by column" "$(cat "$t/out")"
{ echo "$hdr"; printf 'T\tx\tkernel/a.c\t3\tb\taccepted\t%s\tbuilt\tc\tk\n' "$exv"; } >"$t/lw.tsv"
expect "a level the evidence does not give is an error" 65 "$bin" levels "$t/lw.tsv"
expect_out "... naming FILE:LINE and both levels" "lw.tsv:2: column 'level': 'built', but a accepted row with this evidence is 'booted'"
{ echo "$hdr"; printf 'T\tx\tkernel/a.c\t3\tb\taccepted\tev\texercising\tc\tk\n'; } >"$t/lu.tsv"
expect "an unknown level is an error" 65 "$bin" levels "$t/lu.tsv"
expect_out "... naming the value" "unknown value 'exercising'"

# An old journal (9 columns, no level) is read, the level derived.
{
	echo "$ohdr"
	orow x kernel/a.c accepted "$exv"
	orow y kernel/a.c rejected "oops: written by y_store+0x4/0x10"
	orow z drivers/x/foo.c accepted "built=drivers/x/foo.o,drivers/x/foo.ko; booted=warn,default; exercised=modules; cycled=foo"
	orow w drivers/x/foo.c accepted "built=drivers/x/foo.o,drivers/x/foo.ko; booted=warn,default; exercised=modules; not-cycled=foo: init failed (No such device)"
} >"$t/old.tsv"
cp "$t/old.tsv" "$t/old.orig"
expect "an old journal (no level column) is read" 0 "$bin" levels "$t/old.tsv"
[ "$(cat "$t/out")" = "$(printf 'x booted c k 2\ny - c k 3\nz module-cycled c k 4\nw built c k 5')" ] &&
	ok "... the level derived, the hashes from their columns" ||
	not_ok "... the level derived, the hashes from their columns" "$(cat "$t/out")"
cmp -s "$t/old.tsv" "$t/old.orig" && ok "... and reading leaves it as it was" ||
	not_ok "... and reading leaves it as it was" "changed"
expect "final on an old journal" 0 "$bin" final "$t/old.tsv"
[ "$(wc -l <"$t/out")" -eq 4 ] && ok "... gives its 4 variables" || not_ok "... gives its 4 variables" "$(cat "$t/out")"

# strip FILE: FILE without its level column, as the old journal had it
strip() { cut -f 1-7,9- "$1"; }
expect "appending to an old journal migrates it" 0 "$bin" append "$t/old.tsv" v
expect_out "... saying so" "added the level column to its 4 rows"
[ "$(head -n 1 "$t/old.tsv")" = "$hdr" ] && ok "... the header has the level column" ||
	not_ok "... the header has the level column" "$(head -n 1 "$t/old.tsv")"
head -n 5 "$t/old.tsv" | strip /dev/stdin >"$t/old.stripped"
{ echo "$ohdr"; tail -n +2 "$t/old.orig"; } | cmp -s - "$t/old.stripped" &&
	ok "... every row byte for byte apart from the new column" ||
	not_ok "... every row byte for byte apart from the new column" "$(diff "$t/old.orig" "$t/old.stripped" | head -n 4)"
[ "$(cut -f 8 "$t/old.tsv" | tr '\n' ' ')" = "level booted - module-cycled built built " ] &&
	ok "... each level from its verdict and evidence, the appended row's too" ||
	not_ok "... each level from its verdict and evidence, the appended row's too" "$(cut -f 8 "$t/old.tsv" | tr '\n' ' ')"
[ -z "$(ls "$t" | grep "^old.tsv.tmp")" ] && ok "... no FILE.tmp left behind" || not_ok "... no FILE.tmp left behind" "left"
expect "the migrated journal is read" 0 "$bin" levels "$t/old.tsv"
[ "$(wc -l <"$t/out")" -eq 5 ] && ok "... with all 5 rows" || not_ok "... with all 5 rows" "$(cat "$t/out")"
cp "$t/old.tsv" "$t/mig.orig"
expect "appending again" 0 "$bin" append "$t/old.tsv" u
[ "$(head -n 6 "$t/old.tsv")" = "$(cat "$t/mig.orig")" ] && ! grep -q "added the level" "$t/out" &&
	ok "... does not migrate a journal twice" || not_ok "... does not migrate a journal twice" "$(cat "$t/out")"


# Migration writes by a new name and rename: a symlinked journal stays a
# link (its target is migrated), and a PATH.tmp that is already there (a
# symlink to someone's file) is neither followed nor removed.
mkdir "$t/real"
cp "$t/old.orig" "$t/real/j.tsv"
chmod 600 "$t/real/j.tsv"
ln -s real/j.tsv "$t/link.tsv"
expect "appending through a symlinked old journal migrates it" 0 "$bin" append "$t/link.tsv" v
[ -L "$t/link.tsv" ] && [ "$(readlink "$t/link.tsv")" = real/j.tsv ] &&
	ok "... the link stays a link" || not_ok "... the link stays a link" "$(ls -l "$t/link.tsv")"
[ "$(head -n 1 "$t/real/j.tsv")" = "$hdr" ] && [ "$(wc -l <"$t/real/j.tsv")" -eq 6 ] &&
	ok "... its target is migrated, the row appended" ||
	not_ok "... its target is migrated, the row appended" "$(head -n 2 "$t/real/j.tsv")"
[ "$(stat -c %a "$t/real/j.tsv")" = 600 ] && ok "... keeping its mode" ||
	not_ok "... keeping its mode" "$(stat -c %a "$t/real/j.tsv")"
[ -z "$(ls "$t" "$t/real" | grep '\.tmp')" ] && ok "... no temporary file left" ||
	not_ok "... no temporary file left" "$(ls "$t" "$t/real" | grep '\.tmp')"
echo "someone's file" >"$t/victim"
cp "$t/old.orig" "$t/old2.tsv"
ln -s victim "$t/old2.tsv.tmp"
expect "migrating with a symlink at FILE.tmp" 0 "$bin" append "$t/old2.tsv" v
[ "$(cat "$t/victim")" = "someone's file" ] && ok "... does not write through it" ||
	not_ok "... does not write through it" "$(head -c 100 "$t/victim")"
[ -L "$t/old2.tsv.tmp" ] && [ ! -L "$t/old2.tsv" ] && [ "$(head -n 1 "$t/old2.tsv")" = "$hdr" ] &&
	ok "... leaves it in place and migrates the journal" ||
	not_ok "... leaves it in place and migrates the journal" "$(ls -l "$t/old2.tsv" "$t/old2.tsv.tmp")"

# A torn last row through migration: cut off, the complete rows kept.
{ cat "$t/old.orig"; printf 'T\tq\tkernel/a.c\t3\tb\taccepted\tbuilt=kernel/a.o,vm'; } >"$t/oldt.tsv"
expect "an old journal with a torn last row is read" 0 "$bin" levels "$t/oldt.tsv"
[ "$(grep -c " c k " "$t/out")" -eq 4 ] && ok "... without the torn row" || not_ok "... without the torn row" "$(cat "$t/out")"
expect "appending to an old journal with a torn last row" 0 "$bin" append "$t/oldt.tsv" v
expect_out "... cuts the torn row off" "cutting off a torn last row"
head -n 5 "$t/oldt.tsv" | strip /dev/stdin | cmp -s - "$t/old.stripped" &&
	[ "$(wc -l <"$t/oldt.tsv")" -eq 6 ] && [ "$(tail -n 1 "$t/oldt.tsv" | cut -f 2,8)" = "v${tab}built" ] &&
	! grep -q "$(printf '\tq\t')" "$t/oldt.tsv" &&
	ok "... migrates the complete rows, drops the torn one, appends after them" ||
	not_ok "... migrates the complete rows, drops the torn one, appends after them" "$(cat "$t/oldt.tsv")"

# An old journal with a bad row is refused before anything is changed.
{ cat "$t/old.orig"; orow x kernel/a.c maybe; } >"$t/oldb.tsv"
cp "$t/oldb.tsv" "$t/oldb.orig"
expect "an old journal with a bad row is refused for appending" 65 "$bin" append "$t/oldb.tsv" z
cmp -s "$t/oldb.tsv" "$t/oldb.orig" && ok "... and not migrated" || not_ok "... and not migrated" "changed"
{ echo "$ohdr"; } >"$t/oldh.tsv"
expect "an old journal with only its header" 0 "$bin" append "$t/oldh.tsv" z
[ "$(head -n 1 "$t/oldh.tsv")" = "$hdr" ] && [ "$(wc -l <"$t/oldh.tsv")" -eq 2 ] &&
	ok "... gets the new header and the row" || not_ok "... gets the new header and the row" "$(cat "$t/oldh.tsv")"

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

# ---- candidates.tsv (lib/cand): the key (file, line, name), repeated keys
# read once, columns by name, its vocabulary, bad rows named FILE:LINE ----
# has DESC LINE: the last command's output has exactly LINE.
has() {
	if grep -qxF -- "$2" "$t/out"; then ok "$1"; else
		not_ok "$1" "no '$2' in: $(head -c 300 "$t/out")"; fi
}

chdr='file\tline\tname\tstorage\tclass\tconfidence\treason\tevidence\tannotation\tvalue\n'
# The #ifdef variants of x in a.c (lines 3 and 9), a namesake x in b.c,
# a repeated key (a.c 3 x again), a const row.
printf "$chdr"'a.c\t3\tx\tstatic\tro_after_init\thigh\tw\t-\tro_after_init\tbound\na.c\t9\tx\tstatic\tro_after_init\tmedium\tw\t-\tro_after_init\t-\nb.c\t3\tx\tstatic\tinitdata\t-\tconst and read only by __init code: __initconst\t-\t-\tsetting\na.c\t3\tx\tstatic\tconst\t-\tagain\t-\t-\tsetting\nc.c\t1\ty\tglobal\tconst\t-\tnever written\t-\t-\tparam\n' >"$t/c.tsv"

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
	printf "$chdr"'a.c\t3\tx\tstatic\tro_after_init\thigh\tw\t-\tro_after_init\tbound\n%s\n' "$1" >"$t/bad.tsv"
	expect "$2: exit 65" 65 "$bin" cands "$t/bad.tsv" "${4:-all}" "${5:-strict}"
	if grep -q -- "bad.tsv:3: $3" "$t/out"; then ok "... naming bad.tsv:3"; else
		not_ok "... naming bad.tsv:3" "$(head -c 300 "$t/out")"; fi
}
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
printf "$chdr"'a.c\t3\tx\tstatic\tro_after_init\thigh\tw\t-\tro_after_init\tbound\na.c\t0\t-\t\tconst\t\t\t\t\t\n' >"$t/len.tsv"
expect "lenient: a row not kept is not checked beyond its class" 0 "$bin" cands "$t/len.tsv" ro_after_init lenient
expect "strict: the same row is refused" 65 "$bin" cands "$t/len.tsv" ro_after_init strict
has "... naming len.tsv:3" "$(grep -m1 'len.tsv:3:' "$t/out")"

printf 'file\tline\tname\na.c\t3\tx\n' >"$t/noclass.tsv"
expect "a file without the class column is refused" 65 "$bin" cands "$t/noclass.tsv" all strict
if grep -q "noclass.tsv:1: no column 'class'" "$t/out"; then ok "... naming FILE:1 and the column"; else
	not_ok "... naming FILE:1 and the column" "$(cat "$t/out")"; fi
expect "a missing file is refused" 65 "$bin" cands "$t/none.tsv" all strict
# ---- not-built kinds: validate writes "not-built: KIND: text" -----------
# notbuilt REASON WANT (REASON is the evidence after "not-built: ")
notbuilt() {
	got=$("$bin" notbuilt "$1")
	[ "$got" = "$2" ] && ok "not-built '$1' is of kind '$2'" ||
		not_ok "not-built '$1' is of kind '$2'" "got '$got'"
}
notbuilt 'other-arch: arm64 (arch/arm64/a.c is under arch/arm64)' other-arch
notbuilt 'unmet: CONFIG_X did not stick: a/Kconfig:3: depends on PCI' unmet
notbuilt 'not-c: not a .c file, no object to check' 'not a .c file'
notbuilt 'buildable: not compiled, although the cover plan has it buildable (in the base .config)' 'not compiled, although buildable'
notbuilt 'not-in-profile: mm/a.o is not compiled in profile fast' 'not compiled in the profile'
notbuilt 'compiled-out: no symbol x in mm/a.o (compiled out)' 'compiled out'
notbuilt 'discarded: x not linked into vmlinux (discarded)' discarded
# the kind is the token, not the prose: no phrase to match
notbuilt 'discarded: x was dropped by the linker' discarded
notbuilt 'compiled-out: the object has no x' 'compiled out'
notbuilt 'not-in-profile: not in this build' 'not compiled in the profile'
# journals written before the kinds keep their groups
notbuilt 'mm/a.o is not compiled in profile wide' 'not compiled in the profile'
notbuilt 'no kbuild rule in drivers/z names q.o' 'no kbuild rule'
notbuilt 'not a .c file, no object to check' 'not a .c file'
notbuilt 'no symbol x in mm/a.o (compiled out)' 'compiled out'
notbuilt 'something else: entirely' other
notbuilt 'bogus-kind: text' other

# ---- lib/notkernel.tsv for the scripts (lib/notkernel.sh) ---------------
. "$top/lib/notkernel.sh"
got=$(notkernel_excludes "$top/lib/notkernel.tsv" none)
[ "$got" = ':(exclude)tools :(exclude)scripts :(exclude)Documentation' ] &&
	ok "notkernel none: tools, scripts, Documentation" ||
	not_ok "notkernel none: tools, scripts, Documentation" "got '$got'"
got=$(notkernel_excludes "$top/lib/notkernel.tsv" facts)
[ "$got" = ':(exclude)tools :(exclude)scripts :(exclude)Documentation :(exclude)samples' ] &&
	ok "notkernel facts: samples/ too, for the whole-tree scans" ||
	not_ok "notkernel facts: samples/ too, for the whole-tree scans" "got '$got'"
# nk_refused ROW MESSAGE DESC: a lib/notkernel.tsv with ROW is refused, 65,
# with MESSAGE after FILE:LINE
nk_refused() {
	printf 'path\tscans\twhy\n%s\n' "$1" >"$t/nk.tsv"
	(notkernel_excludes "$t/nk.tsv" none) >/dev/null 2>"$t/nk.err"
	rc=$?
	[ $rc -eq 65 ] && grep -q "nk.tsv:2: $2" "$t/nk.err" &&
		ok "notkernel: $3 is refused, 65, FILE:LINE" ||
		not_ok "notkernel: $3 is refused, 65, FILE:LINE" \
			"rc=$rc $(cat "$t/nk.err")"
}
nk_refused "to ols/${tab}none${tab}x" path 'a path with a blank'
nk_refused "tools/${tab}some${tab}x" scans 'an unknown scans value'

# ---- lib/args.sh: help_maybe ------------------------------------------
# A script that sources args.sh and calls help_maybe "$0" "$@" prints
# its header comment for -h or --help as its first argument and stops;
# anything else runs on.
{
	printf '#!/bin/sh\n# SPDX-License-Identifier: GPL-2.0\n#\n# hm.sh - a test script.\n#\n# Usage: hm.sh [ARG]\n\n'
	printf 'prog_name=hm\n. "%s/lib/args.sh"\nhelp_maybe "$0" "$@"\necho ran "$@"\n' "$top"
} >"$t/hm.sh"
printf 'hm.sh - a test script.\n\nUsage: hm.sh [ARG]\n' >"$t/hm.want"
for o in --help -h; do
	expect "help_maybe: $o prints the header comment, exit 0" 0 sh "$t/hm.sh" $o
	cmp -s "$t/out" "$t/hm.want" &&
		ok "help_maybe: $o prints only the header comment" ||
		not_ok "help_maybe: $o prints only the header comment" "$(cat "$t/out")"
done
expect "help_maybe: no argument runs on" 0 sh "$t/hm.sh"
expect_out "help_maybe: no argument runs on, the script goes on" "^ran$"
expect "help_maybe: --help as a later argument runs on" 0 sh "$t/hm.sh" x --help
expect_out "help_maybe: --help as a later argument is the script's" "^ran x --help$"

# ---- the C tokenizer (lib/ctok) ----------------------------------------
# A backslash-newline inside a string literal is a line too: the tokens
# after it keep their lines, and the literal is one token with its text.
cat >"$t/cont.c" <<'CEOF'
#define M "a \
b" c
x = '\'';
/* 1
2 */ y "p q"
CEOF
expect "tokens: a file is tokenized" 0 "$bin" tokens "$t/cont.c"
grep -q '^2 i c$' "$t/out" && grep -q '^3 i x$' "$t/out" &&
	ok "tokens: a backslash-newline in a string literal counts a line" ||
	not_ok "tokens: a backslash-newline in a string literal counts a line" \
		"$(cat "$t/out")"
grep -q '^5 s "p q"$' "$t/out" && grep -q '^3 o $' "$t/out" &&
	ok "tokens: a string literal keeps its text, a char literal none" ||
	not_ok "tokens: a string literal keeps its text, a char literal none" \
		"$(cat "$t/out")"

# tok_close(): the bracket that closes each one, nested ones counted, a
# brace in a string literal or a comment not; one that no bracket closes
# before END gets END.  tok_directive(): a '#' that starts its line, not
# one inside a line.
printf '#define A(x) (x[1])\nint f(int a) { if (a) { return "}" [0]; } /* { */ }\n  # pragma x\ny = (1 + (2);\nz = #a;\n' >"$t/br.c"
expect "brackets: a file is tokenized" 0 "$bin" brackets "$t/br.c"
[ "$(tr '\n' '|' <"$t/out")" = "0 #|3 ( 5|6 ( 11|8 [ 10|14 ( 17|18 { 31|20 ( 22|23 { 30|26 [ 28|32 #|37 ( 49|40 ( 42|" ] &&
	ok "tok_close: each bracket's match, nested, literals and comments left out; unmatched: END; tok_directive: a '#' first on its line" ||
	not_ok "tok_close: each bracket's match, nested, literals and comments left out; unmatched: END; tok_directive: a '#' first on its line" \
		"$(tr '\n' '|' <"$t/out")"
expect "brackets: END 10" 0 "$bin" brackets "$t/br.c" 10
[ "$(sed -n 2,4p "$t/out" | tr '\n' '|')" = "3 ( 5|6 ( 10|8 [ 10|" ] &&
	ok "tok_close: a bracket closed only at or after END gets END" ||
	not_ok "tok_close: a bracket closed only at or after END gets END" \
		"$(tr '\n' '|' <"$t/out")"

# tok_continuations(): a directive goes on after a line that ends with
# '\' (or '\' CR LF) and across a newline inside a comment; a '/' or '*'
# in a literal starts no comment.
printf '#define A 1 \\\n  + 2 /* a\n  b */ + 3\n#define B 2 \\\r\nint c; // end \\\nint d = %s; int e = %s;\nchar *s = "/*"; int f;\nint g;\n' \
	"'/'" "'*'" >"$t/ct.c"
expect "conts: a file is read" 0 "$bin" conts "$t/ct.c"
[ "$(tr '\n' ' ' <"$t/out")" = "1 2 4 5 " ] &&
	ok "tok_continuations: '\\', '\\' CR LF and a comment's newline go on; literals open no comment" ||
	not_ok "tok_continuations: '\\', '\\' CR LF and a comment's newline go on; literals open no comment" \
		"lines $(tr '\n' ' ' <"$t/out")"

finish
