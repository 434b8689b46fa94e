#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench-lvalue.sh on a small git tree: which lvalue-macro writes of
# ro_after_init candidates it reports (runtime only, the right names, not
# comments, strings, pointees, __init or __exit code), its results rows
# with the kernel version, and its exit codes.
set -u
cd "$(dirname "$0")/../.." || exit 1
. lib/tap.sh
T=$(mktemp -d "${TMPDIR:-/tmp}/bench-lvalue.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

mkdir -p "$T/tree/d" "$T/work"
cat > "$T/tree/d/a.c" <<'C'
static int foo_a, foo_b, foo_c, foo_e;
struct foo_s { int f; } foo_g, *foo_p;
static long foo_arr[4];

static int __init foo_init(void)
{
	WRITE_ONCE(foo_b, 1);
	return 0;
}

static void
foo_rt(int v, int i)
{
	/* WRITE_ONCE(foo_b, v); */
	pr_info("WRITE_ONCE(foo_b, v)\n");
	WRITE_ONCE(foo_a, v);
	WRITE_ONCE(foo_p->f, v);
	xchg(foo_arr, v);
	xchg(&foo_arr[i], v);
	this_cpu_write(foo_e,
		       v);
}

static void __exit foo_exit(void)
{
	WRITE_ONCE(foo_c, 0);
}
C
cat > "$T/tree/d/b.c" <<'C'
static int foo_c;

#define SET_C(v) WRITE_ONCE(foo_c, v)
void bar_rt(int v)
{
	WRITE_ONCE(foo_c, v);
	smp_store_release(&foo_g.f, v);
	WRITE_ONCE(foo_r, v);
}
C
# a pointer written through p[i] writes its pointee (not reported); an
# array of pointers written the same way is written itself
cat > "$T/tree/d/c.c" <<'C'
static u32 *foo_ptr;
static u32 *foo_ptrarr[4];

void baz_rt(int i, u32 v)
{
	WRITE_ONCE(foo_ptr[i], v);
	WRITE_ONCE(foo_ptrarr[i], &v);
}
C
# a kernel Makefile answers kernelversion: the results rows carry it
printf 'kernelversion:\n\t@echo 9.99.1\n' > "$T/tree/Makefile"
(cd "$T/tree" && git init -q . && git add . &&
	git -c user.name=t -c user.email=t@t commit -qm t) || exit 1
printf 'file\tline\tname\tstorage\tclass\tconfidence\treason\tevidence\n' > "$T/cand.tsv"
for r in "a.c foo_a static high" "a.c foo_b static high" \
	 "a.c foo_c static medium" "a.c foo_e static high" \
	 "a.c foo_g global medium" "a.c foo_p global high" \
	 "a.c foo_arr static high"; do
	set -- $r
	printf 'd/%s\t1\t%s\t%s\tro_after_init\t%s\tr\t-\n' "$1" "$2" "$3" "$4" >> "$T/cand.tsv"
done
printf 'd/b.c\t1\tfoo_r\tglobal\trejected\t-\tr\t-\n' >> "$T/cand.tsv"
printf 'd/c.c\t1\tfoo_ptr\tstatic\tro_after_init\thigh\tr\t-\n' >> "$T/cand.tsv"
printf 'd/c.c\t2\tfoo_ptrarr\tstatic\tro_after_init\thigh\tr\t-\n' >> "$T/cand.tsv"

sh candidates/bench-lvalue.sh "$T/tree" "$T/work" "$T/cand.tsv" > "$T/out" 2>&1
rc=$?
[ $rc -eq 1 ] && ok "exit 1 when a candidate is written" || not_ok "exit 1 when a candidate is written" "rc=$rc: $(cat "$T/out")"
v=$T/work/bench/lvalue/violations.tsv
got=$(tail -n +2 "$v" | cut -f1-5 | tr '\t' ' ' | tr '\n' '|')
want='d/a.c 16 foo_a WRITE_ONCE foo_rt|d/a.c 19 foo_arr xchg foo_rt|d/a.c 20 foo_e this_cpu_write foo_rt|d/b.c 7 foo_g smp_store_release bar_rt|d/c.c 7 foo_ptrarr WRITE_ONCE baz_rt|'
[ "$got" = "$want" ] && ok "the runtime sites, and only them" ||
	not_ok "the runtime sites, and only them" "got $got"
grep -q '	foo_g	smp_store_release	bar_rt	d/a.c	medium$' "$v" &&
	ok "a global written in another file names its own file" ||
	not_ok "a global written in another file names its own file" "$(cat "$v")"
res=$T/work/bench/results.tsv
grep -q '^lvalue	violations	5	variables	' "$res" &&
	grep -q '^lvalue	violations_high	4	variables	' "$res" &&
	grep -q '^lvalue	candidates_checked	9	variables	' "$res" &&
	grep -q '^lvalue	kernel	9.99.1	version	' "$res" &&
	ok "results rows" || not_ok "results rows" "$(cat "$res")"

awk -F '\t' -v OFS='\t' '$3 != "foo_a" && $3 != "foo_arr" && $3 != "foo_e" &&
	$3 != "foo_g" && $3 != "foo_ptrarr"' "$T/cand.tsv" > "$T/clean.tsv"
sh candidates/bench-lvalue.sh "$T/tree" "$T/work" "$T/clean.tsv" > "$T/out" 2>&1
rc=$?
[ $rc -eq 0 ] && ok "exit 0 without a violation" || not_ok "exit 0 without a violation" "rc=$rc: $(cat "$T/out")"
sh candidates/bench-lvalue.sh "$T/tree" "$T/work" "$T/none.tsv" > "$T/out" 2>&1
rc=$?
[ $rc -eq 65 ] && ok "exit 65 without candidates" || not_ok "exit 65 without candidates" "rc=$rc"
sh candidates/bench-lvalue.sh "$T/tree" > "$T/out" 2>&1
rc=$?
[ $rc -eq 64 ] && ok "exit 64 on usage" || not_ok "exit 64 on usage" "rc=$rc"
finish
