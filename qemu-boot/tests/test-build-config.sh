#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-build-config.sh - build-kernel.sh reports the fragment options that
# did not make it into .config, instead of dropping them silently: it
# configures (--config-only, no compile) the cover profile on the fast base
# of TREE in a private work directory, with a fragment holding an option
# the tree's Kconfig does not have, one whose dependency the fast base
# leaves off, and one that is fine.  The configuration goes on (exit 0);
# one warning line names the absent option and one the unmet one, each
# with FILE:LINE; the good option is in .config.  Then the real fragments,
# common.config and fast.config, are checked against TREE's Kconfig: every
# option they ask for must exist there (a fragment that names an option
# the version under test dropped is reported here first).
#
# Env: CACHE, WORK, TREE (as exported by the Makefile).
# Output: TAP.  Exit: 0 if every test passed.

set -u

here=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${CACHE:-$HOME/.cache/ro-campaign}
WORK=${WORK:-$CACHE/${KERNEL:-6.12}}
TREE=${TREE:-$WORK/linux}
export CACHE
. "$here/../lib/tap.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-build-config.XXXXXX") || exit 1
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

[ -f "$TREE/Makefile" ] || { echo "Bail out! $TREE: no kernel tree (run make setup)"; exit 1; }
version=$(make -s -C "$TREE" kernelversion 2>/dev/null | tail -n 1)
echo "# Linux $version at $TREE"

# USB_STORAGE depends on USB, which tinyconfig leaves off; PRINTK_TIME
# is a plain bool every version has.
frag=$tmp/cover.config
printf '%s\n' '# a test fragment' CONFIG_PRINTK_TIME=y \
	CONFIG_RO_CAMPAIGN_NO_SUCH_OPTION=y CONFIG_USB_STORAGE=m >"$frag"

echo "# configuring (waits while another kernel build holds the lock)"
COVER_BASE=fast COVER_FRAGMENT=$frag sh "$here/build-kernel.sh" --config-only \
	cover "$TREE" "$tmp/work" >"$tmp/out" 2>"$tmp/err"
rc=$?
out=$(tail -n 1 "$tmp/out")
sed 's/^/# stderr: /' "$tmp/err"

check "an absent or unmet option does not stop the configuration (exit 0)" \
	eval '[ $rc -eq 0 ] && [ -f "$out/.config" ] || { why="exit $rc"; false; }'
absent_line() {
	l=$(grep '^build-kernel: warning: cover: not in the Kconfig of Linux' "$tmp/err")
	[ "$(printf '%s' "$l" | grep -c .)" -eq 1 ] || { why="no single 'not in the Kconfig' line"; return 1; }
	echo "$l" | grep -qF "CONFIG_RO_CAMPAIGN_NO_SUCH_OPTION=y ($frag:3)" ||
		{ why="the line does not name the option with $frag:3"; return 1; }
	! echo "$l" | grep -q 'USB_STORAGE\|PRINTK_TIME' || { why="it names another option"; return 1; }
}
check "a warning names the option the tree's Kconfig does not have, with FILE:LINE" absent_line
unmet_line() {
	l=$(grep "^build-kernel: warning: cover: Linux .*'s Kconfig set them otherwise" "$tmp/err")
	[ "$(printf '%s' "$l" | grep -c .)" -eq 1 ] || { why="no single 'set them otherwise' line"; return 1; }
	echo "$l" | grep -qF "CONFIG_USB_STORAGE=m ($frag:4: not set)" ||
		{ why="the line does not name CONFIG_USB_STORAGE=m with $frag:4 and its value"; return 1; }
}
check "a warning names the option Kconfig set otherwise, with FILE:LINE and its value" unmet_line
check "the good option is in .config" grep -qx CONFIG_PRINTK_TIME=y "$out/.config"
check "the warnings are kept in BUILD/.ro-campaign-config-warnings" \
	eval 'grep -v "^# stderr" "$tmp/err" | grep "^build-kernel: warning" | cmp -s - "$out/.ro-campaign-config-warnings"'
check "our own fragments, fast base: no warning" \
	eval '! grep -q "qemu-boot/configs/" "$tmp/err" || { why=$(grep "qemu-boot/configs/" "$tmp/err" | head -n 1); false; }'

# Every option of our fragments exists in this version's Kconfig.
find "$TREE" -name .git -prune -o -name 'Kconfig*' -type f -exec \
	sed -n 's/^[[:space:]]*\(menu\)\{0,1\}config[[:space:]]\{1,\}\([A-Za-z0-9_]\{1,\}\)[[:space:]]*$/\2/p' {} + |
	sort -u >"$tmp/symbols"
for f in "$here"/configs/*.config; do
	exists() {
		for o in $(sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=.*/\1/p' "$f"); do
			grep -qx "$o" "$tmp/symbols" || { why="CONFIG_$o is not in Linux $version"; return 1; }
		done
	}
	check "configs/${f##*/}: every option exists in Linux $version" exists
done
finish
