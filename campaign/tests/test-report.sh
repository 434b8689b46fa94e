#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-report.sh - campaign/report on fixture files, in a second: no
# kernel, no boot.  The funnel split by evidence level (funnel.tsv rows
# after "accepted", the HTML bars on one linear scale, each labelled with
# its count), report.tsv's level column, the section that lists every
# not-built candidate with its reason, grouped by kind, a journal
# without the level column giving the same report, and initdata
# conversions as their own kind (kinds.tsv, the annotation column, a
# modpost rejection decided before any boot).
#
# Environment: REPORT_BIN (default campaign/report).

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
. "$top/lib/tap.sh"

REPORT_BIN=${REPORT_BIN:-$here/report}
[ -x "$REPORT_BIN" ] || { not_ok "campaign/report is built" "run make programs"; finish; }

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT INT TERM
TAB=$(printf '\t')

# row FIELD...: one TSV line
row() {
	_sep=
	for _f; do
		printf '%s%s' "$_sep" "$_f"
		_sep=$TAB
	done
	printf '\n'
}

# Ten candidates (and two variables that are not): three accepted, one
# per level; five not built, for three kinds of reason; one rejected at
# boot; one not validated.
cand() { row "$1" "$2" "$3" static ro_after_init high "written in init only" "$1:$(($2 + 20)):setup:assign"; }
{
	row file line name storage class confidence reason evidence
	cand kernel/a.c 10 ex_var
	cand drivers/x/foo.c 11 cy_var
	cand drivers/x/bar.c 12 bu_var
	cand arch/arm64/kernel/a.c 13 arm_one
	cand arch/arm64/kernel/b.c 14 arm_two
	cand drivers/y/baz.c 15 unmet_var
	cand mm/hugetlb.c 16 prof_var
	cand drivers/z/q.c 17 kbuild_var
	cand kernel/b.c 18 rej_var
	cand kernel/c.c 19 new_var
	row kernel/d.c 20 const_var static const - "never written" -
	row kernel/d.c 21 late_var static rejected - "written after init" kernel/d.c:40:late_fn:assign
} >"$t/candidates.tsv"
jrow() {	# jrow VARIABLE FILE LINE VERDICT EVIDENCE LEVEL
	row 2024-01-01T00:00:00Z "$1" "$2" "$3" b1 "$4" "$5" "$6" 397dcf7261fa 76d981e2b718
}
{
	row time variable file line batch verdict evidence level config_hash core_hash
	jrow ex_var kernel/a.c 10 accepted "built=kernel/a.o,vmlinux; booted=warn,default; exercised=boot,cpu-hotplug; ran=a_show:12; ran-in=cpu-hotplug" reached
	jrow cy_var drivers/x/foo.c 11 accepted "built=drivers/x/foo.o,drivers/x/foo.ko; booted=warn,default; exercised=modules; cycled=foo" module-cycled
	jrow bu_var drivers/x/bar.c 12 accepted "built=drivers/x/bar.o,drivers/x/bar.ko; booted=warn,default; exercised=modules; not-cycled=bar: init failed (No such device)" built
	jrow arm_one arch/arm64/kernel/a.c 13 not-built "not-built: other-arch: arm64 (arch/arm64/kernel/a.c is under arch/arm64)" -
	jrow arm_two arch/arm64/kernel/b.c 14 not-built "not-built: other-arch: arm64 (arch/arm64/kernel/b.c is under arch/arm64)" -
	jrow unmet_var drivers/y/baz.c 15 not-built "not-built: unmet: CONFIG_BAZ did not stick: drivers/y/Kconfig:3: depends on PCI && <X>" -
	jrow prof_var mm/hugetlb.c 16 not-built "not-built: mm/hugetlb.o is not compiled in profile wide" -
	jrow kbuild_var drivers/z/q.c 17 not-built "not-built: no kbuild rule in drivers/z names q.o" -
	jrow rej_var kernel/b.c 18 rejected "violation: written by b_store+0x1a/0x40 (rej_var at 0xffffffff82000000, kallsyms: rej_var, 1 times)" -
} >"$t/journal.tsv"

"$REPORT_BIN" --candidates "$t/candidates.tsv" --journal "$t/journal.tsv" \
	--out "$t" >"$t/out" 2>&1
