/* SPDX-License-Identifier: BSD-2-Clause */
/* The host pipeline: KIR → LLVM IR → verify → default<On> with the host
 * target machine (so loops vectorise for this CPU) → object file → ORC
 * LLJIT.
 *
 * We emit the object file ourselves with our own target machine rather
 * than hand LLJIT the IR: one target machine serves the optimiser, the
 * `kjit asm` listing and the object, and the object's bytes are what the
 * compile cache stores (kj_jit_object / kj_jit_from_object).
 *
 * Compile time is LLVM's -O3 pipeline and instruction selection, almost
 * all of it (docs/performance.md). Two things keep it down: main's calls
 * of @jit functions and helpers stay calls (outline_main_calls), and a
 * program whose functions fall into independent groups is compiled as
 * several modules, one per core (split), each on its own thread to its own
 * object file, linked together by the JIT. */
#include "host.h"
#include "vecmath.h"

#include "../runtime/pool.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


/* Report "what: detail" (at main, the closest thing to a location). */
static bool fail(pipeline *p, const char *what, const char *detail)
{
    kj_error(p->d, p->km->src, p->km->main ? p->km->main->span : (kj_span){0}, "%s: %s", what, detail);
    return false;
}

static bool part_tm(part *pt)
{
    char *msg = NULL;
    pt->tm = kj_llvm_host_tm(pt->opt_level, &msg);
    if (!pt->tm) snprintf(pt->err, sizeof pt->err, "cannot create the host target machine: %s",
                          msg ? msg : "unknown target");
    LLVMDisposeMessage(msg);
    return pt->tm != NULL;
}

/* As many parts as the machine has cores (KJIT_NUM_THREADS, else
 * NUMBA_NUM_THREADS, caps them; a bad value is the parallel target's error
 * to report, here it means every core). Kept texts need the one module. */
static unsigned max_parts(const kj_codegen_opts *o)
{
    if (o->keep_ir || o->keep_asm) return 1;
    char err[160];
    int n = 0;
    if (!kj_pool_threads_from_env(&n, err, sizeof err)) n = (int)sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > KJ_HOST_MAX_PARTS ? KJ_HOST_MAX_PARTS : (unsigned)n;
}

static bool setup(pipeline *p)
{
    p->maxparts = max_parts(&p->o);
    p->parts = xcalloc(p->maxparts, sizeof *p->parts);
    part *pt = &p->parts[0];
    p->nparts = 1;
    pt->opt_level = p->o.opt_level;
    pt->keep_ir = p->o.keep_ir;
    pt->keep_asm = p->o.keep_asm;
    if (!part_tm(pt)) return fail(p, "internal compiler error", pt->err);
    pt->ctx = LLVMContextCreate();
    const char *name = p->km->src && p->km->src->path ? p->km->src->path : "kjit";
    pt->mod = LLVMModuleCreateWithNameInContext(name, pt->ctx);
    p->td = LLVMCreateTargetDataLayout(pt->tm);
    LLVMSetModuleDataLayout(pt->mod, p->td);
    char *triple = LLVMGetTargetMachineTriple(pt->tm);
    LLVMSetTarget(pt->mod, triple);
    LLVMDisposeMessage(triple);
    return true;
}

/* The LLVM functions of main and of the @jit functions and helpers (KIR
 * kind host: ufunc and gufunc functions are not outlined, their call loops
 * in main must inline them to vectorise). */
static void note_functions(pipeline *p, kj_cg *cg)
{
    const kir_module *km = p->km;
    p->outlined = xcalloc(km->nfuncs, sizeof *p->outlined);
    for (uint32_t k = 0; k < km->nfuncs; k++) {
        const kir_func *f = km->funcs[k];
        LLVMValueRef fn = LLVMGetNamedFunction(p->parts[0].mod, kj_cg_fn_name(cg, f));
        if (f == km->main) p->main_fn = fn;
        else if (fn && f->kind == KIR_FN_HOST) p->outlined[p->noutlined++] = fn;
    }
}

static bool generate(pipeline *p)
{
    kj_arena a;
    kj_arena_init(&a);
    kj_cg cg;
    kj_cg_init(&cg, p->parts[0].ctx, p->parts[0].mod, p->km, p->d, &a);
    cg.td = p->td;
    cg.run = kj_cg_run_of(p->o.target);
    bool ok = kj_cg_module(&cg);
    if (ok) note_functions(p, &cg);
    kj_cg_dispose(&cg);
    kj_arena_free(&a);
    return ok;
}

