#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# run-facts.sh - run cocci/facts.cocci over a kernel tree, write fact TSVs.
#
# Phase 1 runs on the .c files of SCOPE that can hold an init-only write or
# a parameter (they mention __init, __setup, module_param, ctl_table...).
# Phase 2 adds every .c and .h file of the tree where a global phase 1 saw
# defined may be written or escape (cocci/mentions): a global written
# in a file without __init still rejects it. Results are cached per file, keyed by the file's git blob
# hash and a hash of the rules, so a rerun (after Ctrl-C or kill -9) only
# runs spatch on files it has not seen.

set -u

usage() {
	cat <<EOF
usage: $0 [options] TREE FACTS_DIR [SCOPE...]

Run the facts.cocci rules over TREE (a git work tree) and write
FACTS_DIR/{defs,writes,funcs,funcrefs,calls,params,errors}.tsv, and
FACTS_DIR/features.tsv: what the tree's kernel does (sealed static keys), and
FACTS_DIR/decls.tsv: extern declarations that place a variable in a section, and
FACTS_DIR/layouts.tsv: the types that embed what a keeper writes after init, and
FACTS_DIR/protos.tsv: the arguments every declaration takes as a pointer to const, and
FACTS_DIR/callers.tsv: the functions that only init code calls, whole tree.
SCOPE is a list of directories or files relative to TREE (default: all).

options:
  -j, --jobs N      parallel spatch processes (default: number of cores)
  --timeout S       per-file spatch timeout in seconds (default: 120)
  --chunk N         files per spatch process (default: 64)
  --cache DIR       per-file result cache (default: FACTS_DIR/cache)
  --no-extend       skip phase 2 (files that mention the globals seen)
  --list FILE       use the .c/.h files listed in FILE (one per line,
                    relative to TREE) instead of the prefilter
  -h, --help        show this help

A SCOPE entry and a --list line are paths inside TREE: relative, without
"." or ".." components (a SCOPE may be "." for the whole tree).  They are
used as paths only, never as patterns or shell code.

spatch failing on one file (parse errors, a timeout, a crash) is not a
failure of the run: the file gets its row in errors.tsv (FACTS.md).  The
rules not parsing, a worker or xargs failing, is.

SPATCH_PYTHON is the Python interpreter spatch loads for the rules' scripts
(default /usr/bin/python3, else python3 from PATH).

Exit status: 0 done, 64 usage (bad option, -j 0, a SCOPE that does not
exist), 65 bad --list entry or nothing to analyse, 70 spatch, git or the
host failed, 130 interrupted (a rerun resumes from the cache).
EOF
}

here=$(cd "$(dirname "$0")" && pwd)
prog_name=run-facts
. "$here/../lib/args.sh"
. "$here/../lib/notkernel.sh"
# lib/notkernel.tsv as ":(exclude)DIR" pathspecs, no blanks and no globs
# (notkernel_excludes checks), so they are split unquoted below: nk for
# the facts, nk_scans for the whole-tree scans, which leave samples/ out
nk=$(notkernel_excludes "$here/../lib/notkernel.tsv" none) || exit 65
nk_scans=$(notkernel_excludes "$here/../lib/notkernel.tsv" facts) || exit 65
cocci=$here/facts.cocci
macros=$here/macros.h
# the worker's copy of Coccinelle's standard.h, without the macros that
# macros.h defines (spatch lets standard.h win, see macros.h)
builtins=${RUN_FACTS_BUILTINS-}
# what spatch 1.1.1 cannot parse and no macro reaches, for grep -E and
# sed -E (run_chunk): asm goto (a keyword pair: goto is blanked) and a
# case range without spaces, case A...B (read as case A - B)
asmgoto='\<((asm|__asm__|__asm|asm_inline)([[:space:]]+(volatile|__volatile__|inline))*[[:space:]]+)goto\>'
caserange='(\<case[[:space:]]+[A-Za-z_][A-Za-z0-9_]*)\.\.\.([A-Za-z_])'
tables="defs writes funcs funcrefs calls params errors uses"

hdr_defs='file	line	name	storage	type	array	attrs	init'
hdr_writes='file	line	var	func	form'
hdr_funcs='file	line	name	storage	section'
hdr_funcrefs='file	line	name	func'
hdr_calls='file	line	caller	callee'
hdr_params='file	line	var	kind	perm	handler'
hdr_errors='file	reason'
hdr_uses='file	line	var	func	use'

# hdr TABLE: the header line of TABLE.tsv (FACTS.md)
hdr() {
	case $1 in
	defs) echo "$hdr_defs" ;;
	writes) echo "$hdr_writes" ;;
	funcs) echo "$hdr_funcs" ;;
	funcrefs) echo "$hdr_funcrefs" ;;
	calls) echo "$hdr_calls" ;;
	params) echo "$hdr_params" ;;
	errors) echo "$hdr_errors" ;;
	uses) echo "$hdr_uses" ;;
	esac
}

# ---- worker: run spatch on a chunk of files, fill the cache ---------------

