/* SPDX-License-Identifier: BSD-2-Clause */
/* lower_list — reflected lists to KIR (infer_list.c typed them). A list is
 * a run-time object that KIR handles through BUILTIN instructions, which
 * llvm_list.c lowers: LIST_NEW (the elements, converted to the list's
 * element type), LIST_GET/LIST_SET (an int64 index, wrapped and checked
 * there with Python's "list index out of range"), LIST_APPEND, LIST_POP
 * and LEN (lowered as any method call by lower.c). */
#include "lower_int.h"
#include "builtins.h"

static kir_ref builtin(lctx *lc, int b, const kj_type *t, kj_span sp, const kir_ref *args, uint32_t n)
{
    kir_ref r = kj_lw_emit(lc, KIR_BUILTIN, t, sp);
    kir_inst *in = kir_at(lc->f, r);
    in->aux = (uint16_t)b;
    in->args = kir_refs(lc->s->a, args, n);
    in->nargs = n;
    return r;
}

kir_ref kj_lower_list_literal(lctx *lc, const kj_expr *e)
{
    const kj_type *t = lc->sp->ei[e->id].type;
    kir_ref *el = KJ_NEWN(lc->s->a, kir_ref, e->seq.n + 1);
    for (uint32_t k = 0; k < e->seq.n; k++) el[k] = kj_lw_as(lc, e->seq.v[k], t->elem);
    return builtin(lc, KJ_B_LIST_NEW, t, e->span, el, e->seq.n);
}

kir_ref kj_lower_list_item(lctx *lc, const kj_expr *e, kir_ref v, kj_span sp)
{
    const kj_type *lt = lc->sp->ei[e->sub.obj->id].type;
    kir_ref args[3] = {kj_lw_expr(lc, e->sub.obj),
                       kj_lw_as(lc, e->sub.index, kj_t_int(lc->s->types, 64, true)), 0};
    if (!v) return builtin(lc, KJ_B_LIST_GET, lt->elem, e->span, args, 2);
    args[2] = kj_lw_cast(lc, v, lt->elem, sp);
    return builtin(lc, KJ_B_LIST_SET, NULL, sp, args, 3);
}

/* For lower_iter.c: len(lst) and lst[i] of a list value. */
kir_ref kj_lower_list_len(lctx *lc, kir_ref l, kj_span sp)
{
    return builtin(lc, KJ_B_LEN, kj_t_int(lc->s->types, 64, true), sp, &l, 1);
}

kir_ref kj_lower_list_get(lctx *lc, kir_ref l, kir_ref i, kj_span sp)
{
    kir_ref args[2] = {l, i};
    return builtin(lc, KJ_B_LIST_GET, lc->f->insts[l].type->elem, sp, args, 2);
}

kir_ref kj_lower_list_in(lctx *lc, const kj_expr *e, bool not_in, kir_ref x, kir_ref l)
{
    kj_span sp = e->span;
    kj_types *T = lc->s->types;
    const kj_type *bt = kj_t_bool(T), *i64 = kj_t_int(T, 64, true), *et = lc->f->insts[l].type->elem;
    const kj_type *ot = kj_strong(T, kj_promote(T, lc->f->insts[x].type, et));
    x = kj_lw_cast(lc, x, ot, sp);
    uint32_t found = kj_lw_temp(lc, bt), ind = kj_lw_temp(lc, i64);
    kir_ref no = kj_lw_emit(lc, KIR_CONST_INT, bt, sp);
    kj_lw_set(lc, found, no, sp);
    kir_ref zero = kj_lw_i64(lc, 0, sp), one = kj_lw_i64(lc, 1, sp), n = kj_lower_list_len(lc, l, sp);
    kir_ref f = kj_lw_emit(lc, KIR_FOR, NULL, sp);
    kir_blkid body = kir_block_new(lc->s->a, lc->f), then = kir_block_new(lc->s->a, lc->f),
              els = kir_block_new(lc->s->a, lc->f), saved = lc->cur;
    kir_inst *in = kir_at(lc->f, f);
    in->i = ind, in->a = zero, in->b = n, in->c = one, in->blk[0] = body;
    lc->cur = body;
    kir_ref v = kj_lw_cast(lc, kj_lower_list_get(lc, l, kj_lw_get(lc, ind, sp), sp), ot, sp);
    kir_ref eq = kj_lw_emit(lc, KIR_EQ, bt, sp);
    kir_at(lc->f, eq)->a = v, kir_at(lc->f, eq)->b = x;
    kir_ref iff = kj_lw_emit(lc, KIR_IF, NULL, sp);
    kir_at(lc->f, iff)->a = eq, kir_at(lc->f, iff)->blk[0] = then, kir_at(lc->f, iff)->blk[1] = els;
    lc->cur = then;
    kir_ref yes = kj_lw_emit(lc, KIR_CONST_INT, bt, sp);
    kir_at(lc->f, yes)->i = 1;
    kj_lw_set(lc, found, yes, sp);
    kj_lw_emit(lc, KIR_BREAK, NULL, sp);
    lc->cur = saved;
    kir_ref r = kj_lw_get(lc, found, sp);
    if (!not_in) return r;
    kir_ref nr = kj_lw_emit(lc, KIR_NOT, bt, sp);
    kir_at(lc->f, nr)->a = r;
    return nr;
}

kir_ref kj_lower_list_binop(lctx *lc, const kj_expr *e)
{
    const kj_type *t = lc->sp->ei[e->id].type, *i64 = kj_t_int(lc->s->types, 64, true);
    bool lfirst = lc->sp->ei[e->bin.l->id].type->kind == KJ_T_LIST;
    if (e->bin.op == KJ_OP_MUL) { /* a new list of n copies, n <= 0: empty */
        const kj_expr *le = lfirst ? e->bin.l : e->bin.r, *ne = lfirst ? e->bin.r : e->bin.l;
        kir_ref args[2] = {kj_lw_expr(lc, le), kj_lw_as(lc, ne, i64)};
        return builtin(lc, KJ_B_LIST_REPEAT, t, e->span, args, 2);
    }
    kir_ref l = kj_lw_cast(lc, kj_lw_expr(lc, e->bin.l), t, e->span);
    kir_ref r = kj_lw_cast(lc, kj_lw_expr(lc, e->bin.r), t, e->span);
    kir_ref c = builtin(lc, KJ_B_LIST_COPY, t, e->span, &l, 1);
    kir_ref ext[2] = {c, r};
    builtin(lc, KJ_B_LIST_EXTEND, NULL, e->span, ext, 2);
    return c;
}
