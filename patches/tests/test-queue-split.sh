#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-queue-split.sh - patches a maintainer reads once (issue 32):
#  - nine module parameters of svm.c (queue-fixture/6.12-params, real
#    6.12.118 variables) in the tarball tree: one patch titled by its kind,
#    each reason said once, the prefix from the table (no history);
#  - twenty mixed conversions of one file (queue-fixture/mixed) committed
#    into a clone of the tree that poses as the user's git checkout, with
#    a history of "KVM: SVM:" commits: four patches, one per kind, each
#    with its own subject, those that protect pointers and policies
#    first, one sentence per value on what a write could do, no sentence
#    twice; the prefix from the history; the cover letter's disclosure;
#  - queue-prefixes.sh on that history; make queue-branches writes a
#    branch per posting in the clone only, b4 prep -e enrolls it
#    (offline), and git send-email --dry-run shows the To:/Cc: lines.
# Real spatch (cocci/annotate.sh), git, checkpatch, b4.  TAP.
#
# Environment: WORK (default ~/.cache/ro-campaign/6.12), TREE (default
# WORK/linux).

set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
WORK=${WORK:-$HOME/.cache/ro-campaign/${KERNEL:-6.12}}
TREE=${TREE:-$WORK/linux}
t=$WORK/test-queue-split
. "$root/lib/tap.sh"

mkdir -p "$t"
if ! make -s -C "$root" patches/queue >"$t/out" 2>&1; then
	echo "1..1"
	not_ok "build patches/queue" "$(tail -n 3 "$t/out" | tr '\n' ' ')"
	exit 1
fi
ver=$(make -s -C "$TREE" kernelversion 2>/dev/null)
case $ver in
6.12.*) ;;
*)	echo "1..1"
	ok "issue 32 fixtures # SKIP they name 6.12 variables, the tree is $ver"
	exit 0 ;;
esac

# msg P: the commit message of patch P, from the blank line after the
# headers to the --- line; subject P: its subject, unfolded.
msg() { sed -n '/^$/,$p' "$1" | sed '/^---$/,$d'; }
subject() {
	awk '/^Subject:/ { s = $0; while ((getline l) > 0 && l ~ /^ /) s = s l; print s; exit }' "$1" |
		sed 's/^Subject: \[PATCH[^]]*\] //'
}
# repeated P: the sentences of P's commit message said more than once.
repeated() {
	msg "$1" | grep -v '^Signed-off-by:' | tr '\n' ' ' | tr -s ' ' |
		sed 's/\([.]\) /\1\n/g' | sed 's/^ *//' | grep . | sort | uniq -d
}

# ---- nine module parameters of svm.c, tarball tree ---------------------------
fx=$here/queue-fixture/6.12-params
q=$t/params
rm -rf "$q"
sh "$root/patches/queue.sh" "$fx/journal.tsv" "$fx/candidates.tsv" "$TREE" \
	"$WORK" "$q" >"$t/params.log" 2>&1
rc=$?
[ $rc -eq 0 ] && ok "nine parameters: make queue writes them, checkpatch and git am pass" ||
	not_ok "nine parameters: make queue writes them, checkpatch and git am pass" "exit $rc: $(grep -i 'fail\|error' "$t/params.log" | head -n 3 | tr '\n' ' ')"
p=$(sed -n 1p "$q/series" 2>/dev/null)
s=$(subject "$q/$p" 2>/dev/null)
[ "$(grep -c . "$q/series" 2>/dev/null)" = 1 ] &&
	[ "$s" = "KVM: x86: Mark module parameters as __ro_after_init" ] &&
	ok "nine parameters of one file: one patch, titled by its kind" ||
	not_ok "nine parameters of one file: one patch, titled by its kind" "$(cat "$q/series" 2>/dev/null | tr '\n' ' ') '$s'"
