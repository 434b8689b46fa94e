#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-launcher.sh - real QEMU boots of the fast kernel with tiny fake
# initramfs images whose /init speaks the guest/host protocol (or breaks
# it on purpose), checking qemu-boot/boot's verdicts, exit codes and files.
#
# Env: WORK, TREE (as exported by the Makefile); BZIMAGE overrides the
# kernel (default: the fast profile's bzImage, built if missing).
# Output: TAP.  Exit: 0 if every test passed.

set -u

here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/.." && pwd)
WORK=${WORK:-$HOME/.cache/ro-campaign}
TREE=${TREE:-$WORK/linux}
boot=$here/boot
. "$here/../lib/tap.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-launcher.XXXXXX") || exit 1
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

make -s -C "$root" programs >"$tmp/make.log" 2>&1 ||
	{ cat "$tmp/make.log"; echo "Bail out! make programs failed"; exit 1; }

if [ -z "${BZIMAGE:-}" ]; then
	echo "# looking up the fast kernel (waits while another kernel build holds the lock)"
	build=$(sh "$here/build-kernel.sh" --config-only fast "$TREE" "$WORK" |
		tail -n 1) || { echo "Bail out! build-kernel.sh --config-only failed"; exit 1; }
	BZIMAGE=$build/ro-campaign/bzImage
	if [ ! -f "$BZIMAGE" ]; then
		echo "# building the fast kernel (no $BZIMAGE yet)"
		sh "$here/build-kernel.sh" fast "$TREE" "$WORK" >&2 ||
			{ echo "Bail out! kernel build failed"; exit 1; }
	fi
fi
[ -f "$BZIMAGE" ] || { echo "Bail out! no kernel at $BZIMAGE"; exit 1; }
echo "# kernel: $BZIMAGE"

# mkinit NAME: /init = the protocol preamble below + stdin, packed with
# busybox-static into $tmp/NAME.cpio.gz.  devtmpfs gives /init its console.
mkinit() {
	d=$tmp/root-$1
	mkdir -p "$d/bin" "$d/dev" "$d/proc" "$d/sys"
	cp /bin/busybox "$d/bin/busybox"
	{
		cat <<'EOF'
#!/bin/busybox sh
/bin/busybox mount -t devtmpfs dev /dev
exec </dev/console >/dev/console 2>&1
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t debugfs debugfs /sys/kernel/debug
# control N [CLAIM]: the lkdtm write in a child; CLAIM overrides expect=.
control() {
	expect=oops
	case " $(cat /proc/cmdline) " in *" rodata=off "*) expect=survive ;; esac
	[ -n "${2:-}" ] && expect=$2
	echo "# rocampaign: begin control"
	if (echo WRITE_RO_AFTER_INIT > /sys/kernel/debug/provoke-crash/DIRECT)
	then result=survive; else result=oops; fi
	echo "# rocampaign: control expect=$expect result=$result"
	echo "ok $1 control"
}
EOF
		cat
	} >"$d/init"
	chmod +x "$d/init"
	(cd "$d" && find . | cpio -o -H newc 2>/dev/null) | gzip >"$tmp/$1.cpio.gz"
}

# run NAME [ARGS...]: boot $tmp/NAME.cpio.gz, results in $tmp/out-NAME.
# Sets rc, secs; stderr in $tmp/NAME.err.
run() {
	name=$1
	shift
	start=$(date +%s)
	"$boot" "$BZIMAGE" --initrd "$tmp/$name.cpio.gz" --out "$tmp/out-$name" \
		--accel tcg --timeout 60 "$@" 2>"$tmp/$name.err"
	rc=$?
	secs=$(($(date +%s) - start))
	out=$tmp/out-$name
	why="exit $rc, verdict $(cat "$out/verdict" 2>/dev/null), $(tail -n 1 "$tmp/$name.err")"
}

# row EXERCISE: "status<TAB>detail" of EXERCISE in result.tsv.
row() {
	awk -F '\t' -v e="$1" '$1 == e { print $2 "\t" $3 }' "$out/result.tsv"
}

status_is() {
	[ "$(row "$1" | cut -f 1)" = "$2" ]
}

