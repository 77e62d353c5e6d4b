/* SPDX-License-Identifier: BSD-2-Clause */
/* bytes, bytearray and memoryview (src/ir/builtins_bytes.c): array
 * descriptors, so memoryview(x) is x itself, np.frombuffer a view with the
 * shape counted in the new items, the memoryview attributes the array's
 * strides or its type; a literal, tobytes() and bytearray(x) call the runtime
 * (rt_bytes.c), as does print. */
#include "codegen.h"
#include "../ir/builtins.h"

static const kj_type *argt(kj_cg *cg, const kir_inst *in, uint32_t k) { return cg->fn->kf->insts[in->args[k]].type; }

static LLVMValueRef new_desc(kj_cg *cg, kj_rtfn fn, LLVMValueRef *a, unsigned n, LLVMValueRef out)
{
    kj_cg_rtcall(cg, fn, a, n);
    return LLVMBuildLoad2(cg->b, kj_cg_array_type(cg, 1), out, "bytes");
}

static int64_t itemsize(kj_cg *cg, const kj_type *elem)
{
    return (int64_t)LLVMABISizeOfType(cg->td, kj_cg_memtype(cg, elem));
}

/* np.frombuffer(buf, dtype): buf's bytes as items of dtype, NumPy's error when they do not divide */
static LLVMValueRef frombuffer(kj_cg *cg, const kir_inst *in)
{
    const kj_type *bt = argt(cg, in, 0);
    LLVMValueRef a = kj_cg_val(cg, in->args[0]);
    int64_t from = itemsize(cg, bt->elem), to = itemsize(cg, in->type->elem);
    LLVMValueRef n = LLVMBuildMul(cg->b, kj_cg_array_dim(cg, a, 0), kj_cg_i64(cg, from), "nbytes");
    kj_cg_raise_if(cg, LLVMBuildICmp(cg->b, LLVMIntNE, LLVMBuildSRem(cg->b, n, kj_cg_i64(cg, to), ""),
                                     kj_cg_i64(cg, 0), ""),
                   KJ_RT_VALUE, "buffer size must be a multiple of element size", in->span);
    LLVMValueRef shape = LLVMBuildInsertValue(cg->b, LLVMBuildExtractValue(cg->b, a, 1, ""),
                                              LLVMBuildSDiv(cg->b, n, kj_cg_i64(cg, to), ""), 0, "");
    LLVMValueRef strides = LLVMBuildInsertValue(cg->b, LLVMBuildExtractValue(cg->b, a, 2, ""), kj_cg_i64(cg, to), 0, "");
    return LLVMBuildInsertValue(cg->b, LLVMBuildInsertValue(cg->b, a, shape, 1, ""), strides, 2, "frombuffer");
}

static LLVMValueRef mv_attr(kj_cg *cg, const kir_inst *in)
{
    const kj_type *t = argt(cg, in, 0);
    LLVMValueRef a = kj_cg_val(cg, in->args[0]);
    if (in->aux == KJ_B_MV_READONLY)
        return LLVMConstInt(kj_cg_type(cg, in->type), kj_buffer_kind(t) == KJ_BUF_MEMVIEW_RO, 0);
    LLVMValueRef c = kj_cg_array_contiguous(cg, t, a, false), f = kj_cg_array_contiguous(cg, t, a, true);
    if (in->aux == KJ_B_MV_C_CONTIGUOUS) return c;
    if (in->aux == KJ_B_MV_F_CONTIGUOUS) return f;
    return LLVMBuildOr(cg->b, c, f, "contiguous");
}

LLVMValueRef kj_cg_bytes_builtin(kj_cg *cg, const kir_inst *in)
{
    switch (in->aux) {
    case KJ_B_BYTES_LIT: {
        LLVMValueRef out = kj_cg_out_desc(cg, 1);
        LLVMValueRef a[3] = {cg->fn->rt, kj_cg_val(cg, in->args[0]), out};
        return new_desc(cg, KJ_RTF_BYTES_NEW, a, 3, out);
    }
    case KJ_B_BYTEARRAY: case KJ_B_ARR_TOBYTES: {
        const kj_type *t = argt(cg, in, 0);
        LLVMValueRef out = kj_cg_out_desc(cg, 1);
        LLVMValueRef a[7] = {cg->fn->rt, kj_cg_spill(cg, kj_cg_val(cg, in->args[0])), kj_cg_i32(cg, t->ndim),
                             kj_cg_i32(cg, kj_cg_dtype(t->elem)), out, kj_cg_line(cg, in), kj_cg_col(cg, in)};
        return new_desc(cg, KJ_RTF_TOBYTES, a, 7, out);
    }
    case KJ_B_MEMORYVIEW: return kj_cg_val(cg, in->args[0]);
    case KJ_B_NP_FROMBUFFER: return frombuffer(cg, in);
    default: return mv_attr(cg, in);
    }
}

void kj_cg_print_buffer(kj_cg *cg, const kj_type *t, LLVMValueRef v)
{
    kj_buf_kind k = kj_buffer_kind(t);
    int kind = k == KJ_BUF_BYTES ? 0 : k == KJ_BUF_BYTEARRAY ? 1 : 2;
    LLVMValueRef a[3] = {cg->fn->rt, kj_cg_spill(cg, v), kj_cg_i32(cg, kind)};
    kj_cg_rtcall(cg, KJ_RTF_PRINT_BYTES, a, 3);
}
