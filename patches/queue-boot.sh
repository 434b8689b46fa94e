#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# queue-boot.sh - build the queued tree in a profile and boot it with the
# whole exercise suite, protection on (make queue-check-boot).
#
# The tree is WORK/qtree-am-core, where make queue applied the whole
# queue with git am onto core.  It is built with qemu-boot/build-kernel.sh
# (ccache, the build lock), every queued variable must sit between
# __start_ro_after_init and __end_ro_after_init in vmlinux unless the
# profile does not compile it, and qemu-boot/boot must say "pass" (which
# includes the lkdtm control: the write to ro_after_init data oopsed).
#
# With --in-tree the same commits are checked out in TREE itself and built
# there, and TREE goes back to the commit it was at afterwards: a tree's
# build directory is keyed by its path, so this reuses TREE's warm objects
# instead of a cold build of the queued worktree (over an hour in wide).
# TREE must be clean. ACCEL (default tcg) is passed to qemu-boot/boot.
#
# Usage: queue-boot.sh [--in-tree] QUEUE_DIR TREE WORK PROFILE
# Exit: 0 built and booted, 1 the queued kernel failed (build, section
#   check or boot; named on stderr), 64 usage, 65 no queue or a dirty
#   TREE, 70 a tool or host error, 130 interrupted.

set -eu

case ${1-} in -h | --help) sed -n '3,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
in_tree=0
if [ "${1-}" = --in-tree ]; then
	in_tree=1
	shift
fi
[ $# -eq 4 ] || { echo "usage: queue-boot.sh [--in-tree] QUEUE_DIR TREE WORK PROFILE" >&2; exit 64; }
trap 'exit 130' INT TERM
queue=$1
tree=$2
work=$3
profile=$4
root=$(cd "$(dirname "$0")/.." && pwd)
prog_name=queue-boot
. "$root/lib/args.sh"
. "$root/lib/tsv.sh"
wt=$work/qtree-am-core

# make queue resets the worktree: hold its lock while building from it.
exec 9>"$work/queue.lock"
flock 9

[ -f "$queue/series" ] || die 65 "$queue/series: no queue (run make queue first)"
[ -d "$wt" ] || die 65 "$wt: no queued tree (run make queue first)"
[ -x "$root/qemu-boot/boot" ] || die 70 "qemu-boot/boot is not built (make programs)"
n=$(wc -l <"$queue/series")
have=$(git -C "$wt" rev-list --count core..HEAD)
[ "$have" -eq "$n" ] ||
	die 65 "$wt has $have commits on core, the queue has $n patches (run make queue again)"
[ "$n" -gt 0 ] || die 65 "the queue is empty: nothing to build"

build_tree=$wt
if [ "$in_tree" -eq 1 ]; then
	[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
		die 65 "$tree has local changes: --in-tree needs a clean tree"
	back=$(git -C "$tree" rev-parse HEAD) || die 70 "$tree is not a git tree"
	trap 'git -C "$tree" checkout -q --detach "$back" ||
		echo "queue-boot: error: could not put $tree back at $back" >&2' EXIT
	git -C "$tree" checkout -q --detach "$(git -C "$wt" rev-parse HEAD)" ||
		die 70 "cannot check out the queued commits in $tree"
	build_tree=$tree
fi
mkdir -p "$work/queue-boot"
sh "$root/qemu-boot/build-kernel.sh" "$profile" "$build_tree" "$work" \
	>"$work/queue-boot/build.out" ||
	die 1 "the queued tree does not build in profile $profile (see above)"
out=$(tail -n 1 "$work/queue-boot/build.out")
res=$out/ro-campaign
[ -f "$res/vmlinux" ] || die 70 "$res/vmlinux: missing after the build"

# Every queued variable that the profile compiles is in the range of its
# annotation (the list's annotation column): ro_after_init between
# __start_ro_after_init and __end_ro_after_init, initdata and initconst
# between __init_begin and __init_end (nm prints fixed-width lower-case
# hex, so strings compare as numbers).
nm "$res/vmlinux" >"$res/queue-nm.txt" || die 70 "nm $res/vmlinux failed"
for l in "$queue"/.plan/*/*.list; do
	tsv_awk "$l" 'NR > 1 { print $c_name, (c_annotation ? $c_annotation : "ro_after_init") }'
done | sort -u >"$res/queue-vars.txt"
awk 'NR == FNR { want[$1] = $2; next }
	$3 == "__start_ro_after_init" { start["ro"] = $1 }
	$3 == "__end_ro_after_init" { end["ro"] = $1 }
	$3 == "__init_begin" { start["init"] = $1 }
	$3 == "__init_end" { end["init"] = $1 }
	($3 in want) { addr[$3] = addr[$3] " " $1 }
	END {
		if (start["ro"] == "" || end["ro"] == "") {
			print "queue-boot: error: vmlinux has no __start/__end_ro_after_init" > "/dev/stderr"
			exit 1
		}
		for (v in want) {
			r = want[v] == "ro_after_init" ? "ro" : "init"
			if (!(v in addr)) { absent++; continue }
			n = split(addr[v], a, " ")
			ok = 0
			for (i = 1; i <= n; i++)
				if (a[i] >= start[r] && a[i] < end[r])
					ok = 1
			if (ok)
				inside[r]++
			else
				bad = bad " " v " (" want[v] ")"
		}
		if (bad != "") {
			print "queue-boot: error: not in the section of its annotation in vmlinux:" bad > "/dev/stderr"
			exit 1
		}
		printf "queue-boot: %d queued variables in .data..ro_after_init of vmlinux, %d in its init sections, %d not in this profile'"'"'s vmlinux\n", inside["ro"], inside["init"], absent
	}' "$res/queue-vars.txt" "$res/queue-nm.txt" || exit 1

sh "$root/qemu-boot/mkinitramfs.sh" "$res" >/dev/null || die 70 "mkinitramfs.sh failed"
bout=$work/queue-boot/$profile
rm -rf "$bout"
rc=0
"$root/qemu-boot/boot" "$res/bzImage" --accel "${ACCEL:-tcg}" --out "$bout" || rc=$?
verdict=$(cat "$bout/verdict" 2>/dev/null || echo none)
[ "$rc" -eq 0 ] && [ "$verdict" = pass ] ||
	die 1 "boot with protection on: verdict '$verdict' (exit $rc), see $bout/result.tsv and $bout/console.log"
echo "queue-boot: $profile kernel with the $n queued patches booted, all exercises passed (verdict pass, $bout)"
printf 'make queue-check-boot: the %s kernel with the whole queue built, the queued\nvariables are in their sections, and it booted with all exercises passing\n(verdict pass, protection on).\n' \
	"$profile" >>"$queue/README"
