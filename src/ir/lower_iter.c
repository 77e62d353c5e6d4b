/* SPDX-License-Identifier: BSD-2-Clause */
/* lower_iter — for loops over arrays, range values, enumerate() and zip()
 * (typed by infer_iter.c), and range objects as values.
 *
 * Every such iterable is a sequence with a length and an element at an
 * index, evaluated once before the loop (what Python's iterator holds):
 * an array (ARRAY_DIM 0; ARRAY_LOAD of a 1-d array, the view a[i] of an
 * n-d one), a tuple (its elements chosen by comparisons, as lower.c's
 * loop over a tuple), a range (start + i * step), enumerate (its
 * sequence's element with start + i), zip (its sequences' elements,
 * the shortest length) and reversed (its sequence's element n - 1 - i). The loop is one FOR over i in [0, length), so
 * break, continue and prange-free kernels work as for any range loop.
 *
 * A range value is KIR's 3-tuple (start, stop, step) of its integer type:
 * its LLVM type (llvm_types.c) is that struct already. */
#include "lower_int.h"
#include "builtins.h"

#define MAX_ZIP 8

typedef enum {
    SQ_ARRAY, SQ_TUPLE, SQ_RANGE, SQ_ENUMERATE, SQ_ZIP, SQ_LIST, SQ_STR, SQ_REVERSED, SQ_NP, SQ_GEN, SQ_GPUS
} sq_kind;

typedef struct seq {
    sq_kind kind;
    kir_ref v;           /* ARRAY, TUPLE: the value; RANGE: start */
    kir_ref stop, step;  /* RANGE; REVERSED: stop, its sequence's length */
    kir_ref start;       /* ENUMERATE: int64 */
    const kj_type *type; /* ARRAY, TUPLE: the value's type; RANGE: the integer type */
    const kj_type *elem; /* TUPLE: the elements' unified type */
    struct seq *sub;     /* ENUMERATE, REVERSED: 1, ZIP: n */
    kir_ref len;         /* beside a generator in a ZIP: its length (gen_loop) */
    uint32_t n;
} seq;

static kj_einfo *EI(lctx *lc, const kj_expr *e) { return &lc->sp->ei[e->id]; }

static kir_ref emit2(lctx *lc, kir_op op, const kj_type *t, kj_span sp, kir_ref a, kir_ref b)
{
    kir_ref r = kj_lw_emit(lc, op, t, sp);
    kir_at(lc->f, r)->a = a;
    kir_at(lc->f, r)->b = b;
    return r;
}

static kir_ref select3(lctx *lc, const kj_type *t, kj_span sp, kir_ref c, kir_ref a, kir_ref b)
{
    kir_ref r = emit2(lc, KIR_SELECT, t, sp, c, a);
    kir_at(lc->f, r)->c = b;
    return r;
}

static kir_ref tuple_get(lctx *lc, kir_ref v, const kj_type *et, uint32_t k, kj_span sp)
{
    kir_ref g = kj_lw_emit(lc, KIR_TUPLE_GET, et, sp);
    kir_at(lc->f, g)->a = v;
    kir_at(lc->f, g)->i = k;
    return g;
}

static kir_ref make_tuple(lctx *lc, const kj_type *t, const kir_ref *el, uint32_t n, kj_span sp)
{
    kir_ref r = kj_lw_emit(lc, KIR_TUPLE, t, sp);
    kir_at(lc->f, r)->args = kir_refs(lc->s->a, el, n);
    kir_at(lc->f, r)->nargs = n;
    return r;
}

static const kj_type *i64t(lctx *lc) { return kj_t_int(lc->s->types, 64, true); }
static const kj_type *boolt(lctx *lc) { return kj_t_bool(lc->s->types); }

/* enumerate or zip, when `e` is a call of one of them (as infer_iter.c
 * found it); else -1. */
static int iter_call(lctx *lc, const kj_expr *e)
{
    if (e->kind != KJ_E_CALL) return -1;
    kj_einfo *f = EI(lc, e->call.fn);
    if (f->kind != EI_BUILTIN || (f->builtin != KJ_B_ENUMERATE && f->builtin != KJ_B_ZIP && f->builtin != KJ_B_REVERSED))
        return -1;
    return f->builtin;
}

