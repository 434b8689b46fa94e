#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# queue.sh - turn the accepted conversions of a validation journal into
# per-maintainer git format-patch series, and check them.
#
# patches/queue (C) plans the series and writes the commit messages;
# this script makes real commits in a worktree of TREE at tag "pristine"
# (the tarball, or the user's own commit), formats each posting with a
# cover letter (for a git tree with git format-patch --base, so that it
# ends with base-commit:), puts each patch's evidence below its --- line
# (queue finish), and checks the queue:
# checkpatch.pl --strict on every patch, and git am of the whole queue,
# in order, onto core and, separately, onto pristine.  The same journal
# gives byte-identical patches: dates come from the journal, message-ids
# from the patch contents, commit ids are zeroed.
#
# QUEUE_DIR is emptied and rewritten only if it is new, empty, or holds
# the marker .ro-campaign-queue that this script writes into every queue
# it makes; anything else is refused (exit 65) and left as it is.
#
# Usage: queue.sh JOURNAL CANDIDATES TREE WORK QUEUE_DIR
# Environment: QUEUE_BIN (patches/queue), ANNOTATE (cocci/annotate.sh),
#   QUEUE_EXCLUDE (TSV file line name reason: accepted variables to leave
#   out; line "-", or a list without the line column: every line),
#   QUEUE_DROP_UNCLEAN=1 (leave out the variables of patches checkpatch
#   does not pass, listed as dropped in the README, instead of failing),
#   QUEUE_ALLOW_BUILT=1 (queue accepted conversions of evidence level
#   built too: only compiled, not booted through their code; their
#   commit messages say so), PROFILE, MAX_VARS, QUEUE_MAX_PATCHES (at
#   most this many patches in one posting; both passed on when set;
#   defaults: queue --help),
#   QUEUE_DATE (default: newest journal time)
# Exit: 0 queue written and checked, 1 a check failed (named on stderr),
#   64 usage, 65 bad input (a file, a row, the queue directory), 70 a tool
#   or host error, 130 interrupted.

set -eu

usage() {
	sed -n '3,36p' "$0" | sed 's/^# \{0,1\}//'
}

case ${1-} in -h | --help) usage; exit 0 ;; esac
[ $# -eq 5 ] || { usage >&2; exit 64; }
trap 'exit 130' INT TERM
journal=$1
cands=$2
tree=$3
work=$4
queue=$5
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
prog_name=queue
. "$root/lib/args.sh"
. "$root/lib/tsv.sh"
bin=${QUEUE_BIN:-$here/queue}
annotate=${ANNOTATE:-$root/cocci/annotate.sh}
marker=.ro-campaign-queue

[ -f "$journal" ] || die 65 "$journal: no such journal (run make validate first)"
[ -f "$cands" ] || die 65 "$cands: no such candidates file (run make candidates first)"
[ -x "$bin" ] || die 70 "$bin: not built (make programs)"
[ -f "$annotate" ] || die 70 "$annotate: the annotation script is missing"
[ -d "$tree/.git" ] || die 70 "$tree: not a prepared tree (run make setup)"
for t in pristine core; do
	git -C "$tree" rev-parse -q --verify "refs/tags/$t" >/dev/null ||
		die 70 "$tree: no tag '$t' (run make setup)"
done

name=$(git -C "$tree" config user.name || true)
email=$(git -C "$tree" config user.email || true)
[ -n "$name" ] && [ -n "$email" ] ||
	die 70 "git config user.name and user.email must be set: they give the patches' author and Signed-off-by (git config --global user.name 'Your Name'; git config --global user.email you@example.org)"
domain=${email#*@}
if [ -n "${QUEUE_EXCLUDE-}" ]; then
	[ -f "$QUEUE_EXCLUDE" ] || die 65 "QUEUE_EXCLUDE=$QUEUE_EXCLUDE: no such file"
fi
case ${QUEUE_ALLOW_BUILT-} in
"" | 0 | 1) ;;
*) die 64 "QUEUE_ALLOW_BUILT=$QUEUE_ALLOW_BUILT: must be 1 (queue the conversions that were only built) or 0" ;;
esac

