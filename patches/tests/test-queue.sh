#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-queue.sh - make queue on a small journal of real 6.1.192 variables
# (patches/tests/queue-fixture): grouping against MAINTAINERS and
# get_maintainer.pl, the series, checkpatch --strict, git am onto
# pristine, the README, bad input, and byte-identical reruns.  Real
# spatch (cocci/annotate.sh), real git, the real prepared tree.  TAP.
#
# Environment: WORK (default ~/.cache/ro-campaign), TREE (default
# WORK/linux), JOURNAL and CANDIDATES to use other inputs (e.g. a real
# validation journal) instead of the fixture.

set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
WORK=${WORK:-$HOME/.cache/ro-campaign}
TREE=${TREE:-$WORK/linux}
fix=$here/queue-fixture
journal=${JOURNAL:-$fix/journal.tsv}
cands=${CANDIDATES:-$fix/candidates.tsv}
bin=$root/patches/queue
t=$WORK/test-queue
. "$root/qemu-boot/tests/tap.sh"

# check DESC CMD...: ok if CMD succeeds; unlike tap.sh's check, CMD's
# output goes to $t/out and its last lines are the reason.
check() {
	desc=$1
	shift
	if "$@" >"$t/out" 2>&1; then
		ok "$desc"
	else
		not_ok "$desc" "$(tail -n 3 "$t/out" | tr '\n' ' ')"
	fi
}

mkdir -p "$t"
if ! make -s -C "$root" patches/queue >"$t/out" 2>&1; then
	echo "1..1"
	not_ok "build patches/queue" "$(tail -n 3 "$t/out" | tr '\n' ' ')"
	exit 1
fi
if [ ! -f "$TREE/MAINTAINERS" ] || ! git -C "$TREE" rev-parse -q --verify core >/dev/null; then
	echo "1..1"
	not_ok "prepared tree" "$TREE is not prepared (make setup)"
	exit 1
fi

check "queue --help exits 0" "$bin" --help
"$bin" plan --journal "$journal" >"$t/out" 2>&1
rc=$?
[ $rc -eq 64 ] && ok "queue plan with missing options exits 64" ||
	not_ok "queue plan with missing options exits 64" "exit $rc"

# ---- grouping: our area is the first section get_maintainer.pl ranks ----
paths="arch/x86/kernel/cpu/common.c arch/x86/kernel/tsc.c mm/vmalloc.c
mm/slub.c kernel/sched/core.c kernel/sched/psi.c init/main.c fs/exec.c
drivers/tty/serial/8250/8250_core.c arch/x86/mm/init.c net/ipv4/tcp.c
drivers/acpi/osl.c"
"$bin" area --tree "$TREE" $paths >"$t/areas" 2>"$t/out"
expect() {
	got=$(awk -F '\t' -v p="$1" '$1 == p { print $2 }' "$t/areas")
	[ "$got" = "$2" ] && ok "area of $1 is $2" ||
		not_ok "area of $1 is $2" "got '$got'"
}
expect arch/x86/kernel/cpu/common.c "X86 ARCHITECTURE (32-BIT AND 64-BIT)"
expect mm/vmalloc.c "MEMORY MANAGEMENT"
expect kernel/sched/core.c "SCHEDULER"
expect mm/slub.c "SLAB ALLOCATOR"
# get_maintainer.pl orders sections of equal depth in Perl hash order
# (fs/exec.c: "fs/exec.c" and VFS's "fs/*" are both depth 2, and its
# first section changes from run to run); ours takes the longer pattern.
expect fs/exec.c "EXEC & BINFMT API"
bad=""
for p in $paths; do
	[ "$p" = fs/exec.c ] && continue
	gm=$(cd "$TREE" && perl scripts/get_maintainer.pl --no-rolestats \
		--no-git --no-git-fallback --sections -f "$p" 2>/dev/null |
		head -n 1)
	ours=$(awk -F '\t' -v p="$p" '$1 == p { print $2 }' "$t/areas")
	[ "$gm" = "$ours" ] || bad="$bad $p: ours '$ours', get_maintainer '$gm';"
