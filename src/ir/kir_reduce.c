/* SPDX-License-Identifier: BSD-2-Clause */
/* ufunc.reduce made loops or kernels (kir_reduce.h). */
#include "kir_reduce.h"

#include "builtins.h"
#include "kir_build.h"
#include "kir_gpu_ufunc.h"
#include "kir_ufunc_meth.h"

#include <string.h>

/* RED_*: the one-pass reduction of a 1-d array (reduce_kernel). RED_BLOCKS
 * fills an H100 (132 SMs x 8 resident blocks of 256 threads = 1056) in one
 * wave; a fixed cap rather than the device's SM count keeps the association,
 * so the bits of a float result, the same on every GPU. */
enum { MAX_DIMS = 4, AXIS_THREADS = 256 };
enum { RED_THREADS = 256, RED_WARPS = RED_THREADS / 32, RED_BLOCKS = 1024, RED_UNROLL = 4 };

/* One reduction: what its functions are made for. */
typedef struct red {
    const kir_func *uf; /* the binary scalar function */
    const kj_type *at;  /* the array parameter: array(T, N, A) */
    int axis;           /* -1: all of them */
    const kj_type *rt;  /* the result: R, or array(R, N-1, C) */
    const kj_type *r;   /* R, the accumulator: uf's return type */
    kir_ref seed;       /* in a kernel of an idempotent f without identity (max, min): x[0] */
} red;

static const kj_type *boolt(kir_builder *b) { return kj_t_bool(b->ty); }

/* acc' = f(acc, x), converted as a ufunc loop converts */
static kir_ref step(kir_builder *b, const red *rd, kir_ref acc, kir_ref x)
{
    kir_ref args[2] = {kb_cast(b, acc, rd->uf->params[0]), kb_cast(b, x, rd->uf->params[1])};
    return kb_cast(b, kb_call(b, rd->uf, args, 2), rd->r);
}

static kir_ref identity(kir_builder *b, const red *rd)
{
    if (rd->seed) return rd->seed; /* f(x0, x0) == x0: as good as an identity */
    if (rd->r->kind == KJ_T_COMPLEX) /* no complex constants: a real one, converted */
        return kb_cast(b, kb_const(b, kj_t_float(b->ty, 64), rd->uf->identity.i, rd->uf->identity.f), rd->r);
    return kb_const(b, rd->r, rd->uf->identity.i, rd->uf->identity.f);
}

static const char *no_identity(kir_builder *b, const red *rd)
{
    return kj_arena_printf(b->a, "zero-size array to reduction operation %s which has no identity", rd->uf->name);
}

/* The shape of a without its axis `skip` (-1: none): an int64 or a tuple. */
static kir_ref shape_without(kir_builder *b, kir_ref a, uint32_t nd, int skip, uint32_t *n)
{
    kir_ref d[MAX_DIMS];
    const kj_type *el[MAX_DIMS];
    *n = 0;
    for (uint32_t k = 0; k < nd; k++)
        if ((int)k != skip) el[*n] = kb_i64(b), d[(*n)++] = kb_dim(b, a, k);
    if (*n == 1) return d[0];
    return kb_args(b, KIR_TUPLE, kj_t_tuple(b->ty, el, *n), d, *n);
}

/* The fold of a[idx with j at `axis`] for j in range(n) into local acc,
 * from the identity or from the first element. */
static void fold_axis(kir_builder *b, const red *rd, kir_ref a, const kir_ref *outer, uint32_t nd, int axis,
                      kir_ref n, uint32_t acc)
{
    kir_ref idx[MAX_DIMS];
    uint32_t o = 0;
    kir_ref first = kb_int(b, 0);
    for (uint32_t k = 0; k < nd; k++) idx[k] = (int)k == axis ? first : outer[o++];
    if (rd->uf->identity.has) {
        kb_set(b, acc, identity(b, rd));
    } else {
        kb_set(b, acc, kb_cast(b, kb_load(b, a, idx, nd), rd->r));
        first = kb_int(b, 1);
    }
    uint32_t j = kb_local(b, kb_i64(b));
    kir_blkid saved = b->cur;
    b->cur = kb_for(b, j, first, n);
    idx[axis] = kb_get(b, j);
    kb_set(b, acc, step(b, rd, kb_get(b, acc), kb_load(b, a, idx, nd)));
    b->cur = saved;
}

