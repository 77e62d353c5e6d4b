/* SPDX-License-Identifier: BSD-2-Clause */
/* np.random.dirichlet(alpha, size=None) over the legacy stream, as
 * mtrand.pyx's RandomState.dirichlet: per row, k legacy standard_gamma
 * draws (alpha's order), each then multiplied by 1 / their sum. */
#include "rt_host.h"

#include "array.h"
#include "random_dist.h"

/* alpha: a 1-D array of adtype; the result has shape size + (len(alpha),)
 * (ndim counts that last axis; shape is NULL without size=). */
void kj_rt_dirichlet(kj_rt *rt, const void *alpha, int32_t adtype, int32_t ndim, const int64_t *shape, void *out,
                     int32_t line, int32_t col)
{
    kj_array h;
    kj_rt_header(&h, alpha, 1, adtype);
    kj_rt_error err = {0};
    kj_array *ac = kj_array_astype(&h, KJ_DT_FLOAT64, &err);
    if (!ac) kj_rt_raise_error(rt, &err, line, col);
    kj_rt_own(rt, ac);
    const double *a = (const double *)(void *)ac->data;
    int64_t k = ac->shape[0];
    for (int64_t j = 0; j < k; j++)
        if (a[j] <= 0) {
            kj_rt_errorf(&err, "ValueError", "alpha <= 0");
            kj_rt_raise_error(rt, &err, line, col);
        }
    int64_t full[KJ_MAX_DIMS];
    for (int d = 0; d < ndim - 1; d++) full[d] = shape[d];
    full[ndim - 1] = k;
    kj_array *r = kj_array_zeros(KJ_DT_FLOAT64, ndim, full, &err);
    if (!r) kj_rt_raise_error(rt, &err, line, col);
    kj_rt_own(rt, r);
    double *v = (double *)(void *)r->data;
    int64_t total = kj_array_size(r);
    kj_mt19937 *st = kj_rt_rng(rt);
    for (int64_t i = 0; i < total; i += k) {
        double acc = 0.0;
        for (int64_t j = 0; j < k; j++) {
            v[i + j] = kj_rdist_std_gamma(st, a[j]);
            acc = acc + v[i + j];
        }
        double invacc = 1 / acc;
        for (int64_t j = 0; j < k; j++) v[i + j] = v[i + j] * invacc;
    }
    kj_rt_result(rt, kj_array_retain(r), &err, out, ndim, line, col);
}
