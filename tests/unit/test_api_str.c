/* SPDX-License-Identifier: BSD-2-Clause */
/* str results of kjit_call (src/api/str_result.c): a string compiled code
 * makes at run time is freed as the call ends, so the result is a copy,
 * intact after the call (it was freed memory before: garbled text, and a
 * use after free under ASan), in tuples and Optionals too; kjit_value_release
 * frees it.
 * None arguments: Numba's none type. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <kjit.h>

#include "api_fixture.h"

#include <string.h>

static const char src[] = "from numba import njit\n"
                          "\n"
                          "@njit\n"
                          "def greet(n):\n"
                          "    return 'n=' + str(n) + '!'\n"
                          "\n"
                          "@njit\n"
                          "def pair(s):\n"
                          "    return s.upper(), len(s), s + s\n"
                          "\n"
                          "@njit\n"
                          "def literal():\n"
                          "    return 'const'\n"
                          "\n"
                          "@njit\n"
                          "def opt(x, k=None):\n"
                          "    if k is None:\n"
                          "        return x\n"
                          "    return x * k\n"
                          "\n"
                          "@njit\n"
                          "def label(x):\n"
                          "    s = None\n"
                          "    if x > 0:\n"
                          "        s = 'pos' + str(x)\n"
                          "    return s\n";

static kjit_module *compile(kjit_ctx **ctx) { return api_compile_cpu(ctx, src, "strs.py"); }

static void test_str_results(void **state)
{
    (void)state;
    kjit_ctx *ctx;
    kjit_module *m = compile(&ctx);
    kjit_error err;
    kjit_value r;
    for (int k = 0; k < 3; k++) {
        kjit_value a = kjit_value_int(40 + k);
        assert_int_equal(kjit_call(kjit_module_get(m, "greet"), &a, 1, &r, &err), KJIT_OK);
        assert_int_equal(r.kind, KJIT_VALUE_STR);
        char want[16];
        snprintf(want, sizeof want, "n=%d!", 40 + k);
        assert_string_equal(r.v.s, want);
        kjit_value_release(&r);
    }
    kjit_value s = kjit_value_str("ab");
    assert_int_equal(kjit_call(kjit_module_get(m, "pair"), &s, 1, &r, &err), KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_TUPLE);
    assert_int_equal(r.v.t->n, 3);
    assert_string_equal(r.v.t->items[0].v.s, "AB");
    assert_int_equal(r.v.t->items[1].v.i, 2);
    assert_string_equal(r.v.t->items[2].v.s, "abab");
    kjit_value_release(&r);
    assert_string_equal(s.v.s, "ab"); /* the argument's string is the caller's */
    assert_int_equal(kjit_call(kjit_module_get(m, "literal"), NULL, 0, &r, &err), KJIT_OK);
    assert_string_equal(r.v.s, "const");
    kjit_value_release(&r);
    kjit_value_release(&s); /* an argument's string (kjit_value_str): not freed */
    /* an Optional str (Numba's Optional: None or the value) is copied too */
    kjit_value x = kjit_value_int(7);
    assert_int_equal(kjit_call(kjit_module_get(m, "label"), &x, 1, &r, &err), KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_STR);
    assert_string_equal(r.v.s, "pos7");
    kjit_value_release(&r);
    x = kjit_value_int(-1);
    assert_int_equal(kjit_call(kjit_module_get(m, "label"), &x, 1, &r, &err), KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_NONE);
    kjit_value_release(&r);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

static void test_none_arguments(void **state)
{
    (void)state;
    kjit_ctx *ctx;
    kjit_module *m = compile(&ctx);
    kjit_error err;
    kjit_value r, args[2] = {kjit_value_float(2.5), {.kind = KJIT_VALUE_NONE}};
    assert_int_equal(kjit_call(kjit_module_get(m, "opt"), args, 2, &r, &err), KJIT_OK);
    assert_true(r.kind == KJIT_VALUE_FLOAT && r.v.f == 2.5);
    args[1] = kjit_value_float(2.0);
    assert_int_equal(kjit_call(kjit_module_get(m, "opt"), args, 2, &r, &err), KJIT_OK);
    assert_true(r.kind == KJIT_VALUE_FLOAT && r.v.f == 5.0);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_str_results),
        cmocka_unit_test(test_none_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
