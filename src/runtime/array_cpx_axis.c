/* SPDX-License-Identifier: BSD-2-Clause */
/* Complex arrays: np.sum/prod/mean along an axis, np.var/np.std (whole and
 * along an axis) and np.cumsum/cumprod along an axis, as NumPy 1.24
 * computes them (numpy/core/_methods.py over the complex loops):
 *
 * - a sum along an axis adds each result's elements pairwise per chunk of
 *   8192 when NumPy's inner loop runs along the axis (kj_reduce_along),
 *   else one at a time from 0 (array_reduce_axis.c says why);
 * - the mean of an axis divides those sums by the count with the complex
 *   divide loop of the array's own type (Smith's algorithm; the result is
 *   an array, so no complex128 scalar division as for the whole array);
 * - var/std (_var): the mean (kept as an array, so divided in the array's
 *   type), x = a - mean, |x|**2 as re*re + im*im in the part type (two
 *   multiplies and an add: NumPy's fast path for complex), the real sum of
 *   x (array_reduce_axis.c / the whole-array sum), divided by
 *   max(n - ddof, 0), std its square root; the result is real.
 * complex64 computes in float, as NumPy's complex64 loops. */
#include "array_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK = 8192 };

/* NumPy's complex divide loop for a divisor (d, 0): Smith's algorithm in T. */
#define CPX_DIV_REAL(T, r, i, d)                                                                       \
    do {                                                                                               \
        T rat_ = (T)0 / (T)(d), scl_ = (T)1 / ((T)(d) + (T)0 * rat_);                                  \
        T nr_ = ((r) + (i) * rat_) * scl_, ni_ = ((i) - (r) * rat_) * scl_;                           \
        (r) = nr_, (i) = ni_;                                                                          \
    } while (0)

/* One result of a reduction: n elements `st` bytes apart from p, summed
 * (pairwise when `along`) or multiplied, its parts in re/im (float values
 * held exactly in double for complex64). */
static void fold(const char *p, int64_t n, int64_t st, bool f32, bool prod, bool along, double *re, double *im)
{
    float fr = prod ? 1 : 0, fi = 0;
    double dr = prod ? 1 : 0, di = 0;
    for (int64_t k = 0; k < n;) {
        if (!prod && along) {
            int64_t m = n - k < CHUNK ? n - k : CHUNK;
            double r, i;
            kj_cpx_pairwise(p + k * st, m, st, f32, &r, &i);
            if (f32) fr += (float)r, fi += (float)i;
            else dr += r, di += i;
            k += m;
            continue;
        }
        if (f32) {
            const float *e = (const float *)(const void *)(p + k * st);
            float r = prod ? fr * e[0] - fi * e[1] : fr + e[0], i = prod ? fr * e[1] + fi * e[0] : fi + e[1];
            fr = r, fi = i;
        } else {
            const double *e = (const double *)(const void *)(p + k * st);
            double r = prod ? dr * e[0] - di * e[1] : dr + e[0], i = prod ? dr * e[1] + di * e[0] : di + e[1];
            dr = r, di = i;
        }
        k++;
    }
    *re = f32 ? fr : dr;
    *im = f32 ? fi : di;
}

/* The byte offset in `a` of result number r (C order over a's axes other
 * than `axis`). */
static int64_t base_of(const kj_array *a, int axis, int64_t r)
{
    int64_t off = 0;
    for (int d = a->ndim - 1; d >= 0; d--) {
        if (d == axis) continue;
        off += (r % a->shape[d]) * a->strides[d];
        r /= a->shape[d];
    }
    return off;
}

static void put(char *o, int64_t k, bool f32, double re, double im)
{
    if (f32) memcpy(o + 8 * k, (float[2]){(float)re, (float)im}, 8);
    else memcpy(o + 16 * k, (double[2]){re, im}, 16);
}

/* The complex sums (or products, or means) along `axis`, as a new array. */
static kj_array *cpx_axis(const kj_array *a, kj_reduce_op op, int axis, kj_rt_error *err)
{
    int64_t shape[KJ_MAX_DIMS];
    for (int d = 0, o = 0; d < a->ndim; d++)
        if (d != axis) shape[o++] = a->shape[d];
    kj_array *out = kj_array_empty(a->dtype, a->ndim - 1, shape, err);
    if (!out) return NULL;
    bool f32 = a->dtype == KJ_DT_COMPLEX64, along = kj_reduce_along(a, axis);
    int64_t n = a->shape[axis], results = kj_array_size(out);
    for (int64_t r = 0; r < results; r++) {
        double re, im;
        fold(a->data + base_of(a, axis, r), n, a->strides[axis], f32, op == KJ_REDUCE_PROD, along, &re, &im);
        if (op == KJ_REDUCE_MEAN && f32) {
            float x = (float)re, y = (float)im;
            CPX_DIV_REAL(float, x, y, (float)n);
            re = x, im = y;
        } else if (op == KJ_REDUCE_MEAN) {
            CPX_DIV_REAL(double, re, im, (double)n);
        }
        put(out->data, r, f32, re, im);
    }
    return out;
}

