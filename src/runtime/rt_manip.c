/* SPDX-License-Identifier: BSD-2-Clause */
/* The runtime entries of np.ascontiguousarray, the joins (np.concatenate,
 * np.stack, np.hstack, ...) and np.flip (rtfns.def), over array_manip.c. */
#include "rt_host.h"

#include "../abi/abi.h"
#include "array_manip.h"

/* A heap header over caller memory (an array kjit did not allocate) so that
 * a view can reference it, registered with the run. */
static kj_array *viewable(kj_rt *rt, kj_array *h, int32_t line, int32_t col)
{
    if (h->base) return h;
    kj_rt_error err = {0};
    kj_array *w = kj_array_wrap(h->data, h->dtype, h->ndim, h->shape, h->strides, &err);
    if (!w) kj_rt_raise_error(rt, &err, line, col);
    kj_rt_own(rt, w);
    return w;
}

void kj_rt_ascontig(kj_rt *rt, const void *a, int32_t ndim, int32_t dtype, int32_t to, void *out, int32_t line,
                    int32_t col)
{
    kj_array h;
    kj_rt_header(&h, a, ndim, dtype);
    kj_rt_error err = {0};
    kj_array *r;
    if (dtype == to && kj_array_is_c_contiguous(&h)) /* the array itself, as NumPy returns it */
        r = kj_array_view(viewable(rt, &h, line, col), NULL, 0, &err);
    else
        r = kj_array_astype(&h, (kj_dtype)to, &err);
    kj_rt_result(rt, r, &err, out, ndim, line, col);
}

void kj_rt_join(kj_rt *rt, const void *const *arrays, const int32_t *ndims, const int32_t *dtypes, int32_t n,
                int32_t mode, int64_t axis, int32_t to, void *out, int32_t out_ndim, int32_t line, int32_t col)
{
    enum { MAX_IN = 64 };
    kj_array hs[MAX_IN];
    const kj_array *ps[MAX_IN];
    kj_rt_error err = {0};
    if (n > MAX_IN) {
        kj_rt_errorf(&err, "ValueError", "kjit joins at most %d arrays at once, not %d", MAX_IN, n);
        kj_rt_raise_error(rt, &err, line, col);
    }
    for (int32_t k = 0; k < n; k++) {
        kj_rt_header(&hs[k], arrays[k], ndims[k], dtypes[k]);
        ps[k] = &hs[k];
    }
    kj_rt_result(rt, kj_array_join(ps, n, (kj_join_mode)mode, axis, (kj_dtype)to, &err), &err, out, out_ndim, line,
                 col);
}

void kj_rt_flip(kj_rt *rt, const void *a, int32_t ndim, int32_t dtype, int32_t all_axes, int64_t axis, void *out,
                int32_t line, int32_t col)
{
    kj_array h;
    kj_rt_header(&h, a, ndim, dtype);
    kj_rt_error err = {0};
    kj_rt_result(rt, kj_array_flip(viewable(rt, &h, line, col), all_axes != 0, axis, &err), &err, out, ndim, line,
                 col);
}

void kj_rt_nonzero(kj_rt *rt, const void *a, int32_t ndim, int32_t dtype, int32_t mode, void *out, int32_t line,
                   int32_t col)
{
    kj_array h, *outs[KJ_MAX_DIMS];
    kj_rt_header(&h, a, ndim, dtype);
    kj_rt_error err = {0};
    if (!kj_array_nonzero(&h, (kj_nonzero_mode)mode, outs, &err)) kj_rt_raise_error(rt, &err, line, col);
    int n = mode == KJ_NONZERO ? ndim : 1, out_nd = mode == KJ_NONZERO_ARGWHERE ? 2 : 1;
    for (int k = 0; k < n; k++) /* np.nonzero: a tuple of 1-d descriptors, one after the other */
        kj_rt_result(rt, outs[k], &err, (char *)out + (size_t)k * sizeof(kj_abi_array1), out_nd, line, col);
}

void kj_rt_repeat(kj_rt *rt, const void *a, int32_t ndim, int32_t dtype, const void *reps, int32_t reps_ndim,
                  int32_t reps_dtype, int32_t has_axis, int64_t axis, void *out, int32_t out_ndim, int32_t line,
                  int32_t col)
{
    kj_array h, r;
    kj_rt_header(&h, a, ndim, dtype);
    kj_rt_header(&r, reps, reps_ndim, reps_dtype);
    kj_rt_error err = {0};
    kj_rt_result(rt, kj_array_repeat(&h, &r, has_axis != 0, axis, &err), &err, out, out_ndim, line, col);
}

void kj_rt_eye(kj_rt *rt, int64_t n, int64_t m, int64_t k, int32_t dtype, void *out, int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    kj_rt_result(rt, kj_array_eye(n, m, k, (kj_dtype)dtype, &err), &err, out, 2, line, col);
}

void kj_rt_restride(kj_rt *rt, const void *a, int32_t ndim, int32_t dtype, int32_t op, const int64_t *p, int32_t np,
                    void *out, int32_t out_ndim, int32_t line, int32_t col)
{
    kj_array h;
    kj_rt_header(&h, a, ndim, dtype);
    kj_rt_error err = {0};
    kj_array *v = kj_array_restride(viewable(rt, &h, line, col), (kj_restride_op)op, p, np, &err);
    kj_rt_result(rt, v, &err, out, out_ndim, line, col);
}

kj_array *kj_rt_viewable(kj_rt *rt, kj_array *h, int32_t line, int32_t col) { return viewable(rt, h, line, col); }
