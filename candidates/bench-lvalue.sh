#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench-lvalue.sh - grep cross-check: no ro_after_init candidate is written
# at runtime by a macro that takes the lvalue or its address.
#
# usage: candidates/bench-lvalue.sh [options] TREE WORK [CANDIDATES]
#
# CANDIDATES (default WORK/candidates/candidates.tsv) is read by column
# name; its ro_after_init rows are checked.  The files searched are the
# .c/.h files of TREE that use one of the macros below (one git grep); a
# static candidate counts in its own file, a global in any.  In them an
# awk pass strips comments, strings and preprocessor lines, follows
# function bodies by brace depth, and reports, outside functions annotated
# __init or __exit,
#   WRITE_ONCE, __WRITE_ONCE, smp_store_mb, this_cpu_*, __this_cpu_*,
#   raw_cpu_* writers                          applied to NAME, NAME.f,
#                                              NAME[i]
#   smp_store_release, xchg, cmpxchg, try_cmpxchg (_relaxed, _acquire,
#   _release, 64, _local)                      applied to &NAME, &NAME.f,
#                                              &NAME[i], NAME.f, NAME[i]
# (NAME->f is the pointee, not NAME).  A local of the same name is not
# told apart: a reported site is a lead to read, and the count must be 0.
#
# Results: WORK/bench/lvalue/violations.tsv (file line name macro func
# candidate_file confidence), a summary on stdout, rows appended to
# WORK/bench/results.tsv ("bench metric value unit date").  Exit 0 no
# violation, 1 violations, 64 usage, 65 no usable CANDIDATES, 70 the host
# failed.
set -u

usage() {
	sed -n '3,28s/^# \{0,1\}//p' "$0"
	cat <<EOF

options:
  -h, --help    this text
EOF
}

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
prog_name=bench-lvalue
. "$repo/lib/args.sh"
. "$repo/lib/tsv.sh"
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--) shift; break ;;
	-*) die 64 "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] && [ $# -le 3 ] || { usage >&2; exit 64; }
tree=$1 work=$2
cand=${3:-$work/candidates/candidates.tsv}
[ -d "$tree/.git" ] || die 64 "TREE '$tree' is not a git work tree"
[ -s "$cand" ] || die 65 "no candidates file '$cand' (make candidates)"
out=$work/bench/lvalue
mkdir -p "$out" || die 70 "cannot create $out"
tree=$(cd "$tree" && pwd)
kver=$(make -s -C "$tree" kernelversion 2>/dev/null | tail -n 1)
[ -n "$kver" ] || kver=-
t0=$(date +%s)

# ---- the ro_after_init rows: file name storage confidence ------------------
tsv_awk "$cand" 'NR > 1 && $c_class == "ro_after_init" {
	print $c_file "\t" $c_name "\t" $c_storage "\t" $c_confidence "\t" $c_line }' \
	> "$out/ro.lines" || exit 65
# A fifth column says whether the definition's own line declares a pointer
# ("static u32 *table_perturb;"): then NAME[i] writes the pointee, not the
# candidate (the finder's pointer against pointee).  A line that does not
# name it (a definition over several lines) says nothing: 0.
sort -t '	' -k1,1 -k5,5n "$out/ro.lines" | awk -F '\t' -v tree="$tree" '
	$1 != cur { if (cur != "") close(tree "/" cur); cur = $1; n = 0; t = "" }
	{
		while (n < $5 && (getline t < (tree "/" $1)) > 0)
			n++
		p = (n == $5 && t ~ ("\\*[ \t]*" $2 "[ \t]*([;=,)]|__|$)"))
		print $1 "\t" $2 "\t" $3 "\t" $4 "\t" p
	}' > "$out/ro.tsv" || die 70 "cannot read the definitions in $tree"
rm -f "$out/ro.lines"
nro=$(wc -l < "$out/ro.tsv")