rc=$?
check "report on the fixtures: exit 0 (got $rc)" [ $rc -eq 0 ]

# ---- funnel.tsv -------------------------------------------------------------
want="scanned 12
candidates 10
validated 9
built 4
booted 4
accepted 3
accepted-reached 1
accepted-device-bound 0
accepted-module-cycled 1
accepted-booted 0
accepted-built 1"
got=$(tail -n +2 "$t/funnel.tsv" | tr '\t' ' ')
check "funnel.tsv: the stages, then the accepted ones per level after 'accepted'" [ "$got" = "$want" ]
check "funnel.tsv: the header is 'stage count'" [ "$(head -n 1 "$t/funnel.tsv")" = "stage${TAB}count" ]

# ---- report.tsv ---------------------------------------------------------------
# col FILE NAME KEY_COL KEY: column NAME of the row whose KEY_COL is KEY
col() {
	awk -F '\t' -v n="$2" -v kc="$3" -v k="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c[kc] == k { print $c[n]; exit }' "$1"
}
levels=
for v in ex_var cy_var bu_var arm_one rej_var new_var; do
	levels="$levels $v=$(col "$t/report.tsv" level name $v)"
done
check "report.tsv: a level column (reached, module-cycled, built, '-' otherwise)" \
	[ "$levels" = " ex_var=reached cy_var=module-cycled bu_var=built arm_one=- rej_var=- new_var=-" ]
check "report.tsv: the level column comes after verdict" \
	[ "$(head -n 1 "$t/report.tsv" | cut -f 5-7)" = "verdict${TAB}level${TAB}stage" ]

# ---- the funnel in report.html ----------------------------------------------
# Each bar: its data-count, the width of its rect and its count label.
sed -n 's/.*data-stage="\([a-z-]*\)" data-count="\([0-9]*\)">.*<rect [^>]*width="\([0-9]*\)".*<text class="count"[^>]*>\([0-9]*\)<.*/\1 \2 \3 \4/p' \
	"$t/report.html" >"$t/bars"
check "report.html: 11 funnel bars, the five levels after accepted" \
	[ "$(cut -d ' ' -f 1 "$t/bars" | tr '\n' ' ')" = "scanned candidates validated built booted accepted accepted-reached accepted-device-bound accepted-module-cycled accepted-booted accepted-built " ]
check "report.html: each bar is labelled with its count" \
	awk '$2 != $4 { exit 1 }' "$t/bars"
# Linear: width = 2 + 638 * count / 12 (the scanned count is the full
# width), within a pixel; a log scale would make 3 of 12 nearly as long.
check "report.html: bar lengths are linear in the count" \
	awk '{ w = $2 ? 2 + 638 * $2 / 12 : 0; if ($3 < w - 1 || $3 > w + 1) exit 1 }' "$t/bars"
acc=$(awk '$1 == "accepted" { print $3 }' "$t/bars")
cand=$(awk '$1 == "candidates" { print $3 }' "$t/bars")
check "report.html: 3 accepted of 10 candidates is under a third of its bar ($acc of $cand px)" \
	[ $((acc * 10)) -le $((cand * 3 + 20)) ]

# ---- the not-built section -----------------------------------------------------
kinds=$(sed -n 's/.*<table class="not-built" data-kind="\([^"]*\)" data-count="\([0-9]*\)">.*/\1=\2/p' "$t/report.html" | tr '\n' ' ')
check "report.html: not-built candidates grouped by kind, the most common first" \
	[ "$kinds" = "other-arch=2 unmet=1 no kbuild rule=1 not compiled in the profile=1 " ]
check "report.html: the section's heading counts all 5" \
	grep -q '<h2 id="not-built">Not built (5)</h2>' "$t/report.html"
check "report.html: each reason without its 'not-built: ' stage, HTML-escaped" \
	grep -q '<tr class="not-built" data-variable="unmet_var">.*<td>unmet: CONFIG_BAZ did not stick: drivers/y/Kconfig:3: depends on PCI &amp;&amp; &lt;X&gt;</td></tr>' "$t/report.html"
check "report.html: ... the other-arch reason names the arch and the file" \
	grep -q '<td>other-arch: arm64 (arch/arm64/kernel/b.c is under arch/arm64)</td>' "$t/report.html"
