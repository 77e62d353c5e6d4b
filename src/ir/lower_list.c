/* SPDX-License-Identifier: BSD-2-Clause */
/* lower_list — reflected lists to KIR (infer_list.c typed them). A list is
 * a run-time object that KIR handles through BUILTIN instructions, which
 * llvm_list.c lowers: LIST_NEW (the elements, converted to the list's
 * element type), LIST_GET/LIST_SET (an int64 index, wrapped and checked
 * there with Python's "list index out of range"), LIST_APPEND, LIST_POP
 * and LEN (lowered as any method call by lower.c). */
#include "lower_int.h"
#include "builtins.h"
#include "kir_build.h"

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

/* A slice's bounds as LIST_SLICE/SETSLICE/DEL take them: start, stop,
 * step (1 when absent) and `has` (bit 1 start given, bit 2 stop given;
 * None is absent, as Python's slice.indices() takes it). */
static kir_ref part(lctx *lc, const kj_expr *p, int64_t dflt, int32_t bit, int32_t *has, kj_span sp)
{
    if (!p || lc->sp->ei[p->id].type->kind == KJ_T_NONE) return kj_lw_i64(lc, dflt, sp);
    *has |= bit;
    return kj_lw_as(lc, p, kj_t_int(lc->s->types, 64, true));
}

static void slice_args(lctx *lc, const kj_expr *ix, kir_ref *out)
{
    int32_t has = 0;
    out[0] = part(lc, ix->slice.lo, 0, 1, &has, ix->span);
    out[1] = part(lc, ix->slice.hi, 0, 2, &has, ix->span);
    out[2] = part(lc, ix->slice.step, 1, 4, &has, ix->span);
    out[3] = kj_lw_i64(lc, has & 3, ix->span);
}

/* del lst[i], del lst[a:b:c] (the parser's lst.<del>(index)) */
kir_ref kj_lower_list_del(lctx *lc, const kj_expr *e)
{
    const kj_expr *ix = e->call.args[0];
    if (lc->sp->ei[e->call.fn->attr.obj->id].type->kind == KJ_T_DICT) return kj_lower_dict_del(lc, e); /* pyops_dict.c */
    kir_ref a[5] = {kj_lw_expr(lc, e->call.fn->attr.obj), 0, 0, 0, 0};
    if (ix->kind == KJ_E_SLICE) {
        slice_args(lc, ix, a + 1);
        return builtin(lc, KJ_B_LIST_DEL, NULL, e->span, a, 5);
    }
    a[1] = kj_lw_as(lc, ix, kj_t_int(lc->s->types, 64, true));
    return builtin(lc, KJ_B_LIST_DEL, NULL, e->span, a, 2);
}

/* A list built from values already lowered (a constant list: a lazy
 * ufunc's .types, infer_ufunc_dyn.c). */
kir_ref kj_lower_list_of(lctx *lc, const kj_type *t, const kir_ref *el, uint32_t n, kj_span sp)
{
    return builtin(lc, KJ_B_LIST_NEW, t, sp, el, n);
}

