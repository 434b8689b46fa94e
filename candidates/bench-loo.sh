#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench-loo.sh - leave-one-out recall of the finder.
#
# usage: candidates/bench-loo.sh [options] TREE WORK [SCOPE...]
#
# 1. Facts of TREE over SCOPE (cocci/run-facts.sh, cached per file), plus
#    every file that mentions a held-out global by name.
# 2. Every variable those facts show as __ro_after_init (or
#    __lsm_ro_after_init) in a .c file of SCOPE, outside
#    include/linux/cache.h, is the held-out set.
# 3. A scratch copy WORK/loo/tree (cp -al: hard links, so it costs no
#    space; each edited file is rewritten as a new file, and the git index
#    is a private copy, so TREE itself is never modified) has the
#    annotation removed from exactly those definitions (a static key's
#    DEFINE_STATIC_KEY_*_RO loses its _RO).  This is a sed on the
#    definition's own line (up to 3 lines below it for multi-line
#    definitions, 2 above for a multi-line key macro), keyed by the
#    file and line from defs.tsv; sed is acceptable here because the
#    copy is scratch and the edit is position-keyed, never a tree-wide
#    substitution.
# 4. Facts of the copy (only the edited files miss the cache) and
#    candidates on them.  Recall = fraction of the held-out set proposed
#    as ro_after_init.  Misses are broken down by cause.
#
# Results: WORK/loo/report.tsv (one row per held-out variable), a summary
# on stdout, and rows appended to WORK/bench/results.tsv
# ("bench metric value unit date").  Exit 0 if recall >= the target
# (--target, default 0.80), 1 below it, 64 usage, 65 no annotated
# definition in scope, 70 a stage or the host failed.
set -u

usage() {
	sed -n '3,30s/^# \{0,1\}//p' "$0"
	cat <<EOF

options:
  -j N          parallel spatch jobs (default: number of cores)
  --target R    recall target (default 0.80)
  --keep        keep WORK/loo/tree afterwards (default: removed)
  -h, --help    this text
EOF
}

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
prog_name=bench-loo
. "$repo/lib/args.sh"
bin=$here/candidates
runfacts=$repo/cocci/run-facts.sh
. "$repo/lib/tsv.sh"
. "$repo/lib/notkernel.sh"
# lib/notkernel.tsv as ":(exclude)DIR" pathspecs, split unquoted below
nk=$(notkernel_excludes "$repo/lib/notkernel.tsv" none) || exit 65
jobs=$(nproc 2>/dev/null || echo 2)
target=0.80
keep=0
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-j) [ $# -ge 2 ] || die 64 "-j needs a value"; jobs=$2; shift 2 ;;
	--target) [ $# -ge 2 ] || die 64 "--target needs a value"; target=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	--) shift; break ;;
	-*) die 64 "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || { usage >&2; exit 64; }
posint -j "$jobs" 1024
case $target in
0 | 1 | 0.[0-9] | 0.[0-9][0-9] | 0.[0-9][0-9][0-9] | 1.0 | 1.00 | 1.000) ;;
*) die 64 "--target wants a fraction from 0 to 1 (0.80), not '$target'" ;;
esac
tree=$1 work=$2
shift 2
[ -d "$tree/.git" ] || die 64 "TREE '$tree' is not a git work tree"
[ -x "$bin" ] && [ -x "$here/../cocci/mentions" ] ||
	die 70 "$bin or $here/../cocci/mentions is not built (make programs)"
[ -f "$runfacts" ] || die 70 "missing $runfacts"
mkdir -p "$work/loo" "$work/bench" || die 70 "cannot create $work/loo"
tree=$(cd "$tree" && pwd)
kver=$(make -s -C "$tree" kernelversion 2>/dev/null | tail -n 1)
[ -n "$kver" ] || kver=-
loo=$(cd "$work/loo" && pwd)
scratch=$loo/tree
cache=$loo/cache
t0=$(date +%s)

# ---- 1. facts of the original tree -----------------------------------------

# The scope's own files first (run-facts.sh --no-extend).  Then, so that
# the held-out globals are judged tree-wide, every .c/.h file of the tree
# that may write one of them (cocci/mentions) joins the list (run-facts.sh's
# own extension follows every global name it sees, which is the whole
# tree for names like jiffies; the bench only scores the held-out set).
echo "bench-loo: facts of $tree over: ${*:-the whole tree}" >&2
sh "$runfacts" -j "$jobs" --no-extend --cache "$cache" "$tree" \
	"$loo/facts-scope" "$@" ||
	die 70 "run-facts.sh failed on the original tree"

