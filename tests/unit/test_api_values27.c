/* SPDX-License-Identifier: BSD-2-Clause */
/* The C API's values of 0.5 (include/kjit.h): KJIT_VALUE_COMPLEX scalars,
 * datetime64/timedelta64 scalars and arrays with their unit, and
 * KJIT_VALUE_BYTES buffers (bytes, bytearray, memoryview), as arguments and
 * results of kjit_call, through prepared calls, and the errors for bad ones. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <kjit.h>
#include <string.h>

static const char *const SRC = "import numpy as np\n"
                               "from numba import njit\n"
                               "@njit\n"
                               "def cmul(z, w):\n"
                               "    return z * w, z.conjugate()\n"
                               "@njit\n"
                               "def shift(d, t):\n"
                               "    return d + t\n"
                               "@njit\n"
                               "def stamps(a, t):\n"
                               "    for i in range(a.shape[0]):\n"
                               "        a[i] = a[i] + t\n"
                               "    return a[1:]\n"
                               "@njit('complex64(complex64)')\n"
                               "def twice(z):\n"
                               "    return z * 2\n"
                               "@njit\n"
                               "def first(a):\n"
                               "    return a[0]\n"
                               "@njit\n"
                               "def total(b):\n"
                               "    s = 0\n"
                               "    for x in b:\n"
                               "        s += int(x)\n"
                               "    return s\n"
                               "@njit\n"
                               "def bump(b):\n"
                               "    b[0] = b[0] + 1\n"
                               "    return len(b)\n"
                               "@njit\n"
                               "def tail(b):\n"
                               "    return b[1:]\n"
                               "@njit\n"
                               "def mvsum(m):\n"
                               "    return m[1, 0] + m.ndim, m.readonly\n";

typedef struct fixture {
    kjit_ctx *ctx;
    kjit_module *m;
} fixture;

static int setup(void **state)
{
    static fixture fx;
    kjit_error err;
    fx.ctx = kjit_ctx_new(NULL, &err);
    if (!fx.ctx) return -1;
    fx.m = kjit_compile(fx.ctx, SRC, strlen(SRC), "v.k", &err);
    if (!fx.m) return -1;
    *state = &fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    kjit_module_free(fx->m);
    kjit_ctx_free(fx->ctx);
    return 0;
}

static void test_complex_scalars(void **state)
{
    fixture *fx = *state;
    kjit_error err;
    kjit_value args[2] = {kjit_value_complex(1, 2, KJIT_COMPLEX128), kjit_value_complex(3, -1, KJIT_COMPLEX128)}, r;
    assert_int_equal(kjit_call(kjit_module_get(fx->m, "cmul"), args, 2, &r, &err), KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_TUPLE);
    kjit_value *it = r.v.t->items;
    assert_int_equal(it[0].kind, KJIT_VALUE_COMPLEX);
    assert_int_equal(it[0].dtype, KJIT_COMPLEX128);
    assert_true(it[0].v.c.re == 5.0 && it[0].v.c.im == 5.0); /* (1+2j)(3-1j) */
    assert_true(it[1].v.c.re == 1.0 && it[1].v.c.im == -2.0);
    char buf[64];
    assert_string_equal(kjit_value_type_name(&it[0], buf, sizeof buf), "complex128");
    kjit_value_release(&r);
    /* complex64 is another specialisation, whose results are complex64 */
    args[0] = kjit_value_complex(0.5, 0.25, KJIT_COMPLEX64);
    args[1] = kjit_value_complex(2, 0, KJIT_COMPLEX64);
    assert_int_equal(kjit_call(kjit_module_get(fx->m, "cmul"), args, 2, &r, &err), KJIT_OK);
    assert_int_equal(r.v.t->items[0].dtype, KJIT_COMPLEX64);
    assert_true(r.v.t->items[0].v.c.re == 1.0 && r.v.t->items[0].v.c.im == 0.5);
    kjit_value_release(&r);
    /* a prepared call takes them too, and refuses another dtype */
    kjit_call_plan *p = kjit_call_prepare(kjit_module_get(fx->m, "cmul"), args, 2, &err);
    assert_non_null(p);
    args[0] = kjit_value_complex(1, 1, KJIT_COMPLEX64);
    assert_int_equal(kjit_call_prepared(p, args, &r, &err), KJIT_OK);
    assert_true(r.v.t->items[0].v.c.re == 2.0 && r.v.t->items[0].v.c.im == 2.0);
    kjit_value_release(&r);
    args[0] = kjit_value_complex(1, 1, KJIT_COMPLEX128);
    assert_int_equal(kjit_call_prepared(p, args, &r, &err), KJIT_ERR_USAGE);
    kjit_call_plan_free(p);
    /* an explicit signature converts a number or a complex128 to its complex64 */
    kjit_fn *tw = kjit_module_get(fx->m, "twice");
    args[0] = kjit_value_float(1.5);
    assert_int_equal(kjit_call(tw, args, 1, &r, &err), KJIT_OK);
    assert_true(r.kind == KJIT_VALUE_COMPLEX && r.dtype == KJIT_COMPLEX64 && r.v.c.re == 3.0 && r.v.c.im == 0.0);
    p = kjit_call_prepare(tw, args, 1, &err);
    assert_non_null(p);
    args[0] = kjit_value_float(-2.0);
    assert_int_equal(kjit_call_prepared(p, args, &r, &err), KJIT_OK);
    assert_true(r.v.c.re == -4.0 && r.v.c.im == 0.0);
    kjit_call_plan_free(p);
    args[0] = kjit_value_complex(0.25, 0.1, KJIT_COMPLEX128);
    assert_int_equal(kjit_call(tw, args, 1, &r, &err), KJIT_OK);
    assert_true(r.v.c.re == 0.5 && r.v.c.im == (double)(0.1f * 2)); /* rounded to float32 */
    args[0] = kjit_value_int(3);
    assert_int_equal(kjit_call(tw, args, 1, &r, &err), KJIT_OK);
    assert_true(r.v.c.re == 6.0);
    /* a complex value of a non-complex dtype */
    args[0] = kjit_value_complex(1, 1, KJIT_FLOAT64);
    assert_int_equal(kjit_call(kjit_module_get(fx->m, "cmul"), args, 2, &r, &err), KJIT_ERR_USAGE);
    assert_non_null(strstr(err.message, "complex64 or complex128"));
}

