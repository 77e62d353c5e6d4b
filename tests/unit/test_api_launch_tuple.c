/* SPDX-License-Identifier: BSD-2-Clause */
/* Tuple arguments of kjit_launch (src/api/launch_tuple.c): a tuple of
 * numbers, nested tuples, a tuple of arrays (written through), the empty
 * tuple, on the cpu target (the kernel runs) and on the fake driver (what
 * cuLaunchKernel receives: the leaves, each as its own parameters, arrays
 * at their uploaded device copies); a prepared launch refuses tuples; a
 * tuple that does not fit the kernel is a located compile error. */
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

static const char src[] = "from numba import cuda\n"
                          "\n"
                          "@cuda.jit\n"
                          "def scalars(r, x):\n"
                          "    i = cuda.grid(1)\n"
                          "    if i < r.size:\n"
                          "        r[i] = x[0] * i + x[1] + x[2]\n"
                          "\n"
                          "@cuda.jit\n"
                          "def nested(r, x):\n"
                          "    r[0] = x[0][0]\n"
                          "    r[1] = x[0][1]\n"
                          "    r[2] = x[1]\n"
                          "    r[3] = x[2][0] + x[2][1]\n"
                          "    r[4] = len(x[3])\n"
                          "\n"
                          "@cuda.jit\n"
                          "def arrays(t, flags):\n"
                          "    i = cuda.grid(1)\n"
                          "    a, b, out = t\n"
                          "    if i < out.size:\n"
                          "        if flags[1]:\n"
                          "            out[i] = a[i] * b[i] + flags[0]\n"
                          "        else:\n"
                          "            out[i] = a[i] - b[i]\n"
                          "\n"
                          "@cuda.jit\n"
                          "def count(r, x):\n"
                          "    r[0] = len(x)\n";

static kjit_ctx *ctx_for(kjit_target target)
{
    kjit_options o;
    kjit_options_init(&o);
    o.target = target;
    o.cache = 0;
    kjit_error err;
    kjit_ctx *ctx = kjit_ctx_new(&o, &err);
    assert_non_null(ctx);
    return ctx;
}

static kjit_array *wrap1(kjit_ctx *ctx, void *data, kjit_dtype dt, int64_t n)
{
    kjit_error err;
    kjit_array *a = kjit_array_wrap(ctx, data, dt, 1, &n, NULL, &err);
    assert_non_null(a);
    return a;
}

static const kjit_dim3 one = {1, 1, 1}, eight = {8, 1, 1};

