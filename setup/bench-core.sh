#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench-core.sh - overhead of ro_after_init=warn (the core series).
#
# Usage: bench-core.sh [--runs N] TREE WORK
#
# Boots the fast kernel of TREE (built with setup/core) under QEMU TCG
# through the whole exercise suite, N times (default 3) in the default mode
# and N times with ro_after_init=warn, alternating, and appends to
# WORK/bench/results.tsv ("bench metric value unit date"):
#   core  suite-wall-default / suite-wall-warn   median wall time of a run (s)
#   core  suite-guest-default / suite-guest-warn median sum of the guest's
#         per-exercise times (s, from "# rocampaign: exercise-time")
#   core  warn-overhead-wall / warn-overhead-guest   (warn - default) /
#         default, in percent
#   core  warn-writes / warn-pairs   reported writes and (variable, writer)
#         pairs in the last warn run (from the poweroff summary)
# RESULT=DIR in the environment uses that build result instead of building.
# A run that does not pass is reported on stderr and still timed.
# Exit (README "Exit codes"): 0 done, 64 usage, 70 the build, the
# initramfs, a missing program or the host failed.

set -eu

usage() {
	sed -n '6,22p' "$0" | sed 's/^# \{0,1\}//'
}

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
prog_name=bench-core
. "$root/lib/args.sh"

runs=3
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	--runs) [ $# -ge 2 ] || die 64 "--runs needs a value"; runs=$2; shift 2 ;;
	--) shift; break ;;
	-*) die 64 "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || { usage >&2; exit 64; }
posint --runs "$runs" 1000
tree=$1
work=$2
boot=$root/qemu-boot/boot

[ -x "$boot" ] || die 70 "$boot missing (run make programs)"
if [ -n "${RESULT:-}" ]; then
	res=$RESULT
else
	build=$(sh "$root/qemu-boot/build-kernel.sh" fast "$tree" "$work" | tail -n 1) ||
		die 70 "fast kernel build failed"
	res=$build/ro-campaign
fi
grep -q ' ro_after_init_fault$' "$res/System.map" ||
	die 70 "$res: kernel without the core series (run make tree)"
sh "$root/qemu-boot/mkinitramfs.sh" "$res" >/dev/null || die 70 "mkinitramfs.sh failed"

results=$work/bench/results.tsv
mkdir -p "$work/bench"
[ -s "$results" ] || printf 'bench\tmetric\tvalue\tunit\tdate\n' > "$results"

record() {
	printf 'core\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$(date -u +%FT%TZ)" >> "$results"
	echo "bench-core: $1 = $2 $3" >&2
}

now() { date +%s.%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b - a) * 100 / a }'; }

# one MODE: one boot through the suite; prints "wall guest".
one() {
	out=$work/bench/core-$1
	append=
	[ "$1" = warn ] && append="--append ro_after_init=warn"
	t=$(now)
	# shellcheck disable=SC2086
	"$boot" "$res/bzImage" --accel tcg --timeout 600 --out "$out" $append \
		>/dev/null 2>&1 ||
		echo "bench-core: a $1 run did not pass ($(cat "$out/verdict" 2>/dev/null))" >&2
	wall=$(echo "$(now) $t" | awk '{ printf "%.1f", $1 - $2 }')
	guest=$(tr -d '\r' < "$out/console.log" |
		awk '$2 == "rocampaign:" && $3 == "exercise-time" { s += $5 } END { printf "%.1f", s }')
	echo "$wall $guest"
}

: > "$work/bench/core-default.times"
: > "$work/bench/core-warn.times"
i=0
while [ $i -lt "$runs" ]; do
	one default >> "$work/bench/core-default.times"
	one warn >> "$work/bench/core-warn.times"
	i=$((i + 1))
done

for m in default warn; do
	eval "wall_$m=\$(cut -d' ' -f1 < \"\$work/bench/core-$m.times\" | median)"
	eval "guest_$m=\$(cut -d' ' -f2 < \"\$work/bench/core-$m.times\" | median)"
done
# shellcheck disable=SC2154
{
	record suite-wall-default "$wall_default" s
	record suite-wall-warn "$wall_warn" s
	record suite-guest-default "$guest_default" s
	record suite-guest-warn "$guest_warn" s
	record warn-overhead-wall "$(pct "$wall_default" "$wall_warn")" %
	record warn-overhead-guest "$(pct "$guest_default" "$guest_warn")" %
}
sum=$(tr -d '\r' < "$work/bench/core-warn/console.log" |
	sed -n 's/.*ro_after_init: summary: \([0-9]*\) writes, \([0-9]*\) pairs.*/\1 \2/p' | tail -n 1)
[ -n "$sum" ] || die 70 "no ro_after_init summary in the last warn run"
record warn-writes "${sum% *}" writes
record warn-pairs "${sum#* }" pairs
