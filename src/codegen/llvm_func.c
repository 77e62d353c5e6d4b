/* SPDX-License-Identifier: BSD-2-Clause */
/* Functions: declarations, bodies, entry wrappers, locals and KIR's
 * structured control flow.
 *
 * Every KIR host function becomes an internal LLVM function named by its
 * mangled name, with the hidden `ptr rt` first (abi.h); an external wrapper
 * `NAME.entry` gives it the uniform C signature kj_entry_fn. Locals are
 * allocas in the entry block, zeroed there, and left to mem2reg. The
 * builder's current block is never terminated while statements are being
 * generated: after a return, break, continue or raise, generation goes on
 * in a fresh block without predecessors, which LLVM deletes. */
#include "codegen.h"
#include "../abi/exc_obj.h"

#include <string.h>

LLVMValueRef kj_cg_i32(kj_cg *cg, int64_t v) { return LLVMConstInt(cg->t_i32, (unsigned long long)v, 1); }
LLVMValueRef kj_cg_i64(kj_cg *cg, int64_t v) { return LLVMConstInt(cg->t_i64, (unsigned long long)v, 1); }

LLVMBasicBlockRef kj_cg_bb(kj_cg *cg, const char *name)
{
    return LLVMAppendBasicBlockInContext(cg->ctx, cg->fn->fn, name);
}

bool kj_cg_terminated(kj_cg *cg)
{
    return LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(cg->b)) != NULL;
}

/* Continue in a block no one branches to: the code after a terminator. */
static void dead_block(kj_cg *cg) { LLVMPositionBuilderAtEnd(cg->b, kj_cg_bb(cg, "dead")); }

void kj_cg_noreturn(kj_cg *cg)
{
    LLVMBuildUnreachable(cg->b);
    dead_block(cg);
}

LLVMValueRef kj_cg_val(kj_cg *cg, kir_ref r)
{
    LLVMValueRef v = r ? cg->fn->vals[r] : NULL;
    if (!v) {
        /* Only reachable after an earlier failure (an unsupported operand). */
        const kir_inst *in = &cg->fn->kf->insts[r];
        return LLVMGetUndef(in->type ? kj_cg_type(cg, in->type) : cg->t_i1);
    }
    return v;
}

void kj_cg_raise_if(kj_cg *cg, LLVMValueRef cond, kj_rt_kind kind, const char *msg, kj_span sp)
{
    kj_cg_raise_if_v(cg, cond, kind, msg ? kj_cg_cstr(cg, msg) : LLVMConstNull(cg->t_ptr), sp);
}

/* The same with the message a value (a str, or NULL for none). */
void kj_cg_raise_if_v(kj_cg *cg, LLVMValueRef cond, kj_rt_kind kind, LLVMValueRef msg, kj_span sp)
{
    if (LLVMIsAConstantInt(cond) && LLVMConstIntGetZExtValue(cond) == 0) return; /* cannot fail */
    LLVMBasicBlockRef fail = kj_cg_bb(cg, "raise"), cont = kj_cg_bb(cg, "ok");
    LLVMBuildCondBr(cg->b, cond, fail, cont);
    LLVMPositionBuilderAtEnd(cg->b, fail);
    LLVMValueRef args[5] = {cg->fn->rt, kj_cg_i32(cg, kind), msg, kj_cg_i32(cg, sp.line), kj_cg_i32(cg, sp.col)};
    kj_cg_rtcall(cg, KJ_RTF_RAISE, args, 5);
    LLVMBuildUnreachable(cg->b);
    LLVMPositionBuilderAtEnd(cg->b, cont);
}

/* ---- control flow ---- */

static void push_loop(kj_cg *cg, LLVMBasicBlockRef brk, LLVMBasicBlockRef cont)
{
    kj_cgfn *fn = cg->fn;
    if (fn->nloops == fn->cap_loops) {
        uint32_t nc = fn->cap_loops ? fn->cap_loops * 2 : 8;
        fn->loops = kj_arena_grow(cg->a, fn->loops, fn->nloops, nc, sizeof *fn->loops);
        fn->cap_loops = nc;
    }
    fn->loops[fn->nloops++] = (kj_cg_loop){brk, cont};
}

/* ---- array lifetime ----
 *
 * Arrays created while a function runs are registered in the kj_rt; the
 * function releases its dead ones when it returns (all but those its
 * result holds) and an allocating loop at the end of every iteration (all
 * but those the function's variables hold). Values defined inside a loop
 * body are not visible after the iteration (KIR's structured scopes), so
 * the variables are the only way an array can outlive it. */

bool kj_cg_type_has_array(const kj_type *t)
{
    if (!t) return false;
    if (t->kind == KJ_T_ARRAY) return true;
    if (t->kind == KJ_T_OPTIONAL) return kj_cg_type_has_array(t->elem); /* (valid, value): llvm_optional.c */
    if (t->kind == KJ_T_TUPLE)
        for (uint32_t k = 0; k < t->n; k++)
            if (kj_cg_type_has_array(t->elems[k])) return true;
    return false;
}

