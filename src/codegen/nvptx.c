/* SPDX-License-Identifier: BSD-2-Clause */
/* The NVPTX back end: kernels, device functions and the @jit functions they
 * call, from the same KIR the host back end reads, to PTX text.
 *
 *   KIR ──► kj_cg_module-like walk with kj_target_nvptx (this file's table;
 *           cuda.* in nvptx_cuda.c)
 *       ──► selective libdevice link (libdevice.c: only the __nv_* called)
 *       ──► default<O3> with the NVPTX target machine (NVVMReflect,
 *           address-space inference)
 *       ──► PTX (LLVMTargetMachineEmitToMemoryBuffer, assembly file)
 *
 * Every kernel K becomes an entry `kj_ptx_symbol(K)` with the PTX kernel
 * calling convention whose parameters are the kernel's, arrays flattened
 * as data pointer, shape[N], strides[N] (abi.h kj_abi_param: what the
 * runtime passes to cuLaunchKernel). The entry rebuilds each array
 * descriptor and calls the kernel body `K.thread(rt, kx, args...)`, the
 * ordinary function the shared generator makes; rt and kx are null on the
 * GPU (thread ids come from the sreg intrinsics) and vanish once inlined.
 *
 * One answer on every target: no fast-math flags unless fastmath asks, so
 * LLVM neither contracts a*b+c into an FMA nor uses approximate division
 * or square roots (NVPTX emits div.rn / sqrt.rn); transcendental functions
 * are libdevice's, which may differ from the host's libm in the last bits.
 *
 * Errors raised in GPU code (boundscheck, assert) fill the module's error
 * record (abi.h KJ_ABI_GPU_ERROR) and end the thread; the runtime reports
 * them after the launch. */
#include "nvptx.h"

#include "../abi/abi.h"
#include "../ir/builtins.h"

#include <llvm-c/Analysis.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


/* ---- symbols ---- */

const char *kj_ptx_symbol(kj_arena *a, const char *mangled)
{
    /* A PTX identifier: the readable part of the mangled name, then a hash
     * of all of it (the mangled name holds brackets and spaces). */
    uint64_t h = 1469598103934665603ull;
    for (const char *p = mangled; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
    char base[48];
    size_t n = 0;
    for (const char *p = mangled; *p && *p != '[' && n + 1 < sizeof base; p++) {
        char c = *p;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        base[n++] = ok ? c : '_';
    }
    base[n] = 0;
    return kj_arena_printf(a, "%s_%016llx", base, (unsigned long long)h);
}

/* ---- the target table: the shared generator's questions ---- */

static LLVMValueRef call_fn(kj_cg *cg, const char *name, LLVMTypeRef ret, LLVMTypeRef *params, unsigned np,
                            LLVMValueRef *args, bool pure)
{
    LLVMValueRef f = LLVMGetNamedFunction(cg->mod, name);
    if (!f) {
        f = LLVMAddFunction(cg->mod, name, LLVMFunctionType(ret, params, np, 0));
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, kj_cg_attr(cg, "nounwind", 0));
        if (pure) LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, kj_cg_attr(cg, "willreturn", 0));
    }
    return LLVMBuildCall2(cg->b, LLVMGlobalGetValueType(f), f, args, np, "");
}

/* Functions libdevice has a fast (approximate) float version of, used with
 * fastmath as Numba does. */
static bool has_fast(const char *name)
{
    static const char *const fast[] = {"sinf", "cosf", "tanf", "expf", "exp10f", "logf", "log2f", "log10f", "powf"};
    for (size_t k = 0; k < sizeof fast / sizeof fast[0]; k++)
        if (!strcmp(name, fast[k])) return true;
    return false;
}

/* libm's `name` → libdevice's __nv_name (linked by libdevice.c). */
static LLVMValueRef nv_libm(kj_cg *cg, const char *name, LLVMTypeRef ty, LLVMValueRef *args, unsigned n)
{
    bool fast = cg->fn && cg->fn->fastmath && has_fast(name);
    const char *sym = kj_arena_printf(cg->a, "__nv_%s%s", fast ? "fast_" : "", name);
    LLVMTypeRef params[2] = {ty, ty};
    return call_fn(cg, sym, ty, params, n, args, true);
}

/* Intrinsics NVPTX cannot select (they would be libm calls on the host)
 * go to libdevice; the others (sqrt, fabs, floor, fma, copysign, ...) have
 * PTX instructions. */
