#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-core.sh - the core series (setup/core/VERSION): ro_after_init=warn.
#
# The series is the one setup-tree.sh applies to the tree under test:
# setup/core/MAJOR.MINOR for the tree's "make kernelversion", else the
# newest.  Checks that it applies to the pristine tree and gives the tree
# tagged "core", that every patch is checkpatch --strict clean with a
# Signed-off-by, that the touched files compile without compiler or sparse
# warnings of their own, and then boots the fast kernel under QEMU (TCG):
#   - default mode: lkdtm WRITE_RO_AFTER_INIT oopses (the harness control),
#     and so does the first write of WRITE_RO_AFTER_INIT_TWICE;
#   - ro_after_init=warn: both lkdtm tests are reported and survived, the
#     violations file lists exactly their variables and writers, the log
#     lines parse, the stack is dumped once per writing site, a summary is
#     printed at poweroff;
#   - ro_after_init=warn with the whole exercise suite: the kernel keeps
#     running (verdict pass);
#   - ro_after_init=warn and no lkdtm at all: an empty violations list;
#   - modules' ro_after_init data: the fast kernel plus
#     test_ro_after_init_module.ko with its two variables annotated (a
#     test-only change in the worktree WORK/test-core-roam, never in TREE),
#     whose modules exercise loads and unloads it: with ro_after_init=warn
#     the violations name roam_exit_written [test_ro_after_init_module],
#     written by roam_exit, and not roam_init_only; without it the write in
#     roam_exit oopses and modprobe -r is killed.
# --smoke keeps the series checks, the build and two boots: the default
# mode's control oopses, and ro_after_init=warn reports and survives both
# lkdtm tests with the exact violations (setup/tests/test-smoke-6.1.sh).
#
# Usage: test-core.sh [--smoke] [--help]
# Env: CACHE, WORK, TREE (as exported by the Makefile); RESULT overrides the
# kernel build result directory (BUILD/ro-campaign of build-kernel.sh, with
# bzImage and an initramfs built by mkinitramfs.sh); BUILD the O= directory
# used for the warning checks (default: RESULT/..).
# Output: TAP.  Exit: 0 if every test passed, 1 otherwise, 64 usage.

set -u

smoke=0
case ${1:-} in
--help | -h)
	sed -n '3,37p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
--smoke)
	smoke=1
	shift
	;;
esac
[ $# -eq 0 ] || { echo "usage: test-core.sh [--smoke] [--help]" >&2; exit 64; }

here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/.." && pwd)
CACHE=${CACHE:-$HOME/.cache/ro-campaign}
WORK=${WORK:-$CACHE/${KERNEL:-6.12}}
TREE=${TREE:-$WORK/linux}
# The build lock and ccache build-kernel.sh shares between trees.
shared=${CACHE:-$WORK}
boot=$root/qemu-boot/boot
. "$root/lib/tap.sh"
. "$root/lib/ktree.sh"

bail() {
	echo "Bail out! $*"
	exit 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-core.XXXXXX") || exit 1
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

git -C "$TREE" rev-parse --git-dir >/dev/null 2>&1 || bail "$TREE: not a prepared tree (run make setup)"
git -C "$TREE" rev-parse -q --verify pristine >/dev/null || bail "$TREE: no tag pristine"
git -C "$TREE" rev-parse -q --verify core >/dev/null || bail "$TREE: no tag core"

# The series setup-tree.sh picks (lib/ktree.sh): setup/core/MAJOR.MINOR,
# else the newest.
version=$(make -s -C "$TREE" kernelversion 2>/dev/null | tail -n 1)
pick_rc=0
series_dir=$(ktree_series "$here/core" "$version") || pick_rc=$?
case $pick_rc in
1) bail "$here/core: no VERSION/series in it" ;;
2) echo "# no core series for Linux ${version:-?}: the newest, $(basename "$series_dir")" ;;
esac
echo "# Linux $version, series ${series_dir#"$root"/}"
# The kernel is built from TREE as it is checked out; say so when that is
# not tag core (another step may have left its own commits on top).
git -C "$TREE" diff --quiet core HEAD -- 2>/dev/null ||
	echo "# note: $TREE is at $(git -C "$TREE" log -1 --format='%h %s'), not at tag core"
