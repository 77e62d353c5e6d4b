/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy statistics along a chosen axis (array_stats2.h). Each moves the axis
 * last in a header (no copy), works on C-ordered rows, and moves it back. */
#include "array_stats2.h"
#include "array_int.h"
#include "array_sort.h"

#include <string.h>

/* axis normalised into [0, nd), false (AxisError) outside [-nd, nd). */
static bool norm_axis(int64_t *axis, int nd, kj_rt_error *err)
{
    if (*axis < -nd || *axis >= nd)
        return kj_rt_errorf(err, "AxisError", "axis %lld is out of bounds for array of dimension %d",
                            (long long)*axis, nd);
    if (*axis < 0) *axis += nd;
    return true;
}

/* A header viewing a with axis `ax` moved to the end (last 0) or, for an
 * array whose last axis is that one, moved back to `ax` (last 1). It
 * borrows a's data: the caller keeps a alive while it is used. */
static kj_array moved(const kj_array *a, int ax, bool back)
{
    kj_array h;
    memset(&h, 0, sizeof h);
    h.data = a->data;
    h.dtype = a->dtype;
    h.ndim = a->ndim;
    int nd = a->ndim;
    for (int d = 0; d < nd; d++) {
        /* position in `a` of the axis that goes to position d of h */
        int src = back ? (d < ax ? d : d == ax ? nd - 1 : d - 1) : (d < ax ? d : d == nd - 1 ? ax : d + 1);
        h.shape[d] = a->shape[src];
        h.strides[d] = a->strides[src];
    }
    kj_array_update_flags(&h);
    return h;
}

/* Run the accumulation in place along each C-ordered row of length m. */
static void cumulate_rows(kj_array *c, bool prod, int64_t m)
{
    int64_t rows = m ? kj_array_size(c) / m : 0;
    if (kj_dtype_info[c->dtype].kind == 'c') return kj_array_cpx_cumulate_rows(c, prod, m); /* array_cpx_axis.c */
    for (int64_t r = 0; r < rows; r++) {
        if (c->dtype == KJ_DT_FLOAT64) {
            double *p = (double *)(void *)c->data + r * m;
            for (int64_t i = 1; i < m; i++) p[i] = prod ? p[i - 1] * p[i] : p[i - 1] + p[i];
        } else if (c->dtype == KJ_DT_FLOAT32) {
            float *p = (float *)(void *)c->data + r * m;
            for (int64_t i = 1; i < m; i++) p[i] = prod ? p[i - 1] * p[i] : p[i - 1] + p[i];
        } else { /* int64 and uint64: two's complement, wrapping */
            uint64_t *p = (uint64_t *)(void *)c->data + r * m;
            for (int64_t i = 1; i < m; i++) p[i] = prod ? p[i - 1] * p[i] : p[i - 1] + p[i];
        }
    }
}

kj_array *kj_array_cumulate_axis(const kj_array *a, bool prod, int64_t axis, kj_rt_error *err)
{
    if (!norm_axis(&axis, a->ndim, err)) return NULL;
    kj_dtype dt = kj_dtype_info[a->dtype].kind == 'c' ? a->dtype
                                                      : kj_reduce_dtype(prod ? KJ_REDUCE_PROD : KJ_REDUCE_SUM, a->dtype);
    if (dt != KJ_DT_FLOAT64 && dt != KJ_DT_FLOAT32 && dt != KJ_DT_INT64 && dt != KJ_DT_UINT64 &&
        kj_dtype_info[dt].kind != 'c') /* typing refuses */
        return kj_rt_errorf(err, "TypeError", "cumsum/cumprod along an axis of a %s array", kj_dtype_info[dt].name),
               NULL;
    kj_array v = moved(a, (int)axis, false);
    kj_array *c = kj_array_astype(&v, dt, err); /* the axis last, in sum's dtype */
    if (!c) return NULL;
    cumulate_rows(c, prod, c->shape[c->ndim - 1]);
    kj_array back = moved(c, (int)axis, true);
    kj_array *r = kj_array_copy(&back, err);
    kj_array_release(c);
    return r;
}

kj_array *kj_array_diff_axis(const kj_array *a, int64_t n, int64_t axis, kj_rt_error *err)
{
    if (!norm_axis(&axis, a->ndim, err)) return NULL;
    if (axis == a->ndim - 1) return kj_array_diff(a, n, err);
    kj_array v = moved(a, (int)axis, false);
    kj_array *d = kj_array_diff(&v, n, err);
    if (!d) return NULL;
    kj_array back = moved(d, (int)axis, true);
    kj_array *r = kj_array_copy(&back, err);
    kj_array_release(d);
    return r;
}
