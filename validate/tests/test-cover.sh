#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-cover.sh - the cover profile end to end, with real builds and QEMU
# boots: validate/cover-plan finds the symbols of files that neither fast
# nor wide compiles, build-kernel.sh builds COVER_BASE=fast plus that
# fragment, the guest cycles the modules, and each verdict carries its
# evidence level.
#   lib/test_ro_after_init_module.c (setup/core 0004, CONFIG_TEST_RO_AFTER_INIT_MODULE)
#     roam_init_only      written only by the module's init: accepted,
#                         module-cycled
#     roam_exit_written   written again by the module's exit: the warn
#                         boot names it and its writer, rejected
#   drivers/misc/dummy-irq.c irq  the module's init fails without irq=N:
#                         accepted, but only "built" (not-cycled)
#   arch/arm64/kernel/cpufeature.c enable_pseudo_nmi  not-built, other-arch
#   drivers/macintosh/via-pmu.c data_len  not-built, unmet (PPC_PMAC || MAC)
#   lib/test_ro_after_init_stall.c roas_calls (setup/core 0005)  its module's init
#                         never returns: the baseline deny-lists the module
#                         and boots again; accepted, only "built"
#
# Environment: WORK, TREE (from the Makefile), VTREE (default WORK/vtree).

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
WORK=${WORK:-$HOME/.cache/ro-campaign}
TREE=${TREE:-$WORK/linux}
VTREE=${VTREE:-$WORK/vtree}
st=$WORK/cover-test
. "$top/lib/tap.sh"
. "$top/lib/tsv.sh"
. "$top/lib/ktree.sh"
. "$here/tests/vtree.sh"

make -C "$top" -s validate/validate validate/cover-plan qemu-boot/boot >/dev/null ||
	{ not_ok "build validate and cover-plan" "make failed"; finish; }
vtree_at_core
tm=lib/test_ro_after_init_module.c
l_init=$(at_core $tm '^static int roam_init_only')
l_exit=$(at_core $tm '^static int roam_exit_written')
l_irq=$(at_core drivers/misc/dummy-irq.c '^static int irq')
l_nmi=$(at_core arch/arm64/kernel/cpufeature.c '^static bool enable_pseudo_nmi;')
l_pmu=$(at_core drivers/macintosh/via-pmu.c '^static int data_len;')
sm=lib/test_ro_after_init_stall.c
l_stall=$(at_core $sm '^static int roas_calls;')
for l in "$l_init" "$l_exit" "$l_irq" "$l_nmi" "$l_pmu" "$l_stall"; do
	[ -n "$l" ] || { not_ok "the test's variables exist at tag core" \
		"missing (is setup/core 0004 applied? run make setup)"; finish; }
done

rm -rf "$st"
mkdir -p "$st"
cands=$st/candidates.tsv
{
	printf 'file\tline\tname\tstorage\tclass\tconfidence\treason\tevidence\n'
	printf '%s\t%s\troam_init_only\tstatic\tro_after_init\thigh\tinit-only\t-\n' $tm "$l_init"
	printf '%s\t%s\troam_exit_written\tstatic\tro_after_init\thigh\tinit-only\t-\n' $tm "$l_exit"
	printf 'drivers/misc/dummy-irq.c\t%s\tirq\tstatic\tro_after_init\thigh\tinit-only\t-\n' "$l_irq"
	printf 'arch/arm64/kernel/cpufeature.c\t%s\tenable_pseudo_nmi\tstatic\tro_after_init\thigh\tinit-only\t-\n' "$l_nmi"
	printf 'drivers/macintosh/via-pmu.c\t%s\tdata_len\tstatic\tro_after_init\thigh\tinit-only\t-\n' "$l_pmu"
	printf '%s\t%s\troas_calls\tstatic\tro_after_init\thigh\tinit-only\t-\n' $sm "$l_stall"
} > "$cands"

# --- the plan against the fast profile's .config --------------------------
base=$(sh "$top/qemu-boot/build-kernel.sh" --config-only fast "$VTREE" "$WORK" 2>"$st/config.err" | tail -n 1)
check "the fast profile's build directory is configured" [ -f "$base/.config" ]
"$here/cover-plan" --candidates "$cands" --tree "$VTREE" \
	--config "$base/.config" --out "$st/cover" > "$st/plan.out" 2>&1
rc=$?
plan=$st/cover/plan.tsv
state() {	# state FILE: "state<TAB>detail" of FILE in the plan
	awk -F'\t' -v f="$1" '$1 == f { print $3 "\t" $4 }' "$plan"
}
check "cover-plan exits 0 (rc $rc)" [ $rc -eq 0 ]
# Neither fast nor wide compiles them: the plan against wide adds symbols too.
wide=$(sh "$top/qemu-boot/build-kernel.sh" --config-only wide "$VTREE" "$WORK" 2>>"$st/config.err" | tail -n 1)
"$here/cover-plan" --candidates "$cands" --tree "$VTREE" \
	--config "$wide/.config" --out "$st/cover-wide" > "$st/plan-wide.out" 2>&1
for f in $tm drivers/misc/dummy-irq.c; do
	for p in fast wide; do
		d=cover
		[ $p = wide ] && d=cover-wide
		s=$(awk -F'\t' -v f="$f" '$1 == f { print $3 "\t" $4 }' "$st/$d/plan.tsv")
		why="plan: $s"
		check "$f: the $p base does not compile it (the plan adds symbols)" \
			matches "$s" '^buildable	adds '
	done
