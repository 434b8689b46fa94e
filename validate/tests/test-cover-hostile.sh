#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-cover-hostile.sh - cover-plan and validate's git on careless and
# hostile input (issue 34, items 4, 5 and 8; issue 29, item 3), on small
# fixture trees made here: a Kconfig "config" line without a name, .c
# files that #include each other, twelve composites that name each other,
# $(obj)/ and $(objtree)/ members, a kbuild file that includes another
# (virt/kvm/Makefile.kvm's kvm-y := $(KVM)/kvm_main.o), relative paths,
# and a full disk under git rev-parse.  The fixture's olddefconfig keeps
# the .config as scripts/config left it (only the kbuild side is judged
# here; test-cover-plan.sh runs the real Kconfig).  Seconds, no build.
#
# Usage: test-cover-hostile.sh [--help]   (TREE: a kernel tree, for its
# scripts/config; WORK as for make test)

case ${1:-} in
-h | --help)
	sed -n '3,15p' "$0" | sed 's/^# \{0,1\}//'
	exit 0 ;;
esac

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
WORK=${WORK:-$HOME/.cache/ro-campaign}
TREE=${TREE:-$WORK/linux}
bin=$here/cover-plan
. "$top/lib/tap.sh"

make -C "$top" -s validate/cover-plan validate/validate >/dev/null ||
	{ not_ok "build validate/cover-plan and validate" "make failed"; finish; }
[ -x "$TREE/scripts/config" ] ||
	{ not_ok "a kernel tree's scripts/config" "no $TREE (make setup)"; finish; }

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT INT TERM
tab=$(printf '\t')

# mk FILE LINE...: FILE in the fixture tree $fx, one argument a line
mk() {
	_f=$fx/$1
	shift
	mkdir -p "$(dirname "$_f")"
	printf '%s\n' "$@" >"$_f"
}

# The fixture tree.
fx=$t/fx
mkdir -p "$fx/scripts"
cp "$TREE/scripts/config" "$fx/scripts/config"
syms="KVM CYC OBJP OT MI"
for s in $syms; do
	printf 'config %s\n\ttristate "%s"\n\n' "$s" "$s"
done >"$t/Kconfig"
mkdir -p "$fx" && cp "$t/Kconfig" "$fx/Kconfig"
mk Kbuild "# the top"
mk Makefile "obj-y += drivers/" "" "olddefconfig:" \
	"	@test -f \"\$(O)/.config\" || { echo \"fixture: no \$(O)/.config (O is relative to the tree)\" >&2; exit 1; }"
mk arch/x86/Makefile "core-y += arch/x86/"
mk arch/x86/Kbuild 'obj-$(CONFIG_KVM) += kvm/'
mk arch/x86/kvm/Makefile "ccflags-y += -I \$(srctree)/arch/x86/kvm" "" \
	'include $(srctree)/virt/kvm/Makefile.kvm' "" 'obj-$(CONFIG_KVM) += kvm.o'
mk virt/kvm/Makefile.kvm 'KVM ?= ../../../virt/kvm' "" \
	'kvm-y := $(KVM)/kvm_main.o'
mk virt/kvm/kvm_main.c "int kvm_main;"
mk drivers/Makefile 'obj-$(CONFIG_CYC) += cyc/' \
	"obj-y += inc/ objp/ ot/ acyc/ mi/"
mk drivers/inc/Makefile "obj-y += other.o"
mk drivers/inc/a.c '#include "b.c"'
mk drivers/inc/b.c '#include "a.c"'
# twelve composites, each naming the other eleven and x.o
i=1
while [ $i -le 12 ]; do
	l="c$i-y := x.o"
	j=1
	while [ $j -le 12 ]; do
		[ $j -eq $i ] || l="$l c$j.o"
		j=$((j + 1))
	done
	echo "$l"
	i=$((i + 1))
done >"$t/cyc.mk"
{ echo 'obj-$(CONFIG_CYC) += c1.o'; cat "$t/cyc.mk"; } >"$t/cyc.mk2"
mkdir -p "$fx/drivers/cyc" && cp "$t/cyc.mk2" "$fx/drivers/cyc/Makefile"
mk drivers/cyc/x.c "int x;"
mk drivers/objp/Makefile 'obj-$(CONFIG_OBJP) += $(obj)/objp.o'
mk drivers/objp/objp.c "int objp;"
mk drivers/ot/Makefile 'obj-$(CONFIG_OT) += $(objtree)/drivers/ot/ot.o'
mk drivers/ot/ot.c "int ot;"
mk drivers/acyc/Makefile "a-y := b.o y.o" "b-y := a.o y.o"
mk drivers/acyc/y.c "int y;"
mk drivers/mi/Makefile 'include $(srctree)/drivers/mi/Makefile' \
	'obj-$(CONFIG_MI) += mi.o'
