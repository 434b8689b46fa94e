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
The same rule runs in the kernel tree with
  make coccicheck COCCI=.../ro_after_init_writes.cocci MODE=report M=DIR
EOF
}
die() { echo "run-checker: error: $*" >&2; exit 2; }

jobs=$(nproc 2>/dev/null || echo 2)
tmo=60
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-j | --jobs) [ $# -ge 2 ] || die "$1 needs a value"; jobs=$2; shift 2 ;;
	--timeout) [ $# -ge 2 ] || die "$1 needs a value"; tmo=$2; shift 2 ;;
	-*) die "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || { usage >&2; exit 2; }
tree=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
[ -d "$tree" ] || die "TREE '$tree' is not a directory"
git -C "$tree" rev-parse --git-dir >/dev/null 2>&1 || die "TREE '$tree' is not a git work tree"
command -v spatch >/dev/null || die "spatch not found (apt-get install coccinelle)"
mkdir -p "$out" || die "cannot create $out"
out=$(cd "$out" && pwd)
[ $# -gt 0 ] || set -- .
git -C "$tree" grep -l -w -e __ro_after_init -e __lsm_ro_after_init -- "$@" \
	':!tools' ':!scripts' ':!Documentation' ':!include/linux/cache.h' |
	grep '\.[ch]$' >"$out/.files.tmp"
[ -s "$out/.files.tmp" ] || die "no file defines __ro_after_init variables in '$*'"
echo "run-checker: $(wc -l <"$out/.files.tmp") files, -j $jobs" >&2
start=$(date +%s)
(cd "$tree" && tr '\n' '\0' <"$out/.files.tmp" |
	xargs -0 -n 1 -P "$jobs" spatch --sp-file "$here/ro_after_init_writes.cocci" \
		--macro-file "$here/macros.h" -D report --no-includes \
		--include-headers --very-quiet --timeout "$tmo") \
	>"$out/.report.tmp" 2>"$out/stderr.txt"
LC_ALL=C sort -t: -k1,1 -k2,2n "$out/.report.tmp" >"$out/.report.sorted" &&
	mv "$out/.report.sorted" "$out/report.txt" && rm -f "$out/.report.tmp"
mv "$out/.files.tmp" "$out/files.txt"
echo "run-checker: $(wc -l <"$out/report.txt") reports in $(($(date +%s) - start))s: $out/report.txt" >&2
