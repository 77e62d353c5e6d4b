/* SPDX-License-Identifier: BSD-2-Clause */
/* Attributes, creation and manipulation of builtins_npshape.h
 * (array_npshape.h), following NumPy's Python code for each (numpy/lib/
 * function_base.py, numeric.py, stride_tricks.py) so that results and
 * messages agree: operations over "the flattened array" read a C-ordered
 * copy (or a itself when it is C-contiguous); elements move as bytes. */
#include "array_npshape.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static kj_array *flat_of(kj_array *a, kj_rt_error *err)
{
    return kj_array_is_c_contiguous(a) ? kj_array_retain(a) : kj_array_copy(a, err);
}

static char *at(const kj_array *c, int64_t i) { return c->data + i * (int64_t)kj_array_itemsize(c); }

static kj_array *out_of_bounds(kj_rt_error *err, int64_t i, int axis, int64_t n)
{
    kj_rt_errorf(err, "IndexError", "index %lld is out of bounds for axis %d with size %lld", (long long)i, axis,
                 (long long)n);
    return NULL;
}

/* A view of a whose header the caller then rewrites. */
static kj_array *view_of(kj_array *a, kj_rt_error *err) { return kj_array_view(a, NULL, 0, err); }

static kj_array *part(kj_array *a, bool imag, kj_rt_error *err)
{
    if (a->dtype != KJ_DT_COMPLEX64 && a->dtype != KJ_DT_COMPLEX128)
        return kj_array_zeros(a->dtype, a->ndim, a->shape, err); /* only .imag comes here */
    kj_array *v = view_of(a, err);
    if (!v) return NULL;
    v->dtype = a->dtype == KJ_DT_COMPLEX64 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64;
    if (imag) v->data += kj_dtype_size(v->dtype);
    kj_array_update_flags(v);
    return v;
}

static kj_array *conjugate(kj_array *a, kj_rt_error *err)
{
    kj_array *r = kj_array_copy(a, err);
    if (!r || (a->dtype != KJ_DT_COMPLEX64 && a->dtype != KJ_DT_COMPLEX128)) return r;
    int64_t n = kj_array_size(r);
    for (int64_t i = 0; i < n; i++) {
        if (a->dtype == KJ_DT_COMPLEX64) {
            float *z = (float *)(void *)at(r, i);
            z[1] = -z[1];
        } else {
            double *z = (double *)(void *)at(r, i);
            z[1] = -z[1];
        }
    }
    return r;
}

static kj_array *asfortran(kj_array *a, kj_rt_error *err)
{
    kj_array *r = kj_array_empty(a->dtype, a->ndim, a->shape, err);
    if (!r) return NULL;
    int64_t s = (int64_t)kj_array_itemsize(a);
    for (int d = 0; d < r->ndim; d++) {
        r->strides[d] = s;
        s *= r->shape[d] ? r->shape[d] : 1;
    }
    kj_array_update_flags(r);
    if (!kj_array_assign(r, a, err)) {
        kj_array_release(r);
        return NULL;
    }
    return r;
}

/* np.diagflat: v flattened on diagonal k of an (n+|k|)-square zero matrix. */
static kj_array *diagflat(kj_array *a, int64_t k, kj_rt_error *err)
{
    kj_array *f = flat_of(a, err);
    if (!f) return NULL;
    int64_t s = kj_array_size(f), n = s + (k < 0 ? -k : k), shape[2] = {n, n};
    kj_array *r = kj_array_zeros(a->dtype, 2, shape, err);
    size_t w = kj_array_itemsize(a);
    for (int64_t i = 0; r && i < s; i++) {
        int64_t row = k >= 0 ? i : i - k, col = k >= 0 ? i + k : i;
        memcpy(at(r, row * n + col), at(f, i), w);
    }
    kj_array_release(f);
    return r;
}

/* np.logspace(start, stop, num): power(10.0, linspace(start, stop, num)). */
static kj_array *logspace(double start, double stop, int64_t num, kj_rt_error *err)
{
    kj_array *r = kj_array_linspace(start, stop, num, true, KJ_DT_FLOAT64, err);
    for (int64_t i = 0; r && i < num; i++) {
        double *y = (double *)(void *)at(r, i);
        *y = pow(10.0, *y);
    }
    return r;
}

/* np.geomspace for real endpoints: both negative ones mirrored, the log10
 * range's logspace with the endpoints set exactly, then the sign back. */