static LLVMValueRef nv_intrinsic(kj_cg *cg, const char *name, LLVMTypeRef ty, LLVMValueRef *args, unsigned n)
{
    static const char *const lib[] = {"sin",  "cos",  "tan",  "asin", "acos",  "atan",  "atan2", "sinh",
                                      "cosh", "tanh", "exp",  "exp2", "exp10", "log",   "log2",  "log10",
                                      "pow",  "ldexp"};
    if (strncmp(name, "llvm.", 5) || !ty) return NULL;
    for (size_t k = 0; k < sizeof lib / sizeof lib[0]; k++) {
        if (strcmp(name + 5, lib[k])) continue;
        bool f32 = LLVMGetTypeKind(ty) == LLVMFloatTypeKind;
        return nv_libm(cg, kj_arena_printf(cg->a, "%s%s", lib[k], f32 ? "f" : ""), ty, args, n);
    }
    return NULL;
}

/* The module's error record and its can-raise flag (abi.h), defined in
 * every module: the first raise sets the flag. */
static LLVMValueRef error_record(kj_cg *cg, LLVMTypeRef *ty)
{
    LLVMTypeRef f[8] = {cg->t_i32, cg->t_i32, cg->t_i32, cg->t_i32, cg->t_i64, cg->t_i64, cg->t_i64, cg->t_i64};
    *ty = LLVMStructTypeInContext(cg->ctx, f, 8, 0);
    LLVMValueRef g = LLVMGetNamedGlobal(cg->mod, KJ_ABI_GPU_ERROR);
    if (g) return g;
    g = LLVMAddGlobalInAddressSpace(cg->mod, *ty, KJ_ABI_GPU_ERROR, 1);
    LLVMSetInitializer(g, LLVMConstNull(*ty));
    LLVMSetAlignment(g, 8);
    LLVMValueRef raises = LLVMAddGlobalInAddressSpace(cg->mod, cg->t_i32, KJ_ABI_GPU_RAISES, 1);
    LLVMSetInitializer(raises, kj_cg_i32(cg, 0));
    LLVMSetGlobalConstant(raises, 1);
    return g;
}

/* Claim the record (the first raising thread wins), fill it, end the
 * thread. */
static void device_raise(kj_cg *cg, int32_t kind, LLVMValueRef msg, LLVMValueRef index, LLVMValueRef axis,
                         LLVMValueRef size, LLVMValueRef line, LLVMValueRef col)
{
    LLVMTypeRef ty;
    LLVMValueRef rec = LLVMBuildAddrSpaceCast(cg->b, error_record(cg, &ty), cg->t_ptr, "");
    LLVMSetInitializer(LLVMGetNamedGlobal(cg->mod, KJ_ABI_GPU_RAISES), kj_cg_i32(cg, 1));
    LLVMValueRef x = LLVMBuildAtomicCmpXchg(cg->b, rec, kj_cg_i32(cg, 0), kj_cg_i32(cg, 1), LLVMAtomicOrderingMonotonic,
                                            LLVMAtomicOrderingMonotonic, 0);
    LLVMValueRef won = LLVMBuildExtractValue(cg->b, x, 1, "");
    LLVMBasicBlockRef fill = kj_cg_bb(cg, "raise.fill"), out = kj_cg_bb(cg, "raise.exit");
    LLVMBuildCondBr(cg->b, won, fill, out);
    LLVMPositionBuilderAtEnd(cg->b, fill);
    LLVMValueRef v[8] = {NULL, kj_cg_i32(cg, kind), line, col, index, axis, size,
                         msg ? LLVMBuildPtrToInt(cg->b, msg, cg->t_i64, "") : kj_cg_i64(cg, 0)};
    for (unsigned k = 1; k < 8; k++) LLVMBuildStore(cg->b, v[k], LLVMBuildStructGEP2(cg->b, ty, rec, k, ""));
    LLVMBuildBr(cg->b, out);
    LLVMPositionBuilderAtEnd(cg->b, out);
    LLVMBuildFence(cg->b, LLVMAtomicOrderingSequentiallyConsistent, 0, "");
    unsigned id = LLVMLookupIntrinsicID("llvm.nvvm.exit", 14);
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(cg->mod, id, NULL, 0);
    LLVMBuildCall2(cg->b, LLVMIntrinsicGetType(cg->ctx, id, NULL, 0), f, NULL, 0, "");
}

