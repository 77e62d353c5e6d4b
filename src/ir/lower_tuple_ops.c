/* SPDX-License-Identifier: BSD-2-Clause */
/* Lowering of the tuple operations infer_tuple.c types: comparison (as
 * CPython's tuple richcompare: the first pair of elements that differ
 * decides, else the lengths), t1 + t2, t[a:b:c] with constant bounds and
 * t.index(x) (Numba's tupleobj.py: the first equal element, else
 * ValueError). Tuples are values: every element is read with TUPLE_GET
 * and the result chosen by SELECTs, no branches. */
#include "lower_int.h"

static const kir_op CMP_KIR[] = {[KJ_CMP_EQ] = KIR_EQ, [KJ_CMP_NE] = KIR_NE, [KJ_CMP_LT] = KIR_LT,
                                 [KJ_CMP_LE] = KIR_LE, [KJ_CMP_GT] = KIR_GT, [KJ_CMP_GE] = KIR_GE};

static const kj_type *tyof(lctx *lc, kir_ref r) { return lc->f->insts[r].type; }

static kir_ref get(lctx *lc, kir_ref t, uint32_t i, kj_span sp)
{
    kir_ref g = kj_lw_emit(lc, KIR_TUPLE_GET, tyof(lc, t)->elems[i], sp);
    kir_at(lc->f, g)->a = t;
    kir_at(lc->f, g)->i = i;
    return g;
}

static kir_ref select3(lctx *lc, const kj_type *t, kir_ref c, kir_ref a, kir_ref b, kj_span sp)
{
    kir_ref s = kj_lw_emit(lc, KIR_SELECT, t, sp);
    kir_at(lc->f, s)->a = c;
    kir_at(lc->f, s)->b = a;
    kir_at(lc->f, s)->c = b;
    return s;
}

static kir_ref bconst(lctx *lc, bool v, kj_span sp)
{
    return kj_lw_cast(lc, kj_lw_i64(lc, v, sp), kj_t_bool(lc->s->types), sp);
}

static kir_ref tuple_cmp(lctx *lc, const kj_expr *e, kj_cmpop op, kir_ref l, kir_ref r);

/* a op b of two elements: numbers in their promoted type, strings, tuples */
static kir_ref elem_cmp(lctx *lc, const kj_expr *e, kj_cmpop op, kir_ref a, kir_ref b)
{
    kj_types *T = lc->s->types;
    const kj_type *at = tyof(lc, a), *bt = tyof(lc, b);
    if (at->kind == KJ_T_STR) return kj_lower_str_compare(lc, e, op, a, b);
    if (at->kind == KJ_T_TUPLE) return tuple_cmp(lc, e, op, a, b);
    const kj_type *p = kj_strong(T, kj_promote(T, at, bt));
    return kj_lw_emit2(lc, CMP_KIR[op], kj_t_bool(T), e->span, kj_lw_cast(lc, a, p, e->span),
                       kj_lw_cast(lc, b, p, e->span));
}

/* CPython: the first i with l[i] != r[i] gives l[i] op r[i]; with none,
 * len(l) op len(r). Built from the last element back as
 * select(l[i] == r[i], rest, l[i] op r[i]). */
static kir_ref tuple_cmp(lctx *lc, const kj_expr *e, kj_cmpop op, kir_ref l, kir_ref r)
{
    const kj_type *lt = tyof(lc, l), *rt = tyof(lc, r), *bt = kj_t_bool(lc->s->types);
    uint32_t n = lt->n < rt->n ? lt->n : rt->n;
    int64_t ln = lt->n, rn = rt->n;
    bool lens = op == KJ_CMP_EQ ? ln == rn : op == KJ_CMP_NE ? ln != rn : op == KJ_CMP_LT ? ln < rn
              : op == KJ_CMP_LE ? ln <= rn : op == KJ_CMP_GT ? ln > rn : ln >= rn;
    kir_ref *eq = KJ_NEWN(lc->s->a, kir_ref, n + 1), *dec = KJ_NEWN(lc->s->a, kir_ref, n + 1);
    for (uint32_t i = 0; i < n; i++) { /* left to right, as CPython reads them */
        kir_ref a = get(lc, l, i, e->span), b = get(lc, r, i, e->span);
        eq[i] = elem_cmp(lc, e, KJ_CMP_EQ, a, b);
        dec[i] = op == KJ_CMP_EQ || op == KJ_CMP_NE ? bconst(lc, op == KJ_CMP_NE, e->span) : elem_cmp(lc, e, op, a, b);
    }
    kir_ref res = bconst(lc, lens, e->span);
    for (uint32_t i = n; i-- > 0;) res = select3(lc, bt, eq[i], res, dec[i], e->span);
    return res;
}

