/* SPDX-License-Identifier: BSD-2-Clause */
/* Vector math (src/codegen/vecmath.c): loops calling math functions
 * vectorise into libmvec's functions, whose results stay within 4 ULP
 * (glibc's documented bound for libmvec) of the exact value, over many
 * inputs in each function's domain, float32 and float64. The exact value
 * is libm's long double function (x87 extended: 11 more bits than double). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#define FX_OPT_LEVEL 3
#include "abi/abi.h"
#include "jit_fixture.h"
#include "runtime/mvec.h"

#include <math.h>

typedef long double (*ref1)(long double);
typedef long double (*ref2)(long double, long double);

/* A function, the domain its inputs are drawn from, its reference. */
typedef struct mathfn {
    const char *name;
    double lo, hi;   /* every argument in [lo, hi] */
    ref1 f1;
    ref2 f2;         /* two arguments */
    double lo32, hi32; /* float32's own range where it differs (exp overflows sooner); 0, 0: the same */
} mathfn;

static const mathfn fns[] = {
    {"sin", -100, 100, sinl, NULL, 0, 0},        {"cos", -100, 100, cosl, NULL, 0, 0},
    {"tan", -10, 10, tanl, NULL, 0, 0},          {"asin", -1, 1, asinl, NULL, 0, 0},
    {"acos", -1, 1, acosl, NULL, 0, 0},          {"atan", -1000, 1000, atanl, NULL, 0, 0},
    {"sinh", -700, 700, sinhl, NULL, -88, 88},   {"cosh", -700, 700, coshl, NULL, -88, 88},
    {"tanh", -20, 20, tanhl, NULL, 0, 0},        {"asinh", -1e4, 1e4, asinhl, NULL, 0, 0},
    {"acosh", 1, 1e4, acoshl, NULL, 0, 0},       {"atanh", -0.999, 0.999, atanhl, NULL, 0, 0},
    {"exp", -700, 700, expl, NULL, -87, 88},     {"expm1", -700, 700, expm1l, NULL, -87, 88},
    {"exp2", -1000, 1000, exp2l, NULL, -126, 127}, {"log", 1e-3, 1e6, logl, NULL, 0, 0},
    {"log1p", -0.999, 1e6, log1pl, NULL, 0, 0},  {"log2", 1e-3, 1e6, log2l, NULL, 0, 0},
    {"log10", 1e-3, 1e6, log10l, NULL, 0, 0},    {"erf", -6, 6, erfl, NULL, 0, 0},
    {"erfc", -6, 9, erfcl, NULL, -6, 9},         {"atan2", -100, 100, NULL, atan2l, 0, 0},
    {"pow", 0.01, 10, NULL, powl, 0, 0},         {"hypot", -1e3, 1e3, NULL, hypotl, 0, 0},
};
enum { NFNS = sizeof fns / sizeof fns[0], N = 1 << 15 };

/* One @jit function per math function and type:
 *   def f32_sin(a, b, o): for i in range(len(a)): o[i] = math.sin(a[i]) */
static char *program(void)
{
    size_t cap = 64 * 1024, len = 0;
    char *s = malloc(cap);
    len += (size_t)snprintf(s + len, cap - len, "import math\nfrom numba import jit\n\n");
    for (int bits = 32; bits <= 64; bits += 32)
        for (size_t k = 0; k < NFNS; k++) {
            const char *t = bits == 32 ? "float32" : "float64";
            len += (size_t)snprintf(s + len, cap - len,
                                    "@jit('void(%s[:], %s[:], %s[:])')\n"
                                    "def f%d_%s(a, b, o):\n"
                                    "    for i in range(len(a)):\n"
                                    "        o[i] = math.%s(a[i]%s)\n\n",
                                    t, t, t, bits, fns[k].name, fns[k].name, fns[k].f2 ? ", b[i]" : "");
        }
    len += (size_t)snprintf(s + len, cap - len, "def main():\n    pass\n");
    assert_true(len < cap);
    return s;
}

/* Inputs in [lo, hi], evenly spread with a fixed jitter (a linear
 * congruential generator: the same every run), plus the ends. */