check "report.html: ... the profile reason names the object and the profile" \
	grep -q '<td>mm/hugetlb.o is not compiled in profile wide</td>' "$t/report.html"
check "report.html: the kinds table counts each kind" \
	grep -q '<tr data-kind="other-arch"><td><a href="#not-built-[0-9]*">other-arch</a></td><td>2</td></tr>' "$t/report.html"
check "report.html: an accepted candidate's verdict shows its level" \
	grep -q 'data-variable="cy_var">.*<td class="verdict">accepted<br><small class="level">module-cycled</small>' "$t/report.html"
check "report.html: a reached conversion says in words what ran" \
	grep -q 'data-variable="ex_var">.*<span class="said">its reader a_show() ran 12 times during CPU hotplug after init, with the section read-only</span>' "$t/report.html"

# ---- a journal without the level column ---------------------------------------
mkdir -p "$t/old"
cut -f 1-7,9- "$t/journal.tsv" >"$t/old/journal.tsv"
"$REPORT_BIN" --candidates "$t/candidates.tsv" --journal "$t/old/journal.tsv" \
	--out "$t/old" >"$t/old.out" 2>&1
rc=$?
check "report on a journal without the level column: exit 0 (got $rc)" [ $rc -eq 0 ]
check "... the same report.tsv (levels derived)" cmp -s "$t/report.tsv" "$t/old/report.tsv"
check "... the same funnel.tsv" cmp -s "$t/funnel.tsv" "$t/old/funnel.tsv"
# A journal whose level contradicts its evidence is refused.
mkdir -p "$t/bad"
sed 's/\tmodule-cycled\t/\texercised\t/' "$t/journal.tsv" >"$t/bad/journal.tsv"
"$REPORT_BIN" --candidates "$t/candidates.tsv" --journal "$t/bad/journal.tsv" \
	--out "$t/bad" >"$t/bad.out" 2>&1
rc=$?
check "a level that contradicts the evidence: exit 65 naming journal.tsv:3, no report (got $rc)" \
	sh -c "[ $rc -eq 65 ] && grep -q 'journal.tsv:3: column .level.' '$t/bad.out' && [ ! -e '$t/bad/report.tsv' ]"

# ---- initdata conversions: their own kind, through the funnel ---------------
# Five conversions and a const row: one __ro_after_init accepted and
# queued; two __initdata, one accepted and queued, one rejected by a new
# modpost section mismatch (decided before any boot); two __initconst, one
# named by the section check of its accepted verdict (.init.rodata) and
# not queued, one named by the optional annotation column and not
# validated.
i=$t/init
mkdir -p "$i/queue/01-init"
{
	row file line name storage class confidence reason evidence annotation
	row init/main.c 10 ro_a static ro_after_init high "written in init only" init/main.c:30:setup:assign -
	row init/main.c 11 id_q static initdata - "read and written only by __init code (1 writes): __initdata, freed with the init sections" init/main.c:31:setup:assign -
	row init/main.c 12 id_rej static initdata - "read and written only by __init code (1 writes): __initdata, freed with the init sections" init/main.c:32:setup:assign -
	row init/main.c 13 ic_tab static initdata - "const, read only by __init code" - -
	row init/main.c 14 ic_col static initdata - "read only by __init code" - initconst
	row init/main.c 15 c_var static const - "never written" - -
} >"$i/candidates.tsv"
{
	row time variable file line batch verdict evidence level config_hash core_hash
	jrow ro_a init/main.c 10 accepted "built=init/main.o,vmlinux; booted=warn,default; exercised=boot" exercised
	jrow id_q init/main.c 11 accepted "built=init/main.o,vmlinux; section=.init.data; modpost=no-mismatch; booted=warn,default; exercised=boot" exercised
	jrow id_rej init/main.c 12 rejected "modpost: section mismatch in vmlinux: late_fn (section: .text) refers to id_rej (section: .init.data), which is freed after init" -
	jrow ic_tab init/main.c 13 accepted "built=init/main.o,vmlinux; section=.init.rodata; modpost=no-mismatch; booted=warn,default; exercised=boot" exercised
} >"$i/journal.tsv"
printf '01-init/0001-init-Mark-id_q.patch\n01-init/0002-init-Mark-ro_a.patch\n' >"$i/queue/series"
# The queue's index.tsv links the variables to their patches.  The
# __initdata patch also names ic_tab (an __initconst conversion) on an
# added line: only the index links a variable.
{
	row file line name annotation patch
	row init/main.c 11 id_q initdata 01-init/0001-init-Mark-id_q.patch
	row init/main.c 10 ro_a ro_after_init 01-init/0002-init-Mark-ro_a.patch
} >"$i/queue/index.tsv"
cat >"$i/queue/01-init/0001-init-Mark-id_q.patch" <<'EOF'
Subject: [PATCH] init: Mark id_q as __initdata

