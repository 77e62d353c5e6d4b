/* SPDX-License-Identifier: BSD-2-Clause */
/* lower_npshape — for loops over a.flat, np.ndindex, np.ndenumerate and
 * np.nditer (builtins_npshape.h's wrappers; lower_iter.c's sequences of
 * kind SQ_NP), a.flat[i] read and written, and `x in a`.
 *
 * Each iteration is C order over a shape: the length is the product of the
 * extents and step i is unravelled into one index per dimension (the last
 * varies fastest), as NumPy's flat iterator and ndindex go. An element is an
 * ARRAY_LOAD at those indices, so every layout reads in place. */
#include "lower_int.h"
#include "builtins.h"

static const kj_type *i64t(lctx *lc) { return kj_t_int(lc->s->types, 64, true); }

static kir_ref emit2(lctx *lc, kir_op op, const kj_type *t, kj_span sp, kir_ref a, kir_ref b)
{
    kir_ref r = kj_lw_emit(lc, op, t, sp);
    kir_at(lc->f, r)->a = a;
    kir_at(lc->f, r)->b = b;
    return r;
}

static kir_ref tuple_get(lctx *lc, kir_ref v, const kj_type *et, uint32_t k, kj_span sp)
{
    kir_ref g = kj_lw_emit(lc, KIR_TUPLE_GET, et, sp);
    kir_at(lc->f, g)->a = v;
    kir_at(lc->f, g)->i = k;
    return g;
}

static kir_ref make_tuple(lctx *lc, const kj_type *t, const kir_ref *el, uint32_t n, kj_span sp)
{
    kir_ref r = kj_lw_emit(lc, KIR_TUPLE, t, sp);
    kir_at(lc->f, r)->args = kir_refs(lc->s->a, el, n);
    kir_at(lc->f, r)->nargs = n;
    return r;
}

/* The extents of wrapper w's shape (its array's, or ndindex's tuple). */
static uint32_t extents(lctx *lc, const kj_type *w, kir_ref v, kir_ref *dims, kj_span sp)
{
    const kj_type *x = w->elems[0];
    kir_ref inner = tuple_get(lc, v, x, 0, sp);
    if (kj_npshape_wrapper(w) == KJ_NPW_NDINDEX) {
        for (uint32_t k = 0; k < x->n; k++) dims[k] = tuple_get(lc, inner, i64t(lc), k, sp);
        return x->n;
    }
    for (uint32_t k = 0; k < x->ndim; k++) {
        dims[k] = kj_lw_emit(lc, KIR_ARRAY_DIM, i64t(lc), sp);
        kir_at(lc->f, dims[k])->a = inner;
        kir_at(lc->f, dims[k])->i = k;
    }
    return x->ndim;
}

static kir_ref size_of(lctx *lc, const kir_ref *dims, uint32_t n, kj_span sp)
{
    kir_ref len = kj_lw_i64(lc, 1, sp);
    for (uint32_t k = 0; k < n; k++) len = emit2(lc, KIR_MUL, i64t(lc), sp, len, dims[k]);
    return len;
}

kir_ref kj_lower_npiter_len(lctx *lc, const kj_type *w, kir_ref v, kj_span sp)
{
    kir_ref dims[KJ_NPSHAPE_MAXDIM];
    uint32_t n = extents(lc, w, v, dims, sp);
    return size_of(lc, dims, n, sp);
}

/* idx[] = flat position i (0 <= i < the product of dims) in C order. The
 * extents are not zero there: no division checks. */
static void unravel(lctx *lc, const kir_ref *dims, uint32_t n, kir_ref i, kir_ref *idx, kj_span sp)
{
    for (uint32_t k = n; k-- > 1;) {
        idx[k] = emit2(lc, KIR_MOD, i64t(lc), sp, i, dims[k]);
        kir_at(lc->f, idx[k])->aux = KIR_AUX_NONZERO;
        i = emit2(lc, KIR_FLOORDIV, i64t(lc), sp, i, dims[k]);
        kir_at(lc->f, i)->aux = KIR_AUX_NONZERO;
    }
    idx[0] = i;
}

