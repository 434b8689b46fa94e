#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# distcc-hosts.sh - the distcc hosts that answer now, and their job slots:
# build-kernel.sh's -j when it compiles through distcc.
#
# Usage: distcc-hosts.sh
#
# The hosts are DISTCC_HOSTS, or distcc's own configuration when it is
# unset (DISTCC_DIR/hosts, ~/.distcc/hosts, /etc/distcc/hosts, as `distcc
# --show-hosts` reads them).  Each TCP or ssh host is probed with one small
# compile that may not fall back to the local compiler (10 s at most); a
# host that does not answer is left out with a warning.  localhost (the
# local machine, by distcc's rule) and +zeroconf (counted as 4 slots) are
# kept unprobed.
# A host's slots are its /LIMIT (at most 1000, a larger one is capped with
# a warning), else distcc's default: 4, and 2 for localhost.  A host
# listed again (the same host and port) is counted once, with a warning.
# A name with a * or ? (a glob, not a host) is left out, with a warning.
#
# Prints two lines on stdout: the slot count, then the hosts that answer
# (a DISTCC_HOSTS value, options kept).
# Exit: 0 some host answers, 1 none does (compile locally), 64 usage, 70
# distcc is not installed.

set -u
# The host list is split into words, never globbed (a "*" is not the
# current directory's files).
set -f
prog_name=distcc-hosts
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/args.sh"
help_maybe "$0" "$@"
[ $# -eq 0 ] || { echo "usage: distcc-hosts.sh" >&2; exit 64; }

command -v distcc >/dev/null || die 70 "distcc is not installed (apt-get install distcc)"
hosts=$(distcc --show-hosts 2>/dev/null) || hosts=
[ -n "$hosts" ] || { echo "distcc-hosts: warning: no distcc hosts configured" >&2; exit 1; }

tmp=$(mktemp -d) || die 70 "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
printf 'int ro_campaign_probe(int x)\n{\n\treturn x * 3;\n}\n' >"$tmp/probe.c"

slots=0
up=
seen=" "
for h in $hosts; do
	case $h in
	--*) up="$up $h"; continue ;;
	+zeroconf*) up="$up $h"; slots=$((slots + 4)); continue ;;
	esac
	spec=${h%%,*}
	limit=
	case $spec in */*) limit=${spec#*/}; spec=${spec%%/*} ;; esac
	case $spec in
	*[*?]*)
		echo "distcc-hosts: warning: '$h' is not a distcc host (a * or ? in it): left out" >&2
		continue ;;
	esac
	case $limit in '' | 0* | *[!0-9]*) limit= ;; esac
	if [ -n "$limit" ] && { [ ${#limit} -gt 4 ] || [ "$limit" -gt 1000 ]; }; then
		echo "distcc-hosts: warning: distcc host $h: /$limit capped at 1000 slots" >&2
		limit=1000
		h=$spec/1000${h#"${h%%,*}"}
	fi
	case $seen in
	*" $spec "*)
		echo "distcc-hosts: warning: distcc host $spec is listed again ($h): counted once" >&2
		continue ;;
	esac
	seen="$seen$spec "
	if [ "$spec" = localhost ]; then
		up="$up $h"
		slots=$((slots + ${limit:-2}))
		continue
	fi
	if DISTCC_HOSTS=$h DISTCC_FALLBACK=0 DISTCC_SKIP_LOCAL_RETRY=1 \
	   DISTCC_BACKOFF_PERIOD=0 DISTCC_IO_TIMEOUT=10 \
	   timeout 15 distcc gcc -c -o "$tmp/probe.o" "$tmp/probe.c" \
	   >"$tmp/err" 2>&1; then
		up="$up $h"
		slots=$((slots + ${limit:-4}))
	else
		echo "distcc-hosts: warning: distcc host $h does not answer ($(tail -n 1 "$tmp/err")): left out" >&2
	fi
done
up=${up# }
[ "$slots" -gt 0 ] || { echo "distcc-hosts: warning: no distcc host answers" >&2; exit 1; }
echo "$slots"
echo "$up"
