/* SPDX-License-Identifier: BSD-2-Clause */
/* lower_launch — kernel launches to KIR: kernel[grid, block, stream,
 * shared](args) and kernel.forall(n)(args) as KIR_LAUNCH (its first eight
 * operands the configuration: grid x/y/z, block x/y/z, stream, dynamic
 * shared bytes), and cuda.reduce functions called from host code as a
 * loop. */
#include "lower_int.h"
#include "kir_build.h"

static kj_einfo *EI(lctx *lc, const kj_expr *e) { return &lc->sp->ei[e->id]; }
static const kj_type *strong(lctx *lc, const kj_type *t) { return kj_strong(lc->s->types, t); }
static const kj_type *type_of(lctx *lc, kir_ref r) { return lc->f->insts[r].type; }

/* blocks/threads as three int64 values (missing dimensions are 1). */
static void launch_dims(lctx *lc, const kj_expr *d, kir_ref out[3])
{
    const kj_type *i64t = kj_t_int(lc->s->types, 64, true);
    const kj_type *t = EI(lc, d)->type;
    if (t->kind == KJ_T_INT) {
        out[0] = kj_lw_as(lc, d, i64t);
        out[1] = out[2] = kj_lw_i64(lc, 1, d->span);
        return;
    }
    if (d->kind == KJ_E_TUPLE) { /* a literal tuple: no tuple value needed */
        for (uint32_t i = 0; i < 3; i++)
            out[i] = i < d->seq.n ? kj_lw_as(lc, d->seq.v[i], i64t) : kj_lw_i64(lc, 1, d->span);
        return;
    }
    kir_ref tup = kj_lw_expr(lc, d);
    for (uint32_t i = 0; i < 3; i++) {
        if (i >= t->n) {
            out[i] = kj_lw_i64(lc, 1, d->span);
            continue;
        }
        kir_ref g = kj_lw_emit(lc, KIR_TUPLE_GET, strong(lc, t->elems[i]), d->span);
        kir_at(lc->f, g)->a = tup;
        kir_at(lc->f, g)->i = i;
        out[i] = kj_lw_cast(lc, g, i64t, d->span);
    }
}

/* kernel.forall(ntasks, tpb=0, stream=0, sharedmem=0)(args), as Numba's
 * ForAll does it: ValueError for a negative task count, nothing launched for
 * none, else kernel[(ntasks + tpb - 1) // tpb, tpb, stream, sharedmem](args),
 * tpb 0 meaning KJ_FORALL_DEFAULT_TPB (Numba asks the driver's occupancy
 * calculator; docs/cuda.md says why a fixed size). */
