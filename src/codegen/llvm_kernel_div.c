/* SPDX-License-Identifier: BSD-2-Clause */
/* Divergence within a warp on the host CPU (docs/kernels_cpu.md § Warp
 * operations): the block-level if / for / while of a statement run warp by
 * warp (llvm_kernel_warp.c) when its lanes may disagree.
 *
 * Inside a statement run warp by warp, an if whose condition differs
 * between the lanes of a warp runs its then-block for the lanes where it
 * holds, the others sitting out (THREAD_OFF in their state byte: regions
 * and warp operations skip them), then its else-block for the rest; a
 * for / while runs iterations while some lane still has one, lanes that
 * are done, broke out or continued sitting out until the next iteration
 * (or the loop's end). So a warp operation under such control runs with
 * the lanes that reach it together, as CUDA's masks say (check_reach). */

#include "kernel_int.h"

#include "../ir/builtins.h"

static const kj_type T_I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};

static LLVMValueRef i8c(kj_cg *cg, unsigned v) { return LLVMConstInt(cg->t_i8, v, 0); }

/* Storage for statement r (allocated at the kernel's entry). */
void kj_kn_div_prepare(kj_cg *cg, kir_ref r)
{
    kj_cg_kern *kn = cg->fn->kern;
    const kir_inst *in = &kn->kf->insts[r];
    kn_div *d = &kn->div[r];
    kn->diverges = true;
    d->save = kj_kn_per_thread(cg, cg->t_i8, "div.save");
    if (in->op == KIR_IF) return;
    d->left = kj_kn_per_thread(cg, cg->t_i8, "div.left");
    if (in->op != KIR_FOR) return;
    LLVMTypeRef t = kj_cg_type(cg, kn->kf->locals[in->i].type);
    d->start = kj_kn_per_thread(cg, t, "div.start");
    d->step = kj_kn_per_thread(cg, t, "div.step");
    d->trips = kj_kn_per_thread(cg, t, "div.trips");
}

/* The left flags of the innermost loop run warp by warp around the
 * statement being generated, or NULL. */
static LLVMValueRef loop_left(kj_cg_kern *kn)
{
    return kn->nbloops > kn->warp_bloops ? kn->bleft[kn->nbloops - 1] : NULL;
}

/* if (c) { ... and the block after it */
static LLVMBasicBlockRef when(kj_cg *cg, LLVMValueRef c, const char *name)
{
    LLVMBasicBlockRef yes = kj_cg_bb(cg, name), after = kj_cg_bb(cg, "after");
    LLVMBuildCondBr(cg->b, c, yes, after);
    LLVMPositionBuilderAtEnd(cg->b, yes);
    return after;
}

static void when_end(kj_cg *cg, LLVMBasicBlockRef after)
{
    LLVMBuildBr(cg->b, after);
    LLVMMoveBasicBlockAfter(after, LLVMGetInsertBlock(cg->b));
    LLVMPositionBuilderAtEnd(cg->b, after);
}

/* Lanes that ran before the if (save 0) and whose condition is `out`
 * sit out the branch. */
static void sit_out(kj_cg *cg, const kn_div *d, kir_ref cond, bool out)
{
    cloop l;
    LLVMValueRef th = kj_kn_scope_begin(cg, &l, "t");
    LLVMValueRef sv = LLVMBuildLoad2(cg->b, cg->t_i8, kj_kn_at_thread(cg, cg->t_i8, d->save, th), "");
    LLVMValueRef c = kj_kn_ref_at(cg, cond, th);
    LLVMValueRef off = LLVMBuildAnd(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, sv, i8c(cg, 0), ""),
                                    out ? c : LLVMBuildNot(cg->b, c, ""), "");
    LLVMValueRef p = kj_kn_state_ptr(cg, th), s = LLVMBuildLoad2(cg->b, cg->t_i8, p, "");
    LLVMBuildStore(cg->b, LLVMBuildSelect(cg->b, off, LLVMBuildOr(cg->b, s, i8c(cg, THREAD_OFF), ""), s, ""), p);
    kj_kn_loop_end(cg, &l);
}

/* After a branch or loop: each lane runs again unless it sat out before
 * it (save), has returned, or has left the enclosing loop's iteration. */
