/* The host pipeline: KIR → LLVM IR → verify → default<On> with the host
 * target machine (so loops vectorise for this CPU) → object file → ORC
 * LLJIT.
 *
 * We emit the object file ourselves with our own target machine rather
 * than hand LLJIT the IR: one target machine serves the optimiser, the
 * `kjit asm` listing and the object, and the object's bytes are what the
 * compile cache stores (kj_jit_object / kj_jit_from_object).
 *
 * Symbols: generated code calls the runtime (kj_rt_*) and libm. They are
 * defined in the JIT as absolute symbols from a table of addresses
 * (kj_jit_symbols), so they resolve even when libkjit.so was loaded with
 * RTLD_LOCAL; a process-symbol generator resolves anything else LLVM may
 * emit a call to. */
#include "codegen.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double T0(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e3+t.tv_nsec*1e-6;}
#define TM(x) do{double _t=T0(); x; if(getenv("KJIT_TIME"))fprintf(stderr,"  %-10s %.2f ms\n",#x,T0()-_t);}while(0)

struct kj_jit {
    LLVMOrcLLJITRef jit;
    char *ir, *asm_text;
    void *obj;
    size_t obj_size;
};

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (!p) abort();
    return memcpy(p, s, n);
}

/* Consume an LLVMErrorRef into err; true when there was an error. */
static bool take_error(LLVMErrorRef e, char *err, size_t cap, const char *what)
{
    if (!e) return false;
    char *msg = LLVMGetErrorMessage(e);
    snprintf(err, cap, "%s: %s", what, msg);
    LLVMDisposeErrorMessage(msg);
    return true;
}

/* ORC reports some errors (failed lookups, unresolved symbols) to the
 * session as well as to the caller; the caller's copy is the one we use. */
static void ignore_session_error(void *ctx, LLVMErrorRef e)
{
    (void)ctx;
    LLVMConsumeError(e);
}

/* Runtime and libm symbols at their addresses in this process. */
static LLVMErrorRef define_symbols(LLVMOrcLLJITRef jit)
{
    size_t n;
    const kj_jit_symbol *syms = kj_jit_symbols(&n);
    LLVMOrcCSymbolMapPair *pairs = calloc(n, sizeof *pairs);
    if (!pairs) abort();
    for (size_t k = 0; k < n; k++) {
        pairs[k].Name = LLVMOrcLLJITMangleAndIntern(jit, syms[k].name);
        pairs[k].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)syms[k].addr;
        pairs[k].Sym.Flags.GenericFlags =
            LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
    }
    LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(pairs, n);
    free(pairs);
    return LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(jit), mu);
}

static kj_jit *jit_new(char *err, size_t cap)
{
    kj_llvm_init_once();
    kj_jit *j = calloc(1, sizeof *j);
    if (!j) abort();
    if (take_error(LLVMOrcCreateLLJIT(&j->jit, NULL), err, cap, "cannot create the JIT")) {
        free(j);
        return NULL;
    }
    LLVMOrcExecutionSessionSetErrorReporter(LLVMOrcLLJITGetExecutionSession(j->jit), ignore_session_error,
                                            NULL);
    LLVMOrcDefinitionGeneratorRef gen;
    if (take_error(define_symbols(j->jit), err, cap, "cannot define runtime symbols") ||
        take_error(LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
                       &gen, LLVMOrcLLJITGetGlobalPrefix(j->jit), NULL, NULL),
                   err, cap, "cannot search process symbols")) {
        kj_jit_free(j);
        return NULL;
    }
    LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(j->jit), gen);
    return j;
}

/* Add an object file (the buffer is consumed). */
static bool add_object(kj_jit *j, LLVMMemoryBufferRef buf, char *err, size_t cap)
{
    return !take_error(LLVMOrcLLJITAddObjectFile(j->jit, LLVMOrcLLJITGetMainJITDylib(j->jit), buf), err, cap,
                       "cannot load the object file");
}

kj_jit *kj_jit_from_object(const void *obj, size_t size, char *err, size_t cap)
{
    kj_jit *j = jit_new(err, cap);
    if (!j) return NULL;
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(obj, size, "kjit-object");
    if (!add_object(j, buf, err, cap)) {
        kj_jit_free(j);
        return NULL;
    }
    return j;
}

