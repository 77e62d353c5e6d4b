/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of Python's tuple operations beyond indexing (Numba's
 * pysupported.rst, "tuple"; numba/cpython/tupleobj.py): comparison of two
 * tuples (lexicographic, as CPython), concatenation t1 + t2, a slice with
 * constant bounds t[1:3] and t.index(x). Lowered by lower_tuple_ops.c. */
#include "sema_int.h"

#include <string.h>

/* Can an element of type a be compared with one of type b by op (ordering
 * operators need an order: no complex numbers)? Tuples recursively. */
static bool elems_comparable(const kj_type *a, const kj_type *b, kj_cmpop op)
{
    bool order = op != KJ_CMP_EQ && op != KJ_CMP_NE;
    if (a->kind == KJ_T_TUPLE && b->kind == KJ_T_TUPLE) {
        for (uint32_t i = 0; i < a->n && i < b->n; i++)
            if (!elems_comparable(a->elems[i], b->elems[i], op)) return false;
        return true;
    }
    if (a->kind == KJ_T_STR || b->kind == KJ_T_STR) return a->kind == b->kind;
    if (!kj_is_scalar(a) || !kj_is_scalar(b)) return false;
    return !order || (!kj_is_complex(a) && !kj_is_complex(b));
}

const kj_type *kj_tuple_compare_type(kj_ictx *ic, const kj_expr *e, kj_cmpop op, const kj_type *l,
                                     const kj_type *r)
{
    if (op == KJ_CMP_IS || op == KJ_CMP_ISNOT || op == KJ_CMP_IN || op == KJ_CMP_NOTIN ||
        !elems_comparable(l, r, op)) {
        kj_error(ic->d, ic->s->src, e->span, "cannot compare '%s' and '%s' with %s", kj_type_str(l),
                 kj_type_str(r), kj_cmpop_str(op));
        return NULL;
    }
    return kj_t_bool(ic->s->types);
}

/* t1 + t2: a tuple of both's elements */
const kj_type *kj_tuple_concat_type(kj_ictx *ic, kj_binop op, const kj_type *l, const kj_type *r, kj_span sp)
{
    if (op != KJ_OP_ADD || l->kind != KJ_T_TUPLE || r->kind != KJ_T_TUPLE) {
        kj_error(ic->d, ic->s->src, sp, "unsupported operand types for %s: '%s' and '%s'", kj_binop_str(op),
                 kj_type_str(l), kj_type_str(r));
        return NULL;
    }
    const kj_type **el = KJ_NEWN(ic->s->a, const kj_type *, l->n + r->n + 1);
    for (uint32_t i = 0; i < l->n; i++) el[i] = kj_strong(ic->s->types, l->elems[i]);
    for (uint32_t i = 0; i < r->n; i++) el[l->n + i] = kj_strong(ic->s->types, r->elems[i]);
    return kj_t_tuple(ic->s->types, el, l->n + r->n);
}

/* One bound of a constant slice: absent or None (false, no error), an int
 * constant (true), anything else an error (*bad). */
static bool bound(const kj_einfo *ei, const kj_expr *p, int64_t *v, bool *bad)
{
    if (!p) return false;
    const kj_einfo *x = &ei[p->id];
    if (x->type && x->type->kind == KJ_T_NONE) return false;
    if (!x->is_const || !x->cval.type || x->cval.type->kind != KJ_T_INT) {
        *bad = true;
        return false;
    }
    *v = x->cval.i;
    return true;
}

/* Python's slice.indices(n) of the constant slice sl (typed in ei):
 * the first index, the step and the count; false when a bound is no
 * constant int or the step is 0. */
bool kj_tuple_slice_bounds(const kj_einfo *ei, const kj_expr *sl, uint32_t n, int64_t *start, int64_t *step,
                           uint32_t *count)
{
    bool bad = false;
    int64_t lo = 0, hi = 0, st = 1, len = (int64_t)n;
    bool has_lo = bound(ei, sl->slice.lo, &lo, &bad), has_hi = bound(ei, sl->slice.hi, &hi, &bad);
    bound(ei, sl->slice.step, &st, &bad);
    if (bad || st == 0) return false;
    if (!has_lo) lo = st < 0 ? len - 1 : 0;
    else if (lo < 0) lo = lo + len < 0 ? (st < 0 ? -1 : 0) : lo + len;
    else if (lo >= len) lo = st < 0 ? len - 1 : len;
    if (!has_hi) hi = st < 0 ? -1 : len;
    else if (hi < 0) hi = hi + len < 0 ? (st < 0 ? -1 : 0) : hi + len;
    else if (hi >= len) hi = st < 0 ? len - 1 : len;
    int64_t c = st > 0 ? (lo < hi ? (hi - lo - 1) / st + 1 : 0) : (hi < lo ? (lo - hi - 1) / -st + 1 : 0);
    *start = lo, *step = st, *count = (uint32_t)c;
    return true;
}

/* t[a:b:c], the bounds constants: the tuple of the elements it selects */
kj_einfo *kj_tuple_slice_type(kj_ictx *ic, const kj_expr *e, const kj_type *tt, kj_einfo *ei)
{
    const kj_expr *sl = e->sub.index;
    const kj_expr *parts[3] = {sl->slice.lo, sl->slice.hi, sl->slice.step};
    for (int k = 0; k < 3; k++)
        if (parts[k] && kj_type_expr(ic, parts[k])->kind != EI_VALUE) return ei_value(ei, NULL);
    int64_t start, step;
    uint32_t count;
    if (!kj_tuple_slice_bounds(ic->sp->ei, sl, tt->n, &start, &step, &count)) {
        kj_diag *dg = kj_error(ic->d, ic->s->src, sl->span,
                               "a tuple slice needs constant integer bounds and a nonzero step");
        kj_diag_hint(dg, "the slice decides the result's type, so it must be known when the program compiles");
        return ei_value(ei, NULL);
    }
    const kj_type **el = KJ_NEWN(ic->s->a, const kj_type *, count + 1);
    for (uint32_t k = 0; k < count; k++) el[k] = tt->elems[start + (int64_t)k * step];
    return ei_value(ei, kj_t_tuple(ic->s->types, el, count));
}

/* t.index(x): int64, x comparable with every element */
const kj_type *kj_tuple_index_type(kj_types *T, const kj_barg *args, uint32_t nargs, kj_span sp,
                                   const kj_source *src, kj_diags *d)
{
    if (nargs < 2 || !args[0].type || !args[1].type || args[0].type->kind != KJ_T_TUPLE) {
        kj_error(d, src, sp, "tuple.index() takes a tuple as its receiver and one argument");
        return NULL;
    }
    for (uint32_t i = 0; i < args[0].type->n; i++)
        if (!elems_comparable(args[0].type->elems[i], args[1].type, KJ_CMP_EQ)) {
            kj_error(d, src, args[1].span, "tuple.index(x): cannot compare %s with the tuple's element %s",
                     kj_type_str(args[1].type), kj_type_str(args[0].type->elems[i]));
            return NULL;
        }
    return kj_t_int(T, 64, true);
}
