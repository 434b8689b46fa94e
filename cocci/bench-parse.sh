#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench-parse.sh - how often spatch gives up parsing, and on what.
#
# usage: cocci/bench-parse.sh [-j N] [--every N] [--top N] TREE WORK
#
# Runs cocci/run-facts.sh --list over a fixed sample of TREE's .c files
# (one in N by a hash of the path, tools/ scripts/ Documentation/ left
# out; default N 30, about 1,000 files, 5 minutes on 2 cores) with an empty
# cache in WORK/parse-bench, so nothing is reused, and reads the
# unparsed regions of errors.tsv ("FIRST-LAST@WHERE", cocci/FACTS.md).
# Each region goes into a bucket: #define-body when the region holds
# only #define bodies, #directives, comments and blank lines (facts.cocci
# reads no #define body: such a region hides no fact), macro:NAME when
# spatch failed inside the expansion of macro NAME (cocci/macros.h or
# Coccinelle's standard.h), else the identifier at the error position
# of the tree's line (the one the error token starts, or the last one
# before it on the line). Writes WORK/parse-bench/buckets.tsv (bucket,
# regions, files, an example) and
# appends "bench metric value unit date" rows to WORK/bench/results.tsv:
# files, files with parse errors and their percentage, the same for
# files with an unparsed region outside #define bodies, regions, wall
# time and the top buckets. Exit 1 when more than 5% of the files have
# unparsed code outside #define bodies (the issue's target: a #define body
# is no C until it is expanded, holds no function, and what it names has
# its own unparsed and funcrefs rows, cocci/FACTS.md), 64 usage, 70 when
# run-facts.sh or the host failed.

set -u

usage() {
	sed -n '3,29s/^# \{0,1\}//p' "$0"
}

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
prog_name=bench-parse
. "$repo/lib/args.sh"
. "$repo/lib/notkernel.sh"
# lib/notkernel.tsv as ":(exclude)DIR" pathspecs, split unquoted below
nk=$(notkernel_excludes "$repo/lib/notkernel.tsv" none) || exit 65
jobs=$(nproc 2>/dev/null || echo 2)
every=30
top=15
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-j) [ $# -ge 2 ] || die 64 "-j needs a value"; jobs=$2; shift 2 ;;
	--every) [ $# -ge 2 ] || die 64 "--every needs a value"; every=$2; shift 2 ;;
	--top) [ $# -ge 2 ] || die 64 "--top needs a value"; top=$2; shift 2 ;;
	--) shift; break ;;
	-*) die 64 "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || { usage >&2; exit 64; }
posint -j "$jobs" 1024
posint --every "$every" 1000000
posint --top "$top" 1000
tree=$1 work=$2
[ -d "$tree" ] || die 64 "TREE '$tree' is not a directory"
kver=$(make -s -C "$tree" kernelversion 2>/dev/null | tail -n 1)
[ -n "$kver" ] || kver=-
[ -x "$here/mentions" ] || die 70 "cocci/mentions is not built (make programs)"
out=$work/parse-bench
rm -rf "$out"
mkdir -p "$out/facts" "$work/bench" || die 70 "cannot create $out"

# shellcheck disable=SC2086
git -C "$tree" ls-files -- '*.c' $nk >"$out/all" || die 70 "git ls-files failed in $tree"
# a file is in the sample by a hash of its path, not by its place in
# the list: a file added to the tree does not change the rest of it
awk -v n="$every" '
	BEGIN { for (i = 32; i < 127; i++) ord[sprintf("%c", i)] = i }
	{ h = 0
	  for (i = 1; i <= length($0); i++)
		h = (h * 31 + ord[substr($0, i, 1)]) % 1000003
	  if (h % n == 0) print }' "$out/all" >"$out/list"
[ -s "$out/list" ] || die 65 "no file in the sample (--every $every)"

start=$(date +%s)
sh "$here/run-facts.sh" -j "$jobs" --cache "$out/cache" --list "$out/list" \
	"$tree" "$out/facts" 2>"$out/facts.log"
rc=$?
wall=$(($(date +%s) - start))
[ "$rc" -eq 0 ] || die 70 "run-facts.sh exit $rc, see $out/facts.log"

