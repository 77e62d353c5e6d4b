/* SPDX-License-Identifier: BSD-2-Clause */
/* Device memory through the C API on the fake driver (KJIT_LIBCUDA, set by
 * meson; its device memory is host memory, so a test can read and write
 * "device" bytes itself): kjit_array_device_ptr (the device copy made
 * current and shared: later host reads copy it back) and
 * kjit_array_wrap_device (foreign memory without a copy: a launch passes
 * the very pointer, host reads copy from it, kjit never frees it; bad
 * pointers are errors). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fake_launch.h"

#include <kjit.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* what cuLaunchKernel received for axpy(a, x, y, n): x's and y's addresses */
typedef struct seen {
    int launches;
    uint64_t x, y;
    int64_t xshape, xstride;
} seen;

static void observe(const unsigned *gb, void **params, void *user)
{
    (void)gb;
    seen *s = user;
    s->launches++;
    memcpy(&s->x, params[1], 8);
    memcpy(&s->xshape, params[2], 8);
    memcpy(&s->xstride, params[3], 8);
    memcpy(&s->y, params[4], 8);
}

static void watch(seen *s) { fake_watch_launches(s ? observe : NULL, s); }

static const char axpy_src[] = "from numba import cuda\n"
                               "\n"
                               "@cuda.jit\n"
                               "def axpy(a, x, y, n):\n"
                               "    i = cuda.grid(1)\n"
                               "    if i < n:\n"
                               "        y[i] += a * x[i]\n";

typedef struct fixture {
    kjit_ctx *ctx;
    double xs[8];
    kjit_array *x; /* a host array whose device copy stands for another library's memory */
    double *dx;    /* its device address */
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
    for (int k = 0; k < 8; k++) f->xs[k] = k;
    int64_t n8[1] = {8};
    f->x = kjit_array_wrap(f->ctx, f->xs, KJIT_FLOAT64, 1, n8, NULL, &err);
    assert_non_null(f->x);
    uint64_t p = 0;
    assert_int_equal(kjit_array_device_ptr(f->ctx, f->x, &p, &err), KJIT_OK);
    f->dx = (double *)(uintptr_t)p;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    watch(NULL);
    kjit_array_free(f->x);
    kjit_ctx_free(f->ctx);
    free(f);
    return 0;
}

/* The device copy is current at the address given (uploaded), and what the
 * caller writes there is what host reads see, every time. */
static void test_device_ptr_shared(void **state)
{
    fixture *f = *state;
    assert_true(f->dx && f->dx != f->xs);
    assert_memory_equal(f->dx, f->xs, sizeof f->xs);
    f->dx[3] = 42.0; /* another library's kernel writes the device copy */
    double *h = kjit_array_data(f->x);
    assert_ptr_equal(h, f->xs);
    assert_true(h[3] == 42.0);
    /* a host write (kjit_array_data lets the caller write) goes up at the
     * next kjit_array_device_ptr, to the same address */
    f->xs[5] = -1.0;
    uint64_t p = 0;
    kjit_error err;
    assert_int_equal(kjit_array_device_ptr(f->ctx, f->x, &p, &err), KJIT_OK);
    assert_ptr_equal((double *)(uintptr_t)p, f->dx);
    assert_true(f->dx[5] == -1.0 && f->dx[3] == 42.0);
    f->dx[4] = 7.0; /* the device copy is current again: each host read copies it back */
    assert_true(((double *)kjit_array_data(f->x))[4] == 7.0);
    assert_int_equal(kjit_array_device_ptr(f->ctx, f->x, &p, &err), KJIT_OK);
    f->dx[4] = 8.0;
    assert_true(((double *)kjit_array_data(f->x))[4] == 8.0);
}

/* A wrap of foreign device memory: no copy at the wrap, the pointer itself
 * at launches, host reads copied from it. */