static void open_seq(lctx *lc, const kj_expr *e, seq *q);
static kir_ref seq_len(lctx *lc, const seq *q, kj_span sp);

static void open_call(lctx *lc, const kj_expr *e, int b, seq *q)
{
    kj_span sp = e->span;
    if (b == KJ_B_ZIP) {
        q->kind = SQ_ZIP;
        q->n = e->call.nargs;
        q->sub = KJ_NEWN(lc->s->a, seq, q->n);
        for (uint32_t k = 0; k < q->n; k++) open_seq(lc, e->call.args[k], &q->sub[k]);
        return;
    }
    q->kind = b == KJ_B_REVERSED ? SQ_REVERSED : SQ_ENUMERATE;
    q->n = 1;
    q->sub = KJ_NEWN(lc->s->a, seq, 1);
    open_seq(lc, e->call.args[0], q->sub);
    if (q->kind == SQ_REVERSED) { /* element i is the sequence's length - 1 - i */
        q->stop = seq_len(lc, q->sub, sp);
        return;
    }
    const kj_expr *start = e->call.nargs == 2 ? e->call.args[1] : e->call.nkw ? e->call.kw[0].value : NULL;
    q->start = start ? kj_lw_as(lc, start, i64t(lc)) : kj_lw_i64(lc, 0, sp);
}

static bool is_gpus(const kj_type *t) { return t && t->kind == KJ_T_OPAQUE && !strcmp(t->name, "gpus"); }

/* Evaluate the iterable `e` once into q. */
static void open_seq(lctx *lc, const kj_expr *e, seq *q)
{
    memset(q, 0, sizeof *q);
    int b = iter_call(lc, e);
    if (b >= 0) {
        open_call(lc, e, b, q);
        return;
    }
    const kj_type *t = kj_strong(lc->s->types, EI(lc, e)->type);
    kir_ref v = kj_lw_as(lc, e, t);
    q->type = t;
    if (t->kind == KJ_T_ARRAY) {
        q->kind = SQ_ARRAY, q->v = v;
    } else if (t->kind == KJ_T_LIST) {
        q->kind = SQ_LIST, q->v = v;
    } else if (t->kind == KJ_T_DICT || t->kind == KJ_T_SET) { /* its keys, in insertion order: lower_dict.c */
        q->kind = SQ_LIST, q->v = kj_lower_dict_keys(lc, v, e->span);
        q->type = lc->f->insts[q->v].type;
    } else if (t->kind == KJ_T_STR) { /* its characters: lower_str.c */
        q->kind = SQ_STR, q->v = v;
    } else if (t->kind == KJ_T_RANGE) {
        q->kind = SQ_RANGE, q->type = t->elem;
        q->v = tuple_get(lc, v, t->elem, 0, e->span);
        q->stop = tuple_get(lc, v, t->elem, 1, e->span);
        q->step = tuple_get(lc, v, t->elem, 2, e->span);
    } else if (kj_npshape_wrapper(t)) { /* a.flat, np.ndindex, ...: lower_npshape.c */
        q->kind = SQ_NP, q->v = v;
    } else if (t->kind == KJ_T_GENERATOR) { /* no length: gen_loop */
        q->kind = SQ_GEN, q->v = v;
    } else if (is_gpus(t)) { /* cuda.gpus: device i for i in range(len(cuda.gpus)) (lower_with.c) */
        q->kind = SQ_GPUS, q->v = v;
    } else { /* a tuple: its elements' one type (infer_iter.c) */
        q->kind = SQ_TUPLE, q->v = v;
        q->elem = t->elems[0];
        for (uint32_t k = 1; k < t->n; k++) q->elem = kj_unify(lc->s->types, q->elem, t->elems[k]);
    }
}

/* Python's len(range(start, stop, step)): max(0, ceil((stop - start) / step)),
 * as int64; a zero step is ZeroDivisionError here (ValueError in Python,
 * where range() itself refuses it). */
