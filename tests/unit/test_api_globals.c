/* SPDX-License-Identifier: BSD-2-Clause */
/* kjit_compile_globals (include/kjit.h): module-level arrays given by the
 * host, frozen as Numba freezes global arrays: read in C order whatever the
 * strides, copied at compile (a later change of the caller's array is not
 * seen), read-only (a write is a compile error), part of the cache key (the
 * same source with other values does not reuse the code), and the globals
 * kjit cannot take refused with their name. Only <kjit.h> is used. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <kjit.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char get_src[] = "from numba import njit\n"
                              "\n"
                              "@njit\n"
                              "def get(i, j):\n"
                              "    return W[i, j]\n"
                              "\n"
                              "@njit\n"
                              "def total():\n"
                              "    return W.sum() + W.shape[0] * 100\n";

static kjit_ctx *ctx_with_cache(const char *dir)
{
    kjit_options o;
    kjit_options_init(&o);
    o.target = KJIT_TARGET_CPU;
    o.cache_dir = dir;
    o.cache = dir != NULL;
    kjit_error err;
    kjit_ctx *ctx = kjit_ctx_new(&o, &err);
    assert_non_null(ctx);
    return ctx;
}

static kjit_module *compile_with(kjit_ctx *ctx, const char *src, const char *name, kjit_array *a,
                                 kjit_error *err)
{
    kjit_global g = {name, kjit_value_array(a)};
    return kjit_compile_globals(ctx, src, strlen(src), "globals.py", &g, 1, err);
}

static kjit_value call(kjit_module *m, const char *fn, const kjit_value *args, int n)
{
    kjit_value r;
    kjit_error err;
    int code = kjit_call(kjit_module_get(m, fn), args, n, &r, &err);
    if (code != KJIT_OK) fail_msg("%s: %s", fn, err.message);
    return r;
}

/* A (2, 3) float64 array in Fortran order: W[i, j] = 10 i + j. */
static void fortran_array_is_read_in_c_order(void **state)
{
    (void)state;
    double data[6];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++) data[i + 2 * j] = 10.0 * i + j;
    int64_t shape[2] = {2, 3}, strides[2] = {8, 16};
    kjit_error err;
    kjit_array *a = kjit_array_wrap(NULL, data, KJIT_FLOAT64, 2, shape, strides, &err);
    kjit_ctx *ctx = ctx_with_cache(NULL);
    kjit_module *m = compile_with(ctx, get_src, "W", a, &err);
    assert_non_null(m);
    data[0] = -1000; /* copied at compile: not seen */
    kjit_array_free(a);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++) {
            kjit_value args[2] = {kjit_value_int(i), kjit_value_int(j)};
            kjit_value r = call(m, "get", args, 2);
            assert_int_equal(r.kind, KJIT_VALUE_FLOAT);
            assert_true(r.v.f == 10.0 * i + j);
        }
    kjit_value r = call(m, "total", NULL, 0);
    assert_true(r.v.f == 36.0 + 200.0);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

/* Integer elements keep their exact values (uint64 past 2^63, int64 past 2^53). */
static void integers_are_exact(void **state)
{
    (void)state;
    static const char src[] = "from numba import njit\n@njit\ndef get(i):\n    return U[i]\n";
    uint64_t u[2] = {(1ULL << 63) + 5, 7};
    int64_t shape[1] = {2};
    kjit_error err;
    kjit_array *a = kjit_array_wrap(NULL, u, KJIT_UINT64, 1, shape, NULL, &err);
    kjit_ctx *ctx = ctx_with_cache(NULL);
    kjit_module *m = compile_with(ctx, src, "U", a, &err);
    assert_non_null(m);
    kjit_value i0 = kjit_value_int(0);
    kjit_value r = call(m, "get", &i0, 1);
    assert_int_equal(r.kind, KJIT_VALUE_INT);
    assert_int_equal(r.dtype, KJIT_UINT64);
    assert_true((uint64_t)r.v.i == (1ULL << 63) + 5);
    kjit_module_free(m);
    kjit_array_free(a);
    int64_t big[1] = {(1LL << 53) + 1};
    shape[0] = 1;
    a = kjit_array_wrap(NULL, big, KJIT_INT64, 1, shape, NULL, &err);
    m = compile_with(ctx, src, "U", a, &err);
    assert_non_null(m);
    r = call(m, "get", &i0, 1);
    assert_int_equal(r.dtype, KJIT_INT64);
    assert_true(r.v.i == (1LL << 53) + 1);
    kjit_module_free(m);
    kjit_array_free(a);
    kjit_ctx_free(ctx);
}

