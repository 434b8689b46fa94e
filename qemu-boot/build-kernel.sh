#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# build-kernel.sh - configure and build a kernel profile out of tree.
#
# Usage: build-kernel.sh [--config-only] PROFILE TREE WORK
#
# The build directory is WORK/build/PROFILE-KEY, where KEY hashes the
# config fragments and the tree's path, so a changed fragment never reuses
# a stale .config, two trees never share objects, and an unchanged pair
# always reuses them.  Builds go through ccache
# (WORK/ccache) and hold WORK/build.lock, so two kernel builds never run
# at once on this machine.  The results land in BUILD/ro-campaign/:
# bzImage, vmlinux, System.map, modroot/ (modules_install), kernelrelease.
# The last line on stdout is the build directory.
# Exit: 0 built, 1 configuration or build error, 2 usage.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
prog_name=build-kernel
. "$here/../lib/args.sh"
config_only=0
if [ "${1:-}" = "--config-only" ]; then
	config_only=1
	shift
fi
[ $# -eq 3 ] || { echo "usage: build-kernel.sh [--config-only] PROFILE TREE WORK" >&2; exit 64; }
profile=$1
tree=$2
work=$3

# Exit codes (README.md): 64 usage, 65 bad input (a profile, a tree, a
# config fragment Kconfig refuses), 1 the kernel build failed, 70 a tool.

case $profile in
fast)	base=tinyconfig; frags="" ;;
wide)	base=x86_64_defconfig; frags="$tree/kernel/configs/kvm_guest.config" ;;
*)	die 64 "unknown profile '$profile' (known: fast wide)" ;;
esac
[ -f "$tree/Makefile" ] && [ -d "$tree/arch/x86" ] ||
	die 65 "$tree: not a kernel tree (run 'make setup' first)"
frags="$frags $here/configs/common.config $here/configs/$profile.config"

tree=$(cd "$tree" && pwd -P)
key=$( (echo "$base $tree"; for f in $frags; do cat "$f"; done) | sha1sum | cut -c1-12)
out=$work/build/$profile-$key
mkdir -p "$out" "$work/ccache"

jobs=${JOBS:-$(nproc)}
export CCACHE_DIR="$work/ccache"
export KBUILD_BUILD_USER=ro-campaign KBUILD_BUILD_HOST=qemu
export KBUILD_BUILD_TIMESTAMP="2025-01-01 00:00:00 UTC"
kmake() {
	make -s -C "$tree" O="$out" CC="ccache gcc" HOSTCC="ccache gcc" "$@"
}

configured() {
	[ -f "$out/.config" ] && [ -f "$out/.ro-campaign-key" ] &&
		[ "$(cat "$out/.ro-campaign-key")" = "$key" ]
}

# Asking for the build directory of a configured profile needs no lock.
if [ $config_only -eq 1 ] && configured; then
	echo "$out"
	exit 0
fi

# One kernel build at a time: they compete for the same two cores.
exec 9>"$work/build.lock"
if ! flock -n 9; then
	echo "build-kernel: waiting for another kernel build to finish" >&2
	flock 9
fi

if ! configured; then
	echo "build-kernel: configuring $profile ($base + fragments) in $out" >&2
	kmake "$base" >/dev/null
	# shellcheck disable=SC2086
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" \
		$frags >"$out/merge_config.log" 2>&1 ||
		die 65 "merge_config failed, see $out/merge_config.log"
	kmake olddefconfig >/dev/null
	# Every option our own fragments ask for must have survived
	# olddefconfig.  kvm_guest.config is multi-arch, so it is not checked.
	missing=""
	for f in "$here/configs/common.config" "$here/configs/$profile.config"; do
		for opt in $(grep -o '^CONFIG_[A-Z0-9_]*=[ym]' "$f"); do
			grep -qx "$opt" "$out/.config" || missing="$missing $opt"
		done
	done
	[ -z "$missing" ] || die 65 "options dropped by Kconfig (missing dependency?):$missing"
	echo "$key" > "$out/.ro-campaign-key"
fi
[ $config_only -eq 1 ] && { echo "$out"; exit 0; }

echo "build-kernel: building $profile with -j$jobs" >&2
start=$(date +%s)
kmake -j"$jobs" bzImage modules >"$out/build.log" 2>&1 || {
	grep -E 'error|Error' "$out/build.log" | head -20 >&2
	die 1 "kernel build failed, full log in $out/build.log"
}
res=$out/ro-campaign
rm -rf "$res.new"
mkdir -p "$res.new"
kmake INSTALL_MOD_PATH="$res.new/modroot" INSTALL_MOD_STRIP=1 \
	modules_install >/dev/null 2>&1 || die 70 "modules_install failed"
cp "$out/arch/x86/boot/bzImage" "$out/vmlinux" "$out/System.map" "$res.new/"
kmake -s kernelrelease > "$res.new/kernelrelease"
rm -rf "$res"
mv "$res.new" "$res"
echo "build-kernel: $profile built in $(( $(date +%s) - start )) s" >&2
echo "$out"
