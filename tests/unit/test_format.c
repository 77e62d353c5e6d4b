/* SPDX-License-Identifier: BSD-2-Clause */
/* Printing as Python and NumPy do. Every expected string was produced once
 * with Python 3.11 / numpy 1.24 (default print options) from the expression
 * in the comment above it: repr(x) for Python floats, str(np.float32(x)) for
 * float32 scalars, str(a) (= what print(a) shows) for arrays. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/format.h"

/* --- scalars -------------------------------------------------------------- */

static const struct { double x; const char *want; } f64_cases[] = {
    {0x1.999999999999ap-4, "0.1"}, /* repr(0.1) */
    {0x1.4f8b588e368f1p-17, "1e-05"}, /* repr(1e-05) */
    {0x1.1c37937e08000p+53, "1e+16"}, /* repr(1e+16) */
    {0x1.d6f3454000000p+26, "123456789.0"}, /* repr(123456789.0) */
    {INFINITY, "inf"}, /* repr(inf) */
    {-INFINITY, "-inf"}, /* repr(-inf) */
    {NAN, "nan"}, /* repr(nan) */
    {-0x0.0p+0, "-0.0"}, /* repr(-0.0) */
    {0x0.0p+0, "0.0"}, /* repr(0.0) */
    {0x1.1eb2d66005835p+997, "1.5e+300"}, /* repr(1.5e+300) */
    {0x1.a36e2eb1c432dp-14, "0.0001"}, /* repr(0.0001) */
    {0x1.a36e2eb1c432cp-14, "9.999999999999999e-05"}, /* repr(9.999999999999999e-05) */
    {0x1.c6bf526340000p+49, "1000000000000000.0"}, /* repr(1000000000000000.0) */
    {0x1.0f0cf064dd592p+73, "1e+22"}, /* repr(1e+22) */
    {0x1.0000000000000p+53, "9007199254740992.0"}, /* repr(9007199254740992.0) */
    {0x1.5555555555555p-2, "0.3333333333333333"}, /* repr(0.3333333333333333) */
    {0x1.5555555555555p-1, "0.6666666666666666"}, /* repr(0.6666666666666666) */
    {0x1.9000000000000p+6, "100.0"}, /* repr(100.0) */
    {0x1.34a456d5cfaadp+10, "1234.5678"}, /* repr(1234.5678) */
    {-0x1.4000000000000p+1, "-2.5"}, /* repr(-2.5) */
    {0x1.3333333333334p-2, "0.30000000000000004"}, /* repr(0.30000000000000004) */
    {0x0.0000000000001p-1022, "5e-324"}, /* repr(5e-324) */
    {0x1.fffffffffffffp+1023, "1.7976931348623157e+308"}, /* repr(1.7976931348623157e+308) */
    {0x1.0000000000000p-1022, "2.2250738585072014e-308"}, /* repr(2.2250738585072014e-308) */
    {0x1.b69b4ba630f35p+56, "1.2345678901234568e+17"}, /* repr(1.2345678901234568e+17) */
    {0x1.3333333333333p-2, "0.3"}, /* repr(0.3) */
    {0x1.1666666666666p+2, "4.35"}, /* repr(4.35) */
    {0x1.78c29dccccccdp+23, "12345678.9"}, /* repr(12345678.9) */
    {0x1.ad7f29abcaf48p-24, "1e-07"}, /* repr(1e-07) */
    {0x1.1c37937e07fffp+53, "9999999999999998.0"}, /* repr(9999999999999998.0) */
    {0x0.0000000000003p-1022, "1.5e-323"}, /* repr(1.5e-323) */
    {0x1.52d02c7e14af6p+76, "1e+23"}, /* repr(1e+23) */
};
static const struct { float x; const char *want; } f32_cases[] = {
    {0x1.99999a0000000p-4f, "0.1"}, /* str(np.float32(0.1)) */
    {0x1.a36e2e0000000p-14f, "1e-04"}, /* str(np.float32(0.0001)) */
    {0x1.1c37940000000p+53f, "1e+16"}, /* str(np.float32(1e+16)) */
    {0x1.0000000000000p+24f, "16777216.0"}, /* str(np.float32(16777216.0)) */
    {0x1.4f8b580000000p-17f, "1e-05"}, /* str(np.float32(1e-05)) */
    {0x1.fffffe0000000p+127f, "3.4028235e+38"}, /* str(np.float32(3.4028235e+38)) */
    {0x1.0000000000000p-149f, "1e-45"}, /* str(np.float32(1e-45)) */
    {0x1.5555560000000p-2f, "0.33333334"}, /* str(np.float32(0.3333333333333333)) */
    {-0x0.0p+0f, "-0.0"}, /* str(np.float32(-0.0)) */
    {NAN, "nan"}, /* str(np.float32(nan)) */
    {0x1.4000000000000p+1f, "2.5"}, /* str(np.float32(2.5)) */
    {0x1.9000000000000p+6f, "100.0"}, /* str(np.float32(100.0)) */
    {0x1.99999a0000000p-3f, "0.2"}, /* str(np.float32(0.2)) */
    {0x1.81cd6c0000000p+13f, "12345.678"}, /* str(np.float32(12345.678)) */
    {0x1.c6bf520000000p+49f, "1000000000000000.0"}, /* str(np.float32(1000000000000000.0)) */
    {0x1.2599ee0000000p-14f, "7e-05"}, /* str(np.float32(7e-05)) */
    {-INFINITY, "-inf"}, /* str(np.float32(-inf)) */
    {0x0.0p+0f, "0.0"}, /* str(np.float32(0.0)) */
    {0x1.0000000000000p-126f, "1.1754944e-38"}, /* str(np.float32(1.1754944e-38)) */
    {0x1.d6f3460000000p+26f, "123456790.0"}, /* str(np.float32(123456789.0)) */
};

