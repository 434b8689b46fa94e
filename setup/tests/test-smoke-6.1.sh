#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-smoke-6.1.sh - Linux 6.1 keeps working while 6.12 is the default.
#
# Prepares the 6.1 tree the way "make setup KERNEL=6.1" does (CACHE/6.1/linux
# from Debian's linux-source-6.1 tarball; a prepared tree is only checked),
# checks that it is Linux 6.1 with the series setup/core/6.1 applied (tag
# core), and runs test-core.sh --smoke on it: the series applies to
# pristine and is checkpatch clean, one fast build (CACHE/6.1/build, keyed
# by the fragments, the tree and its commit, so an unchanged tree reuses
# it), and two boots: the default mode's lkdtm WRITE_RO_AFTER_INIT oopses,
# and with ro_after_init=warn that write and WRITE_RO_AFTER_INIT_TWICE's
# are reported and survived with the exact violations file.
#
# Usage: test-smoke-6.1.sh [--help]
# Env: CACHE (as exported by the Makefile); TARBALL61 overrides
# /usr/src/linux-source-6.1.tar.xz.
# Output: TAP.  Exit: 0 if every test passed, 1 otherwise, 64 usage.

set -u

if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
	sed -n '3,19p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
fi
[ $# -eq 0 ] || { echo "usage: test-smoke-6.1.sh [--help]" >&2; exit 64; }

here=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${CACHE:-$HOME/.cache/ro-campaign}
work=$CACHE/6.1
tree=$work/linux
tarball=${TARBALL61:-/usr/src/linux-source-6.1.tar.xz}

log=$(mktemp "${TMPDIR:-/tmp}/test-smoke-6.1.XXXXXX") || exit 1
trap 'rm -f "$log"' EXIT
trap 'exit 1' INT TERM

# Setup: the same script and series root "make setup KERNEL=6.1" uses.
if ! KERNEL=6.1 sh "$here/setup-tree.sh" "$tarball" "$tree" "$here/core" >"$log" 2>&1; then
	sed 's/^/# /' "$log"
	echo "Bail out! setup of Linux 6.1 failed (make setup KERNEL=6.1; is linux-source-6.1 installed?)"
	exit 1
fi
sed 's/^/# /' "$log"
version=$(make -s -C "$tree" kernelversion 2>/dev/null | tail -n 1)
case $version in
6.1.*) ;;
*) echo "Bail out! $tree is Linux '${version:-?}', not 6.1"; exit 1 ;;
esac
git -C "$tree" rev-parse -q --verify core >/dev/null ||
	{ echo "Bail out! $tree: no tag core after setup"; exit 1; }

KERNEL=6.1
WORK=$work
TREE=$tree
RESULT=
BUILD=
export CACHE KERNEL WORK TREE RESULT BUILD
exec sh "$here/tests/test-core.sh" --smoke
