/* SPDX-License-Identifier: BSD-2-Clause */
/* lower_subscript — array indexing to KIR: a[i, j], slices, index arrays
 * and masks, read (kj_lower_subscript) and, for lower.c's assignments, the
 * parts of a target a[...] and its checked indices. */
#include "lower_int.h"
#include "sema_int.h"

static kj_einfo *EI(lctx *lc, const kj_expr *e) { return &lc->sp->ei[e->id]; }
static const kj_type *strong(lctx *lc, const kj_type *t) { return kj_strong(lc->s->types, t); }
static const kj_type *type_of(lctx *lc, kir_ref r) { return lc->f->insts[r].type; }

/* Index v (int64) of dimension `dim`: wrapped unless known non-negative,
 * and checked when boundscheck is on (is_unsigned: v holds a uint64,
 * shown as such when it fails). */
kir_ref kj_lower_checked_index(lctx *lc, kir_ref arr, kir_ref v, bool nonneg, bool is_unsigned, kj_span sp,
                               uint32_t dim)
{
    if (nonneg && !lc->boundscheck) return v;
    const kj_type *i64t = kj_t_int(lc->s->types, 64, true);
    kir_ref ext = kj_lw_emit(lc, KIR_ARRAY_DIM, i64t, sp);
    kir_at(lc->f, ext)->a = arr;
    kir_at(lc->f, ext)->i = dim;
    if (!nonneg) v = kj_lw_emit2(lc, KIR_WRAP_INDEX, i64t, sp, v, ext);
    if (lc->boundscheck) {
        kir_ref c = kj_lw_emit2(lc, KIR_BOUNDS_CHECK, NULL, sp, v, ext);
        kir_at(lc->f, c)->i = dim;
        kir_at(lc->f, c)->aux = is_unsigned;
    }
    return v;
}

/* One index of dimension `dim` as int64, wrapped when it may be negative and
 * checked when boundscheck is on. */
kir_ref kj_lower_index(lctx *lc, kir_ref arr, const kj_expr *ix, uint32_t dim)
{
    kir_ref v = kj_lw_as(lc, ix, kj_t_int(lc->s->types, 64, true));
    /* an unsigned index is never negative: no wrapping, and a uint64 of
     * 2**63 or more (negative as int64) fails the check, shown unsigned */
    const kj_type *it = EI(lc, ix)->type;
    bool is_unsigned = it && it->kind == KJ_T_INT && !it->is_signed;
    return kj_lower_checked_index(lc, arr, v, EI(lc, ix)->nonneg || is_unsigned, is_unsigned, ix->span, dim);
}

/* The items of a subscript: a[i, j] has two, a[i] one. */
static uint32_t index_items(const kj_expr *const *index, const kj_expr *const **items)
{
    const kj_expr *ix = *index;
    if (ix->kind == KJ_E_TUPLE) {
        *items = (const kj_expr *const *)ix->seq.v;
        return ix->seq.n;
    }
    *items = index;
    return 1;
}

static kir_ref slice_part(lctx *lc, const kj_expr *p)
{
    if (!p || EI(lc, p)->type->kind == KJ_T_NONE) return 0;
    return kj_lw_as(lc, p, kj_t_int(lc->s->types, 64, true));
}

/* a[...] as an element (all integer indices) or a view. `idx` receives the
 * element indices when the result is an element. */
kir_ref kj_lower_subscript_parts(lctx *lc, const kj_expr *e, kir_ref arr, kir_ref *idx,
                                 uint32_t *nidx, bool *is_view)
{
    const kj_expr *const *items;
    uint32_t n = index_items((const kj_expr *const *)&e->sub.index, &items);
    const kj_type *rt = strong(lc, EI(lc, e)->type);
    *is_view = rt->kind == KJ_T_ARRAY;
    if (!*is_view) {
        for (uint32_t i = 0; i < n; i++) idx[i] = kj_lower_index(lc, arr, items[i], i);
        *nidx = n;
        return 0;
    }
    kir_ref *parts = KJ_NEWN(lc->s->a, kir_ref, n + 1);
    for (uint32_t i = 0; i < n; i++) {
        const kj_expr *it = items[i];
        if (it->kind != KJ_E_SLICE) {
            parts[i] = kj_lower_index(lc, arr, it, i);
            continue;
        }
        kir_ref lo = slice_part(lc, it->slice.lo), hi = slice_part(lc, it->slice.hi);
        kir_ref st = slice_part(lc, it->slice.step);
        kir_ref r = kj_lw_emit(lc, KIR_SLICE, kj_t_opaque(lc->s->types, "slice"), it->span);
        kir_at(lc->f, r)->a = lo;
        kir_at(lc->f, r)->b = hi;
        kir_at(lc->f, r)->c = st;
        parts[i] = r;
    }
    kir_ref v = kj_lw_emit_args(lc, KIR_ARRAY_VIEW, rt, e->span, parts, n);
    kir_at(lc->f, v)->a = arr;
    return v;
}

/* a[...] with index arrays (infer_index.c typed it): the arguments of
 * INDEX_GET / INDEX_SET into args (room for 1 + a's ndim), their count
 * returned: a view of arr with the subscript's slices (the indexed axes
 * taken whole), then per axis of the view the index there, or 0. An index
 * array of bools covers as many axes as it has dimensions (the first holds
 * it); an integer is an index of its axis (NumPy makes it a 0-d array). */
