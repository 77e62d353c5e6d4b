/* SPDX-License-Identifier: BSD-2-Clause */
/* Generator.hypergeometric(ngood, nbad, nsample) as NumPy 1.24's
 * random_hypergeometric.c, not the legacy HYP/HRUA pair (random_legacy.c):
 * a count-based draw below 10 samples (or within 10 of the population),
 * else Stadlober's ratio of uniforms (HRUA) over logfactorial, whose table
 * scripts/gen_logfact.py writes (logfact_table.h). */
#include "random_gen_dist.h"

#include "logfact_table.h"

#include <math.h>

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* logfactorial(k): the table, else Stirling's series to the 1/k**3 term. */
static double logfactorial(int64_t k)
{
    const double halfln2pi = 0.9189385332046728;
    if (k < (int64_t)(sizeof kj_logfact_table / sizeof kj_logfact_table[0])) return kj_logfact_table[k];
    double dk = (double)k;
    return (dk + 0.5) * log(dk) - dk + (halfln2pi + (1.0 / dk) * (1 / 12.0 - 1 / (360.0 * dk * dk)));
}

/* Draw the sample one item at a time: random_interval(remaining - 1) below
 * the good ones left picks a good one. */
static int64_t hyp_count(kj_pcg64 *g, int64_t good, int64_t bad, int64_t sample)
{
    const kj_bitgen bg = kj_bitgen_pcg(g);
    int64_t total = good + bad, computed = sample > total / 2 ? total - sample : sample;
    int64_t remaining_total = total, remaining_good = good;
    while (computed > 0 && remaining_good > 0 && remaining_total > remaining_good) {
        --remaining_total;
        if ((int64_t)kj_smp_interval(&bg, (uint64_t)remaining_total) < remaining_good) --remaining_good;
        --computed;
    }
    if (remaining_total == remaining_good) remaining_good -= computed; /* only good ones left */
    return sample > total / 2 ? remaining_good : good - remaining_good;
}

#define HRUA_D1 1.7155277699214135 /* 2*sqrt(2/e) */
#define HRUA_D2 0.8989161620588988 /* 3 - 2*sqrt(3/e) */

static double lf4(int64_t a, int64_t b, int64_t c, int64_t d)
{
    return logfactorial(a) + logfactorial(b) + logfactorial(c) + logfactorial(d);
}

static int64_t hyp_hrua(kj_pcg64 *g, int64_t good, int64_t bad, int64_t sample)
{
    int64_t popsize = good + bad, n = min64(sample, popsize - sample);
    int64_t mingb = min64(good, bad), maxgb = max64(good, bad);
    double p = (double)mingb / (double)popsize, q = (double)maxgb / (double)popsize;
    double mu = (double)n * p, a = mu + 0.5;
    double var = (double)(popsize - n) * (double)n * p * q / (double)(popsize - 1);
    double c = sqrt(var + 0.5), h = HRUA_D1 * c + HRUA_D2;
    int64_t m = (int64_t)floor((double)(n + 1) * (double)(mingb + 1) / (double)(popsize + 2));
    double gm = lf4(m, mingb - m, n - m, maxgb - n + m);
    double b = fmin((double)min64(n, mingb) + 1, floor(a + 16 * c));
    int64_t K;
    for (;;) {
        double U = kj_pcg64_double(g), V = kj_pcg64_double(g), X = a + h * (V - 0.5) / U;
        if (X < 0.0 || X >= b) continue;
        K = (int64_t)floor(X);
        double T = gm - lf4(K, mingb - K, n - K, maxgb - n + K);
        if ((U * (4.0 - U) - 3.0) <= T) break;
        if (U * (U - T) >= 1) continue;
        if (2.0 * log(U) <= T) break;
    }
    if (good > bad) K = n - K;
    if (n < sample) K = good - K;
    return K;
}

int64_t kj_gen_hypergeometric(kj_pcg64 *g, int64_t good, int64_t bad, int64_t sample)
{
    if (sample >= 10 && sample <= good + bad - 10) return hyp_hrua(g, good, bad, sample);
    return hyp_count(g, good, bad, sample);
}
