// SPDX-License-Identifier: GPL-2.0
/*
 * elfcheck.c - the section check, by reading ELF symbol tables.
 *
 * A conversion the compiler never saw is untested: the variable's symbol
 * must sit in the section of its annotation in its object file (or
 * module): .data..ro_after_init, .init.data (__initdata) or .init.rodata
 * (__initconst); and in vmlinux between __start_ro_after_init and
 * __end_ro_after_init (the linker folds the input section into .rodata
 * there), or, for the init sections, between __init_begin and __init_end.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "validate.h"

#define RO_SECTION ".data..ro_after_init"

/* The symbols around SEC in vmlinux. */
static void range_syms(const char *sec, const char **start, const char **end)
{
	if (!strcmp(sec, RO_SECTION)) {
		*start = "__start_ro_after_init";
		*end = "__end_ro_after_init";
	} else {
		*start = "__init_begin";
		*end = "__init_end";
	}
}

struct elf {
	const unsigned char *map;
	size_t size;
	const Elf64_Shdr *sh;
	int nsh;
	const char *shstr;
	const Elf64_Sym *sym;
	size_t nsym;
	const char *str;
	size_t strsize;
};

static void elf_close(struct elf *e)
{
	if (e->map)
		munmap((void *)e->map, e->size);
}

static int in_file(const struct elf *e, size_t off, size_t len)
{
	return off <= e->size && len <= e->size - off;
}

/* 0 opened; SEC_NOFILE or SEC_ERROR otherwise. */
static int elf_open(struct elf *e, const char *path)
{
	const Elf64_Ehdr *eh;
	struct stat st;
	int fd, i;

	memset(e, 0, sizeof(*e));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? SEC_NOFILE : SEC_ERROR;
	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(*eh)) {
		close(fd);
		return SEC_ERROR;
	}
	e->size = st.st_size;
	e->map = mmap(NULL, e->size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (e->map == MAP_FAILED) {
		e->map = NULL;
		return SEC_ERROR;
	}
	eh = (const Elf64_Ehdr *)e->map;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    !in_file(e, eh->e_shoff, (size_t)eh->e_shnum * sizeof(Elf64_Shdr)) ||
	    eh->e_shstrndx >= eh->e_shnum)
		goto bad;
	e->sh = (const Elf64_Shdr *)(e->map + eh->e_shoff);
	e->nsh = eh->e_shnum;
	if (!in_file(e, e->sh[eh->e_shstrndx].sh_offset,
		     e->sh[eh->e_shstrndx].sh_size))
		goto bad;
	e->shstr = (const char *)e->map + e->sh[eh->e_shstrndx].sh_offset;
	for (i = 0; i < e->nsh; i++) {
		const Elf64_Shdr *s = &e->sh[i], *ss;

		if (s->sh_type != SHT_SYMTAB || s->sh_link >= (unsigned int)e->nsh)
			continue;
		ss = &e->sh[s->sh_link];
		if (!in_file(e, s->sh_offset, s->sh_size) ||
		    !in_file(e, ss->sh_offset, ss->sh_size))
			goto bad;
		e->sym = (const Elf64_Sym *)(e->map + s->sh_offset);
		e->nsym = s->sh_size / sizeof(Elf64_Sym);
		e->str = (const char *)e->map + ss->sh_offset;
		e->strsize = ss->sh_size;
		return 0;
	}
bad:
	elf_close(e);
	return SEC_ERROR;
}

static const char *sym_name(const struct elf *e, const Elf64_Sym *s)
{
	if (s->st_name >= e->strsize)
		return "";
	return e->str + s->st_name;
}

static const char *sec_name(const struct elf *e, unsigned int idx)
{
	if (idx == SHN_COMMON)
		return "COMMON";
	if (idx == SHN_UNDEF || idx >= (unsigned int)e->nsh)
		return "UNDEF";
	return e->shstr + e->sh[idx].sh_name;
}

static int is_data_sym(const Elf64_Sym *s)
{
	int t = ELF64_ST_TYPE(s->st_info);

	return (t == STT_OBJECT || t == STT_NOTYPE) && s->st_shndx != SHN_UNDEF;
}

/* An object file or a module: the symbol's section is WANT. */
enum sec_result elf_check_object(const char *path, const char *name,
				 const char *want, char *where, size_t wlen)
{
	const char *sec = NULL;
	struct elf e;
	size_t i;
	int r;

	r = elf_open(&e, path);
	if (r)
		return r;
	for (i = 1; i < e.nsym; i++) {
		const Elf64_Sym *s = &e.sym[i];

		if (!is_data_sym(s) || strcmp(sym_name(&e, s), name))
			continue;
		sec = sec_name(&e, s->st_shndx);
		if (!strcmp(sec, want))
			break;
	}
	snprintf(where, wlen, "%s", sec ? sec : "-");
	r = !sec ? SEC_MISSING : strcmp(sec, want) ? SEC_WRONG : SEC_OK;
	elf_close(&e);
	return r;
}