detail_has() {
	row "$1" | cut -f 2 | grep -q -- "$2"
}

no_qemu_left() {
	sleep 1
	! pgrep -f "$tmp/$1.cpio.gz" >/dev/null
}

# ---- trivial: boot to poweroff ---------------------------------------------

mkinit trivial <<'EOF'
poweroff -f
EOF
run trivial
echo "# TCG boot to poweroff of the trivial initramfs: $(grep -o 'after [0-9.]* s' "$tmp/trivial.err")"
check "trivial guest without KTAP is invalid (exit 3, control missing)" \
	eval '[ $rc -eq 3 ] && status_is control missing'
"$boot" "$BZIMAGE" --initrd "$tmp/trivial.cpio.gz" --out "$tmp/deep/er/out" \
	--accel tcg --timeout 60 2>/dev/null
check "--out with missing parents is created" \
	test -s "$tmp/deep/er/out/result.tsv"

# ---- (1) hang ----------------------------------------------------------------

mkinit hang <<'EOF'
echo "KTAP version 1"
echo "1..2"
echo "# rocampaign: begin sleeper"
sleep 1000
EOF
run hang --timeout 8
check "never powering off: exit 2, verdict hang" \
	eval '[ $rc -eq 2 ] && [ "$(cat "$out/verdict")" = hang ]'
check "hang ends within timeout + 5 s (took $secs s)" [ "$secs" -le 13 ]
check "the open window is 'hang', the control 'missing'" \
	eval 'status_is sleeper hang && status_is control missing'
check "no QEMU left after a timeout" no_qemu_left hang

# ---- (2) panic -------------------------------------------------------------

mkinit panic <<'EOF'
echo "KTAP version 1"
echo "1..2"
echo "# rocampaign: begin doomed"
exit 0
EOF
run panic
check "init exits: exit 1, verdict fail" \
	eval '[ $rc -eq 1 ] && [ "$(cat "$out/verdict")" = fail ]'
check "the panic line is the detail of the open exercise" \
	eval 'status_is doomed fail && detail_has doomed "Kernel panic - not syncing: Attempted to kill init"'
check "a panic ends the run at once (took $secs s)" [ "$secs" -le 20 ]

# ---- (3) invalid controls ------------------------------------------------

mkinit noctl <<'EOF'
echo "KTAP version 1"
echo "1..1"
echo "# rocampaign: begin first"
echo "ok 1 first"
echo "# rocampaign: done"
poweroff -f
EOF
run noctl
check "control missing: exit 3, verdict invalid" \
	eval '[ $rc -eq 3 ] && [ "$(cat "$out/verdict")" = invalid ] && status_is control missing && status_is first ok'

mkinit ctlnotok <<'EOF'
echo "KTAP version 1"
echo "1..2"
echo "# rocampaign: begin first"
echo "ok 1 first"
echo "# rocampaign: begin control"
echo "# rocampaign: control expect=oops result=oops"
echo "not ok 2 control # lkdtm is missing"
echo "# rocampaign: done"
poweroff -f
EOF
run ctlnotok
check "control not ok: exit 3, verdict invalid, guest reason kept" \
	eval '[ $rc -eq 3 ] && status_is control fail && detail_has control "lkdtm is missing"'

# ---- (4) the lkdtm control -------------------------------------------------

mkinit good <<'EOF'
echo "KTAP version 1"
echo "1..3"
echo "# rocampaign: begin first"
echo "ok 1 first"
echo "# rocampaign: begin second"
echo "ok 2 second # SKIP nothing to do"
control 3
echo "# rocampaign: violations-begin"
printf "symbol\taddress\twriter\tcount\tfirst_cpu\n"
printf "sym_a\t0xffffffff81000000\twriter_fn+0x10/0x40\t1\t0\n"
echo "input: ImExPS/2 Generic Explorer Mouse as /devices/platform/i8042/serio1/input/input3"
printf "[    9.120000] sym_c\tnot-an-address\tx\t1\t0\n"
printf "sym_b\t0xffffffff81000008\tother_fn+0x22/0x80\t3\t1\n"
echo "# rocampaign: violations-end"
echo "# rocampaign: done"
poweroff -f
EOF
run good
check "real lkdtm oops in the control: exit 0, verdict pass" \
	eval '[ $rc -eq 0 ] && [ "$(cat "$out/verdict")" = pass ]'