/* After optimisation: a module whose raise sites were all proved
 * unreachable (a check folded away, as `x % 2`'s divisor test is) no longer
 * uses its error record, so it cannot raise. Then the flag says so, and the
 * runtime neither reads the record after each launch (a synchronisation)
 * nor keeps the module's launches out of CUDA graphs. */
static void settle_raises(LLVMModuleRef mod)
{
    LLVMValueRef rec = LLVMGetNamedGlobal(mod, KJ_ABI_GPU_ERROR), raises = LLVMGetNamedGlobal(mod, KJ_ABI_GPU_RAISES);
    if (rec && raises && !LLVMGetFirstUse(rec))
        LLVMSetInitializer(raises, LLVMConstInt(LLVMGlobalGetValueType(raises), 0, 0));
}

static LLVMValueRef nv_rtcall(kj_cg *cg, kj_rtfn id, LLVMValueRef *args, unsigned n)
{
    (void)n;
    LLVMValueRef none = kj_cg_i64(cg, -1);
    switch (id) {
    case KJ_RTF_RAISE: { /* (rt, kind, msg, line, col) */
        LLVMValueRef msg = LLVMIsNull(args[2]) ? NULL : args[2];
        device_raise(cg, (int32_t)LLVMConstIntGetSExtValue(args[1]), msg, none, none, none, args[3], args[4]);
        return NULL;
    }
    case KJ_RTF_RAISE_INDEX: case KJ_RTF_RAISE_INDEX_U: /* (rt, index, axis, size, line, col) */
        device_raise(cg, KJ_RT_INDEX, NULL, args[1], args[2], args[3], args[4], args[5]);
        return NULL;
    case KJ_RTF_MARK: return kj_cg_i64(cg, 0); /* GPU code makes no runtime arrays to release */
    case KJ_RTF_COLLECT: case KJ_RTF_KEEP: return NULL;
    case KJ_RTF_LGAMMA: return nv_libm(cg, "lgamma", cg->t_f64, args, 1);
    case KJ_RTF_LGAMMAF: return nv_libm(cg, "lgammaf", cg->t_f32, args, 1);
    default: {
        kj_cg_fail(cg, cg->fn ? cg->fn->kf->span : (kj_span){0},
                   "'%s' uses a host-only operation, which GPU code cannot do", cg->fn ? cg->fn->kf->name : "?");
        return NULL;
    }
    }
}

/* ---- kernels and device functions ---- */

/* The entry `symbol` of kernel f: parameters as the launch passes them. */
static void declare_entry(kj_cg *cg, const kir_func *f, const char *symbol)
{
    uint32_t np = 0, nl;
    const kj_type **leaf = kj_kargs_leaf_types(cg, f, &nl, NULL); /* tuples pass as leaves */
    LLVMTypeRef *p = KJ_NEWN(cg->a, LLVMTypeRef, 2 * KJ_ABI_MAX_DIMS * nl + nl + 1);
    for (uint32_t k = 0; k < nl; k++) {
        const kj_type *t = leaf[k];
        if (t->kind == KJ_T_ARRAY) {
            p[np++] = cg->t_ptr;
            for (unsigned d = 0; d < 2 * t->ndim; d++) p[np++] = cg->t_i64;
        } else if (t->kind == KJ_T_INT || t->kind == KJ_T_FLOAT || t->kind == KJ_T_BOOL || t->kind == KJ_T_COMPLEX) {
            p[np++] = kj_cg_memtype(cg, t); /* a complex: {re, im}, a .param of 8 or 16 bytes */
        } else {
            kj_cg_fail(cg, f->span, "kernel '%s': a parameter of type %s cannot be passed to the GPU yet", f->name,
                       kj_type_str(t));
        }
    }
    LLVMValueRef e = LLVMAddFunction(cg->mod, symbol, LLVMFunctionType(cg->t_void, p, np, 0));
    LLVMSetFunctionCallConv(e, LLVMPTXKernelCallConv);
    LLVMAddAttributeAtIndex(e, LLVMAttributeFunctionIndex, kj_cg_attr(cg, "nounwind", 0));
}

