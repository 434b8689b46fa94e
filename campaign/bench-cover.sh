#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench-cover.sh - what the cover profile buys on a scope of mostly
# modular code, against wide.
#
# Usage: bench-cover.sh TREE WORK
#
# 1. The candidates of BENCH_COVER_SCOPE (default "drivers/char
#    sound/core"): cocci/run-facts.sh and candidates/candidates over it.
# 2. cover-plan against wide's .config, and COVER_BASE's if not wide: the
#    candidates whose file the base compiles without a fragment.
# 3. The cover builds of two waves (COVER_WAVE is half the candidates),
#    timed: the first in a new build directory if there was none (cold,
#    with whatever ccache holds), the second incremental.
# 4. campaign.sh --profile cover on the scope, in the same two waves: the
#    not-built share in cover, by reason, and among the candidates an x86
#    build can compile (not other-arch; target at most 10%); the evidence
#    levels of the accepted; verdicts decided per hour of validation;
#    what the boots cost and what the devices and the hit counting add
#    (boot-costs.sh).
# Appends "bench metric value unit date" rows to WORK/bench/results.tsv,
# the first of a run the tree's kernel version (metric kernel).
# Environment: BENCH_COVER_SCOPE, COVER_BASE (default wide),
# COVER_COMPILE_TEST=1 (cover-plan --compile-test, in the plans and the
# campaign alike), VTREE, JOBS.
# Exit: 0 measured, 1 a step failed, 64 usage.

set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
prog_name=bench-cover
. "$top/lib/args.sh"
help_maybe "$0" "$@"
[ $# -eq 2 ] || { echo "usage: bench-cover.sh TREE WORK" >&2; exit 64; }
tree=$1
work=$2
. "$top/lib/tsv.sh"
. "$top/lib/ktree.sh"
scope=${BENCH_COVER_SCOPE:-drivers/char sound/core}
base=${COVER_BASE:-wide}
name=bench-cover
cdir=$work/campaign/$name
out=$work/bench
res=$out/results.tsv
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
mkdir -p "$out" || die 70 "cannot create $out"
[ -f "$res" ] || printf 'bench\tmetric\tvalue\tunit\tdate\n' > "$res"
emit() {
	printf 'cover\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$date" >> "$res"
	printf 'cover\t%s\t%s\t%s\n' "$1" "$2" "$3"
}

# The candidates first, to size the waves: the finder over the scope (its
# facts are cached per file, so the campaign's find stage reuses them),
# rows of variables defined in the scope.
if [ ! -f "$out/cover-scope.tsv" ]; then
	mkdir -p "$out/cover-facts"
	sh "$top/cocci/run-facts.sh" -j "${JOBS:-$(nproc)}" "$tree" "$out/cover-facts" \
		$scope >"$out/cover-find.log" 2>&1 &&
	"$top/candidates/candidates" --facts "$out/cover-facts" \
		--out "$out/cover-cands.tsv" >>"$out/cover-find.log" 2>&1 ||
		die 1 "the finder failed, see $out/cover-find.log"
	tsv_awk "$out/cover-cands.tsv" 'BEGIN { ns = split(scope, s, " ") }
		NR == 1 { print; next }
		{ for (i = 1; i <= ns; i++) if (index($c_file, s[i] "/") == 1 || $c_file == s[i]) { print; next } }' \
		-v scope="$scope" \
		>"$out/cover-scope.tsv.tmp" &&
		mv "$out/cover-scope.tsv.tmp" "$out/cover-scope.tsv" || die 70 "awk failed"
fi
scope_tsv=$out/cover-scope.tsv
n=$(tsv_awk "$scope_tsv" 'NR > 1 && $c_class == "ro_after_init" { n++ } END { print n + 0 }')
[ "$n" -gt 0 ] || die 1 "no ro_after_init candidates in '$scope'"
wave=$(( (n + 1) / 2 ))
emit kernel "$(ktree_version "$tree")" version
emit candidates "$n" count
emit scope "$(echo "$scope" | tr ' ' ',')" paths
emit compile_test "${COVER_COMPILE_TEST:-0}" flag

# --- 2. wide (and the base) alone, without a fragment ------------------------
# plan_counts PROFILE: "compiled buildable other-arch unmet unknown", in
# candidates, of cover-plan against PROFILE's .config (configured only).
plan_counts() {
	_d=$(sh "$top/qemu-boot/build-kernel.sh" --config-only "$1" "$tree" "$work" | tail -n 1) ||
		die 1 "cannot configure $1"
	"$top/validate/cover-plan" ${COVER_COMPILE_TEST:+--compile-test} --candidates "$scope_tsv" --tree "$tree" \
		--config "$_d/.config" --out "$out/cover-plan-$1" >"$out/cover-plan-$1.log" 2>&1 ||
		die 1 "cover-plan failed, see $out/cover-plan-$1.log"
	tsv_awk "$out/cover-plan-$1/plan.tsv" 'NR > 1 {
			print $c_file "\t" $c_state "\t" ($c_detail == "in the base .config" ? "base" : "adds") }' \
		>"$out/cover-plan-$1/states"
	tsv_awk "$scope_tsv" 'BEGIN {
			while ((getline l < states) > 0) { split(l, a, "\t"); s[a[1]] = a[2]; b[a[1]] = a[3] } }
		NR > 1 && $c_class == "ro_after_init" {
			st = s[$c_file]; if (st == "") st = "unknown"
			c[st]++; if (st == "buildable" && b[$c_file] == "base") inbase++
		}
		END { printf "%d %d %d %d %d\n", inbase, c["buildable"], c["other-arch"], c["unmet"], c["unknown"] }' \
		-v states="$out/cover-plan-$1/states"
}
plist=wide
[ "$base" = wide ] || plist="wide $base"
for p in $plist; do
	set -- $(plan_counts "$p")
	emit "${p}_compiles" "$1" candidates
	emit "${p}_not_built_fraction" "$(awk -v a="$1" -v n="$n" 'BEGIN { printf "%.3f", 1 - a / n }')" ratio
	[ "$p" = "$base" ] || continue
	emit plan_buildable "$2" candidates
	emit plan_other_arch "$3" candidates
	emit plan_unmet "$4" candidates
	x86=$((n - $3))
