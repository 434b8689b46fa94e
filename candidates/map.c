// SPDX-License-Identifier: GPL-2.0
/*
 * map: 64-bit key to 32-bit value hash map, linear probing, grows at 50%.
 */
#include <stdlib.h>
#include <string.h>

#include "map.h"
#include "strtab.h"

static uint32_t hash_key(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	k ^= k >> 33;
	return (uint32_t)k;
}

static void alloc_slots(struct map *m, uint32_t cap)
{
	m->cap = cap;
	m->keys = xmalloc(cap * sizeof(*m->keys));
	m->vals = xmalloc(cap * sizeof(*m->vals));
	memset(m->vals, 0xff, cap * sizeof(*m->vals));
}

void map_init(struct map *m)
{
	m->n = 0;
	alloc_slots(m, 1024);
}

void map_free(struct map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

static uint32_t *slot(const struct map *m, uint64_t key, uint32_t *idx)
{
	uint32_t h = hash_key(key) & (m->cap - 1);

	while (m->vals[h] != MAP_NONE && m->keys[h] != key)
		h = (h + 1) & (m->cap - 1);
	*idx = h;
	return &m->vals[h];
}

uint32_t map_get(const struct map *m, uint64_t key)
{
	uint32_t idx;

	return *slot(m, key, &idx);
}

static void grow(struct map *m)
{
	uint64_t *keys = m->keys;
	uint32_t *vals = m->vals;
	uint32_t cap = m->cap, i, idx;

	alloc_slots(m, cap * 2);
	for (i = 0; i < cap; i++) {
		if (vals[i] == MAP_NONE)
			continue;
		*slot(m, keys[i], &idx) = vals[i];
		m->keys[idx] = keys[i];
	}
	free(keys);
	free(vals);
}

void map_put(struct map *m, uint64_t key, uint32_t val)
{
	uint32_t *v, idx;

	if ((m->n + 1) * 2 > m->cap)
		grow(m);
	v = slot(m, key, &idx);
	if (*v == MAP_NONE)
		m->n++;
	*v = val;
	m->keys[idx] = key;
}
