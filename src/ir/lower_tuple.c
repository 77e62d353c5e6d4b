/* SPDX-License-Identifier: BSD-2-Clause */
/* lower_tuple — `t[i]` over a homogeneous tuple with an index known only
 * when the program runs (Numba's getitem(UniTuple, intp),
 * numba/cpython/tupleobj.py getitem_unituple): a negative index counts
 * from the end, one out of range raises IndexError('tuple index out of
 * range') whatever the boundscheck setting, as in Numba. The element is
 * chosen by a chain of SELECTs over the tuple's elements (a tuple is a
 * value, not memory, so there is nothing to load from). Inference
 * (infer_expr.c tuple_subscript) refuses heterogeneous tuples, as Numba
 * has no getitem(Tuple(...), intp). */
#include "lower_int.h"

/* a bool-valued a OP b (comparisons, and on bools) */
static kir_ref cmp(lctx *lc, kir_op op, kir_ref a, kir_ref b, kj_span sp)
{
    kir_ref r = kj_lw_emit(lc, op, kj_t_bool(lc->s->types), sp);
    kir_at(lc->f, r)->a = a;
    kir_at(lc->f, r)->b = b;
    return r;
}

kir_ref kj_lower_tuple_index(lctx *lc, const kj_expr *e, kir_ref t, const kj_type *tt)
{
    kj_span sp = e->span;
    const kj_type *i64t = kj_t_int(lc->s->types, 64, true);
    kir_ref i = kj_lw_as(lc, e->sub.index, i64t);
    kir_ref n = kj_lw_i64(lc, (int64_t)tt->n, sp);
    kir_ref w = kj_lw_emit(lc, KIR_WRAP_INDEX, i64t, sp); /* i < 0 ? i + n : i */
    kir_at(lc->f, w)->a = i;
    kir_at(lc->f, w)->b = n;
    kir_ref ok = cmp(lc, KIR_AND, cmp(lc, KIR_GE, w, kj_lw_i64(lc, 0, sp), sp), cmp(lc, KIR_LT, w, n, sp), sp);
    kir_ref as = kj_lw_emit(lc, KIR_ASSERT, NULL, sp);
    kir_inst *in = kir_at(lc->f, as);
    in->a = ok, in->s = "tuple index out of range";
    in->aux = (uint16_t)(KIR_ASSERT_RAISE + kj_exc_class("IndexError"));
    const kj_type *et = tt->elems[0];
    kir_ref r = 0;
    for (uint32_t k = tt->n; k-- > 0;) {
        kir_ref g = kj_lw_emit(lc, KIR_TUPLE_GET, et, sp);
        kir_at(lc->f, g)->a = t;
        kir_at(lc->f, g)->i = k;
        if (k == tt->n - 1) {
            r = g;
            continue;
        }
        kir_ref is_k = cmp(lc, KIR_EQ, w, kj_lw_i64(lc, (int64_t)k, sp), sp);
        kir_ref s = kj_lw_emit(lc, KIR_SELECT, et, sp);
        kir_at(lc->f, s)->a = is_k;
        kir_at(lc->f, s)->b = g;
        kir_at(lc->f, s)->c = r;
        r = s;
    }
    return r;
}
