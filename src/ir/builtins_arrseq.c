/* SPDX-License-Identifier: BSD-2-Clause */
/* np.array of sequences that are not nested displays of numbers
 * (builtins_np_manip.c's type_asarray asks here first): a tuple or list
 * display of arrays of one number of dimensions is their stack, one
 * dimension more, NumPy's promoted dtype (llvm_np_manip.c: a join whose
 * ragged shapes raise NumPy's "inhomogeneous shape" ValueError at run
 * time); a list value of tuples of numbers, all of one type, is a 2-d
 * array of (len, tuple length) (rt_list_array.c). */
#include "builtins_mctx.h"

static const kj_type *seq_of_arrays(const mctx *c, const kj_type *x, const kj_type *elem)
{
    const kj_type *e = NULL;
    int nd = x->elems[0]->ndim;
    for (uint32_t k = 0; k < x->n; k++) {
        const kj_type *a = x->elems[k];
        if (a->kind != KJ_T_ARRAY || a->ndim != nd || !kj_is_scalar(a->elem)) {
            kj_error(c->d, c->src, span_of(c, 0), "setting an array element with a sequence. The requested array "
                     "has an inhomogeneous shape after 1 dimensions. The detected shape was (%u,) + inhomogeneous "
                     "part.", x->n);
            return NULL;
        }
        e = e ? kj_promote(c->t, e, a->elem) : a->elem;
    }
    if (nd + 1 > 4) {
        kj_error(c->d, c->src, span_of(c, 0), "%s() makes an array of %d dimensions; kjit arrays have 1 to 4",
                 c->name, nd + 1);
        return NULL;
    }
    return kj_t_array(c->t, elem ? elem : e, nd + 1, KJ_LAYOUT_C);
}

static const kj_type *list_of_tuples(const mctx *c, const kj_type *x, const kj_type *elem)
{
    const kj_type *t = x->elem, *e = t->n ? t->elems[0] : NULL;
    for (uint32_t k = 0; k < t->n; k++)
        if (t->elems[k] != e || !kj_is_scalar(e)) {
            kj_error(c->d, c->src, span_of(c, 0), "%s() of a list of tuples takes tuples of numbers of one type, "
                     "not %s", c->name, kj_type_str(t));
            return NULL;
        }
    if (!e) {
        kj_error(c->d, c->src, span_of(c, 0), "%s() of a list of empty tuples is not supported", c->name);
        return NULL;
    }
    return kj_t_array(c->t, elem ? elem : kj_strong(c->t, e), 2, KJ_LAYOUT_C);
}

const kj_type *kj_type_array_seq(const mctx *c, const kj_type *x, const kj_type *elem, bool *taken)
{
    *taken = true;
    if (x->kind == KJ_T_TUPLE && x->n && x->elems[0]->kind == KJ_T_ARRAY) return seq_of_arrays(c, x, elem);
    if (x->kind == KJ_T_LIST && x->elem && x->elem->kind == KJ_T_TUPLE) return list_of_tuples(c, x, elem);
    *taken = false;
    return NULL;
}
