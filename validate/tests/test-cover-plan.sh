#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-cover-plan.sh - validate/cover-plan, the build-need resolver (issue
# 16, part 1), on the real tree: one file of each kind, resolved on top of
# x86_64_defconfig made in a scratch directory, then on one without sound
# and USB for the dependency closure, then kvm_main.c (an include line)
# and sb16.c (--compile-test).  The tree must not change.  Seconds:
# a few olddefconfig runs, no kernel build.

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
WORK=${WORK:-$HOME/.cache/ro-campaign}
TREE=${TREE:-$WORK/linux}
st=$WORK/test-cover-plan
bin=$here/cover-plan
. "$top/lib/tap.sh"

[ -x "$bin" ] || make -C "$top" -s validate/cover-plan ||
	{ not_ok "build validate/cover-plan" "make failed"; finish; }
[ -f "$TREE/Kbuild" ] || { not_ok "a kernel tree" "no $TREE (make setup)"; finish; }
rm -rf "$st"
mkdir -p "$st/base" "$st/out"

tree_state() {
	git -C "$TREE" status --porcelain --ignored
	git -C "$TREE" rev-parse HEAD
}
tree_state > "$st/tree.before"

# The base .config: x86_64_defconfig in a build directory of our own.
if ! make -s -C "$TREE" O="$st/base" x86_64_defconfig > "$st/base.log" 2>&1; then
	not_ok "x86_64_defconfig in a scratch directory" "$(tail -n 3 "$st/base.log")"
	finish
fi

# (a) built by the base; (b) a modular driver the base leaves out;
# (c) a member of a composite object, dccp-$(CONFIG_IP_DCCP_CCID3) +=
# ccids/ccid3.o, in the parent directory's Makefile; (d) another arch;
# (e) a driver whose symbol depends on a powerpc platform; (f) a member
# of a composite that another list names, ip_vs-objs += $(ip_vs_proto-objs-y);
# (g) a driver whose symbol has no prompt, so a symbol that selects it
# goes in; (h) plain tristates of lib/Kconfig.debug after a choice whose
# endchoice carries a comment (not choice members); (i) a symbol that
# scripts/kconfig/tests also defines (only what the top Kconfig sources
# counts); (j) a symbol whose depends on names an off symbol, which goes
# in for it (PARPORT; GPIOLIB of GPIOLIB || COMPILE_TEST); (k) one that
# depends on X86_32, which is never turned on; (l) a member of a choice
# the base chose another of (the unwinder: x86_64_defconfig picks ORC,
# not frame pointers, on 6.1 and 6.12 alike).  A file named twice (two
# variables) has one plan row.
tab=$(printf '\t')
{
	echo "file${tab}line${tab}name${tab}storage${tab}class${tab}confidence${tab}reason${tab}evidence"
	for f in kernel/fork.c drivers/char/applicom.c net/dccp/ccids/ccid3.c \
		arch/arm/kernel/setup.c drivers/tty/hvc/hvc_vio.c kernel/fork.c \
		net/netfilter/ipvs/ip_vs_proto_sctp.c \
		drivers/net/wireless/realtek/rtw88/coex.c \
		lib/test_static_keys.c lib/test_ida.c drivers/net/dummy.c \
		drivers/char/ppdev.c drivers/misc/ti-st/st_kim.c \
		drivers/char/sonypi.c arch/x86/kernel/unwind_frame.c \
		drivers/char/ipmi/ipmi_devintf.c; do
		echo "$f${tab}10${tab}v${tab}static${tab}ro_after_init${tab}high${tab}r${tab}-"
	done
	echo "mm/slub.c${tab}10${tab}w${tab}static${tab}const${tab}-${tab}r${tab}-"
	echo "init/main.c${tab}10${tab}u${tab}static${tab}initdata${tab}-${tab}r${tab}-"
} > "$st/cand.tsv"

start=$(date +%s)
"$bin" --candidates "$st/cand.tsv" --tree "$TREE" --config "$st/base/.config" \
	--out "$st/out" > "$st/stdout" 2> "$st/stderr"
