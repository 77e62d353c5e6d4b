/* SPDX-License-Identifier: BSD-2-Clause */
/* The Generator's integer distributions over PCG64 (random_gen_dist.h), as
 * NumPy 1.24's distributions.c: poisson, binomial (no draw for n == 0 or
 * p == 0), geometric, zipf, logseries, negative_binomial through
 * random_samplers.h (shared with the legacy stream), hypergeometric
 * (random_gen_hyp.c); _generator.pyx's checks; and the run-time entry
 * kj_rt_gen_dist that generated code calls. */
#include "rt_host.h"

#include "array.h"
#include "random_gen_dist.h"

#include <math.h>
#include <stdlib.h>

int64_t kj_gen_draw_i(kj_pcg64 *g, kj_rdist d, const double p[3])
{
    const kj_bitgen bg = kj_bitgen_pcg(g);
    switch (d) {
    case KJ_RD_POISSON: return kj_smp_poisson(&bg, p[0]);
    case KJ_RD_BINOMIAL: return kj_smp_binomial(&bg, (int64_t)p[0], p[1]);
    case KJ_RD_GEOMETRIC: return kj_smp_geometric(&bg, p[0]);
    case KJ_RD_ZIPF: return kj_smp_zipf(&bg, p[0]);
    case KJ_RD_LOGSERIES: return kj_smp_logseries(&bg, p[0]);
    case KJ_RD_NEG_BINOMIAL: return kj_smp_negative_binomial(&bg, p[0], p[1]);
    case KJ_RD_HYPERGEOMETRIC: return kj_gen_hypergeometric(g, (int64_t)p[0], (int64_t)p[1], (int64_t)p[2]);
    default: return 0;
    }
}

/* POISSON_LAM_MAX: iinfo(int64).max - 10 * sqrt(iinfo(int64).max) */
#define POISSON_LAM_MAX 9.223372006484771e+18

/* Generator.hypergeometric's checks, in _generator.pyx's order. */
static bool check_hypergeometric(const double p[3], kj_rt_error *err)
{
    if (p[0] >= 1e9 || p[1] >= 1e9)
        return kj_rt_errorf(err, "ValueError", "both ngood and nbad must be less than 1000000000");
    if ((int64_t)p[0] + (int64_t)p[1] < (int64_t)p[2]) return kj_rt_errorf(err, "ValueError", "ngood + nbad < nsample");
    if (p[0] < 0) return kj_rt_errorf(err, "ValueError", "ngood < 0");
    if (p[1] < 0) return kj_rt_errorf(err, "ValueError", "nbad < 0");
    return p[2] >= 0 || kj_rt_errorf(err, "ValueError", "nsample < 0");
}

bool kj_gen_check(kj_rdist d, const double p[3], kj_rt_error *err)
{
    if (d == KJ_RD_HYPERGEOMETRIC) return check_hypergeometric(p, err);
    if (d != KJ_RD_NEG_BINOMIAL) return kj_rdist_check(d, p, err);
    if (isnan(p[0])) return kj_rt_errorf(err, "ValueError", "n must not be NaN");
    if (p[0] <= 0) return kj_rt_errorf(err, "ValueError", "n <= 0");
    if (!(p[1] > 0 && p[1] <= 1)) return kj_rt_errorf(err, "ValueError", "p <= 0, p > 1 or p contains NaNs");
    if ((1 - p[1]) / p[1] * (p[0] + 10 * sqrt(p[0])) > POISSON_LAM_MAX)
        return kj_rt_errorf(err, "ValueError", "n too large or p too small, see Generator.negative_binomial Notes");
    return true;
}

static void gen_fill(kj_pcg64 *g, kj_rdist d, const double p[3], void *out, int64_t n)
{
    if (kj_rdist_is_int(d))
        for (int64_t i = 0; i < n; i++) ((int64_t *)out)[i] = kj_gen_draw_i(g, d, p);
    else
        for (int64_t i = 0; i < n; i++) ((double *)out)[i] = kj_gen_draw_f(g, d, p);
}

/* A Generator method's draws: one value into *out when ndim is 0 (int64
 * bits for the integer distributions), else an array of shape. */
void kj_rt_gen_dist(kj_rt *rt, void *gen, int32_t d, double a, double b, double c, int32_t ndim,
                    const int64_t *shape, void *out, int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    const double p[3] = {a, b, c};
    if (d < 0 || d >= KJ_RD__COUNT) kj_rt_errorf(&err, "SystemError", "unknown Generator distribution %d", (int)d);
    else (void)kj_gen_check((kj_rdist)d, p, &err);
    if (err.exc) kj_rt_raise_error(rt, &err, line, col);
    if (!ndim) {
        gen_fill(gen, (kj_rdist)d, p, out, 1);
        return;
    }
    kj_array *r = kj_array_empty(kj_rdist_is_int((kj_rdist)d) ? KJ_DT_INT64 : KJ_DT_FLOAT64, ndim, shape, &err);
    if (r) {
        kj_rt_own(rt, r);
        gen_fill(gen, (kj_rdist)d, p, r->data, kj_array_size(r));
        kj_array_retain(r);
    }
    kj_rt_result(rt, r, &err, out, ndim, line, col);
}
