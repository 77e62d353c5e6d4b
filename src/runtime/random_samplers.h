/* SPDX-License-Identifier: BSD-2-Clause */
/* The samplers that NumPy's legacy RandomState (random_dist.c,
 * random_legacy.c, random_pick.c) and its Generator (random_gen_dist.c,
 * random_gen_disc.c, random_gen_pick.c) share, written once over a bit
 * source, as NumPy writes them once over its bitgen_t: a kj_bitgen names the
 * stream (kj_bg_*: its uniform double, 32/64-bit words, standard normal and
 * standard exponential). Where NumPy
 * 1.24's legacy and Generator algorithms still differ, the sampler takes
 * the branch that `legacy` names, and says so.
 *
 * The functions are static inline: each stream's file builds its kj_bitgen
 * as a local constant (kj_bitgen_mt / kj_bitgen_pcg), so the compiler folds
 * the stream's branch, and the shared code costs the hot loops nothing over
 * a copy per stream. */
#ifndef KJ_RANDOM_SAMPLERS_H
#define KJ_RANDOM_SAMPLERS_H

#include "pcg64.h"
#include "random_dist.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

typedef struct kj_bitgen {
    void *state; /* a kj_mt19937 (legacy) or a kj_pcg64 */
    bool legacy; /* RandomState's stream and variant where NumPy 1.24's two differ */
} kj_bitgen;

/* The two streams' draws. A branch on `legacy`, not function pointers: each
 * caller's kj_bitgen is a local constant, so the branch folds away and the
 * stream's inline draws inline into the sampler (function pointers stayed
 * calls: 8% on legacy poisson and exponential fills). */
double kj_gen_std_normal(kj_pcg64 *g); /* random_gen_dist.c: the ziggurat */
double kj_gen_std_exp(kj_pcg64 *g);

static inline double kj_bg_double(const kj_bitgen *bg)
{
    return bg->legacy ? kj_mt19937_double(bg->state) : kj_pcg64_double(bg->state);
}
static inline uint32_t kj_bg_next32(const kj_bitgen *bg)
{
    return bg->legacy ? kj_mt19937_next32(bg->state) : kj_pcg64_next32(bg->state);
}
static inline uint64_t kj_bg_next64(const kj_bitgen *bg)
{
    return bg->legacy ? kj_mt19937_next64(bg->state) : kj_pcg64_next64(bg->state);
}
/* legacy: the polar method with its cached value; Generator: the ziggurat */
static inline double kj_bg_normal(const kj_bitgen *bg)
{
    return bg->legacy ? kj_rdist_gauss(bg->state) : kj_gen_std_normal(bg->state);
}
/* legacy: -log(1 - U); Generator: the ziggurat */
static inline double kj_bg_exp(const kj_bitgen *bg)
{
    return bg->legacy ? -log(1.0 - kj_mt19937_double(bg->state)) : kj_gen_std_exp(bg->state);
}

static inline kj_bitgen kj_bitgen_mt(kj_mt19937 *st) { return (kj_bitgen){st, true}; }
static inline kj_bitgen kj_bitgen_pcg(kj_pcg64 *g) { return (kj_bitgen){g, false}; }

/* random_interval(max): a value in [0, max] by masked rejection. */
static inline uint64_t kj_smp_interval(const kj_bitgen *bg, uint64_t max)
{
    if (max == 0) return 0;
    uint64_t mask = max, v;
    for (int s = 1; s < 64; s *= 2) mask |= mask >> s;
    if (max <= 0xffffffffu)
        while ((v = (kj_bg_next32(bg) & mask)) > max) {}
    else
        while ((v = (kj_bg_next64(bg) & mask)) > max) {}
    return v;
}

/* Marsaglia & Tsang above shape 1, Johnk-like rejection below. */
static inline double kj_smp_std_gamma(const kj_bitgen *bg, double shape)
{
    if (shape == 1.0) return kj_bg_exp(bg);
    if (shape == 0.0) return 0.0;
    if (shape < 1.0) {
        for (;;) {
            double U = kj_bg_double(bg), V = kj_bg_exp(bg);
            if (U <= 1.0 - shape) {
                double X = pow(U, 1. / shape);
                if (X <= V) return X;
            } else {
                double Y = -log((1 - U) / shape);
                double X = pow(1.0 - shape + shape * Y, 1. / shape);
                if (X <= (V + Y)) return X;
            }
        }
    }
    double b = shape - 1. / 3., c = 1. / sqrt(9 * b);
    for (;;) {
        double X, V;
        do {
            X = kj_bg_normal(bg);
            V = 1.0 + c * X;
        } while (V <= 0.0);
        V = V * V * V;
        double U = kj_bg_double(bg);
        if (U < 1.0 - 0.0331 * (X * X) * (X * X)) return b * V;
        if (log(U) < 0.5 * X * X + b * (1. - V + log(V))) return b * V;
    }
}