# one row per region: file, region, bucket
awk -F '\t' -v tree="$tree" '
	function word(s, c,   best, pos, w) {
		# the identifier starting at or containing column c (0-based),
		# else the last one before it
		best = ""
		pos = 0
		while (match(s, /[A-Za-z_][A-Za-z0-9_]*/)) {
			w = substr(s, RSTART, RLENGTH)
			if (pos + RSTART - 1 > c) break
			if (!(w in kw)) best = w
			pos += RSTART + RLENGTH - 1
			s = substr(s, RSTART + RLENGTH)
		}
		if (best == "" && match(s, /[A-Za-z_][A-Za-z0-9_]*/))
			best = substr(s, RSTART, RLENGTH)
		return best == "" ? "?" : best
	}
	BEGIN {
		n = split("static extern const volatile struct union enum int " \
			"char long short unsigned signed void return if else " \
			"for while do switch case sizeof typedef inline", k, " ")
		for (i = 1; i <= n; i++) kw[k[i]] = 1
	}
	NR == 1 || $2 !~ /^parse-error/ { next }
	{
		f = $1
		r = $2
		sub(/^[^:]*:[^:]*:/, "", r)
		n = split(r, regs, " ")
		for (i = 1; i <= n; i++) {
			where = regs[i]
			sub(/^[^@]*@/, "", where)
			span = regs[i]
			sub(/@.*/, "", span)
			if (where ~ /\/define$/) {
				b = "#define-body"
			} else if (where ~ /^macro:/) {
				b = where
			} else if (split(where, lc, ":") == 2) {
				l = lc[1] + 0
				if (!(f in txt)) {
					txt[f] = 1
					delete t
					j = 0
					while ((getline s < (tree "/" f)) > 0) t[++j] = s
					close(tree "/" f)
				}
				s = (l in t) ? t[l] : ""
				b = word(s, lc[2] + 0)
			} else {
				b = "?"
			}
			print f "\t" span "\t" b
		}
	}' "$out/facts/errors.tsv" >"$out/regions.tsv"

awk -F '\t' '
	{ reg[$3]++; if (!(($3, $1) in seen)) { seen[$3, $1] = 1; fil[$3]++ }
	  if (!($3 in ex)) ex[$3] = $1 ":" $2 }
	END { for (b in reg) print b "\t" reg[b] "\t" fil[b] "\t" ex[b] }' \
	"$out/regions.tsv" | sort -t '	' -k2,2nr -k1,1 >"$out/buckets.body"
{
	printf 'bucket\tregions\tfiles\texample\n'
	cat "$out/buckets.body"
} >"$out/buckets.tsv"

files=$(wc -l <"$out/facts/files.txt")
perr=$(awk -F '\t' 'NR > 1 && $2 ~ /^parse-error/ { print $1 }' \
	"$out/facts/errors.tsv" | sort -u | wc -l)
pcode=$(awk -F '\t' 'NR > 1 && $2 ~ /^parse-error/ && $2 !~ / 0 outside/ {
	print $1 }' "$out/facts/errors.tsv" | sort -u | wc -l)
other=$(awk -F '\t' 'NR > 1 && $2 !~ /^parse-error/ { print $1 }' \
	"$out/facts/errors.tsv" | sort -u | wc -l)
nreg=$(wc -l <"$out/regions.tsv")
rate=$(awk -v e="$perr" -v f="$files" 'BEGIN { printf "%.2f", f ? 100 * e / f : 0 }')
crate=$(awk -v e="$pcode" -v f="$files" 'BEGIN { printf "%.2f", f ? 100 * e / f : 0 }')
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
res=$work/bench/results.tsv
[ -s "$res" ] || printf 'bench\tmetric\tvalue\tunit\tdate\n' >"$res"
{
	printf 'parse\tkernel\t%s\tversion\t%s\n' "$kver" "$date"
	printf 'parse\tsample\tone in %s .c files by path hash\t-\t%s\n' "$every" "$date"
	printf 'parse\tfiles\t%s\tfiles\t%s\n' "$files" "$date"
	printf 'parse\tparse_error_files\t%s\tfiles\t%s\n' "$perr" "$date"
	printf 'parse\tparse_error_rate\t%s\tpercent\t%s\n' "$rate" "$date"
	printf 'parse\tcode_parse_error_files\t%s\tfiles\t%s\n' "$pcode" "$date"
	printf 'parse\tcode_parse_error_rate\t%s\tpercent\t%s\n' "$crate" "$date"
	printf 'parse\tunparsed_regions\t%s\tregions\t%s\n' "$nreg" "$date"
	printf 'parse\tother_errors\t%s\tfiles\t%s\n' "$other" "$date"
	printf 'parse\twall\t%s\tseconds\t%s\n' "$wall" "$date"
	printf 'parse\tjobs\t%s\tprocesses\t%s\n' "$jobs" "$date"
	head -n "$top" "$out/buckets.body" | awk -F '\t' -v d="$date" \
		'{ printf "parse\tbucket:%s\t%s\tregions\t%s\n", $1, $2, d }'
} >>"$res"
echo "bench-parse: Linux $kver: $files files in ${wall}s (-j $jobs): $perr with parse errors" \
	"($rate%), $pcode outside #define bodies ($crate%), $nreg unparsed regions," \
	"$other other errors"
echo "bench-parse: top buckets (regions, files, example):"
head -n "$top" "$out/buckets.body" | sed 's/^/  /'
awk -v r="$crate" 'BEGIN { exit !(r > 5) }' && {
	echo "bench-parse: over the target of 5% (files with unparsed code outside #define bodies)"
	exit 1
}
exit 0
