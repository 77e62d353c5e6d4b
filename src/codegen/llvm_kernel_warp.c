/* SPDX-License-Identifier: BSD-2-Clause */
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

/* The lanes of the warp of threads [lo, hi) that run (`act`: state 0)
 * and those that are there (`here`: in the block and not returned). */
static void warp_lanes(kj_cg *cg, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef *act, LLVMValueRef *here)
{
    kj_cg_kern *kn = cg->fn->kern;
    if (!kn->returns && !kn->diverges) { /* every thread of [lo, hi) runs: the low hi - lo bits */
        LLVMValueRef n = LLVMBuildTrunc(cg->b, LLVMBuildSub(cg->b, hi, lo, ""), cg->t_i32, "");
        LLVMValueRef ones = LLVMConstInt(cg->t_i32, 0xffffffffu, 0);
        LLVMValueRef sh = LLVMBuildLShr(cg->b, ones, LLVMBuildSub(cg->b, LLVMConstInt(cg->t_i32, 32, 0), n, ""), "");
        *act = *here = LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntUGE, n, LLVMConstInt(cg->t_i32, 32, 0), ""),
                                       ones, sh, "lanes");
        return;
    }
    LLVMValueRef a = kj_cg_alloca(cg, cg->t_i32, "act"), h = kj_cg_alloca(cg, cg->t_i32, "here");
    LLVMValueRef zero = LLVMConstInt(cg->t_i32, 0, 0);
    LLVMBuildStore(cg->b, zero, a);
    LLVMBuildStore(cg->b, zero, h);
    cloop l;
    LLVMValueRef th = kj_kn_loop_from(cg, &l, lo, hi, "lane");
    LLVMValueRef bit = LLVMBuildShl(cg->b, LLVMConstInt(cg->t_i32, 1, 0), lane_of(cg, th), "");
    LLVMValueRef s = LLVMBuildLoad2(cg->b, cg->t_i8, kj_kn_state_ptr(cg, th), "");
    LLVMValueRef runs = LLVMBuildICmp(cg->b, LLVMIntEQ, s, LLVMConstInt(cg->t_i8, 0, 0), "");
    LLVMValueRef gone = LLVMBuildICmp(cg->b, LLVMIntNE, LLVMBuildAnd(cg->b, s, LLVMConstInt(cg->t_i8, THREAD_EXITED, 0), ""),
                                      LLVMConstInt(cg->t_i8, 0, 0), "");
    LLVMBuildStore(cg->b, LLVMBuildOr(cg->b, LLVMBuildLoad2(cg->b, cg->t_i32, a, ""), LLVMBuildSelect(cg->b, runs, bit, zero, ""), ""), a);
    LLVMBuildStore(cg->b, LLVMBuildOr(cg->b, LLVMBuildLoad2(cg->b, cg->t_i32, h, ""), LLVMBuildSelect(cg->b, gone, zero, bit, ""), ""), h);
    kj_kn_loop_end(cg, &l);
    *act = LLVMBuildLoad2(cg->b, cg->t_i32, a, "act");
    *here = LLVMBuildLoad2(cg->b, cg->t_i32, h, "here");
}

/* A warp operation synchronises the lanes of its mask, which must all
 * reach it together. The cpu target runs the branches (and iterations)
 * that split a warp one after the other, so lanes of the mask that are
 * there but sit out the current branch cannot take part: an error, where
 * a GPU would exchange with them (sm_70 and later) or hang. */
static void check_reach(kj_cg *cg, const kir_inst *in, LLVMValueRef mask, LLVMValueRef act, LLVMValueRef here)
{
    if (!cg->fn->kern->diverges || in->aux == KJ_B_ACTIVEMASK) return;
    LLVMValueRef away = LLVMBuildAnd(cg->b, LLVMBuildAnd(cg->b, mask, here, ""), LLVMBuildNot(cg->b, act, ""), "");
    const kj_builtin_info *bi = kj_builtin_get((kj_builtin)in->aux);
    const char *msg = kj_arena_printf(
        cg->a,
        "lanes named in the mask of %s do not reach it with the calling thread, in kernel '%s' (on the cpu "
        "target the lanes of a warp that take different branches or iterations run one after the other, "
        "so a warp operation can only synchronise lanes that reach it together: use cuda.activemask())",
        bi ? bi->path : "?", cg->fn->kf->name);
    kj_cg_raise_if(cg, LLVMBuildICmp(cg->b, LLVMIntNE, away, LLVMConstInt(cg->t_i32, 0, 0), ""), KJ_RT_RUNTIME, msg,
                   in->span);
}

