#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-hostile.sh - the farm scripts on hostile and careless input (issue
# 34): a --dir that holds the user's files, a jobs directory whose name
# is shell code, job names that leave DIR.  No kernel is built: the jobs
# fail in run-job.sh's first checks, which is far enough to see what ran.
# Seconds.

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
WORK=${WORK:-$HOME/.cache/ro-campaign}
st=$WORK/test-validate-hostile
bin=$here/validate
farm=$here/farm
. "$top/qemu-boot/tests/tap.sh"

# all "SHELL-CONDITION": for check, a condition of several commands
all() {
	eval "$1"
}

[ -x "$bin" ] || make -C "$top" -s validate/validate ||
	{ not_ok "build validate/validate" "make failed"; finish; }
rm -rf "$st"
mkdir -p "$st" || { not_ok "create $st" "mkdir failed"; finish; }

# ---- 1. farm.sh deletes only what validate wrote ----------------------------

# an interrupted emission (farm.tsv, no jobs.tsv) in a directory that
# also holds the user's files, at the top and inside a job
d=$st/farm1
mkdir -p "$d/base" "$d/job-0001/base" "$d/job-0001/boots/job-0001.1.1-1-warn"
echo thesis >"$d/thesis.txt"
echo notes >"$d/job-0001/notes.txt"
printf 'key\tvalue\n' >"$d/farm.tsv"
: >"$d/base/0001-0123456789abcdef0123456789abcdef01234567"
printf 'key\tvalue\n' >"$d/job-0001/job.tsv"
: >"$d/job-0001/base/0001-0123456789abcdef0123456789abcdef01234567"
: >"$d/job-0001/boots/job-0001.1.1-1-warn/console.log"
sh "$farm/farm.sh" --runner parallel --dir "$d" -- \
	--candidates "$st/none.tsv" >"$st/farm1.out" 2>&1
rc=$?
why="exit $rc: $(tr '\n' ' ' <"$st/farm1.out")"
check "farm.sh: the user's files in --dir survive (DIR/thesis.txt, DIR/job-0001/notes.txt)" \
	all '[ -f "$d/thesis.txt" ] && [ -f "$d/job-0001/notes.txt" ]'
check "farm.sh: what validate wrote there is removed, file by file" \
	all '[ ! -e "$d/farm.tsv" ] && [ ! -e "$d/base" ] &&
		[ ! -e "$d/job-0001/job.tsv" ] && [ ! -e "$d/job-0001/boots" ]'
check "farm.sh: exit 65, naming the file it left" \
	all '[ $rc -eq 65 ] && grep -q thesis.txt "$st/farm1.out"'

# the same emission without the user's files goes entirely, and validate
# runs (and refuses the missing candidates)
d=$st/farm2
mkdir -p "$d/base" "$d/job-0001"
printf 'key\tvalue\n' >"$d/farm.tsv"
: >"$d/base/0001-0123456789abcdef0123456789abcdef01234567"
printf 'key\tvalue\n' >"$d/job-0001/job.tsv"
: >"$d/job-0001/run.log"
sh "$farm/farm.sh" --runner parallel --dir "$d" -- \
	--candidates "$st/none.tsv" >"$st/farm2.out" 2>&1
rc=$?
why="exit $rc: $(tr '\n' ' ' <"$st/farm2.out")"
check "farm.sh: an emission of validate's files only is removed, then validate runs" \
	all '[ ! -e "$d" ] && [ $rc -ne 0 ] && [ $rc -ne 65 ]'

finish
