#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench-harness.sh - build and boot figures for the foundation.
#
# Usage: bench-harness.sh TREE WORK [PROFILES]
#
# For each profile (default: "fast wide"): a cold build (fresh O= dir,
# ccache disabled), a warm no-op rebuild, a one-file rebuild (touch one .c
# file that the profile compiles), and the wall time of boot plus the full
# exercise suite under TCG, median of 5 runs.  Figures are appended to
# WORK/bench/results.tsv as "bench metric value unit date".

set -eu
here=$(cd "$(dirname "$0")" && pwd)
prog_name=bench-harness
. "$here/../lib/args.sh"
help_maybe "$0" "$@"
[ $# -ge 2 ] || { echo "usage: bench-harness.sh TREE WORK [PROFILES]" >&2; exit 64; }
tree=$1
work=$2
profiles=${3:-fast wide}
results=$work/bench/results.tsv
mkdir -p "$work/bench"
[ -s "$results" ] || printf 'bench\tmetric\tvalue\tunit\tdate\n' > "$results"

record() {
	printf 'harness\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$(date -u +%FT%TZ)" >> "$results"
	echo "bench: $1 = $2 $3" >&2
}

now() { date +%s.%N; }
since() { echo "$(now) $1" | awk '{ printf "%.1f", $1 - $2 }'; }

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for p in $profiles; do
	build=$(sh "$here/build-kernel.sh" --config-only "$p" "$tree" "$work" | tail -n 1)
	# Cold: a scratch O= directory with ccache off, then thrown away.
	cold=$work/bench/cold-$p
	rm -rf "$cold"
	t=$(now)
	(CCACHE_DISABLE=1 sh "$here/build-kernel.sh" "$p" "$tree" "$cold" >/dev/null)
	record "$p-build-cold" "$(since "$t")" s
	rm -rf "$cold"
	sh "$here/build-kernel.sh" "$p" "$tree" "$work" >/dev/null
	t=$(now)
	sh "$here/build-kernel.sh" "$p" "$tree" "$work" >/dev/null
	record "$p-build-noop" "$(since "$t")" s
	# One-file rebuild: a file every x86 config compiles.
	touch "$tree/kernel/cpu.c"
	t=$(now)
	sh "$here/build-kernel.sh" "$p" "$tree" "$work" >/dev/null
	record "$p-build-one-file" "$(since "$t")" s
	sh "$here/mkinitramfs.sh" "$build/ro-campaign" >/dev/null
	runs=""
	for i in 1 2 3 4 5; do
		t=$(now)
		"$here/boot" "$build/ro-campaign/bzImage" --accel tcg \
			--out "$work/bench/boot-$p" >/dev/null 2>&1 ||
			echo "bench: boot $i of $p did not pass ($(cat "$work/bench/boot-$p/verdict"))" >&2
		runs="$runs $(since "$t")"
	done
	record "$p-boot-suite-median5" "$(echo "$runs" | tr ' ' '\n' | grep . | median)" s
done
