/* SPDX-License-Identifier: BSD-2-Clause */
/* Counting allocations for the tests that check a prepared call or launch
 * allocates nothing: the test's own malloc family over glibc's, counted in
 * `allocations`. Include it in ONE file of a test program (it defines the
 * functions). Not under ASan, whose allocator this cannot wrap (KJ_ASAN). */
#ifndef KJ_TEST_COUNT_ALLOC_H
#define KJ_TEST_COUNT_ALLOC_H

#include <stdatomic.h>
#include <stddef.h>

#include "util/asan.h"

#if !KJ_ASAN
static atomic_long allocations;
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
void *malloc(size_t n)
{
    atomic_fetch_add(&allocations, 1);
    return __libc_malloc(n);
}
void *calloc(size_t n, size_t size)
{
    atomic_fetch_add(&allocations, 1);
    return __libc_calloc(n, size);
}
void *realloc(void *p, size_t n)
{
    atomic_fetch_add(&allocations, 1);
    return __libc_realloc(p, n);
}
void *aligned_alloc(size_t align, size_t n)
{
    atomic_fetch_add(&allocations, 1);
    return __libc_memalign(align, n);
}
int posix_memalign(void **p, size_t align, size_t n)
{
    atomic_fetch_add(&allocations, 1);
    *p = __libc_memalign(align, n);
    return *p ? 0 : 12 /* ENOMEM */;
}
#endif

#endif
