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
 * emit a call to.
 *
 * Compile time is LLVM's -O3 pipeline and instruction selection, almost
 * all of it (docs/performance.md). Two things keep it down: main's calls
 * of @jit functions and helpers stay calls (outline_main_calls), and a
 * program whose functions fall into independent groups is compiled as two
 * modules on two threads (split), each to its own object file, linked
 * together by the JIT. */
#include "codegen.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static void *xcalloc(size_t n, size_t size)
{
    void *v = calloc(n ? n : 1, size);
    if (!v) abort();
    return v;
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

/* The bytes kj_jit_object gives (what the cache stores): the object file of
 * a program compiled as one module, or for one compiled in parts a bundle
 *   "KJOBJS1\0", u64 count, count x u64 size, the objects back to back
 * (native byte order: the cache key includes the host). */
static const char bundle_magic[8] = "KJOBJS1";

static bool add_copy(kj_jit *j, const char *obj, size_t size, char *err, size_t cap)
{
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(obj, size, "kjit-object");
    return add_object(j, buf, err, cap);
}

static bool add_bundle(kj_jit *j, const char *b, size_t size, char *err, size_t cap)
{
    uint64_t n = 0;
    if (size >= 16) memcpy(&n, b + 8, 8);
    if (size < 16 || n == 0 || n > (size - 16) / 8) {
        snprintf(err, cap, "cannot load the object file: truncated bundle");
        return false;
    }
    size_t at = 16 + 8 * (size_t)n;
    for (uint64_t k = 0; k < n; k++) {
        uint64_t len;
        memcpy(&len, b + 16 + 8 * k, 8);
        if (len > size - at) {
            snprintf(err, cap, "cannot load the object file: truncated bundle");
            return false;
        }
        if (!add_copy(j, b + at, (size_t)len, err, cap)) return false;
        at += (size_t)len;
    }
    return true;
}

kj_jit *kj_jit_from_object(const void *obj, size_t size, char *err, size_t cap)
{
    kj_jit *j = jit_new(err, cap);
    if (!j) return NULL;
    bool bundle = size >= sizeof bundle_magic && !memcmp(obj, bundle_magic, sizeof bundle_magic);
    if (!(bundle ? add_bundle(j, obj, size, err, cap) : add_copy(j, obj, size, err, cap))) {
        kj_jit_free(j);
        return NULL;
    }
    return j;
}

static void *lookup_symbol(kj_jit *j, const char *name, char *err, size_t cap)
{
    LLVMOrcExecutorAddress addr = 0;
    LLVMErrorRef e = LLVMOrcLLJITLookup(j->jit, &addr, name);
    if (e) {
        if (err) take_error(e, err, cap, "cannot link the generated code");
        else LLVMConsumeError(e);
        return NULL;
    }
    return (void *)(uintptr_t)addr;
}

static void *lookup(kj_jit *j, const char *mangled, char *err, size_t cap)
{
    size_t n = strlen(mangled);
    char *name = malloc(n + 7);
    if (!name) abort();
    memcpy(name, mangled, n);
    memcpy(name + n, ".entry", 7);
    void *addr = lookup_symbol(j, name, err, cap);
    free(name);
    return addr;
}

kj_entry_fn kj_jit_lookup(kj_jit *j, const char *mangled)
{
    void *p = j ? lookup(j, mangled, NULL, 0) : NULL;
    kj_entry_fn fn;
    memcpy(&fn, &p, sizeof fn); /* object pointer → function pointer */
    return p ? fn : NULL;
}

void *kj_jit_address(kj_jit *j, const char *name) { return j ? lookup_symbol(j, name, NULL, 0) : NULL; }

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

/* One module on its way to an object file: the whole program, or one of the
 * two parts of a split program. A part is used by one thread at a time. */
typedef struct part {
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMTargetMachineRef tm;
    int opt_level;
    bool keep_ir, keep_asm, verify;
    LLVMMemoryBufferRef bitcode; /* part 1 of a split: the whole module, parsed on its thread */
    char **drop;                 /* functions whose bodies go (the other part's) */
    uint32_t ndrop;
    char *ir, *asm_text; /* kept texts (malloc'd) */
    char *obj;           /* the object file (malloc'd), NULL when it failed */
    size_t obj_size;
    char *entry;         /* a NAME.entry it defines: looking it up links the part */
    char err[1024];      /* why it failed */
} part;

typedef struct pipeline {
    kj_codegen_opts o;
    kj_diags *d;
    const kir_module *km;
    LLVMTargetDataRef td;
    part parts[2];
    unsigned nparts;
    LLVMValueRef main_fn;   /* main's LLVM function, or NULL */
    LLVMValueRef *outlined; /* @jit functions and helpers: main's calls of them stay calls */
    uint32_t noutlined;
} pipeline;

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

static bool setup(pipeline *p)
{
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
    cg.gpu_kernels = p->o.gpu_kernels;
    bool ok = kj_cg_module(&cg);
    if (ok) note_functions(p, &cg);
    kj_cg_dispose(&cg);
    kj_arena_free(&a);
    return ok;
}

static bool is_outlined(const pipeline *p, LLVMValueRef fn)
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
            if (!callee || !is_outlined(p, callee)) continue;
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

/* ---- splitting a program in two ---- */

/* The cheaper part must cost at least this much (units of estimate(),
 * about 25 us each here): below, a second thread (copying the module, a
 * second target machine: ~1.5 ms) costs more than it saves. */
enum { SPLIT_MIN_COST = 100 };

/* Pointer → index, open addressing (keys are never removed). */
typedef struct ptrmap {
    const void **key;
    uint32_t *val;
    uint32_t cap;
} ptrmap;

static void ptrmap_init(ptrmap *m, uint32_t n)
{
    for (m->cap = 16; m->cap < 2 * n; m->cap *= 2) {}
    m->key = xcalloc(m->cap, sizeof *m->key);
    m->val = xcalloc(m->cap, sizeof *m->val);
}

static void ptrmap_free(ptrmap *m) { free(m->key), free(m->val); }

static uint32_t ptrmap_slot(const ptrmap *m, const void *k)
{
    uint32_t h = (uint32_t)(((uintptr_t)k >> 4) * 2654435761u) & (m->cap - 1);
    while (m->key[h] && m->key[h] != k) h = (h + 1) & (m->cap - 1);
    return h;
}

static void ptrmap_put(ptrmap *m, const void *k, uint32_t v)
{
    uint32_t h = ptrmap_slot(m, k);
    m->key[h] = k;
    m->val[h] = v;
}

static uint32_t ptrmap_get(const ptrmap *m, const void *k)
{
    uint32_t h = ptrmap_slot(m, k);
    return m->key[h] ? m->val[h] : UINT32_MAX;
}

/* Roughly what compiling `fn` at -O3 costs, in units of one straight-line
 * IR instruction (about 25 us here). Every function has a fixed cost (the
 * per-function passes). An array access inside a loop counts the lanes the
 * loop vectoriser gives it with 64-byte vectors (64 for bytes, 8 for
 * float64), times LANE_COST, times the loop depth: each lane may become a
 * scalar instruction again (a strided store), and nested loops are
 * versioned and unrolled at each level. A call of a function with a result
 * in a loop (sin, exp) counts twice: its vector form is split back into
 * calls. A bool array loop thus costs several times a float64 one. Fitted
 * on the functions of benchmarks/startup/prog100.k (docs/performance.md);
 * only the ratio between the two parts matters. */
enum { FN_COST = 48, LANE_COST = 4, VECTOR_BYTES = 64 };

/* The lanes of a load, store or call inside a loop; 0 for anything else. */
static uint64_t lanes(LLVMValueRef in, LLVMTargetDataRef td)
{
    LLVMTypeRef ty;
    bool call = LLVMIsACallInst(in) != NULL;
    if (LLVMIsALoadInst(in)) ty = LLVMTypeOf(in);
    else if (LLVMIsAStoreInst(in)) ty = LLVMTypeOf(LLVMGetOperand(in, 0));
    else if (call && LLVMGetTypeKind(LLVMTypeOf(in)) != LLVMVoidTypeKind) ty = LLVMTypeOf(in);
    else return 0; /* (a call of nothing: a raise or a print, not vectorised) */
    if (!call && LLVMIsAAllocaInst(LLVMGetOperand(in, LLVMIsAStoreInst(in) ? 1 : 0)))
        return 0; /* a local: mem2reg makes it a register */
    uint64_t bytes = LLVMTypeIsSized(ty) ? LLVMABISizeOfType(td, ty) : 8;
    uint64_t n = VECTOR_BYTES / (bytes < 1 ? 1 : bytes > VECTOR_BYTES ? VECTOR_BYTES : bytes);
    return call ? 2 * n : n;
}

static uint64_t estimate(LLVMValueRef fn, LLVMTargetDataRef td)
{
    uint32_t nb = LLVMCountBasicBlocks(fn);
    LLVMBasicBlockRef *bbs = xcalloc(nb, sizeof *bbs);
    int32_t *opened = xcalloc(nb + 1, sizeof *opened); /* +1 where a loop's blocks start, -1 after */
    LLVMGetBasicBlocks(fn, bbs);
    ptrmap ix;
    ptrmap_init(&ix, nb);
    for (uint32_t j = 0; j < nb; j++) ptrmap_put(&ix, bbs[j], j);
    for (uint32_t j = 1; j < nb; j++) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bbs[j]);
        bool reached = LLVMGetFirstUse(LLVMBasicBlockAsValue(bbs[j])) != NULL; /* not a dead block */
        unsigned ns = term && reached ? LLVMGetNumSuccessors(term) : 0;
        for (unsigned s = 0; s < ns; s++) {
            uint32_t i = ptrmap_get(&ix, LLVMGetSuccessor(term, s));
            if (i <= j) opened[i]++, opened[j + 1]--;
        }
    }
    uint64_t cost = FN_COST;
    int32_t depth = 0;
    for (uint32_t j = 0; j < nb; j++) {
        depth += opened[j];
        for (LLVMValueRef in = LLVMGetFirstInstruction(bbs[j]); in; in = LLVMGetNextInstruction(in))
            cost += 1 + (depth > 0 ? LANE_COST * (uint64_t)depth * lanes(in, td) : 0);
    }
    ptrmap_free(&ix);
    free(bbs);
    free(opened);
    return cost;
}