# run_chunk TREE CACHEDIR TIMEOUT PROGRESS FILE...
run_chunk() {
	tree=$1 cdir=$2 tmo=$3 prog=$4
	shift 4
	cd "$tree" || exit 70
	tree=$(pwd) || exit 70
	wd=$(mktemp -d "${TMPDIR:-/tmp}/run-facts.XXXXXX") || exit 70
	stage=
	trap 'rm -rf "$wd" ${stage:+"$stage"}' EXIT
	for f in "$@"; do printf '%s\n\n' "$f"; done > "$wd/groups"
	# a file with asm goto or case A...B is read from a copy in
	# WD/root with the construct rewritten in as many characters
	# (above), so every line and column stays the tree's; spatch runs
	# in WD/root, where the other files are symbolic links to the
	# tree's, and every row and error names the tree's own path. The
	# copy goes with WD.
	if grep -l -E -e "$asmgoto" -e "$caserange" -- "$@" >"$wd/rewrite" 2>/dev/null; then
		for f in "$@"; do
			mkdir -p "$wd/root/$(dirname "$f")" || exit 70
			if grep -qxF -- "$f" "$wd/rewrite"; then
				sed -E -e "s/$asmgoto/\\1    /g" \
					-e "s/$caserange/\\1 - \\2/g" -- "$f" \
					>"$wd/root/$f"
			else
				ln -s "$tree/$f" "$wd/root/$f"
			fi || exit 70
		done
		cd "$wd/root" || exit 70
	fi
	# the whole chunk gets the per-file budget for each file, plus slack
	outer=$((tmo * $# + 60))
	timeout -k 10 "$outer" spatch --python "${RUN_FACTS_PYTHON:-python3}" \
		--sp-file "$cocci" \
		--macro-file-builtins "$builtins" --macro-file "$macros" \
		--no-includes --include-headers \
		--parse-error-msg --verbose-parsing --timeout "$tmo" \
		--file-groups "$wd/groups" >"$wd/out" 2>"$wd/err"
	rc=$?
	# which files finished, and their errors; each unparsed region is
	# "FIRST-LAST@WHERE", WHERE the error position: LINE:COL in the file,
	# or macro:NAME when it is inside the expansion of macro NAME, with
	# "/define" after it when the region holds nothing but #directives,
	# #define bodies, comments and blank lines.
	# --verbose-parsing prints "ERROR-RECOV: found sync ... line S",
	# "parse error", " = File F, line L, column C", then the region's
	# lines after "badcount: N" ("bad: TEXT", "BAD:!!!!! TEXT" for the
	# error line; the first of them, when there are N + 1 and it is no
	# BAD line, is the end of the last toplevel item parsed, not part of
	# the region); the
	# region ends at S when S holds its last line, else at S - 1 (S is
	# the last line after "end of file while in recovery mode").
	awk -v rc="$rc" -v wd="$wd" '
		function flush() {
			region()
			if (cur == "") return
			if (nparse) print cur "\tparse-error: " nparse \
				" unparsed region(s), " ncode \
				" outside #define bodies:" regs > (wd "/errs")
			cur = ""
		}
		function linetext(n,   l, i) {
			if (!(cur in loaded)) {
				loaded[cur] = 1
				delete txt
				i = 0
				while ((getline l < cur) > 0) txt[++i] = l
				close(cur)
				ntxt = i
			}
			return (n in txt) ? txt[n] : "\001"
		}
		# the name of the #define of macro file F around line L
		function defname(f, l,   t, i, name) {
			name = "?"
			i = 0
			l += 0
			while (i < l && (getline t < f) > 0) {
				i++
				if (t ~ /^#define[ \t]/) {
					sub(/^#define[ \t]+/, "", t)
					sub(/[^A-Za-z0-9_].*/, "", t)
					name = t
				}
			}
			close(f)
			return name
		}
		function region(   last, first) {
			if (!inbad) return
			inbad = 0
			last = sync
			if (last > 0 && linetext(last) != lastbad) last--
			# the first line printed is the last one parsed
			first = last - (bc > 0 && bc < nbad && !firstbad ? bc : nbad) + 1
			if (last < 1) {
				regs = regs " ?-?@" where
				ncode++
			} else if (ppregion(first, last)) {
				regs = regs " " first "-" last "@" where "/define"
			} else {
				regs = regs " " first "-" last "@" where
				ncode++
			}
		}
		# are lines A..B only blank, comments, #directives and the
		# bodies of #defines (no facts come from a #define body)?
		function ppregion(a, b,   i, t, cont) {
			cont = 0
			i = a
			# a region may start inside a #define
			while (i > 1 && linetext(i - 1) ~ /\\[ \t]*$/) i--
			for (; i <= b; i++) {
				t = linetext(i)
				if (t == "\001") return 0
				if (!cont && t !~ /^[ \t]*(#|\/\*|\*|\/\/|$)/ &&
				    t !~ /\*\/[ \t]*$/)
					return 0
				if (cont || t ~ /^[ \t]*#/)
					cont = t ~ /\\[ \t]*$/
			}
			return 1
		}
		/^HANDLING: / { flush(); cur = substr($0, 11); nparse = 0
			regs = ""; ncode = 0; sync = 0; handled[++n] = cur; next }
		/^ERROR-RECOV: / { region()
			if (/end of file/) {
				linetext(1)
				sync = ntxt
			} else if (match($0, /line [0-9]+/))
				sync = substr($0, RSTART + 5, RLENGTH - 5) + 0
			next }
		/^parse error/ { region(); nparse++; where = "?"; nbad = 0; next }
		/^ = File "/ { f = $0; sub(/^ = File "/, "", f)
			l = f; sub(/", line .*/, "", f)
			sub(/.*", line /, "", l); c = l
			sub(/,.*/, "", l); sub(/.*column /, "", c); sub(/,.*/, "", c)
			if (f == cur) where = l ":" c
			else where = "macro:" defname(f, l)
			next }
		/^badcount: / { inbad = 1; nbad = 0; bc = $2 + 0; next }
		inbad && /^(bad: |BAD:!!!!! )/ { if (!nbad++) firstbad = /^BAD/
			lastbad = $0
			sub(/^(bad: |BAD:!!!!! )/, "", lastbad); next }
		inbad && /^(bad:|BAD:!!!!!)$/ { if (!nbad++) firstbad = /^BAD/
			lastbad = ""; next }
		{ region() }
		/^EXN: .*Timeout in / { print cur "\ttimeout" > (wd "/errs"); next }
		/^EXN: / { sub(/^EXN: /, ""); gsub(/\t/, " ")
			print cur "\texception: " $0 > (wd "/errs"); next }
		END { flush()
			# with a non-zero exit the last file started did not finish
			last = (rc == 0) ? n : n - 1
			for (i = 1; i <= last; i++) print handled[i] > (wd "/done")
			if (rc != 0 && n > 0) print handled[n] > (wd "/failed")
		}' "$wd/err"
	touch "$wd/done" "$wd/failed" "$wd/errs"
	if [ "$rc" -ne 0 ] && [ $# -gt 1 ]; then
		# retry the unfinished files one by one
		for f in "$@"; do
			grep -qxF -- "$f" "$wd/done" && continue
			(run_chunk "$tree" "$cdir" "$tmo" "$prog" "$f") ||
				exit 70
		done
	elif [ "$rc" -ne 0 ]; then
		if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
			reason="timeout (killed after ${outer}s)"
		else
			reason="spatch exit status $rc"
		fi
		grep -qxF -- "$1" "$wd/done" ||
			printf '%s\t%s\n' "$1" "$reason" >>"$wd/errs"
		echo "$1" >>"$wd/done"
	fi
	# file results into the cache, atomically per file: each file's rows
	# are written in a stage directory beside the cache and hard-linked
	# into place complete (a few processes per chunk, not per file)
	git -C "$tree" hash-object -- "$@" >"$wd/hashes" || exit 70
	printf '%s\n' "$@" >"$wd/files"
	stage=$(mktemp -d "$cdir/.stage.XXXXXX") || exit 70
	awk -v cdir="$cdir" '
		FILENAME == ARGV[1] { f[FNR] = $0; n = FNR; next }
		FILENAME == ARGV[2] { h[FNR] = $0; next }
		{ done[$0] = 1 }
		END {
			for (i = 1; i <= n; i++) {
				if (!(f[i] in done)) continue
				k = f[i] "." h[i]
				# in the cache already (an empty entry reads 0)
				if ((getline x < (cdir "/" k)) >= 0) {
					close(cdir "/" k)
					continue
				}
				print k
			}
		}' "$wd/files" "$wd/hashes" "$wd/done" >"$wd/keys" || exit 70
	if [ -s "$wd/keys" ]; then
		sed -n 's|/[^/]*$||p' "$wd/keys" | sort -u |
			(cd "$stage" && xargs -r -d '\n' mkdir -p --) || exit 70
		awk -F '\t' -v stage="$stage" -v prog="$prog" '
			FILENAME == ARGV[1] { k[++n] = $0; next }
			FILENAME == ARGV[2] { out[$2] = out[$2] $0 "\n"; next }
			{ err[$1] = err[$1] "errors\t" $0 "\n" }
			END {
				for (i = 1; i <= n; i++) {
					f = k[i]
					sub(/\.[^.]*$/, "", f)
					p = stage "/" k[i]
					printf "%s%s", out[f], err[f] > p
					if (close(p)) exit 1
					print f >> prog
				}
			}' "$wd/keys" "$wd/out" "$wd/errs" || exit 70
		cp -Rlf -- "$stage/." "$cdir/" || exit 70
	fi
	rm -rf "$stage"
	return 0
}

if [ "${1-}" = "--worker" ]; then
	shift
	run_chunk "$@"
	exit
fi

# ---- main ------------------------------------------------------------------

jobs=$(nproc 2>/dev/null || echo 2)
tmo=120
chunk=64
cache=
extend=1
list=
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-j | --jobs) [ $# -ge 2 ] || die 64 "$1 needs a value"; jobs=$2; shift 2 ;;
	--timeout) [ $# -ge 2 ] || die 64 "$1 needs a value"; tmo=$2; shift 2 ;;
	--chunk) [ $# -ge 2 ] || die 64 "$1 needs a value"; chunk=$2; shift 2 ;;
	--cache) [ $# -ge 2 ] || die 64 "$1 needs a value"; cache=$2; shift 2 ;;
	--list) [ $# -ge 2 ] || die 64 "$1 needs a value"; list=$2; shift 2 ;;
	--no-extend) extend=0; shift ;;
	--) shift; break ;;
	-*) die 64 "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || { usage >&2; exit 64; }
posint -j "$jobs" 1024
posint --timeout "$tmo" 86400
posint --chunk "$chunk" 10000
tree=$1 facts=$2
shift 2
[ -d "$tree" ] || die 64 "TREE '$tree' is not a directory"
git -C "$tree" rev-parse --git-dir >/dev/null 2>&1 ||
	die 64 "TREE '$tree' is not a git work tree (git grep is the prefilter)"
for s in "$@"; do
	[ "$s" = . ] || tree_path "${s%/}" ||
		die 64 "SCOPE '$s' is not a path relative to TREE (no '/' at the start, no '.' or '..')"
	[ -e "$tree/$s" ] || die 64 "SCOPE '$s' does not exist in $tree"
done
command -v spatch >/dev/null || die 70 "spatch not found (apt-get install coccinelle)"
mentions=$here/mentions
[ -x "$mentions" ] ||
	die 70 "missing $mentions, the phase-2 prefilter and .S reader (run make programs)"
layouts=$here/layouts
[ -x "$layouts" ] || die 70 "missing $layouts, the type trap's table (run make programs)"
protos=$here/protos
[ -x "$protos" ] || die 70 "missing $protos, the const arguments table (run make programs)"
callers=$here/callers
[ -x "$callers" ] || die 70 "missing $callers, the whole-tree callers table (run make programs)"
[ -f "$cocci" ] || die 70 "missing $cocci"
[ -f "$here/builtins.h" ] || die 70 "missing $here/builtins.h"
spatch --parse-cocci "$cocci" >/dev/null 2>&1 ||
	die 70 "spatch cannot parse $cocci (spatch --parse-cocci $cocci)"
if [ -n "$list" ]; then
	[ -f "$list" ] || die 64 "--list '$list' is not a file"
	list=$(cd "$(dirname "$list")" && pwd)/$(basename "$list") ||
		die 70 "cannot find the directory of --list '$list'"
	# every entry is a file of the tree: it names a cache file too
	n=0
	while IFS= read -r f || [ -n "$f" ]; do
		n=$((n + 1))
		[ -n "$f" ] || continue
		tree_path "$f" && [ -f "$tree/$f" ] ||
			die 65 "$list:$n: '$f' is not a file of TREE (a relative path, no '.' or '..')"
	done <"$list"
fi
mkdir -p "$facts" || die 70 "cannot create $facts"
facts=$(cd "$facts" && pwd) || die 70 "cannot enter $facts"
[ -n "$cache" ] || cache=$facts/cache
mkdir -p "$cache" || die 70 "cannot create cache $cache"
cache=$(cd "$cache" && pwd) || die 70 "cannot enter $cache"

# Coccinelle's builtin macros: the defines of macros.h replace theirs
std=
for d in "${COCCINELLE_HOME-}" \
	"$(dirname "$(command -v spatch)")/../lib/coccinelle" \
	/usr/lib/coccinelle /usr/local/lib/coccinelle; do
	[ -n "$d" ] && [ -f "$d/standard.h" ] && { std=$d/standard.h; break; }
done
[ -n "$std" ] || die 70 "cannot find Coccinelle's standard.h (set COCCINELLE_HOME)"
wd=$(mktemp -d "${TMPDIR:-/tmp}/run-facts.XXXXXX") || die 70 "mktemp failed"
monpid=
cleanup() {
	[ -n "$monpid" ] && kill "$monpid" 2>/dev/null
	# the token scans still running, and their partial tables
	[ -n "${table_pids-}" ] && kill $table_pids 2>/dev/null
	[ -n "$cache" ] && rm -f "$cache"/*.tsv.tmp.$$
	rm -rf "$wd"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# Coccinelle's builtin macros: standard.h without the macros that
# macros.h or builtins.h define, then builtins.h (spatch applies
# builtins before it parses, everywhere; macros.h only where the code
# does not parse without)
RUN_FACTS_BUILTINS=$wd/builtins.h
export RUN_FACTS_BUILTINS
cat "$macros" "$here/builtins.h" | awk 'FNR == NR { if ($1 == "#define") { n = $2; sub(/\(.*/, "", n); mine[n] = 1 }
		next }
	skip { skip = /\\$/; next }
	$1 == "#define" { n = $2; sub(/\(.*/, "", n)
		if (n in mine) { skip = /\\$/; next } }
	{ print }' - "$std" >"$RUN_FACTS_BUILTINS" &&
	cat "$here/builtins.h" >>"$RUN_FACTS_BUILTINS" ||
	die 70 "cannot write $RUN_FACTS_BUILTINS"
# spatch (pyml) runs the first python3 of PATH at every start to find
# its Python: through a wrapper such as pyenv's shims that costs more
# CPU than parsing most files. SPATCH_PYTHON, else the system's.
RUN_FACTS_PYTHON=${SPATCH_PYTHON-}
if [ -z "$RUN_FACTS_PYTHON" ]; then
	RUN_FACTS_PYTHON=python3
	[ -x /usr/bin/python3 ] && RUN_FACTS_PYTHON=/usr/bin/python3
fi
export RUN_FACTS_PYTHON

# errors-v2: the unparsed regions are listed in errors.tsv
rulehash=$( { echo errors-v2; cat "$cocci" "$RUN_FACTS_BUILTINS" "$macros"
	spatch --version 2>&1 | head -n 1; } |
	sha1sum | cut -c1-16)
cdir=$cache/$rulehash
mkdir -p "$cdir" || die 70 "cannot create $cdir"

start=$(date +%s)

# run_files LISTFILE LABEL: run spatch on the files of LISTFILE lacking a
# cache entry, with progress on stderr
run_files() {
	lst=$1 label=$2
	total=$(wc -l <"$lst")
	(cd "$tree" && git hash-object --stdin-paths <"$lst") >"$wd/h" ||
		die 70 "git hash-object failed in $tree"
	paste "$lst" "$wd/h" | while IFS='	' read -r f h; do
		[ -f "$cdir/$f.$h" ] || echo "$f"
	done >"$wd/pending"
	todo=$(wc -l <"$wd/pending")
	echo "run-facts: $label: $total files, $((total - todo)) cached, $todo to run (-j $jobs)" >&2
	[ "$todo" -gt 0 ] || return 0
	prog=$wd/progress.$label
	: >"$prog"
	t0=$(date +%s)
	(
		while sleep 5; do
			d=$(wc -l <"$prog")
			el=$(($(date +%s) - t0))
			[ "$el" -gt 0 ] || el=1
			if [ "$d" -gt 0 ]; then
				eta=$(((todo - d) * el / d))
			else
				eta=-
			fi
			rate=$(awk -v d="$d" -v e="$el" 'BEGIN { printf "%.2f", d / e }')
			printf 'run-facts: %s: %d/%d files, %s files/s, %ds elapsed, ETA %ss\n' \
				"$label" "$d" "$todo" "$rate" "$el" "$eta" >&2
		done
	) &
	monpid=$!
	tr '\n' '\0' <"$wd/pending" |
		xargs -0 -n "$chunk" -P "$jobs" sh "$0" --worker "$tree" "$cdir" \
			"$tmo" "$prog"
	rc=$?
	# a worker exits non-zero only when it could not file its results
	# (xargs: 123); spatch failing on a file is an errors.tsv row
	[ "$rc" -eq 0 ] ||
		die 70 "$label: a spatch worker failed (xargs exit $rc)"
	kill "$monpid" 2>/dev/null
	wait "$monpid" 2>/dev/null
	monpid=
	el=$(($(date +%s) - t0))
	echo "run-facts: $label: $(wc -l <"$prog")/$todo files in ${el}s" >&2
}

# ---- phase 1: prefiltered .c files of the scope ----------------------------

if [ -n "$list" ]; then
	grep -v '^$' "$list" >"$wd/files"
else
	# literal pathspecs, one per SCOPE entry: a SCOPE is a path, never
	# a pattern; the .c files under it are picked after
	[ $# -gt 0 ] || set -- .
	for s in "$@"; do
		shift
		s=${s%/}
		case $s in
		. | '') set -- "$@" . ;;
		*) set -- "$@" ":(literal)$s" ;;
		esac
	done
	# shellcheck disable=SC2086
	git -C "$tree" grep -l -E \
		-e '__init|__setup|early_param|module_param|core_param' \
		-e 'ctl_table|__ro_after_init|__read_mostly|__meminit|__ref' \
		-- "$@" $nk >"$wd/grep"
	rc=$?
	[ "$rc" -le 1 ] || die 70 "git grep failed in $tree (exit $rc)"
	grep '\.c$' "$wd/grep" | sort >"$wd/files"
	for s in "$@"; do
		shift
		s=${s#:(literal)}
		set -- "$@" "$s"
	done
	# a .c or .h file named in SCOPE is analysed even when the prefilter
	# finds no init marker in it: the user asked for it
	for s in "$@"; do
		case $s in
		*.c | *.h) [ -f "$tree/$s" ] && printf "%s\n" "$s" ;;
		esac
	done >>"$wd/files"
	sort -u -o "$wd/files" "$wd/files" || die 70 "cannot sort the file list"
fi
[ -s "$wd/files" ] || die 65 "no files to analyse in scope '$*'"
# Variables are defined in .c files: the facts of headers alone (extern
# declarations, inline functions) can give no candidate, so say so.
if ! grep -qv '\.h$' "$wd/files"; then
	echo "run-facts: warning: only headers to analyse in scope '$*': a header holds declarations, not the definitions candidates come from; name the .c files that define the variables" >&2
fi

# ---- whole-tree tables: token scans, in the background ---------------------
# Four tables come from a token scan of the whole tree (not only SCOPE),
# each made by one C program:
# - layouts.tsv (cocci/layouts): the types that embed what a keeper writes
#   after init, for the type trap;
# - valtypes.tsv (cocci/layouts --values): what the types hold, function
#   and object pointers, for candidates' value column;
# - protos.tsv (cocci/protos): the arguments every declaration takes as a
#   pointer to const, which are reads;
# - callers.tsv (cocci/callers): the functions whose every mention in the
#   tree is a direct call from init-only code. Assembly and the other
#   non-C files are callers too, so its file list is wider.
# Each takes 20-40 s of one core on the whole tree. They run in the
# background while spatch runs, so they no longer add about 90 s to the
# wall time. Each table is cached by the tree's commit, its uncommitted
# changes, its untracked files of the kinds it reads, the program and
# the paths it leaves out (lib/notkernel.tsv), so a rerun costs one git
# diff.
table_pids=
table_start() {	# NAME PROGRAM WHAT PATHSPEC...
	tname=$1 tprog=$2 twhat=$3
	shift 3
	tkey=$({ git -C "$tree" rev-parse HEAD && git -C "$tree" diff HEAD &&
		git -C "$tree" ls-files --others --exclude-standard -- "$@" &&
		cksum <"$tprog" && echo "$nk_scans"; } 2>/dev/null |
		cksum | cut -d ' ' -f 1)
	echo "$cache/$tname-$tkey.tsv" >"$wd/$tname.cache"
	[ -f "$cache/$tname-$tkey.tsv" ] && return 0
	echo "run-facts: $tname: $twhat, in the background" >&2
	# shellcheck disable=SC2086
	git -C "$tree" ls-files --cached --others --exclude-standard -- "$@" \
		$nk_scans \
		>"$wd/$tname.list" || die 70 "git ls-files failed in $tree"
	topt=
	[ "$tname" = valtypes ] && topt=--values
	"$tprog" $topt "$tree" "$wd/$tname.list" \
		>"$cache/$tname-$tkey.tsv.tmp.$$" 2>"$wd/$tname.err" &
	echo $! >"$wd/$tname.pid"
	table_pids="$table_pids $!"
}
# table_finish NAME: wait for its scan, check it, copy it to FACTS_DIR
table_finish() {
	tcache=$(cat "$wd/$1.cache")
	if [ ! -f "$tcache" ]; then
		wait "$(cat "$wd/$1.pid")"
		trc=$?
		# a file deleted from the work tree (exit 1, "No such
		# file") holds nothing; any other unread file may hold the
		# type, prototype or call that matters, so that is a failure
		if [ "$trc" -ne 0 ] && { [ "$trc" -ne 1 ] ||
			grep -qv ': No such file or directory$' "$wd/$1.err"; }; then
			cat "$wd/$1.err" >&2
			rm -f "$tcache.tmp.$$"
			die 70 "cocci/$1 failed (exit $trc)"
		fi
		mv "$tcache.tmp.$$" "$tcache" || die 70 "cannot write $tcache"
	fi
	cp "$tcache" "$facts/.$1.tmp" && mv "$facts/.$1.tmp" "$facts/$1.tsv" ||
		die 70 "cannot write $facts/$1.tsv"
}
table_start layouts "$layouts" "the types of the tree's .c and .h files" \
	'*.c' '*.h'
table_start valtypes "$layouts" "what the tree's types hold (function and object pointers)" \
	'*.c' '*.h'
table_start protos "$protos" "the const pointer arguments of the tree's functions" \
	'*.c' '*.h'
table_start callers "$callers" "the call sites of the whole tree" \
	'*.c' '*.h' '*.S' '*.s' '*.rs' '*.tbl' '*.lds' '*.ld'

run_files "$wd/files" phase1

# merge: concatenate the cache entries of the files in LISTFILE
collect() {
	(cd "$tree" && git hash-object --stdin-paths <"$1") >"$wd/h"
	paste "$1" "$wd/h" | while IFS='	' read -r f h; do
		if [ -f "$cdir/$f.$h" ]; then
			printf '%s\n' "$cdir/$f.$h"
		else
			printf 'errors\t%s\tno result (interrupted?)\n' "$f" >>"$wd/missing"
		fi
	done | tr '\n' '\0' | xargs -0 -r cat
	[ -f "$wd/missing" ] && cat "$wd/missing" && rm -f "$wd/missing"
}

# ---- phase 2: files that mention the globals -------------------------------

if [ "$extend" -eq 1 ] && [ -z "$list" ]; then
	collect "$wd/files" >"$wd/rows1"
	# Only globals defined in SCOPE can be its candidates, so only their
	# names are looked for: the names of written externs (jiffies,
	# current, list, ...) would pull in most of the tree for nothing.
	# An array is marked: passing it bare may write it (mentions.c).
	awk -F '\t' '$1 == "defs" && $5 == "global" &&
		$4 ~ /^[A-Za-z_][A-Za-z0-9_][A-Za-z0-9_]+$/ {
		print $4 "\t" ($7 == 1 ? "array" : "") }' "$wd/rows1" |
		sort -u >"$wd/names"
	if [ -s "$wd/names" ]; then
		# only files that may write one (cocci/mentions.c): a
		# file that merely reads a global has no row to give
		# shellcheck disable=SC2086
		git -C "$tree" ls-files -- '*.c' '*.h' $nk >"$wd/all" ||
			die 70 "git ls-files failed in $tree"
		(cd "$tree" && "$mentions" "$wd/names" <"$wd/all") >"$wd/m"
		case $? in
		0) ;;
		1) echo "run-facts: warning: some files of $tree could not be read" >&2 ;;
		*) die 70 "cocci/mentions failed on $tree" ;;
		esac
		sort "$wd/m" >"$wd/f2all"
		comm -23 "$wd/f2all" "$wd/files" >"$wd/files2"
		echo "run-facts: phase2: $(wc -l <"$wd/names") global names" >&2
		run_files "$wd/files2" phase2
		sort -u "$wd/files" "$wd/files2" >"$wd/f12"
		mv "$wd/f12" "$wd/files"
	fi
