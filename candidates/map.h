/* SPDX-License-Identifier: GPL-2.0 */
/*
 * map: a hash map from 64-bit keys to 32-bit values (open addressing).
 * Keys are usually two string ids packed together with map_key().
 */
#ifndef CANDIDATES_MAP_H
#define CANDIDATES_MAP_H

#include <stdint.h>

#define MAP_NONE UINT32_MAX

struct map {
	uint64_t *keys;
	uint32_t *vals;		/* MAP_NONE marks an empty slot */
	uint32_t cap;		/* power of two */
	uint32_t n;
};

static inline uint64_t map_key(uint32_t a, uint32_t b)
{
	return ((uint64_t)a << 32) | b;
}

void map_init(struct map *m);
void map_free(struct map *m);
uint32_t map_get(const struct map *m, uint64_t key);
void map_put(struct map *m, uint64_t key, uint32_t val);

#endif
