/* SPDX-License-Identifier: BSD-2-Clause */
/* Prepared launches (kjit_launch_prepare / kjit_launch_prepared) on the
 * cuda target, on the fake driver (KJIT_LIBCUDA, set by meson): what
 * cuLaunchKernel receives (the fake's launch observer), that it is what
 * kjit_launch passes, the arrays' device copies, errors, and that a
 * launch allocates nothing (malloc counted, except under ASan, whose
 * allocator this cannot wrap). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fake_launch.h"

#include <kjit.h>

#include "util/asan.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* allocations: counted by the test's own malloc family */
#include "count_alloc.h"

/* ---- what the fake driver's cuLaunchKernel received ---- */

/* axpy(a, x, y, n): a, then x's device address, shape, stride, y's, n */
typedef struct seen {
    int launches;
    unsigned gb[6];
    double a;
    uint64_t x, y;
    int64_t xshape, xstride, yshape, ystride, n;
} seen;

static void observe(const unsigned *gb, void **params, void *user)
{
    seen *s = user;
    s->launches++;
    memcpy(s->gb, gb, sizeof s->gb);
    memcpy(&s->a, params[0], 8);
    memcpy(&s->x, params[1], 8);
    memcpy(&s->xshape, params[2], 8);
    memcpy(&s->xstride, params[3], 8);
    memcpy(&s->y, params[4], 8);
    memcpy(&s->yshape, params[5], 8);
    memcpy(&s->ystride, params[6], 8);
    memcpy(&s->n, params[7], 8);
}

static void watch(seen *s) { fake_watch_launches(s ? observe : NULL, s); }

static const char axpy_src[] = "from numba import cuda\n"
                               "import numpy as np\n"
                               "\n"
                               "@cuda.jit\n"
                               "def axpy(a, x, y, n):\n"
                               "    i = cuda.grid(1)\n"
                               "    if i < n:\n"
                               "        y[i] += a * x[i]\n"
                               "\n"
                               "def twice(a, x, y):\n"
                               "    axpy[1, 32](a, x, y, x.size)\n"
                               "    axpy[1, 32](a, x, y, x.size)\n";

typedef struct fixture {
    kjit_ctx *ctx;
    kjit_module *m;
    kjit_fn *axpy;
    double xs[8], ys[8], zs[4];
    kjit_array *x, *y, *z;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    kjit_options o;
    kjit_options_init(&o);
    o.target = KJIT_TARGET_CUDA;
    o.cache = 0;
    kjit_error err;
    f->ctx = kjit_ctx_new(&o, &err);
    assert_non_null(f->ctx);
    f->m = kjit_compile(f->ctx, axpy_src, sizeof axpy_src - 1, "plan.k", &err);
    assert_non_null(f->m);
    f->axpy = kjit_module_get(f->m, "axpy");
    for (int k = 0; k < 8; k++) f->xs[k] = k;
    int64_t n8[1] = {8}, n4[1] = {4};
    f->x = kjit_array_wrap(f->ctx, f->xs, KJIT_FLOAT64, 1, n8, NULL, &err);
    f->y = kjit_array_wrap(f->ctx, f->ys, KJIT_FLOAT64, 1, n8, NULL, &err);
    f->z = kjit_array_wrap(f->ctx, f->zs, KJIT_FLOAT64, 1, n4, NULL, &err);
    assert_true(f->x && f->y && f->z);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    watch(NULL);
    kjit_array_free(f->x), kjit_array_free(f->y), kjit_array_free(f->z);
    kjit_module_free(f->m);
    kjit_ctx_free(f->ctx);
    free(f);
    return 0;
}

/* The slots a prepared launch passes: each launch's values, the arrays'
 * current device copies (the fake's device memory is host memory). */
