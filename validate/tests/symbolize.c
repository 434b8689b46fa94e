// SPDX-License-Identifier: GPL-2.0
/*
 * symbolize - print the data symbol of an ELF file that holds an address,
 * with validate's elf_symbolize(), for test-elfcheck.sh.
 *
 * Usage: symbolize FILE ADDR   (ADDR in hex)
 * Exit: 0 found, 1 no symbol holds ADDR, 64 usage.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../validate.h"

int main(int argc, char **argv)
{
	char name[256];

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