/* ---- on the host ---- */

typedef struct host_ctx {
    const red *rd;
    kir_ref a, out, n;
    uint32_t acc;
} host_ctx;

/* all elements, C order: acc = f(acc, a[idx]) */
static void fold_all(kir_builder *b, void *ctx, const kir_ref *idx)
{
    host_ctx *c = ctx;
    kb_set(b, c->acc, step(b, c->rd, kb_get(b, c->acc), kb_load(b, c->a, idx, (uint32_t)c->rd->at->ndim)));
}

/* out[idx] = the fold along the axis */
static void fold_out(kir_builder *b, void *ctx, const kir_ref *idx)
{
    host_ctx *c = ctx;
    uint32_t nd = (uint32_t)c->rd->at->ndim;
    if (!c->rd->uf->identity.has)
        kb_check(b, kb_binop(b, KIR_GT, boolt(b), c->n, kb_int(b, 0)), no_identity(b, c->rd));
    fold_axis(b, c->rd, c->a, idx, nd, c->rd->axis, c->n, c->acc);
    kb_store(b, c->out, kb_get(b, c->acc), idx, nd - 1);
}

/* One row of a reduction over every axis without an identity: the fold of
 * a[idx..., j] for j in range(start, n), start 1 in the first row (whose
 * first element the accumulator starts from), else 0. */
static void fold_row(kir_builder *b, void *ctx, const kir_ref *idx)
{
    host_ctx *c = ctx;
    uint32_t nd = (uint32_t)c->rd->at->ndim;
    kir_ref full[MAX_DIMS], first = kb_const(b, boolt(b), 1, 1.0);
    for (uint32_t k = 0; k + 1 < nd; k++) {
        full[k] = idx[k];
        first = kb_binop(b, KIR_AND, boolt(b), first, kb_binop(b, KIR_EQ, boolt(b), idx[k], kb_int(b, 0)));
    }
    uint32_t j = kb_local(b, kb_i64(b));
    kir_blkid saved = b->cur;
    b->cur = kb_for(b, j, kb_select(b, first, kb_int(b, 1), kb_int(b, 0)), c->n);
    full[nd - 1] = kb_get(b, j);
    kb_set(b, c->acc, step(b, c->rd, kb_get(b, c->acc), kb_load(b, c->a, full, nd)));
    b->cur = saved;
}

/* The fold of every element of `a` (any ndim, 'reorderable' without an
 * identity), C order, from the first element: NumPy's error when empty. */
static void fold_all_from_first(kir_builder *b, host_ctx *c)
{
    uint32_t nd = (uint32_t)c->rd->at->ndim;
    kir_ref dims[MAX_DIMS], idx[MAX_DIMS], total = kb_int(b, 1);
    for (uint32_t k = 0; k < nd; k++) {
        dims[k] = kb_dim(b, c->a, k);
        total = kb_binop(b, KIR_MUL, kb_i64(b), total, dims[k]);
        idx[k] = kb_int(b, 0);
    }
    kb_check(b, kb_binop(b, KIR_GT, boolt(b), total, kb_int(b, 0)), no_identity(b, c->rd));
    kb_set(b, c->acc, kb_cast(b, kb_load(b, c->a, idx, nd), c->rd->r));
    c->n = dims[nd - 1];
    kb_nest(b, dims, nd - 1, idx, fold_row, c);
}

