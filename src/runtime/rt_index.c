/* SPDX-License-Identifier: BSD-2-Clause */
/* Indexing host arrays with arrays, as NumPy's advanced indexing does.
 *
 * Generated code hands over a view of the array (the subscript's slices
 * already applied, every other axis whole) and, per axis, what indexes it:
 * nothing, a scalar integer, an integer array, or a boolean mask covering
 * that axis and the next ones. The plan below is NumPy's: masks become the
 * integer arrays of their true coordinates (np.nonzero), all index arrays
 * and scalars broadcast together to a shape B, and the result is B followed
 * by the axes taken whole, unless the indexed axes are adjacent: then B
 * takes their place (a[:, idx] has shape (n, len(idx))).
 *
 * a[mask] alone with a mask of the array's shape keeps NumPy's own boolean
 * path (the selected elements in C order; an assignment takes one value or
 * exactly one per selected element; a value that overlaps the array is
 * read as NumPy 1.24's copies of runs of true elements read it, see
 * mask_set). Otherwise writes go in C order of the indexing result, the
 * last of repeated indices winning, and read a value that overlaps the
 * array as they go, as NumPy's loops do. Messages are NumPy 2's. */
#include "rt_host.h"

#include "array.h"

#include <stdio.h>
#include <string.h>

enum { MAXD = 4 }; /* as generated code's arrays (KJ_ABI_MAX_DIMS) */

/* The byte offset of element `flat` (C order) of x. */
static int64_t offset_of(const kj_array *x, int64_t flat)
{
    int64_t off = 0;
    for (int d = x->ndim - 1; d >= 0; d--) {
        int64_t n = x->shape[d];
        off += (flat % n) * x->strides[d];
        flat /= n;
    }
    return off;
}

/* The byte offset of v's element that meets element `flat` of an array of
 * shape (nd, shape) when v broadcasts to it (aligned right, stride 0 where
 * v's extent is 1; v may have more leading dimensions, all of extent 1). */
static int64_t bcast_offset(const kj_array *v, int nd, const int64_t *shape, int64_t flat)
{
    int64_t off = 0;
    for (int d = nd - 1; d >= 0; d--) {
        int64_t i = flat % shape[d];
        flat /= shape[d];
        int vd = d - (nd - v->ndim);
        if (vd >= 0 && v->shape[vd] != 1) off += i * v->strides[vd];
    }
    return off;
}

static void copy_elem(char *dst, kj_dtype ddt, const char *src, kj_dtype sdt)
{
    if (ddt == sdt) memcpy(dst, src, kj_dtype_size(ddt));
    else kj_elem_store(dst, ddt, kj_elem_load(src, sdt));
}

/* A result: memory a large array the run dropped left behind when it is of
 * this size (kj_rt_spare_array: `a[idx] += 1` in a loop gathers into the
 * same memory each time instead of faulting fresh pages in), else new. */
static kj_array *new_array(kj_rt *rt, kj_dtype dt, int nd, const int64_t *shape, int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    kj_array *o = kj_rt_spare_array(rt, dt, nd, shape);
    if (!o) o = kj_array_empty(dt, nd, shape, &err);
    if (!o) kj_rt_raise_error(rt, &err, line, col);
    kj_rt_own(rt, o);
    return o;
}

/* ---- a[mask] with a mask of a's shape ---- */

static _Noreturn void mask_shape_error(kj_rt *rt, int axis, int64_t size, int64_t msize, int32_t line, int32_t col)
{
    char msg[200];
    snprintf(msg, sizeof msg,
             "boolean index did not match indexed array along axis %d; size of axis is %lld but size of "
             "corresponding boolean axis is %lld",
             axis, (long long)size, (long long)msize);
    kj_rt_raise(rt, KJ_RT_INDEX, msg, line, col);
}

/* The mask (at axis `axis` of a) must match a's extents there; returns
 * how many are true. */
static int64_t mask_count(kj_rt *rt, const kj_array *a, int axis, const kj_array *m, int32_t line, int32_t col)
{
    for (int d = 0; d < m->ndim; d++)
        if (m->shape[d] != a->shape[axis + d]) mask_shape_error(rt, axis + d, a->shape[axis + d], m->shape[d], line, col);
    int64_t n = kj_array_size(m), c = 0;
    if (kj_array_is_c_contiguous(m))
        for (int64_t i = 0; i < n; i++) c += m->data[i] != 0;
    else
        for (int64_t i = 0; i < n; i++) c += m->data[offset_of(m, i)] != 0;
    return c;
}