static int find_value(const struct elf *e, const char *name,
		      unsigned long long *v)
{
	size_t i;

	for (i = 1; i < e->nsym; i++)
		if (!strcmp(sym_name(e, &e->sym[i]), name)) {
			*v = e->sym[i].st_value;
			return 0;
		}
	return -1;
}

/*
 * vmlinux: the symbol's address must be inside the range of WANT (the
 * ro_after_init range, or the init range for .init.data and .init.rodata).
 * Local symbols follow the STT_FILE symbol of their source file, which is
 * how two statics of the same name are told apart.
 */
enum sec_result elf_check_vmlinux(const char *path, const char *name,
				  const char *srcfile, const char *want,
				  char *where, size_t wlen)
{
	const char *s_start, *s_end;
	unsigned long long start, end, found = 0;
	size_t i, hit = 0;
	const char *base = strrchr(srcfile, '/'), *file = "";
	int r, any = 0, inside = 0;
	struct elf e;

	base = base ? base + 1 : srcfile;
	r = elf_open(&e, path);
	if (r)
		return r;
	range_syms(want, &s_start, &s_end);
	if (find_value(&e, s_start, &start) || find_value(&e, s_end, &end)) {
		elf_close(&e);
		return SEC_ERROR;
	}
	for (i = 1; i < e.nsym; i++) {
		const Elf64_Sym *s = &e.sym[i];

		if (ELF64_ST_TYPE(s->st_info) == STT_FILE) {
			file = sym_name(&e, s);
			continue;
		}
		if (!is_data_sym(s) || strcmp(sym_name(&e, s), name))
			continue;
		if (ELF64_ST_BIND(s->st_info) == STB_LOCAL && *file &&
		    strcmp(file, base))
			continue;
		any = 1;
		hit = i;
		found = s->st_value;
		if (s->st_value >= start && s->st_value < end) {
			inside = 1;
			break;
		}
	}
	snprintf(where, wlen, "%s:0x%llx",
		 any ? sec_name(&e, e.sym[hit].st_shndx) : "-", found);
	elf_close(&e);
	if (!any)
		return SEC_MISSING;
	return inside ? SEC_OK : SEC_WRONG;
}

/*
 * The data symbol of vmlinux that holds addr: 0 found, -1 not.  An object
 * of nonzero size that contains addr wins over a zero-size one (an empty
 * struct such as lock_class_key without lockdep) at the same address.
 */
int elf_symbolize(const char *vmlinux, unsigned long long addr,
		  char *name, size_t len)
{
	struct elf e;
	size_t i, zero = 0;

	if (elf_open(&e, vmlinux))
		return -1;
	for (i = 1; i < e.nsym; i++) {
		const Elf64_Sym *s = &e.sym[i];

		if (ELF64_ST_TYPE(s->st_info) != STT_OBJECT ||
		    addr < s->st_value)
			continue;
		if (!s->st_size && addr == s->st_value && !zero)
			zero = i;
		if (addr - s->st_value < s->st_size)
			break;
	}
	if (i == e.nsym)
		i = zero;
	if (i)
		snprintf(name, len, "%s", sym_name(&e, &e.sym[i]));
	elf_close(&e);
	return i ? 0 : -1;
}

/*
 * Does the object or module at PATH define the function NAME (gcc's
 * "NAME.cold" or "NAME.isra.0" included)?  1 yes, 0 no, -1 not readable.
 */
int elf_defines_func(const char *path, const char *name)
{
	size_t i, l = strlen(name);
	struct elf e;
	int r = 0;

	if (elf_open(&e, path))
		return -1;
	for (i = 1; i < e.nsym && !r; i++) {
		const Elf64_Sym *s = &e.sym[i];
		const char *n = sym_name(&e, s);

		if (ELF64_ST_TYPE(s->st_info) != STT_FUNC ||
		    s->st_shndx == SHN_UNDEF || strncmp(n, name, l))
			continue;
		r = !n[l] || n[l] == '.';
	}
	elf_close(&e);
	return r;
}

/*
 * A module (a relocatable object): the data symbol at offset OFF of its
 * section SEC, which is where a symbol's st_value counts from.  0 found
 * (its name in NAME), -1 not: no such section, OFF past its end, or no
 * object there.
 */
int elf_module_symbolize(const char *path, const char *sec,
			 unsigned long long off, char *name, size_t len)
{
	struct elf e;
	size_t i;
	int idx, found = -1;

	if (elf_open(&e, path))
		return -1;
	for (idx = 1; idx < e.nsh; idx++)
		if (!strcmp(sec_name(&e, idx), sec))
			break;
	if (idx == e.nsh || off >= e.sh[idx].sh_size) {
		elf_close(&e);
		return -1;
	}
	for (i = 1; i < e.nsym; i++) {
		const Elf64_Sym *s = &e.sym[i];

		if (ELF64_ST_TYPE(s->st_info) != STT_OBJECT ||
		    s->st_shndx != idx || off < s->st_value ||
		    off - s->st_value >= (s->st_size ? s->st_size : 1))
			continue;
		snprintf(name, len, "%s", sym_name(&e, s));
		found = 0;
		break;
	}
	elf_close(&e);
	return found;
}
