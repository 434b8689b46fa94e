#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# annotate.sh - unified diff adding __ro_after_init (or __initdata,
# __initconst) to listed variables.

set -u

usage() {
	cat <<EOF
usage: $0 TREE LIST

Print on stdout a unified diff (a/ b/ paths, for git apply in TREE) that
adds __ro_after_init to the file-scope variables in LIST, replacing
__read_mostly where present; a static key defined by
DEFINE_STATIC_KEY_TRUE/FALSE/MAYBE(...) takes the _RO form of its macro
(DEFINE_STATIC_KEY_FALSE_RO(k)). LIST is TSV with the header "file line name"
(file relative to TREE, line of the variable's name). An optional column
"annotation" says what to add: ro_after_init (the default), initdata or
initconst (for a variable that only init code reads and writes; a const
one takes __initconst). TREE is not changed.
Every file of LIST must be a file of TREE given as a relative path
without "." or ".." components; anything else is refused (65) before any
file is copied.
Exit status: 0 all keys annotated, 1 some keys not found (the diff holds
the others; the missing ones are named on stderr), 64 usage, 65 a bad
LIST (LIST:LINE names the row), 70 spatch or the host failed.
EOF
}

case ${1-} in -h | --help) usage; exit 0 ;; esac
[ $# -eq 2 ] || { usage >&2; exit 64; }
tree=$1 list=$2
here=$(cd "$(dirname "$0")" && pwd)
prog_name=annotate
. "$here/../lib/args.sh"
[ -d "$tree" ] || die 64 "TREE '$tree' is not a directory"
[ -f "$list" ] || die 64 "LIST '$list' is not a file"
command -v spatch >/dev/null || die 70 "spatch not found (apt-get install coccinelle)"
tree=$(cd "$tree" && pwd) || die 70 "cannot enter $tree"
head -n 1 "$list" | grep -q '^file	line	name' ||
	die 65 "$list:1: the header must be 'file<TAB>line<TAB>name'"
# a row: a path inside TREE (relative, no "." or ".." component, no
# empty one, no control character), a line number, a C identifier
awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "annotation") acol = i; next }
NR > 1 {
	p = "/" $1 "/"
	if (NF < 3 || $2 !~ /^[1-9][0-9]*$/ || $3 !~ /^[A-Za-z_][A-Za-z0-9_]*$/) {
		printf "annotate: error: %s:%d: bad row (want file, line, name)\n", FILENAME, NR > "/dev/stderr"
		bad = 1
	} else if (acol && $acol !~ /^(ro_after_init|initdata|initconst)$/) {
		printf "annotate: error: %s:%d: annotation \"%s\" is not ro_after_init, initdata or initconst\n", FILENAME, NR, $acol > "/dev/stderr"
		bad = 1
	} else if ($1 == "" || $1 ~ /^\// || p ~ /\/\.\.?\// || p ~ /\/\// ||
		   $1 ~ /[[:cntrl:]]/) {
		printf "annotate: error: %s:%d: file '"'"'%s'"'"' is not a path relative to TREE (no '"'"'/'"'"' at the start, no '"'"'.'"'"' or '"'"'..'"'"')\n", FILENAME, NR, $1 > "/dev/stderr"
		bad = 1
	}
}
END { exit bad }' "$list" || exit 65

wd=$(mktemp -d "${TMPDIR:-/tmp}/annotate.XXXXXX") || die 70 "mktemp failed"
trap 'rm -rf "$wd"' EXIT
trap 'exit 130' INT TERM
# each file once, with the line of LIST where it first appears
awk -F '\t' 'NR > 1 && !seen[$1]++ { print NR "\t" $1 }' "$list" >"$wd/where"
while IFS='	' read -r n f; do
	[ -f "$tree/$f" ] || die 65 "$list:$n: no such file in TREE: $f"
done <"$wd/where"
cut -f 2- "$wd/where" | sort -u >"$wd/files"
while IFS= read -r f; do
	mkdir -p "$wd/b/$(dirname "$f")" && cp "$tree/$f" "$wd/b/$f" ||
		die 70 "cannot copy $f into $wd"
