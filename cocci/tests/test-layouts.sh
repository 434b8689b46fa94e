#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cocci/layouts: which types embed, by value, what a keeper writes after
# init.  A fixture header with every shape it reads (nested, anonymous,
# typedef'd, array, struct_group, DECLARE_HASHTABLE, pointer and function
# pointer members, a static key), then, with TREE set, the real tree.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=$here/../layouts
fx=$here/fixtures
. "$here/../../lib/tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-layouts.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

[ -x "$bin" ] || { not_ok "cocci/layouts is built" "run make programs"; finish; exit 1; }
mkdir "$tmp/t"
cp "$fx/layouts.h" "$tmp/t/"
printf 'layouts.h\n' >"$tmp/list"
"$bin" "$tmp/t" "$tmp/list" >"$tmp/out" 2>"$tmp/err"
check "fixture: exit 0" [ $? -eq 0 ]
check "fixture: the header is 'type field trap file line'" \
	sh -c "head -n 1 '$tmp/out' | grep -qx 'type	field	trap	file	line'"

row() {	# TYPE FIELD TRAP: that row is printed
	grep -qxF "$1	$2	$3	$(printf '%s' "${4-layouts.h}")	$5" "$tmp/out"
}
while IFS='|' read -r type field trap line what; do
	check "fixture: $what ($type: $field, $trap)" row "$type" "$field" "$trap" layouts.h "$line"
done <<'ROWS'
struct lt_inner|node|struct list_head|4|a list node
struct lt_outer|inner.node|struct list_head|9|through a member struct, after __randomize_layout
lt_locked_t|lock|spinlock_t|18|an anonymous typedef'd struct
struct lt_td|l.lock|spinlock_t|22|through a typedef
struct lt_anon|hn|struct hlist_node|28|anonymous struct in an anonymous union
struct lt_arr|refs|struct kref|35|an array member
struct lt_group|done|struct completion|51|inside struct_group()
struct lt_hash|tbl|struct hlist_head|56|DECLARE_HASHTABLE
struct lt_named|sub.n|atomic_t|62|a nested named struct
struct lt_sub|n|atomic_t|61|the nested struct itself
lt_outer_t|inner.node|struct list_head|65|a typedef of a trapped struct
lt_lh_t|-|struct list_head|72|a typedef of a trap type: no field, "-"
ROWS
for t in 'struct lt_ptr' 'struct lt_fp' 'struct lt_key' 'struct lt_attr'; do
	check "fixture: $t is no trap (pointers, function pointers, a static key, bit fields)" \
		sh -c "! cut -f 1 '$tmp/out' | grep -qxF '$t'"
done
check "fixture: the trap types themselves are not rows" \
	sh -c "! cut -f 1 '$tmp/out' | grep -qx 'struct list_head\|spinlock_t\|atomic_t'"

printf 'layouts.h\nmissing.h\n' >"$tmp/list2"
"$bin" "$tmp/t" "$tmp/list2" >"$tmp/out2" 2>"$tmp/err2"
rc=$?
check "a file that cannot be read: exit 1, named, the others still read" \
	sh -c "[ $rc -eq 1 ] && grep -q 'missing.h' '$tmp/err2' && grep -q '^struct lt_inner	' '$tmp/out2'"
"$bin" >/dev/null 2>&1
check "no arguments: usage, exit 64" [ $? -eq 64 ]
"$bin" "$tmp/t" "$tmp/nolist" >/dev/null 2>"$tmp/err3"
check "LIST that does not exist: exit 65 (bad input), named" \
	sh -c "[ $? -eq 65 ] && grep -q nolist '$tmp/err3'"

if [ -n "${TREE-}" ] && [ -f "$TREE/include/acpi/acpi_bus.h" ]; then
	(cd "$TREE" && git ls-files -- '*.c' '*.h' ':!tools' ':!scripts' \
		':!Documentation' ':!samples') >"$tmp/tree.list"
	t0=$(date +%s)
	"$bin" "$TREE" "$tmp/tree.list" >"$tmp/tree.out" 2>"$tmp/tree.err"
	rc=$? t1=$(date +%s)
	echo "# whole tree: $(wc -l <"$tmp/tree.list") files, $(($(wc -l <"$tmp/tree.out") - 1)) trapped types in $((t1 - t0)) s"
	check "whole tree: exit 0" [ "$rc" -eq 0 ]
	check "whole tree: struct acpi_scan_handler traps by its list_node" \
		grep -q '^struct acpi_scan_handler	list_node	struct list_head	include/acpi/acpi_bus.h	' "$tmp/tree.out"
	check "whole tree: struct device traps by its kobject" \
		grep -q '^struct device	kobj	struct kobject	' "$tmp/tree.out"
	for t in 'struct file_operations' 'struct kobj_attribute' 'struct attribute_group' 'struct static_key_false'; do
		check "whole tree: $t is no trap" \
			sh -c "! cut -f 1 '$tmp/tree.out' | grep -qxF '$t'"
	done
else
	ok "whole tree # SKIP TREE not set"
fi
finish
