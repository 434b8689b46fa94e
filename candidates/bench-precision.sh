#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench-precision.sh - precision of the finder on a hand-labelled sample.
#
# usage: candidates/bench-precision.sh [options] TREE WORK
#
# 1. The files of the sample for the tree's version (tests/labelled/
#    MAJOR.MINOR/labels.tsv by its "make kernelversion", README.md
#    there) are the SCOPE of cocci/run-facts.sh, with its own
#    extension (phase 2: every file that may write a global defined
#    there), into WORK/bench/precision/facts (its cache there makes
#    reruns cheap); then candidates/candidates, as in `make candidates`.
# 2. candidates.tsv is joined with labels.tsv by (file, name).  A row
#    proposed as ro_after_init is right if the label is ro_after_init,
#    wrong otherwise; precision = right / (right + wrong), per confidence
#    level and overall (a row labelled already, annotated upstream, is
#    right only as already).  Recall = labelled ro_after_init variables
#    with a row proposed as ro_after_init / labelled ro_after_init
#    variables.
# 3. Every labelled variable whose class differs from its label, or that
#    has no row, goes to WORK/bench/precision/mismatches.tsv with the
#    finder's reason and the label's.
#
# Results: a summary on stdout, rows appended to WORK/bench/results.tsv
# ("bench metric value unit date", the first of them the kernel version).
# Exit 0 measured, 1 a stage failed, the labels are malformed or there is
# no sample for the tree's version, 64 usage.
set -u

usage() {
	sed -n '3,27s/^# \{0,1\}//p' "$0"
	cat <<EOF

options:
  -j N            parallel spatch jobs (default: number of cores)
  --labels FILE   the labelled sample (default: tests/labelled/VERSION/labels.tsv)
  -h, --help      this text
EOF
}

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
prog_name=bench-precision
. "$repo/lib/args.sh"
. "$repo/lib/tsv.sh"
bin=$here/candidates
runfacts=$repo/cocci/run-facts.sh
labels=
jobs=$(nproc 2>/dev/null || echo 2)
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-j) [ $# -ge 2 ] || die 64 "-j needs a value"; jobs=$2; shift 2 ;;
	--labels) [ $# -ge 2 ] || die 64 "--labels needs a value"; labels=$2; shift 2 ;;
	--) shift; break ;;
	-*) die 64 "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || { usage >&2; exit 64; }
posint -j "$jobs" 1024
tree=$1 work=$2
[ -d "$tree/.git" ] || die 64 "TREE '$tree' is not a git work tree"
kver=$(make -s -C "$tree" kernelversion 2>/dev/null | tail -n 1)
[ -n "$kver" ] || die 1 "$tree: make kernelversion printed nothing"
if [ -z "$labels" ]; then
	# the sample of the tree's MAJOR.MINOR
	labels=$here/tests/labelled/$(echo "$kver" | cut -d . -f 1,2)/labels.tsv
	have=$(cd "$here/tests/labelled" && ls -d [0-9]*.[0-9]* 2>/dev/null | tr '\n' ' ')
	[ -f "$labels" ] ||
		die 1 "no labelled sample for Linux $kver: no $labels (samples: $have)"
fi
[ -f "$labels" ] || die 64 "no labels file '$labels'"
[ "$(head -n 1 "$labels")" = "$(printf 'file\tline\tname\tlabel\treason')" ] ||
	die 1 "$labels:1: the header is not 'file line name label reason'"
bad=$(awk -F '\t' 'NR > 1 && (NF != 5 ||
	$4 !~ /^(ro_after_init|rejected|const|initdata|already)$/) { print FILENAME ":" NR; exit }' \
	"$labels")
[ -z "$bad" ] || die 1 "$bad: not five columns with a known label"
[ -x "$bin" ] && [ -x "$repo/cocci/mentions" ] ||
	die 1 "$bin or $repo/cocci/mentions is not built (make programs)"
[ -f "$runfacts" ] || die 1 "missing $runfacts"
mkdir -p "$work/bench/precision" || die 1 "cannot create $work/bench/precision"
out=$(cd "$work/bench/precision" && pwd)
t0=$(date +%s)

# ---- 1. facts of the sample's files, extended; candidates -------------------

awk -F '\t' 'NR > 1 { print $1 }' "$labels" | sort -u > "$out/scope.txt"
while read -r f; do
	tree_path "$f" && [ -f "$tree/$f" ] ||
		die 1 "$labels: file '$f' is not in $tree"
done < "$out/scope.txt"
# the file names are tree paths (checked above), one word each
# shellcheck disable=SC2046
sh "$runfacts" -j "$jobs" "$tree" "$out/facts" $(cat "$out/scope.txt") ||
	die 1 "run-facts.sh failed"
t1=$(date +%s)
"$bin" --facts "$out/facts" --out "$out/candidates.tsv" || die 1 "candidates failed"
t2=$(date +%s)

# ---- 2. join and score -------------------------------------------------------

cand=$out/candidates.tsv
cf=$(tsv_colnum "$cand" file) && cn=$(tsv_colnum "$cand" name) &&
	cl=$(tsv_colnum "$cand" line) && cc=$(tsv_colnum "$cand" class) &&
	co=$(tsv_colnum "$cand" confidence) && cr=$(tsv_colnum "$cand" reason) ||
	die 1 "$cand: missing columns"
