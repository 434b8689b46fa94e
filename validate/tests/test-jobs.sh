#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-jobs.sh - the batches of a validation as jobs (validate
# --emit-jobs, --job, --merge) on real engines: GNU parallel and a
# single-node Slurm cluster that the test starts on 127.0.0.1
# (slurm-local.sh), with real fast-profile builds and QEMU boots.
#
# The candidates, found in the tree at tag core by their definitions so
# that any kernel version has them:
#   init/main.c execute_command           accepted
#   kernel/power/main.c pm_test_level     rejected: the warn boot names
#                                         pm_test_store
#   arch/x86/kernel/pci-dma.c force_iommu, twice (#ifdef variants): each
#                                         is annotated with its sibling,
#                                         so jobs carry siblings
#   net/ipv4/route.c ip_rt_max_size       not-built, decided by the baseline
# in batches of 3: two batches.
#
# 1. The sequential run: the reference journal.
# 2. --emit-jobs: two jobs, the not-built verdict journaled at once;
#    --merge before any job ran names both as never run and appends
#    nothing.
# 3. GNU parallel -j 2 runs both jobs at once, each in its own work tree
#    (slots 1 and 2), then --merge: the merged journal equals the
#    sequential one (variable, file, line, verdict, evidence), and a
#    second --merge appends nothing.
# 4. A new emission: job 1 runs through parallel's remote path
#    (--sshloginfile: the job directory copied to the worker with rsync,
#    run there, copied back), with ssh replaced by a local shell whose
#    login directory is another directory (no sshd here); job 2 is made to
#    fail (its config hash is not this machine's: a worker unlike the
#    emitter); --merge reports it failed, exit 1, and lists it in
#    rerun.txt.  Then Slurm (sbatch --array through submit-slurm.sh)
#    reruns it, and the merged journal equals the sequential one.
#
# Environment: WORK, TREE (from the Makefile).  The test works in a tree
# of its own, WORK/jobs-test-tree (slot 1 of its jobs; slot 2 is
# WORK/vtree-2), so that no other validate holds it: the first run builds
# both cold.

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
WORK=${WORK:-$HOME/.cache/ro-campaign}
TREE=${TREE:-$WORK/linux}
VTREE=$WORK/jobs-test-tree
export WORK TREE VTREE
bin=$here/validate
farm=$here/farm
st=$WORK/jobs-test
. "$top/qemu-boot/tests/tap.sh"
. "$here/tests/slurm-local.sh"

cleanup() {
	slurm_stop
}
trap cleanup EXIT
trap 'exit 1' INT TERM

make -C "$top" -s validate/validate qemu-boot/boot >/dev/null ||
	{ not_ok "build validate/validate" "make failed"; finish; }
for p in parallel flock rsync ss; do
	command -v $p >/dev/null || { not_ok "$p is installed" "not found (make setup)"; finish; }
done
if [ ! -d "$VTREE" ]; then
	git -C "$TREE" worktree add --detach "$VTREE" core >/dev/null 2>&1 ||
		{ not_ok "work tree $VTREE" "git worktree add failed"; finish; }
fi

rm -rf "$st"
mkdir -p "$st/seq" "$st/camp" "$st/camp2"
# defline FILE REGEX: the line of FILE at tag core that matches REGEX
defline() {
	git -C "$TREE" show "core:$1" | grep -n -m 1 -- "$2" | cut -d: -f1
}
l_exec=$(defline init/main.c '^static char \*execute_command;')
l_pm=$(defline kernel/power/main.c '^int pm_test_level')
l_f1=$(defline arch/x86/kernel/pci-dma.c '^int force_iommu __read_mostly = 1;')
l_f2=$(defline arch/x86/kernel/pci-dma.c '^int force_iommu __read_mostly = 0;')
l_rt=$(defline net/ipv4/route.c '^static int ip_rt_max_size;')
for l in "$l_exec" "$l_pm" "$l_f1" "$l_f2" "$l_rt"; do
	[ -n "$l" ] || { not_ok "the test's variables are defined at tag core" "one is missing"; finish; }
