#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-cover-campaign.sh - make campaign PROFILE=cover end to end on a
# scope that neither fast nor wide compiles: the test module of setup/core
# 0004 (lib/test_ro_after_init_module.c).  Real spatch, a real cover build
# (COVER_BASE=fast: the fast profile plus the plan's fragment), QEMU boots
# that cycle the module, and the queue: roam_init_only (written only by
# the module's init) must be queued as module-cycled, with the level in
# its commit message; roam_exit_written (written again by the exit) must
# never be queued.  Two waves of one candidate each, so the second wave's
# fragment holds the first's symbols too.
#
# Environment: WORK, TREE (from the Makefile).

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
WORK=${WORK:-$HOME/.cache/ro-campaign}
TREE=${TREE:-$WORK/linux}
scope="drivers/char/hangcheck-timer.c lib/test_ro_after_init_module.c"
name=test-cover
cdir=$WORK/campaign/$name
st=$WORK/campaign-cover-test
. "$top/lib/tap.sh"
. "$top/lib/tsv.sh"

rm -rf "$st"
mkdir -p "$st"
make -C "$top" -s programs >/dev/null ||
	{ not_ok "make programs" "failed"; finish; }
[ -f "$TREE/lib/test_ro_after_init_module.c" ] ||
	{ not_ok "the test module in the tree" "missing (setup/core 0004; run make setup)"; finish; }

# --- bad input ---------------------------------------------------------------
COVER_BASE=huge sh "$here/campaign.sh" --profile cover --scope "$scope" \
	--name "$name-bad" "$TREE" "$WORK" >"$st/bad1" 2>&1
rc=$?
check "unknown COVER_BASE: exit 64 naming it" \
	sh -c "[ $rc -eq 64 ] && grep -q 'COVER_BASE must be fast or wide' '$st/bad1'"
COVER_WAVE=0 sh "$here/campaign.sh" --profile cover --scope "$scope" \
	--name "$name-bad" "$TREE" "$WORK" >"$st/bad2" 2>&1
rc=$?
check "COVER_WAVE=0: exit 64" \
	sh -c "[ $rc -eq 64 ] && grep -q 'COVER_WAVE must be a positive number' '$st/bad2'"
COVER_COMPILE_TEST=yes sh "$here/campaign.sh" --profile cover --scope "$scope" \
	--name "$name-bad" "$TREE" "$WORK" >"$st/bad3" 2>&1
rc=$?
check "COVER_COMPILE_TEST=yes: exit 64 naming it" \
	sh -c "[ $rc -eq 64 ] && grep -q 'COVER_COMPILE_TEST must be 1 or empty' '$st/bad3'"
rm -rf "$WORK/campaign/$name-bad"

# --- the campaign --------------------------------------------------------------
if [ -d "$cdir" ]; then
	find "$cdir" -mindepth 1 -maxdepth 1 ! -name facts -exec rm -rf {} +
fi
# The whole-tree tables test-loo.sh or test-campaign.sh made of this tree
# (seed-tables.sh): the find stage then scans the scope's two files only.
. "$here/tests/seed-tables.sh"
seed_tables "$cdir/facts/cache" "$WORK"
COVER_BASE=fast COVER_WAVE=3 make -C "$top" -s campaign PROFILE=cover \
	SCOPE="$scope" NAME="$name" >"$st/run.out" 2>"$st/run.err"
rc=$?
why="exit $rc; $(tail -n 3 "$st/run.err" | tr '\n' ' ')"
check "make campaign PROFILE=cover exits 0" [ $rc -eq 0 ]
j=$cdir/journal.tsv
final() {	# final NAME: "verdict level" of NAME's last journal row
	tsv_awk "$j" 'NR > 1 && $c_variable == n { r = $c_verdict " " $c_level }
		END { print r }' -v n="$1"
}
v=$(final roam_init_only)
why="journal: $v"
check "roam_init_only: accepted, module-cycled" [ "$v" = "accepted module-cycled" ]
v=$(final roam_exit_written)
why="journal: '$v'"
check "roam_exit_written is not accepted (the finder or the warn boot rejects it)" \
	sh -c "[ '$v' != 'accepted module-cycled' ] && [ '$v' != 'accepted built' ]"
nw=$(ls -d "$cdir"/cover/wave-* 2>/dev/null | wc -l)
why="$nw wave directories"
check "two waves of at most 3 candidates (COVER_WAVE=3), each with its plan and fragment" \
	sh -c "[ $nw -eq 2 ] && for d in '$cdir'/cover/wave-*; do [ -f \"\$d/plan.tsv\" ] && [ -f \"\$d/cover.config\" ] || exit 1; done"
check "the last wave's fragment is saved beside the journal and builds both modules as =m" \
	sh -c "grep -qx CONFIG_TEST_RO_AFTER_INIT_MODULE=m '$cdir/cover.config' && grep -qx CONFIG_HANGCHECK_TIMER=m '$cdir/cover.config'"
v=$(final hangcheck_tick)
why="journal: $v"
check "hangcheck_tick (drivers/char/hangcheck-timer.c, which fast and wide do not compile): accepted, module-cycled" \
	[ "$v" = "accepted module-cycled" ]
p=$(grep -l '^+.*hangcheck_tick' "$cdir"/queue/*/0*.patch 2>/dev/null | head -n 1)
why="no patch annotates hangcheck_tick; queue/README: $(sed -n '/^Queued/p' "$cdir/queue/README" 2>/dev/null)"
check "the queue holds a patch for hangcheck_tick" [ -n "$p" ]
why="commit message of $p: $(sed -n '/^$/,/^---$/p' "$p" 2>/dev/null | tr '\n' ' ' | cut -c1-400)"
check "its commit message says the module was loaded, its init returned 0 and it was unloaded" \
	sh -c "sed -n '1,/^---\$/p' '$p' | tr '\n' ' ' | grep -q 'hangcheck.timer.*loaded.*init return[a-z]* 0.*unloaded'"
check "roam_init_only is not queued: its file is one setup/core adds, not upstream's" \
	grep -q 'roam_init_only: dropped: in a file added by setup/core' "$cdir/queue/README"
check "no patch adds an annotation to roam_exit_written" \
	sh -c "! grep -h '^+' '$cdir'/queue/*/0*.patch | grep -q roam_exit_written"
check "the summary splits accepted by level" \
	grep -q '^validated: *accepted [0-9]* (reached [0-9]*, device-bound [0-9]*, module-cycled [1-9][0-9]*, booted 0, built [0-9]*)' "$cdir/summary.txt"
[ $failed -eq 0 ] || { sed 's/^/#   /' "$j"; tail -n 20 "$st/run.err" | sed 's/^/#   /'; }
finish
