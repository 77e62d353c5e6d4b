/* Vector math for the host pipeline: tell LLVM's loop vectoriser that
 * glibc's libmvec has vector forms of the libm functions, so that a loop
 * (a @vectorize body, a @jit loop, a kernel on the CPU) calling sin, exp or
 * pow calls _ZGVdN8v_sinf once per 8 elements instead of sinf 8 times.
 *
 * LLVM knows libmvec as a vector library (-vector-library=LIBMVEC), but
 * that is a command-line option, global to the process, which the C API
 * does not reach. What the option does, though, is write the mappings onto
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
 * x86-64. Its functions are referenced weakly (meson links libmvec), so a
 * glibc without the newer ones (2.35 added tan, erf, ...) leaves their
 * address NULL and their loops scalar.
 *
 * Only the 128-bit (SSE, ISA 'b') and 256-bit (AVX2, 'd') variants are
 * offered. A 512-bit vector argument is passed in one zmm register only
 * where the caller has "min-legal-vector-width"="512"; LLVM prefers 256-bit
 * vectors on the CPUs that have AVX-512, and offering the 'e' variants
 * would risk an ABI mismatch for little gain. */
#include "vecmath.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef KJ_HAVE_LIBMVEC

/* The libm functions libmvec has, and how many arguments they take. */
#define MVEC_FNS(X)                                                                                      \
    X(sin, v) X(cos, v) X(tan, v) X(asin, v) X(acos, v) X(atan, v) X(atan2, vv) X(sinh, v) X(cosh, v)    \
    X(tanh, v) X(asinh, v) X(acosh, v) X(atanh, v) X(exp, v) X(expm1, v) X(exp2, v) X(exp10, v) X(log, v) \
    X(log1p, v) X(log2, v) X(log10, v) X(pow, vv) X(hypot, vv) X(erf, v) X(erfc, v) X(cbrt, v)

/* Each function's variants, in the order of `isas` below: SSE float64 x2,
 * float32 x4, AVX2 float64 x4, float32 x8. */
#define MVEC_VARIANTS(V, fn, p) V(b, 2, p, fn) V(b, 4, p, fn##f) V(d, 4, p, fn) V(d, 8, p, fn##f)
#define MVEC_SYM(isa, vf, p, name) _ZGV##isa##N##vf##p##_##name

/* Declared as void(void): only their addresses are taken, for the JIT. */
#define DECLARE(isa, vf, p, name) extern void MVEC_SYM(isa, vf, p, name)(void) __attribute__((weak));
#define DECLARE_FN(fn, p) MVEC_VARIANTS(DECLARE, fn, p)
MVEC_FNS(DECLARE_FN)
#undef DECLARE_FN
#undef DECLARE

#define STR_(x) #x
#define STR(x) STR_(x)
#define SYMBOL(isa, vf, p, name) {STR(MVEC_SYM(isa, vf, p, name)), MVEC_SYM(isa, vf, p, name)},
#define SYMBOLS_FN(fn, p) MVEC_VARIANTS(SYMBOL, fn, p)
static const kj_jit_symbol symbols[] = {MVEC_FNS(SYMBOLS_FN)};
#undef SYMBOLS_FN
#undef SYMBOL

typedef struct mvec_fn {
    const char *name; /* libm's, for double */
    unsigned nargs;
} mvec_fn;

#define ROW(fn, p) {#fn, sizeof #p - 1},
static const mvec_fn fns[] = {MVEC_FNS(ROW)};
#undef ROW

enum { NVARIANTS = 4 };

/* The variants' ISA letter, lanes and element width (bits), in order. */
static const struct {
    char isa;
    unsigned lanes, bits;
} isas[NVARIANTS] = {{'b', 2, 64}, {'b', 4, 32}, {'d', 4, 64}, {'d', 8, 32}};

const kj_jit_symbol *kj_vecmath_symbols(size_t *n)
{
    *n = sizeof symbols / sizeof symbols[0];
    return symbols;
}

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

/* The row of libm function `name` called with float `bits`, as its libm
 * name (sinf, sin) or LLVM's intrinsic (llvm.sin.f32); -1 for none. */
static int match(const char *name, unsigned bits)
{
    char want[48];
    for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
        snprintf(want, sizeof want, "%s%s", fns[k].name, bits == 32 ? "f" : "");
        if (!strcmp(name, want)) return (int)k;
        snprintf(want, sizeof want, "llvm.%s.f%u", fns[k].name, bits);
        if (!strcmp(name, want)) return (int)k;
    }
    return -1;
}

typedef struct annotator {
    LLVMModuleRef mod;
    LLVMContextRef ctx;
    bool avx2;
    LLVMValueRef *used; /* the vector functions declared, for llvm.compiler.used */
    size_t nused, capused;
} annotator;

/* The declaration of vector function `sym`: <lanes x T>(<lanes x T>...). */
static LLVMValueRef declare(annotator *an, const char *sym, LLVMTypeRef elem, unsigned lanes, unsigned nargs)
{
    LLVMValueRef f = LLVMGetNamedFunction(an->mod, sym);
    if (f) return f;
    LLVMTypeRef vt = LLVMVectorType(elem, lanes), params[2] = {vt, vt};
    f = LLVMAddFunction(an->mod, sym, LLVMFunctionType(vt, params, nargs, 0));
    if (an->nused == an->capused) {
        an->capused = an->capused ? 2 * an->capused : 16;
        an->used = realloc(an->used, an->capused * sizeof *an->used);
        if (!an->used) abort(); /* out of memory */
    }
    an->used[an->nused++] = f;
    return f;
}

/* Write the variants of row `k` for a call of `callee` onto `call`. */
static void annotate_call(annotator *an, LLVMValueRef call, const char *callee, int k, unsigned bits,
                          LLVMTypeRef elem)
{
    char attr[512];
    size_t len = 0;
    for (unsigned v = 0; v < NVARIANTS; v++) {
        const kj_jit_symbol *s = &symbols[(size_t)k * NVARIANTS + v];
        if (isas[v].bits != bits || !s->addr || (isas[v].isa == 'd' && !an->avx2)) continue;
        declare(an, s->name, elem, isas[v].lanes, fns[k].nargs);
        int w = snprintf(attr + len, sizeof attr - len, "%s_ZGV_LLVM_N%u%s_%s(%s)", len ? "," : "",
                         isas[v].lanes, fns[k].nargs == 2 ? "vv" : "v", callee, s->name);
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
    unsigned bits = tk == LLVMFloatTypeKind ? 32 : 64;
    int k = match(name, bits);
    if (k >= 0 && (unsigned)LLVMGetNumArgOperands(in) == fns[k].nargs) annotate_call(an, in, name, k, bits, ty);
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
    char *features = LLVMGetTargetMachineFeatureString(tm);
    annotator an = {.mod = mod, .ctx = LLVMGetModuleContext(mod), .avx2 = has_feature(features, "avx2")};
    LLVMDisposeMessage(features);
    if (LLVMGetNamedGlobal(mod, "llvm.compiler.used")) return; /* (annotated already; kjit makes none) */
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
                annotate_inst(&an, in);
    keep_used(&an);
    free(an.used);
}

#else /* no libmvec (not x86-64 glibc): loops call libm per element */

const kj_jit_symbol *kj_vecmath_symbols(size_t *n)
{
    *n = 0;
    return NULL;
}

void kj_vecmath_annotate(LLVMModuleRef mod, LLVMTargetMachineRef tm)
{
    (void)mod, (void)tm;
}

#endif
