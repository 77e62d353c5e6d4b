/* SPDX-License-Identifier: BSD-2-Clause */
/* Selective libdevice linking: the math of GPU code is NVIDIA's libdevice
 * bitcode (__nv_sinf, ...). Linking all of it and letting the optimiser
 * drop the rest costs ~60 ms a module; instead the functions the module
 * declares, and those they call in turn, are kept, every other definition
 * is deleted from the parsed libdevice before the link (a few ms). */
#include "codegen.h"

#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_nv(LLVMValueRef f)
{
    size_t n;
    const char *name = LLVMGetValueName2(f, &n);
    return n > 5 && !strncmp(name, "__nv_", 5);
}

/* The names of the __nv_* functions mod declares; NULL when none. */
static LLVMValueRef *wanted(LLVMModuleRef mod, LLVMModuleRef lib, size_t *n)
{
    size_t cap = 16;
    LLVMValueRef *v = malloc(cap * sizeof *v);
    if (!v) abort();
    *n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
        if (!LLVMIsDeclaration(f) || !is_nv(f)) continue;
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        LLVMValueRef g = LLVMGetNamedFunction(lib, name);
        if (!g) continue; /* not libdevice's: the link reports it */
        if (*n == cap) {
            cap *= 2;
            v = realloc(v, cap * sizeof *v);
            if (!v) abort();
        }
        v[(*n)++] = g;
    }
    return v;
}

static bool seen(LLVMValueRef *v, size_t n, LLVMValueRef f)
{
    for (size_t k = 0; k < n; k++)
        if (v[k] == f) return true;
    return false;
}

/* Close the set v[0..n) over the functions its bodies call. */
static LLVMValueRef *closure(LLVMValueRef *v, size_t *n)
{
    size_t cap = *n + 16;
    v = realloc(v, cap * sizeof *v);
    if (!v) abort();
    for (size_t k = 0; k < *n; k++)
        for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(v[k]); b; b = LLVMGetNextBasicBlock(b))
            for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
                if (!LLVMIsACallInst(i)) continue;
                LLVMValueRef callee = LLVMGetCalledValue(i);
                if (!LLVMIsAFunction(callee) || LLVMIsDeclaration(callee) || seen(v, *n, callee)) continue;
                if (*n == cap) {
                    cap *= 2;
                    v = realloc(v, cap * sizeof *v);
                    if (!v) abort();
                }
                v[(*n)++] = callee;
            }
    return v;
}

/* Delete every definition of lib outside keep: repeatedly those nothing
 * uses any more (deleting one frees its own references). */
static void prune(LLVMModuleRef lib, LLVMValueRef *keep, size_t n)
{
    bool changed = true;
    while (changed) {
        changed = false;
        LLVMValueRef f = LLVMGetFirstFunction(lib);
        while (f) {
            LLVMValueRef next = LLVMGetNextFunction(f);
            if (!seen(keep, n, f) && !LLVMGetFirstUse(f)) {
                LLVMDeleteFunction(f);
                changed = true;
            }
            f = next;
        }
    }
}

bool kj_libdevice_link(LLVMModuleRef mod, const char *path, char *err, size_t cap)
{
    bool any = false;
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f && !any; f = LLVMGetNextFunction(f))
        any = LLVMIsDeclaration(f) && is_nv(f);
    if (!any) return true;
    LLVMMemoryBufferRef buf;
    char *msg = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
        snprintf(err, cap, "cannot read %s: %s (set CUDA_HOME or KJIT_LIBDEVICE)", path, msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return false;
    }
    LLVMModuleRef lib;
    bool bad = LLVMParseBitcodeInContext2(LLVMGetModuleContext(mod), buf, &lib);
    LLVMDisposeMemoryBuffer(buf);
    if (bad) {
        snprintf(err, cap, "%s is not LLVM bitcode", path);
        return false;
    }
    size_t n;
    LLVMValueRef *keep = closure(wanted(mod, lib, &n), &n);
    prune(lib, keep, n);
    free(keep);
    LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(mod));
    LLVMSetTarget(lib, LLVMGetTarget(mod));
    if (LLVMLinkModules2(mod, lib)) {
        snprintf(err, cap, "linking %s failed", path);
        return false;
    }
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
        if (is_nv(f) && !LLVMIsDeclaration(f)) LLVMSetLinkage(f, LLVMInternalLinkage);
    return true;
}
