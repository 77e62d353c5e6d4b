/* SPDX-License-Identifier: BSD-2-Clause */
/* KJIT_VALUE_FUNCTION (src/api/values_function.c): a @jit function of the
 * callee's module passed as a value, a specialisation per function (as
 * Numba's dispatcher types a function argument); NULL, a function of
 * another module and a kernel are usage errors, and so is one given to a
 * kernel. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <kjit.h>

#include <string.h>

static const char src[] = "from numba import njit, cuda\n"
                          "\n"
                          "@njit\n"
                          "def add(x, y):\n"
                          "    return x + y\n"
                          "\n"
                          "@njit\n"
                          "def mul(x, y):\n"
                          "    return x * y\n"
                          "\n"
                          "@njit\n"
                          "def apply2(f, a, b):\n"
                          "    return f(a, b)\n"
                          "\n"
                          "@cuda.jit\n"
                          "def k(a):\n"
                          "    a[0] = 1\n";

static kjit_module *compile(kjit_ctx *ctx, const char *name)
{
    kjit_error err;
    kjit_module *m = kjit_compile(ctx, src, strlen(src), name, &err);
    assert_non_null(m);
    return m;
}

static kjit_value fn_value(kjit_fn *f)
{
    kjit_value v = {KJIT_VALUE_FUNCTION, KJIT_BOOL, {0}};
    v.v.fn = f;
    return v;
}

static void test_function_arguments(void **state)
{
    (void)state;
    kjit_options o;
    kjit_options_init(&o);
    o.target = KJIT_TARGET_CPU;
    kjit_error err;
    kjit_ctx *ctx = kjit_ctx_new(&o, &err);
    assert_non_null(ctx);
    kjit_module *m = compile(ctx, "fa.py"), *other = compile(ctx, "fb.py");
    kjit_fn *apply2 = kjit_module_get(m, "apply2");
    kjit_value r, args[3] = {fn_value(kjit_module_get(m, "add")), kjit_value_int(3), kjit_value_int(4)};
    assert_int_equal(kjit_call(apply2, args, 3, &r, &err), KJIT_OK);
    assert_true(r.kind == KJIT_VALUE_INT && r.v.i == 7);
    args[0] = fn_value(kjit_module_get(m, "mul")); /* another function: another specialisation */
    assert_int_equal(kjit_call(apply2, args, 3, &r, &err), KJIT_OK);
    assert_true(r.kind == KJIT_VALUE_INT && r.v.i == 12);
    args[2] = kjit_value_float(0.5);
    assert_int_equal(kjit_call(apply2, args, 3, &r, &err), KJIT_OK);
    assert_true(r.kind == KJIT_VALUE_FLOAT && r.v.f == 1.5);
    char buf[32];
    assert_string_equal(kjit_value_type_name(&args[0], buf, sizeof buf), "function(mul)");

    args[0] = fn_value(kjit_module_get(other, "add"));
    assert_int_equal(kjit_call(apply2, args, 3, &r, &err), KJIT_ERR_USAGE);
    assert_non_null(strstr(err.message, "another module"));
    args[0] = fn_value(NULL);
    assert_int_equal(kjit_call(apply2, args, 3, &r, &err), KJIT_ERR_USAGE);
    assert_non_null(strstr(err.message, "function is NULL"));
    args[0] = fn_value(kjit_module_get(m, "k"));
    assert_int_equal(kjit_call(apply2, args, 3, &r, &err), KJIT_ERR_USAGE);
    assert_non_null(strstr(err.message, "cannot be passed as a value"));
    kjit_value ka = fn_value(kjit_module_get(m, "add"));
    assert_int_equal(kjit_launch(kjit_module_get(m, "k"), (kjit_dim3){1, 1, 1}, (kjit_dim3){1, 1, 1}, &ka, 1, &err),
                     KJIT_ERR_USAGE);
    assert_non_null(strstr(err.message, "cannot take a function"));
    kjit_module_free(other);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_function_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
