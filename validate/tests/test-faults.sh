#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-faults.sh - validate/validate on bad input, as a careless or
# hostile user would give it (issue 15, defects 2, 3, 5, 8 and 9).  Every
# refusal must come before anything is built: the tools are stubs that
# log each call, in a small git tree that is not a kernel.  Seconds.

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
WORK=${WORK:-$HOME/.cache/ro-campaign}
st=$WORK/test-validate-faults
bin=$here/validate
. "$top/lib/tap.sh"

[ -x "$bin" ] || make -C "$top" -s validate/validate ||
	{ not_ok "build validate/validate" "make failed"; finish; }
rm -rf "$st"
mkdir -p "$st/tools/qemu-boot" "$st/tools/cocci" "$st/work"

# Stubs: build-kernel.sh --config-only makes a build directory with a
# .config; a real build or an annotation is logged and fails.
calls=$st/calls
cat > "$st/tools/qemu-boot/build-kernel.sh" <<'STUB'
#!/bin/sh
echo "build-kernel.sh $*" >> "$STUB_CALLS"
if [ "$1" = --config-only ]; then
	mkdir -p "$4/build-stub" && echo CONFIG_STUB=y > "$4/build-stub/.config"
	echo "$4/build-stub"
	exit 0
fi
exit 3
STUB
cat > "$st/tools/cocci/annotate.sh" <<'STUB'
#!/bin/sh
echo "annotate.sh $*" >> "$STUB_CALLS"
exit 2
STUB
STUB_CALLS=$calls
export STUB_CALLS

tree=$st/tree
git init -q "$tree" || { not_ok "git init" "failed"; finish; }
printf '// SPDX-License-Identifier: GPL-2.0\nstatic int foo;\nint bar __read_mostly = 1;\n' \
	> "$tree/a.c"
printf 'one\n' > "$tree/notes.txt"
git -C "$tree" add a.c notes.txt &&
	git -C "$tree" -c user.name=t -c user.email=t@example.org \
		commit -q -m base && git -C "$tree" tag core ||
	{ not_ok "commit the fake tree" "git failed"; finish; }

hdr='file\tline\tname\tstorage\tclass\tconfidence\treason\tevidence\n'
good=$st/good.tsv
printf "$hdr"'a.c\t2\tfoo\tstatic\tro_after_init\thigh\tinit-only\t-\n' > "$good"

# v NAME ARGS...: run validate on the fake tree, output in $st/NAME.out,
# exit status in $rc
v() {
	out=$st/$1.out
	shift
	"$bin" --tree "$tree" --work "$st/work" --tools "$st/tools" "$@" \
		> "$out" 2>&1
	rc=$?
}
nothing_built() {	# no build and no annotation was started
	! grep -qv -- '--config-only' "$calls" 2>/dev/null
}
# refused NAME RC PATTERN: exit RC, PATTERN in the output, nothing built
refused() {
	why="exit $rc, want $2; output: $(head -c 600 "$st/$1.out" | tr '\n' '|')"
	[ "$rc" -eq "$2" ] && grep -q -- "$3" "$st/$1.out" && nothing_built
}

# --- #5: numbers on the command line ----------------------------------------
for o in batch timeout retest max; do
	v "num-$o-huge" --candidates "$good" --journal "$st/j/journal.tsv" \
		--$o 4294967296
	check "--$o 4294967296: exit 64 with a message" \
		refused "num-$o-huge" 64 "--$o: '4294967296' is not a number"
	v "num-$o-junk" --candidates "$good" --journal "$st/j/journal.tsv" \
		--$o 12x
	check "--$o 12x: exit 64 with a message" \
		refused "num-$o-junk" 64 "--$o: '12x' is not a number"
done
v num-neg --candidates "$good" --journal "$st/j/journal.tsv" --batch -1
check "--batch -1: exit 64" refused num-neg 64 "--batch"
"$bin" --help > "$st/help.out" 2>&1
check "--help states the exit codes and --force" \
	sh -c "grep -q '^Exit: 0 all decided, ' '$st/help.out' && \
		tr '\\n' ' ' < '$st/help.out' | grep -q ' 64 usage, 65 bad input data' && \
		grep -q -- '--force' '$st/help.out'"

# --- #8: the candidates parser ----------------------------------------------
# A NUL byte in the last column: the old parser took the row and dropped
# every row after it without a word.
nul=$st/nul.tsv
{
	printf "$hdr"
	printf 'a.c\t2\tfoo\tstatic\tro_after_init\thigh\tinit-only\t-\000junk\n'
	printf 'a.c\t3\tbar\tglobal\tro_after_init\thigh\tinit-only\t-\n'
} > "$nul"
v nul --candidates "$nul" --journal "$st/j/journal.tsv"
check "a NUL byte in candidates.tsv: exit 65, FILE:LINE" \
	refused nul 65 "nul.tsv:2: NUL byte"
