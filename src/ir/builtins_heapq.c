/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of the heapq module (Numba's reference/pysupported.rst, "heapq";
 * numba/cpython/heapq.py): the heap a list whose elements `<` orders (as
 * list.sort: real numbers, strings, tuples of real numbers), the item of
 * the list's element type. The lowering is llvm_heapq.c, the algorithms
 * src/runtime/heapq.c. */
#include "builtins_int.h"

/* Argument i: a list of known, ordered elements; its element type or NULL. */
static const kj_type *heap_elem(bctx *c, uint32_t i, const char *what)
{
    const kj_type *l = ty(c, i);
    if (!l || l->kind != KJ_T_LIST) {
        argerr(c, i, what);
        return NULL;
    }
    if (!l->elem) {
        /* Numba cannot type it either: the list needs an element to be typed */
        kj_error(c->d, c->src, span_of(c, i), "%s() of an empty list literal: its element type is unknown", c->name);
        return NULL;
    }
    if (kj_is_complex(l->elem)) {
        kj_error(c->d, c->src, span_of(c, i), "'<' not supported between instances of 'complex' and 'complex'");
        return NULL;
    }
    if (!kj_list_orderable(l->elem)) {
        kj_error(c->d, c->src, span_of(c, i), "%s() of %s is not supported: kjit orders lists of real numbers, "
                 "strings or tuples of real numbers", c->name, kj_type_str(l));
        return NULL;
    }
    return l->elem;
}

/* The item: of the heap's element type (a number converts, as in CPython). */
static bool item_arg(bctx *c, uint32_t i, const kj_type *et)
{
    const kj_type *x = ty(c, i);
    bool real = x && (kj_is_int(x) || x->kind == KJ_T_BOOL || x->kind == KJ_T_FLOAT);
    bool ereal = kj_is_int(et) || et->kind == KJ_T_BOOL || et->kind == KJ_T_FLOAT;
    if (x == et || (real && ereal)) {
        convto(c, i, et);
        return true;
    }
    kj_error(c->d, c->src, span_of(c, i), "heap type must be the same as item type: %s() of a %s into a list of %s",
             c->name, kj_type_str(x), kj_type_str(et));
    return false;
}

const kj_type *kj_btype_heapq(bctx *c)
{
    if (c->id == KJ_B_HEAPQ_NSMALLEST || c->id == KJ_B_HEAPQ_NLARGEST) {
        if (!kj_is_int(ty(c, 0)) && !(ty(c, 0) && ty(c, 0)->kind == KJ_T_BOOL)) return argerr(c, 0, "an integer");
        convto(c, 0, i64(c));
        const kj_type *et = heap_elem(c, 1, "a list");
        return et ? kj_t_list(c->t, et) : NULL;
    }
    const kj_type *et = heap_elem(c, 0, "a list");
    if (!et) return NULL;
    switch (c->id) {
    case KJ_B_HEAPQ_HEAPIFY: return none(c);
    case KJ_B_HEAPQ_HEAPPOP: return et;
    case KJ_B_HEAPQ_HEAPPUSH: return item_arg(c, 1, et) ? none(c) : NULL;
    default: return item_arg(c, 1, et) ? et : NULL; /* heapreplace, heappushpop */
    }
}
