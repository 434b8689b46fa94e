#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-faults.sh - campaign/report and campaign/campaign.sh on bad input,
# in seconds: no kernel build, no boot.  The report runs on small
# fixtures; campaign.sh runs in a copy of the checkout's layout whose
# stage programs are stubs that copy fixture files (the report is the
# real one), on a tiny git repository that stands for the kernel tree.
#
# Environment (to show the defects on older code): CAMPAIGN_SH (default
# campaign/campaign.sh), REPORT_BIN (default campaign/report).

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
. "$top/lib/tap.sh"

CAMPAIGN_SH=${CAMPAIGN_SH:-$here/campaign.sh}
REPORT_BIN=${REPORT_BIN:-$here/report}
[ -x "$REPORT_BIN" ] || { not_ok "campaign/report is built" "run make programs"; finish; }

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT INT TERM
TAB=$(printf '\t')

# ---- fixtures --------------------------------------------------------------

# row FIELD...: one TSV line
row() {
	_sep=
	for _f; do
		printf '%s%s' "$_sep" "$_f"
		_sep=$TAB
	done
	printf '\n'
}

mkdir -p "$t/fix"
{
	row file line name storage class confidence reason evidence
	row init/main.c 10 max_nr static ro_after_init high "written in init only" init/main.c:20:setup_nr:assign
	row init/main.c 11 nr static ro_after_init high "written in init only" init/main.c:21:setup_nr:assign
	row init/main.c 12 boot_mode static ro_after_init medium "its address escapes" init/main.c:22:setup_mode:addr
	row init/main.c 13 late_flag static rejected - "written after init" init/main.c:40:late_fn:assign
	row kernel/power/main.c 5 pm_mode global ro_after_init high "written in init only" kernel/power/main.c:9:pm_setup:assign
	row kernel/power/main.c 6 pm_table static const - "never written" -
	row mm/slab.c 7 slab_flag static ro_after_init high "written in init only" mm/slab.c:9:slab_setup:assign
} >"$t/fix/candidates.tsv"
# The same table, its columns in another order.
awk -F '\t' -v OFS='\t' '{ print $8, $5, $3, $7, $1, $6, $4, $2 }' \
	"$t/fix/candidates.tsv" >"$t/fix/candidates-reordered.tsv"

jrow() {	# jrow VARIABLE FILE LINE VERDICT EVIDENCE
	row 2024-01-01T00:00:00Z "$1" "$2" "$3" b1 "$4" "$5" 397dcf7261fa 76d981e2b718
}
{
	row time variable file line batch verdict evidence config_hash core_hash
	jrow max_nr init/main.c 10 accepted "built=init/main.o,vmlinux; booted=warn,default; exercised=boot"
	jrow nr init/main.c 11 rejected "oops: first try"
	jrow nr init/main.c 11 accepted "built=init/main.o,vmlinux; booted=warn,default; exercised=boot"
	jrow boot_mode init/main.c 12 rejected "build: error: assignment of read-only variable"
	# torn: the validator was killed while writing this row
	jrow pm_mode kernel/power/main.c 5 accepted "built=kernel/power/main.o,vmlinux" | tr -d '\n'
} >"$t/fix/journal.tsv"

# A queue whose one patch annotates max_nr and nr on one added line: the
# first match of "nr" is inside "max_nr".  Its index.tsv links both.
mkdir -p "$t/fix/queue/01-init"
printf '01-init/0001-init-Mark-max_nr-and-nr.patch\n' >"$t/fix/queue/series"
{
	row file line name annotation patch
	row init/main.c 10 max_nr ro_after_init 01-init/0001-init-Mark-max_nr-and-nr.patch
	row init/main.c 11 nr ro_after_init 01-init/0001-init-Mark-max_nr-and-nr.patch
} >"$t/fix/queue/index.tsv"
cat >"$t/fix/queue/01-init/0001-init-Mark-max_nr-and-nr.patch" <<'EOF'
Subject: [PATCH] init: Mark max_nr and nr as __ro_after_init