done
[ -z "$bad" ] && ok "area = get_maintainer.pl's first section for 11 paths" ||
	not_ok "area = get_maintainer.pl's first section for 11 paths" "$bad"
pf=$(awk -F '\t' '{ printf "%s=%s ", $1, $4 }' "$t/areas")
case $pf in
*"arch/x86/kernel/cpu/common.c=x86/cpu "*"arch/x86/kernel/tsc.c=x86/tsc "*"mm/vmalloc.c=mm "*"kernel/sched/core.c=sched/core "*)
	ok "subject prefixes x86/cpu, x86/tsc, mm, sched/core" ;;
*)	not_ok "subject prefixes x86/cpu, x86/tsc, mm, sched/core" "$pf" ;;
esac

# ---- bad input ------------------------------------------------------------
sed '1s/\tverdict\t/\tresult\t/' "$journal" >"$t/nocol.tsv"
"$bin" plan --journal "$t/nocol.tsv" --candidates "$cands" --tree "$TREE" \
	--out "$t/bad" --signoff "T <t@example.org>" >"$t/out" 2>&1
rc=$?
[ $rc -eq 65 ] && grep -q "nocol.tsv:1: bad header" "$t/out" &&
	ok "a journal without a verdict column is refused, naming it" ||
	not_ok "a journal without a verdict column is refused, naming it" "exit $rc: $(cat "$t/out")"
grep -v 'pku_disabled' "$cands" >"$t/nocand.tsv"
"$bin" plan --journal "$journal" --candidates "$t/nocand.tsv" --tree "$TREE" \
	--out "$t/bad" --signoff "T <t@example.org>" >"$t/out" 2>&1
rc=$?
[ $rc -eq 65 ] && grep -q "pku_disabled.*accepted but not in" "$t/out" &&
	ok "an accepted row missing from candidates.tsv is refused" ||
	not_ok "an accepted row missing from candidates.tsv is refused" "exit $rc: $(cat "$t/out")"
"$bin" plan --journal "$journal" --candidates "$cands" --tree "$TREE" \
	--out "$t/bad" >"$t/out" 2>&1
rc=$?
[ $rc -eq 64 ] && grep -q "user.name" "$t/out" &&
	ok "no Signed-off-by identity is a clear error" ||
	not_ok "no Signed-off-by identity is a clear error" "exit $rc"

printf 'file\tname\treason\nkernel/sched/psi.c\tpsi_period\tcheckpatch.pl --strict: test\n' >"$t/excl.tsv"
rm -rf "$t/excl"
"$bin" plan --journal "$journal" --candidates "$cands" --tree "$TREE" \
	--out "$t/excl" --signoff "T <t@example.org>" --exclude "$t/excl.tsv" >"$t/out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q 'psi_period: dropped: checkpatch.pl --strict: test' "$t/excl/README" &&
	! grep -rq psi_period "$t/excl/.plan" &&
	ok "--exclude leaves a variable out and lists it as dropped" ||
	not_ok "--exclude leaves a variable out and lists it as dropped" "exit $rc"

