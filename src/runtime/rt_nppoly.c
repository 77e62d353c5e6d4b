/* SPDX-License-Identifier: BSD-2-Clause */
/* kj_rt_nppoly (rtfns.def): generated code's one entry to
 * numpy.polynomial's functions (array_nppoly.h; abi_nppoly.h lists them). */
#include "rt_host.h"
#include "../abi/abi.h"
#include "../abi/abi_nppoly.h"
#include "array_nppoly.h"
#include "linalg.h"

#include <string.h>

/* trimseq(a): a view of a's first elements, as NumPy's seq[:i + 1]. */
static kj_array *trimseq(kj_rt *rt, kj_array *a, int32_t line, int32_t col, kj_rt_error *err)
{
    kj_index ix = {.kind = KJ_IDX_SLICE, .has_stop = true, .stop = kj_nppoly_trimseq_len(a), .step = 1};
    return kj_array_view(kj_rt_viewable(rt, a, line, col), &ix, 1, err);
}

/* a[lo:hi] of a 1-d a, or (whole) all of a, as a view. */
static kj_array *view(kj_rt *rt, kj_array *a, bool whole, int64_t lo, int64_t hi, int32_t line, int32_t col,
                      kj_rt_error *err)
{
    kj_index ix = {.kind = KJ_IDX_SLICE, .has_start = true, .start = lo, .has_stop = true, .stop = hi, .step = 1};
    return kj_array_view(kj_rt_viewable(rt, a, line, col), &ix, whole ? 0 : 1, err);
}

/* np.nan_to_num: a copy (or a itself, copy=False) with NaN and infinities replaced. */
static kj_array *nan_to_num(kj_rt *rt, kj_array *a, bool copy, double nan, int32_t line, int32_t col, kj_rt_error *err)
{
    kj_array *r = copy ? kj_array_copy(a, err) : view(rt, a, true, 0, 0, line, col, err);
    if (r) kj_array_nan_to_num(r, nan);
    return r;
}

/* np.roots (NumPy's and Numba's algorithm): the leading and trailing zeros
 * dropped, the eigenvalues of the companion matrix (first row -p[1:]/p[0],
 * ones below the diagonal) by kj_rt_linalg (LAPACK's geev; complex roots
 * are its ValueError, as Numba's), then a zero per trailing zero. */
static kj_array *roots(kj_rt *rt, const kj_array *p, int32_t line, int32_t col, kj_rt_error *err)
{
    int64_t n = p->shape[0], f = 0, l = n - 1;
#define AT(k) kj_scalar_as_f64(kj_elem_load(p->data + (k) * p->strides[0], p->dtype))
    while (f < n && AT(f) == 0) f++;
    while (l > f && AT(l) == 0) l--;
    int64_t m = f < n ? l - f : 0, tz = f < n ? n - 1 - l : 0, size[2] = {m, m};
    kj_array *w = NULL;
    if (m > 0) {
        kj_array *A = kj_array_empty(KJ_DT_FLOAT64, 2, size, err);
        if (!A) return NULL;
        double *d = (double *)(void *)A->data, p0 = AT(f);
        memset(d, 0, (size_t)(m * m) * sizeof *d);
        for (int64_t j = 0; j < m; j++) d[j] = -AT(f + 1 + j) / p0;
        for (int64_t i = 1; i < m; i++) d[i * m + i - 1] = 1.0;
        kj_rt_own(rt, A);
        kj_abi_array da, dw;
        void *outs[1] = {&dw};
        kj_rt_describe(&da, A, 2);
        kj_rt_linalg(rt, KJ_LA_EIGVALS, &da, 2, KJ_DT_FLOAT64, NULL, 0, 0, 0, 0.0, outs, line, col);
        w = kj_array_empty(KJ_DT_FLOAT64, 1, size, err);
        kj_array hw;
        kj_rt_header(&hw, &dw, 1, KJ_DT_FLOAT64);
        for (int64_t i = 0; w && i < m; i++) ((double *)(void *)w->data)[i] = ((const double *)(void *)hw.data)[i];
    }
#undef AT
    int64_t total = m + tz;
    kj_array *r = kj_array_empty(KJ_DT_FLOAT64, 1, &total, err);
    if (r) {
        memset(r->data, 0, (size_t)total * sizeof(double));
        if (m) memcpy(r->data, w->data, (size_t)m * sizeof(double));
    }
    kj_array_release(w);
    return r;
}

static kj_array *other(kj_rt *rt, int32_t op, kj_array *a, int64_t i0, double f0, double f1, int32_t rdtype,
                       int32_t line, int32_t col, kj_rt_error *err)
{
    switch ((kj_nppoly_op)op) {
    case KJ_NPP_NANCUMSUM: case KJ_NPP_NANCUMPROD:
        return kj_array_nancum(a, op == KJ_NPP_NANCUMPROD, (kj_dtype)rdtype, err);
    case KJ_NPP_NAN_TO_NUM: return nan_to_num(rt, a, i0 != 0, f0, line, col, err);
    case KJ_NPP_TRIM_ZEROS: {
        int64_t lo, hi;
        kj_array_trim_zeros(a, i0 & 1, i0 & 2, &lo, &hi);
        return view(rt, a, false, lo, hi, line, col, err);
    }
    case KJ_NPP_UNWRAP: return kj_array_unwrap(a, f0, f1, err);
    case KJ_NPP_ROOTS: return roots(rt, a, line, col, err);
    default: kj_rt_errorf(err, "SystemError", "unknown NumPy operation %d", (int)op); return NULL;
    }
}

void kj_rt_nppoly(kj_rt *rt, int32_t op, const void *a, int32_t andim, int32_t adtype, const void *b, int32_t bndim,
                  int32_t bdtype, int64_t i0, double f0, double f1, int32_t rdtype, void *out, int32_t out_ndim,
                  void *out2, int32_t line, int32_t col)
{
    kj_array ha, hb, *second = NULL, *r = NULL;
    kj_rt_header(&ha, a, andim, adtype);
    if (b) kj_rt_header(&hb, b, bndim, bdtype);
    kj_rt_error err = {0};
    switch ((kj_nppoly_op)op) {
    case KJ_NPP_ADD: case KJ_NPP_SUB: r = kj_nppoly_addsub(&ha, &hb, op == KJ_NPP_SUB, &err); break;
    case KJ_NPP_MUL: r = kj_nppoly_mul(&ha, &hb, &err); break;
    case KJ_NPP_DIV: r = kj_nppoly_div(&ha, &hb, &second, &err); break;
    case KJ_NPP_INT: r = kj_nppoly_int(&ha, i0, &err); break;
    case KJ_NPP_VAL: r = kj_nppoly_val(&hb, &ha, &err); break;
    case KJ_NPP_TRIMSEQ: r = trimseq(rt, &ha, line, col, &err); break;
    default: r = other(rt, op, &ha, i0, f0, f1, rdtype, line, col, &err); break;
    }
    if (!r) kj_rt_raise_error(rt, &err, line, col);
    if (second) kj_rt_result(rt, second, &err, out2, 1, line, col);
    if (out_ndim) {
        kj_rt_result(rt, r, &err, out, out_ndim, line, col);
        return;
    }
    kj_elem_store(out, KJ_DT_FLOAT64, kj_elem_load(r->data, r->dtype)); /* polyval at a scalar x */
    kj_array_release(r);
}