static void test_datetime_scalars(void **state)
{
    fixture *fx = *state;
    kjit_error err;
    /* 2020-01-01 (18262 days) + 36 hours: datetime64[h] */
    kjit_value args[2] = {kjit_value_datetime(18262, KJIT_UNIT_D, KJIT_DATETIME64),
                          kjit_value_datetime(36, KJIT_UNIT_h, KJIT_TIMEDELTA64)}, r;
    assert_int_equal(kjit_call(kjit_module_get(fx->m, "shift"), args, 2, &r, &err), KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_INT);
    assert_int_equal(r.dtype, KJIT_DATETIME64);
    assert_int_equal(r.v.dt.unit, KJIT_UNIT_h);
    assert_int_equal(r.v.dt.count, 18262 * 24 + 36);
    assert_int_equal(r.v.i, 18262 * 24 + 36);
    char name[64];
    assert_string_equal(kjit_value_type_name(&r, name, sizeof name), "datetime64[h]");
    /* NaT propagates */
    args[0] = kjit_value_datetime(INT64_MIN, KJIT_UNIT_D, KJIT_DATETIME64);
    assert_int_equal(kjit_call(kjit_module_get(fx->m, "shift"), args, 2, &r, &err), KJIT_OK);
    assert_true(r.v.dt.count == INT64_MIN);
    /* a prepared call checks the unit */
    kjit_call_plan *p = kjit_call_prepare(kjit_module_get(fx->m, "shift"), args, 2, &err);
    assert_non_null(p);
    args[1] = kjit_value_datetime(2, KJIT_UNIT_h, KJIT_TIMEDELTA64);
    args[0] = kjit_value_datetime(1, KJIT_UNIT_D, KJIT_DATETIME64);
    assert_int_equal(kjit_call_prepared(p, args, &r, &err), KJIT_OK);
    assert_int_equal(r.v.dt.count, 26);
    args[1] = kjit_value_datetime(2, KJIT_UNIT_m, KJIT_TIMEDELTA64);
    assert_int_equal(kjit_call_prepared(p, args, &r, &err), KJIT_ERR_USAGE);
    kjit_call_plan_free(p);
    /* a unit out of range */
    args[1] = kjit_value_datetime(2, 99, KJIT_TIMEDELTA64);
    assert_int_equal(kjit_call(kjit_module_get(fx->m, "shift"), args, 2, &r, &err), KJIT_ERR_USAGE);
    assert_non_null(strstr(err.message, "unit 99"));
}

