#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-distcc.sh - kernel builds through distcc (build-kernel.sh with
# DISTCC_HOSTS), against a real distccd that this test starts on
# 127.0.0.1 (allow-list 127.0.0.1, a free port) and stops at the end.  No
# traffic leaves the machine.
#   - qemu-boot/distcc-hosts.sh: the host that answers, with its slots; a
#     closed port is left out with a warning; none answering is exit 1
#   - the fast kernel with a few objects removed, rebuilt with
#     DISTCC_HOSTS="LIVE/2 DEAD/2" (CCACHE_RECACHE=1, so ccache compiles
#     instead of answering from its cache): the dead host is named in a
#     warning, -j is 2, distccd's log has a COMPILE_OK for each removed
#     object, and the kernel boots with the controls (verdict pass)
#   - with only the dead host, the build warns and compiles locally, and
#     the local objects are byte for byte the ones distccd compiled
#
# Env: WORK, TREE (as the Makefile exports them).  Output: TAP.

set -u

here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/.." && pwd)
WORK=${WORK:-$HOME/.cache/ro-campaign}
TREE=${TREE:-$WORK/linux}
. "$here/../lib/tap.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-distcc.XXXXXX") || exit 1
dpid=
cleanup() {
	[ -z "$dpid" ] || { kill "$dpid" 2>/dev/null; wait "$dpid" 2>/dev/null; }
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

for p in distcc distccd ss; do
	command -v $p >/dev/null ||
		{ not_ok "$p is installed" "not found (make setup)"; finish; }
done
make -s -C "$root" programs >"$tmp/make.log" 2>&1 ||
	{ cat "$tmp/make.log"; echo "Bail out! make programs failed"; exit 1; }

# free_port N: a TCP port of 127.0.0.1 that nothing listens on
free_port() {
	_p=$((20000 + ($$ * 31 + $1 * 997) % 30000))
	while [ -n "$(ss -Hltn "sport = :$_p")" ]; do
		_p=$((_p + 1))
	done
	echo "$_p"
}

# ---- a distccd of our own -----------------------------------------------------------
port=
for try in 1 2 3 4 5; do
	p=$(free_port $try)
	distccd --no-detach --daemon --allow 127.0.0.1 --listen 127.0.0.1 \
		--port "$p" --jobs 2 --log-stderr --log-level info \
		2>"$tmp/distccd.log" &
	dpid=$!
	t=0
	while [ $t -lt 10 ] && kill -0 "$dpid" 2>/dev/null &&
	      ! grep -q "listening on 127.0.0.1:$p" "$tmp/distccd.log"; do
		sleep 0.5
		t=$((t + 1))
	done
	if grep -q "listening on 127.0.0.1:$p" "$tmp/distccd.log"; then
		port=$p
		break
	fi
	kill "$dpid" 2>/dev/null
	wait "$dpid" 2>/dev/null
	dpid=
done
[ -n "$port" ] || { not_ok "distccd listens on 127.0.0.1" "$(tail -n 3 "$tmp/distccd.log")"; finish; }
ok "distccd listens on 127.0.0.1:$port, allowing 127.0.0.1 only"
dead=$(free_port 9)
[ "$dead" != "$port" ] || dead=$((port + 1))
live="127.0.0.1:$port/2"
down="127.0.0.1:$dead/2"

# ---- distcc-hosts.sh ----------------------------------------------------------------
out=$(DISTCC_HOSTS="$live $down" sh "$here/distcc-hosts.sh" 2>"$tmp/hosts.err")
rc=$?
why="exit $rc, out '$out', err $(cat "$tmp/hosts.err")"
check "distcc-hosts: the live host with its 2 slots, the closed port left out with a warning" \
	sh -c "[ $rc -eq 0 ] && [ \"\$(echo '$out' | sed -n 1p)\" = 2 ] &&
		[ \"\$(echo '$out' | sed -n 2p)\" = '$live' ] &&
		grep -q 'warning: distcc host $down does not answer' '$tmp/hosts.err'"
DISTCC_HOSTS="$down" sh "$here/distcc-hosts.sh" >/dev/null 2>"$tmp/hosts2.err"
rc=$?
why="exit $rc: $(cat "$tmp/hosts2.err")"
check "distcc-hosts: no host answers: exit 1 and a warning" \
	sh -c "[ $rc -eq 1 ] && grep -q 'no distcc host answers' '$tmp/hosts2.err'"

# ---- the fast kernel, a few objects compiled by distccd -------------------------------
echo "# looking up the fast kernel (waits while another kernel build holds the lock)"
build=$(sh "$here/build-kernel.sh" --config-only fast "$TREE" "$WORK" | tail -n 1) ||
	{ echo "Bail out! build-kernel.sh --config-only failed"; exit 1; }
if [ ! -f "$build/ro-campaign/bzImage" ]; then
	echo "# building the fast kernel locally first"
	sh "$here/build-kernel.sh" fast "$TREE" "$WORK" >"$tmp/build0.log" 2>&1 ||
		{ tail -n 5 "$tmp/build0.log"; echo "Bail out! kernel build failed"; exit 1; }
fi
objs=
for o in kernel/panic.o kernel/exit.o lib/string.o kernel/printk/printk.o mm/filemap.o; do
	[ -f "$build/$o" ] && objs="$objs $o"
done
check "the fast build compiles the chosen files ($objs )" [ -n "$objs" ]

# compiled_by_distccd FROM: the objects of $objs without a COMPILE_OK line
# for their source in distccd's log after line FROM
compiled_by_distccd() {
	_m=
	for _o in $objs; do
		tail -n "+$(($1 + 1))" "$tmp/distccd.log" |
			grep -q "COMPILE_OK .*[ /]${_o%.o}\.c\$" || _m="$_m $_o"
	done
	echo "$_m"
}
# Another build of the same tree (make test runs none, but a shared machine
# may) can recompile the removed objects while ours waits for the build
# lock: ours then finds every object there (build-kernel.sh says "N
# objects there, N after the last complete build").  That is retried, at
# most 3 times; an object our build compiled without distccd is a failure.
try=1
while :; do
	for o in $objs; do
		rm -f "$build/$o"
	done
	from=$(wc -l <"$tmp/distccd.log")
	DISTCC_HOSTS="$live $down" CCACHE_RECACHE=1 \
		sh "$here/build-kernel.sh" fast "$TREE" "$WORK" >"$tmp/build1.out" 2>"$tmp/build1.err"
	rc=$?
	miss=$(compiled_by_distccd "$from")
	counts=$(sed -n 's/.*(\([0-9]*\) objects there, \([0-9]*\) after.*/\1 \2/p' "$tmp/build1.err")
	[ $rc -eq 0 ] && [ -n "$miss" ] && [ -n "$counts" ] &&
		[ "${counts% *}" = "${counts#* }" ] && [ $try -lt 3 ] || break
	echo "# another build recompiled the removed objects first ($counts); again"
	try=$((try + 1))
done
# the kernel just built, before anything else replaces it
rm -rf "$tmp/kernel"
cp -R "$build/ro-campaign" "$tmp/kernel"
mkdir -p "$tmp/distcc"
for o in $objs; do
	cp "$build/$o" "$tmp/distcc/$(echo "$o" | tr / _)"
done
why="exit $rc: $(tail -n 3 "$tmp/build1.err")"
check "build through distcc with a dead host in the list: exit 0, the dead host named" \
	sh -c "[ $rc -eq 0 ] && grep -q 'distcc host $down does not answer' '$tmp/build1.err' &&
		grep -q 'compiling through distcc: $live\$' '$tmp/build1.err'"
why=$(grep 'building fast with' "$tmp/build1.err")
check "-j from the live host's slots: -j2" grep -q 'building fast with -j2 ' "$tmp/build1.err"
why="no COMPILE_OK in distccd's log for:$miss"
check "distccd compiled every removed object (its log: COMPILE_OK for each)" [ -z "$miss" ]

sh "$here/mkinitramfs.sh" "$tmp/kernel" >"$tmp/initramfs.log" 2>&1 ||
	{ not_ok "mkinitramfs" "$(tail -n 2 "$tmp/initramfs.log")"; finish; }
"$here/boot" "$tmp/kernel/bzImage" --out "$tmp/boot" >"$tmp/boot.log" 2>&1
rc=$?
why="exit $rc, verdict $(cat "$tmp/boot/verdict" 2>/dev/null)"
check "the kernel built through distcc boots the exercise suite with the controls (pass)" \
	sh -c "[ $rc -eq 0 ] && [ \"\$(cat '$tmp/boot/verdict')\" = pass ]"

# ---- no host answers: a local build, with a warning ---------------------------------
for o in $objs; do
	rm -f "$build/$o"
done
from=$(wc -l <"$tmp/distccd.log")
DISTCC_HOSTS="$down" CCACHE_RECACHE=1 \
	sh "$here/build-kernel.sh" fast "$TREE" "$WORK" >"$tmp/build2.out" 2>"$tmp/build2.err"
rc=$?
new=$(tail -n "+$((from + 1))" "$tmp/distccd.log" | grep -c COMPILE_OK)
why="exit $rc, $new new COMPILE_OK: $(tail -n 3 "$tmp/build2.err")"
check "every host down: the build warns, compiles locally and succeeds" \
	sh -c "[ $rc -eq 0 ] && grep -q 'no distcc host answers: compiling locally' '$tmp/build2.err' &&
		[ $new -eq 0 ]"
diff=
for o in $objs; do
	cmp -s "$build/$o" "$tmp/distcc/$(echo "$o" | tr / _)" || diff="$diff $o"
done
why="differ:$diff"
check "the objects distccd compiled are byte for byte the local compiler's" [ -z "$diff" ]
finish
