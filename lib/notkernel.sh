# SPDX-License-Identifier: GPL-2.0
# notkernel.sh - the paths of lib/notkernel.tsv, which hold no kernel
# code, as git pathspecs.  Source it: . "$root/lib/notkernel.sh".
#
# notkernel_excludes FILE SCANS: one ":(exclude)DIR" word per row of FILE
# (lib/notkernel.tsv) whose scans column is SCANS or stricter: "none"
# gives the rows no stage reads (tools, scripts, Documentation); "facts"
# adds those only spatch's facts read (samples/), for the whole-tree
# scans.  Exits 65 naming FILE:LINE for a row that is not a plain path.
notkernel_excludes() {
	awk -F '\t' -v want="$2" '
	function bad(msg) {
		printf "%s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"
		err = 1
		exit 65
	}
	FNR == 1 {
		for (i = 1; i <= NF; i++)
			c[$i] = i
		if (!("path" in c) || !("scans" in c))
			bad("no path or scans column in the header")
		next
	}
	{
		p = $c["path"]
		if (p !~ /^[A-Za-z0-9_][A-Za-z0-9_.\/-]*\/$/)
			bad("path \"" p "\" is not a directory ending in /")
		s = $c["scans"]
		if (s != "none" && s != "facts")
			bad("scans \"" s "\" is not none or facts")
		if (s == "none" || want == "facts")
			printf "%s:(exclude)%s", sep, substr(p, 1, length(p) - 1)
		if (s == "none" || want == "facts")
			sep = " "
	}
	END { if (!err) printf "\n" }' "$1"
}