patches=$(grep -v '^#' "$series_dir/series" | grep -v '^$')
[ -n "$patches" ] || bail "$series_dir/series lists no patch"

# ---- the series ----------------------------------------------------------

# Apply with git's patch engine (the one git am uses) to a scratch index
# holding pristine; the result must be exactly the tree tagged core, which
# setup-tree.sh made with git am.
applies() {
	export GIT_INDEX_FILE="$tmp/index"
	git -C "$TREE" read-tree pristine || return 1
	for p in $patches; do
		git -C "$TREE" apply --cached "$series_dir/$p" 2>"$tmp/apply.err" ||
			{ why="$p: $(head -n 1 "$tmp/apply.err")"; unset GIT_INDEX_FILE; return 1; }
	done
	t=$(git -C "$TREE" write-tree)
	unset GIT_INDEX_FILE
	[ "$t" = "$(git -C "$TREE" rev-parse 'core^{tree}')" ] ||
		{ why="pristine + series != tag core (run make tree)"; return 1; }
}
check "the series applies to pristine and gives tag core" applies

clean_patches() {
	for p in $patches; do
		out=$(perl "$TREE/scripts/checkpatch.pl" --strict --no-tree \
			"$series_dir/$p" 2>/dev/null | grep '^total:')
		case $out in
		"total: 0 errors, 0 warnings, 0 checks"*) ;;
		*) why="$p: $out"; return 1 ;;
		esac
		grep -q '^Signed-off-by: ' "$series_dir/$p" ||
			{ why="$p: no Signed-off-by"; return 1; }
	done
}
check "every patch is checkpatch --strict clean and signed off" clean_patches

check "the log line format is documented in kernel-parameters.txt" \
	grep -q 'ro_after_init: write to SYM+OFF/SIZE addr=0xADDR by FUNC+OFF/SIZE cpu=N' \
	"$TREE/Documentation/admin-guide/kernel-parameters.txt"

# ---- build and warnings --------------------------------------------------

if [ -z "${RESULT:-}" ]; then
	build=$(sh "$root/qemu-boot/build-kernel.sh" fast "$TREE" "$WORK" 2>"$tmp/build.err" |
		tail -n 1) || { cat "$tmp/build.err"; bail "fast kernel build failed"; }
	RESULT=$build/ro-campaign
fi
BUILD=${BUILD:-$(dirname "$RESULT")}
[ -f "$RESULT/bzImage" ] || bail "no kernel at $RESULT/bzImage"
sh "$root/qemu-boot/mkinitramfs.sh" "$RESULT" >/dev/null 2>"$tmp/mkinit.err" ||
	{ cat "$tmp/mkinit.err"; bail "mkinitramfs.sh failed"; }
echo "# kernel: $RESULT/bzImage"

has_symbols() {
	for s in ro_after_init_fault ro_after_init_debug lkdtm_ro_after_init_store; do
		grep -q " $s\$" "$RESULT/System.map" || { why="no $s in System.map"; return 1; }
	done
}
check "the kernel has the series (System.map)" has_symbols

