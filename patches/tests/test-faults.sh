#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Fault tests of the queue (issue 15): seconds, no kernel, no real tree.
#
# #1  queue.sh ran "rm -rf" on QUEUE_DIR whenever it held a README, so
#     QUEUE_DIR=$TREE deleted a kernel tree.  Now only a directory with
#     the queue's marker .ro-campaign-queue (or an empty or new one) is
#     emptied; anything else is refused with exit 65, nothing deleted.
# #4  queue plan passed "..", absolute paths and bad names through.
# #8  an unknown verdict was listed as "not queued" (exit 0); a NUL byte
#     was an error without a line.  Now both are exit 65 naming FILE:LINE.
# #10 --signoff with a newline added a trailer of its own, and a CR or a
#     trailer-like word in the inputs reached the commit message.
# levels (issue 16) only exercised and module-cycled conversions are
#     queued unless --allow-built (QUEUE_ALLOW_BUILT=1); the commit
#     message names the level, and says when a change was only compiled.
#
# QUEUE_BIN= and QUEUE_SH= run the tests on other (old) programs:
#   QUEUE_BIN=/work/old/patches/queue QUEUE_SH=/work/old/patches/queue.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${QUEUE_BIN:-$root/patches/queue}
qsh=${QUEUE_SH:-$root/patches/queue.sh}
T=$(mktemp -d "${TMPDIR:-/tmp}/queue-faults.XXXXXX")
[ -n "${KEEP-}" ] || trap 'rm -rf "$T"' EXIT INT TERM
. "$root/lib/tap.sh"

if [ -z "${QUEUE_BIN-}" ] && ! make -s -C "$root" patches/queue >"$T/out" 2>&1; then
	not_ok "build patches/queue" "$(tail -n 3 "$T/out" | tr '\n' ' ')"
	finish
fi

# A tiny tree: MAINTAINERS with one area, one source with an __init writer.
tree=$T/tree
mkdir -p "$tree/kernel"
printf 'Maintainers List\n----------------\n\nTEST AREA\nM:\tT <t@example.org>\nF:\tkernel/\n' \
	>"$tree/MAINTAINERS"
printf 'int x;\n\nstatic int __init set_x(char *s)\n{\n\tx = 1;\n\treturn 0;\n}\n' \
	>"$tree/kernel/a.c"
# Its version, for the base line (no .git/ro-campaign-origin yet).
printf 'VERSION = 6\nPATCHLEVEL = 99\nSUBLEVEL = 0\nEXTRAVERSION = -rc1\nNAME = Test\n' >"$tree/Makefile"
jhead='time	variable	file	line	batch	verdict	evidence	config_hash	core_hash'
chead='file	line	name	storage	class	confidence	reason	evidence'
ev='built=kernel/a.o,vmlinux; booted=warn,default; exercised=boot'
# jrow VARIABLE FILE VERDICT EVIDENCE [BATCH]
jrow() {
	printf '2025-01-10T09:00:00Z\t%s\t%s\t1\t%s\t%s\t%s\t0123456789ab\tba9876543210\n' \
		"$1" "$2" "${5:-1}" "$3" "$4"
}
# crow NAME FILE REASON WRITERS
crow() {
	printf '%s\t1\t%s\tglobal\tro_after_init\thigh\t%s\t%s\n' "$2" "$1" "$3" "$4"
}
good_c() {
	echo "$chead"
	crow x kernel/a.c "1 init-only writes, 0 escapes in init-only code" \
		kernel/a.c:5:set_x:assign
}
good_j() {
	echo "$jhead"
	jrow x kernel/a.c accepted "$ev"
}
# plan NAME [OPTIONS...]: queue plan on $T/NAME.j and $T/NAME.c into
# $T/NAME.q; exit status in $rc, messages in $T/NAME.err.
plan() {
	_n=$1
	shift
	"$bin" plan --journal "$T/$_n.j" --candidates "$T/$_n.c" \
		--tree "$tree" --out "$T/$_n.q" --signoff "T U <t@example.org>" \
		"$@" >"$T/$_n.out" 2>"$T/$_n.err"
	rc=$?
}
# expect_refused NAME CODE TEXT DESC: exit CODE, TEXT in the message, and
# nothing written below $T/NAME.q.
expect_refused() {
	if [ "$rc" -eq "$2" ] && grep -qF -- "$3" "$T/$1.err" && [ ! -e "$T/$1.q" ]; then
		ok "$4"
	else
		not_ok "$4" "exit $rc: $(head -c 300 "$T/$1.err" | tr '\n' ' ')"
	fi
}

good_j >"$T/good.j"
good_c >"$T/good.c"
plan good
[ "$rc" -eq 0 ] && grep -q 'written only by set_x(), which is __init\.' "$T/good.q/.plan"/01-*/0001.msg &&
	cat "$T/good.q/.plan"/01-*/0001.notes | tr '\n' ' ' | tr -s ' ' | grep -q 'set_x() is __init (kernel/a.c:3)' &&
	ok "the tiny tree gives a plan (exit 0)" ||
	not_ok "the tiny tree gives a plan (exit 0)" "exit $rc: $(head -c 300 "$T/good.err")"

# The journal's key is candidates.tsv's (file, line, name): the #ifdef
# variants of one variable are two definitions, both queued, named once.
{
	echo "$jhead"
	jrow x kernel/a.c accepted "$ev"
	printf '2025-01-10T09:00:00Z\tx\tkernel/a.c\t2\t1\taccepted\t%s\t0123456789ab\tba9876543210\n' "$ev"
} >"$T/variant.j"
{ good_c; printf 'kernel/a.c\t2\tx\tglobal\tro_after_init\thigh\t1 init-only writes\tkernel/a.c:5:set_x:assign\n'; } >"$T/variant.c"
plan variant
if [ "$rc" -eq 0 ] && [ "$(grep -c '^kernel/a.c	[12]	x	ro_after_init$' "$T/variant.q/.plan"/01-*/0001.list)" -eq 2 ] &&
   head -n 1 "$T/variant.q/.plan"/01-*/0001.msg | grep -qx 'a: Mark x as __ro_after_init'; then
	ok "two #ifdef definitions of one variable are both queued, the subject names it once"
else
	not_ok "two #ifdef definitions of one variable are both queued, the subject names it once" \
		"exit $rc: $(head -n 1 "$T/variant.q/.plan"/01-*/0001.msg 2>/dev/null)"
fi

# The exclude list is keyed (file, line, name) too: it drops one #ifdef
# definition and keeps the other; line "-", or a list of the older
# columns file name reason, drops every definition of the name.
cp "$T/variant.j" "$T/exv.j"
cp "$T/variant.c" "$T/exv.c"
printf 'file\tline\tname\treason\nkernel/a.c\t2\tx\tleft out\n' >"$T/exv.x"
plan exv --exclude "$T/exv.x"
if [ "$rc" -eq 0 ] && [ "$(cut -f 2 "$T/exv.q/.plan"/01-*/0001.list | tail -n +2)" = 1 ]; then
	ok "exclude (file, line, name): one #ifdef definition left out, the other queued"
else
	not_ok "exclude (file, line, name): one #ifdef definition left out, the other queued" \
		"exit $rc: $(cat "$T/exv.q/.plan"/01-*/0001.list 2>/dev/null | tr '\n' ' ')"
