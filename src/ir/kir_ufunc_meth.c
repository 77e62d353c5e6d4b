/* SPDX-License-Identifier: BSD-2-Clause */
/* ufunc.accumulate / ufunc.outer made loops (kir_ufunc_meth.h). */
#include "kir_ufunc_meth.h"

#include "builtins.h"
#include "kir_build.h"

enum { MAX_DIMS = 4 };

typedef struct meth {
    const kir_func *uf;   /* the binary scalar function */
    const kj_type *r;     /* its result type */
    kir_ref a, b, c, out, n; /* params, the result, the axis's extent */
    uint32_t nda, ndb;    /* dimensions of a and b */
    int axis;             /* accumulate's */
    uint32_t acc;         /* accumulate's running value */
} meth;

static const kj_type *any_layout(kj_types *ty, const kj_type *t)
{
    return kj_t_array(ty, t->elem, t->ndim, KJ_LAYOUT_A);
}

/* f(x, y) converted as a ufunc loop converts */
static kir_ref apply(kir_builder *b, const meth *m, kir_ref x, kir_ref y)
{
    kir_ref args[2] = {kb_cast(b, x, m->uf->params[0]), kb_cast(b, y, m->uf->params[1])};
    return kb_cast(b, kb_call(b, m->uf, args, 2), m->r);
}

/* np.empty(shape, R) for the dimensions of `from` (nfrom arrays). */
static kir_ref empty_like(kir_builder *b, const kj_type *rt, const kir_ref *from, const uint32_t *nds, uint32_t nfrom)
{
    kir_ref d[MAX_DIMS];
    const kj_type *el[MAX_DIMS];
    uint32_t n = 0;
    for (uint32_t k = 0; k < nfrom; k++)
        for (uint32_t j = 0; j < nds[k] && n < MAX_DIMS; j++) el[n] = kb_i64(b), d[n++] = kb_dim(b, from[k], j);
    kir_ref shape = n == 1 ? d[0] : kb_args(b, KIR_TUPLE, kj_t_tuple(b->ty, el, n), d, n);
    kir_ref args[2] = {shape, 0};
    return kb_builtin(b, KJ_B_NP_EMPTY, rt, args, 2);
}

/* ---- accumulate ---- */

/* One line along the axis: idx holds the other axes' indices. */
static void accum_line(kir_builder *b, void *ctx, const kir_ref *outer)
{
    meth *m = ctx;
    kir_ref idx[MAX_DIMS];
    uint32_t o = 0;
    for (uint32_t k = 0; k < m->nda && k < MAX_DIMS; k++) idx[k] = (int)k == m->axis ? kb_int(b, 0) : outer[o++];
    kir_blkid then, els, saved = b->cur;
    kb_if(b, kb_binop(b, KIR_GT, kj_t_bool(b->ty), m->n, kb_int(b, 0)), &then, &els);
    b->cur = then;
    kb_set(b, m->acc, kb_cast(b, kb_load(b, m->a, idx, m->nda), m->r));
    kb_store(b, m->out, kb_get(b, m->acc), idx, m->nda);
    uint32_t j = kb_local(b, kb_i64(b));
    b->cur = kb_for(b, j, kb_int(b, 1), m->n);
    idx[m->axis] = kb_get(b, j);
    kb_set(b, m->acc, apply(b, m, kb_get(b, m->acc), kb_load(b, m->a, idx, m->nda)));
    kb_store(b, m->out, kb_get(b, m->acc), idx, m->nda);
    b->cur = saved;
}

static void accum_body(kir_builder *b, meth *m, const kj_type *rt)
{
    m->out = empty_like(b, rt, &m->a, &m->nda, 1);
    m->n = kb_dim(b, m->a, (uint32_t)m->axis);
    m->acc = kb_local(b, m->r);
    kir_ref dims[MAX_DIMS], idx[MAX_DIMS];
    uint32_t no = 0;
    for (uint32_t k = 0; k < m->nda && k < MAX_DIMS; k++)
        if ((int)k != m->axis) dims[no++] = kb_dim(b, m->a, k);
    kb_nest(b, dims, no, idx, accum_line, m);
    kb_return(b, m->out);
}