static void test_plan_passes_arguments(void **state)
{
    fixture *f = *state;
    seen s = {0};
    watch(&s);
    kjit_error err;
    kjit_value args[4] = {kjit_value_float(2.0), kjit_value_array(f->x), kjit_value_array(f->y), kjit_value_int(8)};
    kjit_launch_plan *p = kjit_launch_prepare(f->axpy, args, 4, &err);
    assert_non_null(p);
    kjit_dim3 grid = {3, 2, 1}, block = {32, 4, 1};
    assert_int_equal(kjit_launch_prepared(p, grid, block, args, &err), KJIT_OK);
    assert_int_equal(s.launches, 1);
    unsigned gb[6] = {3, 2, 1, 32, 4, 1};
    assert_memory_equal(s.gb, gb, sizeof gb);
    assert_true(s.a == 2.0 && s.n == 8 && s.xshape == 8 && s.xstride == 8 && s.yshape == 8 && s.ystride == 8);
    assert_true(s.x != 0 && s.y != 0 && s.x != s.y);
    assert_memory_equal((const void *)(uintptr_t)s.x, f->xs, sizeof f->xs); /* uploaded */
    /* other values, another array of the same type */
    args[0] = kjit_value_float(-1.5);
    args[2] = kjit_value_array(f->z);
    args[3] = kjit_value_int(4);
    uint64_t x_before = s.x;
    assert_int_equal(kjit_launch_prepared(p, grid, block, args, &err), KJIT_OK);
    assert_true(s.a == -1.5 && s.n == 4 && s.yshape == 4 && s.x == x_before && s.y != 0);
    /* what kjit_launch passes for the same arguments */
    seen prepared = s;
    assert_int_equal(kjit_launch(f->axpy, grid, block, args, 4, &err), KJIT_OK);
    assert_int_equal(s.launches, 3);
    assert_true(s.a == prepared.a && s.x == prepared.x && s.y == prepared.y && s.n == prepared.n &&
                s.xshape == prepared.xshape && s.yshape == prepared.yshape && s.ystride == prepared.ystride);
    kjit_launch_plan_free(p);
}

/* Launches through a plan allocate nothing. */
static void test_plan_allocates_nothing(void **state)
{
#if KJ_ASAN
    (void)state;
    skip();
#else
    fixture *f = *state;
    kjit_error err;
    kjit_value args[4] = {kjit_value_float(2.0), kjit_value_array(f->x), kjit_value_array(f->y), kjit_value_int(8)};
    kjit_launch_plan *p = kjit_launch_prepare(f->axpy, args, 4, &err);
    assert_non_null(p);
    kjit_dim3 grid = {1, 1, 1}, block = {32, 1, 1};
    assert_int_equal(kjit_launch_prepared(p, grid, block, args, &err), KJIT_OK); /* first: device copies */
    long before = atomic_load(&allocations);
    for (int k = 0; k < 1000; k++) {
        args[0] = kjit_value_float(k);
        args[2] = kjit_value_array(k % 2 ? f->y : f->x);
        assert_int_equal(kjit_launch_prepared(p, grid, block, args, &err), KJIT_OK);
    }
    assert_int_equal(atomic_load(&allocations) - before, 0);
    /* kjit_launch with the types of its first launch: through its own plan */
    assert_int_equal(kjit_launch(f->axpy, grid, block, args, 4, &err), KJIT_OK);
    before = atomic_load(&allocations);
    for (int k = 0; k < 1000; k++) assert_int_equal(kjit_launch(f->axpy, grid, block, args, 4, &err), KJIT_OK);
    assert_int_equal(atomic_load(&allocations) - before, 0);
    /* the counter counts */
    before = atomic_load(&allocations);
    kjit_launch_plan_free(p);
    assert_true(atomic_load(&allocations) == before);
    kjit_launch_plan *q = kjit_launch_prepare(f->axpy, args, 4, &err);
    assert_true(atomic_load(&allocations) > before);
    kjit_launch_plan_free(q);
#endif
}

/* Errors: the configuration as kjit_launch checks it, arguments of
 * another type, a NULL array. */
static void test_plan_errors(void **state)
{
    fixture *f = *state;
    kjit_error err;
    kjit_value args[4] = {kjit_value_float(2.0), kjit_value_array(f->x), kjit_value_array(f->y), kjit_value_int(8)};
    kjit_launch_plan *p = kjit_launch_prepare(f->axpy, args, 4, &err);
    assert_non_null(p);
    kjit_dim3 bad = {0, 1, 1}, one = {1, 1, 1}, big = {2048, 1, 1};
    assert_int_equal(kjit_launch_prepared(p, bad, one, args, &err), KJIT_ERR_RUNTIME);
    char prepared[512];
    snprintf(prepared, sizeof prepared, "%s", err.message);
    assert_int_equal(kjit_launch(f->axpy, bad, one, args, 4, &err), KJIT_ERR_RUNTIME);
    assert_string_equal(prepared, err.message);
    assert_string_equal(err.message, "RuntimeError: CUDA_ERROR_INVALID_VALUE: kernel 'axpy' launched with grid "
                                     "(0, 1, 1): every dimension must be at least 1");
    assert_int_equal(kjit_launch_prepared(p, one, big, args, &err), KJIT_ERR_RUNTIME);
    assert_non_null(strstr(err.message, "a dimension exceeds the device's maximum"));
    args[3] = kjit_value_int_as(8, KJIT_INT32);
    assert_int_equal(kjit_launch_prepared(p, one, one, args, &err), KJIT_ERR_USAGE);
    assert_string_equal(err.message, "argument 4 of 'axpy': not of the type the launch was prepared for (prepare "
                                     "another plan, or use kjit_launch)");
    args[3] = kjit_value_int(8);
    args[1].v.a = NULL;
    assert_int_equal(kjit_launch_prepared(p, one, one, args, &err), KJIT_ERR_USAGE);
    assert_int_equal(kjit_launch_prepared(p, one, one, NULL, &err), KJIT_ERR_USAGE);
    kjit_launch_plan_free(p);
}

