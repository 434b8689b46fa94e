#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# probe-devices.sh - read the PCI IDs that QEMU's device models present,
# from the QEMU binary itself, so that qemu-boot/devices.tsv can be checked
# against the QEMU on this machine.
#
# Each MODEL (a -device value, e.g. e1000 or nvme,serial=x) goes on the
# root bus of a q35 machine, in the order given, from slot 1.  After
# SeaBIOS has set up the PCIe ECAM window (0xb0000000 on q35), the HMP
# monitor's "info pci" gives vendor:device and subsystem, and "xp" of each
# function's config space at offset 8 gives the revision, prog-if,
# subclass and class.  Prints one TSV row per model:
#   model  vendor:device  subvendor:subdevice  class(6 hex)  revision

usage() {
	cat <<'EOF'
usage: probe-devices.sh [--qemu BIN] MODEL...

Print "model ids subsystem class revision" (TSV with a header) for each
PCI device MODEL, as the QEMU binary presents it on a q35 machine.
Options a model needs go with it (nvme,serial=x).  At most 28 models.

  --qemu BIN   QEMU binary (default qemu-system-x86_64)
EOF
}

qemu=qemu-system-x86_64
while [ $# -gt 0 ]; do
	case $1 in
	--help|-h) usage; exit 0 ;;
	--qemu) [ $# -ge 2 ] || { usage >&2; exit 64; }; qemu=$2; shift 2 ;;
	--) shift; break ;;
	-*) echo "probe-devices.sh: $1: unknown option" >&2; usage >&2; exit 64 ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { usage >&2; exit 64; }
[ $# -le 28 ] || { echo "probe-devices.sh: at most 28 models (the slots of the root bus)" >&2; exit 64; }

tmp=$(mktemp -d) || exit 70
trap 'rm -rf "$tmp"' EXIT INT TERM

args=
cmds='info pci\n'
s=1
for m in "$@"; do
	case $m in
	*[!A-Za-z0-9_.,=:-]*)
		echo "probe-devices.sh: $m: not a -device value" >&2; exit 64 ;;
	esac
	args="$args -device $m,addr=$(printf '0x%x' $s)"
	cmds="${cmds}xp /4bx $(printf '0x%x' $((0xb0000000 + (s << 15) + 8)))\\n"
	s=$((s + 1))
done
echo "probe-devices.sh: $# models, ~6 s" >&2
# shellcheck disable=SC2086
(sleep 5; printf "$cmds"; printf 'quit\n') |
	timeout 60 "$qemu" -machine q35 -nodefaults -display none \
		-monitor stdio -audiodev none,id=rocaud \
		-object memory-backend-ram,id=rocmem,size=1M $args \
		> "$tmp/out" 2> "$tmp/err"
rc=$?
tr -d '\033\r' < "$tmp/out" | sed 's/\[K//g; s/\[D//g' > "$tmp/clean"
if ! grep -q "^00000000b[0-9a-f]*: 0x" "$tmp/clean" ||
   grep -q "^00000000b[0-9a-f]*: Cannot" "$tmp/clean"; then
	echo "probe-devices.sh: $qemu failed (exit $rc):" >&2
	sed 's/^/  /' "$tmp/err" >&2
	exit 70
fi
printf 'model\tids\tsubsystem\tclass\trevision\n'
awk -v models="$*" '
BEGIN { n = split(models, m, " ") }
/^ *Bus  *0, device/ { sub(/,.*/, "", $4); slot = $4 + 0; next }
/PCI device [0-9a-f]*:[0-9a-f]*/ && slot {
	match($0, /[0-9a-f][0-9a-f][0-9a-f][0-9a-f]:[0-9a-f][0-9a-f][0-9a-f][0-9a-f]/)
	id[slot] = substr($0, RSTART, RLENGTH); next
}
/PCI subsystem/ && slot { ss[slot] = $3; next }
/^00000000b/ {
	s = int((strtonum_hex(substr($1, 10, 7)) - 8) / 32768)
	cls[s] = substr($5, 3) substr($4, 3) substr($3, 3); rev[s] = substr($2, 3)
}
function strtonum_hex(h,   i, v, c) {
	v = 0
	for (i = 1; i <= length(h); i++) {
		c = index("0123456789abcdef", tolower(substr(h, i, 1)))
		if (!c) break
		v = v * 16 + c - 1
	}
	return v
}
END {
	for (i = 1; i <= n; i++) {
		name = m[i]; sub(/,.*/, "", name)
		printf "%s\t%s\t%s\t%s\t%s\n", name, id[i], ss[i], cls[i], rev[i]
	}
}' "$tmp/clean"
