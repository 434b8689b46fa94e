#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-devices.sh - emulated devices for the drivers, end to end, with a
# real cover build (COVER_BASE=fast) and QEMU boots: validate matches the
# build's modules.alias against qemu-boot/devices.tsv, attaches the
# devices, and the guest's devices exercise rebinds, suspends and unloads
# each bound device with protection on.
#   lib/test_ro_after_init_pci.c (setup/core 0006, binds QEMU's edu device)
#     ropci_init_only  written only by the module's init, read by probe:
#                      accepted, bound=test_ro_after_init_pci@edu
#     ropci_probes     written by probe: the first probe runs inside init,
#                      the rebind after init writes it again: the warn
#                      boot names it and ropci_probe, rejected
#   drivers/watchdog/i6300esb.c heartbeat  a real driver on a real QEMU
#                      device (its probe reads the variable): accepted,
#                      bound=i6300ESB timer@i6300esb (a driver name
#                      with a blank).  A watchdog rather than
#                      e1000: the NIC pulls the network stack into the
#                      cover build, about 700 objects and minutes of CI.
#
# Environment: WORK, TREE (from the Makefile), VTREE (default WORK/vtree).

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
WORK=${WORK:-$HOME/.cache/ro-campaign}
TREE=${TREE:-$WORK/linux}
VTREE=${VTREE:-$WORK/vtree}
st=$WORK/devices-test
. "$top/lib/tap.sh"
. "$top/lib/tsv.sh"
. "$top/lib/ktree.sh"
. "$here/tests/vtree.sh"

make -C "$top" -s validate/validate validate/cover-plan qemu-boot/boot >/dev/null ||
	{ not_ok "build validate and cover-plan" "make failed"; finish; }
vtree_at_core
tp=lib/test_ro_after_init_pci.c
ef=drivers/watchdog/i6300esb.c
l_init=$(at_core $tp '^static int ropci_init_only;')
l_probe=$(at_core $tp '^static int ropci_probes;')
l_debug=$(at_core $ef '^static int heartbeat;')
for l in "$l_init" "$l_probe" "$l_debug"; do
	[ -n "$l" ] || { not_ok "the test's variables exist at tag core" \
		"missing (is setup/core 0006 applied? run make setup)"; finish; }
done

rm -rf "$st"
mkdir -p "$st"
cands=$st/candidates.tsv
{
	printf 'file\tline\tname\tstorage\tclass\tconfidence\treason\tevidence\n'
	printf '%s\t%s\tropci_init_only\tstatic\tro_after_init\thigh\tinit-only\t-\n' $tp "$l_init"
	printf '%s\t%s\tropci_probes\tstatic\tro_after_init\thigh\tinit-only\t-\n' $tp "$l_probe"
	printf '%s\t%s\theartbeat\tstatic\tro_after_init\thigh\tinit-only\t-\n' $ef "$l_debug"
} > "$cands"

base=$(sh "$top/qemu-boot/build-kernel.sh" --config-only fast "$VTREE" "$WORK" 2>"$st/config.err" | tail -n 1)
"$here/cover-plan" --candidates "$cands" --tree "$VTREE" \
	--config "$base/.config" --out "$st/cover" > "$st/plan.out" 2>&1
rc=$?
why="exit $rc; $(cut -f 1,3 "$st/cover/plan.tsv" 2>/dev/null | tr '\t\n' ': ')"
check "cover-plan: both files buildable" \
	sh -c "[ $rc -eq 0 ] && [ \$(grep -c '	buildable	' '$st/cover/plan.tsv') -eq 2 ]"

j=$st/journal.tsv
COVER_BASE=fast COVER_FRAGMENT=$st/cover/cover.config \
	"$here/validate" --candidates "$cands" --tree "$VTREE" --work "$WORK" \
	--tools "$top" --profile cover --cover-plan "$st/cover/plan.tsv" \
	--batch 8 --exercise boot,modules --journal "$j" > "$st/run.out" 2>&1
rc=$?
why="exit $rc; $(tail -n 3 "$st/run.out" | tr '\n' ' ')"
check "validate --profile cover exits 0" [ $rc -eq 0 ]
row() {	# row NAME: "verdict<TAB>evidence<TAB>level" of NAME's last row
	tsv_awk "$j" '$c_variable == n { r = $c_verdict "\t" $c_evidence "\t" $c_level }
		END { print r }' -v n="$1"
}
plan=$st/devices-plan.tsv
why="$(cat "$plan" 2>/dev/null | tr '\t\n' ' |')"
check "the plan attaches edu for the test driver and i6300esb for i6300esb" \
	sh -c "grep -q '^1	edu	pci	00:[0-9a-f]*.0	test_ro_after_init_pci	' '$plan' && \
		grep -q '^1	i6300esb	pci	00:[0-9a-f]*.0	i6300esb	' '$plan'"
why="$(grep 'devices:' "$st/run.out" | head -n 1)"
check "the plan fits one boot group: no extra boots" \
	matches "$why" 'in 1 boot group: 0 extra boots per boot'
b=$(ls -d "$st"/boots/*-warn 2>/dev/null | tail -n 1)
why="cmdline: $(cat "$b/cmdline" 2>/dev/null)"
check "the boots attach the devices and run the devices exercise" \
	sh -c "grep -q -- \"'-device' 'edu,addr=0x\" '$b/cmdline' && \
		grep -q 'rocampaign.devices=' '$b/cmdline' && \
		grep -q 'rocampaign.exercises=boot,modules,devices' '$b/cmdline'"
why="bound.tsv: $(tr '\t\n' ' |' < "$b/bound.tsv" 2>/dev/null)"
check "the guest bound, rebound, suspended and unloaded the i6300esb watchdog" \
	matches "$(cat "$b/bound.tsv" 2>/dev/null)" '^i6300esb	pci	i6300ESB timer	0000:00:[0-9a-f]*\.0	0	ok	ok	ok	'

v=$(row ropci_init_only)
why="row: $v"
check "ropci_init_only: accepted, cycled, bound to edu after rebind, suspend and unload" \
	matches "$v" '^accepted	built=lib/test_ro_after_init_pci.o,lib/test_ro_after_init_pci.ko; .*cycled=test_ro_after_init_pci; bound=test_ro_after_init_pci@edu; devices=edu:probe=0,rebind=ok,suspend=ok,unload=ok	'
v=$(row ropci_probes)
why="row: $v"
check "ropci_probes: rejected, the warn boot names it and its writer in probe" \
	matches "$v" '^rejected	warn boot: violation: written by ropci_probe+0x[0-9a-f]*/0x[0-9a-f]* \[test_ro_after_init_pci\] (ropci_probes'
v=$(row heartbeat)
why="row: $v"
check "i6300esb's heartbeat: accepted, bound by its driver, whose name has a blank (i6300ESB timer@i6300esb)" \
	matches "$v" '^accepted	built=drivers/watchdog/i6300esb.o,drivers/watchdog/i6300esb.ko; .*bound=i6300ESB timer@i6300esb[,;]'
c=$(sh "$here/boot-costs.sh" "$st" | tr '\t\n' '  ')
why="boot-costs: $c"
echo "# $c"
check "boot-costs counts the boots with devices and the devices exercise's time" \
	matches "$c" 'device_boots [1-9][0-9]* boots devices_median [1-9][0-9.]* devices devices_exercise_median [0-9][0-9.]* s'
check "work tree clean after the run" \
	sh -c "[ -z \"\$(git -C '$VTREE' status --porcelain)\" ]"
[ $failed -eq 0 ] || sed 's/^/#   /' "$j"
finish
