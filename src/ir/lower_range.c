/* SPDX-License-Identifier: BSD-2-Clause */
/* Lowering of range objects held as values (infer_range.c): a range value
 * is the 3-tuple (start, stop, step) of lower_iter.c; its attributes are
 * the parts, r[i] and `x in r` arithmetic on them as CPython's
 * range_item / range_contains compute, print(r) the str CPython prints
 * ("range(2, 10, 3)", "range(0, 5)" when the step is 1). */
#include "lower_int.h"
#include "kir_build.h"

#include <string.h>

static kir_builder builder(lctx *lc, kj_span sp)
{
    return (kir_builder){.a = lc->s->a, .ty = lc->s->types, .f = lc->f, .cur = lc->cur, .sp = sp};
}

/* part k (0 start, 1 stop, 2 step) of range r, as int64 */
static kir_ref part(kir_builder *b, kir_ref r, uint32_t k)
{
    const kj_type *rt = b->f->insts[r].type;
    kir_ref g = kb_emit(b, KIR_TUPLE_GET, rt->elem);
    kir_at(b->f, g)->a = r;
    kir_at(b->f, g)->i = k;
    return kb_cast(b, g, kb_i64(b));
}

kir_ref kj_lower_range_attr(lctx *lc, const kj_expr *e)
{
    kir_ref r = kj_lw_expr(lc, e->attr.obj);
    kir_builder b = builder(lc, e->span);
    const char *n = e->attr.name;
    kir_ref v = part(&b, r, !strcmp(n, "start") ? 0 : !strcmp(n, "stop") ? 1 : 2);
    v = kb_cast(&b, v, lc->f->insts[r].type->elem);
    lc->cur = b.cur;
    return v;
}

kir_ref kj_lower_range_item(lctx *lc, const kj_expr *e)
{
    kir_ref r = kj_lw_expr(lc, e->sub.obj);
    kir_ref i = kj_lw_as(lc, e->sub.index, kj_t_int(lc->s->types, 64, true));
    kir_builder b = builder(lc, e->span);
    const kj_type *bt = kj_t_bool(b.ty), *I = kb_i64(&b);
    kir_ref start = part(&b, r, 0), step = part(&b, r, 2);
    kir_ref n = kj_lower_range_len(lc, lc->f->insts[r].type->elem, start, part(&b, r, 1), step, e->span);
    b.cur = lc->cur;
    kir_ref neg = kb_binop(&b, KIR_LT, bt, i, kb_int(&b, 0));
    i = kb_select(&b, neg, kb_binop(&b, KIR_ADD, I, i, n), i);
    kir_ref ok = kb_binop(&b, KIR_AND, bt, kb_binop(&b, KIR_GE, bt, i, kb_int(&b, 0)), kb_binop(&b, KIR_LT, bt, i, n));
    kir_ref as = kb_emit(&b, KIR_ASSERT, kj_t_none(b.ty));
    kir_at(lc->f, as)->a = ok;
    kir_at(lc->f, as)->s = "range object index out of range";
    kir_at(lc->f, as)->aux = (uint16_t)(KIR_ASSERT_RAISE + kj_exc_class("IndexError"));
    kir_ref v = kb_binop(&b, KIR_ADD, I, start, kb_binop(&b, KIR_MUL, I, i, step));
    v = kb_cast(&b, v, lc->f->insts[r].type->elem);
    lc->cur = b.cur;
    return v;
}

/* x in r: x between start and stop on the step's side, and a whole number
 * of steps from start (the step is never 0: range() refuses it) */
kir_ref kj_lower_range_in(lctx *lc, kj_span sp, bool negate, kir_ref x, kir_ref r)
{
    kir_builder b = builder(lc, sp);
    const kj_type *bt = kj_t_bool(b.ty), *I = kb_i64(&b);
    x = kb_cast(&b, x, I);
    kir_ref start = part(&b, r, 0), stop = part(&b, r, 1), step = part(&b, r, 2);
    kir_ref up = kb_binop(&b, KIR_AND, bt, kb_binop(&b, KIR_LE, bt, start, x), kb_binop(&b, KIR_LT, bt, x, stop));
    kir_ref down = kb_binop(&b, KIR_AND, bt, kb_binop(&b, KIR_LT, bt, stop, x), kb_binop(&b, KIR_LE, bt, x, start));
    kir_ref within = kb_select(&b, kb_binop(&b, KIR_GT, bt, step, kb_int(&b, 0)), up, down);
    kir_ref rem = kb_binop(&b, KIR_MOD, I, kb_binop(&b, KIR_SUB, I, x, start), step);
    kir_ref in = kb_binop(&b, KIR_AND, bt, within, kb_binop(&b, KIR_EQ, bt, rem, kb_int(&b, 0)));
    if (negate) in = kb_binop(&b, KIR_EQ, bt, in, kb_const(&b, bt, 0, 0));
    lc->cur = b.cur;
    return in;
}

static kir_ref cstr(kir_builder *b, const char *s)
{
    kir_ref r = kb_emit(b, KIR_CONST_STR, kj_t_str(b->ty));
    kir_at(b->f, r)->s = s;
    return r;
}

static kir_ref cat(kir_builder *b, kir_ref x, kir_ref y)
{
    return kb_builtin(b, KJ_B_STR_CAT, kj_t_str(b->ty), (kir_ref[]){x, y}, 2);
}

/* str(r) as CPython: "range(start, stop)" or "range(start, stop, step)" */
static kir_ref range_str(kir_builder *b, kir_ref r)
{
    const kj_type *st = kj_t_str(b->ty), *bt = kj_t_bool(b->ty);
    kir_ref step = part(b, r, 2);
    kir_ref s = cat(b, cstr(b, "range("), kb_builtin(b, KJ_B_STR, st, (kir_ref[]){part(b, r, 0)}, 1));
    s = cat(b, cat(b, s, cstr(b, ", ")), kb_builtin(b, KJ_B_STR, st, (kir_ref[]){part(b, r, 1)}, 1));
    kir_ref tail = cat(b, cstr(b, ", "), kb_builtin(b, KJ_B_STR, st, &step, 1));
    tail = kb_select(b, kb_binop(b, KIR_EQ, bt, step, kb_int(b, 1)), cstr(b, ""), tail);
    return cat(b, cat(b, s, tail), cstr(b, ")"));
}

void kj_lower_range_print_args(lctx *lc, kir_ref *args, uint32_t n, kj_span sp)
{
    kir_builder b = builder(lc, sp);
    for (uint32_t i = 0; i < n; i++)
        if (args[i] && lc->f->insts[args[i]].type->kind == KJ_T_RANGE) args[i] = range_str(&b, args[i]);
    lc->cur = b.cur;
}
