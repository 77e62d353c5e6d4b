/* SPDX-License-Identifier: BSD-2-Clause */
/* kj_rt_npother (rtfns.def): generated code's one entry to the functions
 * of array_npother.h (abi_npother.h lists the operations). */
#include "rt_host.h"
#include "../abi/abi.h"
#include "../abi/abi_npother.h"
#include "array_npother.h"

static kj_array *run(int32_t op, const kj_array *a, const kj_array *b, kj_array *c, int64_t i0, int64_t i1,
                     double f0, int32_t rdtype, kj_array **second, kj_rt_error *err)
{
    switch ((kj_npother_op)op) {
    case KJ_NPO_WINDOW: return kj_array_window(kj_elem_load(a->data, a->dtype).v.i, (int)i0, f0, err);
    case KJ_NPO_TRIL_INDICES: case KJ_NPO_TRIU_INDICES: {
        bool from = a->ndim == 2; /* _from(arr): its shape; else n (and m) */
        int64_t n = from ? a->shape[0] : kj_elem_load(a->data, a->dtype).v.i;
        int64_t m = from ? a->shape[1] : b ? kj_elem_load(b->data, b->dtype).v.i : n;
        return kj_npo_tri_indices(n, i0, m, op == KJ_NPO_TRIU_INDICES, second, err);
    }
    case KJ_NPO_CROSS: return kj_npo_cross(a, b, (kj_dtype)rdtype, err);
    case KJ_NPO_CONVOLVE: case KJ_NPO_CORRELATE:
        return kj_npo_convolve(a, b, op == KJ_NPO_CORRELATE, (kj_dtype)rdtype, err);
    case KJ_NPO_COV: return kj_npo_cov(a, b, i0 != 0, (i1 & 1) != 0, (i1 & 2) != 0, f0, false, err);
    case KJ_NPO_CORRCOEF: return kj_npo_cov(a, b, i0 != 0, false, false, 0.0, true, err);
    case KJ_NPO_SINC: return kj_npo_sinc(a, err);
    case KJ_NPO_PRED: return kj_array_pred(a, (int)i0, err);
    case KJ_NPO_CHKFINITE: return kj_npo_chkfinite(a, err) ? kj_array_from_scalar(kj_scalar_i64(0)) : NULL;
    case KJ_NPO_SELECT_INIT: return kj_array_full((kj_dtype)rdtype, a->ndim, a->shape,
                                                   kj_scalar_cast(kj_elem_load(b->data, b->dtype), (kj_dtype)rdtype), err);
    case KJ_NPO_SELECT_STEP: return kj_npo_select_step(a, b, c, err) ? kj_array_from_scalar(kj_scalar_i64(0)) : NULL;
    }
    kj_rt_errorf(err, "SystemError", "unknown NumPy operation %d", (int)op);
    return NULL;
}

void kj_rt_npother(kj_rt *rt, int32_t op, const void *a, int32_t andim, int32_t adtype, const void *b, int32_t bndim,
                   int32_t bdtype, const void *c, int32_t cndim, int32_t cdtype, int64_t i0, int64_t i1, double f0, int32_t rdtype, void *out, int32_t out_ndim,
                   void *out2, int32_t line, int32_t col)
{
    kj_array ha, hb, hc, *second = NULL;
    kj_rt_header(&ha, a, andim, adtype);
    if (b) kj_rt_header(&hb, b, bndim, bdtype);
    if (c) kj_rt_header(&hc, c, cndim, cdtype);
    kj_rt_error err = {0};
    kj_array *r = run(op, &ha, b ? &hb : NULL, c ? &hc : NULL, i0, i1, f0, rdtype, &second, &err);
    if (!r) kj_rt_raise_error(rt, &err, line, col);
    if (second) kj_rt_result(rt, second, &err, out2, 1, line, col);
    if (out_ndim) {
        kj_rt_result(rt, r, &err, out, out_ndim, line, col);
        return;
    }
    if (out) kj_elem_store(out, (kj_dtype)rdtype, kj_scalar_cast(kj_elem_load(r->data, r->dtype), (kj_dtype)rdtype));
    kj_array_release(r);
}