unsigned kj_cg_owners(kj_cg *cg, const kj_type *t, LLVMValueRef v, LLVMValueRef *out, unsigned n,
                      unsigned max)
{
    if (t->kind == KJ_T_ARRAY && n < max) out[n++] = LLVMBuildExtractValue(cg->b, v, 3, "owner");
    if (t->kind == KJ_T_OPTIONAL && kj_cg_type_has_array(t->elem)) /* a None's owner is NULL */
        n = kj_cg_owners(cg, t->elem, LLVMBuildExtractValue(cg->b, v, 1, ""), out, n, max);
    if (t->kind == KJ_T_TUPLE)
        for (uint32_t k = 0; k < t->n; k++)
            if (kj_cg_type_has_array(t->elems[k]))
                n = kj_cg_owners(cg, t->elems[k], LLVMBuildExtractValue(cg->b, v, k, ""), out, n, max);
    return n;
}

/* Does the instruction create arrays that the runtime registers? Array
 * results of built-ins, operators and ufunc calls, and calls of functions
 * that return arrays (their arrays stay registered for the caller). */
static bool allocates(const kir_inst *in)
{
    switch ((kir_op)in->op) {
    case KIR_BUILTIN: case KIR_UFUNC_CALL: case KIR_ADD: case KIR_SUB: case KIR_MUL: case KIR_DIV:
    case KIR_FLOORDIV: case KIR_MOD: case KIR_POW: case KIR_AND: case KIR_OR: case KIR_XOR:
    case KIR_SHL: case KIR_SHR: case KIR_NEG: case KIR_NOT: case KIR_INVERT: case KIR_EQ: case KIR_NE:
    case KIR_LT: case KIR_LE: case KIR_GT: case KIR_GE:
        return kj_cg_type_has_array(in->type) || in->op == KIR_UFUNC_CALL;
    case KIR_CALL: return in->fn && kj_cg_type_has_array(in->fn->ret);
    default: return false;
    }
}

/* Does block b (or a block nested in it) allocate? */
static bool block_allocates(const kir_func *f, kir_blkid b)
{
    const kir_block *blk = &f->blocks[b];
    for (uint32_t k = 0; k < blk->n; k++) {
        const kir_inst *in = &f->insts[blk->v[k]];
        if (allocates(in)) return true;
        if ((in->op == KIR_IF || in->op == KIR_LOOP || in->op == KIR_FOR || in->op == KIR_PFOR) &&
            block_allocates(f, in->blk[0]))
            return true;
        if (in->op == KIR_IF && in->blk[1] && block_allocates(f, in->blk[1])) return true;
    }
    return false;
}

static LLVMValueRef gc_mark(kj_cg *cg) { return kj_cg_rtcall(cg, KJ_RTF_MARK, &cg->fn->rt, 1); }

/* Release what was registered since `mark`, except the owners in keep. */
static void gc_collect(kj_cg *cg, LLVMValueRef mark, const LLVMValueRef *keep, unsigned n)
{
    LLVMValueRef arr = LLVMConstNull(cg->t_ptr);
    if (n) {
        LLVMTypeRef at = LLVMArrayType2(cg->t_ptr, n);
        LLVMValueRef v = LLVMGetUndef(at);
        for (unsigned k = 0; k < n; k++) v = LLVMBuildInsertValue(cg->b, v, keep[k], k, "");
        arr = kj_cg_alloca(cg, at, "keep");
        LLVMBuildStore(cg->b, v, arr);
    }
    LLVMValueRef a[4] = {cg->fn->rt, mark, arr, kj_cg_i32(cg, (int64_t)n)};
    kj_cg_rtcall(cg, KJ_RTF_COLLECT, a, 4);
}

enum { MAX_KEEP = 256 };

/* The number of arrays in a value of type t. */
static unsigned count_arrays(const kj_type *t)
{
    if (t->kind == KJ_T_ARRAY) return 1;
    if (t->kind == KJ_T_OPTIONAL) return count_arrays(t->elem);
    unsigned n = 0;
    if (t->kind == KJ_T_TUPLE)
        for (uint32_t k = 0; k < t->n; k++) n += count_arrays(t->elems[k]);
    return n;
}

/* End of an iteration: keep what the variables hold. */
static void gc_locals(kj_cg *cg, LLVMValueRef mark)
{
    const kir_func *f = cg->fn->kf;
    LLVMValueRef keep[MAX_KEEP];
    unsigned n = 0, total = 0;
    for (uint32_t k = 0; k < f->nlocals; k++) total += count_arrays(f->locals[k].type);
    if (total > MAX_KEEP) return; /* too many to list: the function's return releases them */
    for (uint32_t k = 0; k < f->nlocals; k++) {
        const kj_type *t = f->locals[k].type;
        if (!kj_cg_type_has_array(t)) continue;
        LLVMValueRef v = LLVMBuildLoad2(cg->b, kj_cg_type(cg, t), kj_cg_local_ptr(cg, k), "");
        n = kj_cg_owners(cg, t, v, keep, n, MAX_KEEP);
    }
    gc_collect(cg, mark, keep, n);
}

