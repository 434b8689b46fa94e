#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# annotate.sh on a fixture (diff applies with git apply, result compiles,
# only listed lines change) and on real files of TREE (git apply --check).
set -u
here=$(cd "$(dirname "$0")" && pwd)
cocci=$here/..
fx=$here/fixtures
. "$here/../../lib/tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-annotate.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

mkdir "$tmp/t"
cp "$fx/annotate_cases.c" "$tmp/t/"
(cd "$tmp/t" && git init -q . && git add . &&
	git -c user.name=t -c user.email=t@t commit -qm t) || exit 1
sh "$cocci/annotate.sh" "$tmp/t" "$fx/annotate_cases.keys" >"$tmp/d" 2>"$tmp/e"
[ $? -eq 0 ] && ok "annotate.sh exits 0" || not_ok "annotate.sh exits 0" "$(cat "$tmp/e")"
keys=$(($(wc -l <"$fx/annotate_cases.keys") - 1))
plus=$(grep -c '^+[^+]' "$tmp/d")
minus=$(grep -c '^-[^-]' "$tmp/d")
[ "$plus" -eq "$keys" ] && [ "$minus" -eq "$keys" ] &&
	ok "one line changed per key ($keys)" ||
	not_ok "one line changed per key ($keys)" "+$plus -$minus"
if (cd "$tmp/t" && git apply "$tmp/d"); then
	ok "diff applies with git apply"
else
	not_ok "diff applies with git apply" "rejected"
fi
if gcc -fsyntax-only -Wall -Werror -include "$fx/kernel-macros.h" \
	"$tmp/t/annotate_cases.c" 2>"$tmp/cc"; then
	ok "annotated file compiles"
else
	not_ok "annotated file compiles" "$(head -n 2 "$tmp/cc" | tr '\n' ' ')"
fi
got=$(grep -c '__ro_after_init' "$tmp/t/annotate_cases.c")
[ "$got" -eq "$keys" ] && ok "every key annotated once" ||
	not_ok "every key annotated once" "$got of $keys"
grep -q '__read_mostly' "$tmp/t/annotate_cases.c" &&
	not_ok "__read_mostly replaced" "still present" || ok "__read_mostly replaced"
grep -qx 'static int foo_rm_arr\[3\] __ro_after_init;' "$tmp/t/annotate_cases.c" &&
	ok "array with __read_mostly in kernel style" ||
	not_ok "array with __read_mostly in kernel style" "$(grep foo_rm_arr "$tmp/t/annotate_cases.c")"
grep -qx 'static int foo_rm_noinit __ro_after_init;' "$tmp/t/annotate_cases.c" &&
	ok "__read_mostly without initializer: no space before ';'" ||
	not_ok "__read_mostly without initializer: no space before ';'" "$(grep foo_rm_noinit "$tmp/t/annotate_cases.c")"
grep -qx 'static _Bool foo_zero __ro_after_init;' "$tmp/t/annotate_cases.c" &&
	grep -qx 'static int untouched_zero = 0;' "$tmp/t/annotate_cases.c" &&
	ok "'= 0' dropped on the annotated line only (checkpatch), kept elsewhere" ||
	not_ok "'= 0' dropped on the annotated line only" "$(grep _zero "$tmp/t/annotate_cases.c" | tr '\n' '|')"
grep -qx 'static int untouched = 2;' "$tmp/t/annotate_cases.c" &&
	ok "unlisted variable untouched" || not_ok "unlisted variable untouched" "changed"

# One declaration, two declarators, annotated one at a time (as the queue
# does, a patch per variable): the second must still be found.
mkdir -p "$tmp/m"
printf 'static const char *foo_a, *foo_b;\nstatic int foo_c;\n' >"$tmp/m/multi.c"
for v in foo_a foo_b; do
	printf 'file\tline\tname\nmulti.c\t1\t%s\n' "$v" >"$tmp/m.keys"
	sh "$cocci/annotate.sh" "$tmp/m" "$tmp/m.keys" >"$tmp/m.diff" 2>"$tmp/m.err" &&
		(cd "$tmp/m" && patch -s -p1 <"$tmp/m.diff") || break