/* ---- outer ---- */

static void outer_element(kir_builder *b, void *ctx, const kir_ref *idx)
{
    meth *m = ctx;
    kir_ref x = kb_load(b, m->a, idx, m->nda), y = kb_load(b, m->b, idx + m->nda, m->ndb);
    kb_store(b, m->out, apply(b, m, x, y), idx, m->nda + m->ndb);
}

static void outer_body(kir_builder *b, meth *m, const kj_type *rt)
{
    kir_ref from[2] = {m->a, m->b};
    uint32_t nds[2] = {m->nda, m->ndb}, nd = m->nda + m->ndb;
    m->out = empty_like(b, rt, from, nds, 2);
    kir_ref dims[MAX_DIMS], idx[MAX_DIMS];
    for (uint32_t k = 0; k < nd && k < MAX_DIMS; k++) dims[k] = kb_dim(b, m->out, k);
    kb_nest(b, dims, nd, idx, outer_element, m);
    kb_return(b, m->out);
}

/* ---- at ---- */

/* k-th element of p (an array), or p itself (a scalar) */
static kir_ref element(kir_builder *b, kir_ref p, kir_ref k)
{
    return kj_is_scalar(b->f->insts[p].type) ? p : kb_load(b, p, &k, 1);
}

/* the index of a that element k of the indices names, wrapped and checked
 * (NumPy's IndexError) */
static kir_ref at_index(kir_builder *b, meth *m, kir_ref k)
{
    kir_ref i = kb_cast(b, element(b, m->b, k), kb_i64(b));
    kir_ref w = kb_emit(b, KIR_WRAP_INDEX, kb_i64(b));
    kir_at(b->f, w)->a = i, kir_at(b->f, w)->b = m->n;
    kir_ref c = kb_emit(b, KIR_BOUNDS_CHECK, NULL);
    kir_at(b->f, c)->a = w, kir_at(b->f, c)->b = m->n, kir_at(b->f, c)->i = 0;
    return w;
}

/* NumPy checks every index and the values' shape before it applies f
 * once: a bad call leaves a as it was. Then, unbuffered, for each k:
 * a[i] = f(a[i], v[k]) with i = indices[k] (v[0] when v has 1 element). */
static void at_body(kir_builder *b, meth *m)
{
    const kj_type *bt = kj_t_bool(b->ty);
    m->n = kb_dim(b, m->a, 0);
    bool iarr = !kj_is_scalar(b->f->insts[m->b].type);
    kir_ref cnt = iarr ? kb_dim(b, m->b, 0) : kb_int(b, 1), one = kb_int(b, 1), vstep = 0;
    if (m->c && !kj_is_scalar(b->f->insts[m->c].type)) {
        kir_ref nv = kb_dim(b, m->c, 0);
        kir_ref same = kb_binop(b, KIR_EQ, bt, nv, cnt), single = kb_binop(b, KIR_EQ, bt, nv, one);
        kb_check(b, kb_binop(b, KIR_OR, bt, same, single), "array is not broadcastable to correct shape");
        vstep = kb_select(b, single, kb_int(b, 0), one); /* v's index is k * vstep */
    }
    kir_blkid saved = b->cur;
    uint32_t k = kb_local(b, kb_i64(b));
    b->cur = kb_for(b, k, kb_int(b, 0), cnt);
    at_index(b, m, kb_get(b, k));
    b->cur = saved;
    b->cur = kb_for(b, k, kb_int(b, 0), cnt);
    kir_ref i = at_index(b, m, kb_get(b, k));
    kir_ref x = kb_load(b, m->a, &i, 1), r;
    if (m->c) {
        kir_ref vk = vstep ? kb_binop(b, KIR_MUL, kb_i64(b), kb_get(b, k), vstep) : kb_int(b, 0);
        r = apply(b, m, x, element(b, m->c, vk));
    } else {
        kir_ref arg = kb_cast(b, x, m->uf->params[0]);
        r = kb_cast(b, kb_call(b, m->uf, &arg, 1), m->r);
    }
    kb_store(b, m->a, kb_cast(b, r, b->f->insts[m->a].type->elem), &i, 1); /* unsafe, as NumPy 1's at */
    b->cur = saved;
    kb_return(b, 0);
}