static inline double kj_smp_chisquare(const kj_bitgen *bg, double df) { return 2.0 * kj_smp_std_gamma(bg, df / 2.0); }

/* Johnk's algorithm for a, b <= 1 (both underflowed: legacy takes logs,
 * the Generator of 1.24 draws again), else two gammas. */
static inline double kj_smp_beta(const kj_bitgen *bg, double a, double b)
{
    if (a <= 1.0 && b <= 1.0) {
        for (;;) {
            double U = kj_bg_double(bg), V = kj_bg_double(bg);
            double X = pow(U, 1.0 / a), Y = pow(V, 1.0 / b), XpY = X + Y;
            if (XpY > 1.0) continue;
            if (XpY > 0.0) return X / XpY;
            if (!bg->legacy) continue;
            double logX = log(U) / a, logY = log(V) / b;
            double logM = logX > logY ? logX : logY;
            logX -= logM;
            logY -= logM;
            return exp(logX - log(exp(logX) + exp(logY)));
        }
    }
    double Ga = kj_smp_std_gamma(bg, a), Gb = kj_smp_std_gamma(bg, b);
    return Ga / (Ga + Gb);
}

static inline double kj_smp_laplace(const kj_bitgen *bg, double loc, double scale)
{
    for (;;) { /* U == 0 is drawn again */
        double U = kj_bg_double(bg);
        if (U >= 0.5) return loc - scale * log(2.0 - U - U);
        if (U > 0.0) return loc + scale * log(U + U);
    }
}

static inline double kj_smp_gumbel(const kj_bitgen *bg, double loc, double scale)
{
    for (;;) {
        double U = 1.0 - kj_bg_double(bg);
        if (U < 1.0) return loc - scale * log(-log(U));
    }
}

static inline double kj_smp_logistic(const kj_bitgen *bg, double loc, double scale)
{
    for (;;) {
        double U = kj_bg_double(bg);
        if (U > 0.0) return loc + scale * log(U / (1.0 - U));
    }
}

static inline double kj_smp_triangular(const kj_bitgen *bg, double left, double mode, double right)
{
    double base = right - left, leftbase = mode - left, ratio = leftbase / base;
    double leftprod = leftbase * base, rightprod = (right - mode) * base;
    double U = kj_bg_double(bg);
    if (U <= ratio) return left + sqrt(U * leftprod);
    return right - sqrt((1.0 - U) * rightprod);
}

static inline double kj_smp_wald(const kj_bitgen *bg, double mean, double scale)
{
    double mu_2l = mean / (2 * scale), Y = kj_bg_normal(bg);
    Y = mean * Y * Y;
    double X = mean + mu_2l * (Y - sqrt(4 * scale * Y + Y * Y));
    double U = kj_bg_double(bg);
    return U <= mean / (mean + X) ? X : mean * mean / X;
}

static inline double kj_smp_std_t(const kj_bitgen *bg, double df)
{
    double num = kj_bg_normal(bg), denom = kj_smp_std_gamma(bg, df / 2);
    return sqrt(df / 2) * num / sqrt(denom);
}

static inline double kj_smp_f(const kj_bitgen *bg, double dfnum, double dfden)
{
    double num = kj_smp_chisquare(bg, dfnum) * dfden;
    return num / (kj_smp_chisquare(bg, dfden) * dfnum);
}

static inline double kj_smp_cauchy(const kj_bitgen *bg)
{
    double num = kj_bg_normal(bg);
    return num / kj_bg_normal(bg);
}

static inline int64_t kj_smp_poisson_mult(const kj_bitgen *bg, double lam)
{
    double enlam = exp(-lam), prod = 1.0;
    int64_t X = 0;
    for (;;) {
        prod *= kj_bg_double(bg);
        if (prod > enlam) X += 1;
        else return X;
    }
}

