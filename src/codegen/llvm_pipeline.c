/* The optimise and emit steps every target shares: the host pipeline
 * (host.c, object files for ORC) and the GPU's (nvptx.c, PTX text). */
#include "codegen.h"

#include <llvm-c/Transforms/PassBuilder.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    LLVMErrorRef e = LLVMRunPasses(mod, passes, tm, pbo);
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
