/* SPDX-License-Identifier: BSD-2-Clause */
/* prange loops on the thread pool (the parallel target, @jit(parallel=True)).
 *
 * The body of a KIR_PFOR becomes a chunk function (llvm_parallel.c) that
 * runs iterations [begin, end) with private copies of the function's
 * locals: each starts with the value the variable had before the loop
 * (read through a pointer to the enclosing frame; the loop only reads
 * them there), except a reduction variable (kir_pfor.h), which starts at
 * its operator's identity and is left in the chunk's `acc` slot at the end.
 * Values of the enclosing function used in the body travel by value in the
 * env struct, with the pointers. After the join, a combine function folds
 * each chunk's partial result into the variable, in chunk order
 * (kj_rt_parallel_for). Arrays are shared: writes to their elements are
 * the program's (Numba's semantics). A loop with a return or a break out of
 * it runs serially. docs/codegen.md "Parallel loops". */
#include "codegen.h"

#include "../ir/kir_pfor.h"

#include <math.h>

typedef struct pfor_gen {
    const kir_inst *in;
    kir_pfor_info info;
    LLVMValueRef start, step;
    LLVMValueRef *ptrs; /* per local: where it lives in the enclosing frame (captured ones) */
    uint32_t *reds;     /* the reduction locals */
    uint32_t nreds;
    LLVMTypeRef env_ty, acc_ty;
    unsigned ptr_field0; /* env field of the first local pointer */
} pfor_gen;

/* The capture list of the function being generated: the outer values of
 * the body, start, step, then the pointer of every local the body uses.
 * vals/start/step/ptrs are those of `fn` (the enclosing function or the
 * chunk). */
static unsigned captures(const kir_func *f, pfor_gen *g, LLVMValueRef *vals, LLVMValueRef *start,
                         LLVMValueRef *step, LLVMValueRef *ptrs, LLVMValueRef **out, bool parent)
{
    unsigned n = 0;
    for (kir_ref r = 1; r < f->ninsts; r++)
        if (g->info.outer[r] && (!parent || vals[r])) out[n++] = &vals[r];
    out[n++] = start;
    out[n++] = step;
    g->ptr_field0 = n;
    for (uint32_t k = 0; k < f->nlocals; k++)
        if (g->info.use[k] && k != (uint32_t)g->in->i) out[n++] = &ptrs[k];
    return n;
}

/* The identity of reduction operator op for type t (min: the largest
 * value of t, +inf for floats; max: the smallest). */
static LLVMValueRef identity(kj_cg *cg, unsigned op, const kj_type *t)
{
    LLVMTypeRef ty = kj_cg_type(cg, t);
    bool fl = t->kind == KJ_T_FLOAT, sg = t->kind == KJ_T_INT && t->is_signed;
    unsigned bits = fl ? 0 : LLVMGetIntTypeWidth(ty);
    switch (op) {
    case KIR_MUL: return fl ? LLVMConstReal(ty, 1.0) : LLVMConstInt(ty, 1, 0);
    case KIR_AND: return LLVMConstAllOnes(ty);
    case KIR_PFOR_MIN:
        if (fl) return LLVMConstReal(ty, HUGE_VAL);
        return sg ? LLVMConstInt(ty, (~0ull) >> (65 - bits), 0) : LLVMConstAllOnes(ty);
    case KIR_PFOR_MAX:
        if (fl) return LLVMConstReal(ty, -HUGE_VAL);
        return sg ? LLVMConstInt(ty, 1ull << (bits - 1), 0) : LLVMConstNull(ty);
    default: return LLVMConstNull(ty); /* + - | ^ */
    }
}

/* x OP y for a reduction operator; min and max as Python's min(x, y) and
 * max(x, y): y only when it is strictly smaller (larger). */