done
grep -qx 'static const char \*foo_a __ro_after_init, \*foo_b __ro_after_init;' "$tmp/m/multi.c" &&
	ok "two declarators of one declaration, one at a time" ||
	not_ok "two declarators of one declaration, one at a time" "$(head -n 1 "$tmp/m/multi.c") $(cat "$tmp/m.err")"

# A line the annotation pushes past 100 columns is wrapped after
# "__ro_after_init =" (checkpatch); a short one stays on one line.
mkdir -p "$tmp/w"
: >"$tmp/w.cc"
{
	printf 'static void foo_out(unsigned long a, int o, int v)\n{\n}\n\n'
	printf 'static void (*foo_long_hook)(unsigned long address, int offset, int value) = foo_out;\n'
	printf 'static void (*foo_short)(unsigned long a, int o, int v) = foo_out;\n'
} >"$tmp/w/wrap.c"
printf 'file\tline\tname\nwrap.c\t5\tfoo_long_hook\nwrap.c\t6\tfoo_short\n' >"$tmp/w.keys"
sh "$cocci/annotate.sh" "$tmp/w" "$tmp/w.keys" >"$tmp/w.diff" 2>"$tmp/w.err" &&
	(cd "$tmp/w" && patch -s -p1 <"$tmp/w.diff")
wide=$(expand "$tmp/w/wrap.c" | awk 'length > 100')
sed -n 5,7p "$tmp/w/wrap.c" >"$tmp/w.got"
printf '%s\n\t%s\n%s\n' \
	'static void (*foo_long_hook)(unsigned long address, int offset, int value) __ro_after_init =' \
	'foo_out;' \
	'static void (*foo_short)(unsigned long a, int o, int v) __ro_after_init = foo_out;' >"$tmp/w.want"
[ -z "$wide" ] && cmp -s "$tmp/w.got" "$tmp/w.want" &&
	gcc -fsyntax-only -Wall -Werror -include "$fx/kernel-macros.h" "$tmp/w/wrap.c" 2>"$tmp/w.cc" &&
	ok "a line pushed past 100 columns is wrapped after '__ro_after_init ='" ||
	not_ok "a line pushed past 100 columns is wrapped" "$(tr '\n\t' '|>' <"$tmp/w.got") $(cat "$tmp/w.err" "$tmp/w.cc")"

# Static keys take the _RO form of their macro (6.1's jump_label.h, in
# fixtures/jump-label.h): the result compiles and every listed key sits
# in .data..ro_after_init, where validate's section check looks.
mkdir -p "$tmp/k"
cp "$fx/annotate_keys.c" "$tmp/k/"
sh "$cocci/annotate.sh" "$tmp/k" "$fx/annotate_keys.keys" >"$tmp/k.diff" 2>"$tmp/k.err" &&
	(cd "$tmp/k" && patch -s -p1 <"$tmp/k.diff")
for want in 'DEFINE_STATIC_KEY_FALSE_RO(ak_false);' \
	'static DEFINE_STATIC_KEY_TRUE_RO(ak_true);' \
	'DEFINE_STATIC_KEY_MAYBE_RO(CONFIG_AK_ON, ak_maybe_on);' \
	'static DEFINE_STATIC_KEY_MAYBE_RO(CONFIG_AK_OFF, ak_maybe_off);' \
	'struct static_key ak_plain __ro_after_init = STATIC_KEY_INIT_FALSE;' \
	'DEFINE_STATIC_KEY_FALSE(ak_exported);' \
	'static DEFINE_STATIC_KEY_ARRAY_FALSE(ak_array, 4);'; do
	grep -qxF "$want" "$tmp/k/annotate_keys.c" || echo "$want"
done >"$tmp/k.miss"
[ ! -s "$tmp/k.miss" ] && ok "static keys: the _RO form of their macro, unlisted keys untouched" ||
	not_ok "static keys: the _RO form of their macro" "missing: $(tr '\n' '|' <"$tmp/k.miss") $(cat "$tmp/k.err")"
