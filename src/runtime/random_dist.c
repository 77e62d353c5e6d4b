/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy's legacy RandomState distributions (random_dist.h). Each function
 * follows the NumPy 1.16-frozen algorithm operation for operation (the
 * order of the floating-point operations is what makes the results equal
 * bit for bit), written after legacy-distributions.c and distributions.c. */
#include "random_dist.h"

#include "random_samplers.h"

#include <math.h>
#include <stdlib.h>

static double next_double(kj_mt19937 *st) { return kj_mt19937_double(st); }

double kj_rdist_gauss(kj_mt19937 *st)
{
    if (st->has_gauss) {
        double t = st->gauss;
        st->has_gauss = 0;
        st->gauss = 0.0;
        return t;
    }
    double x1, x2, r2;
    do {
        x1 = 2.0 * next_double(st) - 1.0;
        x2 = 2.0 * next_double(st) - 1.0;
        r2 = x1 * x1 + x2 * x2;
    } while (r2 >= 1.0 || r2 == 0.0);
    double f = sqrt(-2.0 * log(r2) / r2); /* polar Box-Muller */
    st->gauss = f * x1;
    st->has_gauss = 1;
    return f * x2;
}

/* random_loggam: log(gamma(x)) as NumPy computes it (poisson's PTRS). */
static double loggam(double x)
{
    static const double a[10] = {8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04,
                                 -5.952380952380952e-04, 8.417508417508418e-04, -1.917526917526918e-03,
                                 6.410256410256410e-03, -2.955065359477124e-02, 1.796443723688307e-01,
                                 -1.39243221690590e+00};
    if (x == 1.0 || x == 2.0) return 0.0;
    int64_t n = x < 7.0 ? (int64_t)(7 - x) : 0;
    double x0 = x + (double)n, x2 = (1.0 / x0) * (1.0 / x0), gl0 = a[9];
    for (int k = 8; k >= 0; k--) {
        gl0 *= x2;
        gl0 += a[k];
    }
    double gl = gl0 / x0 + 0.5 * 1.8378770664093453e+00 + (x0 - 0.5) * log(x0) - x0;
    if (x < 7.0)
        for (int64_t k = 1; k <= n; k++) {
            gl -= log(x0 - 1.0);
            x0 -= 1.0;
        }
    return gl;
}

bool kj_rdist_is_int(kj_rdist d)
{
    return d == KJ_RD_BINOMIAL || d == KJ_RD_POISSON || d == KJ_RD_GEOMETRIC || d >= KJ_RD_ZIPF;
}

double kj_rdist_loggam(double x) { return loggam(x); }

/* One float draw of a float distribution (random_samplers.h over MT19937). */
static double draw_f(kj_mt19937 *st, kj_rdist d, const double p[3])
{
    const kj_bitgen bg = kj_bitgen_mt(st);
    switch (d) {
    case KJ_RD_STD_NORMAL: return kj_rdist_gauss(st);
    case KJ_RD_NORMAL: return p[0] + p[1] * kj_rdist_gauss(st);
    case KJ_RD_UNIFORM: return p[0] + (p[1] - p[0]) * next_double(st);
    case KJ_RD_STD_EXP: return kj_bg_exp(&bg);
    case KJ_RD_EXP: return p[0] * kj_bg_exp(&bg);
    case KJ_RD_STD_GAMMA: return kj_smp_std_gamma(&bg, p[0]);
    case KJ_RD_GAMMA: return p[1] * kj_smp_std_gamma(&bg, p[0]);
    case KJ_RD_BETA: return kj_smp_beta(&bg, p[0], p[1]);
    case KJ_RD_CHISQUARE: return kj_smp_chisquare(&bg, p[0]);
    case KJ_RD_LOGNORMAL: return exp(p[0] + p[1] * kj_rdist_gauss(st));
    case KJ_RD_LAPLACE: return kj_smp_laplace(&bg, p[0], p[1]);
    case KJ_RD_LOGISTIC: return kj_smp_logistic(&bg, p[0], p[1]);
    case KJ_RD_GUMBEL: return kj_smp_gumbel(&bg, p[0], p[1]);
    case KJ_RD_PARETO: return exp(kj_bg_exp(&bg) / p[0]) - 1;
    case KJ_RD_WEIBULL: return p[0] == 0.0 ? 0.0 : pow(kj_bg_exp(&bg), 1. / p[0]);
    case KJ_RD_TRIANGULAR: return kj_smp_triangular(&bg, p[0], p[1], p[2]);
    case KJ_RD_STD_T: return kj_smp_std_t(&bg, p[0]);
    default: return kj_rdist_more_f(st, d, p); /* random_legacy.c */
    }
}