static kir_ref load_at(lctx *lc, kir_ref arr, const kj_type *et, const kir_ref *idx, uint32_t n, kj_span sp)
{
    kir_ref r = kj_lw_emit(lc, KIR_ARRAY_LOAD, et, sp);
    kir_at(lc->f, r)->a = arr;
    kir_at(lc->f, r)->args = kir_refs(lc->s->a, idx, n);
    kir_at(lc->f, r)->nargs = n;
    return r;
}

kir_ref kj_lower_npiter_get(lctx *lc, const kj_type *w, kir_ref v, kir_ref i, kj_span sp)
{
    kir_ref dims[KJ_NPSHAPE_MAXDIM], idx[KJ_NPSHAPE_MAXDIM];
    uint32_t n = extents(lc, w, v, dims, sp);
    unravel(lc, dims, n, i, idx, sp);
    kj_npw kind = kj_npshape_wrapper(w);
    if (kind == KJ_NPW_NDINDEX) return make_tuple(lc, w->elems[0], idx, n, sp);
    const kj_type *at = w->elems[0];
    kir_ref x = load_at(lc, tuple_get(lc, v, at, 0, sp), at->elem, idx, n, sp);
    if (kind != KJ_NPW_NDENUMERATE) return x;
    const kj_type *et = kj_npshape_iter_elem(lc->s->types, w);
    kir_ref pair[2] = {make_tuple(lc, et->elems[0], idx, n, sp), x};
    return make_tuple(lc, et, pair, 2, sp);
}

/* a.flat[i] (v 0) or a.flat[i] = v: i wrapped once from the end and
 * checked against the size (NumPy's IndexError), then unravelled. */
kir_ref kj_lower_flat_item(lctx *lc, const kj_expr *e, kir_ref v, kj_span sp)
{
    const kj_type *w = lc->sp->ei[e->sub.obj->id].type, *at = w->elems[0];
    kir_ref fl = kj_lw_expr(lc, e->sub.obj);
    kir_ref i = kj_lw_as(lc, e->sub.index, i64t(lc));
    kir_ref dims[KJ_NPSHAPE_MAXDIM], idx[KJ_NPSHAPE_MAXDIM];
    uint32_t n = extents(lc, w, fl, dims, sp);
    kir_ref size = size_of(lc, dims, n, sp);
    kir_ref wr = emit2(lc, KIR_WRAP_INDEX, i64t(lc), sp, i, size);
    kir_ref bc = emit2(lc, KIR_BOUNDS_CHECK, NULL, sp, wr, size);
    kir_at(lc->f, bc)->i = 0;
    unravel(lc, dims, n, wr, idx, sp);
    kir_ref arr = tuple_get(lc, fl, at, 0, sp);
    if (!v) return load_at(lc, arr, at->elem, idx, n, sp);
    kir_ref st = kj_lw_emit(lc, KIR_ARRAY_STORE, NULL, sp);
    kir_at(lc->f, st)->a = arr;
    kir_at(lc->f, st)->b = kj_lw_cast(lc, v, at->elem, sp);
    kir_at(lc->f, st)->args = kir_refs(lc->s->a, idx, n);
    kir_at(lc->f, st)->nargs = n;
    return st;
}

/* x in a (not_in: x not in a): ARR_CONTAINS, x as float64 (infer_npshape.c). */
kir_ref kj_lower_array_in(lctx *lc, const kj_expr *e, bool not_in, kir_ref x, kir_ref a)
{
    const kj_type *bt = kj_t_bool(lc->s->types);
    kir_ref args[2] = {a, kj_lw_cast(lc, x, kj_t_float(lc->s->types, 64), e->span)};
    kir_ref r = kj_lw_emit_args(lc, KIR_BUILTIN, bt, e->span, args, 2);
    kir_at(lc->f, r)->aux = KJ_B_ARR_CONTAINS;
    if (!not_in) return r;
    kir_ref nr = kj_lw_emit(lc, KIR_NOT, bt, e->span);
    kir_at(lc->f, nr)->a = r;
    return nr;
}