if gcc -c -Wall -Werror -include "$fx/kernel-macros.h" -include "$fx/jump-label.h" \
	-o "$tmp/k.o" "$tmp/k/annotate_keys.c" 2>"$tmp/k.cc"; then
	objdump -t "$tmp/k.o" | awk '$NF ~ /^ak_/ { print $NF, $(NF - 2) }' | sort >"$tmp/k.sect"
	printf '%s .data..ro_after_init\n' ak_false ak_maybe_off ak_maybe_on ak_plain ak_true >"$tmp/k.want"
	grep -v '^ak_array \|^ak_exported \|^ak_use ' "$tmp/k.sect" | cmp -s - "$tmp/k.want" &&
		! grep -q '^ak_array .data..ro_after_init\|^ak_exported .data..ro_after_init' "$tmp/k.sect" &&
		ok "static keys: annotated file compiles, listed keys in .data..ro_after_init" ||
		not_ok "static keys: listed keys in .data..ro_after_init" "$(tr '\n' '|' <"$tmp/k.sect")"
else
	not_ok "static keys: annotated file compiles" "$(head -n 2 "$tmp/k.cc" | tr '\n' ' ')"
fi
printf 'file\tline\tname\nannotate_keys.c\t12\tak_array\n' >"$tmp/ka.keys"
sh "$cocci/annotate.sh" "$tmp/k" "$tmp/ka.keys" >"$tmp/ka.diff" 2>"$tmp/ka.err"
[ $? -eq 1 ] && [ ! -s "$tmp/ka.diff" ] && grep -q 'not found: annotate_keys.c:12 ak_array' "$tmp/ka.err" &&
	ok "a static key array (no _RO form) is not annotated: not found, exit 1" ||
	not_ok "a static key array is not annotated" "$(cat "$tmp/ka.diff" "$tmp/ka.err")"

# The "annotation" column: __initdata and __initconst go where
# __ro_after_init would, "= 0" is dropped the same way, a row without the
# column's value in the set is refused (65) before anything runs, and the
# variables land in .init.data and .init.rodata.
mkdir -p "$tmp/i"
{
	printf '#include <linux/init.h>\n'
	printf 'static int ia_opt = 3;\n'
	printf 'static _Bool ia_flag = 0;\n'
	printf 'static const char *const ia_names[] = { "a", "b" };\n'
	printf 'static int ia_tbl[4];\n'
	printf 'static int ia_ro = 5;\n'
	printf 'static int ia_untouched = 1;\n'
	printf 'int ia_use(void)\n{\n\treturn ia_opt + ia_flag + ia_names[0][0] + ia_tbl[1] + ia_ro + ia_untouched;\n}\n'
} >"$tmp/i/init.c"
printf 'file\tline\tname\tannotation\n' >"$tmp/i.keys"
printf 'init.c\t%s\t%s\t%s\n' 2 ia_opt initdata 3 ia_flag initdata 4 ia_names initconst \
	5 ia_tbl initdata 6 ia_ro ro_after_init >>"$tmp/i.keys"
sh "$cocci/annotate.sh" "$tmp/i" "$tmp/i.keys" >"$tmp/i.diff" 2>"$tmp/i.err" &&
	(cd "$tmp/i" && patch -s -p1 <"$tmp/i.diff")
for want in 'static int ia_opt __initdata = 3;' 'static _Bool ia_flag __initdata;' \
	'static const char *const ia_names[] __initconst = { "a", "b" };' \
	'static int ia_tbl[4] __initdata;' 'static int ia_ro __ro_after_init = 5;' \
	'static int ia_untouched = 1;'; do
	grep -qxF "$want" "$tmp/i/init.c" || echo "$want"
done >"$tmp/i.miss"
[ ! -s "$tmp/i.miss" ] &&
	ok "annotation column: __initdata, __initconst and __ro_after_init where the row says" ||
	not_ok "annotation column: __initdata, __initconst, __ro_after_init" \
		"missing: $(tr '\n' '|' <"$tmp/i.miss") $(cat "$tmp/i.err")"