static kj_array *geomspace(double start, double stop, int64_t num, kj_rt_error *err)
{
    if (start == 0 || stop == 0) {
        kj_rt_errorf(err, "ValueError", "Geometric sequence cannot include zero");
        return NULL;
    }
    if (num < 0) {
        kj_rt_errorf(err, "ValueError", "Number of samples, %lld, must be non-negative.", (long long)num);
        return NULL;
    }
    double sign = 1.0;
    if (start < 0 && stop < 0) {
        start = -start, stop = -stop, sign = -1.0;
    }
    kj_array *r = logspace(log10(start), log10(stop), num, err);
    if (!r) return NULL;
    double *y = (double *)(void *)r->data;
    if (num > 0) y[0] = start;
    if (num > 1) y[num - 1] = stop;
    for (int64_t i = 0; i < num; i++) y[i] *= sign;
    return r;
}

static kj_array *indices(const int64_t *p, kj_rt_error *err)
{
    int n = (int)p[4];
    int64_t shape[KJ_MAX_DIMS] = {n};
    for (int d = 0; d < n; d++) {
        if (p[d] < 0) {
            kj_rt_errorf(err, "ValueError", "negative dimensions are not allowed");
            return NULL;
        }
        shape[d + 1] = p[d];
    }
    kj_array *r = kj_array_empty(KJ_DT_INT64, n + 1, shape, err);
    int64_t each = r ? kj_array_size(r) / (n ? n : 1) : 0;
    for (int k = 0; r && k < n; k++) {
        int64_t *o = (int64_t *)(void *)r->data + k * each, inner = 1;
        for (int d = k + 1; d < n; d++) inner *= p[d];
        for (int64_t i = 0; i < each; i++) o[i] = (i / inner) % p[k];
    }
    return r;
}

static kj_array *resize(kj_array *a, const int64_t *p, kj_rt_error *err)
{
    int n = (int)p[4];
    int64_t size = 1;
    for (int d = 0; d < n; d++) {
        if (p[d] < 0) {
            kj_rt_errorf(err, "ValueError", "all elements of `new_shape` must be non-negative");
            return NULL;
        }
        size *= p[d];
    }
    kj_array *f = flat_of(a, err);
    if (!f) return NULL;
    int64_t m = kj_array_size(f);
    kj_array *r = m == 0 || size == 0 ? kj_array_zeros(a->dtype, n, p, err) : kj_array_empty(a->dtype, n, p, err);
    size_t w = kj_array_itemsize(a);
    for (int64_t i = 0; r && m && i < size; i++) memcpy(at(r, i), at(f, i % m), w); /* a repeated, cut */
    kj_array_release(f);
    return r;
}

static int cmp_pos(const void *x, const void *y, const int64_t *key)
{
    int64_t i = *(const int64_t *)x, j = *(const int64_t *)y;
    return key[i] < key[j] ? -1 : key[i] > key[j] ? 1 : (i > j) - (i < j); /* stable: mergesort's order */
}

/* Positions 0..m of ix in ascending order of ix, ties in order (NumPy's
 * argsort(kind='mergesort')): an insertion sort, ix being short. */
static void argsort_stable(const int64_t *ix, int64_t m, int64_t *order)
{
    for (int64_t i = 0; i < m; i++) {
        int64_t j = i;
        order[j] = i;
        while (j > 0 && cmp_pos(&order[j - 1], &order[j], ix) > 0) {
            int64_t t = order[j - 1];
            order[j - 1] = order[j], order[j] = t;
            j--;
        }
    }
}

/* np.insert(a, obj, values) with axis=None: NumPy's two cases, one index
 * (values inserted as a block there) and several (each value at its index
 * of the original, ties in order). */