rc=$?
secs=$(( $(date +%s) - start ))
check "cover-plan exits 0 (took ${secs} s)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/# /' "$st/stderr"

plan=$st/out/plan.tsv
# field FILE COLUMN: that column of FILE's row in the plan
field() {
	awk -F '\t' -v f="$1" -v c="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["file"] == f { print $col[c] }' "$plan"
}
# expect FILE COLUMN VALUE
expect() {
	got=$(field "$1" "$2")
	why="$1: $2 is '$got', not '$3'"
	[ "$got" = "$3" ]
}
# expect_has FILE COLUMN TEXT
expect_has() {
	got=$(field "$1" "$2")
	why="$1: $2 '$got' lacks '$3'"
	case $got in *"$3"*) return 0 ;; esac
	return 1
}
# expect_lacks FILE COLUMN TEXT
expect_lacks() {
	got=$(field "$1" "$2")
	why="$1: $2 '$got' has '$3'"
	case $got in *"$3"*) return 1 ;; esac
	return 0
}
not() { ! "$@"; }

check "the header" [ "$(head -n 1 "$plan")" = "file${tab}symbols${tab}state${tab}detail" ]
check "one row per file of a conversion (ro_after_init, initdata)" [ "$(wc -l < "$plan")" -eq 17 ]
check "an initdata row's file is planned: init/main.c" \
	expect init/main.c state buildable
check "(a) kernel/fork.c: obj-y, buildable" \
	expect kernel/fork.c symbols -
check "(a) kernel/fork.c: state" expect kernel/fork.c state buildable
check "(b) applicom.c: its symbol" \
	expect drivers/char/applicom.c symbols CONFIG_APPLICOM
check "(b) applicom.c: buildable" \
	expect drivers/char/applicom.c state buildable
check "(b) applicom.c: tristate goes in as =m" \
	expect drivers/char/applicom.c detail "adds CONFIG_APPLICOM=m"
check "(c) ccid3.c: the composite's symbols and the directory chain" \
	expect net/dccp/ccids/ccid3.c symbols \
	CONFIG_NET,CONFIG_IP_DCCP,CONFIG_IP_DCCP_CCID3
check "(c) ccid3.c: buildable" expect net/dccp/ccids/ccid3.c state buildable
check "(c) ccid3.c: tristate =m, bool =y" \
	expect net/dccp/ccids/ccid3.c detail \
	"adds CONFIG_IP_DCCP=m,CONFIG_IP_DCCP_CCID3=y"
check "(d) arch/arm: other-arch" expect arch/arm/kernel/setup.c state other-arch
check "(d) arch/arm: names the arch" expect arch/arm/kernel/setup.c detail arm
check "(e) hvc_vio.c: unmet" expect drivers/tty/hvc/hvc_vio.c state unmet
check "(e) hvc_vio.c: names the symbol that did not stick" \
	expect_has drivers/tty/hvc/hvc_vio.c detail "CONFIG_HVC_CONSOLE did not stick"
check "(e) hvc_vio.c: and its depends on line" \
	expect_has drivers/tty/hvc/hvc_vio.c detail \
	"drivers/tty/hvc/Kconfig:14: depends on PPC_PSERIES"
check "(f) ip_vs_proto_sctp.c: the list that names the composite" \
	expect net/netfilter/ipvs/ip_vs_proto_sctp.c symbols \
	CONFIG_NET,CONFIG_NETFILTER,CONFIG_IP_VS,CONFIG_IP_VS_PROTO_SCTP
check "(f) ip_vs_proto_sctp.c: buildable" \
	expect net/netfilter/ipvs/ip_vs_proto_sctp.c state buildable
check "(g) rtw88/coex.c: a selector of the promptless RTW88_CORE" \
	expect drivers/net/wireless/realtek/rtw88/coex.c symbols \
	CONFIG_WLAN,CONFIG_WLAN_VENDOR_REALTEK,CONFIG_RTW88,CONFIG_RTW88_CORE,CONFIG_RTW88_8822BE
check "(g) rtw88/coex.c: buildable" \
	expect drivers/net/wireless/realtek/rtw88/coex.c state buildable
