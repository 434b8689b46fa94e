#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# boot-costs.sh - what the boots of one validate run cost, and how much
# of that the emulated devices and the hit counting add (issue 29).
#
# Usage: boot-costs.sh STATE
#
# STATE is the directory of a validate journal (validate.log and boots/
# beside journal.tsv; a campaign's directory).  Prints "metric value
# unit" rows:
#   boots, boot_median            every boot validate.log shows, and the
#                                 median of "verdict ... after S s"
#   device_boots, devices_median  the boots that had devices attached
#                                 (attached.tsv), the median count
#   devices_exercise_median       the devices exercise's own time in those
#                                 boots (rebind, suspend/resume, unload of
#                                 each bound device): what the devices add
#   profiled_boots, profile_overhead_median
#                                 the boots that counted hits (a profile
#                                 table on the console), and the median
#                                 over them of their exercises' time less
#                                 the same exercises' time in the
#                                 baseline's default boot; the modules and
#                                 devices exercises are left out, since
#                                 what is attached changes them
# Exit: 0, 64 usage, 65 STATE holds no validate.log.

set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
prog_name=boot-costs
. "$top/lib/args.sh"
case ${1-} in
-h | --help) help_text "$0"; exit 0 ;;
esac
[ $# -eq 1 ] || { echo "usage: boot-costs.sh STATE" >&2; exit 64; }
st=$1
[ -f "$st/validate.log" ] || die 65 "$st/validate.log: no such file (not a validate state directory)"

# median: the median of the numbers on stdin, "-" for none.
median() {
	sort -n | awk '{ v[++n] = $1 }
		END { if (!n) print "-"; else if (n % 2) print v[(n + 1) / 2];
			else printf "%.2f\n", (v[n / 2] + v[n / 2 + 1]) / 2 }'
}

# Boot directories and times, in the log's order.
times=$(awk '/^boot: .*, out / { d = $NF; next }
	/^boot: verdict .* after [0-9.]+ s/ && d != "" {
		for (i = 1; i <= NF; i++) if ($i == "after") print d "\t" $(i + 1)
		d = "" }' "$st/validate.log")
n=$(printf '%s\n' "$times" | grep -c .)
echo "boots	$n	boots"
echo "boot_median	$(printf '%s\n' "$times" | cut -f2 | grep . | median)	s"

# exercise_times DIR: "NAME SECS" per exercise of DIR's console.
exercise_times() {
	sed -n 's/.*# rocampaign: exercise-time \([^ ]*\) \([0-9.]*\).*/\1 \2/p' \
		"$1/console.log" 2>/dev/null
}
dev=
devs=
prof=
base=$(printf '%s\n' "$times" | cut -f1 | grep '/baseline-[0-9]*-default$' | head -n 1)
# The baseline's exercise times, read once: every profiled boot is
# compared with them.
base_times=
[ -z "$base" ] || base_times=$(exercise_times "$base" | sed 's/^/b /')
for d in $(printf '%s\n' "$times" | cut -f1); do
	[ -d "$d" ] || continue
	k=0
	[ -f "$d/attached.tsv" ] && k=$(($(wc -l < "$d/attached.tsv") - 1))
	if [ "$k" -gt 0 ]; then
		devs="$devs $k"
		t=$(exercise_times "$d" | awk '$1 == "devices" { print $2 }')
		[ -n "$t" ] && dev="$dev $t"
	fi
	if [ -n "$base" ] && grep -q '# rocampaign: profile-begin' "$d/console.log" 2>/dev/null; then
		o=$({ printf '%s\n' "$base_times"; exercise_times "$d" | sed 's/^/p /'; } |
			awk '$2 == "modules" || $2 == "devices" { next }
				$1 == "b" { b[$2] = $3; next }
				$2 in b { s += $3 - b[$2]; m = 1 }
				END { if (m) printf "%.2f\n", s }')
		[ -n "$o" ] && prof="$prof $o"
	fi
done
echo "device_boots	$(echo $devs | wc -w)	boots"
echo "devices_median	$(printf '%s\n' $devs | grep . | median)	devices"
echo "devices_exercise_median	$(printf '%s\n' $dev | grep . | median)	s"
echo "profiled_boots	$(echo $prof | wc -w)	boots"
echo "profile_overhead_median	$(printf '%s\n' $prof | grep . | median)	s"
exit 0