fi
for x in any old; do
	cp "$T/variant.j" "$T/ex$x.j"
	cp "$T/variant.c" "$T/ex$x.c"
done
printf 'file\tline\tname\treason\nkernel/a.c\t-\tx\tleft out\n' >"$T/exany.x"
printf 'file\tname\treason\nkernel/a.c\tx\tleft out\n' >"$T/exold.x"
for x in any old; do
	d="exclude, line '-': both definitions of the name left out"
	[ "$x" = any ] || d="exclude of the older columns file name reason: both definitions left out"
	plan "ex$x" --exclude "$T/ex$x.x"
	if [ "$rc" -eq 0 ] && ! ls "$T/ex$x.q/.plan"/01-*/0001.list >/dev/null 2>&1 &&
	   [ "$(grep -c 'left out' "$T/ex$x.q/README")" -ge 2 ]; then
		ok "$d"
	else
		not_ok "$d" "exit $rc: $(grep 'left out' "$T/ex$x.q/README" 2>/dev/null | tr '\n' ' ')"
	fi
done
cp "$T/variant.j" "$T/exbad.j"
cp "$T/variant.c" "$T/exbad.c"
printf 'file\tline\tname\treason\nkernel/a.c\ttwo\tx\tleft out\n' >"$T/exbad.x"
plan exbad --exclude "$T/exbad.x"
expect_refused exbad 65 "exbad.x:2: column 'line'" "exclude: a line that is no number nor '-' is refused, exit 65 naming FILE:LINE"

# ---- evidence levels: what is queued, and what the messages say ------------
# Four accepted variables, one per level shape, in a journal with the level
# column: exercised (vmlinux, booted), module-cycled (cycled=foo), and two
# only built (a module whose init failed; a vmlinux object never booted).
for f in b c d; do
	cp "$tree/kernel/a.c" "$tree/kernel/$f.c"
done
lhead='time	variable	file	line	batch	verdict	evidence	level	config_hash	core_hash'
# lrow FILE EVIDENCE LEVEL
lrow() {
	printf '2025-01-10T09:00:00Z\tx\t%s\t1\t1\taccepted\t%s\t%s\t0123456789ab\tba9876543210\n' "$1" "$2" "$3"
}
ev_ex='built=kernel/a.o,vmlinux; booted=warn,default; exercised=boot,cpu-hotplug'
ev_cy='built=kernel/b.o,kernel/b.ko; booted=warn,default; exercised=boot,modules; cycled=foo'
ev_nc='built=kernel/c.o,kernel/c.ko; booted=warn,default; exercised=boot,modules; not-cycled=bar: init failed (No such device)'
ev_bo='built=kernel/d.o,vmlinux'
{
	echo "$lhead"
	lrow kernel/a.c "$ev_ex" exercised
	lrow kernel/b.c "$ev_cy" module-cycled
	lrow kernel/c.c "$ev_nc" built
	lrow kernel/d.c "$ev_bo" built
} >"$T/lv.j"
{
	echo "$chead"
	for f in a b c d; do
		crow x kernel/$f.c "1 init-only writes, 0 escapes in init-only code" kernel/$f.c:5:set_x:assign
	done
} >"$T/lv.c"
plan lv
lists=$(cat "$T/lv.q/.plan"/01-*/*.list 2>/dev/null | grep -v '^file' | cut -f 1 | tr '\n' ' ')
[ "$rc" -eq 0 ] && [ "$lists" = "kernel/a.c kernel/b.c " ] &&
	ok "levels: only the exercised and the module-cycled variables are queued by default" ||
	not_ok "levels: only the exercised and the module-cycled variables are queued by default" "exit $rc, queued: $lists"
grep -q '^Queued:     2, below (reached 0, device-bound 0, module-cycled 1,$' "$T/lv.q/README" && grep -q '^            booted 1, built 0)$' "$T/lv.q/README" &&
	grep -q '^Only built: 2 accepted but left out: only compiled, not booted$' "$T/lv.q/README" &&
	grep -q '^  kernel/c.c:1 x: accepted, only built: .*not-cycled=bar: init failed (No such device)$' "$T/lv.q/README" &&
	grep -q '^  kernel/d.c:1 x: accepted, only built: built=kernel/d.o,vmlinux$' "$T/lv.q/README" &&
	ok "levels: README counts per level and lists the only-built ones with their evidence" ||
	not_ok "levels: README counts per level and lists the only-built ones with their evidence" "$(grep -e '^Queued' -e '^Only' -e 'only built' "$T/lv.q/README" | tr '\n' '|')"
# msg NAME FILE: the commit message of the patch of FILE, then " --- "
# and what goes below its --- line (the notes), on one line
msg() {
	for _m in "$T/$1.q/.plan"/01-*/*.msg; do
		_l=${_m%.msg}.list
		grep -q "^$2	" "$_l" &&
			{ cat "$_m"; echo ' --- '; cat "${_m%.msg}.notes"; } |
			tr '\n' ' ' | tr -s ' '
	done
}
m=$(msg lv kernel/a.c)
case $m in
*"Tested (level: booted): built into an x86_64 vmlinux and booted under QEMU with ro_after_init=warn, which reported no write, and with the protection on, each time through"*"Signed-off-by: "*" --- "*"Validation (level: booted): "*"- exercises passed: boot, cpu-hotplug"*)
	ok "levels: an old exercised row is booted, and its message says so, the exercises are listed below the --- line" ;;
*)	not_ok "levels: an old exercised row is booted, and its message says so, the exercises are listed below the --- line" "$m" ;;
esac
m=$(msg lv kernel/b.c)
case $m in
*"Tested (level: module-cycled): built as the module foo (x86_64), which was loaded under QEMU, its init returning 0, and unloaded, with ro_after_init=warn, which reported no write, and with the protection on."*)
	ok "levels: a module-cycled message names the module, its init and its unload" ;;
*)	not_ok "levels: a module-cycled message names the module, its init and its unload" "$m" ;;
esac
case $m in
*"only compiled"*) not_ok "levels: ... and does not call itself only compiled" "$m" ;;
*) ok "levels: ... and does not call itself only compiled" ;;
esac
grep -q '^ *2  x  *kernel/b.c:1  *module-cycled$' "$T/lv.q/.plan"/01-*/cover.blurb &&
	! grep -q 'built = only compiled' "$T/lv.q/.plan"/01-*/cover.blurb &&
	ok "levels: the cover letter's table has each level, its legend only the levels present" ||
	not_ok "levels: the cover letter's table has each level, its legend only the levels present" "$(cat "$T/lv.q/.plan"/01-*/cover.blurb | tr '\n' '|')"

# reached (ran= after init) and device-bound (bound=): the message says
# what ran, in the words of lib/evidence's ev_sentence().
ev_re='built=kernel/a.o,vmlinux; booted=warn,default; exercised=pm-test; ran=valid_state:14,suspend_devices_and_enter:4; ran-in=pm-test; not-ran=suspend_set_ops'
ev_db='built=kernel/b.o,kernel/b.ko; booted=warn,default; exercised=boot,devices; cycled=foo; bound=foo@edu; devices=edu:probe=0,rebind=ok,suspend=ok,unload=ok'
{
	echo "$lhead"
	lrow kernel/a.c "$ev_re" reached
	lrow kernel/b.c "$ev_db" device-bound
} >"$T/rd.j"
cp "$T/lv.c" "$T/rd.c"
plan rd
m=$(msg rd kernel/a.c)
case $m in
*"Tested (level: reached): built into an x86_64 vmlinux"*"Its readers valid_state() and suspend_devices_and_enter() ran 18 times during"*"after init, with the section read-only."*"Signed-off-by: "*)
	ok "levels: a reached message names the readers that ran after init, and how often" ;;