/* Hoermann's transformed rejection (PTRS), for lam >= 10. */
static inline int64_t kj_smp_poisson_ptrs(const kj_bitgen *bg, double lam)
{
    double slam = sqrt(lam), loglam = log(lam), b = 0.931 + 2.53 * slam;
    double a = -0.059 + 0.02483 * b, invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
    for (;;) {
        double U = kj_bg_double(bg) - 0.5, V = kj_bg_double(bg), us = 0.5 - fabs(U);
        int64_t k = (int64_t)floor((2 * a / us + b) * U + lam + 0.43);
        if (us >= 0.07 && V <= vr) return k;
        if (k < 0 || (us < 0.013 && V > us)) continue;
        if ((log(V) + log(invalpha) - log(a / (us * us) + b)) <=
            (-lam + (double)k * loglam - kj_rdist_loggam((double)k + 1)))
            return k;
    }
}

static inline int64_t kj_smp_poisson(const kj_bitgen *bg, double lam)
{
    if (lam >= 10) return kj_smp_poisson_ptrs(bg, lam);
    if (lam == 0) return 0;
    return kj_smp_poisson_mult(bg, lam);
}

/* noncentral_chisquare: the Generator returns NaN for a NaN nonc before any
 * draw; legacy draws first and returns NaN after. */
static inline double kj_smp_noncentral_chisquare(const kj_bitgen *bg, double df, double nonc)
{
    if (!bg->legacy && isnan(nonc)) return NAN;
    if (nonc == 0) return kj_smp_chisquare(bg, df);
    if (1 < df) {
        double Chi2 = kj_smp_chisquare(bg, df - 1), n = kj_bg_normal(bg) + sqrt(nonc);
        return Chi2 + n * n;
    }
    int64_t i = kj_smp_poisson(bg, nonc / 2.0);
    double out = kj_smp_chisquare(bg, df + 2 * (double)i);
    return isnan(nonc) ? NAN : out;
}

static inline int64_t kj_smp_binomial_inversion(const kj_bitgen *bg, int64_t n, double p)
{
    double q = 1.0 - p, qn = exp((double)n * log(q)), np = (double)n * p;
    double bd = np + 10.0 * sqrt(np * q + 1);
    int64_t bound = (int64_t)((double)n < bd ? (double)n : bd), X = 0;
    double px = qn, U = kj_bg_double(bg);
    while (U > px) {
        X++;
        if (X > bound) {
            X = 0;
            px = qn;
            U = kj_bg_double(bg);
        } else {
            U -= px;
            px = ((double)(n - X + 1) * p * px) / ((double)X * q);
        }
    }
    return X;
}

/* BTPE (Kachitvichyanukul & Schmeiser) for p <= 0.5 */
static inline int64_t kj_smp_binomial_btpe(const kj_bitgen *bg, int64_t n, double p)
{
    kj_btpe k = kj_btpe_init(n, p);
    int64_t y;
    for (;;) {
        double u = kj_bg_double(bg) * k.p4, v = kj_bg_double(bg);
        if (u <= k.p1) return (int64_t)floor(k.xm - k.p1 * v + u);
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
        if (kj_btpe_accept(&k, n, y, v)) return y;
    }
}

/* binomial(n, p): the Generator draws nothing for n == 0 or p == 0, legacy
 * still draws once. */
static inline int64_t kj_smp_binomial(const kj_bitgen *bg, int64_t n, double p)
{
    if (!bg->legacy && (n == 0 || p == 0.0)) return 0;
    if (p <= 0.5) return p * (double)n <= 30.0 ? kj_smp_binomial_inversion(bg, n, p) : kj_smp_binomial_btpe(bg, n, p);
    double q = 1.0 - p;
    return n - (q * (double)n <= 30.0 ? kj_smp_binomial_inversion(bg, n, q) : kj_smp_binomial_btpe(bg, n, q));
}

/* random_multinomial: one row of counts m[0..d) (zeroed by the caller);
 * both streams go through random_binomial, which draws nothing for n == 0
 * or p == 0. */
static inline void kj_smp_multinomial(const kj_bitgen *bg, int64_t n, int64_t *m, const double *p, int64_t d)
{
    double remaining = 1.0;
    int64_t dn = n;
    for (int64_t j = 0; j < d - 1; j++) {
        double pj = p[j] / remaining;
        m[j] = dn == 0 || pj == 0.0 ? 0 : kj_smp_binomial(bg, dn, pj);
        dn -= m[j];
        if (dn <= 0) break;
        remaining -= p[j];
    }
    if (dn > 0) m[d - 1] = dn;
}

/* geometric: a search for p >= 1/3, else inversion (legacy: of a uniform;
 * Generator: of the ziggurat exponential). */