/* The body `K.thread<suffix>` of kernel f, inlined into its entry. */
static LLVMValueRef declare_body(kj_cg *cg, const kir_func *f, const char *suffix)
{
    LLVMValueRef body = kj_cg_declare(cg, f, kj_arena_printf(cg->a, "%s.thread%s", f->mangled, suffix), true);
    LLVMAddAttributeAtIndex(body, LLVMAttributeFunctionIndex, kj_cg_attr(cg, "alwaysinline", 0));
    return body;
}

static LLVMValueRef kernel_declare(kj_cg *cg, const kir_func *f)
{
    if (f->kind == KIR_FN_DEVICE) return kj_cg_declare(cg, f, kj_cg_fn_name(cg, f), true);
    declare_entry(cg, f, kj_ptx_symbol(cg->a, f->mangled));
    return declare_body(cg, f, "");
}

/* The entry `symbol` of kernel f: rebuild the arguments, run the body. */
static void define_entry(kj_cg *cg, const kir_func *f, LLVMValueRef body, const char *symbol)
{
    LLVMValueRef e = LLVMGetNamedFunction(cg->mod, symbol);
    LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(cg->ctx, e, "entry"));
    kj_cg_di_func(cg, f, e); /* lineinfo: the body inlined here keeps its lines */
    LLVMValueRef *a = KJ_NEWN(cg->a, LLVMValueRef, f->nparams + 2);
    a[0] = a[1] = LLVMConstNull(cg->t_ptr);
    unsigned np = 0;
    uint32_t nl, used = 0;
    const kj_type **leaf = kj_kargs_leaf_types(cg, f, &nl, NULL);
    LLVMValueRef *lv = KJ_NEWN(cg->a, LLVMValueRef, nl + 1);
    for (uint32_t k = 0; k < nl; k++) {
        const kj_type *t = leaf[k];
        if (t->kind != KJ_T_ARRAY) {
            lv[k] = kj_cg_from_mem(cg, t, LLVMGetParam(e, np++));
            continue;
        }
        LLVMValueRef v = LLVMConstNull(kj_cg_type(cg, t));
        v = LLVMBuildInsertValue(cg->b, v, LLVMGetParam(e, np++), 0, "");
        for (unsigned part = 1; part <= 2; part++) {
            LLVMValueRef arr = LLVMBuildExtractValue(cg->b, v, part, "");
            for (unsigned d = 0; d < t->ndim; d++) arr = LLVMBuildInsertValue(cg->b, arr, LLVMGetParam(e, np++), d, "");
            v = LLVMBuildInsertValue(cg->b, v, arr, part, "");
        }
        lv[k] = v;
    }
    for (uint32_t k = 0; k < f->nparams; k++) a[k + 2] = kj_kargs_join(cg, f->params[k], lv, &used);
    LLVMBuildCall2(cg->b, LLVMGlobalGetValueType(body), body, a, f->nparams + 2, "");
    LLVMBuildRetVoid(cg->b);
    kj_cg_di_clear(cg);
}

static void kernel_define(kj_cg *cg, const kir_func *f, LLVMValueRef fn)
{
    kj_cg_define(cg, f, fn, NULL);
    if (f->kind != KIR_FN_KERNEL) return;
    define_entry(cg, f, fn, kj_ptx_symbol(cg->a, f->mangled));
    if (!f->index32) return;
    /* its 32-bit index variant (kir_index32.h): the same body generated again */
    const char *sym = kj_ptx_symbol32(cg->a, f->mangled);
    declare_entry(cg, f, sym);
    LLVMValueRef body = declare_body(cg, f, ".i32");
    cg->index32 = true;
    kj_cg_define(cg, f, body, NULL);
    cg->index32 = false;
    define_entry(cg, f, body, sym);
}

const kj_cg_target kj_target_nvptx = {
    .name = "nvptx",
    .rtcall = nv_rtcall,
    .libm = nv_libm,
    .intrinsic = nv_intrinsic,
    .kernel_declare = kernel_declare,
    .kernel_define = kernel_define,
    .sreg = kj_nvptx_sreg,
    .laneid = kj_nvptx_laneid,
    .barrier = kj_nvptx_barrier,
    .warp = kj_nvptx_warp,
    .shared_array = kj_nvptx_shared_array,
    .local_array = kj_nvptx_local_array,
    .print = kj_nvptx_print,
};

/* ---- which functions go to the GPU ---- */

static bool on_gpu(const kir_func *f) { return f->kind == KIR_FN_KERNEL || f->kind == KIR_FN_DEVICE; }