*)	not_ok "levels: a reached message names the readers that ran after init, and how often" "rc=$rc: $m" ;;
esac
m=$(msg rd kernel/b.c)
case $m in
*"Tested (level: device-bound): built as the module foo (x86_64), which was loaded under QEMU with the emulated device it drives"*"Its driver bound foo@edu"*"Signed-off-by: "*)
	ok "levels: a device-bound message names the module and the device it bound" ;;
*)	not_ok "levels: a device-bound message names the module and the device it bound" "rc=$rc: $m" ;;
esac
grep -q '^Queued:     2, below (reached 1, device-bound 1, module-cycled 0,$' "$T/rd.q/README" &&
	ok "levels: README counts reached and device-bound" ||
	not_ok "levels: README counts reached and device-bound" "$(grep -A1 '^Queued' "$T/rd.q/README" | tr '\n' '|')"

# --allow-built: all four, the only-built ones saying so plainly.
cp "$T/lv.j" "$T/lvb.j"
cp "$T/lv.c" "$T/lvb.c"
plan lvb --allow-built
lists=$(cat "$T/lvb.q/.plan"/01-*/*.list 2>/dev/null | grep -v '^file' | cut -f 1 | tr '\n' ' ')
[ "$rc" -eq 0 ] && [ "$lists" = "kernel/a.c kernel/b.c kernel/c.c kernel/d.c " ] &&
	grep -q '^Only built: 2 queued (--allow-built)' "$T/lvb.q/README" &&
	ok "levels: --allow-built queues the only-built variables too, README says so" ||
	not_ok "levels: --allow-built queues the only-built variables too, README says so" "exit $rc, queued: $lists"
m=$(msg lvb kernel/c.c)
case $m in
*"Tested (level: built): only compiled (x86_64): "*"so the change is not tested at run time."*" --- "*"- module not cycled: bar: init failed (No such device)"*)
	ok "levels: an only-built message says it was only compiled, and why the module was not cycled" ;;
*)	not_ok "levels: an only-built message says it was only compiled, and why the module was not cycled" "$m" ;;
esac
m=$(msg lvb kernel/d.c)
case $m in
*"Tested (level: built): only compiled (x86_64): "*) ok "levels: so does a vmlinux variable that was never booted" ;;
*) not_ok "levels: so does a vmlinux variable that was never booted" "$m" ;;
esac
grep -q 'built = only compiled' "$T/lvb.q/.plan"/01-*/cover.blurb &&
	ok "levels: ... and the cover letter explains the level built" ||
	not_ok "levels: ... and the cover letter explains the level built" "missing"

# The same journal without the level column (an old one): the same plan.
cut -f 1-7,9- "$T/lv.j" >"$T/lvo.j"
cp "$T/lv.c" "$T/lvo.c"
plan lvo
if [ "$rc" -eq 0 ] && diff -r "$T/lv.q/.plan" "$T/lvo.q/.plan" >/dev/null &&
   [ "$(grep -v "^Journal:\\|^Candidates:" "$T/lv.q/README")" = "$(grep -v "^Journal:\\|^Candidates:" "$T/lvo.q/README")" ]; then
	ok "levels: a journal without the level column gives the same plan (levels derived)"
else
	not_ok "levels: a journal without the level column gives the same plan (levels derived)" "exit $rc: $(head -c 300 "$T/lvo.err")"
fi
{ echo "$lhead"; lrow kernel/a.c "$ev_ex" built; } >"$T/lvw.j"
cp "$T/lv.c" "$T/lvw.c"
plan lvw
expect_refused lvw 65 "lvw.j:2: column 'level': 'built'" \
	"levels: a level the evidence does not give is refused, naming FILE:LINE"
{ echo "$lhead"; lrow kernel/b.c "built=kernel/b.o,kernel/b.ko; booted=warn,default; cycled=foo Signed-off-by: x" module-cycled; } >"$T/lvm.j"
cp "$T/lv.c" "$T/lvm.c"
plan lvm
expect_refused lvm 65 "lvm.j:2: column 'evidence': cycled=foo Signed-off-by: x is not a module name" \
	"levels: a cycled= module that is not a module name is refused (it is quoted in a paragraph)"

# ---- the shape of a patch (issue 17): short message, evidence below ---
m=$(cat "$T/good.q/.plan"/01-*/0001.msg)
msg_lines=$(grep -c . "$T/good.q/.plan"/01-*/0001.msg)
case $m in
*"kernel/a.c:5"* | *"confidence"* | *"config_hash"*)
	not_ok "a commit message names the writers, not their file:line, the finder's verdict or the batch" "$m" ;;
*"Found with ro-campaign"*"Tested (level: booted)"*)
	if [ "$msg_lines" -le 16 ]; then
		ok "a commit message names the writers, not their file:line, the finder's verdict or the batch ($msg_lines lines)"
	else
		not_ok "a commit message names the writers, not their file:line, the finder's verdict or the batch" "$msg_lines lines"
	fi ;;
*)	not_ok "a commit message says how it was found and tested" "$m" ;;
esac
notes=$(cat "$T/good.q/.plan"/01-*/0001.notes | tr '\n' ' ' | tr -s ' ')
case $notes in
'Writers of x (kernel/a.c:1), all init-only (finder: "1 init-only writes, 0 escapes in init-only code", confidence high): - kernel/a.c:5 in set_x(): assignment; set_x() is __init (kernel/a.c:3) Validation (level: booted): ro-campaign'"'"'s fast profile, x86_64, config_hash 0123456789ab, batch 1; '*) true ;;
*) false ;;
esac &&
	ok "below the --- line: every writer with file:line, the finder's verdict, the validation" ||
	not_ok "below the --- line: every writer with file:line, the finder's verdict, the validation" "$notes"

# A read-only sysctl or debugfs file is not a boot parameter: the notes
# must not say it is "set while parameters are parsed".
cp "$T/good.j" "$T/rofile.j"
{
	echo "$chead"
	crow x kernel/a.c "1 init-only writes, 0 escapes in init-only code" \
		"kernel/a.c:5:set_x:assign;kernel/a.c:9:-:sysctl=0444;kernel/a.c:11:-:debugfs=0444;kernel/a.c:13:-:module_param=0444"
} >"$T/rofile.c"
plan rofile
notes=$(cat "$T/rofile.q/.plan"/01-*/0001.notes 2>/dev/null | tr '\n' ' ' | tr -s ' ')
case $notes in
*"sysctl with permission 0444: a read-only file, so nothing writes it"*"debugfs with permission 0444: a read-only file, so nothing writes it"*"module_param with permission 0444: no write bit, so only set while parameters are parsed"*)
	ok "below the --- line: a read-only sysctl or debugfs file is a file, a read-only module_param a parameter" ;;
*)	not_ok "below the --- line: a read-only sysctl or debugfs file is a file, a read-only module_param a parameter" "exit $rc: $notes" ;;
esac