static void host_body(kir_builder *b, const red *rd)
{
    uint32_t nd = (uint32_t)rd->at->ndim;
    kir_ref a = kb_param(b, 0), dims[MAX_DIMS], idx[MAX_DIMS];
    host_ctx c = {.rd = rd, .a = a, .acc = kb_local(b, rd->r)};
    if (rd->rt->kind != KJ_T_ARRAY) {
        if (rd->uf->identity.has) {
            kb_set(b, c.acc, identity(b, rd));
            for (uint32_t k = 0; k < nd; k++) dims[k] = kb_dim(b, a, k);
            kb_nest(b, dims, nd, idx, fold_all, &c);
        } else { /* from the first element */
            fold_all_from_first(b, &c);
        }
        kb_return(b, kb_get(b, c.acc));
        return;
    }
    uint32_t no;
    kir_ref shape = shape_without(b, a, nd, rd->axis, &no);
    kir_ref none = 0, args[2] = {shape, none};
    c.out = kb_builtin(b, KJ_B_NP_EMPTY, rd->rt, args, 2);
    c.n = kb_dim(b, a, (uint32_t)rd->axis);
    for (uint32_t k = 0; k < no; k++) dims[k] = kb_dim(b, c.out, k);
    kb_nest(b, dims, no, idx, fold_out, &c);
    kb_return(b, c.out);
}

/* ---- on the GPU ---- */

kir_func *kir_reduce_new_func(kj_arena *a, kj_types *ty, kir_module *m, const char *name, const char *mangled,
                              kir_fn_kind kind, const kj_type *const *params, uint32_t n, const kj_type *ret,
                              kj_span sp)
{
    kir_func *f = kir_func_new(a, m, name, mangled, kind);
    f->span = sp;
    f->nparams = n;
    f->params = KJ_NEWN(a, const kj_type *, n + 1);
    f->param_names = KJ_NEWN(a, const char *, n + 1);
    for (uint32_t k = 0; k < n; k++) {
        f->params[k] = params[k];
        f->param_names[k] = kj_arena_printf(a, "p%u", k);
    }
    f->ret = ret ? ret : kj_t_none(ty);
    return f;
}

typedef struct axis_ctx {
    const red *rd;
    kir_ref a, out, n;
} axis_ctx;

/* one result per thread */
static void axis_element(kir_builder *b, void *ctx, kir_ref i)
{
    axis_ctx *c = ctx;
    uint32_t nd = (uint32_t)c->rd->at->ndim;
    kir_ref idx[MAX_DIMS];
    kb_unravel(b, c->out, nd - 1, i, idx);
    uint32_t acc = kb_local(b, c->rd->r);
    fold_axis(b, c->rd, c->a, idx, nd, c->rd->axis, c->n, acc);
    kb_store(b, c->out, kb_get(b, acc), idx, nd - 1);
}

/* kernel(a, out): out[j] = the fold of a along the axis, thread per j */
static kir_func *axis_kernel(kj_arena *a, kj_types *ty, kir_module *m, const red *rd, const char *base, kj_span sp)
{
    const char *mangled = kj_arena_printf(a, "%s.gpu", base);
    kir_func *k = kir_module_find(m, mangled);
    if (k) return k;
    const kj_type *ps[2] = {rd->at, kj_t_array(ty, rd->r, rd->at->ndim - 1, KJ_LAYOUT_A)};
    k = kir_reduce_new_func(a, ty, m, rd->uf->name, mangled, KIR_FN_KERNEL, ps, 2, NULL, sp);
    k->applies = rd->uf;
    k->target = KJ_RUN_CUDA;
    kir_builder b = {.a = a, .ty = ty, .f = k, .sp = sp};
    axis_ctx c = {.rd = rd, .a = kb_param(&b, 0), .out = kb_param(&b, 1)};
    c.n = kb_dim(&b, c.a, (uint32_t)rd->axis);
    kir_ref total = kb_int(&b, 1);
    for (uint32_t d = 0; d + 1 < (uint32_t)rd->at->ndim; d++)
        total = kb_binop(&b, KIR_MUL, kb_i64(&b), total, kb_dim(&b, c.out, d));
    kb_grid_stride(&b, total, axis_element, &c);
    return k;
}

static kir_ref sreg(kir_builder *b, int builtin)
{
    return kb_cast(b, kb_builtin(b, builtin, kj_t_int(b->ty, 32, true), NULL, 0), kb_i64(b));
}

static void syncthreads(kir_builder *b) { kb_builtin(b, KJ_B_SYNCTHREADS, kj_t_none(b->ty), NULL, 0); }

