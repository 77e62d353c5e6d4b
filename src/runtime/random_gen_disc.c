/* SPDX-License-Identifier: BSD-2-Clause */
/* The Generator's integer distributions over PCG64 (random_gen_dist.h), as
 * NumPy 1.24's distributions.c: poisson (multiplication below 10, PTRS
 * above), binomial (inversion or BTPE, no draw for n == 0 or p == 0),
 * geometric (search, or inversion over the ziggurat exponential), zipf,
 * logseries, negative_binomial; _generator.pyx's checks; and the run-time
 * entry kj_rt_gen_dist that generated code calls. */
#include "rt_host.h"

#include "array.h"
#include "random_gen_dist.h"

#include <math.h>
#include <stdlib.h>

static double next_double(kj_pcg64 *g) { return kj_pcg64_double(g); }

static int64_t poisson_mult(kj_pcg64 *g, double lam)
{
    double enlam = exp(-lam), prod = 1.0;
    int64_t X = 0;
    for (;;) {
        prod *= next_double(g);
        if (prod > enlam) X += 1;
        else return X;
    }
}

static int64_t poisson_ptrs(kj_pcg64 *g, double lam)
{
    double slam = sqrt(lam), loglam = log(lam), b = 0.931 + 2.53 * slam;
    double a = -0.059 + 0.02483 * b, invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
    for (;;) {
        double U = next_double(g) - 0.5, V = next_double(g), us = 0.5 - fabs(U);
        int64_t k = (int64_t)floor((2 * a / us + b) * U + lam + 0.43);
        if (us >= 0.07 && V <= vr) return k;
        if (k < 0 || (us < 0.013 && V > us)) continue;
        if ((log(V) + log(invalpha) - log(a / (us * us) + b)) <=
            (-lam + (double)k * loglam - kj_rdist_loggam((double)k + 1)))
            return k;
    }
}

int64_t kj_gen_poisson(kj_pcg64 *g, double lam)
{
    if (lam >= 10) return poisson_ptrs(g, lam);
    if (lam == 0) return 0;
    return poisson_mult(g, lam);
}

static int64_t binomial_inversion(kj_pcg64 *g, int64_t n, double p)
{
    double q = 1.0 - p, qn = exp((double)n * log(q)), np = (double)n * p;
    double bd = np + 10.0 * sqrt(np * q + 1);
    int64_t bound = (int64_t)((double)n < bd ? (double)n : bd), X = 0;
    double px = qn, U = next_double(g);
    while (U > px) {
        X++;
        if (X > bound) {
            X = 0;
            px = qn;
            U = next_double(g);
        } else {
            U -= px;
            px = ((double)(n - X + 1) * p * px) / ((double)X * q);
        }
    }
    return X;
}

static int64_t binomial_btpe(kj_pcg64 *g, int64_t n, double p)
{
    kj_btpe k = kj_btpe_init(n, p);
    int64_t y;
    for (;;) {
        double u = next_double(g) * k.p4, v = next_double(g);
        if (u <= k.p1) {
            y = (int64_t)floor(k.xm - k.p1 * v + u);
            break;
        }
        if (u <= k.p2) {
            double x = k.xl + (u - k.p1) / k.c;
            v = v * k.c + 1.0 - fabs((double)k.m - x + 0.5) / k.p1;
            if (v > 1.0) continue;
            y = (int64_t)floor(x);
        } else if (u <= k.p3) {
            y = (int64_t)floor(k.xl + log(v) / k.laml);
            if (y < 0 || v == 0.0) continue;
            v = v * (u - k.p2) * k.laml;
        } else {
            y = (int64_t)floor(k.xr - log(v) / k.lamr);
            if (y > n || v == 0.0) continue;
            v = v * (u - k.p3) * k.lamr;
        }
        if (kj_btpe_accept(&k, n, y, v)) break;
    }
    return y;
}

static int64_t binomial(kj_pcg64 *g, int64_t n, double p)
{
    if (n == 0 || p == 0.0) return 0;
    if (p <= 0.5) return p * (double)n <= 30.0 ? binomial_inversion(g, n, p) : binomial_btpe(g, n, p);
    double q = 1.0 - p;
    return n - (q * (double)n <= 30.0 ? binomial_inversion(g, n, q) : binomial_btpe(g, n, q));
}

static int64_t geometric(kj_pcg64 *g, double p)
{
    if (p >= 0.333333333333333333333333) { /* search */
        double sum = p, prod = p, q = 1.0 - p, U = next_double(g);
        int64_t X = 1;
        while (U > sum) {
            prod *= q;
            sum += prod;
            X++;
        }
        return X;
    }
    return (int64_t)ceil(-kj_gen_std_exp(g) / log1p(-p));
}

static int64_t zipf(kj_pcg64 *g, double a)
{
    double am1 = a - 1.0, b = pow(2.0, am1);
    for (;;) {
        double U = 1.0 - next_double(g), V = next_double(g), X = floor(pow(U, -1.0 / am1));
        if (X > (double)INT64_MAX || X < 1.0) continue; /* truncated to int64 */
        double T = pow(1.0 + 1.0 / X, am1);
        if (V * X * (T - 1.0) / (b - 1.0) <= T / b) return (int64_t)X;
    }
}

static int64_t logseries(kj_pcg64 *g, double p)
{
    double r = log1p(-p);
    for (;;) {
        double V = next_double(g);
        if (V >= p) return 1;
        double U = next_double(g), q = -expm1(r * U);
        if (V <= q * q) {
            int64_t result = (int64_t)floor(1 + log(V) / log(q));
            if (result < 1 || V == 0.0) continue;
            return result;
        }
        return V >= q ? 1 : 2;
    }
}

int64_t kj_gen_draw_i(kj_pcg64 *g, kj_rdist d, const double p[3])
{
    switch (d) {
    case KJ_RD_POISSON: return kj_gen_poisson(g, p[0]);
    case KJ_RD_BINOMIAL: return binomial(g, (int64_t)p[0], p[1]);
    case KJ_RD_GEOMETRIC: return geometric(g, p[0]);
    case KJ_RD_ZIPF: return zipf(g, p[0]);
    case KJ_RD_LOGSERIES: return logseries(g, p[0]);
    case KJ_RD_NEG_BINOMIAL: return kj_gen_poisson(g, (1 - p[1]) / p[1] * kj_gen_std_gamma(g, p[0]));
    default: return 0;
    }
}

/* POISSON_LAM_MAX: iinfo(int64).max - 10 * sqrt(iinfo(int64).max) */
#define POISSON_LAM_MAX 9.223372006484771e+18

bool kj_gen_check(kj_rdist d, const double p[3], kj_rt_error *err)
{
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