done
cands=$st/candidates.tsv
{
	printf 'file\tline\tname\tstorage\tclass\tconfidence\treason\tevidence\n'
	printf 'init/main.c\t%s\texecute_command\tstatic\tro_after_init\thigh\tinit-only\t-\n' "$l_exec"
	printf 'kernel/power/main.c\t%s\tpm_test_level\tglobal\tro_after_init\thigh\tinit-only\t-\n' "$l_pm"
	printf 'arch/x86/kernel/pci-dma.c\t%s\tforce_iommu\tglobal\tro_after_init\thigh\tinit-only\t-\n' "$l_f1"
	printf 'arch/x86/kernel/pci-dma.c\t%s\tforce_iommu\tglobal\tro_after_init\thigh\tinit-only\t-\n' "$l_f2"
	printf 'net/ipv4/route.c\t%s\tip_rt_max_size\tstatic\tro_after_init\thigh\tinit-only\t-\n' "$l_rt"
} >"$cands"
set -- --candidates "$cands" --tree "$VTREE" --work "$WORK" --tools "$top" \
	--profile fast --batch 3

# norm JOURNAL: variable file line verdict evidence, sorted
norm() {
	awk -F '\t' 'NR > 1 { print $2 "\t" $3 "\t" $4 "\t" $6 "\t" $7 }' "$1" | sort
}
# same JOURNAL DESC: the journal's verdicts and evidence are the sequential run's
same() {
	norm "$1" >"$1.norm"
	if [ -s "$st/seq.norm" ] && cmp -s "$st/seq.norm" "$1.norm"; then
		ok "$2"
	else
		not_ok "$2" "they differ"
		diff "$st/seq.norm" "$1.norm" | sed 's/^/# /'
	fi
}
rows() {	# rows JOURNAL: its rows, the header not counted
	echo $(($(wc -l <"$1") - 1))
}

# ---- 1. the sequential run ----------------------------------------------------------
# The baseline of an earlier run of this test or test-validate.sh saves
# a bare build and its boots (it is keyed by the config and core hashes).
for b in "$WORK"/jobs-test-baseline/baseline-*.tsv "$WORK"/validate-test/a/baseline-*.tsv; do
	[ -f "$b" ] && cp "$b" "$st/seq/"
done
"$bin" "$@" --journal "$st/seq/journal.tsv" >"$st/seq/run.out" 2>&1
rc=$?
why="exit $rc: $(tail -n 3 "$st/seq/run.out")"
[ -f "$st/seq/journal.tsv" ] && [ $rc -eq 0 ] ||
	{ not_ok "the sequential run decides all 5" "$why"; echo "Bail out! no reference journal"; finish; }
check "the sequential run decides all 5 (exit 0)" \
	sh -c "[ $rc -eq 0 ] && [ $(rows "$st/seq/journal.tsv") -eq 5 ]"
norm "$st/seq/journal.tsv" >"$st/seq.norm"
sed 's/^/# seq: /' "$st/seq.norm"
mkdir -p "$WORK/jobs-test-baseline"
cp "$st"/seq/baseline-*.tsv "$WORK/jobs-test-baseline/" 2>/dev/null
cp "$st"/seq/baseline-*.tsv "$st/camp/" 2>/dev/null
cp "$st"/seq/baseline-*.tsv "$st/camp2/" 2>/dev/null

# ---- 2. the emission --------------------------------------------------------------
jobs=$st/jobs
"$bin" "$@" --journal "$st/camp/journal.tsv" --emit-jobs "$jobs" >"$st/emit.out" 2>&1
rc=$?
why="exit $rc: $(tail -n 3 "$st/emit.out")"
check "--emit-jobs: exit 0, two jobs" \
	sh -c "[ $rc -eq 0 ] && [ \$(awk 'NR > 1' '$jobs/jobs.tsv' | wc -l) -eq 2 ]"
v=$(awk -F '\t' 'NR > 1 { print $2 ":" $5 ":" $6 }' "$st/camp/journal.tsv")
check "the baseline's not-built verdict is journaled at once, outside the jobs ($v)" \
	[ "$v" = "ip_rt_max_size:baseline:not-built" ]
base=$(git -C "$TREE" rev-parse core)
check "each job names the base commit and carries the commits from pristine to it" \
	sh -c "grep -qx 'base	$base' '$jobs/job-0001/job.tsv' &&
		ls '$jobs/job-0002/base' | tail -n 1 | grep -q -- '-$base\$' &&
		ls '$jobs'/job-0001/baseline-*.tsv >/dev/null"