static LLVMValueRef combine_op(kj_cg *cg, unsigned op, const kj_type *t, LLVMValueRef x, LLVMValueRef y)
{
    bool fl = t->kind == KJ_T_FLOAT, sg = t->kind == KJ_T_INT && t->is_signed;
    if (op == KIR_PFOR_MIN || op == KIR_PFOR_MAX) {
        bool lt = op == KIR_PFOR_MIN; /* take y when y < x (min) or y > x (max) */
        LLVMValueRef take = fl ? LLVMBuildFCmp(cg->b, lt ? LLVMRealOLT : LLVMRealOGT, y, x, "")
                               : LLVMBuildICmp(cg->b, lt ? (sg ? LLVMIntSLT : LLVMIntULT) : (sg ? LLVMIntSGT : LLVMIntUGT),
                                               y, x, "");
        return LLVMBuildSelect(cg->b, take, y, x, "");
    }
    switch (op) {
    case KIR_ADD: return fl ? LLVMBuildFAdd(cg->b, x, y, "") : LLVMBuildAdd(cg->b, x, y, "");
    case KIR_MUL: return fl ? LLVMBuildFMul(cg->b, x, y, "") : LLVMBuildMul(cg->b, x, y, "");
    case KIR_AND: return LLVMBuildAnd(cg->b, x, y, "");
    case KIR_OR: return LLVMBuildOr(cg->b, x, y, "");
    default: return LLVMBuildXor(cg->b, x, y, "");
    }
}

/* The chunk: private locals, the counted loop over [begin, end), the
 * reductions' partial results into acc. */
static LLVMValueRef gen_chunk(kj_cg *cg, pfor_gen *g, unsigned ncap)
{
    const kir_func *f = cg->fn->kf;
    const kj_type *it = f->locals[g->in->i].type;
    kj_cg_chunk ch;
    kj_cg_chunk_begin(cg, &ch, "pfor");
    kj_cgfn *fn = cg->fn;
    fn->locals = KJ_NEWN(cg->a, LLVMValueRef, f->nlocals + 1);
    for (uint32_t k = 0; k < f->nlocals; k++) {
        LLVMTypeRef ty = kj_cg_type(cg, f->locals[k].type);
        fn->locals[k] = LLVMBuildAlloca(cg->b, ty, f->locals[k].name ? f->locals[k].name : "tmp");
        LLVMBuildStore(cg->b, LLVMConstNull(ty), fn->locals[k]);
    }
    LLVMValueRef start, step, *ptrs = KJ_NEWN(cg->a, LLVMValueRef, f->nlocals + 1);
    LLVMValueRef **caps = KJ_NEWN(cg->a, LLVMValueRef *, ncap + 1);
    captures(f, g, fn->vals, &start, &step, ptrs, caps, false);
    kj_cg_unpack(cg, g->env_ty, ch.env, caps, ncap);
    for (uint32_t k = 0; k < f->nlocals; k++) {
        if (!ptrs[k]) continue;
        LLVMTypeRef ty = kj_cg_type(cg, f->locals[k].type);
        LLVMValueRef v = g->info.red[k] != KIR_NOP ? identity(cg, g->info.red[k], f->locals[k].type)
                                                    : LLVMBuildLoad2(cg->b, ty, ptrs[k], "");
        LLVMBuildStore(cg->b, v, fn->locals[k]);
    }
    LLVMTypeRef ity = kj_cg_type(cg, it);
    LLVMValueRef k0 = LLVMBuildIntCast2(cg->b, ch.begin, ity, 0, ""), kn = LLVMBuildIntCast2(cg->b, ch.end, ity, 0, "");
    kj_cg_for_range(cg, g->in, start, step, k0, kn);
    for (uint32_t j = 0; j < g->nreds; j++) {
        uint32_t k = g->reds[j];
        LLVMValueRef v = LLVMBuildLoad2(cg->b, kj_cg_type(cg, f->locals[k].type), fn->locals[k], "");
        LLVMBuildStore(cg->b, v, LLVMBuildStructGEP2(cg->b, g->acc_ty, ch.acc, j, ""));
    }
    kj_cg_chunk_end(cg, &ch);
    return ch.llfn;
}