# ---- 2. the held-out set -----------------------------------------------------

# scope filter: a file is in scope if it is under one of the SCOPE entries
scopes=$(printf '%s\n' "$@")
tsv_awk "$loo/facts-scope/defs.tsv" '
	BEGIN { n = split(scopes, s, "\n") }
	function in_scope(f,   i, p) {
		if (n == 0) return 1
		for (i = 1; i <= n; i++) {
			p = s[i]; sub(/\/$/, "", p)
			if (p == "." || f == p || index(f, p "/") == 1) return 1
		}
		return 0
	}
	NR > 1 && $c_attrs ~ /(^|,)ro_after_init(,|$)/ && $c_file ~ /\.c$/ &&
	$c_file != "include/linux/cache.h" && in_scope($c_file) {
		print $c_file "\t" $c_line "\t" $c_name "\t" \
			($c_attrs ~ /(^|,)static_key=/ ? "key" : "var")
	}' -v scopes="$scopes" | sort -u > "$loo/heldout.tsv"
nheld=$(wc -l < "$loo/heldout.tsv")
[ "$nheld" -gt 0 ] || die 65 "no __ro_after_init definitions in scope"
echo "bench-loo: $nheld annotated definitions held out" >&2

tsv_awk "$loo/facts-scope/defs.tsv" 'NR > 1 && $c_storage == "global" &&
	$c_attrs ~ /(^|,)ro_after_init(,|$)/ {
	print $c_name "\t" ($c_array == 1 ? "array" : "") }' |
	sort -u > "$loo/globals.txt"
cp "$loo/facts-scope/files.txt" "$loo/files.txt"
if [ -s "$loo/globals.txt" ]; then
	# the files run-facts.sh's phase 2 would add for these names
	# shellcheck disable=SC2086
	git -C "$tree" ls-files -- '*.c' '*.h' $nk |
		(cd "$tree" && "$here/../cocci/mentions" "$loo/globals.txt") \
		>> "$loo/files.txt"
fi
sort -u -o "$loo/files.txt" "$loo/files.txt"
echo "bench-loo: $(wc -l < "$loo/globals.txt") held-out globals; $(wc -l < "$loo/files.txt") files to analyse" >&2
sh "$runfacts" -j "$jobs" --list "$loo/files.txt" --cache "$cache" "$tree" \
	"$loo/facts-orig" || die 70 "run-facts.sh failed on the original tree"
t1=$(date +%s)

# ---- 3. scratch copy with the annotations stripped ----------------------------

rm -rf "$scratch"
cp -al "$tree" "$scratch" || die 70 "cp -al $tree $scratch failed"
# git may rewrite the index in place of the link: give the copy its own
cp --remove-destination "$tree/.git/index" "$scratch/.git/index" ||
	die 70 "cannot copy the git index"