static void test_datetime_arrays(void **state)
{
    fixture *fx = *state;
    kjit_error err;
    int64_t days[3] = {0, 1, INT64_MIN}, n = 3;
    kjit_array *a = kjit_array_wrap(fx->ctx, days, KJIT_DATETIME64, 1, &n, NULL, &err);
    assert_non_null(a);
    assert_int_equal(kjit_array_dtype(a), KJIT_DATETIME64);
    assert_int_equal(kjit_array_unit(a), KJIT_UNIT_GENERIC);
    assert_int_equal(kjit_array_set_unit(a, KJIT_DATETIME64, KJIT_UNIT_D, &err), KJIT_OK);
    assert_int_equal(kjit_array_unit(a), KJIT_UNIT_D);
    assert_string_equal(kjit_dtype_name(KJIT_DATETIME64), "datetime64");
    assert_string_equal(kjit_dtype_name(KJIT_TIMEDELTA64), "timedelta64");
    kjit_value args[2] = {kjit_value_array(a), kjit_value_datetime(2, KJIT_UNIT_D, KJIT_TIMEDELTA64)}, r;
    assert_int_equal(kjit_call(kjit_module_get(fx->m, "stamps"), args, 2, &r, &err), KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_ARRAY);
    assert_int_equal(r.dtype, KJIT_DATETIME64);
    assert_int_equal(kjit_array_dtype(r.v.a), KJIT_DATETIME64);
    assert_int_equal(kjit_array_unit(r.v.a), KJIT_UNIT_D);
    const int64_t *out = kjit_array_data(r.v.a); /* a view of days[1:], written in place */
    assert_true(out == days + 1 && days[0] == 2 && out[0] == 3 && out[1] == INT64_MIN);
    kjit_value_release(&r);
    /* a prepared call checks the datetime mark and unit of arrays */
    int64_t plain[1] = {5}, one_ = 1;
    kjit_array *pa = kjit_array_wrap(fx->ctx, plain, KJIT_INT64, 1, &one_, NULL, &err);
    kjit_value pv = kjit_value_array(pa), av = kjit_value_array(a);
    kjit_call_plan *p = kjit_call_prepare(kjit_module_get(fx->m, "first"), &pv, 1, &err);
    assert_non_null(p);
    assert_int_equal(kjit_call_prepared(p, &av, &r, &err), KJIT_ERR_USAGE); /* datetime64[D] is not int64 */
    kjit_call_plan_free(p);
    p = kjit_call_prepare(kjit_module_get(fx->m, "first"), &av, 1, &err);
    assert_non_null(p);
    assert_int_equal(kjit_call_prepared(p, &pv, &r, &err), KJIT_ERR_USAGE);
    assert_int_equal(kjit_call_prepared(p, &av, &r, &err), KJIT_OK);
    assert_true(r.dtype == KJIT_DATETIME64 && r.v.dt.unit == KJIT_UNIT_D && r.v.dt.count == 2);
    assert_int_equal(kjit_array_set_unit(pa, KJIT_DATETIME64, KJIT_UNIT_s, &err), KJIT_OK);
    assert_int_equal(kjit_call_prepared(p, &pv, &r, &err), KJIT_ERR_USAGE); /* another unit */
    kjit_call_plan_free(p);
    kjit_array_free(pa);
    /* only int64 arrays, datetime dtypes and known units */
    double f[1];
    int64_t one = 1;
    kjit_array *fa = kjit_array_wrap(fx->ctx, f, KJIT_FLOAT64, 1, &one, NULL, &err);
    assert_int_equal(kjit_array_set_unit(fa, KJIT_DATETIME64, KJIT_UNIT_s, &err), KJIT_ERR_USAGE);
    assert_int_equal(kjit_array_set_unit(a, KJIT_INT64, KJIT_UNIT_s, &err), KJIT_ERR_USAGE);
    assert_int_equal(kjit_array_set_unit(a, KJIT_DATETIME64, 3, &err), KJIT_ERR_USAGE);
    assert_int_equal(kjit_array_unit(fa), -1);
    kjit_array_free(fa);
    kjit_array_free(a);
}

