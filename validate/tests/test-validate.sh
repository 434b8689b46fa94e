#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-validate.sh - validate/validate on a mixed batch, with real fast
# profile builds and QEMU boots:
#   init/main.c execute_command   written only by an __setup handler: accepted
#   kernel/power/main.c pm_test_level  written by the /sys/power/pm_test store
#                                 (pm-test and sysfs-write exercises): rejected
#   kernel/fork.c arch_task_struct_size  declared __read_mostly in
#                                 <linux/sched/task.h>: gcc ignores the new
#                                 section, the ELF check rejects it
#   net/socket.c sock_mnt         net/ is not compiled in the fast profile
#   kernel/fork.c total_forks     at its "total_forks++" line, a use, not a
#                                 definition: annotate.sh finds no
#                                 definition there
# Then initdata conversions (run 5): pm_test_level classed initdata is
# rejected by modpost's section mismatch (pm_test_store reads it), an
# init-only bool gets __initdata and a const table __initconst, both
# accepted in the init sections, with an #ifdef sibling in the same batch;
# and (run 6) a mismatch the baseline had is not the conversion's.
# The lines are read from the tree at tag core (lib/ktree.sh), so the same
# variables serve on 6.12 and 6.1.
# The first run is killed with SIGKILL in the middle of the batch; the
# resumed run must finish it with the verdicts of an uninterrupted run,
# no duplicate rows and a clean work tree.
# Every boot runs the exercise pm-test only (--exercise; the control
# always runs), the one pm_test_level's rejection needs, as test-jobs.sh
# does: this test is about validate's batches, verdicts and resumption;
# the whole suite under validate boots in campaign/tests/test-campaign.sh
# and validate/tests/test-cover.sh. A boot then takes 3 to 5 s instead of
# about 15, over about ten boots.
#
# Environment: WORK, TREE (from the Makefile), VTREE (default WORK/vtree).

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
WORK=${WORK:-$HOME/.cache/ro-campaign}
TREE=${TREE:-$WORK/linux}
VTREE=${VTREE:-$WORK/vtree}
bin=$here/validate
st=$WORK/validate-test
. "$top/lib/tap.sh"
. "$top/lib/ktree.sh"
. "$here/tests/vtree.sh"

[ -x "$bin" ] || make -C "$top" -s validate/validate qemu-boot/boot ||
	{ not_ok "build validate/validate" "make failed"; finish; }
for f in cocci/annotate.sh qemu-boot/mkinitramfs.sh qemu-boot/boot; do
	[ -e "$top/$f" ] || { not_ok "$f exists" "missing"; finish; }
done
vtree_add

# The lines, from the tree at core as validate sees it.
l_exec=$(ktree_line "$TREE" core init/main.c '^static char \*execute_command;')
l_pm=$(ktree_line "$TREE" core kernel/power/main.c '^int pm_test_level ')
l_ats=$(ktree_line "$TREE" core kernel/fork.c '^int arch_task_struct_size __read_mostly;')
l_sock=$(ktree_line "$TREE" core net/socket.c '^static struct vfsmount \*sock_mnt ')
l_forks=$(ktree_line "$TREE" core kernel/fork.c '^[[:space:]]*total_forks++;')
# arch/x86/kernel/pci-dma.c defines force_iommu twice: under
# CONFIG_IOMMU_DEBUG and under #else.
l_fi1=$(ktree_line "$TREE" core arch/x86/kernel/pci-dma.c '^int force_iommu ' 1)
l_fi2=$(ktree_line "$TREE" core arch/x86/kernel/pci-dma.c '^int force_iommu ' 2)
for l in "$l_exec" "$l_pm" "$l_ats" "$l_sock" "$l_forks" "$l_fi1" "$l_fi2"; do
	[ -n "$l" ] || { not_ok "the test's variables are defined at tag core" \
		"missing: exec '$l_exec' pm '$l_pm' ats '$l_ats' sock '$l_sock' forks '$l_forks' force_iommu '$l_fi1' '$l_fi2'"
		finish; }