mk drivers/mi/mi.c "int mi;"
echo "CONFIG_64BIT=y" >"$t/base.config"
(cd "$fx" && find . -type f | LC_ALL=C sort | xargs cksum) >"$t/fx.before"

# cand FILE...: a candidates TSV naming FILEs
cand() {
	echo "file${tab}line${tab}name${tab}storage${tab}class${tab}confidence${tab}reason${tab}evidence"
	for f in "$@"; do
		echo "$f${tab}1${tab}v${tab}static${tab}ro_after_init${tab}high${tab}r${tab}-"
	done
}
# field PLAN FILE COLUMN
field() {
	awk -F '\t' -v f="$2" -v c="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["file"] == f { print $col[c] }' "$1"
}
# expect PLAN FILE COLUMN VALUE
expect() {
	got=$(field "$1" "$2" "$3")
	why="$2: $3 is '$got', not '$4'"
	[ "$got" = "$4" ]
}
expect_has() {
	got=$(field "$1" "$2" "$3")
	why="$2: $3 '$got' lacks '$4'"
	case $got in *"$4"*) return 0 ;; esac
	return 1
}
# ms: milliseconds since the epoch
ms() { echo $(($(date +%s%N) / 1000000)); }

# ---- the composites that name each other: linear, not exponential ------
# CYC is in the base: no scripts/config run, the time is the resolver's.
cand drivers/cyc/x.c >"$t/cyc.tsv"
{ cat "$t/base.config"; echo "CONFIG_CYC=m"; } >"$t/base-cyc.config"
s=$(ms)
timeout 20 "$bin" --candidates "$t/cyc.tsv" --tree "$fx" \
	--config "$t/base-cyc.config" --out "$t/o-cyc" >"$t/o-cyc.out" 2>&1
rc=$?
took=$(($(ms) - s))
check "twelve composites that name each other: exit 0 (got $rc)" [ $rc -eq 0 ]
check "... in well under a second (took $took ms)" [ $took -lt 900 ]
check "... x.c is buildable through c1.o" \
	expect "$t/o-cyc/plan.tsv" drivers/cyc/x.c state buildable
check "... with CONFIG_CYC" expect "$t/o-cyc/plan.tsv" drivers/cyc/x.c symbols CONFIG_CYC

# ---- two .c files that #include each other: a bound, not a crash -------
cand drivers/inc/a.c >"$t/inc.tsv"
timeout 20 "$bin" --candidates "$t/inc.tsv" --tree "$fx" \
	--config "$t/base.config" --out "$t/o-inc" >"$t/o-inc.out" 2>&1
rc=$?
check "a.c and b.c #include each other: exit 0 (got $rc)" [ $rc -eq 0 ]
check "... a.c is unmet" expect "$t/o-inc/plan.tsv" drivers/inc/a.c state unmet
check "... the detail says why" \
	expect_has "$t/o-inc/plan.tsv" drivers/inc/a.c detail "which it #includes in turn"

# ---- the rest of the kbuild side, in one run ----------------------------
cand virt/kvm/kvm_main.c drivers/objp/objp.c \
	drivers/ot/ot.c drivers/acyc/y.c drivers/mi/mi.c >"$t/all.tsv"
timeout 20 "$bin" --candidates "$t/all.tsv" --tree "$fx" \
	--config "$t/base.config" --out "$t/o" >"$t/o.out" 2>"$t/o.err"
rc=$?
check "the fixture tree: exit 0 (got $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/# /' "$t/o.err"
p=$t/o/plan.tsv
check "kvm_main.c: through arch/x86/kvm's include of virt/kvm/Makefile.kvm" \
	expect "$p" virt/kvm/kvm_main.c symbols CONFIG_KVM
check "kvm_main.c: buildable" expect "$p" virt/kvm/kvm_main.c state buildable
check "\$(obj)/objp.o is objp.o: buildable" \
	expect "$p" drivers/objp/objp.c symbols CONFIG_OBJP
