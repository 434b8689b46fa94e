#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-devices-plan.sh - validate's device plan (devices.c) on a fixture
# build: modules.alias and modules.dep of a made-up release, in
# modules_install's format, against the real qemu-boot/devices.tsv.  The
# plan must attach one model per module (e1000, not its two siblings; one
# virtio model for virtio_pci and virtio_net; usb-kbd, not also the mouse
# and the tablet, for usbhid), give the ISA cards that share a port
# separate boots (adlib and sb16 both sit at 0x220), use the q35 SATA
# controller for ahci without a slot, load the USB controller's driver
# first, pass the ISA drivers' options, and ask for svm for kvm_amd.
# Then the real QEMU must start with each group's arguments.  No kernel.

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
. "$top/lib/tap.sh"

make -C "$top" -s validate/tests/devplan ||
	{ not_ok "build validate/tests/devplan" "make failed"; finish; }
tmp=$(mktemp -d) || exit 70
trap 'rm -rf "$tmp"' EXIT INT TERM

"$here/tests/devplan" "$top" "$here/tests/fixtures/devices-build" "$tmp" \
	> "$tmp/out" 2> "$tmp/err"
rc=$?
why="exit $rc: $(cat "$tmp/err")"
check "devplan runs" [ $rc -eq 0 ]
out=$(cat "$tmp/out")
a1=$(sed -n 's/^args //p' "$tmp/out" | sed -n 1p)
p1=$(sed -n 's/^append //p' "$tmp/out" | sed -n 1p)
a2=$(sed -n 's/^args //p' "$tmp/out" | sed -n 2p)
p2=$(sed -n 's/^append //p' "$tmp/out" | sed -n 2p)
has() {	# has TEXT WORDS: TEXT holds WORDS, blank-delimited
	case " $1 " in
	*" $2 "*) return 0 ;;
	esac
	why="no '$2' in: $1"
	return 1
}
line() {	# line TEXT LINE: one of TEXT's lines is LINE
	printf '%s\n' "$1" | grep -qxF -- "$2" && return 0
	why="no line '$2' in: $(printf '%s' "$1" | tr '\n' '|')"
	return 1
}
hasnt() {
	case " $1 " in
	*" $2 "*) why="'$2' in: $1"; return 1 ;;
	esac
	return 0
}
check "two boot groups: adlib cannot share a boot with sb16" line "$out" "groups 2"
check "the stderr line counts the extra boot" \
	grep -q 'in 2 boot groups: 1 extra boot per boot' "$tmp/err"
check "e1000 gets the first PCI slot" has "$a1" "-device e1000,addr=0x03"
check "not also e1000-82544gc (its module has a device already)" \
	hasnt "$a1" "-device e1000-82544gc,addr=0x04"
check "edu for the test driver" has "$a1" "-device edu,addr=0x05"
check "the qemu-xhci model is the USB devices' controller" \
	has "$a1" "-device qemu-xhci,addr=0x04,id=rocusb"
check "usb-kbd on it, for usbhid" has "$a1" "-device usb-kbd,bus=rocusb.0"
check "not also usb-mouse" hasnt "$a1" "-device usb-mouse,bus=rocusb.0"
check "one virtio model for virtio_pci and virtio_net" \
	sh -c "[ \$(echo '$a1' | grep -o 'virtio-[a-z]*-pci' | wc -l) -eq 1 ]"
check "sb16, gus and cs4231a share boot 1, one audiodev" \
	sh -c "echo '$a1' | grep -q -- '-device sb16,audiodev=rocaud' && \
		echo '$a1' | grep -q -- '-device gus,audiodev=rocaud' && \
		echo '$a1' | grep -q -- '-device cs4231a,audiodev=rocaud,irq=10,dma=0' && \
		[ \$(echo '$a1' | grep -o 'audiodev none' | wc -l) -eq 1 ]"
check "boot 1's modules: the USB controller's driver first, ahci for q35's own SATA" \
	has "$p1" "rocampaign.devices=xhci_pci,e1000,test_ro_after_init_pci,virtio_net,virtio_pci,ahci,snd-sb16,snd-gusclassic,snd-cs4231,usbhid"
check "boot 1 passes snd-cs4231 its port" has "$p1" "snd_cs4231.port=0x534"
check "boot 2: adlib, with its port" \
	sh -c "[ '$a2' = '-audiodev none,id=rocaud -device adlib,audiodev=rocaud' ] && \
		[ '$p2' = 'rocampaign.devices=snd-adlib snd_adlib.port=0x388' ]"
check "kvm_amd asks for svm" line "$out" "cpu qemu64,+svm"
why="$(cat "$tmp/devices-plan.tsv" 2>/dev/null | tr '\t\n' ' |')"
check "devices-plan.tsv: the builtin SATA controller and the CPU rows" \
	sh -c "grep -q '^builtin	ich9-ahci	pci	-	ahci	builtin:1f.2$' '$tmp/devices-plan.tsv' && \
		grep -q '^cpu	cpu-svm	cpu	-	kvm_amd	+svm$' '$tmp/devices-plan.tsv'"
for g in 1 2; do
	eval a=\$a$g
	# shellcheck disable=SC2086
	echo quit | timeout 30 qemu-system-x86_64 -machine q35 -nodefaults \
		-display none -S -monitor stdio $a > "$tmp/q$g" 2>&1
	rc=$?
	why="exit $rc: $(grep -v '^QEMU\|(qemu)\|no peer' "$tmp/q$g" | head -n 3)"
	check "QEMU starts with boot $g's devices" \
		sh -c "[ $rc -eq 0 ] && ! grep -v 'no peer' '$tmp/q$g' | grep -q 'qemu-system-x86_64:'"
done
finish