static void expect_str(kj_buf *b, const char *want, const char *what)
{
    const char *got = b->s ? b->s : "";
    if (strcmp(got, want)) fail_msg("%s:\n got  [%s]\n want [%s]", what, got, want);
    kj_buf_free(b);
}

static void test_python_float_repr(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof f64_cases / sizeof f64_cases[0]; i++) {
        kj_buf b = {0};
        kj_fmt_f64(&b, f64_cases[i].x);
        expect_str(&b, f64_cases[i].want, "repr(float)");
    }
}

static void test_numpy_float32_str(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof f32_cases / sizeof f32_cases[0]; i++) {
        kj_buf b = {0};
        kj_fmt_f32(&b, f32_cases[i].x);
        expect_str(&b, f32_cases[i].want, "str(np.float32)");
    }
}

static void test_other_scalars(void **state)
{
    (void)state;
    kj_buf b = {0};
    kj_fmt_i64(&b, INT64_MIN);
    expect_str(&b, "-9223372036854775808", "int64");
    kj_fmt_u64(&b, UINT64_MAX);
    expect_str(&b, "18446744073709551615", "uint64");
    kj_fmt_bool(&b, true);
    expect_str(&b, "True", "bool");
    kj_fmt_scalar(&b, (kj_scalar){KJ_DT_BOOL, {.i = 0}});
    expect_str(&b, "False", "bool scalar");
    kj_fmt_scalar(&b, (kj_scalar){KJ_DT_FLOAT32, {.f = (double)0.1f}});
    expect_str(&b, "0.1", "float32 scalar");
    kj_fmt_scalar(&b, (kj_scalar){KJ_DT_FLOAT64, {.f = (double)0.1f}});
    expect_str(&b, "0.10000000149011612", "float64 scalar");
    kj_fmt_scalar(&b, (kj_scalar){KJ_DT_INT8, {.i = -5}});
    expect_str(&b, "-5", "int8 scalar");
    kj_fmt_scalar(&b, (kj_scalar){KJ_DT_UINT64, {.u = UINT64_MAX}});
    expect_str(&b, "18446744073709551615", "uint64 scalar");
}

/* Dragon4's shortest digits and exponent, directly. */
static void test_dragon4_shortest(void **state)
{
    (void)state;
    char d[48];
    int e;
    assert_int_equal(kj_dragon4_shortest(0.1, false, d, &e), 1);
    assert_string_equal(d, "1");
    assert_int_equal(e, -1);
    assert_int_equal(kj_dragon4_shortest(0.1f, false, d, &e), 17);
    assert_string_equal(d, "10000000149011612");
    assert_int_equal(kj_dragon4_shortest(0.1f, true, d, &e), 1);
    assert_int_equal(kj_dragon4_shortest(5e-324, false, d, &e), 1);
    assert_string_equal(d, "5");
    assert_int_equal(e, -324);
    assert_int_equal(kj_dragon4_shortest(1.7976931348623157e308, false, d, &e), 17);
    assert_int_equal(e, 308);
    assert_int_equal(kj_dragon4_shortest(0.0, false, d, &e), 1);
    assert_string_equal(d, "0");
}