check "the job of one force_iommu carries the other as a sibling" \
	sh -c "grep -q 'force_iommu	.*	sibling\$' '$jobs/job-0002/candidates.tsv' &&
		grep -c 'member\$' '$jobs/job-0002/candidates.tsv' | grep -qx 1"
"$bin" "$@" --journal "$st/camp/journal.tsv" --emit-jobs "$jobs" >"$st/emit2.out" 2>&1
rc=$?
check "--emit-jobs into a directory that is not empty: exit 64" [ $rc -eq 64 ]
"$bin" --job "$jobs/job-0001" --tree "$VTREE" --work "$WORK" --profile wide >/dev/null 2>&1
rc=$?
check "--job with an option the job sets: exit 64" [ $rc -eq 64 ]
"$bin" --merge "$jobs" >"$st/merge0.out" 2>&1
rc=$?
why="exit $rc: $(cat "$st/merge0.out")"
check "--merge before any job ran: exit 1, both named as never run, nothing appended" \
	sh -c "[ $rc -eq 1 ] && grep -q '0 complete, 0 failed, 2 never ran' '$st/merge0.out' &&
		[ \$(wc -l <'$jobs/rerun.txt') -eq 2 ] && [ $(rows "$st/camp/journal.tsv") -eq 1 ]"

# ---- 3. GNU parallel, two jobs at once ------------------------------------------------
sh "$farm/run-parallel.sh" -j 2 "$jobs" >"$st/parallel.out" 2>&1
rc=$?
why="exit $rc: $(tail -n 5 "$st/parallel.out")"
check "run-parallel.sh -j 2: both jobs exit 0" \
	sh -c "[ $rc -eq 0 ] && [ \$(awk -F '\t' 'NR > 1 && \$7 == 0' '$jobs/parallel.log' | wc -l) -eq 2 ]"
slots=$(cat "$jobs"/job-000*/status 2>/dev/null | awk -F '\t' '$1 == "slot" { print $2 }' | sort | tr '\n' ' ')
check "the two jobs ran in two work trees (slots: $slots)" [ "$slots" = "1 2 " ]
"$bin" --merge "$jobs" >"$st/merge1.out" 2>&1
rc=$?
why="exit $rc: $(cat "$st/merge1.out")"
check "--merge: exit 0, 2 complete, 4 verdicts appended" \
	sh -c "[ $rc -eq 0 ] && grep -q '2 complete, 0 failed, 0 never ran, 0 unreadable; 4 verdicts appended' '$st/merge1.out'"
same "$st/camp/journal.tsv" "the merged journal equals the sequential run's: verdict and evidence of every variable"
"$bin" --merge "$jobs" >"$st/merge2.out" 2>&1
rc=$?
why="exit $rc: $(cat "$st/merge2.out")"
check "a second --merge appends nothing (5 rows, none twice)" \
	sh -c "[ $rc -eq 0 ] && grep -q '0 verdicts appended, 4 already there' '$st/merge2.out' &&
		[ $(rows "$st/camp/journal.tsv") -eq 5 ] &&
		[ -z \"\$(cut -f2-4 '$st/camp/journal.tsv' | sort | uniq -d)\" ]"

# ---- 4. parallel across "machines", a failed job, a rerun through Slurm ------------------
jobs2=$st/jobs2
"$bin" "$@" --journal "$st/camp2/journal.tsv" --emit-jobs "$jobs2" >"$st/emit3.out" 2>&1 ||
	{ not_ok "second emission" "$(tail -n 3 "$st/emit3.out")"; finish; }
# parallel's remote path (--sshloginfile, --transferfile, --return) with
# ssh replaced by a local shell whose login directory is $st/remote: no
# sshd here, and no traffic leaves the machine.  parallel and rsync are
# the real ones; the job runs on the copy parallel made there.
mkdir -p "$st/remote"
cat >"$st/ssh" <<SSH
#!/bin/sh
while [ \$# -gt 0 ]; do
	case \$1 in
	-l | -p | -o | -i | -F) shift 2 ;;
	-*) shift ;;
	*) break ;;
	esac