check "control detail names the oops; skip kept with its reason" \
	eval 'detail_has control "observed=oops: BUG: unable to handle page fault" && status_is second skip && detail_has second "nothing to do"'
check "console.log, cmdline and an empty qmp session are written" \
	eval 'grep -q "Oops" "$out/console.log" && grep -q "maxcpus=1" "$out/cmdline" && grep -q qmp_capabilities "$out/qmp.log"'
check "violations.tsv: header and rows between the markers, console noise dropped" \
	eval '[ "$(wc -l <"$out/violations.tsv")" -eq 3 ] && grep -q "^sym_b.0xffffffff81000008.other_fn+0x22/0x80.3.1$" "$out/violations.tsv"'
echo "# TCG boot of the lkdtm fake suite: $(grep -o 'after [0-9.]* s' "$tmp/good.err")"

run good --append rodata=off
check "rodata=off: the write survives, expect=survive, pass" \
	eval '[ $rc -eq 0 ] && detail_has control "expect=survive observed=survive"'

# The modules table: rows kept, console noise and malformed rows dropped
# (a kernel line, a bad status, a denied module with an exit status, a
# row without its detail).
mkinit modtable <<'EOF'
echo "KTAP version 1"
echo "1..2"
echo "# rocampaign: begin modules"
echo "ok 1 modules"
echo "# rocampaign: modules-begin"
printf "module\tinit\texit\tdetail\n"
printf "crc7\tok\tok\t-\n"
echo "rtc_cmos 00:03: registered as rtc0"
printf "kobject-example\tfailed\t-\tcan't load module kobject-example: No such device\n"
printf "crc4\tloaded\tok\t-\n"
printf "rtc-test\tdenied\tok\t-\n"
printf "crc-itu-t\tok\tfailed\tround 2: Resource temporarily unavailable\n"
printf "crc8\tok\tok\n"
echo "# rocampaign: modules-end"
control 2
echo "# rocampaign: done"
poweroff -f
EOF
mkdir -p "$tmp/out-modtable"
echo stale >"$tmp/out-modtable/modules.tsv"
run modtable
modrows() {
	tail -n +2 "$out/modules.tsv" | cut -f 1 | tr '\n' ' '
}
check "modules.tsv: header and the well-formed rows between the markers" \
	eval '[ $rc -eq 0 ] && [ "$(head -n 1 "$out/modules.tsv")" = "$(printf "module\tinit\texit\tdetail")" ] && [ "$(modrows)" = "crc7 kobject-example crc-itu-t " ] && grep -q "^kobject-example.failed.-.can.t load module kobject-example: No such device$" "$out/modules.tsv"'
mkdir -p "$tmp/out-good"
echo stale >"$tmp/out-good/modules.tsv"
run good
check "no modules table on the console: no modules.tsv (a stale one removed)" \
	eval '[ $rc -eq 0 ] && [ ! -e "$out/modules.tsv" ]'

# A table cut off by the guest ends at the next tag, and the KTAP line
# after it is still read; one cut off by a panic keeps the rows received.
mkinit modcut <<'EOF'
echo "KTAP version 1"
echo "1..2"
echo "# rocampaign: begin modules"
echo "# rocampaign: modules-begin"
printf "module\tinit\texit\tdetail\n"
printf "crc4\tok\tok\t-\n"
printf "crc7\tkilled\t-\tround 1: killed by signal 9\n"
echo "not ok 1 modules # round 1: modprobe crc7: init killed"
echo "# rocampaign: begin doomed"
echo "# rocampaign: modules-begin"
printf "crc8\tok\tok\t-\n"
exit 0
EOF
run modcut
check "a table cut off: the rows received, the result line after it read" \
	eval '[ $rc -eq 1 ] && [ "$(modrows)" = "crc4 crc7 crc8 " ] && status_is modules fail && detail_has modules "init killed" && detail_has doomed "Kernel panic"'

