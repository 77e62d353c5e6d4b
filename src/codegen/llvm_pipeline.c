/* SPDX-License-Identifier: BSD-2-Clause */
/* The optimise and emit steps every target shares: the host pipeline
 * (host.c, object files for ORC) and the GPU's (nvptx.c, PTX text). */
#include "codegen.h"

#include <llvm-c/Transforms/PassBuilder.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool has_thread_loops(LLVMModuleRef mod)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
        if (LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, KJ_THREAD_LOOP_ATTR,
                                          (unsigned)strlen(KJ_THREAD_LOOP_ATTR)))
            return true;
    return false;
}

/* Before the standard pipeline, the thread loops of barrier-free kernels
 * on the cpu (llvm_kernel.c, marked KJ_THREAD_LOOP_ATTR) get their
 * per-thread function inlined, their kernel context into registers, and
 * inductive range check elimination (IRCE, not in default<O3>): a kernel's
 * `if i < n:` (i = blockIdx.x * blockDim.x + threadIdx.x) becomes a shorter
 * trip count of the thread loop instead of a test of every thread, so
 * that the loop vectorises without masks, as the loop a user would write. */
static LLVMErrorRef prepare_thread_loops(LLVMModuleRef mod, LLVMTargetMachineRef tm, LLVMPassBuilderOptionsRef pbo)
{
    LLVMErrorRef e = LLVMRunPasses(mod, "always-inline", tm, pbo);
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f && !e; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f) || !LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, KJ_THREAD_LOOP_ATTR,
                                                                   (unsigned)strlen(KJ_THREAD_LOOP_ATTR)))
            continue;
        e = LLVMRunPassesOnFunction(f,
                                    "sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg,loop-simplify,lcssa,"
                                    "loop-mssa(licm,loop-rotate),irce",
                                    tm, pbo);
    }
    return e;
}

bool kj_llvm_optimise(LLVMModuleRef mod, LLVMTargetMachineRef tm, int opt_level, char *err, size_t cap)
{
    char passes[32];
    int lvl = opt_level < 0 ? 0 : opt_level > 3 ? 3 : opt_level;
    snprintf(passes, sizeof passes, "default<O%d>", lvl);
    LLVMPassBuilderOptionsRef pbo = LLVMCreatePassBuilderOptions();
    LLVMPassBuilderOptionsSetLoopVectorization(pbo, lvl >= 2);
    LLVMPassBuilderOptionsSetSLPVectorization(pbo, lvl >= 2);
    LLVMPassBuilderOptionsSetLoopInterleaving(pbo, lvl >= 2);
    LLVMPassBuilderOptionsSetLoopUnrolling(pbo, lvl >= 2);
    LLVMErrorRef e = NULL;
    if (lvl >= 2 && has_thread_loops(mod)) e = prepare_thread_loops(mod, tm, pbo);
    if (!e) e = LLVMRunPasses(mod, passes, tm, pbo);
    LLVMDisposePassBuilderOptions(pbo);
    if (!e) return true;
    char *msg = LLVMGetErrorMessage(e);
    snprintf(err, cap, "optimisation failed: %s", msg);
    LLVMDisposeErrorMessage(msg);
    return false;
}

char *kj_llvm_emit(LLVMTargetMachineRef tm, LLVMModuleRef mod, LLVMCodeGenFileType kind, size_t *size, char *err,
                   size_t cap)
{
    char *msg = NULL;
    LLVMMemoryBufferRef buf = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, kind, &msg, &buf)) {
        snprintf(err, cap, "code generation failed: %s", msg ? msg : "");
        LLVMDisposeMessage(msg);
        return NULL;
    }
    size_t n = LLVMGetBufferSize(buf);
    char *out = malloc(n + 1);
    if (!out) abort();
    memcpy(out, LLVMGetBufferStart(buf), n);
    out[n] = 0;
    LLVMDisposeMemoryBuffer(buf);
    *size = n;
    return out;
}