# ---- the base, from the tree (issue 17): never a fixed kernel version -------
# otree NAME [KEY VALUE]...: a copy of the tiny tree with the origin file
# make setup writes, holding the given rows.
otree() {
	_o=$T/$1.tree
	shift
	rm -rf "$_o"
	cp -a "$tree" "$_o"
	mkdir -p "$_o/.git"
	{
		printf 'key\tvalue\n'
		while [ $# -ge 2 ]; do
			printf '%s\t%s\n' "$1" "$2"
			shift 2
		done
	} >"$_o/.git/ro-campaign-origin"
}
# oplan NAME [OPTIONS...]: queue plan of the good inputs on $T/NAME.tree.
oplan() {
	_n=$1
	shift
	"$bin" plan --journal "$T/good.j" --candidates "$T/good.c" \
		--tree "$T/$_n.tree" --out "$T/$_n.q" --signoff "T U <t@example.org>" \
		"$@" >"$T/$_n.out" 2>"$T/$_n.err"
	rc=$?
}
# everywhere NAME TEXT: TEXT is in the README, the cover letter and the notes.
everywhere() {
	grep -qxF "$2" "$T/$1.q/README" &&
		grep -qxF "$2" "$T/$1.q/.plan"/01-*/cover.blurb &&
		grep -qxF "$2" "$T/$1.q/.plan"/01-*/0001.notes
}
old=$(printf '6.%s.%s' 1 192)
grep -q '^Base: Linux 6.99.0-rc1$' "$T/good.q/README" &&
	everywhere good "Base: Linux 6.99.0-rc1" &&
	grep -qx 'kind	tree' "$T/good.q/.plan/base.tsv" &&
	! grep -rq "$old" "$T/good.q" &&
	ok "base: a tree without an origin file is named by its Makefile's version, not $old" ||
	not_ok "base: a tree without an origin file is named by its Makefile's version, not $old" "$(grep -r Base: "$T/good.q" | head -n 3 | tr '\n' '|')"
commit=0123456789abcdef0123456789abcdef01234567
otree tarball kind tarball version 6.12.118 source linux-source-6.12.tar.xz commit "$commit"
oplan tarball
[ "$rc" -eq 0 ] && everywhere tarball "Base: Linux 6.12.118 (Debian's linux-source-6.12)" &&
	! grep -rq "base-commit:\|$old\|6.99" "$T/tarball.q" &&
	ok "base: a tarball tree names its version and tarball (Debian's linux-source-6.12), no base-commit:" ||
	not_ok "base: a tarball tree names its version and tarball (Debian's linux-source-6.12), no base-commit:" "exit $rc: $(grep -rh 'Base:\|base-commit' "$T/tarball.q" "$T/tarball.err" | head -n 3 | tr '\n' '|')"
otree git kind git version 6.13.0-rc1 source /home/someone/src/linux commit "$commit"
oplan git
[ "$rc" -eq 0 ] && everywhere git "Base: Linux 6.13.0-rc1" &&
	[ "$(tail -n 1 "$T/git.q/.plan"/01-*/0001.notes)" = "base-commit: $commit" ] &&
	grep -qx "commit	$commit" "$T/git.q/.plan/base.tsv" &&
	grep -qx 'kind	git' "$T/git.q/.plan/base.tsv" &&
	! grep -rq '/home/someone' "$T/git.q" &&
	ok "base: a git tree's patches end their notes with base-commit: (the user's commit), its path named nowhere" ||
	not_ok "base: a git tree's patches end their notes with base-commit: (the user's commit), its path named nowhere" "exit $rc: $(cat "$T/git.err" "$T/git.q/.plan"/01-*/0001.notes 2>/dev/null | tail -n 3 | tr '\n' '|')"
oplan git --base "linux-next 20250110"
[ "$rc" -eq 0 ] && everywhere git "Base: linux-next 20250110" &&
	ok "base: --base TEXT names the base instead" ||
	not_ok "base: --base TEXT names the base instead" "exit $rc: $(head -c 300 "$T/git.err")"
for f in good2 good3; do cp "$T/good.j" "$T/$f.j"; cp "$T/good.c" "$T/$f.c"; done
plan good2 --origin "$T/tarball.tree/.git/ro-campaign-origin"
[ "$rc" -eq 0 ] && grep -qx "Base: Linux 6.12.118 (Debian's linux-source-6.12)" "$T/good2.q/README" &&
	ok "base: --origin FILE (a worktree's, found by queue.sh through git) is read instead" ||
	not_ok "base: --origin FILE (a worktree's, found by queue.sh through git) is read instead" "exit $rc: $(head -c 300 "$T/good2.err")"
plan good3 --origin "$T/no-such-origin"
expect_refused good3 65 "no-such-origin: no such file (--origin)" \
	"base: a missing --origin file is refused (exit 65)"
otree badkind kind zip version 6.12.118 source x.tar.xz commit "$commit"
oplan badkind
expect_refused badkind 65 "ro-campaign-origin:2: kind 'zip'" \
	"base: an origin file with an unknown kind is refused, naming FILE:LINE (exit 65)"
otree badcommit kind git version 6.12.118 source /src/linux commit HEAD
oplan badcommit
expect_refused badcommit 65 "ro-campaign-origin:5: commit 'HEAD' is not a full hexadecimal commit id" \
	"base: an origin commit that is not a full commit id is refused, naming FILE:LINE"
otree badver kind tarball version '6.12 $(id)' source x.tar.xz commit "$commit"
oplan badver
expect_refused badver 65 "ro-campaign-origin:3: version" \
	"base: an origin version that is not a version is refused"
otree short kind tarball version 6.12.118
oplan short
expect_refused short 65 "needs the rows kind, version, source and commit" \
	"base: an origin file without all its rows is refused"
rm -rf "$T/nomake.tree"
cp -a "$tree" "$T/nomake.tree"
rm "$T/nomake.tree/Makefile"
oplan nomake
expect_refused nomake 65 "cannot say what the queue is based on" \
	"base: a tree with neither an origin file nor a Makefile version is refused"

# ---- postings of at most 15 patches (issue 17) --------------------------------
# 17 files of one area: two postings of 9 and 8 patches, each with its own
# cover letter and numbering, both in the README.
{ echo "$lhead"; } >"$T/many.j"
{ echo "$chead"; } >"$T/many.c"
for i in $(seq -w 1 17); do
	cp "$tree/kernel/a.c" "$tree/kernel/m$i.c"
	lrow "kernel/m$i.c" "$ev_ex" exercised >>"$T/many.j"
	crow x "kernel/m$i.c" "1 init-only writes, 0 escapes in init-only code" \
		"kernel/m$i.c:5:set_x:assign" >>"$T/many.c"
done
plan many
p1=$T/many.q/.plan/01-test-area-1of2
p2=$T/many.q/.plan/01-test-area-2of2
if [ "$rc" -eq 0 ] && [ "$(ls "$p1"/*.list 2>/dev/null | wc -l)" -eq 9 ] &&
   [ "$(ls "$p2"/*.list 2>/dev/null | wc -l)" -eq 8 ] &&
   [ -f "$p2/0001.msg" ] && [ ! -e "$p2/0009.msg" ] &&
   [ "$(ls -d "$T/many.q/.plan"/01-* | wc -l)" -eq 2 ]; then
	ok "postings: 17 patches of one area are two postings of 9 and 8, each numbered from 1"
else
	not_ok "postings: 17 patches of one area are two postings of 9 and 8, each numbered from 1" "exit $rc: $(ls "$T/many.q/.plan" 2>/dev/null | tr '\n' ' ')"
fi
grep -qx 'm01: Mark 9 variables as __ro_after_init (part 1 of 2)' "$p1/cover.subject" &&
	grep -qx 'm01: Mark 8 variables as __ro_after_init (part 2 of 2)' "$p2/cover.subject" &&
	tr '\n' ' ' <"$p1/cover.blurb" | grep -q 'This is part 1 of 2: the area has 17 such variables in 17 patches, sent as 2 postings of at most 15 patches each' &&
	ok "postings: each cover letter says which part it is" ||
	not_ok "postings: each cover letter says which part it is" "$(cat "$p1/cover.subject" "$p2/cover.subject" 2>/dev/null | tr '\n' '|')"
grep -q '^  01-test-area-1of2  *9  *9  TEST AREA (m01), part 1 of 2$' "$T/many.q/README" &&
	grep -q '^  01-test-area-2of2  *8  *8  TEST AREA (m01), part 2 of 2$' "$T/many.q/README" &&
	ok "postings: the README lists every posting with its part" ||
	not_ok "postings: the README lists every posting with its part" "$(grep 01-test "$T/many.q/README" | tr '\n' '|')"
cp "$T/many.j" "$T/many3.j"
cp "$T/many.c" "$T/many3.c"
plan many3 --max-patches 3
bad=""
for d in "$T/many3.q/.plan"/01-*; do
	c=$(ls "$d"/*.list | wc -l)
	[ "$c" -le 3 ] || bad="$bad $(basename "$d"):$c"
done
[ "$rc" -eq 0 ] && [ -z "$bad" ] && [ -d "$T/many3.q/.plan/01-test-area-6of6" ] &&
	ok "postings: --max-patches 3 gives 6 postings of at most 3" ||
	not_ok "postings: --max-patches 3 gives 6 postings of at most 3" "exit $rc:$bad $(ls "$T/many3.q/.plan" | tr '\n' ' ')"
# A file's patches (--max-vars 1: b.c's two variables, a setting and a
# module parameter, are split by kind into two patches) stay in one
# posting when the posting may still grow.
{
	echo "$lhead"
	lrow kernel/a.c "$ev_ex" exercised
	lrow kernel/b.c "$ev_ex" exercised
	printf '2025-01-10T09:00:00Z\ty\tkernel/b.c\t2\t1\taccepted\t%s\texercised\t0123456789ab\tba9876543210\n' "$ev_ex"
	lrow kernel/c.c "$ev_ex" exercised
} >"$T/chain.j"
{
	echo "$chead"
	for f in a b c; do
		crow x kernel/$f.c "1 init-only writes, 0 escapes in init-only code" kernel/$f.c:5:set_x:assign
	done
	printf 'kernel/b.c\t2\ty\tglobal\tro_after_init\thigh\t1 init-only writes\tkernel/b.c:5:set_x:assign;kernel/b.c:3:-:module_param=0444\n'
} >"$T/chain.c"
plan chain --max-patches 3 --max-vars 1
got=$(for d in "$T/chain.q/.plan"/01-*; do printf '%s:' "$(basename "$d")"; cat "$d"/*.list | grep -v '^file' | cut -f 1 | tr '\n' ' '; done)
[ "$rc" -eq 0 ] && [ "$got" = "01-test-area-1of2:kernel/a.c kernel/b.c kernel/b.c 01-test-area-2of2:kernel/c.c " ] &&
	ok "postings: the two patches of one file are not split across postings" ||
	not_ok "postings: the two patches of one file are not split across postings" "exit $rc: $got"
rm -f "$tree"/kernel/m*.c

# ---- #4: paths and names are checked before anything is written ----------
{ echo "$jhead"; jrow x ../kernel/a.c rejected "violation: written by y"; } >"$T/dotdot.j"
good_c >"$T/dotdot.c"
plan dotdot
expect_refused dotdot 65 "dotdot.j:2: column 'file'" \
	"#4 a journal file with '..' is refused, naming FILE:LINE (exit 65)"
{ echo "$jhead"; jrow x /etc/passwd rejected "violation: written by y"; } >"$T/abs.j"
good_c >"$T/abs.c"
plan abs
expect_refused abs 65 "abs.j:2: column 'file'" \
	"#4 an absolute journal path is refused (exit 65)"
{ echo "$jhead"; jrow 'x;id' kernel/a.c rejected "violation: written by y"; } >"$T/name.j"
good_c >"$T/name.c"
plan name
expect_refused name 65 "name.j:2: column 'variable'" \
	"#4 a journal name that is not an identifier is refused (exit 65)"
good_j >"$T/cfile.j"
{ good_c; crow y ../../etc/b.c "1 init-only writes" kernel/a.c:5:set_x:assign; } >"$T/cfile.c"
plan cfile
expect_refused cfile 65 "cfile.c:3: column 'file'" \
	"#4 a candidates path with '..' is refused, even on a row not queued"
good_j >"$T/wfile.j"
{ echo "$chead"; crow x kernel/a.c "1 init-only writes" ../../../etc/passwd:1:root:assign; } >"$T/wfile.c"
plan wfile
expect_refused wfile 65 "wfile.c:2: column 'evidence'" \
	"#4 a writer outside the tree is refused, not read (exit 65)"

# ---- #8: unknown verdicts and NUL bytes ---------------------------------------
{ good_j; jrow y kernel/a.c maybe "build: ?"; } >"$T/verdict.j"
good_c >"$T/verdict.c"
plan verdict
expect_refused verdict 65 "verdict.j:3: column 'verdict': unknown value 'maybe'" \
	"#8 an unknown verdict is an error naming FILE:LINE (exit 65)"
{ good_j; printf '2025-01-10T09:00:00Z\ty\tkernel/a.c\t1\t1\trejected\tbad\0byte\t0123456789ab\tba9876543210\n'; } >"$T/nul.j"
good_c >"$T/nul.c"
plan nul
expect_refused nul 65 "nul.j:3: NUL byte" \
	"#8 a NUL byte in the journal is an error naming FILE:LINE (exit 65)"

# ---- #10: no trailer or line from the inputs in a commit message -------------
good_j >"$T/sob.j"
good_c >"$T/sob.c"
"$bin" plan --journal "$T/sob.j" --candidates "$T/sob.c" --tree "$tree" \
	--out "$T/sob.q" --signoff "$(printf 'T U <t@example.org>\nReviewed-by: Evil <evil@example.org>')" \
	>"$T/sob.out" 2>"$T/sob.err"
rc=$?
expect_refused sob 64 "is not one line 'NAME <EMAIL>'" \
	"#10 a --signoff with a newline is refused (exit 64)"
"$bin" plan --journal "$T/sob.j" --candidates "$T/sob.c" --tree "$tree" \
	--out "$T/sob2.q" --signoff "T U <t@example.org>, Evil <evil@example.org>" \
	>"$T/sob2.out" 2>"$T/sob2.err"
rc=$?
expect_refused sob2 64 "is not one line 'NAME <EMAIL>'" \
	"#10 a --signoff with two addresses is refused (exit 64)"
{ echo "$jhead"; jrow x kernel/a.c accepted "$(printf '%s\rReviewed-by: Evil <evil@example.org>' "$ev")"; } >"$T/cr.j"
good_c >"$T/cr.c"
plan cr
expect_refused cr 65 "cr.j:2: CR" \
	"#10 a CR in journal evidence (a line break to some mailers) is refused"
{ echo "$jhead"; jrow x kernel/a.c accepted "$(printf '%s\033[2J\013; note=a\014b' "$ev")"; } >"$T/ctl.j"
good_c >"$T/ctl.c"
plan ctl
if [ "$rc" -eq 0 ] && ! LC_ALL=C grep -q "$(printf '[\033\013\014]')" "$T/ctl.q/.plan"/01-*/0001.msg \
	"$T/ctl.q/.plan"/01-*/0001.notes &&
   grep -q '^  - exercises passed: boot\[2J$' "$T/ctl.q/.plan"/01-*/0001.notes; then
	ok "#10 control characters in journal evidence are stripped from the commit message"
else
	not_ok "#10 control characters in journal evidence are stripped from the commit message" \
		"exit $rc: $(LC_ALL=C grep -c "$(printf '[\033\013\014]')" "$T/ctl.q/.plan"/01-*/0001.msg 2>/dev/null) lines with control characters"
fi
long=$(printf '%070d' 0 | tr 0 A)
good_j >"$T/reason.j"
{ echo "$chead"; crow x kernel/a.c "$long Reviewed-by: Evil <evil@example.org>" kernel/a.c:5:set_x:assign; } >"$T/reason.c"
plan reason
expect_refused reason 65 "reason.c:2: column 'reason'" \
	"#10 a finder reason that a wrapped line would start with 'Reviewed-by:' is refused"
{ echo "$jhead"; jrow x kernel/a.c accepted "$ev" "$long Cc: evil@example.org"; } >"$T/batch.j"
good_c >"$T/batch.c"
plan batch
expect_refused batch 65 "batch.j:2: column 'batch'" \
	"#10 a batch name with a trailer-like word is refused"
# Evidence is quoted in indented bullets: no line of its own can start
# with a trailer, whatever it says.
{ echo "$jhead"; jrow x kernel/a.c accepted "$ev; $long Signed-off-by: Evil <evil@example.org>"; } >"$T/item.j"
good_c >"$T/item.c"
plan item
if [ "$rc" -eq 0 ] && [ "$(grep -c '^Signed-off-by:' "$T/item.q/.plan"/01-*/0001.msg)" -eq 1 ] &&
   ! grep -q '^Signed-off-by:' "$T/item.q/.plan"/01-*/0001.notes &&
   grep -q '^    Signed-off-by: Evil' "$T/item.q/.plan"/01-*/0001.notes; then
	ok "#10 a trailer in journal evidence stays inside an indented bullet"
else
	not_ok "#10 a trailer in journal evidence stays inside an indented bullet" "exit $rc"
fi

# ---- initdata (issue 19, item 4): a patch kind of its own ------------------
# x is __ro_after_init, y __initdata and z __initconst, all in kernel/a.c:
# three patches, one per kind, each with its subject, its reason and its
# annotation in the list; the kind comes from the journal's section= item
# and must agree with the finder's class.
idr='read and written only by __init code (1 writes): __initdata, freed with the init sections'
icr='const and read only by __init code: __initconst, freed with the init sections'
ev_id='built=kernel/a.o,vmlinux; section=.init.data; modpost=no-mismatch; booted=warn,default; exercised=boot'
ev_ic='built=kernel/a.o,vmlinux; section=.init.rodata; modpost=no-mismatch; booted=warn,default; exercised=boot'
# irow NAME CLASS REASON WRITERS
irow() {
	printf 'kernel/a.c\t1\t%s\tstatic\t%s\t-\t%s\t%s\n' "$1" "$2" "$3" "$4"
}
{
	echo "$jhead"
	jrow x kernel/a.c accepted "$ev"
	jrow y kernel/a.c accepted "$ev_id"
	jrow z kernel/a.c accepted "$ev_ic"
} >"$T/init.j"
{
	echo "$chead"
	crow x kernel/a.c "1 init-only writes, 0 escapes in init-only code" \
		kernel/a.c:5:set_x:assign
	irow y initdata "$idr" kernel/a.c:5:set_x:assign
	irow z initdata "$icr" -
} >"$T/init.c"
plan init
d=$(ls -d "$T/init.q/.plan"/01-* 2>/dev/null | head -n 1)
subj() { head -n 1 "$d/$1.msg" 2>/dev/null; }
why="exit $rc; subjects: '$(subj 0001)' '$(subj 0002)' '$(subj 0003)'; $(head -c 300 "$T/init.err")"
check "initdata: one patch per kind, subjects as __ro_after_init, __initdata, __initconst" \
	sh -c "[ $rc -eq 0 ] && [ ! -e '$d/0004.msg' ] && \
		[ '$(subj 0001)' = 'a: Mark x as __ro_after_init' ] && \
		[ '$(subj 0002)' = 'a: Mark y as __initdata' ] && \
		[ '$(subj 0003)' = 'a: Mark z as __initconst' ]"
why="lists: $(cat "$d"/000*.list 2>/dev/null | tr '\n\t' '| ')"
check "initdata: each list names its annotation for annotate.sh" \
	sh -c "grep -qx 'kernel/a.c	1	x	ro_after_init' '$d/0001.list' && \
		grep -qx 'kernel/a.c	1	y	initdata' '$d/0002.list' && \
		grep -qx 'kernel/a.c	1	z	initconst' '$d/0003.list' && \
		! grep -q '	y	' '$d/0001.list' '$d/0003.list'"
m=$(msg init kernel/a.c | tr -s ' ')
m2=$( { cat "$d/0002.msg"; echo ' --- '; cat "$d/0002.notes"; } 2>/dev/null | tr '\n' ' ' | tr -s ' ')
why="$m2"
case $m2 in
"a: Mark y as __initdata y is read and written only by __init code, and never after boot. Mark it __initdata, so that it is freed with the init sections once boot is done"*"It is written only by set_x(), which is __init."*"modpost, which reports any reference from other sections to init data as a section mismatch, reported none for it."*"static variables that only __init code reads and writes"*"Tested (level: booted): built into an x86_64 vmlinux, where modpost reported no section mismatch for it,"*"Signed-off-by: "*" --- "*"- finder: read and written only by __init code (1 writes): __initdata"*"- section check: the symbol is in .init.data of kernel/a.o and of vmlinux"*"- modpost: no section mismatch names it"*)
	ok "initdata: the commit message says why: __init only, freed with the init sections, no modpost mismatch" ;;
*)	not_ok "initdata: the commit message says why: __init only, freed with the init sections, no modpost mismatch" "$m2" ;;
esac
m3=$(tr '\n' ' ' <"$d/0003.msg" 2>/dev/null | tr -s ' ')
case $m3 in
*"z is const and read only by __init code, and never after boot. Mark it __initconst,"*"It is const: no function writes it."*)
	ok "initdata: an __initconst message says it is const" ;;
