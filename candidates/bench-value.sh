#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench-value.sh - the value column of a candidates.tsv, for the results.
#
# usage: candidates/bench-value.sh [--scope TEXT] [--labels FILE] WORK CANDIDATES
#
# Appends to WORK/bench/results.tsv (bench finder) the distribution of the
# value column over the proposals (classes ro_after_init and initdata):
# one row value:V per value, with its count, and value_rows, their sum;
# with --scope, a value_scope row saying what CANDIDATES covers.  With
# --labels FILE (file name value reason: the value a hand check found
# right for that row, candidates/tests/labelled/MAJOR.MINOR/values.tsv)
# also value_checked (the labelled rows found in CANDIDATES) and
# value_right_pct (how many of them have the labelled value), and the
# rows that differ in WORK/bench/value-mismatches.tsv. Exit 0, 64 usage,
# 65 a file without the columns, 70 when the results cannot be written.
# bench-finder.sh calls it on its own run.

set -u

usage() {
	sed -n '3,18s/^# \{0,1\}//p' "$0"
}

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
prog_name=bench-value
. "$repo/lib/args.sh"
. "$repo/lib/tsv.sh"
scope= labels=
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--scope) [ $# -ge 2 ] || die 64 "--scope needs a value"; scope=$2; shift 2 ;;
	--labels) [ $# -ge 2 ] || die 64 "--labels needs a value"; labels=$2; shift 2 ;;
	--) shift; break ;;
	-*) die 64 "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || { usage >&2; exit 64; }
work=$1 cand=$2
[ -f "$cand" ] || die 64 "CANDIDATES '$cand' is not a file"
[ -z "$labels" ] || [ -f "$labels" ] || die 64 "--labels '$labels' is not a file"
tsv_colnum "$cand" value >/dev/null
tsv_colnum "$cand" class >/dev/null
mkdir -p "$work/bench" || die 70 "cannot create $work/bench"
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
res=$work/bench/results.tsv
[ -s "$res" ] || printf 'bench\tmetric\tvalue\tunit\tdate\n' >"$res" ||
	die 70 "cannot write $res"
dist=$(tsv_awk "$cand" 'NR > 1 && ($c_class == "ro_after_init" ||
	$c_class == "initdata") { n[$c_value]++; t++ }
	END { split("fn-pointer object-pointer bound policy param setting", v, " ")
		for (i = 1; i <= 6; i++) print v[i] "\t" n[v[i]] + 0
		print "-total\t" t + 0 }')
{
	[ -z "$scope" ] || printf 'finder\tvalue_scope\t%s\t-\t%s\n' \
		"$(echo "$scope" | tr '\t' ' ')" "$date"
	echo "$dist" | awk -F '\t' -v d="$date" '$1 == "-total" {
		printf "finder\tvalue_rows\t%s\tvariables\t%s\n", $2, d; next }
		{ printf "finder\tvalue:%s\t%s\tvariables\t%s\n", $1, $2, d }'
} >>"$res" || die 70 "cannot write $res"
echo "bench-value: ${scope:-$cand}: $(echo "$dist" | awk -F '\t' '
	$1 == "-total" { t = $2; next } { s = s sep $1 " " $2; sep = ", " }
	END { print t " proposals: " s }')"
[ -n "$labels" ] || exit 0

# the hand check: each labelled row against the column
tsv_colnum "$labels" value >/dev/null
mis=$work/bench/value-mismatches.tsv
tsv_awk "$labels" 'NR > 1 { print $c_file "\t" $c_name "\t" $c_value }' |
	sort -u >"$mis.want"
tsv_awk "$cand" 'NR > 1 { print $c_file "\t" $c_name "\t" $c_value }' |
	sort -u >"$mis.got"
awk -F '\t' 'NR == FNR { want[$1 "\t" $2] = $3; next }
	($1 "\t" $2) in want { n++; k = $1 "\t" $2
		if (want[k] == $3) right++
		else print k "\t" want[k] "\t" $3 > "/dev/stderr"
		delete want[k] }
	END { print n + 0, right + 0 }' "$mis.want" "$mis.got" \
	2>"$mis.body" >"$mis.count"
{ printf 'file\tname\tlabel\tvalue\n'; cat "$mis.body"; } >"$mis"
read -r checked right <"$mis.count"
rm -f "$mis.want" "$mis.got" "$mis.body" "$mis.count"
pct=$(awk -v r="$right" -v n="$checked" 'BEGIN { printf "%.1f", n ? 100 * r / n : 0 }')
{
	printf 'finder\tvalue_checked\t%s\tvariables\t%s\n' "$checked" "$date"
	printf 'finder\tvalue_right_pct\t%s\tpercent\t%s\n' "$pct" "$date"
} >>"$res" || die 70 "cannot write $res"
echo "bench-value: hand check: $right of $checked labelled rows right ($pct%), mismatches in $mis"