static inline int64_t kj_smp_geometric(const kj_bitgen *bg, double p)
{
    if (p >= 0.333333333333333333333333) {
        double sum = p, prod = p, q = 1.0 - p, U = kj_bg_double(bg);
        int64_t X = 1;
        while (U > sum) {
            prod *= q;
            sum += prod;
            X++;
        }
        return X;
    }
    if (bg->legacy) return (int64_t)ceil(log1p(-kj_bg_double(bg)) / log(1 - p));
    return (int64_t)ceil(-kj_bg_exp(bg) / log1p(-p));
}

static inline int64_t kj_smp_zipf(const kj_bitgen *bg, double a)
{
    double am1 = a - 1.0, b = pow(2.0, am1);
    for (;;) {
        double U = 1.0 - kj_bg_double(bg), V = kj_bg_double(bg), X = floor(pow(U, -1.0 / am1));
        /* beyond int64: rejected (a Zipf truncated to the largest long) */
        if (X > (double)INT64_MAX || X < 1.0) continue;
        double T = pow(1.0 + 1.0 / X, am1);
        if (V * X * (T - 1.0) / (b - 1.0) <= T / b) return (int64_t)X;
    }
}

/* logseries: legacy's log(1 - p) and 1 - exp(r U), the Generator's log1p and
 * expm1. */
static inline int64_t kj_smp_logseries(const kj_bitgen *bg, double p)
{
    double r = bg->legacy ? log(1.0 - p) : log1p(-p);
    for (;;) {
        double V = kj_bg_double(bg);
        if (V >= p) return 1;
        double U = kj_bg_double(bg), q = bg->legacy ? 1.0 - exp(r * U) : -expm1(r * U);
        if (V <= q * q) {
            int64_t result = (int64_t)floor(1 + log(V) / log(q));
            if (result < 1 || V == 0.0) continue;
            return result;
        }
        return V >= q ? 1 : 2;
    }
}

static inline int64_t kj_smp_negative_binomial(const kj_bitgen *bg, double n, double p)
{
    double Y = (1 - p) / p * kj_smp_std_gamma(bg, n);
    return kj_smp_poisson(bg, Y);
}

/* vonmises's angle wrapped into [-pi, pi], the sign kept as NumPy does. */
static inline double kj_smp_wrap_angle(double result)
{
    int neg = result < 0;
    double mod = fmod(fabs(result) + M_PI, 2 * M_PI) - M_PI;
    return neg ? -mod : mod;
}

/* vonmises: the Generator falls back to a wrapped normal above kappa 1e6;
 * legacy keeps the rejection loop. */
static inline double kj_smp_vonmises(const kj_bitgen *bg, double mu, double kappa)
{
    if (isnan(kappa)) return NAN;
    if (kappa < 1e-8) return M_PI * (2 * kj_bg_double(bg) - 1);
    double s, W;
    if (kappa < 1e-5) {
        s = (1. / kappa + kappa); /* second-order Taylor expansion around 0 */
    } else if (kappa <= 1e6 || bg->legacy) {
        double r = 1 + sqrt(1 + 4 * kappa * kappa), rho = (r - sqrt(2 * r)) / (2 * kappa);
        s = (1 + rho * rho) / (2 * rho);
    } else {
        double result = mu + sqrt(1. / kappa) * kj_bg_normal(bg);
        if (result < -M_PI) result += 2 * M_PI;
        if (result > M_PI) result -= 2 * M_PI;
        return result;
    }
    for (;;) {
        double U = kj_bg_double(bg), Z = cos(M_PI * U);
        W = (1 + s * Z) / (s + Z);
        double Y = kappa * (s - W), V = kj_bg_double(bg);
        if ((Y * (2 - Y) - V >= 0) || (log(Y / V) + 1 - Y >= 0)) break;
    }
    double U = kj_bg_double(bg), result = acos(W);
    if (U < 0.5) result = -result;
    return kj_smp_wrap_angle(result + mu);
}

/* One dirichlet row v[0..k) by normalised gammas (mtrand's and the
 * Generator's standard case). */
static inline void kj_smp_dirichlet_gamma(const kj_bitgen *bg, const double *alpha, double *v, int64_t k)
{
    double acc = 0.0;
    for (int64_t j = 0; j < k; j++) {
        v[j] = kj_smp_std_gamma(bg, alpha[j]);
        acc = acc + v[j];
    }
    double invacc = 1 / acc;
    for (int64_t j = 0; j < k; j++) v[j] = v[j] * invacc;
}

#endif