--- a/init/main.c
+++ b/init/main.c
@@ -11 +11 @@
-static char *id_q;
+static char *id_q __initdata;	/* read with ic_tab */
EOF
cat >"$i/queue/01-init/0002-init-Mark-ro_a.patch" <<'EOF'
Subject: [PATCH] init: Mark ro_a as __ro_after_init

--- a/init/main.c
+++ b/init/main.c
@@ -10 +10 @@
-static int ro_a;
+static int ro_a __ro_after_init;
EOF
"$REPORT_BIN" --candidates "$i/candidates.tsv" --journal "$i/journal.tsv" \
	--queue "$i/queue" --out "$i" >"$i/out" 2>&1
rc=$?
check "initdata fixtures: exit 0 (got $rc)" [ $rc -eq 0 ]
want="scanned 6
candidates 5
validated 4
built 3
booted 3
accepted 3"
got=$(tail -n +2 "$i/funnel.tsv" | head -n 6 | tr '\t' ' ')
check "funnel.tsv: initdata rows are candidates; a modpost rejection never booted" \
	[ "$got" = "$want" ]
want="annotation candidates validated accepted queued
__ro_after_init 1 1 1 1
__initdata 2 2 1 1
__initconst 2 1 1 0"
got=$(tr '\t' ' ' <"$i/kinds.tsv")
check "kinds.tsv: each annotation's funnel, candidates to queued" [ "$got" = "$want" ]
kinds=
for v in ro_a id_q id_rej ic_tab ic_col; do
	kinds="$kinds $v=$(col "$i/report.tsv" annotation name $v)"
done
check "report.tsv: the annotation (from the reason, the column, the section check)" \
	[ "$kinds" = " ro_a=__ro_after_init id_q=__initdata id_rej=__initdata ic_tab=__initconst ic_col=__initconst" ]
links="$(col "$i/report.tsv" patch name id_q) $(col "$i/report.tsv" patch name ro_a) $(col "$i/report.tsv" patch name ic_tab)"
check "report.tsv: patches linked by the queue's index.tsv" \
	[ "$links" = "01-init/0001-init-Mark-id_q.patch 01-init/0002-init-Mark-ro_a.patch -" ]
check "report.tsv: the modpost rejection's stage is validated" \
	[ "$(col "$i/report.tsv" stage name id_rej)" = validated ]
# These journal rows carry the level's old name, exercised: read as booted.
check "report.tsv: a journal level 'exercised' (the old name) reads as booted" \
	[ "$(col "$i/report.tsv" level name ro_a) $(col "$i/report.tsv" level name id_q)" = "booted booted" ]
check "report.html: the by-annotation table counts __initdata's funnel" \
	grep -q '<tr data-annotation="__initdata"><td><code>__initdata</code></td><td data-stage="candidates">2</td><td data-stage="validated">2</td><td data-stage="accepted">1</td><td data-stage="queued">1</td></tr>' "$i/report.html"
check "report.html: each candidate's row shows its annotation" \
	grep -q 'data-variable="ic_tab"><td><code>ic_tab</code></td><td>init/main.c:13</td><td><code class="annotation">__initconst</code>' "$i/report.html"
check "report: its closing line counts each annotation" \
	grep -q '^report: by annotation: __ro_after_init 1 (accepted 1, queued 1), __initdata 2 (accepted 1, queued 1), __initconst 2 (accepted 1, queued 0)$' "$i/out"
# A bad annotation column is refused, naming the line.
mkdir -p "$i/bad"
sed 's/\tinitconst$/\tinitconstant/' "$i/candidates.tsv" >"$i/bad/candidates.tsv"
"$REPORT_BIN" --candidates "$i/bad/candidates.tsv" --journal "$i/journal.tsv" \
	--out "$i/bad" >"$i/bad.out" 2>&1