done
s=$(state $tm)
why="plan: $s"
check "the test module's file is buildable as a module" \
	matches "$s" '^buildable	adds.*CONFIG_TEST_RO_AFTER_INIT_MODULE=m'
s=$(state drivers/misc/dummy-irq.c)
why="plan: $s"
check "dummy-irq.c is buildable as a module" \
	matches "$s" '^buildable	adds.*CONFIG_DUMMY_IRQ=m'
s=$(state arch/arm64/kernel/cpufeature.c)
why="plan: $s"
check "arch/arm64 file: other-arch arm64" [ "$s" = "other-arch	arm64" ]
s=$(state drivers/macintosh/via-pmu.c)
why="plan: $s"
check "via-pmu.c: unmet, names the symbol that did not stick" \
	matches "$s" '^unmet	CONFIG_[A-Z_]* '
check "the fragment holds the two module symbols as =m" \
	sh -c "grep -qx CONFIG_TEST_RO_AFTER_INIT_MODULE=m '$st/cover/cover.config' && \
		grep -qx CONFIG_DUMMY_IRQ=m '$st/cover/cover.config'"

# --- validate with the cover profile ---------------------------------------
j=$st/journal.tsv
COVER_BASE=fast COVER_FRAGMENT=$st/cover/cover.config \
	"$here/validate" --candidates "$cands" --tree "$VTREE" --work "$WORK" \
	--tools "$top" --profile cover --cover-plan "$plan" --batch 8 \
	--journal "$j" > "$st/run.out" 2>&1
rc=$?
why="exit $rc; $(tail -n 3 "$st/run.out" | tr '\n' ' ')"
check "validate --profile cover exits 0" [ $rc -eq 0 ]
row() {	# row NAME: "verdict<TAB>evidence<TAB>level" of NAME's last row
	tsv_awk "$j" '$c_variable == n { r = $c_verdict "\t" $c_evidence "\t" $c_level }
		END { print r }' -v n="$1"
}
v=$(row roam_init_only)
why="row: $v"
check "roam_init_only: accepted, built into its .ko, cycled, level module-cycled" \
	matches "$v" '^accepted	built=lib/test_ro_after_init_module.o,lib/test_ro_after_init_module.ko; .*cycled=test_ro_after_init_module	module-cycled$'
v=$(row roam_exit_written)
why="row: $v"
check "roam_exit_written: rejected, the warn boot names its writer in the module's exit" \
	matches "$v" '^rejected	warn boot: violation: written by [a-z_]*exit[a-z_]*+0x[0-9a-f]*/0x[0-9a-f]* \[test_ro_after_init_module\]'
v=$(row irq)
why="row: $v"
check "dummy-irq's irq: accepted but only built, its init failed under QEMU" \
	matches "$v" '^accepted	built=drivers/misc/dummy-irq.o,drivers/misc/dummy-irq.ko; .*not-cycled=dummy-irq: init failed.*	built$'
v=$(row enable_pseudo_nmi)
why="row: $v"
check "enable_pseudo_nmi: not-built, other-arch arm64" \
	matches "$v" '^not-built	not-built: other-arch: arm64 '
v=$(row data_len)
why="row: $v"
check "via-pmu's data_len: not-built, unmet with the symbol named" \
	matches "$v" '^not-built	not-built: unmet: CONFIG_[A-Z_]* '
bl=$(ls "$st"/baseline-*.tsv 2>/dev/null | head -n 1)
why="baseline file: ${bl:-none}"
check "the cover baseline is recorded with its own config hash" [ -n "$bl" ]
v=$(row roas_calls)
why="row: $v"
check "roas_calls: accepted but only built, its module denied" \
	matches "$v" '^accepted	built=lib/test_ro_after_init_stall.o,lib/test_ro_after_init_stall.ko; .*not-cycled=test_ro_after_init_stall: init denied.*	built$'
why="baseline: $(grep '^moddeny' "$bl" 2>/dev/null | tr '\t\n' '  ')"
check "the baseline deny-listed the stalling module, with the reason, and nothing else" \
	sh -c "[ \$(grep -c '^moddeny' '$bl') -eq 1 ] && grep -q '^moddeny	test_ro_after_init_stall	.*init timeout' '$bl'"
n_boots=$(ls -d "$st"/boots/*/ 2>/dev/null | wc -l)
n_deny=$(grep -l 'rocampaign.moddeny=test_ro_after_init_stall' "$st"/boots/*/cmdline 2>/dev/null | wc -l)
why="$n_deny of $n_boots boots had it; the first: $(cat "$st"/boots/baseline-1-default/cmdline 2>/dev/null)"
check "every boot after the first passes rocampaign.moddeny= with it" \
	sh -c "[ $n_boots -ge 4 ] && [ $n_deny -eq $((n_boots - 1)) ] && \
		! grep -q moddeny '$st/boots/baseline-1-default/cmdline'"
check "the cover build dir is keyed by its base, not by the fragment" \
	sh -c "ls -d '$WORK'/build/cover-fast-* >/dev/null 2>&1"
check "work tree clean after the run" \
	sh -c "[ -z \"\$(git -C '$VTREE' status --porcelain)\" ]"
[ $failed -eq 0 ] || sed 's/^/#   /' "$j"
finish
