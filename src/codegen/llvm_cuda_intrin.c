/* SPDX-License-Identifier: BSD-2-Clause */
/* Small cuda.* intrinsics of kernels, on every target (numba-cuda's
 * kernel.rst): cuda.cbrt (libm's cbrt[f] on the cpu targets, libdevice's
 * __nv_cbrt[f] on the GPU, through the device table's math library),
 * cuda.selp (a select), cuda.nanosleep (PTX nanosleep.u32 on the GPU; the
 * cpu targets run a block's threads one after the other, where sleeping
 * would only slow the run, so nothing: CUDA allows any sleep in [0, 2 ns])
 * and cuda.lanemask_lt (the lanes below this one). */
#include "codegen.h"

#include "../ir/builtins.h"

#include <string.h>

static const kj_type *arg_type(kj_cg *cg, const kir_inst *in, uint32_t k)
{
    return cg->fn->kf->insts[in->args[k]].type;
}

static LLVMValueRef arg_as(kj_cg *cg, const kir_inst *in, uint32_t k, const kj_type *t)
{
    return kj_cg_cast(cg, kj_cg_val(cg, in->args[k]), arg_type(cg, in, k), t);
}

static bool on_gpu(const kj_cg *cg) { return cg->tgt->name && !strcmp(cg->tgt->name, "nvptx"); }

LLVMValueRef kj_cg_cuda_misc(kj_cg *cg, const kir_inst *in)
{
    switch ((kj_builtin)in->aux) {
    case KJ_B_CBRT: {
        LLVMValueRef x = arg_as(cg, in, 0, in->type);
        return kj_cg_libm(cg, in->type->bits == 32 ? "cbrtf" : "cbrt", kj_cg_type(cg, in->type), &x, 1);
    }
    case KJ_B_SELP: {
        LLVMValueRef c = kj_cg_val(cg, in->args[0]);
        return LLVMBuildSelect(cg->b, c, arg_as(cg, in, 1, in->type), arg_as(cg, in, 2, in->type), "selp");
    }
    case KJ_B_NANOSLEEP:
        if (on_gpu(cg)) {
            LLVMValueRef ns = kj_cg_val(cg, in->args[0]);
            kj_cg_intrinsic(cg, "llvm.nvvm.nanosleep", NULL, &ns, 1);
        }
        return NULL;
    default: { /* lanemask_lt: (1 << laneid) - 1 */
        LLVMValueRef lane = cg->tgt->laneid(cg);
        LLVMValueRef m = LLVMBuildSub(cg->b, LLVMBuildShl(cg->b, kj_cg_i64(cg, 1), lane, ""), kj_cg_i64(cg, 1), "");
        return LLVMBuildTrunc(cg->b, m, cg->t_i32, "lanemask_lt");
    }
    }
}