/* IF a { then } else { else } */
static void gen_if(kj_cg *cg, const kir_inst *in)
{
    LLVMBasicBlockRef then = kj_cg_bb(cg, "then"), merge = kj_cg_bb(cg, "endif");
    LLVMBasicBlockRef els = in->blk[1] ? kj_cg_bb(cg, "else") : merge;
    LLVMBuildCondBr(cg->b, kj_cg_val(cg, in->a), then, els);
    LLVMPositionBuilderAtEnd(cg->b, then);
    kj_cg_block(cg, in->blk[0]);
    LLVMBuildBr(cg->b, merge);
    if (in->blk[1]) {
        LLVMPositionBuilderAtEnd(cg->b, els);
        kj_cg_block(cg, in->blk[1]);
        LLVMBuildBr(cg->b, merge);
    }
    LLVMMoveBasicBlockAfter(merge, LLVMGetInsertBlock(cg->b));
    LLVMPositionBuilderAtEnd(cg->b, merge);
}

/* A loop of a kernel on the cpu target that can only wait for another
 * thread (kj_cg_loop_waits) counts its iterations and, every 2^24, asks the
 * runtime whether it has waited too long (kj_rt_spin_check): a spin on a
 * thread of its own block, which does not run meanwhile, would hang. Its
 * counter and the time of the first check, set to 0 where the loop
 * starts; nothing of this in any other loop. */
enum { SPIN_CHECK_EVERY = 1 << 24 };

typedef struct spin_state {
    LLVMValueRef count, since;
} spin_state;

static spin_state spin_start(kj_cg *cg, const kir_inst *in)
{
    spin_state s = {0};
    if (!cg->fn->kx || cg->tgt->rtcall || !kj_cg_loop_waits(cg->fn->kf, in->blk[0])) return s;
    s.count = kj_cg_alloca(cg, cg->t_i64, "spin.count");
    s.since = kj_cg_alloca(cg, LLVMDoubleTypeInContext(cg->ctx), "spin.since");
    LLVMBuildStore(cg->b, kj_cg_i64(cg, 0), s.count);
    LLVMBuildStore(cg->b, LLVMConstReal(LLVMDoubleTypeInContext(cg->ctx), 0), s.since);
    return s;
}

static void spin_tick(kj_cg *cg, const spin_state *s, const kir_inst *in)
{
    if (!s->count) return;
    LLVMValueRef n = LLVMBuildAdd(cg->b, LLVMBuildLoad2(cg->b, cg->t_i64, s->count, ""), kj_cg_i64(cg, 1), "");
    LLVMBuildStore(cg->b, n, s->count);
    LLVMValueRef due = LLVMBuildICmp(cg->b, LLVMIntEQ, LLVMBuildAnd(cg->b, n, kj_cg_i64(cg, SPIN_CHECK_EVERY - 1), ""),
                                     kj_cg_i64(cg, 0), "");
    LLVMBasicBlockRef check = kj_cg_bb(cg, "spin.check"), on = kj_cg_bb(cg, "spin.on");
    LLVMBuildCondBr(cg->b, due, check, on);
    LLVMPositionBuilderAtEnd(cg->b, check);
    LLVMValueRef a[4] = {cg->fn->rt, s->since, kj_cg_i32(cg, in->span.line), kj_cg_i32(cg, in->span.col)};
    kj_cg_rtcall(cg, KJ_RTF_SPIN_CHECK, a, 4);
    LLVMBuildBr(cg->b, on);
    LLVMPositionBuilderAtEnd(cg->b, on);
}

/* LOOP { body } — left only by BREAK (or return). */
static void gen_loop(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef mark = !cg->fn->nogc && block_allocates(cg->fn->kf, in->blk[0]) ? gc_mark(cg) : NULL;
    LLVMValueRef gmark = kj_cg_genlife_mark(cg, in->blk[0]); /* llvm_genlife.c */
    spin_state spin = spin_start(cg, in);
    LLVMBasicBlockRef body = kj_cg_bb(cg, "loop"), latch = kj_cg_bb(cg, "loop.next"),
                      exit = kj_cg_bb(cg, "endloop");
    LLVMBuildBr(cg->b, body);
    LLVMPositionBuilderAtEnd(cg->b, body);
    push_loop(cg, exit, latch);
    kj_cg_block(cg, in->blk[0]);
    cg->fn->nloops--;
    LLVMBuildBr(cg->b, latch);
    LLVMMoveBasicBlockAfter(latch, LLVMGetInsertBlock(cg->b));
    LLVMPositionBuilderAtEnd(cg->b, latch);
    if (mark) gc_locals(cg, mark);
    if (gmark) kj_cg_genlife_locals(cg, gmark);
    spin_tick(cg, &spin, in);
    LLVMBuildBr(cg->b, body);
    LLVMMoveBasicBlockAfter(exit, LLVMGetInsertBlock(cg->b));
    LLVMPositionBuilderAtEnd(cg->b, exit);
}

