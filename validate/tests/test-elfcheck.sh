#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-elfcheck.sh - elf_symbolize(), which turns the address of a
# violation or oops into the variable that holds it, on an object with a
# zero-size symbol at the same address as a struct (the way a
# lock_class_key without lockdep sits before the next variable).

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
WORK=${WORK:-$HOME/.cache/ro-campaign}
st=$WORK/test-elfcheck
. "$top/qemu-boot/tests/tap.sh"

make -C "$top" -s validate/tests/symbolize ||
	{ not_ok "build validate/tests/symbolize" "make failed"; finish; }
rm -rf "$st"
mkdir -p "$st"
obj=$st/shared-address.o
${CC:-gcc} -c -o "$obj" "$here/tests/fixtures/shared-address.S" ||
	{ not_ok "assemble the fixture" "gcc -c failed"; finish; }

# at ADDR WANT: symbolize names WANT (or "-" for no symbol)
at() {
	got=$("$here/tests/symbolize" "$obj" "$1") || got=-
	why="address $1: got '$got', want '$2'"
	[ "$got" = "$2" ]
}
check "start of a struct that shares its address with an empty key: the struct" \
	at 0x0 shrinker
check "inside the struct (its list_head at +0x20): the struct" at 0x20 shrinker
check "last byte of the struct" at 0x3f shrinker
check "the next object" at 0x40 after
check "a zero-size object alone at its address: itself" at 0x48 lonely
check "past every object: no symbol, exit 1" at 0x49 -
"$here/tests/symbolize" > /dev/null 2>&1
check "no arguments: exit 64" test $? -eq 64
"$here/tests/symbolize" "$st/no-such.o" 0x0 > /dev/null 2>&1
check "missing file: exit 1" test $? -eq 1
finish
