#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# queue-bisect.sh - check that each patch of the queue builds and boots
# on its own (make queue-check-bisect): a maintainer may apply any one of
# them, and git bisect may stop at any of them.
#
# For each checked patch: a clean worktree WORK/qtree-bisect at tag
# core, the patch applied alone with git am (if it does not apply alone,
# with the earlier patches of its posting, and the README says so), the
# kernel built with qemu-boot/build-kernel.sh PROFILE (ccache, the build
# lock; the worktree keeps its build directory, so each patch rebuilds
# only the files that changed), the patch's variables checked to lie in
# .data..ro_after_init of vmlinux when the profile compiles them, and
# qemu-boot/boot run with all exercises, protection on: its verdict must
# be "pass" (which includes the lkdtm control).
#
# --sample N (or QUEUE_BISECT_SAMPLE=N) checks N patches, evenly spaced
# over the top-level series, the first and the last among them; without
# it (or with 0) every patch is checked.  With --in-tree the patches are
# applied in TREE itself, which must be clean and goes back to its commit
# afterwards (TREE's warm build directory, as queue-boot.sh --in-tree).
#
# Results: QUEUE_DIR/bisect.tsv (patch applied build section boot seconds)
# and the "Bisect check" section of QUEUE_DIR/README, which names every
# checked patch with its result and says how many were not checked.
# ACCEL (default tcg) is passed to qemu-boot/boot.
#
# Usage: queue-bisect.sh [--in-tree] [--sample N] QUEUE_DIR TREE WORK PROFILE
# Exit: 0 every checked patch passed, 1 a patch failed (it does not apply,
#   build, sit in ro_after_init or boot; named on stderr and in the
#   README), 64 usage, 65 no queue or a dirty TREE, 70 a tool or host
#   error, 130 interrupted.

set -eu

usage() {
	sed -n '3,32p' "$0" | sed 's/^# \{0,1\}//'
}

in_tree=0
sample=${QUEUE_BISECT_SAMPLE:-0}
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--in-tree) in_tree=1; shift ;;
	--sample)
		[ $# -ge 2 ] || { usage >&2; exit 64; }
		sample=$2
		shift 2
		;;
	*) break ;;
	esac
done
[ $# -eq 4 ] || { usage >&2; exit 64; }
trap 'exit 130' INT TERM
queue=$1
tree=$2
work=$3
profile=$4
root=$(cd "$(dirname "$0")/.." && pwd)
prog_name=queue-bisect
. "$root/lib/args.sh"
. "$root/lib/tsv.sh"
case $sample in
'' | *[!0-9]*) die 64 "QUEUE_BISECT_SAMPLE=$sample: must be a number of patches (0: all)" ;;
esac

# make queue rewrites the queue and its worktrees: hold its lock.
mkdir -p "$work"
exec 9>"$work/queue.lock"
flock 9

[ -f "$queue/series" ] || die 65 "$queue/series: no queue (run make queue first)"
[ -d "$queue/.plan" ] || die 65 "$queue/.plan: missing (run make queue again)"
[ -x "$root/qemu-boot/boot" ] || die 70 "qemu-boot/boot is not built (make programs)"
git -C "$tree" rev-parse -q --verify refs/tags/core >/dev/null ||
	die 65 "$tree: no tag core (run make setup)"
total=$(grep -c . "$queue/series" || true)
[ "$total" -gt 0 ] || die 65 "the queue is empty: nothing to check"

name=$(git -C "$tree" config user.name || echo ro-campaign)
email=$(git -C "$tree" config user.email || echo ro-campaign@localhost)
g() {
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null \
	GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email \
	GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email \
	git -c commit.gpgsign=false "$@"
}

# The patches to check: all, or SAMPLE of them evenly spaced (index
# k * (total - 1) / (sample - 1), so the first and the last are in).
if [ "$sample" -eq 0 ] || [ "$sample" -ge "$total" ]; then
	pick=$(seq 1 "$total")
	how="every patch"
elif [ "$sample" -eq 1 ]; then
	pick=1
	how="a sample of 1 (QUEUE_BISECT_SAMPLE=1: the first patch)"
else
	pick=$(awk -v n="$sample" -v t="$total" 'BEGIN {
		for (k = 0; k < n; k++) print int(k * (t - 1) / (n - 1)) + 1 }' | uniq)
	how="a sample of $sample (QUEUE_BISECT_SAMPLE=$sample, evenly spaced, the first and the last among them)"
