/* SPDX-License-Identifier: BSD-2-Clause */
/* String-keyed hash table in an arena (see strtab.h). */
#include "strtab.h"

#include <string.h>

uint32_t kj_str_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The slot holding `key`, or the empty slot where it would go. */
static kj_strtab_slot *find(const kj_strtab *t, const char *key)
{
    uint32_t mask = t->cap - 1;
    for (uint32_t i = kj_str_hash(key) & mask;; i = (i + 1) & mask)
        if (!t->v[i].key || !strcmp(t->v[i].key, key)) return &t->v[i];
}

bool kj_strtab_get(const kj_strtab *t, const char *key, uint32_t *val)
{
    if (!t->cap) return false;
    const kj_strtab_slot *s = find(t, key);
    if (!s->key) return false;
    if (val) *val = s->val;
    return true;
}

/* Double the table; the old slots are abandoned to the arena. */
static void grow(kj_arena *a, kj_strtab *t)
{
    kj_strtab old = *t;
    t->cap = old.cap ? old.cap * 2 : 16;
    t->v = KJ_NEWN(a, kj_strtab_slot, t->cap); /* zeroed: all empty */
    for (uint32_t i = 0; i < old.cap; i++)
        if (old.v[i].key) *find(t, old.v[i].key) = old.v[i];
}

bool kj_strtab_put(kj_arena *a, kj_strtab *t, const char *key, uint32_t val)
{
    if (2 * (t->n + 1) > t->cap) grow(a, t);
    kj_strtab_slot *s = find(t, key);
    if (s->key) return false;
    s->key = key;
    s->val = val;
    t->n++;
    return true;
}