sed '/^#include/d' "$tmp/i/init.c" >"$tmp/i/init-nohdr.c"
if gcc -c -Wall -Werror -include "$fx/kernel-macros.h" -o "$tmp/i.o" \
	"$tmp/i/init-nohdr.c" 2>"$tmp/i.cc"; then
	objdump -t "$tmp/i.o" | awk '$NF ~ /^ia_/ { print $NF, $(NF - 2) }' | sort >"$tmp/i.sect"
	printf '%s\n' 'ia_flag .init.data' 'ia_names .init.rodata' 'ia_opt .init.data' \
		'ia_ro .data..ro_after_init' 'ia_tbl .init.data' >"$tmp/i.want"
	grep -v '^ia_untouched \|^ia_use ' "$tmp/i.sect" | cmp -s - "$tmp/i.want" &&
		ok "annotation column: the variables sit in .init.data, .init.rodata, .data..ro_after_init" ||
		not_ok "annotation column: sections" "$(tr '\n' '|' <"$tmp/i.sect")"
else
	not_ok "annotation column: annotated file compiles" "$(head -n 2 "$tmp/i.cc" | tr '\n' ' ')"
fi
printf 'file\tline\tname\tannotation\ninit.c\t2\tia_opt\tinitdata\ninit.c\t7\tia_untouched\t__initdata\n' >"$tmp/ib.keys"
sh "$cocci/annotate.sh" "$tmp/i" "$tmp/ib.keys" >"$tmp/ib.diff" 2>"$tmp/ib.err"
[ $? -eq 65 ] && [ ! -s "$tmp/ib.diff" ] && grep -q "ib.keys:3: annotation" "$tmp/ib.err" &&
	ok "an unknown annotation is refused, LIST:LINE named, exit 65" ||
	not_ok "an unknown annotation is refused" "$(cat "$tmp/ib.err")"

printf 'file\tline\tname\nannotate_cases.c\t99\tnope\n' >"$tmp/bad.keys"
sh "$cocci/annotate.sh" "$tmp/t" "$tmp/bad.keys" >/dev/null 2>"$tmp/e"
[ $? -eq 1 ] && grep -q 'not found: annotate_cases.c:99 nope' "$tmp/e" &&
	ok "unknown key is named, exit 1" || not_ok "unknown key is named, exit 1" "$(cat "$tmp/e")"
printf 'file\tname\n' >"$tmp/bad2.keys"
sh "$cocci/annotate.sh" "$tmp/t" "$tmp/bad2.keys" >/dev/null 2>&1
[ $? -eq 65 ] && ok "bad header exits 65" || not_ok "bad header exits 65" "other"

# real kernel files: the variables facts.cocci finds there
if [ -n "${TREE-}" ] && [ -f "$TREE/kernel/reboot.c" ]; then
	for f in kernel/reboot.c mm/page_alloc.c; do
		(cd "$TREE" && spatch --sp-file "$cocci/facts.cocci" \
			--macro-file "$cocci/macros.h" --no-includes \
			--very-quiet "$f") 2>/dev/null
	done | awk -F '\t' '$1 == "defs" && $8 !~ /const|initdata|percpu|section|ro_after/ &&
		$6 !~ /\{/ { print $2 "\t" $3 "\t" $4 }' | head -n 12 >"$tmp/real"
	{ printf 'file\tline\tname\n'; cat "$tmp/real"; } >"$tmp/real.keys"
	k=$(wc -l <"$tmp/real")
	sh "$cocci/annotate.sh" "$TREE" "$tmp/real.keys" >"$tmp/rd" 2>"$tmp/e"
	rc=$?
	plus=$(grep -c '^+[^+]' "$tmp/rd")
	[ "$rc" -eq 0 ] && [ "$k" -gt 0 ] && [ "$plus" -eq "$k" ] &&
		ok "real tree: $k variables, one line each" ||
		not_ok "real tree: $k variables, one line each" "rc $rc, $plus lines, $(cat "$tmp/e")"
	git -C "$TREE" apply --check "$tmp/rd" &&
		ok "real tree: diff passes git apply --check" ||
		not_ok "real tree: diff passes git apply --check" "rejected"
else
	ok "real tree # SKIP TREE not set"
fi
finish