/* f.at(a, indices[, v]): fn(a, indices, v) of type None */
static kir_func *at_func(kj_arena *a, kj_types *ty, kir_module *m, const kir_func *f, const kir_inst *in)
{
    const kj_type *ps[3];
    uint32_t np = in->c ? 3 : 2;
    const kir_ref ops[3] = {in->a, in->b, in->c};
    for (uint32_t k = 0; k < np; k++) {
        const kj_type *t = kj_strong(ty, f->insts[ops[k]].type);
        ps[k] = t->kind == KJ_T_ARRAY ? any_layout(ty, t) : t;
    }
    const char *mangled = kj_arena_printf(a, "%s.at[%s, %s, %s]", in->fn->mangled, kj_type_str(ps[0]),
                                          kj_type_str(ps[1]), np == 3 ? kj_type_str(ps[2]) : "None");
    kir_func *h = kir_module_find(m, mangled);
    if (h) return h;
    h = kir_func_new(a, m, kj_arena_printf(a, "%s.at", in->fn->name), mangled, KIR_FN_HOST);
    h->span = in->span;
    h->nparams = np;
    h->params = KJ_NEWN(a, const kj_type *, np);
    h->param_names = KJ_NEWN(a, const char *, np);
    for (uint32_t k = 0; k < np; k++) {
        h->params[k] = ps[k];
        h->param_names[k] = kj_arena_printf(a, "p%u", k);
    }
    h->ret = in->type;
    kir_builder b = {.a = a, .ty = ty, .f = h, .sp = in->span};
    meth me = {.uf = in->fn, .r = in->fn->ret, .a = kb_param(&b, 0), .b = kb_param(&b, 1), .nda = 1};
    if (np == 3) me.c = kb_param(&b, 2);
    at_body(&b, &me);
    return h;
}

/* ---- the function ---- */

kir_func *kir_ufunc_meth_func(kj_arena *a, kj_types *ty, kir_module *m, const kir_func *f, const kir_inst *in)
{
    if (in->aux & KIR_REDUCE_AT) return at_func(a, ty, m, f, in);
    bool outer = in->aux & KIR_REDUCE_OUTER;
    const kj_type *ps[2] = {any_layout(ty, f->insts[in->a].type), outer ? any_layout(ty, f->insts[in->b].type) : NULL};
    int axis = outer ? 0 : (int)(in->aux & 0xff) - 1;
    const char *mangled = outer ? kj_arena_printf(a, "%s.outer[%s, %s]", in->fn->mangled, kj_type_str(ps[0]),
                                                  kj_type_str(ps[1]))
                                : kj_arena_printf(a, "%s.accumulate[%s, axis=%d]", in->fn->mangled,
                                                  kj_type_str(ps[0]), axis);
    kir_func *h = kir_module_find(m, mangled);
    if (h) return h;
    uint32_t np = outer ? 2 : 1;
    h = kir_func_new(a, m, kj_arena_printf(a, "%s.%s", in->fn->name, outer ? "outer" : "accumulate"), mangled,
                     KIR_FN_HOST);
    h->span = in->span;
    h->nparams = np;
    h->params = KJ_NEWN(a, const kj_type *, np + 1);
    h->param_names = KJ_NEWN(a, const char *, np + 1);
    for (uint32_t k = 0; k < np; k++) {
        h->params[k] = ps[k];
        h->param_names[k] = kj_arena_printf(a, "p%u", k);
    }
    h->ret = in->type;
    kir_builder b = {.a = a, .ty = ty, .f = h, .sp = in->span};
    meth me = {.uf = in->fn, .r = in->fn->ret, .a = kb_param(&b, 0), .nda = (uint32_t)ps[0]->ndim, .axis = axis};
    if (outer) {
        me.b = kb_param(&b, 1);
        me.ndb = (uint32_t)ps[1]->ndim;
        outer_body(&b, &me, in->type);
    } else {
        accum_body(&b, &me, in->type);
    }
    return h;
}
