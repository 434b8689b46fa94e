#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# run-checker.sh - ro_after_init_writes.cocci over the files of a tree that
# define __ro_after_init variables (the rule is per file, so no other file
# can produce a report).
set -u

usage() {
	cat <<EOF
usage: $0 [-j N] [--timeout S] TREE OUT_DIR [SCOPE...]

Write OUT_DIR/report.txt (sorted "file:line:col-col: WARNING ..." lines,
as make coccicheck MODE=report prints them) and OUT_DIR/files.txt.
SCOPE is a list of directories or files relative to TREE (default: all).
The same rule runs in the kernel tree with
  make coccicheck COCCI=.../ro_after_init_writes.cocci MODE=report M=DIR

options:
  -j, --jobs N      parallel spatch processes, 1 to 1024 (default: cores)
  --timeout S       per-file spatch timeout in seconds (default: 60)
  -h, --help        show this help

A file spatch cannot parse completely, or that hits the per-file
timeout, is checked as far as spatch got (spatch exits 0, as under make
coccicheck; its messages are in OUT_DIR/stderr.txt).  spatch exiting
non-zero on a file (the rule does not parse, the file cannot be read,
spatch crashed) is a failure: the files are listed in OUT_DIR/failed.txt
and no report.txt is written.

Exit status: 0 done, 64 usage (bad option, -j 0, a SCOPE that does not
exist), 65 no file of SCOPE defines a __ro_after_init variable, 70 spatch
or the host failed, 130 interrupted.
EOF
}

here=$(cd "$(dirname "$0")" && pwd)
prog_name=run-checker
. "$here/../lib/args.sh"
. "$here/../lib/notkernel.sh"
# lib/notkernel.tsv as ":(exclude)DIR" pathspecs, split unquoted below
nk=$(notkernel_excludes "$here/../lib/notkernel.tsv" none) || exit 65
jobs=$(nproc 2>/dev/null || echo 2)
tmo=60
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-j | --jobs) [ $# -ge 2 ] || die 64 "$1 needs a value"; jobs=$2; shift 2 ;;
	--timeout) [ $# -ge 2 ] || die 64 "$1 needs a value"; tmo=$2; shift 2 ;;
	--) shift; break ;;
	-*) die 64 "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || { usage >&2; exit 64; }
posint -j "$jobs" 1024
posint --timeout "$tmo" 86400
tree=$1 out=$2
shift 2
cocci=$here/ro_after_init_writes.cocci
[ -d "$tree" ] || die 64 "TREE '$tree' is not a directory"
git -C "$tree" rev-parse --git-dir >/dev/null 2>&1 ||
	die 64 "TREE '$tree' is not a git work tree"
for s in "$@"; do
	case $s in
	-* | /* | '') die 64 "SCOPE '$s' is not a path relative to TREE" ;;
	esac
	[ -e "$tree/$s" ] || die 64 "SCOPE '$s' does not exist in $tree"
done
command -v spatch >/dev/null || die 70 "spatch not found (apt-get install coccinelle)"
spatch --parse-cocci "$cocci" -D report >/dev/null 2>&1 ||
	die 70 "spatch cannot parse $cocci (spatch --parse-cocci $cocci -D report)"
mkdir -p "$out" || die 70 "cannot create $out"
out=$(cd "$out" && pwd) || die 70 "cannot enter $out"
trap 'rm -f "$out/.files.tmp" "$out/.report.tmp" "$out/.report.sorted"' EXIT
trap 'exit 130' INT TERM
[ $# -gt 0 ] || set -- .
# literal pathspecs: a SCOPE is a path, never a pattern or magic
for s in "$@"; do
	shift
	set -- "$@" ":(literal)$s"
done
# shellcheck disable=SC2086
git -C "$tree" grep -l -w -e __ro_after_init -e __lsm_ro_after_init -- \
	"$@" $nk \
	':!include/linux/cache.h' >"$out/.files.all"
rc=$?
[ "$rc" -le 1 ] || die 70 "git grep failed in $tree (exit $rc)"
grep '\.[ch]$' "$out/.files.all" >"$out/.files.tmp"
rm -f "$out/.files.all"
[ -s "$out/.files.tmp" ] ||
	die 65 "no file defines __ro_after_init variables in '$*'"
echo "run-checker: $(wc -l <"$out/.files.tmp") files, -j $jobs" >&2
start=$(date +%s)
rm -f "$out/failed.txt" "$out/report.txt"
: >"$out/.failed"
# One spatch per file; a non-zero exit names the file in .failed (xargs
# then exits 123).  The paths go as arguments, never into the script.
(cd "$tree" && tr '\n' '\0' <"$out/.files.tmp" |
	xargs -0 -n 1 -P "$jobs" sh -c '
		spatch --sp-file "$1" --macro-file "$2" -D report \
			--no-includes --include-headers --very-quiet \
			--timeout "$3" "$5" && exit 0
		printf "%s\tspatch exit status %s\n" "$5" "$?" >>"$4"
		exit 1' sh "$cocci" "$here/macros.h" "$tmo" "$out/.failed") \
	>"$out/.report.tmp" 2>"$out/stderr.txt"
rc=$?
if [ -s "$out/.failed" ]; then
	sort "$out/.failed" >"$out/failed.txt"
	rm -f "$out/.failed"
	n=$(wc -l <"$out/failed.txt")
	die 70 "spatch failed on $n file(s), first $(head -n 1 "$out/failed.txt" |
		tr '\t' ' '); all in $out/failed.txt, messages in $out/stderr.txt"
fi
rm -f "$out/.failed"
[ "$rc" -eq 0 ] ||
	die 70 "xargs/spatch failed (exit $rc), see $out/stderr.txt"
LC_ALL=C sort -t: -k1,1 -k2,2n "$out/.report.tmp" >"$out/.report.sorted" ||
	die 70 "cannot sort $out/.report.tmp"
mv "$out/.report.sorted" "$out/report.txt" &&
	mv "$out/.files.tmp" "$out/files.txt" ||
	die 70 "cannot write $out/report.txt"
echo "run-checker: $(wc -l <"$out/report.txt") reports in $(($(date +%s) - start))s: $out/report.txt" >&2