: > "$loo/stripped.tsv"
: > "$loo/strip.log"
cut -f1 "$loo/heldout.tsv" | sort -u | while read -r f; do
	lines=$(awk -F '\t' -v f="$f" '$1 == f { printf "%s:%s ", $2, $4 }' \
		"$loo/heldout.tsv")
	# strip the annotation nearest the definition's line (the line itself,
	# then up to 3 below, then up to 2 above; a static key's _RO macro
	# the line itself, then up to 2 above, where a multi-line macro
	# starts), once per definition, never on the line of another held-out
	# definition.  The result is a new file, so the hard link to TREE is
	# broken, never written through.
	awk -v lines="$lines" -v f="$f" -v logf="$loo/strip.log" '
		function strip(k,   s, e, b, a) {
			if (k < 1 || k > nl || (k != cur && (k in isdef)))
				return 0
			# DEFINE_STATIC_KEY_*_RO( loses its _RO
			if (key && match(text[k], /DEFINE_STATIC_KEY_[A-Z_]*_RO\(/)) {
				e = RSTART + RLENGTH - 1
				text[k] = substr(text[k], 1, e - 4) substr(text[k], e)
				return 1
			}
			if (!match(text[k], /__(lsm_)?ro_after_init/))
				return 0
			s = RSTART
			e = RSTART + RLENGTH
			b = substr(text[k], s - 1, 1)
			a = substr(text[k], e, 1)
			if ((s > 1 && b ~ /[A-Za-z0-9_]/) || a ~ /[A-Za-z0-9_]/)
				return 0
			while (s > 1 && substr(text[k], s - 1, 1) ~ /[ \t]/)
				s--
			text[k] = substr(text[k], 1, s - 1) substr(text[k], e)
			return 1
		}
		{ text[++nl] = $0 }
		END {
			n = split(lines, L, " ")
			for (i = 1; i <= n; i++) {
				split(L[i], p, ":")
				isdef[p[1] + 0] = 1
			}
			for (i = 1; i <= n; i++) {
				split(L[i], p, ":")
				l = cur = p[1] + 0
				key = p[2] == "key"
				if (key)
					done = strip(l) || strip(l - 1) || strip(l - 2)
				else
					done = strip(l) || strip(l + 1) || strip(l + 2) ||
						strip(l + 3) || strip(l - 1) || strip(l - 2)
				if (!done)
					print f ":" l ": no annotation found" >> logf
			}
			for (k = 1; k <= nl; k++)
				print text[k]
		}
	' "$scratch/$f" > "$scratch/$f.loo-tmp" &&
		mv "$scratch/$f.loo-tmp" "$scratch/$f" ||
		die 70 "cannot edit $scratch/$f"
	printf '%s\n' "$f" >> "$loo/stripped.tsv"
done || die 70 "stripping the annotations failed"
left=$(cut -f1 "$loo/heldout.tsv" | sort -u | tr '\n' '\0' | (cd "$scratch" &&
	xargs -0 grep -lw -e __ro_after_init -e __lsm_ro_after_init 2>/dev/null) |
	wc -l)
echo "bench-loo: stripped $(wc -l < "$loo/stripped.tsv") files ($left still mention the annotation elsewhere)" >&2

# ---- 4. facts of the copy, candidates, scoring ------------------------------------

sh "$runfacts" -j "$jobs" --list "$loo/files.txt" --cache "$cache" \
	"$scratch" "$loo/facts-loo" ||
	die 70 "run-facts.sh failed on the scratch tree"
t2=$(date +%s)
"$bin" --facts "$loo/facts-loo" --out "$loo/candidates-loo.tsv" ||
	die 70 "candidates failed"
t3=$(date +%s)

# candidates-loo.tsv by column name (heldout.tsv: file line name kind, no
# header)
cand=$loo/candidates-loo.tsv
cf=$(tsv_colnum "$cand" file) && cn=$(tsv_colnum "$cand" name) &&
	cc=$(tsv_colnum "$cand" class) && co=$(tsv_colnum "$cand" confidence) &&
	cr=$(tsv_colnum "$cand" reason) || exit 65
awk -F '\t' -v OFS='\t' -v cf="$cf" -v cn="$cn" -v cc="$cc" -v co="$co" \
	-v cr="$cr" '
	FNR == 1 { file++ }
	file == 1 { held[$1 "\t" $3] = $2; order[++n] = $1 "\t" $3; next }
	file == 2 && FNR > 1 { k = $cf "\t" $cn
		if (k in held && !(k in cls)) { cls[k] = $cc; conf[k] = $co
			why[k] = $cr } }
	function cause(c, r,   form, w) {
		if (c == "ro_after_init") return "-"
		if (c == "") return "definition not found after the strip"
		if (c == "already") return "annotation not stripped"
		if (c == "const") return "no write seen (const)"
		if (c == "initdata") return "read only by init code (initdata)"
		if (c == "skip") return "skip: " r
		form = r
		if (match(r, /^[^ ]*:[0-9]+:[^:]*:[a-z-]+: /)) {
			form = substr(r, 1, RLENGTH - 2); sub(/.*:/, "", form)
		} else form = ""
		w = (form == "addr" || form == "array-arg") ? "escaped: " : \
			(form == "" ? "" : "written: ")
		if (r ~ /facts incomplete/) return "parse failure of its file"
		if (r ~ /address of .* taken/) return w "writer reachable through a function pointer"
		if (r ~ /is called from non-init/) return w "writer called from non-init code"
		if (r ~ /is a global function, not __init/) return w "in a non-init global function"
		if (r ~ /has no known callers/) return w "in a static function with no known callers"
		if (r ~ /is in section/) return w "in a non-init section (__meminit, __ref...)"
		if (r ~ /address stored at file scope/) return "escaped: address stored at file scope"
		if (r ~ /written at file scope/) return "written at file scope"
		if (r ~ /not found in funcs.tsv/) return w "writer not in funcs.tsv"
		if (r ~ /writable at runtime/) return "writable module_param/sysctl"
		if (r ~ /not understood/) return "permission not understood"
		if (r ~ /which spatch failed on/) return w "writer in a file spatch failed on"
		if (r ~ /whoever keeps it writes/) return w "its type is written after init by whoever keeps it"
		if (r ~ /address kept in the file-scope pointer/) return "escaped: through a file-scope pointer used after init"
		if (r ~ /which may take its address and hand it/) return "escaped: named in a macro at file scope"
		if (r ~ /stored in .*(, and at |a table nested too deep)/) return "escaped: stored in a table used after init"
		if (r ~ /written by assembly/) return "written by assembly"
		return "other: " r
	}
	END {
		print "file", "line", "name", "class", "confidence", "cause", "reason"
		for (i = 1; i <= n; i++) { k = order[i]; split(k, p, "\t")
			print p[1], held[k], p[2], (k in cls) ? cls[k] : "-",
				(k in conf) ? conf[k] : "-", cause(cls[k], why[k]),
				(k in why) ? why[k] : "-" }
	}' "$loo/heldout.tsv" "$cand" > "$loo/report.tsv"

hit=$(awk -F '\t' 'NR > 1 && $4 == "ro_after_init"' "$loo/report.tsv" | wc -l)
high=$(awk -F '\t' 'NR > 1 && $4 == "ro_after_init" && $5 == "high"' "$loo/report.tsv" | wc -l)
recall=$(awk -v h="$hit" -v n="$nheld" 'BEGIN { printf "%.3f", h / n }')
# a tighter annotation than upstream's (__initdata: only init code reads
# it; const: nothing writes it) is a find too, but not a re-proposal
tight=$(awk -F '\t' 'NR > 1 && ($4 == "initdata" || $4 == "const")' "$loo/report.tsv" | wc -l)
recall_tight=$(awk -v h="$((hit + tight))" -v n="$nheld" 'BEGIN { printf "%.3f", h / n }')
nfiles=$(wc -l < "$loo/facts-orig/files.txt")
nerr=$(awk -F '\t' 'NR > 1 { print $1 }' "$loo/facts-loo/errors.tsv" | sort -u | wc -l)
date=$(date -u +%FT%TZ)
res=$work/bench/results.tsv
[ -s "$res" ] || printf 'bench\tmetric\tvalue\tunit\tdate\n' > "$res"
{
	printf 'loo\tkernel\t%s\tversion\t%s\n' "$kver" "$date"
	printf 'loo\theld_out\t%s\tvariables\t%s\n' "$nheld" "$date"
	printf 'loo\trecall\t%s\tfraction\t%s\n' "$recall" "$date"
	printf 'loo\trecall_or_tighter\t%s\tfraction\t%s\n' "$recall_tight" "$date"
	printf 'loo\tproposed_high\t%s\tvariables\t%s\n' "$high" "$date"
	printf 'loo\tproposed_medium\t%s\tvariables\t%s\n' "$((hit - high))" "$date"
	printf 'loo\tfacts_files\t%s\tfiles\t%s\n' "$nfiles" "$date"
	printf 'loo\tparse_errors\t%s\tfiles\t%s\n' "$nerr" "$date"
	printf 'loo\tfacts_orig_time\t%s\tseconds\t%s\n' "$((t1 - t0))" "$date"
	printf 'loo\tfacts_loo_time\t%s\tseconds\t%s\n' "$((t2 - t1))" "$date"
	printf 'loo\tcandidates_time\t%s\tseconds\t%s\n' "$((t3 - t2))" "$date"
	awk -F '\t' -v d="$date" 'NR > 1 && $4 != "ro_after_init" { c[$6]++ }
		END { for (k in c) { m = k; gsub(/[ \t]+/, "_", m)
			printf "loo\tmiss:%s\t%d\tvariables\t%s\n", m, c[k], d } }' \
		"$loo/report.tsv" | sort
} >> "$res"

echo "bench-loo: Linux $kver, scope: ${*:-whole tree}; $nfiles files analysed, $nerr with parse errors"
echo "bench-loo: recall $recall ($hit of $nheld re-proposed: $high high, $((hit - high)) medium)"
echo "bench-loo: with a tighter annotation ($tight as __initdata or const): $recall_tight"
echo "bench-loo: misses by cause:"
awk -F '\t' 'NR > 1 && $4 != "ro_after_init" { c[$6]++ }
	END { for (k in c) printf "  %4d  %s\n", c[k], k }' "$loo/report.tsv" |
	sort -rn
echo "bench-loo: facts $((t1 - t0)) s, strip and facts again $((t2 - t1)) s, candidates $((t3 - t2)) s; report $loo/report.tsv"
[ "$keep" -eq 1 ] || rm -rf "$scratch"
awk -v r="$recall" -v t="$target" 'BEGIN { exit !(r >= t) }'
