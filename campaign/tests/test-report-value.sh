#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-report-value.sh - campaign/report and candidates.tsv's value
# column, in a second: report.tsv's value column (last) and its rows by
# value rank (fn-pointer, object-pointer, bound, policy, param, setting),
# report.html's value column and filter, a candidates.tsv without the
# column (value -, last), and an unknown value refused naming FILE:LINE.
#
# Environment: REPORT_BIN (default campaign/report).

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
. "$top/lib/tap.sh"

REPORT_BIN=${REPORT_BIN:-$here/report}
[ -x "$REPORT_BIN" ] || { not_ok "campaign/report is built" "run make programs"; finish; }

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT INT TERM
TAB=$(printf '\t')

row() {
	_sep=
	for _f; do
		printf '%s%s' "$_sep" "$_f"
		_sep=$TAB
	done
	printf '\n'
}
# cand FILE LINE NAME VALUE: a high ro_after_init candidate
cand() {
	row "$1" "$2" "$3" static ro_after_init high "written in init only" \
		"$1:$(($2 + 20)):setup:assign" ro_after_init "$4"
}
{
	row file line name storage class confidence reason evidence annotation value
	cand kernel/a.c 10 a_setting setting
	cand kernel/a.c 11 a_param param
	cand kernel/b.c 12 b_fn fn-pointer
	cand mm/c.c 13 c_bound bound
	cand security/d.c 14 d_policy policy
	cand fs/e.c 15 e_obj object-pointer
	cand fs/e.c 16 e_fn fn-pointer
} >"$t/candidates.tsv"
row time variable file line batch verdict evidence level config_hash core_hash \
	>"$t/journal.tsv"

mkdir "$t/r"
"$REPORT_BIN" --candidates "$t/candidates.tsv" --journal "$t/journal.tsv" \
	--out "$t/r" >"$t/out" 2>&1
rc=$?
check "report with a value column: exit 0 (got $rc)" [ $rc -eq 0 ]
check "report.tsv: value is the last column" \
	sh -c "head -n 1 '$t/r/report.tsv' | grep -q '	annotation	value\$'"
awk -F '\t' 'NR > 1 { print $3 "=" $NF }' "$t/r/report.tsv" | tr '\n' ' ' >"$t/order"
check "report.tsv: rows by value rank, then file and line ($(cat "$t/order"))" \
	[ "$(cat "$t/order")" = "e_fn=fn-pointer b_fn=fn-pointer e_obj=object-pointer c_bound=bound d_policy=policy a_param=param a_setting=setting " ]
check "report.html: a value column and a filter with each value's count" \
	sh -c "grep -q '<th>value</th>' '$t/r/report.html' &&
		grep -q '<option value=\"fn-pointer\">fn-pointer (2)</option>' '$t/r/report.html'"
check "report.html: rows carry their value for the filter, by rank" \
	sh -c "grep -o 'data-value=\"[a-z-]*\" data-variable=\"[a-z_]*\"' '$t/r/report.html' |
		head -n 2 | tr '\n' ' ' | grep -qx 'data-value=\"fn-pointer\" data-variable=\"e_fn\" data-value=\"fn-pointer\" data-variable=\"b_fn\" '"

# an older finder's candidates.tsv: no value column, value -
mkdir "$t/old"
cut -f 1-9 "$t/candidates.tsv" >"$t/old/candidates.tsv"
"$REPORT_BIN" --candidates "$t/old/candidates.tsv" --journal "$t/journal.tsv" \
	--out "$t/old" >"$t/old/out" 2>&1
rc=$?
check "report on a candidates.tsv without value: exit 0 (got $rc)" [ $rc -eq 0 ]
check "... every value is -" \
	sh -c "[ \"\$(awk -F '\t' 'NR > 1 { print \$NF }' '$t/old/report.tsv' | sort -u)\" = - ]"

# an unknown value: exit 65, FILE:LINE
mkdir "$t/bad"
sed 's/	bound$/	bounded/' "$t/candidates.tsv" >"$t/bad/candidates.tsv"
"$REPORT_BIN" --candidates "$t/bad/candidates.tsv" --journal "$t/journal.tsv" \
	--out "$t/bad" >"$t/bad/out" 2>&1
rc=$?
check "an unknown value: exit 65 naming candidates.tsv:5 (got $rc)" \
	sh -c "[ $rc -eq 65 ] && grep -q 'candidates.tsv:5' '$t/bad/out'"
finish
