#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Precision on the fixture corpus: real spatch (cocci/facts.cocci) over
# candidates/tests/fixtures/*.c, then candidates; every label of
# fixtures/expect.tsv (file name class confidence label) is asserted.
# Facts come from cocci/run-facts.sh when it exists; until then the rows
# of facts.cocci are split here the same way (first field = fact file).
set -u
cd "$(dirname "$0")/../.."
BIN=candidates/candidates
FIX=candidates/tests/fixtures
T=$(mktemp -d "${TMPDIR:-/tmp}/cand-fix.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
. lib/tap.sh

split_facts() {
	d=$1
	printf 'file\tline\tname\tstorage\ttype\tarray\tattrs\tinit\n' > "$d/defs.tsv"
	printf 'file\tline\tvar\tfunc\tform\n' > "$d/writes.tsv"
	printf 'file\tline\tname\tstorage\tsection\n' > "$d/funcs.tsv"
	printf 'file\tline\tname\tfunc\n' > "$d/funcrefs.tsv"
	printf 'file\tline\tcaller\tcallee\n' > "$d/calls.tsv"
	printf 'file\tline\tvar\tkind\tperm\thandler\n' > "$d/params.tsv"
	printf 'file\treason\n' > "$d/errors.tsv"
	awk -F'\t' -v d="$d" '{ t = $1; sub(/^[^\t]*\t/, "");
		print >> (d "/" t ".tsv") }'
}

