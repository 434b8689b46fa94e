#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Fault tests of candidates (issue 15).
#
# #6: a read error is not the end of a fact file.  The old reader took
# getline()'s failure for the end of the file: under "ulimit -v" a line
# too long to hold in memory silently dropped the rest of writes.tsv, the
# runtime write after it was never seen, and the variable came out as
# ro_after_init with exit 0.  Now the run fails (70, out of memory, or
# 65) naming FILE:LINE, and an existing output file is left as it was.
#
# Exit codes: the bench scripts exit 64 on usage errors (candidates.mk
# tells 64 from "below the target"); the old ones exited 2 for both usage
# and run errors.  BIN= and CAND= (the folder of the bench scripts) run
# the tests on the old code.
set -u
cd "$(dirname "$0")/../.."
BIN=${BIN:-candidates/candidates}
CAND=${CAND:-candidates}
T=$(mktemp -d "${TMPDIR:-/tmp}/cand-faults.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
. lib/tap.sh

# x is written in foo_init (init-only), then in foo_runtime (runtime):
# rejected.  Between the two writes stands a row with an 80 MB field.
mkdir -p "$T/f"
printf 'file\tline\tname\tstorage\ttype\tarray\tattrs\tinit\na.c\t1\tx\tstatic\tint\t0\t-\t0\n' > "$T/f/defs.tsv"
{
	printf 'file\tline\tvar\tfunc\tform\na.c\t5\tx\tfoo_init\tassign\na.c\t6\tx\t'
	head -c 80000000 /dev/zero | tr '\0' f
	printf '\tassign\na.c\t7\tx\tfoo_runtime\tassign\n'
} > "$T/f/writes.tsv"
printf 'file\tline\tname\tstorage\tsection\na.c\t4\tfoo_init\tstatic\tinit\na.c\t9\tfoo_runtime\tglobal\t-\n' > "$T/f/funcs.tsv"
printf 'file\tline\tname\tfunc\n' > "$T/f/funcrefs.tsv"
printf 'file\tline\tcaller\tcallee\n' > "$T/f/calls.tsv"
printf 'file\tline\tvar\tkind\tperm\thandler\n' > "$T/f/params.tsv"
printf 'file\treason\n' > "$T/f/errors.tsv"

# With memory enough, the runtime write rejects x.
"$BIN" -q --facts "$T/f" --out "$T/full.tsv" 2> "$T/err"
rc=$?
if [ $rc -eq 0 ] && grep -q '	x	static	rejected	' "$T/full.tsv"; then
	ok "with memory enough, the write after the long row rejects x"
else
	not_ok "with memory enough, the write after the long row rejects x" \
		"rc=$rc: $(cat "$T/err")"
fi

# Under a 50 MB address-space limit the long row cannot be read.
echo "the previous output" > "$T/out.tsv"
(ulimit -v 50000 && exec "$BIN" -q --facts "$T/f" --out "$T/out.tsv") \
	2> "$T/err"
rc=$?
if { [ $rc -eq 70 ] || [ $rc -eq 65 ]; } &&
	grep -q 'writes\.tsv:3: ' "$T/err"; then
	ok "a read error in writes.tsv fails the run naming FILE:LINE (exit $rc)"
else
	not_ok "a read error in writes.tsv fails the run naming FILE:LINE" \
		"rc=$rc, out: $(cut -f3,5 "$T/out.tsv" | tr '\n' ' '), err: $(cat "$T/err")"
fi
if [ "$(cat "$T/out.tsv")" = "the previous output" ] &&
	[ -z "$(ls "$T" | grep 'out\.tsv\.')" ]; then
	ok "the failed run left the previous output file as it was"
else
	not_ok "the failed run left the previous output file as it was" \
		"$(ls "$T"): $(head -c 200 "$T/out.tsv")"
fi

# ---- usage errors of the bench scripts ---------------------------------------
for b in bench-loo bench-finder; do
	for args in "" "--bogus $T $T" "-j 0 $T $T" "-j x $T $T" "--target x $T $T"; do
		# shellcheck disable=SC2086 # the arguments, split
		sh "$CAND/$b.sh" $args >/dev/null 2>&1
		rc=$?
		what=${args%% "$T"*}
		[ -n "$what" ] || what="no arguments"
		[ $rc -eq 64 ] && ok "$b.sh $what: usage error exits 64" ||
			not_ok "$b.sh $what: usage error exits 64" "exit $rc"
	done
done

# Issue 34: a long section list is no init one.  section_kind() copied the
# list into a 256-byte buffer, so "init,init,...,exit" past 255 characters
# lost its "exit" and the runtime writer counted as init-only: x came out
# as ro_after_init.  Every token counts, however long the list.
mkdir -p "$T/s"
for t in defs writes funcrefs calls params errors; do
	head -n 1 "$T/f/$t.tsv" > "$T/s/$t.tsv"
done
printf 'a.c\t1\tx\tstatic\tint\t0\t-\t0\n' >> "$T/s/defs.tsv"
printf 'a.c\t5\tx\tfoo_long\tassign\n' >> "$T/s/writes.tsv"
secs=init
i=0
while [ $i -lt 60 ]; do secs="$secs,init"; i=$((i + 1)); done
printf 'file\tline\tname\tstorage\tsection\na.c\t4\tfoo_long\tstatic\t%s,exit\n' \
	"$secs" > "$T/s/funcs.tsv"
"$BIN" -q --facts "$T/s" --out "$T/long.tsv" 2> "$T/err"
rc=$?
if [ $rc -eq 0 ] && grep -q '	x	static	rejected	' "$T/long.tsv"; then
	ok "a section list of ${#secs} characters ending in exit is not init-only"
else
	not_ok "a section list of ${#secs} characters ending in exit is not init-only" \
		"rc=$rc: $(cut -f3,5,7 "$T/long.tsv" | tr '\n' ' ') $(cat "$T/err")"
fi

finish
