/* SPDX-License-Identifier: BSD-2-Clause */
/* Complex arrays through the public C API (include/kjit.h): the
 * KJIT_COMPLEX64/KJIT_COMPLEX128 dtypes, NumPy's layout (real, imaginary),
 * passed to a compiled function that reads and writes them in place. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <kjit.h>
#include <string.h>

static const char *const SRC = "from numba import jit\n"
                               "@jit(nopython=True)\n"
                               "def rot(a, w):\n"
                               "    s = 0j\n"
                               "    for i in range(a.shape[0]):\n"
                               "        a[i] = a[i] * 1j + w[i]\n"
                               "        s += a[i]\n"
                               "    return abs(s)\n";

static void test_dtypes(void **state)
{
    (void)state;
    assert_int_equal(kjit_dtype_size(KJIT_COMPLEX64), 8);
    assert_int_equal(kjit_dtype_size(KJIT_COMPLEX128), 16);
    assert_string_equal(kjit_dtype_name(KJIT_COMPLEX64), "complex64");
    assert_string_equal(kjit_dtype_name(KJIT_COMPLEX128), "complex128");
    assert_int_equal(kjit_dtype_size(KJIT_FLOAT16), 2);
    assert_string_equal(kjit_dtype_name(KJIT_FLOAT16), "float16");
    assert_string_equal(kjit_dtype_name((kjit_dtype)(KJIT_RECORD + 1)), "?");
}

static void test_complex_arrays_in_place(void **state)
{
    (void)state;
    kjit_error err;
    kjit_ctx *ctx = kjit_ctx_new(NULL, &err);
    assert_non_null(ctx);
    kjit_module *m = kjit_compile(ctx, SRC, strlen(SRC), "c.k", &err);
    assert_non_null(m);
    double z[4] = {1, 2, 3, -4};     /* 1+2j, 3-4j */
    float w[4] = {0.5f, 0, 0, 0.5f}; /* 0.5, 0.5j */
    int64_t n = 2;
    kjit_array *za = kjit_array_wrap(ctx, z, KJIT_COMPLEX128, 1, &n, NULL, &err);
    kjit_array *wa = kjit_array_wrap(ctx, w, KJIT_COMPLEX64, 1, &n, NULL, &err);
    assert_non_null(za);
    assert_non_null(wa);
    assert_int_equal(kjit_array_dtype(za), KJIT_COMPLEX128);
    kjit_value args[2] = {kjit_value_array(za), kjit_value_array(wa)}, r;
    assert_int_equal(kjit_call(kjit_module_get(m, "rot"), args, 2, &r, &err), KJIT_OK);
    /* (1+2j)·1j + 0.5 = -1.5+1j; (3-4j)·1j + 0.5j = 4+3.5j; |2.5+4.5j| */
    assert_true(z[0] == -1.5 && z[1] == 1.0 && z[2] == 4.0 && z[3] == 3.5);
    assert_int_equal(r.kind, KJIT_VALUE_FLOAT);
    assert_float_equal(r.v.f, 5.1478150704935, 1e-12);
    /* the element type is part of the specialisation: float64 is another one */
    double f[2] = {1, 2};
    kjit_array *fa = kjit_array_wrap(ctx, f, KJIT_FLOAT64, 1, &n, NULL, &err);
    args[1] = kjit_value_array(fa);
    assert_int_equal(kjit_call(kjit_module_get(m, "rot"), args, 2, &r, &err), KJIT_OK);
    assert_true(z[0] == 0.0 && z[1] == -1.5 && z[2] == -1.5 && z[3] == 4.0);
    kjit_array_free(fa);
    kjit_array_free(za);
    kjit_array_free(wa);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dtypes),
        cmocka_unit_test(test_complex_arrays_in_place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