/* The defined functions of a module, grouped by union-find: a function and
 * everything it references are in one group (except main's outlined
 * callees), so that a group can be compiled without the others. */
typedef struct groups {
    LLVMValueRef *fn;
    uint32_t *up;     /* union-find parent */
    uint64_t *cost;   /* estimate(); summed at the root */
    uint8_t *half;    /* the part of each root: 0 or 1 */
    uint32_t n;
    ptrmap ix;        /* function → index */
} groups;

static uint32_t index_of(const groups *g, LLVMValueRef fn) { return ptrmap_get(&g->ix, fn); }

static uint32_t find(groups *g, uint32_t k)
{
    while (g->up[k] != k) k = g->up[k] = g->up[g->up[k]];
    return k;
}

static void unite(groups *g, uint32_t a, uint32_t b)
{
    a = find(g, a), b = find(g, b);
    if (a != b) g->up[b] = a;
}

static void groups_init(groups *g, LLVMModuleRef mod)
{
    memset(g, 0, sizeof *g);
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
        if (LLVMCountBasicBlocks(f)) g->n++;
    g->fn = xcalloc(g->n, sizeof *g->fn);
    g->up = xcalloc(g->n, sizeof *g->up);
    g->cost = xcalloc(g->n, sizeof *g->cost);
    g->half = xcalloc(g->n, sizeof *g->half);
    ptrmap_init(&g->ix, g->n);
    uint32_t k = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
        if (!LLVMCountBasicBlocks(f)) continue;
        g->fn[k] = f;
        g->up[k] = k;
        ptrmap_put(&g->ix, f, k++);
    }
}

