/* Warp operations of kernels on the host CPU (docs/kernels_cpu.md § Warp
 * operations): block-level statements of the region generator
 * (llvm_kernel.c) that exchange values among the 32 threads of each warp. */
#include "kernel_int.h"

#include "../ir/builtins.h"

static const kj_type T_I32 = {.kind = KJ_T_INT, .bits = 32, .is_signed = true};
static const kj_type T_U32 = {.kind = KJ_T_INT, .bits = 32, .is_signed = false};

/* A warp operation is a block-level statement, as a barrier is: the
 * regions before it have stored its operands per thread; it computes every
 * thread's result from the operands of the threads of its warp (lanes are
 * the linear thread index mod 32, as on a GPU) and stores it per thread
 * for the regions after it. Threads that have returned take no part. */

static const kj_type *operand_type(kj_cg *cg, const kir_inst *in, unsigned k)
{
    return k < in->nargs && in->args[k] ? cg->fn->kf->insts[in->args[k]].type : NULL;
}

/* Operand k of a block-level statement as thread th has it (NULL when
 * absent). */
static LLVMValueRef operand_at(kj_cg *cg, const kir_inst *in, unsigned k, LLVMValueRef th)
{
    return operand_type(cg, in, k) ? kj_kn_ref_at(cg, in->args[k], th) : NULL;
}

/* Operand k as a u32 mask or lane; all lanes when absent. */
static LLVMValueRef u32_at(kj_cg *cg, const kir_inst *in, unsigned k, LLVMValueRef th)
{
    LLVMValueRef v = operand_at(cg, in, k, th);
    if (!v) return LLVMConstInt(cg->t_i32, 0xffffffffu, 0);
    return kj_cg_cast(cg, v, operand_type(cg, in, k), &T_U32);
}

