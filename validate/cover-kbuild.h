/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cover-kbuild.h - the kbuild rules cover-kbuild.c reads and cover-need.c
 * resolves a file with.
 */
#ifndef COVER_KBUILD_H
#define COVER_KBUILD_H

#include <stddef.h>
#include <stdint.h>

#define MAX_SYMS 16

struct rule {
	char *base;		/* "obj", "lib", "core", ... or a composite */
	uint32_t sym[MAX_SYMS];	/* CONFIG_ symbols of the name and ifs */
	size_t nsym;
	char **vals;
	size_t nvals;
};

struct mkdir {
	char *dir;		/* tree-relative, "" for the top */
	struct rule *rules;
	size_t nrules;
	char **vname, **vval;	/* its plain variables (KVM ?= ...) */
	size_t nvars;
};

/* A member of DIR's lists that names a file elsewhere: PATH in the tree. */
struct foreign {
	char *path;		/* "virt/kvm/kvm_main.o" */
	char *dir;		/* "arch/x86/kvm" */
	char *val;		/* "../../../virt/kvm/kvm_main.o" */
};

/* The foreign members of the kbuild files read so far. */
extern struct foreign *foreigns;
extern size_t nforeigns;

/* The rules of directory DIR: its Kbuild, else its Makefile, read once. */
struct mkdir *get_mkdir(const char *dir);
/* Every kbuild file of the tree, read once for its foreign members. */
void read_all_kbuild(void);

#endif