/* The number of iterations of range(start, stop, step) for step != 0,
 * computed without overflow: the distance in the iteration's direction,
 * divided (unsigned) by |step|. */
LLVMValueRef kj_cg_trip_count(kj_cg *cg, const kj_type *t, LLVMValueRef start, LLVMValueRef stop,
                               LLVMValueRef step)
{
    LLVMBuilderRef b = cg->b;
    LLVMTypeRef ty = LLVMTypeOf(start);
    LLVMValueRef zero = LLVMConstInt(ty, 0, 0), one = LLVMConstInt(ty, 1, 0);
    LLVMValueRef up = kj_cg_is_signed(t) ? LLVMBuildICmp(b, LLVMIntSGT, step, zero, "up")
                                         : LLVMConstInt(cg->t_i1, 1, 0);
    LLVMValueRef astep = LLVMBuildSelect(b, up, step, LLVMBuildNeg(b, step, ""), "astep");
    LLVMValueRef dist = LLVMBuildSelect(b, up, LLVMBuildSub(b, stop, start, ""),
                                        LLVMBuildSub(b, start, stop, ""), "dist");
    LLVMValueRef any = LLVMBuildSelect(b, up, kj_cg_less(cg, t, start, stop),
                                       kj_cg_less(cg, t, stop, start), "any");
    LLVMValueRef n = LLVMBuildAdd(b, LLVMBuildUDiv(b, LLVMBuildSub(b, dist, one, ""), astep, ""), one, "");
    return LLVMBuildSelect(b, any, n, zero, "trips");
}

LLVMValueRef kj_cg_for_trips(kj_cg *cg, const kir_inst *in, LLVMValueRef *start, LLVMValueRef *step)
{
    const kj_type *t = cg->fn->kf->locals[in->i].type;
    LLVMTypeRef ty = kj_cg_type(cg, t);
    LLVMValueRef stop = kj_cg_val(cg, in->b);
    *start = kj_cg_val(cg, in->a);
    *step = in->c ? kj_cg_val(cg, in->c) : LLVMConstInt(ty, 1, 0);
    if (!LLVMIsAConstantInt(*step) || LLVMConstIntGetZExtValue(*step) == 0)
        kj_cg_raise_if(cg, LLVMBuildICmp(cg->b, LLVMIntEQ, *step, LLVMConstInt(ty, 0, 0), ""),
                       KJ_RT_VALUE, "range() arg 3 must not be zero", in->span);
    return kj_cg_trip_count(cg, t, *start, stop, *step);
}

/* FOR/PFOR local i in range(a, b, c) { body }: a counted loop k = 0..n-1
 * with i = a + k*c stored into the local at the top of each iteration, so
 * assigning i in the body does not change the iteration (Python) and LLVM
 * sees a canonical induction variable. A PFOR the parallel target runs on
 * the pool (kj_cg_pfor) is generated there, and the same loop over a
 * chunk [k0, n) of the iterations is its chunk function's. */
static void gen_for(kj_cg *cg, const kir_inst *in)
{
    if (in->op == KIR_PFOR && kj_cg_pfor(cg, in)) return;
    LLVMValueRef start, step;
    LLVMValueRef n = kj_cg_for_trips(cg, in, &start, &step);
    kj_cg_for_range(cg, in, start, step, LLVMConstNull(LLVMTypeOf(n)), n);
}

void kj_cg_for_range(kj_cg *cg, const kir_inst *in, LLVMValueRef start, LLVMValueRef step, LLVMValueRef k0,
                     LLVMValueRef n)
{
    LLVMTypeRef ty = LLVMTypeOf(start);
    LLVMValueRef mark = !cg->fn->nogc && block_allocates(cg->fn->kf, in->blk[0]) ? gc_mark(cg) : NULL;
    LLVMValueRef gmark = kj_cg_genlife_mark(cg, in->blk[0]); /* llvm_genlife.c */
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(cg->b);
    LLVMBasicBlockRef head = kj_cg_bb(cg, "for"), body = kj_cg_bb(cg, "body"),
                      latch = kj_cg_bb(cg, "next"), exit = kj_cg_bb(cg, "endfor");
    LLVMBuildBr(cg->b, head);

    LLVMPositionBuilderAtEnd(cg->b, head);
    LLVMValueRef k = LLVMBuildPhi(cg->b, ty, "k");
    LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntULT, k, n, ""), body, exit);

    LLVMPositionBuilderAtEnd(cg->b, body);
    LLVMValueRef i = LLVMBuildAdd(cg->b, start, LLVMBuildMul(cg->b, k, step, ""), "i");
    LLVMBuildStore(cg->b, i, kj_cg_local_ptr(cg, (uint32_t)in->i));
    push_loop(cg, exit, latch);
    kj_cg_block(cg, in->blk[0]);
    cg->fn->nloops--;
    LLVMBuildBr(cg->b, latch);

    LLVMMoveBasicBlockAfter(latch, LLVMGetInsertBlock(cg->b));
    LLVMPositionBuilderAtEnd(cg->b, latch);
    if (mark) gc_locals(cg, mark);
    if (gmark) kj_cg_genlife_locals(cg, gmark);
    LLVMValueRef k1 = LLVMBuildAdd(cg->b, k, LLVMConstInt(ty, 1, 0), "");
    LLVMSetNUW(k1, 1);
    LLVMBuildBr(cg->b, head);
    LLVMValueRef inc[2] = {k0, k1};
    LLVMBasicBlockRef from[2] = {pre, LLVMGetInsertBlock(cg->b)};
    LLVMAddIncoming(k, inc, from, 2);

    LLVMMoveBasicBlockAfter(exit, latch);
    LLVMPositionBuilderAtEnd(cg->b, exit);
}

