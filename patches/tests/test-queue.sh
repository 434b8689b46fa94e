#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-queue.sh - make queue on a small journal of real variables of the
# kernel under test (patches/tests/queue-fixture/MAJOR.MINOR, picked by
# the tree's version): grouping against MAINTAINERS and get_maintainer.pl,
# the series, the shape of a patch (a short message, the evidence below
# the --- line, the base named from the tree), checkpatch --strict, git am
# onto pristine, the README, bad input, byte-identical reruns; a clone of
# the tree posing as the user's own git checkout, whose postings carry
# base-commit: and are split to stay under QUEUE_MAX_PATCHES; the queue
# built and booted patch by patch (a sample of 2); initdata patches; and,
# last, the fixture's queue with the initdata patches built and booted
# whole.
# Real spatch (cocci/annotate.sh), real git, the real prepared tree.  TAP.
#
# Environment: KERNEL (default 6.12) and WORK (default
# ~/.cache/ro-campaign/KERNEL), TREE (default WORK/linux), JOURNAL and
# CANDIDATES to use other inputs (e.g. a real validation journal) instead
# of the fixture.

set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
WORK=${WORK:-$HOME/.cache/ro-campaign/${KERNEL:-6.12}}
TREE=${TREE:-$WORK/linux}
bin=$root/patches/queue
t=$WORK/test-queue
. "$root/lib/tap.sh"

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

# The tree's version and base line, derived here from the origin file
# make setup writes (else make kernelversion), not from patches/queue.
origin=$TREE/.git/ro-campaign-origin
okey() {
	awk -F '\t' -v k="$1" '$1 == k { print $2 }' "$origin" 2>/dev/null
}
if [ -f "$origin" ]; then
	ver=$(okey version)
	src=$(okey source)
	case $(okey kind) in
	tarball)
		src=${src##*/}
		base="Base: Linux $ver (Debian's ${src%.tar.xz})" ;;
	*)	base="Base: Linux $ver" ;;
	esac
else
	ver=$(make -s -C "$TREE" kernelversion)
	base="Base: Linux $ver"
fi
mm=$(echo "$ver" | cut -d . -f 1-2)
fix=$here/queue-fixture/$mm
if [ ! -d "$fix" ] && [ -z "${JOURNAL-}${CANDIDATES-}" ]; then
	echo "1..1"
	not_ok "a fixture for Linux $mm" "no $fix: add one with real variables of $mm"
	exit 1
fi
journal=${JOURNAL:-$fix/journal.tsv}
cands=${CANDIDATES:-$fix/candidates.tsv}

check "queue --help exits 0" "$bin" --help
"$bin" plan --journal "$journal" >"$t/out" 2>&1
rc=$?
[ $rc -eq 64 ] && ok "queue plan with missing options exits 64" ||
	not_ok "queue plan with missing options exits 64" "exit $rc"

# ---- grouping: our area is the first section get_maintainer.pl ranks ----
paths="arch/x86/kernel/cpu/common.c arch/x86/kernel/tsc.c mm/vmalloc.c
mm/memory.c mm/slub.c kernel/sched/core.c kernel/sched/psi.c init/main.c fs/exec.c
drivers/tty/serial/8250/8250_core.c arch/x86/mm/init.c net/ipv4/tcp.c
drivers/acpi/osl.c"
"$bin" area --tree "$TREE" $paths >"$t/areas" 2>"$t/out"
expect() {
	got=$(awk -F '\t' -v p="$1" '$1 == p { print $2 }' "$t/areas")
	[ "$got" = "$2" ] && ok "area of $1 is $2" ||
		not_ok "area of $1 is $2" "got '$got'"
}
expect arch/x86/kernel/cpu/common.c "X86 ARCHITECTURE (32-BIT AND 64-BIT)"
expect mm/memory.c "MEMORY MANAGEMENT"
expect kernel/sched/core.c "SCHEDULER"
expect mm/slub.c "SLAB ALLOCATOR"
# get_maintainer.pl orders sections of equal depth in Perl hash order
# (fs/exec.c: "fs/exec.c" and VFS's "fs/*" are both depth 2, and its
# first section changes from run to run); ours takes the longer pattern.
case $mm in
6.1) expect fs/exec.c "EXEC & BINFMT API" ;;
*) expect fs/exec.c "EXEC & BINFMT API, ELF" ;;
esac
bad=""
for p in $paths; do
	[ "$p" = fs/exec.c ] && continue
	gm=$(cd "$TREE" && perl scripts/get_maintainer.pl --no-rolestats \
		--no-git --no-git-fallback --sections -f "$p" 2>/dev/null |
		head -n 1)
	ours=$(awk -F '\t' -v p="$p" '$1 == p { print $2 }' "$t/areas")
	[ "$gm" = "$ours" ] || bad="$bad $p: ours '$ours', get_maintainer '$gm';"
