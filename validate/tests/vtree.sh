# SPDX-License-Identifier: GPL-2.0
# vtree.sh - the work tree validate's tests build in, sourced after
# lib/tap.sh and lib/ktree.sh, with TREE and VTREE set.

# vtree_add: VTREE, a work tree of TREE at tag core, made if missing;
# a failure ends the test.
vtree_add() {
	[ -d "$VTREE" ] && return 0
	git -C "$TREE" worktree add --detach "$VTREE" core >/dev/null 2>&1 ||
		{ not_ok "work tree $VTREE" "git worktree add failed"; finish; }
}

# vtree_at_core: vtree_add, and a clean VTREE moved to core: cover-plan
# reads the Makefiles and Kconfig files of the work tree, which must be at
# the base validate will use (validate resets a tree its own killed run
# left dirty, before it builds).
vtree_at_core() {
	vtree_add
	[ -n "$(git -C "$VTREE" status --porcelain)" ] && return 0
	git -C "$VTREE" checkout -q --detach core ||
		{ not_ok "work tree $VTREE at core" "git checkout failed"; finish; }
}

# at_core FILE PATTERN: the first line of FILE at tag core matching
# PATTERN, as validate sees it.
at_core() {
	ktree_line "$TREE" core "$1" "$2"
}

# matches TEXT REGEX: TEXT matches the basic regex REGEX
matches() {
	printf '%s\n' "$1" | grep -q "$2"
}
