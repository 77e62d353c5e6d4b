/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy's legacy RandomState distributions over the MT19937 stream
 * (random.h), bit for bit: the algorithms of NumPy's
 * random/src/legacy/legacy-distributions.c (the legacy_* functions that
 * mtrand.pyx calls) and, where RandomState uses them, of
 * random/src/distributions/distributions.c, with mtrand.pyx's argument
 * checks and messages. Every distribution takes up to three float
 * parameters; generated code passes the kj_rdist code (random_dist.h is
 * the contract, like rt_host.h's operation codes). */
#ifndef KJ_RANDOM_DIST_H
#define KJ_RANDOM_DIST_H

#include "random.h"

typedef enum {
    KJ_RD_STD_NORMAL,  /* standard_normal / randn */
    KJ_RD_NORMAL,      /* normal(loc, scale) */
    KJ_RD_UNIFORM,     /* uniform(low, high) */
    KJ_RD_STD_EXP,     /* standard_exponential */
    KJ_RD_EXP,         /* exponential(scale) */
    KJ_RD_STD_GAMMA,   /* standard_gamma(shape) */
    KJ_RD_GAMMA,       /* gamma(shape, scale) */
    KJ_RD_BETA,        /* beta(a, b) */
    KJ_RD_CHISQUARE,   /* chisquare(df) */
    KJ_RD_LOGNORMAL,   /* lognormal(mean, sigma) */
    KJ_RD_LAPLACE,     /* laplace(loc, scale) */
    KJ_RD_LOGISTIC,    /* logistic(loc, scale) */
    KJ_RD_GUMBEL,      /* gumbel(loc, scale) */
    KJ_RD_PARETO,      /* pareto(a) */
    KJ_RD_WEIBULL,     /* weibull(a) */
    KJ_RD_TRIANGULAR,  /* triangular(left, mode, right) */
    KJ_RD_STD_T,       /* standard_t(df) */
    KJ_RD_BINOMIAL,    /* binomial(n, p): integer result */
    KJ_RD_POISSON,     /* poisson(lam): integer result */
    KJ_RD_GEOMETRIC,   /* geometric(p): integer result */
    /* random_legacy.c: */
    KJ_RD_STD_CAUCHY,  /* standard_cauchy() */
    KJ_RD_RAYLEIGH,    /* rayleigh(scale) */
    KJ_RD_POWER,       /* power(a) */
    KJ_RD_WALD,        /* wald(mean, scale) */
    KJ_RD_VONMISES,    /* vonmises(mu, kappa) */
    KJ_RD_F,           /* f(dfnum, dfden) */
    KJ_RD_NONCENTRAL_CHISQUARE, /* noncentral_chisquare(df, nonc) */
    KJ_RD_NONCENTRAL_F, /* noncentral_f(dfnum, dfden, nonc): the Generator's only */
    KJ_RD_ZIPF,        /* zipf(a): integer result, as the three after it */
    KJ_RD_LOGSERIES,   /* logseries(p) */
    KJ_RD_NEG_BINOMIAL, /* negative_binomial(n, p) */
    KJ_RD_HYPERGEOMETRIC, /* hypergeometric(ngood, nbad, nsample) */
    KJ_RD__COUNT
} kj_rdist;

/* Does distribution d give integers (int64, NumPy's `long`)? */
bool kj_rdist_is_int(kj_rdist d);
/* mtrand.pyx's checks of the parameters, with its messages ("scale < 0",
 * "p < 0, p > 1 or p is NaN", ...) as ValueError (OverflowError for a
 * uniform range that is not finite). */
bool kj_rdist_check(kj_rdist d, const double p[3], kj_rt_error *err);
/* n draws of d (parameters checked) into out: doubles, or int64 for the
 * integer distributions. */
void kj_rdist_fill(kj_mt19937 *st, kj_rdist d, const double p[3], void *out, int64_t n);

/* legacy_gauss: the polar method, caching its second value in st. */
double kj_rdist_gauss(kj_mt19937 *st);
/* Swap rows i and j of h (sub-arrays of its trailing dimensions): shuffle's
 * step (random_pick.c). */
void kj_random_swap_rows(const kj_array *h, int64_t i, int64_t j);
/* BTPE's constants for (n, p) (Kachitvichyanukul & Schmeiser), and its
 * acceptance test for y after the triangle (true accepts): random_samplers.h's
 * binomial, for both streams. */
typedef struct kj_btpe {
    double r, q, fm, p1, xm, xl, xr, c, laml, lamr, p2, p3, p4;
    int64_t m;
} kj_btpe;
kj_btpe kj_btpe_init(int64_t n, double p);
bool kj_btpe_accept(const kj_btpe *k, int64_t n, int64_t y, double v);

/* random_loggam: log(gamma(x)) as NumPy computes it (poisson's PTRS, the
 * legacy hypergeometric). */
double kj_rdist_loggam(double x);
/* random_legacy.c: a draw of the distributions from KJ_RD_STD_CAUCHY on
 * (float ones, integer ones) and their checks. */
double kj_rdist_more_f(kj_mt19937 *st, kj_rdist d, const double p[3]);
int64_t kj_rdist_more_i(kj_mt19937 *st, kj_rdist d, const double p[3]);
bool kj_rdist_more_check(kj_rdist d, const double p[3], kj_rt_error *err);

#endif
