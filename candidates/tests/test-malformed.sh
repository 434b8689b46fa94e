#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Malformed fact files: candidates exits 65 with a FILE:LINE message that
# names the problem, and writes no output file; usage errors exit 64.
set -u
cd "$(dirname "$0")/../.."
BIN=candidates/candidates
T=$(mktemp -d "${TMPDIR:-/tmp}/cand-bad.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
. lib/tap.sh

# a valid, minimal fact set
good() {
	rm -rf "$T/f"; mkdir -p "$T/f"
	printf 'file\tline\tname\tstorage\ttype\tarray\tattrs\tinit\na.c\t1\tx\tstatic\tint\t0\t-\t0\n' > "$T/f/defs.tsv"
	printf 'file\tline\tvar\tfunc\tform\na.c\t5\tx\tfoo_init\tassign\n' > "$T/f/writes.tsv"
	printf 'file\tline\tname\tstorage\tsection\na.c\t4\tfoo_init\tstatic\tinit\n' > "$T/f/funcs.tsv"
	printf 'file\tline\tname\tfunc\n' > "$T/f/funcrefs.tsv"
	printf 'file\tline\tcaller\tcallee\n' > "$T/f/calls.tsv"
	printf 'file\tline\tvar\tkind\tperm\thandler\n' > "$T/f/params.tsv"
	printf 'file\treason\n' > "$T/f/errors.tsv"
}

# bad LABEL EXPECTED-MESSAGE-REGEX: run on $T/f, expect exit 65
bad() {
	rm -f "$T/out.tsv"
	"$BIN" --facts "$T/f" --out "$T/out.tsv" 2> "$T/err"
	rc=$?
	if [ $rc -eq 65 ] && grep -qE "$2" "$T/err" && [ ! -e "$T/out.tsv" ]
	then ok "$1"
	else not_ok "$1" "rc=$rc: $(cat "$T/err")"
	fi
}

good
"$BIN" --facts "$T/f" --out "$T/out.tsv" 2>/dev/null &&
	grep -q '	x	static	ro_after_init	high	' "$T/out.tsv" &&
	ok "the valid base case works" || not_ok "the valid base case works" "failed"

good; printf 'a.c\t7\tx\tfoo_init\n' >> "$T/f/writes.tsv"
bad "missing column" 'writes\.tsv:3: 4 fields, the header has 5'
good; printf 'a.c\t7\tx\tfoo_init\tassign\textra\n' >> "$T/f/writes.tsv"
bad "extra column" 'writes\.tsv:3: 6 fields, the header has 5'
good; printf 'file\tline\tvar\tform\n' > "$T/f/writes.tsv"
bad "wrong header" 'writes\.tsv:1: bad header'
good; : > "$T/f/calls.tsv"
bad "empty file" 'calls\.tsv:1: empty file'
good; rm "$T/f/params.tsv"
bad "missing file" 'params\.tsv: cannot open'
good; printf 'a.c\tten\tfoo\tbar\n' >> "$T/f/calls.tsv"
bad "bad line number" "calls\\.tsv:2: column 'line': 'ten' is not a number"
good; printf 'a.c\t7\tx\tfoo_init\tpoke\n' >> "$T/f/writes.tsv"
bad "unknown write form" "writes\.tsv:3: column 'form': unknown value 'poke'"
good; printf 'b.c\t2\ty\textern\tint\t0\t-\t0\n' >> "$T/f/defs.tsv"
bad "bad storage" "defs\.tsv:3: column 'storage': unknown value 'extern' \\(one of: static, global\\)"
good; printf 'b.c\t2\ty\tstatic\tint\t0\tro_after_inti\t0\n' >> "$T/f/defs.tsv"
bad "unknown attribute" "defs\.tsv:3: column 'attrs': unknown attribute 'ro_after_inti'"
good; printf 'b.c\t2\ty\tstatic\tint\t2\t-\t0\n' >> "$T/f/defs.tsv"
bad "bad array flag" "defs\.tsv:3: column 'array': unknown value '2'"
good; printf 'feature\tvalue\nsealed_static_keys\tmaybe\n' > "$T/f/features.tsv"
bad "unknown value of a known feature" "features\.tsv:2: column 'value': unknown value 'maybe'"
good; printf 'feature\tval\n' > "$T/f/features.tsv"
bad "features.tsv with a wrong header" 'features\.tsv:1: bad header'
good; printf 'feature\tvalue\nsome_later_feature\t42\n' > "$T/f/features.tsv"
"$BIN" --facts "$T/f" --out "$T/out.tsv" 2>/dev/null &&
	ok "a feature it does not know is left alone" ||
	not_ok "a feature it does not know is left alone" "rejected"
good; printf 'type\tfield\ttrap\tfile\tline\nstruct s\tl\tstruct list_head\ta.h\tx\n' > "$T/f/layouts.tsv"
bad "layouts.tsv with a bad line" "layouts\\.tsv:2: column 'line': 'x' is not a number"
good; printf 'type\tfield\ttrap\tfile\n' > "$T/f/layouts.tsv"
bad "layouts.tsv with a wrong header" 'layouts\.tsv:1: bad header'
CH='name\tdefs\tcalls\tcallers\tcaller\tfile\tline\tvia\n'
good; printf "${CH}g\t1\tx\t1\tboot\tinit/main.c\t9\t-\n" > "$T/f/callers.tsv"
bad "callers.tsv with a bad count" "callers\\.tsv:2: column 'calls'"
good; printf "${CH}g\t1\t1\t1\tboot\tinit/main.c\t9\t-\ng\t1\t2\t1\tboot\tinit/main.c\t9\t-\n" > "$T/f/callers.tsv"
bad "callers.tsv with a name twice" "callers\\.tsv:3: 'g' has a row already"
good; printf "${CH}g-h\t1\t1\t1\tboot\tinit/main.c\t9\t-\n" > "$T/f/callers.tsv"
bad "callers.tsv with a name that is no identifier" "callers\\.tsv:2: column 'name': 'g-h' is not a C identifier"
good; printf 'name\tcalls\tcaller\tfile\tline\n' > "$T/f/callers.tsv"
bad "callers.tsv with a wrong header" 'callers\.tsv:1: bad header'
good; printf "${CH}foo_init\t1\t1\t1\tboot\tinit/main.c\t9\t-\n" > "$T/f/callers.tsv"
"$BIN" --facts "$T/f" --out "$T/out.tsv" 2>/dev/null &&
	grep -q '	x	static	ro_after_init	high	' "$T/out.tsv" &&
	ok "a callers.tsv row for an __init function changes nothing" ||
	not_ok "a callers.tsv row for an __init function changes nothing" "$(cat "$T/out.tsv")"
good; printf 'name\targ\tfile\tline\nf\t-1\ta.h\t3\n' > "$T/f/protos.tsv"
bad "protos.tsv with a negative argument" "protos\\.tsv:2: column 'arg'"
good; printf 'name\targ\tfile\n' > "$T/f/protos.tsv"
bad "protos.tsv with a wrong header" 'protos\.tsv:1: bad header'
good; printf 'file\tline\tname\tattr\na.h\tx\tv\t__read_mostly\n' > "$T/f/decls.tsv"
bad "decls.tsv with a bad line" "decls\\.tsv:2: column 'line'"
good; printf 'file\tline\tname\n' > "$T/f/decls.tsv"
bad "decls.tsv with a wrong header" 'decls\.tsv:1: bad header'
good; printf '\n' >> "$T/f/funcs.tsv"
bad "empty line" 'funcs\.tsv:3: empty line'
good; printf 'a.c\t1\t\tfoo\n' >> "$T/f/funcrefs.tsv"
bad "empty field" "funcrefs\.tsv:2: column 'name' is empty"
good; printf 'a.c\t1\tx\tparam\t0\t-\n' >> "$T/f/params.tsv"
bad "unknown param kind" "params\.tsv:2: column 'kind': unknown value 'param'"
good; printf 'a.c\t1\t-\tsetup\t-\t-\n' >> "$T/f/params.tsv"
bad "setup without handler" "params\.tsv:2: column 'handler' is missing"
good; printf 'a.c\t8\tx\tfoo_init\tassign' >> "$T/f/writes.tsv"
bad "torn last row" 'writes\.tsv:3: torn row'
good; printf 'a.c\t8\tx\tfoo_init\tassign\r\n' >> "$T/f/writes.tsv"
bad "CR line ending" 'writes\.tsv:3: CR line ending'
good; printf 'a.c\t8\tx\tfoo\000_init\tassign\n' >> "$T/f/writes.tsv"
bad "NUL byte" 'writes\.tsv:3: NUL byte'
good; printf 'line\tfile\tname\tfunc\n' > "$T/f/funcrefs.tsv"
bad "columns in another order" 'funcrefs\.tsv:1: bad header, expected: file line name func'
good; printf 'a.c\t0\tfoo\tbar\n' >> "$T/f/calls.tsv"
bad "line 0" "calls\\.tsv:2: column 'line': '0' is not a number"
"$BIN" --bogus > /dev/null 2>&1; rc=$?
[ $rc -eq 64 ] && ok "bad option exits 64" ||
	not_ok "bad option exits 64" "exit $rc"
"$BIN" > /dev/null 2>&1; rc=$?
[ $rc -eq 64 ] && ok "missing --facts exits 64" ||
	not_ok "missing --facts exits 64" "exit $rc"
good; "$BIN" --facts "$T/f" --out "$T/nodir/out.tsv" 2> "$T/err"; rc=$?
[ $rc -eq 70 ] && grep -q 'nodir/out.tsv: cannot write' "$T/err" &&
	ok "unwritable output exits 70" ||
	not_ok "unwritable output exits 70" "exit $rc: $(cat "$T/err")"

# A repeated defs.tsv row is the same fact (FORMATS.md): one output row.
good; tail -n 1 "$T/f/defs.tsv" >> "$T/f/defs.tsv"
"$BIN" --facts "$T/f" --out "$T/out.tsv" 2> "$T/err"; rc=$?
xrows=$(grep -c "	x	" "$T/out.tsv" 2>/dev/null)
[ $rc -eq 0 ] && [ "$xrows" = 1 ] && ok "a repeated def row counts once" ||
	not_ok "a repeated def row counts once" "exit $rc, $xrows rows of x"

finish