static kj_array *insert(kj_array *a, const kj_array *obj, kj_array *vals, kj_rt_error *err)
{
    kj_array *f = flat_of(a, err), *v = f ? kj_array_astype(vals, a->dtype, err) : NULL;
    int64_t n = f ? kj_array_size(f) : 0, m = obj->ndim ? obj->shape[0] : 1, nv = v ? kj_array_size(v) : 0;
    int64_t *ix = v ? malloc((size_t)(2 * m + 1) * sizeof *ix) : NULL, *order = ix ? ix + m : NULL;
    kj_array *r = NULL;
    if (!ix) goto done;
    for (int64_t k = 0; k < m; k++) {
        ix[k] = kj_elem_load(obj->data + k * (obj->ndim ? obj->strides[0] : 0), obj->dtype).v.i;
        if (ix[k] < -n || ix[k] > n) {
            out_of_bounds(err, ix[k], 0, n);
            goto done;
        }
        if (ix[k] < 0) ix[k] += n;
    }
    size_t w = kj_array_itemsize(a);
    if (m == 1) { /* a block of every value */
        int64_t len = n + nv;
        if (!(r = kj_array_empty(a->dtype, 1, &len, err))) goto done;
        memcpy(r->data, f->data, (size_t)ix[0] * w);
        memcpy(at(r, ix[0]), v->data, (size_t)nv * w);
        memcpy(at(r, ix[0] + nv), at(f, ix[0]), (size_t)(n - ix[0]) * w);
        goto done;
    }
    if (nv != 1 && nv != m) {
        kj_rt_errorf(err, "ValueError", "shape mismatch: value array of shape (%lld,) could not be broadcast to "
                     "indexing result of shape (%lld,)", (long long)nv, (long long)m);
        goto done;
    }
    argsort_stable(ix, m, order);
    for (int64_t k = 0; k < m; k++) ix[order[k]] += k;
    int64_t len = n + m;
    if (!(r = kj_array_empty(a->dtype, 1, &len, err))) goto done;
    unsigned char *taken = calloc((size_t)len, 1);
    for (int64_t k = 0; taken && k < m; k++) {
        memcpy(at(r, ix[k]), at(v, nv == 1 ? 0 : k), w); /* later duplicates win, as new[indices] = values */
        taken[ix[k]] = 1;
    }
    for (int64_t i = 0, j = 0; taken && i < len; i++)
        if (!taken[i]) memcpy(at(r, i), at(f, j++), w);
    free(taken);
done:
    free(ix);
    kj_array_release(f);
    kj_array_release(v);
    return r;
}

/* np.take_along_axis: out[..., i, ...] = a[..., ix[..., i, ...], ...], the
 * other axes broadcast between a and ix. */
static kj_array *take_along(kj_array *a, const kj_array *ix, int64_t axis, kj_rt_error *err)
{
    int nd = a->ndim;
    if (axis < 0) axis += nd;
    int64_t shape[KJ_MAX_DIMS];
    for (int d = 0; d < nd; d++) {
        int64_t x = a->shape[d], y = ix->shape[d];
        if (d == axis) shape[d] = y;
        else if (x == y || y == 1) shape[d] = x;
        else if (x == 1) shape[d] = y;
        else {
            kj_rt_errorf(err, "ValueError", "shape mismatch: indexing arrays could not be broadcast together");
            return NULL;
        }
    }
    kj_array *r = kj_array_empty(a->dtype, nd, shape, err);
    int64_t n = r ? kj_array_size(r) : 0, o[KJ_MAX_DIMS], si[KJ_MAX_DIMS], ii[KJ_MAX_DIMS];
    size_t w = kj_array_itemsize(a);
    for (int64_t f = 0; f < n; f++) {
        for (int64_t d = nd - 1, q = f; d >= 0; d--) o[d] = q % shape[d], q /= shape[d];
        for (int d = 0; d < nd; d++) ii[d] = ix->shape[d] == 1 ? 0 : o[d];
        for (int d = 0; d < nd; d++) si[d] = a->shape[d] == 1 ? 0 : o[d];
        int64_t k = kj_array_get_i64(ix, ii);
        if (k < -a->shape[axis] || k >= a->shape[axis]) {
            kj_array_release(r);
            return out_of_bounds(err, k, (int)axis, a->shape[axis]);
        }
        si[axis] = k < 0 ? k + a->shape[axis] : k;
        memcpy(at(r, f), kj_array_ptr(a, si), w);
    }
    return r;
}

static kj_array *as_strided(kj_array *a, const int64_t *p, kj_rt_error *err)
{
    kj_array *v = view_of(a, err);
    if (!v) return NULL;
    v->ndim = (int32_t)p[8];
    for (int d = 0; d < v->ndim; d++) v->shape[d] = p[d], v->strides[d] = p[4 + d];
    kj_array_update_flags(v);
    return v;
}

