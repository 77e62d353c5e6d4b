/* SPDX-License-Identifier: BSD-2-Clause */
/* Lowering Numba's Optional values (types_optional.c, infer_optional.c).
 *
 * An Optional(T) is the pair TUPLE(valid, value) of that type (codegen: { bool, T }, llvm_optional.c);
 * None is the CONST_NONE of the Optional type, all zeros. The conversions are Numba's
 * (numba/core/optional.py): T → Optional(T) sets the flag, None → Optional(T) is None, Optional(T)
 * → Optional(U) converts a value and keeps None, and Optional(T) → U checks the flag and raises
 * TypeError "expected T, got None" before it converts the value (optional_to_any). */
#include "lower_int.h"

#include <string.h>

static kir_ref part(lctx *lc, kir_ref v, uint32_t k, kj_span sp)
{
    const kj_type *t = kir_at(lc->f, v)->type;
    kir_ref r = kj_lw_emit(lc, KIR_TUPLE_GET, k ? t->elem : kj_t_bool(lc->s->types), sp);
    kir_at(lc->f, r)->a = v;
    kir_at(lc->f, r)->i = k;
    return r;
}

static kir_ref pair(lctx *lc, const kj_type *t, kir_ref valid, kir_ref v, kj_span sp)
{
    return kj_lw_emit_args(lc, KIR_TUPLE, t, sp, (kir_ref[]){valid, v}, 2);
}

kir_ref kj_lower_opt_raw(lctx *lc, const kj_expr *e)
{
    kj_einfo *ei = &lc->sp->ei[e->id];
    const kj_type *t = ei->type, *ot = ei->opt_type;
    if (!ot) return kj_lw_expr(lc, e);
    /* The expression itself (a name, a call, a conditional expression) is lowered with its own
     * type, the Optional; its users see T. */
    ei->type = ot;
    ei->opt_type = NULL;
    kir_ref r = kj_lw_expr(lc, e);
    ei->type = t;
    ei->opt_type = ot;
    return r;
}

kir_ref kj_lower_opt_use(lctx *lc, const kj_expr *e)
{
    return kj_lw_cast(lc, kj_lower_opt_raw(lc, e), kj_strong(lc->s->types, lc->sp->ei[e->id].type), e->span);
}

/* Optional(T) → U: TypeError when None, then the value converted. */
static kir_ref unwrap(lctx *lc, kir_ref v, const kj_type *to, kj_span sp)
{
    const kj_type *from = kir_at(lc->f, v)->type;
    kir_ref valid = part(lc, v, 0, sp), as = kj_lw_emit(lc, KIR_ASSERT, NULL, sp);
    kir_inst *in = kir_at(lc->f, as);
    in->a = valid;
    in->s = kj_arena_printf(lc->s->a, "expected %s, got None", kj_type_str(from->elem));
    in->aux = (uint16_t)(KIR_ASSERT_RAISE + kj_exc_class("TypeError"));
    return kj_lw_cast(lc, part(lc, v, 1, sp), to, sp);
}

kir_ref kj_lower_opt_cast(lctx *lc, kir_ref v, const kj_type *to, kj_span sp)
{
    const kj_type *from = kir_at(lc->f, v)->type;
    if (from == to) return v;
    if (to->kind != KJ_T_OPTIONAL) return unwrap(lc, v, to, sp);
    if (from->kind == KJ_T_NONE) return kj_lw_emit(lc, KIR_CONST_NONE, to, sp);
    if (from->kind != KJ_T_OPTIONAL) {
        kir_ref yes = kj_lw_emit(lc, KIR_CONST_INT, kj_t_bool(lc->s->types), sp);
        kir_at(lc->f, yes)->i = 1;
        return pair(lc, to, yes, kj_lw_cast(lc, v, to->elem, sp), sp);
    }
    /* Optional(T) → Optional(U): a None's value is zeros, which convert harmlessly */
    return pair(lc, to, part(lc, v, 0, sp), kj_lw_cast(lc, part(lc, v, 1, sp), to->elem, sp), sp);
}

/* x is None / x == None: not the flag; x is not None / x != None: the flag. Both operands are
 * evaluated, left to right. */
kir_ref kj_lower_opt_compare(lctx *lc, const kj_expr *e)
{
    int k = kj_opt_compare_side(lc->sp, e);
    kir_ref x = 0;
    for (int i = 0; i < 2; i++) {
        if (i == k) x = kj_lower_opt_raw(lc, e->cmp.operands[i]);
        else kj_lw_expr(lc, e->cmp.operands[i]);
    }
    kir_ref valid = part(lc, x, 0, e->span);
    kj_cmpop op = e->cmp.ops[0];
    if (op == KJ_CMP_ISNOT || op == KJ_CMP_NE) return valid;
    kir_ref r = kj_lw_emit(lc, KIR_NOT, kj_t_bool(lc->s->types), e->span);
    kir_at(lc->f, r)->a = valid;
    return r;
}

/* `if x:` of an Optional number in host code: false for None, else the number's truth. */
kir_ref kj_lower_opt_truth(lctx *lc, const kj_expr *e)
{
    kir_ref x = kj_lower_opt_raw(lc, e), valid = part(lc, x, 0, e->span), v = part(lc, x, 1, e->span);
    const kj_type *t = kir_at(lc->f, v)->type, *b = kj_t_bool(lc->s->types);
    if (t->kind == KJ_T_COMPLEX) v = kj_lw_cast(lc, v, b, e->span);
    else if (t->kind != KJ_T_BOOL) v = kj_lw_emit2(lc, KIR_NE, b, e->span, v, kj_lw_num(lc, t, 0, e->span));
    return kj_lw_emit2(lc, KIR_AND, b, e->span, valid, v);
}