--- a/init/main.c
+++ b/init/main.c
@@ -10,2 +10,1 @@
-static int max_nr, nr;
+static int max_nr __ro_after_init, nr __ro_after_init;
EOF
mkdir -p "$t/fix/facts"
{
	row file line name storage section
	row init/main.c 20 setup_nr static init
} >"$t/fix/facts/funcs.tsv"

# report_run NAME [ARGS...]: the report on the fixtures into $t/NAME;
# exit status in $rc, stdout and stderr in $t/NAME.out
report_run() {
	_o=$t/$1
	shift
	mkdir -p "$_o"
	"$REPORT_BIN" --out "$_o" "$@" >"$_o.out" 2>&1
	rc=$?
}

# col FILE NAME KEY_COL KEY: column NAME of the row whose KEY_COL is KEY
col() {
	awk -F '\t' -v n="$2" -v kc="$3" -v k="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c[kc] == k { print $c[n]; exit }' "$1"
}

# ---- report ----------------------------------------------------------------

# Both variables of the one patch are linked to it.
{
	head -n 4 "$t/fix/journal.tsv"
} >"$t/fix/journal-ok.tsv"
report_run hw --candidates "$t/fix/candidates.tsv" \
	--journal "$t/fix/journal-ok.tsv" --queue "$t/fix/queue"
p=$(col "$t/hw/report.tsv" patch name nr)
check "report: nr links the patch that also annotates max_nr (exit $rc, got '$p')" \
	[ "$rc:$p" = 0:01-init/0001-init-Mark-max_nr-and-nr.patch ]
check "report: and max_nr links it too" \
	[ "$(col "$t/hw/report.tsv" patch name max_nr)" = 01-init/0001-init-Mark-max_nr-and-nr.patch ]

# A NUL byte in the journal: an error naming FILE:LINE, not rows lost.
{
	head -n 2 "$t/fix/journal.tsv"
	head -n 3 "$t/fix/journal.tsv" | tail -n 1 | sed 's/oops/oo@ps/' | tr '@' '\000'
	sed -n 4,5p "$t/fix/journal.tsv"
} >"$t/fix/journal-nul.tsv"
report_run nul --candidates "$t/fix/candidates.tsv" \
	--journal "$t/fix/journal-nul.tsv"
check "report: a NUL byte in the journal exits 65 (got $rc)" [ $rc -eq 65 ]
check "report: ... naming journal-nul.tsv:3" \
	grep -q 'journal-nul.tsv:3:.*NUL' "$t/nul.out"
check "report: ... and writes no report" [ ! -e "$t/nul/report.tsv" ]

# A torn last journal row was never a verdict: skipped with a warning,
# as validate and campaign.sh skip it.
report_run torn --candidates "$t/fix/candidates.tsv" \
	--journal "$t/fix/journal.tsv"
acc=$(col "$t/torn/funnel.tsv" count stage accepted)
check "report: a torn last journal row is not counted (exit $rc, accepted $acc, want 2)" \
	[ "$rc:$acc" = 0:2 ]
check "report: ... pm_mode is not validated" \
	[ "$(col "$t/torn/report.tsv" verdict name pm_mode)" = - ]
check "report: ... with a warning naming the row" \
	grep -q 'journal.tsv:6: skipping a torn last row' "$t/torn.out"

# Columns by name: the reordered candidates give the same report.
report_run byname --candidates "$t/fix/candidates-reordered.tsv" \
	--journal "$t/fix/journal-ok.tsv" --queue "$t/fix/queue"
check "report: candidates with their columns reordered give the same report.tsv" \
	cmp -s "$t/hw/report.tsv" "$t/byname/report.tsv"