mkdir -p "$T/facts"
if [ -f cocci/run-facts.sh ]; then
	how="cocci/run-facts.sh"
	# run-facts.sh wants a git work tree of its own: copy the corpus
	mkdir -p "$T/tree" && cp "$FIX"/*.c "$FIX"/*.S "$FIX"/*.h "$T/tree"/ &&
	git -C "$T/tree" init -q && git -C "$T/tree" add . &&
	git -C "$T/tree" -c user.name=t -c user.email=t@t commit -qm fixtures &&
	sh cocci/run-facts.sh "$T/tree" "$T/facts" > "$T/log" 2>&1
else
	how="spatch cocci/facts.cocci (no run-facts.sh yet)"
	(cd "$FIX" && spatch --sp-file ../../../cocci/facts.cocci \
		--no-includes --include-headers --disable-worth-trying-opt \
		-D report --very-quiet ./*.c) 2> "$T/log" |
		sed 's|	\./|	|' | split_facts "$T/facts"
fi
rc=$?
if [ $rc -eq 0 ] && [ -s "$T/facts/defs.tsv" ]; then
	ok "facts for the fixtures by $how"
else
	not_ok "facts for the fixtures by $how" "rc=$rc: $(tail -n 3 "$T/log")"
fi

if "$BIN" --facts "$T/facts" --out "$T/out.tsv" 2> "$T/err"; then
	ok "candidates runs on the fixture facts"
else
	not_ok "candidates runs on the fixture facts" "$(cat "$T/err")"
fi

tail -n +2 "$FIX/expect.tsv" > "$T/expect"
while IFS='	' read -r file name class conf label; do
	row=$(awk -F'\t' -v f="$file" -v v="$name" \
		'($1 == f || $1 ~ ("/" f "$")) && $3 == v' "$T/out.tsv")
	# a name defined twice in its file (tentative.c) is one label: every
	# row must agree
	got=$(printf '%s\n' "$row" | cut -f5,6 | sort -u | tr '\t' ' ')
	if [ "$got" = "$class $conf" ]; then
		ok "$label: $name is $class $conf"
	else
		not_ok "$label: $name is $class $conf" \
			"got '$got': $(printf '%s' "$row" | cut -f7)"
	fi
done < "$T/expect"

# the annotation column says what the annotate step adds, by class
bad_ann=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ k = $c["class"]; a = $c["annotation"]; want = "-"
	  if (k == "ro_after_init") want = "ro_after_init"
	  if (k == "initdata" && a == "initconst") want = a
	  else if (k == "initdata") want = "initdata"
	  if (a != want) print $c["name"] " " k " " a }
	END { if (!("annotation" in c)) print "no annotation column" }' "$T/out.tsv" 2>&1)
[ -z "$bad_ann" ] && grep -qE '	initconst(	|$)' "$T/out.tsv" &&
	ok "annotation column: ro_after_init, initdata or initconst by class, - otherwise" ||
	not_ok "annotation column: ro_after_init, initdata or initconst by class, - otherwise" "$bad_ann"

# an attribute after a struct definition (tentative.c: "} __randomize_layout;")
# is no variable: cocci/builtins.h drops it before spatch parses
bogus=$(awk -F'\t' '$3 ~ /^__(no_)?randomize_layout$/ { print $1 ":" $2 " " $3 }' "$T/out.tsv")
[ -z "$bogus" ] && grep -q '	tn_fam	' "$T/out.tsv" &&
	ok "a struct's __randomize_layout is no variable" ||
	not_ok "a struct's __randomize_layout is no variable" "rows: $bogus"

# static keys: a rejection names its writer, or why an export is one
reason_has() {
	r=$(awk -F'\t' -v v="$1" '$3 == v { print $7 }' "$T/out.tsv")
	case $r in
	*"$2"*) ok "$3" ;;
	*) not_ok "$3" "reason: $r" ;;
	esac
}
reason_has sk_sysfs_key "sk_mode_store" \
	"a static key toggled by a sysfs store is rejected naming the store"
reason_has sk_exported_key "jump_label_add_module" \
	"an exported static key is rejected: a module's load writes it"
reason_has sk_keys "no _RO form" "a static key array is skipped: no _RO form"
reason_has tf_led "struct tf_led's field brightness is written after init by brightness_store (type_field.c:31)" \
	"an escape of a type whose field a sysfs store writes names struct, field and writer"
reason_has rg_keymap "passed to matrix_keypad_build_keymap (argument 4), which keeps it" \
	"a keymap given to a registration of registrations.tsv names it"
reason_has rg_keycodes "stored in struct input_dev->keycode" \
	"a table stored in a field of registrations.tsv names the field"
reason_has ao_phys "file-scope pointer ao_run, and ao_set_mode writes through it after init (alias_other_use.c:16)" \
	"a write through a file-scope alias in another file names the pointer and the writer"
reason_has lt_handler_x "it embeds hotplug.kobj (a struct kobject, layout_trap.c:20)" \
	"a type trap found in the tree's own struct layouts names the field path and where it is declared"
reason_has cl_mode "cl_set_mode is a global function that only init-only code calls in the whole tree (callers.tsv: 1 call from 1 function, first cl_setup at callers_use.c:14)" \
	"a write in a global function that only __init code calls, by the whole tree's callers, names the callers.tsv evidence"
reason_has cl_applied "cl_apply is only called from init-only code that includes cl_set_mode, which is a global function" \
	"a write in its static helper names the global function the closure went through"
reason_has cl_level "cl_set_level is a global function, not __init" \
	"a global function that a runtime function also calls stays a runtime writer"
reason_has ms_sets "1 passed or stored as a pointer to const" \
	"an array stored at file scope in a const member counts as a read"
reason_has hd_chip_rt "stored in hd_info_rt (holder.c:67), and at holder.c:87:hd_ack:read hd_ack reads it" \
	"an address stored in a table that a runtime function reads names the table and the reader"
reason_has mf_name "not __initdata: a charp module parameter, which destroy_params() frees" \
	"a charp module parameter read only by __init code says why it is not __initdata"
reason_has ds_offsets "declared __read_mostly at decl_section.h:6 (extern)" \
	"a global declared extern with another section in a header names the declaration"
reason_has ma_drv "named in module_ma_driver() at file scope, which may take its address" \
	"a variable named in a file-scope macro names the macro"
reason_has mc_boot_mode "mc_bsp_setup is stored only in members (mc_bsp_init) that only init-only code calls through in the whole tree (callers.tsv: 1 call from 1 function, first mc_identify at member_call.c:52)" \
	"a write in a function stored in a member that only __init code calls through names the member and the call"

# A kernel that seals ro_after_init static keys at init (6.12's
# jump_label_init_ro): a module that uses the exported key no longer
# writes it, so toggled only at init it is a candidate.  The fixture tree
# has no kernel/jump_label.c: run-facts said no.  A tree with one that
# defines jump_label_init_ro says yes, and only the exported key changes.
if grep -qx 'sealed_static_keys	no' "$T/facts/features.tsv" 2> /dev/null; then
	ok "run-facts: features.tsv says no sealed keys for a tree without them"
else
	not_ok "run-facts: features.tsv says no sealed keys" \
		"$(cat "$T/facts/features.tsv" 2>&1)"
fi
mkdir -p "$T/t2/kernel" && cp "$FIX/static_key.c" "$T/t2/" &&
	printf 'void __init jump_label_init_ro(void)\n{\n}\n' > "$T/t2/kernel/jump_label.c" &&
	git -C "$T/t2" init -q && git -C "$T/t2" add . &&
	git -C "$T/t2" -c user.name=t -c user.email=t@t commit -qm sealed &&
	sh cocci/run-facts.sh "$T/t2" "$T/f2" > "$T/log2" 2>&1 &&
	"$BIN" --facts "$T/f2" --out "$T/out2.tsv" 2> "$T/err2"
rc=$?
if [ $rc -eq 0 ] && grep -qx 'sealed_static_keys	yes' "$T/f2/features.tsv" &&
	awk -F '\t' '$3 == "sk_exported_key" && $5 == "ro_after_init" { f = 1 }
		END { exit !f }' "$T/out2.tsv"; then
	ok "with sealed keys an exported key toggled only at init is ro_after_init"
else
	not_ok "with sealed keys an exported key toggled only at init is ro_after_init" \
		"rc=$rc: $(cat "$T/f2/features.tsv" 2>&1) $(grep sk_exported_key "$T/out2.tsv")"
fi
for f in "$T/out.tsv" "$T/out2.tsv"; do
	awk -F '\t' 'NR > 1 && $1 == "static_key.c" && $3 != "sk_exported_key" {
		print $3, $5, $6 }' "$f" > "$f.keys"
done
if [ -s "$T/out2.tsv.keys" ] && cmp -s "$T/out.tsv.keys" "$T/out2.tsv.keys"; then
	ok "with sealed keys every other static_key.c row is the same"
else
	not_ok "with sealed keys every other static_key.c row is the same" \
		"$(diff "$T/out.tsv.keys" "$T/out2.tsv.keys" | tr '\n' ' ')"
fi

# every fixture variable is labelled (no silent extra rows)
lab=$(wc -l < "$T/expect")
for v in $(tail -n +2 "$T/out.tsv" | cut -f3); do
	grep -q "	$v	" "$T/expect" || echo "$v"
done > "$T/unlabelled"
echo "# labelled $lab variables; unlabelled helpers: $(tr '\n' ' ' < "$T/unlabelled")"

# a function (its prototype parses as "T x;") is never a variable row
tail -n +2 "$T/facts/funcs.tsv" | cut -f3 | sort -u > "$T/funcnames"
tail -n +2 "$T/out.tsv" | cut -f3 | sort -u | comm -12 - "$T/funcnames" \
	> "$T/funcrows"
if [ -s "$T/funcrows" ]; then
	not_ok "no function is classified as a variable" \
		"$(tr '\n' ' ' < "$T/funcrows")"
else
	ok "no function is classified as a variable"
fi
finish
