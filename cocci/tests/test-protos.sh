#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cocci/protos: which arguments every declaration of a function takes as
# a pointer to const, and which struct members every declaration makes
# one.  A fixture tree with one declaration shape per
# function (pointer to const, to a pointer, const pointer, array, function
# pointer, variadic, attributes, typedefs), forwarding macros, and a name
# declared const in one architecture and not in the other; then its exit
# codes.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=$here/../protos
fx=$here/fixtures/protos
. "$here/../../lib/tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-protos.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

[ -x "$bin" ] || { not_ok "cocci/protos is built" "run make programs"; finish; exit 1; }
(cd "$fx" && find . -type f -name '*.[ch]' | sed 's|^\./||' | sort) >"$tmp/list"
"$bin" "$fx" "$tmp/list" >"$tmp/out" 2>"$tmp/err"
check "fixture: exit 0" [ $? -eq 0 ]
check "fixture: the header is 'name arg file line'" \
	sh -c "head -n 1 '$tmp/out' | grep -qx 'name	arg	file	line'"

has() {	# NAME ARG: a row
	cut -f 1,2 "$tmp/out" | grep -qxF "$1	$2"
}
hasnt() {	# NAME: no row at all
	! cut -f 1 "$tmp/out" | grep -qxF "$1"
}
while IFS='|' read -r name arg what; do
	check "const: $what ($name, argument $arg)" has "$name" "$arg"
done <<'ROWS'
pt_plain|0|const struct x *
pt_second|1|the second argument
pt_constptrs|0|const char *const *: the pointee is a const pointer
pt_array|0|an array parameter of const elements
pt_returns|0|a function returning a pointer, variadic
pt_weak|0|after __attribute__((weak))
pt_restrict|1|const unsigned long * __restrict
pt_fwd|0|a macro forwarding its argument whole
pt_cfwd|0|the same, a comment's newline inside the #define
pt_swap|0|a macro forwarding in parentheses, reordered
pt_alias|0|an object macro naming a const function
ROWS
while IFS='|' read -r name what; do
	check "no row: $what ($name)" hasnt "$name"
done <<'ROWS'
pt_nonconst|struct x *
pt_ptrptr|const char **: the pointee is a pointer that may be written
pt_constptr_value|char *const: a const pointer to writable chars
pt_funcptr|a function pointer parameter
pt_value|a value
pt_typedef|a typedef of a function type
pt_fn_t|a typedef of a function pointer
pt_twice|a macro that uses its argument twice
pt_expr|a macro that writes through its argument
pt_both|a function const here, a macro forwarding to a non-const one there
pt_arch|const in one architecture, not in the other
DEFINE_SPINLOCK|a file-scope macro call
EXPORT_SYMBOL|a file-scope macro call after ';'
ROWS
while IFS='|' read -r name what; do
	check "member const: $what ($name)" has "$name" "-"
done <<'ROWS'
pm_name|const char *
pm_regsets|const struct x *
pm_map|const struct x *const
pm_ops_a|the first of two declarators
pm_ops_b|the second of two declarators
pm_rcu|an attribute after the name
pm_aligned|an attribute with arguments after the name
pm_inner|in an anonymous union
pm_td|in a typedef'd struct
ROWS
while IFS='|' read -r name what; do
	check "member not const: $what ($name)" sh -c "! cut -f 1,2 '$tmp/out' | grep -qxF '$name	-'"
done <<'ROWS'
pm_chip|struct x *
pm_ops_pp|const struct x **
pm_label|an array
pm_hook|a function pointer
pm_shared|const here, writable in another struct
pm_bits|declared by a macro
pm_dbg|const in one #ifdef branch, not in the other
pm_count|a bit-field
pm_macro|writable in a #define body
ROWS
check "pt_second: only its second argument" sh -c "! cut -f 1,2 '$tmp/out' | grep -qxF 'pt_second	0'"
check "pt_restrict: not its first argument" sh -c "! cut -f 1,2 '$tmp/out' | grep -qxF 'pt_restrict	0'"
check "pt_returns: no row for the variadic part" sh -c "! cut -f 1,2 '$tmp/out' | grep -qxF 'pt_returns	1'"
check "a row names the first declaration's file and line" \
	grep -qxF "pt_plain	0	protos.h	8" "$tmp/out"

printf 'protos.h\nmissing.h\n' >"$tmp/list2"
"$bin" "$fx" "$tmp/list2" >"$tmp/out2" 2>"$tmp/err2"
rc=$?
check "a file that cannot be read: exit 1, named, the others still read" \
	sh -c "[ $rc -eq 1 ] && grep -q 'missing.h' '$tmp/err2' && grep -q '^pt_plain	' '$tmp/out2'"
"$bin" >/dev/null 2>&1
check "no arguments: usage, exit 64" [ $? -eq 64 ]
"$bin" "$fx" "$tmp/nolist" >/dev/null 2>"$tmp/err3"
check "LIST that does not exist: exit 65 (bad input), named" \
	sh -c "[ $? -eq 65 ] && grep -q nolist '$tmp/err3'"
"$bin" --help | grep -q "pointer to const"
check "--help says what it prints" [ $? -eq 0 ]

if [ -n "${TREE-}" ] && [ -f "$TREE/include/net/genetlink.h" ]; then
	(cd "$TREE" && git ls-files -- '*.c' '*.h' ':!tools' ':!scripts' \
		':!Documentation' ':!samples') >"$tmp/tree.list"
	t0=$(date +%s)
	"$bin" "$TREE" "$tmp/tree.list" >"$tmp/tree.out" 2>"$tmp/tree.err"
	rc=$? t1=$(date +%s)
	echo "# whole tree: $(wc -l <"$tmp/tree.list") files, $(($(wc -l <"$tmp/tree.out") - 1)) const arguments in $((t1 - t0)) s"
	check "whole tree: exit 0" [ "$rc" -eq 0 ]
	for na in 'dentry_open	0' 'genlmsg_put	3' 'load_idt	0' 'sysfs_create_group	1'; do
		check "whole tree: ${na%%	*} takes argument ${na#*	} as const" \
			sh -c "cut -f 1,2 '$tmp/tree.out' | grep -qxF '$na'"
	done
	# list_add links its argument, 6.12 registers a writable ctl_table,
	# memcpy has macro spellings per arch
	for na in 'list_add	0' 'register_sysctl_sz	1' 'memcpy	0'; do
		check "whole tree: ${na%%	*} argument ${na#*	} is not const" \
			sh -c "! cut -f 1,2 '$tmp/tree.out' | grep -qxF '$na'"
	done
else
	ok "whole tree # SKIP TREE not set"
fi
finish
