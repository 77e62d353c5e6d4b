/* SPDX-License-Identifier: BSD-2-Clause */
#include "arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct kj_arena_chunk {
    kj_arena_chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

enum { CHUNK_MIN = 64 * 1024 };

void kj_arena_init(kj_arena *a) { a->head = NULL; a->total = 0; }

void kj_arena_free(kj_arena *a)
{
    kj_arena_chunk *c = a->head;
    while (c) {
        kj_arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    a->head = NULL;
    a->total = 0;
}

static kj_arena_chunk *new_chunk(size_t need)
{
    size_t cap = need > CHUNK_MIN ? need : CHUNK_MIN;
    kj_arena_chunk *c = malloc(sizeof *c + cap);
    if (!c) {
        /* Out of memory is not a recoverable compile error in any useful
         * sense; die loudly rather than return NULL into every caller. */
        fputs("kjit: out of memory\n", stderr);
        abort();
    }
    c->next = NULL;
    c->used = 0;
    c->cap = cap;
    return c;
}

void *kj_arena_alloc(kj_arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (n == 0) n = 16;
    kj_arena_chunk *c = a->head;
    if (!c || c->cap - c->used < n) {
        c = new_chunk(n);
        c->next = a->head;
        a->head = c;
    }
    void *p = c->data + c->used;
    c->used += n;
    a->total += n;
    memset(p, 0, n);
    return p;
}

void *kj_arena_grow(kj_arena *a, const void *old, size_t n_old, size_t n_new, size_t elem)
{
    void *p = kj_arena_alloc(a, n_new * elem);
    if (old && n_old) memcpy(p, old, n_old * elem);
    return p;
}

char *kj_arena_strndup(kj_arena *a, const char *s, size_t n)
{
    char *p = kj_arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *kj_arena_strdup(kj_arena *a, const char *s) { return kj_arena_strndup(a, s, strlen(s)); }

char *kj_arena_vprintf(kj_arena *a, const char *fmt, va_list ap)
{
    /* fmt is never NULL; saying so lets gcc prove it under -fsanitize=undefined,
     * whose nonnull check otherwise leaves a path with a NULL format that
     * -Wformat-truncation reports (an error under -Werror). */
    if (!fmt) fmt = "";
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) n = 0; /* an encoding error: an empty string */
    char *p = kj_arena_alloc(a, (size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *kj_arena_printf(kj_arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = kj_arena_vprintf(a, fmt, ap);
    va_end(ap);
    return p;
}
