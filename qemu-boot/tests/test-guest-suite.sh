#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-guest-suite.sh - the guest side of the harness: mkinitramfs.sh
# (deterministic, cached, clear errors) and the exercise suite of
# qemu-boot/guest/, booted for real under QEMU with qemu-boot/boot on the
# fast kernel: the whole suite must pass, rodata=off must flip the
# control to expect=survive, --exercise must select, and an unknown
# exercise must fail the run.
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
mkinit=$here/mkinitramfs.sh
guest=$here/guest
. "$here/../lib/tap.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-guest-suite.XXXXXX") || exit 1
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

# ---- static checks of the guest files ------------------------------------

syntax_ok() {
	for f in "$guest/init" "$guest/lib.sh" "$guest"/exercises/*; do
		busybox sh -n "$f" 2>"$tmp/sh-n.err" ||
			{ why="$f: $(head -n 1 "$tmp/sh-n.err")"; return 1; }
	done
}
check "every guest script parses (busybox sh -n)" syntax_ok

# Every denylist entry carries its reason.
documented() {
	bad=$(grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$1" | grep -v '#[[:space:]]*[^[:space:]]')
	[ -z "$bad" ] || { why="undocumented: $(echo "$bad" | head -n 1)"; return 1; }
}
check "write-denylist: every entry has a reason" documented "$guest/write-denylist"
check "read-denylist: every entry has a reason" documented "$guest/read-denylist"

denied() {
	grep -q "^$1[[:space:]]" "$2" || { why="$1 not in $2"; return 1; }
}
for f in /proc/sys/vm/drop_caches /proc/sys/vm/compact_memory \
	 /proc/sys/vm/stat_refresh /sys/power/state \
	 '/sys/kernel/debug/provoke-crash/\*'; do
	check "write-denylist holds $f" denied "$f" "$guest/write-denylist"
done
for f in /proc/kmsg /sys/power/wakeup_count; do
	check "read-denylist holds $f" denied "$f" "$guest/read-denylist"
done

# The default list in /init names exactly the exercise scripts ("all"),
# minus control (always last) and the opt-in ones.
all_list=$(sed -n 's/^ALL="\(.*\)"$/\1/p' "$guest/init")
all_complete() {
	for f in "$guest"/exercises/*; do
		name=${f##*/}
		case " $all_list control lkdtm-ro-twice " in
		*" $name "*) ;;
		*) why="exercises/$name is not in ALL of guest/init"; return 1 ;;
		esac
	done
	for name in $all_list; do
		[ -f "$guest/exercises/$name" ] || { why="no exercises/$name"; return 1; }
	done
}
check "ALL in guest/init matches guest/exercises/" all_complete

# ---- mkinitramfs.sh ---------------------------------------------------------

check "mkinitramfs.sh --help exits 0" sh "$mkinit" --help
usage_err() {
	sh "$mkinit" >/dev/null 2>&1
	st=$?
	[ $st -eq 64 ] || { why="exit $st, want 64"; return 1; }
}
check "mkinitramfs.sh without an argument is a usage error" usage_err
missing_dir() {
	sh "$mkinit" "$tmp/nonexistent" 2>"$tmp/err"
	st=$?
	[ $st -eq 65 ] && grep -q "nonexistent: no such directory" "$tmp/err" ||
		{ why="exit $st: $(cat "$tmp/err")"; return 1; }
}
check "mkinitramfs.sh names a missing result directory" missing_dir
mkdir -p "$tmp/notbuilt"
not_built() {
	sh "$mkinit" "$tmp/notbuilt" 2>"$tmp/err"
	st=$?
	[ $st -eq 65 ] && grep -q "kernelrelease missing" "$tmp/err" ||
		{ why="exit $st: $(cat "$tmp/err")"; return 1; }
}
check "mkinitramfs.sh rejects a directory without kernelrelease" not_built