kir_ref kj_lower_range_len(lctx *lc, const kj_type *it, kir_ref start, kir_ref stop, kir_ref step, kj_span sp)
{
    const kj_type *I = i64t(lc);
    start = kj_lw_cast(lc, start, I, sp), stop = kj_lw_cast(lc, stop, I, sp), step = kj_lw_cast(lc, step, I, sp);
    (void)it;
    kir_ref zero = kj_lw_i64(lc, 0, sp);
    kir_ref up = emit2(lc, KIR_GT, boolt(lc), sp, step, zero);
    kir_ref sgn = select3(lc, I, sp, up, kj_lw_i64(lc, 1, sp), kj_lw_i64(lc, -1, sp));
    kir_ref d = emit2(lc, KIR_SUB, I, sp, stop, start);
    d = emit2(lc, KIR_SUB, I, sp, emit2(lc, KIR_ADD, I, sp, d, step), sgn);
    kir_ref n = emit2(lc, KIR_FLOORDIV, I, sp, d, step);
    kir_ref neg = emit2(lc, KIR_LT, boolt(lc), sp, n, zero);
    return select3(lc, I, sp, neg, zero, n);
}

static kir_ref seq_len(lctx *lc, const seq *q, kj_span sp)
{
    switch (q->kind) {
    case SQ_ARRAY: {
        kir_ref r = kj_lw_emit(lc, KIR_ARRAY_DIM, i64t(lc), sp);
        kir_at(lc->f, r)->a = q->v;
        return r;
    }
    case SQ_TUPLE: return kj_lw_i64(lc, (int64_t)q->type->n, sp);
    case SQ_LIST: return kj_lower_list_len(lc, q->v, sp);
    case SQ_STR: return kj_lower_str_len(lc, q->v, sp);
    case SQ_RANGE: return kj_lower_range_len(lc, q->type, q->v, q->stop, q->step, sp);
    case SQ_ENUMERATE: return seq_len(lc, q->sub, sp);
    case SQ_REVERSED: return q->stop;
    case SQ_NP: return kj_lower_npiter_len(lc, q->type, q->v, sp);
    case SQ_GEN: return 0; /* never asked (gen_loop) */
    case SQ_GPUS: {
        kir_ref r = kj_lw_emit_args(lc, KIR_BUILTIN, i64t(lc), sp, &q->v, 1);
        kir_at(lc->f, r)->aux = KJ_B_LEN;
        return r;
    }
    case SQ_ZIP: {
        kir_ref n = seq_len(lc, &q->sub[0], sp);
        for (uint32_t k = 1; k < q->n; k++) {
            kir_ref m = seq_len(lc, &q->sub[k], sp);
            n = select3(lc, i64t(lc), sp, emit2(lc, KIR_LT, boolt(lc), sp, m, n), m, n);
        }
        return n;
    }
    }
    return 0;
}

/* IF c {} else { BREAK }: leave the loop around (gen_loop) when c is false. */
static void break_unless(lctx *lc, kir_ref c, kj_span sp)
{
    kir_ref br = kj_lw_emit(lc, KIR_IF, NULL, sp);
    kir_blkid then = kir_block_new(lc->s->a, lc->f), els = kir_block_new(lc->s->a, lc->f), saved = lc->cur;
    kir_inst *in = kir_at(lc->f, br);
    in->a = c, in->blk[0] = then, in->blk[1] = els;
    lc->cur = els;
    kj_lw_emit(lc, KIR_BREAK, NULL, sp);
    lc->cur = saved;
}

