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
# An emission that DIR holds already (it has farm.tsv) is merged first,
# then what validate and the farm wrote there is removed, file by file,
# so a rerun emits only what is still undecided: a job that failed is run
# again, nothing is decided twice.  A file they did not write is never
# deleted: the farm stops, naming it.
# Exit: 0 every job merged, 1 some job did not finish (named; run the same
# command again), 64 usage, 65 DIR holds files that are not validate's,
# else validate's or the runner's.

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
	-h | --help) help_text "$0"; exit 0 ;;
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

# rm_files DIR PATTERN...: the regular files of DIR whose names match a
# PATTERN (and their .tmp, write_file_atomic's), one by one
rm_files() {
	_d=$1
	shift
	# never through a link: its files are not the emission's
	[ -d "$_d" ] && [ ! -L "$_d" ] || return 0
	for _p; do
		for _f in "$_d"/$_p "$_d"/$_p.tmp; do
			[ -f "$_f" ] && [ ! -L "$_f" ] || continue
			rm -f "$_f" || die 70 "cannot remove $_f"
		done
	done
}

# rm_emission: what validate --emit-jobs, --job and --merge and the farm
# scripts write in DIR, file by file (FORMATS.md, "validate jobs"); then
# each directory if it is empty.  Anything else stays, and is named.
rm_emission() {
	rm_files "$dir/base" '[0-9][0-9][0-9][0-9]-[0-9a-f]*'
	rmdir "$dir/base" 2>/dev/null
	for j in "$dir"/job-[0-9]*; do
		[ -d "$j" ] && [ ! -L "$j" ] || continue
		case ${j##*/} in
		job-*[!0-9]*) continue ;;
		esac
		for b in "$j"/boots/job-[0-9]*.[0-9]*.[0-9]*-[0-9]*-*; do
			[ -d "$b" ] && [ ! -L "$b" ] || continue
			rm_files "$b" '*'
			rmdir "$b" 2>/dev/null
		done
		rmdir "$j/boots" 2>/dev/null
		rm_files "$j/base" '[0-9][0-9][0-9][0-9]-[0-9a-f]*'
		rmdir "$j/base" 2>/dev/null
		rm_files "$j" job.tsv candidates.tsv 'baseline-*.tsv' \
			cover.config extra.patch journal.tsv validate.log \
			validate.lock stats.tsv run.log status slurm.out journal.hash \
			annotate.diff annotate.err annotate.list apply.out \
			build.out git.out rev-list.out rev.out status.out
		rmdir "$j" 2>/dev/null
	done
	rm_files "$dir" jobs.tsv rerun.txt parallel.log farm.tsv
	rmdir "$dir" 2>/dev/null
	[ -e "$dir" ] || return 0
	left=$(cd "$dir" && find . -mindepth 1 \( -type d -empty -o ! -type d \) |
		sed 's|^\./||' | head -n 5 | tr '\n' ' ')
	die 65 "$dir holds files that validate did not write (${left% }); they were not deleted: move them, or choose another --dir"
}

# merge_old: an earlier emission in DIR is merged, then removed
merge_old() {
	[ -f "$dir/farm.tsv" ] || return 0
	if [ -f "$dir/jobs.tsv" ]; then
		echo "farm: merging the earlier emission in $dir first" >&2
		"$bin" --merge "$dir"
		rc=$?
		[ $rc -le 1 ] || return $rc
	fi
	rm_emission
}

merge_old || exit $?
"$bin" --emit-jobs "$dir" "$@" || exit $?
n=$(awk 'NR > 1' "$dir/jobs.tsv" | wc -l)
if [ "$n" -eq 0 ]; then
	echo "farm: nothing left to validate in batches" >&2
	rm_emission
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