*)	not_ok "initdata: an __initconst message says it is const" "$m3" ;;
esac
why="$(cat "$d/cover.subject" 2>/dev/null)"
check "initdata: the cover letter's subject names the three annotations" \
	grep -qx 'a: Mark 3 variables as __ro_after_init, __initdata or __initconst' "$d/cover.subject"
why="$(tr '\n' ' ' <"$d/cover.blurb" 2>/dev/null | head -c 400)"
check "initdata: the cover letter counts each annotation" \
	sh -c "tr '\n' ' ' <'$d/cover.blurb' | tr -s ' ' | grep -q '1 as __ro_after_init, 1 as __initdata and 1 as __initconst'"
# The kind must agree with the finder's class.
sed 's/\ty\tstatic\tinitdata\t/\ty\tstatic\tro_after_init\t/' "$T/init.c" >"$T/initcls.c"
cp "$T/init.j" "$T/initcls.j"
plan initcls
expect_refused initcls 65 "y in kernel/a.c was accepted as __initdata but" \
	"initdata: accepted in .init.data but classed ro_after_init: exit 65, re-run validation"
sed "s/; section=.init.data//" "$T/init.j" >"$T/initev.j"
cp "$T/init.c" "$T/initev.c"
plan initev
expect_refused initev 65 "y in kernel/a.c was accepted as __ro_after_init but" \
	"initdata: classed initdata but validated as __ro_after_init: exit 65"

