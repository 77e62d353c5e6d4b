/* SPDX-License-Identifier: BSD-2-Clause */
/* cuda.device_array(shape, dtype, strides=...) (builtins_cuda_strides.c): a zeroed uint8 block of
 * the strides' extent (numba-cuda's memory_size_from_info: from the lowest to the highest byte an
 * element can reach), viewed with the shape and strides as given, its data at the element
 * [0, ...] (past the block's start by what negative strides reach below it). On the cuda target
 * the block is the array's owner, so its device copy is the block (cg->run->device_array). */
#include "codegen.h"

#include "../runtime/array.h"

static LLVMValueRef dims(kj_cg *cg, kir_ref r, int nd)
{
    return LLVMBuildLoad2(cg->b, LLVMArrayType2(cg->t_i64, (uint64_t)nd), kj_cg_shape_arg(cg, r, nd), "");
}

/* lo <= 0 <= hi: the byte offsets below and above element [0, ...]; bytes = hi - lo + itemsize,
 * 0 when a dimension is empty and -1 when one is negative (the runtime's ValueError) */
static LLVMValueRef extent(kj_cg *cg, LLVMValueRef shape, LLVMValueRef strides, int nd, int64_t isz, LLVMValueRef *lo)
{
    LLVMValueRef zero = kj_cg_i64(cg, 0), one = kj_cg_i64(cg, 1), hi = zero, empty = LLVMConstInt(cg->t_i1, 0, 0);
    LLVMValueRef neg = empty;
    *lo = zero;
    for (unsigned k = 0; k < (unsigned)nd; k++) {
        LLVMValueRef n = LLVMBuildExtractValue(cg->b, shape, k, ""), s = LLVMBuildExtractValue(cg->b, strides, k, "");
        LLVMValueRef span = LLVMBuildMul(cg->b, LLVMBuildSub(cg->b, n, one, ""), s, "");
        LLVMValueRef below = LLVMBuildICmp(cg->b, LLVMIntSLT, span, zero, "");
        *lo = LLVMBuildAdd(cg->b, *lo, LLVMBuildSelect(cg->b, below, span, zero, ""), "");
        hi = LLVMBuildAdd(cg->b, hi, LLVMBuildSelect(cg->b, below, zero, span, ""), "");
        empty = LLVMBuildOr(cg->b, empty, LLVMBuildICmp(cg->b, LLVMIntEQ, n, zero, ""), "");
        neg = LLVMBuildOr(cg->b, neg, LLVMBuildICmp(cg->b, LLVMIntSLT, n, zero, ""), "");
    }
    LLVMValueRef bytes = LLVMBuildAdd(cg->b, LLVMBuildSub(cg->b, hi, *lo, ""), kj_cg_i64(cg, isz), "");
    bytes = LLVMBuildSelect(cg->b, empty, zero, bytes, "");
    return LLVMBuildSelect(cg->b, neg, kj_cg_i64(cg, -1), bytes, "");
}

LLVMValueRef kj_cg_device_array_strided(kj_cg *cg, const kir_inst *in)
{
    const kj_type *at = in->type;
    int nd = at->ndim;
    LLVMValueRef shape = dims(cg, in->args[0], nd), strides = dims(cg, in->args[2], nd), lo;
    int64_t isz = (int64_t)kj_dtype_size((kj_dtype)kj_cg_dtype(at->elem));
    LLVMValueRef bytes = kj_cg_spill(cg, LLVMBuildInsertValue(cg->b, LLVMGetUndef(LLVMArrayType2(cg->t_i64, 1)),
                                                              extent(cg, shape, strides, nd, isz, &lo), 0, ""));
    LLVMValueRef out = kj_cg_out_desc(cg, 1);
    LLVMValueRef a[8] = {cg->fn->rt, kj_cg_i32(cg, KJ_DT_UINT8), kj_cg_i32(cg, 1), bytes, LLVMConstNull(cg->t_ptr),
                         out, kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_ALLOC, a, 8);
    LLVMValueRef buf = kj_cg_load_desc(cg, out, 1), off = LLVMBuildNeg(cg->b, lo, "");
    LLVMValueRef data = LLVMBuildGEP2(cg->b, cg->t_i8, LLVMBuildExtractValue(cg->b, buf, 0, ""), &off, 1, "");
    LLVMValueRef arr = LLVMBuildInsertValue(cg->b, LLVMGetUndef(kj_cg_array_type(cg, nd)), data, 0, "");
    arr = LLVMBuildInsertValue(cg->b, arr, shape, 1, "");
    arr = LLVMBuildInsertValue(cg->b, arr, strides, 2, "");
    return LLVMBuildInsertValue(cg->b, arr, LLVMBuildExtractValue(cg->b, buf, 3, ""), 3, "");
}