static double input(uint64_t *seed, double lo, double hi, int64_t k)
{
    *seed = *seed * 6364136223846793005u + 1442695040888963407u;
    double u = (double)(*seed >> 11) * 0x1p-53;
    if (k == 0) return lo;
    if (k == N - 1) return hi;
    return lo + (hi - lo) * (((double)k + u) / N);
}

/* |got - want| in units in the last place of want rounded to the type. */
static double ulps(long double want, double got, int bits)
{
    if (isnan(want) || isnan(got)) return isnan(want) && isnan(got) ? 0 : INFINITY;
    double w = bits == 32 ? (double)(float)want : (double)want;
    if (isinf(w) || isinf(got)) return w == got ? 0 : INFINITY;
    double aw = fabs(w);
    double ulp = bits == 32 ? (double)(nextafterf((float)aw, INFINITY) - (float)aw) : nextafter(aw, INFINITY) - aw;
    return (double)(fabsl((long double)got - want) / ulp);
}

static void check_fn(fx *x, const mathfn *m, int bits, double *worst)
{
    char name[32];
    snprintf(name, sizeof name, "f%d_%s", bits, m->name);
    double lo = bits == 32 && m->hi32 > m->lo32 ? m->lo32 : m->lo;
    double hi = bits == 32 && m->hi32 > m->lo32 ? m->hi32 : m->hi;
    size_t el = bits / 8;
    char *a = malloc(N * el), *b = malloc(N * el), *o = malloc(N * el);
    uint64_t seed = 42;
    for (int64_t k = 0; k < N; k++) {
        double va = input(&seed, lo, hi, k), vb = input(&seed, lo, hi, (k * 7919) % N);
        if (bits == 32) ((float *)a)[k] = (float)va, ((float *)b)[k] = (float)vb;
        else ((double *)a)[k] = va, ((double *)b)[k] = vb;
    }
    kj_abi_array da, db, dout;
    int64_t shape[1] = {N}, strides[1] = {(int64_t)el};
    kj_abi_array_pack(&da, 1, a, shape, strides, NULL);
    kj_abi_array_pack(&db, 1, b, shape, strides, NULL);
    kj_abi_array_pack(&dout, 1, o, shape, strides, NULL);
    void *args[3] = {&da, &db, &dout};
    run r = call_captured(x, name, args, NULL);
    assert_int_equal(r.kind, KJ_RT_OK);
    free(r.out);
    double most = 0;
    int64_t at = 0;
    for (int64_t k = 0; k < N; k++) {
        long double xa = bits == 32 ? ((float *)a)[k] : ((double *)a)[k];
        long double xb = bits == 32 ? ((float *)b)[k] : ((double *)b)[k];
        double got = bits == 32 ? ((float *)o)[k] : ((double *)o)[k];
        long double want = m->f2 ? m->f2(xa, xb) : m->f1(xa);
        double u = ulps(want, got, bits);
        if (u > most) most = u, at = k;
    }
    if (getenv("KJ_ULP")) fprintf(stderr, "%-6s float%d: max %.2f ulp\n", m->name, bits, most);
    if (most > 4.0)
        fail_msg("%s: %.2f ulp at %.17g (got %.17g)", name, most,
                 bits == 32 ? (double)((float *)a)[at] : ((double *)a)[at],
                 bits == 32 ? (double)((float *)o)[at] : ((double *)o)[at]);
    if (most > *worst) *worst = most;
    free(a), free(b), free(o);
}