static void restore(kj_cg *cg, const kn_div *d, LLVMValueRef left)
{
    cloop l;
    LLVMValueRef th = kj_kn_scope_begin(cg, &l, "t");
    LLVMValueRef p = kj_kn_state_ptr(cg, th), s = LLVMBuildLoad2(cg->b, cg->t_i8, p, "");
    LLVMValueRef sv = LLVMBuildLoad2(cg->b, cg->t_i8, kj_kn_at_thread(cg, cg->t_i8, d->save, th), "");
    LLVMValueRef ns = LLVMBuildOr(cg->b, LLVMBuildAnd(cg->b, s, i8c(cg, THREAD_EXITED), ""),
                                  LLVMBuildAnd(cg->b, sv, i8c(cg, THREAD_OFF), ""), "");
    if (left) {
        LLVMValueRef lf = LLVMBuildLoad2(cg->b, cg->t_i8, kj_kn_at_thread(cg, cg->t_i8, left, th), "");
        LLVMValueRef gone = LLVMBuildICmp(cg->b, LLVMIntNE, lf, i8c(cg, JUMP_NONE), "");
        ns = LLVMBuildOr(cg->b, ns, LLVMBuildSelect(cg->b, gone, i8c(cg, THREAD_OFF), i8c(cg, 0), ""), "");
    }
    LLVMBuildStore(cg->b, ns, p);
    kj_kn_loop_end(cg, &l);
}

/* One branch of a warp-level if: when some lane takes it; when the lanes
 * disagree (mixed), the others sit out. */
static void branch(kj_cg *cg, const kir_inst *in, const kn_div *d, kir_blkid b, bool then, LLVMValueRef some,
                   LLVMValueRef mixed)
{
    LLVMValueRef left = loop_left(cg->fn->kern);
    LLVMBasicBlockRef after = when(cg, some, then ? "then" : "else");
    LLVMBasicBlockRef a = when(cg, mixed, "diverge");
    sit_out(cg, d, in->a, !then);
    when_end(cg, a);
    kj_kn_seq(cg, b);
    a = when(cg, mixed, "reconverge");
    restore(cg, d, left);
    when_end(cg, a);
    when_end(cg, after);
}

/* An if run warp by warp: how many running lanes take each branch, then
 * the branches (kn_div.save: every lane's state before it). */
void kj_kn_warp_if(kj_cg *cg, kir_ref r)
{
    kj_cg_kern *kn = cg->fn->kern;
    const kir_inst *in = &kn->kf->insts[r];
    const kn_div *d = &kn->div[r];
    LLVMValueRef nt = kj_cg_alloca(cg, cg->t_i64, "ntrue"), nf = kj_cg_alloca(cg, cg->t_i64, "nfalse");
    LLVMBuildStore(cg->b, kj_cg_i64(cg, 0), nt);
    LLVMBuildStore(cg->b, kj_cg_i64(cg, 0), nf);
    cloop l;
    LLVMValueRef th = kj_kn_scope_begin(cg, &l, "t");
    LLVMBuildStore(cg->b, LLVMBuildLoad2(cg->b, cg->t_i8, kj_kn_state_ptr(cg, th), ""),
                   kj_kn_at_thread(cg, cg->t_i8, d->save, th));
    kj_kn_skip_exited(cg, th, l.latch);
    LLVMValueRef c = LLVMBuildZExt(cg->b, kj_kn_ref_at(cg, in->a, th), cg->t_i64, "");
    LLVMBuildStore(cg->b, LLVMBuildAdd(cg->b, LLVMBuildLoad2(cg->b, cg->t_i64, nt, ""), c, ""), nt);
    LLVMValueRef nc = LLVMBuildSub(cg->b, kj_cg_i64(cg, 1), c, "");
    LLVMBuildStore(cg->b, LLVMBuildAdd(cg->b, LLVMBuildLoad2(cg->b, cg->t_i64, nf, ""), nc, ""), nf);
    kj_kn_loop_end(cg, &l);
    LLVMValueRef zero = kj_cg_i64(cg, 0);
    LLVMValueRef t = LLVMBuildICmp(cg->b, LLVMIntNE, LLVMBuildLoad2(cg->b, cg->t_i64, nt, ""), zero, "some.true");
    LLVMValueRef f = LLVMBuildICmp(cg->b, LLVMIntNE, LLVMBuildLoad2(cg->b, cg->t_i64, nf, ""), zero, "some.false");
    LLVMValueRef mixed = LLVMBuildAnd(cg->b, t, f, "mixed");
    branch(cg, in, d, in->blk[0], true, t, mixed);
    if (in->blk[1]) branch(cg, in, d, in->blk[1], false, f, mixed);
}

