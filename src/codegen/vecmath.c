/* SPDX-License-Identifier: BSD-2-Clause */
/* Vector math for the host pipeline: tell LLVM's loop vectoriser that
 * glibc's libmvec has vector forms of the libm functions, so that a loop
 * (a @vectorize body, a @jit loop, a kernel on the CPU) calling sin, exp or
 * pow calls _ZGVdN8v_sinf once per 8 elements instead of sinf 8 times.
 *
 * LLVM knows libmvec as a vector library (-vector-library=LIBMVEC), but
 * that is a command-line option: LLVMParseCommandLineOptions would set it
 * once for the whole process, an embedder's own use of LLVM included. What
 * the option does, though, is write the mappings onto
 * the call sites (the InjectTLIMappings pass) as the attribute
 *   "vector-function-abi-variant"="_ZGV_LLVM_N8v_sinf(_ZGVdN8v_sinf),..."
 * which the vectoriser reads back (VFDatabase). Call-site attributes are
 * in the C API: this file writes them itself, declares the vector
 * functions and keeps them (llvm.compiler.used) until the vectoriser has
 * run. The vectoriser still chooses by cost between the vector call, the
 * scalar calls and an intrinsic of its own (sqrt, fabs: instructions).
 *
 * libmvec is chosen by measurement over SLEEF (docs/performance.md): as
 * fast or faster, within 4 ULP (glibc's bound; NumPy's SIMD loops, SVML
 * and its own, are within 1-4), and already part of every glibc on
 * x86-64. The table of its functions is the runtime's (runtime/mvec.c):
 * SSE and AVX2 forms, the latter offered when the target machine has AVX2. */
#include "vecmath.h"

#include "../runtime/mvec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether the comma-separated feature string has "+feature". */
static bool has_feature(const char *features, const char *feature)
{
    size_t n = strlen(feature);
    for (const char *s = features; s && *s;) {
        const char *end = strchr(s, ',');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        if (len == n + 1 && s[0] == '+' && !memcmp(s + 1, feature, n)) return true;
        s = end ? end + 1 : NULL;
    }
    return false;
}

/* Whether `callee` is libm function `fn` for float `bits`, by its libm
 * name (sinf, sin) or LLVM's intrinsic (llvm.sin.f32). */
static bool is_fn(const char *callee, const char *fn, unsigned bits)
{
    char want[48];
    snprintf(want, sizeof want, "%s%s", fn, bits == 32 ? "f" : "");
    if (!strcmp(callee, want)) return true;
    snprintf(want, sizeof want, "llvm.%s.f%u", fn, bits);
    return !strcmp(callee, want);
}

typedef struct annotator {
    LLVMModuleRef mod;
    LLVMContextRef ctx;
    bool avx2;
    const kj_mvec *table;
    size_t ntable;
    LLVMValueRef *used; /* the vector functions declared, for llvm.compiler.used */
    size_t nused, capused;
} annotator;

/* The declaration of vector form `m`: <lanes x T>(<lanes x T>...). */
static void declare(annotator *an, const kj_mvec *m, LLVMTypeRef elem)
{
    if (LLVMGetNamedFunction(an->mod, m->sym)) return;
    LLVMTypeRef vt = LLVMVectorType(elem, m->lanes), params[2] = {vt, vt};
    LLVMValueRef f = LLVMAddFunction(an->mod, m->sym, LLVMFunctionType(vt, params, m->nargs, 0));
    if (an->nused == an->capused) {
        an->capused = an->capused ? 2 * an->capused : 16;
        an->used = realloc(an->used, an->capused * sizeof *an->used);
        if (!an->used) abort(); /* out of memory */
    }
    an->used[an->nused++] = f;
}

/* Write the vector forms of a call of `callee` (returning `elem`, with
 * nargs arguments) onto `call`, declaring them. */
static void annotate_call(annotator *an, LLVMValueRef call, const char *callee, unsigned nargs, LLVMTypeRef elem)
{
    unsigned bits = LLVMGetTypeKind(elem) == LLVMFloatTypeKind ? 32 : 64;
    char attr[512];
    size_t len = 0;
    for (size_t k = 0; k < an->ntable; k++) {
        const kj_mvec *m = &an->table[k];
        if (!m->addr || m->bits != bits || m->nargs != nargs || (m->isa == 'd' && !an->avx2) ||
            !is_fn(callee, m->fn, bits))
            continue;
        declare(an, m, elem);
        int w = snprintf(attr + len, sizeof attr - len, "%s_ZGV_LLVM_N%u%s_%s(%s)", len ? "," : "", m->lanes,
                         nargs == 2 ? "vv" : "v", callee, m->sym);
        if (w < 0 || (size_t)w >= sizeof attr - len) return; /* (cannot happen: names are short) */
        len += (size_t)w;
    }
    if (!len) return;
    static const char key[] = "vector-function-abi-variant";
    LLVMAttributeRef a = LLVMCreateStringAttribute(an->ctx, key, sizeof key - 1, attr, (unsigned)len);
    LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex, a);
}

static void annotate_inst(annotator *an, LLVMValueRef in)
{
    if (!LLVMIsACallInst(in)) return;
    LLVMValueRef callee = LLVMIsAFunction(LLVMGetCalledValue(in));
    LLVMTypeRef ty = LLVMTypeOf(in);
    LLVMTypeKind tk = LLVMGetTypeKind(ty);
    if (!callee || (tk != LLVMFloatTypeKind && tk != LLVMDoubleTypeKind)) return;
    size_t n;
    const char *name = LLVMGetValueName2(callee, &n);
    unsigned nargs = (unsigned)LLVMGetNumArgOperands(in);
    if (nargs == 1 || nargs == 2) annotate_call(an, in, name, nargs, ty);
}

/* llvm.compiler.used = the declared vector functions: GlobalDCE would
 * otherwise drop them before the vectoriser looks for them. */
static void keep_used(annotator *an)
{
    if (!an->nused) return;
    LLVMTypeRef ptr = LLVMPointerTypeInContext(an->ctx, 0);
    LLVMValueRef init = LLVMConstArray2(ptr, an->used, an->nused);
    LLVMValueRef g = LLVMAddGlobal(an->mod, LLVMTypeOf(init), "llvm.compiler.used");
    LLVMSetInitializer(g, init);
    LLVMSetLinkage(g, LLVMAppendingLinkage);
    LLVMSetSection(g, "llvm.metadata");
}

void kj_vecmath_annotate(LLVMModuleRef mod, LLVMTargetMachineRef tm)
{
    annotator an = {.mod = mod, .ctx = LLVMGetModuleContext(mod)};
    an.table = kj_mvec_table(&an.ntable);
    if (!an.ntable || LLVMGetNamedGlobal(mod, "llvm.compiler.used")) return; /* (kjit makes no other) */
    char *features = LLVMGetTargetMachineFeatureString(tm);
    an.avx2 = has_feature(features, "avx2");
    LLVMDisposeMessage(features);
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
                annotate_inst(&an, in);
    keep_used(&an);
    free(an.used);
}