done
echo "# kernel $(ktree_version "$TREE"): execute_command $l_exec, pm_test_level $l_pm," \
	"arch_task_struct_size $l_ats, sock_mnt $l_sock, total_forks++ $l_forks," \
	"force_iommu $l_fi1 and $l_fi2"

rm -rf "$st"
mkdir -p "$st/a" "$st/b"
cands=$st/candidates.tsv
{
	printf 'file\tline\tname\tstorage\tclass\tconfidence\treason\tevidence\n'
	printf 'init/main.c\t%s\texecute_command\tstatic\tro_after_init\thigh\tinit-only\t-\n' "$l_exec"
	printf 'kernel/power/main.c\t%s\tpm_test_level\tglobal\tro_after_init\thigh\tinit-only\t-\n' "$l_pm"
	printf 'kernel/fork.c\t%s\tarch_task_struct_size\tglobal\tro_after_init\thigh\tinit-only\t-\n' "$l_ats"
	printf 'net/socket.c\t%s\tsock_mnt\tstatic\tro_after_init\thigh\tinit-only\t-\n' "$l_sock"
	printf 'kernel/fork.c\t%s\ttotal_forks\tglobal\tro_after_init\thigh\tinit-only\t-\n' "$l_forks"
	printf 'kernel/fork.c\t1\tnot_a_candidate\tglobal\tconst\thigh\t-\t-\n'
} > "$cands"

run() {	# run JOURNAL: validate the test batch into JOURNAL
	"$bin" --candidates "$cands" --tree "$VTREE" --work "$WORK" \
		--tools "$top" --profile fast --exercise pm-test --batch 8 \
		--journal "$1"
}

# --- bad input --------------------------------------------------------------
"$bin" --help > "$st/help" 2>&1
check "--help exits 0 and shows usage" grep -q '^usage: validate' "$st/help"
printf 'file\tline\tname\tclass\ninit/main.c\tx\tfoo\tro_after_init\n' > "$st/bad.tsv"
"$bin" --candidates "$st/bad.tsv" --tree "$VTREE" --work "$WORK" \
	--tools "$top" --journal "$st/bad/journal.tsv" > "$st/bad.out" 2>&1
rc=$?
check "malformed candidates: exit 65, names file:line" \
	sh -c "[ $rc -eq 65 ] && grep -q 'bad.tsv:2: column .line.' '$st/bad.out'"

# --- run 1, killed with SIGKILL in the middle of the batch -----------------
ja=$st/a/journal.tsv
setsid sh -c 'exec "$0" "$@"' "$bin" --candidates "$cands" --tree "$VTREE" \
	--work "$WORK" --tools "$top" --profile fast --exercise pm-test --batch 8 \
	--journal "$ja" > "$st/a/run1.out" 2>&1 &
pid=$!
# Kill the whole process group (validator, build, QEMU) as soon as the
# first boot of the batch starts (within a second: a pm-test boot takes
# 3 to 5 s): the build failure is decided by then, the boot verdicts are
# not.  The builds wait for the shared build lock, which other tests may
# hold for an hour or more: up to 4 hours.
t=0
while kill -0 $pid 2>/dev/null && [ $t -lt 14400 ]; do
	ls "$st/a/boots" 2>/dev/null | grep -qv baseline && break
	sleep 1
	t=$((t + 1))
done
# dash's kill takes no "--": the signal first, then the negative group id
kill -KILL -$pid || echo "# could not kill process group $pid"
wait $pid 2>/dev/null
rows1=$(($(wc -l < "$ja") - 1))
check "run 1 killed mid-batch ($rows1 of 5 verdicts journaled)" \
	sh -c "[ $rows1 -ge 1 ] && [ $rows1 -lt 5 ]"

# --- run 2: resume ---------------------------------------------------------
run "$ja" > "$st/a/run2.out" 2>&1
rc=$?
check "resumed run exits 0" [ $rc -eq 0 ]
rows=$(($(wc -l < "$ja") - 1))
check "5 verdicts, no duplicate rows (got $rows)" [ "$rows" -eq 5 ]
dups=$(cut -f2-4 "$ja" | sort | uniq -d | wc -l)
check "no variable journaled twice" [ "$dups" -eq 0 ]

