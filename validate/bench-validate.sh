#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench-validate.sh - throughput of validate/validate in the fast profile
# against the naive method (one conversion per build and boot).
#
# Usage: bench-validate.sh TREE WORK [CANDIDATES]
#
# 1. One naive cycle in the work tree WORK/vtree: touch init/main.c,
#    build-kernel.sh fast, boot with the whole exercise suite.
# 2. validate/validate on CANDIDATES (default WORK/candidates/candidates.tsv;
#    at most BENCH_MAX=400 undecided conversions, BATCH per batch, by
#    default lib/defaults.h's) into a fresh journal, timing builds, boots
#    and bisection.
# The work tree must hold no uncommitted change but validate's own.
# Appends "bench metric value unit date" rows to WORK/bench/results.tsv,
# the first of a run the tree's kernel version (metric kernel).
# Exit: 0 measured, 1 a step failed, 64 usage, 65 a work tree with
# changes that validate did not make.

set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
prog_name=bench-validate
. "$top/lib/args.sh"
help_maybe "$0" "$@"
[ $# -ge 2 ] && [ $# -le 3 ] || {
	echo "usage: bench-validate.sh TREE WORK [CANDIDATES]" >&2
	exit 64
}
tree=$1
work=$2
cands=${3:-$work/candidates/candidates.tsv}
. "$top/lib/ktree.sh"
vtree=${VTREE:-$work/vtree}
max=${BENCH_MAX:-400}
batch=${BATCH:-}
out=$work/bench
res=$out/results.tsv
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)

[ -f "$cands" ] || die 65 "no candidates file '$cands' (make candidates, or pass one)"
mkdir -p "$out"
[ -f "$res" ] || printf 'bench\tmetric\tvalue\tunit\tdate\n' > "$res"
emit() {
	printf 'validate\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$date" >> "$res"
	printf 'validate\t%s\t%s\t%s\n' "$1" "$2" "$3"
}
if [ ! -d "$vtree" ]; then
	git -C "$tree" worktree add --detach "$vtree" core >/dev/null 2>&1 ||
		die 70 "git worktree add $vtree failed"
fi

# --- 1. the naive cycle ------------------------------------------------------
# Only validate's own leftovers (validate/tree.c's marker) may be reset.
gitdir=$(git -C "$vtree" rev-parse --absolute-git-dir) ||
	die 70 "$vtree is not a git work tree"
if [ -n "$(git -C "$vtree" status --porcelain)" ] &&
   [ ! -f "$gitdir/ro-campaign-validate.applied" ]; then
	git -C "$vtree" status --short >&2
	echo "bench-validate: error: $vtree has uncommitted changes that validate did not make: commit or stash them" >&2
	exit 65
fi
git -C "$vtree" checkout -q -- . && git -C "$vtree" clean -fdq &&
	git -C "$vtree" checkout -q --detach core || die 70 "cannot reset $vtree"
rm -f "$gitdir/ro-campaign-validate.applied"
sh "$top/qemu-boot/build-kernel.sh" fast "$vtree" "$work" > "$out/naive.build" 2>&1 ||
	die 70 "warm-up build failed, see $out/naive.build"
bdir=$(tail -n 1 "$out/naive.build")
touch "$vtree/init/main.c"
t0=$(date +%s.%N)
sh "$top/qemu-boot/build-kernel.sh" fast "$vtree" "$work" > "$out/naive.build" 2>&1 ||
	die 70 "naive build failed, see $out/naive.build"
t1=$(date +%s.%N)
sh "$top/qemu-boot/mkinitramfs.sh" "$bdir/ro-campaign" >/dev/null 2>&1 ||
	die 70 "mkinitramfs failed"
t2=$(date +%s.%N)
"$top/qemu-boot/boot" "$bdir/ro-campaign/bzImage" --out "$out/naive-boot" \
	> "$out/naive.boot" 2>&1
rc=$?
t3=$(date +%s.%N)
[ $rc -eq 0 ] || die 70 "naive boot verdict $(cat "$out/naive-boot/verdict" 2>/dev/null) (exit $rc)"
build_s=$(echo "$t1 $t0" | awk '{ printf "%.1f", $1 - $2 }')
boot_s=$(echo "$t3 $t2" | awk '{ printf "%.1f", $1 - $2 }')
naive_s=$(echo "$t3 $t0" | awk '{ printf "%.1f", $1 - $2 }')
# Guest time to /init against the exercises, from the kernel's timestamps.
init_s=$(grep -m1 'Run /init as init process' "$out/naive-boot/console.log" |
	sed -n 's/^\[ *\([0-9.]*\)\].*/\1/p')
emit kernel "$(ktree_version "$tree")" version
emit naive_touch_build_s "$build_s" s
emit naive_boot_s "$boot_s" s
[ -n "$init_s" ] && emit naive_guest_boot_to_init_s "$init_s" s
emit naive_cycle_s "$naive_s" s
naive_rate=$(echo "$naive_s" | awk '{ printf "%.1f", 3600 / $1 }')
emit naive_conversions_per_hour "$naive_rate" conv/h

# --- 2. the batch validator ------------------------------------------------------
vs=$out/validate-state
rm -rf "$vs"
mkdir -p "$vs"
t0=$(date +%s.%N)
"$top/validate/validate" --candidates "$cands" --tree "$vtree" --work "$work" \
	--tools "$top" --profile fast ${batch:+--batch "$batch"} --max "$max" \
	--journal "$vs/journal.tsv" 2> "$out/validate.err"
rc=$?
t1=$(date +%s.%N)
[ $rc -eq 0 ] || { tail -n 5 "$out/validate.err" >&2; die 70 "validate exit $rc"; }
wall=$(echo "$t1 $t0" | awk '{ printf "%.1f", $1 - $2 }')
stat() { awk -F'\t' -v k="$1" '$1 == k { print $2 }' "$vs/stats.tsv"; }
count() { awk -F'\t' -v v="$1" 'NR > 1 && $6 == v' "$vs/journal.tsv" | wc -l; }
acc=$(count accepted)
rej=$(count rejected)
nb=$(count not-built)
decided=$((acc + rej + nb))
[ "$decided" -gt 0 ] || die 70 "validate decided nothing"
# Without BATCH the size of each batch comes from the costs (the progress
# line says it): the first batch's.
[ -n "$batch" ] ||
	batch=$(sed -n 's/^validate: batch [0-9]*\/[0-9]* (size \([0-9]*\)[ ,].*/\1/p' \
		"$out/validate.err" | head -n 1)
emit batch_size "$batch" conv
emit decided "$decided" conv
emit accepted "$acc" conv
emit rejected "$rej" conv
emit not_built "$nb" conv
emit wall_s "$wall" s
emit builds "$(stat builds)" count
emit build_s "$(stat build_s)" s
emit boots "$(stat boots)" count
emit boot_s "$(stat boot_s)" s
emit bisect_s "$(stat bisect_s)" s
emit batches "$(stat batches)" count
emit failed_batches "$(stat failed_batches)" count
rate=$(echo "$decided $wall" | awk '{ printf "%.1f", $1 * 3600 / $2 }')
built_rate=$(echo "$acc $rej $wall" | awk '{ printf "%.1f", ($1 + $2) * 3600 / $3 }')
emit decided_per_hour "$rate" conv/h
emit built_decided_per_hour "$built_rate" conv/h
emit speedup_vs_naive "$(echo "$built_rate $naive_rate" |
	awk '{ printf "%.1f", $1 / $2 }')" x