static void groups_free(groups *g)
{
    free(g->fn), free(g->up), free(g->cost), free(g->half);
    ptrmap_free(&g->ix);
}

/* Unite function k with every defined function that `v` (an operand)
 * names, looking inside constants (a function's address in a constant
 * struct). Returns false for a reference we cannot follow. */
static bool unite_refs(const pipeline *p, groups *g, uint32_t k, LLVMValueRef v, int depth)
{
    if (LLVMIsAFunction(v)) {
        uint32_t ix = index_of(g, v);
        /* main's calls of outlined functions, made external for this */
        bool cut = g->fn[k] == p->main_fn && is_outlined(p, v) && LLVMGetLinkage(v) == LLVMExternalLinkage;
        if (ix != UINT32_MAX && !cut) unite(g, k, ix);
        return true;
    }
    if (LLVMIsAGlobalValue(v) || !LLVMIsAConstant(v) || LLVMIsAConstantDataSequential(v)) return true;
    if (depth > 8) return false;
    int n = LLVMGetNumOperands(v);
    for (int i = 0; i < n; i++)
        if (!unite_refs(p, g, k, LLVMGetOperand(v, (unsigned)i), depth + 1)) return false;
    return true;
}

static bool group_functions(const pipeline *p, groups *g)
{
    for (uint32_t k = 0; k < g->n; k++) {
        g->cost[k] = estimate(g->fn[k], p->td);
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->fn[k]); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                int n = LLVMGetNumOperands(in);
                for (int i = 0; i < n; i++)
                    if (!unite_refs(p, g, k, LLVMGetOperand(in, (unsigned)i), 0)) return false;
            }
    }
    for (uint32_t k = 0; k < g->n; k++)
        if (find(g, k) != k) g->cost[find(g, k)] += g->cost[k];
    return true;
}