/* Leaving the function: release its temporaries but what `ret` holds. */
static void gc_return(kj_cg *cg, LLVMValueRef ret)
{
    kj_cg_genlife_return(cg, ret); /* llvm_genlife.c */
    if (!cg->fn->gc_mark) return;
    LLVMValueRef keep[MAX_KEEP];
    const kj_type *t = cg->fn->kf->ret;
    if (count_arrays(t) > MAX_KEEP) return; /* the end of the run releases them */
    unsigned n = ret && kj_cg_type_has_array(t) ? kj_cg_owners(cg, t, ret, keep, 0, MAX_KEEP) : 0;
    gc_collect(cg, cg->fn->gc_mark, keep, n);
}

static void gen_return(kj_cg *cg, const kir_inst *in)
{
    if (cg->tgt->ret && cg->tgt->ret(cg)) return; /* e.g. a thread of a cpu kernel's region ends */
    if (cg->fn->gen) { /* a generator's return ends the iteration (llvm_pygen.c) */
        kj_cg_gen_return(cg);
        return;
    }
    bool value = in->a && !kj_cg_is_void(cg->fn->kf->ret);
    LLVMValueRef v = value ? kj_cg_val(cg, in->a) : NULL;
    gc_return(cg, v);
    if (value) LLVMBuildRet(cg->b, v);
    else LLVMBuildRetVoid(cg->b);
    dead_block(cg);
}

static void gen_jump(kj_cg *cg, const kir_inst *in)
{
    kj_cgfn *fn = cg->fn;
    if (!fn->nloops) {
        kj_cg_fail(cg, in->span, "'%s' outside a loop", kir_op_name((kir_op)in->op));
        return;
    }
    kj_cg_loop *l = &fn->loops[fn->nloops - 1];
    if (!l->brk) { /* a marker: the loop is outside the thread loop of a cpu kernel's region */
        if (cg->tgt->jump) cg->tgt->jump(cg, in);
        return;
    }
    LLVMBuildBr(cg->b, in->op == KIR_BREAK ? l->brk : l->cont);
    dead_block(cg);
}

/* One statement or value of a block. */
void kj_cg_stmt(kj_cg *cg, kir_ref r)
{
    const kir_inst *in = &cg->fn->kf->insts[r];
    kj_cg_di_at(cg, cg->fn->di_scope, in->span);
    if (cg->run->host_access) cg->run->host_access(cg, in);
    switch ((kir_op)in->op) {
    case KIR_NOP: break;
    case KIR_IF: gen_if(cg, in); break;
    case KIR_LOOP:
    case KIR_FOR:
    case KIR_PFOR: {
        bool hoisted = cg->run->hoist_access && cg->run->hoist_access(cg, in);
        bool graphed = in->op == KIR_FOR && cg->run->graph_loop && cg->run->graph_loop(cg, in);
        if (in->op == KIR_LOOP) gen_loop(cg, in);
        else gen_for(cg, in);
        if (graphed) kj_cg_graph_end(cg, in);
        if (hoisted) kj_cg_hoist_end(cg);
        break;
    }
    case KIR_BREAK:
    case KIR_CONTINUE: gen_jump(cg, in); break;
    case KIR_RETURN: gen_return(cg, in); break;
    case KIR_YIELD: kj_cg_yield(cg, in); break; /* llvm_pygen.c */
    case KIR_LOCAL_SET: {
        LLVMValueRef st = LLVMBuildStore(cg->b, kj_cg_val(cg, in->a), kj_cg_local_ptr(cg, (uint32_t)in->i));
        if (cg->fn->volatile_locals) LLVMSetVolatile(st, 1);
        break;
    }
    case KIR_MODULE_SET: kj_cg_module_set(cg, in); break;
    case KIR_LOCAL_GET:
        cg->fn->vals[r] =
            LLVMBuildLoad2(cg->b, kj_cg_type(cg, in->type), kj_cg_local_ptr(cg, (uint32_t)in->i),
                           cg->fn->kf->locals[in->i].name ? cg->fn->kf->locals[in->i].name : "");
        if (cg->fn->volatile_locals) LLVMSetVolatile(cg->fn->vals[r], 1);
        break;
    case KIR_TRY: case KIR_TRY_END: case KIR_EXC_MATCH: case KIR_RERAISE: case KIR_EXC_VALUE: kj_cg_exc(cg, r); break;
    case KIR_PARAM: /* after rt (and the kernel context on the device side) */
        cg->fn->vals[r] = LLVMGetParam(cg->fn->fn, (unsigned)in->i + (cg->fn->kx ? 2 : 1));
        break;
    case KIR_LAUNCH: kj_cg_launch(cg, in); break;
    case KIR_CALL:
        if (in->fn && kj_cg_device_side(in->fn)) {
            cg->fn->vals[r] = kj_cg_device_call(cg, in);
            break;
        }
        cg->fn->vals[r] = kj_cg_inst(cg, r);
        break;
    case KIR_ASSERT: {
        kj_rt_kind kind = in->aux >= KIR_ASSERT_RAISE  ? (kj_rt_kind)(in->aux - KIR_ASSERT_RAISE)
                        : in->aux == KIR_ASSERT_VALUE ? KJ_RT_VALUE
                                                      : KJ_RT_ASSERTION;
        if (cg->fn->kx) kind &= (1 << KJ_EXC_FORM_SHIFT) - 1; /* the arguments' form: host code's (exc_obj.h) */
        LLVMValueRef fails = LLVMBuildNot(cg->b, kj_cg_val(cg, in->a), "");
        if (in->b) kj_cg_raise_if_v(cg, fails, kind, kj_cg_val(cg, in->b), in->span); /* a run-time message */
        else kj_cg_raise_if(cg, fails, kind, in->s, in->span);
        break;
    }
    default: cg->fn->vals[r] = kj_cg_inst(cg, r); break;
    }
}

