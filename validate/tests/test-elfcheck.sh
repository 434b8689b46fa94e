#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-elfcheck.sh - elf_symbolize(), which turns the address of a
# violation or oops into the variable that holds it, on an object with a
# zero-size symbol at the same address as a struct (the way a
# lock_class_key without lockdep sits before the next variable); and the
# section check of each annotation (__ro_after_init, __initdata,
# __initconst) on an object and on a linked image (fixtures/sections.S).

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
WORK=${WORK:-$HOME/.cache/ro-campaign}
st=$WORK/test-elfcheck
. "$top/lib/tap.sh"

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

# The section check (section.c) per annotation: an object's symbol must
# be in the annotation's section, an image's between its range symbols.
sobj=$st/sections.o
simg=$st/sections.elf
${CC:-gcc} -c -o "$sobj" "$here/tests/fixtures/sections.S" &&
	${LD:-ld} -o "$simg" -e 0 -T "$here/tests/fixtures/sections.lds" "$sobj" ||
	{ not_ok "assemble and link the sections fixture" "gcc or ld failed"; finish; }
# sec MODE FILE NAME SECTION WANT: the check says WANT (ok, wrong, ...)
sec() {
	got=$("$here/tests/symbolize" "$1" "$2" "$3" "$4")
	rc=$?
	why="symbolize $1 $3 $4: got '$got' (exit $rc), want '$5'"
	case $5 in ok) [ $rc -eq 0 ] ;; *) [ $rc -eq 1 ] ;; esac &&
		[ "${got%% *}" = "$5" ]
}
check "object: __initdata's .init.data accepted for initdata" \
	sec -o "$sobj" initd .init.data ok
check "object: .init.data rejected for ro_after_init" \
	sec -o "$sobj" initd .data..ro_after_init wrong
check "object: .data..ro_after_init rejected for initdata" \
	sec -o "$sobj" roa .init.data wrong
check "object: __initconst's .init.rodata accepted for initconst" \
	sec -o "$sobj" initc .init.rodata ok
check "object: .init.rodata rejected for initdata" \
	sec -o "$sobj" initc .init.data wrong
check "object: .data rejected for initdata" \
	sec -o "$sobj" plain .init.data wrong
check "object: no such symbol: missing" \
	sec -o "$sobj" nosuch .init.data missing
check "image: initdata between __init_begin and __init_end accepted" \
	sec -v "$simg" initd .init.data ok
check "image: initconst between __init_begin and __init_end accepted" \
	sec -v "$simg" initc .init.rodata ok
check "image: the init range rejected for ro_after_init" \
	sec -v "$simg" initd .data..ro_after_init wrong
check "image: the ro_after_init range accepted for ro_after_init" \
	sec -v "$simg" roa .data..ro_after_init ok
check "image: the ro_after_init range rejected for initdata" \
	sec -v "$simg" roa .init.data wrong
check "image: .data rejected for initdata" \
	sec -v "$simg" plain .init.data wrong
# A module: the data symbol at an offset of one of its sections (the
# fault address less the section's load address the guest recorded).
# mod SECTION OFF WANT
mod() {
	got=$("$here/tests/symbolize" -m "$sobj" "$1" "$2") || got=-
	why="symbolize -m $1 $2: got '$got', want '$3'"
	[ "$got" = "$3" ]
}
check "module: offset 0 of .init.data is its first variable" mod .init.data 0x0 initd
check "module: offset 0xc of .init.data is inside the second" mod .init.data 0xc initd2
check "module: past the end of .init.data, nothing" mod .init.data 0x10 -
check "module: offset 0 of .data is the plain variable" mod .data 0x0 plain
check "module: a section the module does not have, nothing" mod .bss 0x0 -
finish