# An index.tsv patch outside the queue.
mkdir -p "$t/fix/queue2"
cp "$t/fix/queue/series" "$t/fix/queue2/series"
{
	row file line name annotation patch
	row init/main.c 10 max_nr ro_after_init ../queue/01-init/0001-init-Mark-max_nr-and-nr.patch
} >"$t/fix/queue2/index.tsv"
report_run esc --candidates "$t/fix/candidates.tsv" \
	--journal "$t/fix/journal-ok.tsv" --queue "$t/fix/queue2"
check "report: an index.tsv patch with '..' exits 65 naming index.tsv:2 (got $rc)" \
	sh -c "[ $rc -eq 65 ] && grep -q 'queue2/index.tsv:2:' '$t/esc.out' && [ ! -e '$t/esc/report.tsv' ]"
# An index.tsv patch that is not in the queue.
mkdir -p "$t/fix/queue3"
{
	row file line name annotation patch
	row init/main.c 10 max_nr ro_after_init 01-init/0001-gone.patch
} >"$t/fix/queue3/index.tsv"
report_run gone --candidates "$t/fix/candidates.tsv" \
	--journal "$t/fix/journal-ok.tsv" --queue "$t/fix/queue3"
check "report: an index.tsv patch that is not there exits 65 naming index.tsv:2 (got $rc)" \
	sh -c "[ $rc -eq 65 ] && grep -q 'queue3/index.tsv:2: .*0001-gone.patch' '$t/gone.out'"
# A queue with patches but no index.tsv (made by an older queue.sh).
mkdir -p "$t/fix/queue4/01-init"
cp "$t/fix/queue/series" "$t/fix/queue4/series"
cp "$t/fix/queue/01-init/"*.patch "$t/fix/queue4/01-init/"
report_run noidx --candidates "$t/fix/candidates.tsv" \
	--journal "$t/fix/journal-ok.tsv" --queue "$t/fix/queue4"
check "report: a queue with patches and no index.tsv exits 65, saying make queue again (got $rc)" \
	sh -c "[ $rc -eq 65 ] && grep -q 'queue4/index.tsv: no such file.*make queue again' '$t/noidx.out'"

# Usage.
"$REPORT_BIN" --help >"$t/help.out" 2>&1
rc=$?
check "report --help: exit 0, prints the usage" \
	sh -c "[ $rc -eq 0 ] && grep -q '^usage: report' '$t/help.out'"
for a in "--bogus" "--candidates x --journal y" "--candidates x --journal y --out z extra"; do
	# shellcheck disable=SC2086
	"$REPORT_BIN" $a >/dev/null 2>&1
	rc=$?
	check "report $a: exit 64 (got $rc)" [ $rc -eq 64 ]
done

# ---- campaign.sh, with stub stages ---------------------------------------

# The checkout's layout, stage programs replaced by stubs that log their
# calls and copy the fixtures named by $FIX_CANDS and $FIX_JOURNAL.
r=$t/root
mkdir -p "$r/campaign" "$r/lib" "$r/cocci" "$r/candidates" "$r/validate" \
	"$r/patches" "$r/qemu-boot" "$t/bin"
