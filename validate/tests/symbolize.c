// SPDX-License-Identifier: GPL-2.0
/*
 * symbolize - validate's ELF checks, for test-elfcheck.sh: print the data
 * symbol of an ELF file that holds an address (elf_symbolize()), or the
 * section check of a symbol against the section an annotation wants
 * (elf_check_object() on an object, elf_check_vmlinux() on a linked
 * image).
 *
 * Usage: symbolize FILE ADDR                (ADDR and OFF in hex)
 *        symbolize -o FILE NAME SECTION     object: NAME in SECTION?
 *        symbolize -v FILE NAME SECTION     image: NAME in SECTION's range?
 *        symbolize -m FILE SECTION OFF      module: the symbol at OFF of SECTION
 * Output of -o and -v: "ok WHERE", "wrong WHERE", "missing", "nofile" or
 * "error".
 * Exit: 0 found (or ok), 1 no symbol holds ADDR (or not ok), 64 usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../validate.h"

static int section(int argc, char **argv)
{
	static const char *const word[] = {
		[SEC_OK] = "ok", [SEC_WRONG] = "wrong",
		[SEC_MISSING] = "missing", [SEC_NOFILE] = "nofile",
		[SEC_ERROR] = "error",
	};
	char where[256] = "";
	enum sec_result r;

	if (argc != 5) {
		fprintf(stderr, "usage: symbolize -o|-v FILE NAME SECTION\n");
		return RC_USAGE;
	}
	if (!strcmp(argv[1], "-o"))
		r = elf_check_object(argv[2], argv[3], argv[4], where,
				     sizeof(where));
	else
		r = elf_check_vmlinux(argv[2], argv[3], "fixture.c", argv[4],
				      where, sizeof(where));
	if (r == SEC_OK || r == SEC_WRONG)
		printf("%s %s\n", word[r], where);
	else
		printf("%s\n", word[r]);
	return r == SEC_OK ? 0 : 1;
}

int main(int argc, char **argv)
{
	char name[256];

	if (argc > 1 && (!strcmp(argv[1], "-o") || !strcmp(argv[1], "-v")))
		return section(argc, argv);
	if (argc == 5 && !strcmp(argv[1], "-m")) {
		if (elf_module_symbolize(argv[2], argv[3],
					 strtoull(argv[4], NULL, 16), name,
					 sizeof(name)))
			return 1;
		printf("%s\n", name);
		return 0;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: symbolize FILE ADDR\n");
		return RC_USAGE;
	}
	if (elf_symbolize(argv[1], strtoull(argv[2], NULL, 16), name,
			  sizeof(name)))
		return 1;
	printf("%s\n", name);
	return 0;
}