uint32_t kj_lower_index_arrays(lctx *lc, const kj_expr *e, kir_ref arr, kir_ref *args)
{
    const kj_expr *const *items;
    uint32_t n = index_items((const kj_expr *const *)&e->sub.index, &items);
    const kj_type *at = type_of(lc, arr);
    kir_ref slice[KJ_MAX_INDEX_DIMS][3] = {{0}}; /* per axis of the view: start, stop, step */
    uint32_t ax = 0;
    bool sliced = false;
    memset(args, 0, (1 + at->ndim) * sizeof *args);
    for (uint32_t i = 0; i < n; i++) {
        const kj_expr *it = items[i];
        const kj_type *t = EI(lc, it)->type;
        if (it->kind == KJ_E_SLICE) {
            slice[ax][0] = slice_part(lc, it->slice.lo);
            slice[ax][1] = slice_part(lc, it->slice.hi);
            slice[ax++][2] = slice_part(lc, it->slice.step);
            sliced = true;
        } else if (t->kind == KJ_T_ARRAY) {
            args[1 + ax] = kj_lw_expr(lc, it);
            ax += t->elem->kind == KJ_T_BOOL ? t->ndim : 1;
        } else {
            args[1 + ax++] = kj_lw_as(lc, it, kj_t_int(lc->s->types, 64, true));
        }
    }
    args[0] = arr;
    if (!sliced) return 1 + at->ndim;
    kir_ref parts[KJ_MAX_INDEX_DIMS];
    for (uint32_t d = 0; d < ax; d++) {
        parts[d] = kj_lw_emit(lc, KIR_SLICE, kj_t_opaque(lc->s->types, "slice"), e->span);
        kir_at(lc->f, parts[d])->a = slice[d][0];
        kir_at(lc->f, parts[d])->b = slice[d][1];
        kir_at(lc->f, parts[d])->c = slice[d][2];
    }
    const kj_type *vt = kj_t_array(lc->s->types, at->elem, at->ndim, KJ_LAYOUT_A);
    args[0] = kj_lw_emit_args(lc, KIR_ARRAY_VIEW, vt, e->span, parts, ax);
    kir_at(lc->f, args[0])->a = arr;
    return 1 + at->ndim;
}

bool kj_lower_is_index_array(lctx *lc, const kj_expr *e) { return kj_is_index_array_subscript(lc->sp, e); }

kir_ref kj_lower_subscript(lctx *lc, const kj_expr *e)
{
    kj_einfo *ei = EI(lc, e);
    const kj_type *ot = strong(lc, EI(lc, e->sub.obj)->type);
    if (ot->kind == KJ_T_LIST) return kj_lower_list_item(lc, e, 0, e->span); /* lower_list.c */
    if (ot->kind == KJ_T_DICT) return kj_lower_dict_item(lc, e, 0, e->span); /* lower_dict.c */
    if (ot->kind == KJ_T_RANGE) return kj_lower_range_item(lc, e);          /* lower_range.c */
    if (kj_lsd_class(ot)) return kj_lower_lsd_item(lc, e); /* lower_lsd.c */
    if (kj_is_record_subscript(lc->sp, e)) return kj_lower_record_item(lc, e); /* lower_record.c */
    if (ot->kind == KJ_T_OPAQUE && !strcmp(ot->name, "gpus")) return kj_lower_gpus_item(lc, e); /* lower_with.c */
    if (ot->kind == KJ_T_STR) return kj_lower_str_item(lc, e);                /* lower_str.c */
    if (kj_npshape_wrapper(ot) == KJ_NPW_FLAT) return kj_lower_flat_item(lc, e, 0, e->span); /* lower_npshape.c */
    if (ot->kind == KJ_T_TUPLE) {
        if (ei->is_const) return kj_lw_const_as(lc, &ei->cval, strong(lc, ei->type), e->span);
        if (e->sub.index->kind == KJ_E_SLICE) return kj_lower_tuple_slice(lc, e); /* lower_tuple_ops.c */
        if (!EI(lc, e->sub.index)->is_const) /* t[i], i known when it runs: lower_tuple.c */
            return kj_lower_tuple_index(lc, e, kj_lw_expr(lc, e->sub.obj), ot);
        int64_t i = EI(lc, e->sub.index)->cval.i;
        if (i < 0) i += ot->n;
        kir_ref t = kj_lw_expr(lc, e->sub.obj);
        kir_ref r = kj_lw_emit(lc, KIR_TUPLE_GET, ot->elems[i], e->span);
        kir_at(lc->f, r)->a = t;
        kir_at(lc->f, r)->i = i;
        return r;
    }
    kir_ref arr = kj_lw_expr(lc, e->sub.obj);
    if (kj_lower_is_index_array(lc, e)) {
        kir_ref args[2 + KJ_MAX_INDEX_DIMS];
        uint32_t n = kj_lower_index_arrays(lc, e, arr, args);
        kir_ref r = kj_lw_emit_args(lc, KIR_BUILTIN, strong(lc, ei->type), e->span, args, n);
        kir_at(lc->f, r)->aux = KJ_B_INDEX_GET;
        return r;
    }
    kir_ref idx[8];
    uint32_t n = 0;
    bool view;
    kir_ref v = kj_lower_subscript_parts(lc, e, arr, idx, &n, &view);
    if (view) return v;
    kir_ref r = kj_lw_emit_args(lc, KIR_ARRAY_LOAD, ot->elem, e->span, idx, n);
    kir_at(lc->f, r)->a = arr;
    return r;
}

/* ---- operators ---- */