/* On the cpu target the kernels run: each reads its tuples' leaves. */
static void test_cpu_tuples(void **state)
{
    (void)state;
    kjit_ctx *ctx = ctx_for(KJIT_TARGET_CPU);
    kjit_error err;
    kjit_module *m = kjit_compile(ctx, src, sizeof src - 1, "tuples.k", &err);
    assert_non_null(m);
    double r[8] = {0};
    kjit_array *ra = wrap1(ctx, r, KJIT_FLOAT64, 8);
    kjit_value x[3] = {kjit_value_int(2), kjit_value_float(0.5), kjit_value_float32(0.25f)};
    kjit_tuple xt = {3, x};
    kjit_value args[2] = {kjit_value_array(ra), kjit_value_tuple(&xt)};
    assert_int_equal(kjit_launch(kjit_module_get(m, "scalars"), one, eight, args, 2, &err), KJIT_OK);
    for (int i = 0; i < 8; i++) assert_true(r[i] == 2.0 * i + 0.75);
    /* a second launch of the same types (kjit_launch made no plan for them) */
    x[0] = kjit_value_int(1);
    assert_int_equal(kjit_launch(kjit_module_get(m, "scalars"), one, eight, args, 2, &err), KJIT_OK);
    assert_true(r[7] == 7.75);

    /* nested: ((array, ...), int, (int, int), ()) */
    int64_t z[2] = {5, 7}, q[5] = {0};
    kjit_array *za = wrap1(ctx, z, KJIT_INT64, 2), *qa = wrap1(ctx, q, KJIT_INT64, 5);
    kjit_value inner2[2] = {kjit_value_int(4), kjit_value_int(3)};
    kjit_tuple t2 = {2, inner2}, empty = {0, NULL};
    kjit_value zv = kjit_value_array(za);
    kjit_tuple t0 = {1, &zv};
    kjit_value outer[4] = {kjit_value_tuple(&t0), kjit_value_int(10), kjit_value_tuple(&t2), kjit_value_tuple(&empty)};
    kjit_tuple ot = {4, outer};
    kjit_value nargs[2] = {kjit_value_array(qa), kjit_value_tuple(&ot)};
    /* x[0] is a 1-tuple of an array: x[0][1] is out of range, a compile error */
    assert_int_equal(kjit_launch(kjit_module_get(m, "nested"), one, one, nargs, 2, &err), KJIT_ERR_COMPILE);
    kjit_value pair[2] = {kjit_value_array(za), kjit_value_array(za)};
    kjit_tuple tp = {2, pair};
    outer[0] = kjit_value_tuple(&tp);
    assert_int_equal(kjit_launch(kjit_module_get(m, "nested"), one, one, nargs, 2, &err), KJIT_ERR_COMPILE);
    /* r[0] = x[0][0] stores an array: the kernel wants numbers there */
    kjit_value nums[2] = {kjit_value_int(5), kjit_value_int(7)};
    kjit_tuple tn = {2, nums};
    outer[0] = kjit_value_tuple(&tn);
    assert_int_equal(kjit_launch(kjit_module_get(m, "nested"), one, one, nargs, 2, &err), KJIT_OK);
    int64_t want[5] = {5, 7, 10, 7, 0};
    assert_memory_equal(q, want, sizeof want);

    /* a tuple of arrays, written through; the empty tuple */
    double a[5], b[5], out[5];
    for (int i = 0; i < 5; i++) a[i] = i, b[i] = 3.0, out[i] = 0;
    kjit_array *aa = wrap1(ctx, a, KJIT_FLOAT64, 5), *ba = wrap1(ctx, b, KJIT_FLOAT64, 5),
               *oa = wrap1(ctx, out, KJIT_FLOAT64, 5);
    kjit_value arrs[3] = {kjit_value_array(aa), kjit_value_array(ba), kjit_value_array(oa)};
    kjit_value flags[2] = {kjit_value_float(1.5), kjit_value_bool(true)};
    kjit_tuple at = {3, arrs}, ft = {2, flags};
    kjit_value aargs[2] = {kjit_value_tuple(&at), kjit_value_tuple(&ft)};
    assert_int_equal(kjit_launch(kjit_module_get(m, "arrays"), one, eight, aargs, 2, &err), KJIT_OK);
    for (int i = 0; i < 5; i++) assert_true(out[i] == 3.0 * i + 1.5);
    kjit_value cargs[2] = {kjit_value_array(qa), kjit_value_tuple(&empty)};
    q[0] = 9;
    assert_int_equal(kjit_launch(kjit_module_get(m, "count"), one, one, cargs, 2, &err), KJIT_OK);
    assert_int_equal(q[0], 0);

    /* a prepared launch takes no tuples */
    assert_null(kjit_launch_prepare(kjit_module_get(m, "arrays"), aargs, 2, &err));
    assert_int_equal(err.code, KJIT_ERR_USAGE);
    assert_non_null(strstr(err.message, "launch tuples with kjit_launch"));

    kjit_array_free(ra), kjit_array_free(za), kjit_array_free(qa);
    kjit_array_free(aa), kjit_array_free(ba), kjit_array_free(oa);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

typedef struct seen {
    int launches;
    uint64_t ptr[3];
    int64_t shape[3], stride[3];
    double f;
    unsigned char b;
} seen;

/* arrays((a, b, out), (f, b)): each array as (pointer, shape, stride), then the two scalars */
static void observe(const unsigned *gb, void **params, void *user)
{
    (void)gb;
    seen *s = user;
    s->launches++;
    for (int k = 0; k < 3; k++) {
        memcpy(&s->ptr[k], params[3 * k], 8);
        memcpy(&s->shape[k], params[3 * k + 1], 8);
        memcpy(&s->stride[k], params[3 * k + 2], 8);
    }
    memcpy(&s->f, params[9], 8);
    memcpy(&s->b, params[10], 1);
}

/* On the fake driver: cuLaunchKernel gets the leaves, arrays uploaded. */
static void test_gpu_tuple_leaves(void **state)
{
    (void)state;
    kjit_ctx *ctx = ctx_for(KJIT_TARGET_CUDA);
    kjit_error err;
    kjit_module *m = kjit_compile(ctx, src, sizeof src - 1, "tuples.k", &err);
    assert_non_null(m);
    double a[5], b[5], out[5] = {0};
    for (int i = 0; i < 5; i++) a[i] = i, b[i] = 10 + i;
    kjit_array *aa = wrap1(ctx, a, KJIT_FLOAT64, 5), *ba = wrap1(ctx, b, KJIT_FLOAT64, 5),
               *oa = wrap1(ctx, out, KJIT_FLOAT64, 5);
    kjit_value arrs[3] = {kjit_value_array(aa), kjit_value_array(ba), kjit_value_array(oa)};
    kjit_value flags[2] = {kjit_value_float(2.5), kjit_value_bool(true)};
    kjit_tuple at = {3, arrs}, ft = {2, flags};
    kjit_value args[2] = {kjit_value_tuple(&at), kjit_value_tuple(&ft)};
    seen s = {0};
    fake_watch_launches(observe, &s);
    assert_int_equal(kjit_launch(kjit_module_get(m, "arrays"), one, eight, args, 2, &err), KJIT_OK);
    fake_watch_launches(NULL, NULL);
    assert_int_equal(s.launches, 1);
    for (int k = 0; k < 3; k++) assert_true(s.ptr[k] != 0 && s.shape[k] == 5 && s.stride[k] == 8);
    assert_true(s.ptr[0] != s.ptr[1] && s.ptr[1] != s.ptr[2]);
    /* the fake's device memory is host memory: the copies uploaded */
    assert_memory_equal((const void *)(uintptr_t)s.ptr[0], a, sizeof a);
    assert_memory_equal((const void *)(uintptr_t)s.ptr[1], b, sizeof b);
    assert_true(s.f == 2.5 && s.b == 1);
    kjit_array_free(aa), kjit_array_free(ba), kjit_array_free(oa);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpu_tuples),
        cmocka_unit_test(test_gpu_tuple_leaves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