fi
nchk=$(echo "$pick" | wc -l)

build_tree=$work/qtree-bisect
if [ "$in_tree" -eq 1 ]; then
	[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
		die 65 "$tree has local changes: --in-tree needs a clean tree"
	back=$(git -C "$tree" rev-parse HEAD) || die 70 "$tree is not a git tree"
	trap 'git -C "$tree" am --abort >/dev/null 2>&1 || true; git -C "$tree" checkout -q --detach "$back" ||
		echo "queue-bisect: error: could not put $tree back at $back" >&2' EXIT
	build_tree=$tree
fi

# at_core: the build tree, clean, at core (our own worktree is reset and
# cleaned; TREE, checked clean above, is only checked out).
at_core() {
	if [ "$in_tree" -eq 1 ]; then
		git -C "$tree" am --abort >/dev/null 2>&1 || true
		git -C "$tree" checkout -q -f --detach core ||
			die 70 "cannot check out core in $tree"
	elif [ -d "$build_tree" ]; then
		git -C "$build_tree" am --abort >/dev/null 2>&1 || true
		git -C "$build_tree" checkout -q -f --detach core ||
			die 70 "$build_tree: cannot check out core (remove it; it is recreated)"
		git -C "$build_tree" clean -q -fdx
	else
		git -C "$tree" worktree prune
		git -C "$tree" worktree add -q --detach "$build_tree" core ||
			die 70 "cannot add worktree $build_tree"
	fi
}

out_dir=$work/queue-bisect
mkdir -p "$out_dir"
res_tsv=$out_dir/bisect.tsv
printf 'patch\tapplied\tbuild\tsection\tboot\tseconds\n' >"$res_tsv"
nfail=0
k=0
t0=$(date +%s)
for idx in $pick; do
	k=$((k + 1))
	p=$(sed -n "${idx}p" "$queue/series")
	dir=${p%%/*}
	file=${p#*/}
	nnnn=$(echo "$file" | cut -c1-4)
	list=$queue/.plan/$dir/$nnnn.list
	[ -f "$queue/$p" ] && [ -f "$list" ] ||
		die 65 "$queue/series:$idx: $p or its list $list is missing (run make queue again)"
	start=$(date +%s)
	echo "queue-bisect: [$k/$nchk] $p" >&2
	applied=alone build=- section=- boot=-
	at_core
	if ! g -C "$build_tree" am -q "$queue/$p" >"$out_dir/am.log" 2>&1; then
		# Not alone: with the earlier patches of its posting.
		git -C "$build_tree" am --abort >/dev/null 2>&1 || true
		set --
		while read -r q; do
			set -- "$@" "$queue/$dir/$q"
			[ "$q" != "$file" ] || break
		done <"$queue/$dir/series"
		applied="with the $(($# - 1)) earlier patches of its posting"
		if ! g -C "$build_tree" am -q "$@" >"$out_dir/am.log" 2>&1; then
			git -C "$build_tree" am --abort >/dev/null 2>&1 || true
			applied="FAILED: does not apply on core"
		fi
	fi
	case $applied in
	FAILED*) ;;
	*)
		build=FAILED
		if sh "$root/qemu-boot/build-kernel.sh" "$profile" "$build_tree" "$work" \
			>"$out_dir/build.out" 2>"$out_dir/build.err"; then
			build=ok
		else
			tail -n 5 "$out_dir/build.err" >&2
		fi
		;;
	esac
	if [ "$build" = ok ]; then
		res=$(tail -n 1 "$out_dir/build.out")/ro-campaign
		nm "$res/vmlinux" >"$out_dir/nm.txt" || die 70 "nm $res/vmlinux failed"
		# a patch has one annotation (the list's annotation column):
		# its variables must be in that annotation's range of vmlinux
		section=$(tsv_awk "$list" 'NR > 1 { print $c_name, (c_annotation ? $c_annotation : "ro_after_init") }' | sort -u |
			awk 'NR == FNR { want[$1] = 1; n++
				if ($2 == "ro_after_init") { s0 = "__start_ro_after_init"; e0 = "__end_ro_after_init"; sec = ".data..ro_after_init" }
				else { s0 = "__init_begin"; e0 = "__init_end"; sec = "the init sections" }
				next }
			$3 == s0 { start = $1 }
			$3 == e0 { end = $1 }
			($3 in want) { addr[$3] = addr[$3] " " $1 }
			END {
				if (start == "" || end == "") { print "FAILED: vmlinux has no " s0 "/" e0; exit }
				for (v in want) {
					if (!(v in addr)) { absent++; continue }
					m = split(addr[v], a, " "); ok = 0
					for (i = 1; i <= m; i++) if (a[i] >= start && a[i] < end) ok = 1
					if (ok) inside++; else bad = bad " " v
				}
				if (bad != "") { print "FAILED: not in " sec ":" bad; exit }
				if (inside + 0 == 0) print "not compiled in this profile"
				else if (absent) printf "%d of %d in %s, %d not in this vmlinux\n", inside, n, sec, absent
				else printf "%d of %d in %s\n", inside, n, sec
			}' - "$out_dir/nm.txt")
		sh "$root/qemu-boot/mkinitramfs.sh" "$res" >/dev/null ||
			die 70 "mkinitramfs.sh failed"
		bout=$out_dir/boot
		rm -rf "$bout"
		rc=0
		"$root/qemu-boot/boot" "$res/bzImage" --accel "${ACCEL:-tcg}" \
			--out "$bout" >"$out_dir/boot.log" 2>&1 || rc=$?
		boot=$(cat "$bout/verdict" 2>/dev/null || echo none)
		[ "$rc" -eq 0 ] || boot="$boot (exit $rc)"
		if [ "$boot" != pass ]; then
			cp "$bout/console.log" "$out_dir/console-$nnnn-$dir.log" 2>/dev/null || true
		fi
	fi
	secs=$(($(date +%s) - start))
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$p" "$applied" "$build" "$section" \
		"$boot" "$secs" >>"$res_tsv"
	if [ "$build" != ok ] || [ "$boot" != pass ] || [ "${section#FAILED}" != "$section" ]; then
		nfail=$((nfail + 1))
		echo "queue-bisect: FAILED: $p: applied $applied, build $build, section $section, boot $boot" >&2
	fi
	el=$(($(date +%s) - t0))
	left=$(( el * (nchk - k) / k ))
	echo "queue-bisect: [$k/$nchk] $applied, build $build, $section, boot $boot (${secs}s; ETA $((left / 60)) min $((left % 60)) s)" >&2
