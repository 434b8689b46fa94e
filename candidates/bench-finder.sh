#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench-finder.sh - wall time, files/second and peak memory of the finder.
#
# usage: candidates/bench-finder.sh [-j N] [--target S] TREE WORK [SCOPE...]
#
# Runs what "make candidates" runs (cocci/run-facts.sh, then candidates/
# candidates) over SCOPE (default: the whole tree) with an empty fact
# cache in WORK/finder-bench, so nothing is reused from earlier runs, and
# appends the figures to WORK/bench/results.tsv. Peak memory is the
# largest resident set of one process (GNU time's maximum RSS, which
# covers the spatch children). Exit 1 when the wall time is over the
# target (default 1800 s, the issue's 30 minutes), 64 usage, 70 when
# run-facts.sh, candidates or the host failed.

set -u

usage() {
	sed -n '3,14s/^# \{0,1\}//p' "$0"
}

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
prog_name=bench-finder
. "$repo/lib/args.sh"
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

start=$(date +%s)
{
	/usr/bin/time -f '%M %e' -o "$out/time.facts" \
		sh "$repo/cocci/run-facts.sh" -j "$jobs" --cache "$out/cache" \
		"$tree" "$out/facts" "$@"
	echo $? >"$out/rc.facts"
} 2>&1 | tee "$out/facts.log" >&2
rc=$(cat "$out/rc.facts")
[ "$rc" -eq 0 ] || die 70 "run-facts.sh exit $rc, see $out/facts.log"
/usr/bin/time -f '%M %e' -o "$out/time.cand" \
	"$here/candidates" --facts "$out/facts" --out "$out/candidates.tsv" \
	2>"$out/candidates.log" || die 70 "candidates failed: $(cat "$out/candidates.log")"
wall=$(($(date +%s) - start))

files=$(wc -l <"$out/facts/files.txt")
errs=$(($(wc -l <"$out/facts/errors.tsv") - 1))
rss_facts=$(cut -d ' ' -f 1 "$out/time.facts")
rss_cand=$(cut -d ' ' -f 1 "$out/time.cand")
rate=$(awk -v f="$files" -v w="$wall" 'BEGIN { printf "%.2f", f / (w ? w : 1) }')
summary=$(cat "$out/candidates.log")
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
res=$work/bench/results.tsv
[ -s "$res" ] || printf 'bench\tmetric\tvalue\tunit\tdate\n' >"$res"
{
	printf 'finder\tscope\t%s\t-\t%s\n' "$(echo "$label" | tr '\t' ' ')" "$date"
	printf 'finder\twall\t%s\tseconds\t%s\n' "$wall" "$date"
	printf 'finder\tfiles\t%s\tfiles\t%s\n' "$files" "$date"
	printf 'finder\tfiles_per_s\t%s\tfiles/s\t%s\n' "$rate" "$date"
	printf 'finder\tparse_errors\t%s\tfiles\t%s\n' "$errs" "$date"
	printf 'finder\tpeak_rss_facts\t%s\tKiB\t%s\n' "$rss_facts" "$date"
	printf 'finder\tpeak_rss_candidates\t%s\tKiB\t%s\n' "$rss_cand" "$date"
	printf 'finder\tjobs\t%s\tprocesses\t%s\n' "$jobs" "$date"
} >>"$res"
echo "bench-finder: $label: $files files in ${wall}s ($rate files/s, -j $jobs)," \
	"peak RSS ${rss_facts} KiB (facts) / ${rss_cand} KiB (candidates)"
echo "bench-finder: $summary"
if [ "$wall" -gt "$target" ]; then
	echo "bench-finder: over the target of ${target}s"
	exit 1
fi
exit 0