void kj_cg_block(kj_cg *cg, kir_blkid b)
{
    const kir_block *blk = &cg->fn->kf->blocks[b];
    for (uint32_t k = 0; k < blk->n; k++) kj_cg_stmt(cg, blk->v[k]);
}

/* ---- functions ---- */

static bool is_host(const kir_func *f)
{
    return f->kind == KIR_FN_MAIN || f->kind == KIR_FN_HOST || f->kind == KIR_FN_UFUNC ||
           f->kind == KIR_FN_GUFUNC;
}

/* Extension attributes of small integer parameters/results, as clang gives
 * them for C callers (bool is zero-extended). */
static const char *ext_attr(const kj_type *t)
{
    if (t->kind == KJ_T_BOOL) return "zeroext";
    if (t->kind == KJ_T_INT && t->bits < 32) return t->is_signed ? "signext" : "zeroext";
    return NULL;
}

/* The LLVM name of a function: its mangled name ("fib[int64]"). A name
 * that is a plain C identifier (hand-built KIR) gets ".fn" appended, so
 * that it can never take the place of a C symbol the code calls, such as
 * libm's `pow` that llvm.pow becomes. */
const char *kj_cg_fn_name(kj_cg *cg, const kir_func *f)
{
    for (const char *p = f->mangled; *p; p++)
        if (!(*p == '_' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
            return f->mangled;
    return kj_arena_printf(cg->a, "%s.fn", f->mangled);
}

LLVMValueRef kj_cg_declare(kj_cg *cg, const kir_func *f, const char *name, bool kx)
{
    unsigned base = kx ? 2 : 1; /* rt, and the kernel context (llvm_kernel.c) */
    LLVMTypeRef *params = KJ_NEWN(cg->a, LLVMTypeRef, f->nparams + base);
    params[0] = cg->t_ptr;
    params[1] = cg->t_ptr;
    for (uint32_t k = 0; k < f->nparams; k++) params[k + base] = kj_cg_type(cg, f->params[k]);
    LLVMTypeRef ret = kj_cg_is_void(f->ret) ? cg->t_void : kj_cg_type(cg, f->ret);
    LLVMTypeRef fty = LLVMFunctionType(ret, params, f->nparams + base, 0);
    LLVMValueRef fn = LLVMAddFunction(cg->mod, name, fty);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, kj_cg_attr(cg, "nounwind", 0));
    LLVMAddAttributeAtIndex(fn, 1, kj_cg_attr(cg, "noalias", 0));
    LLVMSetValueName2(LLVMGetParam(fn, 0), "rt", 2);
    if (kx) LLVMSetValueName2(LLVMGetParam(fn, 1), "kx", 2);
    for (uint32_t k = 0; k < f->nparams; k++) {
        const char *ext = ext_attr(f->params[k]);
        if (ext) LLVMAddAttributeAtIndex(fn, k + base + 1, kj_cg_attr(cg, ext, 0));
        const char *pname = f->param_names && f->param_names[k] ? f->param_names[k] : "";
        LLVMSetValueName2(LLVMGetParam(fn, k + base), pname, strlen(pname));
    }
    const char *ext = kj_cg_is_void(f->ret) ? NULL : ext_attr(f->ret);
    if (ext) LLVMAddAttributeAtIndex(fn, LLVMAttributeReturnIndex, kj_cg_attr(cg, ext, 0));
    return fn;
}

/* The entry block: one zeroed alloca per local (KIR's locals start at 0). */
static void alloc_locals(kj_cg *cg)
{
    kj_cgfn *fn = cg->fn;
    const kir_func *f = fn->kf;
    fn->locals = KJ_NEWN(cg->a, LLVMValueRef, f->nlocals + 1);
    for (uint32_t k = 0; k < f->nlocals; k++) {
        LLVMTypeRef ty = kj_cg_type(cg, f->locals[k].type);
        fn->locals[k] = LLVMBuildAlloca(cg->b, ty, f->locals[k].name ? f->locals[k].name : "tmp");
        LLVMBuildStore(cg->b, LLVMConstNull(ty), fn->locals[k]);
    }
}

LLVMValueRef kj_cg_local_ptr(kj_cg *cg, uint32_t k)
{
    if (cg->tgt->local_ptr) return cg->tgt->local_ptr(cg, k);
    return cg->fn->locals[k];
}

/* A temporary in the entry block (for values passed by pointer). */
LLVMValueRef kj_cg_alloca(kj_cg *cg, LLVMTypeRef ty, const char *name)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(cg->ctx);
    LLVMValueRef first = LLVMGetFirstInstruction(cg->fn->entry);
    if (first) LLVMPositionBuilderBefore(b, first);
    else LLVMPositionBuilderAtEnd(b, cg->fn->entry);
    LLVMValueRef v = LLVMBuildAlloca(b, ty, name);
    LLVMDisposeBuilder(b);
    return v;
}