/* At the top of an iteration k of a warp-level loop: a lane runs it
 * unless it sat out before the loop, has returned, broke out or (for)
 * has no iteration k; continue is forgotten. Returns whether some lane
 * runs it. */
static LLVMValueRef iteration(kj_cg *cg, const kir_inst *in, const kn_div *d, LLVMValueRef k)
{
    kj_cg_kern *kn = cg->fn->kern;
    LLVMValueRef any = kj_cg_alloca(cg, cg->t_i1, "any");
    LLVMBuildStore(cg->b, LLVMConstInt(cg->t_i1, 0, 0), any);
    cloop l;
    LLVMValueRef th = kj_kn_scope_begin(cg, &l, "t");
    LLVMValueRef p = kj_kn_state_ptr(cg, th), s = LLVMBuildLoad2(cg->b, cg->t_i8, p, "");
    LLVMBasicBlockRef there = kj_cg_bb(cg, "there");
    LLVMValueRef gone = LLVMBuildAnd(cg->b, s, i8c(cg, THREAD_EXITED), "");
    LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntNE, gone, i8c(cg, 0), ""), l.latch, there);
    LLVMPositionBuilderAtEnd(cg->b, there);
    LLVMValueRef sv = LLVMBuildLoad2(cg->b, cg->t_i8, kj_kn_at_thread(cg, cg->t_i8, d->save, th), "");
    LLVMValueRef lp = kj_kn_at_thread(cg, cg->t_i8, d->left, th);
    LLVMValueRef lf = LLVMBuildLoad2(cg->b, cg->t_i8, lp, "");
    LLVMValueRef go = LLVMBuildAnd(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, sv, i8c(cg, 0), ""),
                                   LLVMBuildICmp(cg->b, LLVMIntNE, lf, i8c(cg, JUMP_BREAK), ""), "");
    const kj_type *t = in->op == KIR_FOR ? kn->kf->locals[in->i].type : NULL;
    LLVMTypeRef ty = t ? kj_cg_type(cg, t) : NULL;
    if (t) {
        LLVMValueRef n = LLVMBuildLoad2(cg->b, ty, kj_kn_at_thread(cg, ty, d->trips, th), "");
        go = LLVMBuildAnd(cg->b, go, LLVMBuildICmp(cg->b, LLVMIntSLT, k, kj_cg_cast(cg, n, t, &T_I64), ""), "");
    }
    LLVMBuildStore(cg->b, LLVMBuildSelect(cg->b, go, i8c(cg, 0), i8c(cg, THREAD_OFF), ""), p);
    LLVMBuildStore(cg->b, LLVMBuildSelect(cg->b, go, i8c(cg, JUMP_NONE), lf, ""), lp);
    LLVMBuildStore(cg->b, LLVMBuildOr(cg->b, LLVMBuildLoad2(cg->b, cg->t_i1, any, ""), go, ""), any);
    if (t) { /* i = start + k * step, for the lanes that run */
        LLVMBasicBlockRef set = when(cg, go, "set.i");
        LLVMValueRef a = LLVMBuildLoad2(cg->b, ty, kj_kn_at_thread(cg, ty, d->start, th), "");
        LLVMValueRef c = LLVMBuildLoad2(cg->b, ty, kj_kn_at_thread(cg, ty, d->step, th), "");
        LLVMValueRef i = LLVMBuildAdd(cg->b, a, LLVMBuildMul(cg->b, kj_cg_cast(cg, k, &T_I64, t), c, ""), "i");
        LLVMBuildStore(cg->b, i, kj_kn_at_thread(cg, ty, cg->fn->locals[in->i], th));
        when_end(cg, set);
    }
    kj_kn_loop_end(cg, &l);
    return LLVMBuildLoad2(cg->b, cg->t_i1, any, "");
}

