// SPDX-License-Identifier: GPL-2.0
/*
 * strtab.c - string interning with FNV-1a hashing and linear probing.
 * Strings live in large arena chunks that are never freed one by one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "strtab.h"

#define CHUNK_SIZE (1 << 20)

static uint32_t hash_str(const char *s)
{
	return (uint32_t)fnv1a(FNV1A_INIT, s, strlen(s));
}

void strtab_init(struct strtab *t)
{
	memset(t, 0, sizeof(*t));
	t->nslots = 1024;
	t->slots = xcalloc(t->nslots, sizeof(*t->slots));
}

void strtab_free(struct strtab *t)
{
	/* Arena chunks are released at exit; only the tables go here. */
	free(t->strs);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

void strtab_destroy(struct strtab *t)
{
	void **b, **next;

	for (b = t->blocks; b; b = next) {
		next = *b;
		free(b);
	}
	strtab_free(t);
}

/*
 * A block of SIZE bytes for strings, chained in front of its first
 * pointer-sized bytes so that strtab_destroy can free it.
 */
static char *block(struct strtab *t, size_t size)
{
	void **b = xmalloc(sizeof(void *) + size);

	*b = t->blocks;
	t->blocks = b;
	return (char *)(b + 1);
}

static char *arena_copy(struct strtab *t, const char *s)
{
	size_t len = strlen(s) + 1;
	char *p;

	if (len > CHUNK_SIZE / 4)
		return memcpy(block(t, len), s, len);
	if (len > t->chunk_left) {
		t->chunk = block(t, CHUNK_SIZE);
		t->chunk_left = CHUNK_SIZE;
	}
	p = t->chunk;
	memcpy(p, s, len);
	t->chunk += len;
	t->chunk_left -= len;
	return p;
}

static void grow(struct strtab *t)
{
	uint32_t nslots = t->nslots * 2;
	uint32_t *slots = xcalloc(nslots, sizeof(*slots));
	uint32_t i;

	for (i = 0; i < t->n; i++) {
		uint32_t h = hash_str(t->strs[i]) & (nslots - 1);

		while (slots[h])
			h = (h + 1) & (nslots - 1);
		slots[h] = i + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = nslots;
}

uint32_t strtab_find(const struct strtab *t, const char *s)
{
	uint32_t h = hash_str(s) & (t->nslots - 1);

	while (t->slots[h]) {
		uint32_t id = t->slots[h] - 1;

		if (!strcmp(t->strs[id], s))
			return id;
		h = (h + 1) & (t->nslots - 1);
	}
	return STR_NONE;
}

uint32_t strtab_intern(struct strtab *t, const char *s)
{
	uint32_t h, id;

	if (!strcmp(s, "-"))
		return STR_NONE;
	id = strtab_find(t, s);
	if (id != STR_NONE)
		return id;
	if ((t->n + 1) * 2 > t->nslots)
		grow(t);
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 1024;
		t->strs = xrealloc(t->strs, t->cap * sizeof(*t->strs));
	}
	id = t->n++;
	t->strs[id] = arena_copy(t, s);
	h = hash_str(s) & (t->nslots - 1);
	while (t->slots[h])
		h = (h + 1) & (t->nslots - 1);
	t->slots[h] = id + 1;
	return id;
}
