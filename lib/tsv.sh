# SPDX-License-Identifier: GPL-2.0
# tsv.sh - read the stage files of FORMATS.md by column name from sh.
# Source it: . "$root/lib/tsv.sh".  The exit codes are README.md's.

# tsv_colnum FILE NAME: the 1-based index of column NAME in FILE's header,
# for awk's $N.  Exits 65 with "FILE:1: no column NAME" when it is missing.
tsv_colnum() {
	_n=$(head -n 1 -- "$1" | tr '\t' '\n' | grep -nx -- "$2" | cut -d: -f1 | head -n 1)
	if [ -z "$_n" ]; then
		echo "$1:1: no column '$2' in the header" >&2
		exit 65
	fi
	echo "$_n"
}

# tsv_awk FILE 'PROGRAM' [AWK ARGS...]: awk PROGRAM over FILE with one
# variable c_NAME per column holding its index, so a program says
# $c_class, never $5.  Line 1 is the header: rules say NR > 1.  Column names with characters other
# than [A-Za-z0-9_] get '_' in their place.
tsv_awk() {
	_f=$1
	_p=$2
	shift 2
	_vars=$(head -n 1 -- "$_f" | tr '\t' '\n' |
		awk '{ n = $0; gsub(/[^A-Za-z0-9_]/, "_", n); printf " -v c_%s=%d", n, NR }')
	# $_vars holds only -v c_NAME=N words built above, never user text.
	# shellcheck disable=SC2086
	awk -F '\t' $_vars "$@" -- "$_p" "$_f"
}