done

# --- 3. the cover builds of the two waves, timed ----------------------------
# In the work tree validate uses, with the fragments campaign.sh computes
# for its waves, so the campaign below finds both builds done.
vtree=${VTREE:-$work/vtree}
[ -d "$vtree" ] || git -C "$tree" worktree add --detach "$vtree" core >/dev/null 2>&1 ||
	die 1 "git worktree add $vtree failed"
[ -z "$(git -C "$vtree" status --porcelain)" ] ||
	die 1 "$vtree has uncommitted changes (an interrupted validate? run it again first)"
git -C "$vtree" checkout -q --detach core || die 1 "cannot move $vtree to core"
vbase=$(sh "$top/qemu-boot/build-kernel.sh" --config-only "$base" "$vtree" "$work" | tail -n 1) ||
	die 1 "cannot configure $base in $vtree"
k=1
for part in 1 2; do
	wd=$out/cover-wave-$part
	mkdir -p "$wd"
	tsv_awk "$scope_tsv" 'NR == 1 { print; next } $c_class != "ro_after_init" { next }
		{ w = int(i / size) + 1; i++ } w <= k { print }' -v size="$wave" -v k="$part" >"$wd/upto.tsv"
	"$top/validate/cover-plan" ${COVER_COMPILE_TEST:+--compile-test} --candidates "$wd/upto.tsv" --tree "$vtree" \
		--config "$vbase/.config" --out "$wd" >"$wd/plan.log" 2>&1 ||
		die 1 "cover-plan failed, see $wd/plan.log"
	# A build directory without an object count never finished a build.
	cdir_b=$(COVER_BASE=$base COVER_FRAGMENT=$wd/cover.config \
		sh "$top/qemu-boot/build-kernel.sh" --config-only cover "$vtree" "$work" | tail -n 1)
	new=no
	[ -s "$cdir_b/.ro-campaign-objects" ] || new=yes
	t0=$(date +%s)
	COVER_BASE=$base COVER_FRAGMENT=$wd/cover.config \
		sh "$top/qemu-boot/build-kernel.sh" cover "$vtree" "$work" >"$wd/build.log" 2>&1 ||
		die 1 "the cover build of wave $part failed, see $wd/build.log"
	t1=$(date +%s)
	emit "build_wave${part}_symbols" "$(grep -c '^CONFIG_' "$wd/cover.config")" symbols
	if [ $part -eq 1 ]; then
		emit build_wave1 $((t1 - t0)) s
		emit build_wave1_new_dir "$new" flag
	else
		emit build_wave2_incremental $((t1 - t0)) s
	fi
	k=$((k + 1))