rc=$?
check "an unknown annotation: exit 65 naming candidates.tsv:6, no report (got $rc)" \
	sh -c "[ $rc -eq 65 ] && grep -q 'candidates.tsv:6:' '$i/bad.out' && [ ! -e '$i/bad/report.tsv' ]"

# ---- the key (file, line, name): #ifdef variants and namesakes ---------------
# dual has two #ifdef definitions in kernel/v.c (lines 10 and 20), each
# with its own verdict; twin is a static of fs/a.c and of fs/b.c, each
# queued in a patch of its own, fs/b.c's first in the series.  Keyed by
# (file, name), the line-20 dual would get no verdict (or line 10's), and
# fs/a.c's twin would be linked to the first patch that names a twin.
k=$t/key
mkdir -p "$k/queue/01-kernel" "$k/queue/02-fs"
{
	row file line name storage class confidence reason evidence
	cand kernel/v.c 10 dual
	cand kernel/v.c 20 dual
	cand fs/a.c 5 twin
	cand fs/b.c 5 twin
} >"$k/candidates.tsv"
acc="built=kernel/v.o,vmlinux; booted=warn,default; exercised=boot"
{
	row time variable file line batch verdict evidence level config_hash core_hash
	jrow dual kernel/v.c 10 accepted "$acc" exercised
	jrow dual kernel/v.c 20 rejected "violation: written by v_store+0x1a/0x40 (dual at 0xffffffff82000000, kallsyms: dual, 1 times)" -
	jrow twin fs/a.c 5 accepted "$acc" exercised
	jrow twin fs/b.c 5 accepted "$acc" exercised
} >"$k/journal.tsv"
kp=01-kernel/0001-kernel-Mark-dual.patch
pa=02-fs/0002-fs-a-Mark-twin.patch
pb=02-fs/0001-fs-b-Mark-twin.patch
printf '%s\n' "$kp" "$pb" "$pa" >"$k/queue/series"
# patch FILE LINE NAME: a patch that annotates NAME at FILE:LINE
patch() {
	printf 'Subject: [PATCH] Mark %s as __ro_after_init\n\n--- a/%s\n+++ b/%s\n@@ -%s +%s @@\n-static int %s;\n+static int %s __ro_after_init;\n' \
		"$3" "$1" "$1" "$2" "$2" "$3" "$3"
}
patch kernel/v.c 10 dual >"$k/queue/$kp"
patch fs/b.c 5 twin >"$k/queue/$pb"
patch fs/a.c 5 twin >"$k/queue/$pa"
{
	row file line name annotation patch
	row kernel/v.c 10 dual ro_after_init "$kp"
	row fs/b.c 5 twin ro_after_init "$pb"
	row fs/a.c 5 twin ro_after_init "$pa"
} >"$k/queue/index.tsv"
"$REPORT_BIN" --candidates "$k/candidates.tsv" --journal "$k/journal.tsv" \
	--queue "$k/queue" --out "$k" >"$k/out" 2>&1
rc=$?
check "key fixtures: exit 0 (got $rc)" [ $rc -eq 0 ]
# at COLUMN FILE LINE NAME: report.tsv's COLUMN of the key (FILE, LINE, NAME)
at() {
	awk -F '\t' -v n="$1" -v f="$2" -v l="$3" -v v="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["file"] == f && $c["line"] == l && $c["name"] == v { print $c[n] }' "$k/report.tsv"
}
got="$(at verdict kernel/v.c 10 dual) $(at verdict kernel/v.c 20 dual)"
check "#ifdef variants: each definition of dual has its own verdict (got '$got')" \
	[ "$got" = "accepted rejected" ]
got="$(at patch kernel/v.c 10 dual) $(at patch kernel/v.c 20 dual)"
check "#ifdef variants: only the queued definition links the patch (got '$got')" \
	[ "$got" = "$kp -" ]
got="$(at patch fs/a.c 5 twin) $(at patch fs/b.c 5 twin)"
check "namesakes: each static twin links its own file's patch (got '$got')" \
	[ "$got" = "$pa $pb" ]
finish
