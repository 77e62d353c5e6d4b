/* SPDX-License-Identifier: BSD-2-Clause */
/* Splitting a program into parts (host.c's pipeline): when its functions
 * fall into independent groups (no calls or addresses between them), the
 * module is compiled as up to one part per core, each on its own thread to
 * its own object file, linked together by the JIT. */
#include "host.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>

#include <stdlib.h>
#include <string.h>

/* The cheapest part must cost at least this much (units of estimate(),
 * about 25 us each here): below, one more thread (copying the module, one
 * more target machine: ~1.5 ms) costs more than it saves. */
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
 * in a loop (sin, exp) counts twice (fitted when its vector form was
 * split back into scalar calls; libmvec's forms, vecmath.c, are cheaper).
 * A bool array loop thus costs several times a float64 one. Fitted on the
 * functions of benchmarks/startup/prog100.k (docs/performance.md); only
 * the ratios between the parts matter. */
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
    uint8_t *part;    /* the part of each root: 0 .. KJ_HOST_MAX_PARTS-1 */
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
    g->part = xcalloc(g->n, sizeof *g->part);
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
    free(g->fn), free(g->up), free(g->cost), free(g->part);
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
        bool cut = g->fn[k] == p->main_fn && kj_host_is_outlined(p, v) && LLVMGetLinkage(v) == LLVMExternalLinkage;
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

/* The groups' roots, dearest first. */
static uint32_t *sorted_roots(groups *g, uint32_t *nroots)
{
    uint32_t *roots = xcalloc(g->n, sizeof *roots), n = 0;
    for (uint32_t k = 0; k < g->n; k++)
        if (find(g, k) == k) roots[n++] = k;
    qsort_r(roots, n, sizeof *roots, by_cost, g->cost);
    *nroots = n;
    return roots;
}

/* Put each group in the cheapest of `nparts` parts, dearest first (longest
 * processing time first: within 4/3 of the best balance). Returns the cost
 * of the cheapest part. */
static uint64_t balance(groups *g, const uint32_t *roots, uint32_t nroots, unsigned nparts)
{
    uint64_t total[KJ_HOST_MAX_PARTS] = {0};
    for (uint32_t r = 0; r < nroots; r++) {
        unsigned h = 0;
        for (unsigned k = 1; k < nparts; k++)
            if (total[k] < total[h]) h = k;
        g->part[roots[r]] = (uint8_t)h;
        total[h] += g->cost[roots[r]];
    }
    uint64_t least = total[0];
    for (unsigned k = 1; k < nparts; k++)
        if (total[k] < least) least = total[k];
    return least;
}

/* The most parts (up to `most`) whose cheapest is worth its thread; 1
 * when none is. g->part holds that balance. */
static unsigned choose_parts(groups *g, unsigned most)
{
    uint32_t nroots;
    uint32_t *roots = sorted_roots(g, &nroots);
    unsigned n = most < nroots ? most : nroots;
    while (n >= 2 && balance(g, roots, nroots, n) < SPLIT_MIN_COST) n--;
    free(roots);
    return n < 2 ? 1 : n;
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

/* Make a part of the program out of the whole: drop the other parts'
 * bodies, then the declarations nothing uses any more. Parts 1.. first
 * copy the module into their own context, through bitcode (a context is
 * used by one thread at a time; the bitcode is only read). Runs on the
 * part's thread. */
bool kj_host_divide(part *pt)
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

/* Give parts 1.. the module's bitcode, and each part the names of the
 * functions it does not compile (copies, the pipeline's: part 0 deletes
 * functions while the others still read the names). */
static void plan_parts(pipeline *p, groups *g, unsigned nparts)
{
    part *a = &p->parts[0];
    p->bitcode = LLVMWriteBitcodeToMemoryBuffer(a->mod);
    p->names = xcalloc(g->n, sizeof *p->names);
    for (uint32_t k = 0; k < g->n; k++) {
        size_t len;
        p->names[p->nnames++] = xstrdup(LLVMGetValueName2(g->fn[k], &len));
    }
    for (unsigned j = 0; j < nparts; j++) {
        part *pt = &p->parts[j];
        pt->opt_level = a->opt_level;
        pt->verify = p->o.verify;
        pt->bitcode = j ? p->bitcode : NULL;
        pt->drop = xcalloc(g->n, sizeof *pt->drop);
        for (uint32_t k = 0; k < g->n; k++)
            if (g->part[find(g, k)] != j) pt->drop[pt->ndrop++] = p->names[k];
    }
    p->nparts = nparts;
}

/* Split the program into as many parts as p->maxparts allows (one per
 * core), when it has independent groups of functions with enough work for
 * each part's thread. Kept texts need the single module. */
void kj_host_split(pipeline *p)
{
    part *a = &p->parts[0];
    if (a->keep_ir || a->keep_asm || p->maxparts < 2 || !splittable(a->mod)) return;
    groups g;
    groups_init(&g, a->mod);
    unsigned n = group_functions(p, &g) ? choose_parts(&g, p->maxparts) : 1;
    if (n >= 2) plan_parts(p, &g, n);
    groups_free(&g);
}