# ---- #1: queue.sh never empties a directory it did not make -------------------
# A git tree with the tags and identity queue.sh wants (no kernel needed:
# every refusal comes before the tree is used).
git init -q "$tree" && git -C "$tree" add -A &&
	git -C "$tree" -c user.name=T -c user.email=t@example.org commit -q -m t &&
	git -C "$tree" tag pristine && git -C "$tree" tag core &&
	git -C "$tree" config user.name T && git -C "$tree" config user.email t@example.org
# qrun DIR: queue.sh into DIR, exit status in $rc; nothing is accepted,
# so no spatch and no kernel scripts are needed.
{ echo "$jhead"; jrow x kernel/a.c rejected "violation: written by y"; } >"$T/none.j"
qrun() {
	sh "$qsh" "$T/none.j" "$T/good.c" "$tree" "$T/work" "$1" \
		>"$T/q.out" 2>"$T/q.err"
	rc=$?
}
mkdir -p "$T/precious"
echo "Linux kernel" >"$T/precious/README"
echo "uncommitted work" >"$T/precious/work.c"
qrun "$T/precious"
if [ "$rc" -eq 65 ] && [ -f "$T/precious/work.c" ] && [ -f "$T/precious/README" ] &&
   grep -qF "$T/precious is not empty and has no .ro-campaign-queue" "$T/q.err"; then
	ok "#1 a directory with a README and no marker is refused (exit 65), nothing deleted"
