/* SPDX-License-Identifier: BSD-2-Clause */
/* Prepared calls (kjit_call_prepare / kjit_call_prepared) and
 * kjit_array_rewrap on the cpu target: results as kjit_call gives them,
 * arguments of another type refused with their position, run-time errors,
 * strings and kernels refused, a wrapper held by a view not rewrapped,
 * and that a call with scalar and array arguments allocates nothing (malloc
 * counted, except under ASan, whose allocator this cannot wrap). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <kjit.h>

#include "util/asan.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* allocations: counted by the test's own malloc family */
#include "count_alloc.h"

static const char src[] = "from numba import njit\n"
                          "\n"
                          "@njit\n"
                          "def scaled_sum(a, x, flag):\n"
                          "    s = 0.0\n"
                          "    for i in range(a.shape[0]):\n"
                          "        s += a[i]\n"
                          "    return s * x if flag else -1.0\n"
                          "\n"
                          "@njit(boundscheck=True)\n"
                          "def at(a, i):\n"
                          "    return a[i]\n"
                          "\n"
                          "@njit\n"
                          "def tail(a):\n"
                          "    return a[1:]\n";

typedef struct fixture {
    kjit_ctx *ctx;
    kjit_module *m;
} fixture;

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    kjit_options o;
    kjit_options_init(&o);
    o.target = KJIT_TARGET_CPU;
    kjit_error err;
    fx->ctx = kjit_ctx_new(&o, &err);
    fx->m = fx->ctx ? kjit_compile(fx->ctx, src, strlen(src), "plan.py", &err) : NULL;
    if (!fx->m) return -1;
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    kjit_module_free(fx->m);
    kjit_ctx_free(fx->ctx);
    free(fx);
    return 0;
}

/* Prepared calls over rewrapped arrays: kjit_call's results, and no allocation. */
static void prepared_calls_match_kjit_call(void **state)
{
    fixture *fx = *state;
    double xs[4] = {1, 2, 3, 4}, ys[6] = {1, 1, 1, 1, 1, 1};
    int64_t n4[1] = {4}, n6[1] = {6};
    kjit_error err;
    kjit_array *w = kjit_array_wrap(NULL, xs, KJIT_FLOAT64, 1, n4, NULL, &err);
    kjit_fn *f = kjit_module_get(fx->m, "scaled_sum");
    kjit_value args[3] = {kjit_value_array(w), kjit_value_float(2.0), kjit_value_bool(true)};
    kjit_call_plan *p = kjit_call_prepare(f, args, 3, &err);
    if (!p) fail_msg("%s", err.message);
    kjit_value r;
    assert_int_equal(kjit_call_prepared(p, args, &r, &err), KJIT_OK);
    assert_true(r.kind == KJIT_VALUE_FLOAT && r.v.f == 20.0);
    long before = 0;
#if !KJ_ASAN
    before = atomic_load(&allocations);
#endif
    double total = 0;
    for (int k = 0; k < 1000; k++) {
        assert_int_equal(kjit_array_rewrap(w, k % 2 ? ys : xs, k % 2 ? n6 : n4, NULL, &err), KJIT_OK);
        args[1] = kjit_value_float((double)k);
        assert_int_equal(kjit_call_prepared(p, args, &r, &err), KJIT_OK);
        total += r.v.f;
    }
#if !KJ_ASAN
    assert_int_equal(atomic_load(&allocations) - before, 0);
#endif
    (void)before;
    double want = 0;
    for (int k = 0; k < 1000; k++) want += (k % 2 ? 6.0 : 10.0) * k;
    assert_true(total == want);
    kjit_value r2;
    assert_int_equal(kjit_call(f, args, 3, &r2, &err), KJIT_OK);
    assert_true(r2.v.f == r.v.f);
    kjit_call_plan_free(p);
    kjit_array_free(w);
}