if [ -z "${BZIMAGE:-}" ]; then
	build=$(sh "$here/build-kernel.sh" --config-only fast "$TREE" "$WORK" |
		tail -n 1) || { echo "Bail out! build-kernel.sh --config-only failed"; exit 1; }
	BZIMAGE=$build/ro-campaign/bzImage
	if [ ! -f "$BZIMAGE" ]; then
		echo "# building the fast kernel (no $BZIMAGE yet)"
		sh "$here/build-kernel.sh" fast "$TREE" "$WORK" >&2 ||
			{ echo "Bail out! kernel build failed"; exit 1; }
	fi
fi
res=$(dirname "$BZIMAGE")
[ -f "$res/kernelrelease" ] || { echo "Bail out! $res/kernelrelease missing"; exit 1; }
release=$(cat "$res/kernelrelease")

# Determinism and caching, on a private copy of the result directory.
mkdir -p "$tmp/res"
cp "$res/kernelrelease" "$tmp/res/"
[ -d "$res/modroot" ] && cp -a "$res/modroot" "$tmp/res/"
built_ok() {
	sh "$mkinit" "$tmp/res" 2>"$tmp/err" && [ -s "$tmp/res/initramfs.cpio.gz" ] ||
		{ why="$(cat "$tmp/err")"; return 1; }
}
check "mkinitramfs.sh builds an initramfs" built_ok
sum1=$(sha1sum < "$tmp/res/initramfs.cpio.gz")
cached() {
	touch -d @1000 "$tmp/res/initramfs.cpio.gz"
	sh "$mkinit" "$tmp/res" 2>"$tmp/err" || { why=$(cat "$tmp/err"); return 1; }
	grep -q "up to date" "$tmp/err" || { why="rebuilt: $(cat "$tmp/err")"; return 1; }
	[ "$(stat -c %Y "$tmp/res/initramfs.cpio.gz")" = 1000 ] || { why="archive rewritten"; return 1; }
}
check "a second run with the same inputs is a no-op" cached
deterministic() {
	sh "$mkinit" --force "$tmp/res" 2>"$tmp/err" || { why=$(cat "$tmp/err"); return 1; }
	sum2=$(sha1sum < "$tmp/res/initramfs.cpio.gz")
	[ "$sum1" = "$sum2" ] || { why="$sum1 then $sum2"; return 1; }
}
check "a forced rebuild gives the same bytes" deterministic
invalidated() {
	echo "# test" > "$tmp/res/modroot/lib/modules/$release/extra.txt" 2>/dev/null ||
		{ why="no modroot to change"; return 1; }
	sh "$mkinit" "$tmp/res" 2>"$tmp/err" || { why=$(cat "$tmp/err"); return 1; }
	grep -q "wrote" "$tmp/err" || { why="not rebuilt: $(cat "$tmp/err")"; return 1; }
	rm -f "$tmp/res/modroot/lib/modules/$release/extra.txt"
}
check "a changed module tree rebuilds the archive" invalidated

(cd "$tmp" && mkdir x && cd x && gzip -dc "$tmp/res/initramfs.cpio.gz" |
	cpio -idm --quiet 2>/dev/null)
has() {
	[ -e "$tmp/x/$1" ] || [ -L "$tmp/x/$1" ] || { why="no /$1 in the archive"; return 1; }
}
check "archive: /init" has init
check "archive: /bin/busybox and its applet links" sh -c \
	"[ -x '$tmp/x/bin/busybox' ] && [ -L '$tmp/x/bin/sh' ] && [ -L '$tmp/x/sbin/modprobe' ]"
check "archive: /rocampaign/lib.sh and the denylists" sh -c \
	"[ -f '$tmp/x/rocampaign/lib.sh' ] && [ -f '$tmp/x/rocampaign/write-denylist' ] && [ -f '$tmp/x/rocampaign/read-denylist' ]"
check "archive: every exercise" sh -c \
	"for f in '$guest'/exercises/*; do [ -x '$tmp/x/rocampaign/exercises/'\${f##*/} ] || exit 1; done"