static kir_ref lower_forall(lctx *lc, const kj_expr *e, kj_einfo *ei)
{
    const kj_type *i64t = kj_t_int(lc->s->types, 64, true), *bt = kj_t_bool(lc->s->types);
    const kj_expr *fa[KJ_FORALL__N];
    kj_forall_args(e->call.fn, fa);
    kj_span sp = e->call.fn->span;
    kir_ref n = kj_lw_as(lc, fa[KJ_FORALL_NTASKS], i64t);
    kir_ref ok = kj_lw_emit2(lc, KIR_GE, bt, sp, n, kj_lw_i64(lc, 0, sp));
    kir_ref chk = kj_lw_emit(lc, KIR_ASSERT, NULL, sp);
    kir_at(lc->f, chk)->a = ok;
    kir_at(lc->f, chk)->s = "Can't create ForAll with negative task count";
    kir_at(lc->f, chk)->aux = KIR_ASSERT_VALUE;
    kir_ref tpb = kj_lw_i64(lc, KJ_FORALL_DEFAULT_TPB, sp);
    if (fa[KJ_FORALL_TPB]) {
        kir_ref t = kj_lw_as(lc, fa[KJ_FORALL_TPB], i64t);
        kir_ref z = kj_lw_emit2(lc, KIR_EQ, bt, sp, t, kj_lw_i64(lc, 0, sp));
        kir_ref sel = kj_lw_emit(lc, KIR_SELECT, i64t, sp);
        kir_at(lc->f, sel)->a = z;
        kir_at(lc->f, sel)->b = tpb;
        kir_at(lc->f, sel)->c = t;
        tpb = sel;
    }
    const kj_expr *st = fa[KJ_FORALL_STREAM];
    kir_ref stream = st && EI(lc, st)->type->kind == KJ_T_OPAQUE ? kj_lw_expr(lc, st) : 0;
    kir_ref shm = fa[KJ_FORALL_SHAREDMEM] ? kj_lw_as(lc, fa[KJ_FORALL_SHAREDMEM], i64t) : 0;
    kir_ref *args = kj_lw_user_args(lc, e, ei, ei->callee, 8);
    kir_blkid then, els, saved = lc->cur;
    kj_lower_if(lc, kj_lw_emit2(lc, KIR_GT, bt, sp, n, kj_lw_i64(lc, 0, sp)), sp, &then, &els);
    lc->cur = then;
    kir_ref up = kj_lw_emit2(lc, KIR_SUB, i64t, sp, kj_lw_emit2(lc, KIR_ADD, i64t, sp, n, tpb), kj_lw_i64(lc, 1, sp));
    args[0] = kj_lw_emit2(lc, KIR_FLOORDIV, i64t, sp, up, tpb);
    kir_at(lc->f, args[0])->aux = KIR_AUX_NONZERO;
    args[3] = tpb;
    args[1] = args[2] = args[4] = args[5] = kj_lw_i64(lc, 1, sp);
    args[6] = stream;
    args[7] = shm;
    kir_ref r = kj_lw_emit_args(lc, KIR_LAUNCH, NULL, e->span, args, ei->callee->nargs + 8);
    kir_at(lc->f, r)->fn = ei->callee->kir;
    lc->cur = saved;
    return r;
}

kir_ref kj_lower_launch(lctx *lc, const kj_expr *e, kj_einfo *ei)
{
    if (EI(lc, e->call.fn)->forall) return lower_forall(lc, e, ei);
    const kj_expr *cfg = e->call.fn->sub.index;
    kj_expr *const *it = cfg->seq.v;
    kir_ref *args = kj_lw_user_args(lc, e, ei, ei->callee, 8);
    launch_dims(lc, it[0], args);
    launch_dims(lc, it[1], args + 3);
    args[6] = cfg->seq.n >= 3 && EI(lc, it[2])->type->kind == KJ_T_OPAQUE ? kj_lw_expr(lc, it[2]) : 0;
    args[7] = cfg->seq.n == 4 ? kj_lw_as(lc, it[3], kj_t_int(lc->s->types, 64, true)) : 0;
    kir_ref r = kj_lw_emit_args(lc, KIR_LAUNCH, NULL, e->span, args, ei->callee->nargs + 8);
    kir_at(lc->f, r)->fn = ei->callee->kir;
    return r;
}

/* arr[:size]'s length: Python's slice stop clamped to [0, n] */
static kir_ref slice_stop(lctx *lc, kir_ref n, kir_ref s, kj_span sp)
{
    const kj_type *i64t = kj_t_int(lc->s->types, 64, true), *bt = kj_t_bool(lc->s->types);
    kir_ref zero = kj_lw_i64(lc, 0, sp);
    kir_ref neg = kj_lw_emit2(lc, KIR_LT, bt, sp, s, zero);
    kir_ref from_end = kj_lw_emit2(lc, KIR_ADD, i64t, sp, s, n);
    kir_ref v = kj_lw_emit2(lc, KIR_SELECT, i64t, sp, neg, from_end);
    kir_at(lc->f, v)->c = s;
    kir_ref lo = kj_lw_emit2(lc, KIR_SELECT, i64t, sp, kj_lw_emit2(lc, KIR_LT, bt, sp, v, zero), zero);
    kir_at(lc->f, lo)->c = v;
    kir_ref r = kj_lw_emit2(lc, KIR_SELECT, i64t, sp, kj_lw_emit2(lc, KIR_LT, bt, sp, lo, n), lo);
    kir_at(lc->f, r)->c = n;
    return r;
}