date=$(date -u +%FT%TZ)
awk -F '\t' -v OFS='\t' -v cf="$cf" -v cn="$cn" -v cl="$cl" -v cc="$cc" \
	-v co="$co" -v cr="$cr" -v mis="$out/mismatches.tsv" \
	-v sum="$out/summary.tsv" '
	FNR == 1 { file++; next }
	file == 1 { k = $1 "\t" $3; lab[k] = $4; why[k] = $5; lline[k] = $2
		order[++n] = k; next }
	file == 2 { k = $cf "\t" $cn; if (!(k in lab)) next
		rows[k]++
		line[k] = line[k] (line[k] == "" ? "" : ",") $cl
		cls[k] = cls[k] (cls[k] == "" ? "" : ",") $cc
		conf[k] = conf[k] (conf[k] == "" ? "" : ",") $co
		if (!(k in reason)) reason[k] = $cr
		if ($cc == "ro_after_init") {
			prop[k] = 1
			if (lab[k] == "ro_after_init") right[$co]++
			else { wrong[$co]++; wreason[k] = $cr }
		} else if (lab[k] == "ro_after_init" && !(k in mreason))
			mreason[k] = $cr
	}
	# all(C, L): every class in the comma list C (one per definition row,
	# #ifdef variants) is L
	function all(c, l,   a, i, n) {
		n = split(c, a, ",")
		for (i = 1; i <= n; i++)
			if (a[i] != l) return 0
		return 1
	}
	END {
		print "file", "line", "name", "label", "class", "confidence",
			"kind", "finder_reason", "label_reason" > mis
		for (i = 1; i <= n; i++) { k = order[i]; split(k, p, "\t")
			if (lab[k] == "ro_after_init") { pos++; if (k in prop) hit++ }
			if (!(k in rows)) { kind = "absent"; r = "-" }
			else if ((k in prop) && lab[k] != "ro_after_init") {
				kind = "wrong proposal"; r = wreason[k] }
			else if (lab[k] == "ro_after_init" && !(k in prop)) {
				kind = "missed"; r = mreason[k] }
			else if (!all(cls[k], lab[k])) {
				kind = "other class"; r = reason[k] }
			else continue
			print p[1], (k in line) ? line[k] : lline[k], p[2], lab[k],
				(k in cls) ? cls[k] : "-", (k in conf) ? conf[k] : "-",
				kind, r, why[k] > mis
		}
		# summary: level right wrong; then recall
		split("high medium low -", lv, " ")
		for (i = 1; i <= 4; i++) {
			R += right[lv[i]]; W += wrong[lv[i]]
			print lv[i], right[lv[i]] + 0, wrong[lv[i]] + 0 > sum
		}
		print "all", R + 0, W + 0 > sum
		print "recall", hit + 0, pos + 0 > sum
		print "labelled", n, 0 > sum
	}' "$labels" "$cand" || die 1 "scoring failed"

nfiles=$(wc -l < "$out/facts/files.txt")
nerr=$(($(wc -l < "$out/facts/errors.tsv") - 1))
res=$work/bench/results.tsv
[ -s "$res" ] || printf 'bench\tmetric\tvalue\tunit\tdate\n' > "$res"
# frac A B: A / B to 3 places, or "-" when B is 0
frac() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }'
}
sample=${labels#"$repo/"}
echo "bench-precision: Linux $kver, sample $sample: $(($(wc -l < "$labels") - 1)) labelled variables in $(wc -l < "$out/scope.txt") files; $nfiles files analysed, $nerr with parse errors"
{
	printf 'precision\tkernel\t%s\tversion\t%s\n' "$kver" "$date"
	printf 'precision\tsample\t%s\t-\t%s\n' "$sample" "$date"
	while IFS='	' read -r lvl a b; do
		case $lvl in
		recall)
			r=$(frac "$a" "$b")
			echo "recall: $a of $b labelled ro_after_init proposed ($r)" >&2
			[ "$r" = - ] || printf 'precision\trecall\t%s\tfraction\t%s\n' "$r" "$date"
			;;
		labelled) printf 'precision\tlabelled\t%s\tvariables\t%s\n' "$a" "$date" ;;
		*)
			[ "$a" -eq 0 ] && [ "$b" -eq 0 ] && [ "$lvl" != all ] && continue
			name=$lvl
			[ "$lvl" = - ] && name=none
			p=$(frac "$a" $((a + b)))
			echo "precision $name: $a right, $b wrong ($p)" >&2
			printf 'precision\tright_%s\t%s\trows\t%s\n' "$name" "$a" "$date"
			printf 'precision\twrong_%s\t%s\trows\t%s\n' "$name" "$b" "$date"
			[ "$p" = - ] ||
				printf 'precision\tprecision_%s\t%s\tfraction\t%s\n' "$name" "$p" "$date"
			;;
		esac
	done < "$out/summary.tsv"
	printf 'precision\tfacts_files\t%s\tfiles\t%s\n' "$nfiles" "$date"
	printf 'precision\tparse_errors\t%s\tfiles\t%s\n' "$nerr" "$date"
	printf 'precision\tfacts_time\t%s\tseconds\t%s\n' "$((t1 - t0))" "$date"
	printf 'precision\tcandidates_time\t%s\tseconds\t%s\n' "$((t2 - t1))" "$date"
} 2>&1 >> "$res" | sed 's/^/bench-precision: /'
echo "bench-precision: mismatches by kind:"
awk -F '\t' 'NR > 1 { c[$7 " (label " $4 ")"]++ }
	END { for (k in c) printf "  %4d  %s\n", c[k], k }' "$out/mismatches.tsv" | sort -rn
echo "bench-precision: facts $((t1 - t0)) s, candidates $((t2 - t1)) s; mismatches in $out/mismatches.tsv"
exit 0
