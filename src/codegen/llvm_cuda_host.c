/* SPDX-License-Identifier: BSD-2-Clause */
/* numba.cuda's special streams, its profiler and cuda.gpus.current in host
 * code (builtins_cuda_host.h): calls of the runtime (rt_cuda_host.c). */
#include "codegen.h"

#include "../ir/builtins.h"

static const kj_type T_I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};

static LLVMValueRef stream(kj_cg *cg, int kind, LLVMValueRef ptr)
{
    LLVMValueRef a[3] = {cg->fn->rt, kj_cg_i32(cg, kind), ptr};
    return kj_cg_rtcall(cg, KJ_RTF_CUDA_STREAM_SPECIAL, a, 3);
}

/* kernel.max_cooperative_grid_blocks(blockdim, dynsmemsize=0): blockdim's
 * threads (the product of a tuple's), asked of the runtime for the
 * kernel's specialisation (lower_kernel_query.c). */
static LLVMValueRef max_coop(kj_cg *cg, const kir_inst *in)
{
    const kj_type *bt = cg->fn->kf->insts[in->args[1]].type;
    LLVMValueRef b = kj_cg_val(cg, in->args[1]), threads;
    if (bt->kind == KJ_T_TUPLE) {
        threads = kj_cg_i64(cg, 1);
        for (uint32_t i = 0; i < bt->n; i++)
            threads = LLVMBuildMul(cg->b, threads,
                                   kj_cg_cast(cg, LLVMBuildExtractValue(cg->b, b, i, ""), bt->elems[i], &T_I64), "");
    } else {
        threads = kj_cg_cast(cg, b, bt, &T_I64);
    }
    kir_ref d = in->nargs > 2 ? in->args[2] : 0;
    const kj_type *dt = d ? cg->fn->kf->insts[d].type : NULL;
    LLVMValueRef dyn = dt && dt->kind == KJ_T_INT ? kj_cg_cast(cg, kj_cg_val(cg, d), dt, &T_I64) : kj_cg_i64(cg, 0);
    LLVMValueRef a[6] = {cg->fn->rt, kj_cg_kernel_desc(cg, in->fn), threads, dyn, kj_cg_line(cg, in),
                         kj_cg_col(cg, in)};
    return kj_cg_rtcall(cg, KJ_RTF_COOP_MAX_BLOCKS, a, 6);
}

LLVMValueRef kj_cg_cuda_host(kj_cg *cg, const kir_inst *in)
{
    switch ((kj_builtin)in->aux) {
    case KJ_B_CUDA_DEFAULT_STREAM: return stream(cg, KJ_STREAM_DEFAULT, kj_cg_i64(cg, 0));
    case KJ_B_CUDA_LEGACY_DEFAULT_STREAM: return stream(cg, KJ_STREAM_LEGACY, kj_cg_i64(cg, 0));
    case KJ_B_CUDA_PER_THREAD_DEFAULT_STREAM: return stream(cg, KJ_STREAM_PER_THREAD, kj_cg_i64(cg, 0));
    case KJ_B_CUDA_EXTERNAL_STREAM: {
        LLVMValueRef p = kj_cg_val(cg, in->args[0]);
        p = LLVMBuildIntCast2(cg->b, p, cg->t_i64, 0, "ptr"); /* a CUstream's address: no sign */
        return stream(cg, KJ_STREAM_EXTERNAL, p);
    }
    case KJ_B_CUDA_PROFILE_START: case KJ_B_CUDA_PROFILE_STOP: {
        LLVMValueRef a[4] = {cg->fn->rt, kj_cg_i32(cg, in->aux == KJ_B_CUDA_PROFILE_START), kj_cg_line(cg, in),
                             kj_cg_col(cg, in)};
        kj_cg_rtcall(cg, KJ_RTF_CUDA_PROFILE, a, 4);
        return kj_cg_zero(cg, in->type);
    }
    case KJ_B_GPUS_CURRENT: return LLVMConstNull(cg->t_ptr); /* as cuda.get_current_device() */
    case KJ_B_KERNEL_MAX_COOP: return max_coop(cg, in);
    case KJ_B_XORO_DTYPE: return LLVMConstNull(cg->t_ptr); /* a marker: device_array's type says it all */
    default:
        kj_cg_fail(cg, in->span, "internal error: no code for %s", kj_builtin_get((kj_builtin)in->aux)->path);
        return kj_cg_zero(cg, in->type);
    }
}
