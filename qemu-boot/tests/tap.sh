# TAP helpers shared by every */tests/test-*.sh.
#
# Source it, report each test with ok, not_ok or check, and end with
# finish, which prints the plan and exits non-zero if anything failed.
# The Makefile's test runner counts the "ok"/"not ok" lines.

n=0
failed=0

ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}

# not_ok DESC REASON
not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $1 # $2"
}

# check DESC COMMAND...: ok if COMMAND succeeds, else not ok with the
# reason COMMAND left in $why (or the command line).
check() {
	desc=$1
	shift
	# the reason: what the command sets in why, else what the caller set
	# before calling check, else the command line
	why_before=${why-}
	why=
	if "$@"; then
		ok "$desc"
	else
		not_ok "$desc" "${why:-${why_before:-failed: $*}}"
	fi
	why=
}

finish() {
	echo "1..$n"
	[ $failed -eq 0 ]
	exit
}
