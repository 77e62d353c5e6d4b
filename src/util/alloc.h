/* SPDX-License-Identifier: BSD-2-Clause */
/* malloc, calloc and strdup that do not return NULL. Out of memory is the
 * one failure library code does not report as a value (docs/architecture.md,
 * "Errors are values"): it says so on stderr and aborts. For memory that
 * outlives an arena (caches, texts kept with a module, the host pipeline's
 * parts); compile-time data lives in arenas (arena.h). */
#ifndef KJ_ALLOC_H
#define KJ_ALLOC_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void *kj_oom_check(void *p)
{
    if (!p) {
        fputs("kjit: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* n may be 0 (a unique pointer, freed as any other). */
static inline void *xmalloc(size_t n) { return kj_oom_check(malloc(n ? n : 1)); }

/* Zeroed; n may be 0. */
static inline void *xcalloc(size_t n, size_t size) { return kj_oom_check(calloc(n ? n : 1, size)); }

/* A copy of s; NULL copies as "" (a text that was not kept). */
static inline char *xstrdup(const char *s) { return kj_oom_check(strdup(s ? s : "")); }

#endif