/* --- arrays ---------------------------------------------------------------- */

/* How a case's array is built: from literal values (LIT_*, cast to the
 * dtype), as np.arange(n) cast to the dtype (ARANGE), np.arange(n) % 2 == 0
 * (EVEN), or np.arange(n.) / 7 (DIV7); then reshaped. */
enum { LIT_F, LIT_I, LIT_U, ARANGE, EVEN, DIV7 };

typedef struct {
    int kind;
    kj_dtype dtype;
    int ndim;
    int64_t shape[4];
    int64_t n;
    union {
        double f[40];
        int64_t i[40];
        uint64_t u[40];
    } v;
    const char *want;
} fmt_case;

static const fmt_case array_cases[] = {
    /* np.array([1., 2., 3.]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {3}, 3,
     {.f = {0x1.0000000000000p+0, 0x1.0000000000000p+1, 0x1.8000000000000p+1}},
     "[1. 2. 3.]"},
    /* np.array([[1, 2], [3, 4]]) */
    {LIT_I, KJ_DT_INT64, 2, {2, 2}, 4,
     {.i = {INT64_C(1), INT64_C(2), INT64_C(3), INT64_C(4)}},
     "[[1 2]\n"
         " [3 4]]"},
    /* np.array([0.1, 0.25, 1.0]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {3}, 3,
     {.f = {0x1.999999999999ap-4, 0x1.0000000000000p-2, 0x1.0000000000000p+0}},
     "[0.1  0.25 1.  ]"},
    /* np.array([1e-5, 1e5]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {2}, 2,
     {.f = {0x1.4f8b588e368f1p-17, 0x1.86a0000000000p+16}},
     "[1.e-05 1.e+05]"},
    /* np.array([True, False]) */
    {LIT_I, KJ_DT_BOOL, 1, {2}, 2,
     {.i = {1, 0}},
     "[ True False]"},
    /* np.array([np.nan, 1.0, -np.inf]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {3}, 3,
     {.f = {NAN, 0x1.0000000000000p+0, -INFINITY}},
     "[ nan   1. -inf]"},
    /* np.array([-0.0, 1.0]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {2}, 2,
     {.f = {-0x0.0p+0, 0x1.0000000000000p+0}},
     "[-0.  1.]"},
    /* np.array([np.nan, np.nan]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {2}, 2,
     {.f = {NAN, NAN}},
     "[nan nan]"},
    /* np.zeros((0, 3)) */
    {LIT_F, KJ_DT_FLOAT64, 2, {0, 3}, 0,
     {.f = {0}},
     "[]"},
    /* np.array(3.5) */
    {LIT_F, KJ_DT_FLOAT64, 0, {0}, 1,
     {.f = {0x1.c000000000000p+1}},
     "3.5"},
    /* np.array(7) */
    {LIT_I, KJ_DT_INT64, 0, {0}, 1,
     {.i = {INT64_C(7)}},
     "7"},
    /* np.array([0.0001, 0.001], dtype=np.float32) */
    {LIT_F, KJ_DT_FLOAT32, 1, {2}, 2,
     {.f = {0x1.a36e2e0000000p-14, 0x1.0624de0000000p-10}},
     "[1.e-04 1.e-03]"},
    /* np.array([0.1, 1.2345678e-5], dtype=np.float32) */
    {LIT_F, KJ_DT_FLOAT32, 1, {2}, 2,
     {.f = {0x1.99999a0000000p-4, 0x1.9e40920000000p-17}},
     "[1.0000000e-01 1.2345678e-05]"},
    /* np.array([1e16, 1e-16]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {2}, 2,
     {.f = {0x1.1c37937e08000p+53, 0x1.cd2b297d889bcp-54}},
     "[1.e+16 1.e-16]"},
    /* np.array([1e100, 1e-100]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {2}, 2,
     {.f = {0x1.249ad2594c37dp+332, 0x1.bff2ee48e0530p-333}},
     "[1.e+100 1.e-100]"},
    /* np.array([123456789.123, 0.5]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {2}, 2,
     {.f = {0x1.d6f34547df3b6p+26, 0x1.0000000000000p-1}},
     "[1.23456789e+08 5.00000000e-01]"},
    /* np.array([0.999999999, 1.0]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {2}, 2,
     {.f = {0x1.fffffff768fa1p-1, 0x1.0000000000000p+0}},
     "[1. 1.]"},
    /* np.array([9.9999999999, 0.01]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {2}, 2,
     {.f = {0x1.3ffffffff2419p+3, 0x1.47ae147ae147bp-7}},
     "[10.    0.01]"},
    /* np.array([0.00012345678912, 0.1]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {2}, 2,
     {.f = {0x1.02e85be54a614p-13, 0x1.999999999999ap-4}},
     "[0.00012346 0.1       ]"},
    /* np.ones((2, 2, 2, 2)) */
    {LIT_F, KJ_DT_FLOAT64, 4, {2, 2, 2, 2}, 16,
     {.f = {0x1.0000000000000p+0, 0x1.0000000000000p+0, 0x1.0000000000000p+0,
      0x1.0000000000000p+0, 0x1.0000000000000p+0, 0x1.0000000000000p+0,
      0x1.0000000000000p+0, 0x1.0000000000000p+0, 0x1.0000000000000p+0,
      0x1.0000000000000p+0, 0x1.0000000000000p+0, 0x1.0000000000000p+0,
      0x1.0000000000000p+0, 0x1.0000000000000p+0, 0x1.0000000000000p+0,
      0x1.0000000000000p+0}},
     "[[[[1. 1.]\n"
         "   [1. 1.]]\n"
         "\n"
         "  [[1. 1.]\n"
         "   [1. 1.]]]\n"
         "\n"
         "\n"
         " [[[1. 1.]\n"
         "   [1. 1.]]\n"
         "\n"
         "  [[1. 1.]\n"
         "   [1. 1.]]]]"},
    /* np.array([[np.nan]]) */
    {LIT_F, KJ_DT_FLOAT64, 2, {1, 1}, 1,
     {.f = {NAN}},
     "[[nan]]"},
    /* np.array([-np.inf, np.inf]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {2}, 2,
     {.f = {-INFINITY, INFINITY}},
     "[-inf  inf]"},
    /* np.array([2**63 - 1, -2**63]) */
    {LIT_I, KJ_DT_INT64, 1, {2}, 2,
     {.i = {INT64_C(9223372036854775807), INT64_MIN}},
     "[ 9223372036854775807 -9223372036854775808]"},
    /* np.array([2**64 - 1], dtype=np.uint64) */
    {LIT_U, KJ_DT_UINT64, 1, {1}, 1,
     {.u = {UINT64_C(18446744073709551615)}},
     "[18446744073709551615]"},
    /* np.array([1e8]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {1}, 1,
     {.f = {0x1.7d78400000000p+26}},
     "[1.e+08]"},
    /* np.array([99999999.0]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {1}, 1,
     {.f = {0x1.7d783fc000000p+26}},
     "[99999999.]"},
    /* np.array([1e-4]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {1}, 1,
     {.f = {0x1.a36e2eb1c432dp-14}},
     "[0.0001]"},
    /* np.array([0.5, 1000.0]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {2}, 2,
     {.f = {0x1.0000000000000p-1, 0x1.f400000000000p+9}},
     "[5.e-01 1.e+03]"},
    /* np.array([0.5, 500.1]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {2}, 2,
     {.f = {0x1.0000000000000p-1, 0x1.f41999999999ap+8}},
     "[5.000e-01 5.001e+02]"},
    /* np.arange(10, dtype=np.float32) / np.float32(3) */
    {LIT_F, KJ_DT_FLOAT32, 1, {10}, 10,
     {.f = {0x0.0p+0, 0x1.5555560000000p-2, 0x1.5555560000000p-1, 0x1.0000000000000p+0,
      0x1.5555560000000p+0, 0x1.aaaaaa0000000p+0, 0x1.0000000000000p+1,
      0x1.2aaaaa0000000p+1, 0x1.5555560000000p+1, 0x1.8000000000000p+1}},
     "[0.         0.33333334 0.6666667  1.         1.3333334  1.6666666\n"
         " 2.         2.3333333  2.6666667  3.        ]"},
    /* np.array([-128, 0, 127], dtype=np.int8) */
    {LIT_I, KJ_DT_INT8, 1, {3}, 3,
     {.i = {INT64_C(-128), INT64_C(0), INT64_C(127)}},
     "[-128    0  127]"},
    /* np.array([[True, False], [False, True]]) */
    {LIT_I, KJ_DT_BOOL, 2, {2, 2}, 4,
     {.i = {1, 0, 0, 1}},
     "[[ True False]\n"
         " [False  True]]"},
    /* ((np.arange(12) * 7919) % 1000 / 7.0 - 70).reshape(3, 4) */
    {LIT_F, KJ_DT_FLOAT64, 2, {3, 4}, 12,
     {.f = {-0x1.1800000000000p+6, 0x1.ea49249249248p+5, 0x1.8db6db6db6db6p+5,
      0x1.3124924924924p+5, 0x1.a924924924924p+4, 0x1.e000000000000p+3,
      0x1.b6db6db6db6e0p+1, -0x1.0492492492494p+3, -0x1.3b6db6db6db6ep+4,
      -0x1.f492492492492p+4, -0x1.56db6db6db6dcp+5, -0x1.b36db6db6db6ep+5}},
     "[[-70.          61.28571429  49.71428571  38.14285714]\n"
         " [ 26.57142857  15.           3.42857143  -8.14285714]\n"
         " [-19.71428571 -31.28571429 -42.85714286 -54.42857143]]"},
    /* np.array([-1.5e-10, np.nan, 3.0, -np.inf]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {4}, 4,
     {.f = {-0x1.49da7e361ce4cp-33, NAN, 0x1.8000000000000p+1, -INFINITY}},
     "[-1.5e-10      nan  3.0e+00     -inf]"},
    /* np.arange(40.).reshape(2, 20) * 1.1 */
    {LIT_F, KJ_DT_FLOAT64, 2, {2, 20}, 40,
     {.f = {0x0.0p+0, 0x1.199999999999ap+0, 0x1.199999999999ap+1, 0x1.a666666666667p+1,
      0x1.199999999999ap+2, 0x1.6000000000000p+2, 0x1.a666666666667p+2,
      0x1.ecccccccccccep+2, 0x1.199999999999ap+3, 0x1.3cccccccccccdp+3,
      0x1.6000000000000p+3, 0x1.8333333333334p+3, 0x1.a666666666667p+3,
      0x1.c99999999999ap+3, 0x1.ecccccccccccep+3, 0x1.0800000000000p+4,
      0x1.199999999999ap+4, 0x1.2b33333333334p+4, 0x1.3cccccccccccdp+4,
      0x1.4e66666666667p+4, 0x1.6000000000000p+4, 0x1.719999999999ap+4,
      0x1.8333333333334p+4, 0x1.94ccccccccccdp+4, 0x1.a666666666667p+4,
      0x1.b800000000001p+4, 0x1.c99999999999ap+4, 0x1.db33333333334p+4,
      0x1.ecccccccccccep+4, 0x1.fe66666666667p+4, 0x1.0800000000000p+5,
      0x1.10ccccccccccdp+5, 0x1.199999999999ap+5, 0x1.2266666666667p+5,
      0x1.2b33333333334p+5, 0x1.3400000000000p+5, 0x1.3cccccccccccdp+5,
      0x1.459999999999ap+5, 0x1.4e66666666667p+5, 0x1.5733333333334p+5}},
     "[[ 0.   1.1  2.2  3.3  4.4  5.5  6.6  7.7  8.8  9.9 11.  12.1 13.2 14.3\n"
         "  15.4 16.5 17.6 18.7 19.8 20.9]\n"
         " [22.  23.1 24.2 25.3 26.4 27.5 28.6 29.7 30.8 31.9 33.  34.1 35.2 36.3\n"
         "  37.4 38.5 39.6 40.7 41.8 42.9]]"},
    /* np.array([[-300, 2], [7, -1]], dtype=np.int16) */
    {LIT_I, KJ_DT_INT16, 2, {2, 2}, 4,
     {.i = {INT64_C(-300), INT64_C(2), INT64_C(7), INT64_C(-1)}},
     "[[-300    2]\n"
         " [   7   -1]]"},
    /* np.array([1.5, 2.25, -3.125]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {3}, 3,
     {.f = {0x1.8000000000000p+0, 0x1.2000000000000p+1, -0x1.9000000000000p+1}},
     "[ 1.5    2.25  -3.125]"},
    /* np.array([1.0000001, 1e-6], dtype=np.float32) */
    {LIT_F, KJ_DT_FLOAT32, 1, {2}, 2,
     {.f = {0x1.0000020000000p+0, 0x1.0c6f7a0000000p-20}},
     "[1.0000001e+00 1.0000000e-06]"},
    /* np.array([2**-20, 3.0]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {2}, 2,
     {.f = {0x1.0000000000000p-20, 0x1.8000000000000p+1}},
     "[9.53674316e-07 3.00000000e+00]"},
    /* np.array([1e300, -1e-300, np.inf]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {3}, 3,
     {.f = {0x1.7e43c8800759cp+996, -0x1.56e1fc2f8f359p-997, INFINITY}},
     "[ 1.e+300 -1.e-300      inf]"},
    /* np.array(np.float32(0.1)) */
    {LIT_F, KJ_DT_FLOAT32, 0, {0}, 1,
     {.f = {0x1.99999a0000000p-4}},
     "0.1"},
    /* np.array([[1.5]]) */
    {LIT_F, KJ_DT_FLOAT64, 2, {1, 1}, 1,
     {.f = {0x1.8000000000000p+0}},
     "[[1.5]]"},
    /* np.array([0.0, 0.0]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {2}, 2,
     {.f = {0x0.0p+0, 0x0.0p+0}},
     "[0. 0.]"},
    /* np.array([1e-5, np.nan]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {2}, 2,
     {.f = {0x1.4f8b588e368f1p-17, NAN}},
     "[1.e-05    nan]"},
    /* np.array([100.0, np.inf, -np.inf]) */
    {LIT_F, KJ_DT_FLOAT64, 1, {3}, 3,
     {.f = {0x1.9000000000000p+6, INFINITY, -INFINITY}},
     "[100.  inf -inf]"},
    /* np.arange(2000.) */
    {ARANGE, KJ_DT_FLOAT64, 1, {2000}, 2000, {.i = {0}},
     "[0.000e+00 1.000e+00 2.000e+00 ... 1.997e+03 1.998e+03 1.999e+03]"},
    /* np.arange(24).reshape(2, 3, 4) */
    {ARANGE, KJ_DT_INT64, 3, {2, 3, 4}, 24, {.i = {0}},
     "[[[ 0  1  2  3]\n"
         "  [ 4  5  6  7]\n"
         "  [ 8  9 10 11]]\n"
         "\n"
         " [[12 13 14 15]\n"
         "  [16 17 18 19]\n"
         "  [20 21 22 23]]]"},
    /* np.arange(5000).reshape(50, 100) */
    {ARANGE, KJ_DT_INT64, 2, {50, 100}, 5000, {.i = {0}},
     "[[   0    1    2 ...   97   98   99]\n"
         " [ 100  101  102 ...  197  198  199]\n"
         " [ 200  201  202 ...  297  298  299]\n"
         " ...\n"
         " [4700 4701 4702 ... 4797 4798 4799]\n"
         " [4800 4801 4802 ... 4897 4898 4899]\n"
         " [4900 4901 4902 ... 4997 4998 4999]]"},
    /* np.arange(100.) */
    {ARANGE, KJ_DT_FLOAT64, 1, {100}, 100, {.i = {0}},
     "[ 0.  1.  2.  3.  4.  5.  6.  7.  8.  9. 10. 11. 12. 13. 14. 15. 16. 17.\n"
         " 18. 19. 20. 21. 22. 23. 24. 25. 26. 27. 28. 29. 30. 31. 32. 33. 34. 35.\n"
         " 36. 37. 38. 39. 40. 41. 42. 43. 44. 45. 46. 47. 48. 49. 50. 51. 52. 53.\n"
         " 54. 55. 56. 57. 58. 59. 60. 61. 62. 63. 64. 65. 66. 67. 68. 69. 70. 71.\n"
         " 72. 73. 74. 75. 76. 77. 78. 79. 80. 81. 82. 83. 84. 85. 86. 87. 88. 89.\n"
         " 90. 91. 92. 93. 94. 95. 96. 97. 98. 99.]"},
    /* np.arange(3000.).reshape(10, 10, 30) */
    {ARANGE, KJ_DT_FLOAT64, 3, {10, 10, 30}, 3000, {.i = {0}},
     "[[[0.000e+00 1.000e+00 2.000e+00 ... 2.700e+01 2.800e+01 2.900e+01]\n"
         "  [3.000e+01 3.100e+01 3.200e+01 ... 5.700e+01 5.800e+01 5.900e+01]\n"
         "  [6.000e+01 6.100e+01 6.200e+01 ... 8.700e+01 8.800e+01 8.900e+01]\n"
         "  ...\n"
         "  [2.100e+02 2.110e+02 2.120e+02 ... 2.370e+02 2.380e+02 2.390e+02]\n"
         "  [2.400e+02 2.410e+02 2.420e+02 ... 2.670e+02 2.680e+02 2.690e+02]\n"
         "  [2.700e+02 2.710e+02 2.720e+02 ... 2.970e+02 2.980e+02 2.990e+02]]\n"
         "\n"
         " [[3.000e+02 3.010e+02 3.020e+02 ... 3.270e+02 3.280e+02 3.290e+02]\n"
         "  [3.300e+02 3.310e+02 3.320e+02 ... 3.570e+02 3.580e+02 3.590e+02]\n"
         "  [3.600e+02 3.610e+02 3.620e+02 ... 3.870e+02 3.880e+02 3.890e+02]\n"
         "  ...\n"
         "  [5.100e+02 5.110e+02 5.120e+02 ... 5.370e+02 5.380e+02 5.390e+02]\n"
         "  [5.400e+02 5.410e+02 5.420e+02 ... 5.670e+02 5.680e+02 5.690e+02]\n"
         "  [5.700e+02 5.710e+02 5.720e+02 ... 5.970e+02 5.980e+02 5.990e+02]]\n"
         "\n"
         " [[6.000e+02 6.010e+02 6.020e+02 ... 6.270e+02 6.280e+02 6.290e+02]\n"
         "  [6.300e+02 6.310e+02 6.320e+02 ... 6.570e+02 6.580e+02 6.590e+02]\n"
         "  [6.600e+02 6.610e+02 6.620e+02 ... 6.870e+02 6.880e+02 6.890e+02]\n"
         "  ...\n"
         "  [8.100e+02 8.110e+02 8.120e+02 ... 8.370e+02 8.380e+02 8.390e+02]\n"
         "  [8.400e+02 8.410e+02 8.420e+02 ... 8.670e+02 8.680e+02 8.690e+02]\n"
         "  [8.700e+02 8.710e+02 8.720e+02 ... 8.970e+02 8.980e+02 8.990e+02]]\n"
         "\n"
         " ...\n"
         "\n"
         " [[2.100e+03 2.101e+03 2.102e+03 ... 2.127e+03 2.128e+03 2.129e+03]\n"
         "  [2.130e+03 2.131e+03 2.132e+03 ... 2.157e+03 2.158e+03 2.159e+03]\n"
         "  [2.160e+03 2.161e+03 2.162e+03 ... 2.187e+03 2.188e+03 2.189e+03]\n"
         "  ...\n"
         "  [2.310e+03 2.311e+03 2.312e+03 ... 2.337e+03 2.338e+03 2.339e+03]\n"
         "  [2.340e+03 2.341e+03 2.342e+03 ... 2.367e+03 2.368e+03 2.369e+03]\n"
         "  [2.370e+03 2.371e+03 2.372e+03 ... 2.397e+03 2.398e+03 2.399e+03]]\n"
         "\n"
         " [[2.400e+03 2.401e+03 2.402e+03 ... 2.427e+03 2.428e+03 2.429e+03]\n"
         "  [2.430e+03 2.431e+03 2.432e+03 ... 2.457e+03 2.458e+03 2.459e+03]\n"
         "  [2.460e+03 2.461e+03 2.462e+03 ... 2.487e+03 2.488e+03 2.489e+03]\n"
         "  ...\n"
         "  [2.610e+03 2.611e+03 2.612e+03 ... 2.637e+03 2.638e+03 2.639e+03]\n"
         "  [2.640e+03 2.641e+03 2.642e+03 ... 2.667e+03 2.668e+03 2.669e+03]\n"
         "  [2.670e+03 2.671e+03 2.672e+03 ... 2.697e+03 2.698e+03 2.699e+03]]\n"
         "\n"
         " [[2.700e+03 2.701e+03 2.702e+03 ... 2.727e+03 2.728e+03 2.729e+03]\n"
         "  [2.730e+03 2.731e+03 2.732e+03 ... 2.757e+03 2.758e+03 2.759e+03]\n"
         "  [2.760e+03 2.761e+03 2.762e+03 ... 2.787e+03 2.788e+03 2.789e+03]\n"
         "  ...\n"
         "  [2.910e+03 2.911e+03 2.912e+03 ... 2.937e+03 2.938e+03 2.939e+03]\n"
         "  [2.940e+03 2.941e+03 2.942e+03 ... 2.967e+03 2.968e+03 2.969e+03]\n"
         "  [2.970e+03 2.971e+03 2.972e+03 ... 2.997e+03 2.998e+03 2.999e+03]]]"},
    /* np.arange(1001, dtype=np.float32) */
    {ARANGE, KJ_DT_FLOAT32, 1, {1001}, 1001, {.i = {0}},
     "[   0.    1.    2. ...  998.  999. 1000.]"},
    /* np.arange(20, dtype=np.uint8) */
    {ARANGE, KJ_DT_UINT8, 1, {20}, 20, {.i = {0}},
     "[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19]"},
    /* np.arange(1002) % 2 == 0 */
    {EVEN, KJ_DT_BOOL, 1, {1002}, 1002, {.i = {0}},
     "[ True False  True ... False  True False]"},
    /* np.arange(30.).reshape(2, 15) / 7 */
    {DIV7, KJ_DT_FLOAT64, 2, {2, 15}, 30, {.i = {0}},
     "[[0.         0.14285714 0.28571429 0.42857143 0.57142857 0.71428571\n"
         "  0.85714286 1.         1.14285714 1.28571429 1.42857143 1.57142857\n"
         "  1.71428571 1.85714286 2.        ]\n"
         " [2.14285714 2.28571429 2.42857143 2.57142857 2.71428571 2.85714286\n"
         "  3.         3.14285714 3.28571429 3.42857143 3.57142857 3.71428571\n"
         "  3.85714286 4.         4.14285714]]"},
};

