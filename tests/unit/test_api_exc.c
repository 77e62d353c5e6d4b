/* SPDX-License-Identifier: BSD-2-Clause */
/* The C API and Python exceptions (issue 24 point 5): a raise statement's
 * exception reaches kjit_call as a KJIT_ERR_RUNTIME kjit_error with the
 * class and message ("ValueError: ...") and the raise's location; one a try
 * statement catches does not; the context stays usable after either. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <kjit.h>

#include <stdlib.h>
#include <string.h>

static const char src[] = "from numba import jit\n"
                          "\n"
                          "\n"
                          "@jit\n"
                          "def check(x):\n"
                          "    if x < 0:\n"
                          "        raise ValueError(\"x must be non-negative\")\n"
                          "    if x == 0:\n"
                          "        raise NotImplementedError\n"
                          "    return x * 2\n"
                          "\n"
                          "\n"
                          "@jit\n"
                          "def guarded(x):\n"
                          "    try:\n"
                          "        return check(x)\n"
                          "    except Exception:\n"
                          "        return -1\n"
                          "\n"
                          "\n"
                          "def lookup(k):\n"
                          "    if k > 1:\n"
                          "        raise KeyError(\"missing\")\n"
                          "    return k\n"
                          "\n"
                          "\n"
                          "@jit\n"
                          "def pair(k):\n"
                          "    if k == 1:\n"
                          "        raise ValueError(\"negative\", 1)\n"
                          "    if k == 2:\n"
                          "        raise ValueError(2)\n"
                          "    a = [0, 0]\n"
                          "    return a[k]\n";

typedef struct fixture {
    kjit_ctx *ctx;
    kjit_module *m;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    kjit_error err;
    f->ctx = kjit_ctx_new(NULL, &err);
    if (!f->ctx) return -1;
    f->m = kjit_compile(f->ctx, src, strlen(src), "exc.k", &err);
    if (!f->m) return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    kjit_module_free(f->m);
    kjit_ctx_free(f->ctx);
    free(f);
    return 0;
}

static int call1(fixture *f, const char *fn, int64_t x, kjit_value *r, kjit_error *err)
{
    kjit_value a = kjit_value_int(x);
    kjit_fn *g = kjit_module_get(f->m, fn);
    assert_non_null(g);
    return kjit_call(g, &a, 1, r, err);
}

static void test_raise_reaches_api(void **state)
{
    fixture *f = *state;
    kjit_value r;
    kjit_error err;
    assert_int_equal(call1(f, "check", -3, &r, &err), KJIT_ERR_RUNTIME);
    assert_int_equal(err.code, KJIT_ERR_RUNTIME);
    assert_string_equal(err.message, "ValueError: x must be non-negative");
    assert_string_equal(err.file, "exc.k");
    assert_int_equal(err.line, 7);
    assert_int_equal(err.col, 9);
    char *s = kjit_error_format(f->m, &err, KJIT_DIAG_SHORT);
    assert_string_equal(s, "exc.k:7:9: ValueError: x must be non-negative\n");
    free(s);
    /* a class without a message: the class alone */
    assert_int_equal(call1(f, "check", 0, &r, &err), KJIT_ERR_RUNTIME);
    assert_string_equal(err.message, "NotImplementedError");
    assert_int_equal(err.line, 9);
    /* host code too; KeyError shows its argument's repr */
    assert_int_equal(call1(f, "lookup", 5, &r, &err), KJIT_ERR_RUNTIME);
    assert_string_equal(err.message, "KeyError: 'missing'");
    /* the context runs on after an exception */
    assert_int_equal(call1(f, "check", 4, &r, &err), KJIT_OK);
    assert_int_equal(r.v.i, 8);
}

/* kjit_error_exc_args: how each exception took its arguments (since 0.5) */
static void test_exc_args(void **state)
{
    fixture *f = *state;
    kjit_value r;
    kjit_error err;
    assert_int_equal(call1(f, "check", -3, &r, &err), KJIT_ERR_RUNTIME);
    assert_int_equal(kjit_error_exc_args(&err), KJIT_EXC_ARGS_STR);
    assert_int_equal(call1(f, "check", 0, &r, &err), KJIT_ERR_RUNTIME);
    assert_int_equal(kjit_error_exc_args(&err), KJIT_EXC_ARGS_NONE);
    assert_int_equal(call1(f, "lookup", 5, &r, &err), KJIT_ERR_RUNTIME);
    assert_int_equal(kjit_error_exc_args(&err), KJIT_EXC_ARGS_REPR);
    assert_int_equal(call1(f, "pair", 1, &r, &err), KJIT_ERR_RUNTIME);
    assert_string_equal(err.message, "ValueError: ('negative', 1)");
    assert_int_equal(kjit_error_exc_args(&err), KJIT_EXC_ARGS_TUPLE);
    assert_int_equal(call1(f, "pair", 2, &r, &err), KJIT_ERR_RUNTIME);
    assert_string_equal(err.message, "ValueError: 2");
    assert_int_equal(kjit_error_exc_args(&err), KJIT_EXC_ARGS_REPR);
    assert_int_equal(call1(f, "pair", 3, &r, &err), KJIT_ERR_RUNTIME); /* the runtime's own: the message */
    assert_string_equal(err.message, "IndexError: list index out of range");
    assert_int_equal(kjit_error_exc_args(&err), KJIT_EXC_ARGS_STR);
    /* no run-time error, no exception */
    assert_int_equal(call1(f, "check", 2, &r, &err), KJIT_OK);
    assert_int_equal(kjit_error_exc_args(&err), KJIT_EXC_ARGS_UNKNOWN);
    assert_int_equal(kjit_error_exc_args(NULL), KJIT_EXC_ARGS_UNKNOWN);
}

static void test_caught_exception_is_no_error(void **state)
{
    fixture *f = *state;
    kjit_value r;
    kjit_error err;
    assert_int_equal(call1(f, "guarded", -3, &r, &err), KJIT_OK);
    assert_int_equal(r.v.i, -1);
    assert_int_equal(call1(f, "guarded", 5, &r, &err), KJIT_OK);
    assert_int_equal(r.v.i, 10);
    /* the try frame is gone once guarded returned: a later raise is the call's */
    assert_int_equal(call1(f, "check", -1, &r, &err), KJIT_ERR_RUNTIME);
    assert_string_equal(err.message, "ValueError: x must be non-negative");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_raise_reaches_api),
        cmocka_unit_test(test_caught_exception_is_no_error),
        cmocka_unit_test(test_exc_args),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