static kir_ref shared(kir_builder *b, const kj_type *elem, int n)
{
    kir_ref shape[2] = {kb_int(b, n), 0};
    return kb_builtin(b, KJ_B_SHARED_ARRAY, kj_t_array(b->ty, elem, 1, KJ_LAYOUT_C), shape, 2);
}

/* if cond: the block to fill (the caller restores b->cur) */
static kir_blkid when(kir_builder *b, kir_ref cond)
{
    kir_blkid then, els;
    kb_if(b, cond, &then, &els);
    return then;
}

static kir_ref lt(kir_builder *b, kir_ref x, kir_ref y) { return kb_binop(b, KIR_LT, boolt(b), x, y); }
static kir_ref eq(kir_builder *b, kir_ref x, kir_ref y) { return kb_binop(b, KIR_EQ, boolt(b), x, y); }
static kir_ref add(kir_builder *b, kir_ref x, kir_ref y) { return kb_binop(b, KIR_ADD, kb_i64(b), x, y); }
static kir_ref mul(kir_builder *b, kir_ref x, kir_ref y) { return kb_binop(b, KIR_MUL, kb_i64(b), x, y); }

/* shfl.sync moves 32- and 64-bit numbers (narrower ints and bools widened);
 * other accumulators (complex, float16) fold through shared memory only */
static bool shuffles(const kj_type *t)
{
    return t->kind == KJ_T_INT || t->kind == KJ_T_BOOL || (t->kind == KJ_T_FLOAT && t->bits >= 32);
}

/* acc = the fold of acc over the 32 lanes of this warp, in lane 0:
 * acc = f(acc, acc of lane + d) for d = 16, 8, 4, 2, 1 */
static void warp_fold(kir_builder *b, const red *rd, uint32_t acc)
{
    kir_ref mask = kb_const(b, kj_t_int(b->ty, 32, false), 0xffffffff, 0);
    for (int d = 16; d > 0; d /= 2) {
        kir_ref args[3] = {mask, kb_get(b, acc), kb_int(b, d)};
        kir_ref other = kb_builtin(b, KJ_B_SHFL_DOWN_SYNC, rd->r, args, 3);
        kb_set(b, acc, step(b, rd, kb_get(b, acc), other));
    }
}

/* acc = the fold of every thread's acc, in thread 0, always associated the
 * same way (the same bits run to run). Every thread of the block calls it. */
static void block_fold(kir_builder *b, const red *rd, uint32_t acc, kir_ref tid)
{
    kir_blkid saved = b->cur;
    if (!shuffles(rd->r)) { /* a tree in shared memory */
        kir_ref sh = shared(b, rd->r, RED_THREADS);
        kb_store(b, sh, kb_get(b, acc), &tid, 1);
        syncthreads(b);
        for (int s = RED_THREADS / 2; s > 0; s /= 2) {
            b->cur = when(b, lt(b, tid, kb_int(b, s)));
            kir_ref other = add(b, tid, kb_int(b, s));
            kb_store(b, sh, step(b, rd, kb_load(b, sh, &tid, 1), kb_load(b, sh, &other, 1)), &tid, 1);
            b->cur = saved;
            syncthreads(b);
        }
        kir_ref zero = kb_int(b, 0);
        kb_set(b, acc, kb_load(b, sh, &zero, 1));
        return;
    }
    /* shuffles within each warp, then warp 0 over the warps' results */
    kir_ref sh = shared(b, rd->r, RED_WARPS), w32 = kb_int(b, 32);
    kir_ref warp = kb_binop(b, KIR_FLOORDIV, kb_i64(b), tid, w32);
    kir_ref lane = kb_binop(b, KIR_SUB, kb_i64(b), tid, mul(b, warp, w32));
    warp_fold(b, rd, acc);
    b->cur = when(b, eq(b, lane, kb_int(b, 0)));
    kb_store(b, sh, kb_get(b, acc), &warp, 1);
    b->cur = saved;
    syncthreads(b);
    b->cur = when(b, eq(b, warp, kb_int(b, 0)));
    kir_ref in = lt(b, lane, kb_int(b, RED_WARPS));
    kir_ref at = kb_select(b, in, lane, kb_int(b, 0));
    kb_set(b, acc, kb_select(b, in, kb_load(b, sh, &at, 1), identity(b, rd)));
    warp_fold(b, rd, acc);
    b->cur = saved;
}

