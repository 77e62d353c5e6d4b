/* SPDX-License-Identifier: BSD-2-Clause */
/* The runtime entries of builtins_npshape.h (rtfns.def's NPSHAPE and
 * BROADCAST_ARRAYS) over array_npshape.c. */
#include "rt_host.h"

#include "../abi/abi.h"
#include "array_manip.h"
#include "array_npshape.h"
#include "list.h"

#include <stdlib.h>

static bool makes_view(int32_t op, const kj_array *a)
{
    if (op == KJ_NPS_AS_STRIDED || op == KJ_NPS_SLIDING) return true;
    return op == KJ_NPS_PART && (a->dtype == KJ_DT_COMPLEX64 || a->dtype == KJ_DT_COMPLEX128);
}

int64_t kj_rt_npshape(kj_rt *rt, int32_t op, const void *a, int32_t andim, int32_t adtype, const void *b,
                      int32_t bndim, int32_t bdtype, const void *c, int32_t cndim, int32_t cdtype, const int64_t *p,
                      double f0, double f1, void *out, int32_t out_ndim, int32_t line, int32_t col)
{
    kj_array ha, hb, hc;
    if (a) kj_rt_header(&ha, a, andim, adtype);
    if (b) kj_rt_header(&hb, b, bndim, bdtype);
    if (c) kj_rt_header(&hc, c, cndim, cdtype);
    kj_rt_error err = {0};
    if (op == KJ_NPS_CONTAINS) return kj_array_contains(&ha, f0);
    if (op == KJ_NPS_BSHAPES) {
        if (!kj_npshape_bshapes(p, out, out_ndim, &err)) kj_rt_raise_error(rt, &err, line, col);
        return 0;
    }
    kj_array *pa = !a ? NULL : makes_view(op, &ha) ? kj_rt_viewable(rt, &ha, line, col) : &ha;
    double f[2] = {f0, f1};
    kj_array *r = kj_array_npshape((kj_npshape_op)op, pa, b ? &hb : NULL, c ? &hc : NULL, p, f, &err);
    kj_rt_result(rt, r, &err, out, out_ndim, line, col);
    return 0;
}

/* np.broadcast_arrays(*arrays): views of each with the broadcast shape
 * (strides 0 along the broadcast axes), in a new list. */
void *kj_rt_broadcast_arrays(kj_rt *rt, const void *const *descs, const int32_t *ndims, int32_t dtype, int32_t n,
                             int32_t out_ndim, int32_t line, int32_t col)
{
    kj_array h[4];
    int64_t p[1 + 5 * 4] = {n}, shape[KJ_MAX_DIMS];
    kj_rt_error err = {0};
    for (int32_t k = 0; k < n; k++) {
        kj_rt_header(&h[k], descs[k], ndims[k], dtype);
        p[1 + 5 * k] = ndims[k];
        for (int32_t d = 0; d < ndims[k]; d++) p[2 + 5 * k + d] = h[k].shape[d];
    }
    if (!kj_npshape_bshapes(p, shape, out_ndim, &err)) kj_rt_raise_error(rt, &err, line, col);
    size_t desc = kj_abi_array_bytes(out_ndim);
    char *list = kj_rt_list_new(rt, (int64_t)desc, n, (int32_t)desc - 8);
    for (int32_t k = 0; k < n; k++) {
        kj_array *w = kj_rt_viewable(rt, &h[k], line, col);
        kj_array *v = kj_array_restride(w, KJ_RS_BROADCAST, shape, out_ndim, &err);
        kj_rt_result(rt, v, &err, ((kj_list *)(void *)list)->data + k * (int64_t)desc, out_ndim, line, col);
        kj_rt_list_retain(rt, v);
    }
    return list;
}
