/* SPDX-License-Identifier: BSD-2-Clause */
/* Python's built-ins over an iterable, as CPython runs them (issue 23
 * point 8): max(a), min(a) and sum(a) of a 1-d float array, any(x) and
 * all(x) of a 1-d array or a tuple; all five over a list of numbers. CPython iterates and compares element
 * by element, which NumPy's reductions do not (a NaN first stays the max; a
 * later NaN is skipped; floats add left to right): the loop is written in
 * KIR, in the block being lowered, so that the order is Python's. */
#include "lower_pyiter.h"

#include "builtins.h"
#include "kir_build.h"

/* the truth of x (NaN is true, as bool(float('nan'))) */
static kir_ref truth(kir_builder *b, kir_ref x)
{
    const kj_type *t = b->f->insts[x].type, *bt = kj_t_bool(b->ty);
    if (t->kind == KJ_T_BOOL) return x;
    return kb_binop(b, KIR_NE, bt, x, kb_const(b, t, 0, 0.0));
}

/* x op y of two numbers, or of two strings (their STR_CMP against 0) */
static kir_ref less_more(kir_builder *b, kir_op op, kir_ref x, kir_ref y)
{
    const kj_type *bt = kj_t_bool(b->ty);
    if (b->f->insts[x].type->kind != KJ_T_STR) return kb_binop(b, op, bt, x, y);
    kir_ref c = kb_builtin(b, KJ_B_STR_CMP, kb_i64(b), (kir_ref[]){x, y}, 2);
    return kb_binop(b, op, bt, c, kb_int(b, 0));
}

/* one step of the scan: the new accumulator from acc and element x */
static kir_ref step(kir_builder *b, int builtin, const kj_type *t, kir_ref acc, kir_ref x)
{
    const kj_type *bt = kj_t_bool(b->ty);
    switch (builtin) {
    case KJ_B_MAX: return kb_select(b, less_more(b, KIR_GT, x, acc), x, acc); /* `if x > acc` */
    case KJ_B_MIN: return kb_select(b, less_more(b, KIR_LT, x, acc), x, acc);
    case KJ_B_SUM: return kb_binop(b, KIR_ADD, t, acc, kb_cast(b, x, t));
    case KJ_B_ANY: return kb_select(b, truth(b, x), kb_const(b, bt, 1, 0), acc);
    default: return kb_select(b, truth(b, x), acc, kb_const(b, bt, 0, 0)); /* all */
    }
}

static kir_ref over_tuple(kir_builder *b, int builtin, const kj_type *t, kir_ref tup, kir_ref acc)
{
    const kj_type *tt = b->f->insts[tup].type;
    for (uint32_t i = 0; i < tt->n; i++) {
        kir_ref g = kb_emit(b, KIR_TUPLE_GET, tt->elems[i]);
        kir_at(b->f, g)->a = tup;
        kir_at(b->f, g)->i = i;
        acc = acc ? step(b, builtin, t, acc, g) : g; /* min/max: the first element starts */
    }
    return acc;
}

/* it[i] of a 1-d array or a list (lower_list.c's LIST_GET: i is in range) */
static kir_ref element(kir_builder *b, kir_ref it, kir_ref i)
{
    const kj_type *t = b->f->insts[it].type;
    if (t->kind != KJ_T_LIST) return kb_load(b, it, &i, 1);
    return kb_builtin(b, KJ_B_LIST_GET, t->elem, (kir_ref[]){it, i}, 2);
}

kir_ref kj_lower_pyiter(kj_arena *a, kj_types *ty, kir_func *f, kir_blkid cur, kj_span sp, int builtin,
                        const kj_type *t, kir_ref it, kir_ref start)
{
    kir_builder b = {.a = a, .ty = ty, .f = f, .cur = cur, .sp = sp};
    bool extreme = builtin == KJ_B_MAX || builtin == KJ_B_MIN;
    kir_ref acc = builtin == KJ_B_SUM ? (start ? kb_cast(&b, start, t) : kb_const(&b, t, 0, 0.0))
                  : builtin == KJ_B_ANY ? kb_const(&b, t, 0, 0)
                  : builtin == KJ_B_ALL ? kb_const(&b, t, 1, 0)
                                        : 0;
    if (f->insts[it].type->kind == KJ_T_TUPLE) return over_tuple(&b, builtin, t, it, acc);
    bool list = f->insts[it].type->kind == KJ_T_LIST;
    kir_ref n = list ? kb_builtin(&b, KJ_B_LEN, kb_i64(&b), &it, 1) : kb_dim(&b, it, 0);
    kir_ref first = kb_int(&b, 0);
    if (extreme) { /* the first element starts the scan; none is CPython's ValueError */
        kb_check(&b, kb_binop(&b, KIR_GT, kj_t_bool(ty), n, kb_int(&b, 0)),
                 builtin == KJ_B_MAX ? "max() arg is an empty sequence" : "min() arg is an empty sequence");
        acc = element(&b, it, first);
        first = kb_int(&b, 1);
    }
    uint32_t acc_l = kb_local(&b, t), i_l = kb_local(&b, kb_i64(&b));
    kb_set(&b, acc_l, acc);
    b.cur = kb_for(&b, i_l, first, n);
    kir_ref i = kb_get(&b, i_l);
    kb_set(&b, acc_l, step(&b, builtin, t, kb_get(&b, acc_l), element(&b, it, i)));
    b.cur = cur;
    return kb_get(&b, acc_l);
}

static bool all_str(const kj_type *const *ts, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (!ts[i] || ts[i]->kind != KJ_T_STR) return false;
    return n > 0;
}

const kj_type *kj_type_minmax_str(kj_types *ty, const kj_type *x, uint32_t nargs, const kj_barg *args)
{
    if (!x) return NULL;
    if (nargs == 1 && x->kind == KJ_T_LIST && x->elem && x->elem->kind == KJ_T_STR) return x->elem;
    if (nargs == 1 && x->kind == KJ_T_TUPLE && all_str(x->elems, x->n)) return kj_t_str(ty);
    if (nargs < 2) return NULL;
    for (uint32_t i = 0; i < nargs; i++)
        if (!args[i].type || args[i].type->kind != KJ_T_STR) return NULL;
    return kj_t_str(ty);
}

kir_ref kj_lower_minmax_str(kj_arena *a, kj_types *ty, kir_func *f, kir_blkid cur, kj_span sp, int builtin,
                            const kir_ref *args, uint32_t nargs)
{
    kir_builder b = {.a = a, .ty = ty, .f = f, .cur = cur, .sp = sp};
    kir_ref acc = args[0];
    for (uint32_t i = 1; i < nargs; i++) acc = step(&b, builtin, kj_t_str(ty), acc, args[i]);
    return acc;
}
