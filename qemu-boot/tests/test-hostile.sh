#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-hostile.sh - qemu-boot on hostile and careless input (issue 34):
# build-kernel.sh from a checkout whose path has a space (the config
# fragments and the build directory's key), a missing fragment, a tree
# kbuild cannot build in.  The kernel tree is a stand-in whose Makefile
# writes a .config for the config targets, with the real tree's
# scripts/kconfig/merge_config.sh: no kernel is built.  Seconds.
#
# Env: WORK, TREE (as the Makefile exports them).  Output: TAP.

set -u

here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/.." && pwd)
WORK=${WORK:-$HOME/.cache/ro-campaign}
TREE=${TREE:-$WORK/linux}
. "$here/../lib/tap.sh"

t=$(mktemp -d "${TMPDIR:-/tmp}/test-hostile.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
trap 'exit 1' INT TERM

# all "SHELL-CONDITION": for check, a condition of several commands
all() {
	eval "$1"
}

mc=$TREE/scripts/kconfig/merge_config.sh
[ -f "$mc" ] || { echo "Bail out! $mc: no kernel tree (make setup)"; exit 1; }

# mk_tree DIR: the stand-in kernel tree
mk_tree() {
	mkdir -p "$1/arch/x86" "$1/scripts/kconfig" "$1/kernel/configs"
	cp "$mc" "$1/scripts/kconfig/"
	printf 'CONFIG_KVM_GUEST=y\n' >"$1/kernel/configs/kvm_guest.config"
	cat >"$1/Makefile" <<'MK'
O ?= .
tinyconfig x86_64_defconfig:
	@mkdir -p $(O) && printf 'CONFIG_STANDIN=y\n' >$(O)/.config
olddefconfig:
	@:
kernelversion:
	@echo 6.12.0
MK
}
mk_tree "$t/tree"

# a copy of this checkout's qemu-boot and lib/args.sh under a path with
# a space
co="$t/ro campaign"
mkdir -p "$co/qemu-boot" "$co/lib"
cp -R "$here/build-kernel.sh" "$here/distcc-hosts.sh" "$here/configs" "$co/qemu-boot/"
cp "$root/lib/args.sh" "$co/lib/"
export CACHE="$t/cache"

# the first option of a fragment, to find in the merged .config
opt_of() {
	grep -m 1 '^CONFIG_[A-Za-z0-9_]*=[ym]$' "$1"
}
common=$(opt_of "$here/configs/common.config")
fast=$(opt_of "$here/configs/fast.config")

sh "$co/qemu-boot/build-kernel.sh" --config-only fast "$t/tree" "$t/work" >"$t/sp.out" 2>"$t/sp.err"
rc=$?
out=$(tail -n 1 "$t/sp.out")
why="exit $rc: $(tail -n 3 "$t/sp.err" | tr '\n' ' ') $(tail -n 3 "$out/merge_config.log" 2>/dev/null | tr '\n' ' ')"
check "build-kernel.sh --config-only fast from a checkout with a space: configured, common.config and fast.config merged" \
	all '[ $rc -eq 0 ] && grep -qx "$common" "$out/.config" && grep -qx "$fast" "$out/.config" &&
		grep -qx CONFIG_STANDIN=y "$out/.config"'

sh "$here/build-kernel.sh" --config-only fast "$t/tree" "$t/work2" >"$t/ref.out" 2>"$t/ref.err"
ref=$(tail -n 1 "$t/ref.out")
why="from the checkout with a space: $out, from this one: $ref"
check "the build directory's key is the same from either checkout (the same fragments, the same tree)" \
	all '[ -n "$ref" ] && [ "${out##*/}" = "${ref##*/}" ]'

mk_tree "$t/tree2"
rm "$t/tree2/kernel/configs/kvm_guest.config"
sh "$co/qemu-boot/build-kernel.sh" --config-only wide "$t/tree2" "$t/work3" >"$t/wide.out" 2>&1
rc=$?
why="exit $rc: $(tr '\n' ' ' <"$t/wide.out")"
check "build-kernel.sh wide on a tree without kernel/configs/kvm_guest.config: exit 65 naming it, nothing configured" \
	all '[ $rc -eq 65 ] && grep -q "kvm_guest.config: no such config fragment" "$t/wide.out" &&
		[ ! -e "$t/work3/build" ]'

mk_tree "$t/a tree"
sh "$here/build-kernel.sh" --config-only fast "$t/a tree" "$t/work4" >"$t/tsp.out" 2>&1
rc=$?
why="exit $rc: $(tr '\n' ' ' <"$t/tsp.out")"
check "build-kernel.sh on a tree whose path has a space: exit 65, saying kbuild cannot, before anything is configured" \
	all '[ $rc -eq 65 ] && grep -q "kbuild cannot build a tree whose path has a space" "$t/tsp.out" &&
		[ ! -e "$t/work4/build" ]'

# ---- distcc-hosts.sh -----------------------------------------------------------------
# localhost is kept unprobed, so these need no distccd; "*" is no host
# name (a probe of a dead host would take 15 s).

dh=$here/distcc-hosts.sh
mkdir -p "$t/glob"
: >"$t/glob/thesis.txt"
(cd "$t/glob" && DISTCC_HOSTS='* localhost/3' sh "$dh") >"$t/dh1.out" 2>&1
why="$(tr '\n' ' ' <"$t/dh1.out")"
check "distcc-hosts.sh DISTCC_HOSTS='* localhost/3': not the current directory's file names, \"*\" left out" \
	all '! grep -q thesis.txt "$t/dh1.out" && grep -q "is not a distcc host" "$t/dh1.out" &&
		grep -qx 3 "$t/dh1.out"'

DISTCC_HOSTS='localhost/9223372036854775807' sh "$dh" >"$t/dh2.out" 2>"$t/dh2.err"
why="$(cat "$t/dh2.out" "$t/dh2.err" | tr '\n' ' ')"
check "distcc-hosts.sh localhost/9223372036854775807: capped at 1000 slots, with a warning" \
	all '[ "$(head -n 1 "$t/dh2.out")" = 1000 ] && grep -q "capped at 1000" "$t/dh2.err"'

DISTCC_HOSTS='localhost/2 localhost/2 localhost/3' sh "$dh" >"$t/dh3.out" 2>"$t/dh3.err"
why="$(cat "$t/dh3.out" "$t/dh3.err" | tr '\n' ' ')"
check "distcc-hosts.sh: localhost listed three times counts once (2 slots, one host)" \
	all '[ "$(head -n 1 "$t/dh3.out")" = 2 ] && [ "$(sed -n 2p "$t/dh3.out")" = localhost/2 ] &&
		grep -q "listed again" "$t/dh3.err"'

# ---- boot: the kernel must be a bzImage -------------------------------------------------

[ -x "$here/boot" ] || make -C "$root" -s qemu-boot/boot >/dev/null
printf 'not a kernel\n' >"$t/notes.txt"
"$here/boot" --out "$t/bootout" --initrd "$t/notes.txt" --timeout 10 \
	"$t/notes.txt" >"$t/boot.out" 2>&1
rc=$?
why="exit $rc: $(tail -n 3 "$t/boot.out" | tr '\n' ' ')"
check "boot TEXT-FILE: exit 65, not a bzImage, before QEMU or --out" \
	all '[ $rc -eq 65 ] && grep -q "not an x86 bzImage" "$t/boot.out" && [ ! -e "$t/bootout" ]'

finish
