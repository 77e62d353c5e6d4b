/* SPDX-License-Identifier: BSD-2-Clause */
/* A local name bound once to a constant, as the shape of a shared or local
 * array: `N = 100` then `cuda.shared.array(N, int32)` in a kernel
 * (numba-cuda's test_sync.simple_smem). Numba's SSA form sees that N has one
 * definition, a constant, and folds it; kjit does the same for exactly this
 * use, so that no other expression's typing (weak literals) changes. */
#include "sema_int.h"

void kj_note_const_local(kj_ictx *ic, const kj_stmt *st, const kj_einfo *v)
{
    if (st->assign.ntargets != 1 || st->assign.targets[0]->kind != KJ_E_NAME) return;
    const kj_expr *t = st->assign.targets[0];
    kj_var *var = kj_var_of(ic->sp, t);
    if (!var || var->is_param || var->has_cval) return;
    if (v->kind != EI_VALUE || !v->is_const || !v->cval.type || v->cval.type->kind != KJ_T_INT) return;
    /* bound once in the whole body, so every read sees this value */
    if (kj_count_assigns(&ic->sp->fn->def->body, t->name) != 1) return;
    var->has_cval = true;
    var->cval = v->cval;
}

void kj_fold_const_local(kj_ictx *ic, const kj_expr *x, kj_barg *arg)
{
    if (x->kind != KJ_E_NAME || arg->is_const) return;
    kj_var *var = kj_var_of(ic->sp, x);
    if (!var || !var->has_cval) return;
    kj_einfo *ei = &ic->sp->ei[x->id];
    ei->is_const = true;
    ei->cval = var->cval;
    arg->is_const = true;
    arg->ival = var->cval.i;
    arg->fval = (double)var->cval.i;
}
