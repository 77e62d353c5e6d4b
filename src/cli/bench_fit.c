/* SPDX-License-Identifier: BSD-2-Clause */
/* The time model of `kjit bench` (docs/bench.md "The model"):
 *
 *     t(x) = overhead + bytes(x) / bandwidth + work(x) / throughput
 *
 * for the swept parameter x. Fitting the three terms to the totals alone
 * fails in the common case where bytes and work both grow like x (vector
 * addition): the columns are collinear. The runtime's events separate
 * them, so each term is fitted to its own part of the time:
 *
 *   - work(x) = x^p: the time that is not copies (kernels and host code)
 *     = k0 + x^p / throughput by least squares, for the p that fits best;
 *   - the copies' time = c0 + bytes / bandwidth by least squares (the
 *     ratio of the sums when the bytes do not vary), and bytes(x) as a
 *     power law of x, to predict between and beyond the measured values;
 *   - overhead: the two fits' intercepts (launch latency, per-copy
 *     latency, host code that does not grow), at least 0.
 * Both fits minimise relative errors (weights 1/y^2): the small values,
 * where the overhead shows, count as much as the large ones.
 *
 * No I/O here: tests/unit/test_bench_fit.c checks that known terms come
 * back from synthetic timings. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *v, int n)
{
    if (n <= 0) return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Least squares y = a + b x over n points, each weighted by w(y); false
 * when x does not vary. Two passes (means, then deviations from them): x
 * spans many decades, where sum(x^2) - n mean^2 loses the digits. */
static bool line_fit_w(const double *x, const double *y, int n, bool relative, double *a, double *b)
{
    if (n < 2) return false;
    double sw = 0, mx = 0, my = 0, w[64];
    for (int i = 0; i < n && i < 64; i++) {
        /* relative: minimise the errors relative to y, so that the small
         * values (where the fixed costs show) count as much as the large */
        w[i] = relative && y[i] > 0 ? 1 / (y[i] * y[i]) : 1;
        sw += w[i];
        mx += w[i] * x[i];
        my += w[i] * y[i];
    }
    mx /= sw;
    my /= sw;
    double sxx = 0, sxy = 0;
    for (int i = 0; i < n && i < 64; i++) {
        sxx += w[i] * (x[i] - mx) * (x[i] - mx);
        sxy += w[i] * (x[i] - mx) * (y[i] - my);
    }
    if (!(sxx > 1e-12 * sw * (mx * mx + 1e-300))) return false;
    *b = sxy / sxx;
    *a = my - *b * mx;
    return true;
}

static bool line_fit(const double *x, const double *y, int n, double *a, double *b)
{
    return line_fit_w(x, y, n, false, a, b);
}

/* log-log slope (and coefficient) of the points with y > 0 among
 * p[from..n); false with fewer than two. */
static bool power_fit(const bench_point *p, int from, int n, double (*y)(const bench_point *), double *coef,
                      double *expo)
{
    double lx[64], ly[64];
    int m = 0;
    for (int i = from; i < n && m < 64; i++)
        if (p[i].x > 0 && y(&p[i]) > 0) {
            lx[m] = log(p[i].x);
            ly[m++] = log(y(&p[i]));
        }
    double a, b;
    if (!line_fit(lx, ly, m, &a, &b)) return false;
    *coef = exp(a);
    *expo = b;
    return true;
}

static double bytes_of(const bench_point *p) { return p->bytes; }

/* work_s = k0 + x^p c by least squares (relative errors) for this p: the
 * sum of the squared relative errors, HUGE_VAL when c <= 0. */
static double work_error(const bench_point *p, int n, double expo, double *k0, double *c)
{
    double xs[64], ys[64];
    for (int i = 0; i < n; i++) {
        xs[i] = pow(p[i].x, expo);
        ys[i] = p[i].work_s;
    }
    if (!line_fit_w(xs, ys, n, true, k0, c) || !(*c > 0)) return HUGE_VAL;
    double se = 0;
    for (int i = 0; i < n; i++) {
        double e = ys[i] > 0 ? (*k0 + *c * xs[i] - ys[i]) / ys[i] : 0;
        se += e * e;
    }
    return se;
}

/* p, throughput and the intercept from the times without the copies: the
 * p in 0.05, 0.06, ... 4 whose least-squares fit has the smallest relative
 * error (an overhead bends the log-log line, so its slope alone is not p). */
