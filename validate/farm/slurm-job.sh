#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# slurm-job.sh - the Slurm array job of validate --emit-jobs: array task
# K runs DIR/job-K (zero-padded to 4 digits) with run-job.sh.
#
# Usage: sbatch --array=1-N [OPTIONS] slurm-job.sh DIR TOOLS
#   (submit-slurm.sh writes this command: the array from DIR/jobs.tsv,
#   each task's output in DIR/job-K/slurm.out)
#
# DIR must be readable and writable from every node (shared storage);
# TOOLS is the ro-campaign checkout on the nodes, each node prepared as
# run-job.sh says (its WORK on node-local disk: FARM_WORK, FARM_TREE).
# A task builds with the CPUs Slurm gave it (JOBS=SLURM_CPUS_PER_TASK).
# Exit: run-job.sh's.
#
#SBATCH --job-name=ro-validate
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2

set -u

# lib/args.sh's help_text: sbatch runs a copy of this file, lib/ is not
# beside it
case ${1-} in
-h | --help) awk 'NR > 3 && (!/^#/ || /^#SBATCH/) { exit }
	NR > 3 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
esac
[ $# -eq 2 ] || { echo "usage: sbatch --array=1-N slurm-job.sh DIR TOOLS" >&2; exit 64; }
[ -n "${SLURM_ARRAY_TASK_ID:-}" ] ||
	{ echo "slurm-job: not an array task (submit with sbatch --array)" >&2; exit 64; }
job=$(printf '%s/job-%04d' "$1" "$SLURM_ARRAY_TASK_ID")
JOBS=${SLURM_CPUS_PER_TASK:-${JOBS:-$(nproc)}}
export JOBS
exec sh "$2/validate/farm/run-job.sh" "$job"
