#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Real spatch on the fixtures: facts.cocci must print exactly the rows in
# fixtures/NAME.facts (sorted; the uses rows of the value column are
# candidates/tests/test-value.sh's), and the driver must merge, cache and
# report errors.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cocci=$here/..
fx=$here/fixtures
. "$here/../../lib/tap.sh"

command -v spatch >/dev/null || { echo "1..0 # SKIP spatch missing"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-facts.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

cd "$fx" || exit 1
for exp in *.facts; do
	c=${exp%.facts}.c
	spatch --sp-file "$cocci/facts.cocci" --macro-file "$cocci/macros.h" \
		--no-includes --very-quiet "$c" 2>"$tmp/err" |
		grep -v '^uses	' | LC_ALL=C sort >"$tmp/got"
	if cmp -s "$tmp/got" "$exp"; then
		ok "facts rows of $c"
	else
		not_ok "facts rows of $c" \
			"$(diff "$exp" "$tmp/got" | grep '^[<>]' | head -n 3 | tr '\n\t' '| ')"
	fi
done

# the cases the finder depends on, spelled out
row() { grep -qxF "$(printf "$2")" "$1" && ok "$3" || not_ok "$3" "missing row"; }
row init_only.facts 'writes\tinit_only.c\t7\tboot_mode\tboot_mode_init\tassign' \
	"init-only write has its __init function"
row init_only.facts 'funcs\tinit_only.c\t5\tboot_mode_init\tstatic\tinit' \
	"__init function is marked init"
row hotplug.facts 'funcrefs\thotplug.c\t14\tfoo_cpu_online\tfoo_init' \
	"hotplug callback's address is taken"
row resume.facts 'funcrefs\tresume.c\t11\tfoo_resume\t-' \
	"resume handler in SIMPLE_DEV_PM_OPS is referenced"
row module_param.facts 'params\tmodule_param.c\t4\ttunable\tmodule_param\t0644\t-' \
	"module_param 0644"
row module_param.facts 'params\tmodule_param.c\t7\tboot_only\tmodule_param\t0\t-' \
	"module_param 0"
row sysctl.facts 'params\tsysctl.c\t9\tfoo_limit\tsysctl\t0644\tproc_dointvec' \
	"sysctl .data with mode"
row addr_escape.facts 'writes\taddr_escape.c\t7\tfoo_nb\tfoo_init\taddr' \
	"&x escape"
row array_decay.facts 'writes\tarray_decay.c\t7\tfoo_name\tfoo_rename\tarray-arg' \
	"array decays into a writer"
row helper.facts 'funcrefs\thelper.c\t18\tbar_set_level\t-' \
	"helper stored in an ops struct is referenced"
row helper.facts 'calls\thelper.c\t23\tfoo_init\tfoo_set_level' \
	"helper called from __init has its call edge"
if grep -q 'funcrefs	helper.c	[0-9]*	foo_set_level' helper.facts; then
	not_ok "init-only helper has no funcref" "found one"
else
	ok "init-only helper has no funcref"
fi
row read_mostly.facts 'defs\tread_mostly.c\t3\tfoo_mask\tstatic\tunsigned long\t0\tread_mostly\t0' \
	"__read_mostly attribute"
row initdata.facts 'defs\tinitdata.c\t3\tfoo_cmdline\tstatic\tchar [ 64 ]\t1\tinitdata\t0' \
	"__initdata attribute"
row memcpy.facts 'writes\tmemcpy.c\t12\tfoo_saved\tfoo_save\tmemcpy' "memcpy into x"
row field.facts 'writes\tfield.c\t13\tfoo_cfg\tfoo_configure\tfield' "x.f = e"
if grep '^writes' field.facts | grep -v '	read$' | grep -v '	pointee$' |
	grep -q foo_cur; then
	not_ok "p->f is not a write of p" "found"
else
	ok "p->f is not a write of p"
fi
row field.facts 'writes\tfield.c\t14\tfoo_cur\tfoo_configure\tpointee' \
	"p->f writes the pointee of p"
row element.facts 'writes\telement.c\t11\tfoo_table\tfoo_fill\telement' "x[i] = e"
row lvalue_macros.facts 'writes\tlvalue_macros.c\t40\tfoo_once\tfoo_runtime\tassign' \
	"WRITE_ONCE(x, v) writes x"
row lvalue_macros.facts 'writes\tlvalue_macros.c\t41\tfoo_st\tfoo_runtime\tfield' \
	"WRITE_ONCE(x.f, v) is a field write"
row lvalue_macros.facts 'writes\tlvalue_macros.c\t45\tfoo_rel_tab\tfoo_runtime\telement' \
	"smp_store_release(&x[i], v) is an element write"
row lvalue_macros.facts 'writes\tlvalue_macros.c\t57\tfoo_pc\tfoo_runtime\tassign' \
	"this_cpu_write(x, v) writes x"
row alias.facts 'writes\talias.c\t35\tfoo_conf\tfoo_set\tfield' \
	"P = &x in __init, P->f = e later writes x"
row alias.facts 'writes\talias.c\t38\tfoo_local_conf\tfoo_set\tfield' \
	"local alias: p = &x; p->f++ writes x"
if grep 'writes	subscript.c	[0-9]*	foo_map' subscript.facts |
   grep -qv '	read$'; then
	not_ok "__set_bit(arr[i], bits) does not write arr" "found"
else
	ok "__set_bit(arr[i], bits) does not write arr"
fi
row subscript.facts 'writes\tsubscript.c\t11\tfoo_s\tfoo_mark\tmemcpy' \
	"set_bit(n, x.bits) writes x"

row reads.facts 'writes\treads.c\t28\tfoo_rates\tfoo_peek\tread' \
	"a static variable read in a runtime function has a read row"
row reads.facts 'writes\treads.c\t21\tfoo_rates\tfoo_setup\tread' \
	"a read in __init code has a read row"
row reads.facts 'writes\treads.c\t15\tfoo_seen\t-\tread' \
	"a mention in a #define body is a read at file scope"
if grep -q '	foo_opt	foo_setup	read$' reads.facts ||
   grep -q 'reads.c	[0-9]*	foo_opt	-	read' reads.facts; then
	not_ok "no read row for a write line in __init, or a struct tag" "found"
else
	ok "no read row for a write line in __init, or a struct tag"
fi

# the driver: a git tree of fixtures, merged tables, cache reuse
mkdir "$tmp/tree"
cp "$fx"/*.c "$tmp/tree/"
printf 'static int broken = ;\nstatic int __init f(void) { return 0; }\n' >"$tmp/tree/zz_bad.c"
(cd "$tmp/tree" && git init -q . && git add . &&
	git -c user.name=t -c user.email=t@t commit -qm t) || exit 1
if sh "$cocci/run-facts.sh" -j 2 "$tmp/tree" "$tmp/facts" 2>"$tmp/log1"; then
	ok "run-facts.sh exits 0"
else
	not_ok "run-facts.sh exits 0" "$(tail -n 1 "$tmp/log1")"
fi
for t in defs writes funcs funcrefs calls params errors; do
	[ -f "$tmp/facts/$t.tsv" ] || { not_ok "$t.tsv written" missing; continue; }
	ok "$t.tsv written"
done
head -n 1 "$tmp/facts/writes.tsv" | grep -qx 'file	line	var	func	form' &&
	ok "writes.tsv header" || not_ok "writes.tsv header" "wrong"
# phase 1 takes files with init code or parameters; phase 2 adds the
# files that mention their globals; the others are not needed
for f in $(grep -v zz_bad "$tmp/facts/files.txt"); do
	cat "$fx/${f%.c}.facts"
done | grep '^writes	' | cut -f2- | LC_ALL=C sort >"$tmp/expw"
grep -qx 'memcpy.c' "$tmp/facts/files.txt" &&
	not_ok "prefilter skips files without init code" "memcpy.c analysed" ||
	ok "prefilter skips files without init code"
grep -qx 'helper.c' "$tmp/facts/files.txt" &&
	ok "prefilter keeps files with __init" ||
	not_ok "prefilter keeps files with __init" "helper.c missing"
grep -v '^file	' "$tmp/facts/writes.tsv" | grep -v '^zz_bad' | LC_ALL=C sort >"$tmp/gotw"
cmp -s "$tmp/expw" "$tmp/gotw" && ok "merged writes equal the per-file rows" ||
	not_ok "merged writes equal the per-file rows" "differ"
grep -q '^zz_bad.c	parse-error' "$tmp/facts/errors.tsv" &&
	ok "parse failure recorded in errors.tsv" ||
	not_ok "parse failure recorded in errors.tsv" "$(cat "$tmp/facts/errors.tsv" | tr '\n\t' '| ')"
sh "$cocci/run-facts.sh" -j 2 "$tmp/tree" "$tmp/facts" 2>"$tmp/log2"
grep -q ' 0 to run' "$tmp/log2" && ok "rerun reuses the cache" ||
	not_ok "rerun reuses the cache" "$(head -n 1 "$tmp/log2")"
echo 'static int added; void g(void) { added = 1; }' >>"$tmp/tree/init_only.c"
sh "$cocci/run-facts.sh" -j 2 "$tmp/tree" "$tmp/facts" 2>"$tmp/log3"
grep -q ' 1 to run' "$tmp/log3" && grep -q '	added	g	assign' "$tmp/facts/writes.tsv" &&
	ok "a changed file is rerun" || not_ok "a changed file is rerun" "$(head -n 1 "$tmp/log3")"
sh "$cocci/run-facts.sh" "$tmp/nonexistent" "$tmp/f2" 2>/dev/null
[ $? -eq 64 ] && ok "bad TREE exits 64" || not_ok "bad TREE exits 64" "other status"


# The call rules pick their names with regexes that repeat the Python
# WRITER_CALL_RE and READER_CALL_RE (SmPL cannot read a Python string):
# the copies must be the same, and the Python side asserts at start that
# every writer and reader name matches them.
pyre() {	# NAME: the Python string constant NAME = ("..." "...") as one line
	sed -n "/^$1 = (/,/)\$/p" "$cocci/facts.cocci" | sed "s/^$1 = (//; s/)\$//" |
		tr -d '\n\t' | sed 's/""//g; s/^"//; s/"$//'
}
wre=$(pyre WRITER_CALL_RE)
rre=$(pyre READER_CALL_RE)
nw=$(grep -cxF "identifier F =~ \"$wre\";" "$cocci/facts.cocci")
nwr=$(grep -cxF "identifier F =~ \"$wre|$rre\";" "$cocci/facts.cocci")
nall=$(grep -c '^identifier F =~ "^(' "$cocci/facts.cocci")
[ -n "$wre" ] && [ -n "$rre" ] && [ "$nw" -eq 4 ] && [ "$nwr" -eq 2 ] && [ "$nall" -eq 6 ] &&
	ok "the call rules' regexes are the Python WRITER_CALL_RE and READER_CALL_RE" ||
	not_ok "the call rules' regexes are the Python WRITER_CALL_RE and READER_CALL_RE" \
		"$nw writer rules, $nwr writer-or-reader rules, $nall in all"
sed 's/|smp_store_mb|/|/' "$cocci/facts.cocci" >"$tmp/narrow.cocci"
spatch --sp-file "$tmp/narrow.cocci" --macro-file "$cocci/macros.h" \
	--no-includes --very-quiet "$fx/init_only.c" >/dev/null 2>"$tmp/narrow.err"
rc=$?
[ $rc -ne 0 ] && grep -q 'AssertionError: smp_store_mb' "$tmp/narrow.err" &&
	ok "a writer the regex misses stops spatch at start, naming it" ||
	not_ok "a writer the regex misses stops spatch at start, naming it" \
		"exit $rc: $(tail -n 2 "$tmp/narrow.err" | tr '\n' ' ')"

finish
