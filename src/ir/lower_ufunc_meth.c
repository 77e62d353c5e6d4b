/* SPDX-License-Identifier: BSD-2-Clause */
/* f.accumulate(a, axis), f.outer(a, b) and f.at(a, i, v) lowered to a UFUNC_REDUCE with
 * KIR_REDUCE_ACCUMULATE / KIR_REDUCE_OUTER / KIR_REDUCE_AT in aux (kir.h), which
 * kir_ufunc_meth.c expands into loops as kir_reduce.c does for reduce. */
#include "lower_int.h"

kir_ref kj_lower_ufunc_meth(lctx *lc, const kj_expr *e, kj_einfo *ei, int meth)
{
    kir_ref a = kj_lw_expr(lc, e->call.args[0]);
    kir_ref b = meth != KJ_UM_ACCUMULATE ? kj_lw_expr(lc, e->call.args[1]) : 0;
    kir_ref c = meth == KJ_UM_AT && e->call.nargs > 2 ? kj_lw_expr(lc, e->call.args[2]) : 0;
    kir_ref r = kj_lw_emit(lc, KIR_UFUNC_REDUCE, kj_strong(lc->s->types, ei->type), e->span);
    kir_inst *in = kir_at(lc->f, r);
    in->a = a;
    in->b = b;
    in->c = c;
    in->aux = meth == KJ_UM_AT      ? KIR_REDUCE_AT
              : meth == KJ_UM_OUTER ? KIR_REDUCE_OUTER : (uint16_t)(KIR_REDUCE_ACCUMULATE | (ei->axis + 1));
    in->fn = ei->callee->kir;
    return r;
}