done <"$wd/files"
cp "$list" "$wd/keys.tsv" || die 70 "cannot copy $list"

# A declaration with several declarators, one of them annotated already
# ("static char *a __ro_after_init, *b;"), does not match the rules: hide
# the existing annotations of the listed lines in a comment while spatch
# runs, and put them back after.
hide='/*ro-campaign:ro_after_init*/'
while IFS= read -r f; do
	lines=$(awk -F '\t' -v f="$f" 'NR > 1 && $1 == f { printf "%s ", $2 }' "$list")
	awk -v lines="$lines" -v hide="$hide" '
		BEGIN { n = split(lines, l, " "); for (i = 1; i <= n; i++) want[l[i]] = 1 }
		FNR in want { gsub(/__ro_after_init/, hide) }
		{ print }' "$wd/b/$f" >"$wd/hide.tmp" && mv "$wd/hide.tmp" "$wd/b/$f"
done <"$wd/files"

# relative paths, so the positions spatch reports match the list's
(cd "$wd/b" && tr '\n' '\0' <"$wd/files" |
	xargs -0 spatch --sp-file "$here/annotate.cocci" \
	--no-includes --very-quiet --in-place -D patch -D keys="$wd/keys.tsv") \
	>/dev/null 2>"$wd/err"
rc=$?
[ "$rc" -eq 0 ] || { cat "$wd/err" >&2; die 70 "spatch failed (exit $rc)"; }

# Where spatch swapped __read_mostly it leaves stray spaces: two after an
# array bound, one before the ';' of a variable without initializer.  Fix
# that whitespace only where the original had no such text.
while IFS= read -r f; do
	# the annotations hidden before spatch ran ($hide, as a regex)
	sed -i 's|/\*ro-campaign:ro_after_init\*/|__ro_after_init|g' "$wd/b/$f"
	grep -q ']  __ro_after_init' "$tree/$f" ||
		sed -i 's/\]  __ro_after_init/] __ro_after_init/' "$wd/b/$f"
	grep -q '__ro_after_init ;' "$tree/$f" ||
		sed -i 's/ __ro_after_init ;/ __ro_after_init;/' "$wd/b/$f"
	# On the lines this diff changes, drop an explicit "= 0", "= false"
	# or "= NULL": checkpatch rejects those on any line a patch touches,
	# and a file-scope variable without initializer is zero in
	# .data..ro_after_init just the same.
	# A changed line that the annotation pushed past 100 columns is
	# wrapped after "__ro_after_init =", the initializer indented by a
	# tab on the next line, as the kernel's coding style asks.
	awk -v orig="$tree/$f" '
	function cols(s,	i, c, n) {
		n = 0
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			n = c == "\t" ? n + 8 - n % 8 : n + 1
		}
		return n
	}
	{
		o = ""
		if ((getline o < orig) > 0 && o != $0) {
			sub(/__ro_after_init = (0|false|NULL);/, "__ro_after_init;")
			sub(/__initdata = (0|false|NULL);/, "__initdata;")
			sub(/__initconst = (0|false|NULL);/, "__initconst;")
			for (k = 1; k <= 3; k++) {
				a = k == 1 ? "__ro_after_init" : k == 2 ? "__initdata" : "__initconst"
				i = index($0, a " = ")
				if (i > 0)
					break
			}
			if (cols($0) > 100 && i > 0 && cols(o) <= 100) {
				head = substr($0, 1, i - 1 + length(a " ="))
				if (cols(head) <= 100) {
					print head
					$0 = "\t" substr($0, i + length(a " = "))
				}
			}
		}
		print
	}' "$wd/b/$f" >"$wd/b/$f.fix" && mv "$wd/b/$f.fix" "$wd/b/$f" ||
		die 70 "cannot tidy $f"
done <"$wd/files"

while IFS= read -r f; do
	diff -u --label "a/$f" --label "b/$f" "$tree/$f" "$wd/b/$f"
	[ $? -le 1 ] || die 70 "diff failed on $f"
done <"$wd/files"

if grep -q '^annotate: not found' "$wd/err"; then
	grep '^annotate: not found' "$wd/err" >&2
	exit 1
fi
exit 0