/* Mark f and the @jit functions it calls (they run on the GPU too). */
static void mark_callees(const kir_module *km, const kir_func *f, bool *mark)
{
    for (uint32_t r = 1; r < f->ninsts; r++) {
        const kir_inst *in = &f->insts[r];
        if (in->op != KIR_CALL || !in->fn) continue;
        for (uint32_t k = 0; k < km->nfuncs; k++)
            if (km->funcs[k] == in->fn && !mark[k]) {
                mark[k] = true;
                mark_callees(km, in->fn, mark);
            }
    }
}

bool kj_nvptx_has_kernels(const kir_module *km)
{
    for (uint32_t k = 0; k < km->nfuncs; k++)
        if (km->funcs[k]->kind == KIR_FN_KERNEL) return true;
    return false;
}

/* Is f one of the kernels (and device functions) asked for? */
static bool wanted(const kj_ptx_opts *o, const kir_func *f)
{
    if (!on_gpu(f)) return false;
    if (o->only) return f == o->only;
    if (o->kernel) return f->kind == KIR_FN_KERNEL && !strcmp(f->name, o->kernel);
    return true;
}

/* cuda.compile(f, sig, device=True) (src/api/ptx_consts.c): the device function asked for alone is
 * a visible .func named as the Python function (the name before the '@' of a function compiled for
 * one call), in kjit's calling convention. */
static void export_device(const kir_func *f, LLVMValueRef fn)
{
    const char *at = strchr(f->name, '@');
    LLVMSetLinkage(fn, LLVMExternalLinkage);
    LLVMSetVisibility(fn, LLVMDefaultVisibility);
    LLVMSetValueName2(fn, f->name, at ? (size_t)(at - f->name) : strlen(f->name));
}

/* Generate the GPU functions of km that o asks for into cg's module. */
static bool generate(kj_cg *cg, const kj_ptx_opts *o)
{
    const kir_module *km = cg->km;
    bool *mark = KJ_NEWN(cg->a, bool, km->nfuncs + 1), any = false;
    for (uint32_t k = 0; k < km->nfuncs; k++)
        if (wanted(o, km->funcs[k])) {
            mark[k] = any = true;
            mark_callees(km, km->funcs[k], mark);
        }
    if (!any && o->kernel) {
        kj_error(cg->d, km->src, (kj_span){0}, "no kernel named '%s' is launched by the program", o->kernel);
        return false;
    }
    LLVMValueRef *fns = KJ_NEWN(cg->a, LLVMValueRef, km->nfuncs + 1);
    for (uint32_t k = 0; k < km->nfuncs; k++) {
        const kir_func *f = km->funcs[k];
        if (!mark[k]) continue;
        fns[k] = on_gpu(f) ? kernel_declare(cg, f) : kj_cg_declare(cg, f, kj_cg_fn_name(cg, f), false);
        if (f == o->only && f->kind == KIR_FN_DEVICE) export_device(f, fns[k]);
    }
    for (uint32_t k = 0; k < km->nfuncs; k++) {
        if (!fns[k]) continue;
        if (on_gpu(km->funcs[k])) kernel_define(cg, km->funcs[k], fns[k]);
        else kj_cg_define(cg, km->funcs[k], fns[k], NULL);
    }
    return !cg->failed;
}

/* ---- the pipeline ---- */

LLVMTargetMachineRef kj_nvptx_tm(const char *arch, int opt_level, char **err)
{
    kj_llvm_init_once();
    LLVMTargetRef target;
    if (LLVMGetTargetFromTriple("nvptx64-nvidia-cuda", &target, err)) return NULL;
    LLVMCodeGenOptLevel lvl = opt_level <= 0 ? LLVMCodeGenLevelNone : LLVMCodeGenLevelAggressive;
    return LLVMCreateTargetMachine(target, "nvptx64-nvidia-cuda", arch, "", lvl, LLVMRelocDefault,
                                   LLVMCodeModelDefault);
}

