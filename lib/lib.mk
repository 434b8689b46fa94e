# SPDX-License-Identifier: GPL-2.0
# lib/: the base layer every program links (base, tsv, journal, evidence,
# strtab).  Programs add $(LIB) to their prerequisites and link line.

LIB_SRCS := $(wildcard lib/*.c)
LIB_HDRS := $(wildcard lib/*.h)
LIB_OBJS := $(LIB_SRCS:.c=.o)
LIB      := lib/libro.a
CFLAGS   += -Ilib

lib/%.o: lib/%.c $(LIB_HDRS)
	$(CC) $(CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJS)
	rm -f $@
	ar rcs $@ $(LIB_OBJS)

CLEAN_FILES += $(LIB) $(LIB_OBJS)

# test-lib.sh's window into the library
CLEAN_FILES += lib/tests/lib-test
lib/tests/lib-test: lib/tests/lib-test.c $(LIB)
	$(CC) $(CFLAGS) -o $@ lib/tests/lib-test.c $(LIB)
PROGRAMS += lib/tests/lib-test