/* ---- the recursion guard ---- */

static int32_t func_index(const kir_module *km, const kir_func *f)
{
    for (uint32_t k = 0; k < km->nfuncs; k++)
        if (km->funcs[k] == f) return (int32_t)k;
    return -1;
}

/* Does `from` call `target`, directly or through the functions it calls?
 * seen: per function of the module, visited. */
static bool reaches(const kir_module *km, const kir_func *from, const kir_func *target, bool *seen)
{
    for (uint32_t r = 1; r < from->ninsts; r++) {
        const kir_inst *in = &from->insts[r];
        if (in->op != KIR_CALL || !in->fn) continue;
        if (in->fn == target) return true;
        int32_t k = func_index(km, in->fn);
        if (k < 0 || seen[k]) continue;
        seen[k] = true;
        if (reaches(km, in->fn, target, seen)) return true;
    }
    return false;
}

static bool is_recursive(kj_cg *cg, const kir_func *f)
{
    bool *seen = KJ_NEWN(cg->a, bool, cg->km->nfuncs + 1);
    return reaches(cg->km, f, f, seen);
}

/* At the entry of a recursive function on the host: when the stack
 * pointer is below rt->stack_limit, kj_rt_stack_check raises
 * RecursionError (or, the first time in a run, computes the limit). A load,
 * a compare and a branch per call, in recursive functions only. */
static void stack_guard(kj_cg *cg, const kir_func *f)
{
    LLVMValueRef sp = LLVMBuildPtrToInt(cg->b, kj_cg_intrinsic(cg, "llvm.stacksave", cg->t_ptr, NULL, 0),
                                        cg->t_i64, "sp");
    LLVMValueRef off = kj_cg_i64(cg, (int64_t)offsetof(kj_rt, stack_limit));
    LLVMValueRef lim = LLVMBuildLoad2(cg->b, cg->t_i64, LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, cg->fn->rt, &off, 1, ""),
                                      "stack.limit");
    LLVMBasicBlockRef check = kj_cg_bb(cg, "stack.check"), cont = kj_cg_bb(cg, "stack.ok");
    LLVMValueRef ex[2] = {LLVMBuildICmp(cg->b, LLVMIntULT, sp, lim, ""), LLVMConstInt(cg->t_i1, 0, 0)};
    LLVMBuildCondBr(cg->b, kj_cg_intrinsic(cg, "llvm.expect", cg->t_i1, ex, 2), check, cont); /* rare */
    LLVMPositionBuilderAtEnd(cg->b, check);
    LLVMValueRef a[4] = {cg->fn->rt, kj_cg_cstr(cg, f->name), kj_cg_i32(cg, f->span.line), kj_cg_i32(cg, f->span.col)};
    kj_cg_rtcall(cg, KJ_RTF_STACK_CHECK, a, 4);
    LLVMBuildBr(cg->b, cont);
    LLVMPositionBuilderAtEnd(cg->b, cont);
}

