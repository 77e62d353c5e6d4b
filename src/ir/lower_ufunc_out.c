/* SPDX-License-Identifier: BSD-2-Clause */
/* Lowering of a NumPy ufunc called with its output (infer_ufunc_out.c):
 * np.add(a, b, out=c) is c[...] = a + b marked in place (kir.h's
 * KIR_AUX_INPLACE), as `c += x` is: fusion (kir_fuse.c fuse_assign) makes
 * it one loop that writes c, in which c takes part in the broadcast with
 * NumPy's messages and inputs overlapping c are read from a copy. The
 * result is cast into c's dtype as the store does (inference allowed only
 * 'same_kind' casts). The call's value is c itself. */
#include "lower_int.h"

kir_ref kj_lower_ufunc_out(lctx *lc, const kj_expr *e, kj_einfo *ei,
                           kir_ref (*lower_call)(lctx *, const kj_expr *, kj_einfo *))
{
    const kj_ufout *uo = ei->ufout;
    /* The output first, as `c += x` evaluates its target first: nothing
     * between it and the result may write memory for fusion to write the
     * result into it (an output expression with effects is not NumPy's
     * idiom; its inputs are still evaluated in order) */
    kir_ref out = kj_lw_expr(lc, uo->out);
    /* the call without its output: its own result type (and constant) */
    const kj_type *ot = ei->type;
    bool oc = ei->is_const;
    ei->type = uo->res;
    ei->is_const = uo->res_const;
    ei->ufout = NULL;
    kir_ref v = lower_call(lc, e, ei);
    ei->type = ot;
    ei->is_const = oc;
    ei->ufout = uo;
    kir_ref s = kj_lw_emit(lc, KIR_ARRAY_STORE, NULL, e->span);
    kir_at(lc->f, s)->a = out;
    kir_at(lc->f, s)->b = v;
    kir_at(lc->f, s)->aux = KIR_AUX_INPLACE;
    return out;
}