check "(h) test_static_keys.c: not a choice member, buildable" \
	expect lib/test_static_keys.c detail "adds CONFIG_TEST_STATIC_KEYS=m"
check "(h) test_ida.c: not a choice member, buildable" \
	expect lib/test_ida.c detail "adds CONFIG_TEST_IDA=m"
check "(i) dummy.c: drivers/net/Kconfig's DUMMY, buildable" \
	expect drivers/net/dummy.c detail "adds CONFIG_DUMMY=m"
check "(i2) ipmi_devintf.c: a prompt in single quotes is a prompt: buildable" \
	expect drivers/char/ipmi/ipmi_devintf.c state buildable
check "(i) no Kconfig the top Kconfig does not source" \
	not grep -q 'scripts/kconfig/tests\|arch/arm64/Kconfig' "$plan"
line=$(grep -n '^config PPDEV' "$TREE/drivers/char/Kconfig" | cut -d: -f1)
check "(j) ppdev.c: PARPORT goes in for PPDEV's depends on" \
	expect drivers/char/ppdev.c detail \
	"adds CONFIG_PPDEV=m,CONFIG_PARPORT=m (for CONFIG_PPDEV: drivers/char/Kconfig:$line depends on PARPORT)"
check "(j) st_kim.c: GPIOLIB, not COMPILE_TEST, of GPIOLIB || COMPILE_TEST" \
	expect_has drivers/misc/ti-st/st_kim.c detail \
	"adds CONFIG_TI_ST=m,CONFIG_GPIOLIB=y (for CONFIG_TI_ST: drivers/misc/ti-st/Kconfig:"
check "(j) st_kim.c: buildable" expect drivers/misc/ti-st/st_kim.c state buildable
check "(k) sonypi.c: unmet on X86_32" \
	expect_has drivers/char/sonypi.c detail "did not stick: drivers/char/Kconfig:"
check "(k) sonypi.c: X86_32 was not tried" \
	expect_lacks drivers/char/sonypi.c detail "tried"
check "(k) the base's basics stay: 64BIT on, no X86_32, no COMPILE_TEST" \
	sh -c 'grep -qx CONFIG_64BIT=y "$1" && ! grep -q "^CONFIG_\(X86_32\|COMPILE_TEST\)=" "$1"' - \
	"$st/out/kconfig/.config"
check "(l) unwind_frame.c: a member of the unwinder choice" \
	expect_has arch/x86/kernel/unwind_frame.c detail \
	"CONFIG_UNWINDER_FRAME_POINTER is not set: arch/x86/Kconfig.debug:"
check "(l) unwind_frame.c: unmet" \
	expect arch/x86/kernel/unwind_frame.c state unmet

frag=$st/out/cover.config
check "the fragment: the symbols the buildable files add" \
	[ "$(LC_ALL=C sort "$frag" | tr '\n' ' ')" = "CONFIG_APPLICOM=m CONFIG_DUMMY=m CONFIG_GPIOLIB=y CONFIG_IPMI_DEVICE_INTERFACE=m CONFIG_IPMI_HANDLER=m CONFIG_IP_DCCP=m CONFIG_IP_DCCP_CCID3=y CONFIG_IP_VS=m CONFIG_IP_VS_PROTO_SCTP=y CONFIG_PARPORT=m CONFIG_PPDEV=m CONFIG_RTW88=m CONFIG_RTW88_8822BE=m CONFIG_RTW88_CORE=m CONFIG_TEST_IDA=m CONFIG_TEST_STATIC_KEYS=m CONFIG_TI_ST=m " ]
check "the summary line" \
	[ "$(cat "$st/stdout")" = "cover-plan: 16 files: 12 buildable, 1 other-arch, 3 unmet; fragment 17 symbols, 3 for dependencies (2 olddefconfig runs)" ]
check "the fragment stuck in the scratch .config" \
	grep -qx CONFIG_APPLICOM=m "$st/out/kconfig/.config"