static bool fail(kj_diags *d, const kir_module *km, const char *what, const char *detail)
{
    kj_error(d, km->src, km->main ? km->main->span : (kj_span){0}, "%s: %s", what, detail ? detail : "");
    return false;
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Phase k ended now: its time into o->phases (when asked for). */
static void phase(const kj_ptx_opts *o, int k, double *t)
{
    double now = seconds();
    if (o->phases) o->phases[k] += now - *t;
    *t = now;
}

/* "// kjit: ..." lines before the PTX, one per kernel o asks for that
 * kir_layout.c remapped or kir_index32.c gave a 32-bit index entry (a
 * comment ptxas ignores). Takes ptx (malloc). */
static char *remap_notes(const kir_module *km, const kj_ptx_opts *o, char *ptx)
{
    kj_buf b = {0};
    kj_arena b_arena;
    kj_arena_init(&b_arena);
    for (uint32_t k = 0; ptx && k < km->nfuncs; k++) {
        const kir_func *f = km->funcs[k];
        if (f->kind == KIR_FN_KERNEL && f->index32 && wanted(o, f))
            kj_buf_printf(&b, "// kjit: kernel %s has a 32-bit index entry %s, launched when every array argument's "
                              "extents, element count and span and every grid dimension fit in int32 "
                              "(KJIT_INDEX32=1)\n", f->mangled, kj_ptx_symbol32(&b_arena, f->mangled));
        if (f->kind == KIR_FN_KERNEL && f->layout_perm && wanted(o, f))
            kj_buf_printf(&b, "// kjit: kernel %s remapped for its thread layout: threadIdx.x and .y (and blockDim) "
                              "swapped, launched with the block's x and y swapped, and the grid's where its new y fits, blockIdx "
                              "and gridDim read to match (KJIT_NO_SPECIALISE=1: as written)\n",
                          f->mangled);
    }
    kj_arena_free(&b_arena);
    if (!b.n) {
        kj_buf_free(&b);
        return ptx;
    }
    kj_buf_puts(&b, ptx);
    free(ptx);
    return kj_buf_take(&b);
}

char *kj_codegen_ptx(const kir_module *km, const kj_ptx_opts *o, kj_diags *d)
{
    char *msg = NULL, *ptx = NULL;
    double t = seconds();
    LLVMTargetMachineRef tm = kj_nvptx_tm(o->arch, o->opt_level, &msg);
    if (!tm) {
        fail(d, km, "internal compiler error: no NVPTX target", msg);
        LLVMDisposeMessage(msg);
        return NULL;
    }
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef mod = LLVMModuleCreateWithNameInContext("kjit.ptx", ctx);
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
    LLVMSetModuleDataLayout(mod, td);
    LLVMSetTarget(mod, "nvptx64-nvidia-cuda");
    /* libdevice asks __nvvm_reflect("__CUDA_FTZ"): keep denormals (IEEE) */
    LLVMAddModuleFlag(mod, LLVMModuleFlagBehaviorOverride, "nvvm-reflect-ftz", 16,
                      LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(ctx), 0, 0)));
    kj_arena a;
    kj_arena_init(&a);
    kj_cg cg;
    kj_cg_init(&cg, ctx, mod, km, d, &a);
    cg.td = td;
    cg.tgt = &kj_target_nvptx;
    cg.sm = o->arch && !strncmp(o->arch, "sm_", 3) ? atoi(o->arch + 3) : 0;
    bool ok = generate(&cg, o);
    LLVMTypeRef rec;
    error_record(&cg, &rec); /* defined even when nothing raises */
    kj_cg_dispose(&cg);
    kj_arena_free(&a);
    char err[1024] = "";
    size_t n = 0;
    if (ok && o->verify && LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg))
        ok = fail(d, km, "internal compiler error: invalid LLVM IR for the GPU", msg);
    LLVMDisposeMessage(msg);
    phase(o, 0, &t);
    if (ok && !kj_libdevice_link(mod, o->libdevice, err, sizeof err)) ok = fail(d, km, "libdevice", err);
    phase(o, 1, &t);
    if (ok && !kj_llvm_optimise(mod, tm, o->opt_level, err, sizeof err)) ok = fail(d, km, "internal compiler error", err);
    if (ok) settle_raises(mod);
    phase(o, 2, &t);
    if (ok && !(ptx = kj_llvm_emit(tm, mod, LLVMAssemblyFile, &n, err, sizeof err)))
        fail(d, km, "internal compiler error: PTX", err);
    phase(o, 3, &t);
    LLVMDisposeTargetData(td);
    LLVMDisposeModule(mod);
    LLVMContextDispose(ctx);
    LLVMDisposeTargetMachine(tm);
    return remap_notes(km, o, ptx);
}
