#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-campaign.sh - make campaign end to end on a tiny scope: real spatch,
# fast profile builds, QEMU boots, the queue, and the report loaded in
# Debian's chromium (headless): the funnel it shows must equal the
# journal's counts, and the reasons of a candidate the finder rejected and
# of one the validator did not accept must be on the page.
# A rerun must skip every stage and give the same report.
#
# Environment: WORK, TREE (from the Makefile); CAMPAIGN_TEST_SCOPE
# overrides the scope.  The scope must hold an initdata candidate,
# init/main.c's panic_later, a finder rejection and a candidate the
# validator does not accept (the default's: bootconfig_found and
# initargs_offs, which the fast kernel compiles out, are not-built):
# without them those checks fail, they are not skipped.

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
WORK=${WORK:-$HOME/.cache/ro-campaign}
TREE=${TREE:-$WORK/linux}
scope=${CAMPAIGN_TEST_SCOPE:-init/main.c kernel/power/main.c}
name=test-e2e
cdir=$WORK/campaign/$name
st=$WORK/campaign-test
. "$top/lib/tap.sh"

rm -rf "$st"
mkdir -p "$st"
make -C "$top" -s programs >/dev/null ||
	{ not_ok "make programs" "failed"; finish; }

# --- bad input --------------------------------------------------------------
sh "$here/campaign.sh" --profile huge "$TREE" "$WORK" >"$st/bad1" 2>&1
rc=$?
check "unknown profile: exit 64 naming the option" \
	sh -c "[ $rc -eq 64 ] && grep -q 'profile must be fast, wide or cover' '$st/bad1'"
sh "$here/campaign.sh" --scope no/such/dir --name "$name-bad" "$TREE" "$WORK" \
	>"$st/bad2" 2>&1
rc=$?
check "scope entry missing from the tree: exit 65 naming it" \
	sh -c "[ $rc -eq 65 ] && grep -q \"scope entry 'no/such/dir' does not exist\" '$st/bad2'"
sh "$here/campaign.sh" "$st/nonexistent" "$WORK" >"$st/bad3" 2>&1
rc=$?
check "tree that is not prepared: exit 65, says run make setup" \
	sh -c "[ $rc -eq 65 ] && grep -q 'run make setup' '$st/bad3'"
rm -rf "$WORK/campaign/$name-bad"

# --- the campaign, from scratch except for the per-file facts cache -------
if [ -d "$cdir" ]; then
	find "$cdir" -mindepth 1 -maxdepth 1 ! -name facts -exec rm -rf {} +
	find "$cdir/facts" -mindepth 1 -maxdepth 1 ! -name cache -exec rm -rf {} + 2>/dev/null
fi
# and the whole-tree tables test-loo.sh made of this tree (seed-tables.sh)
. "$here/tests/seed-tables.sh"
seed_tables "$cdir/facts/cache" "$WORK"
t0=$(date +%s)
make -C "$top" -s campaign SCOPE="$scope" NAME="$name" >"$st/run1.out" 2>"$st/run1.err"
rc=$?
t1=$(($(date +%s) - t0))
echo "# campaign on '$scope': exit $rc after $t1 s"
sed 's/^/# /' "$st/run1.out"
check "make campaign exits 0" [ $rc -eq 0 ]
[ $rc -eq 0 ] || { tail -n 5 "$st/run1.err" | sed 's/^/# /'; finish; }
check "progress: a line for each of the 4 stages" \
	sh -c "[ \$(grep -c '^campaign: \[[1-4]/4\]' '$st/run1.err') -eq 4 ]"
check "summary: files, candidates, validated, queue, wall time" \
	sh -c "for k in 'files scanned:' 'candidates:' 'validated:' 'queue:' 'wall time:'; do grep -q \"^\$k\" '$st/run1.out' || exit 1; done"
for f in scope.tsv journal.tsv report.html report.tsv funnel.tsv summary.txt queue/series; do
	[ -s "$cdir/$f" ] || { not_ok "outputs written" "$f missing or empty"; finish; }
done
ok "outputs written: scope.tsv journal.tsv report.html report.tsv funnel.tsv queue/"

# Columns by name (FORMATS.md), for awk: -v s_NAME=N of scope.tsv,
# -v j_NAME=N of journal.tsv.
. "$top/lib/tsv.sh"
cols=
for c in file name class confidence evidence; do
	cols="$cols -v s_$c=$(tsv_colnum "$cdir/scope.tsv" $c)"
done
for c in variable file verdict evidence; do
	cols="$cols -v j_$c=$(tsv_colnum "$cdir/journal.tsv" $c)"
