/* SPDX-License-Identifier: BSD-2-Clause */
/* cuda.fp16.* (numba-cuda's reference/kernel.rst) on every target, the same
 * bits everywhere:
 *   hadd/hsub/hmul, hneg/habs, hceil/hfloor/hrint/htrunc, hmax/hmin and the
 *     comparisons are exact IEEE half operations (add.rn.f16, ... on the GPU);
 *   hfma rounds once: fma.rn.f16 on the GPU; on the cpu a*b is exact in
 *     double and a*b + c exact too for every result float16 can hold, so
 *     double arithmetic then one rounding gives the same bits;
 *   hdiv, hrcp and the functions (hsqrt, hrsqrt, hexp*, hlog*, hsin, hcos)
 *     compute in float32 (libm / libdevice, IEEE division and square root)
 *     and round to nearest: numba-cuda's CUDA header versions use the GPU's
 *     approximate float32 instructions, which may differ in the last bit of
 *     the float16 result for some inputs (docs/cuda.md). */
#include "codegen.h"

#include "../ir/builtins.h"

#include <string.h>

static bool on_gpu(const kj_cg *cg) { return cg->tgt->name && !strcmp(cg->tgt->name, "nvptx"); }

static LLVMTypeRef half(kj_cg *cg) { return LLVMHalfTypeInContext(cg->ctx); }

static LLVMValueRef f32(kj_cg *cg, LLVMValueRef x) { return LLVMBuildFPExt(cg->b, x, cg->t_f32, ""); }

static LLVMValueRef to_half(kj_cg *cg, LLVMValueRef x) { return LLVMBuildFPTrunc(cg->b, x, half(cg), ""); }

/* A float32 function of x, rounded to float16. */
static LLVMValueRef via_f32(kj_cg *cg, const char *libm, LLVMValueRef x)
{
    LLVMValueRef w = f32(cg, x);
    return to_half(cg, kj_cg_libm(cg, libm, cg->t_f32, &w, 1));
}

static LLVMValueRef fma16(kj_cg *cg, LLVMValueRef *x)
{
    if (on_gpu(cg)) return kj_cg_intrinsic(cg, "llvm.fma", half(cg), x, 3);
    LLVMValueRef a = LLVMBuildFPExt(cg->b, x[0], cg->t_f64, ""), b = LLVMBuildFPExt(cg->b, x[1], cg->t_f64, "");
    LLVMValueRef c = LLVMBuildFPExt(cg->b, x[2], cg->t_f64, "");
    return to_half(cg, LLVMBuildFAdd(cg->b, LLVMBuildFMul(cg->b, a, b, ""), c, ""));
}

/* 1/x or 1/sqrt(x) in float32 (IEEE division), rounded. */
static LLVMValueRef recip(kj_cg *cg, LLVMValueRef x, bool root)
{
    LLVMValueRef w = f32(cg, x);
    if (root) w = kj_cg_intrinsic(cg, "llvm.sqrt", cg->t_f32, &w, 1);
    return to_half(cg, LLVMBuildFDiv(cg->b, LLVMConstReal(cg->t_f32, 1.0), w, ""));
}

static LLVMValueRef compare(kj_cg *cg, kj_builtin id, LLVMValueRef a, LLVMValueRef b)
{
    /* CUDA's __heq.. __hle are ordered: false when either is NaN (hne too) */
    LLVMRealPredicate p = id == KJ_B_FP16_HEQ ? LLVMRealOEQ : id == KJ_B_FP16_HNE ? LLVMRealONE
                        : id == KJ_B_FP16_HGT ? LLVMRealOGT : id == KJ_B_FP16_HGE ? LLVMRealOGE
                        : id == KJ_B_FP16_HLT ? LLVMRealOLT : LLVMRealOLE;
    return LLVMBuildFCmp(cg->b, p, a, b, "");
}

static LLVMValueRef unary(kj_cg *cg, kj_builtin id, LLVMValueRef x)
{
    static const struct { kj_builtin id; const char *intrinsic, *libm; } T[] = {
        {KJ_B_FP16_HABS, "llvm.fabs", NULL},   {KJ_B_FP16_HCEIL, "llvm.ceil", NULL},
        {KJ_B_FP16_HFLOOR, "llvm.floor", NULL}, {KJ_B_FP16_HRINT, "llvm.roundeven", NULL},
        {KJ_B_FP16_HTRUNC, "llvm.trunc", NULL}, {KJ_B_FP16_HSQRT, NULL, "sqrtf"},
        {KJ_B_FP16_HEXP, NULL, "expf"},        {KJ_B_FP16_HEXP2, NULL, "exp2f"},
        {KJ_B_FP16_HEXP10, NULL, "exp10f"},    {KJ_B_FP16_HLOG, NULL, "logf"},
        {KJ_B_FP16_HLOG2, NULL, "log2f"},      {KJ_B_FP16_HLOG10, NULL, "log10f"},
        {KJ_B_FP16_HSIN, NULL, "sinf"},        {KJ_B_FP16_HCOS, NULL, "cosf"},
    };
    if (id == KJ_B_FP16_HNEG) return LLVMBuildFNeg(cg->b, x, "");
    if (id == KJ_B_FP16_HRCP || id == KJ_B_FP16_HRSQRT) return recip(cg, x, id == KJ_B_FP16_HRSQRT);
    for (size_t k = 0; k < sizeof T / sizeof *T; k++) {
        if (T[k].id != id) continue;
        if (T[k].intrinsic) return kj_cg_intrinsic(cg, T[k].intrinsic, half(cg), &x, 1); /* exact */
        if (id == KJ_B_FP16_HSQRT) { /* IEEE square root: llvm.sqrt, not libdevice's approximate one */
            LLVMValueRef w = f32(cg, x);
            return to_half(cg, kj_cg_intrinsic(cg, "llvm.sqrt", cg->t_f32, &w, 1));
        }
        return via_f32(cg, T[k].libm, x);
    }
    return NULL;
}

LLVMValueRef kj_cg_fp16(kj_cg *cg, const kir_inst *in)
{
    kj_builtin id = (kj_builtin)in->aux;
    LLVMValueRef x[3] = {NULL, NULL, NULL};
    for (uint32_t k = 0; k < in->nargs && k < 3; k++) x[k] = kj_cg_val(cg, in->args[k]);
    switch (id) {
    case KJ_B_FP16_HFMA: return fma16(cg, x);
    case KJ_B_FP16_HADD: return LLVMBuildFAdd(cg->b, x[0], x[1], "");
    case KJ_B_FP16_HSUB: return LLVMBuildFSub(cg->b, x[0], x[1], "");
    case KJ_B_FP16_HMUL: return LLVMBuildFMul(cg->b, x[0], x[1], "");
    case KJ_B_FP16_HDIV: return to_half(cg, LLVMBuildFDiv(cg->b, f32(cg, x[0]), f32(cg, x[1]), ""));
    case KJ_B_FP16_HMAX: return kj_cg_intrinsic(cg, "llvm.maxnum", half(cg), x, 2); /* NaN: the other */
    case KJ_B_FP16_HMIN: return kj_cg_intrinsic(cg, "llvm.minnum", half(cg), x, 2);
    case KJ_B_FP16_HEQ: case KJ_B_FP16_HNE: case KJ_B_FP16_HGT: case KJ_B_FP16_HGE: case KJ_B_FP16_HLT:
    case KJ_B_FP16_HLE: return compare(cg, id, x[0], x[1]);
    default: return unary(cg, id, x[0]);
    }
}
