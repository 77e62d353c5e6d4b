/* SPDX-License-Identifier: BSD-2-Clause */
/* f.accumulate(a, axis), f.outer(a, b) and f.at(a, i, v) lowered to a UFUNC_REDUCE with
 * KIR_REDUCE_ACCUMULATE / KIR_REDUCE_OUTER / KIR_REDUCE_AT in aux (kir.h), which
 * kir_ufunc_meth.c expands into loops as kir_reduce.c does for reduce. */
#include "builtins.h"
#include "kir_ufunc_meth.h"
#include "lower_int.h"

/* np.add.reduce of floats: NumPy's add loop sums pairwise, as np.sum does
 * (and kjit's np.sum, bit for bit), so it is np.sum(a, axis). */
static kir_ref float_sum(lctx *lc, const kj_expr *e, kj_einfo *ei, kir_ref a)
{
    kir_ref args[2] = {a, ei->axis >= 0 ? kj_lw_i64(lc, ei->axis, e->span) : 0};
    kir_ref r = kj_lw_emit(lc, KIR_BUILTIN, kj_strong(lc->s->types, ei->type), e->span);
    kir_inst *in = kir_at(lc->f, r);
    in->aux = KJ_B_NP_SUM;
    in->nargs = 2;
    in->args = kir_refs(lc->s->a, args, 2);
    return r;
}

kir_ref kj_lower_ufunc_meth(lctx *lc, const kj_expr *e, kj_einfo *ei, int meth)
{
    kir_ref a = kj_lw_expr(lc, e->call.args[0]);
    if (meth == KJ_UM_REDUCE && ei->npufunc == KJ_B_NP_ADD && ei->dtype->kind == KJ_T_FLOAT)
        return float_sum(lc, e, ei, a);
    kir_ref b = meth == KJ_UM_OUTER || meth == KJ_UM_AT ? kj_lw_expr(lc, e->call.args[1]) : 0;
    kir_ref c = meth == KJ_UM_AT && e->call.nargs > 2 ? kj_lw_expr(lc, e->call.args[2]) : 0;
    kir_ref r = kj_lw_emit(lc, KIR_UFUNC_REDUCE, kj_strong(lc->s->types, ei->type), e->span);
    kir_inst *in = kir_at(lc->f, r);
    in->a = a;
    in->b = b;
    in->c = c;
    in->aux = meth == KJ_UM_AT       ? KIR_REDUCE_AT
              : meth == KJ_UM_OUTER  ? KIR_REDUCE_OUTER
              : meth == KJ_UM_REDUCE ? (uint16_t)(ei->axis + 1)
                                     : (uint16_t)(KIR_REDUCE_ACCUMULATE | (ei->axis + 1));
    /* NumPy's own ufunc (np.add.outer): its loop made a scalar function */
    in->fn = ei->npufunc ? kir_np_ufunc_func(lc->s->a, lc->s->types, lc->s->kir, ei->npufunc, ei->dtype)
                         : ei->callee->kir;
    return r;
}