bool kj_host_is_outlined(const pipeline *p, LLVMValueRef fn)
{
    for (uint32_t k = 0; k < p->noutlined; k++)
        if (p->outlined[k] == fn) return true;
    return false;
}

/* main's calls of @jit functions and helpers stay calls, to functions with
 * external linkage. main is glue that runs once (Numba interprets it):
 * inlining its callees would compile each of them twice, inside main and
 * for its entry point, for no gain. External linkage lets a callee live in
 * the other part of a split program; it is given whether or not the
 * program is split, so that the functions' code is the same either way
 * (only main's call may then go through a JIT stub). */
static void outline_main_calls(pipeline *p)
{
    if (!p->main_fn) return;
    LLVMContextRef ctx = p->parts[0].ctx;
    unsigned kind = LLVMGetEnumAttributeKindForName("noinline", strlen("noinline"));
    LLVMAttributeRef noinline = LLVMCreateEnumAttribute(ctx, kind, 0);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(p->main_fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            LLVMValueRef callee = LLVMIsACallInst(in) ? LLVMIsAFunction(LLVMGetCalledValue(in)) : NULL;
            if (!callee || !kj_host_is_outlined(p, callee)) continue;
            LLVMAddCallSiteAttribute(in, LLVMAttributeFunctionIndex, noinline);
            LLVMSetLinkage(callee, LLVMExternalLinkage);
        }
}

static bool verify(pipeline *p, LLVMModuleRef mod)
{
    char *msg = NULL;
    if (!LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg)) {
        LLVMDisposeMessage(msg);
        return true;
    }
    fail(p, "internal compiler error: invalid LLVM IR", msg ? msg : "");
    LLVMDisposeMessage(msg);
    return false;
}

/* ---- optimisation and machine code ---- */

/* At -O2 and above loops vectorise, calls of libm functions included
 * (vecmath.c): annotated here, after splitting, which drops declarations
 * nothing calls. */
static bool optimise(part *pt)
{
    if (pt->opt_level >= 2) kj_vecmath_annotate(pt->mod, pt->tm);
    return kj_llvm_optimise(pt->mod, pt->tm, pt->opt_level, pt->err, sizeof pt->err);
}

/* Machine code of `mod` (asm text or an object file) into a malloc'd copy. */
static char *emit(part *pt, LLVMModuleRef mod, LLVMCodeGenFileType kind, size_t *size)
{
    return kj_llvm_emit(pt->tm, mod, kind, size, pt->err, sizeof pt->err);
}

/* The first entry point the part defines (NULL when it has none). */
static char *first_entry(LLVMModuleRef mod)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        if (LLVMCountBasicBlocks(f) && len > 6 && !strcmp(name + len - 6, ".entry")) return xstrdup(name);
    }
    return NULL;
}

/* Optimise a part and emit its object file (and the texts asked for).
 * Runs on its own thread for the second part of a split program. */
static void *compile_part(void *arg)
{
    part *pt = arg;
    if (((pt->ndrop || pt->bitcode) && !kj_host_divide(pt)) || (!pt->tm && !part_tm(pt)) || !optimise(pt)) return NULL;
    pt->entry = first_entry(pt->mod);
    size_t n;
    if (pt->keep_ir) {
        char *s = LLVMPrintModuleToString(pt->mod);
        pt->ir = xstrdup(s);
        LLVMDisposeMessage(s);
    }
    if (pt->keep_asm) {
        /* Code generation changes the IR a little; list a copy. */
        LLVMModuleRef copy = LLVMCloneModule(pt->mod);
        pt->asm_text = emit(pt, copy, LLVMAssemblyFile, &n);
        LLVMDisposeModule(copy);
        if (!pt->asm_text) return NULL;
    }
    pt->obj = emit(pt, pt->mod, LLVMObjectFile, &pt->obj_size);
    return NULL;
}

/* A part's LLVM objects (its thread's, for parts 1..: disposed there, in
 * parallel with part 0). The bitcode is the pipeline's. */
