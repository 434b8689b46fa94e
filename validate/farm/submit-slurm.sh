#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# submit-slurm.sh - submit the jobs of validate --emit-jobs to Slurm as
# one array job (sbatch --array, one task per job, slurm-job.sh).
#
# Usage: submit-slurm.sh [--wait] DIR [JOB...] [-- SBATCH-OPTION...]
#
#   DIR        the emission, on storage every node reads and writes
#   JOB...     the jobs to submit, by name (validate --merge lists the
#              unfinished ones in DIR/rerun.txt); default all
#   --wait     return when every task has ended (sbatch --wait), so that
#              validate --merge can follow
#   after --    more sbatch options (--partition, --time, --mem,
#              --cpus-per-task, an array limit like --array=...%4 is
#              made from FARM_ARRAY_LIMIT instead)
#
# Each task's output is DIR/job-K/slurm.out.  The ro-campaign checkout
# on the nodes is this one's path (FARM_REMOTE_TOOLS to change it).
# Environment: FARM_ARRAY_LIMIT (tasks at once), FARM_WORK, FARM_TREE
# (run-job.sh), SBATCH (the sbatch command, default sbatch).
# Exit: sbatch's: 0 submitted (with --wait: every task exited 0), else
# non-zero; 64 usage, 65 DIR is not an emission, 70 sbatch is missing.

set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
prog_name=submit-slurm
. "$top/lib/args.sh"

usage_error() {
	echo "submit-slurm: $*" >&2
	echo "usage: submit-slurm.sh [--wait] DIR [JOB...] [-- SBATCH-OPTION...]" >&2
	exit 64
}

wait=
case ${1:-} in
-h | --help) help_text "$0"; exit 0 ;;
--wait) wait=--wait; shift ;;
esac
[ $# -ge 1 ] || usage_error "DIR is required"
dir=$(cd "$1" 2>/dev/null && pwd) || die 65 "$1: no such directory"
shift
[ -f "$dir/jobs.tsv" ] || die 65 "$dir: not a complete emission (no jobs.tsv)"
sbatch=${SBATCH:-sbatch}
command -v "$sbatch" >/dev/null || die 70 "$sbatch not found (Slurm's client, package slurm-client)"

# The array: task K is job-K.
array=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	case $1 in
	job- | job-*[!0-9]*) usage_error "'$1' is not a job name (job-NNNN)" ;;
	job-*) [ -f "$dir/$1/job.tsv" ] || die 65 "$dir/$1: no such job" ;;
	*) usage_error "'$1' is not a job name (job-NNNN)" ;;
	esac
	k=${1#job-}
	k=$(echo "$k" | sed 's/^0*//')
	array=${array:+$array,}$k
	shift
done
[ "${1:-}" = -- ] && shift
if [ -z "$array" ]; then
	n=$(awk 'NR > 1' "$dir/jobs.tsv" | wc -l)
	[ "$n" -gt 0 ] || { echo "submit-slurm: $dir has no jobs" >&2; exit 0; }
	array=1-$n
fi
if [ -n "${FARM_ARRAY_LIMIT:-}" ]; then
	posint FARM_ARRAY_LIMIT "$FARM_ARRAY_LIMIT" 100000
	array=$array%$FARM_ARRAY_LIMIT
fi
tools=${FARM_REMOTE_TOOLS:-$top}
echo "submit-slurm: $sbatch --array=$array ... $tools/validate/farm/slurm-job.sh $dir" >&2
"$sbatch" $wait --array="$array" --output="$dir/job-%4a/slurm.out" "$@" \
	"$top/validate/farm/slurm-job.sh" "$dir" "$tools"
