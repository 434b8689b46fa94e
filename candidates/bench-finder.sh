#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench-finder.sh - wall time, files/second and peak memory of the finder.
#
# usage: candidates/bench-finder.sh [-j N] [--target S] TREE WORK [SCOPE...]
#
# Runs what "make candidates" runs (cocci/run-facts.sh, then candidates/
# candidates) over SCOPE (default: the whole tree) with an empty fact
# cache in WORK/finder-bench, so nothing is reused from earlier runs, and
# appends the figures to WORK/bench/results.tsv: the tree's kernel
# version, wall time, CPU time (user + system of every process: on a
# loaded machine the figure to compare) and the load average at the
# start, files, files with parse errors, candidates by class
# (ro_after_init also by confidence) and peak memory, the largest
# resident set of one process (GNU time's maximum RSS, which covers the
# spatch children), then bench-value.sh's rows: the value column's
# distribution over the proposals, and the hand check of
# tests/labelled/MAJOR.MINOR/values.tsv when there is one. Exit 1 when the wall time is over the target
# (default 1800 s, the issue's 30 minutes), 64 usage, 70 when
# run-facts.sh, candidates or the host failed.

set -u

usage() {
	sed -n '3,21s/^# \{0,1\}//p' "$0"
}

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
prog_name=bench-finder
. "$repo/lib/args.sh"
. "$repo/lib/tsv.sh"
jobs=$(nproc 2>/dev/null || echo 2)
target=1800
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-j) [ $# -ge 2 ] || die 64 "-j needs a value"; jobs=$2; shift 2 ;;
	--target) [ $# -ge 2 ] || die 64 "--target needs a value"; target=$2; shift 2 ;;
	--) shift; break ;;
	-*) die 64 "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || { usage >&2; exit 64; }
posint -j "$jobs" 1024
posint --target "$target" 999999
tree=$1 work=$2
shift 2
[ -d "$tree" ] || die 64 "TREE '$tree' is not a directory"
[ -x "$here/candidates" ] && [ -x "$here/../cocci/mentions" ] ||
	die 70 "candidates/candidates and cocci/mentions are not built (make programs)"
[ -x /usr/bin/time ] || die 70 "/usr/bin/time (GNU time) is missing: apt-get install time"
out=$work/finder-bench
rm -rf "$out"
mkdir -p "$out/facts" "$work/bench" || die 70 "cannot create $out"
label=${*:-whole tree}
# the version the rows are about (WORK of an own tree says no version)
kver=$(make -s -C "$tree" kernelversion 2>/dev/null | tail -n 1)
[ -n "$kver" ] || kver=-

# the 1-minute load average when it starts: other work on the machine
load0=$(cut -d " " -f 1 /proc/loadavg 2>/dev/null || echo -)
start=$(date +%s)
{
	/usr/bin/time -f '%M %e %U %S' -o "$out/time.facts" \
		sh "$repo/cocci/run-facts.sh" -j "$jobs" --cache "$out/cache" \
		"$tree" "$out/facts" "$@"
	echo $? >"$out/rc.facts"
} 2>&1 | tee "$out/facts.log" >&2
rc=$(cat "$out/rc.facts")
[ "$rc" -eq 0 ] || die 70 "run-facts.sh exit $rc, see $out/facts.log"
/usr/bin/time -f '%M %e %U %S' -o "$out/time.cand" \
	"$here/candidates" --facts "$out/facts" --out "$out/candidates.tsv" \
	2>"$out/candidates.log" || die 70 "candidates failed: $(cat "$out/candidates.log")"
wall=$(($(date +%s) - start))

files=$(wc -l <"$out/facts/files.txt")
# files, not rows: a file may have two rows (a dropped function, FACTS.md)
errs=$(awk -F '\t' 'NR > 1 { print $1 }' "$out/facts/errors.tsv" | sort -u | wc -l)
# files with unparsed code outside #define bodies (cocci/FACTS.md errors.tsv)
code_errs=$(awk -F '\t' 'NR > 1 && !/, 0 outside #define bodies:/ { print $1 }' \
	"$out/facts/errors.tsv" | sort -u | wc -l)