static kj_array *mask_get(kj_rt *rt, const kj_array *a, const kj_array *m, int32_t line, int32_t col)
{
    size_t isz = kj_dtype_size(a->dtype);
    int64_t n = mask_count(rt, a, 0, m, line, col), k = 0, size = kj_array_size(a);
    kj_array *o = new_array(rt, a->dtype, 1, &n, line, col);
    if (kj_array_is_c_contiguous(a) && kj_array_is_c_contiguous(m)) { /* the common case, without divisions */
        for (int64_t i = 0; i < size && k < n; i++)
            if (m->data[i]) memcpy(o->data + isz * (size_t)k++, a->data + isz * (size_t)i, isz);
        return o;
    }
    for (int64_t i = 0; i < size && k < n; i++)
        if (m->data[offset_of(m, i)]) memcpy(o->data + isz * (size_t)k++, a->data + offset_of(a, i), isz);
    return o;
}

/* The length of the inner loop NumPy's iterator walks a and its mask m
 * with (C order): the trailing dimensions both can merge into one, those
 * of length 1 skipped. */
static int64_t inner_length(const kj_array *a, const kj_array *m)
{
    const kj_array *ops[2] = {a, m};
    int64_t len = 1, next[2] = {0, 0};
    bool started = false;
    for (int d = a->ndim - 1; d >= 0; d--) {
        int64_t n = a->shape[d];
        if (n == 1) continue;
        for (int k = 0; k < 2 && started; k++)
            if (ops[k]->strides[d] != next[k]) return len;
        for (int k = 0; k < 2; k++) next[k] = ops[k]->strides[d] * n;
        started = true;
        len *= n;
    }
    return len;
}

/* a's byte stride along that inner loop (0 when it has one element). */
static int64_t inner_stride(const kj_array *a)
{
    for (int d = a->ndim - 1; d >= 0; d--)
        if (a->shape[d] != 1) return a->strides[d];
    return 0;
}

/* a[mask] = v, as NumPy 1.24's boolean path does it, which a value that
 * overlaps `a` shows (a[np.arange(8) >= 2] = a[:6] is [0 1 0 1 2 3 4 5]):
 * each run of true elements within one inner loop of the iterator is one
 * copy, a memmove when both sides are contiguous with one dtype, else
 * element by element in order, reading the value as the writes go. */
static void mask_set(kj_rt *rt, const kj_array *a, const kj_array *m, const kj_array *v, int32_t line, int32_t col)
{
    int64_t n = mask_count(rt, a, 0, m, line, col), nv = kj_array_size(v), size = kj_array_size(a), k = 0;
    if (nv != 1 && nv != n) {
        char msg[200];
        snprintf(msg, sizeof msg,
                 "NumPy boolean array indexing assignment cannot assign %lld input values to the %lld output "
                 "values where the mask is true",
                 (long long)nv, (long long)n);
        kj_rt_raise(rt, KJ_RT_VALUE, msg, line, col);
    }
    size_t isz = kj_dtype_size(a->dtype);
    int64_t inner = inner_length(a, m);
    bool block = v->dtype == a->dtype && nv > 1 && kj_array_is_c_contiguous(v) && inner_stride(a) == (int64_t)isz;
    for (int64_t i = 0; i < size;) {
        if (!m->data[offset_of(m, i)]) {
            i++;
            continue;
        }
        int64_t end = (i / inner + 1) * inner, j = i + 1;
        while (j < end && m->data[offset_of(m, j)]) j++;
        if (block) {
            memmove(a->data + offset_of(a, i), v->data + offset_of(v, k), (size_t)(j - i) * isz);
            k += j - i;
            i = j;
            continue;
        }
        for (; i < j; i++, k++) {
            const char *src = v->data + (nv == 1 ? offset_of(v, 0) : offset_of(v, k));
            copy_elem(a->data + offset_of(a, i), a->dtype, src, v->dtype);
        }
    }
}

/* ---- the general plan ---- */