dup=$(repeated "$q/$p" 2>/dev/null)
n444=$(msg "$q/$p" | tr '\n' ' ' | tr -s ' ' | grep -o 'permission 0444' | wc -l)
nsetup=$(msg "$q/$p" | tr '\n' ' ' | grep -o 'svm_hardware_setup()' | wc -l)
[ -f "$q/$p" ] && [ -z "$dup" ] && [ "$n444" -eq 1 ] && [ "$nsetup" -eq 1 ] &&
	msg "$q/$p" | tr '\n' ' ' | tr -s ' ' | grep -q 'All nine are module parameters (module_param) with permission 0444, .*; svm_hardware_setup(), which is __init, writes pause_filter_thresh, pause_filter_count, vls, tsc_scaling and avic\.' &&
	ok "nine parameters: the shared reason and the writer said once, naming the variables" ||
	not_ok "nine parameters: the shared reason and the writer said once" "repeated: '$dup', 0444 x$n444, svm_hardware_setup() x$nsetup"
nw=$(sed -n '/^---$/,/^diff --git/p' "$q/$p" 2>/dev/null | grep -c '^Writers of ')
[ "$nw" -eq 9 ] && ok "nine parameters: each variable's writers below the --- line" ||
	not_ok "nine parameters: each variable's writers below the --- line" "$nw lists"
grep -q '^  arch/x86/kvm/svm/svm.c  *KVM: x86 (table)$' "$q/README" 2>/dev/null &&
	grep -q '^Subject prefixes: 0 files from the tree.s git history' "$q/README" &&
	ok "no history (tarball tree): the prefix comes from the table, and the README says so" ||
	not_ok "no history (tarball tree): the prefix comes from the table, and the README says so" "$(grep -A 8 '^Subject prefixes' "$q/README" 2>/dev/null | tr '\n' '|')"

