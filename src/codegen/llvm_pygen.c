/* SPDX-License-Identifier: BSD-2-Clause */
/* llvm_pygen — generators (infer_pygen.c, lower_pygen.c) as LLVM's
 * switch-resumed coroutines: the state machine Numba builds by hand (a
 * frame of the live locals and a resume index, a function that switches on
 * it) is what LLVM's CoroSplit pass makes of a function marked
 * presplitcoroutine, in every default<On> pipeline.
 *
 * The generator function's body is generated as any function's, with
 *   entry:  id = coro.id(align, promise); frame = kj_rt_gen_frame(size);
 *           hdl = coro.begin(id, frame); suspend (the initial one)
 *   yield v: promise = v; suspend
 *   return, the end: the final suspend
 * and a suspend is `switch coro.suspend(...) [0: go on, 1: cleanup]`, its
 * default returning hdl to the caller: calling the function makes the
 * generator and runs none of its body, as in Python. The promise is an
 * alloca of the yield type that CoroSplit moves into the frame.
 * A consumer holds hdl only: GEN_NEXT is `!coro.done(h) && (resume(h),
 * !coro.done(h))` and GEN_VALUE loads coro.promise(h). The body runs on
 * the consumer's stack, so a raise inside it unwinds as any call's.
 * A frame dies with its scope (runtime/pygen.c, llvm_genlife.c): it holds
 * the generators passed to it (kj_rt_gen_ref at entry), and at each
 * suspend the frames its body made since it was resumed are pinned (its
 * locals may hold them: they live until the run ends). The arrays a
 * generator's body makes live until the run ends: neither the generator
 * nor a function that resumes one releases temporaries early
 * (kj_cg_gen_nogc). */
#include "codegen.h"

struct kj_cg_gen {
    LLVMValueRef id, hdl, promise;
    LLVMTypeRef ptype; /* the promise's (yield type's) LLVM type */
    unsigned align;
    LLVMBasicBlockRef suspend, cleanup;
    LLVMValueRef mark; /* an i64 slot: kj_rt_gen_mark when the body was last resumed */
    LLVMBasicBlockRef final; /* the one final suspend (LLVM allows one): every return branches here */
};

static LLVMValueRef intr(kj_cg *cg, const char *name, LLVMValueRef *args, unsigned n)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(cg->mod, id, NULL, 0);
    return LLVMBuildCall2(cg->b, LLVMIntrinsicGetType(cg->ctx, id, NULL, 0), f, args, n, "");
}

static LLVMValueRef token_none(kj_cg *cg) { return LLVMConstNull(LLVMTokenTypeInContext(cg->ctx)); }

/* A suspend point: on resumption, go on at a new block. */
static void suspend(kj_cg *cg, bool final, bool first)
{
    struct kj_cg_gen *g = cg->fn->gen;
    if (!first) { /* what this run of the body made: pinned (llvm_genlife.c) */
        LLVMValueRef p[2] = {cg->fn->rt, LLVMBuildLoad2(cg->b, cg->t_i64, g->mark, "")};
        kj_cg_rtcall(cg, KJ_RTF_GEN_PIN, p, 2);
    }
    LLVMValueRef a[2] = {token_none(cg), LLVMConstInt(cg->t_i1, final, 0)};
    LLVMValueRef s = intr(cg, "llvm.coro.suspend", a, 2);
    LLVMBasicBlockRef go = kj_cg_bb(cg, final ? "gen.after_end" : "gen.resume");
    LLVMValueRef sw = LLVMBuildSwitch(cg->b, s, g->suspend, 2);
    LLVMAddCase(sw, LLVMConstInt(cg->t_i8, 0, 0), go);
    LLVMAddCase(sw, LLVMConstInt(cg->t_i8, 1, 0), g->cleanup);
    LLVMPositionBuilderAtEnd(cg->b, go);
    if (!final) LLVMBuildStore(cg->b, kj_cg_rtcall(cg, KJ_RTF_GEN_MARK, &cg->fn->rt, 1), g->mark);
    if (final) { /* resuming a finished coroutine: never done (GEN_NEXT tests coro.done first) */
        LLVMBuildUnreachable(cg->b);
        LLVMPositionBuilderAtEnd(cg->b, kj_cg_bb(cg, "dead"));
    }
}

bool kj_cg_gen_nogc(const kir_func *f)
{
    if (f->generator) return true;
    for (kir_ref r = 1; r < f->ninsts; r++)
        if (f->insts[r].op == KIR_GEN_NEXT) return true;
    return false;
}