/* A real array of a's shape whose axes are laid out in the order of a's
 * strides (largest outermost, C order on ties), as NumPy's `a - mean`
 * allocates its result (the order that then decides the sum's). */
static kj_array *like(const kj_array *a, kj_dtype dt, kj_rt_error *err)
{
    int64_t n = kj_array_size(a);
    kj_array *x = kj_array_empty(dt, 1, &n, err);
    if (!x) return NULL;
    int order[KJ_MAX_DIMS], nd = a->ndim;
    for (int d = 0; d < nd; d++) order[d] = d;
    for (int i = 1; i < nd; i++) /* insertion sort, stable: by |stride| descending */
        for (int j = i; j > 0 && llabs(a->strides[order[j - 1]]) < llabs(a->strides[order[j]]); j--) {
            int t = order[j];
            order[j] = order[j - 1], order[j - 1] = t;
        }
    int64_t st = (int64_t)kj_dtype_info[dt].size;
    x->ndim = nd;
    for (int i = nd - 1; i >= 0; i--) {
        x->shape[order[i]] = a->shape[order[i]];
        x->strides[order[i]] = st;
        st *= a->shape[order[i]];
    }
    kj_array_update_flags(x);
    return x;
}

/* x[idx] = |a[idx] - mean[idx without `axis`]|**2 (axis -1: one mean),
 * mean a C-ordered complex array of the results. */
static void deviations(const kj_array *a, int axis, const char *mean, kj_array *x)
{
    bool f32 = a->dtype == KJ_DT_COMPLEX64;
    int64_t n = kj_array_size(a), idx[KJ_MAX_DIMS] = {0};
    for (int64_t k = 0; k < n; k++) {
        int64_t ao = 0, xo = 0, r = 0;
        for (int d = 0; d < a->ndim; d++) {
            ao += idx[d] * a->strides[d], xo += idx[d] * x->strides[d];
            if (axis >= 0 && d != axis) r = r * a->shape[d] + idx[d];
        }
        if (f32) {
            const float *e = (const float *)(const void *)(a->data + ao), *m = (const float *)(const void *)mean + 2 * r;
            float dr = e[0] - m[0], di = e[1] - m[1], sr = dr * dr, si = di * di;
            float v = sr + si;
            memcpy(x->data + xo, &v, 4);
        } else {
            const double *e = (const double *)(const void *)(a->data + ao), *m = (const double *)(const void *)mean + 2 * r;
            double dr = e[0] - m[0], di = e[1] - m[1], sr = dr * dr, si = di * di;
            double v = sr + si;
            memcpy(x->data + xo, &v, 8);
        }
        for (int d = a->ndim - 1; d >= 0 && ++idx[d] == a->shape[d]; d--) idx[d] = 0;
    }
}

/* var (or std) from a sum of squared deviations over n elements, in the part type */
static double finish(double s, int64_t n, int64_t ddof, bool std, bool f32)
{
    double v = s / kj_var_divisor(n, ddof);
    if (f32) return std ? (double)sqrtf((float)v) : (double)(float)v;
    return std ? sqrt(v) : v;
}

/* np.var/np.std along an axis: a new real array */
static kj_array *cpx_var_axis(const kj_array *a, bool std, int axis, int64_t ddof, kj_rt_error *err)
{
    bool f32 = a->dtype == KJ_DT_COMPLEX64;
    kj_dtype part = f32 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64;
    kj_array *mean = cpx_axis(a, KJ_REDUCE_MEAN, axis, err);
    kj_array *x = mean ? like(a, part, err) : NULL;
    kj_array *s = NULL;
    if (x) {
        deviations(a, axis, mean->data, x);
        s = kj_array_reduce_axis(x, KJ_REDUCE_SUM, axis, 0, err);
    }
    for (int64_t k = 0; s && k < kj_array_size(s); k++) {
        if (f32) {
            float *p = (float *)(void *)s->data + k;
            *p = (float)finish(*p, a->shape[axis], ddof, std, true);
        } else {
            double *p = (double *)(void *)s->data + k;
            *p = finish(*p, a->shape[axis], ddof, std, false);
        }
    }
    kj_array_release(mean);
    kj_array_release(x);
    return s;
}

