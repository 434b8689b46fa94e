#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cocci/callers: the functions whose every mention in the tree is a
# direct call from init-only code.  A fixture tree with each case (only
# __init callers, a runtime caller, address taken, EXPORT_SYMBOL, a .S
# caller, a #define body, a string, a transitive chain, two arches, #if
# branches, a pasted name, a struct member of the same name, recursion,
# an attribute between ')' and '{', an unbalanced file), then, with TREE
# set, the real tree.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=$here/../callers
fx=$here/fixtures/callers
. "$here/../../lib/tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-callers.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

[ -x "$bin" ] || { not_ok "cocci/callers is built" "run make programs"; finish; exit 1; }
(cd "$fx" && find . -type f | sed 's|^\./||' | sort) >"$tmp/list"
"$bin" "$fx" "$tmp/list" >"$tmp/out" 2>"$tmp/err"
check "fixture: exit 0" [ $? -eq 0 ]
check "fixture: the header is 'name defs calls callers caller file line via'" \
	sh -c "head -n 1 '$tmp/out' | grep -qx 'name	defs	calls	callers	caller	file	line	via'"

row() {	# NAME DEFS CALLER FILE LINE: that row is printed
	grep -q "^$1	$2	[0-9]*	[0-9]*	$3	$4	$5	[^	]*\$" "$tmp/out"
}
while IFS='|' read -r name defs caller file line what; do
	check "fixture: $what ($name, first caller $caller)" \
		row "$name" "$defs" "$caller" "$file" "$line"
done <<'ROWS'
only_init|1|boot|init/boot.c|9|a global called only from __init
g2|1|boot|init/boot.c|16|a global called only from __init, which calls g1
g1|1|g2|lib/funcs.c|60|transitive: called only from g2, itself init-only by its callers
mixed_def|2|boot|init/boot.c|17|__init in arch a, not in arch b, called only from __init
member_named|1|boot|init/boot.c|22|a struct member of the same name is no mention
vendor_bsp|1|vendor_identify|lib/members.c|59|stored only in .bsp_hook, which only __init code calls through
vendor_set_helper|1|vendor_identify|lib/members.c|66|stored in p->set_hook in __init code, called through it only there
vendor_set|1|vendor_set_helper|lib/members.c|42|called only from a function init-only through a member
recur|1|boot|init/boot.c|23|its call to itself is no caller
attr_caller|1|boot|init/boot.c|25|a definition with __acquires() between ')' and '{'
attr_callee|1|attr_caller|lib/funcs.c|104|its body is attr_caller's, not __acquires'
ROWS

absent() {	# NAME: no row
	! cut -f 1 "$tmp/out" | grep -qxF "$1"
}
while IFS='|' read -r name what; do
	check "fixture: $name is not init-only: $what" absent "$name"
done <<'ROWS'
also_runtime|also called from a runtime function
addr_taken|its address is taken in an initializer
exported|EXPORT_SYMBOL_GPL
asm_called|called from a .S file
in_define|called in a #define body
by_string|named in a string (kallsyms_lookup_name)
arch_setup|__init in arch a, runtime caller
two_arch_callee|its caller arch_setup is __init in one arch only, and called at runtime
if_branch_callee|called in the #if branch of a runtime function
else_branch_callee|called in the #else branch of a runtime function
pasted_bar|a macro builds its name with pasted_##x
in_unbalanced|its only call is in a file whose braces do not balance
all_init|__init everywhere: no row (a per-file analysis sees it)
vendor_rt|stored in .rt_hook, which a runtime function calls through
vendor_read|stored in .read_hook, whose value is read into a pointer
vendor_pv|stored in .pv_hook, a macro argument that the macro may call
vendor_def|stored in .def_hook, which a #define body calls through
ROWS

"$bin" --why all_init --why in_define --why also_runtime --why in_unbalanced \
	--why g1 --why nosuchname "$fx" "$tmp/list" >"$tmp/why" 2>&1
check "--why: exit 0" [ $? -eq 0 ]
why() {	# NAME VERDICT TEXT: --why says so
	grep -q "^$1	$2	.*$3" "$tmp/why" || { why=$(cat "$tmp/why"); false; }
}
check "--why: all_init is __init everywhere" why all_init init "all 2 definitions are __init"
check "--why: in_define names the #define" why in_define no "#define body at init/boot.c:5"
check "--why: also_runtime names its runtime caller" why also_runtime no "called from runtime_fn at lib/funcs.c:21"
check "--why: in_unbalanced names the unbalanced file" why in_unbalanced no "do not balance at drivers/unbalanced.c"
check "--why: g1 names its first caller" why g1 callers "first g2 at lib/funcs.c:60"
check "--why: a name never mentioned" why nosuchname no "never mentioned"
"$bin" --why vendor_rt --why vendor_read --why vendor_pv --why vendor_def --why vendor_bsp \
	"$fx" "$tmp/list" >"$tmp/why" 2>&1
