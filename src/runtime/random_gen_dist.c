/* SPDX-License-Identifier: BSD-2-Clause */
/* The distributions of NumPy's Generator over PCG64 (random_gen_dist.h),
 * operation for operation as NumPy 1.24's
 * numpy/random/src/distributions/distributions.c (the version whose output
 * the tests take as the oracle; later NumPy changed wald, zipf, beta's
 * underflow branch, geometric's overflow and binomial's BTPE terms): the
 * ziggurat normal and exponential (ziggurat_tables.h), Marsaglia-Tsang gamma
 * over them, and the legacy algorithms of the discrete ones. */
#include "random_gen_dist.h"

#include "ziggurat_tables.h"

#include <math.h>
#include <stdlib.h>

static double next_double(kj_pcg64 *g) { return kj_pcg64_double(g); }

double kj_gen_std_exp(kj_pcg64 *g)
{
    for (;;) {
        uint64_t ri = kj_pcg64_next64(g) >> 3;
        uint8_t idx = ri & 0xFF;
        ri >>= 8;
        double x = (double)ri * kj_zig_we[idx];
        if (ri < kj_zig_ke[idx]) return x; /* 98.9% of draws */
        if (idx == 0) return kj_ziggurat_exp_r - log1p(-next_double(g));
        if ((kj_zig_fe[idx - 1] - kj_zig_fe[idx]) * next_double(g) + kj_zig_fe[idx] < exp(-x)) return x;
    }
}

/* the tail beyond the ziggurat's base strip */
static double normal_tail(kj_pcg64 *g, uint64_t rabs)
{
    for (;;) {
        double xx = -kj_ziggurat_nor_inv_r * log1p(-next_double(g)), yy = -log1p(-next_double(g));
        if (yy + yy > xx * xx) return ((rabs >> 8) & 0x1) ? -(kj_ziggurat_nor_r + xx) : kj_ziggurat_nor_r + xx;
    }
}

double kj_gen_std_normal(kj_pcg64 *g)
{
    for (;;) {
        uint64_t r = kj_pcg64_next64(g);
        int idx = r & 0xff;
        r >>= 8;
        int sign = r & 0x1;
        uint64_t rabs = (r >> 1) & 0x000fffffffffffffULL;
        double x = (double)rabs * kj_zig_wi[idx];
        if (sign & 0x1) x = -x;
        if (rabs < kj_zig_ki[idx]) return x; /* 99.3% of draws */
        if (idx == 0) return normal_tail(g, rabs);
        if (((kj_zig_fi[idx - 1] - kj_zig_fi[idx]) * next_double(g) + kj_zig_fi[idx]) < exp(-0.5 * x * x))
            return x;
    }
}

double kj_gen_std_gamma(kj_pcg64 *g, double shape)
{
    if (shape == 1.0) return kj_gen_std_exp(g);
    if (shape == 0.0) return 0.0;
    if (shape < 1.0) {
        for (;;) {
            double U = next_double(g), V = kj_gen_std_exp(g);
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
            X = kj_gen_std_normal(g);
            V = 1.0 + c * X;
        } while (V <= 0.0);
        V = V * V * V;
        double U = next_double(g);
        if (U < 1.0 - 0.0331 * (X * X) * (X * X)) return b * V;
        if (log(U) < 0.5 * X * X + b * (1. - V + log(V))) return b * V;
    }
}

static double beta(kj_pcg64 *g, double a, double b)
{
    if (a <= 1.0 && b <= 1.0) { /* Johnk's algorithm */
        for (;;) {
            double U = next_double(g), V = next_double(g);
            double X = pow(U, 1.0 / a), Y = pow(V, 1.0 / b), XpY = X + Y;
            if (XpY <= 1.0 && XpY > 0.0) return X / XpY; /* both underflowed: drawn again */
        }
    }
    double Ga = kj_gen_std_gamma(g, a), Gb = kj_gen_std_gamma(g, b);
    return Ga / (Ga + Gb);
}

static double chisquare(kj_pcg64 *g, double df) { return 2.0 * kj_gen_std_gamma(g, df / 2.0); }

static double laplace(kj_pcg64 *g, double loc, double scale)
{
    for (;;) { /* U == 0 is drawn again */
        double U = next_double(g);
        if (U >= 0.5) return loc - scale * log(2.0 - U - U);
        if (U > 0.0) return loc + scale * log(U + U);
    }
}