# refrag BASE FRAG DIR: FRAG merged onto BASE and resolved in DIR keeps
# every line of FRAG (what the cover profile does with it).
refrag() {
	rm -rf "$3"
	mkdir -p "$3"
	cat "$1" "$2" > "$3/.config"
	make -s -C "$TREE" O="$3" olddefconfig > "$3.log" 2>&1 || return 1
	lost=$(grep -vxF -f "$3/.config" "$2" | tr '\n' ' ')
	why="lost on the base: $lost"
	[ -z "$lost" ]
}
check "the fragment on the base resolves to itself" \
	refrag "$st/base/.config" "$frag" "$st/refrag"

# (m) The dependency closure over rounds, across sourced files: a base
# without sound and USB.  SND sits in "if SOUND" of sound/Kconfig, which
# sources sound/core/Kconfig; USB in drivers/usb/Kconfig's
# "if USB_SUPPORT".  Each goes in for the symbol that needs it.
mkdir -p "$st/base2"
cp "$st/base/.config" "$st/base2/.config"
if ! { "$TREE/scripts/config" --file "$st/base2/.config" \
	--disable SOUND --disable USB_SUPPORT &&
	make -s -C "$TREE" O="$st/base2" olddefconfig; } > "$st/base2.log" 2>&1; then
	not_ok "a base without SOUND and USB_SUPPORT" "$(tail -n 3 "$st/base2.log")"
	finish
fi
{
	head -n 1 "$st/cand.tsv"
	for f in sound/core/seq/seq_dummy.c drivers/w1/masters/ds2490.c; do
		echo "$f${tab}10${tab}v${tab}static${tab}ro_after_init${tab}high${tab}r${tab}-"
	done
} > "$st/cand2.tsv"
"$bin" --candidates "$st/cand2.tsv" --tree "$TREE" \
	--config "$st/base2/.config" --out "$st/out3" > "$st/stdout3" 2> "$st/stderr3"
rc=$?
check "(m) cover-plan on a base without sound and USB exits 0" [ $rc -eq 0 ]
plan=$st/out3/plan.tsv
sline=$(grep -n '^menuconfig SND$' "$TREE/sound/Kconfig" | cut -d: -f1)
check "(m) seq_dummy.c: SOUND=m for SND's enclosing if" \
	expect sound/core/seq/seq_dummy.c detail \
	"adds CONFIG_SND=m,CONFIG_SND_SEQUENCER=m,CONFIG_SND_SEQ_DUMMY=m,CONFIG_SOUND=m (for CONFIG_SND: sound/Kconfig:$sline if SOUND)"
check "(m) seq_dummy.c: buildable" \
	expect sound/core/seq/seq_dummy.c state buildable
check "(m) ds2490.c: USB for its depends on, USB_SUPPORT for USB's if" \
	expect_has drivers/w1/masters/ds2490.c detail \
	"CONFIG_USB=m (for CONFIG_W1_MASTER_DS2490: drivers/w1/masters/Kconfig:"
check "(m) ds2490.c: ... and USB_SUPPORT for USB's if, the round after" \
	expect_has drivers/w1/masters/ds2490.c detail \
	"CONFIG_USB_SUPPORT=y (for CONFIG_USB: drivers/usb/Kconfig:"
check "(m) ds2490.c: buildable" expect drivers/w1/masters/ds2490.c state buildable
check "(m) the summary counts what went in for dependencies" \
	grep -q "2 files: 2 buildable, 0 other-arch, 0 unmet; fragment [0-9]* symbols, 3 for dependencies (3 olddefconfig runs)" "$st/stdout3"
check "(m) the fragment on that base resolves to itself" \
	refrag "$st/base2/.config" "$st/out3/cover.config" "$st/refrag2"