/* A FOR's range in every running lane (kn_div start, step, trips). */
static void ranges(kj_cg *cg, const kir_inst *in, const kn_div *d)
{
    kj_cg_kern *kn = cg->fn->kern;
    const kj_type *t = kn->kf->locals[in->i].type;
    LLVMTypeRef ty = kj_cg_type(cg, t);
    cloop l;
    LLVMValueRef th = kj_kn_scope_begin(cg, &l, "t");
    kj_kn_skip_exited(cg, th, l.latch);
    LLVMValueRef abc[3];
    kj_kn_range_at(cg, in, ty, th, d->start, d->step, abc);
    LLVMBuildStore(cg->b, kj_cg_trip_count(cg, t, abc[0], abc[1], abc[2]), kj_kn_at_thread(cg, ty, d->trips, th));
    kj_kn_loop_end(cg, &l);
}

/* A while / for run warp by warp: iterations while some lane has one. */
void kj_kn_warp_loop(kj_cg *cg, kir_ref r)
{
    kj_cg_kern *kn = cg->fn->kern;
    const kir_inst *in = &kn->kf->insts[r];
    const kn_div *d = &kn->div[r];
    cloop l;
    LLVMValueRef th = kj_kn_scope_begin(cg, &l, "t");
    LLVMBuildStore(cg->b, LLVMBuildLoad2(cg->b, cg->t_i8, kj_kn_state_ptr(cg, th), ""),
                   kj_kn_at_thread(cg, cg->t_i8, d->save, th));
    LLVMBuildStore(cg->b, i8c(cg, JUMP_NONE), kj_kn_at_thread(cg, cg->t_i8, d->left, th));
    kj_kn_loop_end(cg, &l);
    if (in->op == KIR_FOR) ranges(cg, in, d);
    cloop kl;
    LLVMValueRef k = kj_kn_loop_begin(cg, &kl, kj_cg_i64(cg, INT64_MAX), "iter");
    LLVMBasicBlockRef run = kj_cg_bb(cg, "iter.run");
    LLVMBuildCondBr(cg->b, iteration(cg, in, d, k), run, kl.exit);
    LLVMPositionBuilderAtEnd(cg->b, run);
    kj_kn_push_bloop(cg, kl.exit, kl.latch, d->left);
    kj_kn_seq(cg, in->blk[0]);
    kn->nbloops--;
    kj_kn_loop_end(cg, &kl);
    restore(cg, d, NULL);
}

/* break / continue out of a region to a loop run warp by warp: the lane
 * leaves, and sits out the rest of the iteration (or the loop). */
void kj_kn_warp_jump(kj_cg *cg, const kir_inst *in)
{
    kj_cg_kern *kn = cg->fn->kern;
    LLVMValueRef left = kn->bleft[kn->nbloops - 1];
    unsigned code = in->op == KIR_BREAK ? JUMP_BREAK : JUMP_CONTINUE;
    LLVMBuildStore(cg->b, i8c(cg, code), kj_kn_at_thread(cg, cg->t_i8, left, kn->tid));
    LLVMBuildStore(cg->b, i8c(cg, THREAD_OFF), kj_kn_state_ptr(cg, kn->tid));
    LLVMBuildBr(cg->b, kn->next);
    LLVMPositionBuilderAtEnd(cg->b, kj_cg_bb(cg, "dead"));
}

/* ---- statements that cannot diverge within a warp ----
 *
 * An if / for / while run warp by warp whose condition or bounds are the
 * same in every lane, and that no lane leaves alone by break or continue,
 * needs none of the above: it runs as a block-level statement (its
 * condition still checked to be uniform at run time, so a mistake here
 * would be an error, not a wrong answer). Uniform values: constants,
 * parameters, blockIdx/blockDim/gridDim, and what is computed from them
 * alone; a local is uniform when every assignment to it is of a uniform
 * value under uniform control (found optimistically, then refined until
 * nothing changes: `d = 1; while d < 32: ...; d *= 2`). */

typedef struct uni {
    const kir_func *f;
    bool *local, *stmt;
    bool changed;
} uni;