rss_facts=$(cut -d ' ' -f 1 "$out/time.facts")
rss_cand=$(cut -d ' ' -f 1 "$out/time.cand")
# user + system seconds of every process (the spatch children included):
# comparable between runs when the wall time is not, on a loaded machine
cpu=$(cat "$out/time.facts" "$out/time.cand" |
	awk '{ s += $3 + $4 } END { printf "%d", s }')
rate=$(awk -v f="$files" -v w="$wall" 'BEGIN { printf "%.2f", f / (w ? w : 1) }')
summary=$(cat "$out/candidates.log")
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
res=$work/bench/results.tsv
[ -s "$res" ] || printf 'bench\tmetric\tvalue\tunit\tdate\n' >"$res"
pct=$(awk -v e="$errs" -v f="$files" 'BEGIN { printf "%.1f", f ? 100 * e / f : 0 }')
code_pct=$(awk -v e="$code_errs" -v f="$files" 'BEGIN { printf "%.1f", f ? 100 * e / f : 0 }')
# candidates by class, and the ro_after_init ones by confidence
bycls=$(tsv_awk "$out/candidates.tsv" 'NR > 1 { n[$c_class]++
		if ($c_class == "ro_after_init") n["ro_after_init_" $c_confidence]++ }
	END { for (k in n) print k "\t" n[k] }' | sort) ||
	die 70 "cannot read $out/candidates.tsv"
{
	printf 'finder\tkernel\t%s\tversion\t%s\n' "$kver" "$date"
	printf 'finder\tscope\t%s\t-\t%s\n' "$(echo "$label" | tr '\t' ' ')" "$date"
	printf 'finder\twall\t%s\tseconds\t%s\n' "$wall" "$date"
	printf 'finder\tcpu\t%s\tseconds\t%s\n' "$cpu" "$date"
	printf 'finder\tload_start\t%s\tloadavg\t%s\n' "$load0" "$date"
	printf 'finder\tfiles\t%s\tfiles\t%s\n' "$files" "$date"
	printf 'finder\tfiles_per_s\t%s\tfiles/s\t%s\n' "$rate" "$date"
	printf 'finder\tparse_errors\t%s\tfiles\t%s\n' "$errs" "$date"
	printf 'finder\tparse_errors_pct\t%s\tpercent\t%s\n' "$pct" "$date"
	printf 'finder\tcode_parse_errors\t%s\tfiles\t%s\n' "$code_errs" "$date"
	printf 'finder\tcode_parse_errors_pct\t%s\tpercent\t%s\n' "$code_pct" "$date"
	echo "$bycls" | awk -F '\t' -v d="$date" 'NF == 2 {
		printf "finder\tclass:%s\t%s\tvariables\t%s\n", $1, $2, d }'
	printf 'finder\tpeak_rss_facts\t%s\tKiB\t%s\n' "$rss_facts" "$date"
	printf 'finder\tpeak_rss_candidates\t%s\tKiB\t%s\n' "$rss_cand" "$date"
	printf 'finder\tjobs\t%s\tprocesses\t%s\n' "$jobs" "$date"
} >>"$res"
echo "bench-finder: Linux $kver, $label: $files files ($errs, $pct%, with parse errors; $code_errs, $code_pct%, outside #define bodies) in ${wall}s, ${cpu} s of CPU ($rate files/s, -j $jobs, load $load0 at the start)," \
	"peak RSS ${rss_facts} KiB (facts) / ${rss_cand} KiB (candidates)"
echo "bench-finder: $summary"
# the value column's distribution, and its hand check when the kernel has one
vlab=$here/tests/labelled/$(echo "$kver" | cut -d . -f 1-2)/values.tsv
if [ -f "$vlab" ]; then
	sh "$here/bench-value.sh" --scope "$label" --labels "$vlab" "$work" \
		"$out/candidates.tsv" || die 70 "bench-value.sh failed"
else
	sh "$here/bench-value.sh" --scope "$label" "$work" "$out/candidates.tsv" ||
		die 70 "bench-value.sh failed"
fi
if [ "$wall" -gt "$target" ]; then
	echo "bench-finder: over the target of ${target}s"
	exit 1
fi
exit 0