# The compiler and sparse checks (not in --smoke).
if [ $smoke -eq 0 ]; then
	# Files the series changes that the fast profile compiles.
	cfiles=$(git -C "$TREE" diff --name-only pristine core -- '*.c' |
		while read -r f; do
			[ -f "$BUILD/${f%.c}.o" ] && echo "$f"
		done)

	# Compile to .s (the objects the kernel is linked from stay untouched)
	# and run sparse (C=2 checks without rebuilding), under the build lock.
	kmake() {
		flock "$shared/build.lock" make -s -C "$TREE" O="$BUILD" CC="ccache gcc" \
			HOSTCC="ccache gcc" "$@"
	}
	s_targets=$(for f in $cfiles; do echo "${f%.c}.s"; done)
	o_targets=$(for f in $cfiles; do echo "${f%.c}.o"; done)
	# shellcheck disable=SC2086
	CCACHE_DIR=$shared/ccache kmake $s_targets >"$tmp/cc.log" 2>&1
	cc_rc=$?
	# shellcheck disable=SC2086
	CCACHE_DIR=$shared/ccache kmake C=2 $o_targets >"$tmp/sparse.log" 2>&1
	sparse_rc=$?

	no_cc_warnings() {
		[ $cc_rc -eq 0 ] || { why="make exited $cc_rc: $(tail -n 1 "$tmp/cc.log")"; return 1; }
		w=$(grep -E 'warning:|error:' "$tmp/cc.log" | head -n 1)
		[ -z "$w" ] || { why=$w; return 1; }
	}
	check "no compiler warnings in the touched files ($(echo $cfiles | wc -w) files)" no_cc_warnings

	# A sparse warning is new when it is in a file the series adds, or on a
	# line the series adds.
	added_lines() {
		git -C "$TREE" diff -U0 pristine core -- "$1" | awk '
			/^@@/ { split($3, a, ","); s = substr(a[1], 2); c = (a[2] == "") ? 1 : a[2]
				for (i = 0; i < c; i++) print s + i }'
	}
	no_new_sparse() {
		[ $sparse_rc -eq 0 ] || { why="make C=2 exited $sparse_rc: $(tail -n 1 "$tmp/sparse.log")"; return 1; }
		grep -q . "$tmp/sparse.log" || true
		for f in $cfiles; do
			grep -E "^$f:[0-9]+:[0-9]+: (warning|error):" "$tmp/sparse.log" |
				cut -d: -f2 | sort -u > "$tmp/warned"
			[ -s "$tmp/warned" ] || continue
			if git -C "$TREE" cat-file -e "pristine:$f" 2>/dev/null; then
				added_lines "$f" | sort -u > "$tmp/added"
				new=$(comm -12 "$tmp/warned" "$tmp/added" | head -n 1)
			else
				new=$(head -n 1 "$tmp/warned")
			fi
			[ -z "$new" ] || { why="$(grep -m1 "^$f:$new:" "$tmp/sparse.log")"; return 1; }
		done
	}
	check "no new sparse warnings (make C=2) in the touched files" no_new_sparse
	grep -cE ': (warning|error):' "$tmp/sparse.log" | sed 's/^/# sparse warnings, old ones included: /'
fi

# ---- boots ---------------------------------------------------------------

make -s -C "$root" programs >"$tmp/make.log" 2>&1 ||
	{ cat "$tmp/make.log"; bail "make programs failed"; }

# run NAME ARGS...: boot, results in $tmp/out-NAME; sets rc, out, con.
run() {
	name=$1
	shift
	out=$tmp/out-$name
	start=$(date +%s)
	"$boot" "$RESULT/bzImage" --accel tcg --out "$out" "$@" 2>"$tmp/$name.err"
	rc=$?
	con=$out/console.log
	echo "# boot $name: exit $rc, verdict $(cat "$out/verdict" 2>/dev/null), $(($(date +%s) - start)) s"
}

verdict_is() {
	v=$(cat "$out/verdict" 2>/dev/null)
	[ "$v" = "$1" ] || { why="verdict ${v:-none} (exit $rc), expected $1"; return 1; }
}

status_is() {
	s=$(awk -F '\t' -v e="$1" '$1 == e { print $2 }' "$out/result.tsv")
	[ "$s" = "$2" ] || { why="$1: ${s:-no row}, expected $2"; return 1; }
}

no_reports() {
	! grep -q 'ro_after_init: write to' "$con" || { why="a write was reported"; return 1; }
}

# after PATTERN1 PATTERN2: a console line matching PATTERN2 follows one
# matching PATTERN1.
after() {
	awk -v a="$1" -v b="$2" '$0 ~ a { seen = 1 } seen && $0 ~ b { f = 1 } END { exit !f }' "$con" ||
		{ why="no '$2' after '$1'"; return 1; }
}

# -- default mode
run default --exercise boot
check "default: the harness control oopses (verdict pass)" verdict_is pass
check "default: the oops is the ro_after_init write" \
	after 'attempting bad ro_after_init write' 'BUG: unable to handle page fault'
check "default: no warn mode, no reports" eval \
	'no_reports && ! grep -q "ro_after_init: warn mode" "$con"'

if [ $smoke -eq 0 ]; then
	run default-twice --exercise lkdtm-ro-twice
	check "default: WRITE_RO_AFTER_INIT_TWICE oopses on its first write" \
		after 'attempting ro_after_init writes' 'BUG: unable to handle page fault'
	check "default: the exercise saw the oops" eval \
		'grep -q "lkdtm-ro-twice: oopsed" "$con" || { why="no oopsed note"; false; }'
