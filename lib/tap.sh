# TAP helpers shared by every */tests/test-*.sh (TAP version 13).
#
# Source it: it prints the version line.  Report each test with ok, not_ok
# or check, and end with finish, which exits non-zero if anything failed.
# A test whose number of tests is fixed says so first with plan N; most
# have a number that depends on the data or stop early on a failure, and
# finish prints their plan last, as TAP allows.  A skipped test is
# "ok N - DESC # SKIP reason"; a test that skips everything prints
# "1..0 # SKIP reason" and exits 0 before its first ok.
# The Makefile's test runner counts the ok, not ok and # SKIP lines.
# The counter is tap_n; failed, the number of not ok lines so far, is
# for the tests to read.

tap_n=0
tap_plan=
failed=0
echo "TAP version 13"

# plan N: the test runs exactly N tests (before the first of them)
plan() {
	tap_plan=$1
	echo "1..$1"
}

ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1"
}

# not_ok DESC REASON
not_ok() {
	tap_n=$((tap_n + 1))
	failed=$((failed + 1))
	echo "not ok $tap_n - $1 # $2"
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
	if [ -z "$tap_plan" ]; then
		echo "1..$tap_n"
	elif [ "$tap_n" -ne "$tap_plan" ]; then
		echo "# planned $tap_plan tests, ran $tap_n"
		exit 1
	fi
	[ $failed -eq 0 ]
	exit
}