/* The same source with other elements: other code, also through the disk cache. */
static void values_are_in_the_cache_key(void **state)
{
    (void)state;
    char dir[] = "/tmp/kjit-test-globals-XXXXXX";
    assert_non_null(mkdtemp(dir));
    static const char src[] = "from numba import njit\n@njit\ndef first():\n    return V[0]\n";
    float v[1] = {1.5f};
    int64_t shape[1] = {1};
    kjit_error err;
    kjit_array *a = kjit_array_wrap(NULL, v, KJIT_FLOAT32, 1, shape, NULL, &err);
    for (int round = 0; round < 2; round++) {
        for (int k = 0; k < 2; k++) {
            v[0] = k ? 2.25f : 1.5f;
            kjit_ctx *ctx = ctx_with_cache(dir);
            kjit_module *m = compile_with(ctx, src, "V", a, &err);
            assert_non_null(m);
            kjit_value r = call(m, "first", NULL, 0);
            assert_int_equal(r.dtype, KJIT_FLOAT32);
            assert_true(r.v.f == (k ? 2.25 : 1.5));
            kjit_module_free(m);
            kjit_ctx_free(ctx);
        }
    }
    kjit_array_free(a);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* A store into a frozen global: Numba's read-only array error, at the call that specialises it. */
static void writes_are_refused(void **state)
{
    (void)state;
    static const char src[] = "from numba import njit\n@njit\ndef put(x):\n    W[0] = x\n";
    double d[2] = {0, 0};
    int64_t shape[1] = {2};
    kjit_error err;
    kjit_array *a = kjit_array_wrap(NULL, d, KJIT_FLOAT64, 1, shape, NULL, &err);
    kjit_ctx *ctx = ctx_with_cache(NULL);
    kjit_module *m = compile_with(ctx, src, "W", a, &err);
    kjit_array_free(a);
    kjit_value x = kjit_value_float(1.0);
    int code = m ? kjit_call(kjit_module_get(m, "put"), &x, 1, NULL, &err) : (int)err.code;
    assert_int_equal(code, KJIT_ERR_COMPILE);
    char *text = m ? kjit_error_format(m, &err, KJIT_DIAG_HUMAN) : kjit_ctx_diagnostics(ctx, KJIT_DIAG_HUMAN);
    assert_non_null(strstr(text, "Cannot modify readonly array: 'W'"));
    free(text);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

/* The source's own binding of a name is the source's. */
static void source_binding_wins(void **state)
{
    (void)state;
    static const char src[] = "import numpy as np\nfrom numba import njit\nW = np.array([7.0, 8.0])\n"
                              "@njit\ndef first():\n    return W[0]\n";
    double d[1] = {1.0};
    int64_t shape[1] = {1};
    kjit_error err;
    kjit_array *a = kjit_array_wrap(NULL, d, KJIT_FLOAT64, 1, shape, NULL, &err);
    kjit_ctx *ctx = ctx_with_cache(NULL);
    kjit_module *m = compile_with(ctx, src, "W", a, &err);
    assert_non_null(m);
    kjit_value r = call(m, "first", NULL, 0);
    assert_true(r.v.f == 7.0);
    kjit_module_free(m);
    kjit_array_free(a);
    kjit_ctx_free(ctx);
}

static void expect_refused(kjit_ctx *ctx, const kjit_global *g, int n, const char *what)
{
    kjit_error err;
    kjit_module *m = kjit_compile_globals(ctx, get_src, strlen(get_src), "globals.py", g, n, &err);
    assert_null(m);
    assert_int_equal(err.code, KJIT_ERR_USAGE);
    if (!strstr(err.message, what)) fail_msg("'%s' does not say '%s'", err.message, what);
}

static void bad_globals_are_refused(void **state)
{
    (void)state;
    double d[4] = {0};
    int64_t shape[5] = {1, 1, 1, 1, 1};
    kjit_error err;
    kjit_array *a = kjit_array_wrap(NULL, d, KJIT_FLOAT64, 1, shape, NULL, &err);
    kjit_array *a5 = kjit_array_wrap(NULL, d, KJIT_FLOAT64, 5, shape, NULL, &err);
    kjit_array *c = kjit_array_wrap(NULL, d, KJIT_COMPLEX128, 1, shape, NULL, &err);
    kjit_ctx *ctx = ctx_with_cache(NULL);
    kjit_global g[2] = {{"1W", kjit_value_array(a)}, {"W", kjit_value_array(a)}};
    expect_refused(ctx, g, 1, "global 0 ('1W'): its name is not an identifier");
    g[0].name = "W";
    expect_refused(ctx, g, 2, "global 1 ('W'): the name is given twice");
    g[0].value = kjit_value_float(1.0);
    expect_refused(ctx, g, 1, "only arrays");
    g[0].value = kjit_value_array(a5);
    expect_refused(ctx, g, 1, "1 to 4 dimensions");
    g[0].value = kjit_value_array(c);
    expect_refused(ctx, g, 1, "bool, integers or floats");
    expect_refused(ctx, NULL, 1, "1 globals");
    kjit_array_free(a);
    kjit_array_free(a5);
    kjit_array_free(c);
    kjit_ctx_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fortran_array_is_read_in_c_order),
        cmocka_unit_test(integers_are_exact),
        cmocka_unit_test(values_are_in_the_cache_key),
        cmocka_unit_test(writes_are_refused),
        cmocka_unit_test(source_binding_wins),
        cmocka_unit_test(bad_globals_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