fi

# -- warn mode, the two lkdtm tests
run warn-lkdtm --exercise lkdtm-ro-twice --append ro_after_init=warn
check "warn: lkdtm tests survived (verdict pass)" verdict_is pass
check "warn: lkdtm-ro-twice ok" status_is lkdtm-ro-twice ok
check "warn: WRITE_RO_AFTER_INIT says reported and survived" \
	grep -q 'ro_after_init=warn: write reported and survived' "$con"

printf 'symbol\taddress\twriter\tcount\tfirst_cpu\n' > "$tmp/header"
# symbol, writer function (offsets dropped), count; sorted.
pairs() {
	tail -n +2 "$1" | awk -F '\t' '{ w = $3; sub(/\+.*/, "", w); print $1 "\t" w "\t" $4 }' | sort
}
printf '%s\t%s\t%s\n' ro_after_init lkdtm_WRITE_RO_AFTER_INIT 1 \
	ro_after_init_a lkdtm_ro_after_init_store 2 \
	ro_after_init_b lkdtm_ro_after_init_store 1 | sort > "$tmp/expected"
exact_violations() {
	v=$out/violations.tsv
	[ -f "$v" ] || { why="no violations.tsv"; return 1; }
	head -n 1 "$v" | cmp -s - "$tmp/header" || { why="header: $(head -n 1 "$v")"; return 1; }
	pairs "$v" > "$tmp/got"
	cmp -s "$tmp/got" "$tmp/expected" ||
		{ why="got: $(tr '\n\t' '; ' < "$tmp/got")"; return 1; }
	awk -F '\t' 'NR > 1 && ($2 !~ /^0x[0-9a-f]+$/ || $5 !~ /^[0-9]+$/) { exit 1 }' "$v" ||
		{ why="bad address or first_cpu column"; return 1; }
}
check "warn: violations list exactly the lkdtm variables and writers" exact_violations

log_lines() {
	re='ro_after_init: write to [A-Za-z0-9_.]+\+0x[0-9a-f]+/0x[0-9a-f]+ addr=0x[0-9a-f]+ by [A-Za-z0-9_.]+\+0x[0-9a-f]+/0x[0-9a-f]+ cpu=[0-9]+$'
	c=$(grep -cE "$re" "$con")
	[ "$c" -eq 3 ] || { why="$c parseable report lines, expected 3"; return 1; }
	c=$(grep -c 'ro_after_init: write to' "$con")
	[ "$c" -eq 3 ] || { why="$c report lines, expected 3"; return 1; }
}
check "warn: one parseable line per new (variable, writer) pair" log_lines

stacks_once() {
	# Two writing sites (lkdtm_WRITE_RO_AFTER_INIT, the store helper).
	c=$(grep -c 'Call Trace:' "$con")
	[ "$c" -eq 2 ] || { why="$c stack dumps, expected 2"; return 1; }
}
check "warn: the stack is dumped once per writing site" stacks_once
check "warn: a summary at poweroff" \
	grep -q 'ro_after_init: summary: 4 writes, 3 pairs, 0 untracked' "$con"
# --smoke ends here: both controls held on this kernel.
[ $smoke -eq 0 ] || finish

# -- warn mode, the whole exercise suite
run warn-all --append ro_after_init=warn --timeout 600
check "warn: the kernel runs the whole suite (verdict pass)" verdict_is pass
has_control_row() {
	pairs "$out/violations.tsv" 2>/dev/null |
		grep -q "^ro_after_init	lkdtm_WRITE_RO_AFTER_INIT	1\$" ||
		{ why="no row for the control"; return 1; }
}
check "warn: the suite's violations include the control" has_control_row
pairs "$out/violations.tsv" 2>/dev/null | grep -v '^ro_after_init	lkdtm_' |
	sed 's/^/# other violation: /'