static kj_array *build(const fmt_case *c)
{
    kj_rt_error err = {0};
    kj_array *a = kj_array_empty(c->dtype, c->ndim, c->shape, &err);
    assert_non_null(a);
    size_t isz = kj_dtype_size(c->dtype);
    for (int64_t k = 0; k < c->n; k++) {
        kj_scalar s;
        switch (c->kind) {
        case LIT_F: s = kj_scalar_f64(c->v.f[k]); break;
        case LIT_I: s = kj_scalar_i64(c->v.i[k]); break;
        case LIT_U: s = (kj_scalar){KJ_DT_UINT64, {.u = c->v.u[k]}}; break;
        case EVEN: s = kj_scalar_i64(k % 2 == 0); break;
        case DIV7: s = kj_scalar_f64((double)k / 7); break;
        default: s = kj_scalar_i64(k); break;
        }
        kj_elem_store(a->data + k * (int64_t)isz, c->dtype, s);
    }
    return a;
}

static void test_numpy_array_str(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof array_cases / sizeof array_cases[0]; i++) {
        kj_array *a = build(&array_cases[i]);
        kj_buf b = {0};
        kj_fmt_array(&b, a);
        char what[32];
        snprintf(what, sizeof what, "array case %zu", i);
        expect_str(&b, array_cases[i].want, what);
        kj_array_release(a);
    }
}

