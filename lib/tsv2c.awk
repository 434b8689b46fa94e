# SPDX-License-Identifier: GPL-2.0
# tsv2c.awk - a data file of lib/ (a TSV with a header line) as C
# initializers, so programs read the one copy that sh reads too:
#
#   awk -f lib/tsv2c.awk [-v check='COL=A|B ...'] FILE.tsv >FILE.inc
#
# prints one "{ .line = N, .COL = "value", ... }," per row, a member per
# column named by the header (a renamed column fails to compile, a moved
# one changes nothing), "-" as NULL.  check= names columns whose values
# must be one of the alternatives.  A bad row is named FILE:LINE and the
# exit status is 65 (README.md, "Exit codes").
BEGIN {
	FS = "\t"
	n = split(check, cs, " ")
	for (i = 1; i <= n; i++) {
		eq = index(cs[i], "=")
		allowed[substr(cs[i], 1, eq - 1)] = "|" substr(cs[i], eq + 1) "|"
	}
}
function fail(msg) {
	printf "%s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"
	bad = 1
	exit 65
}
FNR == 1 {
	for (i = 1; i <= NF; i++) {
		if ($i !~ /^[a-z_][a-z0-9_]*$/)
			fail("column '" $i "' is not a C identifier")
		col[i] = $i
	}
	ncol = NF
	for (c in allowed) {
		found = 0
		for (i = 1; i <= NF; i++)
			if (col[i] == c)
				found = 1
		if (!found)
			fail("no column '" c "' in the header")
	}
	next
}
{
	if (NF != ncol)
		fail(NF " fields, the header has " ncol)
	printf "\t{ .line = %d,", FNR
	for (i = 1; i <= NF; i++) {
		v = $i
		if (v == "")
			fail("column '" col[i] "' is empty (write - for none)")
		if ((col[i] in allowed) && index(allowed[col[i]], "|" v "|") == 0)
			fail("column '" col[i] "' is '" v "', not one of " \
			     substr(allowed[col[i]], 2, length(allowed[col[i]]) - 2))
		if (v == "-") {
			printf " .%s = NULL,", col[i]
			continue
		}
		gsub(/\\/, "\\\\", v)
		gsub(/"/, "\\\"", v)
		printf " .%s = \"%s\",", col[i], v
	}
	printf " },\n"
}
END {
	if (!bad && FNR < 1)
		fail("empty file")
}