/* Element i (int64, 0 <= i < length) of q. */
static kir_ref seq_get(lctx *lc, const seq *q, kir_ref i, kj_span sp)
{
    switch (q->kind) {
    case SQ_ARRAY: {
        const kj_type *et = kj_iter_array_elem(lc->s->types, q->type);
        kir_op op = q->type->ndim == 1 ? KIR_ARRAY_LOAD : KIR_ARRAY_VIEW;
        kir_ref r = kj_lw_emit(lc, op, et, sp);
        kir_at(lc->f, r)->a = q->v;
        kir_at(lc->f, r)->args = kir_refs(lc->s->a, &i, 1);
        kir_at(lc->f, r)->nargs = 1;
        return r;
    }
    case SQ_TUPLE: {
        kir_ref v = 0;
        for (uint32_t k = q->type->n; k-- > 0;) {
            kir_ref g = kj_lw_cast(lc, tuple_get(lc, q->v, q->type->elems[k], k, sp), q->elem, sp);
            if (!v) {
                v = g;
                continue;
            }
            kir_ref eq = emit2(lc, KIR_EQ, boolt(lc), sp, i, kj_lw_i64(lc, (int64_t)k, sp));
            v = select3(lc, q->elem, sp, eq, g, v);
        }
        return v;
    }
    case SQ_LIST: return kj_lower_list_get(lc, q->v, i, sp);
    case SQ_NP: return kj_lower_npiter_get(lc, q->type, q->v, i, sp);
    case SQ_GPUS: return kj_lower_gpus_at(lc, i, sp);
    case SQ_STR: return kj_lower_str_get(lc, q->v, i, sp);
    case SQ_RANGE: {
        kir_ref ii = kj_lw_cast(lc, i, q->type, sp);
        return emit2(lc, KIR_ADD, q->type, sp, q->v, emit2(lc, KIR_MUL, q->type, sp, ii, q->step));
    }
    case SQ_ENUMERATE: {
        kir_ref el[2] = {emit2(lc, KIR_ADD, i64t(lc), sp, q->start, i), seq_get(lc, q->sub, i, sp)};
        const kj_type *ts[2] = {i64t(lc), lc->f->insts[el[1]].type};
        return make_tuple(lc, kj_t_tuple(lc->s->types, ts, 2), el, 2, sp);
    }
    case SQ_GEN: { /* its next value, or the end of the loop (lower_pygen.c's protocol) */
        kir_ref ok = kj_lw_emit(lc, KIR_GEN_NEXT, boolt(lc), sp);
        kir_at(lc->f, ok)->a = q->v;
        break_unless(lc, ok, sp);
        kir_ref v = kj_lw_emit(lc, KIR_GEN_VALUE, q->type->elem, sp);
        kir_at(lc->f, v)->a = q->v;
        return v;
    }
    case SQ_REVERSED: {
        kir_ref last = emit2(lc, KIR_SUB, i64t(lc), sp, q->stop, kj_lw_i64(lc, 1, sp));
        return seq_get(lc, q->sub, emit2(lc, KIR_SUB, i64t(lc), sp, last, i), sp);
    }
    case SQ_ZIP: {
        kir_ref el[MAX_ZIP];
        const kj_type *ts[MAX_ZIP];
        for (uint32_t k = 0; k < q->n; k++) { /* in order: a generator before it has given its value */
            if (q->sub[k].len) break_unless(lc, emit2(lc, KIR_LT, boolt(lc), sp, i, q->sub[k].len), sp);
            el[k] = seq_get(lc, &q->sub[k], i, sp);
            ts[k] = lc->f->insts[el[k]].type;
        }
        return make_tuple(lc, kj_t_tuple(lc->s->types, ts, q->n), el, q->n, sp);
    }
    }
    return 0;
}

/* Is `it` an iterable of this file (infer_iter.c's kj_infer_for_iter)? */
static bool mine(lctx *lc, const kj_expr *it)
{
    if (iter_call(lc, it) >= 0) return true;
    const kj_type *t = EI(lc, it)->type;
    return t && (t->kind == KJ_T_ARRAY || t->kind == KJ_T_LIST || t->kind == KJ_T_DICT || t->kind == KJ_T_SET || t->kind == KJ_T_STR || (t->kind == KJ_T_RANGE && it->kind != KJ_E_CALL) || kj_npshape_wrapper(t) || is_gpus(t));
}

static bool has_gen(const seq *q)
{
    for (uint32_t k = 0; (q->kind == SQ_ZIP || q->kind == SQ_ENUMERATE) && k < q->n; k++)
        if (has_gen(&q->sub[k])) return true;
    return q->kind == SQ_GEN;
}

