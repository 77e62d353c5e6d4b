/* SPDX-License-Identifier: BSD-2-Clause */
/* numpy.polynomial.Polynomial through kjit_call (src/api/values_poly.c): a
 * tuple of coef, domain and window tagged KJIT_TUPLE_POLYNOMIAL is typed as
 * the compiler's Polynomial (p.coef works on it), a Polynomial result comes
 * back tagged, and a malformed one is a usage error. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <kjit.h>

#include <string.h>

static const char src[] = "import numpy as np\n"
                          "from numba import njit\n"
                          "from numpy.polynomial.polynomial import Polynomial\n"
                          "\n"
                          "@njit\n"
                          "def lead(p):\n"
                          "    return p.coef[-1] + p.domain[1] + p.window[0]\n"
                          "\n"
                          "@njit\n"
                          "def make(c):\n"
                          "    return Polynomial(c)\n";

static void test_polynomial_in_and_out(void **state)
{
    (void)state;
    kjit_options o;
    kjit_options_init(&o);
    o.target = KJIT_TARGET_CPU;
    kjit_error err;
    kjit_ctx *ctx = kjit_ctx_new(&o, &err);
    kjit_module *m = kjit_compile(ctx, src, strlen(src), "poly.py", &err);
    assert_non_null(m);
    double coef[3] = {1, 2, 3};
    int64_t dom[2] = {-1, 1}, two[1] = {2}, three[1] = {3};
    kjit_array *c = kjit_array_wrap(ctx, coef, KJIT_FLOAT64, 1, three, NULL, &err);
    kjit_array *d = kjit_array_wrap(ctx, dom, KJIT_INT64, 1, two, NULL, &err);
    kjit_value items[3] = {kjit_value_array(c), kjit_value_array(d), kjit_value_array(d)};
    kjit_tuple t = {3, items};
    kjit_value p = kjit_value_tuple(&t), r;
    p.dtype = (kjit_dtype)KJIT_TUPLE_POLYNOMIAL;
    assert_int_equal(kjit_call(kjit_module_get(m, "lead"), &p, 1, &r, &err), KJIT_OK);
    assert_true(r.v.f == 3.0 + 1 - 1);
    /* a plain tuple has no .coef: a compile error, not a Polynomial */
    kjit_value plain = kjit_value_tuple(&t);
    assert_int_equal(kjit_call(kjit_module_get(m, "lead"), &plain, 1, &r, &err), KJIT_ERR_COMPILE);
    kjit_value a = kjit_value_array(c);
    assert_int_equal(kjit_call(kjit_module_get(m, "make"), &a, 1, &r, &err), KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_TUPLE);
    assert_int_equal((int)r.dtype, KJIT_TUPLE_POLYNOMIAL);
    assert_int_equal(r.v.t->n, 3);
    assert_true(((double *)kjit_array_data(r.v.t->items[0].v.a))[2] == 3.0);
    kjit_value_release(&r);
    /* two items only: refused before typing */
    t.n = 2;
    assert_int_equal(kjit_call(kjit_module_get(m, "lead"), &p, 1, &r, &err), KJIT_ERR_USAGE);
    assert_non_null(strstr(err.message, "coef, domain and window"));
    kjit_array_free(c);
    kjit_array_free(d);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_polynomial_in_and_out)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
