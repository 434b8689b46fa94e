#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Real spatch through cocci/run-facts.sh on parse-fixtures/*.c: kernel
# constructs that spatch cannot parse without cocci/macros.h and
# cocci/builtins.h (statement iterators, SET_*_PM_OPS initializers,
# MACHINE_START, block, declaration and attribute macros, 6.12's
# attributes and loops, an attribute after a struct definition's
# declarator, string macros) or without the scratch copy (asm goto,
# case A...B)
# parse, and give the right facts; what spatch still cannot parse is
# recorded in errors.tsv with its regions' lines.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cocci=$here/..
fx=$here/parse-fixtures
. "$here/../../lib/tap.sh"

command -v spatch >/dev/null || { echo "1..0 # SKIP spatch missing"; exit 1; }
[ -x "$cocci/mentions" ] || { echo "1..0 # SKIP cocci/mentions not built"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-parse.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

mkdir "$tmp/tree"
cp "$fx"/*.c "$tmp/tree/" || exit 1
(cd "$tmp/tree" && ls *.c >"$tmp/list" && git init -q . && git add . &&
	git -c user.name=t -c user.email=t@t commit -qm t) || exit 1
mkdir "$tmp/scratch"
if TMPDIR=$tmp/scratch sh "$cocci/run-facts.sh" -j 2 --list "$tmp/list" "$tmp/tree" "$tmp/facts" \
	2>"$tmp/log"; then
	ok "run-facts.sh exits 0"
else
	not_ok "run-facts.sh exits 0" "$(tail -n 1 "$tmp/log")"
fi
E=$tmp/facts/errors.tsv

# parses FILE: no errors.tsv row for FILE
parses() {
	if grep -q "^$1	" "$E"; then
		not_ok "$1 parses ($2)" "$(grep "^$1	" "$E" | cut -f 2 | cut -c 1-120)"
	else
		ok "$1 parses ($2)"
	fi
}
# row TABLE 'FIELDS' DESC: the row is in TABLE.tsv
row() {
	grep -qxF "$(printf "$2")" "$tmp/facts/$1.tsv" && ok "$3" ||
		not_ok "$3" "no row $(printf "$2" | tr '\t' ' ')"
}
parses iterators.c "scoped_guard, with_intel_runtime_pm"
row funcs 'iterators.c\t6\tit_walk\tstatic\t-' "a function with a scoped_guard is seen"
row writes 'iterators.c\t12\tit_count\tit_walk\tincdec' "a write inside scoped_guard"
row writes 'iterators.c\t15\tit_limit\tit_walk\tassign' \
	"a write inside with_intel_runtime_pm (it_limit is written after init)"
parses pm_ops.c "SET_SYSTEM_SLEEP_PM_OPS, SET_RUNTIME_PM_OPS"
row defs 'pm_ops.c\t16\tpm_table\tstatic\tconst struct dev_pm_ops\t0\tconst\t1' \
	"a dev_pm_ops table built by SET_*_PM_OPS is a const definition"
parses machine.c "MACHINE_START ... MACHINE_END"
parses decls.c "__nonstring, __ETHTOOL_DECLARE_LINK_MODE_MASK, DECLARE_VM_GET_PAGE_PROT"
row writes 'decls.c\t10\tdecl_mode\tdecl_links\tassign' \
	"a write after __ETHTOOL_DECLARE_LINK_MODE_MASK"
parses blocks.c "tcp_skb_tsorted_save, BKEY_PADDED"
row writes 'blocks.c\t10\tblk_retrans\tblk_retransmit\tincdec' \
	"a write inside tcp_skb_tsorted_save"

parses attrs.c "__attribute__((aligned(8))), __ro_after_init after a function pointer, __counted_by, PNAME, GENRADIX, __free, IP_TUNNEL_DECLARE_FLAGS, drm_exec_until_all_locked, BUGLVL, ALTERNATIVE, USE_PM_CLK_RUNTIME_OPS, noinstr static, __latent_entropy, __alias"
row funcs 'attrs.c\t46\tat_nmi\tstatic\tsection=.noinstr.text' \
	"noinstr before static: a function in .noinstr.text"
row writes 'attrs.c\t48\tat_count\tat_nmi\tassign' "a write in a noinstr function"
row defs 'attrs.c\t51\tat_pool\tstatic\tu32 [ 4 ]\t1\t-\t0' \
	"a definition with __latent_entropy: not in its type"
row writes 'attrs.c\t57\tat_count\tat_seeded\tassign' \
	"a write after a local __initconst __latent_entropy array"
row defs 'attrs.c\t4\tat_handler\tglobal\tvoid\t0\tro_after_init\t1' \
	"a function pointer with __ro_after_init after its declarator is a definition"
row defs 'attrs.c\t12\tat_parents\tstatic\tconst char * const []\t1\tconst,initconst\t1' \
	"PNAME(x) is a static __initconst array"
row writes 'attrs.c\t24\tat_count\tat_lock\tincdec' \
	"a write inside drm_exec_until_all_locked"
row writes 'attrs.c\t27\tat_count\tat_lock\tassign' \
	"a write under BUGLVL, after __free and IP_TUNNEL_DECLARE_FLAGS"
row writes 'attrs.c\t42\tat_buf\tat_init\tmemcpy' \
	"a write of an array declared with __attribute__((aligned(8)))"

# what spatch cannot parse: the regions, with their error positions
# (run-facts.sh; the old one wrote only the number of regions)
# cocci/builtins.h: attributes after a declarator, string macros
parses struct_attr.c "static struct { ... } x __ro_after_init = { ... }"
row defs 'struct_attr.c\t11\tsa_info\tstatic\tstruct {...}\t0\tro_after_init\t1' \
	"a struct definition with __ro_after_init after its declarator is a definition"
row writes 'struct_attr.c\t26\tsa_info\tsa_hotplug\tfield' \
	"a write of the struct variable in a function after it (topology.c's topo_info)"
row writes 'struct_attr.c\t20\tsa_max_threads\tsa_init\tassign' \
	"a write of another variable in the function that reads the struct"
parses strings.c "KMSG_COMPONENT \": \" fmt and DRV_NAME \": \" fmt in #define bodies"
parses types.c "DARRAY, DARRAY_PREALLOCATED, __section(), alias(), bfa_mem_dma_seg_iter, asm_goto_output, PPC_SLBIA"
row writes 'types.c\t25\tty_segs\tty_walk\tincdec' "a write inside bfa_mem_dma_seg_iter"
row writes 'types.c\t34\tty_count\tty_read\tincdec' "a write after asm_goto_output"
row writes 'types.c\t43\tty_count\tty_flush\tassign' "a write after asm(PPC_SLBIA(3))"

# asm goto and case A...B: read from a scratch copy (goto blanked, A - B)
# in run-facts.sh's own temporary directory; rows name the tree's path and line
parses asm_goto.c "asm goto, asm volatile goto"
row writes 'asm_goto.c\t14\tag_count\tag_vmxon\tincdec' "a write after asm goto, at its line"
row writes 'asm_goto.c\t23\tag_enabled\tag_probe\tassign' "a write after asm volatile goto, at its line"
parses case_range.c "case A...B"
row writes 'case_range.c\t15\tcr_kind\tcr_classify\tassign' \
	"a write under case A...B, at its line"
left=$(find "$tmp/scratch" -mindepth 1 | head -n 3)
[ -z "$left" ] && ok "no scratch copy left behind" ||
	not_ok "no scratch copy left behind" "$left"
dirty=$(cd "$tmp/tree" && git status --porcelain)
[ -z "$dirty" ] && ok "the tree is not modified" || not_ok "the tree is not modified" "$dirty"

row errors 'unparsed.c\tparse-error: 2 unparsed region(s), 2 outside #define bodies: 4-7@7:23 7-8@7:2' \
	"two attributes in one __attribute__: two regions of code, lines and positions"
row errors 'define_body.c\tparse-error: 1 unparsed region(s), 0 outside #define bodies: 8-10@10:39/define' \
	"an unparsable #define body is a region inside #define bodies"
finish
