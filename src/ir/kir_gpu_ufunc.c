/* SPDX-License-Identifier: BSD-2-Clause */
/* Ufunc calls on the GPU: a grid-stride kernel per ufunc and operand types,
 * written in KIR (see kir_gpu_ufunc.h for the shape of it). */
#include "kir_gpu_ufunc.h"

#include "builtins.h"
#include "kir_build.h"

#include <string.h>

enum { MAX_OPS = 16, MAX_DIMS = 4 };

/* ---- the kernel ---- */

/* What the kernel of one call looks like. */
typedef struct ukernel {
    const kir_func *uf;
    bool gufunc;
    uint32_t nin, nops;         /* inputs; all operands (inputs and outputs) */
    uint32_t loop_ndim;
    uint32_t ncore[MAX_OPS];    /* gufunc: core dimensions per operand */
    const kj_type *pt[MAX_OPS]; /* kernel parameter types */
} ukernel;

typedef kir_builder kb;

typedef void (*body_fn)(kb *b, const ukernel *k, const kir_ref *idx);

/* One element of the grid-stride loop: its loop index, then the body. */
typedef struct elem_ctx {
    const ukernel *k;
    kir_ref shape_of;
    bool flat;
    body_fn body;
} elem_ctx;

static void element(kb *b, void *ctx, kir_ref i)
{
    const elem_ctx *c = ctx;
    kir_ref idx[MAX_DIMS];
    if (c->flat) { /* every dimension but the last has extent 1 */
        for (uint32_t d = 0; d + 1 < c->k->loop_ndim; d++) idx[d] = kb_int(b, 0);
        idx[c->k->loop_ndim - 1] = i;
    } else {
        kb_unravel(b, c->shape_of, c->k->loop_ndim, i, idx);
    }
    c->body(b, c->k, idx);
}

static void grid_stride(kb *b, const ukernel *k, kir_ref total, kir_ref shape_of, bool flat, body_fn body)
{
    elem_ctx c = {k, shape_of, flat, body};
    kb_grid_stride(b, total, element, &c);
}

/* out[idx] = f(in0[idx], in1[idx], ...) */
static void vectorize_body(kb *b, const ukernel *k, const kir_ref *idx)
{
    kir_ref args[MAX_OPS];
    for (uint32_t j = 0; j < k->nin; j++) {
        kir_ref v = kb_param(b, j);
        if (k->pt[j]->kind == KJ_T_ARRAY) v = kb_load(b, v, idx, k->loop_ndim);
        args[j] = kb_cast(b, v, k->uf->params[j]);
    }
    kir_ref r = kb_call(b, k->uf, args, k->nin);
    kir_ref out = kb_param(b, k->nin);
    kb_store(b, out, kb_cast(b, r, k->pt[k->nin]->elem), idx, k->loop_ndim);
}

/* The core view of operand j at loop index idx: its core dimensions (a
 * `()` operand passed for an array parameter: the element as shape (1,)). */
static kir_ref core_view(kb *b, const ukernel *k, uint32_t j, const kir_ref *idx)
{
    const kj_type *at = k->pt[j];
    kir_ref arr = kb_param(b, j), parts[MAX_DIMS];
    uint32_t n = k->loop_ndim, keep = k->ncore[j];
    for (uint32_t d = 0; d < n; d++) parts[d] = idx[d];
    if (!keep) { /* a[..., i:i+1] */
        kir_ref stop = kb_binop(b, KIR_ADD, kb_i64(b), idx[n - 1], kb_int(b, 1));
        kir_ref s = kb_emit(b, KIR_SLICE, kj_t_opaque(b->ty, "slice"));
        kir_at(b->f, s)->a = idx[n - 1];
        kir_at(b->f, s)->b = stop;
        parts[n - 1] = s;
        keep = 1;
    }
    kir_ref v = kb_args(b, KIR_ARRAY_VIEW, kj_t_array(b->ty, at->elem, (int)keep, KJ_LAYOUT_A), parts, n);
    kir_at(b->f, v)->a = arr;
    return v;
}