/* r(arr, size=None, res=None, init=0, stream=0) of a cuda.reduce function:
 * acc = T(init); for x in arr[:size]: acc = T(f(acc, x)); in order, on the
 * host (every target: docs/cuda.md). With res, res[0] = acc and the value is
 * None. */
kir_ref kj_lower_cuda_reduce(lctx *lc, const kj_expr *e, kj_einfo *ei)
{
    const kj_type *i64t = kj_t_int(lc->s->types, 64, true);
    const kir_func *f = ei->callee->kir;
    const kj_expr *a[KJ_CRED__N];
    kj_cuda_reduce_args(e, a);
    kj_span sp = e->span;
    kir_ref arr = kj_lw_expr(lc, a[KJ_CRED_ARR]);
    const kj_type *T = strong(lc, type_of(lc, arr)->elem);
    kir_ref n = kj_lw_emit(lc, KIR_ARRAY_DIM, i64t, sp);
    kir_at(lc->f, n)->a = arr;
    const kj_expr *x;
    if ((x = a[KJ_CRED_SIZE]) && EI(lc, x)->type->kind == KJ_T_INT)
        n = slice_stop(lc, n, kj_lw_as(lc, x, i64t), x->span);
    kir_ref res = (x = a[KJ_CRED_RES]) && EI(lc, x)->type->kind == KJ_T_ARRAY ? kj_lw_expr(lc, x) : 0;
    kir_ref init = (x = a[KJ_CRED_INIT]) && EI(lc, x)->type->kind != KJ_T_NONE ? kj_lw_as(lc, x, T)
                                                                               : kj_lw_num(lc, T, 0, sp);
    if ((x = a[KJ_CRED_STREAM]) && EI(lc, x)->type->kind == KJ_T_OPAQUE) kj_lw_expr(lc, x);
    uint32_t acc = kj_lw_temp(lc, T), ind = kj_lw_temp(lc, i64t);
    kj_lw_set(lc, acc, init, sp);
    kir_ref start = kj_lw_i64(lc, 0, sp), step = kj_lw_i64(lc, 1, sp);
    kir_ref loop = kj_lw_emit(lc, KIR_FOR, NULL, sp);
    kir_blkid body = kir_block_new(lc->s->a, lc->f), saved = lc->cur;
    kir_inst *in = kir_at(lc->f, loop);
    in->i = ind, in->a = start, in->b = n, in->c = step, in->blk[0] = body;
    lc->cur = body;
    kir_ref i = kj_lw_get(lc, ind, sp);
    kir_ref el = kj_lw_emit_args(lc, KIR_ARRAY_LOAD, T, sp, &i, 1);
    kir_at(lc->f, el)->a = arr;
    kir_ref args[2] = {kj_lw_cast(lc, kj_lw_get(lc, acc, sp), f->params[0], sp), kj_lw_cast(lc, el, f->params[1], sp)};
    kir_ref r = kj_lw_emit_args(lc, KIR_CALL, f->ret, sp, args, 2);
    kir_at(lc->f, r)->fn = ei->callee->kir;
    kj_lw_set(lc, acc, r, sp);
    lc->cur = saved;
    kir_ref v = kj_lw_get(lc, acc, sp);
    if (!res) return v;
    /* res[0] of an empty res is NumPy's IndexError, whatever boundscheck */
    kir_ref zero = kj_lw_i64(lc, 0, sp), ext = kj_lw_emit(lc, KIR_ARRAY_DIM, i64t, sp);
    kir_at(lc->f, ext)->a = res;
    kj_lw_emit2(lc, KIR_BOUNDS_CHECK, NULL, a[KJ_CRED_RES]->span, zero, ext);
    kir_ref st = kj_lw_emit_args(lc, KIR_ARRAY_STORE, NULL, sp, &zero, 1);
    kir_at(lc->f, st)->a = res;
    kir_at(lc->f, st)->b = kj_lw_cast(lc, v, type_of(lc, res)->elem, sp);
    return kj_lw_emit(lc, KIR_CONST_NONE, NULL, sp);
}