printf "$hdr"'a.c\t2\tfoo\tstatic\tro-after-init\thigh\tinit-only\t-\n' \
	> "$st/class.tsv"
v class --candidates "$st/class.tsv" --journal "$st/j/journal.tsv"
check "an unknown class: exit 65, FILE:LINE" \
	refused class 65 "class.tsv:2: column 'class': unknown value 'ro-after-init'"
printf "$hdr"'a.c\t2\tfoo\tstatic\tro_after_init\thigh\tinit-only\t-' \
	> "$st/torn.tsv"
v torn --candidates "$st/torn.tsv" --journal "$st/j/journal.tsv"
check "a torn last candidates row: exit 65, FILE:LINE" \
	refused torn 65 "torn.tsv:2: torn row"
# initdata rows are conversions too: checked against the tree like the
# ro_after_init ones (a.c:3 is bar's line, not foo's), unless --classes
# leaves them out.
idr='read and written only by __init code (1 writes): __initdata, freed with the init sections'
printf "$hdr"'a.c\t3\tfoo\tstatic\tinitdata\t-\t%s\t-\n' "$idr" > "$st/initdata.tsv"
v initdata --candidates "$st/initdata.tsv" --journal "$st/j/journal.tsv"
check "an initdata row is a conversion: checked against the tree (exit 65, FILE:LINE)" \
	refused initdata 65 "initdata.tsv:2: a.c:3: the line does not name 'foo'"
v initdata-ro --candidates "$st/initdata.tsv" --journal "$st/jr/journal.tsv" \
	--classes ro_after_init
why="exit $rc; $(head -c 300 "$st/initdata-ro.out" | tr '\n' '|')"
check "--classes ro_after_init leaves the initdata row alone: 0 conversions, exit 0" \
	sh -c "[ $rc -eq 0 ] && grep -q 'validate: 0 conversions' '$st/initdata-ro.out'"
v classes-bad --candidates "$st/initdata.tsv" --journal "$st/j/journal.tsv" \
	--classes ro_after_init,const
check "--classes with a class that is no conversion: exit 64" \
	refused classes-bad 64 "--classes takes ro_after_init and initdata"
printf 'file\tline\tname\tclass\treason\tannotation\na.c\t2\tfoo\tinitdata\t-\tro_after_init\n' \
	> "$st/annot.tsv"
v annot --candidates "$st/annot.tsv" --journal "$st/j/journal.tsv"
check "an initdata row whose annotation column says ro_after_init: exit 65, FILE:LINE" \
	refused annot 65 "annot.tsv:2: column 'annotation'"
printf 'file\tline\tname\tclass\treason\tannotation\na.c\t2\tfoo\tinitdata\t-\tinitfoo\n' \
	> "$st/annot2.tsv"
v annot2 --candidates "$st/annot2.tsv" --journal "$st/j/journal.tsv"
check "an unknown annotation: exit 65, FILE:LINE" \
	refused annot2 65 "annot2.tsv:2: column 'annotation': unknown value 'initfoo'"
jv=$st/jv/journal.tsv
mkdir -p "$st/jv"
{
	printf 'time\tvariable\tfile\tline\tbatch\tverdict\tevidence\tconfig_hash\tcore_hash\n'
	printf '2026-01-01T00:00:00Z\tfoo\ta.c\t2\t1.1\tmaybe\t-\t0123456789ab\t0123456789ab\n'
} > "$jv"
cp "$jv" "$st/jv.orig"
v verdict --candidates "$good" --journal "$jv"
check "a journal row with an unknown verdict: exit 65, FILE:LINE, journal unchanged" \
	sh -c "[ $rc -eq 65 ] && grep -q 'journal.tsv:2: column .verdict.: unknown value .maybe.' '$st/verdict.out' && \
		cmp -s '$jv' '$st/jv.orig'"
check "... and nothing built" nothing_built
# --- #3: --journal at a file that is not a journal --------------------------
printf '# My notes\n\nline two\nno newline at the end' > "$st/README"
cp "$st/README" "$st/README.orig"
v readme --candidates "$good" --journal "$st/README"
check "--journal README: exit 65, the file unchanged" \
	sh -c "[ $rc -eq 65 ] && grep -q 'README:1: not a validation journal' '$st/readme.out' && \
		cmp -s '$st/README' '$st/README.orig'"
printf 'just one line' > "$st/one"
cp "$st/one" "$st/one.orig"
v one --candidates "$good" --journal "$st/one"
check "--journal at a one-line file without a newline: exit 65, the file unchanged" \
	sh -c "[ $rc -eq 65 ] && cmp -s '$st/one' '$st/one.orig'"
check "... and nothing built" nothing_built