/* The source thread of a shuffle in thread th, by PTX's shfl.sync rules
 * for a width of 32: the lane operand is taken mod 32. A source outside
 * the warp (up, down), outside the mask, or that does not run the
 * shuffle (not in the block, returned, or sitting out the branch: bit
 * clear in `act`) gives the thread its own value (undefined on a GPU). */
static LLVMValueRef shuffle_source(kj_cg *cg, const kir_inst *in, LLVMValueRef th, LLVMValueRef mask,
                                   LLVMValueRef act)
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
    /* j is in 0..31 wherever ok holds; masked so that the shift is defined */
    LLVMValueRef jm = LLVMBuildAnd(cg->b, j, LLVMConstInt(cg->t_i32, 31, 0), "");
    LLVMValueRef takes = LLVMBuildAnd(cg->b, mask, act, "");
    LLVMValueRef bit = LLVMBuildAnd(cg->b, LLVMBuildLShr(cg->b, takes, jm, ""), LLVMConstInt(cg->t_i32, 1, 0), "");
    ok = LLVMBuildAnd(cg->b, ok, LLVMBuildICmp(cg->b, LLVMIntNE, bit, LLVMConstInt(cg->t_i32, 0, 0), ""), "");
    return LLVMBuildSelect(cg->b, ok, src, th, "");
}

/* The loop over the warps of the scope: the warp's first thread (*lo) and
 * the end of its threads in the scope (*hi). Close it with kj_kn_loop_end. */
static void warp_loop(kj_cg *cg, cloop *w, LLVMValueRef *lo, LLVMValueRef *hi)
{
    kj_cg_kern *kn = cg->fn->kern;
    LLVMValueRef c31 = kj_cg_i64(cg, 31), c32 = kj_cg_i64(cg, 32);
    LLVMValueRef wi = kj_kn_loop_from(cg, w, LLVMBuildUDiv(cg->b, kn->lo, c32, ""),
                                      LLVMBuildUDiv(cg->b, LLVMBuildAdd(cg->b, kn->hi, c31, ""), c32, ""), "warp");
    *lo = LLVMBuildMul(cg->b, wi, c32, "");
    LLVMValueRef end = LLVMBuildAdd(cg->b, *lo, c32, "");
    *hi = LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, end, kn->hi, ""), end, kn->hi, "");
}

/* The loops of a masked warp operation (shuffles, matches): per warp, its
 * active lanes; per running thread of it (th), its mask (operand 0),
 * checked to name th and only lanes that take part. */
typedef struct masked_lanes {
    cloop w, l;
    LLVMValueRef lo, hi, act, here, th, mask;
} masked_lanes;

static void masked_lanes_begin(kj_cg *cg, const kir_inst *in, masked_lanes *m)
{
    warp_loop(cg, &m->w, &m->lo, &m->hi);
    warp_lanes(cg, m->lo, m->hi, &m->act, &m->here);
    m->th = kj_kn_loop_from(cg, &m->l, m->lo, m->hi, "lane");
    kj_kn_skip_exited(cg, m->th, m->l.latch);
    check_mask(cg, in, m->th);
    m->mask = u32_at(cg, in, 0, m->th);
    check_reach(cg, in, m->mask, m->act, m->here);
}

static void masked_lanes_end(kj_cg *cg, masked_lanes *m)
{
    kj_kn_loop_end(cg, &m->l);
    kj_kn_loop_end(cg, &m->w);
}

/* cuda.shfl_*_sync(mask, value, lane/delta); cuda.syncwarp(mask) (only
 * its checks: the region boundary is the synchronisation). Per warp of
 * the scope: which lanes run it, then every running thread's result. */
static void shuffle(kj_cg *cg, kir_ref r, const kir_inst *in)
{
    kj_cg_kern *kn = cg->fn->kern;
    bool sync = in->aux == KJ_B_SYNCWARP, check = cg->fn->kf->boundscheck || kn->diverges;
    if (!check && (sync || !kn->slot[r])) return; /* nothing to compute */
    masked_lanes m;
    masked_lanes_begin(cg, in, &m);
    if (!sync && kn->slot[r]) {
        LLVMValueRef v = operand_at(cg, in, 1, shuffle_source(cg, in, m.th, m.mask, m.act));
        v = kj_cg_cast(cg, v, operand_type(cg, in, 1), in->type);
        LLVMBuildStore(cg->b, v, kj_kn_at_thread(cg, kj_kn_ref_type(cg, r), kn->slot[r], m.th));
    }
    masked_lanes_end(cg, &m);
}

/* One thread's result of a vote, from its warp's ballot of the predicate
 * and the lanes that run it. */