void kj_cg_gen_begin(kj_cg *cg)
{
    const kir_func *f = cg->fn->kf;
    struct kj_cg_gen *g = KJ_NEW(cg->a, struct kj_cg_gen);
    cg->fn->gen = g;
    LLVMAddAttributeAtIndex(cg->fn->fn, LLVMAttributeFunctionIndex, kj_cg_attr(cg, "presplitcoroutine", 0));
    g->ptype = kj_cg_type(cg, f->ret->elem);
    g->align = LLVMABIAlignmentOfType(cg->td, g->ptype);
    g->promise = kj_cg_alloca(cg, g->ptype, "gen.promise");
    LLVMValueRef a[4] = {kj_cg_i32(cg, g->align), g->promise, LLVMConstNull(cg->t_ptr), LLVMConstNull(cg->t_ptr)};
    g->id = intr(cg, "llvm.coro.id", a, 4);
    unsigned sid = LLVMLookupIntrinsicID("llvm.coro.size", 14);
    LLVMTypeRef st[1] = {cg->t_i64};
    LLVMValueRef size = LLVMBuildCall2(cg->b, LLVMIntrinsicGetType(cg->ctx, sid, st, 1),
                                       LLVMGetIntrinsicDeclaration(cg->mod, sid, st, 1), NULL, 0, "gen.size");
    LLVMValueRef fa[2] = {cg->fn->rt, size};
    LLVMValueRef mem = kj_cg_rtcall(cg, KJ_RTF_GEN_FRAME, fa, 2);
    LLVMValueRef ba[2] = {g->id, mem};
    g->hdl = intr(cg, "llvm.coro.begin", ba, 2);
    g->mark = kj_cg_alloca(cg, cg->t_i64, "gen.mark");
    for (uint32_t k = 0; k < f->nparams; k++) { /* the generators it is passed: runtime/pygen.c */
        LLVMValueRef held[64];
        unsigned n = kj_cg_gens_of(cg, f->params[k], LLVMGetParam(cg->fn->fn, k + 1), held, 0, 64);
        for (unsigned j = 0; j < n; j++) {
            LLVMValueRef r[3] = {cg->fn->rt, g->hdl, held[j]};
            kj_cg_rtcall(cg, KJ_RTF_GEN_REF, r, 3);
        }
    }
    g->suspend = kj_cg_bb(cg, "gen.suspend");
    g->cleanup = kj_cg_bb(cg, "gen.cleanup");
    g->final = kj_cg_bb(cg, "gen.end");
    LLVMBasicBlockRef here = LLVMGetInsertBlock(cg->b);
    LLVMPositionBuilderAtEnd(cg->b, g->cleanup); /* destroyed: the run frees the frame */
    LLVMBuildBr(cg->b, g->suspend);
    LLVMPositionBuilderAtEnd(cg->b, g->suspend);
    LLVMValueRef ea[3] = {g->hdl, LLVMConstInt(cg->t_i1, 0, 0), token_none(cg)};
    intr(cg, "llvm.coro.end", ea, 3);
    LLVMBuildRet(cg->b, g->hdl);
    LLVMPositionBuilderAtEnd(cg->b, here);
    suspend(cg, false, true); /* the body runs at the first resumption */
}

void kj_cg_yield(kj_cg *cg, const kir_inst *in)
{
    struct kj_cg_gen *g = cg->fn->gen;
    LLVMBuildStore(cg->b, kj_cg_val(cg, in->a), g->promise);
    suspend(cg, false, false);
}

void kj_cg_gen_return(kj_cg *cg)
{
    LLVMBuildBr(cg->b, cg->fn->gen->final);
    LLVMPositionBuilderAtEnd(cg->b, kj_cg_bb(cg, "dead"));
}

void kj_cg_gen_end(kj_cg *cg)
{
    kj_cg_gen_return(cg);
    LLVMBuildUnreachable(cg->b);
    LLVMPositionBuilderAtEnd(cg->b, cg->fn->gen->final);
    suspend(cg, true, false);
    LLVMBuildUnreachable(cg->b);
}

LLVMValueRef kj_cg_gen_inst(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef h = kj_cg_val(cg, in->a);
    if (in->op == KIR_GEN_VALUE) {
        LLVMTypeRef t = kj_cg_type(cg, in->type);
        unsigned align = LLVMABIAlignmentOfType(cg->td, t);
        LLVMValueRef a[3] = {h, kj_cg_i32(cg, align), LLVMConstInt(cg->t_i1, 0, 0)};
        return LLVMBuildLoad2(cg->b, t, intr(cg, "llvm.coro.promise", a, 3), "gen.value");
    }
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(cg->b);
    LLVMBasicBlockRef run = kj_cg_bb(cg, "gen.run"), merge = kj_cg_bb(cg, "gen.next");
    LLVMValueRef done = intr(cg, "llvm.coro.done", &h, 1);
    LLVMBuildCondBr(cg->b, done, merge, run);
    LLVMPositionBuilderAtEnd(cg->b, run);
    intr(cg, "llvm.coro.resume", &h, 1);
    LLVMValueRef more = LLVMBuildNot(cg->b, intr(cg, "llvm.coro.done", &h, 1), "");
    LLVMBuildBr(cg->b, merge);
    LLVMPositionBuilderAtEnd(cg->b, merge);
    LLVMValueRef phi = LLVMBuildPhi(cg->b, cg->t_i1, "gen.more");
    LLVMValueRef inc[2] = {LLVMConstInt(cg->t_i1, 0, 0), more};
    LLVMBasicBlockRef from[2] = {pre, run};
    LLVMAddIncoming(phi, inc, from, 2);
    return phi;
}
