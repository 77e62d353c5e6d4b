/* SPDX-License-Identifier: BSD-2-Clause */
/* lower_pygen — generators (infer_pygen.c) in KIR: a generator function's
 * `yield v` is a YIELD of v converted to the yield type and its `return` a
 * RETURN without value (the end of the iteration); a loop over a
 * generator is
 *     loop { if GEN_NEXT(g) {} else { break }; x = GEN_VALUE(g); body }
 * and next(g) is GEN_NEXT, StopIteration when it is false, GEN_VALUE.
 * llvm_pygen.c makes the coroutine and the resumptions. */
#include "lower_int.h"
#include "lower_pygen.h"

void kj_lower_yield(lctx *lc, const kj_stmt *st)
{
    const kj_type *yt = lc->f->ret->elem;
    kir_ref v = st->ret.value ? kj_lw_as(lc, st->ret.value, yt) : kj_lw_emit(lc, KIR_CONST_NONE, yt, st->span);
    kir_ref r = kj_lw_emit(lc, KIR_YIELD, NULL, st->span);
    kir_at(lc->f, r)->a = v;
}

/* The next value of generator g, or StopIteration (no message, as Python's). */
kir_ref kj_lower_gen_next(lctx *lc, kir_ref g, kj_span sp)
{
    const kj_type *gt = lc->f->insts[g].type;
    kir_ref ok = kj_lw_emit(lc, KIR_GEN_NEXT, kj_t_bool(lc->s->types), sp);
    kir_at(lc->f, ok)->a = g;
    kir_ref as = kj_lw_emit(lc, KIR_ASSERT, NULL, sp);
    kir_at(lc->f, as)->a = ok;
    kir_at(lc->f, as)->aux = (uint16_t)(KIR_ASSERT_RAISE + kj_exc_class("StopIteration"));
    kir_ref v = kj_lw_emit(lc, KIR_GEN_VALUE, gt->elem, sp);
    kir_at(lc->f, v)->a = g;
    return v;
}


/* loop { if GEN_NEXT(g) {} else { break }; <the current block> }: the
 * loop's body block, the builder at it after GEN_VALUE (*v). */
static kir_blkid gen_loop(lctx *lc, kir_ref g, kj_span sp, kir_ref *v)
{
    const kj_type *gt = lc->f->insts[g].type;
    kir_ref loop = kj_lw_emit(lc, KIR_LOOP, NULL, sp);
    kir_blkid body = kir_block_new(lc->s->a, lc->f);
    kir_at(lc->f, loop)->blk[0] = body;
    lc->cur = body;
    kir_ref ok = kj_lw_emit(lc, KIR_GEN_NEXT, kj_t_bool(lc->s->types), sp);
    kir_at(lc->f, ok)->a = g;
    kir_ref br = kj_lw_emit(lc, KIR_IF, NULL, sp);
    kir_blkid then = kir_block_new(lc->s->a, lc->f), els = kir_block_new(lc->s->a, lc->f);
    kir_inst *in = kir_at(lc->f, br);
    in->a = ok, in->blk[0] = then, in->blk[1] = els;
    lc->cur = els;
    kj_lw_emit(lc, KIR_BREAK, NULL, sp);
    lc->cur = body;
    *v = kj_lw_emit(lc, KIR_GEN_VALUE, gt->elem, sp);
    kir_at(lc->f, *v)->a = g;
    return body;
}

/* list(g): a new list of g's yield type, what g yields appended. */
static kir_ref drain(lctx *lc, kir_ref g, kj_span sp)
{
    const kj_type *lt = kj_t_list(lc->s->types, lc->f->insts[g].type->elem);
    kir_ref l = kj_lw_emit_args(lc, KIR_BUILTIN, lt, sp, NULL, 0);
    kir_at(lc->f, l)->aux = KJ_B_LIST_NEW;
    kir_blkid saved = lc->cur;
    kir_ref v;
    gen_loop(lc, g, sp, &v);
    kir_ref ap = kj_lw_emit_args(lc, KIR_BUILTIN, kj_t_none(lc->s->types), sp, (kir_ref[]){l, v}, 2);
    kir_at(lc->f, ap)->aux = KJ_B_LIST_APPEND;
    lc->cur = saved;
    return l;
}

kir_ref kj_lower_gen_builtin(lctx *lc, int b, kir_ref *args, uint32_t n, kj_span sp)
{
    if (!n || !args[0] || lc->f->insts[args[0]].type->kind != KJ_T_GENERATOR) return 0;
    if (b == KJ_B_ITER) return args[0];
    if (b == KJ_B_NEXT && (n < 2 || !args[1])) return kj_lower_gen_next(lc, args[0], sp);
    if (b == KJ_B_NEXT) { /* next(g, default): GEN_VALUE is read only when GEN_NEXT gave one */
        const kj_type *et = lc->f->insts[args[0]].type->elem;
        kir_ref ok = kj_lw_emit(lc, KIR_GEN_NEXT, kj_t_bool(lc->s->types), sp);
        kir_at(lc->f, ok)->a = args[0];
        kir_ref v = kj_lw_emit(lc, KIR_GEN_VALUE, et, sp);
        kir_at(lc->f, v)->a = args[0];
        kir_ref r = kj_lw_emit2(lc, KIR_SELECT, et, sp, ok, v);
        kir_at(lc->f, r)->c = kj_lw_cast(lc, args[1], et, sp);
        return r;
    }
    args[0] = drain(lc, args[0], sp);
    return 0;
}

bool kj_lower_for_gen(lctx *lc, const kj_stmt *st)
{
    const kj_expr *it = st->for_.iter;
    const kj_type *gt = lc->sp->ei[it->id].type;
    if (!gt || gt->kind != KJ_T_GENERATOR) return false;
    kir_ref g = kj_lw_expr(lc, it), v;
    kir_blkid saved = lc->cur;
    gen_loop(lc, g, st->span, &v);
    kj_lw_store(lc, st->for_.target, v, st->span);
    kj_lw_block(lc, &st->for_.body);
    lc->cur = saved;
    return true;
}