cp "$CAMPAIGN_SH" "$r/campaign/campaign.sh"
cp "$top/lib/tsv.sh" "$r/lib/tsv.sh"
cp "$top/lib/args.sh" "$r/lib/args.sh"
ln -s "$REPORT_BIN" "$r/campaign/report"
ln -s "$REPORT_BIN" "$r/validate/report"	# where older code had it
stub() {	# stub PATH BODY
	printf '#!/bin/sh\necho "%s $*" >>"$STUB_LOG"\n%s\n' "${1##*/}" "$2" >"$1"
	chmod +x "$1"
}
stub "$r/cocci/run-facts.sh" 'mkdir -p "$4" && printf "init/main.c\n" >"$4/files.txt" && cp "$FIX_FUNCS" "$4/funcs.tsv"'
stub "$r/candidates/candidates" 'cp "$FIX_CANDS" "$4"'
stub "$r/patches/queue" 'exit 0'
stub "$r/validate/cover-plan" 'exit 0'
stub "$r/qemu-boot/boot" 'exit 0'
stub "$r/patches/queue.sh" 'mkdir -p "$5" && echo queue >"$5/README" && : >"$5/series"'
stub "$t/bin/spatch" 'exit 0'
# validate: --help probes go to the real validate (it owns --batch's range)
cat >"$r/validate/validate" <<EOF
#!/bin/sh
case " \$* " in *" --help "*) exec "$top/validate/validate" "\$@" ;; esac
echo "validate \$*" >>"\$STUB_LOG"
while [ \$# -gt 0 ]; do
	[ "\$1" = --journal ] && cp "\$FIX_JOURNAL" "\$2"
	shift
done
EOF
chmod +x "$r/validate/validate"

gitq() {
	git -C "$t/tree" -c user.name=t -c user.email=t@localhost \
		-c commit.gpgsign=false "$@"
}
mkdir -p "$t/tree/init" "$t/tree/kernel/power" "$t/tree/mm"
printf 'VERSION = 6\n' >"$t/tree/Makefile"
printf 'int x;\n' >"$t/tree/init/main.c"
printf 'int y;\n' >"$t/tree/kernel/power/main.c"
gitq init -q && gitq add -A && gitq commit -q -m core && gitq tag core
mkdir -p "$t/work/vtree"

export STUB_LOG="$t/calls" FIX_FUNCS="$t/fix/facts/funcs.tsv"
export FIX_CANDS="$t/fix/candidates.tsv" FIX_JOURNAL="$t/fix/journal.tsv"
export VTREE="$t/work/vtree" JOBS=2
export PATH="$t/bin:$PATH"

# campaign ARGS...: campaign.sh on the test tree; $rc, output in $t/c.out
campaign() {
	: >"$t/calls"
	sh "$r/campaign/campaign.sh" "$@" "$t/tree" "$t/work" >"$t/c.out" 2>&1
	rc=$?
}

# refused CODE DESC ARGS...: exits CODE before any stage ran
refused() {
	_want=$1
	_desc=$2
	shift 2
	rm -rf "$t/work/campaign"
	campaign "$@"
	if [ $rc -eq "$_want" ] && [ ! -s "$t/calls" ] && [ ! -e "$t/work/campaign" ]; then
		ok "campaign.sh $_desc: exit $_want before any work"
	else
		not_ok "campaign.sh $_desc: exit $_want before any work" \
			"exit $rc, stages run: $(tr '\n' ' ' <"$t/calls" | cut -c1-80); $(head -c 200 "$t/c.out")"
	fi
}

refused 64 "--name 'a b'" --name 'a b'
refused 64 "--name 'x\$(touch P)'" --name 'x$(touch P)'
refused 64 "--name ../up" --name ../up
refused 64 "--scope /etc (absolute)" --scope /etc
refused 64 "--scope 'init ../..' (..)" --scope 'init ../..'
refused 64 "--scope 'init/*' (a glob)" --scope 'init/*'
refused 64 "--scope 'q\$(touch X)'" --scope 'q$(touch X)'
refused 64 "--batch abc" --batch abc
refused 64 "--batch 0" --batch 0
refused 64 "--batch 4294967296 (validate's range)" --batch 4294967296
refused 64 "--scope without its value" --scope
refused 64 "--profile huge" --profile huge
refused 64 "an unknown option" --frobnicate
refused 65 "--scope no/such/dir (not in the tree)" --scope no/such/dir
[ ! -e P ] && [ ! -e X ] && [ ! -e "$t/work/P" ]
check "no command in --name or --scope ran" [ $? -eq 0 ]

# The stubbed campaign, candidates with their columns in the usual and in
# another order: the same counts, exclusions and report.
rm -rf "$t/work/campaign"
campaign --name plain --scope 'init kernel/power'
check "campaign.sh on stub stages: exit 0 (got $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/# /' "$t/c.out" | tail -n 8
check "campaign.sh: validate gets no --batch unless one was given" \
	sh -c "grep -q '^validate ' '$t/calls' && ! grep -q -- '--batch' '$t/calls'"
rm -rf "$t/work/campaign/batch"
campaign --name batch --batch 4
check "campaign.sh --batch 4: validate gets --batch 4 (exit $rc)" \
	sh -c "[ $rc -eq 0 ] && grep -q -- '^validate .* --batch 4\( \|\$\)' '$t/calls'"
FIX_CANDS=$t/fix/candidates-reordered.tsv
campaign --name reordered --scope 'init kernel/power'
check "campaign.sh, candidates reordered: exit 0 (got $rc)" [ $rc -eq 0 ]
P=$t/work/campaign/plain
R=$t/work/campaign/reordered
cand() { grep '^candidates:' "$1/summary.txt"; }
check "campaign.sh: 4 of 6 scope rows are candidates ($(cand "$P"))" \
	grep -q 'candidates: *6 variables: ro_after_init 4 (high 3, medium 1), initdata 0, const 1, rejected 1' "$P/summary.txt"
check "campaign.sh: the same candidates line with the columns reordered" \
	[ "$(cand "$P")" = "$(cand "$R")" ]
check "campaign.sh: scope.tsv keeps the 6 rows of the scope with the columns reordered" \
	sh -c "[ \$(wc -l < '$R/scope.tsv') -eq 7 ] && ! grep -q slab_flag '$R/scope.tsv'"
check "campaign.sh: the medium-confidence exclusion is boot_mode, in either order" \
	sh -c "[ \"\$(cut -f 1-3 '$P/exclude.tsv' | tail -n +2)\" = 'init/main.c${TAB}12${TAB}boot_mode' ] && cmp -s '$P/exclude.tsv' '$R/exclude.tsv'"
check "campaign.sh: the same funnel with the columns reordered" \
	cmp -s "$P/funnel.tsv" "$R/funnel.tsv"
check "campaign.sh: the summary skips the torn journal row as the report does" \
	sh -c "grep -q '^validated: *accepted 2 (reached [0-9]*, device-bound [0-9]*, module-cycled [0-9]*, booted [0-9]*, built [0-9]*), rejected 1, not-built 0' '$P/summary.txt' && [ \"\$(awk -F '\t' '\$1 == \"accepted\" { print \$2 }' '$P/funnel.tsv')\" = 2 ]"
FIX_CANDS=$t/fix/candidates.tsv


# ---- initdata conversions through campaign.sh --------------------------------
# One ro_after_init and two initdata rows (an __initdata one rejected by
# a new modpost section mismatch, an __initconst one accepted): validate's
# default classes, so both kinds are counted and validated.
{
	row file line name storage class confidence reason evidence
	row init/main.c 10 max_nr static ro_after_init high "written in init only" init/main.c:20:setup_nr:assign
	row init/main.c 14 init_buf static initdata - "read and written only by __init code (1 writes): __initdata, freed with the init sections" init/main.c:20:setup_nr:assign
	row init/main.c 15 init_tab static initdata - "const and read only by __init code: __initconst, freed with the init sections" -
	row kernel/power/main.c 6 pm_table static const - "never written" -
} >"$t/fix/candidates-init.tsv"
{
	row time variable file line batch verdict evidence config_hash core_hash
	jrow max_nr init/main.c 10 accepted "built=init/main.o,vmlinux; booted=warn,default; exercised=boot"
	jrow init_buf init/main.c 14 rejected "modpost: section mismatch in vmlinux: late_fn (section: .text) refers to init_buf (section: .init.data), which is freed after init"
	jrow init_tab init/main.c 15 accepted "built=init/main.o,vmlinux; section=.init.rodata; modpost=no-mismatch; booted=warn,default; exercised=boot"
} >"$t/fix/journal-init.tsv"
FIX_CANDS=$t/fix/candidates-init.tsv
FIX_JOURNAL=$t/fix/journal-init.tsv
I=$t/work/campaign/init
campaign --name init --scope 'init kernel/power'
check "campaign.sh with initdata rows: exit 0 (got $rc)" [ $rc -eq 0 ]
check "campaign.sh: the validate line counts both kinds of conversion" \
	grep -q '^campaign: \[2/4\] validate: 3 candidates (1 ro_after_init, 2 initdata), profile fast' "$t/c.out"
check "campaign.sh: the candidates line counts the initdata rows" \
	grep -q '^candidates: *4 variables: ro_after_init 1 (high 1, medium 0), initdata 2, const 1, rejected 0' "$I/summary.txt"
check "campaign.sh: the summary counts each annotation through its funnel" \
	grep -q '^by annotation: *__ro_after_init 1 candidates, 1 validated, 1 accepted, 0 queued; __initdata 1 candidates, 1 validated, 0 accepted, 0 queued; __initconst 1 candidates, 1 validated, 1 accepted, 0 queued$' "$I/summary.txt"
check "campaign.sh: the summary names the modpost rejection" \
	grep -q '^  rejected by modpost: 1$' "$I/summary.txt"
check "campaign.sh: the funnel counts 3 candidates, the modpost rejection not booted" \
	[ "$(col "$I/funnel.tsv" count stage candidates) $(col "$I/funnel.tsv" count stage booted)" = "3 2" ]

# The cover profile: each wave passes both kinds to validate, and
# cover-plan (which plans ro_after_init rows only) gets the initdata rows'
# files as ro_after_init rows.  Waves of 2: max_nr and init_buf, init_tab.
base=$t/work/cover-base
mkdir -p "$base"
stub "$r/qemu-boot/build-kernel.sh" 'echo "$STUB_BASE"'
stub "$r/validate/cover-plan" 'while [ $# -gt 0 ]; do
	case $1 in
	--candidates) cat "$2" >>"$STUB_PLAN_IN" ;;
	--out) : >"$2/cover.config"; printf "file\n" >"$2/plan.tsv" ;;
	esac
	shift
