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

# Data files that sh reads and C compiles in (lib/tsv2c.awk): the
# trap types (lib/traps.tsv), the separate images (lib/images.tsv).
# TSV_CHECK: the values a column may hold.
lib/%.inc: lib/%.tsv lib/tsv2c.awk
	awk -v check='$(TSV_CHECK)' -f lib/tsv2c.awk $< >$@.tmp && mv $@.tmp $@
lib/traps.inc: TSV_CHECK = kind=base|embeds|inert counted=yes|no
lib/traps.o: lib/traps.inc
CLEAN_FILES += lib/traps.inc
# the separate images (lib/images.tsv)
lib/images.inc: TSV_CHECK = vars=skip|kept
lib/images.o: lib/images.inc
CLEAN_FILES += lib/images.inc
# the paths that hold no kernel code (lib/notkernel.tsv; lib/notkernel.sh
# reads it for the scripts)
lib/notkernel.inc: TSV_CHECK = scans=none|facts
lib/notkernel.o: lib/notkernel.inc
CLEAN_FILES += lib/notkernel.inc
