/* SPDX-License-Identifier: BSD-2-Clause */
/* Sorting complex arrays (np.sort, a.sort(), np.argsort, np.unique) in
 * NumPy's order: lexicographic, the real parts first, then the imaginary
 * ones, with NaNs last as npysort's CDOUBLE_LT orders them:
 * [R + Rj, R + nanj, nan + Rj, nan + nanj]. A stable merge sort: equal
 * elements keep their order, as NumPy's sorts of the short rows
 * (insertion sort) keep it, and argsort's ties are the lower index first.
 * np.unique then keeps the first of each run of equal values and, as NumPy
 * 1.24 (equal_nan=True), one element for all those with a NaN part. */
#include "array_int.h"
#include "array_sort.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    double re, im;
} cpx;

static cpx load(const char *p, bool f32)
{
    if (f32) {
        float v[2];
        memcpy(v, p, 8);
        return (cpx){v[0], v[1]};
    }
    cpx c;
    memcpy(&c, p, 16);
    return c;
}

/* npysort's CDOUBLE_LT (numpy/core/src/npysort/npysort_common.h) */
static bool lt(cpx a, cpx b)
{
    if (a.re < b.re) return a.im == a.im || b.im != b.im;
    if (a.re > b.re) return b.im != b.im && a.im == a.im;
    if (a.re == b.re || (a.re != a.re && b.re != b.re)) return a.im < b.im || (b.im != b.im && a.im == a.im);
    return b.re != b.re;
}

/* Stable merge sort of the indices idx[0..n) by the values v (tmp: n more). */
static void merge_sort(int64_t *idx, int64_t *tmp, int64_t n, const cpx *v)
{
    if (n < 2) return;
    int64_t h = n / 2;
    merge_sort(idx, tmp, h, v);
    merge_sort(idx + h, tmp, n - h, v);
    int64_t i = 0, j = h, k = 0;
    while (i < h && j < n) tmp[k++] = lt(v[idx[j]], v[idx[i]]) ? idx[j++] : idx[i++];
    while (i < h) tmp[k++] = idx[i++];
    while (j < n) tmp[k++] = idx[j++];
    memcpy(idx, tmp, (size_t)n * sizeof *idx);
}

/* The sorting order of each C-ordered row of length m of the contiguous
 * array c, row after row, into order (the rows' own indices). */
static bool order_rows(const kj_array *c, int64_t m, int64_t *order, kj_rt_error *err)
{
    int64_t n = kj_array_size(c);
    bool f32 = c->dtype == KJ_DT_COMPLEX64;
    size_t isz = f32 ? 8 : 16;
    cpx *v = malloc((size_t)(m ? m : 1) * sizeof *v);
    int64_t *tmp = malloc((size_t)(m ? m : 1) * sizeof *tmp);
    if (!v || !tmp) {
        free(v);
        free(tmp);
        return kj_rt_errorf(err, "MemoryError", "Unable to allocate memory for a sort of %lld elements",
                            (long long)m);
    }
    for (int64_t off = 0; m && off < n; off += m) {
        for (int64_t i = 0; i < m; i++) {
            v[i] = load(c->data + (size_t)(off + i) * isz, f32);
            order[off + i] = i;
        }
        merge_sort(order + off, tmp, m, v);
    }
    free(v);
    free(tmp);
    return true;
}

static int64_t *new_order(int64_t n, kj_rt_error *err)
{
    int64_t *o = malloc((size_t)(n ? n : 1) * sizeof *o);
    if (!o) kj_rt_errorf(err, "MemoryError", "Unable to allocate memory for a sort of %lld elements", (long long)n);
    return o;
}

bool kj_array_cpx_sort_rows(kj_array *r, kj_rt_error *err)
{
    int64_t m = r->ndim ? r->shape[r->ndim - 1] : 1, n = kj_array_size(r);
    if (n == 0 || m <= 1) return true;
    size_t isz = kj_array_itemsize(r);
    int64_t *order = new_order(n, err);
    char *row = order ? malloc((size_t)m * isz) : NULL;
    bool ok = row && order_rows(r, m, order, err);
    if (order && !row) kj_rt_errorf(err, "MemoryError", "Unable to allocate memory for a sort of %lld elements",
                                    (long long)m);
    for (int64_t off = 0; ok && off < n; off += m) {
        char *p = r->data + (size_t)off * isz;
        memcpy(row, p, (size_t)m * isz);
        for (int64_t i = 0; i < m; i++) memcpy(p + (size_t)i * isz, row + (size_t)order[off + i] * isz, isz);
    }
    free(order);
    free(row);
    return ok;
}

kj_array *kj_array_cpx_argsort(const kj_array *a, kj_rt_error *err)
{
    kj_array *c = kj_array_copy(a, err);
    kj_array *r = c ? kj_array_empty(KJ_DT_INT64, c->ndim, c->shape, err) : NULL;
    int64_t m = c && c->ndim ? c->shape[c->ndim - 1] : 1;
    if (r && !order_rows(c, m, (int64_t *)(void *)r->data, err)) {
        kj_array_release(r);
        r = NULL;
    }
    kj_array_release(c);
    return r;
}

static bool has_nan(cpx x) { return x.re != x.re || x.im != x.im; }

kj_array *kj_array_cpx_unique(const kj_array *a, kj_rt_error *err)
{
    int64_t n = kj_array_size(a);
    kj_array *s = kj_array_copy(a, err);
    if (!s) return NULL;
    s->ndim = 1;
    s->shape[0] = n;
    s->strides[0] = (int64_t)kj_array_itemsize(s);
    kj_array_update_flags(s);
    if (!kj_array_cpx_sort_rows(s, err)) {
        kj_array_release(s);
        return NULL;
    }
    bool f32 = s->dtype == KJ_DT_COMPLEX64;
    size_t isz = f32 ? 8 : 16;
    int64_t w = 0;
    for (int64_t i = 0; i < n; i++) {
        cpx x = load(s->data + (size_t)i * isz, f32);
        if (i) {
            cpx p = load(s->data + (size_t)(w - 1) * isz, f32);
            if (has_nan(x) ? has_nan(p) : (x.re == p.re && x.im == p.im)) continue;
        }
        memmove(s->data + (size_t)w * isz, s->data + (size_t)i * isz, isz);
        w++;
    }
    kj_array *r = kj_array_empty(s->dtype, 1, &w, err);
    if (r) memcpy(r->data, s->data, (size_t)w * isz);
    kj_array_release(s);
    return r;
}