/* This thread's share of x from the identity: RED_UNROLL accumulators,
 * each round loading x[i], x[i + T], ... x[i + (U-1)T] (T threads in the
 * grid: every load coalesced, U independent loads in flight per thread),
 * then the rest one at a time; the accumulators folded pairwise. */
static void thread_fold(kir_builder *b, const red *rd, kir_ref x, kir_ref g, kir_ref t, uint32_t acc)
{
    uint32_t accs[RED_UNROLL];
    for (int k = 0; k < RED_UNROLL; k++) kb_set(b, accs[k] = kb_local(b, rd->r), identity(b, rd));
    kir_ref n = kb_dim(b, x, 0), ut = mul(b, t, kb_int(b, RED_UNROLL));
    kir_ref rounds = kb_binop(b, KIR_FLOORDIV, kb_i64(b), n, ut);
    uint32_t r = kb_local(b, kb_i64(b)), il = kb_local(b, kb_i64(b));
    kir_blkid saved = b->cur;
    b->cur = kb_for(b, r, kb_int(b, 0), rounds);
    kir_ref i = add(b, mul(b, kb_get(b, r), ut), g), v[RED_UNROLL];
    for (int k = 0; k < RED_UNROLL; k++) {
        kir_ref ik = k ? add(b, i, mul(b, t, kb_int(b, k))) : i;
        v[k] = kb_load(b, x, &ik, 1);
    }
    for (int k = 0; k < RED_UNROLL; k++) kb_set(b, accs[k], step(b, rd, kb_get(b, accs[k]), v[k]));
    b->cur = saved;
    kb_set(b, il, add(b, mul(b, rounds, ut), g));
    kir_blkid loop = kb_loop(b);
    b->cur = loop;
    kir_ref j = kb_get(b, il);
    b->cur = when(b, kb_binop(b, KIR_GE, boolt(b), j, n));
    kb_emit(b, KIR_BREAK, kj_t_none(b->ty));
    b->cur = loop;
    kb_set(b, accs[0], step(b, rd, kb_get(b, accs[0]), kb_load(b, x, &j, 1)));
    kb_set(b, il, add(b, j, t));
    b->cur = saved;
    for (int w = 1; w < RED_UNROLL; w *= 2)
        for (int k = 0; k + w < RED_UNROLL; k += 2 * w)
            kb_set(b, accs[k], step(b, rd, kb_get(b, accs[k]), kb_get(b, accs[k + w])));
    kb_set(b, acc, kb_get(b, accs[0]));
}

/* The last block to finish (the CUDA threadFenceReduction sample's way):
 * each block writes its result to part[block], fences, and counts itself
 * done with atomic.inc on count[0], which wraps back to 0 for the last
 * one (so the counter is zero for the next launch too); that block folds
 * part[0..blocks) in a fixed order into part[blocks]. */
