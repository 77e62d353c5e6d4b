/* SPDX-License-Identifier: BSD-2-Clause */
/* The shape work of @vectorize and @guvectorize calls in host code: NumPy's
 * broadcasting of the operands' loop dimensions, the binding of a gufunc's
 * core dimension symbols, the creation of the outputs and the strides the
 * generated loop walks with. The loop itself is generated code (see
 * src/codegen/llvm_ufunc.c), so that the scalar function inlines into it.
 * Messages are NumPy's, word for word. */
#include "rt_host.h"

#include "../abi/abi.h"
#include "../util/buf.h"
#include "array.h"
#include "gpu.h"

#include <stdio.h>
#include <string.h>

enum { MAX_OPS = 16, MAX_SYMS = 16 };

/* One operand as the runtime sees it. */
typedef struct operand {
    bool array, alloc;
    int ndim, ncore;
    const int32_t *syms; /* ncore symbol numbers */
    int64_t shape[KJ_ABI_MAX_DIMS], strides[KJ_ABI_MAX_DIMS];
    kj_dtype dt;
} operand;

typedef struct prep {
    kj_rt *rt;
    const char *name, *layout;
    const char *tree; /* a fused expression's tree (kir_fuse.c), or NULL */
    bool assign;      /* the tree is assigned into its output view (tree '=') */
    bool inplace;     /* the tree is an in-place operator on its output (tree '+') */
    int nops, nin, loop_ndim;
    operand op[MAX_OPS];
    int64_t sizes[MAX_SYMS]; /* bound core sizes, -1 while unknown */
    int32_t line, col;
} prep;

static _Noreturn void fail(prep *p, kj_buf *msg)
{
    kj_rt_error e = {.exc = "ValueError"};
    snprintf(e.message, sizeof e.message, "%.500s", msg->s ? msg->s : "");
    kj_buf_free(msg);
    kj_rt_raise_error(p->rt, &e, p->line, p->col);
}

static void put_shape(kj_buf *b, int n, const int64_t *shape)
{
    char s[256];
    kj_shape_str(s, sizeof s, n, shape);
    kj_buf_puts(b, s);
}

static int loop_dims(const operand *o) { return o->array && o->ndim > o->ncore ? o->ndim - o->ncore : 0; }

static bool is_output(const prep *p, int k) { return k >= p->nin; }

/* Core dimensions: each symbol has one size across the operands. */
static void bind_core(prep *p, int k)
{
    operand *o = &p->op[k];
    const char *what = is_output(p, k) ? "Output" : "Input";
    int idx = is_output(p, k) ? k - p->nin : k;
    if (o->ndim < o->ncore) {
        kj_buf b = {0};
        kj_buf_printf(&b, "%s: %s operand %d does not have enough dimensions (has %d, gufunc core with "
                      "signature %s requires %d)", p->name, what, idx, o->ndim, p->layout, o->ncore);
        fail(p, &b);
    }
    for (int c = 0; c < o->ncore; c++) {
        int64_t n = o->shape[o->ndim - o->ncore + c];
        int32_t s = o->syms[c];
        if (p->sizes[s] < 0) {
            p->sizes[s] = n;
        } else if (p->sizes[s] != n) {
            kj_buf b = {0};
            kj_buf_printf(&b, "%s: %s operand %d has a mismatch in its core dimension %d, with gufunc "
                          "signature %s (size %lld is different from %lld)", p->name, what, idx, c,
                          p->layout, (long long)n, (long long)p->sizes[s]);
            fail(p, &b);
        }
    }
}

/* "operands could not be broadcast together with shapes (3,) (4,) " —
 * with the remapped form for gufuncs. */
static _Noreturn void broadcast_error(prep *p)
{
    if (p->tree) {
        int32_t nd[MAX_OPS];
        int64_t shapes[MAX_OPS * KJ_ABI_MAX_DIMS];
        for (int k = 0; k < p->nin; k++) {
            nd[k] = p->op[k].array ? p->op[k].ndim : 0;
            memcpy(shapes + k * KJ_ABI_MAX_DIMS, p->op[k].shape, sizeof p->op[k].shape);
        }
        char msg[sizeof ((kj_rt_error *)0)->message];
        int32_t line = p->line, col = p->col;
        /* a += b failing at its own operator: NumPy names the output too */
        if (kj_rt_fused_broadcast_error(p->tree, p->nin, nd, shapes, msg, sizeof msg, &line, &col) &&
            !(p->inplace && line == p->line && col == p->col))
            kj_rt_raise(p->rt, KJ_RT_VALUE, msg, line, col);
    }
    kj_buf b = {0};
    kj_buf_puts(&b, p->layout ? "operands could not be broadcast together with remapped shapes "
                                "[original->remapped]: "
                              : "operands could not be broadcast together with shapes ");
    for (int k = 0; k < p->nops; k++) {
        const operand *o = &p->op[k];
        if (o->alloc || (!o->array && p->layout)) continue;
        put_shape(&b, o->ndim, o->shape); /* a scalar shows as () */
        if (p->layout) {
            kj_buf_puts(&b, "->(");
            int n = loop_dims(o);
            for (int d = 0; d < n + o->ncore; d++)
                d < n ? kj_buf_printf(&b, d ? ",%lld" : "%lld", (long long)o->shape[d])
                      : kj_buf_puts(&b, d ? ",newaxis" : "newaxis");
            kj_buf_putc(&b, ')');
        }
        kj_buf_putc(&b, ' ');
    }
    fail(p, &b);
}