verdict() {	# verdict JOURNAL NAME: "verdict<TAB>evidence"
	awk -F'\t' -v n="$2" '$2 == n { print $6 "\t" $7 }' "$1"
}
v=$(verdict "$ja" execute_command)
check "execute_command accepted, built in init/main.o and vmlinux, booted" \
	sh -c "echo '$v' | grep -q '^accepted	built=init/main.o,vmlinux; booted=.*default'"
v=$(verdict "$ja" pm_test_level)
check "pm_test_level rejected, writer pm_test_store named" \
	sh -c "echo '$v' | grep -q '^rejected	.*boot: .*pm_test_store'"
v=$(verdict "$ja" arch_task_struct_size)
check "arch_task_struct_size rejected: in .data..read_mostly, gcc's section conflict quoted" \
	sh -c "echo '$v' | grep -q '^rejected	section: arch_task_struct_size is in .data..read_mostly.*kernel/fork.c:$l_ats:.*conflicts with'"
v=$(verdict "$ja" sock_mnt)
check "sock_mnt not-built (net/ not in the fast profile)" \
	sh -c "echo '$v' | grep -q '^not-built	'"
b=$(awk -F'\t' '$2 == "sock_mnt" { print $5 }' "$ja")
check "sock_mnt decided from the baseline's objects, outside any batch (batch '$b')" \
	[ "$b" = baseline ]
check "the baseline lists the objects the profile compiles" \
	sh -c "grep -q '^object	init/main.o\$' '$st'/a/baseline-*.tsv"
v=$(verdict "$ja" total_forks)
check "total_forks at a line that only uses it rejected: annotate found no definition" \
	sh -c "echo '$v' | grep -q '^rejected	annotate: no definition'"
check "the const-class row is ignored" \
	sh -c "! grep -q not_a_candidate '$ja'"
check "work tree clean after the run" \
	sh -c "[ -z \"\$(git -C '$VTREE' status --porcelain)\" ]"

# --- run 3: a rerun with everything decided does nothing -------------------
start=$(date +%s)
run "$ja" > "$st/a/run3.out" 2>&1
rc=$?
check "rerun of a finished journal: exit 0, no new rows, no build" \
	sh -c "[ $rc -eq 0 ] && [ \$((\$(wc -l < '$ja') - 1)) -eq 5 ] && \
		[ \$((\$(date +%s) - $start)) -lt 120 ]"

# --- run 4: uninterrupted, from scratch: same verdicts ---------------------
jb=$st/b/journal.tsv
cp "$st"/a/baseline-*.tsv "$st/b/" 2>/dev/null
run "$jb" > "$st/b/run.out" 2>&1
rc=$?
norm() {	# variable file line verdict, evidence up to the first '('
	cut -f2,3,4,6,7 "$1" | sed 1d | sed 's/ (.*//; s/; exercised=.*//' | sort
}
norm "$ja" > "$st/a.norm"
norm "$jb" > "$st/b.norm"
check "uninterrupted run gives the same verdicts as the resumed one" \
	sh -c "[ $rc -eq 0 ] && cmp -s '$st/a.norm' '$st/b.norm'"
[ $failed -eq 0 ] || { echo "# resumed:"; sed 's/^/#   /' "$st/a.norm";
	echo "# uninterrupted:"; sed 's/^/#   /' "$st/b.norm"; }
# The warn boot that named pm_test_level passed otherwise, so it is the
# warn boot of the rest: the next boot is the confirm boot, not a second
# warn boot.
modes=$(ls "$st/b/boots" 2>/dev/null | grep -v "\.initrd$" | sed 's/.*-//' | tr '\n' ' ')
why="boots: $modes"
check "offender named by the warn boot: next is the confirm boot (warn default)" \
	[ "$modes" = "warn default " ]
