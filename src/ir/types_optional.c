/* SPDX-License-Identifier: BSD-2-Clause */
/* Numba's Optional type (numba/core/types/misc.py Optional, numba/core/typing/context.py
 * unify_pairs): a variable bound to None on one path and to a value of type T on another holds
 * Optional(T), as does a function that returns None (or nothing) on one path and a T on another.
 * Here: which types may be optional and the unification rule; infer_optional.c types the uses,
 * lower_optional.c lowers them, llvm_optional.c prints them. */
#include "types.h"

bool kj_optional_elem_ok(const kj_type *elem)
{
    if (!elem) return false;
    switch (elem->kind) {
    case KJ_T_BOOL: case KJ_T_INT: case KJ_T_FLOAT: case KJ_T_COMPLEX: case KJ_T_ARRAY: case KJ_T_STR:
    case KJ_T_LIST: case KJ_T_DICT: case KJ_T_SET: case KJ_T_RANGE:
        return true;
    case KJ_T_TUPLE: /* a tuple whose elements are values (a tuple of None is not) */
        for (uint32_t i = 0; i < elem->n; i++)
            if (elem->elems[i]->kind != KJ_T_OPTIONAL && !kj_optional_elem_ok(elem->elems[i])) return false;
        return true;
    default: return false; /* none, functions, dtypes, handles, generators */
    }
}

const kj_type *kj_unify_opt(kj_types *t, const kj_type *a, const kj_type *b)
{
    if (!a || !b) return NULL;
    if (a == b) return a;
    if (b->kind == KJ_T_NONE || (b->kind == KJ_T_OPTIONAL && a->kind != KJ_T_NONE && a->kind != KJ_T_OPTIONAL)) {
        const kj_type *s = a; /* the none or optional one first */
        a = b;
        b = s;
    }
    if (a->kind == KJ_T_NONE) return kj_t_optional(t, b); /* none with T or Optional(T) */
    if (a->kind != KJ_T_OPTIONAL) return kj_unify(t, a, b);
    if (b->kind == KJ_T_NONE) return a;
    const kj_type *u = kj_unify(t, a->elem, kj_strong(t, b->kind == KJ_T_OPTIONAL ? b->elem : b));
    return u ? kj_t_optional(t, u) : NULL;
}
