/* SPDX-License-Identifier: BSD-2-Clause */
/* Integer products (np.dot, @, np.matmul, np.vdot, np.inner of int64
 * operands): exact, as NumPy computes them without BLAS, wrapping on
 * overflow as NumPy's int64 arithmetic does. */
#include "linalg.h"
#include "array.h"

static int64_t el(const kj_array *h, int64_t i, int64_t j)
{
    const char *p = h->data + i * h->strides[0] + (h->ndim > 1 ? j * h->strides[1] : 0);
    return *(const int64_t *)p;
}

/* a[i, p] of a 2-d a, a[p] of a 1-d one; b[p, j] / b[p] */
static int64_t a_at(const kj_array *a, int64_t i, int64_t p) { return a->ndim == 2 ? el(a, i, p) : el(a, p, 0); }
static int64_t b_at(const kj_array *b, int64_t p, int64_t j) { return el(b, p, j); }

kj_array *kj_rt_int_product(const kj_array *a, const kj_array *b, void *scalar, kj_rt_error *err)
{
    int64_t k = a->shape[a->ndim - 1];
    int64_t m = a->ndim == 2 ? a->shape[0] : 1, n = b->ndim == 2 ? b->shape[1] : 1;
    kj_array *r = NULL;
    int64_t *out = scalar;
    if (a->ndim + b->ndim > 2) {
        int64_t shape[2] = {a->ndim == 2 ? m : n, n};
        r = kj_array_zeros(KJ_DT_INT64, a->ndim + b->ndim - 2, shape, err);
        if (!r) return NULL;
        out = (int64_t *)r->data;
    }
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            uint64_t s = 0; /* unsigned: wraps as NumPy's int64 does, without C's overflow */
            for (int64_t p = 0; p < k; p++) s += (uint64_t)a_at(a, i, p) * (uint64_t)b_at(b, p, j);
            out[i * n + j] = (int64_t)s;
        }
    return r;
}