typedef struct plan {
    kj_array a;           /* the (viewed) array */
    int nsub;             /* integer indices after masks are expanded (0-d for scalars) */
    kj_array sub[MAXD];
    int axis[MAXD];       /* the axis of a each indexes */
    int bnd;              /* their broadcast shape B */
    int64_t bshape[MAXD];
    int nd;               /* the result: B and the axes of a taken whole */
    int64_t shape[MAXD];
    int64_t src_stride[MAXD]; /* per result axis: a's byte stride (0 on B's axes) */
    int64_t b_stride[MAXD];   /* per result axis: its C stride within B (0 elsewhere) */
    int32_t line, col;
} plan;

/* The true coordinates of mask m (at axis `axis` of a) become m->ndim
 * int64 index arrays. */
static void expand_mask(kj_rt *rt, plan *p, const kj_array *m, int axis)
{
    int64_t n = mask_count(rt, &p->a, axis, m, p->line, p->col), size = kj_array_size(m), k = 0;
    int64_t *coord[MAXD];
    for (int d = 0; d < m->ndim; d++) {
        kj_array *c = new_array(rt, KJ_DT_INT64, 1, &n, p->line, p->col);
        coord[d] = (int64_t *)c->data;
        p->axis[p->nsub] = axis + d;
        memcpy(&p->sub[p->nsub++], c, sizeof *c);
    }
    for (int64_t i = 0; i < size && k < n; i++) {
        if (!m->data[offset_of(m, i)]) continue;
        for (int64_t d = m->ndim - 1, f = i; d >= 0; d--) {
            coord[d][k] = f % m->shape[d];
            f /= m->shape[d];
        }
        k++;
    }
}

static void broadcast_indices(kj_rt *rt, plan *p)
{
    p->bnd = 0;
    for (int j = 0; j < p->nsub; j++) p->bnd = p->sub[j].ndim > p->bnd ? p->sub[j].ndim : p->bnd;
    for (int d = 0; d < p->bnd; d++) {
        int64_t size = 1;
        for (int j = 0; j < p->nsub; j++) {
            const kj_array *s = &p->sub[j];
            int sd = d - (p->bnd - s->ndim);
            if (sd < 0 || s->shape[sd] == 1) continue;
            if (size != 1 && size != s->shape[sd]) {
                /* NumPy names the index arrays' shapes, not the scalars' */
                char msg[512], one[64];
                size_t len = (size_t)snprintf(msg, sizeof msg, "shape mismatch: indexing arrays could not be "
                                                               "broadcast together with shapes ");
                for (int k = 0; k < p->nsub && len < sizeof msg; k++) {
                    if (!p->sub[k].ndim) continue;
                    kj_shape_str(one, sizeof one, p->sub[k].ndim, p->sub[k].shape);
                    len += (size_t)snprintf(msg + len, sizeof msg - len, "%s ", one);
                }
                kj_rt_raise(rt, KJ_RT_INDEX, msg, p->line, p->col);
            }
            size = s->shape[sd];
        }
        p->bshape[d] = size;
    }
}

/* Every index in range (NumPy's IndexError names the index as written). */
static void check_bounds(kj_rt *rt, const plan *p)
{
    for (int j = 0; j < p->nsub; j++) {
        const kj_array *s = &p->sub[j];
        int64_t n = kj_array_size(s), size = p->a.shape[p->axis[j]];
        bool is_signed = kj_dtype_is_signed(s->dtype);
        for (int64_t i = 0; i < n; i++) {
            int64_t x = kj_elem_load(s->data + offset_of(s, i), s->dtype).v.i;
            if (!is_signed && (x < 0 || x >= size)) /* a uint64 of 2**63 or more is negative here */
                kj_rt_raise_index_unsigned(rt, x, p->axis[j], size, p->line, p->col);
            if (x < -size || x >= size) kj_rt_raise_index(rt, x, p->axis[j], size, p->line, p->col);
        }
    }
}

/* The result's axes: B where the indexed axes are (when they are adjacent)
 * or first, then the axes taken whole. */
