/* SPDX-License-Identifier: BSD-2-Clause */
/* lower_str — string operators to KIR (infer_str.c typed them): each is a
 * BUILTIN instruction (str.<cat>, <repeat>, <cmp>, <in>, <get>, <slice>)
 * that llvm_str.c lowers to a runtime call (src/runtime/str.c). */
#include "lower_int.h"
#include "builtins.h"

static kir_ref builtin(lctx *lc, int b, const kj_type *t, kj_span sp, const kir_ref *args, uint32_t n)
{
    kir_ref r = kj_lw_emit(lc, KIR_BUILTIN, t, sp);
    kir_inst *in = kir_at(lc->f, r);
    in->aux = (uint16_t)b;
    in->args = kir_refs(lc->s->a, args, n);
    in->nargs = n;
    return r;
}

static const kj_type *i64t(lctx *lc) { return kj_t_int(lc->s->types, 64, true); }

kir_ref kj_lower_str_binop(lctx *lc, const kj_expr *e)
{
    const kj_type *st = kj_t_str(lc->s->types);
    if (e->bin.op == KJ_OP_ADD) {
        kir_ref a[2] = {kj_lw_expr(lc, e->bin.l), kj_lw_expr(lc, e->bin.r)};
        return builtin(lc, KJ_B_STR_CAT, st, e->span, a, 2);
    }
    bool lfirst = lc->sp->ei[e->bin.l->id].type->kind == KJ_T_STR;
    const kj_expr *se = lfirst ? e->bin.l : e->bin.r, *ne = lfirst ? e->bin.r : e->bin.l;
    kir_ref a[2] = {kj_lw_expr(lc, se), kj_lw_as(lc, ne, i64t(lc))};
    return builtin(lc, KJ_B_STR_REPEAT, st, e->span, a, 2);
}

static const kir_op CMP[] = {[KJ_CMP_EQ] = KIR_EQ, [KJ_CMP_NE] = KIR_NE, [KJ_CMP_LT] = KIR_LT,
                             [KJ_CMP_LE] = KIR_LE, [KJ_CMP_GT] = KIR_GT, [KJ_CMP_GE] = KIR_GE};

/* l op r of two strings (r already lowered when the caller has it: a chain). */
kir_ref kj_lower_str_compare(lctx *lc, const kj_expr *e, kj_cmpop op, kir_ref l, kir_ref r)
{
    const kj_type *bt = kj_t_bool(lc->s->types);
    if (op == KJ_CMP_IN || op == KJ_CMP_NOTIN) {
        kir_ref a[2] = {r, l};
        kir_ref in = builtin(lc, KJ_B_STR_IN, bt, e->span, a, 2);
        if (op == KJ_CMP_IN) return in;
        kir_ref n = kj_lw_emit(lc, KIR_NOT, bt, e->span);
        kir_at(lc->f, n)->a = in;
        return n;
    }
    kir_ref a[2] = {l, r};
    kir_ref c = builtin(lc, KJ_B_STR_CMP, i64t(lc), e->span, a, 2);
    kir_ref zero = kj_lw_i64(lc, 0, e->span);
    kir_ref x = kj_lw_emit(lc, CMP[op], bt, e->span);
    kir_at(lc->f, x)->a = c, kir_at(lc->f, x)->b = zero;
    return x;
}

static kir_ref part(lctx *lc, const kj_expr *p, int64_t dflt, int32_t bit, int32_t *has)
{
    if (!p || lc->sp->ei[p->id].type->kind == KJ_T_NONE) return kj_lw_i64(lc, dflt, p ? p->span : (kj_span){0});
    *has |= bit;
    return kj_lw_as(lc, p, i64t(lc));
}

kir_ref kj_lower_str_item(lctx *lc, const kj_expr *e)
{
    const kj_type *st = kj_t_str(lc->s->types);
    const kj_expr *ix = e->sub.index;
    kir_ref s = kj_lw_expr(lc, e->sub.obj);
    if (ix->kind != KJ_E_SLICE) {
        kir_ref a[2] = {s, kj_lw_as(lc, ix, i64t(lc))};
        return builtin(lc, KJ_B_STR_GET, st, e->span, a, 2);
    }
    int32_t has = 0;
    kir_ref lo = part(lc, ix->slice.lo, 0, 1, &has), hi = part(lc, ix->slice.hi, 0, 2, &has);
    kir_ref step = part(lc, ix->slice.step, 1, 4, &has);
    kir_ref a[5] = {s, lo, hi, step, kj_lw_i64(lc, has & 3, e->span)};
    return builtin(lc, KJ_B_STR_SLICE, st, e->span, a, 5);
}

/* For lower_iter.c: `for c in s` reads s[i] for i < len(s). */
kir_ref kj_lower_str_len(lctx *lc, kir_ref s, kj_span sp)
{
    return builtin(lc, KJ_B_LEN, i64t(lc), sp, &s, 1);
}

kir_ref kj_lower_str_get(lctx *lc, kir_ref s, kir_ref i, kj_span sp)
{
    kir_ref a[2] = {s, i};
    return builtin(lc, KJ_B_STR_GET, kj_t_str(lc->s->types), sp, a, 2);
}
