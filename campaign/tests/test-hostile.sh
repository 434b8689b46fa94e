#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-hostile.sh - relative paths and missing inputs on campaign.sh,
# make validate and the report (issue 34).  A relative WORK must not put
# the validation work tree inside the user's TREE (git -C TREE reads a
# relative path from there).  campaign.sh runs in a copy of the
# checkout's layout whose stage programs are stubs, on a tiny git
# repository that stands for the kernel tree.  Seconds, no build.

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
. "$top/lib/tap.sh"

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT INT TERM

# all "SHELL-CONDITION": for check, a condition of several commands
all() {
	eval "$1"
}

# mk_tree DIR: a tiny "prepared" tree, tag core
mk_tree() {
	mkdir -p "$1/init"
	printf 'VERSION = 6\n' >"$1/Makefile"
	printf 'int x;\n' >"$1/init/main.c"
	git -C "$1" init -q
	git -C "$1" add -A
	git -C "$1" -c user.name=t -c user.email=t@localhost \
		-c commit.gpgsign=false commit -q -m core
	git -C "$1" tag core
	echo core-hash >"$1/.git/ro-campaign-core"
}

# ---- campaign.sh with a relative TREE and WORK -------------------------------

r=$t/root
mkdir -p "$r/campaign" "$r/lib" "$r/cocci" "$r/candidates" "$r/validate" \
	"$r/patches" "$r/qemu-boot" "$t/bin" "$t/cwd"
cp "$here/campaign.sh" "$r/campaign/campaign.sh"
cp "$top/lib/tsv.sh" "$top/lib/args.sh" "$r/lib/"
stub() {	# stub PATH BODY
	printf '#!/bin/sh\necho "%s $*" >>"$STUB_LOG"\n%s\n' "${1##*/}" "$2" >"$1"
	chmod +x "$1"
}
printf 'file\tline\tname\tstorage\tclass\tconfidence\treason\tevidence\ninit/main.c\t1\tx\tglobal\tro_after_init\thigh\tw\tinit/main.c:1:f:assign\n' >"$t/cands.tsv"
printf 'file\tline\tname\tstorage\tsection\n' >"$t/funcs.tsv"
stub "$r/cocci/run-facts.sh" 'mkdir -p "$4" && printf "init/main.c\n" >"$4/files.txt" && cp "$FIX_FUNCS" "$4/funcs.tsv"'
stub "$r/candidates/candidates" 'cp "$FIX_CANDS" "$4"'
stub "$r/validate/validate" 'exit 70'
for p in campaign/report validate/cover-plan patches/queue qemu-boot/boot; do
	stub "$r/$p" "exit 0"
done
stub "$t/bin/spatch" 'exit 0'
mk_tree "$t/tree"
export STUB_LOG="$t/calls" FIX_FUNCS="$t/funcs.tsv" FIX_CANDS="$t/cands.tsv"
export PATH="$t/bin:$PATH" JOBS=1
unset VTREE
(cd "$t/cwd" && sh "$r/campaign/campaign.sh" --scope init ../tree w) >"$t/c.out" 2>&1
rc=$?
why="exit $rc: $(tail -n 4 "$t/c.out" | tr '\n' ' ')"
check "campaign.sh TREE=../tree WORK=w: the work tree is WORK/vtree, nothing is added inside TREE" \
	all '[ -f "$t/cwd/w/vtree/init/main.c" ] && [ ! -e "$t/tree/w" ] &&
		git -C "$t/tree" worktree list | grep -q "^$t/cwd/w/vtree "'

# ---- make validate with a relative WORK --------------------------------------

# TREE deeper than this checkout: WORK's ../ must not resolve from it
deep=$t/1/2/3/4/5/6/7/8/9/10/11/12
mk_tree "$deep/tree"
mkdir -p "$t/mw"
rel=$(realpath --relative-to="$top" "$t/mw")
env -u WORK -u VTREE -u USER_TREE -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$top" -s validate TREE="$deep/tree" \
	WORK="$rel" CANDIDATES="$t/none.tsv" >"$t/mv.out" 2>&1
why="$(tail -n 4 "$t/mv.out" | tr '\n' ' ')"
check "make validate WORK=$rel (relative): the work tree is WORK/vtree" \
	all '[ -f "$t/mw/vtree/init/main.c" ] &&
		git -C "$deep/tree" worktree list | grep -q "^$t/mw/vtree "'

# ---- report --queue: a directory that is not there ------------------------------

printf 'file\tline\tname\tstorage\tclass\tconfidence\treason\tevidence\n' >"$t/rc.tsv"
mkdir -p "$t/rep" "$t/rep2"
printf 'time\tvariable\tfile\tline\tbatch\tverdict\tevidence\tlevel\tconfig_hash\tcore_hash\n' >"$t/rj.tsv"
"$here/report" --candidates "$t/rc.tsv" --journal "$t/rj.tsv" --out "$t/rep" \
	--queue "$t/no-such-queue" >"$t/rep.out" 2>&1
rc=$?
why="exit $rc: $(tr '\n' ' ' <"$t/rep.out")"
check "report --queue /nonexistent: exit 65 naming it, no report written" \
	all '[ $rc -eq 65 ] && grep -q "no-such-queue: no such directory" "$t/rep.out" &&
		[ ! -e "$t/rep/report.html" ]'
mkdir -p "$t/empty-queue"
"$here/report" --candidates "$t/rc.tsv" --journal "$t/rj.tsv" --out "$t/rep2" \
	--queue "$t/empty-queue" >"$t/rep2.out" 2>&1
rc=$?
why="exit $rc: $(tr '\n' ' ' <"$t/rep2.out")"
check "report --queue on a queue with no patches (no series): a report, exit 0" \
	all '[ $rc -eq 0 ] && [ -f "$t/rep2/report.html" ]'

finish