/* Whether constant `c` holds a global's address (looking 8 levels deep). */
static bool holds_address(LLVMValueRef c, int depth)
{
    if (LLVMIsAGlobalValue(c)) return true;
    if (LLVMIsAConstantDataSequential(c)) return false;
    if (depth > 8) return true;
    int n = LLVMGetNumOperands(c);
    for (int i = 0; i < n; i++)
        if (holds_address(LLVMGetOperand(c, (unsigned)i), depth + 1)) return true;
    return false;
}

/* A module can be split when its globals are private constants of plain
 * data (each part gets its own copy; none names a function that only one
 * part would define) and every function has a name (parts find each other
 * by name). kjit's are: string constants. */
static bool splittable(LLVMModuleRef mod)
{
    for (LLVMValueRef v = LLVMGetFirstGlobal(mod); v; v = LLVMGetNextGlobal(v)) {
        LLVMValueRef init = LLVMGetInitializer(v);
        if (!LLVMIsGlobalConstant(v) || LLVMGetLinkage(v) != LLVMPrivateLinkage || !init ||
            holds_address(init, 0))
            return false;
    }
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
        size_t len = 0;
        LLVMGetValueName2(f, &len);
        if (!len) return false;
    }
    return true;
}

static int by_cost(const void *a, const void *b, void *c)
{
    const uint64_t *cost = c;
    uint64_t x = cost[*(const uint32_t *)a], y = cost[*(const uint32_t *)b];
    return (x < y) - (x > y); /* dearest first */
}

/* Put each group in the cheaper part, dearest first. Returns the cost of
 * the cheaper part. */
static uint64_t balance(groups *g)
{
    uint32_t *roots = xcalloc(g->n, sizeof *roots), nroots = 0;
    for (uint32_t k = 0; k < g->n; k++)
        if (find(g, k) == k) roots[nroots++] = k;
    qsort_r(roots, nroots, sizeof *roots, by_cost, g->cost);
    uint64_t total[2] = {0, 0};
    for (uint32_t r = 0; r < nroots; r++) {
        uint8_t h = total[1] < total[0];
        g->half[roots[r]] = h;
        total[h] += g->cost[roots[r]];
    }
    free(roots);
    return total[0] < total[1] ? total[0] : total[1];
}

