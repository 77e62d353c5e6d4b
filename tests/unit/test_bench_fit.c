/* SPDX-License-Identifier: BSD-2-Clause */
/* `kjit bench`'s time model (src/cli/bench_fit.c): known terms come back
 * from synthetic timings, and crossovers are found where they are, measured
 * and predicted, and not where there are none. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "bench.h"

#include <math.h>

static void assert_close(double got, double want, double rel)
{
    if (fabs(got - want) > rel * fabs(want)) fail_msg("got %.6g, want %.6g (within %g)", got, want, rel);
}

/* A GPU-like target: t = 20 us + 12x bytes at 12 GB/s + x / 2e9, the
 * copies and the rest measured apart (as the events give them). */
static int gpu_like(bench_point *p, double ovh, double bw, double thr, double expo)
{
    int n = 0;
    for (double x = 1e3; x <= 1e8; x *= 10, n++) {
        double bytes = 12 * x, copy = bytes / bw, work = pow(x, expo) / thr;
        p[n] = (bench_point){.x = x, .total = ovh + copy + work, .copy_s = copy, .work_s = ovh + work, .bytes = bytes};
    }
    return n;
}

static void test_recovers_terms(void **state)
{
    (void)state;
    bench_point p[16];
    int n = gpu_like(p, 2e-5, 1.2e10, 2e9, 1.0);
    bench_fit f = bench_fit_model(p, n);
    assert_true(f.ok);
    assert_close(f.overhead, 2e-5, 1e-6);
    assert_close(f.bandwidth, 1.2e10, 1e-6);
    assert_close(f.throughput, 2e9, 1e-6);
    assert_close(f.work_exp, 1.0, 1e-6);
    assert_close(f.bytes_exp, 1.0, 1e-6);
    assert_close(f.bytes_coef, 12, 1e-6);
    assert_true(f.rms_rel < 1e-6);
    assert_close(bench_fit_predict(&f, 3e5), 2e-5 + 36e5 / 1.2e10 + 3e5 / 2e9, 1e-6);
}

/* Cubic work (a matmul sweep), no copies (a cpu target). */
static void test_cubic_no_copies(void **state)
{
    (void)state;
    bench_point p[8];
    int n = 0;
    for (double x = 64; x <= 4096; x *= 2, n++)
        p[n] = (bench_point){.x = x, .total = 1e-4 + x * x * x / 5e9, .work_s = 1e-4 + x * x * x / 5e9};
    bench_fit f = bench_fit_model(p, n);
    assert_true(f.ok);
    assert_close(f.work_exp, 3.0, 1e-9);
    assert_close(f.throughput, 5e9, 1e-6);
    assert_true(f.bandwidth == 0);
    assert_close(f.overhead, 1e-4, 1e-6);
    assert_true(f.rms_rel < 1e-6);
}

/* Constant bytes (sin iterated: the same array whatever the iterations). */
static void test_constant_bytes(void **state)
{
    (void)state;
    bench_point p[4];
    double it[4] = {1, 10, 100, 1000};
    for (int i = 0; i < 4; i++)
        p[i] = (bench_point){.x = it[i], .total = 1e-3 + 8e6 / 1e10 + it[i] / 1e3, .copy_s = 8e6 / 1e10,
                             .work_s = 1e-3 + it[i] / 1e3, .bytes = 8e6};
    bench_fit f = bench_fit_model(p, 4);
    assert_close(f.bandwidth, 1e10, 1e-6);
    assert_true(fabs(f.bytes_exp) < 1e-9);
    assert_close(f.throughput, 1e3, 1e-3);
    assert_close(f.overhead, 1e-3, 1e-3);
}

/* One value: no fit. */
static void test_one_point(void **state)
{
    (void)state;
    bench_point p = {.x = 10, .total = 1, .work_s = 1};
    assert_false(bench_fit_model(&p, 1).ok);
}

/* cpu: no overhead, slow; gpu: overhead, fast: they cross at
 * 1e-5 + x / 1e9 = x / 1e8, x = 1e-5 / (1e-8 - 1e-9) = 1111.1. */
static void test_crossover(void **state)
{
    (void)state;
    double x[5] = {10, 100, 1000, 10000, 100000}, ta[5], tb[5];
    bench_point pa[5], pb[5];
    for (int i = 0; i < 5; i++) {
        ta[i] = x[i] / 1e8;
        tb[i] = 1e-5 + x[i] / 1e9;
        pa[i] = (bench_point){.x = x[i], .total = ta[i], .work_s = ta[i]};
        pb[i] = (bench_point){.x = x[i], .total = tb[i], .work_s = tb[i]};
    }
    double at = 0;
    assert_true(bench_cross_measured(x, ta, tb, 5, &at));
    assert_true(at > 1000 && at < 10000); /* between the values where the faster one changes */
    bench_fit fa = bench_fit_model(pa, 5), fb = bench_fit_model(pb, 5);
    assert_true(bench_cross_predicted(&fa, &fb, 0.1, 1e7, &at));
    assert_close(at, 1e-5 / (1e-8 - 1e-9), 1e-3);
    /* b always slower: none measured, none predicted */
    for (int i = 0; i < 5; i++) tb[i] = 2 * ta[i], pb[i].total = pb[i].work_s = tb[i];
    fb = bench_fit_model(pb, 5);
    assert_false(bench_cross_measured(x, ta, tb, 5, &at));
    assert_false(bench_cross_predicted(&fa, &fb, 0.1, 1e7, &at));
}

static void test_median(void **state)
{
    (void)state;
    double v[4] = {4, 1, 3, 2}, w[3] = {9, 1, 5};
    assert_close(bench_median(v, 4), 2.5, 1e-12);
    assert_close(bench_median(w, 3), 5, 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recovers_terms), cmocka_unit_test(test_cubic_no_copies),
        cmocka_unit_test(test_constant_bytes), cmocka_unit_test(test_one_point),
        cmocka_unit_test(test_crossover),      cmocka_unit_test(test_median),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