if [ -d "$res/modroot/lib/modules/$release" ]; then
	nko=$(find "$res/modroot/lib/modules/$release" -name '*.ko' | wc -l)
	check "archive: the $nko modules and modules.dep" sh -c \
		"[ -f '$tmp/x/lib/modules/$release/modules.dep' ] && [ \$(find '$tmp/x/lib/modules/$release' -name '*.ko' | wc -l) -eq $nko ]"
	check "archive: no link into the host's tree" sh -c \
		"[ ! -e '$tmp/x/lib/modules/$release/build' ] && [ ! -e '$tmp/x/lib/modules/$release/source' ]"
fi

# ---- real boots -------------------------------------------------------------

if ! make -s -C "$root" programs >"$tmp/make.log" 2>&1 || [ ! -x "$boot" ]; then
	not_ok "qemu-boot/boot builds" "$(tail -n 3 "$tmp/make.log")"
	finish
fi
sh "$mkinit" "$res" 2>"$tmp/err" ||
	{ not_ok "mkinitramfs.sh on $res" "$(cat "$tmp/err")"; finish; }

# run NAME ARGS...: boot the fast kernel with its initramfs into $tmp/NAME.
run() {
	name=$1
	shift
	start=$(date +%s)
	"$boot" "$BZIMAGE" --accel tcg --out "$tmp/$name" "$@" >"$tmp/$name.log" 2>&1
	rc=$?
	echo "# $name: exit $rc, verdict $(cat "$tmp/$name/verdict" 2>/dev/null), $(($(date +%s) - start)) s wall"
}
status_of() {
	awk -F'\t' -v e="$2" '$1 == e { print $2 }' "$tmp/$1/result.tsv" 2>/dev/null
}
verdict_is() {
	v=$(cat "$tmp/$1/verdict" 2>/dev/null)
	[ "$v" = "$2" ] || { why="verdict ${v:-none} (exit $rc), want $2; see $tmp/$1"; KEEP=1; return 1; }
}

run full
check "full suite: verdict pass, exit 0" verdict_is full pass
every_ok_or_skip() {
	rows=$(tail -n +2 "$tmp/full/result.tsv" 2>/dev/null)
	[ -n "$rows" ] || { why="no result.tsv rows"; return 1; }
	bad=$(echo "$rows" | awk -F'\t' '!($2 == "ok" || ($2 == "skip" && $3 != "")) { print $1 ":" $2 }')
	[ -z "$bad" ] || { why="$bad"; return 1; }
	for e in $all_list control; do
		[ -n "$(status_of full "$e")" ] || { why="$e missing from result.tsv"; return 1; }
	done
}
check "full suite: every exercise ok, or skip with a reason" every_ok_or_skip
for e in boot cpu-online cpu-hotplug pm-test suspend-s3 modules sysfs-write read-all; do
	check "full suite: $e ok" sh -c "[ '$(status_of full "$e")' = ok ]"
done
console_has() {
	grep -q -- "$2" "$tmp/$1/console.log" 2>/dev/null || { why="no '$2' in the console"; return 1; }
}
check "full suite: control expected and saw an oops" console_has full \
	"# rocampaign: control expect=oops result=oops"
check "full suite: per-exercise time diagnostics" console_has full \
	"# rocampaign: exercise-time read-all "
check "full suite: cpu-online brought cpu1 up" console_has full "# cpu-online: onlined cpu1"
check "full suite: the guest powered off after done" console_has full "reboot: Power down"
grep -a '# rocampaign: exercise-time' "$tmp/full/console.log" 2>/dev/null |
	sed 's/^/# /'