done'
: >"$t/plan-in"
STUB_BASE=$base STUB_PLAN_IN=$t/plan-in VTREE=$t/work/vtree-cover COVER_WAVE=2 \
	campaign --name cover-init --profile cover --scope 'init kernel/power'
C=$t/work/campaign/cover-init
check "campaign.sh --profile cover with initdata rows: exit 0 (got $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/# /' "$t/c.out" | tail -n 8
check "cover: two waves of 2 and 1 conversions" \
	sh -c "grep -q 'cover wave 1/2 (2 candidates' '$t/c.out' && grep -q 'cover wave 2/2 (1 candidates' '$t/c.out'"
names() { cut -f 3 "$1" | tail -n +2 | tr '\n' ' '; }
check "cover: validate gets the initdata rows of each wave ($(names "$C/cover/wave-1/only.tsv")| $(names "$C/cover/wave-2/only.tsv"))" \
	[ "$(names "$C/cover/wave-1/only.tsv")|$(names "$C/cover/wave-2/only.tsv")" = "max_nr init_buf |init_tab " ]
check "cover: validate is run on each wave's only.tsv, with its plan" \
	[ "$(grep -c "^validate --candidates $C/cover/wave-[12]/only.tsv --cover-plan $C/cover/wave-[12]/plan.tsv" "$t/calls")" -eq 2 ]
check "cover: cover-plan's input names the initdata rows' files as ro_after_init rows" \
	[ "$(awk -F '\t' '$3 == "init_tab" { print $5 }' "$t/plan-in")" = ro_after_init ]
check "cover: ... and keeps each row's other columns" \
	grep -q "^init/main.c${TAB}15${TAB}init_tab${TAB}static${TAB}ro_after_init${TAB}-${TAB}const and read only" "$t/plan-in"
FIX_CANDS=$t/fix/candidates.tsv
FIX_JOURNAL=$t/fix/journal.tsv

finish