# (n) A file that another directory's list names, through an include
# line: arch/x86/kvm/Makefile includes virt/kvm/Makefile.kvm, whose
# kvm-y := $(KVM)/kvm_main.o names virt/kvm/kvm_main.c (issue 29); kvm.o is
# obj-$(CONFIG_KVM_X86), which has no prompt and defaults to KVM only
# if KVM_INTEL != n || KVM_AMD != n: that condition brings KVM_INTEL.  (o) An
# ISA sound driver, under ISA || COMPILE_TEST: unmet, and buildable with
# --compile-test, which puts COMPILE_TEST=y in the fragment.
{
	head -n 1 "$st/cand.tsv"
	for f in virt/kvm/kvm_main.c sound/isa/sb/sb16.c; do
		echo "$f${tab}10${tab}v${tab}static${tab}ro_after_init${tab}high${tab}r${tab}-"
	done
} > "$st/cand4.tsv"
# A relative --out (issue 34): make -C TREE O=out4 would write in TREE.
(cd "$st" && "$bin" --candidates cand4.tsv --tree "$TREE" \
	--config base/.config --out out4 > stdout4 2> stderr4)
rc=$?
check "(n) cover-plan on kvm_main.c and sb16.c, --out relative, exits 0" [ $rc -eq 0 ]
check "(n) ... nothing made in the tree" [ ! -e "$TREE/out4" ]
plan=$st/out4/plan.tsv
check "(n) kvm_main.c: through the include, kvm-y of arch/x86/kvm" \
	expect_has virt/kvm/kvm_main.c symbols CONFIG_KVM_X86
check "(n) kvm_main.c: buildable" expect virt/kvm/kvm_main.c state buildable
check "(n) kvm_main.c: KVM_INTEL for KVM_X86's conditional default" \
	expect_has virt/kvm/kvm_main.c detail \
	"CONFIG_KVM_INTEL=m (for CONFIG_KVM_X86: arch/x86/kvm/Kconfig:"
check "(o) sb16.c without --compile-test: unmet" \
	expect sound/isa/sb/sb16.c state unmet
check "(o) ... no COMPILE_TEST in the fragment" \
	not grep -q COMPILE_TEST "$st/out4/cover.config"
{ head -n 1 "$st/cand.tsv"; grep '^sound/isa/sb/sb16.c' "$st/cand4.tsv"; } > "$st/cand5.tsv"
"$bin" --compile-test --candidates "$st/cand5.tsv" --tree "$TREE" \
	--config "$st/base/.config" --out "$st/out5" > "$st/stdout5" 2> "$st/stderr5"
rc=$?
check "(o) --compile-test exits 0" [ $rc -eq 0 ]
plan=$st/out5/plan.tsv
check "(o) sb16.c with --compile-test: buildable" \
	expect sound/isa/sb/sb16.c state buildable
check "(o) ... COMPILE_TEST=y in the fragment" \
	grep -qx CONFIG_COMPILE_TEST=y "$st/out5/cover.config"
check "(o) ... and the summary counts what else it turned on" \
	grep -q "^cover-plan: --compile-test: CONFIG_COMPILE_TEST=y; olddefconfig turned on [0-9]* more symbols" "$st/stdout5"

tree_state > "$st/tree.after"
check "the tree is unchanged" cmp -s "$st/tree.before" "$st/tree.after"

# Bad input: no file column is bad data (65), named, nothing written.
printf 'path\tclass\nkernel/fork.c\tro_after_init\n' > "$st/nofile.tsv"
rm -rf "$st/out2"
"$bin" --candidates "$st/nofile.tsv" --tree "$TREE" \
	--config "$st/base/.config" --out "$st/out2" 2> "$st/err2"
rc=$?
check "no file column: exit 65 (got $rc)" [ $rc -eq 65 ]
check "no file column: the message names the file and column" \
	grep -q "nofile.tsv:1: .*file" "$st/err2"
check "no file column: nothing written" [ ! -e "$st/out2" ]
# A path outside the tree is bad data too.
printf 'file\tline\tname\tclass\n../etc/passwd\t1\tv\tro_after_init\n' > "$st/abs.tsv"
"$bin" --candidates "$st/abs.tsv" --tree "$TREE" \
	--config "$st/base/.config" --out "$st/out2" 2> "$st/err3"
rc=$?
check "a path with ..: exit 65 (got $rc)" [ $rc -eq 65 ]
"$bin" --candidates "$st/cand.tsv" > /dev/null 2>&1
rc=$?
check "missing options: exit 64 (got $rc)" [ $rc -eq 64 ]

finish
