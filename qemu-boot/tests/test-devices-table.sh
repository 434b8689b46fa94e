#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-devices-table.sh - qemu-boot/devices.tsv against the QEMU on this
# machine: the table is well formed, and every PCI model's IDs (vendor,
# device, subsystem, class with prog-if, revision) and its pci: modalias
# are what qemu-system-x86_64 itself presents (probe-devices.sh: info pci
# and config space).  No kernel, a few QEMU starts of about 6 s each.

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
. "$here/../lib/tap.sh"
. "$top/lib/tsv.sh"

tab=$here/devices.tsv
tmp=$(mktemp -d) || exit 70
trap 'rm -rf "$tmp"' EXIT INT TERM

hdr="device	bus	ids	modalias	drivers	params	slots	needs	resources	options	source"
why="header: $(head -n 1 "$tab")"
check "devices.tsv has the documented columns" [ "$(head -n 1 "$tab")" = "$hdr" ]
bad=$(awk -F'\t' 'NR > 1 && (NF != 11 || $2 !~ /^(pci|isa|usb|cpu)$/ ||
	$7 !~ /^[0-8]$/ || $11 == "-") { print NR ": " $1 }' "$tab")
why="bad rows: $bad"
check "every row: 11 fields, a known bus, slots 0-8, a source" [ -z "$bad" ]
dup=$(tail -n +2 "$tab" | cut -f 1 | sort | uniq -d)
why="repeated: $dup"
check "device is a key" [ -z "$dup" ]

# The PCI models to probe, with the -device value probe-devices.sh can
# start (its backends: -audiodev rocaud, -object rocmem; no chardev).
tsv_awk "$tab" '$c_bus == "pci" && $c_options !~ /^builtin/ &&
	$c_needs !~ /chardev|disk/ {
		o = $c_options; sub(/;.*/, "", o); sub(/,id=%id/, "", o)
		gsub(/%id/, "rocmem", o)
		print $c_device "\t" o "\t" $c_ids "\t" $c_modalias
	}' > "$tmp/want"
npci=$(wc -l < "$tmp/want")
cut -f 2 "$tmp/want" > "$tmp/models"
split -l 28 "$tmp/models" "$tmp/batch."
: > "$tmp/got"
for b in "$tmp"/batch.*; do
	# shellcheck disable=SC2046
	sh "$here/probe-devices.sh" $(cat "$b") 2>>"$tmp/err" | tail -n +2 >> "$tmp/got"
done
why="probed $(wc -l < "$tmp/got") of $npci: $(tail -n 3 "$tmp/err" | tr '\n' ' ')"
check "probe-devices.sh read all $npci PCI models from $(qemu-system-x86_64 --version | head -n 1)" \
	[ "$(wc -l < "$tmp/got")" -eq "$npci" ]
paste "$tmp/want" "$tmp/got" | awk -F'\t' '
function up(s) { return toupper(s) }
{
	ids = $6 " sub " $7 " class " $8 " rev " $9
	split($6, v, ":"); split($7, s, ":")
	ma = sprintf("pci:v0000%sd0000%ssv0000%ssd0000%sbc%ssc%si%s",
		up(v[1]), up(v[2]), up(s[1]), up(s[2]), up(substr($8, 1, 2)),
		up(substr($8, 3, 2)), up(substr($8, 5, 2)))
	split($4, m, " ")
	if ($3 != ids) print $1 ": table says \"" $3 "\", QEMU \"" ids "\""
	else if (m[1] != ma) print $1 ": modalias " m[1] ", QEMU " ma
}' > "$tmp/diff"
why="$(head -n 5 "$tmp/diff" | tr '\n' ';')"
check "every probed PCI row's ids and modalias are what QEMU presents" [ ! -s "$tmp/diff" ]

# The launcher takes only device options in --devices.
make -C "$top" -s qemu-boot/boot >/dev/null 2>&1
usage() {	# usage ARGS...: boot ARGS exits 64 with a message naming the option
	"$here/boot" "$@" /nonexistent >/dev/null 2>"$tmp/uerr"
	_rc=$?
	why="exit $_rc: $(cat "$tmp/uerr")"
	[ $_rc -eq 64 ] && grep -q -- "--$1\|--devices\|--cpu" "$tmp/uerr"
}
check "boot --devices refuses an option that is not a device's" \
	usage --devices "-machine pc"
check "boot --devices refuses an option without its value" \
	usage --devices "-device e1000 -device"
check "boot --cpu refuses a value with blanks" usage --cpu "qemu64 -S"
finish
