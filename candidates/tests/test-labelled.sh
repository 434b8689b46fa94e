#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The hand-labelled sample (labelled/labels.tsv, README.md there) against
# the real tree at tag core: the header, five columns, a known label, a
# C identifier for the name, one row per (file, name), every file present
# at core and its line naming the variable, and every file:line a reason
# cites within its file.  Then bench-precision.sh's usage errors (64) and
# a malformed labels file (1), which it finds before any spatch run.
# TREE= names the tree (default: the Makefile's).
set -u
cd "$(dirname "$0")/../.."
TREE=${TREE:-${WORK:-$HOME/.cache/ro-campaign}/linux}
L=candidates/tests/labelled/labels.tsv
T=$(mktemp -d "${TMPDIR:-/tmp}/labelled.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
. qemu-boot/tests/tap.sh

# expect DESC REASON COMMAND...: ok if COMMAND succeeds, else not ok REASON
expect() {
	_d=$1 _r=$2
	shift 2
	if "$@"; then ok "$_d"; else not_ok "$_d" "$_r"; fi
}

if git -C "$TREE" rev-parse -q --verify 'core^{commit}' > /dev/null; then
	ok "the tree $TREE has the tag core"
else
	not_ok "the tree $TREE has the tag core" "no tag core"
	finish
fi

hdr=$(printf 'file\tline\tname\tlabel\treason')
why="header: $(head -n 1 "$L")"
expect "the header is 'file line name label reason'" "$why" \
	test "$(head -n 1 "$L")" = "$hdr"

awk -F '\t' 'NR > 1 && (NF != 5 || $1 !~ /^[A-Za-z0-9_.\/-]+\.[ch]$/ ||
	$2 !~ /^[1-9][0-9]*$/ || $3 !~ /^[A-Za-z_][A-Za-z0-9_]*$/ ||
	$4 !~ /^(ro_after_init|rejected|const|initdata)$/ || $5 ~ /^ *$/) {
	print NR ": " $0 }' "$L" > "$T/bad"
why="malformed rows: $(head -n 3 "$T/bad" | tr '\n' ' ')"
expect "every row has a file, a line, a name, a known label and a reason" "$why" \
	test ! -s "$T/bad"

awk -F '\t' 'NR > 1 { print $1 "\t" $3 }' "$L" | sort | uniq -d > "$T/dup"
why="repeated: $(tr '\n' ' ' < "$T/dup")"
expect "one row per (file, name)" "$why" test ! -s "$T/dup"

rows=$(awk 'NR > 1' "$L" | wc -l)
why="$rows rows"
expect "about 40 or more variables ($rows)" "$why" test "$rows" -ge 40
for lab in ro_after_init rejected const initdata; do
	c=$(awk -F '\t' -v l="$lab" 'NR > 1 && $4 == l' "$L" | wc -l)
	why="no row labelled $lab"
	expect "some rows are labelled $lab ($c)" "$why" test "$c" -gt 0
done

# every definition line names its variable, at core
: > "$T/def"
awk -F '\t' 'NR > 1 { print $1 "\t" $2 "\t" $3 }' "$L" |
	while IFS='	' read -r f l v; do
		if ! git -C "$TREE" show "core:$f" > "$T/src" 2> /dev/null; then
			echo "$f: not in the tree at core" >> "$T/def"
		elif ! sed -n "${l}p" "$T/src" | grep -qw -- "$v"; then
			echo "$f:$l does not name $v" >> "$T/def"
		fi
	done
why=$(head -n 3 "$T/def" | tr '\n' ' ')
expect "every file:line exists at core and names its variable" "$why" test ! -s "$T/def"

# every file:line a reason cites is a line of that file at core
: > "$T/cite"
awk -F '\t' 'NR > 1 { s = $5
	while (match(s, /[A-Za-z0-9_\/.-]+\.[ch]:[0-9]+/)) {
		print substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH) } }' "$L" |
	sort -u | while IFS=: read -r f l; do
		if ! git -C "$TREE" show "core:$f" > "$T/src" 2> /dev/null; then
			echo "$f: cited, not in the tree" >> "$T/cite"
		elif [ "$(wc -l < "$T/src")" -lt "$l" ]; then
			echo "$f:$l: cited, past the end" >> "$T/cite"
		fi
	done
why=$(head -n 3 "$T/cite" | tr '\n' ' ')
expect "every file:line a reason cites exists at core" "$why" test ! -s "$T/cite"
c=$(awk -F '\t' 'NR > 1 && $4 == "rejected" && $5 !~ /[a-z0-9_]\.[ch]:[0-9]+/' "$L" | wc -l)
why="$c rejected rows without a writer file:line"
expect "every rejected row names its writer as file:line" "$why" test "$c" -eq 0

# bench-precision.sh: usage errors, a malformed labels file
sh candidates/bench-precision.sh > /dev/null 2>&1
why="exit $?"
expect "bench-precision.sh without arguments exits 64" "$why" test "$why" = "exit 64"
sh candidates/bench-precision.sh --bogus "$TREE" "$T" > /dev/null 2>&1
why="exit $?"
expect "bench-precision.sh with an unknown option exits 64" "$why" test "$why" = "exit 64"
sed '2s/\t[a-z_]*\t\([^\t]*\)$/\tmaybe\t\1/' "$L" > "$T/bad.tsv"
sh candidates/bench-precision.sh --labels "$T/bad.tsv" "$TREE" "$T/w" \
	> /dev/null 2> "$T/err"
rc=$?
why="exit $rc: $(head -c 200 "$T/err")"
expect "bench-precision.sh rejects an unknown label (1, naming the line)" "$why" \
	sh -c '[ "$1" -eq 1 ] && grep -q "bad.tsv:2" "$2"' - "$rc" "$T/err"
finish
