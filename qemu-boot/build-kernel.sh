#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# build-kernel.sh - configure and build a kernel profile out of tree.
#
# Usage: build-kernel.sh [--config-only] PROFILE TREE WORK
#
# PROFILE is fast, wide or cover.  cover is COVER_BASE (fast or wide,
# default wide) plus the Kconfig fragment COVER_FRAGMENT, the symbols a
# campaign's candidates need (validate/cover-plan writes it).
#
# The build directory is WORK/build/PROFILE-KEY, where KEY hashes the
# config fragments and the tree's path, so a changed fragment never reuses
# a stale .config, two trees never share objects, and an unchanged pair
# always reuses them.  For cover it is WORK/build/cover-BASE-KEY, keyed
# without COVER_FRAGMENT: a new fragment reconfigures it in place, and
# kbuild recompiles only what the changed symbols gate.  Builds go through
# ccache (CACHE/ccache) and hold CACHE/build.lock (CACHE from the
# environment, as the Makefile exports it, else WORK), shared by every
# kernel version and tree, so two kernel builds never run at once on this
# machine.  A fragment option that the tree's Kconfig does not have, or
# that Kconfig resolved to another value (an unmet dependency), does not
# stop the build: a warning on stderr lists them with FILE:LINE, when the
# directory is configured and again at each build of it (kept in
# BUILD/.ro-campaign-config-warnings), so that one fragment serves several
# kernel versions and nothing is dropped silently.  The results land in
# BUILD/ro-campaign/: bzImage, vmlinux, System.map, modroot/
# (modules_install), kernelrelease.
# kbuild builds no tree and into no directory whose path has a space or
# a colon (exit 65, before anything is configured); this checkout's path
# may have them.
# The last line on stdout is the build directory.
# DISTCC_HOSTS (distcc's host list, "host1/8 host2/8"), or DISTCC=1 for
# distcc's own configuration, compiles through distcc as ccache's prefix
# (CCACHE_PREFIX=distcc): preprocessing and links stay local, -j is the
# slots of the hosts that answer (qemu-boot/distcc-hosts.sh), a host that
# does not answer is left out with a warning, and with none the build is
# local.  The objects are the same either way (the same compiler).
# Exit (README.md): 0 built, 1 the build failed, 64 usage, 65 bad input,
# 70 a tool failed.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
prog_name=build-kernel
. "$here/../lib/args.sh"
help_maybe "$0" "$@"
config_only=0
if [ "${1:-}" = "--config-only" ]; then
	config_only=1
	shift
fi
[ $# -eq 3 ] || { echo "usage: build-kernel.sh [--config-only] PROFILE TREE WORK" >&2; exit 64; }
profile=$1
tree=$2
work=$3

# The cover profile is a base profile (COVER_BASE, wide by default) plus
# the campaign's fragment (COVER_FRAGMENT, from validate/cover-plan).  Its
# build directory is keyed by the base alone: a campaign's next wave adds
# symbols to the same objects, so kbuild compiles only what they gate.
cover_frag=
base_profile=$profile
if [ "$profile" = cover ]; then
	base_profile=${COVER_BASE:-wide}
	cover_frag=${COVER_FRAGMENT:-}
	[ -n "$cover_frag" ] ||
		die 64 "profile cover needs COVER_FRAGMENT=FILE (a Kconfig fragment; 'make cover-plan' writes one)"
	[ -f "$cover_frag" ] || die 65 "$cover_frag: no such fragment (COVER_FRAGMENT)"
	bad=$(grep -nv -e '^CONFIG_[A-Za-z0-9_]*=[ym]$' -e '^#' -e '^$' "$cover_frag" | head -n 1)
	[ -z "$bad" ] || die 65 "$cover_frag:${bad%%:*}: not a CONFIG_X=y|m line: ${bad#*:}"
fi
# The fragments are the positional parameters from here on: a path with a
# space is one word.
case $base_profile in
fast)	base=tinyconfig; set -- ;;
wide)	base=x86_64_defconfig; set -- "$tree/kernel/configs/kvm_guest.config" ;;
*)	if [ "$profile" = cover ]; then
		die 64 "unknown COVER_BASE '$base_profile' (known: fast wide)"
	fi
	die 64 "unknown profile '$profile' (known: fast wide cover)" ;;
esac
[ -f "$tree/Makefile" ] && [ -d "$tree/arch/x86" ] ||
	die 65 "$tree: not a kernel tree (run 'make setup' first)"
set -- "$@" "$here/configs/common.config" "$here/configs/$base_profile.config"
for f; do
	[ -f "$f" ] || die 65 "$f: no such config fragment (profile $base_profile)"
done