/* g(views of this instance...) */
static void gufunc_body(kb *b, const ukernel *k, const kir_ref *idx)
{
    kir_ref args[MAX_OPS];
    for (uint32_t j = 0; j < k->nops; j++) {
        const kj_type *want = k->uf->params[j];
        if (want->kind == KJ_T_ARRAY && k->pt[j]->kind != KJ_T_ARRAY) {
            /* a scalar for a '()' parameter declared as a 1-d array (the
             * intp[:] read as w[0] idiom): a 1-element local array */
            kir_ref la[2] = {kb_int(b, 1), 0}, zero = kb_int(b, 0);
            kir_ref one = kb_builtin(b, KJ_B_LOCAL_ARRAY, kj_t_array(b->ty, want->elem, 1, KJ_LAYOUT_C), la, 2);
            kb_store(b, one, kb_cast(b, kb_param(b, j), want->elem), &zero, 1);
            args[j] = kb_cast(b, one, want);
        } else if (want->kind == KJ_T_ARRAY) {
            args[j] = core_view(b, k, j, idx);
            if (b->f->insts[args[j]].type->layout != want->layout && want->layout != KJ_LAYOUT_A)
                args[j] = kb_cast(b, args[j], want);
        } else if (k->pt[j]->kind == KJ_T_ARRAY) {
            args[j] = kb_cast(b, kb_load(b, kb_param(b, j), idx, k->loop_ndim), want);
        } else {
            args[j] = kb_cast(b, kb_param(b, j), want);
        }
    }
    kb_call(b, k->uf, args, k->nops);
}

/* The body: the grid-stride loop over the loop shape of the first output,
 * flat when every dimension but the last has extent 1. */
static void define(kb *b, const ukernel *k)
{
    body_fn body = k->gufunc ? gufunc_body : vectorize_body;
    kir_ref shape_of = kb_param(b, k->nin);
    kir_ref total = kb_int(b, 1);
    for (uint32_t d = 0; d < k->loop_ndim; d++) total = kb_binop(b, KIR_MUL, kb_i64(b), total, kb_dim(b, shape_of, d));
    if (k->loop_ndim == 1) {
        grid_stride(b, k, total, shape_of, true, body);
        return;
    }
    kir_ref inner = kb_dim(b, shape_of, k->loop_ndim - 1);
    kir_blkid then, els, saved = b->cur;
    kb_if(b, kb_binop(b, KIR_EQ, kj_t_bool(b->ty), total, inner), &then, &els);
    b->cur = then;
    grid_stride(b, k, total, shape_of, true, body);
    b->cur = els;
    grid_stride(b, k, total, shape_of, false, body);
    b->cur = saved;
}

/* The kernel's mangled name: the ufunc's, then its parameter types. */
static const char *mangle(kj_arena *a, const ukernel *k)
{
    kj_buf s = {0};
    kj_buf_printf(&s, "%s.gpu[", k->uf->mangled);
    for (uint32_t j = 0; j < k->nops; j++) kj_buf_printf(&s, "%s%s", j ? ", " : "", kj_type_str(k->pt[j]));
    kj_buf_puts(&s, "]");
    const char *r = kj_arena_strdup(a, s.s);
    kj_buf_free(&s);
    return r;
}

static kir_func *kernel_for(kj_arena *a, kj_types *ty, kir_module *m, const ukernel *k, kj_span sp)
{
    const char *name = mangle(a, k);
    kir_func *f = kir_module_find(m, name);
    if (f) return f;
    f = kir_func_new(a, m, k->uf->name, name, KIR_FN_KERNEL);
    f->span = k->uf->span;
    f->applies = k->uf;
    f->nparams = k->nops;
    f->params = KJ_NEWN(a, const kj_type *, k->nops);
    f->param_names = KJ_NEWN(a, const char *, k->nops);
    for (uint32_t j = 0; j < k->nops; j++) {
        f->params[j] = k->pt[j];
        f->param_names[j] = kj_arena_printf(a, "op%u", j);
    }
    f->ret = kj_t_none(ty);
    f->fastmath = k->uf->fastmath;
    f->boundscheck = k->uf->boundscheck;
    f->target = KJ_RUN_CUDA;
    kb b = {.a = a, .ty = ty, .f = f, .cur = 0, .sp = sp};
    define(&b, k);
    return f;
}

/* ---- which calls, and their kernel's parameters ---- */

static const kj_type *type_of(const kir_func *f, kir_ref r) { return f->insts[r].type; }

static const kj_type *loop_array(kj_types *ty, const kj_type *elem, uint32_t ndim)
{
    return kj_t_array(ty, elem, (int)ndim, KJ_LAYOUT_A);
}

/* @vectorize: inputs, then the output (out= or made by the call). */
static bool vectorize_kernel(kj_types *ty, const kir_func *f, const kir_inst *in, ukernel *k)
{
    uint32_t nout = in->aux;
    if (nout > 1 || in->nargs - nout + 1 > MAX_OPS) return false;
    k->nin = in->nargs - nout;
    k->nops = k->nin + 1;
    const kj_type *res = nout ? type_of(f, in->args[k->nin]) : in->type;
    if (!res || res->kind != KJ_T_ARRAY) return false;
    k->loop_ndim = res->ndim;
    for (uint32_t j = 0; j < k->nin; j++) {
        const kj_type *t = type_of(f, in->args[j]);
        if (t->kind == KJ_T_ARRAY && t->ndim > k->loop_ndim) k->loop_ndim = t->ndim;
    }
    for (uint32_t j = 0; j < k->nin; j++) {
        const kj_type *t = type_of(f, in->args[j]);
        k->pt[j] = t->kind == KJ_T_ARRAY ? loop_array(ty, t->elem, k->loop_ndim) : t;
    }
    k->pt[k->nin] = loop_array(ty, res->elem, k->loop_ndim);
    return true;
}