static kj_array *sliding(kj_array *a, const int64_t *p, kj_rt_error *err)
{
    int nw = (int)p[4], nd = a->ndim;
    int64_t ax[4], shape[KJ_MAX_DIMS], strides[KJ_MAX_DIMS];
    for (int k = 0; k < nw; k++) {
        ax[k] = p[9] ? p[5 + k] : k;
        if (ax[k] < -nd || ax[k] >= nd) {
            kj_rt_errorf(err, "AxisError", "axis %lld is out of bounds for array of dimension %d", (long long)ax[k],
                         nd);
            return NULL;
        }
        if (ax[k] < 0) ax[k] += nd;
        if (p[k] < 0) {
            kj_rt_errorf(err, "ValueError", "`window_shape` cannot contain negative values");
            return NULL;
        }
    }
    for (int d = 0; d < nd; d++) shape[d] = a->shape[d], strides[d] = a->strides[d];
    for (int k = 0; k < nw; k++) {
        if (shape[ax[k]] < p[k]) {
            kj_rt_errorf(err, "ValueError", "window shape cannot be larger than input array shape");
            return NULL;
        }
        shape[ax[k]] -= p[k] - 1;
        shape[nd + k] = p[k];
        strides[nd + k] = a->strides[ax[k]];
    }
    kj_array *v = view_of(a, err);
    if (!v) return NULL;
    v->ndim = nd + nw;
    for (int d = 0; d < v->ndim; d++) v->shape[d] = shape[d], v->strides[d] = strides[d];
    kj_array_update_flags(v);
    return v;
}

bool kj_array_contains(const kj_array *a, double x)
{
    int64_t n = kj_array_size(a), idx[KJ_MAX_DIMS];
    for (int64_t f = 0; f < n; f++) {
        for (int64_t d = a->ndim - 1, q = f; d >= 0; d--) idx[d] = q % a->shape[d], q /= a->shape[d];
        if (kj_array_get_f64(a, idx) == x) return true;
    }
    return false;
}

static void shape_text(char *buf, size_t cap, const int64_t *s)
{
    kj_shape_str(buf, cap, (int)s[0], s + 1);
}

bool kj_npshape_bshapes(const int64_t *p, int64_t *out, int nout, kj_rt_error *err)
{
    for (int d = 0; d < nout; d++) out[d] = 1;
    int first[8] = {0};
    for (int64_t j = 0; j < p[0]; j++) {
        const int64_t *s = p + 1 + 5 * j;
        for (int64_t k = 0; k < s[0]; k++) {
            int d = nout - (int)s[0] + (int)k;
            int64_t x = s[1 + k];
            if (x < 0) return kj_rt_errorf(err, "ValueError", "negative dimensions are not allowed"), false;
            if (x == out[d] || x == 1) continue;
            if (out[d] != 1) {
                char sa[96], sb[96];
                shape_text(sa, sizeof sa, p + 1 + 5 * first[d]);
                shape_text(sb, sizeof sb, s);
                kj_rt_errorf(err, "ValueError", "shape mismatch: objects cannot be broadcast to a single shape.  "
                             "Mismatch is between arg %d with shape %s and arg %lld with shape %s.", first[d], sa,
                             (long long)j, sb);
                return false;
            }
            out[d] = x;
            first[d] = (int)j;
        }
    }
    return true;
}

kj_array *kj_array_npshape(kj_npshape_op op, kj_array *a, const kj_array *b, const kj_array *c, const int64_t *p,
                           const double *f, kj_rt_error *err)
{
    switch (op) {
    case KJ_NPS_PART: return part(a, p[0] != 0, err);
    case KJ_NPS_CONJ: return conjugate(a, err);
    case KJ_NPS_ASFORTRAN: return asfortran(a, err);
    case KJ_NPS_DIAGFLAT: return diagflat(a, p[0], err);
    case KJ_NPS_GEOMSPACE: return geomspace(f[0], f[1], p[0], err);
    case KJ_NPS_LOGSPACE:
        if (p[0] < 0) {
            kj_rt_errorf(err, "ValueError", "Number of samples, %lld, must be non-negative.", (long long)p[0]);
            return NULL;
        }
        return logspace(f[0], f[1], p[0], err);
    case KJ_NPS_INDICES: return indices(p, err);
    case KJ_NPS_RESIZE: return resize(a, p, err);
    case KJ_NPS_INSERT: return insert(a, b, (kj_array *)c, err);
    case KJ_NPS_TAKE_ALONG: return take_along(a, b, p[0], err);
    case KJ_NPS_AS_STRIDED: return as_strided(a, p, err);
    case KJ_NPS_SLIDING: return sliding(a, p, err);
    default: break;
    }
    kj_rt_errorf(err, "SystemError", "internal error: operation %d unknown", (int)op);
    return NULL;
}
