/* SPDX-License-Identifier: BSD-2-Clause */
/* LLVM setup shared by every compile: one-time initialisation, the host
 * target machine, the per-module codegen state, and the small helpers that
 * declare what generated code calls (intrinsics, the runtime, libm). */
#include "codegen.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <string.h>

/* ---- initialisation ---- */

static pthread_once_t llvm_once = PTHREAD_ONCE_INIT;

static void llvm_init(void)
{
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
    LLVMInitializeNativeAsmParser();
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
}

void kj_llvm_init_once(void) { pthread_once(&llvm_once, llvm_init); }

static LLVMCodeGenOptLevel cg_level(int opt_level)
{
    switch (opt_level) {
    case 0: return LLVMCodeGenLevelNone;
    case 1: return LLVMCodeGenLevelLess;
    case 2: return LLVMCodeGenLevelDefault;
    default: return LLVMCodeGenLevelAggressive;
    }
}

/* The machine we run on: its triple, CPU name and features (so that AVX2 /
 * AVX-512 are used where present). Position-independent code with the small
 * code model: JITLink reaches the runtime's functions through stubs. */
LLVMTargetMachineRef kj_llvm_host_tm(int opt_level, char **err)
{
    kj_llvm_init_once();
    char *triple = LLVMGetDefaultTargetTriple();
    LLVMTargetRef target;
    LLVMTargetMachineRef tm = NULL;
    if (!LLVMGetTargetFromTriple(triple, &target, err)) {
        char *cpu = LLVMGetHostCPUName(), *features = LLVMGetHostCPUFeatures();
        tm = LLVMCreateTargetMachine(target, triple, cpu, features, cg_level(opt_level), LLVMRelocPIC,
                                     LLVMCodeModelSmall);
        LLVMDisposeMessage(cpu);
        LLVMDisposeMessage(features);
    }
    LLVMDisposeMessage(triple);
    return tm;
}

/* ---- the codegen state ---- */

void kj_cg_init(kj_cg *cg, LLVMContextRef ctx, LLVMModuleRef mod, const kir_module *km, kj_diags *d,
                kj_arena *a)
{
    memset(cg, 0, sizeof *cg);
    cg->ctx = ctx;
    cg->mod = mod;
    cg->b = LLVMCreateBuilderInContext(ctx);
    cg->km = km;
    cg->d = d;
    cg->a = a;
    cg->t_void = LLVMVoidTypeInContext(ctx);
    cg->t_i1 = LLVMInt1TypeInContext(ctx);
    cg->t_i8 = LLVMInt8TypeInContext(ctx);
    cg->t_i32 = LLVMInt32TypeInContext(ctx);
    cg->t_i64 = LLVMInt64TypeInContext(ctx);
    cg->t_f32 = LLVMFloatTypeInContext(ctx);
    cg->t_f64 = LLVMDoubleTypeInContext(ctx);
    cg->t_ptr = LLVMPointerTypeInContext(ctx, 0);
    cg->tgt = &kj_target_host;
    cg->run = &kj_run_cpu;
}

void kj_cg_dispose(kj_cg *cg)
{
    kj_cg_di_finish(cg);
    if (cg->b) LLVMDisposeBuilder(cg->b);
    cg->b = NULL;
}

void kj_cg_fail(kj_cg *cg, kj_span sp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    kj_error(cg->d, cg->km ? cg->km->src : NULL, sp, "%s", msg);
    cg->failed = true;
}

LLVMAttributeRef kj_cg_attr(kj_cg *cg, const char *name, uint64_t val)
{
    unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
    return LLVMCreateEnumAttribute(cg->ctx, kind, val);
}

static void fn_attr(kj_cg *cg, LLVMValueRef f, const char *name, uint64_t val)
{
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, kj_cg_attr(cg, name, val));
}

/* A function without side effects we care about: calls may be moved,
 * merged or dropped (memory(none) is encoded as 0). */
static void mark_pure(kj_cg *cg, LLVMValueRef f)
{
    fn_attr(cg, f, "nounwind", 0);
    fn_attr(cg, f, "willreturn", 0);
    fn_attr(cg, f, "memory", 0);
}

LLVMValueRef kj_cg_intrinsic(kj_cg *cg, const char *name, LLVMTypeRef ty, LLVMValueRef *args,
                             unsigned n)
{
    LLVMValueRef v = cg->tgt->intrinsic ? cg->tgt->intrinsic(cg, name, ty, args, n) : NULL;
    if (v) return v;
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMTypeRef tys[1] = {ty};
    unsigned nt = ty ? 1 : 0;
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(cg->mod, id, tys, nt);
    LLVMTypeRef fty = LLVMIntrinsicGetType(cg->ctx, id, tys, nt);
    return kj_cg_fm(cg, LLVMBuildCall2(cg->b, fty, f, args, n, ""));
}

/* ---- runtime functions ---- */

/* The rows of src/abi/rtfns.def: symbol, signature letters (return type,
 * then the parameters; rtfns.h) and flags. */