# index.tsv: each queued variable's key, its annotation and its patch.
want=$(awk -F '\t' -v p="$p" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["class"] == "ro_after_init" { print $c["file"] "\t" $c["line"] "\t" $c["name"] "\tro_after_init\t" p }' \
	"$fx/candidates.tsv" | LC_ALL=C sort)
got=$(tail -n +2 "$q/index.tsv" 2>/dev/null | LC_ALL=C sort)
[ "$(head -n 1 "$q/index.tsv" 2>/dev/null)" = "$(printf 'file\tline\tname\tannotation\tpatch')" ] &&
	[ -n "$got" ] && [ "$got" = "$want" ] &&
	ok "nine parameters: index.tsv maps each (file, line, name) to its patch" ||
	not_ok "nine parameters: index.tsv maps each (file, line, name) to its patch" "$(head -c 300 "$q/index.tsv" 2>&1)"

# ---- a git tree with history: the user's checkout, posed by a clone ----------
# The fixture file is committed on pristine as the user's "KVM: SVM:"
# commits; that commit is the clone's pristine (and core: the queue's
# git am check onto core needs one).
ft=$t/ftree
F=arch/x86/kvm/svm/ro_fixture.c
if [ ! -d "$ft/.git" ]; then
	rm -rf "$ft"
	git clone -q --shared --no-checkout "$TREE" "$ft" >"$t/out" 2>&1 ||
		not_ok "clone TREE" "$(tail -n 2 "$t/out")"
fi
git -C "$ft" fetch -q --force "$TREE" 'refs/tags/pristine:refs/tags/tree-pristine' >"$t/out" 2>&1
git -C "$ft" config user.name "$(git -C "$TREE" config user.name)"
git -C "$ft" config user.email "$(git -C "$TREE" config user.email)"
gc() {
	GIT_AUTHOR_DATE=2026-11-0${cn}T10:00:00Z GIT_COMMITTER_DATE=2026-11-0${cn}T10:00:00Z \
		git -C "$ft" -c commit.gpgsign=false "$@"
}
git -C "$ft" checkout -q -f --detach tree-pristine >"$t/out" 2>&1
mkdir -p "$ft/arch/x86/kvm/svm"
cn=1
sed 's/never built\.$/never built./' "$here/queue-fixture/mixed/ro_fixture.c" >"$ft/$F"
git -C "$ft" add -f "$F"
gc commit -q -m "KVM: SVM: Add a fixture of twenty init-only variables"
cn=2
sed -i 's/never built\.$/never built or loaded./' "$ft/$F"
gc commit -q -am "KVM: SVM: Say the fixture is never loaded"
cn=3
sed -i 's/^#include <linux\/slab.h>$/#include <linux\/slab.h>  \/* KMEM_CACHE *\//' "$ft/$F"
gc commit -q -am "KVM: x86: Say what the fixture takes from slab.h"
git -C "$ft" tag -f pristine >/dev/null
git -C "$ft" tag -f core >/dev/null
pc=$(git -C "$ft" rev-parse pristine)
printf 'key\tvalue\nkind\tgit\nversion\t%s\nsource\t%s\ncommit\t%s\n' "$ver" "$TREE" "$pc" \
	>"$ft/.git/ro-campaign-origin"

printf '%s\nmm/slub.c\n' "$F" | sh "$root/patches/queue-prefixes.sh" "$ft" pristine \
	>"$t/prefixes.tsv" 2>"$t/out"
rc=$?
[ $rc -eq 0 ] && [ "$(sed -n 2p "$t/prefixes.tsv")" = "$F	KVM: SVM	2" ] &&
	[ "$(wc -l <"$t/prefixes.tsv")" -eq 2 ] &&
	ok "queue-prefixes.sh: the most common prefix of the file's commits (KVM: SVM, 2 of 3); none for a file without prefixed commits" ||
	not_ok "queue-prefixes.sh: KVM: SVM from the history, none for mm/slub.c" "exit $rc: $(tr '\n\t' '| ' <"$t/prefixes.tsv")"

mx=$here/queue-fixture/mixed
gq=$t/mixed
rm -rf "$gq"
sh "$root/patches/queue.sh" "$mx/journal.tsv" "$mx/candidates.tsv" "$ft" \
	"$t/gwork" "$gq" >"$t/mixed.log" 2>&1
rc=$?
[ $rc -eq 0 ] && ok "twenty mixed: make queue writes them, checkpatch and git am pass" ||
	not_ok "twenty mixed: make queue writes them, checkpatch and git am pass" "exit $rc: $(grep -i 'fail\|error' "$t/mixed.log" | head -n 3 | tr '\n' ' ')"
: >"$t/subjects"
: >"$t/dups"
while read -r p; do
	subject "$gq/$p" >>"$t/subjects"
	repeated "$gq/$p" | sed "s|^|$p: |" >>"$t/dups"
done <"$gq/series"
# index.tsv: twenty rows, each a series entry whose added line annotates
# the variable at its own line.
nbad=0
nidx=0
while IFS='	' read -r f l vn a ip; do
	nidx=$((nidx + 1))
	grep -qxF "$ip" "$gq/series" &&
		awk -v l="$l" '/^@@ / { split($3, h, /[+,]/); at = h[2] - 1; next }
			/^\+/ && !/^\+\+\+/ { at++; if (at == l) hit = $0 } /^ / { at++ }
			END { exit hit == "" }' "$gq/$ip" &&
		awk -v l="$l" '/^@@ / { split($3, h, /[+,]/); at = h[2] - 1; next }
			/^\+/ && !/^\+\+\+/ { at++; if (at == l) print; next } /^ / { at++ }' "$gq/$ip" |
		grep -q "\<$vn\>.*__ro_after_init\|__ro_after_init.*\<$vn\>" ||
		nbad=$((nbad + 1))
done <<EOF_IDX
$(tail -n +2 "$gq/index.tsv" 2>/dev/null)
EOF_IDX
[ "$nidx" -eq 20 ] && [ "$nbad" -eq 0 ] &&
	ok "twenty mixed: index.tsv links each variable to the patch that annotates its line" ||
	not_ok "twenty mixed: index.tsv links each variable to the patch that annotates its line" "$nidx rows, $nbad wrong"
want="KVM: SVM: Mark pointers set once at init as __ro_after_init
KVM: SVM: Mark settings as __ro_after_init
KVM: SVM: Mark fix_table, fix_names and fix_bytes as __ro_after_init
KVM: SVM: Mark module parameters as __ro_after_init"
[ "$(cat "$t/subjects")" = "$want" ] &&
	ok "twenty mixed of one file: split by kind into four patches, pointers and policies first, prefix from the history" ||
	not_ok "twenty mixed of one file: split by kind, pointers and policies first" "$(tr '\n' '|' <"$t/subjects")"
[ "$(sort "$t/subjects" | uniq -d)" = "" ] && [ -s "$t/subjects" ] &&
	ok "twenty mixed: no two patches of the posting share a subject" ||
	not_ok "twenty mixed: no two patches of the posting share a subject" "$(sort "$t/subjects" | uniq -d)"
[ ! -s "$t/dups" ] && [ -s "$t/subjects" ] &&
	ok "no commit message says a sentence twice" ||
	not_ok "no commit message says a sentence twice" "$(head -n 2 "$t/dups" | tr '\n' '|')"
p1=$gq/$(sed -n 1p "$gq/series")
p2=$gq/$(sed -n 2p "$gq/series")
p4=$gq/$(sed -n 4p "$gq/series")
m1=$(msg "$p1" | tr '\n' ' ' | tr -s ' ')
m2=$(msg "$p2" | tr '\n' ' ' | tr -s ' ')
m4=$(msg "$p4" | tr '\n' ' ' | tr -s ' ')
case $m1 in
*"fix_ops and fix_hook hold function pointers that are called after init: a stray or hostile write would redirect those calls."*"fix_buffer and fix_cache point to objects the kernel uses after init"*) ok "pointers: one sentence per value on what a stray or hostile write could do" ;;
*) not_ok "pointers: one sentence per value on what a stray or hostile write could do" "$m1" ;;
esac
case $m2$m4 in
*"fix_strict and fix_lockdown select policies the kernel applies after init"*"They hold module parameters fixed at boot: a stray or hostile write"*) ok "policies and parameters: their own sentences" ;;
*) not_ok "policies and parameters: their own sentences" "$m2 // $m4" ;;
esac
grep -q '^  arch/x86/kvm/svm/ro_fixture.c  *KVM: SVM (git log)$' "$gq/README" &&
	ok "git tree: the README names the history as the prefix's source" ||
	not_ok "git tree: the README names the history as the prefix's source" "$(grep -A 8 '^Subject prefixes' "$gq/README" | tr '\n' '|')"
