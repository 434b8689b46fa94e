#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Leave-one-out recall on a subset of the real tree (candidates/bench-loo.sh):
# strip __ro_after_init from the annotated variables of LOO_TEST_SCOPE,
# run the finder, and require that at least 80 % come back as ro_after_init
# candidates, and that every miss has a cause bench-loo knows (not
# "other: REASON").  The full figure over a larger scope is make bench-loo.
set -u
cd "$(dirname "$0")/../.."
WORK=${WORK:-$HOME/.cache/ro-campaign/${KERNEL:-6.12}}
TREE=${TREE:-$WORK/linux}
SCOPE=${LOO_TEST_SCOPE:-security init arch/x86/mm kernel/power}
T=$WORK/test-loo
. lib/tap.sh
. lib/tsv.sh

if [ ! -d "$TREE/.git" ]; then
	echo "1..0 # SKIP no prepared tree at $TREE (make setup)"
	exit 0
fi
plan 4
mkdir -p "$T"
start=$(date +%s)
sh candidates/bench-loo.sh -j "$(nproc)" "$TREE" "$T" $SCOPE > "$T/out" 2> "$T/log"
rc=$?
line=$(grep '^bench-loo: recall ' "$T/out")
echo "# $line (scope: $SCOPE; $(($(date +%s) - start)) s)"
grep -A 12 'misses by cause' "$T/out" | sed 's/^/# /'
if { [ $rc -ne 0 ] && [ $rc -ne 1 ]; } || [ -z "$line" ]; then
	not_ok "bench-loo runs on the subset" "exit $rc: $(tail -n 3 "$T/log")"
else
	ok "bench-loo runs on the subset"
fi
set -- $(echo "$line" | sed -n 's/.*recall \([0-9.]*\) (\([0-9]*\) of \([0-9]*\).*/\1 \2 \3/p')
if [ $# -eq 3 ] && [ "$3" -ge 30 ]; then
	ok "held-out set is large enough to mean something ($3 variables)"
else
	not_ok "held-out set is large enough to mean something" "got '$line'"
fi
if [ $# -eq 3 ] && awk -v r="$1" 'BEGIN { exit !(r >= 0.80) }'; then
	ok "leave-one-out recall $1 >= 0.80 ($2 of $3)"
else
	not_ok "leave-one-out recall >= 0.80" "got '$line'"
fi
# Every miss has a cause that bench-loo knows: a row of report.tsv that
# is not re-proposed and whose cause is "other: REASON" (a finder reason
# none of bench-loo's causes matches), "-" or empty fails, naming it.
known_causes() {
	r=$T/loo/report.tsv
	[ -s "$r" ] || { why="no $r"; return 1; }
	bad=$(tsv_colnum "$r" class >/dev/null && tsv_colnum "$r" cause >/dev/null &&
		tsv_awk "$r" 'NR > 1 && $c_class != "ro_after_init" &&
			($c_cause == "" || $c_cause == "-" || $c_cause ~ /^other: /) {
				if (!n++) first = $c_name ": " $c_cause }
			END { if (n) print n " without one, first " first }') ||
		{ why="cannot read $r"; return 1; }
	[ -z "$bad" ] || { why="$bad (see $r)"; return 1; }
}
check "every miss has a known cause in report.tsv" known_causes
finish