done

# --- 4. the cover campaign (its builds are the ones above) -----------------
t0=$(date +%s)
COVER_BASE=$base COVER_WAVE=$wave sh "$top/campaign/campaign.sh" \
	--scope "$scope" --profile cover --name "$name" "$tree" "$work" \
	>"$out/cover-campaign.log" 2>&1
rc=$?
t1=$(date +%s)
[ $rc -eq 0 ] || die 1 "the cover campaign failed (exit $rc), see $out/cover-campaign.log"
emit campaign_wall $((t1 - t0)) s
# Each boot is a directory under boots/ (the .initrd files beside them
# are reach's per-boot initramfs).
emit boots "$(find "$cdir/boots" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | grep -c .)" boots
j=$cdir/journal.tsv
# Levels as lib/evidence names them; an old journal's "exercised" is
# booted.  A built-in conversion is one whose built= item names vmlinux.
set -- $(tsv_awk "$j" 'NR > 1 { k = $c_file "\t" $c_line "\t" $c_variable
		v[k] = $c_verdict; l[k] = $c_level == "exercised" ? "booted" : $c_level
		bi[k] = ($c_evidence ~ /(^|; )built=[^;]*vmlinux/)
		oa[k] = ($c_evidence ~ /^not-built: other-arch/) }
	END { for (k in v) { c[v[k]]++
			if (v[k] == "accepted") { lv[l[k]]++; if (bi[k]) { nbi++; if (l[k] == "reached") rbi++ } }
			if (v[k] == "not-built" && !oa[k]) nb86++ }
		printf "%d %d %d %d %d %d %d %d %d %d %d\n", c["accepted"], c["rejected"], c["not-built"],
			lv["reached"], lv["device-bound"], lv["module-cycled"], lv["booted"],
			lv["built"], nb86, nbi, rbi }')
emit accepted "$1" candidates
emit rejected "$2" candidates
emit not_built "$3" candidates
emit level_reached "$4" candidates
emit level_device_bound "$5" candidates
emit level_module_cycled "$6" candidates
emit level_booted "$7" candidates
emit level_built "$8" candidates
# The issue's targets: reached, device-bound or module-cycled at least
# 0.60 of the accepted, only built at most 0.25, and half the built-in
# ones reached.
emit levels_code_ran_fraction "$(awk -v a="$1" -v r="$4" -v d="$5" -v m="$6" 'BEGIN { printf "%.3f", a ? (r + d + m) / a : 0 }')" ratio
emit levels_built_fraction "$(awk -v a="$1" -v b="$8" 'BEGIN { printf "%.3f", a ? b / a : 0 }')" ratio
emit builtin_accepted "${10}" candidates
emit builtin_reached_fraction "$(awk -v n="${10}" -v r="${11}" 'BEGIN { printf "%.3f", n ? r / n : 0 }')" ratio
x86_nb=$9
emit cover_not_built_fraction "$(awk -v a="$3" -v n="$n" 'BEGIN { printf "%.3f", a / n }')" ratio
emit cover_not_built_x86_fraction "$(awk -v a="$x86_nb" -v n="$x86" 'BEGIN { printf "%.3f", n ? a / n : 0 }')" ratio
vs=$(awk -F'\t' '$1 == "validate" { print $2 }' "$cdir/times.tsv" | tail -n 1)
total=$(tsv_awk "$j" 'NR > 1 { k[$c_file "\t" $c_line "\t" $c_variable] = 1 } END { print length(k) }')
[ -n "$vs" ] && [ "$vs" -gt 0 ] &&
	emit decided_per_hour "$(awk -v d="$total" -v s="$vs" 'BEGIN { printf "%.0f", d * 3600 / s }')" verdicts/h
emit not_built_reasons "$(tsv_awk "$j" 'NR > 1 && $c_verdict == "not-built" {
		r = $c_evidence; sub(/^not-built: /, "", r); sub(/:.*/, "", r); sub(/ .*/, "", r); c[r]++ }
	END { for (r in c) printf "%s=%d,", r, c[r] }' | sed 's/,$//')" counts
# What the boots cost, and the share of the devices and the hit counting.
sh "$top/validate/boot-costs.sh" "$cdir" >"$out/cover-boot-costs.tsv" ||
	die 1 "boot-costs failed on $cdir"
while IFS='	' read -r m v u; do
	emit "$m" "$v" "$u"
done <"$out/cover-boot-costs.tsv"
exit 0