tree=$(cd "$tree" && pwd -P)
# kbuild takes no space or colon in the tree's path or the build's
case $tree in
*[[:space:]:]*) die 65 "$tree: kbuild cannot build a tree whose path has a space or a colon (move it, or clone it elsewhere)" ;;
esac
dirkey=$( (echo "$base $tree"; cat -- "$@") | sha1sum | cut -c1-12)
# The configuration key adds the commit the tree is at (its Kconfig files
# decide .config) and the cover fragment: when either changes, the
# directory is configured again in place.  Otherwise the first build after
# a new Kconfig symbol would rewrite .config under a config hash computed
# before it.  An unchanged .config rebuilds nothing.
head=$(git -C "$tree" rev-parse -q --verify HEAD 2>/dev/null || echo none)
if [ -n "$cover_frag" ]; then
	out=$work/build/cover-$base_profile-$dirkey
	key=$( (echo "$dirkey $head"; cat "$cover_frag") | sha1sum | cut -c1-12)
else
	out=$work/build/$profile-$dirkey
	key=$(echo "$dirkey $head" | sha1sum | cut -c1-12)
fi
case $out in
*[[:space:]:]*) die 65 "$out: kbuild cannot build into a directory whose path has a space or a colon (WORK=)" ;;
esac
shared=${CACHE:-$work}
mkdir -p "$out" "$shared/ccache"

jobs=${JOBS:-$(nproc)}
export CCACHE_DIR="$shared/ccache"
# Paths under CACHE are hashed relative to the build directory, and the
# working directory is not hashed, so the same sources in another work
# tree at the same depth (WORK/vtree of each kernel, the clone of the
# user's own tree) hit the cache instead of compiling again.  A hit's
# debug info names the first tree's directory; nothing here reads it.
export CCACHE_BASEDIR="$shared" CCACHE_NOHASHDIR=1
export KBUILD_BUILD_USER=ro-campaign KBUILD_BUILD_HOST=qemu
export KBUILD_BUILD_TIMESTAMP="2025-01-01 00:00:00 UTC"
kmake() {
	make -s -C "$tree" O="$out" CC="ccache gcc" HOSTCC="ccache gcc" "$@"
}

# kconfig_has SYMBOL: a "config SYMBOL" or "menuconfig SYMBOL" line in
# one of the tree's Kconfig files (the list is made once per check).
kconfig_has() {
	if [ ! -f "$out/.ro-campaign-symbols" ]; then
		find "$tree" -name .git -prune -o -name 'Kconfig*' -type f -exec \
			sed -n 's/^[[:space:]]*\(menu\)\{0,1\}config[[:space:]]\{1,\}\([A-Za-z0-9_]\{1,\}\)[[:space:]]*$/\2/p' {} + |
			sort -u >"$out/.ro-campaign-symbols"
	fi
	grep -qx "$1" "$out/.ro-campaign-symbols"
}

