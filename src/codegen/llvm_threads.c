/* SPDX-License-Identifier: BSD-2-Clause */
/* llvm_threads — Numba's thread-pool API (builtins_threads.c) in host code:
 * one runtime call each on the run context (rt_threads.c). The integer
 * argument arrives as int64 (typing converted it). */
#include "codegen.h"

#include "../ir/builtins.h"

static const kj_type T_I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};

LLVMValueRef kj_cg_threads(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef rt = cg->fn->rt, r;
    switch (in->aux) {
    case KJ_B_SET_NUM_THREADS: case KJ_B_SET_PAR_CHUNKSIZE: {
        LLVMValueRef a[4] = {rt, kj_cg_val(cg, in->args[0]), kj_cg_line(cg, in), kj_cg_col(cg, in)};
        if (in->aux == KJ_B_SET_NUM_THREADS) {
            kj_cg_rtcall(cg, KJ_RTF_SET_NUM_THREADS, a, 4);
            return kj_cg_zero(cg, in->type);
        }
        r = kj_cg_rtcall(cg, KJ_RTF_SET_PAR_CHUNKSIZE, a, 4);
        break;
    }
    case KJ_B_GET_NUM_THREADS: r = kj_cg_rtcall(cg, KJ_RTF_GET_NUM_THREADS, &rt, 1); break;
    case KJ_B_GET_THREAD_ID: r = kj_cg_rtcall(cg, KJ_RTF_GET_THREAD_ID, &rt, 1); break;
    case KJ_B_GET_PAR_CHUNKSIZE: r = kj_cg_rtcall(cg, KJ_RTF_GET_PAR_CHUNKSIZE, &rt, 1); break;
    default: { /* numba.config.NUMBA_NUM_THREADS / NUMBA_DEFAULT_NUM_THREADS */
        LLVMValueRef a[2] = {rt, kj_cg_i32(cg, in->aux == KJ_B_CONFIG_DEFAULT_NUM_THREADS)};
        r = kj_cg_rtcall(cg, KJ_RTF_CONFIG_THREADS, a, 2);
        break;
    }
    }
    return kj_cg_cast(cg, r, &T_I64, in->type);
}