void kj_cg_define(kj_cg *cg, const kir_func *f, LLVMValueRef llfn, kj_cg_kern *kern)
{
    kj_cgfn fn = {.kf = f, .fn = llfn, .rt = LLVMGetParam(llfn, 0), .fastmath = f->fastmath,
                  .kx = kj_cg_device_side(f) ? LLVMGetParam(llfn, 1) : NULL, .kern = kern,
                  .volatile_locals = kj_cg_volatile_locals(f), .nogc = kj_cg_gen_nogc(f)};
    fn.vals = KJ_NEWN(cg->a, LLVMValueRef, f->ninsts + 1);
    cg->fn = &fn;
    fn.entry = kj_cg_bb(cg, "entry");
    LLVMPositionBuilderAtEnd(cg->b, fn.entry);
    fn.di_scope = kj_cg_di_func(cg, f, llfn);
    if (cg->tgt->body && cg->tgt->body(cg)) {
        /* the target made the body (a cpu kernel with barriers: regions) */
    } else {
        alloc_locals(cg);
        /* after the locals: allocas must stay in the entry block */
        if (cg->tgt == &kj_target_host && is_recursive(cg, f)) stack_guard(cg, f);
        if (!fn.nogc && block_allocates(f, 0)) fn.gc_mark = gc_mark(cg);
        fn.gen_mark = kj_cg_genlife_mark(cg, 0);
        if (f->generator) kj_cg_gen_begin(cg); /* llvm_pygen.c */
        kj_cg_block(cg, 0);
    }
    if (fn.gen) { /* the end of a generator's body: its final suspend */
        kj_cg_gen_end(cg);
        kj_cg_di_clear(cg);
        cg->fn = NULL;
        return;
    }
    /* Falling off the end: none, or (never reached after a complete
     * return analysis) the zero value. */
    gc_return(cg, NULL);
    if (kj_cg_is_void(f->ret)) LLVMBuildRetVoid(cg->b);
    else LLVMBuildRet(cg->b, kj_cg_zero(cg, f->ret));
    kj_cg_di_clear(cg);
    cg->fn = NULL;
}

/* void NAME.entry(ptr rt, ptr args, ptr ret): unpack the arguments from
 * their memory form, call, store the result (abi.h). */
static void define_entry(kj_cg *cg, const kir_func *f, LLVMValueRef impl)
{
    LLVMTypeRef params[3] = {cg->t_ptr, cg->t_ptr, cg->t_ptr};
    const char *name = kj_arena_printf(cg->a, "%s.entry", f->mangled);
    LLVMValueRef fn = LLVMAddFunction(cg->mod, name, LLVMFunctionType(cg->t_void, params, 3, 0));
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, kj_cg_attr(cg, "nounwind", 0));
    LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(cg->ctx, fn, "entry"));
    LLVMValueRef args = LLVMGetParam(fn, 1);
    LLVMValueRef *cargs = KJ_NEWN(cg->a, LLVMValueRef, f->nparams + 1);
    cargs[0] = LLVMGetParam(fn, 0);
    for (uint32_t k = 0; k < f->nparams; k++) {
        LLVMValueRef idx = kj_cg_i64(cg, k);
        LLVMValueRef slot = LLVMBuildInBoundsGEP2(cg->b, cg->t_ptr, args, &idx, 1, "");
        LLVMValueRef p = LLVMBuildLoad2(cg->b, cg->t_ptr, slot, "");
        LLVMValueRef v = LLVMBuildLoad2(cg->b, kj_cg_memtype(cg, f->params[k]), p, "");
        cargs[k + 1] = kj_cg_from_mem(cg, f->params[k], v);
    }
    LLVMValueRef r = LLVMBuildCall2(cg->b, LLVMGlobalGetValueType(impl), impl, cargs, f->nparams + 1, "");
    /* Keep the wrapper a thin shim: inlining the function here would only
     * duplicate its code when it also has callers inside the module. */
    LLVMAddCallSiteAttribute(r, LLVMAttributeFunctionIndex, kj_cg_attr(cg, "noinline", 0));
    if (!kj_cg_is_void(f->ret)) LLVMBuildStore(cg->b, kj_cg_to_mem(cg, f->ret, r), LLVMGetParam(fn, 2));
    /* A returned array's owner gets a reference for the caller: the run's
     * registry drops its own when the outermost entry call returns. */
    if (kj_cg_type_has_array(f->ret)) {
        unsigned max = count_arrays(f->ret);
        LLVMValueRef *own = KJ_NEWN(cg->a, LLVMValueRef, max + 1);
        unsigned n = kj_cg_owners(cg, f->ret, r, own, 0, max);
        for (unsigned k = 0; k < n; k++) {
            LLVMValueRef a[2] = {cargs[0], own[k]};
            kj_cg_rtcall(cg, KJ_RTF_KEEP, a, 2);
        }
    }
    LLVMBuildRetVoid(cg->b);
}

bool kj_cg_module(kj_cg *cg)
{
    const kir_module *km = cg->km;
    LLVMValueRef *fns = KJ_NEWN(cg->a, LLVMValueRef, km->nfuncs + 1);
    for (uint32_t k = 0; k < km->nfuncs; k++) {
        const kir_func *f = km->funcs[k];
        if (is_host(f)) fns[k] = kj_cg_declare(cg, f, kj_cg_fn_name(cg, f), false);
        else if (kj_cg_device_side(f) && cg->run->host_kernels) fns[k] = cg->tgt->kernel_declare(cg, f);
    }
    for (uint32_t k = 0; k < km->nfuncs; k++) {
        if (!fns[k]) continue;
        if (!is_host(km->funcs[k])) {
            cg->tgt->kernel_define(cg, km->funcs[k], fns[k]);
            continue;
        }
        kj_cg_define(cg, km->funcs[k], fns[k], NULL);
        define_entry(cg, km->funcs[k], fns[k]);
    }
    return !cg->failed;
}
