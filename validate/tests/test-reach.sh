#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-reach.sh - what of a conversion ran after init (validate/reach.c,
# qemu-boot/guest/profile.sh), with a real fast profile build and QEMU
# boots of one batch of two vmlinux conversions:
#   kernel/power/suspend.c suspend_ops  set by suspend_set_ops() from
#                       ACPI's init, read on every suspend: the pm-test
#                       exercise runs its readers with the section
#                       read-only, so it is reached, the functions named
#   init/main.c execute_command  read by kernel_init() only, before the
#                       guest's /init runs: booted, its reader not-ran
# Every boot runs the exercise pm-test only (and the lkdtm control), as
# test-validate.sh does, in the same work tree, so the two share the
# build directory and the bare kernel's baseline.
#
# Environment: WORK, TREE (from the Makefile), VTREE (default WORK/vtree).

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
WORK=${WORK:-$HOME/.cache/ro-campaign}
TREE=${TREE:-$WORK/linux}
VTREE=${VTREE:-$WORK/vtree}
bin=$here/validate
st=$WORK/reach-test
. "$top/lib/tap.sh"
. "$top/lib/ktree.sh"
. "$here/tests/vtree.sh"

[ -x "$bin" ] && [ -x "$top/lib/tests/lib-test" ] ||
	make -C "$top" -s validate/validate qemu-boot/boot lib/tests/lib-test ||
	{ not_ok "build validate/validate" "make failed"; finish; }
vtree_add

l_ops=$(ktree_line "$TREE" core kernel/power/suspend.c '^static const struct platform_suspend_ops \*suspend_ops;')
l_exec=$(ktree_line "$TREE" core init/main.c '^static char \*execute_command;')
[ -n "$l_ops" ] && [ -n "$l_exec" ] ||
	{ not_ok "the test's variables are defined at tag core" "suspend_ops '$l_ops' execute_command '$l_exec'"; finish; }

rm -rf "$st"
mkdir -p "$st"
cands=$st/candidates.tsv
{
	printf 'file\tline\tname\tstorage\tclass\tconfidence\treason\tevidence\n'
	printf 'kernel/power/suspend.c\t%s\tsuspend_ops\tstatic\tro_after_init\thigh\tinit-only\t-\n' "$l_ops"
	printf 'init/main.c\t%s\texecute_command\tstatic\tro_after_init\thigh\tinit-only\t-\n' "$l_exec"
} > "$cands"
j=$st/journal.tsv
"$bin" --candidates "$cands" --tree "$VTREE" --work "$WORK" --tools "$top" \
	--profile fast --exercise pm-test --batch 8 --journal "$j" \
	> "$st/run.out" 2>&1
rc=$?
check "validate exits 0 (got $rc)" [ $rc -eq 0 ]

# field NAME COLUMN: COLUMN of NAME's last journal row
field() {
	awk -F '\t' -v n="$1" -v c="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["variable"] == n { v = $col[c] } END { print v }' "$j"
}
ev_ops=$(field suspend_ops evidence)
ev_exec=$(field execute_command evidence)
echo "# suspend_ops: $(field suspend_ops level): $ev_ops"
echo "# execute_command: $(field execute_command level): $ev_exec"

check "suspend_ops: accepted, level reached" \
	[ "$(field suspend_ops verdict) $(field suspend_ops level)" = "accepted reached" ]
# Its readers are suspend.c's: valid_state() for /sys/power/state, and
# the suspend path (suspend_devices_and_enter() and what it inlines).
check "suspend_ops: ran= names a function of suspend.c that uses it, with a count" \
	sh -c "echo '$ev_ops' | grep -Eq '(^|; )ran=([^;]*,)?(valid_state|suspend_devices_and_enter|suspend_enter|enter_state|pm_suspend)(\\.[a-z]+\\.[0-9]+)?:[1-9][0-9]*'"
check "suspend_ops: ran-in= names the pm-test exercise" \
	sh -c "echo '$ev_ops' | grep -Eq '(^|; )ran-in=([^;]*,)?pm-test(,|;|\$)'"
check "suspend_ops: its init-only writer suspend_set_ops() is listed as not-ran" \
	sh -c "echo '$ev_ops' | grep -Eq '(^|; )not-ran=([^;]*,)?suspend_set_ops(,|;|\$)'"
check "execute_command: accepted, level booted" \
	[ "$(field execute_command verdict) $(field execute_command level)" = "accepted booted" ]
check "execute_command: not-ran= names its reader kernel_init(), and nothing ran" \
	sh -c "echo '$ev_exec' | grep -Eq '(^|; )not-ran=([^;]*,)?kernel_init(,|;|\$)' && ! echo '$ev_exec' | grep -q 'ran='\"[^;]*:\""

# The protected boot printed the table that says so.
boot=$(ls -td "$st"/boots/*-default 2>/dev/null | head -n 1)
check "the protected boot printed its profile table, suspend.c's functions counted in pm-test" \
	sh -c "sed -n '/^# rocampaign: profile-begin/,/^# rocampaign: profile-end/p' '$boot/console.log' | tr -d '\r' | grep -q '^pm-test	[a-z_.0-9]*	[1-9]'"

said=$("$top/lib/tests/lib-test" sentence accepted "$ev_ops")
echo "# suspend_ops, in words: $said"
check "the sentence names the readers that ran, during the PM core test, with the section read-only" \
	sh -c "echo '$said' | grep -Eq '^its readers? .*\\(\\).* ran [0-9,]+ times? during the PM core test after init, with the section read-only\$'"
said=$("$top/lib/tests/lib-test" sentence accepted "$ev_exec")
echo "# execute_command, in words: $said"
check "the sentence of a booted conversion says the boot did not reach its code" \
	sh -c "echo '$said' | grep -q 'the boot did not reach its code (kernel_init() never ran after init)'"
c=$(sh "$here/boot-costs.sh" "$st" | tr '\t\n' '  ')
why="boot-costs: $c"
echo "# $c"
check "boot-costs finds the profiled boots and the hit counting's cost against the baseline" \
	matches "$c" 'profiled_boots [1-9][0-9]* boots profile_overhead_median -\{0,1\}[0-9][0-9.]* s'
[ $failed -eq 0 ] || tail -n 20 "$st/run.out" | sed 's/^/#   /'
finish