mkdir -p "$work"
# Absolute paths first: git -C TREE worktree add WORK/qtree, with a
# relative WORK, would put the worktree inside TREE.
work=$(cd "$work" && pwd)
tree=$(cd "$tree" && pwd)
journal=$(cd "$(dirname "$journal")" && pwd)/$(basename "$journal")
cands=$(cd "$(dirname "$cands")" && pwd)/$(basename "$cands")

# Only one queue run at a time uses the worktrees.
exec 9>"$work/queue.lock"
flock 9

# Start from an empty queue directory, but never delete something this
# script did not make: only a directory with the marker is emptied.
if [ -e "$queue" ] || [ -L "$queue" ]; then
	[ -d "$queue" ] ||
		die 65 "$queue exists and is not a directory; not touching it"
	if [ -f "$queue/$marker" ]; then
		rm -rf "$queue"
	elif [ -n "$(ls -A "$queue")" ]; then
		if [ -f "$queue/README" ] && [ -d "$queue/.plan" ]; then
			echo "queue: $queue looks like a queue made before queue.sh marked its queues with $marker; if it is one, delete it by hand (rm -rf '$queue') and run again" >&2
		fi
		die 65 "$queue is not empty and has no $marker, so queue.sh did not make it: refusing to empty it (nothing was deleted)"
	fi
fi
mkdir -p "$queue"
printf 'A patch queue made by ro-campaign'"'"'s patches/queue.sh: the next make queue\ninto this directory deletes and rewrites all of it.\n' >"$queue/$marker"
queue=$(cd "$queue" && pwd)

# Accepted variables in files that setup/core adds (our warn mode, not
# upstream code) cannot go to a maintainer: the pristine tree lacks them.
# exclude_rows FILE: the rows of exclude list FILE, by column name, as
# file line name reason; a list of the older columns file name reason has
# line "-" (every definition of the name in the file).
exclude_rows() {
	tsv_colnum "$1" file >/dev/null && tsv_colnum "$1" name >/dev/null &&
		tsv_colnum "$1" reason >/dev/null || exit 65
	tsv_awk "$1" 'NR > 1 { print $c_file "\t" (c_line ? $c_line : "-") "\t" $c_name "\t" $c_reason }'
}
core_only=$queue/.core-only.tsv
{
	printf 'file\tline\tname\treason\n'
	[ -z "${QUEUE_EXCLUDE-}" ] || exclude_rows "$QUEUE_EXCLUDE"
	tsv_awk "$journal" 'NR > 1 && $c_verdict == "accepted" { print $c_file "\t" $c_line "\t" $c_variable }' |
		sort -u | while IFS='	' read -r f l v; do
		git -C "$tree" cat-file -e "pristine:$f" 2>/dev/null ||
			printf '%s\t%s\t%s\t%s\n' "$f" "$l" "$v" \
				"in a file added by setup/core, not in the pristine tree"
	done
} >"$core_only"
set -- --exclude "$core_only"
[ -z "${PROFILE-}" ] || set -- "$@" --profile "$PROFILE"
[ -z "${MAX_VARS-}" ] || set -- "$@" --max-vars "$MAX_VARS"
[ -z "${QUEUE_MAX_PATCHES-}" ] || set -- "$@" --max-patches "$QUEUE_MAX_PATCHES"
[ "${QUEUE_ALLOW_BUILT-}" != 1 ] || set -- "$@" --allow-built
# The base is named from the tree's origin file (make setup writes it),
# found through git, so a TREE that is a worktree has it too.
gdir=$(git -C "$tree" rev-parse --path-format=absolute --git-common-dir) ||
	die 70 "$tree: git rev-parse failed"
[ ! -f "$gdir/ro-campaign-origin" ] ||
	set -- "$@" --origin "$gdir/ro-campaign-origin"
# Subject prefixes from the history of a tree made from the user's git
# checkout (kind git); a tarball tree has none: queue-prefix.c's table.
if [ -f "$gdir/ro-campaign-origin" ] &&
   [ "$(tsv_awk "$gdir/ro-campaign-origin" 'NR > 1 && $c_key == "kind" { print $c_value }')" = git ]; then
	tsv_awk "$journal" 'NR > 1 && $c_verdict == "accepted" { print $c_file }' |
		LC_ALL=C sort -u | sh "$here/queue-prefixes.sh" "$tree" pristine \
		>"$queue/.prefixes.tsv" || die 70 "queue-prefixes.sh failed (see above)"
	set -- "$@" --prefixes "$queue/.prefixes.tsv"
