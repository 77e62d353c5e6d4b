/* SPDX-License-Identifier: BSD-2-Clause */
/* llvm_generator — the Generator's distribution methods (rng.normal(loc,
 * scale, size=), ...; builtins_generator.c) in host code: one call of
 * kj_rt_gen_dist (random_gen_disc.c) with the kj_rdist code, the float
 * parameters (their defaults where not given) and size=. */
#include "codegen.h"

#include "../ir/builtins.h"
#include "../ir/builtins_random.h"

static const kj_type T_F64 = {.kind = KJ_T_FLOAT, .bits = 64};

/* Argument k, or 0 when absent (not given, or None). */
static kir_ref arg(kj_cg *cg, const kir_inst *in, uint32_t k)
{
    if (k >= in->nargs || !in->args[k]) return 0;
    return cg->fn->kf->insts[in->args[k]].type->kind == KJ_T_NONE ? 0 : in->args[k];
}

LLVMValueRef kj_cg_gen_dist(kj_cg *cg, const kir_inst *in, const kj_rdist_spec *sp)
{
    LLVMValueRef a[11] = {cg->fn->rt, kj_cg_val(cg, in->args[0]), kj_cg_i32(cg, sp->dist)};
    for (int i = 0; i < 3; i++) {
        kir_ref r = i < sp->nparams ? arg(cg, in, (uint32_t)i + 1) : 0;
        a[3 + i] = r ? kj_cg_cast(cg, kj_cg_val(cg, r), cg->fn->kf->insts[r].type, &T_F64)
                     : LLVMConstReal(cg->t_f64, sp->defaults[i]);
    }
    bool array = in->type->kind == KJ_T_ARRAY;
    int nd = array ? in->type->ndim : 0;
    LLVMTypeRef scalar = sp->int_result ? cg->t_i64 : cg->t_f64;
    LLVMValueRef out = array ? kj_cg_out_desc(cg, nd) : kj_cg_alloca(cg, scalar, "draw");
    kir_ref size = arg(cg, in, (uint32_t)sp->nparams + 1);
    a[6] = kj_cg_i32(cg, nd);
    a[7] = size ? kj_cg_shape_arg(cg, size, nd) : LLVMConstNull(cg->t_ptr);
    a[8] = out;
    a[9] = kj_cg_line(cg, in);
    a[10] = kj_cg_col(cg, in);
    kj_cg_rtcall(cg, KJ_RTF_GEN_DIST, a, 11);
    if (array) return kj_cg_load_desc(cg, out, nd);
    return LLVMBuildLoad2(cg->b, scalar, out, "draw");
}