static void dispose_part_llvm(part *pt)
{
    if (pt->mod) LLVMDisposeModule(pt->mod);
    if (pt->ctx) LLVMContextDispose(pt->ctx);
    if (pt->tm) LLVMDisposeTargetMachine(pt->tm);
    pt->mod = NULL, pt->ctx = NULL, pt->tm = NULL, pt->bitcode = NULL;
}

static void *compile_and_dispose(void *arg)
{
    compile_part(arg);
    dispose_part_llvm(arg);
    return NULL;
}

/* Parts 1.. on threads of their own, part 0 on this one (a part whose
 * thread does not start is compiled here, after part 0). */
static bool compile(pipeline *p)
{
    pthread_t t[KJ_HOST_MAX_PARTS];
    bool threaded[KJ_HOST_MAX_PARTS] = {false};
    for (unsigned k = 1; k < p->nparts; k++)
        threaded[k] = pthread_create(&t[k], NULL, compile_and_dispose, &p->parts[k]) == 0;
    compile_part(&p->parts[0]);
    for (unsigned k = 1; k < p->nparts; k++) {
        if (threaded[k]) pthread_join(t[k], NULL);
        else compile_and_dispose(&p->parts[k]);
    }
    for (unsigned k = 0; k < p->nparts; k++)
        if (!p->parts[k].obj) return fail(p, "internal compiler error", p->parts[k].err);
    return true;
}

/* ---- loading ---- */

/* Load the objects, then look up an entry point of each: that links them
 * now, so that unresolved symbols are compile errors rather than failures
 * at call time. */
static kj_jit *load(pipeline *p)
{
    char err[1024];
    char *objs[KJ_HOST_MAX_PARTS];
    size_t sizes[KJ_HOST_MAX_PARTS];
    const char *entries[KJ_HOST_MAX_PARTS];
    for (unsigned k = 0; k < p->nparts; k++) {
        objs[k] = p->parts[k].obj;
        sizes[k] = p->parts[k].obj_size;
        entries[k] = p->parts[k].entry;
    }
    kj_jit *j = kj_jit_load(objs, sizes, entries, p->nparts, p->o.keep_object, err, sizeof err);
    if (!j) return fail(p, "internal compiler error", err), NULL;
    part *a = &p->parts[0];
    kj_jit_keep_texts(j, a->ir, a->asm_text);
    a->ir = a->asm_text = NULL;
    return j;
}

static void dispose(pipeline *p)
{
    for (unsigned k = 0; p->parts && k < p->maxparts; k++) {
        part *pt = &p->parts[k];
        dispose_part_llvm(pt);
        free(pt->drop), free(pt->ir), free(pt->asm_text), free(pt->obj), free(pt->entry);
    }
    free(p->parts);
    if (p->bitcode) LLVMDisposeMemoryBuffer(p->bitcode);
    for (uint32_t i = 0; i < p->nnames; i++) free(p->names[i]);
    free(p->names);
    if (p->td) LLVMDisposeTargetData(p->td);
    free(p->outlined);
}

/* Kernels for the GPU and nothing else (a module the C API launches
 * from): no host code to make, nor a JIT to hold it; a host target
 * machine and an LLJIT would cost milliseconds of a cold start. */
static bool gpu_only(const kir_module *m, const kj_codegen_opts *o)
{
    if (kj_cg_run_of(o->target)->host_kernels || o->keep_ir || o->keep_asm) return false;
    for (uint32_t k = 0; k < m->nfuncs; k++)
        if (!kj_cg_device_side(m->funcs[k])) return false;
    return true;
}

kj_jit *kj_codegen_host(const kir_module *m, const kj_codegen_opts *opt, kj_diags *d)
{
    if (opt && gpu_only(m, opt)) return kj_jit_empty();
    pipeline p = {.o = opt ? *opt : (kj_codegen_opts){.opt_level = 3}, .d = d, .km = m};
#ifndef NDEBUG
    p.o.verify = true; /* development builds always check the IR */
#endif
    kj_jit *j = NULL;
    if (setup(&p) && generate(&p)) {
        outline_main_calls(&p);
        if (!p.o.verify || verify(&p, p.parts[0].mod)) {
            kj_host_split(&p);
            if (compile(&p)) j = load(&p);
        }
    }
    dispose(&p);
    return j;
}