# --- #9: the candidates against the tree ------------------------------------
bad=$st/bad.tsv
{
	printf "$hdr"
	printf 'a.c\t2\tfoo\tstatic\tro_after_init\thigh\tinit-only\t-\n'
	printf 'no/such.c\t1\tfoo\tstatic\tro_after_init\thigh\tinit-only\t-\n'
	printf 'a.c\t99\tfoo\tstatic\tro_after_init\thigh\tinit-only\t-\n'
	printf 'a.c\t3\tfoo\tstatic\tro_after_init\thigh\tinit-only\t-\n'
	printf 'a.c\t2\tfo\tstatic\tro_after_init\thigh\tinit-only\t-\n'
	printf 'a.c\t3\tbar\tglobal\tconst\thigh\t-\t-\n'
} > "$bad"
v tree-rows --candidates "$bad" --journal "$st/j/journal.tsv"
check "rows that do not match the tree: exit 65 before any build" \
	refused tree-rows 65 "bad.tsv: 4 bad rows"
check "... a missing file, FILE:LINE" grep -q "bad.tsv:3: no/such.c: no such file" "$st/tree-rows.out"
check "... a line past the end" grep -q "bad.tsv:4: a.c:99: past the end of the file (3 lines)" "$st/tree-rows.out"
check "... a line that does not name the variable" grep -q "bad.tsv:5: a.c:3: the line does not name 'foo'" "$st/tree-rows.out"
check "... a name that is a part of a word on the line" grep -q "bad.tsv:6: a.c:2: the line does not name 'fo'" "$st/tree-rows.out"
{
	printf "$hdr"
	printf '../a.c\t1\tfoo\tstatic\tro_after_init\thigh\tinit-only\t-\n'
	printf '/etc/passwd\t1\troot\tstatic\tro_after_init\thigh\tinit-only\t-\n'
	printf 'a.c\t2\tfoo-1\tstatic\tro_after_init\thigh\tinit-only\t-\n'
	printf 'a.c\t0\tfoo\tstatic\tro_after_init\thigh\tinit-only\t-\n'
} > "$st/names.tsv"
v names --candidates "$st/names.tsv" --journal "$st/j/journal.tsv"
check "'..', an absolute path, a name that is no identifier, line 0: exit 65, each named" \
	sh -c "[ $rc -eq 65 ] && [ \$(grep -c 'names.tsv:[2-5]: ' '$st/names.out') -eq 4 ]"
check "... and nothing built" nothing_built

# --- #2: a tree with changes validate did not make --------------------------
printf 'my edit\n' >> "$tree/notes.txt"
printf 'new\n' > "$tree/untracked.c"
cp "$tree/notes.txt" "$st/notes.orig"
v dirty --candidates "$good" --journal "$st/j/journal.tsv"
check "an uncommitted edit and an untracked file: exit 65, both named" \
	sh -c "[ $rc -eq 65 ] && grep -q ' M notes.txt' '$st/dirty.out' && \
		grep -q '?? untracked.c' '$st/dirty.out' && grep -q -- '--force' '$st/dirty.out'"
check "... both left as they were" \
	sh -c "cmp -s '$tree/notes.txt' '$st/notes.orig' && [ -f '$tree/untracked.c' ]"
check "... and nothing built" nothing_built

# With --force the changes go (the stub build then fails: exit 70).
v force --candidates "$good" --journal "$st/j/journal.tsv" --force
check "--force: the reset discards them" \
	sh -c "[ -z \"\$(git -C '$tree' status --porcelain)\" ]"

# validate's own changes (here --extra-patch, as annotations would be) are
# in the marker: a rerun after a killed run resets them without --force.
cat > "$st/extra.patch" <<'PATCH'
--- a/notes.txt
+++ b/notes.txt
@@ -1 +1,2 @@
 one
+two
PATCH
: > "$calls"
v extra1 --candidates "$good" --journal "$st/j/journal.tsv" \
	--extra-patch "$st/extra.patch"
check "a run that stops mid-way leaves its own change (the stub build fails: exit 70)" \
	sh -c "[ $rc -eq 70 ] && grep -q '^two' '$tree/notes.txt'"
v extra2 --candidates "$good" --journal "$st/j/journal.tsv" \
	--extra-patch "$st/extra.patch"
check "the rerun takes it as its own: no refusal (exit 70 from the stub build again)" \
	sh -c "[ $rc -eq 70 ] && ! grep -q 'did not make' '$st/extra2.out'"
printf 'user edit\n' >> "$tree/notes.txt"
cp "$tree/notes.txt" "$st/notes.orig"
v extra3 --candidates "$good" --journal "$st/j/journal.tsv" \
	--extra-patch "$st/extra.patch"
check "a user's edit of a file validate had changed: exit 65, file intact" \
	sh -c "[ $rc -eq 65 ] && grep -q ' M notes.txt' '$st/extra3.out' && \
		cmp -s '$tree/notes.txt' '$st/notes.orig'"
finish
