/* Ufunc calls on the GPU: a grid-stride kernel per ufunc and operand types,
 * written in KIR (see kir_gpu_ufunc.h for the shape of it). */
#include "kir_gpu_ufunc.h"

#include "builtins.h"

#include <string.h>

enum { MAX_OPS = 16, MAX_DIMS = 4 };

/* ---- building a kernel body ---- */

typedef struct kb {
    kj_arena *a;
    kj_types *ty;
    kir_func *f;
    kir_blkid cur;
    kj_span sp;
} kb;

static kir_ref emit(kb *b, kir_op op, const kj_type *t) { return kir_emit(b->a, b->f, b->cur, op, t, b->sp); }
static const kj_type *i64t(kb *b) { return kj_t_int(b->ty, 64, true); }

static kir_ref konst(kb *b, int64_t v)
{
    kir_ref r = emit(b, KIR_CONST_INT, i64t(b));
    kir_at(b->f, r)->i = v;
    return r;
}

static kir_ref binop(kb *b, kir_op op, const kj_type *t, kir_ref x, kir_ref y)
{
    kir_ref r = emit(b, op, t);
    kir_at(b->f, r)->a = x;
    kir_at(b->f, r)->b = y;
    return r;
}

static kir_ref param(kb *b, uint32_t k)
{
    kir_ref r = emit(b, KIR_PARAM, b->f->params[k]);
    kir_at(b->f, r)->i = k;
    return r;
}

static kir_ref dim(kb *b, kir_ref arr, uint32_t d)
{
    kir_ref r = emit(b, KIR_ARRAY_DIM, i64t(b));
    kir_at(b->f, r)->a = arr;
    kir_at(b->f, r)->i = d;
    return r;
}

static kir_ref with_args(kb *b, kir_op op, const kj_type *t, const kir_ref *args, uint32_t n)
{
    kir_ref r = emit(b, op, t);
    kir_at(b->f, r)->args = kir_refs(b->a, args, n);
    kir_at(b->f, r)->nargs = n;
    return r;
}

static kir_ref load(kb *b, kir_ref arr, const kj_type *elem, const kir_ref *idx, uint32_t n)
{
    kir_ref r = with_args(b, KIR_ARRAY_LOAD, elem, idx, n);
    kir_at(b->f, r)->a = arr;
    return r;
}

static kir_ref cast(kb *b, kir_ref v, const kj_type *to)
{
    if (b->f->insts[v].type == to) return v;
    kir_ref r = emit(b, KIR_CAST, to);
    kir_at(b->f, r)->a = v;
    return r;
}

static kir_ref get_local(kb *b, uint32_t l)
{
    kir_ref r = emit(b, KIR_LOCAL_GET, b->f->locals[l].type);
    kir_at(b->f, r)->i = l;
    return r;
}

static void set_local(kb *b, uint32_t l, kir_ref v)
{
    kir_ref r = emit(b, KIR_LOCAL_SET, kj_t_none(b->ty));
    kir_at(b->f, r)->i = l;
    kir_at(b->f, r)->a = v;
}

/* if cond { then } else { else }: the two blocks. */
static kir_ref emit_if(kb *b, kir_ref cond, kir_blkid *then, kir_blkid *els)
{
    kir_ref r = emit(b, KIR_IF, kj_t_none(b->ty));
    *then = kir_block_new(b->a, b->f);
    *els = kir_block_new(b->a, b->f);
    kir_at(b->f, r)->a = cond;
    kir_at(b->f, r)->blk[0] = *then;
    kir_at(b->f, r)->blk[1] = *els;
    return r;
}

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

typedef void (*body_fn)(kb *b, const ukernel *k, const kir_ref *idx);

/* The element's loop index: idx[d] for the loop dimensions of `shape_of`,
 * from the flat number i (row-major). Unsigned, and with no check of the
 * divisors: the loop runs only when no extent is 0. */
static void unravel(kb *b, const ukernel *k, kir_ref shape_of, kir_ref i, kir_ref *idx)
{
    const kj_type *u64 = kj_t_int(b->ty, 64, false);
    kir_ref rem = cast(b, i, u64);
    for (uint32_t d = k->loop_ndim; d-- > 1;) {
        kir_ref n = cast(b, dim(b, shape_of, d), u64);
        kir_ref q = binop(b, KIR_FLOORDIV, u64, rem, n);
        kir_ref r = binop(b, KIR_MOD, u64, rem, n);
        kir_at(b->f, q)->aux = kir_at(b->f, r)->aux = KIR_AUX_NONZERO;
        idx[d] = cast(b, r, i64t(b));
        rem = q;
    }
    idx[0] = cast(b, rem, i64t(b));
}

/* i = grid(1); while i < total: body(i); i += gridsize(1) */
static void grid_stride(kb *b, const ukernel *k, kir_ref total, kir_ref shape_of, bool flat, body_fn body)
{
    kir_ref one = konst(b, 1);
    kir_ref start = with_args(b, KIR_BUILTIN, i64t(b), &one, 1);
    kir_at(b->f, start)->aux = KJ_B_CUDA_GRID;
    kir_ref step = with_args(b, KIR_BUILTIN, i64t(b), &one, 1);
    kir_at(b->f, step)->aux = KJ_B_CUDA_GRIDSIZE;
    uint32_t il = kir_local_new(b->a, b->f, NULL, i64t(b));
    set_local(b, il, start);
    kir_ref loop = emit(b, KIR_LOOP, kj_t_none(b->ty));
    kir_blkid body_blk = kir_block_new(b->a, b->f), saved = b->cur;
    kir_at(b->f, loop)->blk[0] = body_blk;
    b->cur = body_blk;
    kir_ref i = get_local(b, il);
    kir_blkid then, els;
    emit_if(b, binop(b, KIR_GE, kj_t_bool(b->ty), i, total), &then, &els);
    b->cur = then;
    emit(b, KIR_BREAK, kj_t_none(b->ty));
    b->cur = body_blk;
    kir_ref idx[MAX_DIMS];
    if (flat) {
        for (uint32_t d = 0; d + 1 < k->loop_ndim; d++) idx[d] = konst(b, 0);
        idx[k->loop_ndim - 1] = i;
    } else {
        unravel(b, k, shape_of, i, idx);
    }
    body(b, k, idx);
    set_local(b, il, binop(b, KIR_ADD, i64t(b), i, step));
    b->cur = saved;
}

