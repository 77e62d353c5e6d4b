/* SPDX-License-Identifier: BSD-2-Clause */
/* ufunc.reduce made loops or kernels (kir_reduce.h). */
#include "kir_reduce.h"

#include "builtins.h"
#include "kir_build.h"
#include "kir_gpu_ufunc.h"
#include "kir_ufunc_meth.h"

#include <string.h>

enum { MAX_DIMS = 4, TREE_THREADS = 256, TREE_MAX_BLOCKS = 1024, AXIS_THREADS = 256 };

/* One reduction: what its functions are made for. */
typedef struct red {
    const kir_func *uf; /* the binary scalar function */
    const kj_type *at;  /* the array parameter: array(T, N, A) */
    int axis;           /* -1: all of them */
    const kj_type *rt;  /* the result: R, or array(R, N-1, C) */
    const kj_type *r;   /* R, the accumulator: uf's return type */
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

/* for idx[0] in range(dims[0]): for idx[1] ...: body at the innermost */
typedef void (*nest_fn)(kir_builder *b, void *ctx, const kir_ref *idx);

static void nest(kir_builder *b, const kir_ref *dims, uint32_t nd, kir_ref *idx, uint32_t d, nest_fn body, void *ctx)
{
    /* d < MAX_DIMS also tells the optimiser, which unrolls the recursion,
     * that idx[d] stays in bounds (arrays have at most MAX_DIMS dims) */
    if (d == nd || d >= MAX_DIMS) {
        body(b, ctx, idx);
        return;
    }
    uint32_t l = kb_local(b, kb_i64(b));
    kir_blkid saved = b->cur;
    b->cur = kb_for(b, l, kb_int(b, 0), dims[d]);
    idx[d] = kb_get(b, l);
    nest(b, dims, nd, idx, d + 1, body, ctx);
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
    nest(b, dims, nd - 1, idx, 0, fold_row, c);
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
            nest(b, dims, nd, idx, 0, fold_all, &c);
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
    nest(b, dims, no, idx, 0, fold_out, &c);
    kb_return(b, c.out);
}

/* ---- on the GPU ---- */

static kir_func *new_func(kj_arena *a, kj_types *ty, kir_module *m, const char *name, const char *mangled,
                          kir_fn_kind kind, const kj_type *const *params, uint32_t n, const kj_type *ret, kj_span sp)
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
    k = new_func(a, ty, m, rd->uf->name, mangled, KIR_FN_KERNEL, ps, 2, NULL, sp);
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

typedef struct tree_ctx {
    const red *rd;
    kir_ref x;
    uint32_t acc;
} tree_ctx;

static void tree_element(kir_builder *b, void *ctx, kir_ref i)
{
    tree_ctx *c = ctx;
    kb_set(b, c->acc, step(b, c->rd, kb_get(b, c->acc), kb_load(b, c->x, &i, 1)));
}

static kir_ref sreg(kir_builder *b, int builtin)
{
    return kb_cast(b, kb_builtin(b, builtin, kj_t_int(b->ty, 32, true), NULL, 0), kb_i64(b));
}

static void syncthreads(kir_builder *b) { kb_builtin(b, KJ_B_SYNCTHREADS, kj_t_none(b->ty), NULL, 0); }

/* kernel(x, out): out[block] = the fold of this block's share of x, from
 * the identity (grid-stride per thread, then a tree in shared memory) */
static kir_func *tree_kernel(kj_arena *a, kj_types *ty, kir_module *m, const red *rd, const kj_type *xt,
                             const char *base, kj_span sp)
{
    const char *mangled = kj_arena_printf(a, "%s.tree[%s]", base, kj_type_str(xt));
    kir_func *k = kir_module_find(m, mangled);
    if (k) return k;
    const kj_type *ps[2] = {xt, kj_t_array(ty, rd->r, 1, KJ_LAYOUT_A)};
    k = new_func(a, ty, m, rd->uf->name, mangled, KIR_FN_KERNEL, ps, 2, NULL, sp);
    k->applies = rd->uf;
    k->target = KJ_RUN_CUDA;
    kir_builder b = {.a = a, .ty = ty, .f = k, .sp = sp};
    tree_ctx c = {.rd = rd, .x = kb_param(&b, 0), .acc = kb_local(&b, rd->r)};
    kir_ref out = kb_param(&b, 1);
    kir_ref shape[2] = {kb_int(&b, TREE_THREADS), 0};
    kir_ref sh = kb_builtin(&b, KJ_B_SHARED_ARRAY, kj_t_array(ty, rd->r, 1, KJ_LAYOUT_C), shape, 2);
    kir_ref tid = sreg(&b, KJ_B_TID_X);
    kb_set(&b, c.acc, identity(&b, rd));
    kb_grid_stride(&b, kb_dim(&b, c.x, 0), tree_element, &c);
    kb_store(&b, sh, kb_get(&b, c.acc), &tid, 1);
    syncthreads(&b);
    for (int s = TREE_THREADS / 2; s > 0; s /= 2) {
        kir_blkid then, els, saved = b.cur;
        kb_if(&b, kb_binop(&b, KIR_LT, kj_t_bool(ty), tid, kb_int(&b, s)), &then, &els);
        b.cur = then;
        kir_ref other = kb_binop(&b, KIR_ADD, kb_i64(&b), tid, kb_int(&b, s));
        kb_store(&b, sh, step(&b, rd, kb_load(&b, sh, &tid, 1), kb_load(&b, sh, &other, 1)), &tid, 1);
        b.cur = saved;
        syncthreads(&b);
    }
    kir_blkid then, els;
    kb_if(&b, kb_binop(&b, KIR_EQ, kj_t_bool(ty), tid, kb_int(&b, 0)), &then, &els);
    b.cur = then;
    kir_ref zero = kb_int(&b, 0), bid = sreg(&b, KJ_B_BID_X);
    kb_store(&b, out, kb_load(&b, sh, &zero, 1), &bid, 1);
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
    /* a tree: partial results per block, then one block over them */
    const kj_type *pt = kj_t_array(b->ty, rd->r, 1, KJ_LAYOUT_A);
    const kir_func *k1 = tree_kernel(a, b->ty, m, rd, rd->at, base, b->sp);
    const kir_func *k2 = tree_kernel(a, b->ty, m, rd, pt, base, b->sp);
    kir_ref nb = blocks_for(b, kb_dim(b, x, 0), TREE_THREADS, TREE_MAX_BLOCKS);
    kir_ref part = device_array(b, rd->r, nb, 1);
    kir_ref res = device_array(b, rd->r, kb_int(b, 1), 1);
    kir_ref a1[2] = {x, kb_cast(b, part, pt)}, a2[2] = {kb_cast(b, part, pt), kb_cast(b, res, pt)};
    launch(b, k1, nb, TREE_THREADS, a1, 2);
    launch(b, k2, kb_int(b, 1), TREE_THREADS, a2, 2);
    kir_ref zero = kb_int(b, 0);
    kb_return(b, kb_load(b, res, &zero, 1));
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
    f = new_func(a, ty, m, kj_arena_printf(a, "%s.reduce", rd->uf->name), mangled, KIR_FN_HOST, &rd->at, 1, rd->rt,
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
