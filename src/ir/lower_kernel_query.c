/* SPDX-License-Identifier: BSD-2-Clause */
/* kernel.max_cooperative_grid_blocks(blockdim, dynsmemsize=0) (numba-cuda's
 * _Kernel method, kernel.overloads[sig].max_cooperative_grid_blocks): how
 * many blocks of blockdim threads can be resident at once, the co-residency
 * limit of a grid.sync() launch. Numba asks it of one compiled overload;
 * kjit of the kernel's one specialisation (its signature, or the argument
 * types of its launches), which must exist: a kernel launched with several
 * argument types has several, and the occupancy of each may differ. The
 * KIR is a built-in whose `fn` is the specialisation (llvm_cuda_host.c). */
#include "lower_int.h"

#include "builtins.h"
#include "../util/diag.h"

kir_ref kj_lower_kernel_query(lctx *lc, const kj_expr *e, const kj_type *t, kir_ref *args, uint32_t n)
{
    const kj_expr *k = e->call.fn->attr.obj;
    const kj_fn *fn = lc->sp->ei[k->id].fn;
    uint32_t nspec = fn ? (uint32_t)fn->specs.n : 0;
    if (nspec != 1) {
        kj_diag *dg = kj_error(lc->s->d, lc->s->src, e->span,
                               "max_cooperative_grid_blocks() needs kernel '%s' compiled once; it has %u "
                               "specialisation%s",
                               fn ? fn->def->name : "?", nspec, nspec == 1 ? "" : "s");
        kj_diag_hint(dg, nspec ? "launch it with one set of argument types, or give it one signature"
                               : "give it a signature (@cuda.jit(\"void(float64[:])\")) or launch it");
        return kj_lw_i64(lc, 0, e->span);
    }
    kir_ref r = kj_lw_emit_args(lc, KIR_BUILTIN, t, e->span, args, n);
    kir_at(lc->f, r)->aux = KJ_B_KERNEL_MAX_COOP;
    kir_at(lc->f, r)->fn = fn->specs.v[0]->kir;
    return r;
}
