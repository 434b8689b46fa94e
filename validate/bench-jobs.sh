#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench-jobs.sh - the overhead of the job path (validate --emit-jobs, GNU
# parallel running run-job.sh, validate --merge) against the sequential
# validator, on the same candidates in the same run, fast profile.
#
# Usage: bench-jobs.sh TREE WORK [CANDIDATES]
#
# 1. The baseline and the not-built verdicts (validate --max 0), copied
#    into both state directories, so that both paths start equal.
# 2. The sequential validator: at most BENCH_JOBS_MAX (24) conversions
#    that need a build, BENCH_JOBS_BATCH (8) per batch.
# 3. The same as jobs: --emit-jobs, run-parallel.sh -j 1 (one job at a
#    time, in the same work tree: the difference is the job path's own
#    cost, not parallelism), --merge.
# Both runs compile with CCACHE_RECACHE=1: neither gets its objects from
# the other's cache.  CANDIDATES defaults to WORK/candidates/candidates.tsv.
# Appends "jobs METRIC VALUE UNIT DATE" rows to WORK/bench/results.tsv:
# the wall times, the overhead in all and per job, the time outside
# builds, boots and bisection per batch of the sequential run and per job
# (run-job.sh's setup and validate's start: config hash, candidate
# checks, annotation), and whether the merged verdicts equal the
# sequential ones.
# Exit: 0 measured, 1 the verdicts differ, 64 usage, 65 no candidates,
# 70 a step failed.

set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
prog_name=bench-jobs
. "$top/lib/args.sh"
help_maybe "$0" "$@"
[ $# -ge 2 ] && [ $# -le 3 ] || {
	echo "usage: bench-jobs.sh TREE WORK [CANDIDATES]" >&2
	exit 64
}
tree=$1
work=$2
cands=${3:-$work/candidates/candidates.tsv}
vtree=${VTREE:-$work/vtree}
max=${BENCH_JOBS_MAX:-24}
batch=${BENCH_JOBS_BATCH:-8}
posint BENCH_JOBS_MAX "$max" 100000
posint BENCH_JOBS_BATCH "$batch" 100000
out=$work/bench
res=$out/results.tsv
st=$out/jobs
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
bin=$top/validate/validate

[ -f "$cands" ] || die 65 "no candidates file '$cands' (make candidates, or pass one)"
mkdir -p "$out" || die 70 "cannot create $out"
[ -f "$res" ] || printf 'bench\tmetric\tvalue\tunit\tdate\n' >"$res"
emit() {
	printf 'jobs\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$date" >>"$res"
	printf 'jobs\t%s\t%s\t%s\n' "$1" "$2" "$3"
}
if [ ! -d "$vtree" ]; then
	git -C "$tree" worktree add --detach "$vtree" core >/dev/null 2>&1 ||
		die 70 "git worktree add $vtree failed"
fi
export VTREE=$vtree WORK=$work TREE=$tree
# seconds since $1 (date +%s.%N), one decimal
since() {
	echo "$1 $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }'
}

rm -rf "$st"
mkdir -p "$st/warm" "$st/seq" "$st/camp" || die 70 "cannot create $st"
set -- --candidates "$cands" --tree "$vtree" --work "$work" --tools "$top" \
	--profile fast --batch "$batch"

# ---- 1. the baseline, once for both ------------------------------------------------
cp "$out"/jobs-baseline/baseline-*.tsv "$st/warm/" 2>/dev/null
echo "bench-jobs: the baseline (validate --max 0)" >&2
"$bin" "$@" --max 0 --journal "$st/warm/journal.tsv" 2>"$st/warm.err" ||
	{ tail -n 5 "$st/warm.err" >&2; die 70 "validate --max 0 failed"; }
mkdir -p "$out/jobs-baseline"
cp "$st"/warm/baseline-*.tsv "$out/jobs-baseline/"
for d in seq camp; do
	cp "$st"/warm/baseline-*.tsv "$st/warm/journal.tsv" "$st/$d/" ||
		die 70 "cannot copy the baseline"
done
before=$(($(wc -l <"$st/warm/journal.tsv") - 1))

# ---- 2. sequential -----------------------------------------------------------------------
echo "bench-jobs: sequential, at most $max conversions in batches of $batch" >&2
t0=$(date +%s.%N)
CCACHE_RECACHE=1 "$bin" "$@" --max "$max" --journal "$st/seq/journal.tsv" \
	2>"$st/seq.err" || { tail -n 5 "$st/seq.err" >&2; die 70 "the sequential validate failed"; }