/* The normal fill, the hot one: legacy_gauss's pairs written two at a time
 * (f * x2, then the cached f * x1), the same values in the same order as
 * n calls; an odd last pair leaves its second value cached. */
static void fill_gauss(kj_mt19937 *st, double loc, double scale, double *out, int64_t n)
{
    int64_t i = 0;
    if (n > 0 && st->has_gauss) out[i++] = loc + scale * kj_rdist_gauss(st);
    while (i + 1 < n) {
        double x1, x2, r2;
        do {
            x1 = 2.0 * next_double(st) - 1.0;
            x2 = 2.0 * next_double(st) - 1.0;
            r2 = x1 * x1 + x2 * x2;
        } while (r2 >= 1.0 || r2 == 0.0);
        double f = sqrt(-2.0 * log(r2) / r2);
        out[i++] = loc + scale * (f * x2);
        out[i++] = loc + scale * (f * x1);
    }
    if (i < n) out[i] = loc + scale * kj_rdist_gauss(st);
}

static void fill_std_gauss(kj_mt19937 *st, double *out, int64_t n)
{
    int64_t i = 0;
    if (n > 0 && st->has_gauss) out[i++] = kj_rdist_gauss(st);
    while (i + 1 < n) {
        double x1, x2, r2;
        do {
            x1 = 2.0 * next_double(st) - 1.0;
            x2 = 2.0 * next_double(st) - 1.0;
            r2 = x1 * x1 + x2 * x2;
        } while (r2 >= 1.0 || r2 == 0.0);
        double f = sqrt(-2.0 * log(r2) / r2);
        out[i++] = f * x2;
        out[i++] = f * x1;
    }
    if (i < n) out[i] = kj_rdist_gauss(st);
}

void kj_rdist_fill(kj_mt19937 *st, kj_rdist d, const double p[3], void *out, int64_t n)
{
    if (kj_rdist_is_int(d)) {
        const kj_bitgen bg = kj_bitgen_mt(st);
        int64_t *o = out;
        for (int64_t i = 0; i < n; i++)
            o[i] = d == KJ_RD_BINOMIAL    ? kj_smp_binomial(&bg, (int64_t)p[0], p[1])
                   : d == KJ_RD_POISSON   ? kj_smp_poisson(&bg, p[0])
                   : d == KJ_RD_GEOMETRIC ? kj_smp_geometric(&bg, p[0])
                                          : kj_rdist_more_i(st, d, p);
        return;
    }
    double *o = out;
    if (d == KJ_RD_STD_NORMAL) {
        fill_std_gauss(st, o, n);
    } else if (d == KJ_RD_NORMAL) {
        fill_gauss(st, p[0], p[1], o, n);
    } else {
        for (int64_t i = 0; i < n; i++) o[i] = draw_f(st, d, p);
    }
}

/* ---- binomial's BTPE constants and acceptance (the samplers:
 * random_samplers.h), with the legacy Stirling terms all added ---- */

kj_btpe kj_btpe_init(int64_t n, double p)
{
    kj_btpe k;
    k.r = p < 1.0 - p ? p : 1.0 - p;
    k.q = 1.0 - k.r;
    k.fm = (double)n * k.r + k.r;
    k.m = (int64_t)floor(k.fm);
    k.p1 = floor(2.195 * sqrt((double)n * k.r * k.q) - 4.6 * k.q) + 0.5;
    k.xm = (double)k.m + 0.5;
    k.xl = k.xm - k.p1;
    k.xr = k.xm + k.p1;
    k.c = 0.134 + 20.5 / (15.3 + (double)k.m);
    double a = (k.fm - k.xl) / (k.fm - k.xl * k.r);
    k.laml = a * (1.0 + a / 2.0);
    a = (k.xr - k.fm) / (k.xr * k.q);
    k.lamr = a * (1.0 + a / 2.0);
    k.p2 = k.p1 * (1.0 + 2.0 * k.c);
    k.p3 = k.p2 + k.c / k.laml;
    k.p4 = k.p3 + k.c / k.lamr;
    return k;
}

static double stirling(double x, double x2)
{
    return (13680. - (462. - (132. - (99. - 140. / x2) / x2) / x2) / x2) / x / 166320.;
}