check "\$(objtree)/drivers/ot/ot.o in drivers/ot is ot.o: buildable" \
	expect "$p" drivers/ot/ot.c symbols CONFIG_OT
check "composites that name each other and nothing links: unmet" \
	expect "$p" drivers/acyc/y.c state unmet
check "... the detail says they name each other" \
	expect_has "$p" drivers/acyc/y.c detail "name each other"
check "a Makefile that includes itself: still read, mi.c buildable" \
	expect "$p" drivers/mi/mi.c symbols CONFIG_MI
check "... and a warning names FILE:LINE" grep -q "drivers/mi/Makefile:1: include" "$t/o.err"

# ---- relative paths: --out, --tree and --candidates from another cwd ----
mkdir "$t/cwd"
cand drivers/objp/objp.c >"$t/objp.tsv"
(cd "$t/cwd" && timeout 20 "$bin" --candidates ../objp.tsv --tree ../fx \
	--config ../base.config --out rel/out >"$t/rel.out" 2>&1)
rc=$?
check "a relative --out and --tree: exit 0 (got $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/# /' "$t/rel.out"
check "... the plan is in CWD/rel/out" expect "$t/cwd/rel/out/plan.tsv" drivers/objp/objp.c state buildable
check "... nothing in the tree" [ ! -e "$fx/rel" ]
"$bin" --candidates "$t/objp.tsv" --tree "$fx" --config "$t/base.config" \
	--out "$fx/drivers/../out" >"$t/in.out" 2>&1
rc=$?
check "an --out inside the tree: exit 64 (got $rc)" [ $rc -eq 64 ]
check "... nothing made there" [ ! -e "$fx/out" ]
(cd "$fx" && find . -type f | LC_ALL=C sort | xargs cksum) >"$t/fx.after"
check "the fixture tree is unchanged" cmp -s "$t/fx.before" "$t/fx.after"

# ---- Kconfig: a config line with no name is FILE:LINE, 65 ---------------
cp -R "$fx" "$t/bad"
printf 'config BAD\n\ttristate "bad"\nconfig\n\tbool\n' >"$t/bad/drivers/Kconfig"
printf 'source "drivers/Kconfig"\n' >>"$t/bad/Kconfig"
"$bin" --candidates "$t/objp.tsv" --tree "$t/bad" --config "$t/base.config" \
	--out "$t/o-bad" >"$t/bad.out" 2>&1
rc=$?
check "a config line without a name: exit 65 (got $rc)" [ $rc -eq 65 ]
check "... naming FILE:LINE" grep -q "drivers/Kconfig:3: " "$t/bad.out"
printf 'menuconfig A B\n' >"$t/bad/drivers/Kconfig"
"$bin" --candidates "$t/objp.tsv" --tree "$t/bad" --config "$t/base.config" \
	--out "$t/o-bad" >"$t/bad.out" 2>&1
rc=$?
check "a menuconfig line with two names: exit 65 (got $rc)" [ $rc -eq 65 ]
check "... naming FILE:LINE" grep -q "drivers/Kconfig:1: " "$t/bad.out"

# ---- validate: a full disk under git rev-parse is not "no commit" ------
g=$t/g
mkdir -p "$g" "$t/vj" "$t/vw"
git -C "$g" init -q && echo x >"$g/f.c" && git -C "$g" add f.c &&
	git -C "$g" -c user.name=t -c user.email=t@t commit -qm x &&
	git -C "$g" tag core
cand f.c >"$t/v.tsv"
ln -s /dev/full "$t/vj/rev.out"
"$here/validate" --candidates "$t/v.tsv" --tree "$g" --work "$t/vw" \
	--journal "$t/vj/journal.tsv" >"$t/v.out" 2>&1
rc=$?
check "git rev-parse on a full disk: exit 70, not 64 (got $rc)" [ $rc -eq 70 ]
check "... with git's message" grep -q "No space left on device" "$t/v.out"
rm "$t/vj/rev.out"
"$here/validate" --candidates "$t/v.tsv" --tree "$g" --work "$t/vw" \
	--journal "$t/vj/journal.tsv" --base nosuch >"$t/v.out" 2>&1
rc=$?
check "a missing commit is still a usage error: 64 (got $rc)" [ $rc -eq 64 ]
check "... no commit 'nosuch'" grep -q "no commit 'nosuch'" "$t/v.out"

finish