/* Views print their logical elements: m = np.arange(12.).reshape(3, 4);
 * str(m[::-1, ::2]) and str(m.T) (an F-ordered wrap). */
static void test_views(void **state)
{
    (void)state;
    kj_rt_error err = {0};
    kj_array *base = kj_array_arange_i64(0, 12, 1, KJ_DT_FLOAT64, &err);
    kj_array *m = kj_array_reshape(base, 2, (int64_t[]){3, 4}, &err);
    kj_index ix[2] = {{.kind = KJ_IDX_SLICE, .step = -1}, {.kind = KJ_IDX_SLICE, .step = 2}};
    kj_array *v = kj_array_view(m, ix, 2, &err);
    kj_buf b = {0};
    kj_fmt_array(&b, v);
    expect_str(&b, "[[ 8. 10.]\n [ 4.  6.]\n [ 0.  2.]]", "m[::-1, ::2]");
    kj_array *t = kj_array_wrap(m->data, KJ_DT_FLOAT64, 2, (int64_t[]){4, 3}, (int64_t[]){8, 32},
                                &err);
    kj_fmt_array(&b, t);
    expect_str(&b, "[[ 0.  4.  8.]\n [ 1.  5.  9.]\n [ 2.  6. 10.]\n [ 3.  7. 11.]]", "m.T");
    kj_array_release(t), kj_array_release(v), kj_array_release(m), kj_array_release(base);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_python_float_repr),
        cmocka_unit_test(test_numpy_float32_str),
        cmocka_unit_test(test_other_scalars),
        cmocka_unit_test(test_dragon4_shortest),
        cmocka_unit_test(test_numpy_array_str),
        cmocka_unit_test(test_views),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