else
	not_ok "#1 a directory with a README and no marker is refused (exit 65), nothing deleted" \
		"exit $rc, work.c $([ -f "$T/precious/work.c" ] && echo kept || echo DELETED)"
fi
mkdir -p "$T/oldq/.plan" "$T/oldq/01-area"
echo "ro-campaign patch queue" >"$T/oldq/README"
: >"$T/oldq/series"
qrun "$T/oldq"
[ "$rc" -eq 65 ] && [ -f "$T/oldq/README" ] && grep -q 'delete it by hand' "$T/q.err" &&
	ok "#1 a queue made before the marker is refused with a hint to delete it by hand" ||
	not_ok "#1 a queue made before the marker is refused with a hint to delete it by hand" "exit $rc"
echo data >"$T/afile"
qrun "$T/afile"
[ "$rc" -eq 65 ] && [ "$(cat "$T/afile")" = data ] &&
	ok "#1 a QUEUE_DIR that is a file is refused, left as it was" ||
	not_ok "#1 a QUEUE_DIR that is a file is refused, left as it was" "exit $rc"
qrun "$T/newq"
[ -f "$T/newq/.ro-campaign-queue" ] &&
	ok "#1 queue.sh writes the marker into the queue directory it makes" ||
	not_ok "#1 queue.sh writes the marker into the queue directory it makes" "exit $rc: $(tail -n 1 "$T/q.err")"
echo stale >"$T/newq/stale"
qrun "$T/newq"
[ ! -e "$T/newq/stale" ] && [ -f "$T/newq/.ro-campaign-queue" ] &&
	ok "#1 a directory with the marker is emptied and made again" ||
	not_ok "#1 a directory with the marker is emptied and made again" "exit $rc"
mkdir -p "$T/empty"
qrun "$T/empty"
[ -f "$T/empty/.ro-campaign-queue" ] &&
	ok "#1 an empty directory becomes a queue" ||
	not_ok "#1 an empty directory becomes a queue" "exit $rc"
[ "$(cat "$T/empty/index.tsv" 2>/dev/null)" = "$(printf 'file\tline\tname\tannotation\tpatch')" ] &&
	ok "a queue without patches has index.tsv, its header only" ||
	not_ok "a queue without patches has index.tsv, its header only" "exit $rc: $(head -c 200 "$T/empty/index.tsv" 2>&1)"
# QUEUE_EXCLUDE is read by column name into queue plan's exclude list,
# file line name reason; the older columns file name reason get line "-".
printf 'name\treason\tfile\nx\told list\tkernel/a.c\n' >"$T/old.x"
QUEUE_EXCLUDE=$T/old.x qrun "$T/exq"
[ "$rc" -eq 0 ] && [ "$(cat "$T/exq/.core-only.tsv")" = "$(printf 'file\tline\tname\treason\nkernel/a.c\t-\tx\told list')" ] &&
	ok "QUEUE_EXCLUDE of the older columns, reordered: read by name, line '-'" ||
	not_ok "QUEUE_EXCLUDE of the older columns, reordered: read by name, line '-'" "exit $rc: $(tr '\n\t' '| ' <"$T/exq/.core-only.tsv" 2>&1)"
printf 'file\tname\nkernel/a.c\tx\n' >"$T/noreason.x"
QUEUE_EXCLUDE=$T/noreason.x qrun "$T/exq"
[ "$rc" -eq 65 ] && grep -q "noreason.x:1: .*reason" "$T/q.err" &&
	ok "QUEUE_EXCLUDE without a reason column: exit 65 naming FILE:1" ||
	not_ok "QUEUE_EXCLUDE without a reason column: exit 65 naming FILE:1" "exit $rc: $(head -c 200 "$T/q.err")"

# Issue 34 item 7: with a relative WORK, "git -C TREE worktree add
# WORK/qtree" made the worktree inside TREE.  queue.sh makes WORK
# absolute first: the worktrees land in WORK, relative to the caller.
mkdir -p "$T/cwd"
(cd "$T/cwd" && sh "$qsh" "$T/none.j" "$T/good.c" "$tree" rel-work "$T/relq") \
	>"$T/q.out" 2>"$T/q.err"
rc=$?
if [ "$rc" -eq 0 ] && [ -d "$T/cwd/rel-work/qtree" ] && [ ! -e "$tree/rel-work" ] &&
   git -C "$tree" worktree list --porcelain | grep -qxF "worktree $T/cwd/rel-work/qtree"; then
	ok "issue 34 #7: a relative WORK puts the worktrees in WORK, not inside TREE"
else
	not_ok "issue 34 #7: a relative WORK puts the worktrees in WORK, not inside TREE" \
		"exit $rc, $(ls -d "$tree/rel-work" "$T/cwd/rel-work/qtree" 2>&1 | tr '\n' ' ')"
fi