c=$(ls "$gq"/*/0000-cover-letter.patch 2>/dev/null | head -n 1)
desc=$(git -C "$root" describe --always --dirty --abbrev=12 2>/dev/null)
ct=$(tr '\n' ' ' <"$c" 2>/dev/null | tr -s ' ')
case $ct in
*"by ro-campaign $desc, a tool, from its finder rules (cocci/facts.cocci"*"validated on Linux $ver with ro-campaign's fast profile"*"make TREE=YOUR-CHECKOUT-AT-$(echo "$pc" | cut -c1-12) setup campaign PROFILE=fast \\ SCOPE=\"$F\""*"base-commit: $pc"*)
	ok "cover letter: the ro-campaign commit, the finder rules, kernel and profile, the command that reproduces it" ;;
*)	not_ok "cover letter: the disclosure" "$(grep -A 12 'Tool disclosure' "$c" 2>/dev/null | tr '\n' '|')" ;;
esac

# ---- make queue-branches, b4, git send-email ----------------------------------
sh "$root/patches/queue-branches.sh" "$gq" "$ft" "$t/gwork" \
	>"$t/branches.log" 2>&1
rc=$?
dir=$(basename "$(dirname "$c")")
np=$(grep -c . "$gq/$dir/series")
[ $rc -eq 0 ] &&
	[ "$(git -C "$ft" rev-list --count "pristine..ro-queue/$dir" 2>/dev/null)" = "$np" ] &&
	[ -z "$(git -C "$TREE" branch --list 'ro-queue/*')" ] &&
	ok "make queue-branches: ro-queue/$dir holds the posting's $np patches, in the campaign's tree only" ||
	not_ok "make queue-branches: a branch per posting, in the campaign's tree only" "exit $rc: $(tail -n 2 "$t/branches.log" | tr '\n' ' ')"
ut=$t/usertree
rm -rf "$ut"
git init -q "$ut" && git -C "$ut" commit -q --allow-empty -m "A user's own tree"
sh "$root/patches/queue-branches.sh" "$gq" "$ut" "$t/gwork" >"$t/out" 2>&1
rc=$?
[ $rc -eq 65 ] && [ -z "$(git -C "$ut" branch --list 'ro-queue/*')" ] &&
	grep -q "campaign's own tree" "$t/out" &&
	ok "queue-branches refuses a tree make setup did not prepare (a user's checkout)" ||
	not_ok "queue-branches refuses a tree make setup did not prepare (a user's checkout)" "exit $rc: $(cat "$t/out")"
if command -v b4 >/dev/null 2>&1; then
	bw=$t/b4wt
	git -C "$ft" worktree remove --force "$bw" >/dev/null 2>&1
	rm -rf "$bw"
	git -C "$ft" worktree prune
	git -C "$ft" branch -f b4-test "ro-queue/$dir" >/dev/null
	if git -C "$ft" worktree add -q "$bw" b4-test >"$t/out" 2>&1 &&
	   (cd "$bw" && b4 --offline-mode prep -e pristine) >"$t/b4.log" 2>&1 &&
	   (cd "$bw" && b4 --offline-mode prep --show-info) >"$t/b4info" 2>&1 &&
	   grep -q "^base-commit: $pc$" "$t/b4info" &&
	   [ "$(grep -c '^commit-' "$t/b4info")" -eq "$np" ]; then
		ok "b4 prep -e pristine enrolls the queued branch (offline): $np patches on base-commit pristine"
	else
		not_ok "b4 prep -e pristine enrolls the queued branch" "$(tail -n 3 "$t/b4.log" "$t/b4info" 2>/dev/null | tr '\n' ' ')"
	fi
	git -C "$ft" worktree remove --force "$bw" >/dev/null 2>&1
else
	not_ok "b4 prep -e enrolls the queued branch" "b4 is not installed (make setup installs it)"
fi
if [ -x "$(git --exec-path)/git-send-email" ]; then
	(cd "$ft" && git -c sendemail.smtpserver=/bin/false send-email --dry-run \
		--confirm=never --from="T <t@example.org>" \
		"$gq/$dir"/*.patch) >"$t/sendemail.log" 2>&1
	rc=$?
	[ $rc -eq 0 ] && grep -q '^To: Sean Christopherson <seanjc@google.com>' "$t/sendemail.log" &&
		grep -q '^Cc: ' "$t/sendemail.log" && grep -q '^	kvm@vger.kernel.org,' "$t/sendemail.log" &&
		[ "$(grep -c '^Dry-OK\|^Dry-Sent' "$t/sendemail.log")" -eq $((np + 1)) ] &&
		ok "git send-email --dry-run on the posting shows its To:/Cc: lines for the $((np + 1)) mails" ||
		not_ok "git send-email --dry-run on the posting shows its To:/Cc: lines" "exit $rc: $(grep -i 'error\|^To:\|^Cc:' "$t/sendemail.log" | head -n 3 | tr '\n' ' ')"
else
	not_ok "git send-email --dry-run shows the To:/Cc: lines" "git send-email is not installed (make setup installs git-email)"
fi

# The queue's work trees of the git-tree runs (1.7 GB each) are the
# test's own and nothing reads them once it passed; CI's disk is small.
if [ $failed -eq 0 ]; then
	rm -rf "$t"/gwork/qtree*
	for g in "$ft" "$ut"; do git -C "$g" worktree prune 2>/dev/null; done
fi
finish