# QUEUE_DROP_UNCLEAN=1 drops only the variable on the line checkpatch
# names: check.c:24 keeps its '64*1024', check.c:22 is clean.
ev='built=arch/x86/kernel/check.o,vmlinux; booted=warn,default; exercised=boot,cpu-online'
{
	head -n 1 "$fix/journal.tsv"
	printf '2025-01-10T09:20:13Z\tmemory_corruption_check\tarch/x86/kernel/check.c\t22\t2\taccepted\t%s\texercised\t5a4b3c2d1e0f\te3b0c44298fc\n' "$ev"
	printf '2025-01-10T09:20:13Z\tcorruption_check_size\tarch/x86/kernel/check.c\t24\t2\taccepted\t%s\texercised\t5a4b3c2d1e0f\te3b0c44298fc\n' "$ev"
} >"$t/drop-journal.tsv"
{
	head -n 1 "$fix/candidates.tsv"
	printf 'arch/x86/kernel/check.c\t22\tmemory_corruption_check\tstatic\tro_after_init\thigh\t1 init-only writes, 0 escapes in init-only code\tarch/x86/kernel/check.c:47:set_corruption_check:assign\n'
	printf 'arch/x86/kernel/check.c\t24\tcorruption_check_size\tstatic\tro_after_init\thigh\t1 init-only writes, 0 escapes in init-only code\tarch/x86/kernel/check.c:85:set_corruption_check_size:assign\n'
} >"$t/drop-cands.tsv"
rm -rf "$t/drop"
sh "$root/patches/queue.sh" "$t/drop-journal.tsv" "$t/drop-cands.tsv" \
	"$TREE" "$WORK" "$t/drop" >"$t/out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q 'CHECK FAILED: checkpatch.pl --strict: 1 of 1 patches not clean' "$t/out" &&
	ok "a patch checkpatch rejects fails make queue loudly" ||
	not_ok "a patch checkpatch rejects fails make queue loudly" "exit $rc"
rm -rf "$t/drop"
QUEUE_DROP_UNCLEAN=1 sh "$root/patches/queue.sh" "$t/drop-journal.tsv" \
	"$t/drop-cands.tsv" "$TREE" "$WORK" "$t/drop" >"$t/out" 2>&1
