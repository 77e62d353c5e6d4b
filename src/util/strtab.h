/* SPDX-License-Identifier: BSD-2-Clause */
/* A string-keyed hash table in an arena: name → uint32_t, open addressing
 * with linear probing (FNV-1a). The front end uses it wherever names are
 * looked up as they are collected (parameters, keywords, local variables),
 * so that a function of N names costs O(N), not O(N²).
 *
 *   kj_strtab t = {0};
 *   kj_strtab_put(arena, &t, "x", 0);   // true: inserted
 *   uint32_t v; kj_strtab_get(&t, "x", &v);
 *
 * Keys are not copied: they must live as long as the table (arena strings). */
#ifndef KJ_STRTAB_H
#define KJ_STRTAB_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"

typedef struct kj_strtab_slot {
    const char *key; /* NULL: empty */
    uint32_t val;
} kj_strtab_slot;

typedef struct kj_strtab {
    kj_strtab_slot *v;
    uint32_t cap; /* 0 or a power of two */
    uint32_t n;
} kj_strtab;

uint32_t kj_str_hash(const char *s);

/* The value stored under `key`, or false when absent. */
bool kj_strtab_get(const kj_strtab *t, const char *key, uint32_t *val);

/* Store key → val unless the key is present already (the first value wins,
 * as a linear search from the start would find). Returns whether it was
 * inserted. Grows (in the arena) to stay at most half full. */
bool kj_strtab_put(kj_arena *a, kj_strtab *t, const char *key, uint32_t val);

#endif