kj_array *kj_array_cpx_reduce_axis(const kj_array *a, kj_reduce_op op, int axis, int64_t ddof, kj_rt_error *err)
{
    switch (op) {
    case KJ_REDUCE_SUM: case KJ_REDUCE_PROD: case KJ_REDUCE_MEAN: return cpx_axis(a, op, axis, err);
    case KJ_REDUCE_VAR: case KJ_REDUCE_STD: return cpx_var_axis(a, op == KJ_REDUCE_STD, axis, ddof, err);
    default:
        kj_rt_errorf(err, "TypeError", "this reduction of a complex array is not supported");
        return NULL;
    }
}

bool kj_array_cpx_var(const kj_array *a, bool std, int64_t ddof, void *out, kj_rt_error *err)
{
    bool f32 = a->dtype == KJ_DT_COMPLEX64;
    int64_t n = kj_array_size(a);
    double m64[2];
    float m32[2];
    if (!kj_array_cpx_reduce(a, KJ_REDUCE_SUM, f32 ? (void *)m32 : (void *)m64, err)) return false;
    /* NumPy keeps the mean an array (keepdims): the array loop's division */
    if (f32) CPX_DIV_REAL(float, m32[0], m32[1], (float)n);
    else CPX_DIV_REAL(double, m64[0], m64[1], (double)n);
    kj_array *x = like(a, f32 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64, err);
    if (!x) return false;
    deviations(a, -1, f32 ? (const char *)m32 : (const char *)m64, x);
    double v = finish(kj_array_sum(x).v.f, n, ddof, std, f32);
    kj_array_release(x);
    if (f32) *(float *)out = (float)v;
    else *(double *)out = v;
    return true;
}

void kj_array_cpx_cumulate_rows(kj_array *c, bool prod, int64_t m)
{
    int64_t rows = m ? kj_array_size(c) / m : 0;
    bool f32 = c->dtype == KJ_DT_COMPLEX64;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t i = 1; i < m; i++) {
            if (f32) {
                float *o = (float *)(void *)c->data + 2 * (r * m + i);
                float x = prod ? o[-2] * o[0] - o[-1] * o[1] : o[-2] + o[0];
                float y = prod ? o[-2] * o[1] + o[-1] * o[0] : o[-1] + o[1];
                o[0] = x, o[1] = y;
            } else {
                double *o = (double *)(void *)c->data + 2 * (r * m + i);
                double x = prod ? o[-2] * o[0] - o[-1] * o[1] : o[-2] + o[0];
                double y = prod ? o[-2] * o[1] + o[-1] * o[0] : o[-1] + o[1];
                o[0] = x, o[1] = y;
            }
        }
}

/* np.nansum/nanprod/nanmean of a complex array (an element with a NaN part
 * counts as missing): NumPy's _replace_nan puts 0 there, then np.sum/prod
 * (nanprod: 1, as NumPy's), and nanmean divides the sum by the count of the
 * others as NumPy divides a complex scalar (complex64 through complex128).
 * A 0-d array of a's dtype. */
kj_array *kj_array_cpx_nanreduce(const kj_array *a, int op, kj_rt_error *err)
{
    kj_array *c = kj_array_copy(a, err);
    if (!c) return NULL;
    bool f32 = c->dtype == KJ_DT_COMPLEX64;
    int64_t n = kj_array_size(c), cnt = 0;
    for (int64_t k = 0; k < n; k++) {
        if (f32) {
            float *e = (float *)(void *)c->data + 2 * k;
            if (e[0] != e[0] || e[1] != e[1]) e[0] = op == 1 ? 1 : 0, e[1] = 0;
            else cnt++;
        } else {
            double *e = (double *)(void *)c->data + 2 * k;
            if (e[0] != e[0] || e[1] != e[1]) e[0] = op == 1 ? 1 : 0, e[1] = 0;
            else cnt++;
        }
    }
    int64_t one = 1;
    kj_array *r = kj_array_empty(c->dtype, 0, &one, err);
    bool ok = r && kj_array_cpx_reduce(c, op == 1 ? KJ_REDUCE_PROD : KJ_REDUCE_SUM, r->data, err);
    if (ok && op == 2) { /* nanmean */
        double x, y;
        if (f32) {
            float *p = (float *)(void *)r->data;
            x = p[0], y = p[1];
            CPX_DIV_REAL(double, x, y, (double)cnt);
            p[0] = (float)x, p[1] = (float)y;
        } else {
            double *p = (double *)(void *)r->data;
            CPX_DIV_REAL(double, p[0], p[1], (double)cnt);
        }
    }
    kj_array_release(c);
    if (!ok) kj_array_release(r);
    return ok ? r : NULL;
}