/* Another type than the plan's: refused with its position, nothing run. */
static void other_types_are_refused(void **state)
{
    fixture *fx = *state;
    double xs[2] = {1, 2};
    float fs[2] = {1, 2};
    int64_t n2[1] = {2};
    kjit_error err;
    kjit_array *a = kjit_array_wrap(NULL, xs, KJIT_FLOAT64, 1, n2, NULL, &err);
    kjit_array *b = kjit_array_wrap(NULL, fs, KJIT_FLOAT32, 1, n2, NULL, &err);
    kjit_fn *f = kjit_module_get(fx->m, "scaled_sum");
    kjit_value args[3] = {kjit_value_array(a), kjit_value_float(2.0), kjit_value_bool(true)};
    kjit_call_plan *p = kjit_call_prepare(f, args, 3, &err);
    if (!p) fail_msg("%s", err.message);
    kjit_value bad[3] = {kjit_value_array(b), kjit_value_float(2.0), kjit_value_bool(true)};
    assert_int_equal(kjit_call_prepared(p, bad, NULL, &err), KJIT_ERR_USAGE);
    assert_non_null(strstr(err.message, "argument 1 of 'scaled_sum': not of the type"));
    bad[0] = args[0];
    bad[1] = kjit_value_int(2);
    assert_int_equal(kjit_call_prepared(p, bad, NULL, &err), KJIT_ERR_USAGE);
    assert_non_null(strstr(err.message, "argument 2 of"));
    bad[1] = args[1];
    bad[2] = kjit_value_int(1);
    assert_int_equal(kjit_call_prepared(p, bad, NULL, &err), KJIT_ERR_USAGE);
    assert_non_null(strstr(err.message, "argument 3 of"));
    kjit_value s[3] = {kjit_value_str("x"), kjit_value_float(2.0), kjit_value_bool(true)};
    assert_null(kjit_call_prepare(f, s, 3, &err));
    assert_int_equal(err.code, KJIT_ERR_USAGE);
    assert_null(kjit_call_prepare(f, args, 2, &err)); /* kjit_call's checks */
    assert_non_null(strstr(err.message, "takes 3 positional arguments"));
    kjit_call_plan_free(p);
    kjit_array_free(a);
    kjit_array_free(b);
}

/* A run-time error of a prepared call: as kjit_call reports it. */
static void runtime_errors(void **state)
{
    fixture *fx = *state;
    double xs[2] = {1, 2};
    int64_t n2[1] = {2};
    kjit_error err;
    kjit_array *a = kjit_array_wrap(NULL, xs, KJIT_FLOAT64, 1, n2, NULL, &err);
    kjit_value args[2] = {kjit_value_array(a), kjit_value_int(1)};
    kjit_call_plan *p = kjit_call_prepare(kjit_module_get(fx->m, "at"), args, 2, &err);
    assert_non_null(p);
    kjit_value r;
    assert_int_equal(kjit_call_prepared(p, args, &r, &err), KJIT_OK);
    assert_true(r.v.f == 2.0);
    args[1] = kjit_value_int(5);
    assert_int_equal(kjit_call_prepared(p, args, &r, &err), KJIT_ERR_RUNTIME);
    assert_string_equal(err.message, "IndexError: index 5 is out of bounds for axis 0 with size 2");
    assert_int_equal(err.line, 12);
    kjit_call_plan_free(p);
    kjit_array_free(a);
}

/* kjit_array_rewrap only of a wrapper no one else holds. */
static void rewrap_refuses_shared_arrays(void **state)
{
    fixture *fx = *state;
    double xs[3] = {1, 2, 3}, ys[3] = {4, 5, 6};
    int64_t n3[1] = {3};
    kjit_error err;
    kjit_array *a = kjit_array_wrap(NULL, xs, KJIT_FLOAT64, 1, n3, NULL, &err);
    kjit_value arg = kjit_value_array(a);
    kjit_call_plan *p = kjit_call_prepare(kjit_module_get(fx->m, "tail"), &arg, 1, &err);
    assert_non_null(p);
    kjit_value view;
    assert_int_equal(kjit_call_prepared(p, &arg, &view, &err), KJIT_OK);
    assert_int_equal(view.kind, KJIT_VALUE_ARRAY);
    assert_int_equal(kjit_array_rewrap(a, ys, n3, NULL, &err), KJIT_ERR_USAGE); /* the view holds it */
    assert_true(((double *)kjit_array_data(view.v.a))[0] == 2.0);
    kjit_value_release(&view);
    int64_t st[1] = {-8};
    assert_int_equal(kjit_array_rewrap(a, ys + 2, n3, st, &err), KJIT_OK);
    assert_true(((double *)kjit_array_data(a))[0] == 6.0 && kjit_array_strides(a)[0] == -8);
    int64_t odd[1] = {4};
    assert_int_equal(kjit_array_rewrap(a, ys, n3, odd, &err), KJIT_ERR_USAGE);
    kjit_array *own = kjit_array_new(NULL, KJIT_FLOAT64, 1, n3, &err);
    assert_int_equal(kjit_array_rewrap(own, ys, n3, NULL, &err), KJIT_ERR_USAGE);
    kjit_array_free(own);
    kjit_call_plan_free(p);
    kjit_array_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(prepared_calls_match_kjit_call, setup, teardown),
        cmocka_unit_test_setup_teardown(other_types_are_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(runtime_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(rewrap_refuses_shared_arrays, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