fi
# The disclosure in the cover letters: this ro-campaign's commit and the
# finder rules, by their git object ids when this is a git checkout.
tool=$(git -C "$root" describe --always --dirty --abbrev=12 2>/dev/null) ||
	tool="(not a git checkout)"
rules="cocci/facts.cocci for the write facts, and candidates/ for the init-only closure"
if fb=$(git -C "$root" rev-parse -q --short=12 HEAD:cocci/facts.cocci 2>/dev/null) &&
   cb=$(git -C "$root" rev-parse -q --short=12 HEAD:candidates 2>/dev/null); then
	rules="cocci/facts.cocci at $fb for the write facts, and candidates/ at $cb for the init-only closure"
fi
set -- "$@" --tool "$tool" --rules "$rules"
"$bin" plan --journal "$journal" --candidates "$cands" --tree "$tree" \
	--out "$queue" --signoff "$name <$email>" "$@" ||
	die $? "planning failed (see above)"
plan=$queue/.plan
date=${QUEUE_DATE:-$(cat "$plan/date")}

# A clean worktree of TREE at REV: checked out if missing, else reset and
# cleaned, which leaves exactly the committed files of REV.
worktree() {
	if [ -d "$1" ] &&
	   [ "$(git -C "$1" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)" != "$gdir" ]; then
		die 70 "$1 is a worktree of another tree than $tree: remove it (git worktree remove --force $1) and run again"
	fi
	if [ -d "$1" ]; then
		git -C "$1" am --abort >/dev/null 2>&1 || true
		git -C "$1" checkout -q -f --detach "$2" ||
			die 70 "$1: cannot check out $2 (remove it; it is recreated)"
		git -C "$1" reset -q --hard "$2"
		git -C "$1" clean -q -fdx
	else
		git -C "$tree" worktree prune
		git -C "$tree" worktree add -q --detach "$1" "$2" ||
			die 70 "cannot add worktree $1"
	fi
}

# git, with the identity, dates and format settings fixed; the user's own
# configuration (signatures, threading, extra headers) is not read.
g() {
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null \
	GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email \
	GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email \
	GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date \
	git -c commit.gpgsign=false -c format.signature= -c format.thread=false \
	    -c format.numbered=auto -c format.signOff=false \
	    -c diff.noprefix=false -c diff.mnemonicPrefix=false \
	    -c diff.renames=true -c core.abbrev=12 "$@"
}

# The base, as queue plan read it from the tree's origin: a git tree's
# postings name the user's commit with base-commit:, and that must be the
# commit the patches are made on.
base_kind=$(tsv_awk "$plan/base.tsv" 'NR > 1 && $c_key == "kind" { print $c_value }')
base_commit=$(tsv_awk "$plan/base.tsv" 'NR > 1 && $c_key == "commit" { print $c_value }')
base_opt=
if [ "$base_kind" = git ]; then
	[ "$(git -C "$tree" rev-parse pristine)" = "$base_commit" ] ||
		die 65 "$tree/.git/ro-campaign-origin names commit $base_commit, but tag pristine is $(git -C "$tree" rev-parse pristine) (run make setup again)"
	base_opt=--base=$base_commit
fi