# Without --timeout a boot gets ten times the bare kernel's, 120 to 400 s.
to=$(sed -n 's/.*boots in [0-9.]* s, boot timeout \([0-9]*\) s$/\1/p' "$st/b/run.out")
why="timeout '$to'; validate.log: $(grep -c "TCG, timeout ${to:-x} s" "$st/b/validate.log" 2>/dev/null) boots with it"
check "boot timeout from the baseline's boot time (${to:-none} s), used by the batch's boots" \
	sh -c "[ -n '$to' ] && [ '$to' -ge 120 ] && [ '$to' -le 400 ] && \
		grep -q '^boot-seconds	' '$st'/b/baseline-*.tsv && \
		[ \$(grep -c 'TCG, timeout $to s' '$st/b/validate.log') -eq 2 ]"

# --- run 5: initdata conversions and #ifdef siblings ----------------------
# pm_test_level, classed initdata here, is read by pm_test_store() (.text):
# modpost's section mismatch rejects it, naming that function, without
# bisection. mpf_found (only __init functions of mpparse.c touch it) gets
# __initdata, spectre_v2_user_strings (const, read only by the __init
# spectre_v2_user_select_mitigation()) __initconst: both in the init
# sections, and booted with the batch.
# The same batch carries the #ifdef sibling case: arch/x86/kernel/pci-dma.c
# defines force_iommu under CONFIG_IOMMU_DEBUG (line l_fi1) and #else
# (line l_fi2). Both rows are candidates, the second last, and --max 4
# leaves it out of the batch (--max skips the last undecided rows), so the
# batch holds the first alone and must annotate the second too, which is
# the one the fast profile compiles. (This was a run of its own, with a
# build and two boots of its own; in this batch it costs one object.)
l_mpf=$(ktree_line "$TREE" core arch/x86/kernel/mpparse.c '^static bool mpf_found;')
l_s2u=$(ktree_line "$TREE" core arch/x86/kernel/cpu/bugs.c '^static const char \* const spectre_v2_user_strings\[\]')
idr='read and written only by __init code (1 writes): __initdata, freed with the init sections'
icr='const and read only by __init code: __initconst, freed with the init sections'
mkdir -p "$st/d"
{
	printf 'file\tline\tname\tstorage\tclass\tconfidence\treason\tevidence\n'
	printf 'kernel/power/main.c\t%s\tpm_test_level\tglobal\tinitdata\t-\t%s\t-\n' "$l_pm" "$idr"
	printf 'arch/x86/kernel/mpparse.c\t%s\tmpf_found\tstatic\tinitdata\t-\t%s\t-\n' "$l_mpf" "$idr"
	printf 'arch/x86/kernel/cpu/bugs.c\t%s\tspectre_v2_user_strings\tstatic\tinitdata\t-\t%s\t-\n' "$l_s2u" "$icr"
	printf 'arch/x86/kernel/pci-dma.c\t%s\tforce_iommu\tglobal\tro_after_init\thigh\tinit-only\t-\n' "$l_fi1"
	printf 'arch/x86/kernel/pci-dma.c\t%s\tforce_iommu\tglobal\tro_after_init\thigh\tinit-only\t-\n' "$l_fi2"
} > "$st/d/candidates.tsv"
cp "$st"/a/baseline-*.tsv "$st/d/" 2>/dev/null
"$bin" --candidates "$st/d/candidates.tsv" --tree "$VTREE" --work "$WORK" \
	--tools "$top" --profile fast --exercise pm-test --batch 8 --max 4 \
	--journal "$st/d/journal.tsv" > "$st/d/run.out" 2>&1
rc=$?
# force_iommu first: its check is the old run 5's; the initdata ones follow.
# The row at l_fi2 must not be journaled: it was never a member of a batch.
v=$(verdict "$st/d/journal.tsv" force_iommu)
f0=$failed
check "an #ifdef sibling is annotated with its batch: force_iommu:$l_fi1 passes the section check" \
	sh -c "[ $rc -eq 0 ] && grep -q 'pci-dma.c	$l_fi2	force_iommu' '$st/d/annotate.list' && \
		echo '$v' | grep -q '^accepted	built=arch/x86/kernel/pci-dma.o,vmlinux' && \
		! grep -q 'pci-dma.c	$l_fi2	' '$st/d/journal.tsv'"