static void test_buffers(void **state)
{
    fixture *fx = *state;
    kjit_error err;
    uint8_t bytes[4] = {'a', 'b', 'c', 'd'};
    int64_t n = 4;
    kjit_array *b = kjit_array_wrap(fx->ctx, bytes, KJIT_UINT8, 1, &n, NULL, &err);
    kjit_value arg = kjit_value_buffer(b, KJIT_BUFFER_BYTES), r;
    char buf[64];
    assert_string_equal(kjit_value_type_name(&arg, buf, sizeof buf), "bytes");
    assert_int_equal(kjit_call(kjit_module_get(fx->m, "total"), &arg, 1, &r, &err), KJIT_OK);
    assert_int_equal(r.v.i, 'a' + 'b' + 'c' + 'd');
    /* bytes are read-only: Numba has no setitem for them */
    assert_int_equal(kjit_call(kjit_module_get(fx->m, "bump"), &arg, 1, &r, &err), KJIT_ERR_COMPILE);
    /* a bytearray is written in place */
    arg = kjit_value_buffer(b, KJIT_BUFFER_BYTEARRAY);
    assert_int_equal(kjit_call(kjit_module_get(fx->m, "bump"), &arg, 1, &r, &err), KJIT_OK);
    assert_int_equal(r.v.i, 4);
    assert_int_equal(bytes[0], 'b');
    /* a bytes result is the caller's */
    arg = kjit_value_buffer(b, KJIT_BUFFER_BYTES);
    assert_int_equal(kjit_call(kjit_module_get(fx->m, "tail"), &arg, 1, &r, &err), KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_BYTES);
    assert_int_equal(r.v.buf.kind, KJIT_BUFFER_BYTES);
    assert_int_equal(kjit_array_shape(r.v.buf.a)[0], 3);
    assert_memory_equal(kjit_array_data(r.v.buf.a), "bcd", 3);
    kjit_value_release(&r);
    /* a memoryview of a 2-d float64 array */
    double m[6] = {0, 1, 2, 3, 4, 5};
    int64_t shape[2] = {3, 2};
    kjit_array *ma = kjit_array_wrap(fx->ctx, m, KJIT_FLOAT64, 2, shape, NULL, &err);
    arg = kjit_value_buffer(ma, KJIT_BUFFER_MEMORYVIEW_RO);
    assert_int_equal(kjit_call(kjit_module_get(fx->m, "mvsum"), &arg, 1, &r, &err), KJIT_OK);
    assert_true(r.v.t->items[0].v.f == 4.0 && r.v.t->items[1].v.b);
    kjit_value_release(&r);
    /* bytes must be 1-d uint8; a kind must be one of kjit_buffer_kind */
    arg = kjit_value_buffer(ma, KJIT_BUFFER_BYTES);
    assert_int_equal(kjit_call(kjit_module_get(fx->m, "total"), &arg, 1, &r, &err), KJIT_ERR_USAGE);
    assert_non_null(strstr(err.message, "1-d uint8"));
    arg = kjit_value_buffer(b, (kjit_buffer_kind)7);
    assert_int_equal(kjit_call(kjit_module_get(fx->m, "total"), &arg, 1, &r, &err), KJIT_ERR_USAGE);
    kjit_array_free(ma);
    kjit_array_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_complex_scalars),
        cmocka_unit_test(test_datetime_scalars),
        cmocka_unit_test(test_datetime_arrays),
        cmocka_unit_test(test_buffers),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