static void test_vector_math_ulp(void **state)
{
    fx *x = *state;
    char *text = program();
    kj_codegen_opts opts = {.opt_level = 3, .verify = true, .keep_ir = true};
    if (!compile_as(x, "vecmath.k", text, &opts)) fail_msg("the program does not compile");
    x->text = text; /* the source must outlive the diagnostics */
    double worst = 0;
    for (int bits = 32; bits <= 64; bits += 32)
        for (size_t k = 0; k < NFNS; k++) check_fn(x, &fns[k], bits, &worst);
    assert_true(worst > 0); /* (the comparison compares something) */
#if defined(KJ_HAVE_LIBMVEC) && defined(__x86_64__)
    /* every loop calls the vector form: _ZGVdN8v_sinf(<8 x float> ...) */
    const char *ir = kj_jit_ir(x->jit);
    assert_non_null(ir);
    for (int bits = 32; bits <= 64; bits += 32)
        for (size_t k = 0; k < NFNS; k++) {
            char pat[48];
            size_t nt;
            const kj_mvec *t = kj_mvec_table(&nt);
            bool has = false; /* (a glibc older than 2.35 lacks most) */
            for (size_t i = 0; i < nt; i++)
                has |= t[i].addr && t[i].bits == (unsigned)bits && !strcmp(t[i].fn, fns[k].name);
            if (!has) continue;
            snprintf(pat, sizeof pat, "%s_%s%s(<", fns[k].f2 ? "vv" : "v", fns[k].name, bits == 32 ? "f" : "");
            if (!strstr(ir, pat))
                fail_msg("math.%s on float%d is not vectorised (no call of *%s)", fns[k].name, bits, pat);
        }
#endif
}

/* The vector forms are in the compiled object: a JIT made from its bytes
 * (what the compile cache does) resolves them and gives the same results. */
static void test_vector_math_object(void **state)
{
    fx *x = *state;
    static const char text[] = "import math\nfrom numba import jit\n\n"
                               "@jit('void(float32[:], float32[:])')\n"
                               "def f(a, o):\n"
                               "    for i in range(len(a)):\n"
                               "        o[i] = math.sin(a[i]) + math.exp(a[i])\n\n"
                               "def main():\n    pass\n";
    kj_codegen_opts opts = {.opt_level = 3, .verify = true, .keep_object = true};
    if (!compile_as(x, "obj.k", text, &opts)) fail_msg("the program does not compile");
    size_t size = 0;
    const void *obj = kj_jit_object(x->jit, &size);
    assert_non_null(obj);
    char err[256];
    kj_jit *j = kj_jit_from_object(obj, size, err, sizeof err);
    if (!j) fail_msg("%s", err);
    kj_jit_free(x->jit);
    x->jit = j;
    enum { M = 1000 };
    float a[M], o[M];
    for (int k = 0; k < M; k++) a[k] = (float)k * 0.01f - 5.0f;
    kj_abi_array da, dout;
    int64_t shape[1] = {M}, strides[1] = {4};
    kj_abi_array_pack(&da, 1, a, shape, strides, NULL);
    kj_abi_array_pack(&dout, 1, o, shape, strides, NULL);
    void *args[2] = {&da, &dout};
    run r = call_captured(x, "f", args, NULL);
    assert_int_equal(r.kind, KJ_RT_OK);
    free(r.out);
    for (int k = 0; k < M; k++) {
        double want = sin((double)a[k]) + exp((double)a[k]);
        if (fabs(o[k] - want) > 1e-5 * fmax(1.0, fabs(want))) fail_msg("f(%g) = %g, want %g", a[k], o[k], want);
    }
}

/* fastmath relaxes further, as in Numba: a sum of sines is reordered, so
 * it vectorises and calls the vector form (without fastmath the sum keeps
 * its order and the sines stay scalar). */
static void test_fastmath_reduction(void **state)
{
    fx *x = *state;
    static const char text[] = "import math\nfrom numba import jit\n\n"
                               "@jit('float64(float64[:])', fastmath=True)\n"
                               "def f(a):\n"
                               "    s = 0.0\n"
                               "    for i in range(len(a)):\n"
                               "        s += math.sin(a[i])\n"
                               "    return s\n\n"
                               "def main():\n    pass\n";
    kj_codegen_opts opts = {.opt_level = 3, .verify = true, .keep_ir = true};
    if (!compile_as(x, "fast.k", text, &opts)) fail_msg("the program does not compile");
#if defined(KJ_HAVE_LIBMVEC) && defined(__x86_64__)
    assert_non_null(strstr(kj_jit_ir(x->jit), "v_sin(<"));
#endif
    enum { M = 1001 };
    double a[M], want = 0, got = 0;
    for (int k = 0; k < M; k++) a[k] = k * 0.01, want += sin(a[k]);
    kj_abi_array da;
    int64_t shape[1] = {M}, strides[1] = {8};
    kj_abi_array_pack(&da, 1, a, shape, strides, NULL);
    void *args[1] = {&da};
    run r = call_captured(x, "f", args, &got);
    assert_int_equal(r.kind, KJ_RT_OK);
    free(r.out);
    assert_true(fabs(got - want) < 1e-12 * M);
}