static bool value_uniform(const uni *u, kir_ref r)
{
    if (!r) return true;
    const kir_inst *in = &u->f->insts[r];
    switch ((kir_op)in->op) {
    case KIR_CONST_INT: case KIR_CONST_FLOAT: case KIR_CONST_STR: case KIR_CONST_NONE: case KIR_PARAM:
        return true;
    case KIR_LOCAL_GET: return u->local[in->i];
    case KIR_BUILTIN: return kj_builtin_has(in->aux, KJ_BF_UNIFORM);
    case KIR_ADD: case KIR_SUB: case KIR_MUL: case KIR_DIV: case KIR_FLOORDIV: case KIR_MOD: case KIR_POW:
    case KIR_AND: case KIR_OR: case KIR_XOR: case KIR_SHL: case KIR_SHR: case KIR_NEG: case KIR_NOT:
    case KIR_INVERT: case KIR_EQ: case KIR_NE: case KIR_LT: case KIR_LE: case KIR_GT: case KIR_GE:
    case KIR_CAST: case KIR_SELECT: case KIR_TUPLE: case KIR_TUPLE_GET: case KIR_ARRAY_DIM:
        for (uint32_t k = 0; k < in->nargs; k++)
            if (!value_uniform(u, in->args[k])) return false;
        return value_uniform(u, in->a) && value_uniform(u, in->b) && value_uniform(u, in->c);
    default: return false;
    }
}

static bool jumps_out_of(const kir_func *f, kir_blkid b)
{
    const kir_block *blk = &f->blocks[b];
    for (uint32_t k = 0; k < blk->n; k++) {
        const kir_inst *in = &f->insts[blk->v[k]];
        if (in->op == KIR_BREAK || in->op == KIR_CONTINUE) return true;
        if (in->op == KIR_IF && (jumps_out_of(f, in->blk[0]) || (in->blk[1] && jumps_out_of(f, in->blk[1]))))
            return true;
    }
    return false;
}

/* Are the break / continue of the loop whose body is b taken by all lanes
 * or none (every if around them has a uniform condition)? */
static bool jumps_uniform(const uni *u, kir_blkid b)
{
    const kir_block *blk = &u->f->blocks[b];
    for (uint32_t k = 0; k < blk->n; k++) {
        const kir_inst *in = &u->f->insts[blk->v[k]];
        if (in->op != KIR_IF) continue;
        bool jumps = jumps_out_of(u->f, in->blk[0]) || (in->blk[1] && jumps_out_of(u->f, in->blk[1]));
        if (!jumps) continue;
        if (!value_uniform(u, in->a) || !jumps_uniform(u, in->blk[0])) return false;
        if (in->blk[1] && !jumps_uniform(u, in->blk[1])) return false;
    }
    return true;
}

static void set_local(uni *u, uint32_t k, bool uniform)
{
    if (uniform || !u->local[k]) return;
    u->local[k] = false;
    u->changed = true;
}

static void walk(uni *u, kir_blkid b, bool ctl)
{
    const kir_block *blk = &u->f->blocks[b];
    for (uint32_t k = 0; k < blk->n; k++) {
        kir_ref r = blk->v[k];
        const kir_inst *in = &u->f->insts[r];
        bool c = ctl;
        switch ((kir_op)in->op) {
        case KIR_LOCAL_SET: set_local(u, (uint32_t)in->i, ctl && value_uniform(u, in->a)); continue;
        case KIR_IF: c = ctl && value_uniform(u, in->a); break;
        case KIR_FOR: case KIR_PFOR:
            c = ctl && value_uniform(u, in->a) && value_uniform(u, in->b) && value_uniform(u, in->c) &&
                jumps_uniform(u, in->blk[0]);
            set_local(u, (uint32_t)in->i, c);
            break;
        case KIR_LOOP: c = ctl && jumps_uniform(u, in->blk[0]); break;
        default: continue;
        }
        u->stmt[r] = c;
        walk(u, in->blk[0], c);
        if (in->op == KIR_IF && in->blk[1]) walk(u, in->blk[1], c);
    }
}

bool *kj_kn_find_uniform(kj_cg *cg, const kir_func *f)
{
    uni u = {.f = f};
    u.local = KJ_NEWN(cg->a, bool, f->nlocals + 1);
    u.stmt = KJ_NEWN(cg->a, bool, f->ninsts + 1);
    for (uint32_t k = 0; k < f->nlocals; k++) u.local[k] = true;
    do {
        u.changed = false;
        walk(&u, 0, true);
    } while (u.changed);
    return u.stmt;
}