seq_s=$(since "$t0")

# ---- 3. jobs -------------------------------------------------------------------------------
echo "bench-jobs: the same as jobs (emit, GNU parallel -j 1, merge)" >&2
t0=$(date +%s.%N)
CCACHE_RECACHE=1 "$bin" "$@" --max "$max" --journal "$st/camp/journal.tsv" \
	--emit-jobs "$st/emission" 2>"$st/emit.err" ||
	{ tail -n 5 "$st/emit.err" >&2; die 70 "validate --emit-jobs failed"; }
emit_s=$(since "$t0")
t1=$(date +%s.%N)
CCACHE_RECACHE=1 sh "$here/farm/run-parallel.sh" -j 1 "$st/emission" 2>"$st/run.err" ||
	{ tail -n 5 "$st/run.err" >&2; die 70 "run-parallel.sh failed"; }
run_s=$(since "$t1")
t1=$(date +%s.%N)
"$bin" --merge "$st/emission" 2>"$st/merge.err" ||
	{ cat "$st/merge.err" >&2; die 70 "validate --merge failed"; }
merge_s=$(since "$t1")
jobs_s=$(since "$t0")

# ---- figures -------------------------------------------------------------------------------
norm() {
	awk -F '\t' 'NR > 1 { print $2 "\t" $3 "\t" $4 "\t" $6 "\t" $7 }' "$1" | sort
}
norm "$st/seq/journal.tsv" >"$st/seq.norm"
norm "$st/camp/journal.tsv" >"$st/camp.norm"
equal=0
cmp -s "$st/seq.norm" "$st/camp.norm" && equal=1
njobs=$(awk 'NR > 1' "$st/emission/jobs.tsv" | wc -l)
decided=$(($(wc -l <"$st/seq/journal.tsv") - 1 - before))
[ "$decided" -gt 0 ] && [ "$njobs" -gt 0 ] || die 70 "nothing was validated in batches"
stat() { awk -F '\t' -v k="$1" '$1 == k { print $2 }' "$2"; }
# The job path's own time in each job: run-job.sh's wall time less the
# batch's time in validate's figures (builds, boots, bisection).
inside=0
for j in "$st"/emission/job-*; do
	w=$(stat seconds "$j/status")
	b=$(awk -F '\t' '$1 == "build_s" || $1 == "boot_s" || $1 == "bisect_s" { s += $2 } END { print s + 0 }' "$j/stats.tsv")
	inside=$(echo "$inside $w $b" | awk '{ printf "%.1f", $1 + $2 - $3 }')
done
sb=$(awk -F '\t' '$1 == "build_s" || $1 == "boot_s" || $1 == "bisect_s" { s += $2 } END { print s + 0 }' "$st/seq/stats.tsv")
emit conversions "$decided" conv
emit batches "$njobs" count
emit batch_size "$batch" conv
emit seq_wall_s "$seq_s" s
emit seq_builds_boots_s "$sb" s
emit seq_per_batch_s "$(echo "$seq_s $njobs" | awk '{ printf "%.1f", $1 / $2 }')" s
emit emit_s "$emit_s" s
emit run_s "$run_s" s
emit merge_s "$merge_s" s
emit jobs_wall_s "$jobs_s" s
emit overhead_s "$(echo "$jobs_s $seq_s" | awk '{ printf "%.1f", $1 - $2 }')" s
emit overhead_pct "$(echo "$jobs_s $seq_s" | awk '{ printf "%.1f", 100 * ($1 - $2) / $2 }')" pct
emit overhead_per_job_s "$(echo "$jobs_s $seq_s $njobs" | awk '{ printf "%.1f", ($1 - $2) / $3 }')" s
emit seq_other_per_batch_s "$(echo "$seq_s $sb $njobs" | awk '{ printf "%.1f", ($1 - $2) / $3 }')" s
emit job_other_per_job_s "$(echo "$inside $njobs" | awk '{ printf "%.1f", $1 / $2 }')" s
emit verdicts_equal "$equal" bool
[ $equal -eq 1 ] || { diff "$st/seq.norm" "$st/camp.norm" >&2; exit 1; }
exit 0
