/* SPDX-License-Identifier: BSD-2-Clause */
/* Reflected lists (list.h): creation, growth and removal for generated
 * code, which reads and writes elements itself (src/codegen/llvm_list.c). */
#include "list.h"

#include "array.h"
#include "rt.h"
#include "../util/alloc.h"

#include <stdlib.h>
#include <string.h>

static void *owner_at(const kj_list *l, int64_t i)
{
    void *o;
    memcpy(&o, l->data + i * l->itemsize + l->owner_off, sizeof o);
    return o;
}

void kj_list_free(kj_list *l)
{
    if (!l) return;
    if (l->owner_off >= 0)
        for (int64_t i = 0; i < l->len; i++) kj_array_release(owner_at(l, i));
    free(l->data);
    free(l->tmp);
    free(l);
}

static void reserve(kj_list *l, int64_t n)
{
    if (n <= l->cap) return;
    int64_t cap = l->cap ? l->cap : 4;
    while (cap < n) cap += cap >> 1 | 1; /* CPython's growth is ~1.125x; 1.5x amortises the same */
    l->data = realloc(l->data, (size_t)(cap * l->itemsize));
    if (!l->data) abort(); /* out of memory: the one failure that is not a value */
    l->cap = cap;
}

void *kj_rt_list_new(kj_rt *rt, int64_t itemsize, int64_t n, int32_t owner_off)
{
    kj_list *l = xcalloc(1, sizeof *l);
    l->itemsize = itemsize > 0 ? itemsize : 1;
    l->owner_off = owner_off;
    l->tmp = xcalloc(1, (size_t)l->itemsize);
    reserve(l, n > 0 ? n : 0);
    if (n > 0) memset(l->data, 0, (size_t)(n * l->itemsize));
    l->len = n > 0 ? n : 0;
    if (rt->nlists == rt->cap_lists) {
        rt->cap_lists = rt->cap_lists ? 2 * rt->cap_lists : 16;
        rt->lists = realloc(rt->lists, rt->cap_lists * sizeof *rt->lists);
        if (!rt->lists) abort();
    }
    rt->lists[rt->nlists++] = l;
    return l;
}

void *kj_rt_list_grow(kj_rt *rt, void *list)
{
    (void)rt;
    kj_list *l = list;
    reserve(l, l->len + 1);
    return l->data + l->len++ * l->itemsize;
}

void kj_rt_list_retain(kj_rt *rt, void *owner)
{
    (void)rt;
    kj_array_retain(owner);
}

void kj_rt_list_drop(kj_rt *rt, void *owner)
{
    if (owner) kj_rt_own(rt, owner);
}

void *kj_rt_list_pop(kj_rt *rt, void *list, int64_t i, int32_t has_index, int32_t line, int32_t col)
{
    kj_list *l = list;
    if (l->len == 0) kj_rt_raise(rt, KJ_RT_INDEX, "pop from empty list", line, col);
    if (!has_index) i = l->len - 1;
    else if (i < 0) i += l->len;
    if (i < 0 || i >= l->len) kj_rt_raise(rt, KJ_RT_INDEX, "pop index out of range", line, col);
    memcpy(l->tmp, l->data + i * l->itemsize, (size_t)l->itemsize);
    memmove(l->data + i * l->itemsize, l->data + (i + 1) * l->itemsize, (size_t)((l->len - i - 1) * l->itemsize));
    l->len--;
    /* the list's reference to a popped array goes to the run, which frees it at the end */
    if (l->owner_off >= 0) {
        void *o;
        memcpy(&o, l->tmp + l->owner_off, sizeof o);
        if (o) kj_rt_own(rt, o);
    }
    return l->tmp;
}

void kj_rt_list_free_all(kj_rt *rt)
{
    for (size_t k = rt->nlists; k-- > 0;) kj_list_free(rt->lists[k]);
    free(rt->lists);
    rt->lists = NULL;
    rt->nlists = rt->cap_lists = 0;
}

static void retain_all(kj_list *l, int64_t from)
{
    if (l->owner_off >= 0)
        for (int64_t i = from; i < l->len; i++) kj_array_retain(owner_at(l, i));
}

void *kj_rt_list_insert(kj_rt *rt, void *list, int64_t i)
{
    (void)rt;
    kj_list *l = list;
    if (i < 0) i = i + l->len < 0 ? 0 : i + l->len;
    if (i > l->len) i = l->len;
    reserve(l, l->len + 1);
    char *p = l->data + i * l->itemsize;
    memmove(p + l->itemsize, p, (size_t)((l->len - i) * l->itemsize));
    l->len++;
    return p;
}

void kj_rt_list_extend(kj_rt *rt, void *list, void *other)
{
    (void)rt;
    kj_list *l = list, *o = other;
    int64_t n = o->len, at = l->len; /* read before growing: o may be l */
    reserve(l, at + n);
    if (n > 0) /* an empty list may have no data yet (memcpy of NULL is undefined even for 0 bytes) */
        memcpy(l->data + at * l->itemsize, o->data, (size_t)(n * l->itemsize));
    l->len = at + n;
    retain_all(l, at);
}

void kj_rt_list_clear(kj_rt *rt, void *list)
{
    kj_list *l = list;
    if (l->owner_off >= 0)
        for (int64_t i = 0; i < l->len; i++) kj_rt_list_drop(rt, owner_at(l, i));
    l->len = 0;
}

void kj_rt_list_reverse(kj_rt *rt, void *list)
{
    (void)rt;
    kj_list *l = list;
    for (int64_t i = 0, j = l->len - 1; i < j; i++, j--) {
        memcpy(l->tmp, l->data + i * l->itemsize, (size_t)l->itemsize);
        memcpy(l->data + i * l->itemsize, l->data + j * l->itemsize, (size_t)l->itemsize);
        memcpy(l->data + j * l->itemsize, l->tmp, (size_t)l->itemsize);
    }
}

void *kj_rt_list_copy(kj_rt *rt, void *list)
{
    kj_list *l = list;
    kj_list *c = kj_rt_list_new(rt, l->itemsize, 0, l->owner_off);
    kj_rt_list_extend(rt, c, l);
    return c;
}

void *kj_rt_list_repeat(kj_rt *rt, void *list, int64_t n)
{
    kj_list *l = list;
    kj_list *c = kj_rt_list_new(rt, l->itemsize, 0, l->owner_off);
    for (int64_t k = 0; k < n; k++) kj_rt_list_extend(rt, c, l);
    return c;
}