# QUEUE_ALLOW_BUILT=1 reaches queue plan as --allow-built (make queue and
# queue.sh); any other value than 0 or 1 is a usage error.
QUEUE_ALLOW_BUILT=1 sh "$qsh" "$T/none.j" "$T/good.c" "$tree" "$T/work" \
	"$T/allowq" >"$T/q.out" 2>"$T/q.err"
rc=$?
[ "$rc" -eq 0 ] && grep -q '^Only built: 0 queued (--allow-built)' "$T/allowq/README" &&
	ok "levels: queue.sh passes QUEUE_ALLOW_BUILT=1 on as --allow-built" ||
	not_ok "levels: queue.sh passes QUEUE_ALLOW_BUILT=1 on as --allow-built" "exit $rc: $(tail -n 1 "$T/q.err")"
sh "$qsh" "$T/none.j" "$T/good.c" "$tree" "$T/work" "$T/allowd" >"$T/q.out" 2>"$T/q.err"
grep -q '^Only built: 0 accepted but left out' "$T/allowd/README" &&
	ok "levels: without QUEUE_ALLOW_BUILT queue.sh leaves the only-built ones out" ||
	not_ok "levels: without QUEUE_ALLOW_BUILT queue.sh leaves the only-built ones out" "$(tail -n 1 "$T/q.err")"
QUEUE_ALLOW_BUILT=yes sh "$qsh" "$T/none.j" "$T/good.c" "$tree" "$T/work" \
	"$T/allowy" >"$T/q.out" 2>"$T/q.err"
rc=$?
[ "$rc" -eq 64 ] && grep -q 'QUEUE_ALLOW_BUILT=yes: must be 1' "$T/q.err" &&
	ok "levels: QUEUE_ALLOW_BUILT=yes is refused (exit 64)" ||
	not_ok "levels: QUEUE_ALLOW_BUILT=yes is refused (exit 64)" "exit $rc"
make -s -n -C "$root" queue QUEUE_ALLOW_BUILT=1 2>&1 | grep -q 'QUEUE_ALLOW_BUILT=1 ' &&
	ok "levels: make queue QUEUE_ALLOW_BUILT=1 hands it to queue.sh" ||
	not_ok "levels: make queue QUEUE_ALLOW_BUILT=1 hands it to queue.sh" "not in make -n queue"

# ---- queue-bisect.sh without a kernel: what it refuses, and a patch that
# does not apply (no build is tried; the README says so, once) ----------------
bq=$T/bq
mkdir -p "$bq/01-test-area" "$bq/.plan/01-test-area"
printf '01-test-area/0001-a-Mark-y.patch\n' >"$bq/series"
printf '0001-a-Mark-y.patch\n' >"$bq/01-test-area/series"
printf 'file\tline\tname\nkernel/a.c\t1\ty\n' >"$bq/.plan/01-test-area/0001.list"
cat >"$bq/01-test-area/0001-a-Mark-y.patch" <<'PATCH'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: T <t@example.org>
Date: Fri, 10 Jan 2025 09:00:00 +0000
Subject: [PATCH] a: Mark y as __ro_after_init

Signed-off-by: T <t@example.org>
---
 kernel/a.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/kernel/a.c b/kernel/a.c
--- a/kernel/a.c
+++ b/kernel/a.c
@@ -1,3 +1,3 @@
-int y;
+int y __ro_after_init;
 
 static int __init set_y(char *s)
PATCH
printf 'ro-campaign patch queue\n\nBisect check (make queue-check-bisect, fast profile): old\n  pass stale\n(end of the bisect check)\n' >"$bq/README"
sh "$root/patches/queue-bisect.sh" --sample x "$bq" "$tree" "$T/work" fast >"$T/b.out" 2>&1
rc=$?
[ "$rc" -eq 64 ] && grep -q 'QUEUE_BISECT_SAMPLE=x: must be a number' "$T/b.out" &&
	ok "bisect: a sample that is not a number is refused (exit 64)" ||
	not_ok "bisect: a sample that is not a number is refused (exit 64)" "exit $rc"
sh "$root/patches/queue-bisect.sh" "$T/no-queue" "$tree" "$T/work" fast >"$T/b.out" 2>&1
rc=$?
[ "$rc" -eq 65 ] && grep -q 'no queue (run make queue first)' "$T/b.out" &&
	ok "bisect: no queue is refused (exit 65)" ||
	not_ok "bisect: no queue is refused (exit 65)" "exit $rc"
if [ -x "$root/qemu-boot/boot" ]; then
	sh "$root/patches/queue-bisect.sh" "$bq" "$tree" "$T/work" fast >"$T/b.out" 2>&1
	rc=$?
	if [ "$rc" -eq 1 ] && [ "$(grep -c '^Bisect check' "$bq/README")" -eq 1 ] &&
	   ! grep -q stale "$bq/README" &&
	   grep -qx '  FAIL 01-test-area/0001-a-Mark-y.patch: applied FAILED: does not apply on core; build -; -; boot -' "$bq/README" &&
	   grep -q '^Checked: 1 of 1 patches, every patch; 1 FAILED.$' "$bq/README" &&
	   ! grep -q 'build-kernel' "$T/b.out"; then
		ok "bisect: a patch that does not apply alone fails (exit 1), no build; the README's section is replaced, not added"
	else
		not_ok "bisect: a patch that does not apply alone fails (exit 1), no build; the README's section is replaced, not added" "exit $rc: $(tr '\n' '|' <"$bq/README")"
	fi
else
	ok "bisect: a patch that does not apply alone fails # SKIP qemu-boot/boot not built (make programs)"
fi

# ---- exit codes -----------------------------------------------------------------
"$bin" plan --journal "$T/good.j" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 64 ] && ok "queue plan with missing options exits 64" ||
	not_ok "queue plan with missing options exits 64" "exit $rc"
sh "$qsh" a b >/dev/null 2>&1
rc=$?
[ "$rc" -eq 64 ] && ok "queue.sh with wrong arguments exits 64" ||
	not_ok "queue.sh with wrong arguments exits 64" "exit $rc"

# A writer that is init-only by its callers: "static" only when it is.
printf 'int y;\nint z;\n\nvoid set_y(void)\n{\n\ty = 1;\n}\n\nstatic void set_z(void)\n{\n\tz = 1;\n}\n' \
	>"$tree/kernel/b.c"
{
	echo "$chead"
	crow y kernel/b.c "1 init-only writes, 0 escapes in init-only code" \
		kernel/b.c:6:set_y:assign
	crow z kernel/b.c "1 init-only writes, 0 escapes in init-only code" \
		kernel/b.c:11:set_z:assign
} >"$T/wk.c"
{
	echo "$jhead"
	jrow y kernel/b.c accepted "$ev"
	jrow z kernel/b.c accepted "$ev"
} >"$T/wk.j"
plan wk
notes=$(cat "$T/wk.q/.plan"/*/*.notes 2>/dev/null | tr '\n' ' ' | tr -s ' ')
case $notes in
*"set_y() (kernel/b.c:4) is called only from init-only code in the whole tree"*"set_z() (kernel/b.c:9) is static and called only from init-only code"*)
	ok "a global init-only writer is not called static, a static one is" ;;
*)
	not_ok "a global init-only writer is not called static, a static one is" "exit $rc: $notes" ;;
esac
rm -f "$tree/kernel/b.c"
finish
