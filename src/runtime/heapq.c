/* SPDX-License-Identifier: BSD-2-Clause */
/* The heapq module over reflected lists (rtfns.def HEAPQ): CPython's
 * Lib/heapq.py algorithms (_siftdown, _siftup), which Numba's
 * numba/cpython/heapq.py compiles, with elements compared by `<` as
 * list.sort compares them (list_sort.c's order: numbers, strings, tuples
 * of numbers). nsmallest/nlargest give what Numba's give: the n smallest
 * (largest) elements in sorted (reverse-sorted) order. */
#include "heapq.h"

#include "list.h"
#include "rt.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    kj_list *l;
    const void *order;
    char *item; /* a scratch element (siftdown's) */
    char *ret;  /* heappop's result while the heap is sifted */
} heap;

static char *at(const heap *h, int64_t i) { return h->l->data + i * h->l->itemsize; }
static void put(const heap *h, int64_t i, const void *v) { memcpy(at(h, i), v, (size_t)h->l->itemsize); }
static bool lt(const heap *h, const void *a, const void *b) { return kj_list_order_lt(h->order, a, b); }

/* heapq._siftdown: the element at pos moves up towards startpos. */
static void siftdown(const heap *h, int64_t startpos, int64_t pos)
{
    memcpy(h->item, at(h, pos), (size_t)h->l->itemsize);
    while (pos > startpos) {
        int64_t parentpos = (pos - 1) >> 1;
        if (!lt(h, h->item, at(h, parentpos))) break;
        put(h, pos, at(h, parentpos));
        pos = parentpos;
    }
    put(h, pos, h->item);
}

/* heapq._siftup: the smaller child moves up until a leaf, then _siftdown. */
static void siftup(const heap *h, int64_t pos)
{
    int64_t endpos = h->l->len, startpos = pos, childpos = 2 * pos + 1;
    char *newitem = malloc((size_t)h->l->itemsize);
    if (!newitem) abort(); /* out of memory: the one failure that is not a value */
    memcpy(newitem, at(h, pos), (size_t)h->l->itemsize);
    while (childpos < endpos) {
        int64_t rightpos = childpos + 1;
        if (rightpos < endpos && !lt(h, at(h, childpos), at(h, rightpos))) childpos = rightpos;
        put(h, pos, at(h, childpos));
        pos = childpos;
        childpos = 2 * pos + 1;
    }
    put(h, pos, newitem);
    free(newitem);
    siftdown(h, startpos, pos);
}

/* The n smallest (largest) of l, sorted (reverse-sorted), as a new list. */
static void *select_n(kj_rt *rt, kj_list *l, const char *desc, int64_t n, bool largest)
{
    kj_list *c = kj_rt_list_copy(rt, l);
    kj_rt_list_sort(rt, c, desc, largest);
    if (n < c->len) c->len = n < 0 ? 0 : n;
    return c;
}

/* One operation; the errors were raised before (nothing to free here). */
static void *heap_op(kj_rt *rt, const heap *h, kj_heapq_op op, const void *item)
{
    kj_list *l = h->l;
    size_t sz = (size_t)l->itemsize;
    switch (op) {
    case KJ_HQ_HEAPIFY:
        for (int64_t i = l->len / 2 - 1; i >= 0; i--) siftup(h, i);
        return NULL;
    case KJ_HQ_HEAPPUSH:
        memcpy(kj_rt_list_grow(rt, l), item, sz);
        siftdown(h, 0, l->len - 1);
        return NULL;
    case KJ_HQ_HEAPPOP:
        l->len--;
        memcpy(l->tmp, at(h, l->len), sz); /* lastelt */
        if (l->len > 0) {
            memcpy(h->ret, at(h, 0), sz); /* returnitem */
            put(h, 0, l->tmp);
            siftup(h, 0);
            memcpy(l->tmp, h->ret, sz);
        }
        return l->tmp;
    case KJ_HQ_HEAPREPLACE:
        memcpy(l->tmp, at(h, 0), sz);
        put(h, 0, item);
        siftup(h, 0);
        return l->tmp;
    case KJ_HQ_HEAPPUSHPOP:
        if (l->len > 0 && lt(h, at(h, 0), item)) {
            memcpy(l->tmp, at(h, 0), sz);
            put(h, 0, item);
            siftup(h, 0);
        } else {
            memcpy(l->tmp, item, sz);
        }
        return l->tmp;
    default: return NULL;
    }
}

void *kj_rt_heapq(kj_rt *rt, int32_t op, void *list, const void *item, const char *desc, int64_t n, int32_t line,
                  int32_t col)
{
    kj_list *l = list;
    if (op == KJ_HQ_NSMALLEST || op == KJ_HQ_NLARGEST) return select_n(rt, l, desc, n, op == KJ_HQ_NLARGEST);
    if (op < 0 || op > KJ_HQ_HEAPPUSHPOP) kj_rt_raise(rt, KJ_RT_RUNTIME, "unknown heapq operation", line, col);
    /* Numba's messages: heappop is list.pop, heapreplace reads heap[0] (CPython's words) */
    if (l->len == 0 && op == KJ_HQ_HEAPPOP) kj_rt_raise(rt, KJ_RT_INDEX, "pop from empty list", line, col);
    if (l->len == 0 && op == KJ_HQ_HEAPREPLACE) kj_rt_raise(rt, KJ_RT_INDEX, "index out of range", line, col);
    heap h = {.l = l, .order = kj_list_order_new(desc, l->itemsize), .item = malloc((size_t)l->itemsize),
              .ret = malloc((size_t)l->itemsize)};
    if (!h.item || !h.ret) abort();
    /* an item inside the list's own memory (heappush(h, h[0])) would move with it */
    char *copy = NULL;
    if (item) {
        copy = malloc((size_t)l->itemsize);
        if (!copy) abort();
        memcpy(copy, item, (size_t)l->itemsize);
    }
    void *r = heap_op(rt, &h, (kj_heapq_op)op, copy);
    free(copy);
    free(h.item);
    free(h.ret);
    free((void *)h.order);
    return r;
}