/* @guvectorize: each operand with the loop dimensions, then its core ones. */
static bool gufunc_kernel(kj_arena *a, kj_types *ty, const kir_module *m, const kir_func *f, const kir_inst *in,
                          ukernel *k)
{
    const kir_func *uf = k->uf;
    kj_gu_layout lay;
    kj_diags d = {0};
    bool ok = uf->gu_layout && kj_parse_layout(a, uf->gu_layout, (uint32_t)strlen(uf->gu_layout), m->src,
                                               (kj_span){0}, &d, &lay);
    kj_diags_free(&d);
    if (!ok || lay.nin + lay.nout > MAX_OPS || uf->nparams != lay.nin + lay.nout) return false;
    if (in->nargs != lay.nin && in->nargs != lay.nin + lay.nout) return false;
    k->nin = lay.nin;
    k->nops = lay.nin + lay.nout;
    k->loop_ndim = 0;
    for (uint32_t j = 0; j < k->nops; j++) {
        k->ncore[j] = lay.args[j].ndims;
        const kj_type *pt = uf->params[j];
        if (j >= in->nargs) continue;
        const kj_type *t = type_of(f, in->args[j]);
        if (t->kind != KJ_T_ARRAY) continue;
        /* a converted input or an output of another type: the host's work */
        if (pt->kind == KJ_T_ARRAY && t->elem != pt->elem) return false;
        if ((uint32_t)t->ndim < k->ncore[j]) return false;
        if (t->ndim - k->ncore[j] > k->loop_ndim) k->loop_ndim = t->ndim - k->ncore[j];
    }
    if (k->loop_ndim == 0) return false;
    for (uint32_t j = 0; j < k->nops; j++) {
        const kj_type *t = j < in->nargs ? type_of(f, in->args[j]) : NULL;
        const kj_type *pt = uf->params[j];
        bool array = !t || t->kind == KJ_T_ARRAY;
        const kj_type *elem = t ? (array ? t->elem : t) : (pt->kind == KJ_T_ARRAY ? pt->elem : pt);
        if (array && k->loop_ndim + k->ncore[j] > MAX_DIMS) return false;
        if (!array && j >= k->nin) return false;
        if (pt->kind == KJ_T_ARRAY && pt->ndim != (k->ncore[j] ? (int)k->ncore[j] : 1)) return false;
        k->pt[j] = array ? loop_array(ty, elem, k->loop_ndim + k->ncore[j]) : t;
    }
    return true;
}

bool kir_ufunc_on_gpu(const kir_func *uf)
{
    return !uf->fuse_tree && (uf->target == KJ_RUN_DEFAULT || uf->target == KJ_RUN_CUDA);
}

static void rewrite(kj_arena *a, kj_types *ty, kir_module *m, kir_func *f, kir_ref r)
{
    kir_inst *in = &f->insts[r];
    const kir_func *uf = in->fn;
    if (!uf || (uf->kind != KIR_FN_UFUNC && uf->kind != KIR_FN_GUFUNC) || !kir_ufunc_on_gpu(uf)) return;
    bool any = false;
    for (uint32_t j = 0; j < in->nargs; j++) any |= type_of(f, in->args[j])->kind == KJ_T_ARRAY;
    if (!any) return;
    ukernel k = {.uf = uf, .gufunc = uf->kind == KIR_FN_GUFUNC};
    bool ok = k.gufunc ? gufunc_kernel(a, ty, m, f, in, &k) : vectorize_kernel(ty, f, in, &k);
    if (!ok || k.loop_ndim == 0 || k.loop_ndim > MAX_DIMS) return;
    kir_func *kern = kernel_for(a, ty, m, &k, in->span);
    f->insts[r].fn = kern;
}

void kir_gpu_ufuncs(kj_arena *a, kj_types *types, kir_module *m, uint32_t first)
{
    uint32_t n = m->nfuncs; /* the kernels appended are not host functions */
    for (uint32_t j = first; j < n; j++) {
        kir_func *f = m->funcs[j];
        if (f->kind != KIR_FN_MAIN && f->kind != KIR_FN_HOST) continue;
        for (kir_ref r = 1; r < f->ninsts; r++)
            if (f->insts[r].op == KIR_UFUNC_CALL) rewrite(a, types, m, f, r);
    }
}
