#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run-job.sh - run one job of validate --emit-jobs on this machine: the
# worker's side of GNU parallel (run-parallel.sh) and Slurm
# (slurm-job.sh).
#
# Usage: run-job.sh JOBDIR
#
# A worker is prepared like any ro-campaign machine: this checkout with
# its programs built (make programs) and `make setup KERNEL=...` of the
# job's kernel, on the same Debian release (the same compiler gives the
# same .config; validate refuses a job whose config hash differs).
#
# The job runs in a work tree of the prepared tree, one per job running
# at once on this machine (a slot): slot 1 is VTREE (WORK/vtree, the tree
# make validate uses) with WORK as validate's --work; slot N has the work
# directory WORK/slot-N and the tree WORK/slot-N/R, where R is VTREE's
# path under WORK (its name when VTREE is elsewhere).  Each slot has its
# own build directory (WORK/slot-N/build/PROFILE-KEY), and from each build
# directory the tree is at the same relative path (../../R), so that
# ccache (CCACHE_BASEDIR, qemu-boot/build-kernel.sh) serves the first
# build of a new slot from the objects slot 1 compiled.  CACHE is
# exported (default WORK) so that every slot shares ccache and the build
# lock.  A slot is held with flock on WORK/jobs/slot-N.lock while its job
# runs.  setup commits with the date of the day, so a worker's
# commits differ from the emitter's while their trees are the same: the
# job's base/ holds the emitter's commit objects, and they are written
# into the worker's repository when it lacks them (git hash-object; a
# tree object it lacks means its kernel is not the emitter's: exit 70).
#
# Writes JOBDIR/run.log (validate's progress) and JOBDIR/status (key
# value: rc, host, slot, seconds), which validate --merge reads.
#
# Environment: FARM_WORK and FARM_TREE (the worker's WORK and TREE, for
# a cluster whose nodes share a home directory: node-local disk), else
# WORK and TREE, else CACHE/MAJOR.MINOR and its linux/ (CACHE defaults to
# ~/.cache/ro-campaign), from the job's kernel; VTREE; FARM_SLOTS (the
# most slots, 16); JOBS (build parallelism).
# Exit: validate's: 0 done, 65 a bad job, 70 this worker is not like the
# emitter or a tool failed, 130 interrupted; 64 usage.

set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
prog_name=run-job
. "$top/lib/args.sh"

help_maybe "$0" "$@"
[ $# -eq 1 ] || die 64 "usage: run-job.sh JOBDIR"
[ -f "$1/job.tsv" ] || die 64 "$1: not a job directory (no job.tsv)"
job=$(cd "$1" && pwd)
[ -x "$top/validate/validate" ] ||
	die 70 "$top/validate/validate is not built (make programs)"

# kv KEY: the value of KEY in job.tsv
kv() {
	awk -F '\t' -v k="$1" 'NR > 1 && $1 == k { print $2; exit }' "$job/job.tsv"
}
name=$(kv job)
base=$(kv base)
kernel=$(kv kernel)
case $base in
*[!0-9a-f]* | '') die 65 "$job/job.tsv: bad base commit '$base'" ;;
esac
[ ${#base} -eq 40 ] || die 65 "$job/job.tsv: bad base commit '$base'"
mm=$(echo "$kernel" | cut -d. -f1,2)
work=${FARM_WORK:-${WORK:-${CACHE:-$HOME/.cache/ro-campaign}/$mm}}
tree=${FARM_TREE:-${TREE:-$work/linux}}
[ -d "$tree/.git" ] ||
	die 70 "$tree: no prepared kernel tree on $(hostname) (make setup KERNEL=$mm, or set FARM_TREE)"

# ---- the base commit ----------------------------------------------------------
for f in "$job"/base/*; do
	[ -f "$f" ] || continue
	hex=${f##*/}
	hex=${hex#*-}
	git -C "$tree" cat-file -e "$hex^{commit}" 2>/dev/null && continue
	t=$(sed -n '1s/^tree \([0-9a-f]*\)$/\1/p' "$f")
	[ -n "$t" ] && git -C "$tree" cat-file -e "$t^{tree}" 2>/dev/null ||
		die 70 "$tree lacks the tree of commit $hex: its kernel is not the emitter's (make setup KERNEL=$mm with the same core series)"
	got=$(git -C "$tree" hash-object -t commit -w "$f") ||
		die 70 "git hash-object $f failed"
	[ "$got" = "$hex" ] || die 70 "$f: wrote commit $got, not $hex"
done
git -C "$tree" cat-file -e "$base^{commit}" 2>/dev/null ||
	die 70 "$tree: no commit $base, and the job's base/ does not hold it"

# ---- a slot ---------------------------------------------------------------------
slots=${FARM_SLOTS:-16}
posint FARM_SLOTS "$slots" 1000
mkdir -p "$work/jobs" || die 70 "cannot create $work/jobs"
vt=${VTREE:-$work/vtree}
export CACHE="${CACHE:-$work}"
i=1
while :; do
	[ $i -le "$slots" ] || die 70 "all $slots slots of $work are busy (FARM_SLOTS)"
	exec 8>"$work/jobs/slot-$i.lock" || die 70 "cannot open $work/jobs/slot-$i.lock"
	if flock -n 8; then
		if [ $i -eq 1 ]; then
			sw=$work
			st=$vt
		else
			sw=$work/slot-$i
			case $vt in
			"$work"/*) st=$sw/${vt#"$work"/} ;;
			*) st=$sw/$(basename "$vt") ;;
			esac
			mkdir -p "$(dirname "$st")" || die 70 "cannot create $(dirname "$st")"
		fi
		# a validate that is not a job's may hold that tree
		flock -n "$st.validate-lock" true 2>/dev/null && break
	fi
	exec 8>&-
	i=$((i + 1))
done
if [ ! -d "$st" ]; then
	git -C "$tree" worktree add --detach "$st" "$base" >/dev/null 2>&1 ||
		die 70 "git worktree add $st $base failed"
fi

# ---- the job ----------------------------------------------------------------------
host=$(hostname)
echo "run-job: $name on $host, slot $i ($st)" >&2
rm -f "$job/status"
start=$(date +%s)
"$top/validate/validate" --job "$job" --tree "$st" --work "$sw" \
	--tools "$top" 2>>"$job/run.log"
rc=$?
secs=$(($(date +%s) - start))
printf 'key\tvalue\nrc\t%s\nhost\t%s\nslot\t%s\nseconds\t%s\n' \
	"$rc" "$host" "$i" "$secs" >"$job/status.tmp" &&
	mv "$job/status.tmp" "$job/status" || die 70 "cannot write $job/status"
if [ $rc -eq 0 ]; then
	echo "run-job: $name done in $(fmt_time $secs): $(tail -n 1 "$job/run.log")" >&2
else
	tail -n 5 "$job/run.log" | sed 's/^/  /' >&2
	echo "run-job: $name failed (exit $rc) after $(fmt_time $secs), see $job/run.log" >&2
fi
exit $rc
