/* SPDX-License-Identifier: BSD-2-Clause */
/* dirichlet(alpha, size=None) for both streams (random_pick.h): as
 * mtrand.pyx's RandomState.dirichlet, per row k standard_gamma draws
 * (alpha's order), each then multiplied by 1 / their sum; the Generator
 * (NumPy 1.24's _generator.pyx) breaks a stick with beta draws instead when
 * every alpha is below 0.1, so that no row becomes 0/0. */
#include "rt_host.h"

#include "array.h"
#include "random_pick.h"

#include <math.h>
#include <stdlib.h>

/* alpha: a 1-D array of adtype; the result has shape size + (len(alpha),)
 * (ndim counts that last axis; shape is NULL without size=). */
/* One row by stick-breaking: v[j] = acc * beta(alpha[j], sum(alpha[j+1:])). */
static void stick_row(const kj_bitgen *bg, const double *a, const double *csum, double *v, int64_t k)
{
    double acc = 1.;
    for (int64_t j = 0; j < k - 1; j++) {
        double b = kj_smp_beta(bg, a[j], csum[j + 1]);
        v[j] = acc * b;
        acc *= (1. - b);
    }
    v[k - 1] = acc;
}

static bool small_alpha(const double *a, int64_t k)
{
    double mx = a[0];
    for (int64_t j = 1; j < k; j++) mx = a[j] > mx || isnan(a[j]) ? a[j] : mx;
    return mx < 0.1;
}

void kj_dirichlet_run(kj_rt *rt, const kj_bitgen *bg, const void *alpha, int32_t adtype, int32_t ndim,
                      const int64_t *shape, void *out, int32_t line, int32_t col)
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
    if (!bg->legacy && k > 0 && small_alpha(a, k)) {
        double *csum = malloc((size_t)k * sizeof *csum), c = 0.0;
        if (!csum) abort();
        for (int64_t j = k - 1; j >= 0; j--) csum[j] = c += a[j];
        for (int64_t i = 0; i < total; i += k) stick_row(bg, a, csum, v + i, k);
        free(csum);
    } else {
        for (int64_t i = 0; i < total; i += k) kj_smp_dirichlet_gamma(bg, a, v + i, k);
    }
    kj_rt_result(rt, kj_array_retain(r), &err, out, ndim, line, col);
}

void kj_rt_dirichlet(kj_rt *rt, const void *alpha, int32_t adtype, int32_t ndim, const int64_t *shape, void *out,
                     int32_t line, int32_t col)
{
    const kj_bitgen bg = kj_bitgen_mt(kj_rt_rng(rt));
    kj_dirichlet_run(rt, &bg, alpha, adtype, ndim, shape, out, line, col);
}