# The modules table of the full run: one row per .ko of the build, and
# a module that loads is cycled (init ok, exit ok) in both rounds.
modroot=$res/modroot/lib/modules/$release
kos=$(find "$modroot" -name '*.ko' 2>/dev/null | sed 's,.*/,,; s,\.ko$,,' | LC_ALL=C sort | tr '\n' ' ')
mrows() {
	tail -n +2 "$tmp/$1/modules.tsv" 2>/dev/null | cut -f 1 | LC_ALL=C sort | tr '\n' ' '
}
mrow() {
	awk -F'\t' -v m="$2" '$1 == m { print $2 " " $3 }' "$tmp/$1/modules.tsv" 2>/dev/null
}
has_header() {
	[ "$(head -n 1 "$tmp/$1/modules.tsv" 2>/dev/null)" = "$(printf 'module\tinit\texit\tdetail')" ] ||
		{ why="no modules.tsv header in $tmp/$1"; KEEP=1; return 1; }
}
one_row_per_ko() {
	[ -n "$kos" ] || { why="no .ko in $modroot"; return 1; }
	has_header "$1" || return 1
	[ "$(mrows "$1")" = "$kos" ] || { why="rows: $(mrows "$1"), .ko: $kos"; KEEP=1; return 1; }
}
loaded_cycle() {
	bad=$(tail -n +2 "$tmp/$1/modules.tsv" | awk -F'\t' \
		'!($2 == "ok" && $3 == "ok" && $4 == "-") && !($2 == "failed" && $3 == "-" && $4 != "-") { print $1 ":" $2 "/" $3 }')
	good=$(tail -n +2 "$tmp/$1/modules.tsv" | awk -F'\t' '$2 == "ok" && $3 == "ok"' | wc -l)
	[ -z "$bad" ] && [ "$good" -gt 0 ] || { why="bad rows: $bad; $good cycled"; return 1; }
}
check "full suite: modules.tsv has one row per .ko of the build ($kos)" one_row_per_ko full
check "full suite: every module cycled (init ok, exit ok) or refused with a reason" loaded_cycle full
# The module to deny: rtc-test announces itself on the console when its
# device registers, so "never loaded" can be seen.
deny=rtc-test
check "full suite: $deny cycled and seen on the console" sh -c \
	"[ '$(mrow full $deny)' = 'ok ok' ] && grep -q 'rtc-test rtc-test.0: registered as rtc' '$tmp/full/console.log'"

# moddeny and modtimeout: the denied module is never loaded; a tiny
# timeout parses (its effect on the other rows depends on the machine's
# speed and is not asserted).
run moddeny --exercise modules --append "rocampaign.moddeny=crc8,$deny" \
	--append rocampaign.modtimeout=1
check "--exercise modules, moddeny: modules.tsv written" has_header moddeny
check "moddeny: the $deny row is 'denied -'" sh -c "[ '$(mrow moddeny $deny)' = 'denied -' ]"
check "moddeny: $deny never loaded (no 'rtc-test rtc-test.N' line on the console)" sh -c \
	"! grep -q 'rtc-test rtc-test' '$tmp/moddeny/console.log'"
check "moddeny: the table is printed between its markers" console_has moddeny "# rocampaign: modules-end"
check "modtimeout=1 parses: the exercise says 1 s" console_has moddeny \
	"# modules: per-module timeout 1 s, deny list: crc8 rtc_test"
grep -a '# rocampaign: exercise-time modules' "$tmp/moddeny/console.log" 2>/dev/null |
	sed 's/^/# moddeny run: /'

run rodata-off --exercise boot --append rodata=off
check "rodata=off: verdict pass" verdict_is rodata-off pass
check "rodata=off: the control expects and sees survive" console_has rodata-off \
	"# rocampaign: control expect=survive result=survive"

run select --exercise boot
check "--exercise boot: verdict pass" verdict_is select pass
only_boot() {
	rows=$(tail -n +2 "$tmp/select/result.tsv" 2>/dev/null | cut -f1 | tr '\n' ' ')
	[ "$rows" = "boot control " ] || { why="rows: $rows"; return 1; }
}
check "--exercise boot: runs boot and control only" only_boot

# S3 with no earlier exercise to start cpu1 (maxcpus=1): before the
# exercise onlined the CPUs itself, this run crawled into the timeout.
run s3-alone --exercise suspend-s3 --timeout 150
check "--exercise suspend-s3 alone: verdict pass, not a hang" verdict_is s3-alone pass
check "--exercise suspend-s3 alone: suspend-s3 ok" sh -c \
	"[ '$(status_of s3-alone suspend-s3)' = ok ]"

run unknown --exercise boot,no-such-exercise
check "an unknown exercise fails the run" verdict_is unknown fail
check "an unknown exercise is reported by name" sh -c \
	"[ '$(status_of unknown no-such-exercise)' = fail ]"

finish