# ---- the files: those that use one of the macros at all ------------------
# A candidate's own file and the files naming a global are among them when
# they matter; the scan reports only candidate names (statics in their own
# file), so one pass over the macro users is the same check as a
# git grep -w per name, at the cost of one grep.
git -C "$tree" grep -l -E 'WRITE_ONCE|smp_store_|xchg|this_cpu_|raw_cpu_' \
	-- '*.c' '*.h' > "$out/files.txt"
[ $? -le 1 ] || die 70 "git grep failed in $tree"
nfiles=$(wc -l < "$out/files.txt")

# ---- the scan ---------------------------------------------------------------
# One awk over all files: the candidates table first (FNR == NR), then
# each file as it comes (FILENAME changes).  Output rows:
# file line name macro func candidate_file confidence
scan='
BEGIN {
	FS = "\t"
	LV = "^(__)?WRITE_ONCE$|^smp_store_mb$|^(__)?(this|raw)_cpu_(write|add|sub|inc|dec|and|or|xchg|cmpxchg|cmpxchg64|cmpxchg128|try_cmpxchg|add_return|sub_return|inc_return|dec_return)$"
	AD = "^smp_store_release$|^(arch_)?(try_)?(xchg|cmpxchg|cmpxchg64|cmpxchg128|cmpxchg_local|cmpxchg64_local)(_relaxed|_acquire|_release)?$"
	CALL = "[A-Za-z_][A-Za-z0-9_]*[ \t]*\\("
}
FILENAME == ARGV[1] {
	if ($3 == "static") {
		st[$1 SUBSEP $2] = $4
		if ($5) pst[$1 SUBSEP $2] = 1
	} else {
		gl[$2] = $1 SUBSEP $4
		if ($5) pgl[$2] = 1
	}
	next
}
FNR == 1 {
	depth = 0; incom = 0; head = ""; fn = "-"; isinit = 0; cont = 0
	file = FILENAME; sub("^" tree "/", "", file)
}
{
	s = $0
	# preprocessor lines and their continuations
	if (cont || s ~ /^[ \t]*#/) {
		cont = (s ~ /\\$/)
		next
	}
	# comments, strings, character literals
	if (incom) {
		if (!sub(/^([^*]|\*+[^*\/])*\*+\//, "", s))
			next
		incom = 0
	}
	gsub(/"([^"\\]|\\.)*"/, "\"\"", s)
	gsub(/'\''([^'\''\\]|\\.)*'\''/, "0", s)
	gsub(/\/\*([^*]|\*+[^*\/])*\*+\//, " ", s)
	sub(/\/\/.*/, "", s)
	if (match(s, /\/\*/)) {
		s = substr(s, 1, RSTART - 1)
		incom = 1
	}
	if (depth > 0 && fn != "-" && !isinit)
		check(s)
	# brace tracking: a body opens at depth 0 after a header with "("
	# and no "=" (an initializer is no function)
	n = (s ~ /[{}]/ || (depth == 0 && s ~ /;/)) ? length(s) : 0
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (c == "{") {
			if (depth == 0) {
				h = head " " substr(s, 1, i - 1)
				if (h ~ /\(/ && h !~ /=/) {
					fn = h
					sub(/\(.*/, "", fn)
					gsub(/.*[^A-Za-z0-9_]/, "", fn)
					if (fn == "") fn = "?"
					isinit = (h ~ /(^|[^A-Za-z0-9_])__(init|exit)([^A-Za-z0-9_]|$)/)
					# the rest of this line is inside the body
					if (!isinit)
						check(substr(s, i + 1))
				} else
					fn = "-"
				head = ""
			}
			depth++
		} else if (c == "}") {
			if (depth > 0) depth--
			if (depth == 0) { fn = "-"; head = "" }
		} else if (c == ";" && depth == 0) {
			head = ""
		}
	}
	if (depth == 0) {
		# the header so far: text after the last ; or } of this line
		t = s
		sub(/.*[;}]/, "", t)
		head = head " " t
		if (length(head) > 2000) head = substr(head, length(head) - 2000)
	}
}
function check(s,    rest, m, arg, amp, id, after, cf, k, g) {
	rest = s
	while (match(rest, CALL)) {
		m = substr(rest, RSTART, RLENGTH)
		rest = substr(rest, RSTART + RLENGTH)
		sub(/[ \t]*\($/, "", m)
		if (m !~ LV && m !~ AD)
			continue
		arg = rest
		sub(/^[ \t(]*/, "", arg)
		amp = (arg ~ /^&/)
		sub(/^&[ \t(]*/, "", arg)
		if (!match(arg, /^[A-Za-z_][A-Za-z0-9_]*/))
			continue
		id = substr(arg, 1, RLENGTH)
		after = substr(arg, RLENGTH + 1)
		sub(/^[ \t)]*/, "", after)
		if (after ~ /^->/)
			continue
		if (m ~ LV) {
			if (amp) continue
		} else if (!amp && after !~ /^[.[]/)
			continue
		if ((file SUBSEP id) in st) {
			cf = file; k = st[file SUBSEP id]
			ptr = (file SUBSEP id) in pst
		} else if (id in gl) {
			split(gl[id], g, SUBSEP); cf = g[1]; k = g[2]
			ptr = id in pgl
		} else
			continue
		# p[i] of a pointer is its pointee
		if (ptr && after ~ /^\[/)
			continue
		printf "%s\t%d\t%s\t%s\t%s\t%s\t%s\n", file, FNR, id, m, fn, cf, k
	}
}
'
: > "$out/violations.tmp"
if [ "$nfiles" -gt 0 ]; then
	sed "s|^|$tree/|" "$out/files.txt" |
		xargs -d '\n' awk -v tree="$tree" "$scan" "$out/ro.tsv" \
		>> "$out/violations.tmp" || die 70 "the scan failed"
fi
{
	printf 'file\tline\tname\tmacro\tfunc\tcandidate_file\tconfidence\n'
	sort -t '	' -k1,1 -k2,2n -u "$out/violations.tmp"
} > "$out/violations.tsv"
rm -f "$out/violations.tmp"
sites=$(($(wc -l < "$out/violations.tsv") - 1))
nvar=$(tail -n +2 "$out/violations.tsv" | cut -f3,6 | sort -u | wc -l)
nhigh=$(tail -n +2 "$out/violations.tsv" | awk -F '\t' '$7 == "high"' |
	cut -f3,6 | sort -u | wc -l)
t1=$(date +%s)

date=$(date -u +%FT%TZ)
res=$work/bench/results.tsv
mkdir -p "$work/bench" || die 70 "cannot create $work/bench"
[ -s "$res" ] || printf 'bench\tmetric\tvalue\tunit\tdate\n' > "$res"
{
	printf 'lvalue\tkernel\t%s\tversion\t%s\n' "$kver" "$date"
	printf 'lvalue\tcandidates_checked\t%s\tvariables\t%s\n' "$nro" "$date"
	printf 'lvalue\tfiles_scanned\t%s\tfiles\t%s\n' "$nfiles" "$date"
	printf 'lvalue\tviolations\t%s\tvariables\t%s\n' "$nvar" "$date"
	printf 'lvalue\tviolations_high\t%s\tvariables\t%s\n' "$nhigh" "$date"
	printf 'lvalue\tviolation_sites\t%s\tsites\t%s\n' "$sites" "$date"
	printf 'lvalue\ttime\t%s\tseconds\t%s\n' "$((t1 - t0))" "$date"
} >> "$res" || die 70 "cannot write $res"

echo "bench-lvalue: $nro ro_after_init candidates, $nfiles files scanned in $((t1 - t0)) s"
echo "bench-lvalue: $nvar written at runtime by an lvalue macro ($nhigh high), $sites sites; $out/violations.tsv"
if [ "$sites" -gt 0 ]; then
	tail -n +2 "$out/violations.tsv" | cut -f4 | sed 's/^__//' | sort |
		uniq -c | sort -rn | sed 's/^/  /'
	exit 1
fi
exit 0