/* The loop shape: the broadcast of every given operand's loop part. */
static void broadcast(prep *p, int64_t *shape)
{
    int nd = p->loop_ndim;
    for (int d = 0; d < nd; d++) shape[d] = 1;
    for (int k = 0; k < p->nops; k++) {
        const operand *o = &p->op[k];
        int n = loop_dims(o);
        if (!o->array || o->alloc) continue;
        if (n > nd) kj_rt_raise(p->rt, KJ_RT_RUNTIME, "ufunc operand with too many dimensions", p->line, p->col);
        for (int d = 0; d < n; d++) {
            int64_t x = o->shape[d], *y = &shape[nd - n + d];
            if (x == *y || x == 1) continue;
            if (*y != 1) broadcast_error(p);
            *y = x;
        }
    }
    /* Outputs are not broadcast: they must have the loop shape. */
    for (int k = p->nin; k < p->nops; k++) {
        const operand *o = &p->op[k];
        if (!o->array || o->alloc) continue;
        int n = loop_dims(o);
        if (n == nd && !memcmp(o->shape, shape, (size_t)nd * sizeof *shape)) continue;
        kj_buf b = {0};
        kj_buf_puts(&b, "non-broadcastable output operand with shape ");
        put_shape(&b, o->ndim, o->shape);
        kj_buf_puts(&b, " doesn't match the broadcast shape ");
        put_shape(&b, nd, shape);
        fail(p, &b);
    }
}

/* A new output: loop shape + its core sizes, zeroed, registered. */

static void create(prep *p, int k, void *desc, const int64_t *loop_shape)
{
    operand *o = &p->op[k];
    int64_t shape[KJ_ABI_MAX_DIMS];
    int n = o->ndim - o->ncore;
    memcpy(shape, loop_shape, (size_t)n * sizeof *shape);
    for (int c = 0; c < o->ncore; c++) {
        int64_t s = p->sizes[o->syms[c]];
        if (s < 0) {
            kj_buf b = {0};
            kj_buf_printf(&b, "%s: the size of core dimension %d of output operand %d is not determined "
                          "by the inputs (signature %s)", p->name, c, k - p->nin, p->layout);
            fail(p, &b);
        }
        shape[n + c] = s;
    }
    kj_rt_error err = {0};
    /* A @vectorize loop writes every element of its output: no zeroing
     * (NumPy's np.empty), which would also touch every page serially before
     * a parallel loop does. A gufunc's core may leave elements unwritten:
     * zeroed, as documented. */
    kj_array *a = NULL;
    if (p->layout) a = kj_array_zeros(o->dt, o->ndim, shape, &err);
    else if (p->rt->gpu) a = kj_gpu_host_array(p->rt->gpu, o->dt, o->ndim, shape); /* memory a result left */
    if (!a) a = kj_rt_spare_array(p->rt, o->dt, o->ndim, shape);
    if (!a) a = kj_array_empty(o->dt, o->ndim, shape, &err);
    kj_rt_result(p->rt, a, &err, desc, o->ndim, p->line, p->col);
    memcpy(o->shape, a->shape, sizeof o->shape);
    memcpy(o->strides, a->strides, sizeof o->strides);
}

/* `view[...] = tree` (kir_fuse.c): the inputs broadcast among themselves,
 * then into the view by the assignment's rule (kj_rt_assign) and with its
 * message. The view is the loop shape. */
static void assign_shape(prep *p, int64_t *shape)
{
    operand *t = &p->op[p->nin];
    t->alloc = true; /* not a broadcast operand */
    broadcast(p, shape);
    t->alloc = false;
    int nd = p->loop_ndim, rn = 0;
    for (int k = 0; k < p->nin; k++)
        if (p->op[k].array && p->op[k].ndim > rn) rn = p->op[k].ndim;
    for (int d = 0; d < nd; d++) {
        if (shape[d] == t->shape[d] || shape[d] == 1) continue;
        kj_buf b = {0};
        kj_buf_puts(&b, "could not broadcast input array from shape ");
        put_shape(&b, rn, shape + nd - rn);
        kj_buf_puts(&b, " into shape ");
        put_shape(&b, t->ndim, t->shape);
        fail(p, &b);
    }
    memcpy(shape, t->shape, (size_t)nd * sizeof *shape);
}

/* Must input `in` be read from a copy, given output `out`? When their
 * memory overlaps, as NumPy decides: `a[1:] = a[:-1] + 1`, `f(a, a[::-1],
 * out=a)`. The very same view is safe where each element is read before it
 * is written in its place (an elementwise loop), not where a gufunc's core
 * reads other elements of it (`rev(c, c)`). */