fi

# ---- merge, atomically -------------------------------------------------------

collect "$wd/files" >"$wd/rows"

# ---- assembly: the .S files, which spatch does not read ---------------------
# Every mention of a global seen defined becomes a writes row with func -:
# form asm in an instruction's destination operand, addr otherwise.
awk -F '\t' '$1 == "defs" && $5 == "global" &&
	$4 ~ /^[A-Za-z_][A-Za-z0-9_][A-Za-z0-9_]+$/ { print $4 }' "$wd/rows" |
	sort -u >"$wd/gnames"
if [ -s "$wd/gnames" ]; then
	# shellcheck disable=SC2086
	git -C "$tree" ls-files -- '*.S' $nk >"$wd/asm" ||
		die 70 "git ls-files failed in $tree"
	(cd "$tree" && "$mentions" --asm "$wd/gnames" <"$wd/asm") >"$wd/asmrows"
	[ $? -le 1 ] || die 70 "cocci/mentions --asm failed on $tree"
	sed 's/^/writes\t/' "$wd/asmrows" >>"$wd/rows"
	echo "run-facts: assembly: $(wc -l <"$wd/asm") .S files, $(wc -l <"$wd/asmrows") mentions of globals" >&2
fi
# ---- unparsed regions: what spatch skipped may write what it names ----------
# Every mention, in a region of errors.tsv (FIRST-LAST@WHERE, #define
# bodies included), of a name some definition row has becomes a writes
# row with func - and form unparsed: the aggregator never makes such a
# variable high (comments, strings and s.x, p->x are not mentions).
awk -F '\t' '$1 == "defs" { print $4 }' "$wd/rows" | sort -u >"$wd/dnames"
awk -F '\t' -v tree="$tree" '
	FNR == NR { def[$1] = 1; next }
	$1 != "errors" || $3 !~ /^parse-error: / { next }
	{
		f = $2
		r = $3
		sub(/^[^:]*:[^:]*: /, "", r)
		n = split(r, regs, " ")
		delete want
		last = 0
		for (i = 1; i <= n; i++) {
			if (!match(regs[i], /^-?[0-9]+-[0-9]+@/)) continue
			a = substr(regs[i], 1, RLENGTH - 1)
			b = a
			sub(/^-?[0-9]+-/, "", b)
			sub(/-[0-9]+$/, "", a)
			if (a + 0 < 1) a = 1
			for (l = a + 0; l <= b + 0; l++) want[l] = 1
			if (b + 0 > last) last = b + 0
		}
		if (!last) next
		incom = 0
		l = 0
		while (l < last && (getline s < (tree "/" f)) > 0) {
			l++
			# comments (also across lines), strings and characters out
			t = ""
			while (s != "") {
				if (incom) {
					if (!match(s, /\*\//)) { s = ""; break }
					s = substr(s, RSTART + 2)
					incom = 0
				} else if (match(s, /\/\*|\/\/|"([^"\\]|\\.)*"|\047([^\047\\]|\\.)*\047/)) {
					t = t substr(s, 1, RSTART - 1) " "
					m = substr(s, RSTART, 2)
					s = substr(s, RSTART + RLENGTH)
					if (m == "//") s = ""
					else if (m == "/*") { s = substr(m, 3) s; incom = 1 }
				} else {
					t = t s
					s = ""
				}
			}
			if (!(l in want)) continue
			delete seen
			while (match(t, /[A-Za-z_][A-Za-z0-9_]*/)) {
				w = substr(t, RSTART, RLENGTH)
				pre = substr(t, 1, RSTART - 1)
				t = substr(t, RSTART + RLENGTH)
				if (pre ~ /(\.|->)[ \t]*$/ || !(w in def) || (w in seen))
					continue
				seen[w] = 1
				print "writes\t" f "\t" l "\t" w "\t-\tunparsed"
			}
		}
		close(tree "/" f)
	}' "$wd/dnames" "$wd/rows" >"$wd/unparsed" ||
	die 70 "cannot read the unparsed regions of the files of $tree"
cat "$wd/unparsed" >>"$wd/rows"
for t in $tables; do
	hdr "$t" >"$facts/.$t.tsv.tmp" || die 70 "cannot write $facts/.$t.tsv.tmp"
done
# rows name their table in the first field; only the seven exist
awk -F '\t' -v dir="$facts" -v tables="$tables" '
	BEGIN { n = split(tables, l, " "); for (i = 1; i <= n; i++) ok[l[i]] = 1 }
	!($1 in ok) { printf "run-facts: error: unexpected row in the spatch output: %s\n", \
		substr($0, 1, 200) > "/dev/stderr"; exit 1 }
	{ t = $1; sub(/^[^\t]*\t/, ""); print >> (dir "/." t ".tsv.tmp") }' \
	"$wd/rows" || die 70 "cannot split the rows into $facts/*.tsv"
for t in $tables; do
	mv "$facts/.$t.tsv.tmp" "$facts/$t.tsv" || die 70 "cannot write $facts/$t.tsv"
done
cp "$wd/files" "$facts/.files.tmp" && mv "$facts/.files.tmp" "$facts/files.txt" ||
	die 70 "cannot write $facts/files.txt"
# features.tsv: what the tree's kernel does, for rules that depend on it
# (cocci/FACTS.md): 6.12 seals ro_after_init static keys at init
# (kernel/jump_label.c jump_label_init_ro), 6.1 does not
sealed=no
grep -qw jump_label_init_ro "$tree/kernel/jump_label.c" 2>/dev/null && sealed=yes
printf 'feature\tvalue\nsealed_static_keys\t%s\n' "$sealed" >"$facts/.features.tmp" &&
	mv "$facts/.features.tmp" "$facts/features.tsv" ||
	die 70 "cannot write $facts/features.tsv"
# decls.tsv: extern declarations that place a variable in a section
# (cocci/FACTS.md): "extern u32 msrpm_offsets[] __read_mostly;" in a header
# keeps __read_mostly for every file that includes it, and the compiler
# drops a __ro_after_init added to the definition (a warning), so the
# finder must not propose it alone.  A scan of the whole tree's .c and .h
# files, like the token scans.
secre='__read_mostly|__cacheline_aligned(_in_smp)?|__page_aligned_(data|bss)|__section[[:space:]]*\(|__refdata|__nosavedata'
# files with a line that names extern and a section (fixed strings: fast)
# shellcheck disable=SC2086
git -C "$tree" grep -l -F -e extern --and \( -e __read_mostly \
	-e __cacheline_aligned -e __page_aligned_ -e __section -e __refdata \
	-e __nosavedata \) -- '*.c' '*.h' $nk_scans >"$wd/decls.list"
rc=$?
[ "$rc" -le 1 ] || die 70 "git grep failed in $tree (exit $rc)"
{
	printf 'file\tline\tname\tattr\n'
	(cd "$tree" && tr '\n' '\0' <"$wd/decls.list" | xargs -0 -r awk -v secre="$secre" '
	FNR == 1 { incomment = 0; stmt = "" }
	{
		s = $0
		# comments out (a block comment may span lines)
		out = ""
		while (s != "") {
			if (incomment) {
				i = index(s, "*/")
				if (!i) { s = ""; break }
				s = substr(s, i + 2); incomment = 0
				continue
			}
			i = index(s, "/*"); k = index(s, "//")
			if (k && (!i || k < i)) { out = out substr(s, 1, k - 1); s = ""; break }
			if (!i) { out = out s; s = ""; break }
			out = out substr(s, 1, i - 1) " "; s = substr(s, i + 2); incomment = 1
		}
		if (stmt == "" && out !~ /^[ \t]*extern[ \t]/)
			next
		if (stmt == "") { start = FNR; nl = 0 }
		stmt = stmt " " out
		if (index(out, ";") == 0 && ++nl < 8)
			next
		d = stmt; stmt = ""
		sub(/;.*/, "", d)
		if (match(d, "(^|[^A-Za-z0-9_])(" secre ")") == 0)
			next
		a = substr(d, RSTART, RLENGTH); sub(/^[^_]/, "", a)
		sub(/[[:space:]]*\($/, "", a)
		if (a == "__section") {
			if (!match(d, /__section[ \t]*\([^)]*\)/)) next
			a = substr(d, RSTART, RLENGTH); gsub(/[ \t]/, "", a)
			if (a ~ /ro_after_init/) next
		}
		gsub(/__section[ \t]*\([^)]*\)|__aligned[ \t]*\([^)]*\)|__attribute__[ \t]*\(\([^)]*\)\)/, " ", d)
		if (d ~ /[(){}=]/)
			next
		gsub(/\[[^]]*\]/, " ", d)
		sub(/^[ \t]*extern[ \t]+/, "", d)
		n = split(d, part, ",")
		for (i = 1; i <= n; i++) {
			p = part[i]
			gsub(/__[A-Za-z0-9_]+/, " ", p)
			gsub(/\*/, " ", p)
			m = split(p, w, /[ \t]+/)
			name = ""
			for (k = m; k >= 1; k--)
				if (w[k] ~ /^[A-Za-z_][A-Za-z0-9_]*$/) { name = w[k]; break }
			if (name != "" && (i > 1 || k > 1))
				printf "%s\t%d\t%s\t%s\n", FILENAME, start, name, a
		}
	}') || exit 1
} >"$facts/.decls.tmp" && mv "$facts/.decls.tmp" "$facts/decls.tsv" ||
	die 70 "cannot write $facts/decls.tsv"
table_finish layouts
table_finish valtypes
table_finish protos
table_finish callers
table_pids=

el=$(($(date +%s) - start))
summary=""
for t in $tables; do
	summary="$summary $t=$(($(wc -l <"$facts/$t.tsv") - 1))"
done
echo "run-facts: $(wc -l <"$facts/files.txt") files in ${el}s:$summary" >&2
