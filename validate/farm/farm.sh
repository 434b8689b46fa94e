#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# farm.sh - validate through a farm: emit the batches as jobs, run them
# with GNU parallel or Slurm, merge their verdicts.  make campaign
# FARM=parallel|slurm runs its validate stage through this.
#
# Usage: farm.sh --runner parallel|slurm --dir DIR -- VALIDATE-OPTION...
#
#   --runner   parallel: run-parallel.sh (FARM_SSHLOGINFILE: the machines,
#              with the checkout at FARM_REMOTE_TOOLS there, default
#              ro-campaign under the login directory; else this one,
#              FARM_PARALLEL jobs at once, default 1);
#              slurm: submit-slurm.sh --wait (FARM_SBATCH_ARGS: more sbatch
#              options, split on spaces)
#   --dir      where the jobs go; validate's options name the candidates,
#              tree, work directory and journal as for a run on one
#              machine
#
# An emission that DIR holds already is merged first, then removed (it
# is validate's: it has farm.tsv), so a rerun emits only what is still
# undecided: a job that failed is run again, nothing is decided twice.
# Exit: 0 every job merged, 1 some job did not finish (named; run the same
# command again), 64 usage, else validate's or the runner's.

set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
prog_name=farm
. "$top/lib/args.sh"

usage_error() {
	echo "farm: $*" >&2
	echo "usage: farm.sh --runner parallel|slurm --dir DIR -- VALIDATE-OPTION..." >&2
	exit 64
}

runner=
dir=
while [ $# -gt 0 ]; do
	case $1 in
	--runner | --dir)
		[ $# -ge 2 ] || usage_error "$1 needs a value"
		case $1 in
		--runner) runner=$2 ;;
		--dir) dir=$2 ;;
		esac
		shift 2 ;;
	--) shift; break ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
done
case $runner in
parallel | slurm) ;;
*) usage_error "--runner must be parallel or slurm, not '$runner'" ;;
esac
[ -n "$dir" ] || usage_error "--dir is required"
bin=$top/validate/validate

# merge_old: an earlier emission in DIR is merged, then removed
merge_old() {
	[ -f "$dir/farm.tsv" ] || return 0
	if [ -f "$dir/jobs.tsv" ]; then
		echo "farm: merging the earlier emission in $dir first" >&2
		"$bin" --merge "$dir"
		rc=$?
		[ $rc -le 1 ] || return $rc
	fi
	rm -rf "$dir" || die 70 "cannot remove $dir"
}

merge_old || exit $?
"$bin" --emit-jobs "$dir" "$@" || exit $?
n=$(awk 'NR > 1' "$dir/jobs.tsv" | wc -l)
if [ "$n" -eq 0 ]; then
	echo "farm: nothing left to validate in batches" >&2
	rm -rf "$dir"
	exit 0
fi
case $runner in
parallel)
	set -- -j "${FARM_PARALLEL:-1}"
	[ -n "${FARM_SSHLOGINFILE:-}" ] && set -- "$@" --sshloginfile "$FARM_SSHLOGINFILE"
	[ -n "${FARM_REMOTE_TOOLS:-}" ] && set -- "$@" --remote-tools "$FARM_REMOTE_TOOLS"
	sh "$here/run-parallel.sh" "$@" "$dir"
	rc=$? ;;
slurm)
	# FARM_SBATCH_ARGS is a list of options, split on purpose
	# shellcheck disable=SC2086
	sh "$here/submit-slurm.sh" --wait "$dir" -- ${FARM_SBATCH_ARGS:-}
	rc=$? ;;
esac
[ $rc -le 1 ] || echo "farm: the $runner runner exited $rc; merging what finished" >&2
"$bin" --merge "$dir"
