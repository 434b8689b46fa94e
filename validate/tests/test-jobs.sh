#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-jobs.sh - the batches of a validation as jobs (validate
# --emit-jobs, --job, --merge) on real engines: GNU parallel and a
# single-node Slurm cluster that the test starts on 127.0.0.1
# (slurm-local.sh), with real fast-profile builds and QEMU boots.
#
# The candidates, found in the tree at tag core by their definitions
# (lib/ktree.sh) so that any kernel version has them:
#   init/main.c execute_command           accepted
#   kernel/power/main.c pm_test_level     rejected: the warn boot names
#                                         pm_test_store
#   arch/x86/kernel/pci-dma.c force_iommu, twice (#ifdef variants): each
#                                         is annotated with its sibling,
#                                         so jobs carry siblings
#   net/ipv4/route.c ip_rt_max_size       not-built, decided by the baseline
# in batches of 3: two batches.  Every boot runs the exercise pm-test
# only (--exercise; the control always runs): the one the rejection
# needs, the same for the sequential run and the jobs.
#
# 1. The sequential run: the reference journal.
# 2. --emit-jobs: two jobs, the not-built verdict journaled at once;
#    --merge before any job ran names both as never run and appends
#    nothing.
# 3. GNU parallel -j 2 runs both jobs at once, each in its own slot (work
#    tree and build directory), then --merge: the merged journal equals
#    the sequential one (variable, file, line, verdict, evidence), and a
#    second --merge appends nothing.
# 4. A smaller emission (pm_test_level left out, batches of 2: two jobs
#    of a build and two boots each): job 1 runs through parallel's remote
#    path (--sshloginfile: the job directory copied to the worker with
#    rsync, run there, copied back), with ssh replaced by a local shell
#    whose login directory is another directory (no sshd here) and with
#    SHELL unset, as under a CI runner; job 2 is made to fail (its config
#    hash is not this machine's: a worker unlike the emitter); --merge
#    reports it failed, exit 1, and lists it in rerun.txt.  Then Slurm
#    (sbatch --array through submit-slurm.sh) reruns it, and the merged
#    journal equals the sequential one on those variables.
#
# Environment: WORK, TREE (from the Makefile).  The test works in a
# directory of its own, WORK/jobs-test-work (FARM_WORK of its jobs): slot
# 1 is its vtree, slot 2 slot-2/vtree, each with its build directory
# beside it, kept between runs.  Every tree is at ../../vtree from its
# build directory, as make validate's WORK/vtree is, so ccache serves
# them all from each other's objects.  A second run of the test waits
# for the first (WORK/jobs-test-work/test.lock).  Each part's seconds are
# printed as TAP comments.

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
WORK=${WORK:-$HOME/.cache/ro-campaign}
TREE=${TREE:-$WORK/linux}
TW=$WORK/jobs-test-work
VTREE=$TW/vtree
FARM_WORK=$TW
export WORK TREE VTREE FARM_WORK
bin=$here/validate
farm=$here/farm
st=$WORK/jobs-test
. "$top/lib/tap.sh"
. "$top/lib/ktree.sh"
. "$here/tests/vtree.sh"
. "$here/tests/slurm-local.sh"

