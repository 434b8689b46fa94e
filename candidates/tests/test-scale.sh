#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scale: whole-tree sized facts (generated: 30k files, 300k defs, 1.5M
# writes, 600k functions, 3M calls) must load, close and classify in
# seconds with modest memory.  The generated facts have a known answer:
# per file, v0 is written only from an __init chain (ro_after_init), v1
# from a function whose address is taken (rejected).
set -u
cd "$(dirname "$0")/../.."
BIN=candidates/candidates
T=$(mktemp -d "${TMPDIR:-/tmp}/cand-scale.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
. lib/tap.sh
FILES=${SCALE_FILES:-30000}
MAX_S=${SCALE_MAX_SECONDS:-10}
MAX_MB=${SCALE_MAX_MB:-1500}

mkdir -p "$T/f"
awk -v nf="$FILES" -v d="$T/f" 'BEGIN {
	D = d "/defs.tsv"; W = d "/writes.tsv"; F = d "/funcs.tsv"
	R = d "/funcrefs.tsv"; C = d "/calls.tsv"
	print "file\tline\tname\tstorage\ttype\tarray\tattrs\tinit" > D
	print "file\tline\tvar\tfunc\tform" > W
	print "file\tline\tname\tstorage\tsection" > F
	print "file\tline\tname\tfunc" > R
	print "file\tline\tcaller\tcallee" > C
	print "file\tline\tvar\tkind\tperm\thandler" > (d "/params.tsv")
	print "file\treason" > (d "/errors.tsv")
	for (i = 0; i < nf; i++) {
		f = "drivers/gen/f" i ".c"
		for (v = 0; v < 10; v++)
			print f "\t" v + 1 "\tv" v "\tstatic\tint\t0\t-\t0" > D
		print f "\t100\tinit_" i "\tglobal\tinit" > F
		for (k = 0; k < 19; k++)
			print f "\t" 101 + k "\th" k "\tstatic\t-" > F
		# the chain init_i -> h0 -> h1 -> ... -> h9
		print f "\t200\tinit_" i "\th0" > C
		for (k = 0; k < 9; k++)
			print f "\t" 201 + k "\th" k "\th" k + 1 > C
		# h10..h18 call each other and the common library
		for (k = 10; k < 19; k++)
			for (m = 0; m < 9; m++)
				print f "\t" 300 + m "\th" k "\tlib_" m > C
		print f "\t400\th15\t-" > R
		print f "\t500\tv0\th9\tassign" > W
		print f "\t501\tv1\th15\tassign" > W
		for (v = 2; v < 10; v++)
			for (m = 0; m < 6; m++)
				print f "\t" 510 + m "\tv" v "\th1" m "\tfield" > W
	}
}'
rows=$(cat "$T"/f/*.tsv | wc -l)
/usr/bin/time -f '%e %U %S %M' -o "$T/time" "$BIN" --facts "$T/f" \
	--out "$T/out.tsv" 2> "$T/err"
rc=$?
read -r wall usr sys kb < "$T/time"
secs=$(awk -v u="$usr" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
mb=$((kb / 1024))
[ $rc -eq 0 ] && ok "ran on $rows fact rows" || not_ok "ran on $rows fact rows" "$(cat "$T/err")"
awk -v s="$secs" -v m="$MAX_S" 'BEGIN { exit !(s <= m) }' &&
	ok "took $secs s CPU, $wall s wall (limit $MAX_S s CPU)" || not_ok "took $secs s CPU, $wall s wall (limit $MAX_S s CPU)" "too slow"
[ "$mb" -le "$MAX_MB" ] && ok "peak RSS $mb MB (limit $MAX_MB MB)" ||
	not_ok "peak RSS $mb MB (limit $MAX_MB MB)" "too much memory"
ro=$(awk -F '\t' '$3 == "v0" && $5 == "ro_after_init" && $6 == "high"' "$T/out.tsv" | wc -l)
rj=$(awk -F '\t' '$3 == "v1" && $5 == "rejected"' "$T/out.tsv" | wc -l)
[ "$ro" -eq "$FILES" ] && ok "every v0 (10-deep __init chain) is ro_after_init high" ||
	not_ok "every v0 (10-deep __init chain) is ro_after_init high" "$ro of $FILES"
[ "$rj" -eq "$FILES" ] && ok "every v1 (address-taken writer) is rejected" ||
	not_ok "every v1 (address-taken writer) is rejected" "$rj of $FILES"
echo "# $(cat "$T/err")"
finish