rc=$?
[ $rc -eq 0 ] &&
	grep -q "check.c:24 corruption_check_size: dropped: checkpatch.pl --strict: CHECK: spaces preferred around that '\\*'" "$t/drop/README" &&
	! grep -q 'memory_corruption_check: dropped' "$t/drop/README" &&
	grep -q '^+static int memory_corruption_check __ro_after_init = -1;' "$t/drop"/*/0001-*.patch &&
	ok "QUEUE_DROP_UNCLEAN=1 drops the variable on checkpatch's line, keeps the rest of the file" ||
	not_ok "QUEUE_DROP_UNCLEAN=1 drops the variable on checkpatch's line, keeps the rest of the file" \
		"exit $rc: $(grep -h 'check.c' "$t/drop/README" 2>/dev/null | tr '\n' ' ')"

GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 sh "$root/patches/queue.sh" \
	"$journal" "$cands" "$TREE" "$WORK" "$t/noid" >"$t/out" 2>&1
rc=$?
if [ -n "$(git -C "$TREE" config --local user.name)" ]; then
	ok "unset git identity is an error # SKIP the tree's own config sets user.name"
elif [ $rc -eq 70 ] && grep -q "user.name and user.email must be set" "$t/out" &&
     [ ! -e "$t/noid" ]; then
	ok "make queue without git user.name/user.email fails, saying so"
else
	not_ok "make queue without git user.name/user.email fails, saying so" "exit $rc: $(head -n 2 "$t/out")"
fi

# ---- the queue --------------------------------------------------------------
q=$t/queue
rm -rf "$q"
sh "$root/patches/queue.sh" "$journal" "$cands" "$TREE" "$WORK" "$q" \
	>"$t/run1.log" 2>&1
rc=$?
[ $rc -eq 0 ] && ok "make queue: written and all its checks pass" ||
	not_ok "make queue: written and all its checks pass" "exit $rc: $(grep -i 'fail\|error' "$t/run1.log" | head -n 4 | tr '\n' ' ')"

nseries=$(find "$q" -mindepth 1 -maxdepth 1 -type d ! -name .plan | wc -l)
npatch=$(wc -l <"$q/series" 2>/dev/null || echo 0)
if [ -z "${JOURNAL-}${CANDIDATES-}" ]; then
	[ "$nseries" -eq 4 ] && [ "$npatch" -eq 6 ] &&
		ok "fixture: 4 series (mm, psi, sched, x86), 6 patches" ||
		not_ok "fixture: 4 series (mm, psi, sched, x86), 6 patches" "$nseries series, $npatch patches"
	x86=$q/04-x86-architecture-32-bit-and-64-bit
	sed -n '/^Subject:/{N;s/\n / /;p;}' "$x86"/0003-*.patch 2>/dev/null | grep -q '^Subject: \[PATCH 3/3\] x86/tsc: Mark no_sched_irq_time and no_tsc_watchdog as __ro_after_init$' &&
		ok "one patch per file: tsc.c's two variables share a patch" ||
		not_ok "one patch per file: tsc.c's two variables share a patch" "subject differs"
	grep -q '^To: .*x86@kernel.org\|^    x86@kernel.org' "$x86/0000-cover-letter.patch" 2>/dev/null &&
	grep -q 'linux-mm@kvack.org' "$q"/01-memory-management/0000-cover-letter.patch 2>/dev/null &&
		ok "To:/Cc: from get_maintainer.pl (x86@kernel.org, linux-mm@kvack.org)" ||
		not_ok "To:/Cc: from get_maintainer.pl (x86@kernel.org, linux-mm@kvack.org)" "missing"
	grep -q 'tsc_khz_ref: rejected: .*time_cpufreq_notifier' "$q/README" &&
	grep -q 'num_fault_mutexes: not-built' "$q/README" &&
	! grep -q 'vmap_initialized: not-built' "$q/README" &&
		ok "README: rejected and not-built with reasons, last journal row wins" ||
		not_ok "README: rejected and not-built with reasons, last journal row wins" "see $q/README"
	grep -q '^Queued:     8, below (exercised 8, module-cycled 0, built 0)$' "$q/README" &&
	grep -q '^Only built: 1 accepted but left out' "$q/README" &&
	grep -q 'i6300esb.c:79 heartbeat: accepted, only built: .*not-cycled=i6300esb: init failed' "$q/README" &&
	! grep -q heartbeat "$q/series" "$q"/*/*.patch &&
		ok "levels: the only-built module variable is left out, counted and listed with its evidence" ||
		not_ok "levels: the only-built module variable is left out, counted and listed with its evidence" "$(grep -e '^Queued' -e '^Only' -e heartbeat "$q/README" | tr '\n' '|')"
	cat "$x86"/0001-*.patch 2>/dev/null | tr '\n' ' ' | grep -q 'How it was tested (level: exercised): built into vmlinux' &&
		ok "commit message: the testing paragraph names the level" ||
		not_ok "commit message: the testing paragraph names the level" "missing"
	grep -q 'srbds_parse_cmdline() is __init (arch/x86/kernel/cpu/bugs.c:702)' "$x86"/0001-*.patch 2>/dev/null &&
		ok "commit message: each writer, file:line, and how it is init-only" ||
		not_ok "commit message: each writer, file:line, and how it is init-only" "missing"