/* out[idx] = f(in0[idx], in1[idx], ...) */
static void vectorize_body(kb *b, const ukernel *k, const kir_ref *idx)
{
    kir_ref args[MAX_OPS];
    for (uint32_t j = 0; j < k->nin; j++) {
        kir_ref v = param(b, j);
        if (k->pt[j]->kind == KJ_T_ARRAY) v = load(b, v, k->pt[j]->elem, idx, k->loop_ndim);
        args[j] = cast(b, v, k->uf->params[j]);
    }
    kir_ref r = with_args(b, KIR_CALL, k->uf->ret, args, k->nin);
    kir_at(b->f, r)->fn = (kir_func *)(uintptr_t)k->uf;
    kir_ref out = param(b, k->nin);
    kir_ref v = cast(b, r, k->pt[k->nin]->elem);
    kir_ref st = with_args(b, KIR_ARRAY_STORE, kj_t_none(b->ty), idx, k->loop_ndim);
    kir_at(b->f, st)->a = out;
    kir_at(b->f, st)->b = v;
}

/* The core view of operand j at loop index idx: its core dimensions (a
 * `()` operand passed for an array parameter: the element as shape (1,)). */
static kir_ref core_view(kb *b, const ukernel *k, uint32_t j, const kir_ref *idx)
{
    const kj_type *at = k->pt[j];
    kir_ref arr = param(b, j), parts[MAX_DIMS];
    uint32_t n = k->loop_ndim, keep = k->ncore[j];
    for (uint32_t d = 0; d < n; d++) parts[d] = idx[d];
    if (!keep) { /* a[..., i:i+1] */
        kir_ref stop = binop(b, KIR_ADD, i64t(b), idx[n - 1], konst(b, 1));
        kir_ref s = emit(b, KIR_SLICE, kj_t_opaque(b->ty, "slice"));
        kir_at(b->f, s)->a = idx[n - 1];
        kir_at(b->f, s)->b = stop;
        parts[n - 1] = s;
        keep = 1;
    }
    kir_ref v = with_args(b, KIR_ARRAY_VIEW, kj_t_array(b->ty, at->elem, (int)keep, KJ_LAYOUT_A), parts, n);
    kir_at(b->f, v)->a = arr;
    return v;
}

/* g(views of this instance...) */
static void gufunc_body(kb *b, const ukernel *k, const kir_ref *idx)
{
    kir_ref args[MAX_OPS];
    for (uint32_t j = 0; j < k->nops; j++) {
        const kj_type *want = k->uf->params[j];
        if (want->kind == KJ_T_ARRAY) {
            args[j] = core_view(b, k, j, idx);
            if (b->f->insts[args[j]].type->layout != want->layout && want->layout != KJ_LAYOUT_A)
                args[j] = cast(b, args[j], want);
        } else if (k->pt[j]->kind == KJ_T_ARRAY) {
            args[j] = cast(b, load(b, param(b, j), k->pt[j]->elem, idx, k->loop_ndim), want);
        } else {
            args[j] = cast(b, param(b, j), want);
        }
    }
    kir_ref r = with_args(b, KIR_CALL, k->uf->ret, args, k->nops);
    kir_at(b->f, r)->fn = (kir_func *)(uintptr_t)k->uf;
}

/* The body: the grid-stride loop over the loop shape of the first output,
 * flat when every dimension but the last has extent 1. */
static void define(kb *b, const ukernel *k)
{
    body_fn body = k->gufunc ? gufunc_body : vectorize_body;
    kir_ref shape_of = param(b, k->nin);
    kir_ref total = konst(b, 1);
    for (uint32_t d = 0; d < k->loop_ndim; d++) total = binop(b, KIR_MUL, i64t(b), total, dim(b, shape_of, d));
    if (k->loop_ndim == 1) {
        grid_stride(b, k, total, shape_of, true, body);
        return;
    }
    kir_ref inner = dim(b, shape_of, k->loop_ndim - 1);
    kir_blkid then, els, saved = b->cur;
    emit_if(b, binop(b, KIR_EQ, kj_t_bool(b->ty), total, inner), &then, &els);
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
    for (uint32_t j = 0; j < m->nfuncs; j++)
        if (m->funcs[j]->applies && !strcmp(m->funcs[j]->mangled, name)) return m->funcs[j];
    kir_func *f = kir_func_new(a, m, k->uf->name, name, KIR_FN_KERNEL);
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
    f->target = "cuda";
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

static bool on_gpu(const kir_func *uf) { return !uf->target || !strcmp(uf->target, "cuda"); }

static void rewrite(kj_arena *a, kj_types *ty, kir_module *m, kir_func *f, kir_ref r)
{
    kir_inst *in = &f->insts[r];
    const kir_func *uf = in->fn;
    if (!uf || (uf->kind != KIR_FN_UFUNC && uf->kind != KIR_FN_GUFUNC) || !on_gpu(uf)) return;
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