static void last_block(kir_builder *b, const red *rd, kir_ref part, kir_ref count, kir_ref tid, uint32_t acc)
{
    const kj_type *u32 = kj_t_int(b->ty, 32, false);
    kir_ref bid = sreg(b, KJ_B_BID_X), nb = sreg(b, KJ_B_GDIM_X), zero = kb_int(b, 0);
    kir_ref flag = shared(b, boolt(b), 1);
    kir_blkid saved = b->cur;
    b->cur = when(b, eq(b, tid, zero));
    kb_store(b, part, kb_get(b, acc), &bid, 1);
    kb_builtin(b, KJ_B_THREADFENCE, kj_t_none(b->ty), NULL, 0);
    kir_ref wrap = kb_cast(b, kb_binop(b, KIR_SUB, kb_i64(b), nb, kb_int(b, 1)), u32);
    kir_ref args[3] = {count, zero, wrap};
    kir_ref ticket = kb_builtin(b, KJ_B_ATOMIC_INC, u32, args, 3);
    kb_store(b, flag, eq(b, ticket, wrap), &zero, 1);
    b->cur = saved;
    syncthreads(b);
    b->cur = when(b, kb_load(b, flag, &zero, 1)); /* the same in every thread of the block */
    kb_builtin(b, KJ_B_THREADFENCE, kj_t_none(b->ty), NULL, 0);
    kb_set(b, acc, identity(b, rd));
    uint32_t j = kb_local(b, kb_i64(b));
    kir_blkid inner = b->cur;
    b->cur = kb_for(b, j, zero, kb_binop(b, KIR_FLOORDIV, kb_i64(b), add(b, nb, kb_int(b, RED_THREADS - 1)),
                                            kb_int(b, RED_THREADS)));
    kir_ref k = add(b, mul(b, kb_get(b, j), kb_int(b, RED_THREADS)), tid);
    b->cur = when(b, lt(b, k, nb));
    kb_set(b, acc, step(b, rd, kb_get(b, acc), kb_load(b, part, &k, 1)));
    b->cur = inner;
    block_fold(b, rd, acc, tid);
    b->cur = when(b, eq(b, tid, zero));
    kb_store(b, part, kb_get(b, acc), &nb, 1);
    b->cur = saved;
}

/* kernel(x, part, count): part[gridDim] = the fold of x from the identity,
 * in one launch of RED_THREADS-thread blocks (see thread_fold, block_fold,
 * last_block); part has gridDim + 1 elements, count[0] is 0 */
static kir_func *reduce_kernel(kj_arena *a, kj_types *ty, kir_module *m, const red *rd, const char *base, kj_span sp)
{
    const char *mangled = kj_arena_printf(a, "%s.onepass", base);
    kir_func *k = kir_module_find(m, mangled);
    if (k) return k;
    const kj_type *ps[3] = {rd->at, kj_t_array(ty, rd->r, 1, KJ_LAYOUT_A),
                            kj_t_array(ty, kj_t_int(ty, 32, false), 1, KJ_LAYOUT_A)};
    k = kir_reduce_new_func(a, ty, m, rd->uf->name, mangled, KIR_FN_KERNEL, ps, 3, NULL, sp);
    k->applies = rd->uf;
    k->target = KJ_RUN_CUDA;
    kir_builder b = {.a = a, .ty = ty, .f = k, .sp = sp};
    kir_ref x = kb_param(&b, 0), part = kb_param(&b, 1), count = kb_param(&b, 2), zero = kb_int(&b, 0);
    red seeded = *rd;
    if (!rd->uf->identity.has) seeded.seed = kb_cast(&b, kb_load(&b, x, &zero, 1), rd->r); /* x is not empty */
    rd = &seeded;
    kir_ref tid = sreg(&b, KJ_B_TID_X), bid = sreg(&b, KJ_B_BID_X);
    kir_ref t = mul(&b, sreg(&b, KJ_B_GDIM_X), kb_int(&b, RED_THREADS));
    kir_ref g = add(&b, mul(&b, bid, kb_int(&b, RED_THREADS)), tid);
    uint32_t acc = kb_local(&b, rd->r);
    thread_fold(&b, rd, x, g, t, acc);
    block_fold(&b, rd, acc, tid);
    last_block(&b, rd, part, count, tid, acc);
    return k;
}

/* LAUNCH k[blocks, threads](args...) */
static void launch(kir_builder *b, const kir_func *k, kir_ref blocks, int threads, const kir_ref *args, uint32_t n)
{
    kir_ref v[8 + 4] = {blocks, kb_int(b, 1), kb_int(b, 1), kb_int(b, threads), kb_int(b, 1), kb_int(b, 1), 0, 0};
    for (uint32_t j = 0; j < n; j++) v[8 + j] = args[j];
    kir_ref r = kb_args(b, KIR_LAUNCH, kj_t_none(b->ty), v, 8 + n);
    kir_at(b->f, r)->fn = (kir_func *)(uintptr_t)k;
}

