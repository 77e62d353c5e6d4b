/* SPDX-License-Identifier: BSD-2-Clause */
/* numba.cuda's device API in host code (builtins_cuda_dev.h): calls of the
 * runtime (rt_cuda_dev.c). The device and context are opaque values with
 * nothing in them: kjit has one device per process (docs/cuda.md). */
#include "codegen.h"

#include "../ir/builtins.h"

static LLVMValueRef pair(kj_cg *cg, const kir_inst *in, LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef r = LLVMGetUndef(kj_cg_type(cg, in->type));
    r = LLVMBuildInsertValue(cg->b, r, a, 0, "");
    return LLVMBuildInsertValue(cg->b, r, b, 1, "");
}

static LLVMValueRef attr(kj_cg *cg, const kir_inst *in, int code, int64_t cpu_value)
{
    LLVMValueRef a[5] = {cg->fn->rt, kj_cg_i32(cg, code), kj_cg_i64(cg, cpu_value), kj_cg_line(cg, in),
                         kj_cg_col(cg, in)};
    return kj_cg_rtcall(cg, KJ_RTF_CUDA_DEV_ATTR, a, 5);
}

static LLVMValueRef mem_info(kj_cg *cg, int which)
{
    LLVMValueRef a[2] = {cg->fn->rt, kj_cg_i32(cg, which)};
    return kj_cg_rtcall(cg, KJ_RTF_CUDA_MEM_INFO, a, 2);
}

LLVMValueRef kj_cg_cuda_dev(kj_cg *cg, const kir_inst *in)
{
    switch ((kj_builtin)in->aux) {
    case KJ_B_CUDA_IS_AVAILABLE: /* the GPU on cuda, the emulated device on the cpu targets */
        return LLVMConstInt(LLVMInt1TypeInContext(cg->ctx), 1, 0);
    case KJ_B_CUDA_DETECT: {
        LLVMValueRef r = kj_cg_rtcall(cg, KJ_RTF_CUDA_DETECT, &cg->fn->rt, 1);
        return LLVMBuildICmp(cg->b, LLVMIntNE, r, kj_cg_i32(cg, 0), "");
    }
    case KJ_B_CUDA_CLOSE: { /* kjit keeps its context: the work so far is finished */
        LLVMValueRef a[3] = {cg->fn->rt, kj_cg_line(cg, in), kj_cg_col(cg, in)};
        kj_cg_rtcall(cg, KJ_RTF_CUDA_SYNC, a, 3);
        return kj_cg_zero(cg, in->type);
    }
    case KJ_B_CUDA_GET_CURRENT_DEVICE: case KJ_B_CUDA_CURRENT_CONTEXT: case KJ_B_CTX_DEVICE:
        return LLVMConstNull(cg->t_ptr);
    case KJ_B_CUDA_LIST_DEVICES: /* as cuda.gpus: the count len() reads */
        return LLVMBuildIntToPtr(cg->b, kj_cg_rtcall(cg, KJ_RTF_GPU_COUNT, &cg->fn->rt, 1), cg->t_ptr, "gpus");
    case KJ_B_CTX_GET_MEMORY_INFO: return pair(cg, in, mem_info(cg, 0), mem_info(cg, 1));
    case KJ_B_DEV_NAME: return kj_cg_rtcall(cg, KJ_RTF_CUDA_DEV_NAME, &cg->fn->rt, 1);
    case KJ_B_DEV_UUID: {
        LLVMValueRef a[3] = {cg->fn->rt, kj_cg_line(cg, in), kj_cg_col(cg, in)};
        return kj_cg_rtcall(cg, KJ_RTF_CUDA_DEV_UUID, a, 3);
    }
    case KJ_B_DEV_ID: return attr(cg, in, -1, 0);
    case KJ_B_DEV_COMPUTE_CAPABILITY: return pair(cg, in, attr(cg, in, 75, 9), attr(cg, in, 76, 0));
    default: {
        int code;
        int64_t v;
        if (kj_cuda_dev_attr((kj_builtin)in->aux, &code, &v)) return attr(cg, in, code, v);
        kj_cg_fail(cg, in->span, "internal error: no code for %s", kj_builtin_get((kj_builtin)in->aux)->path);
        return kj_cg_zero(cg, in->type);
    }
    }
}