# -- warn mode, nothing writes: a bare initramfs that only reads the file
d=$tmp/root-bare
mkdir -p "$d/bin" "$d/dev" "$d/proc" "$d/sys"
cp /bin/busybox "$d/bin/busybox"
cat > "$d/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox mount -t devtmpfs dev /dev
exec </dev/console >/dev/console 2>&1
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t debugfs debugfs /sys/kernel/debug
echo "# bare: violations-begin"
# each line tagged, so that a kernel message printed meanwhile is told apart
(cat /sys/kernel/debug/ro_after_init/violations || echo "no file") | sed "s/^/# bare| /"
echo "# bare: violations-end"
poweroff -f
EOF
chmod +x "$d/init"
(cd "$d" && find . | cpio -o -H newc 2>/dev/null) | gzip > "$tmp/bare.cpio.gz"
run warn-bare --initrd "$tmp/bare.cpio.gz" --append ro_after_init=warn --timeout 120
empty_list() {
	grep -q 'ro_after_init: warn mode' "$con" || { why="warn mode not announced"; return 1; }
	sed -n '/# bare: violations-begin/,/# bare: violations-end/p' "$con" |
		tr -d '\r' | sed -n 's/^# bare| //p' > "$tmp/bare.tsv"
	cmp -s "$tmp/bare.tsv" "$tmp/header" ||
		{ why="got: $(tr '\n\t' '; ' < "$tmp/bare.tsv")"; return 1; }
}
check "warn without writes: the violations list is empty (header only)" empty_list

# ---- modules' ro_after_init data (0003, 0004) ----------------------------
# The fast kernel plus test_ro_after_init_module.ko with both of its
# variables annotated __ro_after_init: roam_init_only (written in init
# only, a right annotation) and roam_exit_written (written again in the
# exit function, a wrong one).  The annotation is a test-only change in a
# private worktree of the tree (WORK/test-core-roam, detached at tag core),
# never in TREE.  The guest's modules exercise loads and unloads it.

roam=test_ro_after_init_module
wt=$WORK/test-core-roam
core_rev=$(git -C "$TREE" rev-parse 'core^{commit}')

# put FILE CONTENT_FILE: replace FILE only when it differs, so that an
# unchanged worktree keeps its mtimes and its build stays incremental.
put() {
	cmp -s "$2" "$1" || cp "$2" "$1"
}

roam_tree() {
	if ! git -C "$wt" rev-parse --git-dir >/dev/null 2>&1; then
		rm -rf "$wt"
		git -C "$TREE" worktree prune
		git -C "$TREE" worktree add -q --detach "$wt" "$core_rev" \
			>"$tmp/wt.log" 2>&1 || { why=$(tail -n 1 "$tmp/wt.log"); return 1; }
	elif [ "$(git -C "$wt" rev-parse HEAD)" != "$core_rev" ]; then
		git -C "$wt" checkout -q -f --detach "$core_rev" 2>"$tmp/wt.log" ||
			{ why=$(tail -n 1 "$tmp/wt.log"); return 1; }
	fi
	git -C "$wt" show "$core_rev:lib/$roam.c" |
		sed 's/^static int \(roam_[a-z_]*\);$/static int \1 __ro_after_init;/' > "$tmp/roam.c"
	c=$(grep -c '^static int roam_[a-z_]* __ro_after_init;$' "$tmp/roam.c")
	[ "$c" -eq 2 ] || { why="$c annotated variables in lib/$roam.c, expected 2"; return 1; }
	put "$wt/lib/$roam.c" "$tmp/roam.c"
	d=$(git -C "$wt" status --porcelain | grep -v " lib/$roam.c\$" | head -n 1)
	[ -z "$d" ] || { why="worktree: unexpected change: $d"; return 1; }
}