mkinit liar <<'EOF'
echo "KTAP version 1"
echo "1..1"
control 1 oops
echo "# rocampaign: done"
poweroff -f
EOF
run liar --append rodata=off
check "guest claims expect=oops under rodata=off: invalid" \
	eval '[ $rc -eq 3 ] && detail_has control "implies survive"'

mkinit liar2 <<'EOF'
echo "KTAP version 1"
echo "1..1"
control 1 survive
echo "# rocampaign: done"
poweroff -f
EOF
run liar2
check "guest expects survive but the kernel oopses: invalid" \
	eval '[ $rc -eq 3 ] && status_is control fail'

mkinit crash <<'EOF'
(echo WRITE_RO_AFTER_INIT > /sys/kernel/debug/provoke-crash/DIRECT)
echo "KTAP version 1"
echo "1..3"
echo "# rocampaign: begin writer"
(echo WRITE_RO_AFTER_INIT > /sys/kernel/debug/provoke-crash/DIRECT)
echo "ok 1 writer"
echo "# rocampaign: begin warner"
if zcat /proc/config.gz | grep -q "^CONFIG_BUG=y"; then
	echo WARNING > /sys/kernel/debug/provoke-crash/DIRECT
	echo "ok 2 warner"
else
	echo "ok 2 warner # SKIP CONFIG_BUG is off"
fi
control 3
echo "# rocampaign: done"
poweroff -f
EOF
run crash
check "an oops outside the control fails its exercise with the BUG line" \
	eval '[ $rc -eq 1 ] && status_is writer fail && detail_has writer "BUG: unable to handle page fault"'
check "an oops outside any window fails the pseudo-exercise kernel" \
	eval 'status_is kernel fail && detail_has kernel "BUG: unable to handle"'
if status_is warner skip; then
	ok "a WARNING fails its exercise # SKIP CONFIG_BUG is off in this kernel: WARN_ON prints nothing"
else
	check "a WARNING fails its exercise; the control stays ok" \
		eval 'status_is warner fail && detail_has warner "WARNING: CPU" && status_is control ok'
fi

mkinit reset <<'EOF'
echo "KTAP version 1"
echo "1..2"
echo "# rocampaign: begin resetter"
reboot -f
EOF
run reset
check "a guest that resets inside an exercise fails it (no panic needed)" \
	eval '[ $rc -eq 1 ] && status_is resetter fail && detail_has resetter "guest-reset"'

# ---- (5) real S3 through QMP -----------------------------------------------

mkinit s3 <<'EOF'
echo "KTAP version 1"
echo "1..2"
echo "# rocampaign: begin suspend-s3"
# As the suspend-s3 exercise does: a CPU never started (maxcpus=1) makes
# the TCG guest crawl after the resume.
for c in /sys/devices/system/cpu/cpu[1-9]*/online; do echo 1 >"$c"; done
echo deep > /sys/power/mem_sleep
if echo mem > /sys/power/state; then
	echo "ok 1 suspend-s3"
else
	echo "not ok 1 suspend-s3 # writing mem failed"
fi
control 2
echo "# rocampaign: done"
poweroff -f
EOF
# The timeout is generous (a run takes about 10 s here) because a CI
# machine may be much slower: what is asserted is how the run ends, not
# how fast the guest is.
run s3 --timeout 150
check "S3 suspend is woken by system_wakeup: pass, not hang" \
	eval '[ $rc -eq 0 ] && status_is suspend-s3 ok'
sed 's/^/#   /' "$tmp/s3.err"
check "qmp.log records the SUSPEND event and the wakeup" \
	eval 'grep -q "\"SUSPEND\"" "$out/qmp.log" && grep -q "suspends 1, system_wakeup 1" "$out/qmp.log"'
check "after done, a guest that cannot power off (ACPI S5 after S3) is stopped, not left to the timeout" \
	eval '[ $secs -lt 150 ] && grep -q "did not power off" "$tmp/s3.err" && grep -q "verdict pass" "$tmp/s3.err"'
echo "# TCG boot with S3: $(grep -o 'after [0-9.]* s' "$tmp/s3.err")"

# ---- signals: SIGTERM and SIGKILL of the launcher ------------------------

