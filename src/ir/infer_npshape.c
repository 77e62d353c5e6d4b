/* SPDX-License-Identifier: BSD-2-Clause */
/* infer_npshape — what the expressions of builtins_npshape.h's wrappers and
 * arrays type to beyond calls: a.flat[i] (an element of the array in C
 * order; numpysupported.rst "The flat object": iteration and indexing) and
 * `x in a` (ndarray.__contains__). lower_npshape.c lowers them. */
#include "sema_int.h"
#include "builtins.h"

kj_einfo *kj_type_flat_subscript(kj_ictx *ic, const kj_expr *e, const kj_type *ft, kj_einfo *ei)
{
    const kj_expr *ix = e->sub.index;
    const kj_type *it = ix->kind == KJ_E_SLICE ? NULL : kj_value_type(ic, ix);
    if (ix->kind == KJ_E_SLICE || (it && !kj_is_int(it))) {
        kj_error(ic->d, ic->s->src, ix->span, "a.flat[...] takes one integer index in kjit, not %s",
                 ix->kind == KJ_E_SLICE ? "a slice" : kj_type_str(it));
        return ei_value(ei, NULL);
    }
    return ei_value(ei, it ? ft->elems[0]->elem : NULL);
}

const kj_type *kj_array_in_type(kj_ictx *ic, const kj_expr *e, const kj_type *x, const kj_type *a)
{
    kj_barg ba[2] = {{.type = a, .span = e->span}, {.type = x, .span = e->span}};
    return kj_builtin_type(ic->s->types, KJ_B_ARR_CONTAINS, NULL, ba, 2, e->span, ic->s->src, ic->d, NULL);
}