static void *lookup(kj_jit *j, const char *mangled, char *err, size_t cap)
{
    size_t n = strlen(mangled);
    char *name = malloc(n + 7);
    if (!name) abort();
    memcpy(name, mangled, n);
    memcpy(name + n, ".entry", 7);
    LLVMOrcExecutorAddress addr = 0;
    LLVMErrorRef e = LLVMOrcLLJITLookup(j->jit, &addr, name);
    free(name);
    if (e) {
        if (err) take_error(e, err, cap, "cannot link the generated code");
        else LLVMConsumeError(e);
        return NULL;
    }
    return (void *)(uintptr_t)addr;
}

kj_entry_fn kj_jit_lookup(kj_jit *j, const char *mangled)
{
    void *p = j ? lookup(j, mangled, NULL, 0) : NULL;
    kj_entry_fn fn;
    memcpy(&fn, &p, sizeof fn); /* object pointer → function pointer */
    return p ? fn : NULL;
}

const char *kj_jit_ir(const kj_jit *j) { return j ? j->ir : NULL; }
const char *kj_jit_asm(const kj_jit *j) { return j ? j->asm_text : NULL; }

const void *kj_jit_object(const kj_jit *j, size_t *size)
{
    *size = j ? j->obj_size : 0;
    return j ? j->obj : NULL;
}

void kj_jit_free(kj_jit *j)
{
    if (!j) return;
    if (j->jit) {
        LLVMErrorRef e = LLVMOrcDisposeLLJIT(j->jit);
        if (e) LLVMConsumeError(e);
    }
    free(j->ir);
    free(j->asm_text);
    free(j->obj);
    free(j);
}

/* ---- the pipeline ---- */

typedef struct pipeline {
    kj_codegen_opts o;
    LLVMTargetMachineRef tm;
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMTargetDataRef td;
    kj_diags *d;
    const kir_module *km;
    char err[1024];
} pipeline;

/* Report "what: detail" (at main, the closest thing to a location). */
static bool fail(pipeline *p, const char *what, const char *detail)
{
    kj_error(p->d, p->km->src, p->km->main ? p->km->main->span : (kj_span){0}, "%s: %s", what, detail);
    return false;
}

static bool setup(pipeline *p)
{
    char *msg = NULL;
    p->tm = kj_llvm_host_tm(p->o.opt_level, &msg);
    if (!p->tm) {
        fail(p, "cannot create the host target machine", msg ? msg : "unknown target");
        LLVMDisposeMessage(msg);
        return false;
    }
    p->ctx = LLVMContextCreate();
    const char *name = p->km->src && p->km->src->path ? p->km->src->path : "kjit";
    p->mod = LLVMModuleCreateWithNameInContext(name, p->ctx);
    p->td = LLVMCreateTargetDataLayout(p->tm);
    LLVMSetModuleDataLayout(p->mod, p->td);
    char *triple = LLVMGetTargetMachineTriple(p->tm);
    LLVMSetTarget(p->mod, triple);
    LLVMDisposeMessage(triple);
    return true;
}

static bool generate(pipeline *p)
{
    kj_arena a;
    kj_arena_init(&a);
    kj_cg cg;
    kj_cg_init(&cg, p->ctx, p->mod, p->km, p->d, &a);
    cg.td = p->td;
    bool ok = kj_cg_module(&cg);
    kj_cg_dispose(&cg);
    kj_arena_free(&a);
    return ok;
}

static bool verify(pipeline *p)
{
    char *msg = NULL;
    if (!LLVMVerifyModule(p->mod, LLVMReturnStatusAction, &msg)) {
        LLVMDisposeMessage(msg);
        return true;
    }
    fail(p, "internal compiler error: invalid LLVM IR", msg ? msg : "");
    LLVMDisposeMessage(msg);
    return false;
}

