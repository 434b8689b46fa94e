#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The hand-labelled samples (labelled/VERSION/labels.tsv, README.md
# there).  Every sample: the header, five columns, a known label, a C
# identifier for the name, one row per (file, name), at least 40 rows
# that are not "already", every label present.  Then the sample of the
# tree's version ("make kernelversion", MAJOR.MINOR) against the real
# tree at tag core (pristine while setup has not applied the core series,
# which touches none of the sample's files): every file present and its
# line naming the variable, every file:line a reason cites within its
# file, "already" rows annotated in the source.  Then bench-precision.sh
# picks that sample, and its usage errors (64) and a malformed labels
# file (1), which it finds before any spatch run.  TREE= names the tree
# (default: the Makefile's).
set -u
cd "$(dirname "$0")/../.."
TREE=${TREE:-${WORK:-$HOME/.cache/ro-campaign/${KERNEL:-6.12}}/linux}
D=candidates/tests/labelled
T=$(mktemp -d "${TMPDIR:-/tmp}/labelled.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
. lib/tap.sh

# expect DESC REASON COMMAND...: ok if COMMAND succeeds, else not ok REASON
expect() {
	_d=$1 _r=$2
	shift 2
	if "$@"; then ok "$_d"; else not_ok "$_d" "${_r:-failed}"; fi
}

# ---- every sample: its form ---------------------------------------------------

hdr=$(printf 'file\tline\tname\tlabel\treason')
ls -d "$D"/[0-9]*.[0-9]* > "$T/samples" 2> /dev/null
why="$(ls "$D" | tr '\n' ' ')"
expect "samples for 6.1 and 6.12" "$why" \
	sh -c '[ -f "$1/6.1/labels.tsv" ] && [ -f "$1/6.12/labels.tsv" ]' - "$D"
while read -r dir; do
	L=$dir/labels.tsv
	v=${dir##*/}
	why="header: $(head -n 1 "$L")"
	expect "$v: the header is 'file line name label reason'" "$why" \
		test "$(head -n 1 "$L")" = "$hdr"

	awk -F '\t' 'NR > 1 && (NF != 5 || $1 !~ /^[A-Za-z0-9_.\/-]+\.[ch]$/ ||
		$2 !~ /^[1-9][0-9]*$/ || $3 !~ /^[A-Za-z_][A-Za-z0-9_]*$/ ||
		$4 !~ /^(ro_after_init|rejected|const|initdata|already)$/ ||
		$5 ~ /^ *$/) { print NR ": " $0 }' "$L" > "$T/bad"
	why="malformed rows: $(head -n 3 "$T/bad" | tr '\n' ' ')"
	expect "$v: every row has a file, a line, a name, a known label and a reason" \
		"$why" test ! -s "$T/bad"

	awk -F '\t' 'NR > 1 { print $1 "\t" $3 }' "$L" | sort | uniq -d > "$T/dup"
	why="repeated: $(tr '\n' ' ' < "$T/dup")"
	expect "$v: one row per (file, name)" "$why" test ! -s "$T/dup"

	rows=$(awk -F '\t' 'NR > 1 && $4 != "already"' "$L" | wc -l)
	expect "$v: about 40 or more variables not annotated already ($rows)" \
		"$rows rows" test "$rows" -ge 40
	for lab in ro_after_init rejected const initdata; do
		c=$(awk -F '\t' -v l="$lab" 'NR > 1 && $4 == l' "$L" | wc -l)
		expect "$v: some rows are labelled $lab ($c)" "no row labelled $lab" \
			test "$c" -gt 0
	done
	c=$(awk -F '\t' 'NR > 1 && $4 == "rejected" &&
		$5 !~ /[a-z0-9_]\.[ch]:[0-9]+/' "$L" | wc -l)
	expect "$v: every rejected row names its writer as file:line" \
		"$c rejected rows without a writer file:line" test "$c" -eq 0
done < "$T/samples"

# ---- the sample of the tree's version, against the tree --------------------------

if ! git -C "$TREE" rev-parse -q --verify 'pristine^{commit}' > /dev/null; then
	not_ok "the tree $TREE is prepared (tag pristine)" "no tag pristine (make setup)"
	finish
fi
version=$(make -s -C "$TREE" kernelversion 2> /dev/null | tail -n 1)
mm=$(echo "$version" | cut -d . -f 1,2)
L=$D/$mm/labels.tsv
if [ ! -f "$L" ]; then
	not_ok "a labelled sample for Linux $version" "no $L"
	finish
fi
ok "Linux $version: the sample is $L"
rev=core
git -C "$TREE" rev-parse -q --verify 'core^{commit}' > /dev/null || rev=pristine
awk -F '\t' 'NR > 1 { print $1 }' "$L" | sort -u > "$T/files"
if [ "$rev" = core ]; then
	# shellcheck disable=SC2046
	git -C "$TREE" diff --name-only pristine core -- $(cat "$T/files") > "$T/touched"
	why="changed by the core series: $(tr '\n' ' ' < "$T/touched")"
	expect "the core series touches none of the sample's files" "$why" \
		test ! -s "$T/touched"
fi

# every definition line names its variable; an "already" row's line
# carries the annotation (or a const, or an _RO static key)
: > "$T/def"
awk -F '\t' 'NR > 1 { print $1 "\t" $2 "\t" $3 "\t" $4 }' "$L" |
	while IFS='	' read -r f l v lab; do
		if ! git -C "$TREE" show "$rev:$f" > "$T/src" 2> /dev/null; then
			echo "$f: not in the tree at $rev" >> "$T/def"
		elif ! sed -n "${l}p" "$T/src" | grep -qw -- "$v"; then
			echo "$f:$l does not name $v" >> "$T/def"
		elif [ "$lab" = already ] && ! sed -n "${l}p" "$T/src" |
			grep -qE '__ro_after_init|(^|[^A-Za-z_])const[^A-Za-z_]|_RO\('; then
			echo "$f:$l ($v) is labelled already but not annotated" >> "$T/def"
		fi
	done
why=$(head -n 3 "$T/def" | tr '\n' ' ')
expect "every file:line exists at $rev and names its variable (already: annotated)" \
	"$why" test ! -s "$T/def"

# every file:line a reason cites is a line of that file at rev
: > "$T/cite"
awk -F '\t' 'NR > 1 { s = $5
	while (match(s, /[A-Za-z0-9_\/.-]+\.[ch]:[0-9]+/)) {
		print substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH) } }' "$L" |
	sort -u | while IFS=: read -r f l; do
		if ! git -C "$TREE" show "$rev:$f" > "$T/src" 2> /dev/null; then
			echo "$f: cited, not in the tree" >> "$T/cite"
		elif [ "$(wc -l < "$T/src")" -lt "$l" ]; then
			echo "$f:$l: cited, past the end" >> "$T/cite"
		fi
	done