kir_ref kj_lower_tuple_compare(lctx *lc, const kj_expr *e, kj_cmpop op, kir_ref l, kir_ref r)
{
    return tuple_cmp(lc, e, op, l, r);
}

/* t1 + t2 of the binary expression e (its type the joined tuple) */
kir_ref kj_lower_tuple_concat(lctx *lc, const kj_expr *e, const kj_expr *le, const kj_expr *re)
{
    const kj_type *t = kj_strong(lc->s->types, lc->sp->ei[e->id].type);
    kir_ref l = kj_lw_expr(lc, le), r = kj_lw_expr(lc, re);
    uint32_t nl = tyof(lc, l)->n;
    kir_ref *el = KJ_NEWN(lc->s->a, kir_ref, t->n + 1);
    for (uint32_t i = 0; i < t->n; i++)
        el[i] = kj_lw_cast(lc, i < nl ? get(lc, l, i, e->span) : get(lc, r, i - nl, e->span), t->elems[i], e->span);
    return kj_lw_emit_args(lc, KIR_TUPLE, t, e->span, el, t->n);
}

/* t[a:b:c], constant bounds (infer_tuple.c checked them) */
kir_ref kj_lower_tuple_slice(lctx *lc, const kj_expr *e)
{
    const kj_type *t = kj_strong(lc->s->types, lc->sp->ei[e->id].type);
    kir_ref v = kj_lw_expr(lc, e->sub.obj);
    int64_t start = 0, step = 1;
    uint32_t count = 0;
    kj_tuple_slice_bounds(lc->sp->ei, e->sub.index, tyof(lc, v)->n, &start, &step, &count);
    kir_ref *el = KJ_NEWN(lc->s->a, kir_ref, count + 1);
    for (uint32_t k = 0; k < count; k++)
        el[k] = kj_lw_cast(lc, get(lc, v, (uint32_t)(start + (int64_t)k * step), e->span), t->elems[k], e->span);
    return kj_lw_emit_args(lc, KIR_TUPLE, t, e->span, el, count);
}

/* t.index(x): the first i with t[i] == x, else ValueError */
kir_ref kj_lower_tuple_find(lctx *lc, const kj_expr *e, kir_ref t, kir_ref x)
{
    const kj_type *i64 = kj_t_int(lc->s->types, 64, true);
    uint32_t n = tyof(lc, t)->n;
    kir_ref *eq = KJ_NEWN(lc->s->a, kir_ref, n + 1);
    for (uint32_t i = 0; i < n; i++) eq[i] = elem_cmp(lc, e, KJ_CMP_EQ, get(lc, t, i, e->span), x);
    kir_ref r = kj_lw_i64(lc, -1, e->span);
    for (uint32_t i = n; i-- > 0;) r = select3(lc, i64, eq[i], kj_lw_i64(lc, (int64_t)i, e->span), r, e->span);
    kir_ref ok = kj_lw_emit2(lc, KIR_GE, kj_t_bool(lc->s->types), e->span, r, kj_lw_i64(lc, 0, e->span));
    kir_ref as = kj_lw_emit(lc, KIR_ASSERT, NULL, e->span);
    kir_inst *in = kir_at(lc->f, as);
    in->a = ok, in->s = "tuple.index(x): x not in tuple";
    in->aux = (uint16_t)(KIR_ASSERT_RAISE + kj_exc_class("ValueError"));
    return r;
}
