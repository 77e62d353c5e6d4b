/* SPDX-License-Identifier: BSD-2-Clause */
/* The runtime entries of array_manip2.c's operations (rtfns.def's MANIP2)
 * and of np.split/np.array_split (SPLIT: a list of views). */
#include "rt_host.h"

#include "../abi/abi.h"
#include "array_manip2.h"
#include "list.h"

#include <stdlib.h>

void kj_rt_manip2(kj_rt *rt, int32_t op, const void *a, int32_t ndim, int32_t dtype, const void *b, int32_t b_ndim,
                  int32_t b_dtype, const int64_t *p, int32_t to, void *out, int32_t out_ndim, int32_t line,
                  int32_t col)
{
    kj_array ha, hb;
    if (a) kj_rt_header(&ha, a, ndim, dtype);
    if (b) kj_rt_header(&hb, b, b_ndim, b_dtype);
    kj_rt_error err = {0};
    kj_array *pa = !a ? NULL : op == KJ_M2_ROT90 ? kj_rt_viewable(rt, &ha, line, col) : &ha; /* a view's base */
    kj_array *r = kj_array_manip2((kj_manip2_op)op, pa, b ? &hb : NULL, p, (kj_dtype)to, &err);
    if (op == KJ_M2_FILL_DIAG) { /* in place: r is the header itself */
        if (!r) kj_rt_raise_error(rt, &err, line, col);
        return;
    }
    kj_rt_result(rt, r, &err, out, out_ndim, line, col);
}

/* The division points of np.split/array_split along an axis of length n:
 * sections (ix 0-d) or indices (ix 1-d), NumPy's errors; their count. */
static int64_t split_points(const kj_array *ix, int64_t n, bool array_split, int64_t **pts, kj_rt_error *err)
{
    int64_t m = ix->ndim ? ix->shape[0] : 0;
    if (!ix->ndim) {
        int64_t s = kj_elem_load(ix->data, ix->dtype).v.i;
        if (!array_split && s == 0)
            return kj_rt_errorf(err, "ZeroDivisionError", "integer modulo by zero"), -1;
        if (!array_split && n % s)
            return kj_rt_errorf(err, "ValueError", "array split does not result in an equal division"), -1;
        if (s <= 0) return kj_rt_errorf(err, "ValueError", "number sections must be larger than 0."), -1;
        m = s - 1;
    }
    int64_t *p = malloc((size_t)(m + 2) * sizeof *p);
    if (!p) return kj_rt_errorf(err, "MemoryError", "np.split: out of memory"), -1;
    p[0] = 0;
    p[m + 1] = n;
    for (int64_t k = 0; k < m; k++) {
        if (ix->ndim) { /* NumPy's div_points: [0] + indices + [n] */
            p[k + 1] = kj_elem_load(ix->data + k * ix->strides[0], ix->dtype).v.i;
        } else { /* the first n % s sections one longer */
            int64_t each = n / (m + 1), extra = n % (m + 1);
            p[k + 1] = p[k] + each + (k < extra);
        }
    }
    *pts = p;
    return m + 1;
}

void *kj_rt_split(kj_rt *rt, const void *a, int32_t ndim, int32_t dtype, const void *ix, int32_t ix_ndim,
                  int32_t ix_dtype, int64_t axis, int32_t array_split, int32_t line, int32_t col)
{
    kj_array ha, hi;
    kj_rt_header(&ha, a, ndim, dtype);
    kj_rt_header(&hi, ix, ix_ndim, ix_dtype);
    kj_rt_error err = {0};
    if (axis < -ndim || axis >= ndim) {
        kj_rt_errorf(&err, "AxisError", "axis %lld is out of bounds for array of dimension %d", (long long)axis, ndim);
        kj_rt_raise_error(rt, &err, line, col);
    }
    if (axis < 0) axis += ndim;
    int64_t *pts = NULL, n = split_points(&hi, ha.shape[axis], array_split != 0, &pts, &err);
    if (n < 0) kj_rt_raise_error(rt, &err, line, col);
    kj_array *w = kj_rt_viewable(rt, &ha, line, col);
    size_t desc = kj_abi_array_bytes(ndim);
    char *list = kj_rt_list_new(rt, (int64_t)desc, n, (int32_t)desc - 8);
    kj_index idx[KJ_MAX_DIMS];
    for (int d = 0; d < ndim; d++) idx[d] = (kj_index){.kind = KJ_IDX_SLICE, .step = 1};
    for (int64_t k = 0; k < n; k++) { /* sections as Python slices [p[k]:p[k+1]] (clamped) */
        idx[axis] = (kj_index){.kind = KJ_IDX_SLICE, .has_start = true, .has_stop = true, .start = pts[k],
                               .stop = pts[k + 1], .step = 1};
        kj_array *v = kj_array_view(w, idx, ndim, &err);
        if (!v) free(pts);
        kj_rt_result(rt, v, &err, ((kj_list *)(void *)list)->data + k * (int64_t)desc, ndim, line, col);
        kj_rt_list_retain(rt, v);
    }
    free(pts);
    return list;
}
