#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The value column of candidates.tsv (FORMATS.md): real spatch
# (cocci/run-facts.sh, with its uses.tsv and cocci/layouts --values'
# valtypes.tsv) over candidates/tests/value/, then candidates; every row
# of value/expect.tsv (file name value label) is asserted, and so are the
# header, the optional tables and a malformed uses.tsv.
set -u
cd "$(dirname "$0")/../.."
BIN=candidates/candidates
FIX=candidates/tests/value
T=$(mktemp -d "${TMPDIR:-/tmp}/cand-value.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
. lib/tap.sh

[ -x "$BIN" ] || { not_ok "candidates is built" "run make programs"; finish; exit 1; }
mkdir -p "$T/tree" && cp -R "$FIX"/. "$T/tree"/ && rm -f "$T/tree/expect.tsv" &&
	git -C "$T/tree" init -q && git -C "$T/tree" add . &&
	git -C "$T/tree" -c user.name=t -c user.email=t@t commit -qm fixtures &&
	sh cocci/run-facts.sh "$T/tree" "$T/facts" > "$T/log" 2>&1
rc=$?
check "run-facts on the value fixtures (rc=$rc)" [ $rc -eq 0 ]
check "run-facts writes uses.tsv with its header" \
	sh -c "head -n 1 '$T/facts/uses.tsv' | grep -qx 'file	line	var	func	use'"
check "run-facts writes valtypes.tsv with its header" \
	sh -c "head -n 1 '$T/facts/valtypes.tsv' | grep -qx 'type	kind	field	file	line'"

vt() { grep -qxF "$(printf "$1")" "$T/facts/valtypes.tsv"; }
check "valtypes: a typedef of a function pointer type is fntype" \
	vt 'vf_cb_t\tfntype\t-\t-\t-'
check "valtypes: a struct of function pointers but one is an ops table" \
	vt 'struct vf_ops\tops\t-\tvf.h\t13'
check "valtypes: a function pointer two levels down has its member path" \
	vt 'struct vf_holder\tfn\tin.done\tvf.h\t20'
check "valtypes: a pointer to an object by value" \
	vt 'struct vf_link\tobject-pointer\tcache\tvf.h\t31'

"$BIN" --facts "$T/facts" --out "$T/out.tsv" -q 2> "$T/err"
check "candidates runs on the value fixtures" [ $? -eq 0 ]
check "the header keeps its columns and appends value" \
	sh -c "head -n 1 '$T/out.tsv' | grep -qx 'file	line	name	storage	class	confidence	reason	evidence	annotation	value'"

# value FILE NAME: the value column of that row, taken by name
value() {
	awk -F '\t' -v f="$1" -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++)
		c[$i] = i; next } $c["file"] == f && $c["name"] == n {
		print $c["value"] }' "$3"
}
tail -n +2 "$FIX/expect.tsv" > "$T/expect"
while IFS='	' read -r file name want label; do
	got=$(value "$file" "$name" "$T/out.tsv")
	if [ "$got" = "$want" ]; then
		ok "$label: $name is $want"
	else
		not_ok "$label: $name is $want" "got '$got': $("$BIN" --facts \
			"$T/facts" --explain "$name" -q 2>&1 | grep value)"
	fi
done < "$T/expect"
check "every value fixture variable is labelled" \
	sh -c "[ \$(tail -n +2 '$T/out.tsv' | wc -l) -eq \$(wc -l < '$T/expect') ]"
bad=$(awk -F '\t' 'NR > 1 && $10 !~ /^(fn-pointer|object-pointer|bound|policy|param|setting)$/' "$T/out.tsv")
check "every value is one of the six" [ -z "$bad" ]

# --explain says why
"$BIN" --facts "$T/facts" --explain vf_hold -q > "$T/explain" 2>&1
check "--explain names the member path of a nested function pointer" \
	grep -q 'value fn-pointer: struct vf_holder holds the function pointer in.done' "$T/explain"

# both tables are optional: without them the declared type still counts
mkdir -p "$T/bare" && cp "$T/facts"/*.tsv "$T/bare"/ &&
	rm -f "$T/bare/uses.tsv" "$T/bare/valtypes.tsv"
"$BIN" --facts "$T/bare" --out "$T/bare.tsv" -q 2> "$T/bare.err"
check "without uses.tsv and valtypes.tsv candidates still runs" [ $? -eq 0 ]
check "... a declared array of function pointers is still fn-pointer" \
	[ "$(value value.c vf_handlers "$T/bare.tsv")" = fn-pointer ]
check "... a kmem_cache pointer is still object-pointer" \
	[ "$(value value.c vf_cache "$T/bare.tsv")" = object-pointer ]
check "... and a shift without its uses is a setting" \
	[ "$(value value.c vf_hash_shift "$T/bare.tsv")" = setting ]

# a malformed uses.tsv: exit 65, FILE:LINE
cp "$T/facts/valtypes.tsv" "$T/bare"/
printf 'file\tline\tvar\tfunc\tuse\nvalue.c\t3\tvf_hook\t-\tjump\n' > "$T/bare/uses.tsv"
"$BIN" --facts "$T/bare" --out "$T/bad.tsv" -q 2> "$T/bad.err"
rc=$?
check "an unknown use kind: exit 65 naming uses.tsv:2 (rc=$rc)" \
	sh -c "[ $rc -eq 65 ] && grep -q 'uses.tsv:2' '$T/bad.err'"

# bench-value.sh: the distribution of the proposals, and a hand check
printf 'file\tname\tvalue\treason\nvalue.c\tvf_cache\tobject-pointer\tright\nvalue.c\tvf_mode\tpolicy\twrong on purpose\n' \
	> "$T/labels.tsv"
sh candidates/bench-value.sh --scope fixtures --labels "$T/labels.tsv" \
	"$T/w" "$T/out.tsv" > "$T/bv.out" 2>&1
rc=$?
res=$T/w/bench/results.tsv
metric() { awk -F '\t' -v m="$1" '$2 == m { v = $3 } END { print v }' "$res"; }
check "bench-value: exit 0 (rc=$rc)" [ $rc -eq 0 ]
check "bench-value: value rows add up to the proposals" \
	[ "$(metric value_rows)" = "$(awk -F '\t' '$5 == "ro_after_init" || $5 == "initdata"' "$T/out.tsv" | wc -l | tr -d ' ')" ]
check "bench-value: value:fn-pointer counts the fn-pointer proposals ($(metric value:fn-pointer))" \
	[ "$(metric value:fn-pointer)" = 5 ]
check "bench-value: a hand check of 2 rows, 1 right: 50.0%" \
	sh -c "[ '$(metric value_checked)' = 2 ] && [ '$(metric value_right_pct)' = 50.0 ]"
check "bench-value: the wrong row is in value-mismatches.tsv" \
	grep -qx 'value.c	vf_mode	policy	setting' "$T/w/bench/value-mismatches.tsv"
finish
