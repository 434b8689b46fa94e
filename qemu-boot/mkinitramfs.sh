#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh - build the guest initramfs for a kernel build result.
#
# Usage: mkinitramfs.sh [--force] RESULT_DIR
#
# RESULT_DIR is a build-kernel.sh result (BUILD/ro-campaign/: kernelrelease,
# modroot/lib/modules/RELEASE/...).  Writes RESULT_DIR/initramfs.cpio.gz:
# busybox-static with its applet links, the guest suite from guest/ (/init,
# /rocampaign/...), and every module from modroot with modules.dep & co.
#
# The archive is deterministic (sorted newc entries, owner 0:0, fixed
# mtimes, gzip -n), and cached: RESULT_DIR/initramfs.key holds a hash of
# every input, and when it matches the archive is left alone.
#
# Environment: BUSYBOX (default /bin/busybox) names the static busybox.
# Exit: 0 written or up to date, 1 error, 2 usage.

set -eu

usage() {
	cat <<EOF
usage: mkinitramfs.sh [--force] RESULT_DIR

Writes RESULT_DIR/initramfs.cpio.gz (busybox-static, qemu-boot/guest/,
the modules of RESULT_DIR/modroot).  Skips the work when no input changed
since the last run; --force rebuilds anyway.
EOF
}

# Exit codes (README.md): 64 usage, 65 bad input (the result directory),
# 70 a host tool is missing or failed.
prog_name=mkinitramfs
. "$(dirname "$0")/../lib/args.sh"

force=0
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	--force) force=1; shift ;;
	--) shift; break ;;
	-*) echo "mkinitramfs: unknown option '$1'" >&2; usage >&2; exit 64 ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || { usage >&2; exit 64; }

here=$(cd "$(dirname "$0")" && pwd)
guest=$here/guest
res=$1
busybox=${BUSYBOX:-/bin/busybox}

[ -d "$res" ] || die 65 "$res: no such directory (build the kernel first)"
[ -f "$res/kernelrelease" ] || die 65 "$res/kernelrelease missing: not a build-kernel.sh result"
release=$(cat "$res/kernelrelease")
[ -n "$release" ] || die 65 "$res/kernelrelease is empty"
[ -x "$busybox" ] || die 70 "$busybox: not found (install busybox-static)"
file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	die 70 "$busybox is not statically linked (install busybox-static)"
[ -f "$guest/init" ] || die 65 "$guest/init missing"
command -v cpio >/dev/null || die 70 "cpio not found (install cpio)"

moddir=$res/modroot/lib/modules/$release
out=$res/initramfs.cpio.gz
keyfile=$res/initramfs.key

# The cache key: this script, busybox, every guest file and every module
# file, by name and content.
key=$( (
	cd "$here" && sha1sum mkinitramfs.sh
	sha1sum "$busybox" | cut -d' ' -f1
	cd "$guest" && find . -type f | LC_ALL=C sort | xargs sha1sum
	if [ -d "$moddir" ]; then
		cd "$moddir" && find . -type f | LC_ALL=C sort | xargs -r sha1sum
	fi
	echo "$release"
) | sha1sum | cut -c1-16)

if [ $force -eq 0 ] && [ -f "$out" ] && [ -f "$keyfile" ] &&
   [ "$(cat "$keyfile")" = "$key" ]; then
	echo "mkinitramfs: $out is up to date" >&2
	exit 0
fi

stage=$(mktemp -d "${TMPDIR:-/tmp}/mkinitramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT INT TERM

root=$stage/root
mkdir -p "$root/bin" "$root/sbin" "$root/usr/bin" "$root/usr/sbin" \
	"$root/dev" "$root/proc" "$root/sys" "$root/tmp" "$root/root" \
	"$root/etc" "$root/lib/modules" "$root/rocampaign"

cp "$busybox" "$root/bin/busybox"
# One symlink per applet, where busybox itself would install it.
"$busybox" --list-full | while read -r app; do
	[ "$app" = bin/busybox ] && continue
	case $app in
	bin/*) ln -sf busybox "$root/$app" ;;
	sbin/*|usr/bin/*|usr/sbin/*) ln -sf /bin/busybox "$root/$app" ;;
	*) ;;
	esac
done

cp "$guest/init" "$root/init"
chmod 0755 "$root/init"
(cd "$guest" && find . -type f ! -name init) | while read -r f; do
	mkdir -p "$(dirname "$root/rocampaign/$f")"
	cp "$guest/$f" "$root/rocampaign/$f"
done
chmod -R a+rX "$root/rocampaign"
find "$root/rocampaign/exercises" -type f -exec chmod 0755 {} +

if [ -d "$moddir" ]; then
	mkdir -p "$root/lib/modules/$release"
	# The build and source links point into the host's tree: leave them.
	(cd "$moddir" && find . \( -type f -o -type d \) ! -name . |
		LC_ALL=C sort) | while read -r f; do
		if [ -d "$moddir/$f" ]; then
			mkdir -p "$root/lib/modules/$release/$f"
		else
			cp "$moddir/$f" "$root/lib/modules/$release/$f"
		fi
	done
	if [ ! -f "$root/lib/modules/$release/modules.dep" ]; then
		command -v depmod >/dev/null ||
			die 70 "$moddir has no modules.dep and depmod is missing (install kmod)"
		depmod -b "$root" "$release" ||
			die 70 "depmod failed for $moddir"
	fi
else
	echo "mkinitramfs: note: $moddir missing, no modules in the initramfs" >&2
fi

# Fixed owner and mtimes, sorted entries: the same inputs give the same bytes.
find "$root" -exec touch -h -d @0 {} +
(cd "$root" && find . ! -name . | LC_ALL=C sort |
	cpio --quiet -o -H newc -R 0:0 --reproducible) |
	gzip -n -9 > "$stage/initramfs.cpio.gz" ||
	die 70 "cpio/gzip failed"
mv "$stage/initramfs.cpio.gz" "$out"
echo "$key" > "$keyfile"
echo "mkinitramfs: wrote $out ($(wc -c < "$out") bytes)" >&2
