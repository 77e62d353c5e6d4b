/* SPDX-License-Identifier: BSD-2-Clause */
/* Arena allocation: one arena per compilation unit, freed in one go (QBE's
 * per-function pool). Every allocation is zeroed and 16-byte aligned. */
#ifndef KJ_ARENA_H
#define KJ_ARENA_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

typedef struct kj_arena_chunk kj_arena_chunk;

typedef struct kj_arena {
    kj_arena_chunk *head;
    size_t total; /* bytes handed out, for statistics */
} kj_arena;

void kj_arena_init(kj_arena *a);
void kj_arena_free(kj_arena *a);
void *kj_arena_alloc(kj_arena *a, size_t n);
/* Grow an arena-allocated array: returns a copy of `old` (n_old elements)
 * in a buffer of n_new elements; the old buffer is simply abandoned. */
void *kj_arena_grow(kj_arena *a, const void *old, size_t n_old, size_t n_new, size_t elem);
char *kj_arena_strndup(kj_arena *a, const char *s, size_t n);
char *kj_arena_strdup(kj_arena *a, const char *s);
char *kj_arena_printf(kj_arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *kj_arena_vprintf(kj_arena *a, const char *fmt, va_list ap);

#define KJ_NEW(a, T) ((T *)kj_arena_alloc((a), sizeof(T)))
#define KJ_NEWN(a, T, n) ((T *)kj_arena_alloc((a), sizeof(T) * (size_t)(n)))

/* A growable array living in an arena:
 *   KJ_VEC(int) v = {0};  KJ_PUSH(arena, v, 42);  v.v[0] == 42, v.n == 1 */
#define KJ_VEC(T) struct { T *v; uint32_t n, cap; }
#define KJ_PUSH(arena, vec, x) KJ_PUSH_FROM(arena, vec, x, 8)
/* The same, with the first allocation holding `first` elements. */
#define KJ_PUSH_FROM(arena, vec, x, first)                                              \
    do {                                                                                \
        if ((vec).n == (vec).cap) {                                                     \
            uint32_t nc_ = (vec).cap ? (vec).cap * 2 : (first);                         \
            (vec).v = kj_arena_grow((arena), (vec).v, (vec).n, nc_, sizeof(*(vec).v)); \
            (vec).cap = nc_;                                                            \
        }                                                                               \
        (vec).v[(vec).n++] = (x);                                                       \
    } while (0)

#endif