done
shift
[ "\${1:-}" = -- ] && shift
cd '$st/remote' || exit 255
exec sh -c "\$*"
SSH
chmod +x "$st/ssh"
echo "1/farmworker" >"$st/logins"
PARALLEL_SSH=$st/ssh sh "$farm/run-parallel.sh" --sshloginfile "$st/logins" \
	--remote-tools "$top" "$jobs2" job-0001 >"$st/remote.out" 2>&1
rc=$?
why="exit $rc: $(tail -n 3 "$st/remote.out")"
check "run-parallel.sh --sshloginfile: job-0001 copied to the worker, run there, its journal and status copied back" \
	sh -c "[ $rc -eq 0 ] && [ -f '$st/remote/jobs2/job-0001/status' ] &&
		grep -qx 'rc	0' '$jobs2/job-0001/status' && [ -s '$jobs2/job-0001/journal.tsv' ]"
cp "$jobs2/job-0002/job.tsv" "$st/job.tsv.good"
sed 's/^config_hash\t.*/config_hash\t000000000000/' "$st/job.tsv.good" >"$jobs2/job-0002/job.tsv"
sh "$farm/run-parallel.sh" "$jobs2" job-0002 >"$st/parallel2.out" 2>&1
rc=$?
why="exit $rc: $(grep -h 'hashes to' "$jobs2/job-0002/run.log" 2>/dev/null)"
check "a worker unlike the emitter: job 2 refuses to run (exit 70, the two config hashes named), run-parallel exits 1" \
	sh -c "[ $rc -eq 1 ] && grep -qx 'rc	70' '$jobs2/job-0002/status' &&
		grep -q 'hashes to [0-9a-f]*, the emitter.s to 000000000000' '$jobs2/job-0002/run.log'"
"$bin" --merge "$jobs2" >"$st/merge3.out" 2>&1
rc=$?
why="exit $rc: $(cat "$st/merge3.out")"
check "--merge: exit 1, job-0002 named as failed with its exit code, listed in rerun.txt" \
	sh -c "[ $rc -eq 1 ] && grep -q '1 complete, 1 failed' '$st/merge3.out' &&
		grep -q 'job-0002: 1 of 1 undecided, exit 70 on' '$st/merge3.out' &&
		[ \"\$(cat '$jobs2/rerun.txt')\" = job-0002 ]"
cp "$st/job.tsv.good" "$jobs2/job-0002/job.tsv"

if slurm_start "$st/slurm"; then
	ok "a single-node Slurm cluster on 127.0.0.1 (munged, slurmctld, slurmd)"
	sh "$farm/submit-slurm.sh" --wait "$jobs2" $(cat "$jobs2/rerun.txt") -- \
		--cpus-per-task="$(nproc)" >"$st/slurm.out" 2>&1
	rc=$?
	why="exit $rc: $(tail -n 3 "$st/slurm.out"); $(tail -n 3 "$jobs2/job-0002/slurm.out" 2>/dev/null)"
	check "sbatch --array=2 (submit-slurm.sh --wait): the array task ran job-0002, exit 0" \
		sh -c "[ $rc -eq 0 ] && grep -q 'array=2 ' '$st/slurm.out' &&
			grep -qx 'rc	0' '$jobs2/job-0002/status' &&
			grep -q 'run-job: job-0002 on ' '$jobs2/job-0002/slurm.out'"
else
	not_ok "a single-node Slurm cluster on 127.0.0.1" "$slurm_why"
	sh "$farm/run-parallel.sh" "$jobs2" job-0002 >"$st/parallel3.out" 2>&1
fi
"$bin" --merge "$jobs2" >"$st/merge4.out" 2>&1
rc=$?
why="exit $rc: $(cat "$st/merge4.out")"
check "--merge after the rerun: exit 0, every job complete, nothing appended twice" \
	sh -c "[ $rc -eq 0 ] && grep -q '2 complete, 0 failed, 0 never ran, 0 unreadable; 1 verdicts appended, 3 already there' '$st/merge4.out' &&
		[ $(rows "$st/camp2/journal.tsv") -eq 5 ]"
same "$st/camp2/journal.tsv" "the journal merged from parallel and Slurm jobs equals the sequential run's"
check "the work trees are clean after the jobs" \
	sh -c "[ -z \"\$(git -C '$VTREE' status --porcelain)\" ] &&
		{ [ ! -d '$WORK/vtree-2' ] || [ -z \"\$(git -C '$WORK/vtree-2' status --porcelain)\" ]; }"
finish
