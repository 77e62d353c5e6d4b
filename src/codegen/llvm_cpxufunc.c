/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy's complex ufunc loops inside kjit's fused array loops (kir_fuse.c):
 * np.exp/log/log10/sqrt, the trigonometric and hyperbolic functions and
 * their inverses, np.reciprocal, np.power/`**` and `/` of complex arrays
 * call the runtime's kj_rt_cpx_ufunc(f) per element (cpxufunc.c), which
 * computes them as NumPy does. Complex scalars keep llvm_complex.c's
 * Python/Numba semantics: only the body of a fused loop (fuse_tree set)
 * takes NumPy's. */
#include "codegen.h"

#include "../abi/abi_cpxufunc.h"
#include "../ir/builtins.h"

/* The operation of a built-in over a complex element, or -1. */
static int builtin_op(kj_builtin b)
{
    switch (b) {
    case KJ_B_EXP: return KJ_CUF_EXP;
    case KJ_B_LOG: return KJ_CUF_LOG;
    case KJ_B_LOG10: return KJ_CUF_LOG10;
    case KJ_B_SQRT: return KJ_CUF_SQRT;
    case KJ_B_SIN: return KJ_CUF_SIN;
    case KJ_B_COS: return KJ_CUF_COS;
    case KJ_B_TAN: return KJ_CUF_TAN;
    case KJ_B_SINH: return KJ_CUF_SINH;
    case KJ_B_COSH: return KJ_CUF_COSH;
    case KJ_B_TANH: return KJ_CUF_TANH;
    case KJ_B_ASIN: return KJ_CUF_ASIN;
    case KJ_B_ACOS: return KJ_CUF_ACOS;
    case KJ_B_ATAN: return KJ_CUF_ATAN;
    case KJ_B_ASINH: return KJ_CUF_ASINH;
    case KJ_B_ACOSH: return KJ_CUF_ACOSH;
    case KJ_B_ATANH: return KJ_CUF_ATANH;
    case KJ_B_NP_RECIPROCAL: return KJ_CUF_RECIPROCAL;
    case KJ_B_POW: return KJ_CUF_POW;
    default: return -1;
    }
}

static bool fused_body(kj_cg *cg) { return cg->fn && cg->fn->kf && cg->fn->kf->fuse_tree; }

int kj_cg_cpx_ufunc_op(kj_cg *cg, const kir_inst *in)
{
    if (!fused_body(cg) || !in->type || in->type->kind != KJ_T_COMPLEX) return -1;
    if (in->op == KIR_DIV) return KJ_CUF_DIV;
    if (in->op == KIR_POW) return in->aux == 1 ? KJ_CUF_POW_SCALAR : KJ_CUF_POW;
    return in->op == KIR_BUILTIN ? builtin_op((kj_builtin)in->aux) : -1;
}

/* op on the complex values a and b (b NULL for a unary op), of type t. */
LLVMValueRef kj_cg_cpx_ufunc(kj_cg *cg, int op, const kj_type *t, LLVMValueRef a, LLVMValueRef b)
{
    bool f32 = t->bits == 64; /* complex64: float parts */
    LLVMTypeRef pt = f32 ? cg->t_f32 : cg->t_f64;
    LLVMValueRef out = kj_cg_alloca(cg, LLVMArrayType(pt, 2), "cpx.out");
    LLVMValueRef zero = LLVMConstReal(pt, 0.0);
    LLVMValueRef args[6] = {kj_cg_i32(cg, op), LLVMBuildExtractValue(cg->b, a, 0, ""),
                            LLVMBuildExtractValue(cg->b, a, 1, ""),
                            b ? LLVMBuildExtractValue(cg->b, b, 0, "") : zero,
                            b ? LLVMBuildExtractValue(cg->b, b, 1, "") : zero, out};
    kj_cg_rtcall(cg, f32 ? KJ_RTF_CPX_UFUNCF : KJ_RTF_CPX_UFUNC, args, 6);
    LLVMTypeRef at = LLVMArrayType(pt, 2);
    LLVMValueRef v = LLVMGetUndef(kj_cg_type(cg, t));
    for (unsigned k = 0; k < 2; k++) {
        LLVMValueRef ix[2] = {kj_cg_i32(cg, 0), kj_cg_i32(cg, (int)k)};
        LLVMValueRef p = LLVMBuildInBoundsGEP2(cg->b, at, out, ix, 2, "");
        v = LLVMBuildInsertValue(cg->b, v, LLVMBuildLoad2(cg->b, pt, p, ""), k, "");
    }
    return v;
}