#define KJ_UNPAREN(...) __VA_ARGS__
#define KJ_RTARG(letter, type, name) letter
static const struct {
    const char *sym;
    char sig[KJ_RTSIG_MAX + 1];
    unsigned flags;
} rtfns[KJ_RTF__COUNT] = {
#define KJ_RTFN(id, fn, flags, ret, params) [KJ_RTF_##id] = {#fn, {ret, KJ_UNPAREN params}, KJ_RTF_##flags},
#include "../abi/rtfns.def"
};
#undef KJ_RTARG
#undef KJ_UNPAREN

static LLVMTypeRef sig_type(kj_cg *cg, char c)
{
    switch (c) {
    case 'v': return cg->t_void;
    case 'b': return cg->t_i1;
    case 'c': return cg->t_i8;
    case 'i': return cg->t_i32;
    case 'l': return cg->t_i64;
    case 'f': return cg->t_f32;
    case 'd': return cg->t_f64;
    default: return cg->t_ptr;
    }
}

LLVMValueRef kj_cg_rtfn_decl(kj_cg *cg, kj_rtfn id)
{
    const char *sym = rtfns[id].sym, *sig = rtfns[id].sig;
    LLVMValueRef f = LLVMGetNamedFunction(cg->mod, sym);
    if (f) return f;
    LLVMTypeRef params[KJ_RTSIG_MAX];
    unsigned np = (unsigned)strlen(sig) - 1;
    for (unsigned k = 0; k < np; k++) params[k] = sig_type(cg, sig[k + 1]);
    f = LLVMAddFunction(cg->mod, sym, LLVMFunctionType(sig_type(cg, sig[0]), params, np, 0));
    if (rtfns[id].flags & KJ_RTF_NORETURN) {
        fn_attr(cg, f, "noreturn", 0);
        fn_attr(cg, f, "cold", 0);
        fn_attr(cg, f, "nounwind", 0);
    }
    if (rtfns[id].flags & KJ_RTF_PURE) mark_pure(cg, f);
    if (!(rtfns[id].flags & (KJ_RTF_NORETURN | KJ_RTF_PURE))) fn_attr(cg, f, "nounwind", 0);
    return f;
}

LLVMValueRef kj_cg_rtcall(kj_cg *cg, kj_rtfn id, LLVMValueRef *args, unsigned n)
{
    if (cg->tgt->rtcall) return cg->tgt->rtcall(cg, id, args, n);
    LLVMValueRef f = kj_cg_rtfn_decl(cg, id);
    return LLVMBuildCall2(cg->b, LLVMGlobalGetValueType(f), f, args, n, "");
}

LLVMValueRef kj_cg_libm(kj_cg *cg, const char *name, LLVMTypeRef ty, LLVMValueRef *args, unsigned n)
{
    if (cg->tgt->libm) return cg->tgt->libm(cg, name, ty, args, n);
    LLVMValueRef f = LLVMGetNamedFunction(cg->mod, name);
    if (!f) {
        LLVMTypeRef params[2] = {ty, ty};
        f = LLVMAddFunction(cg->mod, name, LLVMFunctionType(ty, params, n, 0));
        mark_pure(cg, f);
    }
    return kj_cg_fm(cg, LLVMBuildCall2(cg->b, LLVMGlobalGetValueType(f), f, args, n, ""));
}

LLVMValueRef kj_cg_cstr(kj_cg *cg, const char *s)
{
    size_t n = strlen(s);
    LLVMValueRef init = LLVMConstStringInContext2(cg->ctx, s, n, 0);
    LLVMValueRef g = LLVMAddGlobal(cg->mod, LLVMTypeOf(init), ".str");
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
    LLVMSetAlignment(g, 1);
    return g;
}

/* ---- symbols for the JIT ---- */

#define FN(f) ((void (*)(void))(f))
/* libm functions math builtins call directly, or that LLVM's intrinsics
 * lower to (llvm.sin.f32 → sinf), in double and float versions. */
#define LIBM(X)                                                                              \
    X(sin) X(cos) X(tan) X(asin) X(acos) X(atan) X(atan2) X(sinh) X(cosh) X(tanh) X(asinh)   \
    X(acosh) X(atanh) X(exp) X(expm1) X(exp2) X(exp10) X(log) X(log1p) X(log2) X(log10)      \
    X(pow) X(hypot) X(erf) X(erfc) X(tgamma) X(fmod) X(floor) X(ceil) X(trunc) X(round)      \
    X(roundeven) X(rint) X(nearbyint) X(sqrt) X(cbrt) X(fma) X(copysign) X(fmin) X(fmax)     \
    X(ldexp) X(nextafter) X(remainder)

static void k_sincos(double x, double *s, double *c) { sincos(x, s, c); }
static void k_sincosf(float x, float *s, float *c) { sincosf(x, s, c); }

static const kj_jit_symbol symbols[] = {
#define KJ_RTFN(id, fn, flags, ret, params) {#fn, FN(fn)},
#include "../abi/rtfns.def"
#define X(n) {#n, FN(n)}, {#n "f", FN(n##f)},
    LIBM(X)
#undef X
    {"sincos", FN(k_sincos)},
    {"sincosf", FN(k_sincosf)},
    {"memcpy", FN(memcpy)},
    {"memmove", FN(memmove)},
    {"memset", FN(memset)},
};

const kj_jit_symbol *kj_jit_symbols(size_t *n)
{
    *n = sizeof symbols / sizeof symbols[0];
    return symbols;
}