kir_ref kj_lower_list_item(lctx *lc, const kj_expr *e, kir_ref v, kj_span sp)
{
    const kj_type *lt = lc->sp->ei[e->sub.obj->id].type;
    if (e->sub.index->kind == KJ_E_SLICE) { /* lst[a:b:c], lst[a:b:c] = other */
        kir_ref a[6] = {kj_lw_expr(lc, e->sub.obj), 0, 0, 0, 0, v};
        slice_args(lc, e->sub.index, a + 1);
        if (!v) return builtin(lc, KJ_B_LIST_SLICE, lt, e->span, a, 5);
        return builtin(lc, KJ_B_LIST_SETSLICE, NULL, sp, a, 6);
    }
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

/* lst += other (a list of elements lst's converts to): CPython extends lst
 * in place (every name bound to it sees the new items), as lst.extend(other).
 * False when st is no such statement. */
bool kj_lower_list_iadd(lctx *lc, const kj_stmt *st)
{
    const kj_type *t = lc->sp->ei[st->aug.target->id].type;
    if (st->aug.op != KJ_OP_ADD || !t || t->kind != KJ_T_LIST) return false;
    t = kj_strong(lc->s->types, t);
    kir_ref ext[2] = {kj_lw_expr(lc, st->aug.target), 0};
    ext[1] = kj_lw_cast(lc, kj_lw_expr(lc, st->aug.value), t, st->span);
    builtin(lc, KJ_B_LIST_EXTEND, NULL, st->span, ext, 2);
    return true;
}

/* Python's index clamping of a start or stop argument v for a list of n:
 * negative from the end, then start below 0 is 0, stop above n is n */
static kir_ref clamp(kir_builder *b, kir_ref v, kir_ref n, bool stop)
{
    const kj_type *bt = kj_t_bool(b->ty), *i64 = kb_i64(b);
    kir_ref zero = kb_int(b, 0);
    v = kb_select(b, kb_binop(b, KIR_LT, bt, v, zero), kb_binop(b, KIR_ADD, i64, v, n), v);
    if (stop) return kb_select(b, kb_binop(b, KIR_GT, bt, v, n), n, v);
    return kb_select(b, kb_binop(b, KIR_LT, bt, v, zero), zero, v);
}

/* lst.count(x), lst.index(x, start, stop), lst.remove(x) as Numba's
 * listobj.py writes them: a scan comparing each element with x in their
 * common type, as `x in lst`; index and remove take the first match, none
 * is Numba's ValueError ("value not in list", "list.remove(x): x not in
 * list"); remove pops it. */
kir_ref kj_lower_list_search(lctx *lc, int builtin, const kir_ref *args, kj_span sp)
{
    kir_builder b = {.a = lc->s->a, .ty = lc->s->types, .f = lc->f, .cur = lc->cur, .sp = sp};
    const kj_type *bt = kj_t_bool(b.ty), *i64 = kb_i64(&b), *et = lc->f->insts[args[0]].type->elem;
    const kj_type *ot = kj_strong(b.ty, kj_promote(b.ty, lc->f->insts[args[1]].type, et));
    kir_ref l = args[0], x = kb_cast(&b, args[1], ot), n = kb_builtin(&b, KJ_B_LEN, i64, &l, 1);
    bool count = builtin == KJ_B_LIST_COUNT, index = builtin == KJ_B_LIST_INDEX;
    kir_ref lo = index && args[2] ? clamp(&b, args[2], n, false) : kb_int(&b, 0);
    kir_ref hi = index && args[3] ? clamp(&b, args[3], n, true) : n;
    uint32_t acc_l = kb_local(&b, i64), i_l = kb_local(&b, i64);
    kb_set(&b, acc_l, kb_int(&b, count ? 0 : -1));
    kir_blkid cur = b.cur;
    b.cur = kb_for(&b, i_l, lo, hi);
    kir_ref i = kb_get(&b, i_l), acc = kb_get(&b, acc_l);
    kir_ref el = kb_cast(&b, kb_builtin(&b, KJ_B_LIST_GET, et, (kir_ref[]){l, i}, 2), ot);
    kir_ref eq = kb_binop(&b, KIR_EQ, bt, el, x);
    if (count) kb_set(&b, acc_l, kb_binop(&b, KIR_ADD, i64, acc, kb_cast(&b, eq, i64)));
    else kb_set(&b, acc_l, kb_select(&b, eq, kb_select(&b, kb_binop(&b, KIR_LT, bt, acc, kb_int(&b, 0)), i, acc), acc));
    b.cur = cur;
    kir_ref r = kb_get(&b, acc_l);
    if (!count)
        kb_check(&b, kb_binop(&b, KIR_GE, bt, r, kb_int(&b, 0)),
                 index ? "value not in list" : "list.remove(x): x not in list");
    if (builtin == KJ_B_LIST_REMOVE) {
        kb_builtin(&b, KJ_B_LIST_POP, et, (kir_ref[]){l, r}, 2);
        r = kb_emit(&b, KIR_CONST_NONE, kj_t_none(b.ty));
    }
    lc->cur = b.cur;
    return r;
}

/* A new list t of x's elements: a list's copy, a tuple's elements, a 1-d
 * array's, a range's values, a string's characters, a set's or dict's
 * keys, in order (list(x), sorted(x); builtins.c typed them). */
static kir_ref new_list_of(lctx *lc, kir_builder *b, const kj_type *t, kir_ref x)
{
    const kj_type *xt = lc->f->insts[x].type, *i64 = kb_i64(b), *none = kj_t_none(b->ty);
    if (xt->kind == KJ_T_LIST) return kb_builtin(b, KJ_B_LIST_COPY, t, &x, 1);
    if (xt->kind == KJ_T_SET || xt->kind == KJ_T_DICT) { /* a new list of the keys: lower_dict.c */
        lc->cur = b->cur;
        kir_ref k = kj_lower_dict_keys(lc, x, b->sp);
        b->cur = lc->cur;
        return k;
    }
    if (xt->kind == KJ_T_TUPLE) {
        kir_ref *el = KJ_NEWN(lc->s->a, kir_ref, xt->n + 1);
        for (uint32_t k = 0; k < xt->n; k++) {
            kir_ref g = kb_emit(b, KIR_TUPLE_GET, xt->elems[k]);
            kir_at(lc->f, g)->a = x;
            kir_at(lc->f, g)->i = k;
            el[k] = kb_cast(b, g, t->elem);
        }
        return kb_builtin(b, KJ_B_LIST_NEW, t, el, xt->n);
    }
    kir_ref l = kb_builtin(b, KJ_B_LIST_NEW, t, NULL, 0), part[3] = {0, 0, 0}, n;
    if (xt->kind == KJ_T_RANGE) {
        for (uint32_t k = 0; k < 3; k++) {
            part[k] = kb_emit(b, KIR_TUPLE_GET, xt->elem);
            kir_at(lc->f, part[k])->a = x;
            kir_at(lc->f, part[k])->i = k;
            part[k] = kb_cast(b, part[k], i64);
        }
        lc->cur = b->cur;
        n = kj_lower_range_len(lc, xt->elem, part[0], part[1], part[2], b->sp);
    } else if (xt->kind == KJ_T_STR) {
        lc->cur = b->cur;
        n = kj_lower_str_len(lc, x, b->sp);
    } else {
        n = kb_dim(b, x, 0);
    }
    if (xt->kind != KJ_T_ARRAY) b->cur = lc->cur; /* where the lctx emitters left off */
    uint32_t i_l = kb_local(b, i64);
    kir_blkid cur = b->cur;
    b->cur = kb_for(b, i_l, kb_int(b, 0), n);
    kir_ref i = kb_get(b, i_l), v;
    if (xt->kind == KJ_T_RANGE) {
        v = kb_binop(b, KIR_ADD, i64, part[0], kb_binop(b, KIR_MUL, i64, i, part[2]));
    } else if (xt->kind == KJ_T_STR) {
        lc->cur = b->cur;
        v = kj_lower_str_get(lc, x, i, b->sp);
        b->cur = lc->cur;
    } else {
        v = kb_load(b, x, &i, 1);
    }
    kb_builtin(b, KJ_B_LIST_APPEND, none, (kir_ref[]){l, kb_cast(b, v, t->elem)}, 2);
    b->cur = cur;
    return l;
}

/* list(x) (a new list; list() an empty one) and sorted(x, reverse=): the
 * new list, then LIST_SORT on it (llvm_list.c, list_sort.c). */
kir_ref kj_lower_sorted(lctx *lc, int builtin, const kj_type *t, const kir_ref *args, uint32_t nargs, kj_span sp)
{
    kir_builder b = {.a = lc->s->a, .ty = lc->s->types, .f = lc->f, .cur = lc->cur, .sp = sp};
    kir_ref l = nargs && args[0] ? new_list_of(lc, &b, t, args[0]) : kb_builtin(&b, KJ_B_LIST_NEW, t, NULL, 0);
    if (builtin == KJ_B_SORTED) {
        kir_ref rev = nargs > 2 && args[2] ? args[2] : 0;
        kb_builtin(&b, KJ_B_LIST_SORT, kj_t_none(b.ty), (kir_ref[]){l, 0, rev}, 3);
    }
    lc->cur = b.cur;
    return l;
}

/* lst1 op lst2 (infer_list.c typed it): LIST_CMP(l, r, op), op as kj_cmpop's
 * first six (== != < <= > >=), for llvm_list.c and list_sort.c. */
kir_ref kj_lower_list_compare(lctx *lc, kj_cmpop op, kir_ref l, kir_ref r, kj_span sp)
{
    if (kj_list_mixed_numbers(lc->f->insts[l].type->elem, lc->f->insts[r].type->elem))
        kj_lower_list_promote(lc, &l, &r, sp); /* [1] == [1.0]: pyops_dict.c */
    kir_ref a[3] = {l, r, kj_lw_i64(lc, (int64_t)op, sp)};
    return builtin(lc, KJ_B_LIST_CMP, kj_t_bool(lc->s->types), sp, a, 3);
}