qtree=$work/qtree
worktree "$qtree" pristine
: >"$queue/series"
while IFS='	' read -r dir area _prefix np nv part parts <&3; do
	start=$(git -C "$qtree" rev-parse HEAD)
	for list in "$plan/$dir"/*.list; do
		n=${list%.list}
		sh "$annotate" "$qtree" "$list" >"$n.diff" ||
			die $? "$list: annotation failed (see above)"
		[ -s "$n.diff" ] || die 65 "$list: the annotation changed nothing"
		git -C "$qtree" apply --index "$n.diff" ||
			die 70 "$n.diff: does not apply to the queue tree"
		g -C "$qtree" commit -q --no-verify -F "$n.msg" ||
			die 70 "$n.msg: commit failed"
	done
	# To: the maintainers; Cc: reviewers and lists (get_maintainer.pl).
	# Its order among equal sections is Perl hash order: fix the seed,
	# so the same journal gives the same To:/Cc: and Message-IDs.
	(cd "$tree" && xargs env PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 \
		perl scripts/get_maintainer.pl --no-rolestats --no-git \
		--no-git-fallback --no-r --no-l -f) <"$plan/$dir/files" \
		>"$plan/$dir/to" || die 70 "$dir: get_maintainer.pl failed"
	(cd "$tree" && xargs env PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 \
		perl scripts/get_maintainer.pl --no-rolestats --no-git \
		--no-git-fallback --no-m -f) <"$plan/$dir/files" \
		>"$plan/$dir/cc" || die 70 "$dir: get_maintainer.pl failed"
	set --
	while read -r a; do
		[ -z "$a" ] || set -- "$@" --to="$a"
	done <"$plan/$dir/to"
	# Files of THE REST (init/main.c, say) have no M: entry; such patches
	# usually go in through Andrew Morton's tree.
	if [ $# -eq 0 ]; then
		echo "queue: $dir: get_maintainer.pl names no maintainer, To: Andrew Morton" >&2
		set -- --to="Andrew Morton <akpm@linux-foundation.org>"
	fi
	# A maintainer of one file who reviews another is To: only.
	while read -r a; do
		[ -z "$a" ] || grep -qxF "$a" "$plan/$dir/to" ||
			set -- "$@" --cc="$a"
	done <"$plan/$dir/cc"
	g -C "$qtree" format-patch -q --cover-letter --zero-commit \
		--no-signature --no-thread --subject-prefix=PATCH \
		${base_opt:+"$base_opt"} \
		-o "$queue/$dir" "$@" "$start..HEAD" ||
		die 70 "$dir: git format-patch failed"
	"$bin" finish "$plan/$dir" "$queue/$dir" "$domain" ||
		die $? "$dir: finishing the series failed"
	sed "s|^|$dir/|" "$queue/$dir/series" >>"$queue/series"
	if [ "$parts" -gt 1 ]; then
		echo "queue: $dir: $np patches, $nv variables ($area, part $part of $parts)"
	else
		echo "queue: $dir: $np patches, $nv variables ($area)"
	fi
done 3<"$plan/areas.tsv"
[ -s "$queue/series" ] || echo "queue: warning: no accepted conversion, the queue is empty" >&2

# index.tsv (FORMATS.md): the patch that annotates each variable, from the
# annotate list of each patch (.plan/DIR/NNNN.list, NNNN-*.patch).
{
	printf 'file\tline\tname\tannotation\tpatch\n'
	while read -r p; do
		list=$plan/$(dirname "$p")/$(basename "$p" | cut -c1-4).list
		[ -f "$list" ] || continue	# the cover letter
		tsv_awk "$list" 'NR > 1 { print $c_file "\t" $c_line "\t" $c_name "\t" $c_annotation "\t" p }' -v p="$p" ||
			die 70 "$list: cannot be read"
	done <"$queue/series"
} >"$queue/index.tsv.tmp" || die 70 "$queue/index.tsv: cannot be written"
mv "$queue/index.tsv.tmp" "$queue/index.tsv"

# ---- checks --------------------------------------------------------------
# Every check runs even when an earlier one failed, so that one run names
# every problem; any failure makes the exit status 1.

failed=""
passed=""
check_failed() {
	echo "queue: CHECK FAILED: $*" >&2
	failed="$failed
  - $*"
}

npatch=0
nbad=0
while read -r p; do
	npatch=$((npatch + 1))
	if ! out=$(cd "$qtree" && perl scripts/checkpatch.pl --strict \
			--quiet "$queue/$p" 2>&1) || [ -n "$out" ]; then
		echo "$out" >&2
		echo "queue: checkpatch.pl --strict: $p is not clean" >&2
		nbad=$((nbad + 1))
		nnnn=$(basename "$p" | cut -c1-4)
		list=$plan/$(dirname "$p")/$nnnn.list
		# The variables on the lines checkpatch names; all of the
		# patch's variables when a complaint is on no variable's line.
		echo "$out" | awk -F '\t' -v OFS='\t' \
			-v cf="$(tsv_colnum "$list" file)" \
			-v cl="$(tsv_colnum "$list" line)" \
			-v cn="$(tsv_colnum "$list" name)" '
			NR == FNR {
				if (FNR > 1) { name[++n] = $cf OFS $cl OFS $cn; at[n] = $cf ":" $cl }
				next
			}
			/^(ERROR|WARNING|CHECK):/ { msg = $0; if (first == "") first = msg }
			match($0, /FILE: [^ ]*:[0-9]+:/) {
				why[substr($0, RSTART + 6, RLENGTH - 7)] = msg
				nwhy++
			}
			END {
				for (i = 1; i <= n; i++) if (at[i] in why) hit[at[i]] = 1
				all = nwhy == 0
				for (k in why) if (!(k in hit)) all = 1
				for (i = 1; i <= n; i++)
					if (all)
						print name[i], "checkpatch.pl --strict: " first
					else if (at[i] in why)
						print name[i], "checkpatch.pl --strict: " why[at[i]]
			}' "$list" - | LC_ALL=C sort \
			>>"$plan/unclean.tsv"
	fi
done <"$queue/series"
if [ "$nbad" -eq 0 ]; then
	echo "queue: checkpatch.pl --strict: $npatch patches clean"
	passed="$passed
  - checkpatch.pl --strict: $npatch patches clean"
elif [ "${QUEUE_DROP_UNCLEAN:-0}" = 1 ] && [ -z "${QUEUE_DROP_ROUND-}" ]; then
	# Leave the unclean patches' variables out (listed as dropped in the
	# README) and make the queue again, once.
	excl=$work/queue-exclude.tsv
	{
		printf 'file\tline\tname\treason\n'
		[ -z "${QUEUE_EXCLUDE-}" ] || exclude_rows "$QUEUE_EXCLUDE"
		cat "$plan/unclean.tsv"
	} >"$excl.tmp"
	mv "$excl.tmp" "$excl"
	echo "queue: dropping the variables of $nbad unclean patches, making the queue again" >&2
	exec 9>&-
	QUEUE_EXCLUDE=$excl
	QUEUE_DROP_ROUND=1
	export QUEUE_EXCLUDE QUEUE_DROP_ROUND
	exec sh "$0" "$journal" "$cands" \
		"$tree" "$work" "$queue"
else
	check_failed "checkpatch.pl --strict: $nbad of $npatch patches not clean"
fi

# The whole queue, in order, onto each base in a clean worktree.
am_check() {
	base=$1
	wt=$work/qtree-am-$base
	worktree "$wt" "$base"
	: >"$plan/am-$base.diff"
	if [ -s "$queue/series" ]; then
		set --
		while read -r p; do
			set -- "$@" "$queue/$p"
		done <"$queue/series"
		if ! g -C "$wt" am -q --whitespace=error-all "$@"; then
			g -C "$wt" am --abort >/dev/null 2>&1 || true
			check_failed "git am: the queue does not apply onto $base"
			return
		fi
	fi
	git -C "$wt" diff "$base" HEAD >"$plan/am-$base.diff"
	echo "queue: git am onto $base: $npatch patches applied"
	passed="$passed
  - git am of the whole queue onto $base: $npatch patches applied"
}
am_check core
am_check pristine
cmp -s "$plan/am-core.diff" "$plan/am-pristine.diff" ||
	check_failed "the queue changes different things on core and on pristine"
[ "$(git -C "$work/qtree-am-pristine" rev-parse HEAD^{tree})" = \
  "$(git -C "$qtree" rev-parse HEAD^{tree})" ] ||
	check_failed "git am onto pristine does not give the committed tree"
{
	printf '\nChecks run by make queue:\n'
	[ -z "$passed" ] || printf 'passed:%s\n' "$passed"
	[ -z "$failed" ] || printf 'FAILED:%s\n' "$failed"
	printf '(the boot check is make queue-check-boot)\n'
} >>"$queue/README"
if [ -n "$failed" ]; then
	echo "queue: error: $queue written, but checks failed:$failed" >&2
	exit 1
fi
echo "queue: $queue ready ($npatch patches)"