static void test_wrap_device_zero_copy(void **state)
{
    fixture *f = *state;
    kjit_error err;
    kjit_module *m = kjit_compile(f->ctx, axpy_src, sizeof axpy_src - 1, "device.k", &err);
    assert_non_null(m);
    int64_t n4[1] = {4}, s2[1] = {16};
    /* every other element of the foreign memory, from element 1 */
    kjit_array *w = kjit_array_wrap_device(f->ctx, (uint64_t)(uintptr_t)(f->dx + 1), KJIT_FLOAT64, 1, n4, s2, &err);
    assert_non_null(w);
    double *h = kjit_array_data(w); /* element i at h[2 * i] */
    assert_true(h[0] == 1.0 && h[4] == 5.0 && kjit_array_strides(w)[0] == 16);
    uint64_t p = 0;
    assert_int_equal(kjit_array_device_ptr(f->ctx, w, &p, &err), KJIT_OK); /* handed back, unwritten */
    assert_true(p == (uint64_t)(uintptr_t)(f->dx + 1));
    f->dx[7] = 70.0; /* the owner writes: the next read sees it */
    assert_true(((double *)kjit_array_data(w))[6] == 70.0);
    seen s = {0};
    watch(&s);
    kjit_value args[4] = {kjit_value_float(2.0), kjit_value_array(w), kjit_value_array(f->x), kjit_value_int(4)};
    assert_int_equal(kjit_launch(kjit_module_get(m, "axpy"), (kjit_dim3){1, 1, 1}, (kjit_dim3){32, 1, 1}, args, 4,
                                 &err),
                     KJIT_OK);
    assert_int_equal(s.launches, 1);
    assert_true(s.x == (uint64_t)(uintptr_t)(f->dx + 1) && s.xshape == 4 && s.xstride == 16);
    assert_true(s.y == (uint64_t)(uintptr_t)f->dx);
    /* a host write through kjit reaches the foreign memory at the next launch */
    ((double *)kjit_array_data(w))[2] = 30.0; /* element 1 */
    assert_true(f->dx[3] != 30.0);
    assert_int_equal(kjit_launch(kjit_module_get(m, "axpy"), (kjit_dim3){1, 1, 1}, (kjit_dim3){32, 1, 1}, args, 4,
                                 &err),
                     KJIT_OK);
    assert_true(f->dx[3] == 30.0);
    /* its own device pointer is still the foreign one */
    assert_int_equal(kjit_array_device_ptr(f->ctx, w, &p, &err), KJIT_OK);
    assert_true(p == (uint64_t)(uintptr_t)(f->dx + 1));
    kjit_array_free(w); /* the foreign memory stays: */
    f->dx[0] = 5.0;
    assert_true(((double *)kjit_array_data(f->x))[0] == 5.0);
    kjit_module_free(m);
}

/* Memory that is not the context's device memory, or a range past the end
 * of its allocation, is refused; so are bad shapes and strides. An empty
 * array needs no memory. */
static void test_wrap_device_errors(void **state)
{
    fixture *f = *state;
    kjit_error err;
    int64_t n4[1] = {4}, n9[1] = {9}, bad[1] = {12}, zero[1] = {0};
    double host[4];
    assert_null(kjit_array_wrap_device(f->ctx, (uint64_t)(uintptr_t)host, KJIT_FLOAT64, 1, n4, NULL, &err));
    assert_int_equal(err.code, KJIT_ERR_USAGE);
    assert_non_null(strstr(err.message, "is not device memory of this GPU context"));
    assert_null(kjit_array_wrap_device(f->ctx, (uint64_t)(uintptr_t)f->dx, KJIT_FLOAT64, 1, n9, NULL, &err));
    /* the fake's block is 8 doubles: a 9th is past its end */
    assert_non_null(strstr(err.message, "past the end of its allocation"));
    assert_null(kjit_array_wrap_device(f->ctx, (uint64_t)(uintptr_t)f->dx, KJIT_FLOAT64, 1, n4, bad, &err));
    assert_non_null(strstr(err.message, "multiple of the item size 8"));
    assert_null(kjit_array_wrap_device(f->ctx, 0, KJIT_FLOAT64, 1, n4, NULL, &err));
    assert_non_null(strstr(err.message, "devptr is 0"));
    assert_null(kjit_array_wrap_device(NULL, 1, KJIT_FLOAT64, 1, n4, NULL, &err));
    assert_int_equal(err.code, KJIT_ERR_USAGE);
    kjit_array *e = kjit_array_wrap_device(f->ctx, 0, KJIT_FLOAT32, 1, zero, NULL, &err);
    assert_non_null(e);
    assert_int_equal(kjit_array_size(e), 0);
    kjit_array_free(e);
    uint64_t p;
    assert_int_equal(kjit_array_device_ptr(f->ctx, NULL, &p, &err), KJIT_ERR_USAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_device_ptr_shared, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wrap_device_zero_copy, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wrap_device_errors, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