# bg_boot NAME: start a hanging boot in the background, wait for its window.
bg_boot() {
	"$boot" "$BZIMAGE" --initrd "$tmp/hang.cpio.gz" --out "$tmp/out-$1" \
		--accel tcg --timeout 60 2>"$tmp/$1.err" &
	pid=$!
	i=0
	while [ $i -lt 30 ] && ! grep -q "begin sleeper" "$tmp/out-$1/console.log" 2>/dev/null; do
		sleep 1
		i=$((i + 1))
	done
}

bg_boot sigterm
kill -TERM $pid
wait $pid
rc=$?
why="exit $rc: $(tail -n 1 "$tmp/sigterm.err")"
check "SIGTERM: non-zero exit with a message, no verdict" \
	eval '[ $rc -ne 0 ] && grep -q "QEMU killed" "$tmp/sigterm.err" && [ ! -f "$tmp/out-sigterm/verdict" ]'
check "SIGTERM: no QEMU left" no_qemu_left hang

bg_boot sigkill
kill -KILL $pid
wait $pid 2>/dev/null
check "SIGKILL of the launcher: QEMU dies with it (PDEATHSIG)" no_qemu_left hang

# ---- KVM probe -----------------------------------------------------------

run good --accel auto --probe-timeout 8
accel=$(grep -o '(KVM\|(TCG' "$tmp/good.err" | tail -n 1)
echo "# --accel auto: $(grep -i 'probe' "$tmp/good.err" | tail -n 1); final run ${accel#(}, $secs s"
check "--accel auto never hangs: pass within probe + run (took $secs s)" \
	eval '[ $rc -eq 0 ] && [ $secs -le 40 ]'

# ---- (6) usage and host errors ---------------------------------------------

usage() {
	"$boot" "$@" >"$tmp/usage.out" 2>"$tmp/usage.err"
	rc=$?
	why="exit $rc: $(head -n 1 "$tmp/usage.err")"
}

usage
check "no KERNEL: exit 64 with a message" \
	eval '[ $rc -eq 64 ] && grep -q "missing KERNEL" "$tmp/usage.err"'
usage "$BZIMAGE" --timeout soon
check "--timeout soon: exit 64 naming the option" \
	eval '[ $rc -eq 64 ] && grep -q -- "--timeout" "$tmp/usage.err"'
usage "$BZIMAGE" --accel xen
check "--accel xen: exit 64" eval '[ $rc -eq 64 ] && grep -q xen "$tmp/usage.err"'
usage "$BZIMAGE" --frobnicate
check "unknown option: exit 64" eval '[ $rc -eq 64 ] && grep -q frobnicate "$tmp/usage.err"'
usage "$BZIMAGE" "$BZIMAGE"
check "two kernels: exit 64" eval '[ $rc -eq 64 ]'
usage --help
check "--help: exit 0 with usage and exit codes" \
	eval '[ $rc -eq 0 ] && grep -q "^usage: boot KERNEL" "$tmp/usage.out" && grep -q "64 usage" "$tmp/usage.out"'
usage "$tmp/no-such-bzImage" --initrd "$tmp/good.cpio.gz" --out "$tmp/out-usage"
check "missing kernel file: exit 70 naming it" \
	eval '[ $rc -eq 70 ] && grep -q "no-such-bzImage" "$tmp/usage.err"'
cp "$BZIMAGE" "$tmp/bzImage"
usage "$tmp/bzImage" --out "$tmp/out-usage"
check "missing default initrd: exit 70 naming it" \
	eval '[ $rc -eq 70 ] && grep -q "initramfs.cpio.gz" "$tmp/usage.err"'
usage "$BZIMAGE" --initrd "$tmp/good.cpio.gz" --out "$tmp/out-usage" \
	--qemu "$tmp/no-such-qemu" --accel tcg
check "QEMU binary missing: exit 70 'cannot run'" \
	eval '[ $rc -eq 70 ] && grep -q "cannot run" "$tmp/usage.err"'
usage "$tmp/good.cpio.gz" --initrd "$tmp/good.cpio.gz" --out "$tmp/out-usage" \
	--accel tcg
check "a non-kernel is refused before QEMU: exit 65 naming it" \
	eval '[ $rc -eq 65 ] && grep -q "good.cpio.gz: not an x86 bzImage" "$tmp/usage.err"'

finish
