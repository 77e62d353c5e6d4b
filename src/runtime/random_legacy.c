/* SPDX-License-Identifier: BSD-2-Clause */
/* The rest of RandomState's distributions (random_dist.h, kj_rdist codes
 * KJ_RD_STD_CAUCHY and after): standard_cauchy, rayleigh, power, wald,
 * vonmises, f, noncentral_chisquare, zipf, logseries, negative_binomial and
 * hypergeometric, each operation for operation as NumPy's
 * random/src/legacy/legacy-distributions.c (legacy_* functions) does it, so
 * that the values after np.random.seed(n) equal RandomState's bit for bit;
 * the checks and messages are mtrand.pyx's. */
#include "random_dist.h"

#include "random_samplers.h"

#include <math.h>

static double next_double(kj_mt19937 *st) { return kj_mt19937_double(st); }

double kj_rdist_more_f(kj_mt19937 *st, kj_rdist d, const double p[3])
{
    const kj_bitgen bg = kj_bitgen_mt(st);
    switch (d) {
    case KJ_RD_STD_CAUCHY: return kj_smp_cauchy(&bg);
    case KJ_RD_RAYLEIGH: return p[0] * sqrt(-2.0 * log1p(-next_double(st)));
    case KJ_RD_POWER: return pow(1 - exp(-(-log(1.0 - next_double(st)))), 1. / p[0]);
    case KJ_RD_WALD: return kj_smp_wald(&bg, p[0], p[1]);
    case KJ_RD_VONMISES: return kj_smp_vonmises(&bg, p[0], p[1]);
    case KJ_RD_F: return kj_smp_f(&bg, p[0], p[1]);
    case KJ_RD_NONCENTRAL_CHISQUARE: return kj_smp_noncentral_chisquare(&bg, p[0], p[1]);
    default: return 0.0;
    }
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* HYP: sample <= 10 */
static int64_t hypergeometric_hyp(kj_mt19937 *st, int64_t good, int64_t bad, int64_t sample)
{
    int64_t d1 = bad + good - sample, k = sample;
    double d2 = (double)min64(bad, good), y = d2;
    while (y > 0.0) {
        double u = next_double(st);
        y -= (double)(int64_t)floor(u + y / (double)(d1 + k));
        k--;
        if (k == 0) break;
    }
    int64_t z = (int64_t)(d2 - y);
    return good > bad ? sample - z : z;
}

#define HRUA_D1 1.7155277699214135 /* 2*sqrt(2/e) */
#define HRUA_D2 0.8989161620588988 /* 3 - 2*sqrt(3/e) */

static double lg4(int64_t a, int64_t b, int64_t c, int64_t d)
{
    return kj_rdist_loggam((double)a) + kj_rdist_loggam((double)b) + kj_rdist_loggam((double)c) +
           kj_rdist_loggam((double)d);
}

/* HRUA (ratio of uniforms), sample > 10 */
static int64_t hypergeometric_hrua(kj_mt19937 *st, int64_t good, int64_t bad, int64_t sample)
{
    int64_t mingb = min64(good, bad), popsize = good + bad, maxgb = max64(good, bad);
    int64_t m = min64(sample, popsize - sample);
    double d4 = ((double)mingb) / (double)popsize, d5 = 1.0 - d4, d6 = (double)m * d4 + 0.5;
    double d7 = sqrt((double)(popsize - m) * (double)sample * d4 * d5 / (double)(popsize - 1) + 0.5);
    double d8 = HRUA_D1 * d7 + HRUA_D2;
    int64_t d9 = (int64_t)floor((double)(m + 1) * (double)(mingb + 1) / (double)(popsize + 2));
    double d10 = lg4(d9 + 1, mingb - d9 + 1, m - d9 + 1, maxgb - m + d9 + 1);
    double d11 = fmin((double)min64(m, mingb) + 1.0, floor(d6 + 16 * d7));
    int64_t Z;
    for (;;) {
        double X = next_double(st), Y = next_double(st), W = d6 + d8 * (Y - 0.5) / X;
        if (W < 0.0 || W >= d11) continue;
        Z = (int64_t)floor(W);
        double T = d10 - lg4(Z + 1, mingb - Z + 1, m - Z + 1, maxgb - m + Z + 1);
        if ((X * (4.0 - X) - 3.0) <= T) break;
        if (X * (X - T) >= 1) continue;
        if (2.0 * log(X) <= T) break;
    }
    if (good > bad) Z = m - Z;
    if (m < sample) Z = good - Z;
    return Z;
}

int64_t kj_rdist_more_i(kj_mt19937 *st, kj_rdist d, const double p[3])
{
    const kj_bitgen bg = kj_bitgen_mt(st);
    switch (d) {
    case KJ_RD_ZIPF: return kj_smp_zipf(&bg, p[0]);
    case KJ_RD_LOGSERIES: return kj_smp_logseries(&bg, p[0]);
    case KJ_RD_NEG_BINOMIAL: return kj_smp_negative_binomial(&bg, p[0], p[1]);
    case KJ_RD_HYPERGEOMETRIC: {
        int64_t good = (int64_t)p[0], bad = (int64_t)p[1], sample = (int64_t)p[2];
        if (sample > 10) return hypergeometric_hrua(st, good, bad, sample);
        return sample > 0 ? hypergeometric_hyp(st, good, bad, sample) : 0;
    }
    default: return 0;
    }
}

static bool positive(double v, const char *name, kj_rt_error *err)
{
    return !(v <= 0) || kj_rt_errorf(err, "ValueError", "%s <= 0", name);
}

/* CONS_NON_NEGATIVE: -0.0 fails too (signbit), NaN passes. */
static bool nonneg(double v, const char *name, kj_rt_error *err)
{
    return isnan(v) || !signbit(v) || kj_rt_errorf(err, "ValueError", "%s < 0", name);
}

static bool check_hypergeometric(const double p[3], kj_rt_error *err)
{
    if ((int64_t)p[0] + (int64_t)p[1] < (int64_t)p[2])
        return kj_rt_errorf(err, "ValueError", "ngood + nbad < nsample");
    if (p[0] < 0) return kj_rt_errorf(err, "ValueError", "ngood < 0");
    if (p[1] < 0) return kj_rt_errorf(err, "ValueError", "nbad < 0");
    return p[2] >= 1 || kj_rt_errorf(err, "ValueError", "nsample < 1 or nsample is NaN");
}

bool kj_rdist_more_check(kj_rdist d, const double p[3], kj_rt_error *err)
{
    switch (d) {
    case KJ_RD_RAYLEIGH: return nonneg(p[0], "scale", err);
    case KJ_RD_POWER: return positive(p[0], "a", err);
    case KJ_RD_WALD: return positive(p[0], "mean", err) && positive(p[1], "scale", err);
    case KJ_RD_VONMISES: return nonneg(p[1], "kappa", err);
    case KJ_RD_F: return positive(p[0], "dfnum", err) && positive(p[1], "dfden", err);
    case KJ_RD_NONCENTRAL_CHISQUARE: return positive(p[0], "df", err) && nonneg(p[1], "nonc", err);
    case KJ_RD_ZIPF: return p[0] > 1 || kj_rt_errorf(err, "ValueError", "a <= 1 or a is NaN");
    case KJ_RD_LOGSERIES:
        return (p[0] >= 0 && p[0] < 1) || kj_rt_errorf(err, "ValueError", "p < 0, p >= 1 or p is NaN");
    case KJ_RD_NEG_BINOMIAL:
        if (!positive(p[0], "n", err)) return false;
        return (p[1] >= 0 && p[1] <= 1) || kj_rt_errorf(err, "ValueError", "p < 0, p > 1 or p is NaN");
    case KJ_RD_HYPERGEOMETRIC: return check_hypergeometric(p, err);
    default: return true;
    }
}