static LLVMValueRef vote_result(kj_cg *cg, const kir_inst *in, LLVMValueRef th, LLVMValueRef ballot,
                                LLVMValueRef live)
{
    LLVMValueRef mask = u32_at(cg, in, 0, th);
    LLVMValueRef zero = LLVMConstInt(cg->t_i32, 0, 0), r;
    switch ((kj_builtin)in->aux) {
    case KJ_B_ACTIVEMASK: return kj_cg_cast(cg, live, &T_U32, in->type);
    case KJ_B_BALLOT_SYNC: return kj_cg_cast(cg, LLVMBuildAnd(cg->b, ballot, mask, ""), &T_U32, in->type);
    case KJ_B_ANY_SYNC: r = LLVMBuildICmp(cg->b, LLVMIntNE, LLVMBuildAnd(cg->b, ballot, mask, ""), zero, ""); break;
    case KJ_B_EQ_SYNC: { /* the running lanes of the mask all have it, or none */
        LLVMValueRef m = LLVMBuildAnd(cg->b, mask, live, ""), b = LLVMBuildAnd(cg->b, ballot, m, "");
        r = LLVMBuildOr(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, b, zero, ""), LLVMBuildICmp(cg->b, LLVMIntEQ, b, m, ""), "");
        break;
    }
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
static void vote(kj_cg *cg, kir_ref r, const kir_inst *in)
{
    kj_cg_kern *kn = cg->fn->kern;
    if (!kn->slot[r] && !cg->fn->kf->boundscheck && !kn->diverges) return; /* the result is unused */
    LLVMValueRef ballot = kj_cg_alloca(cg, cg->t_i32, "ballot"), live = kj_cg_alloca(cg, cg->t_i32, "running");
    LLVMValueRef here = kj_cg_alloca(cg, cg->t_i32, "here");
    LLVMValueRef zero = LLVMConstInt(cg->t_i32, 0, 0), lo, hi;
    cloop w;
    warp_loop(cg, &w, &lo, &hi);
    LLVMBuildStore(cg->b, zero, ballot);
    LLVMBuildStore(cg->b, zero, live);
    LLVMBuildStore(cg->b, zero, here);
    cloop l;
    LLVMValueRef th = kj_kn_loop_from(cg, &l, lo, hi, "lane");
    LLVMValueRef bit = LLVMBuildShl(cg->b, LLVMConstInt(cg->t_i32, 1, 0), lane_of(cg, th), "");
    if (kn->returns || kn->diverges) { /* there: in the block and not returned */
        LLVMValueRef s = LLVMBuildLoad2(cg->b, cg->t_i8, kj_kn_state_ptr(cg, th), "");
        LLVMValueRef gone = LLVMBuildICmp(cg->b, LLVMIntNE, LLVMBuildAnd(cg->b, s, LLVMConstInt(cg->t_i8, THREAD_EXITED, 0), ""),
                                          LLVMConstInt(cg->t_i8, 0, 0), "");
        LLVMBuildStore(cg->b, LLVMBuildOr(cg->b, LLVMBuildLoad2(cg->b, cg->t_i32, here, ""), LLVMBuildSelect(cg->b, gone, zero, bit, ""), ""), here);
    }
    kj_kn_skip_exited(cg, th, l.latch);
    LLVMBuildStore(cg->b, LLVMBuildOr(cg->b, LLVMBuildLoad2(cg->b, cg->t_i32, live, ""), bit, ""), live);
    if (in->aux != KJ_B_ACTIVEMASK) {
        LLVMValueRef p = nonzero(cg, operand_at(cg, in, 1, th), operand_type(cg, in, 1));
        LLVMValueRef set = LLVMBuildSelect(cg->b, p, bit, zero, "");
        LLVMBuildStore(cg->b, LLVMBuildOr(cg->b, LLVMBuildLoad2(cg->b, cg->t_i32, ballot, ""), set, ""), ballot);
    }
    kj_kn_loop_end(cg, &l);
    th = kj_kn_loop_from(cg, &l, lo, hi, "lane");
    kj_kn_skip_exited(cg, th, l.latch);
    check_mask(cg, in, th);
    LLVMValueRef act = LLVMBuildLoad2(cg->b, cg->t_i32, live, "");
    if (in->aux != KJ_B_ACTIVEMASK)
        check_reach(cg, in, u32_at(cg, in, 0, th), act, LLVMBuildLoad2(cg->b, cg->t_i32, here, ""));
    if (kn->slot[r]) {
        LLVMValueRef v = vote_result(cg, in, th, LLVMBuildLoad2(cg->b, cg->t_i32, ballot, ""), act);
        LLVMBuildStore(cg->b, v, kj_kn_at_thread(cg, kj_kn_ref_type(cg, r), kn->slot[r], th));
    }
    kj_kn_loop_end(cg, &l);
    kj_kn_loop_end(cg, &w);
}

/* Operand 1 of a match as thread th has it, as bits (PTX compares b32/b64). */
static LLVMValueRef match_bits(kj_cg *cg, const kir_inst *in, LLVMValueRef th)
{
    LLVMValueRef v = operand_at(cg, in, 1, th);
    LLVMTypeRef t = LLVMTypeOf(v);
    if (LLVMGetTypeKind(t) == LLVMFloatTypeKind) return LLVMBuildBitCast(cg->b, v, cg->t_i32, "");
    if (LLVMGetTypeKind(t) == LLVMDoubleTypeKind) return LLVMBuildBitCast(cg->b, v, cg->t_i64, "");
    return v;
}

/* One thread's result of cuda.match_any_sync / match_all_sync: `same`,
 * the running lanes of the mask whose value has the thread's bits. */
static LLVMValueRef match_result(kj_cg *cg, const kir_inst *in, LLVMValueRef mask, LLVMValueRef m,
                                 LLVMValueRef same)
{
    if (in->aux == KJ_B_MATCH_ANY_SYNC) return kj_cg_cast(cg, same, &T_U32, in->type);
    /* match_all: (mask, True) when every running lane of it has the value, else (0, False) */
    LLVMValueRef all = LLVMBuildICmp(cg->b, LLVMIntEQ, same, m, "");
    LLVMValueRef r = LLVMGetUndef(kj_cg_type(cg, in->type));
    r = LLVMBuildInsertValue(cg->b, r, LLVMBuildSelect(cg->b, all, mask, LLVMConstInt(cg->t_i32, 0, 0), ""), 0, "");
    return LLVMBuildInsertValue(cg->b, r, all, 1, "");
}

/* cuda.match_any_sync / match_all_sync(mask, value): per warp of the
 * scope, each running thread compares its value with those of the running
 * lanes of its mask (32 × 32 comparisons a warp at most). */
static void match(kj_cg *cg, kir_ref r, const kir_inst *in)
{
    kj_cg_kern *kn = cg->fn->kern;
    if (!kn->slot[r] && !cg->fn->kf->boundscheck && !kn->diverges) return; /* the result is unused */
    LLVMValueRef zero = LLVMConstInt(cg->t_i32, 0, 0);
    LLVMValueRef same = kj_cg_alloca(cg, cg->t_i32, "same");
    masked_lanes ml;
    masked_lanes_begin(cg, in, &ml);
    LLVMValueRef lo = ml.lo, hi = ml.hi, th = ml.th, mask = ml.mask;
    if (kn->slot[r]) {
        LLVMValueRef m = LLVMBuildAnd(cg->b, mask, ml.act, ""), mine = match_bits(cg, in, th);
        LLVMBuildStore(cg->b, zero, same);
        cloop o;
        LLVMValueRef j = kj_kn_loop_from(cg, &o, lo, hi, "other");
        LLVMValueRef bit = LLVMBuildShl(cg->b, LLVMConstInt(cg->t_i32, 1, 0), lane_of(cg, j), "");
        LLVMValueRef named = LLVMBuildICmp(cg->b, LLVMIntNE, LLVMBuildAnd(cg->b, m, bit, ""), zero, "");
        /* a lane outside m (returned, sitting out) has a stale value: ignored */
        LLVMValueRef eq = LLVMBuildICmp(cg->b, LLVMIntEQ, match_bits(cg, in, j), mine, "");
        eq = LLVMBuildAnd(cg->b, eq, named, "");
        LLVMValueRef acc = LLVMBuildLoad2(cg->b, cg->t_i32, same, "");
        LLVMBuildStore(cg->b, LLVMBuildOr(cg->b, acc, LLVMBuildSelect(cg->b, eq, bit, zero, ""), ""), same);
        kj_kn_loop_end(cg, &o);
        LLVMValueRef v = match_result(cg, in, mask, m, LLVMBuildLoad2(cg->b, cg->t_i32, same, ""));
        LLVMBuildStore(cg->b, v, kj_kn_at_thread(cg, kj_kn_ref_type(cg, r), kn->slot[r], th));
    }
    masked_lanes_end(cg, &ml);
}

/* A warp operation (KJ_BF_WARP) at block level: every thread's result. */
void kj_kn_warp_op(kj_cg *cg, kir_ref r, const kir_inst *in)
{
    switch ((kj_builtin)in->aux) {
    case KJ_B_SYNCWARP: case KJ_B_SHFL_SYNC: case KJ_B_SHFL_UP_SYNC: case KJ_B_SHFL_DOWN_SYNC:
    case KJ_B_SHFL_XOR_SYNC:
        shuffle(cg, r, in);
        break;
    case KJ_B_MATCH_ANY_SYNC: case KJ_B_MATCH_ALL_SYNC: match(cg, r, in); break;
    default: vote(cg, r, in); break;
    }
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
