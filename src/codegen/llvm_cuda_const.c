/* SPDX-License-Identifier: BSD-2-Clause */
/* cuda.const.array_like(ndarray) (numba-cuda's reference/memory.rst,
 * "Constant memory"): an array of the argument's shape, type and contents
 * in constant memory. numba-cuda's lowering returns its argument: a global
 * (module-level) array is already placed in constant memory when a kernel
 * reads it, and any other array is used where it is. kjit does the same
 * with its frozen module-level arrays: on the GPU, the frozen array read
 * through array_like gets its own global in the constant bank (address
 * space 4, `.const` in the PTX, read through the constant cache), which
 * holds 64 KiB per module: the arrays past that are a located error. On the
 * cpu targets, and for any other array, the result is the argument itself
 * (memory is memory there; the array keeps its read-only marks). */
#include "codegen.h"

#include "../ir/builtins.h"

enum { CONST_BANK_BYTES = 65536 }; /* CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY of every GPU since sm_20 */

/* The bytes of constant memory the module's constant globals take. */
static uint64_t const_bytes(kj_cg *cg)
{
    uint64_t n = 0;
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(cg->mod);
    for (LLVMValueRef g = LLVMGetFirstGlobal(cg->mod); g; g = LLVMGetNextGlobal(g))
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == KJ_CG_ADDR_CONST)
            n += LLVMABISizeOfType(td, LLVMGlobalGetValueType(g));
    return n;
}

LLVMValueRef kj_cg_const_array_like(kj_cg *cg, const kir_inst *in)
{
    const kir_inst *a = &cg->fn->kf->insts[in->args[0]];
    if (cg->tgt != &kj_target_nvptx || a->op != KIR_CONST_ARRAY || !a->frozen)
        return kj_cg_val(cg, in->args[0]);
    char name[256];
    snprintf(name, sizeof name, "kjit_const_%s", a->frozen->name);
    bool fresh = !LLVMGetNamedGlobal(cg->mod, name);
    LLVMValueRef v = kj_cg_frozen_array_in(cg, a, KJ_CG_ADDR_CONST);
    uint64_t used = const_bytes(cg);
    if (fresh && used > CONST_BANK_BYTES)
        kj_cg_fail(cg, in->span,
                   "cuda.const.array_like(%s): the constant arrays of this program take %llu bytes, over the GPU's "
                   "%d-byte constant bank",
                   a->frozen->name, (unsigned long long)used, CONST_BANK_BYTES);
    return v;
}