/* combine(rt, env, acc): each reduction variable = itself OP acc's part. */
static LLVMValueRef gen_combine(kj_cg *cg, pfor_gen *g)
{
    const kir_func *f = cg->fn->kf;
    LLVMTypeRef params[3] = {cg->t_ptr, cg->t_ptr, cg->t_ptr};
    const char *sym = kj_arena_printf(cg->a, "%s.pfor.combine", kj_cg_fn_name(cg, f));
    LLVMValueRef fn = LLVMAddFunction(cg->mod, sym, LLVMFunctionType(cg->t_void, params, 3, 0));
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, kj_cg_attr(cg, "nounwind", 0));
    LLVMBasicBlockRef saved = LLVMGetInsertBlock(cg->b);
    LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(cg->ctx, fn, "entry"));
    LLVMValueRef env = LLVMGetParam(fn, 1), acc = LLVMGetParam(fn, 2);
    unsigned field = g->ptr_field0;
    for (uint32_t k = 0, j = 0; k < f->nlocals; k++) {
        if (!g->info.use[k] || k == (uint32_t)g->in->i) continue;
        unsigned fld = field++;
        if (g->info.red[k] == KIR_NOP) continue;
        const kj_type *t = f->locals[k].type;
        LLVMTypeRef ty = kj_cg_type(cg, t);
        LLVMValueRef p = LLVMBuildLoad2(cg->b, cg->t_ptr, LLVMBuildStructGEP2(cg->b, g->env_ty, env, fld, ""), "");
        LLVMValueRef part = LLVMBuildLoad2(cg->b, ty, LLVMBuildStructGEP2(cg->b, g->acc_ty, acc, j++, ""), "");
        LLVMValueRef v = combine_op(cg, g->info.red[k], t, LLVMBuildLoad2(cg->b, ty, p, ""), part);
        LLVMBuildStore(cg->b, v, p);
    }
    LLVMBuildRetVoid(cg->b);
    LLVMPositionBuilderAtEnd(cg->b, saved);
    return fn;
}

/* The reductions and their partial-result struct; false when too big. */
static bool reductions(kj_cg *cg, pfor_gen *g)
{
    const kir_func *f = cg->fn->kf;
    g->reds = KJ_NEWN(cg->a, uint32_t, f->nlocals + 1);
    LLVMTypeRef *tys = KJ_NEWN(cg->a, LLVMTypeRef, f->nlocals + 1);
    for (uint32_t k = 0; k < f->nlocals; k++) {
        if (!g->info.use[k] || k == (uint32_t)g->in->i || g->info.red[k] == KIR_NOP) continue;
        tys[g->nreds] = kj_cg_type(cg, f->locals[k].type);
        g->reds[g->nreds++] = k;
    }
    g->acc_ty = LLVMStructTypeInContext(cg->ctx, tys, g->nreds, 0);
    return !g->nreds || LLVMABISizeOfType(cg->td, g->acc_ty) <= KJ_RT_MAX_ACC;
}

bool kj_cg_pfor(kj_cg *cg, const kir_inst *in)
{
    if (!kj_cg_parallel_here(cg)) return false;
    const kir_func *f = cg->fn->kf;
    pfor_gen g = {.in = in};
    kir_pfor_analyze(cg->a, f, (kir_ref)(in - f->insts), &g.info);
    /* a racy loop was reported at compile time; specialisations made at
     * call time are not checked again: they run serially */
    if (g.info.jumps_out || g.info.racy_set || !reductions(cg, &g)) return false;
    LLVMValueRef n = kj_cg_for_trips(cg, in, &g.start, &g.step);
    g.ptrs = KJ_NEWN(cg->a, LLVMValueRef, f->nlocals + 1);
    for (uint32_t k = 0; k < f->nlocals; k++)
        if (g.info.use[k] && k != (uint32_t)in->i) g.ptrs[k] = kj_cg_local_ptr(cg, k);
    uint32_t max = f->ninsts + f->nlocals + 3;
    LLVMValueRef **caps = KJ_NEWN(cg->a, LLVMValueRef *, max);
    unsigned ncap = captures(f, &g, cg->fn->vals, &g.start, &g.step, g.ptrs, caps, true);
    /* the chunk must see the same capture list: outer refs without a value
     * (statements) were left out on both sides */
    for (kir_ref r = 1; r < f->ninsts; r++)
        if (g.info.outer[r] && !cg->fn->vals[r]) g.info.outer[r] = false;
    LLVMValueRef env = kj_cg_pack(cg, caps, ncap, &g.env_ty);
    LLVMValueRef chunk = gen_chunk(cg, &g, ncap);
    LLVMValueRef comb = g.nreds ? gen_combine(cg, &g) : NULL;
    int64_t acc_bytes = g.nreds ? (int64_t)LLVMABISizeOfType(cg->td, g.acc_ty) : 0;
    LLVMValueRef n64 = LLVMBuildIntCast2(cg->b, n, cg->t_i64, 0, "");
    kj_cg_parallel_for(cg, chunk, env, n64, kj_cg_i64(cg, 1), acc_bytes, comb);
    return true;
}