static void result_shape(plan *p, const bool *indexed)
{
    int first = -1, last = -1, nidx = 0;
    for (int d = 0; d < p->a.ndim; d++)
        if (indexed[d]) {
            if (first < 0) first = d;
            last = d;
            nidx++;
        }
    bool adjacent = last - first + 1 == nidx;
    int64_t bst = 1;
    int nd = 0, bpos = 0;
    for (int d = 0; d < p->a.ndim; d++)
        if (!indexed[d] && adjacent && d < first) bpos++;
    for (int d = 0; d < p->a.ndim; d++) {
        if (nd == bpos) nd += p->bnd;
        if (indexed[d]) continue;
        p->shape[nd] = p->a.shape[d];
        p->src_stride[nd] = p->a.strides[d];
        p->b_stride[nd++] = 0;
    }
    if (nd == bpos) nd += p->bnd;
    for (int k = p->bnd - 1; k >= 0; k--) {
        p->shape[bpos + k] = p->bshape[k];
        p->src_stride[bpos + k] = 0;
        p->b_stride[bpos + k] = bst;
        bst *= p->bshape[k];
    }
    p->nd = nd;
}

/* The plan of a[ix...]: masks expanded, shapes checked (the index arrays
 * broadcast; the bounds are checked by the caller, after the value's shape,
 * as NumPy does). */
static void make_plan(kj_rt *rt, plan *p, const void *a, int32_t andim, int32_t adt, const void *const *ix,
                      const int32_t *ixndim, const int32_t *ixdt)
{
    kj_rt_header(&p->a, a, andim, adt);
    bool indexed[MAXD] = {false};
    p->nsub = 0;
    for (int d = 0; d < andim; d++) {
        if (!ix[d]) continue;
        kj_array h;
        kj_rt_header(&h, ix[d], ixndim[d], ixdt[d]);
        int w = h.dtype == KJ_DT_BOOL ? h.ndim : 1;
        for (int k = 0; k < w; k++) indexed[d + k] = true;
        if (h.dtype == KJ_DT_BOOL) {
            expand_mask(rt, p, &h, d);
        } else {
            p->axis[p->nsub] = d;
            memcpy(&p->sub[p->nsub++], &h, sizeof h);
        }
    }
    broadcast_indices(rt, p);
    result_shape(p, indexed);
}

/* Byte offsets into a of every position of B: the sum over the index
 * arrays of index (wrapped) times the stride of its axis. An array the
 * caller releases (as large as the indices: not left to the scope's end);
 * nothing may raise between this and the release. */
static kj_array *b_offsets(kj_rt *rt, const plan *p)
{
    int64_t nb = 1;
    for (int d = 0; d < p->bnd; d++) nb *= p->bshape[d];
    kj_rt_error err = {0};
    kj_array *o = kj_array_empty(KJ_DT_INT64, 1, &nb, &err);
    if (!o) kj_rt_raise_error(rt, &err, p->line, p->col);
    int64_t *boff = (int64_t *)o->data;
    for (int64_t b = 0; b < nb; b++) {
        int64_t off = 0;
        for (int j = 0; j < p->nsub; j++) {
            const kj_array *s = &p->sub[j];
            int64_t size = p->a.shape[p->axis[j]];
            int64_t x = kj_elem_load(s->data + bcast_offset(s, p->bnd, p->bshape, b), s->dtype).v.i;
            off += (x < 0 ? x + size : x) * p->a.strides[p->axis[j]];
        }
        boff[b] = off;
    }
    return o;
}

/* The positions (a's byte offset, B's index, the value's byte offset) of
 * result element (outer, 0): `outer` counts over every result axis but the
 * last. */
static void positions(const plan *p, const int64_t *vstride, int64_t outer, int64_t pos[3])
{
    pos[0] = pos[1] = pos[2] = 0;
    for (int d = p->nd - 2; d >= 0; d--) {
        int64_t i = outer % p->shape[d];
        outer /= p->shape[d];
        pos[0] += i * p->src_stride[d];
        pos[1] += i * p->b_stride[d];
        pos[2] += i * vstride[d];
    }
}

static int64_t count(int nd, const int64_t *shape)
{
    int64_t n = 1;
    for (int d = 0; d < nd; d++) n *= shape[d];
    return n;
}

/* The inner loops of a gather, for an item size the caller makes a
 * constant (each is inlined per size: a move per item, not a call). */
static inline void gather_strided(char *dst, const char *src, int64_t stride, int64_t n, size_t isz)
{
    for (int64_t t = 0; t < n; t++) memcpy(dst + (size_t)t * isz, src + t * stride, isz);
}

