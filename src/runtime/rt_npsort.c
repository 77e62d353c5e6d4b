/* SPDX-License-Identifier: BSD-2-Clause */
/* kj_rt_npsort (rtfns.def): generated code's one entry to sorting,
 * searching, sets, order statistics, histograms and the nan reductions
 * (array_sort.h does the work). */
#include "rt_host.h"
#include "../abi/abi.h"
#include "../abi/abi_npsort.h"
#include "array_sort.h"
#include "array_int.h"
#include "array_stats2.h"

#include <string.h>

/* Store the result: a scalar of rdtype at `out` (out_ndim 0) or the array
 * described there. */
static void result(kj_rt *rt, kj_array *r, const kj_rt_error *err, int32_t rdtype, void *out, int32_t out_ndim,
                   int32_t line, int32_t col)
{
    if (!r) kj_rt_raise_error(rt, err, line, col);
    if (out_ndim) {
        kj_rt_result(rt, r, err, out, out_ndim, line, col);
        return;
    }
    if (kj_dtype_info[r->dtype].kind == 'c' && (int32_t)r->dtype == rdtype) { /* a complex scalar: its two parts */
        memcpy(out, r->data, kj_array_itemsize(r));
        kj_array_release(r);
        return;
    }
    kj_scalar s = kj_scalar_cast(kj_elem_load(r->data, r->dtype), (kj_dtype)rdtype);
    kj_array_release(r);
    kj_elem_store(out, (kj_dtype)rdtype, s);
}

/* np.quantile / np.percentile: q as float64, divided by 100 for
 * percentile as NumPy's true_divide does. */
static kj_array *quantile(const kj_array *a, const kj_array *q, bool skip_nan, bool percent, kj_rt_error *err)
{
    kj_array *qf = kj_array_astype(q, KJ_DT_FLOAT64, err);
    if (!qf) return NULL;
    int64_t n = kj_array_size(qf);
    for (int64_t i = 0; percent && i < n; i++) ((double *)(void *)qf->data)[i] /= 100.0;
    kj_array *r = kj_array_quantile(a, qf, skip_nan, percent ? "Percentiles" : "Quantiles", err);
    kj_array_release(qf);
    return r;
}

/* np.sort / np.argsort of a (result dtype dt, a's shape): into the memory
 * of a dropped result of that size when rt kept one (kj_rt_spare_array),
 * since fresh pages cost as much as the sort; else a new array. */
static kj_array *into_spare(kj_rt *rt, const kj_array *a, kj_dtype dt,
                            bool (*into)(kj_array *, const kj_array *, kj_rt_error *),
                            kj_array *(*fresh)(const kj_array *, kj_rt_error *), kj_rt_error *err)
{
    kj_array *r = kj_rt_spare_array(rt, dt, a->ndim, a->shape);
    if (!r) return fresh(a, err);
    if (!into(r, a, err)) {
        kj_array_release(r);
        return NULL;
    }
    return r;
}

static kj_array *run(kj_rt *rt, int32_t op, kj_array *a, const kj_array *b, const kj_array *c, int64_t i0,
                     int64_t i1, double f0, double f1, void *out2, int32_t line, int32_t col, kj_rt_error *err)
{
    switch ((kj_npsort_op)op) {
    case KJ_NPS_PARTITION: return kj_array_partition(a, i0, i1 != 0, err);
    case KJ_NPS_SETOP: { /* i1: in1d/isin's invert= (a fresh C-ordered bool array to negate) */
        kj_array *r = kj_array_setop(a, b, (kj_setop)i0, err);
        for (int64_t k = 0, n = r && i1 ? kj_array_size(r) : 0; k < n; k++) r->data[k] = !r->data[k];
        return r;
    }
    case KJ_NPS_EDIFF1D: return kj_array_ediff1d(a, err);
    case KJ_NPS_TRAPZ: return kj_array_trapz(a, b, f0, err);
    case KJ_NPS_INTERP: return kj_array_interp(a, b, c, err);
    case KJ_NPS_AVERAGE: return kj_array_average(a, b, err);
    case KJ_NPS_ROUND: return kj_array_round(a, i0, err);
    case KJ_NPS_BIN_EDGES: {
        kj_array *h, *e;
        if (!kj_array_histogram(a, i0, b, i1 != 0, f0, f1, &h, &e, err)) return NULL;
        kj_array_release(h);
        return e;
    }
    case KJ_NPS_SORT: return into_spare(rt, a, a->dtype, kj_array_sorted_into, kj_array_sorted, err);
    case KJ_NPS_SORT_INPLACE: {
        if (!kj_array_sort_inplace(a, err)) return NULL;
        return kj_array_from_scalar(kj_scalar_i64(0));
    }
    case KJ_NPS_ARGSORT:
        if (kj_dtype_info[a->dtype].kind == 'c') return kj_array_argsort(a, err); /* array_sort_cpx.c */
        return into_spare(rt, a, KJ_DT_INT64, kj_array_argsort_into, kj_array_argsort, err);
    case KJ_NPS_SEARCHSORTED: return kj_array_searchsorted(a, b, i0 != 0, err);
    case KJ_NPS_UNIQUE: return kj_array_unique(a, err);
    case KJ_NPS_MEDIAN: return kj_array_median(a, i0 != 0, err);
    case KJ_NPS_QUANTILE: return quantile(a, b, i0 != 0, i1 != 0, err);
    case KJ_NPS_BINCOUNT: return kj_array_bincount(a, b, i0, err);
    case KJ_NPS_DIFF: return kj_array_diff_axis(a, i0, i1, err);
    case KJ_NPS_DIGITIZE: return kj_array_digitize(a, b, i0 != 0, err);
    case KJ_NPS_HISTOGRAM: {
        kj_array *h, *e;
        if (!kj_array_histogram(a, i0, b, i1 != 0, f0, f1, &h, &e, err)) return NULL;
        kj_rt_result(rt, e, err, out2, 1, line, col);
        return h;
    }
    case KJ_NPS_NANREDUCE: return kj_array_nanreduce(a, (kj_nan_op)i0, i1, err);
    }
    kj_rt_errorf(err, "SystemError", "unknown sorting operation %d", (int)op);
    return NULL;
}

void kj_rt_npsort(kj_rt *rt, int32_t op, const void *a, int32_t andim, int32_t adtype, const void *b, int32_t bndim,
                  int32_t bdtype, const void *c, int32_t cndim, int32_t cdtype, int64_t i0, int64_t i1, double f0, double f1, int32_t rdtype, void *out,
                  int32_t out_ndim, void *out2, int32_t line, int32_t col)
{
    kj_array ha, hb, hc;
    kj_rt_header(&ha, a, andim, adtype);
    if (b) kj_rt_header(&hb, b, bndim, bdtype);
    if (c) kj_rt_header(&hc, c, cndim, cdtype);
    kj_rt_error err = {0};
    kj_array *r = run(rt, op, &ha, b ? &hb : NULL, c ? &hc : NULL, i0, i1, f0, f1, out2, line, col, &err);
    if (op == KJ_NPS_SORT_INPLACE && r) {
        kj_array_release(r);
        return;
    }
    result(rt, r, &err, rdtype, out, out_ndim, line, col);
}
