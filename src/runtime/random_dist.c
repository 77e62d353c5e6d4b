/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy's legacy RandomState distributions (random_dist.h). Each function
 * follows the NumPy 1.16-frozen algorithm operation for operation (the
 * order of the floating-point operations is what makes the results equal
 * bit for bit), written after legacy-distributions.c and distributions.c. */
#include "random_dist.h"

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

/* -log(1 - U): U is in [0, 1) */
static double std_exp(kj_mt19937 *st) { return -log(1.0 - next_double(st)); }

static double std_gamma(kj_mt19937 *st, double shape)
{
    if (shape == 1.0) return std_exp(st);
    if (shape == 0.0) return 0.0;
    if (shape < 1.0) {
        for (;;) {
            double U = next_double(st), V = std_exp(st);
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
    double b = shape - 1. / 3., c = 1. / sqrt(9 * b); /* Marsaglia & Tsang */
    for (;;) {
        double X, V;
        do {
            X = kj_rdist_gauss(st);
            V = 1.0 + c * X;
        } while (V <= 0.0);
        V = V * V * V;
        double U = next_double(st);
        if (U < 1.0 - 0.0331 * (X * X) * (X * X)) return b * V;
        if (log(U) < 0.5 * X * X + b * (1. - V + log(V))) return b * V;
    }
}

static double beta(kj_mt19937 *st, double a, double b)
{
    if (a <= 1.0 && b <= 1.0) { /* Johnk's algorithm */
        for (;;) {
            double U = next_double(st), V = next_double(st);
            double X = pow(U, 1.0 / a), Y = pow(V, 1.0 / b);
            if ((X + Y) <= 1.0) {
                if (X + Y > 0) return X / (X + Y);
                double logX = log(U) / a, logY = log(V) / b;
                double logM = logX > logY ? logX : logY;
                logX -= logM;
                logY -= logM;
                return exp(logX - log(exp(logX) + exp(logY)));
            }
        }
    }
    double Ga = std_gamma(st, a), Gb = std_gamma(st, b);
    return Ga / (Ga + Gb);
}

static double laplace(kj_mt19937 *st, double loc, double scale)
{
    for (;;) { /* U == 0 is drawn again */
        double U = next_double(st);
        if (U >= 0.5) return loc - scale * log(2.0 - U - U);
        if (U > 0.0) return loc + scale * log(U + U);
    }
}

static double gumbel(kj_mt19937 *st, double loc, double scale)
{
    for (;;) {
        double U = 1.0 - next_double(st);
        if (U < 1.0) return loc - scale * log(-log(U));
    }
}

static double logistic(kj_mt19937 *st, double loc, double scale)
{
    for (;;) {
        double U = next_double(st);
        if (U > 0.0) return loc + scale * log(U / (1.0 - U));
    }
}

static double triangular(kj_mt19937 *st, double left, double mode, double right)
{
    double base = right - left, leftbase = mode - left, ratio = leftbase / base;
    double leftprod = leftbase * base, rightprod = (right - mode) * base;
    double U = next_double(st);
    if (U <= ratio) return left + sqrt(U * leftprod);
    return right - sqrt((1.0 - U) * rightprod);
}

static double std_t(kj_mt19937 *st, double df)
{
    double num = kj_rdist_gauss(st), denom = std_gamma(st, df / 2);
    return sqrt(df / 2) * num / sqrt(denom);
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

static int64_t poisson_mult(kj_mt19937 *st, double lam)
{
    double enlam = exp(-lam), prod = 1.0;
    int64_t X = 0;
    for (;;) {
        prod *= next_double(st);
        if (prod > enlam) X += 1;
        else return X;
    }
}

/* Hoermann's transformed rejection (PTRS), for lam >= 10. */
static int64_t poisson_ptrs(kj_mt19937 *st, double lam)
{
    double slam = sqrt(lam), loglam = log(lam), b = 0.931 + 2.53 * slam;
    double a = -0.059 + 0.02483 * b, invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
    for (;;) {
        double U = next_double(st) - 0.5, V = next_double(st), us = 0.5 - fabs(U);
        int64_t k = (int64_t)floor((2 * a / us + b) * U + lam + 0.43);
        if (us >= 0.07 && V <= vr) return k;
        if (k < 0 || (us < 0.013 && V > us)) continue;
        if ((log(V) + log(invalpha) - log(a / (us * us) + b)) <=
            (-lam + (double)k * loglam - loggam((double)k + 1)))
            return k;
    }
}

static int64_t poisson(kj_mt19937 *st, double lam)
{
    if (lam >= 10) return poisson_ptrs(st, lam);
    if (lam == 0) return 0;
    return poisson_mult(st, lam);
}

static int64_t geometric(kj_mt19937 *st, double p)
{
    if (p >= 0.333333333333333333333333) { /* search */
        double sum = p, prod = p, q = 1.0 - p, U = next_double(st);
        int64_t X = 1;
        while (U > sum) {
            prod *= q;
            sum += prod;
            X++;
        }
        return X;
    }
    return (int64_t)ceil(log1p(-next_double(st)) / log(1 - p)); /* legacy inversion */
}

bool kj_rdist_is_int(kj_rdist d)
{
    return d == KJ_RD_BINOMIAL || d == KJ_RD_POISSON || d == KJ_RD_GEOMETRIC || d >= KJ_RD_ZIPF;
}

double kj_rdist_std_gamma(kj_mt19937 *st, double shape) { return std_gamma(st, shape); }
int64_t kj_rdist_poisson(kj_mt19937 *st, double lam) { return poisson(st, lam); }
double kj_rdist_loggam(double x) { return loggam(x); }

/* One float draw of a float distribution. */
static double draw_f(kj_mt19937 *st, kj_rdist d, const double p[3])
{
    switch (d) {
    case KJ_RD_STD_NORMAL: return kj_rdist_gauss(st);
    case KJ_RD_NORMAL: return p[0] + p[1] * kj_rdist_gauss(st);
    case KJ_RD_UNIFORM: return p[0] + (p[1] - p[0]) * next_double(st);
    case KJ_RD_STD_EXP: return std_exp(st);
    case KJ_RD_EXP: return p[0] * std_exp(st);
    case KJ_RD_STD_GAMMA: return std_gamma(st, p[0]);
    case KJ_RD_GAMMA: return p[1] * std_gamma(st, p[0]);
    case KJ_RD_BETA: return beta(st, p[0], p[1]);
    case KJ_RD_CHISQUARE: return 2.0 * std_gamma(st, p[0] / 2.0);
    case KJ_RD_LOGNORMAL: return exp(p[0] + p[1] * kj_rdist_gauss(st));
    case KJ_RD_LAPLACE: return laplace(st, p[0], p[1]);
    case KJ_RD_LOGISTIC: return logistic(st, p[0], p[1]);
    case KJ_RD_GUMBEL: return gumbel(st, p[0], p[1]);
    case KJ_RD_PARETO: return exp(std_exp(st) / p[0]) - 1;
    case KJ_RD_WEIBULL: return p[0] == 0.0 ? 0.0 : pow(std_exp(st), 1. / p[0]);
    case KJ_RD_TRIANGULAR: return triangular(st, p[0], p[1], p[2]);
    case KJ_RD_STD_T: return std_t(st, p[0]);
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
        int64_t *o = out;
        for (int64_t i = 0; i < n; i++)
            o[i] = d == KJ_RD_BINOMIAL    ? kj_rdist_binomial(st, (int64_t)p[0], p[1])
                   : d == KJ_RD_POISSON   ? poisson(st, p[0])
                   : d == KJ_RD_GEOMETRIC ? geometric(st, p[0])
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

uint64_t kj_random_interval(kj_mt19937 *st, uint64_t max)
{
    if (max == 0) return 0;
    uint64_t mask = max, v;
    mask |= mask >> 1;
    mask |= mask >> 2;
    mask |= mask >> 4;
    mask |= mask >> 8;
    mask |= mask >> 16;
    mask |= mask >> 32;
    if (max <= 0xffffffffu)
        while ((v = (kj_mt19937_next32(st) & mask)) > max) {}
    else
        while ((v = (kj_mt19937_next64(st) & mask)) > max) {}
    return v;
}

/* ---- binomial: inversion for n*p <= 30, else BTPE (Kachitvichyanukul &
 * Schmeiser), with the legacy Stirling terms all added ---- */

static int64_t binomial_inversion(kj_mt19937 *st, int64_t n, double p)
{
    double q = 1.0 - p, qn = exp((double)n * log(q)), np = (double)n * p;
    double bd = np + 10.0 * sqrt(np * q + 1);
    int64_t bound = (int64_t)((double)n < bd ? (double)n : bd), X = 0;
    double px = qn, U = next_double(st);
    while (U > px) {
        X++;
        if (X > bound) {
            X = 0;
            px = qn;
            U = next_double(st);
        } else {
            U -= px;
            px = ((double)(n - X + 1) * p * px) / ((double)X * q);
        }
    }
    return X;
}

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

static int64_t binomial_btpe(kj_mt19937 *st, int64_t n, double p)
{
    kj_btpe k = kj_btpe_init(n, p);
    int64_t y;
    for (;;) {
        double u = next_double(st) * k.p4, v = next_double(st);
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
    return p > 0.5 ? n - y : y;
}

int64_t kj_rdist_binomial(kj_mt19937 *st, int64_t n, double p)
{
    /* legacy: no shortcut for n == 0 or p == 0, which still draw once */
    if (p <= 0.5) return p * (double)n <= 30.0 ? binomial_inversion(st, n, p) : binomial_btpe(st, n, p);
    double q = 1.0 - p;
    return n - (q * (double)n <= 30.0 ? binomial_inversion(st, n, q) : binomial_btpe(st, n, q));
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