check "--why: vendor_bsp names the member it is stored in" why vendor_bsp callers "first vendor_identify at lib/members.c:59; stored in bsp_hook"
check "--why: vendor_rt names the runtime call through its member" why vendor_rt no "stored in member rt_hook at lib/members.c:47: ->rt_hook() is called from vendor_resume at lib/members.c:71"
check "--why: vendor_read names the read of its member" why vendor_read no "member read_hook: a mention that is not a call at lib/members.c:61"
check "--why: vendor_pv names the macro argument" why vendor_pv no "member pv_hook: a mention that is not a call at lib/members.c:62"
check "--why: vendor_def names the #define body" why vendor_def no "member def_hook: a mention in a #define body at lib/members.c:14"
check "fixture: vendor_bsp's via column is its member" \
	grep -q "^vendor_bsp	.*	bsp_hook\$" "$tmp/out"
"$bin" --stats "$fx" "$tmp/list" >/dev/null 2>"$tmp/stats"
check "--stats names the unbalanced file and the line" \
	grep -q "^callers: unbalanced: drivers/unbalanced.c:17: a '}' closes more than was opened" "$tmp/stats"

printf 'init/boot.c\nmissing.c\n' >"$tmp/list2"
"$bin" "$fx" "$tmp/list2" >"$tmp/out2" 2>"$tmp/err2"
rc=$?
check "a file that cannot be read: exit 1, named" \
	sh -c "[ $rc -eq 1 ] && grep -q 'missing.c' '$tmp/err2'"
"$bin" >/dev/null 2>&1
check "no arguments: usage, exit 64" [ $? -eq 64 ]
"$bin" "$fx" "$tmp/nolist" >/dev/null 2>"$tmp/err3"
check "LIST that does not exist: exit 65 (bad input), named" \
	sh -c "[ $? -eq 65 ] && grep -q nolist '$tmp/err3'"
"$bin" --help >/dev/null 2>&1
check "--help: exit 0" [ $? -eq 0 ]

if [ -n "${TREE-}" ] && [ -f "$TREE/kernel/dma/coherent.c" ]; then
	(cd "$TREE" && git ls-files -- '*.c' '*.h' '*.S' '*.s' '*.rs' '*.tbl' \
		'*.lds' '*.ld' ':!tools' ':!scripts' ':!Documentation' \
		':!samples') >"$tmp/tree.list"
	t0=$(date +%s)
	"$bin" "$TREE" "$tmp/tree.list" >"$tmp/tree.out" 2>"$tmp/tree.err"
	rc=$? t1=$(date +%s)
	echo "# whole tree: $(wc -l <"$tmp/tree.list") files, $(($(wc -l <"$tmp/tree.out") - 1)) rows in $((t1 - t0)) s"
	check "whole tree: exit 0" [ "$rc" -eq 0 ]
	# another list moves names[] at other moments: interning a name
	# grows it, and an index expression must not hold the old array
	# (a read of a file-scope macro argument crashed on this list)
	grep -v '\.\(rs\|tbl\|lds\|ld\|s\)$' "$tmp/tree.list" >"$tmp/tree-c.list"
	"$bin" "$TREE" "$tmp/tree-c.list" >/dev/null 2>&1
	check "whole tree, .c, .h and .S files only: exit 0" [ $? -eq 0 ]
	# kernel/dma/coherent.c: only the arch's __init DMA setup calls it
	check "whole tree: dma_init_global_coherent is init-only by its callers" \
		grep -q '^dma_init_global_coherent	' "$tmp/tree.out"
	# arch/x86/kernel/apic/apic.c: setup_local_APIC() also runs when a
	# CPU comes up, after init
	check "whole tree: disable_ioapic_support is not (setup_local_APIC calls it)" \
		sh -c "! grep -q '^disable_ioapic_support	' '$tmp/tree.out'"
	check "whole tree: printk is not" \
		sh -c "! grep -q '^printk	' '$tmp/tree.out'"
else
	ok "whole tree # SKIP TREE not set"
fi
finish