/* Turn `fn` into a declaration: drop its body. */
static void drop_body(LLVMValueRef fn)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
            if (LLVMGetTypeKind(LLVMTypeOf(in)) != LLVMVoidTypeKind)
                LLVMReplaceAllUsesWith(in, LLVMGetPoison(LLVMTypeOf(in)));
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in; (in = LLVMGetFirstInstruction(bb));) LLVMInstructionEraseFromParent(in);
    for (LLVMBasicBlockRef bb; (bb = LLVMGetFirstBasicBlock(fn));) LLVMDeleteBasicBlock(bb);
    LLVMSetLinkage(fn, LLVMExternalLinkage);
}

/* Make a part of the program out of the whole: drop the other part's
 * bodies, then the declarations nothing uses any more. Part 1 first
 * copies the module into its own context, through bitcode (a context is
 * used by one thread at a time). Runs on the part's thread. */
static bool divide(part *pt)
{
    if (pt->bitcode) {
        pt->ctx = LLVMContextCreate();
        if (LLVMParseBitcodeInContext2(pt->ctx, pt->bitcode, &pt->mod)) {
            snprintf(pt->err, sizeof pt->err, "cannot copy the module");
            return false;
        }
    }
    for (uint32_t k = 0; k < pt->ndrop; k++) {
        LLVMValueRef fn = LLVMGetNamedFunction(pt->mod, pt->drop[k]);
        if (!fn) {
            snprintf(pt->err, sizeof pt->err, "cannot copy the module: no function '%s'", pt->drop[k]);
            return false;
        }
        drop_body(fn);
    }
    for (LLVMValueRef f = LLVMGetFirstFunction(pt->mod), next; f; f = next) {
        next = LLVMGetNextFunction(f);
        if (!LLVMCountBasicBlocks(f) && !LLVMGetFirstUse(f) && !LLVMGetIntrinsicID(f)) LLVMDeleteFunction(f);
    }
    char *msg = NULL;
    if (pt->verify && LLVMVerifyModule(pt->mod, LLVMReturnStatusAction, &msg))
        snprintf(pt->err, sizeof pt->err, "invalid LLVM IR after splitting: %s", msg ? msg : "");
    LLVMDisposeMessage(msg);
    return !pt->err[0];
}

/* Give part 1 the module's bitcode, and each part the names of the
 * functions it does not compile (copies: part 0's names may go while part
 * 1 still reads them). */
static void plan_parts(pipeline *p, groups *g)
{
    part *a = &p->parts[0], *b = &p->parts[1];
    b->opt_level = a->opt_level;
    b->verify = a->verify = p->o.verify;
    b->bitcode = LLVMWriteBitcodeToMemoryBuffer(a->mod);
    a->drop = xcalloc(g->n, sizeof *a->drop);
    b->drop = xcalloc(g->n, sizeof *b->drop);
    for (uint32_t k = 0; k < g->n; k++) {
        size_t len;
        part *other = g->half[find(g, k)] ? a : b;
        other->drop[other->ndrop++] = xstrdup(LLVMGetValueName2(g->fn[k], &len));
    }
    p->nparts = 2;
}

/* Split the program in two parts compiled on two threads, when it has
 * independent groups of functions with enough work for both and the
 * machine has a second processor. Kept texts need the single module. */
static void split(pipeline *p)
{
    part *a = &p->parts[0];
    if (a->keep_ir || a->keep_asm || sysconf(_SC_NPROCESSORS_ONLN) < 2 || !splittable(a->mod)) return;
    groups g;
    groups_init(&g, a->mod);
    if (group_functions(p, &g) && balance(&g) >= SPLIT_MIN_COST) plan_parts(p, &g);
    groups_free(&g);
}

/* ---- optimisation and machine code ---- */

static bool optimise(part *pt) { return kj_llvm_optimise(pt->mod, pt->tm, pt->opt_level, pt->err, sizeof pt->err); }

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
    if ((pt->ndrop && !divide(pt)) || (!pt->tm && !part_tm(pt)) || !optimise(pt)) return NULL;
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

/* A part's LLVM objects (its thread's, for part 1: disposed there, in
 * parallel with part 0). */