why=$(head -n 3 "$T/cite" | tr '\n' ' ')
expect "every file:line a reason cites exists at $rev" "$why" test ! -s "$T/cite"

# bench-precision.sh: the version's sample, usage errors, a malformed file
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
# its default sample is the version's: a sample made malformed in a copy
# of the script's directory is the one it reads
mkdir -p "$T/c/candidates/tests/labelled/$mm" "$T/c/lib" "$T/c/cocci"
cp candidates/bench-precision.sh "$T/c/candidates/"
cp lib/args.sh lib/tsv.sh "$T/c/lib/"
cp "$T/bad.tsv" "$T/c/candidates/tests/labelled/$mm/labels.tsv"
sh "$T/c/candidates/bench-precision.sh" "$TREE" "$T/w" > /dev/null 2> "$T/err2"
rc=$?
why="exit $rc: $(head -c 200 "$T/err2")"
expect "bench-precision.sh reads labelled/$mm/labels.tsv for Linux $version" "$why" \
	sh -c '[ "$1" -eq 1 ] && grep -q "labelled/$3/labels.tsv:2" "$2"' - "$rc" "$T/err2" "$mm"
rm -r "$T/c/candidates/tests/labelled/$mm"
sh "$T/c/candidates/bench-precision.sh" "$TREE" "$T/w" > /dev/null 2> "$T/err3"
rc=$?
why="exit $rc: $(head -c 200 "$T/err3")"
expect "bench-precision.sh without a sample for the version exits 1, naming it" "$why" \
	sh -c '[ "$1" -eq 1 ] && grep -q "no labelled sample for Linux $3" "$2"' - "$rc" "$T/err3" "$version"
finish