/* min(ceil(n / threads), cap), at least 1 */
static kir_ref blocks_for(kir_builder *b, kir_ref n, int threads, int64_t cap)
{
    kir_ref t = kb_binop(b, KIR_ADD, kb_i64(b), n, kb_int(b, threads - 1));
    kir_ref q = kb_binop(b, KIR_FLOORDIV, kb_i64(b), t, kb_int(b, threads));
    kir_ref one = kb_int(b, 1), c = kb_int(b, cap);
    kir_ref lo = kb_select(b, kb_binop(b, KIR_LT, boolt(b), q, one), one, q);
    return kb_select(b, kb_binop(b, KIR_GT, boolt(b), lo, c), c, lo);
}

static kir_ref device_array(kir_builder *b, const kj_type *elem, kir_ref shape, uint32_t nd)
{
    kir_ref args[3] = {shape, 0, 0};
    return kb_builtin(b, KJ_B_CUDA_DEVICE_ARRAY, kj_t_array(b->ty, elem, (int)nd, KJ_LAYOUT_C), args, 3);
}

static kir_ref one_pass(kir_builder *b, kj_arena *a, kir_module *m, const red *rd, kir_ref x, const char *base);

/* The host side of a reduction on the GPU. */
static void gpu_body(kir_builder *b, kj_arena *a, kir_module *m, const red *rd, const char *base)
{
    uint32_t nd = (uint32_t)rd->at->ndim;
    kir_ref x = kb_param(b, 0);
    if (rd->rt->kind == KJ_T_ARRAY) { /* one thread per result */
        const kir_func *k = axis_kernel(a, b->ty, m, rd, base, b->sp);
        uint32_t no;
        kir_ref shape = shape_without(b, x, nd, rd->axis, &no);
        kir_ref out = device_array(b, rd->r, shape, no);
        kir_ref total = kb_int(b, 1);
        for (uint32_t d = 0; d < no; d++) total = kb_binop(b, KIR_MUL, kb_i64(b), total, kb_dim(b, out, d));
        kir_ref n = kb_dim(b, x, (uint32_t)rd->axis);
        if (!rd->uf->identity.has) {
            kir_ref some = kb_binop(b, KIR_GT, boolt(b), n, kb_int(b, 0));
            kir_ref none = kb_binop(b, KIR_EQ, boolt(b), total, kb_int(b, 0));
            kb_check(b, kb_binop(b, KIR_OR, boolt(b), some, none), no_identity(b, rd));
        }
        kir_blkid then, els, saved = b->cur;
        kb_if(b, kb_binop(b, KIR_GT, boolt(b), total, kb_int(b, 0)), &then, &els);
        b->cur = then;
        kir_ref args[2] = {x, out};
        launch(b, k, blocks_for(b, total, AXIS_THREADS, 1 << 20), AXIS_THREADS, args, 2);
        b->cur = saved;
        kb_return(b, kb_cast(b, out, rd->rt));
        return;
    }
    kb_return(b, one_pass(b, a, m, rd, x, base));
}

/* The launch of the one-pass kernel over 1-d x (not empty unless f has an
 * identity) and the scalar it leaves: blocks' results, then the last block
 * to finish folds them. */
static kir_ref one_pass(kir_builder *b, kj_arena *a, kir_module *m, const red *rd, kir_ref x, const char *base)
{
    const kj_type *pt = kj_t_array(b->ty, rd->r, 1, KJ_LAYOUT_A);
    const kj_type *ct = kj_t_array(b->ty, kj_t_int(b->ty, 32, false), 1, KJ_LAYOUT_A);
    const kir_func *k = reduce_kernel(a, b->ty, m, rd, base, b->sp);
    kir_ref nb = blocks_for(b, kb_dim(b, x, 0), RED_THREADS * RED_UNROLL, RED_BLOCKS);
    kir_ref part = device_array(b, rd->r, kb_binop(b, KIR_ADD, kb_i64(b), nb, kb_int(b, 1)), 1);
    kir_ref count = device_array(b, kj_t_int(b->ty, 32, false), kb_int(b, 1), 1); /* zeroed */
    kir_ref args[3] = {x, kb_cast(b, part, pt), kb_cast(b, count, ct)};
    launch(b, k, nb, RED_THREADS, args, 3);
    return kb_load(b, part, &nb, 1);
}