done

# The README's section: replaced, never appended twice.
{
	awk '/^$/ && !skip { held = held "\n"; next }
	     /^Bisect check \(make queue-check-bisect/ { skip = 1; held = ""; next }
	     skip { if ($0 == "(end of the bisect check)") skip = 0; next }
	     { printf "%s", held; held = ""; print }' "$queue/README"
	printf '\nBisect check (make queue-check-bisect, %s profile): each checked patch\n' "$profile"
	printf 'was applied alone on core, built, its variables looked up in vmlinux,\n'
	printf 'and booted with all exercises, protection on.\n'
	if [ "$nfail" -eq 0 ]; then
		verdict="all of them passed."
	else
		verdict="$nfail FAILED."
	fi
	echo "Checked: $nchk of $total patches, $how; $verdict" | fmt -w 72
	tsv_awk "$res_tsv" 'NR > 1 {
		ok = ($c_build == "ok" && $c_boot == "pass" && $c_section !~ /^FAILED/)
		printf "  %s %s: applied %s; build %s; %s; boot %s\n", ok ? "pass" : "FAIL",
			$c_patch, $c_applied, $c_build, $c_section, $c_boot }'
	if [ "$nchk" -lt "$total" ]; then
		echo "Not checked: $((total - nchk)) patches (make queue-check-bisect QUEUE_BISECT_SAMPLE=0 checks them all)."
	fi
	echo "(end of the bisect check)"
} >"$queue/README.tmp"
mv "$queue/README.tmp" "$queue/README"
cp "$res_tsv" "$queue/bisect.tsv"
if [ "$nfail" -gt 0 ]; then
	echo "queue-bisect: error: $nfail of $nchk checked patches failed (see $queue/README)" >&2
	exit 1
fi
echo "queue-bisect: $nchk of $total patches built and booted alone on core ($profile), all passed"