/* kjit_launch after its plan: arguments of other types take the full path
 * (another specialisation), the plan's types its plan, with what each
 * launch passes. */
static void test_launch_own_plan(void **state)
{
    fixture *f = *state;
    seen s = {0};
    watch(&s);
    kjit_error err;
    kjit_value args[4] = {kjit_value_float(2.0), kjit_value_array(f->x), kjit_value_array(f->y), kjit_value_int(8)};
    kjit_dim3 one = {1, 1, 1}, b32 = {32, 1, 1};
    assert_int_equal(kjit_launch(f->axpy, one, b32, args, 4, &err), KJIT_OK);
    args[3] = kjit_value_int_as(5, KJIT_INT32);
    assert_int_equal(kjit_launch(f->axpy, one, b32, args, 4, &err), KJIT_OK);
    int32_t n32;
    assert_int_equal(s.launches, 2);
    memcpy(&n32, &s.n, sizeof n32);
    assert_int_equal(n32, 5);
    args[0] = kjit_value_float(0.25);
    args[3] = kjit_value_int(7);
    assert_int_equal(kjit_launch(f->axpy, one, b32, args, 4, &err), KJIT_OK);
    assert_true(s.launches == 3 && s.a == 0.25 && s.n == 7);
    assert_int_equal(kjit_launch(f->axpy, one, b32, args, 3, &err), KJIT_ERR_USAGE);
    assert_string_equal(err.message, "axpy() takes 4 positional arguments but 3 were given");
}

/* A host function that launches a kernel kjit_launch compiled first: the
 * host code's GPU module is made with it (it launched through none). */
static void test_host_launch_after_kjit_launch(void **state)
{
    fixture *f = *state;
    seen s = {0};
    watch(&s);
    kjit_error err;
    kjit_value args[4] = {kjit_value_float(3.0), kjit_value_array(f->x), kjit_value_array(f->y), kjit_value_int(8)};
    kjit_dim3 one = {1, 1, 1}, b32 = {32, 1, 1};
    assert_int_equal(kjit_launch(f->axpy, one, b32, args, 4, &err), KJIT_OK);
    assert_int_equal(kjit_call(kjit_module_get(f->m, "twice"), args, 3, NULL, &err), KJIT_OK);
    assert_int_equal(s.launches, 3);
    assert_true(s.a == 3.0 && s.n == 8);
}

/* A kernel reading a script's module-level value computed when the script
 * runs (a module slot): the C API has no run of the script whose slots it
 * could read, so kjit_launch raises Python's NameError, and a prepared
 * launch is refused with it. */
static void test_module_slot_kernel(void **state)
{
    fixture *f = *state;
    static const char src[] = "from numba import cuda\n"
                              "import numpy as np\n"
                              "\n"
                              "np.random.seed(0)\n"
                              "A = np.random.rand(8)\n"
                              "\n"
                              "@cuda.jit\n"
                              "def get(y):\n"
                              "    i = cuda.grid(1)\n"
                              "    if i < y.size:\n"
                              "        y[i] = A[i]\n"
                              "\n"
                              "out = np.zeros(8)\n"
                              "get[1, 8](out)\n";
    kjit_error err;
    kjit_module *m = kjit_compile(f->ctx, src, sizeof src - 1, "slots.k", &err);
    assert_non_null(m);
    kjit_fn *get = kjit_module_get(m, "get");
    assert_non_null(get);
    kjit_value args[1] = {kjit_value_array(f->y)};
    kjit_dim3 one = {1, 1, 1}, b8 = {8, 1, 1};
    assert_int_equal(kjit_launch(get, one, b8, args, 1, &err), KJIT_ERR_RUNTIME);
    assert_non_null(strstr(err.message, "NameError: name 'A' is not defined"));
    assert_null(kjit_launch_prepare(get, args, 1, &err));
    assert_non_null(strstr(err.message, "NameError: name 'A' is not defined (kernel 'get' reads a module-level value"));
    kjit_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_plan_passes_arguments, setup, teardown),
        cmocka_unit_test_setup_teardown(test_plan_allocates_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_plan_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_launch_own_plan, setup, teardown),
        cmocka_unit_test_setup_teardown(test_host_launch_after_kjit_launch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_module_slot_kernel, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