static bool must_copy(const prep *p, const operand *out, const operand *in, const kj_array *o, const kj_array *i)
{
    if (p->layout && (out->ncore || in->ncore)) return kj_array_overlaps(o, i);
    return kj_array_may_clobber(o, i);
}

/* An input an output overlaps is read from a copy, made before the loop
 * writes anything: ops[k] then describes the copy. With kernels on the GPU
 * the copy is made from a current host copy, and uploaded by the launch. */
static void copy_overlapping_inputs(prep *p, void *const *ops)
{
    for (int j = p->nin; j < p->nops; j++) {
        operand *t = &p->op[j];
        if (!t->array || t->alloc) continue;
        kj_array out, in;
        kj_rt_header(&out, ops[j], t->ndim, (int32_t)t->dt);
        for (int k = 0; k < p->nin; k++) {
            operand *o = &p->op[k];
            if (!o->array) continue;
            kj_rt_header(&in, ops[k], o->ndim, (int32_t)o->dt);
            if (!must_copy(p, t, o, &out, &in)) continue;
            if (p->rt->gpu) kj_rt_host_access(p->rt, in.base, 0, p->line, p->col);
            kj_rt_error err = {0};
            kj_array *c = kj_array_copy(&in, &err);
            kj_rt_result(p->rt, c, &err, ops[k], o->ndim, p->line, p->col);
            memcpy(o->strides, c->strides, sizeof o->strides);
        }
    }
}

/* Read the operands from their descriptors and the core specification. */
static void load(prep *p, void *const *ops, const int32_t *ndims, const int32_t *dtypes, const int32_t *core,
                 int32_t alloc)
{
    const int32_t *c = core;
    for (int k = 0; k < p->nops; k++) {
        operand *o = &p->op[k];
        o->array = ops[k] != NULL;
        o->alloc = o->array && (alloc >> k & 1);
        o->ndim = o->array ? ndims[k] : 0;
        o->dt = (kj_dtype)dtypes[k];
        o->ncore = c ? *c++ : 0;
        o->syms = c;
        if (c) c += o->ncore;
        if (!o->array || o->alloc) continue;
        const kj_abi_array *d = ops[k];
        for (int i = 0; i < o->ndim; i++) {
            o->shape[i] = kj_abi_array_shape(d, o->ndim, i);
            o->strides[i] = kj_abi_array_stride(d, o->ndim, i);
        }
    }
}

static bool c_contiguous(const operand *o, const int64_t *loop_shape, int loop_ndim)
{
    if (o->ndim != loop_ndim || o->ncore) return false;
    int64_t st = (int64_t)kj_dtype_size(o->dt);
    for (int d = o->ndim - 1; d >= 0; d--) {
        if (o->shape[d] != loop_shape[d]) return false;
        if (o->shape[d] != 1 && o->strides[d] != st) return false;
        st *= o->shape[d];
    }
    return true;
}

int32_t kj_rt_ufunc_prepare(kj_rt *rt, const char *name, const char *layout, int32_t nin, int32_t nops, void *const *ops,
                            const int32_t *ndims, const int32_t *dtypes, const int32_t *core, int32_t alloc,
                            int32_t loop_ndim, int64_t *loop_shape, int64_t *strides, int32_t line, int32_t col)
{
    /* a layout starting with '!' is a fused expression's tree, not a gufunc's */
    const char *tree = layout && layout[0] && strchr("!=+", layout[0]) ? layout + 1 : NULL;
    prep p = {.rt = rt, .name = name, .layout = tree ? NULL : layout, .tree = tree, .nops = nops,
              .loop_ndim = loop_ndim, .line = line, .col = col, .assign = tree && layout[0] == '=',
              .inplace = tree && layout[0] == '+'};
    if (nops > MAX_OPS) kj_rt_raise(rt, KJ_RT_RUNTIME, "too many ufunc operands", line, col);
    for (int s = 0; s < MAX_SYMS; s++) p.sizes[s] = -1;
    load(&p, ops, ndims, dtypes, core, alloc);
    p.nin = nin;
    for (int k = 0; k < nops; k++)
        if (p.op[k].array && !p.op[k].alloc) bind_core(&p, k);
    if (p.assign) assign_shape(&p, loop_shape);
    else broadcast(&p, loop_shape);
    copy_overlapping_inputs(&p, ops);
    bool contig = true;
    for (int k = 0; k < nops; k++) {
        operand *o = &p.op[k];
        if (o->alloc) create(&p, k, ops[k], loop_shape);
        int n = loop_dims(o);
        for (int d = 0; d < loop_ndim; d++) {
            int od = d - (loop_ndim - n);
            strides[k * loop_ndim + d] = od < 0 || o->shape[od] == 1 ? 0 : o->strides[od];
        }
        if (o->array && !c_contiguous(o, loop_shape, loop_ndim)) contig = false;
    }
    return contig;
}