static void fit_work(const bench_point *p, int n, bench_fit *f)
{
    double best = HUGE_VAL, best_k0 = 0, best_c = 0;
    for (int k = 5; k <= 400; k++) {
        double k0, c, e = work_error(p, n, k / 100.0, &k0, &c);
        if (e < best * (1 - 1e-9)) best = e, best_k0 = k0, best_c = c, f->work_exp = k / 100.0;
    }
    if (best == HUGE_VAL) { /* nothing grows with x: all of it is overhead */
        f->work_exp = 0;
        return;
    }
    f->throughput = 1 / best_c;
    f->overhead += best_k0;
}

/* bandwidth from the copies, bytes(x) as a power law. */
static void fit_copies(const bench_point *p, int n, bench_fit *f)
{
    double sb = 0, st = 0, xs[64], ys[64];
    int m = 0;
    for (int i = 0; i < n && m < 64; i++) {
        sb += p[i].bytes;
        st += p[i].copy_s;
        xs[m] = p[i].bytes;
        ys[m++] = p[i].copy_s;
    }
    if (sb <= 0 || st <= 0) return;
    double a, b;
    if (line_fit_w(xs, ys, m, true, &a, &b) && b > 0) {
        f->bandwidth = 1 / b;
        f->overhead += a;
    } else {
        f->bandwidth = sb / st;
    }
    if (!power_fit(p, 0, n, bytes_of, &f->bytes_coef, &f->bytes_exp)) {
        f->bytes_coef = sb / n; /* the same bytes at every value */
        f->bytes_exp = 0;
    }
}

double bench_fit_predict(const bench_fit *f, double x)
{
    double t = f->overhead;
    if (f->bandwidth > 0) t += f->bytes_coef * pow(x, f->bytes_exp) / f->bandwidth;
    if (f->throughput > 0) t += pow(x, f->work_exp) / f->throughput;
    return t;
}

bench_fit bench_fit_model(const bench_point *p, int n)
{
    bench_fit f = {0};
    if (n < 2 || n > 64) return f;
    fit_work(p, n, &f);
    fit_copies(p, n, &f);
    if (f.throughput == 0) { /* nothing grows with x: the mean of what is not copies */
        double w = 0;
        for (int i = 0; i < n; i++) w += p[i].work_s;
        f.overhead += w / n;
    }
    if (f.overhead < 0) f.overhead = 0;
    double se = 0;
    for (int i = 0; i < n; i++) {
        double e = p[i].total > 0 ? (bench_fit_predict(&f, p[i].x) - p[i].total) / p[i].total : 0;
        se += e * e;
    }
    f.rms_rel = sqrt(se / n);
    f.ok = true;
    return f;
}

/* The sign of log(a / b): which is faster. */
static double lratio(double a, double b) { return log(a) - log(b); }

bool bench_cross_measured(const double *x, const double *ta, const double *tb, int n, double *at)
{
    for (int i = 0; i + 1 < n; i++) {
        if (!(x[i] > 0 && ta[i] > 0 && tb[i] > 0 && ta[i + 1] > 0 && tb[i + 1] > 0)) continue;
        double d0 = lratio(ta[i], tb[i]), d1 = lratio(ta[i + 1], tb[i + 1]);
        if (d0 == 0 && i == 0) continue; /* equal at the first value: no change of the faster one yet */
        if ((d0 < 0) == (d1 < 0) || d1 == 0) continue;
        double t = d0 / (d0 - d1);
        *at = exp(log(x[i]) + t * (log(x[i + 1]) - log(x[i])));
        return true;
    }
    return false;
}

bool bench_cross_predicted(const bench_fit *a, const bench_fit *b, double lo, double hi, double *at)
{
    if (!a->ok || !b->ok || !(lo > 0) || !(hi > lo)) return false;
    enum { STEPS = 400 };
    double l0 = log(lo), l1 = log(hi), prev_x = lo;
    double prev = lratio(bench_fit_predict(a, lo), bench_fit_predict(b, lo));
    for (int s = 1; s <= STEPS; s++) {
        double x = exp(l0 + (l1 - l0) * s / STEPS);
        double d = lratio(bench_fit_predict(a, x), bench_fit_predict(b, x));
        if ((d < 0) != (prev < 0) && isfinite(d) && isfinite(prev)) {
            double u = prev_x, v = x; /* bisect in [u, v] */
            for (int k = 0; k < 60; k++) {
                double mid = sqrt(u * v);
                double dm = lratio(bench_fit_predict(a, mid), bench_fit_predict(b, mid));
                if ((dm < 0) == (prev < 0)) u = mid;
                else v = mid;
            }
            *at = sqrt(u * v);
            return true;
        }
        prev = d;
        prev_x = x;
    }
    return false;
}