fi
sob="Signed-off-by: $(git -C "$TREE" config user.name) <$(git -C "$TREE" config user.email)>"
nsob=0
ncover=0
for s in "$q"/*/series; do
	d=$(dirname "$s")
	[ -f "$d/0000-cover-letter.patch" ] && ! grep -q '\*\*\*' "$d/0000-cover-letter.patch" &&
		ncover=$((ncover + 1))
done
while read -r p; do
	grep -qxF "$sob" "$q/$p" && nsob=$((nsob + 1))
done <"$q/series"
[ "$npatch" -gt 0 ] && [ "$nsob" -eq "$npatch" ] &&
	ok "every patch has Signed-off-by from git config" ||
	not_ok "every patch has Signed-off-by from git config" "$nsob of $npatch"
[ "$ncover" -eq "$nseries" ] && [ "$nseries" -gt 0 ] &&
	ok "every series has a filled-in cover letter and a series file" ||
	not_ok "every series has a filled-in cover letter and a series file" "$ncover of $nseries"

# checkpatch and git am again, independently of queue.sh's own checks.
bad=0
while read -r p; do
	(cd "$TREE" && perl scripts/checkpatch.pl --strict --quiet "$q/$p") \
		>"$t/cp.out" 2>&1 && [ ! -s "$t/cp.out" ] || {
		bad=$((bad + 1))
		sed "s|^|# $p: |" "$t/cp.out" | head -n 4
	}
done <"$q/series"
[ "$npatch" -gt 0 ] && [ "$bad" -eq 0 ] &&
	ok "checkpatch.pl --strict clean on all $npatch patches" ||
	not_ok "checkpatch.pl --strict clean on all $npatch patches" "$bad not clean"
wt=$t/am-pristine
git -C "$TREE" worktree remove --force "$wt" >/dev/null 2>&1
rm -rf "$wt"
git -C "$TREE" worktree prune
if git -C "$TREE" worktree add -q --detach "$wt" pristine >"$t/out" 2>&1; then
	set --
	while read -r p; do set -- "$@" "$q/$p"; done <"$q/series"
	if [ $# -gt 0 ] && git -C "$wt" -c user.name=t -c user.email=t@t \
			am -q "$@" >"$t/out" 2>&1 &&
	   [ "$(git -C "$wt" rev-list --count pristine..HEAD)" -eq "$npatch" ]; then
		ok "the queue applies with git am, in order, to a fresh pristine worktree"
	else
		not_ok "the queue applies with git am, in order, to a fresh pristine worktree" "$(tail -n 2 "$t/out" | tr '\n' ' ')"
	fi
	n_ro=$(git -C "$wt" diff pristine HEAD | grep -c '^+.*__ro_after_init')
	[ "$n_ro" -gt 0 ] && ok "the applied queue adds __ro_after_init ($n_ro lines)" ||
		not_ok "the applied queue adds __ro_after_init" "none"
	git -C "$TREE" worktree remove --force "$wt" >/dev/null 2>&1
else
	not_ok "the queue applies with git am to a fresh pristine worktree" "worktree add failed"
fi

# ---- idempotent -------------------------------------------------------------
rm -rf "$t/first"
cp -a "$q" "$t/first"
sh "$root/patches/queue.sh" "$journal" "$cands" "$TREE" "$WORK" "$q" \
	>"$t/run2.log" 2>&1
if diff -r "$t/first" "$q" >"$t/out" 2>&1; then
	ok "a second run gives byte-identical output ($(find "$q" -type f | wc -l) files)"
else
	not_ok "a second run gives byte-identical output" "$(head -n 3 "$t/out" | tr '\n' ' ')"
fi

# ---- make queue-check-boot QUEUE_BOOT_IN_TREE=1 (fast) ------------------------
# The queued commits are built in TREE's own (warm) build directory, the
# queued variables must be in .data..ro_after_init, the boot must pass
# with protection on, and TREE must end up at the commit it started at.
before=$(git -C "$TREE" rev-parse HEAD)
ACCEL=tcg sh "$root/patches/queue-boot.sh" --in-tree "$q" "$TREE" "$WORK" fast \
	>"$t/boot.log" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q 'queued variables in .data..ro_after_init' "$t/boot.log" &&
   grep -q 'booted, all exercises passed' "$t/boot.log"; then
	ok "queue-check-boot --in-tree: built in TREE, variables in place, boot passed"
else
	not_ok "queue-check-boot --in-tree: built in TREE, variables in place, boot passed" \
		"exit $rc: $(grep -i 'error' "$t/boot.log" | head -n 3 | tr '\n' ' ')"
fi
[ "$(git -C "$TREE" rev-parse HEAD)" = "$before" ] &&
	[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] &&
	ok "queue-check-boot --in-tree puts TREE back, clean, at $(echo "$before" | cut -c1-12)" ||
	not_ok "queue-check-boot --in-tree puts TREE back, clean" "HEAD $(git -C "$TREE" rev-parse HEAD)"

finish