done
[ -z "$bad" ] && ok "area = get_maintainer.pl's first section for 12 paths" ||
	not_ok "area = get_maintainer.pl's first section for 12 paths" "$bad"
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
	# MAINTAINERS differs between versions: 6.12 has VMALLOC and X86
	# HARDWARE VULNERABILITIES sections of their own.
	case $mm in
	6.1) want="4 6" ;;
	*) want="5 6" ;;
	esac
	[ "$nseries $npatch" = "$want" ] &&
		ok "fixture: $(echo "$want" | cut -d ' ' -f 1) series, 6 patches" ||
		not_ok "fixture: $want series and patches" "$nseries series, $npatch patches"
	x86=$q/$(sed -n 's|^\([0-9]*-x86-architecture-32-bit-and-64-bit\)/.*tsc.*|\1|p' "$q/series")
	tsc=$(grep -l '^+.*no_sched_irq_time' "$x86"/0*.patch 2>/dev/null)
	nx86=$(grep -c . "$x86/series" 2>/dev/null)
	sed -n '/^Subject:/{N;s/\n / /;p;}' "$tsc" 2>/dev/null | grep -q "^Subject: \[PATCH $nx86/$nx86\] x86/tsc: Mark no_sched_irq_time and no_tsc_watchdog as __ro_after_init$" &&
		ok "one patch per file: tsc.c's two variables share a patch" ||
		not_ok "one patch per file: tsc.c's two variables share a patch" "subject differs: $tsc"
	mmcover=$(grep -l '^+.*vmap_initialized' "$q"/*/0*.patch | head -n 1)
	grep -q '^To: .*x86@kernel.org\|^    x86@kernel.org' "$x86/0000-cover-letter.patch" 2>/dev/null &&
	grep -q 'linux-mm@kvack.org' "$(dirname "$mmcover")/0000-cover-letter.patch" 2>/dev/null &&
		ok "To:/Cc: from get_maintainer.pl (x86@kernel.org, linux-mm@kvack.org)" ||
		not_ok "To:/Cc: from get_maintainer.pl (x86@kernel.org, linux-mm@kvack.org)" "missing"
	notbuilt=$(awk -F '\t' '$6 == "not-built" && $2 != "vmap_initialized" { print $2 }' "$journal")
	grep -q 'tsc_khz_ref: rejected: .*time_cpufreq_notifier' "$q/README" &&
	grep -q "$notbuilt: not-built" "$q/README" &&
	! grep -q 'vmap_initialized: not-built' "$q/README" &&
		ok "README: rejected and not-built with reasons, last journal row wins" ||
		not_ok "README: rejected and not-built with reasons, last journal row wins" "see $q/README"
	# The counts line wraps: reached, device-bound and module-cycled first.
	tr '\n' ' ' <"$q/README" | tr -s ' ' | grep -q 'Queued: 8, below (reached 0, device-bound 0, module-cycled 0, booted 8, built 0)' &&
	grep -q '^Only built: 1 accepted but left out' "$q/README" &&
	grep -q 'i6300esb.c:79 heartbeat: accepted, only built: .*not-cycled=i6300esb: init failed' "$q/README" &&
	! grep -q heartbeat "$q/series" "$q"/*/*.patch &&
		ok "levels: the only-built module variable is left out, counted and listed with its evidence" ||
		not_ok "levels: the only-built module variable is left out, counted and listed with its evidence" "$(grep -e '^Queued' -e '^Only' -e heartbeat "$q/README" | tr '\n' '|')"
	srbds=$(grep -l '^+.*srbds_off' "$q"/*/0*.patch | head -n 1)
	def=$(grep -n '^static int __init srbds_parse_cmdline' "$TREE/arch/x86/kernel/cpu/bugs.c" | cut -d: -f1)
	tr '\n' ' ' <"$srbds" | tr -s ' ' | grep -q "Tested (level: booted): built into an x86_64 vmlinux" &&
		ok "commit message: the testing paragraph names the level" ||
		not_ok "commit message: the testing paragraph names the level" "missing in $srbds"
	tr '\n' ' ' <"$srbds" | tr -s ' ' | grep -q "srbds_parse_cmdline() is __init (arch/x86/kernel/cpu/bugs.c:$def)" &&
		ok "below the --- line: each writer, file:line, and how it is init-only (bugs.c:$def)" ||
		not_ok "below the --- line: each writer, file:line, and how it is init-only (bugs.c:$def)" "missing in $srbds"
fi

# ---- the shape of each patch: short message, evidence below the --- line ----
# msgpart P: the commit message (up to the --- line); notepart P: from
# the --- line to the diffstat's end (the first "diff --git").
msgpart() { sed -n '/^$/,$p' "$1" | sed '/^---$/,$d'; }
notepart() { sed -n '/^---$/,/^diff --git/p' "$1"; }
long=""
nobelow=""
nbase=0
while read -r p; do
	nl=$(msgpart "$q/$p" | grep -c .)
	[ "$nl" -le 20 ] || long="$long $p:$nl"
	msgpart "$q/$p" | grep -q '^Tested (level: ' || long="$long $p:no-Tested"
	msgpart "$q/$p" | grep -q 'Writers of\|config_hash\|^Base:' && long="$long $p:evidence-above"
	notepart "$q/$p" | grep -q '^Writers of ' && notepart "$q/$p" | grep -q '^Validation (level: ' ||
		nobelow="$nobelow $p"
	notepart "$q/$p" | grep -qxF "$base" && nbase=$((nbase + 1))
done <"$q/series"
[ "$npatch" -gt 0 ] && [ -z "$long" ] &&
	ok "every commit message is at most 20 lines, says how it was tested, and carries no evidence list" ||
	not_ok "every commit message is at most 20 lines, says how it was tested, and carries no evidence list" "$long"
[ "$npatch" -gt 0 ] && [ -z "$nobelow" ] &&
	ok "every patch has its writers and validation below the --- line" ||
	not_ok "every patch has its writers and validation below the --- line" "$nobelow"
ncov=0
for c in "$q"/*/0000-cover-letter.patch; do
	grep -qxF "$base" "$c" && ncov=$((ncov + 1))
done
[ "$nbase" -eq "$npatch" ] && [ "$ncov" -eq "$nseries" ] && grep -qxF "$base" "$q/README" &&
	ok "every patch, cover letter and the README name the tree's base: $base" ||
	not_ok "every patch, cover letter and the README name the tree's base: $base" "$nbase of $npatch patches, $ncov of $nseries covers"
other=6.1.192
[ "$ver" = 6.1.192 ] && other=6.12.118
! grep -rq "Linux $other" "$q" && ! grep -rq 'base-commit:' "$q" &&
	ok "no other version ($other) and no base-commit: in a tarball tree's queue" ||
	not_ok "no other version ($other) and no base-commit: in a tarball tree's queue" "$(grep -rl "Linux $other\|base-commit:" "$q" | head -n 3 | tr '\n' ' ')"

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
	git -C "$wt" log --format=%B pristine..HEAD >"$t/am-msgs"
	[ "$(grep -c '^Tested (level: ' "$t/am-msgs")" -eq "$npatch" ] &&
	! grep -q '^Writers of \|^Validation (level: \|^Base: ' "$t/am-msgs" &&
		ok "git am keeps the messages and drops what is below the --- line" ||
		not_ok "git am keeps the messages and drops what is below the --- line" "$(grep -c '^Writers of ' "$t/am-msgs") evidence lists in the commits"
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

# ---- the user's own git tree: base-commit:, and postings split ---------------
# A clone of TREE posing as a tree made from the user's checkout (make
# setup TREE=...): its origin file says kind git, commit = pristine.  The
# largest area is made to exceed QUEUE_MAX_PATCHES, so it is split in two.
gt=$t/gtree
if [ ! -d "$gt/.git" ]; then
	rm -rf "$gt"
	git clone -q --shared --no-checkout "$TREE" "$gt" >"$t/out" 2>&1 ||
		not_ok "clone TREE as a user tree" "$(tail -n 2 "$t/out")"
else
	git -C "$gt" fetch -q --force "$TREE" 'refs/tags/*:refs/tags/*' >"$t/out" 2>&1
fi
pcommit=$(git -C "$TREE" rev-parse pristine)
git -C "$gt" fetch -q --force "$TREE" 'refs/tags/*:refs/tags/*' >/dev/null 2>&1
git -C "$gt" checkout -q -f --detach "$pcommit" >"$t/out" 2>&1
printf 'key\tvalue\nkind\tgit\nversion\t%s\nsource\t%s\ncommit\t%s\n' "$ver" "$TREE" "$pcommit" \
	>"$gt/.git/ro-campaign-origin"
big=$(sort -t '	' -k4,4n "$q/.plan/areas.tsv" | tail -n 1)
bigdir=$(echo "$big" | cut -f 1)
bign=$(echo "$big" | cut -f 4)
max=$((bign - 1))
[ "$max" -ge 1 ] || max=1
gq=$t/gqueue
rm -rf "$gq"
QUEUE_MAX_PATCHES=$max sh "$root/patches/queue.sh" "$journal" "$cands" "$gt" \
	"$t/gwork" "$gq" >"$t/grun.log" 2>&1
rc=$?
[ $rc -eq 0 ] && ok "a git tree's queue: written, checkpatch and git am onto its commit pass" ||
	not_ok "a git tree's queue: written, checkpatch and git am onto its commit pass" "exit $rc: $(grep -i 'fail\|error' "$t/grun.log" | head -n 4 | tr '\n' ' ')"
nb=0
ncov=0
for c in "$gq"/*/0000-cover-letter.patch; do
	ncov=$((ncov + 1))
	[ "$(grep '^base-commit: ' "$c")" = "base-commit: $pcommit" ] && nb=$((nb + 1))
done
np=0
while read -r p; do
	notepart "$gq/$p" | grep -qx "base-commit: $pcommit" && np=$((np + 1))
done <"$gq/series"
[ "$ncov" -gt 0 ] && [ "$nb" -eq "$ncov" ] && [ "$np" -eq "$(grep -c . "$gq/series")" ] &&
	grep -qx "base-commit: $pcommit" "$gq/README" && ! grep -rqF "$TREE" "$gq"/*/ &&
	ok "git tree: every cover letter and patch carries base-commit: $(echo "$pcommit" | cut -c1-12), no path of the user's" ||
	not_ok "git tree: every cover letter and patch carries base-commit:" "$nb of $ncov covers, $np patches"
stem=${bigdir#[0-9][0-9]-}
p1=$(ls -d "$gq"/[0-9][0-9]-"$stem"-1of2 2>/dev/null)
p2=$(ls -d "$gq"/[0-9][0-9]-"$stem"-2of2 2>/dev/null)
n1=$(grep -c . "$p1/series" 2>/dev/null || echo 0)
n2=$(grep -c . "$p2/series" 2>/dev/null || echo 0)
if [ -n "$p1" ] && [ -n "$p2" ] && [ $((n1 + n2)) -eq "$bign" ] &&
   [ "$n1" -le "$max" ] && [ "$n2" -le "$max" ] &&
   [ "$(grep -c . "$gq/series")" -eq "$npatch" ] &&
   grep -q "^Subject: \[PATCH 0/$n2\] .*(part 2 of 2)" "$p2/0000-cover-letter.patch" &&
   grep -q "^Subject: \[PATCH 1/$n2\] " "$p2"/0001-*.patch &&
   grep -q "$(basename "$p2")  *$n2 .*, part 2 of 2$" "$gq/README"; then
	ok "postings: the $bign patches of $stem with QUEUE_MAX_PATCHES=$max are two postings ($n1 + $n2), numbered from 1, in the README"
else
	not_ok "postings: the $bign patches of $stem are two postings with QUEUE_MAX_PATCHES=$max" "$(ls "$gq" | tr '\n' ' ')"
fi

# ---- make queue-check-bisect QUEUE_BISECT_SAMPLE=2 (fast, in TREE) -------------
# Two patches, the first and the last, each alone on core: built, their
# variables looked up, booted; the README names them and the rest as not
# checked.
before=$(git -C "$TREE" rev-parse HEAD)
ACCEL=tcg sh "$root/patches/queue-bisect.sh" --in-tree --sample 2 "$q" "$TREE" \
	"$WORK" fast >"$t/bisect.log" 2>&1
rc=$?
first=$(head -n 1 "$q/series")
last=$(tail -n 1 "$q/series")
if [ $rc -eq 0 ] && grep -q "^Checked: 2 of $npatch patches, a sample of 2" "$q/README" &&
   grep -qxF "  pass $first: applied alone; build ok; $(awk -F '\t' -v p="$first" '$1 == p { print $4 }' "$q/bisect.tsv"); boot pass" "$q/README" &&
   grep -q "^  pass $last: applied alone; build ok; " "$q/README" &&
   grep -q "^Not checked: $((npatch - 2)) patches" "$q/README" &&
   [ "$(grep -c '^Bisect check' "$q/README")" -eq 1 ]; then
	ok "queue-check-bisect: the first and the last patch built and booted alone, the README says which"
else
	not_ok "queue-check-bisect: the first and the last patch built and booted alone, the README says which" \
		"exit $rc: $(grep -i 'error\|FAILED' "$t/bisect.log" | head -n 3 | tr '\n' ' ')"
fi
[ "$(git -C "$TREE" rev-parse HEAD)" = "$before" ] &&
	[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] &&
	ok "queue-check-bisect --in-tree puts TREE back, clean" ||
	not_ok "queue-check-bisect --in-tree puts TREE back, clean" "HEAD $(git -C "$TREE" rev-parse HEAD)"

# ---- initdata patches (issue 19 item 4): a kind of their own -----------------
# The fixture's journal (srbds_off of bugs.c among its __ro_after_init
# rows) and two init-only variables: mpf_found, which only __init
# functions of mpparse.c touch (__initdata), and spectre_v2_user_strings,
# a const table only the __init spectre_v2_user_select_mitigation() reads
# (__initconst), as validate journals them. bugs.c gets two patches, one
# per annotation; each diff adds its annotation and passes queue.sh's
# checks (checkpatch --strict, git am onto pristine and core).
# The whole fixture rides along so that one make queue-check-boot (below)
# checks both kinds in one build and boot: each costs a kernel build and
# a TCG boot, and the fixture's queue alone adds nothing this one lacks.
if [ -z "${JOURNAL-}${CANDIDATES-}" ]; then
	. "$root/lib/ktree.sh"
	l_mpf=$(ktree_line "$TREE" pristine arch/x86/kernel/mpparse.c '^static bool mpf_found;')
	l_mpw=$(ktree_line "$TREE" pristine arch/x86/kernel/mpparse.c '^[[:space:]]*mpf_found = true;')
	l_s2u=$(ktree_line "$TREE" pristine arch/x86/kernel/cpu/bugs.c '^static const char \* const spectre_v2_user_strings\[\]')
	iq=$t/initq
	rm -rf "$iq"
	{
		cat "$journal"
		printf '2025-01-10T09:30:00Z\tmpf_found\tarch/x86/kernel/mpparse.c\t%s\t3\taccepted\tbuilt=arch/x86/kernel/mpparse.o,vmlinux; section=.init.data; modpost=no-mismatch; booted=warn,default; exercised=boot,cpu-hotplug\texercised\t5a4b3c2d1e0f\te3b0c44298fc\n' "$l_mpf"
		printf '2025-01-10T09:30:00Z\tspectre_v2_user_strings\tarch/x86/kernel/cpu/bugs.c\t%s\t3\taccepted\tbuilt=arch/x86/kernel/cpu/bugs.o,vmlinux; section=.init.rodata; modpost=no-mismatch; booted=warn,default; exercised=boot,cpu-hotplug\texercised\t5a4b3c2d1e0f\te3b0c44298fc\n' "$l_s2u"
	} >"$t/init-journal.tsv"
	{
		cat "$cands"
		printf 'arch/x86/kernel/mpparse.c\t%s\tmpf_found\tstatic\tinitdata\t-\tread and written only by __init code (1 writes): __initdata, freed with the init sections\tarch/x86/kernel/mpparse.c:%s:smp_scan_config:assign\n' "$l_mpf" "$l_mpw"
		printf 'arch/x86/kernel/cpu/bugs.c\t%s\tspectre_v2_user_strings\tstatic\tinitdata\t-\tconst and read only by __init code: __initconst, freed with the init sections\t-\n' "$l_s2u"
	} >"$t/init-cands.tsv"
	sh "$root/patches/queue.sh" "$t/init-journal.tsv" "$t/init-cands.tsv" \
		"$TREE" "$WORK" "$iq" >"$t/init.log" 2>&1
	rc=$?
	# the fixture's patches and one per file and annotation: mpparse.c's
	# __initdata and bugs.c's __initconst (bugs.c's srbds_off patch is the
	# fixture's)
	ni=$((npatch + 2))
	[ $rc -eq 0 ] && [ "$(wc -l <"$iq/series")" -eq "$ni" ] &&
		ok "initdata: queue.sh writes $ni patches (the fixture's $npatch, one more per file and annotation), all checks pass" ||
		not_ok "initdata: queue.sh writes $ni patches (the fixture's $npatch, one more per file and annotation), all checks pass" \
			"exit $rc, lines '$l_mpf' '$l_mpw' '$l_s2u': $(grep -i 'fail\|error' "$t/init.log" | head -n 3 | tr '\n' ' ')"
	# subject FILE: the patch's Subject: line, unfolded
	subject() {
		awk '/^Subject:/ { s = $0; while ((getline l) > 0 && l ~ /^ /) s = s l; print s; exit }' "$1" |
			sed 's/^Subject: \[PATCH[^]]*\] //'
	}
	p=$(grep -l '^+.*mpf_found' "$iq"/*/0*.patch 2>/dev/null | head -n 1)
	s=$(subject "$p" 2>/dev/null)
	case $s in
	*": Mark mpf_found as __initdata")
		grep -q '^+static bool mpf_found __initdata;$' "$p" &&
		grep -q '^-static bool mpf_found;$' "$p" &&
		tr '\n' ' ' <"$p" | tr -s ' ' | grep -q 'mpf_found is read and written only by __init code, and never after boot. Mark it __initdata, so that it is freed with the init sections' &&
		tr '\n' ' ' <"$p" | tr -s ' ' | grep -q 'reported none for it' &&
			ok "initdata: the mpf_found patch: subject, why (__init only, freed, no modpost mismatch), diff adds __initdata" ||
			not_ok "initdata: the mpf_found patch: subject, why, diff adds __initdata" "see $p" ;;
	*) not_ok "initdata: the mpf_found patch: subject, why, diff adds __initdata" "subject '$s' ($p)" ;;
	esac
	p=$(grep -l '^+.*spectre_v2_user_strings' "$iq"/*/0*.patch 2>/dev/null | head -n 1)
	s=$(subject "$p" 2>/dev/null)
	case $s in
	*": Mark spectre_v2_user_strings as __initconst")
		grep -q '^+static const char \* const spectre_v2_user_strings\[\] __initconst = {$' "$p" &&
		! grep -q 'srbds_off' "$p" &&
			ok "initdata: the const table gets its own __initconst patch, not mixed with bugs.c's __ro_after_init one" ||
			not_ok "initdata: the const table gets its own __initconst patch" "see $p" ;;
	*) not_ok "initdata: the const table gets its own __initconst patch" "subject '$s' ($p)" ;;
	esac
	p=$(grep -l '^+.*srbds_off' "$iq"/*/0*.patch 2>/dev/null | head -n 1)
	grep -q '^+static bool srbds_off __ro_after_init;$' "$p" 2>/dev/null &&
		! grep -q '__init\(data\|const\)' "$p" &&
		ok "initdata: bugs.c's __ro_after_init patch stays as it was" ||
		not_ok "initdata: bugs.c's __ro_after_init patch stays as it was" "see $p"
fi

# ---- make queue-check-boot QUEUE_BOOT_IN_TREE=1 (fast) ------------------------
# The queued commits are built in TREE's own (warm) build directory, the
# queued variables must be in the section of their annotation (the
# __ro_after_init ones in .data..ro_after_init, the __initdata and
# __initconst ones between __init_begin and __init_end), the boot must
# pass with protection on, and TREE must end up at the commit it started
# at.  With the fixture this is the initdata queue, which holds the
# fixture's queue and the init-section patches (one build and boot for
# both kinds); with JOURNAL/CANDIDATES it is their queue.
bq=$q
[ -z "${JOURNAL-}${CANDIDATES-}" ] && bq=$iq
before=$(git -C "$TREE" rev-parse HEAD)
ACCEL=tcg sh "$root/patches/queue-boot.sh" --in-tree "$bq" "$TREE" "$WORK" fast \
	>"$t/boot.log" 2>&1
rc=$?
# "queue-boot: R queued variables in .data..ro_after_init of vmlinux, I in
# its init sections, A not in this profile's vmlinux"
nro=$(sed -n 's/^queue-boot: \([0-9]*\) queued variables in .data..ro_after_init.*/\1/p' "$t/boot.log")
ninit=$(sed -n "s/.*, \([0-9]*\) in its init sections,.*/\1/p" "$t/boot.log")
if [ $rc -eq 0 ] && [ "${nro:-0}" -ge 1 ] &&
   grep -q 'booted, all exercises passed' "$t/boot.log"; then
	ok "queue-check-boot --in-tree: built in TREE, variables in place, boot passed"
else
	not_ok "queue-check-boot --in-tree: built in TREE, variables in place, boot passed" \
		"exit $rc, ${nro:-no} in .data..ro_after_init: $(grep -i 'error' "$t/boot.log" | head -n 3 | tr '\n' ' ')"
fi
[ "$(git -C "$TREE" rev-parse HEAD)" = "$before" ] &&
	[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] &&
	ok "queue-check-boot --in-tree puts TREE back, clean, at $(echo "$before" | cut -c1-12)" ||
	not_ok "queue-check-boot --in-tree puts TREE back, clean" "HEAD $(git -C "$TREE" rev-parse HEAD)"
if [ -z "${JOURNAL-}${CANDIDATES-}" ]; then
	[ $rc -eq 0 ] && [ "${ninit:-0}" -ge 2 ] && grep -q "booted, all exercises passed" "$t/boot.log" &&
		ok "initdata: queue-check-boot finds mpf_found and the const table in the init sections, boot passes" ||
		not_ok "initdata: queue-check-boot finds the init variables in the init sections, boot passes" \
			"exit $rc, ${ninit:-no} in the init sections: $(grep -i "error" "$t/boot.log" | head -n 3 | tr "\n" " ")"
fi

# The queue's work trees of the git-tree runs (1.7 GB each) are the
# test's own and nothing reads them once it passed; CI's disk is small.
if [ $failed -eq 0 ]; then
	rm -rf "$t"/gwork/qtree*
	for g in "$gt"; do git -C "$g" worktree prune 2>/dev/null; done
fi
finish