# The cover profile: the fast profile plus this one-line fragment.
printf 'CONFIG_TEST_RO_AFTER_INIT_MODULE=m\n' > "$tmp/roam.config"
roam_build() {
	b=$(COVER_BASE=fast COVER_FRAGMENT=$tmp/roam.config \
		sh "$root/qemu-boot/build-kernel.sh" cover "$wt" "$WORK" 2>"$tmp/roam-build.err" |
		tail -n 1)
	[ -n "$b" ] && [ -f "$b/ro-campaign/bzImage" ] ||
		{ why="build failed: $(grep -v '^build-kernel: ' "$tmp/roam-build.err" | tail -n 1)"; return 1; }
	grep -qx 'CONFIG_TEST_RO_AFTER_INIT_MODULE=m' "$b/.config" ||
		{ why="CONFIG_TEST_RO_AFTER_INIT_MODULE not =m in $b/.config"; return 1; }
	ko=$(find "$b/ro-campaign/modroot" -name "$roam.ko" | head -n 1)
	[ -n "$ko" ] || { why="no $roam.ko in modroot"; return 1; }
	sh "$root/qemu-boot/mkinitramfs.sh" "$b/ro-campaign" >/dev/null 2>"$tmp/roam-mkinit.err" ||
		{ why="mkinitramfs.sh: $(tail -n 1 "$tmp/roam-mkinit.err")"; return 1; }
	# Both variables are in the module's .data..ro_after_init.
	c=$(objdump -t "$ko" | grep -cE '\.data\.\.ro_after_init.* roam_(init_only|exit_written)$')
	[ "$c" -eq 2 ] || { why="$c of the two variables in .data..ro_after_init of $roam.ko"; return 1; }
	w=$(grep -E "lib/$roam\.c:.*(warning|error):" "$b/build.log" | head -n 1)
	[ -z "$w" ] || { why=$w; return 1; }
}

f0=$failed
check "modules: a private worktree at core with the test-only annotation" roam_tree
[ $failed -eq $f0 ] &&
	check "modules: fast kernel with $roam.ko, both variables __ro_after_init" roam_build
if [ $failed -eq $f0 ]; then
	echo "# modules kernel: $b/ro-campaign/bzImage"
	RESULT=$b/ro-campaign

	# -- warn mode: the exit write is reported, the init write is not
	run roam-warn --exercise modules --append ro_after_init=warn --timeout 600
	check "modules, warn: the modules exercise passes" status_is modules ok
	roam_violation() {
		v=$out/violations.tsv
		[ -f "$v" ] || { why="no violations.tsv"; return 1; }
		head -n 1 "$v" | cmp -s - "$tmp/header" || { why="header: $(head -n 1 "$v")"; return 1; }
		rows=$(awk -F '\t' -v s="roam_exit_written [$roam]" '$1 == s' "$v")
		c=$(printf '%s' "$rows" | grep -c .)
		[ "$c" -eq 1 ] || { why="$c rows for roam_exit_written [$roam], expected 1"; return 1; }
		w=$(printf '%s\n' "$rows" | cut -f 3)
		echo "$w" | grep -qE "^roam_exit\+0x[0-9a-f]+/0x[0-9a-f]+ \[$roam\]\$" ||
			{ why="writer '$w', expected roam_exit+OFF/SIZE [$roam]"; return 1; }
		echo "# roam_exit_written: $(printf '%s\n' "$rows" | cut -f 3,4 | tr '\t' ' ')"
	}
	check "modules, warn: violations name roam_exit_written [$roam] once, written by its exit function" \
		roam_violation
	check "modules, warn: roam_init_only (written in init only) is not named" eval \
		'! grep -q roam_init_only "$out/violations.tsv" || { why="roam_init_only in violations.tsv"; false; }'
	check "modules, warn: the report line names the module" \
		grep -qE "ro_after_init: write to roam_exit_written\+0x0/0x[0-9a-f]+ \[$roam\] addr=0x[0-9a-f]+ by roam_exit\+" "$con"

	# -- default mode: the annotation is live, the exit function oopses
	run roam-default --exercise modules --timeout 600
	roam_killed() {
		if [ -f "$out/modules.tsv" ]; then
			e=$(awk -F '\t' -v m="$roam" '$1 == m { print $3 }' "$out/modules.tsv")
			[ "$e" = killed ] || { why="modules.tsv: exit '${e:-no row}', expected killed"; return 1; }
		else
			grep -qE "modprobe -r $roam:? (exit )?killed" "$con" ||
				{ why="no 'modprobe -r $roam killed' on the console"; return 1; }
		fi
	}
	check "modules, default: modprobe -r $roam is killed" roam_killed
	check "modules, default: the oops is the write in roam_exit" \
		after 'BUG: unable to handle page fault' "RIP: 0010:roam_exit[+]0x[0-9a-f]+/0x[0-9a-f]+ [[]${roam}[]]"
fi

finish