/* enumerate(g), zip(g, a, ...) with a generator g (Numba's pysupported.rst,
 * "Generators"): no length to count to, so a LOOP that takes the next value
 * of each in order, leaving when a generator is exhausted or a sequence
 * beside it (its length taken before the loop) is at its end:
 *     k = 0; loop { i = k; k = i + 1; x = (start + i, GEN_NEXT/VALUE(g)); body } */
static void gen_loop(lctx *lc, const kj_stmt *st, seq *q)
{
    kj_span sp = st->span;
    for (uint32_t k = 0; q->kind == SQ_ZIP && k < q->n; k++)
        if (!has_gen(&q->sub[k])) q->sub[k].len = seq_len(lc, &q->sub[k], sp);
    uint32_t ind = kj_lw_temp(lc, i64t(lc));
    kj_lw_set(lc, ind, kj_lw_i64(lc, 0, sp), sp);
    kir_ref loop = kj_lw_emit(lc, KIR_LOOP, NULL, sp);
    kir_blkid body = kir_block_new(lc->s->a, lc->f), saved = lc->cur;
    kir_at(lc->f, loop)->blk[0] = body;
    lc->cur = body;
    kir_ref i = kj_lw_get(lc, ind, sp);
    kj_lw_set(lc, ind, emit2(lc, KIR_ADD, i64t(lc), sp, i, kj_lw_i64(lc, 1, sp)), sp);
    kj_lw_store(lc, st->for_.target, seq_get(lc, q, i, st->for_.iter->span), sp);
    kj_lw_block(lc, &st->for_.body);
    lc->cur = saved;
}

bool kj_lower_for_iter(lctx *lc, const kj_stmt *st)
{
    const kj_expr *it = st->for_.iter;
    if (!mine(lc, it)) return false;
    kj_span sp = st->span;
    seq q;
    open_seq(lc, it, &q);
    if (has_gen(&q)) {
        gen_loop(lc, st, &q);
        return true;
    }
    kir_ref stop = seq_len(lc, &q, it->span);
    uint32_t ind = kj_lw_temp(lc, i64t(lc));
    kir_ref zero = kj_lw_i64(lc, 0, sp), one = kj_lw_i64(lc, 1, sp);
    kir_ref f = kj_lw_emit(lc, KIR_FOR, NULL, sp);
    kir_blkid body = kir_block_new(lc->s->a, lc->f), saved = lc->cur;
    kir_inst *in = kir_at(lc->f, f);
    in->i = ind, in->a = zero, in->b = stop, in->c = one, in->blk[0] = body;
    lc->cur = body;
    kj_lw_store(lc, st->for_.target, seq_get(lc, &q, kj_lw_get(lc, ind, sp), it->span), sp);
    kj_lw_block(lc, &st->for_.body);
    lc->cur = saved;
    return true;
}

/* range(...) as a value: (start, stop, step) of its type t; len() of one. */
kir_ref kj_lower_range_builtin(lctx *lc, int b, const kj_type *t, const kir_ref *args, uint32_t n, kj_span sp)
{
    if (b == KJ_B_LEN) {
        const kj_type *rt = lc->f->insts[args[0]].type, *e = rt->elem;
        return kj_lower_range_len(lc, e, tuple_get(lc, args[0], e, 0, sp), tuple_get(lc, args[0], e, 1, sp),
                                  tuple_get(lc, args[0], e, 2, sp), sp);
    }
    const kj_type *e = t->elem;
    kir_ref el[3];
    el[0] = n >= 2 ? kj_lw_cast(lc, args[0], e, sp) : kj_lw_cast(lc, kj_lw_i64(lc, 0, sp), e, sp);
    el[1] = kj_lw_cast(lc, args[n >= 2 ? 1 : 0], e, sp);
    el[2] = n == 3 ? kj_lw_cast(lc, args[2], e, sp) : kj_lw_cast(lc, kj_lw_i64(lc, 1, sp), e, sp);
    kir_ref r = kj_lw_emit(lc, KIR_TUPLE, t, sp);
    kir_at(lc->f, r)->args = kir_refs(lc->s->a, el, 3);
    kir_at(lc->f, r)->nargs = 3;
    return r;
}