cleanup() {
	slurm_stop
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# expect DESC WHY COMMAND...: ok if COMMAND succeeds, else not ok with WHY
expect() {
	_d=$1
	_w=$2
	shift 2
	if "$@"; then ok "$_d"; else not_ok "$_d" "$_w"; fi
}
t_start=$(date +%s)
t_last=$t_start
# lap NAME: the seconds since the last lap, as a TAP comment
lap() {
	_now=$(date +%s)
	echo "# seconds: $1 $((_now - t_last))"
	t_last=$_now
}

make -C "$top" -s validate/validate qemu-boot/boot >/dev/null ||
	{ not_ok "build validate/validate" "make failed"; finish; }
for p in parallel flock rsync ss; do
	command -v $p >/dev/null || { not_ok "$p is installed" "not found (make setup)"; finish; }
done
mkdir -p "$TW" || { not_ok "create $TW" "mkdir failed"; finish; }
# One run at a time: a second one would remove the first's files.
exec 7>"$TW/test.lock"
if ! flock -n 7; then
	echo "# waiting for another run of this test ($TW/test.lock)"
	flock 7
fi
vtree_add

rm -rf "$st"
mkdir -p "$st/seq" "$st/camp" "$st/camp2"
l_exec=$(ktree_line "$TREE" core init/main.c '^static char \*execute_command;')
l_pm=$(ktree_line "$TREE" core kernel/power/main.c '^int pm_test_level ')
# arch/x86/kernel/pci-dma.c defines force_iommu twice: under
# CONFIG_IOMMU_DEBUG and under #else.
l_f1=$(ktree_line "$TREE" core arch/x86/kernel/pci-dma.c '^int force_iommu ' 1)
l_f2=$(ktree_line "$TREE" core arch/x86/kernel/pci-dma.c '^int force_iommu ' 2)
l_rt=$(ktree_line "$TREE" core net/ipv4/route.c '^static int ip_rt_max_size;')
for l in "$l_exec" "$l_pm" "$l_f1" "$l_f2" "$l_rt"; do
	[ -n "$l" ] || { not_ok "the test's variables are defined at tag core" \
		"missing: exec '$l_exec' pm '$l_pm' force_iommu '$l_f1' '$l_f2' ip_rt '$l_rt'"; finish; }
done
echo "# kernel $(ktree_version "$TREE"): execute_command $l_exec, pm_test_level $l_pm," \
	"force_iommu $l_f1 and $l_f2, ip_rt_max_size $l_rt"
cands=$st/candidates.tsv
{
	printf 'file\tline\tname\tstorage\tclass\tconfidence\treason\tevidence\n'
	printf 'init/main.c\t%s\texecute_command\tstatic\tro_after_init\thigh\tinit-only\t-\n' "$l_exec"
	printf 'kernel/power/main.c\t%s\tpm_test_level\tglobal\tro_after_init\thigh\tinit-only\t-\n' "$l_pm"
	printf 'arch/x86/kernel/pci-dma.c\t%s\tforce_iommu\tglobal\tro_after_init\thigh\tinit-only\t-\n' "$l_f1"
	printf 'arch/x86/kernel/pci-dma.c\t%s\tforce_iommu\tglobal\tro_after_init\thigh\tinit-only\t-\n' "$l_f2"
	printf 'net/ipv4/route.c\t%s\tip_rt_max_size\tstatic\tro_after_init\thigh\tinit-only\t-\n' "$l_rt"
} >"$cands"
grep -v '	pm_test_level	' "$cands" >"$st/candidates2.tsv"
set -- --tree "$VTREE" --work "$TW" --tools "$top" --profile fast --exercise pm-test

# norm JOURNAL: variable file line verdict evidence, sorted
norm() {
	awk -F '\t' 'NR > 1 { print $2 "\t" $3 "\t" $4 "\t" $6 "\t" $7 }' "$1" | sort
}
# same JOURNAL DESC [REFERENCE]: the journal's verdicts and evidence are
# the sequential run's (REFERENCE, default its normal form)
same() {
	norm "$1" >"$1.norm"
	if [ -s "${3:-$st/seq.norm}" ] && cmp -s "${3:-$st/seq.norm}" "$1.norm"; then
		ok "$2"
	else
		not_ok "$2" "they differ"
		diff "${3:-$st/seq.norm}" "$1.norm" | sed 's/^/# /'
	fi
}
rows() {	# rows JOURNAL: its rows, the header not counted
	echo $(($(wc -l <"$1") - 1))
}

# ---- 1. the sequential run ----------------------------------------------------------
# The baseline of an earlier run of this test or test-validate.sh saves
# a bare build and its boots (it is keyed by the config and core hashes).
for b in "$TW"/baseline/baseline-*.tsv "$WORK"/validate-test/a/baseline-*.tsv; do
	[ -f "$b" ] && cp "$b" "$st/seq/"
done
"$bin" --candidates "$cands" --batch 3 "$@" --journal "$st/seq/journal.tsv" >"$st/seq/run.out" 2>&1
rc=$?
[ -f "$st/seq/journal.tsv" ] && [ $rc -eq 0 ] || {
	not_ok "the sequential run decides all 5" "exit $rc: $(tail -n 3 "$st/seq/run.out")"
	echo "Bail out! no reference journal"
	finish
}
expect "the sequential run decides all 5 (exit 0)" "$(rows "$st/seq/journal.tsv") rows" \
	[ "$(rows "$st/seq/journal.tsv")" -eq 5 ]
norm "$st/seq/journal.tsv" >"$st/seq.norm"
grep -v '^pm_test_level	' "$st/seq.norm" >"$st/seq2.norm"
sed 's/^/# seq: /' "$st/seq.norm"
mkdir -p "$TW/baseline"
cp "$st"/seq/baseline-*.tsv "$TW/baseline/" 2>/dev/null
cp "$st"/seq/baseline-*.tsv "$st/camp/" 2>/dev/null
cp "$st"/seq/baseline-*.tsv "$st/camp2/" 2>/dev/null
lap sequential

# ---- 2. the emission --------------------------------------------------------------
jobs=$st/jobs
"$bin" --candidates "$cands" --batch 3 "$@" --journal "$st/camp/journal.tsv" \
	--emit-jobs "$jobs" >"$st/emit.out" 2>&1
rc=$?
nj=$(awk 'NR > 1' "$jobs/jobs.tsv" 2>/dev/null | wc -l)
expect "--emit-jobs: exit 0, two jobs" "exit $rc, $nj jobs: $(tail -n 3 "$st/emit.out")" \
	sh -c "[ $rc -eq 0 ] && [ $nj -eq 2 ]"
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
"$bin" --candidates "$cands" --batch 3 "$@" --journal "$st/camp/journal.tsv" \
	--emit-jobs "$jobs" >"$st/emit2.out" 2>&1
rc=$?
check "--emit-jobs into a directory that is not empty: exit 64" [ $rc -eq 64 ]
"$bin" --job "$jobs/job-0001" --tree "$VTREE" --work "$TW" --profile wide >/dev/null 2>&1
rc=$?
check "--job with an option the job sets: exit 64" [ $rc -eq 64 ]
"$bin" --merge "$jobs" >"$st/merge0.out" 2>&1
rc=$?
expect "--merge before any job ran: exit 1, both named as never run, nothing appended" \
	"exit $rc: $(cat "$st/merge0.out")" \
	sh -c "[ $rc -eq 1 ] && grep -q '0 complete, 0 failed, 2 never ran' '$st/merge0.out' &&
		[ \$(wc -l <'$jobs/rerun.txt') -eq 2 ] && [ $(rows "$st/camp/journal.tsv") -eq 1 ]"
lap emission

# ---- 3. GNU parallel, two jobs at once ------------------------------------------------
sh "$farm/run-parallel.sh" -j 2 "$jobs" >"$st/parallel.out" 2>&1
rc=$?
expect "run-parallel.sh -j 2: both jobs exit 0" "exit $rc: $(tail -n 5 "$st/parallel.out")" \
	sh -c "[ $rc -eq 0 ] && [ \$(awk -F '\t' 'NR > 1 && \$7 == 0' '$jobs/parallel.log' | wc -l) -eq 2 ]"
slots=$(cat "$jobs"/job-000*/status 2>/dev/null | awk -F '\t' '$1 == "slot" { print $2 }' | sort | tr '\n' ' ')
check "the two jobs ran in two work trees (slots: $slots)" [ "$slots" = "1 2 " ]
"$bin" --merge "$jobs" >"$st/merge1.out" 2>&1
rc=$?
expect "--merge: exit 0, 2 complete, 4 verdicts appended" "exit $rc: $(cat "$st/merge1.out")" \
	sh -c "[ $rc -eq 0 ] && grep -q '2 complete, 0 failed, 0 never ran, 0 unreadable; 4 verdicts appended' '$st/merge1.out'"
same "$st/camp/journal.tsv" "the merged journal equals the sequential run's: verdict and evidence of every variable"
"$bin" --merge "$jobs" >"$st/merge2.out" 2>&1
rc=$?
expect "a second --merge appends nothing (5 rows, none twice)" "exit $rc: $(cat "$st/merge2.out")" \
	sh -c "[ $rc -eq 0 ] && grep -q '0 verdicts appended, 4 already there' '$st/merge2.out' &&
		[ $(rows "$st/camp/journal.tsv") -eq 5 ] &&
		[ -z \"\$(cut -f2-4 '$st/camp/journal.tsv' | sort | uniq -d)\" ]"
lap parallel

# ---- 4. parallel across "machines", a failed job, a rerun through Slurm ------------------
jobs2=$st/jobs2
"$bin" --candidates "$st/candidates2.tsv" --batch 2 "$@" --journal "$st/camp2/journal.tsv" \
	--emit-jobs "$jobs2" >"$st/emit3.out" 2>&1 ||
	{ not_ok "second emission" "$(tail -n 3 "$st/emit3.out")"; finish; }
nm=$(grep -c 'member$' "$jobs2/job-0001/candidates.tsv" "$jobs2/job-0002/candidates.tsv" | cut -d: -f2 | tr '\n' ' ')
check "the second emission: two jobs of 2 and 1 members ($nm)" [ "$nm" = "2 1 " ]
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
env -u SHELL PARALLEL_SSH="$st/ssh" sh "$farm/run-parallel.sh" --sshloginfile "$st/logins" \
	--remote-tools "$top" "$jobs2" job-0001 >"$st/remote.out" 2>&1
rc=$?
expect "run-parallel.sh --sshloginfile (SHELL unset): job-0001 copied to the worker, run there, its journal and status copied back" \
	"exit $rc: $(tail -n 3 "$st/remote.out" | tr '\n' ' ')" \
	sh -c "[ $rc -eq 0 ] && [ -f '$st/remote/jobs2/job-0001/status' ] &&
		grep -qx 'rc	0' '$jobs2/job-0001/status' && [ -s '$jobs2/job-0001/journal.tsv' ]"
lap remote
cp "$jobs2/job-0002/job.tsv" "$st/job.tsv.good"
sed 's/^config_hash\t.*/config_hash\t000000000000/' "$st/job.tsv.good" >"$jobs2/job-0002/job.tsv"
sh "$farm/run-parallel.sh" "$jobs2" job-0002 >"$st/parallel2.out" 2>&1
rc=$?
expect "a worker unlike the emitter: job 2 refuses to run (exit 70, the two config hashes named), run-parallel exits 1" \
	"exit $rc: $(grep -h 'hashes to' "$jobs2/job-0002/run.log" 2>/dev/null)" \
	sh -c "[ $rc -eq 1 ] && grep -qx 'rc	70' '$jobs2/job-0002/status' &&
		grep -q 'hashes to [0-9a-f]*, the emitter.s to 000000000000' '$jobs2/job-0002/run.log'"
"$bin" --merge "$jobs2" >"$st/merge3.out" 2>&1
rc=$?
expect "--merge: exit 1, job-0002 named as failed with its exit code, listed in rerun.txt" \
	"exit $rc: $(cat "$st/merge3.out")" \
	sh -c "[ $rc -eq 1 ] && grep -q '1 complete, 1 failed' '$st/merge3.out' &&
		grep -q 'job-0002: 1 of 1 undecided, exit 70 on' '$st/merge3.out' &&
		[ \"\$(cat '$jobs2/rerun.txt')\" = job-0002 ]"
cp "$st/job.tsv.good" "$jobs2/job-0002/job.tsv"

if slurm_start "$st/slurm"; then
	ok "a single-node Slurm cluster on 127.0.0.1 (munged, slurmctld, slurmd)"
	lap slurm-start
	sh "$farm/submit-slurm.sh" --wait "$jobs2" $(cat "$jobs2/rerun.txt") -- \
		--cpus-per-task="$(nproc)" >"$st/slurm.out" 2>&1
	rc=$?
	expect "sbatch --array=2 (submit-slurm.sh --wait): the array task ran job-0002, exit 0" \
		"exit $rc: $(tail -n 3 "$st/slurm.out" | tr '\n' ' '); $(tail -n 3 "$jobs2/job-0002/slurm.out" 2>/dev/null | tr '\n' ' ')" \
		sh -c "[ $rc -eq 0 ] && grep -q 'array=2 ' '$st/slurm.out' &&
			grep -qx 'rc	0' '$jobs2/job-0002/status' &&
			grep -q 'run-job: job-0002 on ' '$jobs2/job-0002/slurm.out'"
	sed -n 's/^/# slurm task: /p' "$jobs2/job-0002/slurm.out" 2>/dev/null
	lap slurm
else
	not_ok "a single-node Slurm cluster on 127.0.0.1" "$slurm_why"
	sh "$farm/run-parallel.sh" "$jobs2" job-0002 >"$st/parallel3.out" 2>&1
fi
"$bin" --merge "$jobs2" >"$st/merge4.out" 2>&1
rc=$?
expect "--merge after the rerun: exit 0, every job complete, nothing appended twice" \
	"exit $rc: $(cat "$st/merge4.out")" \
	sh -c "[ $rc -eq 0 ] && grep -q '2 complete, 0 failed, 0 never ran, 0 unreadable; 1 verdicts appended, 2 already there' '$st/merge4.out' &&
		[ $(rows "$st/camp2/journal.tsv") -eq 4 ]"
same "$st/camp2/journal.tsv" "the journal merged from parallel and Slurm jobs equals the sequential run's on its 4 variables" \
	"$st/seq2.norm"
check "the work trees are clean after the jobs" \
	sh -c "[ -z \"\$(git -C '$VTREE' status --porcelain)\" ] &&
		{ [ ! -d '$TW/slot-2/vtree' ] || [ -z \"\$(git -C '$TW/slot-2/vtree' status --porcelain)\" ]; }"
echo "# seconds: total $(($(date +%s) - t_start))"
finish
