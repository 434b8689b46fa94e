#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-own-tree.sh - TREE= naming the user's own kernel git checkout.
#
# The "user's checkout" is a real kernel git repository made here from
# the prepared tree's pristine commit: a branch "my-work" with one commit
# of the user's on top, an uncommitted change to a tracked file and an
# untracked file.  Then, through the Makefile as a user would type it:
#   make setup TREE=CHECKOUT
#   make campaign TREE=CHECKOUT SCOPE=init/main.c NAME=own-tree
# and the checks: the campaign ran on the user's commit (summary), the
# queue's patches say "base-commit: <the user's commit>" and apply to it
# with git am, and the checkout is exactly as it was: HEAD, branch, every
# ref, the index, the change, the untracked file, no worktree added, no
# object or config file written.  A wrong TREE= is refused naming it.
# Everything the test made (the checkout, CACHE/own/KEY) is removed at
# the end; KEEP=1 keeps it.
#
# Environment: CACHE, TREE (from the Makefile: the prepared tree of the
# default kernel).  Output: TAP.

set -u
here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
CACHE=${CACHE:-$HOME/.cache/ro-campaign}
TREE=${TREE:-$CACHE/${KERNEL:-6.12}/linux}
. "$top/lib/tap.sh"

git -C "$TREE" rev-parse -q --verify 'pristine^{commit}' >/dev/null ||
	{ echo "Bail out! $TREE: no tag pristine (run make setup)"; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/own-tree.XXXXXX") || exit 1
user=$T/linux-mine
own=
cleanup() {
	[ -z "${KEEP:-}" ] || return 0
	rm -rf "$T"
	[ -z "$own" ] || rm -rf "$own"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# Make's own variables must not leak in: this test types make commands
# the way a user would, from a clean environment of them.
unset WORK USER_TREE MAKEFLAGS MAKELEVEL
run_make() {
	env -u TREE -u WORK -u USER_TREE make -C "$top" -s "$@"
}

gitu() {
	git -C "$user" -c user.name=Someone -c user.email=someone@localhost \
		-c commit.gpgsign=false "$@"
}

# ---- the user's checkout ----------------------------------------------------
git clone -q --shared --no-checkout --no-tags "$TREE" "$user" ||
	{ echo "Bail out! cannot clone $TREE"; exit 1; }
gitu checkout -q -b my-work "$(git -C "$TREE" rev-parse 'pristine^{commit}')" ||
	{ echo "Bail out! cannot check out pristine"; exit 1; }
printf '\nA line of the user.\n' >>"$user/Documentation/process/howto.rst"
gitu commit -q -a -m "docs: the user's own commit"
user_commit=$(gitu rev-parse HEAD)
printf '\n/* my uncommitted work */\n' >>"$user/init/version.c"
printf 'my notes\n' >"$user/my-notes.txt"

# state: everything of the checkout that ro-campaign must leave alone
state() {
	echo "HEAD $(gitu rev-parse HEAD) $(gitu symbolic-ref -q HEAD)"
	gitu for-each-ref --format='%(refname) %(objectname)'
	gitu status --porcelain=v1 --untracked-files=all
	gitu worktree list --porcelain
	sha1sum "$user/.git/index" "$user/.git/config" "$user/init/version.c" \
		"$user/my-notes.txt" | cut -d ' ' -f 1
	find "$user/.git" -newer "$T/stamp" -type f | grep -v '/index$' | sort
}
sleep 1
touch "$T/stamp"
sleep 1
state >"$T/before"

# ---- wrong paths --------------------------------------------------------------
run_make setup TREE="$T/no-such-dir" >"$T/bad1" 2>&1
rc=$?
check "TREE= a missing directory: refused, naming it" \
	sh -c "[ $rc -ne 0 ] && grep -q 'TREE=$T/no-such-dir: no such directory' '$T/bad1'"
mkdir -p "$T/not-git"
run_make setup TREE="$T/not-git" >"$T/bad2" 2>&1
rc=$?
check "TREE= a directory that is not a git checkout: refused, naming it" \
	sh -c "[ $rc -ne 0 ] && grep -q 'TREE=$T/not-git: not a git checkout' '$T/bad2'"

# ---- setup --------------------------------------------------------------------
key=$(sh "$top/setup/tree-key.sh" --key "$user")
own=$CACHE/own/$key
rm -rf "$own"
t0=$(date +%s)
run_make setup TREE="$user" >"$T/setup.out" 2>&1
rc=$?
echo "# make setup TREE=... exit $rc after $(($(date +%s) - t0)) s"
sed 's/^/# /' "$T/setup.out" | tail -n 8
check "make setup TREE=CHECKOUT exits 0" [ $rc -eq 0 ]
check "setup warns that the uncommitted changes are not part of the campaign" \
	grep -q 'uncommitted changes; they stay as they are' "$T/setup.out"
check "the campaign tree is in CACHE/own/$key, pristine at the user's commit" \
	[ "$(git -C "$own/linux" rev-parse 'pristine^{commit}' 2>/dev/null)" = "$user_commit" ]
check "the campaign tree has the core series on top (tag core)" \
	sh -c "git -C '$own/linux' rev-parse -q --verify 'core^{commit}' >/dev/null"
check "the origin file says git, the checkout and the commit" \
	sh -c "grep -q '^kind	git\$' '$own/linux/.git/ro-campaign-origin' &&
		grep -q '^commit	$user_commit\$' '$own/linux/.git/ro-campaign-origin'"
state >"$T/after-setup"
check "after setup the checkout is exactly as it was" \
	cmp -s "$T/before" "$T/after-setup"

# ---- a campaign ---------------------------------------------------------------
t0=$(date +%s)
run_make campaign TREE="$user" SCOPE=init/main.c NAME=own-tree \
	>"$T/campaign.out" 2>"$T/campaign.err"
rc=$?
echo "# make campaign TREE=... exit $rc after $(($(date +%s) - t0)) s"
sed 's/^/# /' "$T/campaign.out"
check "make campaign TREE=CHECKOUT exits 0" [ $rc -eq 0 ]
[ $rc -eq 0 ] || tail -n 5 "$T/campaign.err" | sed 's/^/# /'
short=$(echo "$user_commit" | cut -c1-12)
check "the summary names the user's checkout and commit" \
	grep -q "^kernel: .*$user at $short" "$T/campaign.out"
state >"$T/after-campaign"
check "after the campaign the checkout is exactly as it was" \
	cmp -s "$T/before" "$T/after-campaign"
if ! cmp -s "$T/before" "$T/after-campaign"; then
	diff "$T/before" "$T/after-campaign" | head -n 10 | sed 's/^/# /'
fi
check "the uncommitted change and the untracked file are still there" \
	sh -c "grep -q 'my uncommitted work' '$user/init/version.c' &&
		[ \"\$(cat '$user/my-notes.txt')\" = 'my notes' ]"

queue=$own/campaign/own-tree/queue
patches=$(find "$queue" -name '*.patch' ! -name '0000-*' 2>/dev/null | sort)
check "the campaign queued at least one patch" [ -n "$patches" ]
bad=
for p in $patches; do
	grep -q "^base-commit: $user_commit\$" "$p" || bad="$bad $p"
done
check "every queued patch says base-commit: the user's commit" \
	sh -c "[ -n '$patches' ] && [ -z '$bad' ]"
# They apply, in order, to the user's commit (a throwaway worktree of a
# throwaway clone: the user's checkout is not touched for this either).
# The worktree is sparse, the files the patches touch: git am reads and
# writes no other, and a full checkout of the kernel (and its removal at
# the end) costs more than the rest of this check.
if [ -n "$patches" ]; then
	git clone -q --shared --no-checkout "$user" "$T/am" &&
		git -C "$T/am" sparse-checkout set --no-cone \
			$(sed -n 's|^diff --git a/\([^ ]*\) b/.*|/\1|p' $patches | sort -u) &&
		git -C "$T/am" checkout -q --detach "$user_commit"
fi
am_ok=1
# queue/series lists every patch of every posting in git am order
# (FORMATS.md), as paths relative to the queue.
while read -r p; do
	case $p in '' | '#'*) continue ;; esac
	git -C "$T/am" -c user.name=t -c user.email=t@localhost am -q \
		"$queue/$p" >/dev/null 2>&1 || { am_ok=0; echo "# git am $p failed"; break; }
done <"$queue/series"
check "the queued patches apply with git am to the user's commit" \
	sh -c "[ -n '$patches' ] && [ $am_ok -eq 1 ]"
finish
