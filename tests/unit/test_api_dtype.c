/* SPDX-License-Identifier: BSD-2-Clause */
/* KJIT_VALUE_DTYPE (src/api/values_dtype.c): a dtype passed (np.float32
 * given to `np.zeros(n, dtype=dt)`: each dtype its own specialisation, as
 * Numba specialises on NumberClass) and returned (`return a.dtype`);
 * invalid dtypes refused; prepared calls refuse the kind (kjit_call takes it). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <kjit.h>

#include "api_fixture.h"

#include <string.h>

static const char src[] = "import numpy as np\n"
                          "from numba import njit\n"
                          "\n"
                          "@njit\n"
                          "def make(n, dt):\n"
                          "    return np.ones(n, dtype=dt)\n"
                          "\n"
                          "@njit\n"
                          "def same(dt):\n"
                          "    return dt\n"
                          "\n"
                          "@njit\n"
                          "def of(a):\n"
                          "    return a.dtype, a.size\n";

static kjit_module *compile(kjit_ctx **ctx) { return api_compile_cpu(ctx, src, "dtypes.py"); }

static kjit_value dtype_value(kjit_dtype dt)
{
    kjit_value v = {KJIT_VALUE_DTYPE, dt, {0}};
    return v;
}

static void test_dtype_arguments(void **state)
{
    (void)state;
    kjit_ctx *ctx;
    kjit_module *m = compile(&ctx);
    kjit_error err;
    kjit_value r;
    const kjit_dtype dts[] = {KJIT_FLOAT32, KJIT_INT16, KJIT_UINT8, KJIT_FLOAT64};
    for (size_t k = 0; k < sizeof dts / sizeof *dts; k++) {
        kjit_value args[2] = {kjit_value_int(3), dtype_value(dts[k])};
        assert_int_equal(kjit_call(kjit_module_get(m, "make"), args, 2, &r, &err), KJIT_OK);
        assert_int_equal(r.kind, KJIT_VALUE_ARRAY);
        assert_int_equal(kjit_array_dtype(r.v.a), dts[k]);
        assert_int_equal(kjit_array_size(r.v.a), 3);
        kjit_value_release(&r);
    }
    char buf[32];
    kjit_value i16 = dtype_value(KJIT_INT16);
    assert_string_equal(kjit_value_type_name(&i16, buf, sizeof buf), "dtype(int16)");
    kjit_value bad[2] = {kjit_value_int(3), dtype_value((kjit_dtype)99)};
    assert_int_equal(kjit_call(kjit_module_get(m, "make"), bad, 2, &r, &err), KJIT_ERR_USAGE);
    assert_non_null(strstr(err.message, "invalid dtype"));
    assert_null(kjit_call_prepare(kjit_module_get(m, "make"), (kjit_value[]){kjit_value_int(3), i16}, 2, &err));
    assert_int_equal(err.code, KJIT_ERR_USAGE);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

static void test_dtype_results(void **state)
{
    (void)state;
    kjit_ctx *ctx;
    kjit_module *m = compile(&ctx);
    kjit_error err;
    kjit_value r, a = dtype_value(KJIT_UINT32);
    assert_int_equal(kjit_call(kjit_module_get(m, "same"), &a, 1, &r, &err), KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_DTYPE);
    assert_int_equal(r.dtype, KJIT_UINT32);
    kjit_value_release(&r);
    float data[5] = {0};
    int64_t shape[1] = {5};
    kjit_array *arr = kjit_array_wrap(ctx, data, KJIT_FLOAT32, 1, shape, NULL, &err);
    assert_non_null(arr);
    kjit_value arg = kjit_value_array(arr);
    assert_int_equal(kjit_call(kjit_module_get(m, "of"), &arg, 1, &r, &err), KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_TUPLE);
    assert_int_equal(r.v.t->items[0].kind, KJIT_VALUE_DTYPE);
    assert_int_equal(r.v.t->items[0].dtype, KJIT_FLOAT32);
    assert_int_equal(r.v.t->items[1].v.i, 5);
    kjit_value_release(&r);
    kjit_array_free(arr);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dtype_arguments),
        cmocka_unit_test(test_dtype_results),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