/* The runtime's loops (np.sin(a) on host arrays): every length, so that
 * the last partial vector is covered; within 4 ulp of libm's long double. */
static void test_runtime_map(void **state)
{
    (void)state;
#if defined(KJ_HAVE_LIBMVEC) && defined(__x86_64__)
    const char *names[] = {"sin", "exp", "log1p", "tanh"};
    for (int avx2 = 0; avx2 <= (int)kj_mvec_cpu_avx2(); avx2++)
        for (size_t f = 0; f < sizeof names / sizeof *names; f++) {
            const kj_mvec *m32 = kj_mvec_find(names[f], 32, avx2), *m64 = kj_mvec_find(names[f], 64, avx2);
            assert_non_null(m32);
            assert_non_null(m64);
            assert_int_equal(m32->lanes, avx2 ? 8 : 4);
            ref1 ref = f == 0 ? sinl : f == 1 ? expl : f == 2 ? log1pl : tanhl;
            for (int64_t n = 0; n <= 19; n++) {
                float a[20], o[20];
                double a64[20], o64[20];
                for (int64_t k = 0; k < 20; k++) a64[k] = a[k] = (float)(k + 1) * 0.37f, o[k] = -7.0f, o64[k] = -7.0;
                kj_mvec_map(m32, o, a, n);
                kj_mvec_map(m64, o64, a64, n);
                for (int64_t k = 0; k < 20; k++) {
                    if (k >= n) { /* nothing written past the end */
                        assert_true(o[k] == -7.0f && o64[k] == -7.0);
                        continue;
                    }
                    if (ulps(ref(a[k]), o[k], 32) > 4 || ulps(ref(a64[k]), o64[k], 64) > 4)
                        fail_msg("%s(%g), n = %lld: %.9g, %.17g", names[f], a[k], (long long)n, o[k], o64[k]);
                }
            }
        }
    assert_null(kj_mvec_find("sqrt", 32, true)); /* (an instruction, not libmvec's) */
#endif
}

/* np.sin and np.exp of host arrays: contiguous (the vector loops), views
 * with a step and negative strides (one element at a time) agree with
 * math.sin. */
static void test_host_array_math(void **state)
{
    fx *x = *state;
    expect_output(x,
                  "import math\n"
                  "import numpy as np\n"
                  "def main():\n"
                  "    a = np.arange(37).astype(np.float32) * np.float32(0.37)\n"
                  "    d = np.arange(37) * 0.37\n"
                  "    bad = 0\n"
                  "    s = np.sin(a)\n"
                  "    e = np.exp(d)\n"
                  "    r = np.sin(a[::-3])\n"
                  "    for i in range(37):\n"
                  "        if abs(float(s[i]) - math.sin(float(a[i]))) > 1e-6:\n"
                  "            bad += 1\n"
                  "        if abs(e[i] - math.exp(d[i])) > 1e-14 * math.exp(d[i]):\n"
                  "            bad += 1\n"
                  "    for i in range(r.shape[0]):\n"
                  "        if abs(float(r[i]) - math.sin(float(a[36 - 3 * i]))) > 1e-6:\n"
                  "            bad += 1\n"
                  "    print(bad, s.shape[0] + r.shape[0])\n",
                  "0 50\n");
}

int main(void)
{
    (void)expect_error; /* (the fixture's, unused here) */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_vector_math_ulp, setup, teardown),
        cmocka_unit_test_setup_teardown(test_vector_math_object, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fastmath_reduction, setup, teardown),
        cmocka_unit_test(test_runtime_map),
        cmocka_unit_test_setup_teardown(test_host_array_math, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