# check_fragments: every option our own fragments ask for should be in
# the tree's Kconfig and have survived olddefconfig.  Prints at most two
# warning lines, one for the options the tree does not have and one for
# those Kconfig set otherwise, each option with its FILE:LINE and, for the
# second, its value in .config.  kvm_guest.config is the tree's own and
# multi-arch, so it is not checked.  A select may raise a cover symbol's
# m to y: that still builds it.
check_fragments() {
	absent=
	unmet=
	rm -f "$out/.ro-campaign-symbols"
	for f in "$here/configs/common.config" "$here/configs/$base_profile.config" ${cover_frag:+"$cover_frag"}; do
		case $f in
		"$here"/*) fname=qemu-boot/${f#"$here"/} ;;
		*) fname=$f ;;
		esac
		grep -n '^CONFIG_[A-Za-z0-9_]*=[ym]$' "$f" >"$out/.ro-campaign-opts" || true
		while IFS=: read -r line opt; do
			grep -qx "$opt" "$out/.config" && continue
			[ "${opt#*=}" = m ] && grep -qx "${opt%=m}=y" "$out/.config" && continue
			sym=${opt%%=*}
			if kconfig_has "${sym#CONFIG_}"; then
				now=$(sed -n "s/^$sym=//p" "$out/.config")
				unmet="$unmet $opt ($fname:$line: ${now:-not set})"
			else
				absent="$absent $opt ($fname:$line)"
			fi
		done <"$out/.ro-campaign-opts"
	done
	rm -f "$out/.ro-campaign-opts" "$out/.ro-campaign-symbols"
	[ -n "$absent$unmet" ] || return 0
	v=$(kmake kernelversion 2>/dev/null | tail -n 1)
	[ -z "$absent" ] ||
		echo "build-kernel: warning: $profile: not in the Kconfig of Linux ${v:-?}, ignored:$absent"
	[ -z "$unmet" ] ||
		echo "build-kernel: warning: $profile: Linux ${v:-?}'s Kconfig set them otherwise (a dependency is off?):$unmet"
	return 0
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
exec 9>"$shared/build.lock"
if ! flock -n 9; then
	echo "build-kernel: waiting for another kernel build to finish" >&2
	flock 9
fi

if ! configured; then
	echo "build-kernel: configuring $profile ($base + fragments${cover_frag:+ + $cover_frag}) in $out" >&2
	kmake "$base" >/dev/null
	# merge_config.sh splits its file list on spaces, and makes its
	# temporary files in the current directory: it runs in the build
	# directory on copies of the fragments (no space in their names).
	fd=$out/.ro-campaign-fragments
	rm -rf "$fd"
	mkdir "$fd" || die 70 "cannot create $fd"
	i=0
	for f in "$@" ${cover_frag:+"$cover_frag"}; do
		i=$((i + 1))
		c=$i-$(basename "$f" | tr -c 'A-Za-z0-9._\n-' _)
		cp -- "$f" "$fd/$c" || die 70 "cannot copy $f to $fd"
		set -- "$@" ".ro-campaign-fragments/$c"
	done
	shift $(($# - i))
	(cd "$out" && "$tree/scripts/kconfig/merge_config.sh" -m -O . .config "$@") \
		>"$out/merge_config.log" 2>&1 ||
		die 65 "merge_config failed, see $out/merge_config.log"
	kmake olddefconfig >/dev/null
	check_fragments >"$out/.ro-campaign-config-warnings.new" ||
		die 70 "cannot check the fragments against $out/.config"
	mv "$out/.ro-campaign-config-warnings.new" "$out/.ro-campaign-config-warnings"
	echo "$key" > "$out/.ro-campaign-key"
fi
# The fragment options that are not in .config as asked, at every build.
[ ! -s "$out/.ro-campaign-config-warnings" ] || cat "$out/.ro-campaign-config-warnings" >&2
[ $config_only -eq 1 ] && { echo "$out"; exit 0; }

# distcc: the hosts that answer now, and -j from their slots.
if [ -n "${DISTCC_HOSTS:-}" ] || [ "${DISTCC:-0}" = 1 ]; then
	if dh=$(sh "$here/distcc-hosts.sh"); then
		jobs=$(echo "$dh" | sed -n 1p)
		DISTCC_HOSTS=$(echo "$dh" | sed -n 2p)
		export DISTCC_HOSTS CCACHE_PREFIX=distcc
		echo "build-kernel: compiling through distcc: $DISTCC_HOSTS" >&2
	else
		echo "build-kernel: warning: no distcc host answers: compiling locally" >&2
		unset DISTCC_HOSTS
	fi
fi

# count_objects [-newer FILE]: the .o files of the build directory.
count_objects() {
	find "$out" -name '*.o' "$@" 2>/dev/null | wc -l
}

# progress START TODO: every 30 s while the build runs, the objects
# compiled so far, out of TODO (the object count of the last complete
# build less what is already there; 0 when unknown), and the ETA.
progress() {
	# sleep gets no descriptor of ours, so killing the loop lets a
	# caller that reads our output see its end at once.  The loop ends
	# when this script ($$) is gone.
	while sleep 30 </dev/null >/dev/null 2>&1 && kill -0 $$ 2>/dev/null; do
		done_n=$(count_objects -newer "$out/.ro-campaign-start")
		el=$(($(date +%s) - $1))
		if [ "$2" -gt 0 ] && [ "$done_n" -gt 0 ] && [ "$done_n" -lt "$2" ]; then
			eta=$((el * ($2 - done_n) / done_n))
			echo "build-kernel: $profile: $done_n/$2 objects, $(fmt_time $el) elapsed, ETA $(fmt_time $eta)" >&2
		else
			echo "build-kernel: $profile: $done_n objects compiled, $(fmt_time $el) elapsed" >&2
		fi
	done
}

have=$(count_objects)
total=$(cat "$out/.ro-campaign-objects" 2>/dev/null || echo 0)
# A cover directory's first build: its base profile's object count is
# the best estimate there is (the fragment only adds to it).
if [ ! -s "$out/.ro-campaign-objects" ] && [ -n "$cover_frag" ]; then
	total=$(cat "$work/build/$base_profile-$dirkey/.ro-campaign-objects" 2>/dev/null || echo 0)
fi
case $total in '' | *[!0-9]*) total=0 ;; esac
todo=0
[ "$total" -gt "$have" ] && todo=$((total - have))
if [ "$total" -gt 0 ]; then
	echo "build-kernel: building $profile with -j$jobs ($have objects there, $total after the last complete build)" >&2
else
	echo "build-kernel: building $profile with -j$jobs ($have objects there)" >&2
fi
start=$(date +%s)
touch "$out/.ro-campaign-start"
# exec, not a redirection of the call: dash keeps a saved copy of fd 9
# open in the background job, and the loop of a killed build then held
# the build lock for good.
(exec >/dev/null 9>&-; progress "$start" "$todo") &
progress_pid=$!
rc=0
kmake -j"$jobs" bzImage modules >"$out/build.log" 2>&1 || rc=$?
kill "$progress_pid" 2>/dev/null || true
wait "$progress_pid" 2>/dev/null || true
[ $rc -eq 0 ] || {
	grep -E 'error|Error' "$out/build.log" | head -20 >&2
	die 1 "kernel build failed, full log in $out/build.log"
}
count_objects >"$out/.ro-campaign-objects"
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