static void dispose_part_llvm(part *pt)
{
    if (pt->mod) LLVMDisposeModule(pt->mod);
    if (pt->ctx) LLVMContextDispose(pt->ctx);
    if (pt->tm) LLVMDisposeTargetMachine(pt->tm);
    if (pt->bitcode) LLVMDisposeMemoryBuffer(pt->bitcode);
    pt->mod = NULL, pt->ctx = NULL, pt->tm = NULL, pt->bitcode = NULL;
}

static void *compile_and_dispose(void *arg)
{
    compile_part(arg);
    dispose_part_llvm(arg);
    return NULL;
}

static bool compile(pipeline *p)
{
    pthread_t t;
    bool threaded = p->nparts == 2 && pthread_create(&t, NULL, compile_and_dispose, &p->parts[1]) == 0;
    compile_part(&p->parts[0]);
    if (threaded) pthread_join(t, NULL);
    else if (p->nparts == 2) compile_and_dispose(&p->parts[1]);
    for (unsigned k = 0; k < p->nparts; k++)
        if (!p->parts[k].obj) return fail(p, "internal compiler error", p->parts[k].err);
    return true;
}

/* ---- loading ---- */

/* The objects as kj_jit_object gives them: the object itself, or a bundle. */
static void keep_object(pipeline *p, kj_jit *j)
{
    if (p->nparts == 1) {
        j->obj = p->parts[0].obj;
        j->obj_size = p->parts[0].obj_size;
        p->parts[0].obj = NULL;
        return;
    }
    uint64_t n = p->nparts;
    size_t size = 16 + 8 * n;
    for (unsigned k = 0; k < n; k++) size += p->parts[k].obj_size;
    char *b = malloc(size);
    if (!b) abort();
    memcpy(b, bundle_magic, 8);
    memcpy(b + 8, &n, 8);
    size_t at = 16 + 8 * n;
    for (unsigned k = 0; k < n; k++) {
        uint64_t len = p->parts[k].obj_size;
        memcpy(b + 16 + 8 * k, &len, 8);
        memcpy(b + at, p->parts[k].obj, len);
        at += len;
    }
    j->obj = b;
    j->obj_size = size;
}

/* Load the objects, then look up an entry point of each: that links them
 * now, so that unresolved symbols are compile errors rather than failures
 * at call time. */
static kj_jit *load(pipeline *p)
{
    char err[1024];
    kj_jit *j = jit_new(err, sizeof err);
    if (!j) return fail(p, "internal compiler error", err), NULL;
    part *a = &p->parts[0];
    j->ir = a->ir, j->asm_text = a->asm_text;
    a->ir = a->asm_text = NULL;
    bool ok = true;
    for (unsigned k = 0; ok && k < p->nparts; k++)
        ok = add_copy(j, p->parts[k].obj, p->parts[k].obj_size, err, sizeof err);
    for (unsigned k = 0; ok && k < p->nparts; k++)
        ok = !p->parts[k].entry || lookup_symbol(j, p->parts[k].entry, err, sizeof err);
    if (!ok) {
        fail(p, "internal compiler error", err);
        kj_jit_free(j);
        return NULL;
    }
    if (p->o.keep_object) keep_object(p, j);
    return j;
}

static void dispose(pipeline *p)
{
    for (unsigned k = 0; k < 2; k++) {
        part *pt = &p->parts[k];
        dispose_part_llvm(pt);
        for (uint32_t i = 0; i < pt->ndrop; i++) free(pt->drop[i]);
        free(pt->drop), free(pt->ir), free(pt->asm_text), free(pt->obj), free(pt->entry);
    }
    if (p->td) LLVMDisposeTargetData(p->td);
    free(p->outlined);
}

kj_jit *kj_codegen_host(const kir_module *m, const kj_codegen_opts *opt, kj_diags *d)
{
    pipeline p = {.o = opt ? *opt : (kj_codegen_opts){.opt_level = 3}, .d = d, .km = m};
#ifndef NDEBUG
    p.o.verify = true; /* development builds always check the IR */
#endif
    kj_jit *j = NULL;
    if (setup(&p) && generate(&p)) {
        outline_main_calls(&p);
        if (!p.o.verify || verify(&p, p.parts[0].mod)) {
            split(&p);
            if (compile(&p)) j = load(&p);
        }
    }
    dispose(&p);
    return j;
}
