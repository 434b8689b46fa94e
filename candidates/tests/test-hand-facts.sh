#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Unit tests of candidates/candidates on hand-written fact files: every
# case is labelled ("# case: ...") and asserted.  Fact rows are written
# with '|' for TAB; lines starting with '#' are dropped.
set -u
cd "$(dirname "$0")/../.."
BIN=candidates/candidates
T=$(mktemp -d "${TMPDIR:-/tmp}/cand-hand.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
. lib/tap.sh
tsv() { grep -v "^#" | sed -e "s/|/	/g" -e "s/%OR%/|/g" > "$T/facts/$1"; }

mkdir -p "$T/facts"
tsv defs.tsv <<'X'
file|line|name|storage|type|array|attrs|init
# case: written once in __init only -> ro_after_init high
a.c|1|w_init|static|int|0|-|0
# case: written in a CPU hotplug callback -> rejected
a.c|2|w_hotplug|static|int|0|-|0
# case: written in a resume handler stored in dev_pm_ops -> rejected
a.c|3|w_resume|static|int|0|-|0
# case: module_param 0644 -> rejected; perm 0 -> candidate
a.c|4|p_rw|static|int|0|-|1
a.c|5|p_ro|static|int|0|-|1
# case: S_IRUGO -> candidate; S_IRUGO | S_IWUSR -> rejected
a.c|6|p_sym|static|bool|0|-|0
a.c|7|p_symw|static|bool|0|-|0
# case: sysctl .data 0644 -> rejected; 0444 plus an init write -> medium
a.c|8|sc_rw|static|int|0|-|1
a.c|9|sc_ro|static|int|0|-|0
# case: &x escape only in __init -> medium; in runtime code -> rejected
a.c|10|esc_init|static|struct foo|0|-|0
a.c|11|esc_run|static|struct foo|0|-|0
# case: array decays into a writer: in __init -> medium, at runtime -> rejected
a.c|12|arr_init|static|char|1|-|0
a.c|13|arr_run|static|char|1|-|0
# case: static helper called only from __init -> candidate
a.c|14|helper_var|static|int|0|-|0
# case: static helper whose address is in an ops struct -> rejected
a.c|15|ops_var|static|int|0|-|0
# case: __read_mostly written once in __init -> candidate
a.c|16|rm_var|static|unsigned long|0|read_mostly|0
# case: __initdata / __initconst written in init -> never a candidate
a.c|17|idata|static|int|0|initdata|1
a.c|18|iconst|static|char|1|const,initconst|1
# case: already __ro_after_init / const
a.c|19|already_ro|static|int|0|ro_after_init|0
a.c|20|cvar|static|int|0|const|1
# case: never written -> const
a.c|21|never|static|int|0|-|1
# case: two-level helper chain from __init -> candidate (fixpoint)
a.c|22|chain_var|static|int|0|-|0
# case: helper called from __init and from runtime code -> rejected
a.c|23|mixed_var|static|int|0|-|0
# case: __meminit / __exit / __ref writers -> rejected
a.c|24|mem_var|static|int|0|-|0
a.c|25|exit_var|static|int|0|-|0
a.c|26|ref_var|static|int|0|-|0
# case: global defined in g.c, written in __init of b.c -> candidate
g.c|1|gvar|global|int|0|-|0
# case: global with two arch definitions; one runtime write -> both rejected
x86.c|1|dup|global|int|0|-|0
arm.c|1|dup|global|int|0|-|0
# case: static s in a.c written in init; static s in b.c written at runtime;
# global s in g.c never written (statics shadow it)
a.c|27|s|static|int|0|-|0
b.c|1|s|static|int|0|-|0
g.c|2|s|global|int|0|-|1
# case: same-named static helpers in two files resolve per file
a.c|28|sh_var|static|int|0|-|0
# case: __setup handler that is not __init, no callers -> candidate
a.c|29|setup_var|static|int|0|-|0
# case: per-cpu and section-placed -> skip
a.c|30|pcpu|global|int|0|percpu|0
a.c|31|sect|static|int|0|section=.data..page_aligned|0
# case: address stored at file scope (static int *p = &x) -> rejected
a.c|32|fs_addr|static|int|0|-|0
# case: self-recursive static helper called from __init -> candidate
a.c|33|rec_var|static|int|0|-|0
# case: writer function unknown to funcs.tsv -> rejected
a.c|34|unk_var|static|int|0|-|0
# case: __ro_after_init written after init -> already, flagged in reason
a.c|35|bad_ro|static|int|0|ro_after_init|0
# case: a global function, not __init, writes -> rejected
a.c|36|gw_var|static|int|0|-|0
# case: file with unparsed regions: init-only write -> medium, also via
# a helper of that file; a file that timed out -> rejected
# case: array-arg of a non-array is a by-value read, ignored; of a
# cpumask_var_t (array typedef) it counts
a.c|37|byval|static|int|0|-|0
a.c|38|cmask|static|cpumask_var_t|0|-|0
# case: arch and image linkage: a write from another arch or from the
# x86 decompressor does not reach the x86 global; generic code does
arch/x86/kernel/k.c|1|xglob|global|int|0|-|0
arch/x86/kernel/k.c|3|xglob2|global|int|0|-|0
# case: lib/images.tsv: arch/x86/realmode/init.c is kernel code (only
# realmode/rm/ is the trampoline image), so its runtime write reaches the
# x86 global; the EFI stub is an image of its own, so its write does not
arch/x86/kernel/k.c|4|xglob3|global|int|0|-|0
arch/x86/kernel/k.c|5|xglob4|global|int|0|-|0
# case: x86 __head code counts as init
arch/x86/kernel/k.c|2|headvar|static|int|0|-|0
pe.c|1|pe_var|static|int|0|-|0
pe.c|2|pe_hvar|static|int|0|-|0
# case: a global named in an unparsed region of another file -> medium
a.c|39|up_var|global|int|0|-|0
to.c|1|to_var|static|int|0|-|0
# case: boot code and the EFI stub are not the kernel proper -> skip;
# arch/x86/realmode/init.c is -> candidate
arch/x86/boot/compressed/kaslr.c|1|bt_var|static|int|0|-|0
drivers/firmware/efi/libstub/x86-stub.c|1|stub_var|static|int|0|-|0
arch/x86/realmode/init.c|1|rm_init_var|static|int|0|-|0
samples/kobject/kset-example.c|1|smp_var|static|int|0|-|0
tools/lib/x.c|1|tl_var|static|int|0|-|0
X
tsv writes.tsv <<'X'
file|line|var|func|form
a.c|100|w_init|foo_init|assign
a.c|101|w_hotplug|foo_cpu_online|assign
a.c|102|w_resume|foo_resume|compound
a.c|103|sc_ro|foo_init|assign
a.c|104|esc_init|foo_init|addr
a.c|105|esc_run|foo_runtime|addr
a.c|106|arr_init|foo_init|array-arg
a.c|107|arr_run|foo_runtime|array-arg
a.c|108|helper_var|init_helper|field
a.c|109|ops_var|ops_helper|assign
a.c|110|rm_var|foo_init|assign
a.c|111|idata|foo_init|assign
a.c|112|chain_var|deep_helper|incdec
a.c|113|mixed_var|mixed_helper|assign
a.c|114|mem_var|foo_meminit|assign
a.c|115|exit_var|foo_exit|assign
a.c|116|ref_var|foo_ref|assign
b.c|100|gvar|b_init|memcpy
x86.c|100|dup|x86_setup|assign
arm.c|100|dup|arm_runtime|assign
a.c|117|s|foo_init|assign
b.c|101|s|b_runtime|assign
a.c|118|sh_var|helper|assign
a.c|119|setup_var|parse_opt|assign
a.c|1|fs_addr|-|addr
a.c|120|rec_var|rec_helper|element
a.c|121|unk_var|not_a_function|assign
a.c|122|bad_ro|foo_runtime|assign
a.c|123|gw_var|glob_fn|assign
a.c|124|byval|foo_init|assign
a.c|125|byval|foo_runtime|array-arg
a.c|126|cmask|foo_init|assign
a.c|127|cmask|foo_runtime|array-arg
arch/x86/kernel/k.c|100|xglob|k_init|assign
arch/ia64/kernel/i.c|100|xglob|i_runtime|assign
arch/x86/boot/compressed/c.c|100|xglob|c_runtime|assign
arch/x86/kernel/k.c|101|headvar|k_head|assign
arch/x86/kernel/k.c|102|xglob2|k_init|assign
kernel/g.c|100|xglob2|g_runtime|assign
arch/x86/kernel/k.c|103|xglob3|k_init|assign
arch/x86/realmode/init.c|101|xglob3|rm_runtime|assign
arch/x86/kernel/k.c|104|xglob4|k_init|assign
drivers/firmware/efi/libstub/x86-stub.c|101|xglob4|stub_runtime|assign
pe.c|100|pe_var|pe_init|assign
pe.c|101|pe_hvar|pe_helper|assign
a.c|150|up_var|foo_init|assign
pe.c|7|up_var|-|unparsed
to.c|100|to_var|to_init|assign
arch/x86/boot/compressed/kaslr.c|100|bt_var|bt_init|assign
drivers/firmware/efi/libstub/x86-stub.c|100|stub_var|stub_init|assign
arch/x86/realmode/init.c|100|rm_init_var|rm_init|assign
samples/kobject/kset-example.c|100|smp_var|smp_init|assign
tools/lib/x.c|100|tl_var|tl_init|assign
# module_param's own mention of the variable is not a separate write
a.c|4|p_rw|-|addr
X
tsv funcs.tsv <<'X'
file|line|name|storage|section
arch/x86/boot/compressed/kaslr.c|90|bt_init|static|init
drivers/firmware/efi/libstub/x86-stub.c|90|stub_init|static|init
arch/x86/realmode/init.c|90|rm_init|static|init
arch/x86/realmode/init.c|91|rm_runtime|global|-
drivers/firmware/efi/libstub/x86-stub.c|91|stub_runtime|global|-
samples/kobject/kset-example.c|90|smp_init|static|init
tools/lib/x.c|90|tl_init|static|init
a.c|200|foo_init|static|init
a.c|201|foo_cpu_online|static|-
a.c|202|foo_resume|static|-
a.c|203|foo_runtime|global|-
a.c|204|init_helper|static|-
a.c|205|ops_helper|static|-
a.c|206|mid_helper|static|-
a.c|207|deep_helper|static|-
a.c|208|mixed_helper|static|-
a.c|209|foo_meminit|static|meminit
a.c|210|foo_exit|static|exit
a.c|211|foo_ref|static|ref
a.c|212|helper|static|-
a.c|213|parse_opt|static|-
a.c|214|rec_helper|static|-
a.c|215|glob_fn|global|-
b.c|200|b_init|static|init
b.c|201|b_runtime|global|-
b.c|202|helper|static|-
x86.c|200|x86_setup|global|init
arch/x86/kernel/k.c|200|k_init|static|init
kernel/g.c|200|g_runtime|global|-
arch/x86/kernel/k.c|201|k_head|global|section=.head.text
arch/ia64/kernel/i.c|200|i_runtime|global|-
arch/x86/boot/compressed/c.c|200|c_runtime|global|-
pe.c|200|pe_init|static|init
pe.c|201|pe_helper|static|-
to.c|200|to_init|static|init
arm.c|200|arm_runtime|global|-
X
tsv funcrefs.tsv <<'X'
file|line|name|func
a.c|300|foo_cpu_online|foo_init
a.c|5|foo_resume|-
a.c|6|ops_helper|-
b.c|300|helper|-
a.c|7|parse_opt|-
X
tsv calls.tsv <<'X'
file|line|caller|callee
a.c|400|foo_init|init_helper
a.c|401|foo_init|mid_helper
a.c|402|mid_helper|deep_helper
a.c|403|foo_init|mixed_helper
a.c|404|foo_runtime|mixed_helper
a.c|405|foo_init|helper
a.c|406|foo_init|rec_helper
a.c|407|rec_helper|rec_helper
a.c|408|foo_init|foo_meminit
a.c|409|foo_init|foo_ref
a.c|410|foo_init|glob_fn
b.c|400|b_runtime|helper
pe.c|400|pe_init|pe_helper
X
tsv params.tsv <<'X'
file|line|var|kind|perm|handler
a.c|4|p_rw|module_param|0644|-
a.c|5|p_ro|module_param|0|-
a.c|6|p_sym|module_param|S_IRUGO|-
a.c|7|p_symw|core_param|S_IRUGO %OR% S_IWUSR|-
a.c|8|sc_rw|sysctl|0644|-
a.c|9|sc_ro|sysctl|0444|-
a.c|7|-|setup|-|parse_opt
X
tsv errors.tsv <<'X'
file|reason
bad.c|parse error
pe.c|parse-error: 1 unparsed region(s)
to.c|timeout
X

if "$BIN" --facts "$T/facts" --out "$T/out.tsv" 2> "$T/err"; then
	ok "runs on hand-written facts"
else
	not_ok "runs on hand-written facts" "$(cat "$T/err")"
fi

# expect FILE NAME CLASS CONFIDENCE LABEL
expect() {
	row=$(awk -F'\t' -v f="$1" -v v="$2" '$1 == f && $3 == v' "$T/out.tsv")
	got=$(printf '%s\n' "$row" | cut -f5,6 | tr '\t' ' ')
	if [ "$got" = "$3 $4" ]; then ok "$5: $2 is $3 $4"
	else not_ok "$5: $2 is $3 $4" "got '$got': $(printf '%s' "$row" | cut -f7)"
	fi
}
expect a.c w_init ro_after_init high "written in __init only"
expect arch/x86/boot/compressed/kaslr.c bt_var skip - "boot code, not the kernel proper"
expect drivers/firmware/efi/libstub/x86-stub.c stub_var skip - "the EFI stub, not the kernel proper"
expect arch/x86/realmode/init.c rm_init_var ro_after_init high "realmode/init.c is kernel code"
expect samples/kobject/kset-example.c smp_var skip - "sample code is skipped"
expect tools/lib/x.c tl_var skip - "tools/ of lib/notkernel.tsv is skipped too"
expect a.c w_hotplug rejected - "written in a hotplug callback"
expect a.c w_resume rejected - "written in a resume handler"
expect a.c p_rw rejected - "module_param 0644"
expect a.c p_ro ro_after_init high "module_param 0"
expect a.c p_sym ro_after_init high "module_param S_IRUGO"
expect a.c p_symw rejected - "core_param S_IRUGO | S_IWUSR"
expect a.c sc_rw rejected - "sysctl .data 0644"
expect a.c sc_ro ro_after_init medium "read-only sysctl plus init write"
expect a.c esc_init ro_after_init medium "&x escape only in __init"
expect a.c esc_run rejected - "&x escape at runtime"
expect a.c arr_init ro_after_init medium "array decay into a writer in __init"
expect a.c arr_run rejected - "array decay into a writer at runtime"
expect a.c helper_var ro_after_init high "static helper called only from __init"
expect a.c ops_var rejected - "static helper stored in an ops struct"
expect a.c rm_var ro_after_init high "__read_mostly written once in init"
expect a.c idata skip - "__initdata never a candidate"
expect a.c iconst skip - "__initconst never a candidate"
expect a.c already_ro already - "already __ro_after_init"
expect a.c cvar already - "already const"
expect a.c never const - "never written"
expect a.c chain_var ro_after_init high "two-level helper chain (fixpoint)"
expect a.c mixed_var rejected - "helper also called at runtime"
expect a.c mem_var rejected - "__meminit writer"
expect a.c exit_var rejected - "__exit writer"
expect a.c ref_var rejected - "__ref writer"
expect g.c gvar ro_after_init high "global written from another file's __init"
expect x86.c dup rejected - "multiple global defs, one runtime write (x86)"
expect arm.c dup rejected - "multiple global defs, one runtime write (arm)"
expect a.c s ro_after_init high "static s in a.c"
expect b.c s rejected - "static s in b.c"
expect g.c s const - "global s shadowed by file statics"
expect a.c sh_var ro_after_init high "same-named static helper in another file"
expect a.c setup_var ro_after_init high "__setup handler"
expect a.c pcpu skip - "per-cpu"
expect a.c sect skip - "section-placed"
expect a.c fs_addr rejected - "address stored at file scope"
expect a.c rec_var ro_after_init high "self-recursive helper from __init"
expect a.c unk_var rejected - "writer not in funcs.tsv"
expect a.c gw_var rejected - "global non-init writer"
expect a.c bad_ro already - "__ro_after_init written after init"
expect a.c byval ro_after_init high "array-arg of a non-array ignored"
expect a.c cmask rejected - "array-arg of a cpumask_var_t counts"
expect arch/x86/kernel/k.c xglob ro_after_init high "other-arch and decompressor writes do not link"
expect arch/x86/kernel/k.c xglob2 rejected - "generic code write reaches an arch global"
expect arch/x86/kernel/k.c xglob3 rejected - "a write from realmode/init.c, kernel code, reaches the x86 global"
expect arch/x86/kernel/k.c xglob4 ro_after_init high "a write from the EFI stub, an image of its own, does not"
expect arch/x86/kernel/k.c headvar ro_after_init high "__head writer is init"
expect pe.c pe_var ro_after_init medium "file with unparsed regions"
expect pe.c pe_hvar ro_after_init medium "helper in a file with unparsed regions"
expect a.c up_var ro_after_init medium "named in an unparsed region of another file"
expect to.c to_var rejected - "file that timed out"

# the reasons and evidence
awk -F "\t" '$3 == "up_var" && $7 ~ /named in a region spatch did not parse \(pe\.c:7:-:unparsed\)/ && $8 !~ /unparsed/ { f = 1 } END { exit !f }' "$T/out.tsv" &&
	ok "a mention in an unparsed region is named in the reason, not in the evidence" ||
	not_ok "a mention in an unparsed region is named in the reason, not in the evidence" "$(grep up_var "$T/out.tsv")"
grep -q '	bad_ro	.*written after init: a\.c:122:foo_runtime:assign' "$T/out.tsv" &&
	ok "already row names the post-init writer" ||
	not_ok "already row names the post-init writer" "$(grep bad_ro "$T/out.tsv")"
grep -q '	w_hotplug	.*a\.c:101 foo_cpu_online assign\|a\.c:101:foo_cpu_online:assign: address of foo_cpu_online taken at a\.c:300' "$T/out.tsv" &&
	ok "rejection names the first disqualifying writer and why" ||
	not_ok "rejection names the first disqualifying writer and why" "$(grep w_hotplug "$T/out.tsv")"
grep -q '	mixed_var	.*called from non-init foo_runtime at a\.c:404' "$T/out.tsv" &&
	ok "rejection names the non-init caller" ||
	not_ok "rejection names the non-init caller" "$(grep mixed_var "$T/out.tsv")"
grep -q '	p_rw	.*a\.c:4:-:module_param=0644	-	param$' "$T/out.tsv" &&
	ok "module_param evidence, own mention ignored" ||
	not_ok "module_param evidence, own mention ignored" "$(grep p_rw "$T/out.tsv")"
grep -q '	never	.*	-	-	setting$' "$T/out.tsv" && ok "no writers: evidence '-'" ||
	not_ok "no writers: evidence '-'" "$(grep never "$T/out.tsv")"
grep -q 'parse errors: 3 files' "$T/err" && ok "summary counts parse errors" ||
	not_ok "summary counts parse errors" "$(cat "$T/err")"
head -n 1 "$T/out.tsv" | grep -qx 'file	line	name	storage	class	confidence	reason	evidence	annotation	value' &&
	ok "output header" || not_ok "output header" "$(head -n 1 "$T/out.tsv")"
tail -n +2 "$T/out.tsv" | sort -t "$(printf "\t")" -k1,1 -k2,2n -k3,3 -c 2>/dev/null &&
	ok "rows sorted by file, line, name" || not_ok "rows sorted by file, line, name" "unsorted"
"$BIN" --facts "$T/facts" --out "$T/out2.tsv" 2>/dev/null
cmp -s "$T/out.tsv" "$T/out2.tsv" && ok "deterministic output" ||
	not_ok "deterministic output" "two runs differ"
ls "$T" | grep -q '\.tmp\.' && not_ok "no temporary left" "$(ls "$T")" ||
	ok "no temporary left"
"$BIN" --facts "$T/facts" --explain mixed_var > "$T/explain" 2>&1
grep -q 'DISQUALIFIES' "$T/explain" && grep -q 'foo_runtime' "$T/explain" &&
	ok "--explain prints the reasoning" ||
	not_ok "--explain prints the reasoning" "$(cat "$T/explain")"
"$BIN" --facts "$T/facts" --explain no_such_var > /dev/null 2>&1
[ $? -eq 1 ] && ok "--explain unknown name exits 1" ||
	not_ok "--explain unknown name exits 1" "wrong exit"
"$BIN" --help | grep -q -- '--facts DIR' && ok "--help" || not_ok "--help" "no usage"

finish