bool kj_btpe_accept(const kj_btpe *k, int64_t n, int64_t y, double v)
{
    double nrq = (double)n * k->r * k->q;
    int64_t m = k->m, kk = llabs(y - m);
    if (!(kk > 20 && (double)kk < nrq / 2.0 - 1)) {
        double s = k->r / k->q, a = s * (double)(n + 1), F = 1.0;
        if (m < y)
            for (int64_t i = m + 1; i <= y; i++) F *= (a / (double)i - s);
        else if (m > y)
            for (int64_t i = y + 1; i <= m; i++) F /= (a / (double)i - s);
        return !(v > F);
    }
    double dk = (double)kk;
    double rho = (dk / nrq) * ((dk * (dk / 3.0 + 0.625) + 0.16666666666666666) / nrq + 0.5);
    double t = -dk * dk / (2 * nrq), A = log(v);
    if (A < (t - rho)) return true;
    if (A > (t + rho)) return false;
    double x1 = (double)(y + 1), f1 = (double)(m + 1), z = (double)(n + 1 - m), w = (double)(n - y + 1);
    return !(A > (k->xm * log(f1 / x1) + ((double)(n - m) + 0.5) * log(z / w) +
                  (double)(y - m) * log(w * k->r / (x1 * k->q)) + stirling(f1, f1 * f1) +
                  stirling(z, z * z) + stirling(x1, x1 * x1) + stirling(w, w * w)));
}

/* ---- mtrand.pyx's parameter constraints ---- */

/* CONS_NON_NEGATIVE: -0.0 fails too (signbit), NaN passes. */
static bool nonneg(double v, const char *name, kj_rt_error *err)
{
    return isnan(v) || !signbit(v) || kj_rt_errorf(err, "ValueError", "%s < 0", name);
}

static bool positive(double v, const char *name, kj_rt_error *err)
{
    return !(v <= 0) || kj_rt_errorf(err, "ValueError", "%s <= 0", name);
}

static bool check_triangular(const double p[3], kj_rt_error *err)
{
    if (p[0] > p[1]) return kj_rt_errorf(err, "ValueError", "left > mode");
    if (p[1] > p[2]) return kj_rt_errorf(err, "ValueError", "mode > right");
    if (p[0] == p[2]) return kj_rt_errorf(err, "ValueError", "left == right");
    return true;
}

/* LEGACY_POISSON_LAM_MAX: iinfo(long).max - 10 * sqrt(iinfo(long).max) */
#define POISSON_LAM_MAX 9.223372006484771e+18

bool kj_rdist_check(kj_rdist d, const double p[3], kj_rt_error *err)
{
    switch (d) {
    case KJ_RD_NORMAL: case KJ_RD_EXP: case KJ_RD_LAPLACE: case KJ_RD_LOGISTIC: case KJ_RD_GUMBEL:
        return nonneg(p[d == KJ_RD_EXP ? 0 : 1], "scale", err);
    case KJ_RD_UNIFORM:
        return isfinite(p[1] - p[0]) || kj_rt_errorf(err, "OverflowError", "Range exceeds valid bounds");
    case KJ_RD_STD_GAMMA: return nonneg(p[0], "shape", err);
    case KJ_RD_GAMMA: return nonneg(p[0], "shape", err) && nonneg(p[1], "scale", err);
    case KJ_RD_BETA: return positive(p[0], "a", err) && positive(p[1], "b", err);
    case KJ_RD_CHISQUARE: case KJ_RD_STD_T: return positive(p[0], "df", err);
    case KJ_RD_LOGNORMAL: return nonneg(p[1], "sigma", err);
    case KJ_RD_PARETO: return positive(p[0], "a", err);
    case KJ_RD_WEIBULL: return nonneg(p[0], "a", err);
    case KJ_RD_TRIANGULAR: return check_triangular(p, err);
    case KJ_RD_BINOMIAL:
        if (!(p[1] >= 0) || !(p[1] <= 1)) return kj_rt_errorf(err, "ValueError", "p < 0, p > 1 or p is NaN");
        return nonneg(p[0], "n", err);
    case KJ_RD_POISSON:
        if (!(p[0] >= 0)) return kj_rt_errorf(err, "ValueError", "lam < 0 or lam is NaN");
        return p[0] <= POISSON_LAM_MAX || kj_rt_errorf(err, "ValueError", "lam value too large");
    case KJ_RD_GEOMETRIC:
        return (p[0] > 0 && p[0] <= 1) ||
               kj_rt_errorf(err, "ValueError", "p <= 0, p > 1 or p contains NaNs");
    default: return kj_rdist_more_check(d, p, err);
    }
}