done

# The journal's counts, computed here independently of campaign/report:
# the last verdict of each conversion candidate of scope.tsv (class
# ro_after_init or initdata, validate's default classes).
# $cols holds only -v NAME=NUMBER words.
# shellcheck disable=SC2086
awk -F '\t' $cols 'NR == FNR { if (FNR > 1 && ($s_class == "ro_after_init" || $s_class == "initdata")) c[$s_file "\t" $s_name] = 1; next }
	FNR > 1 && ($j_file "\t" $j_variable) in c { k = $j_file "\t" $j_variable; v[k] = $j_verdict; e[k] = $j_evidence }
	END {
		for (k in c) n++
		for (k in v) {
			val++
			if (v[k] == "accepted") acc++
			if (v[k] == "accepted" || (v[k] == "rejected" && e[k] !~ /^(annotate|build|section|modpost):/)) boot++
		}
		printf "candidates %d\nvalidated %d\nbooted %d\naccepted %d\n", n, val, boot, acc
	}' "$cdir/scope.tsv" "$cdir/journal.tsv" >"$st/expected"
sed 's/^/# journal: /' "$st/expected"
acc=$(awk '$1 == "accepted" { print $2 }' "$st/expected")
check "the campaign accepted at least one conversion ($acc)" [ "${acc:-0}" -ge 1 ]
check "the queue is not empty and passed its checks" \
	sh -c "[ \$(grep -c . '$cdir/queue/series') -ge 1 ] && ! grep -q 'FAILED' '$cdir/queue/README'"

medium_not_queued() {
	# shellcheck disable=SC2086
	for v in $(awk -F '\t' $cols 'NR > 1 && $s_class == "ro_after_init" && $s_confidence == "medium" { print $s_name }' "$cdir/scope.tsv"); do
		! grep -h '^+' "$cdir"/queue/*/0*.patch | grep -q -w "$v" ||
			{ why="$v is in a patch"; return 1; }
	done
}
check "fast profile: no medium-confidence conversion is queued" medium_not_queued

# initdata conversions: their own patches, and the report counts them by
# annotation.  A pointer to const (static const char *x __initdata) is
# right, but checkpatch --strict wants __initconst on any line with const
# and __initdata: the queue drops it and says so, naming checkpatch.
# shellcheck disable=SC2086
ninit=$(awk -F '\t' $cols 'NR > 1 && $s_class == "initdata" { n++ } END { print n + 0 }' "$cdir/scope.tsv")
init_queued() {
	[ "$ninit" -ge 1 ] ||
		{ why="no initdata row in '$scope' (the scope must have one)"; return 1; }
	_q=$(awk -F '\t' '$1 == "__initdata" { print $5 }' "$cdir/kinds.tsv")
	_p=$(grep -l '^+.*__initdata' "$cdir"/queue/*/0*.patch | wc -l)
	[ "${_q:-0}" -ge 1 ] && [ "$_p" -ge 1 ] ||
		{ why="kinds.tsv queued $_q, $_p __initdata patches"; return 1; }
	grep -q '^by annotation: .*__initdata [1-9][0-9]* candidates' "$cdir/summary.txt" ||
		{ why="no __initdata count in summary.txt"; return 1; }
}
check "initdata conversions: an __initdata patch, counted in kinds.tsv and the summary" init_queued
# shellcheck disable=SC2086
constp=$(awk -F '\t' $cols 'NR > 1 && $s_class == "initdata" && $s_name == "panic_later" { print $s_name }' "$cdir/scope.tsv")
panic_later_dropped() {
	[ -n "$constp" ] ||
		{ why="panic_later is no initdata row in '$scope' (the scope must have init/main.c)"; return 1; }
	grep -q ' panic_later: dropped: checkpatch.pl --strict: .*Use of const init definition must use __initconst' "$cdir/queue/README" ||
		{ why="queue/README does not say why panic_later was dropped"; return 1; }
}
check "panic_later (static const char *, __initdata): the queue README says checkpatch's message" \
	panic_later_dropped

# --- the report, in a real browser -----------------------------------------
browser=$(command -v chromium || command -v chromium-browser)
if [ -z "$browser" ]; then
	not_ok "report in chromium" "chromium is not installed (make setup installs it)"
	finish
fi
timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
	--dump-dom "file://$cdir/report.html" >"$st/dom.html" 2>"$st/chromium.err"
rc=$?
check "chromium loads report.html (exit $rc)" \
	sh -c "[ $rc -eq 0 ] && grep -q 'id=\"funnel\"' '$st/dom.html'"
