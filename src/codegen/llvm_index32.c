/* SPDX-License-Identifier: BSD-2-Clause */
/* 32-bit index arithmetic in a kernel's index32 variant (kir_index32.h).
 *
 * While cg->index32 is set (nvptx.c, the variant's body), the offset of an
 * element's row (every dimension but the innermost) is computed in i32 with
 * nsw — mul.lo.s32 / mad.lo.s32, then one mul.wide.s32 to bytes, where the
 * generic entry has 64-bit mul.lo.s64 (several instructions in SASS) — and
 * the innermost index is added to the row's address as it is, so that
 * neighbours in a row share it and idx +- c folds into the load's offset.
 * Strided ('A') arrays: each index × stride in i32. cuda.grid values are
 * made in i32 (one mad.lo.s32) and zero-extended (nneg). The launch chose
 * this entry only when all of that fits (gpu_spec.c): every value is the
 * one the generic entry computes. */
#include "codegen.h"

#include "../abi/abi.h"

const char *kj_ptx_symbol32(kj_arena *a, const char *mangled)
{
    return kj_arena_printf(a, "%s_i32", kj_ptx_symbol(a, mangled));
}

static LLVMValueRef to32(kj_cg *cg, LLVMValueRef v)
{
    return LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 32 ? v : LLVMBuildTrunc(cg->b, v, cg->t_i32, "");
}

static LLVMValueRef mul_add32(kj_cg *cg, LLVMValueRef acc, LLVMValueRef m, LLVMValueRef x)
{
    LLVMValueRef p = LLVMBuildNSWMul(cg->b, acc, to32(cg, m), "");
    return x ? LLVMBuildNSWAdd(cg->b, p, to32(cg, x), "") : p;
}

/* The element of a C- or F-ordered access (order[0..n): outermost first):
 * the row — the dimensions before the innermost one by Horner's rule in
 * i32 — as one address, then the innermost index as it is from there, so
 * that neighbours in a row share the row's address and idx +- c folds into
 * the load's offset. */
static LLVMValueRef ordered(kj_cg *cg, LLVMTypeRef ety, LLVMValueRef data, LLVMValueRef arr, const LLVMValueRef *idx,
                            const unsigned *order, unsigned n)
{
    LLVMValueRef last = idx[order[n - 1]];
    if (LLVMGetIntTypeWidth(LLVMTypeOf(last)) != 64) last = LLVMBuildSExt(cg->b, last, cg->t_i64, "");
    if (n > 1) {
        LLVMValueRef row = to32(cg, idx[order[0]]);
        for (unsigned k = 1; k < n; k++)
            row = mul_add32(cg, row, kj_cg_array_dim(cg, arr, order[k]), k + 1 < n ? idx[order[k]] : NULL);
        /* frozen: else InstCombine evaluates the sign-extended product in i64, a 64-bit multiply again */
        row = LLVMBuildSExt(cg->b, LLVMBuildFreeze(cg->b, row, ""), cg->t_i64, "");
        data = LLVMBuildInBoundsGEP2(cg->b, ety, data, &row, 1, "row");
    }
    return LLVMBuildInBoundsGEP2(cg->b, ety, data, &last, 1, "");
}

LLVMValueRef kj_cg_index32_ptr(kj_cg *cg, const kj_type *at, LLVMValueRef data, LLVMValueRef arr,
                               const LLVMValueRef *idx, uint64_t itemsize)
{
    unsigned n = at->ndim, order[KJ_ABI_MAX_DIMS + 1] = {0};
    LLVMTypeRef ety = kj_cg_memtype(cg, at->elem);
    if ((at->layout == KJ_LAYOUT_C || at->layout == KJ_LAYOUT_F) && n <= KJ_ABI_MAX_DIMS) {
        for (unsigned k = 0; k < n; k++) order[k] = at->layout == KJ_LAYOUT_C ? k : n - 1 - k;
        return ordered(cg, ety, data, arr, idx, order, n);
    }
    LLVMValueRef off = NULL;
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef st = kj_cg_array_stride(cg, arr, k);
        if (itemsize > 1) st = LLVMBuildSDiv(cg->b, st, kj_cg_i64(cg, (int64_t)itemsize), "");
        LLVMValueRef t = LLVMBuildNSWMul(cg->b, to32(cg, idx[k]), to32(cg, st), "");
        off = off ? LLVMBuildNSWAdd(cg->b, off, t, "") : t;
    }
    off = off ? LLVMBuildSExt(cg->b, off, cg->t_i64, "") : kj_cg_i64(cg, 0);
    return LLVMBuildInBoundsGEP2(cg->b, ety, data, &off, 1, "");
}

LLVMValueRef kj_cg_index32_grid(kj_cg *cg, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
    LLVMValueRef v = LLVMBuildMul(cg->b, to32(cg, a), to32(cg, b), "");
    LLVMSetNUW(v, 1), LLVMSetNSW(v, 1);
    if (c) {
        v = LLVMBuildAdd(cg->b, v, to32(cg, c), "");
        LLVMSetNUW(v, 1), LLVMSetNSW(v, 1);
    }
    LLVMValueRef w = LLVMBuildZExt(cg->b, v, cg->t_i64, "");
    if (LLVMIsAInstruction(w)) LLVMSetNNeg(w, 1);
    return w;
}