static LLVMValueRef nonzero(kj_cg *cg, LLVMValueRef v, const kj_type *t)
{
    if (t->kind == KJ_T_FLOAT) return LLVMBuildFCmp(cg->b, LLVMRealUNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
    return LLVMBuildICmp(cg->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
}

static LLVMValueRef lane_of(kj_cg *cg, LLVMValueRef th)
{
    return LLVMBuildTrunc(cg->b, LLVMBuildAnd(cg->b, th, kj_cg_i64(cg, 31), ""), cg->t_i32, "lane");
}

/* Under boundscheck, the mask must name the calling thread (a GPU leaves
 * the result undefined; compute-sanitizer reports it). */
static void check_mask(kj_cg *cg, const kir_inst *in, LLVMValueRef th)
{
    if (!cg->fn->kf->boundscheck || in->aux == KJ_B_ACTIVEMASK) return;
    LLVMValueRef bit = LLVMBuildAnd(cg->b, LLVMBuildLShr(cg->b, u32_at(cg, in, 0, th), lane_of(cg, th), ""),
                                    LLVMConstInt(cg->t_i32, 1, 0), "");
    const kj_builtin_info *bi = kj_builtin_get((kj_builtin)in->aux);
    const char *msg = kj_arena_printf(cg->a, "the mask of %s leaves out the calling thread", bi ? bi->path : "?");
    kj_cg_raise_if(cg, LLVMBuildICmp(cg->b, LLVMIntEQ, bit, LLVMConstInt(cg->t_i32, 0, 0), ""), KJ_RT_RUNTIME,
                   msg, in->span);
}

/* The source thread of a shuffle in thread th, by PTX's shfl.sync rules
 * for a width of 32: the lane operand is taken mod 32; a source outside
 * the warp (up, down) or the block gives the thread its own value. */
static LLVMValueRef shuffle_source(kj_cg *cg, const kir_inst *in, LLVMValueRef th)
{
    kj_cg_kern *kn = cg->fn->kern;
    LLVMValueRef lane = lane_of(cg, th);
    LLVMValueRef b = LLVMBuildAnd(cg->b, u32_at(cg, in, 2, th), LLVMConstInt(cg->t_i32, 31, 0), "");
    LLVMValueRef j, ok = NULL;
    switch ((kj_builtin)in->aux) {
    case KJ_B_SHFL_UP_SYNC:
        j = LLVMBuildSub(cg->b, lane, b, "");
        ok = LLVMBuildICmp(cg->b, LLVMIntSGE, j, LLVMConstInt(cg->t_i32, 0, 0), "");
        break;
    case KJ_B_SHFL_DOWN_SYNC:
        j = LLVMBuildAdd(cg->b, lane, b, "");
        ok = LLVMBuildICmp(cg->b, LLVMIntULE, j, LLVMConstInt(cg->t_i32, 31, 0), "");
        break;
    case KJ_B_SHFL_XOR_SYNC: j = LLVMBuildXor(cg->b, lane, b, ""); break;
    default: j = b; break;
    }
    LLVMValueRef base = LLVMBuildSub(cg->b, th, LLVMBuildZExt(cg->b, lane, cg->t_i64, ""), "");
    LLVMValueRef src = LLVMBuildAdd(cg->b, base, LLVMBuildSExt(cg->b, j, cg->t_i64, ""), "src");
    LLVMValueRef in_scope = LLVMBuildICmp(cg->b, LLVMIntSLT, src, kn->hi, "");
    ok = ok ? LLVMBuildAnd(cg->b, ok, in_scope, "") : in_scope;
    return LLVMBuildSelect(cg->b, ok, src, th, "");
}

/* cuda.shfl_*_sync(mask, value, lane/delta); cuda.syncwarp(mask) (only
 * its mask check: the region boundary is the synchronisation). */
void kj_kn_shuffle(kj_cg *cg, kir_ref r, const kir_inst *in)
{
    kj_cg_kern *kn = cg->fn->kern;
    bool sync = in->aux == KJ_B_SYNCWARP;
    if (sync && !cg->fn->kf->boundscheck) return;
    if (!sync && !kn->slot[r] && !cg->fn->kf->boundscheck) return; /* the result is unused */
    cloop l;
    LLVMValueRef th = kj_kn_scope_begin(cg, &l, "t");
    kj_kn_skip_exited(cg, th, l.latch);
    check_mask(cg, in, th);
    if (!sync && kn->slot[r]) {
        LLVMValueRef v = operand_at(cg, in, 1, shuffle_source(cg, in, th));
        v = kj_cg_cast(cg, v, operand_type(cg, in, 1), in->type);
        LLVMBuildStore(cg->b, v, kj_kn_at_thread(cg, kj_kn_ref_type(cg, r), kn->slot[r], th));
    }
    kj_kn_loop_end(cg, &l);
}

/* One thread's result of a vote, from its warp's ballot of the predicate
 * and the lanes still running. */
static LLVMValueRef vote_result(kj_cg *cg, const kir_inst *in, LLVMValueRef th, LLVMValueRef ballot,
                                LLVMValueRef live)
{
    LLVMValueRef mask = u32_at(cg, in, 0, th);
    LLVMValueRef zero = LLVMConstInt(cg->t_i32, 0, 0), r;
    switch ((kj_builtin)in->aux) {
    case KJ_B_ACTIVEMASK: return kj_cg_cast(cg, live, &T_U32, in->type);
    case KJ_B_BALLOT_SYNC: return kj_cg_cast(cg, LLVMBuildAnd(cg->b, ballot, mask, ""), &T_U32, in->type);
    case KJ_B_ANY_SYNC: r = LLVMBuildICmp(cg->b, LLVMIntNE, LLVMBuildAnd(cg->b, ballot, mask, ""), zero, ""); break;
    default: { /* all: every running lane of the mask */
        LLVMValueRef m = LLVMBuildAnd(cg->b, mask, live, "");
        r = LLVMBuildICmp(cg->b, LLVMIntEQ, LLVMBuildAnd(cg->b, ballot, m, ""), m, "");
    }
    }
    return kj_cg_cast(cg, LLVMBuildZExt(cg->b, r, cg->t_i32, ""), &T_I32, in->type);
}

/* cuda.all_sync / any_sync / ballot_sync(mask, predicate), activemask():
 * per warp of the scope, the ballot of the running threads, then every
 * thread's result. */
void kj_kn_vote(kj_cg *cg, kir_ref r, const kir_inst *in)
{
    kj_cg_kern *kn = cg->fn->kern;
    if (!kn->slot[r] && !cg->fn->kf->boundscheck) return; /* the result is unused */
    LLVMValueRef ballot = kj_cg_alloca(cg, cg->t_i32, "ballot"), live = kj_cg_alloca(cg, cg->t_i32, "running");
    LLVMValueRef c31 = kj_cg_i64(cg, 31), c32 = kj_cg_i64(cg, 32);
    cloop w;
    LLVMValueRef wi = kj_kn_loop_from(cg, &w, LLVMBuildUDiv(cg->b, kn->lo, c32, ""),
                                LLVMBuildUDiv(cg->b, LLVMBuildAdd(cg->b, kn->hi, c31, ""), c32, ""), "warp");
    LLVMValueRef lo = LLVMBuildMul(cg->b, wi, c32, ""), hi = LLVMBuildAdd(cg->b, lo, c32, "");
    hi = LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, hi, kn->hi, ""), hi, kn->hi, "");
    LLVMBuildStore(cg->b, LLVMConstInt(cg->t_i32, 0, 0), ballot);
    LLVMBuildStore(cg->b, LLVMConstInt(cg->t_i32, 0, 0), live);
    cloop l;
    LLVMValueRef th = kj_kn_loop_from(cg, &l, lo, hi, "lane");
    kj_kn_skip_exited(cg, th, l.latch);
    LLVMValueRef bit = LLVMBuildShl(cg->b, LLVMConstInt(cg->t_i32, 1, 0), lane_of(cg, th), "");
    LLVMBuildStore(cg->b, LLVMBuildOr(cg->b, LLVMBuildLoad2(cg->b, cg->t_i32, live, ""), bit, ""), live);
    if (in->aux != KJ_B_ACTIVEMASK) {
        LLVMValueRef p = nonzero(cg, operand_at(cg, in, 1, th), operand_type(cg, in, 1));
        LLVMValueRef set = LLVMBuildSelect(cg->b, p, bit, LLVMConstInt(cg->t_i32, 0, 0), "");
        LLVMBuildStore(cg->b, LLVMBuildOr(cg->b, LLVMBuildLoad2(cg->b, cg->t_i32, ballot, ""), set, ""), ballot);
    }
    kj_kn_loop_end(cg, &l);
    th = kj_kn_loop_from(cg, &l, lo, hi, "lane");
    kj_kn_skip_exited(cg, th, l.latch);
    check_mask(cg, in, th);
    if (kn->slot[r]) {
        LLVMValueRef v = vote_result(cg, in, th, LLVMBuildLoad2(cg->b, cg->t_i32, ballot, ""),
                                     LLVMBuildLoad2(cg->b, cg->t_i32, live, ""));
        LLVMBuildStore(cg->b, v, kj_kn_at_thread(cg, kj_kn_ref_type(cg, r), kn->slot[r], th));
    }
    kj_kn_loop_end(cg, &l);
    kj_kn_loop_end(cg, &w);
}