funnel_ok() {
	for s in candidates validated booted accepted; do
		want=$(awk -v s=$s '$1 == s { print $2 }' "$st/expected")
		got=$(grep -o "data-stage=\"$s\" data-count=\"[0-9]*\"" "$st/dom.html" |
			sed 's/.*data-count="\([0-9]*\)"/\1/')
		[ "$got" = "$want" ] || { why="$s: page says '$got', journal $want"; return 1; }
	done
}
check "the funnel on the page equals the journal's counts" funnel_ok
# The validator's reason for a candidate it did not accept, as the page
# shows it: a rejected one if there is one, else a not-built one (the
# default scope has two variables the fast kernel compiles out, and no
# rejection).  The last verdict of each conversion candidate counts.
# shellcheck disable=SC2086
rej=$(awk -F '\t' $cols 'NR == FNR { if (FNR > 1 && ($s_class == "ro_after_init" || $s_class == "initdata")) c[$s_file "\t" $s_name] = 1; next }
	FNR > 1 && ($j_file "\t" $j_variable) in c { k = $j_file "\t" $j_variable
		if (!(k in v)) ord[++m] = k
		v[k] = $j_verdict; e[k] = $j_evidence; name[k] = $j_variable }
	END {
		k = ""
		for (i = 1; i <= m; i++) if (v[ord[i]] == "rejected") { k = ord[i]; break }
		if (k == "") for (i = 1; i <= m; i++) if (v[ord[i]] != "accepted") { k = ord[i]; break }
		if (k != "") print name[k] "\t" v[k] "\t" e[k]
	}' "$cdir/scope.tsv" "$cdir/journal.tsv")
# esc TEXT: the first 40 characters of TEXT as the page shows them
esc() {
	printf '%s\n' "$1" | cut -c1-40 | sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g'
}
# shellcheck disable=SC2086
frej=$(awk -F '\t' $cols 'NR > 1 && $s_class == "rejected" { print $s_name "\t" $s_evidence; exit }' "$cdir/scope.tsv")
fname=$(echo "$frej" | cut -f 1)
ftext=$(esc "$(echo "$frej" | cut -f 2)")
finder_shown() {
	[ -n "$fname" ] || { why="no finder rejection in scope.tsv"; return 1; }
	grep "data-variable=\"$fname\"" "$st/dom.html" | grep -F -q "$ftext" ||
		{ why="no row of $fname with '$ftext'"; return 1; }
}
check "rejected by the finder: $fname, its reason and writer on the page" finder_shown
rname=$(echo "$rej" | cut -f 1)
rverdict=$(echo "$rej" | cut -f 2)
# the reason as the page shows it: HTML-escaped, first 40 characters
rtext=$(esc "$(echo "$rej" | cut -f 3)")
validator_shown() {
	[ -n "$rname" ] ||
		{ why="the validator accepted every candidate of '$scope': no reason to show (the scope must have one it does not accept)"; return 1; }
	grep "data-variable=\"$rname\"" "$st/dom.html" | grep -F -q "$rtext" ||
		{ why="no row of $rname with '$rtext'"; return 1; }
}
check "${rverdict:-not accepted} by the validator: ${rname:-none}, its reason on the page" validator_shown
check "no network fetches: no src= or remote href in the page" \
	sh -c "! grep -E -q '(src=|href=\"(https?:)?//)' '$cdir/report.html'"
timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
	--window-size=1280,1600 --screenshot="$st/report.png" \
	"file://$cdir/report.html" >/dev/null 2>&1
check "chromium renders a screenshot of the page" \
	sh -c "[ \$(wc -c < '$st/report.png' 2>/dev/null || echo 0) -gt 10000 ]"
check "report.tsv: a row per candidate" \
	sh -c "[ \$((\$(wc -l < '$cdir/report.tsv') - 1)) -eq $(awk '$1 == "candidates" { print $2 }' "$st/expected") ]"

# --- a rerun skips every stage -------------------------------------------------
cp "$cdir/report.tsv" "$st/report1.tsv"
t0=$(date +%s)
make -C "$top" -s campaign SCOPE="$scope" NAME="$name" >"$st/run2.out" 2>"$st/run2.err"
rc=$?
t2=$(($(date +%s) - t0))
check "rerun: exit 0 in $t2 s, find, validate and queue skipped" \
	sh -c "[ $rc -eq 0 ] && [ \$(grep -c 'skipped in' '$st/run2.err') -eq 3 ] && [ $t2 -lt 120 ]"
check "rerun: the same report.tsv" cmp -s "$st/report1.tsv" "$cdir/report.tsv"
finish