static double gumbel(kj_pcg64 *g, double loc, double scale)
{
    for (;;) {
        double U = 1.0 - next_double(g);
        if (U < 1.0) return loc - scale * log(-log(U));
    }
}

static double logistic(kj_pcg64 *g, double loc, double scale)
{
    for (;;) {
        double U = next_double(g);
        if (U > 0.0) return loc + scale * log(U / (1.0 - U));
    }
}

static double wald(kj_pcg64 *g, double mean, double scale)
{
    double mu_2l = mean / (2 * scale), Y = kj_gen_std_normal(g);
    Y = mean * Y * Y;
    double X = mean + mu_2l * (Y - sqrt(4 * scale * Y + Y * Y));
    double U = next_double(g);
    return U <= mean / (mean + X) ? X : mean * mean / X;
}

static double triangular(kj_pcg64 *g, double left, double mode, double right)
{
    double base = right - left, leftbase = mode - left, ratio = leftbase / base;
    double leftprod = leftbase * base, rightprod = (right - mode) * base;
    double U = next_double(g);
    if (U <= ratio) return left + sqrt(U * leftprod);
    return right - sqrt((1.0 - U) * rightprod);
}

static double noncentral_chisquare(kj_pcg64 *g, double df, double nonc)
{
    if (isnan(nonc)) return NAN;
    if (nonc == 0) return chisquare(g, df);
    if (1 < df) {
        double Chi2 = chisquare(g, df - 1), n = kj_gen_std_normal(g) + sqrt(nonc);
        return Chi2 + n * n;
    }
    int64_t i = kj_gen_poisson(g, nonc / 2.0);
    return chisquare(g, df + 2 * (double)i);
}

double kj_gen_draw_f(kj_pcg64 *g, kj_rdist d, const double p[3])
{
    switch (d) {
    case KJ_RD_STD_NORMAL: return kj_gen_std_normal(g);
    case KJ_RD_NORMAL: return p[0] + p[1] * kj_gen_std_normal(g);
    case KJ_RD_STD_EXP: return kj_gen_std_exp(g);
    case KJ_RD_EXP: return p[0] * kj_gen_std_exp(g);
    case KJ_RD_STD_GAMMA: return kj_gen_std_gamma(g, p[0]);
    case KJ_RD_GAMMA: return p[1] * kj_gen_std_gamma(g, p[0]);
    case KJ_RD_BETA: return beta(g, p[0], p[1]);
    case KJ_RD_CHISQUARE: return chisquare(g, p[0]);
    case KJ_RD_LOGNORMAL: return exp(p[0] + p[1] * kj_gen_std_normal(g));
    case KJ_RD_LAPLACE: return laplace(g, p[0], p[1]);
    case KJ_RD_LOGISTIC: return logistic(g, p[0], p[1]);
    case KJ_RD_GUMBEL: return gumbel(g, p[0], p[1]);
    case KJ_RD_PARETO: return expm1(kj_gen_std_exp(g) / p[0]);
    case KJ_RD_WEIBULL: return p[0] == 0.0 ? 0.0 : pow(kj_gen_std_exp(g), 1. / p[0]);
    case KJ_RD_TRIANGULAR: return triangular(g, p[0], p[1], p[2]);
    case KJ_RD_STD_T: {
        double num = kj_gen_std_normal(g), denom = kj_gen_std_gamma(g, p[0] / 2);
        return sqrt(p[0] / 2) * num / sqrt(denom);
    }
    case KJ_RD_STD_CAUCHY: {
        double num = kj_gen_std_normal(g);
        return num / kj_gen_std_normal(g);
    }
    case KJ_RD_RAYLEIGH: return p[0] * sqrt(2.0 * kj_gen_std_exp(g));
    case KJ_RD_POWER: return pow(-expm1(-kj_gen_std_exp(g)), 1. / p[0]);
    case KJ_RD_WALD: return wald(g, p[0], p[1]);
    case KJ_RD_F: {
        double num = chisquare(g, p[0]) * p[1];
        return num / (chisquare(g, p[1]) * p[0]);
    }
    case KJ_RD_NONCENTRAL_CHISQUARE: return noncentral_chisquare(g, p[0], p[1]);
    case KJ_RD_NONCENTRAL_F: {
        double t = noncentral_chisquare(g, p[0], p[2]) * p[1];
        return t / (chisquare(g, p[1]) * p[0]);
    }
    default: return 0.0;
    }
}