static inline void gather_offsets(char *dst, const char *base, const int64_t *off, int64_t ostride, int64_t n,
                                  size_t isz)
{
    for (int64_t t = 0; t < n; t++) memcpy(dst + (size_t)t * isz, base + off[t * ostride], isz);
}

/* n items into dst: from src with a byte stride (ostride 0), or from base
 * plus every ostride-th offset of off. */
static void gather(char *dst, const char *src, int64_t stride, const int64_t *off, int64_t ostride, int64_t n,
                   size_t isz)
{
    if (!ostride && stride == (int64_t)isz) {
        memcpy(dst, src, (size_t)n * isz);
        return;
    }
    switch (isz) {
    case 1: ostride ? gather_offsets(dst, src, off, ostride, n, 1) : gather_strided(dst, src, stride, n, 1); break;
    case 2: ostride ? gather_offsets(dst, src, off, ostride, n, 2) : gather_strided(dst, src, stride, n, 2); break;
    case 4: ostride ? gather_offsets(dst, src, off, ostride, n, 4) : gather_strided(dst, src, stride, n, 4); break;
    case 16: /* complex128 */
        ostride ? gather_offsets(dst, src, off, ostride, n, 16) : gather_strided(dst, src, stride, n, 16);
        break;
    default: ostride ? gather_offsets(dst, src, off, ostride, n, 8) : gather_strided(dst, src, stride, n, 8); break;
    }
}

static kj_array *plan_get(kj_rt *rt, const plan *p)
{
    check_bounds(rt, p);
    kj_array *o = new_array(rt, p->a.dtype, p->nd, p->shape, p->line, p->col);
    kj_array *offsets = b_offsets(rt, p);
    const int64_t *boff = (const int64_t *)offsets->data;
    size_t isz = kj_dtype_size(p->a.dtype);
    int last = p->nd - 1;
    int64_t inner = p->shape[last], outer = count(last, p->shape), zero[MAXD] = {0};
    for (int64_t k = 0; k < outer && inner; k++) {
        int64_t pos[3];
        positions(p, zero, k, pos);
        char *dst = o->data + (size_t)(k * inner) * isz;
        /* the last axis is one of B's (its offsets vary) or taken whole (a stride) */
        if (p->b_stride[last]) gather(dst, p->a.data + pos[0], 0, boff + pos[1], p->b_stride[last], inner, isz);
        else gather(dst, p->a.data + pos[0] + boff[pos[1]], p->src_stride[last], NULL, 0, inner, isz);
    }
    kj_array_release(offsets);
    return o;
}

/* v's byte strides over the result's axes, broadcast; raises NumPy's
 * ValueError when v's shape does not broadcast to the result's. */
static void value_strides(kj_rt *rt, const plan *p, const kj_array *v, int64_t *vstride)
{
    bool fits = true;
    for (int d = 0; d < v->ndim && fits; d++) {
        int rd = d - (v->ndim - p->nd);
        fits = rd >= 0 ? v->shape[d] == 1 || v->shape[d] == p->shape[rd] : v->shape[d] == 1;
    }
    if (!fits) {
        char s1[200], s2[200], msg[512];
        kj_shape_str(s1, sizeof s1, v->ndim, v->shape);
        kj_shape_str(s2, sizeof s2, p->nd, p->shape);
        snprintf(msg, sizeof msg,
                 "shape mismatch: value array of shape %s could not be broadcast to indexing result of shape %s",
                 s1, s2);
        kj_rt_raise(rt, KJ_RT_VALUE, msg, p->line, p->col);
    }
    for (int rd = 0; rd < p->nd; rd++) {
        int d = rd - (p->nd - v->ndim);
        vstride[rd] = d >= 0 && v->shape[d] != 1 ? v->strides[d] : 0;
    }
}

/* The inner loop of a scatter of items of one dtype: dst item t is at
 * base + t * stride + off[t * ostride], from src + t * vstride; in order,
 * so that the last of repeated indices wins. */
static inline void scatter_n(char *base, int64_t stride, const int64_t *off, int64_t ostride, const char *src,
                             int64_t vstride, int64_t n, size_t isz)
{
    for (int64_t t = 0; t < n; t++) memcpy(base + t * stride + off[t * ostride], src + t * vstride, isz);
}