/* A statement with warp operations and no syncthreads (an if / for /
 * while around them) runs warp by warp: its conditions and bounds need
 * only be the same within each warp, so that `if warp == 0: v =
 * warp_reduce(v)` works as on a GPU. */
void kj_kn_warp_scope(kj_cg *cg, kir_ref r)
{
    kj_cg_kern *kn = cg->fn->kern;
    LLVMValueRef c32 = kj_cg_i64(cg, 32);
    LLVMValueRef nw = LLVMBuildUDiv(cg->b, LLVMBuildAdd(cg->b, kn->nthreads, kj_cg_i64(cg, 31), ""), c32, "nwarps");
    cloop l;
    LLVMValueRef w = kj_kn_loop_begin(cg, &l, nw, "warp");
    LLVMValueRef lo = LLVMBuildMul(cg->b, w, c32, ""), hi = LLVMBuildAdd(cg->b, lo, c32, "");
    kn->lo = lo;
    kn->hi = LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, hi, kn->nthreads, ""), hi, kn->nthreads, "");
    kn->in_warp = true;
    kn->warp_bloops = kn->nbloops;
    kn->warp_next = l.latch;
    kj_kn_block_stmt(cg, r);
    kj_kn_loop_end(cg, &l);
    kn->in_warp = false;
    kn->lo = kj_cg_i64(cg, 0);
    kn->hi = kn->nthreads;
}