[ $failed -eq $f0 ] || { echo "# exit $rc; annotate.list:"; sed 's/^/#   /' "$st/d/annotate.list"
	sed 's/^/#   /' "$st/d/journal.tsv"; }
why="exit $rc, mpf_found '$l_mpf', spectre_v2_user_strings '$l_s2u'"
check "initdata run exits 0" \
	sh -c "[ $rc -eq 0 ] && [ -n '$l_mpf' ] && [ -n '$l_s2u' ]"
check "annotate.list carries the annotation: initdata, initconst" \
	sh -c "grep -q '^file	line	name	annotation\$' '$st/d/annotate.list' && \
		grep -q '	mpf_found	initdata\$' '$st/d/annotate.list' && \
		grep -q '	spectre_v2_user_strings	initconst\$' '$st/d/annotate.list'"
v=$(verdict "$st/d/journal.tsv" pm_test_level)
why="pm_test_level: $v"
check "initdata read by a non-init function rejected: modpost's mismatch names pm_test_store" \
	sh -c "echo '$v' | grep -q '^rejected	modpost: section mismatch in vmlinux: pm_test_[a-z]* (section: .text) refers to pm_test_level (section: .init.data)'"
v=$(verdict "$st/d/journal.tsv" mpf_found)
why="mpf_found: $v"
check "init-only mpf_found accepted in .init.data, modpost clean, booted" \
	sh -c "echo '$v' | grep -q '^accepted	built=arch/x86/kernel/mpparse.o,vmlinux; section=.init.data; modpost=no-mismatch; booted=.*default'"
v=$(verdict "$st/d/journal.tsv" spectre_v2_user_strings)
why="spectre_v2_user_strings: $v"
check "const init-only table accepted as __initconst, in .init.rodata" \
	sh -c "echo '$v' | grep -q '^accepted	built=arch/x86/kernel/cpu/bugs.o,vmlinux; section=.init.rodata; modpost=no-mismatch; booted='"
modes=$(ls "$st/d/boots" 2>/dev/null | sed 's/.*-//' | tr '\n' ' ')
why="boots: $modes"
check "the initdata conversions took the batch's boots (warn default)" \
	[ "$modes" = "warn default " ]

# --- run 6: a mismatch the baseline build had is not the conversion's -------
# With pm_test_store's mismatch listed in the baseline, modpost's line no
# longer names the culprit: the failed build is bisected like any other
# and the reason is the build's error, not modpost's mismatch.
mkdir -p "$st/e"
for f in "$st"/a/baseline-*.tsv; do
	{ cat "$f"; printf 'mismatch\tvmlinux: pm_test_store (.text) -> pm_test_level (.init.data)\n'
	  printf 'mismatch\tvmlinux: pm_test_show (.text) -> pm_test_level (.init.data)\n'
	  printf 'mismatch\tvmlinux: suspend_test (.text) -> pm_test_level (.init.data)\n'
	  printf 'mismatch\tvmlinux: pm_suspend (.text) -> pm_test_level (.init.data)\n'
	} > "$st/e/${f##*/}"
done
head -2 "$st/d/candidates.tsv" > "$st/e/candidates.tsv"
"$bin" --candidates "$st/e/candidates.tsv" --tree "$VTREE" --work "$WORK" \
	--tools "$top" --profile fast --exercise pm-test --batch 8 --retest 0 \
	--journal "$st/e/journal.tsv" > "$st/e/run.out" 2>&1
rc=$?
v=$(verdict "$st/e/journal.tsv" pm_test_level)
why="exit $rc; pm_test_level: $v; mismatches now: $(grep -o 'section mismatch in reference: [^ ]*' "$st/e/validate.log" 2>/dev/null | head -3 | tr '\n' ' ')"
check "a mismatch of the baseline's is not modpost's verdict: rejected by the build instead" \
	sh -c "[ $rc -eq 0 ] && echo '$v' | grep -q '^rejected	build: ' && ! echo '$v' | grep -q 'modpost: section mismatch in'"
finish