kir_ref kir_reduce_gpu_1d(kir_builder *b, kir_module *m, const kir_func *f, kir_ref x, const char *base)
{
    const kj_type *xt = b->f->insts[x].type;
    red rd = {.uf = f, .at = kj_t_array(b->ty, xt->elem, 1, KJ_LAYOUT_A), .axis = -1, .rt = f->ret, .r = f->ret};
    return one_pass(b, b->a, m, &rd, x, base);
}

/* ---- the calls ---- */

/* Can the GPU do this one? (see kir_reduce.h) */
static bool gpu_can(const red *rd)
{
    if (rd->rt->kind == KJ_T_ARRAY) return true;
    return rd->at->ndim == 1 && rd->uf->identity.has;
}

static kir_func *reducer(kj_arena *a, kj_types *ty, kir_module *m, const red *rd, bool gpu, kj_span sp)
{
    const char *base = kj_arena_printf(a, "%s.reduce[%s, axis=%d]", rd->uf->mangled, kj_type_str(rd->at), rd->axis);
    /* Without an identity the reducer raises (an empty reduction) at its
     * call: one per call site, so that the error names the right one. */
    if (!rd->uf->identity.has) base = kj_arena_printf(a, "%s@%u:%u", base, sp.line, sp.col);
    bool on_gpu = gpu && gpu_can(rd);
    const char *mangled = kj_arena_printf(a, "%s%s", base, on_gpu ? ".host" : "");
    kir_func *f = kir_module_find(m, mangled);
    if (f) return f;
    f = kir_reduce_new_func(a, ty, m, kj_arena_printf(a, "%s.reduce", rd->uf->name), mangled, KIR_FN_HOST, &rd->at, 1, rd->rt,
                 sp);
    kir_builder b = {.a = a, .ty = ty, .f = f, .sp = sp};
    f->launches_only = on_gpu;
    if (on_gpu) gpu_body(&b, a, m, rd, base);
    else host_body(&b, rd);
    return f;
}

void kir_reduce_expand(kj_arena *a, kj_types *ty, kir_module *m, uint32_t first, bool gpu)
{
    uint32_t n = m->nfuncs; /* the functions made here are complete */
    for (uint32_t j = first; j < n; j++) {
        kir_func *f = m->funcs[j];
        for (kir_ref r = 1; r < f->ninsts; r++) {
            kir_inst *in = &f->insts[r];
            if (gpu && in->op == KIR_BUILTIN && (f->kind == KIR_FN_MAIN || f->kind == KIR_FN_HOST)) {
                kir_reduce_np(a, ty, m, f, r);  /* kir_reduce_np.c */
                kir_matmul_gpu(a, ty, m, f, r); /* kir_matmul_gpu.c */
                continue;
            }
            if (in->op != KIR_UFUNC_REDUCE) continue;
            if (in->aux & (KIR_REDUCE_ACCUMULATE | KIR_REDUCE_OUTER | KIR_REDUCE_AT)) { /* kir_ufunc_meth.c */
                kir_func *h = kir_ufunc_meth_func(a, ty, m, f, in);
                in = &f->insts[r];
                kir_ref args[3] = {in->a, in->b, in->c};
                in->op = KIR_CALL;
                in->fn = h;
                in->nargs = in->c ? 3 : in->b ? 2 : 1;
                in->args = kir_refs(a, args, in->nargs);
                in->a = in->b = in->c = 0;
                in->aux = 0;
                continue;
            }
            const kj_type *at = f->insts[in->a].type;
            red rd = {.uf = in->fn, .at = kj_t_array(ty, at->elem, at->ndim, KJ_LAYOUT_A),
                      .axis = (int)in->aux - 1, .rt = in->type, .r = in->fn->ret};
            kir_func *h = reducer(a, ty, m, &rd, gpu && kir_ufunc_on_gpu(in->fn), in->span);
            in = &f->insts[r];
            kir_ref arg = in->a;
            in->op = KIR_CALL;
            in->fn = h;
            in->a = 0;
            in->aux = 0;
            in->args = kir_refs(a, &arg, 1);
            in->nargs = 1;
        }
    }
}