static void scatter(char *base, int64_t stride, const int64_t *off, int64_t ostride, const char *src,
                    int64_t vstride, int64_t n, size_t isz)
{
    static const int64_t zero = 0;
    if (!ostride) { /* the index arrays' offset is the same for the whole run (a[idx, 1:] = v) */
        base += off[0];
        if (stride == (int64_t)isz && vstride == (int64_t)isz) {
            memmove(base, src, (size_t)n * isz);
            return;
        }
        off = &zero;
    }
    switch (isz) { /* a constant size per case: a move per item, not a call */
    case 1: scatter_n(base, stride, off, ostride, src, vstride, n, 1); break;
    case 2: scatter_n(base, stride, off, ostride, src, vstride, n, 2); break;
    case 4: scatter_n(base, stride, off, ostride, src, vstride, n, 4); break;
    case 16: scatter_n(base, stride, off, ostride, src, vstride, n, 16); break; /* complex128 */
    default: scatter_n(base, stride, off, ostride, src, vstride, n, 8); break;
    }
}

static void plan_set(kj_rt *rt, const plan *p, const kj_array *v)
{
    int64_t vstride[MAXD];
    value_strides(rt, p, v, vstride);
    check_bounds(rt, p);
    kj_array *offsets = b_offsets(rt, p);
    const int64_t *boff = (const int64_t *)offsets->data;
    int last = p->nd - 1;
    int64_t inner = p->shape[last], outer = count(last, p->shape);
    size_t isz = kj_dtype_size(p->a.dtype);
    for (int64_t k = 0; k < outer && inner; k++) {
        int64_t pos[3];
        positions(p, vstride, k, pos);
        char *base = p->a.data + pos[0];
        const char *src = v->data + pos[2];
        if (v->dtype == p->a.dtype) {
            scatter(base, p->src_stride[last], boff + pos[1], p->b_stride[last], src, vstride[last], inner, isz);
            continue;
        }
        for (int64_t t = 0; t < inner; t++) {
            char *dst = base + t * p->src_stride[last] + boff[pos[1] + t * p->b_stride[last]];
            copy_elem(dst, p->a.dtype, src + t * vstride[last], v->dtype);
        }
    }
    kj_array_release(offsets);
}

/* a[mask] alone, the mask of a's shape (NumPy's boolean path)? */
static bool full_mask(int32_t andim, const void *const *ix, const int32_t *ixndim, const int32_t *ixdt)
{
    return ix[0] && ixdt[0] == KJ_DT_BOOL && ixndim[0] == andim;
}

void kj_rt_index_get(kj_rt *rt, const void *a, int32_t andim, int32_t adt, const void *const *ix,
                     const int32_t *ixndim, const int32_t *ixdt, void *out, int32_t ondim, int32_t line,
                     int32_t col)
{
    kj_array *o;
    if (full_mask(andim, ix, ixndim, ixdt)) {
        kj_array ha, hm;
        kj_rt_header(&ha, a, andim, adt);
        kj_rt_header(&hm, ix[0], ixndim[0], ixdt[0]);
        o = mask_get(rt, &ha, &hm, line, col);
    } else {
        plan p = {.line = line, .col = col};
        make_plan(rt, &p, a, andim, adt, ix, ixndim, ixdt);
        o = plan_get(rt, &p);
    }
    kj_rt_describe(out, o, ondim);
}

void kj_rt_index_set(kj_rt *rt, const void *a, int32_t andim, int32_t adt, const void *const *ix,
                     const int32_t *ixndim, const int32_t *ixdt, const void *v, int32_t vndim, int32_t vdt,
                     int32_t line, int32_t col)
{
    kj_array hv;
    kj_rt_header(&hv, v, vndim, vdt);
    if (full_mask(andim, ix, ixndim, ixdt)) {
        kj_array ha, hm;
        kj_rt_header(&ha, a, andim, adt);
        kj_rt_header(&hm, ix[0], ixndim[0], ixdt[0]);
        mask_set(rt, &ha, &hm, &hv, line, col);
        return;
    }
    plan p = {.line = line, .col = col};
    make_plan(rt, &p, a, andim, adt, ix, ixndim, ixdt);
    plan_set(rt, &p, &hv);
}
