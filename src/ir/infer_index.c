/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of NumPy's advanced indexing in host code: a subscript with at
 * least one index array (a bool mask or an integer array of any dtype),
 * together with integers and slices: a[mask], a[idx], a[:, idx],
 * a[idx, 1:], a[2, idx], a[i, j], a[rowmask, 1:].
 *
 * The result is a new C array. Its dimensions are NumPy's: the index
 * arrays broadcast together (a mask counts as one dimension, the number of
 * its true elements; an integer as none) to B, and the result has B's
 * dimensions and one per axis a slice keeps or no index reaches. Where B's
 * dimensions go (in place of the indexed axes, or first when a slice
 * separates them) only changes the order, which the runtime settles
 * (rt_index.c). */
#include "sema_int.h"

enum { MAX_DIMS = 4 };

/* Checks one index of an advanced subscript; `width` gets the number of
 * axes it consumes and `bnd` grows to its broadcast dimensions. */
static bool index_item(kj_ictx *ic, const kj_expr *it, const kj_type *t, uint32_t *width, uint32_t *bnd)
{
    *width = 1;
    if (t->kind == KJ_T_INT) return true;
    if (t->kind == KJ_T_NONE) {
        kj_error(ic->d, ic->s->src, it->span, "None (np.newaxis) in a subscript is not supported");
        return false;
    }
    if (t->kind != KJ_T_ARRAY) {
        kj_error(ic->d, ic->s->src, it->span, "array index must be an integer, not %s", kj_type_str(t));
        return false;
    }
    if (t->elem->kind == KJ_T_BOOL) {
        *width = t->ndim;
        if (*bnd < 1) *bnd = 1;
        return true;
    }
    if (t->elem->kind != KJ_T_INT) {
        kj_error(ic->d, ic->s->src, it->span, "arrays used as indices must be of integer (or boolean) type, not %s",
                 kj_type_str(t));
        return false;
    }
    if (*bnd < t->ndim) *bnd = t->ndim;
    return true;
}

kj_einfo *kj_type_index_arrays(kj_ictx *ic, const kj_expr *e, const kj_type *at, const kj_expr *const *items,
                               const kj_type *const *types, uint32_t n, kj_einfo *ei)
{
    if (kj_is_device_ctx(ic->sp)) {
        kj_error(ic->d, ic->s->src, e->sub.index->span, "indexing with arrays is only supported in host code");
        return ei_value(ei, NULL);
    }
    uint32_t consumed = 0, kept = 0, bnd = 0;
    bool ok = true;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t w = 1;
        if (items[i]->kind == KJ_E_SLICE) {
            ok = kj_type_slice_item(ic, items[i]) && ok;
            kept++;
        } else {
            ok = index_item(ic, items[i], types[i], &w, &bnd) && ok;
        }
        consumed += w;
    }
    if (!ok) return ei_value(ei, NULL);
    if (consumed > at->ndim) {
        kj_error(ic->d, ic->s->src, e->sub.index->span,
                 "too many indices for array: array is %u-dimensional, but %u were indexed", at->ndim, consumed);
        return ei_value(ei, NULL);
    }
    uint32_t nd = at->ndim - consumed + kept + bnd;
    if (nd > MAX_DIMS) {
        kj_error(ic->d, ic->s->src, e->sub.index->span,
                 "this indexing gives a %u-dimensional array; arrays have at most %d dimensions", nd, MAX_DIMS);
        return ei_value(ei, NULL);
    }
    return ei_value(ei, kj_t_array(ic->s->types, at->elem, (int)nd, KJ_LAYOUT_C));
}

/* NumPy's name of the ufunc behind an in-place operator. */
const char *kj_ufunc_name(kj_binop op)
{
    switch (op) {
    case KJ_OP_ADD: return "add";
    case KJ_OP_SUB: return "subtract";
    case KJ_OP_MUL: return "multiply";
    case KJ_OP_DIV: return "divide";
    case KJ_OP_FLOORDIV: return "floor_divide";
    case KJ_OP_MOD: return "remainder";
    case KJ_OP_POW: return "power";
    case KJ_OP_LSHIFT: return "left_shift";
    case KJ_OP_RSHIFT: return "right_shift";
    case KJ_OP_BITAND: return "bitwise_and";
    case KJ_OP_BITOR: return "bitwise_or";
    case KJ_OP_BITXOR: return "bitwise_xor";
    default: return "?";
    }
}

/* a[idx] op= v: NumPy computes a[idx] op v into a temporary of a's dtype
 * and shape (in place), so the operation's result must cast to it under
 * 'same_kind' (an int array += 0.5 is a UFuncTypeError), and v may not
 * broadcast it to more dimensions. */
bool kj_check_index_aug(kj_ictx *ic, kj_binop op, const kj_type *cur, const kj_type *res, kj_span sp)
{
    if (res->kind == KJ_T_ARRAY && res->ndim > cur->ndim) { /* the value has more dimensions */
        kj_error(ic->d, ic->s->src, sp,
                 "non-broadcastable output operand: the selection has %u dimension%s but the value broadcasts "
                 "it to %u",
                 cur->ndim, cur->ndim == 1 ? "" : "s", res->ndim);
        return false;
    }
    const kj_type *from = res->kind == KJ_T_ARRAY ? res->elem : res;
    if (kj_can_convert(from, cur->elem)) return true;
    kj_ufunc_cast_error(ic, sp, kj_ufunc_name(op), from, cur->elem);
    return false;
}

kj_diag *kj_ufunc_cast_error(kj_ictx *ic, kj_span sp, const char *ufunc, const kj_type *from, const kj_type *to)
{
    return kj_error(ic->d, ic->s->src, sp,
                    "Cannot cast ufunc '%s' output from dtype('%s') to dtype('%s') with casting rule 'same_kind'",
                    ufunc, kj_type_str(from), kj_type_str(to));
}

/* Is subscript e (typed) an advanced one: an index array among its items? */
bool kj_is_index_array_subscript(const kj_spec *sp, const kj_expr *e)
{
    if (e->kind != KJ_E_SUBSCRIPT) return false;
    const kj_expr *ix = e->sub.index;
    const kj_expr *const *items = ix->kind == KJ_E_TUPLE ? (const kj_expr *const *)ix->seq.v : &ix;
    uint32_t n = ix->kind == KJ_E_TUPLE ? ix->seq.n : 1;
    for (uint32_t i = 0; i < n; i++) {
        const kj_type *t = sp->ei[items[i]->id].type;
        if (items[i]->kind != KJ_E_SLICE && sp->ei[items[i]->id].kind == EI_VALUE && t && t->kind == KJ_T_ARRAY)
            return true;
    }
    return false;
}
