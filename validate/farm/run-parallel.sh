#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run-parallel.sh - run the jobs of validate --emit-jobs with GNU parallel,
# on this machine or across machines over ssh.
#
# Usage: run-parallel.sh [-j N] [--sshloginfile FILE] [--remote-tools DIR]
#                        DIR [JOB...]
#
#   DIR               the emission (validate --emit-jobs DIR)
#   JOB...            the jobs to run, by name (job-0003; validate --merge
#                     lists the unfinished ones in DIR/rerun.txt); default
#                     all of DIR/jobs.tsv
#   -j N              jobs at once on this machine (default 1: kernel builds
#                     take the whole machine and wait for each other on
#                     WORK's build lock; boots overlap with builds)
#   --sshloginfile F  run on the machines of F instead (parallel's format:
#                     "N/user@host" per line, N jobs at once there).  Each
#                     job directory is copied there (--transferfile, rsync
#                     over ssh), run by REMOTE_TOOLS/validate/farm/run-job.sh
#                     and copied back (--return), then removed there
#                     (--cleanup).  Each machine is prepared as run-job.sh
#                     says; rsync must be installed at both ends.
#   --remote-tools D  the ro-campaign checkout on those machines, relative
#                     to the login directory or absolute (default
#                     ro-campaign; taken as it is, no ~ or $VAR)
#
# Every job's exit status and time are appended to DIR/parallel.log
# (--joblog, one run after another).  A job counts as run when its
# status came back (run-job.sh writes it last): parallel's exit 0 alone
# is not trusted.  Then run validate --merge DIR: it appends the verdicts
# and names the jobs that did not finish.
# Environment: FARM_WORK, FARM_TREE, JOBS are passed to remote jobs when
# set (run-job.sh); PARALLEL_SSH, parallel's own, picks the ssh command;
# PARALLEL_SHELL (default /bin/sh) is the shell of every job, remote ones
# included: parallel's remote wrapper otherwise runs the job with the
# worker's $SHELL, and where that is empty (a CI runner, a forced ssh
# command) the job never runs while parallel reports exit 0.
# Exit: 0 every job exited 0 and wrote its status, 1 some job failed or
# did not run, 64 usage, 65 DIR is not an emission, 70 parallel is
# missing or failed.

set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
prog_name=run-parallel
. "$top/lib/args.sh"

usage_error() {
	echo "run-parallel: $*" >&2
	echo "usage: run-parallel.sh [-j N] [--sshloginfile FILE] [--remote-tools DIR] DIR [JOB...]" >&2
	exit 64
}

n=1
logins=
rtools=ro-campaign
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) help_text "$0"; exit 0 ;;
	-j | --sshloginfile | --remote-tools)
		[ $# -ge 2 ] || usage_error "$1 needs a value"
		case $1 in
		-j) n=$2 ;;
		--sshloginfile) logins=$2 ;;
		--remote-tools) rtools=$2 ;;
		esac
		shift 2 ;;
	--) shift; break ;;
	-*) usage_error "unknown option '$1'" ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || usage_error "DIR is required"
posint -j "$n" 1000
if [ -n "$logins" ]; then
	[ -r "$logins" ] || usage_error "$logins: cannot read it"
	# absolute: parallel runs from DIR's parent below
	logins=$(cd "$(dirname "$logins")" && pwd)/$(basename "$logins")
fi
command -v parallel >/dev/null || die 70 "GNU parallel is not installed (make setup)"
dir=$(cd "$1" 2>/dev/null && pwd) || die 65 "$1: no such directory"
shift
[ -f "$dir/jobs.tsv" ] || die 65 "$dir: not a complete emission (no jobs.tsv)"
# the names of jobs.tsv, checked below; split, not globbed
set -f
# shellcheck disable=SC2046
[ $# -gt 0 ] || set -- $(awk -F '\t' 'NR > 1 { print $1 }' "$dir/jobs.tsv")
set +f
for j; do
	case $j in
	job- | job-*[!0-9]*) usage_error "'$j' is not a job name (job-NNNN)" ;;
	job-*) [ -f "$dir/$j/job.tsv" ] || die 65 "$dir/$j: no such job" ;;
	*) usage_error "'$j' is not a job name (job-NNNN)" ;;
	esac
done
[ $# -gt 0 ] || { echo "run-parallel: $dir has no jobs" >&2; exit 0; }
echo "run-parallel: $# job(s) of $dir${logins:+ on the machines of $logins}" >&2
# A status left by an earlier run must not pass for this one's.
for j; do
	rm -f "$dir/$j/status" || die 70 "cannot remove $dir/$j/status"
done
PARALLEL_SHELL=${PARALLEL_SHELL:-/bin/sh}
export PARALLEL_SHELL
log=$dir/parallel.log
[ -s "$log" ] ||
	printf 'Seq\tHost\tStarttime\tJobRuntime\tSend\tReceive\tExitval\tSignal\tCommand\n' >"$log" ||
	die 70 "cannot write $log"

if [ -z "$logins" ]; then
	# -q: parallel quotes each word, so that no path is read as shell
	# code (a space, $(...), a quote in DIR or in this checkout's path)
	parallel --will-cite -q -j "$n" --joblog "+$log" \
		sh "$top/validate/farm/run-job.sh" "$dir/{}" ::: "$@"
	rc=$?
else
	# Relative names: parallel copies DIR/JOB to the same path under the
	# remote login directory, and back.
	envs=
	for v in FARM_WORK FARM_TREE JOBS; do
		eval "[ -n \"\${$v:-}\" ]" && envs="$envs --env $v"
	done
	cd "$(dirname "$dir")" || die 70 "cannot enter $(dirname "$dir")"
	d=$(basename "$dir")
	# shellcheck disable=SC2086
	parallel --will-cite -q --sshloginfile "$logins" --joblog "+$log" \
		$envs --transferfile "$d/{}" --return "$d/{}" --cleanup \
		sh "$rtools/validate/farm/run-job.sh" "$d/{}" ::: "$@"
	rc=$?
fi
[ $rc -eq 255 ] && die 70 "parallel failed (exit 255)"
lost=
for j; do
	[ -f "$dir/$j/status" ] || lost="$lost $j"
done
if [ -n "$lost" ]; then
	echo "run-parallel: no status came back from:$lost (it stopped before validate, did not run, or was not copied back)" >&2
	[ $rc -eq 0 ] && rc=1
fi
case $rc in
0) echo "run-parallel: every job exited 0; now: validate/validate --merge $dir" >&2; exit 0 ;;
*) echo "run-parallel: $rc job(s) failed or did not run (see $log); validate --merge $dir names them" >&2; exit 1 ;;
esac