static bool optimise(pipeline *p)
{
    char passes[32];
    int lvl = p->o.opt_level < 0 ? 0 : p->o.opt_level > 3 ? 3 : p->o.opt_level;
    snprintf(passes, sizeof passes, "default<O%d>", lvl);
    LLVMPassBuilderOptionsRef pbo = LLVMCreatePassBuilderOptions();
    LLVMPassBuilderOptionsSetLoopVectorization(pbo, lvl >= 2);
    LLVMPassBuilderOptionsSetSLPVectorization(pbo, lvl >= 2);
    LLVMPassBuilderOptionsSetLoopInterleaving(pbo, lvl >= 2);
    LLVMPassBuilderOptionsSetLoopUnrolling(pbo, lvl >= 2);
    LLVMErrorRef e = LLVMRunPasses(p->mod, passes, p->tm, pbo);
    LLVMDisposePassBuilderOptions(pbo);
    if (!take_error(e, p->err, sizeof p->err, "optimisation failed")) return true;
    return fail(p, "internal compiler error", p->err);
}

/* Machine code of `mod` (asm text or an object file) into a malloc'd copy. */
static char *emit(pipeline *p, LLVMModuleRef mod, LLVMCodeGenFileType kind, size_t *size)
{
    char *msg = NULL;
    LLVMMemoryBufferRef buf = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(p->tm, mod, kind, &msg, &buf)) {
        fail(p, "internal compiler error: code generation failed", msg ? msg : "");
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

/* The first host function's entry: looking it up links the object now, so
 * unresolved symbols are compile errors rather than failures at call time. */
static bool link_now(pipeline *p, kj_jit *j)
{
    for (uint32_t k = 0; k < p->km->nfuncs; k++) {
        const kir_func *f = p->km->funcs[k];
        if (f->kind == KIR_FN_KERNEL || f->kind == KIR_FN_DEVICE) continue;
        if (!lookup(j, f->mangled, p->err, sizeof p->err)) return fail(p, "internal compiler error", p->err);
        return true;
    }
    return true;
}

static kj_jit *load(pipeline *p)
{
    kj_jit *j; TM(j = jit_new(p->err, sizeof p->err));
    if (!j) return fail(p, "internal compiler error", p->err), NULL;
    if (p->o.keep_ir) {
        char *s = LLVMPrintModuleToString(p->mod);
        j->ir = xstrdup(s);
        LLVMDisposeMessage(s);
    }
    size_t n;
    if (p->o.keep_asm) {
        /* Code generation changes the IR a little; list a copy. */
        LLVMModuleRef copy = LLVMCloneModule(p->mod);
        j->asm_text = emit(p, copy, LLVMAssemblyFile, &n);
        LLVMDisposeModule(copy);
    }
    char *obj; TM(obj = emit(p, p->mod, LLVMObjectFile, &n));
    if (!obj) return kj_jit_free(j), NULL;
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(obj, n, "kjit-object");
    if (p->o.keep_object) {
        j->obj = obj;
        j->obj_size = n;
    } else {
        free(obj);
    }
    bool added; TM(added = add_object(j, buf, p->err, sizeof p->err)); if (!added) {
        fail(p, "internal compiler error", p->err);
        kj_jit_free(j);
        return NULL;
    }
    bool linked; TM(linked = link_now(p, j)); if (!linked) {
        kj_jit_free(j);
        return NULL;
    }
    return j;
}

kj_jit *kj_codegen_host(const kir_module *m, const kj_codegen_opts *opt, kj_diags *d)
{
    pipeline p = {.o = opt ? *opt : (kj_codegen_opts){.opt_level = 3}, .d = d, .km = m};
#ifndef NDEBUG
    p.o.verify = true; /* development builds always check the IR */
#endif
    kj_jit *j = NULL;
    bool ok; TM(ok = setup(&p)); if (ok) TM(ok = generate(&p)); if (ok && p.o.verify) TM(ok = verify(&p)); if (ok) TM(ok = optimise(&p)); if (ok) TM(j = load(&p));
    if (p.mod) LLVMDisposeModule(p.mod);
    if (p.ctx) LLVMContextDispose(p.ctx);
    if (p.td) LLVMDisposeTargetData(p.td);
    if (p.tm) LLVMDisposeTargetMachine(p.tm);
    return j;
}
