/* SPDX-License-Identifier: BSD-2-Clause */
/* Outlining for the `parallel` target: a loop's body becomes a chunk
 * function `void chunk(ptr rt, ptr env, i64 begin, i64 end, ptr acc)` that
 * kj_rt_parallel_for (rt.h) runs on the context's thread pool. The values
 * the chunk needs from the enclosing function travel in `env`, an entry
 * block struct of the function that runs the loop (kj_cg_pack), and are
 * loaded again at the chunk's entry (kj_cg_unpack). Used by ufunc loops
 * (llvm_ufunc.c) and prange loops (llvm_pfor.c); docs/codegen.md
 * "Parallel loops". */
#include "codegen.h"


bool kj_cg_parallel_here(kj_cg *cg)
{
    if (cg->fn->kx || cg->tgt != &kj_target_host) return false;
    return cg->run->parallel_loops(cg->fn->kf);
}

LLVMValueRef kj_cg_pack(kj_cg *cg, LLVMValueRef *const *vals, unsigned n, LLVMTypeRef *type)
{
    LLVMTypeRef *tys = KJ_NEWN(cg->a, LLVMTypeRef, n + 1);
    for (unsigned k = 0; k < n; k++) tys[k] = LLVMTypeOf(*vals[k]);
    *type = LLVMStructTypeInContext(cg->ctx, tys, n, 0);
    LLVMValueRef env = kj_cg_alloca(cg, *type, "par.env");
    for (unsigned k = 0; k < n; k++)
        LLVMBuildStore(cg->b, *vals[k], LLVMBuildStructGEP2(cg->b, *type, env, k, ""));
    return env;
}

void kj_cg_unpack(kj_cg *cg, LLVMTypeRef type, LLVMValueRef env, LLVMValueRef *const *vals, unsigned n)
{
    for (unsigned k = 0; k < n; k++)
        *vals[k] = LLVMBuildLoad2(cg->b, LLVMStructGetTypeAtIndex(type, k),
                                  LLVMBuildStructGEP2(cg->b, type, env, k, ""), "");
}

void kj_cg_chunk_begin(kj_cg *cg, kj_cg_chunk *ch, const char *name)
{
    LLVMTypeRef params[5] = {cg->t_ptr, cg->t_ptr, cg->t_i64, cg->t_i64, cg->t_ptr};
    const char *sym = kj_arena_printf(cg->a, "%s.%s", kj_cg_fn_name(cg, cg->fn->kf), name);
    ch->llfn = LLVMAddFunction(cg->mod, sym, LLVMFunctionType(cg->t_void, params, 5, 0));
    LLVMSetLinkage(ch->llfn, LLVMInternalLinkage);
    LLVMAddAttributeAtIndex(ch->llfn, LLVMAttributeFunctionIndex, kj_cg_attr(cg, "nounwind", 0));
    ch->saved_fn = cg->fn;
    ch->saved_bb = LLVMGetInsertBlock(cg->b);
    ch->fn = (kj_cgfn){.kf = cg->fn->kf, .fn = ch->llfn, .rt = LLVMGetParam(ch->llfn, 0),
                       .fastmath = cg->fn->fastmath, .volatile_locals = cg->fn->volatile_locals};
    ch->fn.vals = KJ_NEWN(cg->a, LLVMValueRef, ch->fn.kf->ninsts + 1);
    cg->fn = &ch->fn;
    ch->fn.entry = kj_cg_bb(cg, "entry");
    LLVMPositionBuilderAtEnd(cg->b, ch->fn.entry);
    ch->env = LLVMGetParam(ch->llfn, 1);
    ch->begin = LLVMGetParam(ch->llfn, 2);
    ch->end = LLVMGetParam(ch->llfn, 3);
    ch->acc = LLVMGetParam(ch->llfn, 4);
}

void kj_cg_chunk_end(kj_cg *cg, kj_cg_chunk *ch)
{
    LLVMBuildRetVoid(cg->b);
    cg->fn = ch->saved_fn;
    LLVMPositionBuilderAtEnd(cg->b, ch->saved_bb);
}

void kj_cg_parallel_for(kj_cg *cg, LLVMValueRef chunk, LLVMValueRef env, LLVMValueRef n, LLVMValueRef min_chunk,
                        int64_t acc_bytes, LLVMValueRef combine)
{
    LLVMValueRef a[7] = {cg->fn->rt, chunk, env, n, min_chunk, kj_cg_i64(cg, acc_bytes),
                         combine ? combine : LLVMConstNull(cg->t_ptr)};
    kj_cg_rtcall(cg, KJ_RTF_PARALLEL_FOR, a, 7);
}
