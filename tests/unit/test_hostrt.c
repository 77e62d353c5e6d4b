/* SPDX-License-Identifier: BSD-2-Clause */
/* The host built-ins, print, elementwise array operations, ufunc calls and
 * array lifetime of generated host code: small programs compiled from
 * source (the compile pipeline's stages of KIR → kj_codegen_host), run through their main
 * entry point with print() captured, compared with what CPython + NumPy +
 * Numba print for the same program (the expected text was produced by
 * running each program under python3 with NumPy 1.24 and Numba 0.56).
 * Also runs every tests/golden/run/ program in-process. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "abi/abi.h"
#include "abi/abi_npsort.h"
#include "codegen/codegen.h"
#include "frontend/parser.h"
#include "runtime/array.h"
#include "runtime/npy.h"
#include "runtime/rt.h"
#include "runtime/rt_host.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEADER                                                                                     \
    "import math\n"                                                                                \
    "import time\n"                                                                                \
    "import numpy as np\n"                                                                         \
    "from numba import cuda, vectorize, guvectorize\n"                                             \
    "\n"

#include "jit_fixture.h"

/* ---- programs and what CPython + NumPy print for them ---- */

/* print */
static const char prog_print[] = HEADER
    "def main():\n"
    "    print()\n"
    "    print(1, -2, 2.5, 1e-05, 1e16, -0.0, True, None, \"s\")\n"
    "    print(np.float32(0.1), np.int8(-7), np.uint64(5) - np.uint64(6), np.arange(2).dtype)\n"
    "    print((1, 2.5), (3,), (), (\"a\", \"it's\"), ((1,), None))\n"
    "    print(\"a\", \"b\", sep=\"-\", end=\"|\\n\")\n"
    "    print(np.arange(3), np.ones((2, 2), dtype=np.bool_))\n"
    "\n";
static const char want_print[] =
    "\n"
    "1 -2 2.5 1e-05 1e+16 -0.0 True None s\n"
    "0.1 -7 18446744073709551615 int64\n"
    "(1, 2.5) (3,) () ('a', \"it's\") ((1,), None)\n"
    "a-b|\n"
    "[0 1 2] [[ True  True]\n"
    " [ True  True]]\n";

/* zeros_ones_full */
static const char prog_zeros_ones_full[] = HEADER
    "def main():\n"
    "    print(np.zeros(3), np.ones((2, 2), dtype=np.int32), np.empty(2).shape, np.full(3, 7), np.full((1, 2), 1.5, dtype=np.float32))\n"
    "    a = np.arange(4.0)\n"
    "    print(np.zeros_like(a), np.ones_like(a, dtype=np.int8), np.empty_like(a).dtype, np.full_like(a, 2))\n"
    "\n";
static const char want_zeros_ones_full[] =
    "[0. 0. 0.] [[1 1]\n"
    " [1 1]] (2,) [7 7 7] [[1.5 1.5]]\n"
    "[0. 0. 0. 0.] [1 1 1 1] float64 [2. 2. 2. 2.]\n";

/* arange_linspace */
static const char prog_arange_linspace[] = HEADER
    "def main():\n"
    "    print(np.arange(5), np.arange(2, 9, 3), np.arange(5, 0, -2), np.arange(0.0, 1.0, 0.3), np.arange(3, dtype=np.float32))\n"
    "    print(np.linspace(0.0, 1.0, 5), np.linspace(1.0, 2.0, 4, endpoint=False), np.linspace(0, 10, 3, dtype=np.int64), len(np.linspace(0.0, 1.0)))\n"
    "\n";
static const char want_arange_linspace[] =
    "[0 1 2 3 4] [2 5 8] [5 3 1] [0.  0.3 0.6 0.9] [0. 1. 2.]\n"
    "[0.   0.25 0.5  0.75 1.  ] [1.   1.25 1.5  1.75] [ 0  5 10] 50\n";

/* random */
static const char prog_random[] = HEADER
    "def main():\n"
    "    np.random.seed(7)\n"
    "    print(np.random.rand(2), np.random.rand(1, 2), np.random.random(), np.random.rand(), np.random.random(3))\n"
    "    print(np.random.randint(100), np.random.randint(-3, 3, size=4), np.random.randint(0, 9, size=(2, 2), dtype=np.int32))\n"
    "    print(np.random.randint(0, 250, size=5, dtype=np.uint8), np.random.randint(-9, 9, size=5, dtype=np.int16))\n"
    "\n";
static const char want_random[] =
    "[0.07630829 0.77991879] [[0.43840923 0.72346518]] 0.9779895119966027 0.5384958704104337 [0.50112046 0.07205113 0.26843898]\n"
    "39 [ 1 -3  1 -3] [[7 6]\n"
    " [3 5]]\n"
    "[ 56 143 245 237 152] [ 7  8 -9 -9 -7]\n";

/* reductions */
static const char prog_reductions[] = HEADER
    "def main():\n"
    "    a = np.arange(10) * 0.1\n"
    "    i = np.arange(-3, 5)\n"
    "    f = np.arange(7, dtype=np.float32) / 3\n"
    "    print(np.sum(a), np.min(a), np.max(a), np.mean(a), np.std(a), a.sum(), a.min(), a.max(), a.mean(), a.std())\n"
    "    print(i.sum(), i.min(), i.max(), i.mean(), i.std(), f.sum(), f.mean(), f.std(), (i > 0).sum())\n"
    "\n";
static const char want_reductions[] =
    "4.500000000000001 0.0 0.9 0.45000000000000007 0.2872281323269014 4.500000000000001 0.0 0.9 0.45000000000000007 0.2872281323269014\n"
    "4 -3 4 0.5 2.29128784747792 7.0 1.0 0.6666666 4\n";

/* copy_reshape_fill */
static const char prog_copy_reshape_fill[] = HEADER
    "def main():\n"
    "    a = np.arange(6.0)\n"
    "    b = a.copy()\n"
    "    b[0] = 9.0\n"
    "    m = a.reshape(2, 3)\n"
    "    m[1, 1] = -1.0\n"
    "    c = m[:, 1:].reshape((4,))\n"
    "    c[0] = 50.0\n"
    "    f = np.zeros(3, dtype=np.int16)\n"
    "    f.fill(7)\n"
    "    print(a, b, m, c, a.astype(np.int32), np.float32(a), (a * 50).astype(np.int8), f)\n"
    "\n";
static const char want_copy_reshape_fill[] =
    "[ 0.  1.  2.  3. -1.  5.] [9. 1. 2. 3. 4. 5.] [[ 0.  1.  2.]\n"
    " [ 3. -1.  5.]] [50.  2. -1.  5.] [ 0  1  2  3 -1  5] [ 0.  1.  2.  3. -1.  5.] [   0   50  100 -106  -50   -6] [7 7 7]\n";

/* allclose */
static const char prog_allclose[] = HEADER
    "def main():\n"
    "    a = np.linspace(0.0, 1.0, 5)\n"
    "    print(np.allclose(a, a + 1e-9), np.allclose(a, a + 1e-3), np.allclose(a, a + 0.01, atol=0.1), np.allclose(a, 0.5), np.allclose(1.0, 1.0), np.allclose(np.ones((2, 3)), np.ones(3)))\n"
    "\n";
static const char want_allclose[] =
    "True False True False True True\n";

/* arith */
static const char prog_arith[] = HEADER
    "def main():\n"
    "    x = np.arange(-4, 5)\n"
    "    f = np.linspace(-2.0, 2.0, 5)\n"
    "    print(x + 1, x / 2, x // 3, x % 3, x ** 2, -x, f // 0.75, f % 0.75)\n"
    "    print(x & 3, x | 8, x ^ 5, x << 2, x >> 1, ~x, x < 0, x == 2, ~(x > 0))\n"
    "    print(np.arange(6).reshape(2, 3) + np.arange(3), np.arange(3, dtype=np.uint8) - 1)\n"
    "\n";
static const char want_arith[] =
    "[-3 -2 -1  0  1  2  3  4  5] [-2.  -1.5 -1.  -0.5  0.   0.5  1.   1.5  2. ] [-2 -1 -1 -1  0  0  0  1  1] [2 0 1 2 0 1 2 0 1] [16  9  4  1  0  1  4  9 16] [ 4  3  2  1  0 -1 -2 -3 -4] [-3. -2.  0.  1.  2.] [0.25 0.5  0.   0.25 0.5 ]\n"
    "[0 1 2 3 0 1 2 3 0] [-4 -3 -2 -1  8  9 10 11 12] [-7 -8 -5 -6  5  4  7  6  1] [-16 -12  -8  -4   0   4   8  12  16] [-2 -2 -1 -1  0  0  1  1  2] [ 3  2  1  0 -1 -2 -3 -4 -5] [ True  True  True  True False False False False False] [False False False False False False  True False False] [ True  True  True  True  True False False False False]\n"
    "[[0 2 4]\n"
    " [3 5 7]] [255   0   1]\n";

/* math */
static const char prog_math[] = HEADER
    "def main():\n"
    "    a = np.linspace(0.5, 2.0, 4)\n"
    "    i = np.arange(-2, 3)\n"
    "    print(np.sin(a), np.exp(a), np.log(a), np.sqrt(i), np.floor(-a), np.arctan2(a, 2.0), np.hypot(a, a))\n"
    "    print(np.abs(i), abs(-a), np.minimum(i, 0), np.maximum(a, 1.0), np.isnan(np.sqrt(i)), np.isfinite(np.log(i + 2.0)))\n"
    "\n";
static const char want_math[] =
    "[0.47942554 0.84147098 0.99749499 0.90929743] [1.64872127 2.71828183 4.48168907 7.3890561 ] [-0.69314718  0.          0.40546511  0.69314718] [       nan        nan 0.         1.         1.41421356] [-1. -1. -2. -2.] [0.24497866 0.46364761 0.64350111 0.78539816] [0.70710678 1.41421356 2.12132034 2.82842712]\n"
    "[2 1 0 1 2] [0.5 1.  1.5 2. ] [-2 -1  0  0  0] [1.  1.  1.5 2. ] [ True  True False False False] [False  True  True  True  True]\n";

/* cuda_host */
static const char prog_cuda_host[] = HEADER
    "def main():\n"
    "    h = np.arange(4, dtype=np.float32)\n"
    "    d = cuda.to_device(h)\n"
    "    h[0] = 9.0\n"
    "    z = cuda.device_array((2, 2), dtype=np.int32)\n"
    "    zl = cuda.device_array_like(h)\n"
    "    cuda.synchronize()\n"
    "    s = cuda.stream()\n"
    "    e = cuda.event()\n"
    "    e.record(stream=s)\n"
    "    e.synchronize()\n"
    "    s.synchronize()\n"
    "    t0 = time.perf_counter()\n"
    "    print(d.copy_to_host(), z.shape, zl.dtype, time.perf_counter() >= t0)\n"
    "\n";
static const char want_cuda_host[] =
    "[0. 1. 2. 3.] (2, 2) float32 True\n";

/* vectorize */
static const char prog_vectorize[] = HEADER
    "@vectorize(['float32(float32, float32)', 'float64(float64, float64)'])\n"
    "def hyp(a, b):\n"
    "    return math.sqrt(a * a + b * b)\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def axpy(a, x, y):\n"
    "    return a * x + y\n"
    "\n"
    "\n"
    "def main():\n"
    "    a = np.arange(6.0)\n"
    "    m = a.reshape(2, 3)\n"
    "    out = np.zeros((2, 3))\n"
    "    hyp(m, 1.0, out=out)\n"
    "    print(hyp(3.0, 4.0), hyp(a, 1.0), hyp(m[:, ::2], np.arange(2.0)), out, axpy(2.0, m, m[0]))\n"
    "\n";
static const char want_vectorize[] =
    "5.0 [1.         1.41421356 2.23606798 3.16227766 4.12310563 5.09901951] [[0.         2.23606798]\n"
    " [3.         5.09901951]] [[1.         1.41421356 2.23606798]\n"
    " [3.16227766 4.12310563 5.09901951]] [[ 0.  3.  6.]\n"
    " [ 6.  9. 12.]]\n";

/* guvectorize */
static const char prog_guvectorize[] = HEADER
    "@guvectorize(['void(float64[:], float64[:])'], '(n)->()')\n"
    "def total(a, out):\n"
    "    s = 0.0\n"
    "    for i in range(a.shape[0]):\n"
    "        s += a[i]\n"
    "    out[0] = s\n"
    "\n"
    "\n"
    "@guvectorize(['void(float64[:, :], float64[:], float64[:])'], '(m,n),(n)->(m)')\n"
    "def matvec(m, v, out):\n"
    "    for i in range(m.shape[0]):\n"
    "        s = 0.0\n"
    "        for j in range(m.shape[1]):\n"
    "            s += m[i, j] * v[j]\n"
    "        out[i] = s\n"
    "\n"
    "\n"
    "def main():\n"
    "    a = np.arange(6.0)\n"
    "    m = a.reshape(2, 3)\n"
    "    t = np.zeros(2)\n"
    "    total(m, t)\n"
    "    print(total(a), total(m), t, matvec(m, np.ones(3)), matvec(a.reshape(1, 2, 3), np.arange(3.0)))\n"
    "\n";
static const char want_guvectorize[] =
    "15.0 [ 3. 12.] [ 3. 12.] [ 3. 12.] [[ 5. 14.]]\n";

/* ---- built-ins, print, operators, ufuncs ---- */

static void test_print(void **state) { expect_output(*state, prog_print, want_print); }

static void test_constructors(void **state)
{
    expect_output(*state, prog_zeros_ones_full, want_zeros_ones_full);
}

static void test_arange_linspace(void **state)
{
    expect_output(*state, prog_arange_linspace, want_arange_linspace);
}

static void test_random_seeded(void **state) { expect_output(*state, prog_random, want_random); }

static void test_reductions(void **state) { expect_output(*state, prog_reductions, want_reductions); }

static void test_copy_reshape_fill(void **state)
{
    expect_output(*state, prog_copy_reshape_fill, want_copy_reshape_fill);
}

static void test_allclose(void **state) { expect_output(*state, prog_allclose, want_allclose); }

static void test_array_operators(void **state) { expect_output(*state, prog_arith, want_arith); }

static void test_math_on_arrays(void **state) { expect_output(*state, prog_math, want_math); }

static void test_cuda_host(void **state) { expect_output(*state, prog_cuda_host, want_cuda_host); }

static void test_vectorize(void **state) { expect_output(*state, prog_vectorize, want_vectorize); }

static void test_guvectorize(void **state) { expect_output(*state, prog_guvectorize, want_guvectorize); }

/* kj_rt_collect keeps the memory of a large array only the context holds
 * (kj_rt.spare) for the next result of that byte size; small arrays, arrays
 * referenced elsewhere and views are released as before. */
static void test_spare_memory(void **state)
{
    (void)state;
    kj_rt rt;
    kj_rt_init(&rt, "spare.k");
    int64_t big[2] = {1024, 1024}, small[1] = {16}, other[2] = {512, 1024};
    kj_rt_error err = {0};
    int64_t mark = kj_rt_mark(&rt);
    kj_array *a = kj_array_empty(KJ_DT_FLOAT32, 2, big, &err), *s = kj_array_empty(KJ_DT_FLOAT32, 1, small, &err);
    kj_array *held = kj_array_empty(KJ_DT_FLOAT64, 2, big, &err);
    kj_rt_own(&rt, a);
    kj_rt_own(&rt, s);
    kj_rt_own(&rt, kj_array_retain(held)); /* a second reference: not spare */
    void *mem = a->data;
    kj_rt_collect(&rt, mark, NULL, 0);
    assert_int_equal(rt.nspare, 1);
    assert_null(kj_rt_spare_array(&rt, KJ_DT_FLOAT32, 2, other)); /* another size */
    kj_array *b = kj_rt_spare_array(&rt, KJ_DT_INT32, 2, big);  /* the same 4 MiB */
    assert_non_null(b);
    assert_ptr_equal(b->data, mem);
    assert_true(b->owns_data);
    assert_int_equal(rt.nspare, 0);
    assert_null(kj_rt_spare_array(&rt, KJ_DT_INT32, 2, big));
    kj_rt_own(&rt, b);
    kj_rt_dispose(&rt); /* releases b */
    kj_array_release(held);
}

/* A dropped block of `big`'s float64 size in rt's spare memory; returns
 * its address. */
static void *drop_block(kj_rt *rt, const int64_t *big)
{
    kj_rt_error err = {0};
    int64_t mark = kj_rt_mark(rt);
    kj_array *d = kj_array_empty(KJ_DT_FLOAT64, 2, big, &err);
    assert_non_null(d);
    void *mem = d->data;
    kj_rt_own(rt, d);
    kj_rt_collect(rt, mark, NULL, 0);
    assert_int_equal(rt->nspare, 1);
    return mem;
}

/* Copies (a.copy(), astype), np.sort and np.argsort write their result into the spare
 * block of their size (fresh pages cost more than either), with the same
 * values: here a transposed (strided) copy and a sort along rows. */
static void test_spare_copy_sort(void **state)
{
    (void)state;
    kj_rt rt;
    kj_rt_init(&rt, "spare.k");
    int64_t big[2] = {512, 1024}, tshape[2] = {1024, 512};
    kj_rt_error err = {0};
    kj_array *a = kj_array_empty(KJ_DT_FLOAT64, 2, big, &err);
    assert_non_null(a);
    double *ad = (double *)(void *)a->data;
    for (int64_t i = 0; i < 512 * 1024; i++) ad[i] = (double)((i * 7919) % 1000003) - 500000.0;

    void *mem = drop_block(&rt, big);
    int64_t tstrides[2] = {8, 8 * 1024}; /* a.T: 1024 x 512 */
    kj_abi_array in, out;
    kj_abi_array_pack(&in, 2, a->data, tshape, tstrides, a);
    kj_rt_copy(&rt, &in, 2, KJ_DT_FLOAT64, KJ_DT_FLOAT64, &out, 1, 1);
    assert_ptr_equal(kj_abi_array_data(&out), mem);
    const double *c = kj_abi_array_data(&out);
    for (int64_t i = 0; i < 1024; i++)
        for (int64_t j = 0; j < 512; j++) assert_true(c[i * 512 + j] == ad[j * 1024 + i]);

    mem = drop_block(&rt, big);
    int64_t strides[2] = {8 * 1024, 8};
    kj_abi_array_pack(&in, 2, a->data, big, strides, a);
    kj_rt_npsort(&rt, KJ_NPS_SORT, &in, 2, KJ_DT_FLOAT64, NULL, 0, 0, NULL, 0, 0, 0, 0, 0.0, 0.0, KJ_DT_FLOAT64, &out,
                 2, NULL, 1, 1);
    assert_ptr_equal(kj_abi_array_data(&out), mem);
    const double *srt = kj_abi_array_data(&out);
    for (int64_t r = 0; r < 512; r++)
        for (int64_t j = 1; j < 1024; j++) assert_true(srt[r * 1024 + j - 1] <= srt[r * 1024 + j]);
    double sum_in = 0, sum_out = 0; /* integers: exact */
    for (int64_t i = 0; i < 512 * 1024; i++) sum_in += ad[i], sum_out += srt[i];
    assert_true(sum_in == sum_out);

    mem = drop_block(&rt, big); /* int64 indices: float64's size */
    kj_rt_npsort(&rt, KJ_NPS_ARGSORT, &in, 2, KJ_DT_FLOAT64, NULL, 0, 0, NULL, 0, 0, 0, 0, 0.0, 0.0, KJ_DT_INT64, &out,
                 2, NULL, 1, 1);
    assert_ptr_equal(kj_abi_array_data(&out), mem);
    const int64_t *ix = kj_abi_array_data(&out);
    for (int64_t r = 0; r < 512; r++)
        for (int64_t j = 1; j < 1024; j++)
            assert_true(ad[r * 1024 + ix[r * 1024 + j - 1]] <= ad[r * 1024 + ix[r * 1024 + j]]);
    kj_rt_dispose(&rt);
    kj_array_release(a);
}

/* Unseeded, the stream is seeded from the OS (as NumPy's global
 * RandomState): values in [0, 1), different from run to run. */
static void test_random_unseeded(void **state)
{
    fx *x = *state;
    static const char prog[] = HEADER "def main():\n"
                                      "    print(np.random.random(), np.random.rand(2).max() < 1.0)\n";
    compile_as(x, "prog.k", prog, NULL);
    run a = call_captured(x, "main", NULL, NULL), b = call_captured(x, "main", NULL, NULL);
    assert_int_equal(a.kind, KJ_RT_OK);
    double va = strtod(a.out, NULL), vb = strtod(b.out, NULL);
    assert_true(va >= 0.0 && va < 1.0);
    assert_true(va != vb);
    assert_non_null(strstr(a.out, "True"));
    free(a.out);
    free(b.out);
}

/* cuda.event_elapsed_time: milliseconds between two records; an event
 * never recorded is an error. */
static void test_events(void **state)
{
    fx *x = *state;
    static const char prog[] = HEADER "def main(n=100000):\n"
                                      "    e0 = cuda.event(timing=True)\n"
                                      "    e1 = cuda.event()\n"
                                      "    e0.record()\n"
                                      "    s = 0.0\n"
                                      "    for i in range(n):\n"
                                      "        s += math.sqrt(i)\n"
                                      "    e1.record()\n"
                                      "    ms = cuda.event_elapsed_time(e0, e1)\n"
                                      "    print(ms >= 0.0, ms < 10000.0, s > 0.0)\n"
                                      "    e2 = cuda.event()\n"
                                      "    print(cuda.event_elapsed_time(e0, e2))\n";
    compile_as(x, "prog.k", prog, NULL);
    int64_t n = 100000;
    void *args[1] = {&n};
    run r = call_captured(x, "main", args, NULL);
    assert_int_equal(r.kind, KJ_RT_RUNTIME);
    assert_string_equal(r.out, "True True True\n");
    assert_string_equal(r.err, "prog.k:17:11: RuntimeError: event_elapsed_time: an event has not been recorded");
    free(r.out);
}

/* np.save writes what np.load reads back; np.load checks at run time that
 * the file still holds the type it was compiled for. */
static void test_save_load(void **state)
{
    fx *x = *state;
    char dir[] = "/tmp/kjit-hostrt-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[512], prog[1024];
    snprintf(path, sizeof path, "%s/a.npy", dir);
    snprintf(prog, sizeof prog, HEADER "def main():\n    np.save(\"%s\", np.arange(6, dtype=np.int32).reshape(2, 3))\n",
             path);
    run r = run_main(x, prog);
    assert_int_equal(r.kind, KJ_RT_OK);
    free(r.out);
    kj_rt_error err = {0};
    kj_array *a = kj_npy_load(path, &err);
    assert_non_null(a);
    assert_int_equal(a->dtype, KJ_DT_INT32);
    assert_int_equal(a->ndim, 2);
    assert_int_equal(((int32_t *)(void *)a->data)[5], 5);
    kj_array_release(a);

    fx y = {0};
    kj_arena_init(&y.a);
    y.t = kj_types_new(&y.a);
    snprintf(prog, sizeof prog, HEADER "def main():\n    a = np.load(\"%s\")\n    print(a * 2, a.dtype)\n", path);
    r = run_main(&y, prog);
    assert_int_equal(r.kind, KJ_RT_OK);
    assert_string_equal(r.out, "[[ 0  2  4]\n [ 6  8 10]] int32\n");
    free(r.out);
    /* the file changes after compilation: a float64 array now */
    kj_array *f = kj_array_zeros(KJ_DT_FLOAT64, 1, (int64_t[]){3}, NULL);
    assert_true(kj_npy_save(path, f, NULL));
    kj_array_release(f);
    r = call_captured(&y, "main", NULL, NULL);
    assert_int_equal(r.kind, KJ_RT_VALUE);
    assert_non_null(strstr(r.err, "changed since the program was compiled: it holds float64, 1-d, not int32, 2-d"));
    free(r.out);
    kj_jit_free(y.jit);
    kj_diags_free(&y.d);
    kj_arena_free(&y.a);
    remove(path);
    rmdir(dir);
}

/* Run-time errors of the built-ins: NumPy's messages at the call's line. */
static void test_runtime_errors(void **state)
{
    fx *x = *state;
    expect_error(x, HEADER "def main():\n    print(np.zeros(3) + np.ones(4))\n", KJ_RT_VALUE,
                 "prog.k:7:11: ValueError: operands could not be broadcast together with shapes (3,) (4,) ");
    teardown(state), setup(state), x = *state;
    expect_error(x, HEADER "def main():\n    print(np.random.randint(5, 5))\n", KJ_RT_VALUE,
                 "prog.k:7:11: ValueError: low >= high");
    teardown(state), setup(state), x = *state;
    expect_error(x, HEADER "def main():\n    a = np.arange(6)\n    print(a[4:2].min())\n", KJ_RT_VALUE,
                 "prog.k:8:11: ValueError: zero-size array to reduction operation minimum which has no identity");
    teardown(state), setup(state), x = *state;
    expect_error(x, HEADER "def main():\n    print(np.arange(6).reshape(4, 2))\n", KJ_RT_VALUE,
                 "prog.k:7:11: ValueError: cannot reshape array of size 6 into shape (4,2)");
    teardown(state), setup(state), x = *state;
    expect_error(x, HEADER "def main():\n    print(np.arange(3) ** -1)\n", KJ_RT_VALUE,
                 "prog.k:7:11: ValueError: Integers to negative integer powers are not allowed.");
    teardown(state), setup(state), x = *state;
    expect_error(x, HEADER "def main():\n    print(np.zeros(-1))\n", KJ_RT_VALUE,
                 "prog.k:7:11: ValueError: negative dimensions are not allowed");
    teardown(state), setup(state), x = *state;
    /* an unsigned index array is never negative: 2**64-1 is out of bounds, shown unsigned (NumPy 1.24 would
     * cast it to intp, -1, and wrap; tests/golden/run/err_index_unsigned.k has the checked scalar form) */
    expect_error(x, HEADER "def main():\n    a = np.arange(4)\n"
                           "    i = np.zeros(2, dtype=np.uint64) + np.uint64(18446744073709551615)\n    print(a[i])\n",
                 KJ_RT_INDEX,
                 "prog.k:9:11: IndexError: index 18446744073709551615 is out of bounds for axis 0 with size 4");
}

/* Ufunc shape errors read as NumPy's. */
static void test_ufunc_errors(void **state)
{
    fx *x = *state;
    static const char vec[] = HEADER "@vectorize(['float64(float64, float64)'])\n"
                                     "def add(a, b):\n"
                                     "    return a + b\n"
                                     "\n"
                                     "def main():\n"
                                     "    print(add(np.zeros(2), np.zeros((3, 2))).shape)\n"
                                     "    add(np.zeros(3), 1.0, out=np.zeros(4))\n";
    expect_error(x, vec, KJ_RT_VALUE,
                 "prog.k:12:5: ValueError: operands could not be broadcast together with shapes (3,) () (4,) ");
    teardown(state), setup(state), x = *state;
    static const char vec2[] = HEADER "@vectorize(['float64(float64, float64)'])\n"
                                      "def add(a, b):\n"
                                      "    return a + b\n"
                                      "\n"
                                      "def main():\n"
                                      "    add(np.zeros(3), np.zeros((2, 1)), out=np.zeros(3))\n";
    expect_error(x, vec2, KJ_RT_VALUE,
                 "prog.k:11:5: ValueError: non-broadcastable output operand with shape (3,) doesn't match the "
                 "broadcast shape (2,3)");
    teardown(state), setup(state), x = *state;
    static const char gu[] = HEADER "@guvectorize(['void(float64[:], float64[:], float64[:])'], '(n),(n)->(n)')\n"
                                    "def gadd(a, b, out):\n"
                                    "    for i in range(a.shape[0]):\n"
                                    "        out[i] = a[i] + b[i]\n"
                                    "\n"
                                    "def main():\n"
                                    "    print(gadd(np.zeros(3), np.ones(4)))\n";
    expect_error(x, gu, KJ_RT_VALUE,
                 "prog.k:12:11: ValueError: gadd: Input operand 1 has a mismatch in its core dimension 0, with "
                 "gufunc signature (n),(n)->(n) (size 4 is different from 3)");
}

/* The contiguous @vectorize loop calls the scalar function directly, so
 * LLVM inlines and vectorises it. */
static void test_vectorize_is_vectorised(void **state)
{
    fx *x = *state;
    static const char prog[] = HEADER "@vectorize(['float32(float32, float32)'])\n"
                                      "def axpb(a, b):\n"
                                      "    return a * b + 1.0\n"
                                      "\n"
                                      "def main():\n"
                                      "    a = np.ones(1000, dtype=np.float32)\n"
                                      "    print(axpb(a, a).sum())\n";
    kj_codegen_opts o = {.opt_level = 3, .verify = true, .keep_ir = true};
    assert_non_null(compile_as(x, "prog.k", prog, &o));
    const char *ir = kj_jit_ir(x->jit);
    assert_non_null(strstr(ir, "x float>"));
    run r = call_captured(x, "main", NULL, NULL);
    assert_string_equal(r.out, "2000.0\n");
    free(r.out);
}

/* ---- array lifetime ---- */

/* Loops that allocate in every iteration stay within a few live arrays;
 * nothing is left registered after the run. */
static void test_loops_release_arrays(void **state)
{
    fx *x = *state;
    static const char prog[] = HEADER "def helper(a):\n"
                                      "    t = a * 2.0\n"
                                      "    return t.sum() + (t + 1.0).sum()\n"
                                      "\n"
                                      "def make(n):\n"
                                      "    return np.ones(n)\n"
                                      "\n"
                                      "def main():\n"
                                      "    a = np.ones(10)\n"
                                      "    keep = np.zeros(2)\n"
                                      "    s = 0.0\n"
                                      "    for i in range(500):\n"
                                      "        b = a + i\n"
                                      "        s += helper(b)\n"
                                      "        keep = make(2) * i\n"
                                      "        if i % 2 == 0:\n"
                                      "            continue\n"
                                      "        v = b[1:3]\n"
                                      "    k = 0\n"
                                      "    while k < 500:\n"
                                      "        w = np.sqrt(a) + np.zeros_like(a)\n"
                                      "        k += 1\n"
                                      "    print(s, keep, v, w.sum())\n";
    run r = run_main(x, prog);
    assert_int_equal(r.kind, KJ_RT_OK);
    assert_string_equal(r.out, "5015000.0 [499. 499.] [500. 500.] 10.0\n");
    assert_true(r.peak < 16);
    assert_int_equal(r.left, 0);
    free(r.out);
}

/* Generators made in a loop die with their iteration (runtime/pygen.c):
 * twenty thousand iterations hold a few frames at once, the frame of a
 * generator passed to another lives while that one does, and one that a
 * variable holds lives after the loop. */
static void test_generator_frames_release(void **state)
{
    fx *x = *state;
    static const char prog[] = HEADER "from numba import njit\n"
                                      "@njit\n"
                                      "def gen(n):\n"
                                      "    for i in range(n):\n"
                                      "        yield i\n"
                                      "def outer(g):\n"
                                      "    for v in g:\n"
                                      "        yield v * 2\n"
                                      "def make(n):\n"
                                      "    return gen(n)\n"
                                      "def main():\n"
                                      "    s = 0\n"
                                      "    keep = gen(3)\n"
                                      "    h = outer(gen(1))\n"
                                      "    g = make(1)\n"
                                      "    for i in range(20000):\n"
                                      "        s += sum(gen(i % 5))\n"
                                      "        h = outer(gen(3))\n"
                                      "        s += next(h)\n"
                                      "        g = make(2)\n"
                                      "        s += next(g)\n"
                                      "    print(s, list(keep), list(h), list(g))\n";
    run r = run_main(x, prog);
    assert_int_equal(r.kind, KJ_RT_OK);
    assert_string_equal(r.out, "40000 [0, 1, 2] [2, 4] [1]\n"); /* CPython */
    assert_true(r.peak_gens < 16);
    free(r.out);
}

/* Indexing with arrays in a loop: the result, the mask's coordinates and
 * the offsets it makes are released with the iteration's temporaries. */
static void test_index_arrays_release(void **state)
{
    fx *x = *state;
    static const char prog[] = HEADER "def main():\n"
                                      "    a = np.arange(20.0).reshape(4, 5)\n"
                                      "    s = 0.0\n"
                                      "    for i in range(300):\n"
                                      "        m = a[:, 0] > i % 7\n"
                                      "        b = a[m, 1:]\n"
                                      "        a[np.arange(2), i % 5] += 1.0\n"
                                      "        s += b[:, np.arange(3) * -1].sum()\n"
                                      "    print(s, a[np.arange(4) > 1, 0])\n";
    run r = run_main(x, prog);
    assert_int_equal(r.kind, KJ_RT_OK);
    assert_string_equal(r.out, "89962.0 [10. 15.]\n"); /* CPython + NumPy */
    assert_true(r.peak < 24);
    assert_int_equal(r.left, 0);
    free(r.out);
}

/* An array returned to the caller of an entry point keeps one reference,
 * which the caller releases; views keep their base alive. */
static void test_returned_array(void **state)
{
    fx *x = *state;
    static const char prog[] = HEADER "def make(n):\n"
                                      "    a = np.arange(n) * 2\n"
                                      "    t = a + 1\n"
                                      "    return a[1:]\n"
                                      "\n"
                                      "def pair(n):\n"
                                      "    return np.zeros(n), np.ones(n)\n"
                                      "\n"
                                      "def main():\n"
                                      "    print(make(4), pair(2)[1])\n";
    compile_as(x, "prog.k", prog, NULL);
    int64_t n = 5;
    void *args[1] = {&n};
    kj_abi_array1 ret;
    run r = call_captured(x, "make", args, &ret);
    assert_int_equal(r.kind, KJ_RT_OK);
    assert_int_equal(r.left, 0);
    kj_array *owner = ret.owner;
    assert_non_null(owner);
    assert_int_equal(atomic_load(&owner->refcount), 1);
    assert_int_equal(ret.shape[0], 4);
    assert_int_equal(((int64_t *)ret.data)[3], 8);
    kj_array_release(owner);
    free(r.out);

    struct { kj_abi_array1 a, b; } two;
    r = call_captured(x, "pair", args, &two);
    assert_int_equal(r.kind, KJ_RT_OK);
    assert_int_equal(atomic_load(&((kj_array *)two.a.owner)->refcount), 1);
    assert_true(((double *)two.b.data)[4] == 1.0);
    kj_array_release(two.a.owner);
    kj_array_release(two.b.owner);
    free(r.out);

    r = call_captured(x, "main", NULL, NULL);
    assert_string_equal(r.out, "[2 4 6] [1. 1.]\n");
    free(r.out);
}

/* An error in the middle of a loop still releases everything. */
static void test_error_releases_arrays(void **state)
{
    fx *x = *state;
    static const char prog[] = HEADER "def main():\n"
                                      "    a = np.ones(4)\n"
                                      "    for i in range(10):\n"
                                      "        b = a * i\n"
                                      "        assert i < 5, 'stop'\n";
    run r = run_main(x, prog);
    assert_int_equal(r.kind, KJ_RT_ASSERTION);
    assert_int_equal(r.left, 0);
    free(r.out);
}

/* ---- the golden programs of tests/golden/run, in-process ---- */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    size_t got = fread(s, 1, (size_t)n, f);
    s[got] = 0;
    fclose(f);
    return s;
}

/* main's default arguments (int, float or bool literals, maybe negated). */
static void default_args(fx *x, const kj_module *m, void **args, int64_t *vals)
{
    const kir_func *f = x->m->main;
    for (uint32_t k = 0; k < m->body.n; k++) {
        const kj_stmt *s = m->body.v[k];
        if (s->kind != KJ_S_DEF || strcmp(s->def->name, "main")) continue;
        for (uint32_t p = 0; p < s->def->nparams && p < f->nparams; p++) {
            const kj_expr *e = s->def->params[p].def;
            bool neg = e && e->kind == KJ_E_UNARY && e->un.op == KJ_UOP_NEG;
            if (neg) e = e->un.x;
            double fv = !e ? 0 : e->kind == KJ_E_FLOAT ? e->float_ : e->kind == KJ_E_BOOL ? e->bool_ : (double)e->int_.value;
            int64_t iv = !e ? 0 : e->kind == KJ_E_INT ? (int64_t)e->int_.value : (int64_t)fv;
            if (neg) fv = -fv, iv = -iv;
            if (f->params[p]->kind == KJ_T_FLOAT) memcpy(&vals[p], &fv, sizeof fv);
            else if (f->params[p]->kind == KJ_T_BOOL) vals[p] = iv != 0; /* one byte, little-endian */
            else vals[p] = iv;
            args[p] = &vals[p];
        }
    }
}

/* NAME.stderr is the traceback `kjit run` prints (`  File "NAME.k", line L,
 * in f` ... and the last line `Kind: message`); err is the run's error,
 * `NAME.k:L:C: Kind: message`: the same line and the same last line. */
static bool traceback_is(const char *tb, const char *err)
{
    const char *f = strstr(tb, ", line "), *last = tb;
    int line = f ? atoi(f + 7) : -1, eline = -1;
    for (const char *p = tb; *p; p++)
        if (*p == '\n' && p[1]) last = p + 1;
    const char *c1 = strchr(err, ':');
    if (c1) eline = atoi(c1 + 1);
    const char *msg = c1 ? strchr(c1 + 1, ':') : NULL;
    msg = msg ? strchr(msg + 1, ':') : NULL;
    if (!msg || line != eline) return false;
    size_t n = strcspn(last, "\n");
    return strlen(msg + 2) == n && !strncmp(msg + 2, last, n);
}

/* Run one golden program: stdout must equal NAME.expected; with
 * NAME.stderr, the error must be its traceback's (traceback_is). Returns false on a
 * mismatch (after printing why). */
static bool golden_one(const char *name)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s.k", name);
    char *text = slurp(path);
    snprintf(path, sizeof path, "%s.expected", name);
    char *want = slurp(path);
    snprintf(path, sizeof path, "%s.stderr", name);
    char *want_err = slurp(path);
    fx *x = NULL;
    setup((void **)&x);
    bool ok = false;
    snprintf(path, sizeof path, "%s.k", name);
    x->text = text;
    x->src = (kj_source){.path = path, .text = text, .len = strlen(text)};
    kj_module *m = NULL;
    x->m = fx_pipeline(x, &m);
    kj_codegen_opts o = {.opt_level = 1, .verify = true};
    x->jit = x->m ? kj_codegen_host(x->m, &o, &x->d) : NULL;
    if (!x->jit || !want) {
        kj_diags_print(&x->d, stderr, KJ_DIAG_SHORT);
        fprintf(stderr, "golden %s: %s\n", name, want ? "does not compile" : "no .expected");
    } else if (!x->m->main) {
        /* only definitions (script_only_defs.k): nothing runs, nothing prints */
        ok = !*want && !want_err;
        if (!ok) fprintf(stderr, "golden %s: nothing to run, but an output is expected\n", name);
    } else {
        void *args[8] = {0};
        int64_t vals[8] = {0};
        default_args(x, m, args, vals);
        /* main, or <module> for a script without main */
        run r = call_captured(x, x->m->main ? x->m->main->name : "main", args, NULL);
        ok = !strcmp(r.out, want) && (want_err ? r.kind != KJ_RT_OK && traceback_is(want_err, r.err) : r.kind == KJ_RT_OK);
        if (!ok)
            fprintf(stderr, "golden %s: output differs\n--- expected\n%s--- got\n%s--- error: %s\n", name, want,
                    r.out, r.err);
        free(r.out);
    }
    teardown((void **)&x);
    free(want);
    free(want_err);
    return ok;
}

/* The broadcast error of a fused expression names the two shapes of the
 * first operator that fails, intermediate results included, and where. */
static void test_fused_broadcast_error(void **state)
{
    (void)state;
    int32_t nd[3] = {2, 1, 0};
    int64_t shapes[3 * KJ_ABI_MAX_DIMS] = {0};
    shapes[0] = 2, shapes[1] = 3;        /* a: (2,3) */
    shapes[KJ_ABI_MAX_DIMS] = 2;         /* b: (2,) */
    char msg[512];
    int32_t line = 0, col = 0;
    /* (a * 2.0) + (sin(b) * a): the second product fails */
    assert_true(kj_rt_fused_broadcast_error("a.23:5;b14:15;a23:20;23:11;", 3, nd, shapes, msg, sizeof msg,
                                            &line, &col));
    assert_string_equal(msg, "operands could not be broadcast together with shapes (2,) (2,3) ");
    assert_int_equal(line, 3);
    assert_int_equal(col, 20);
    /* (a + c) then + b: the intermediate (2,3) against (2,) */
    assert_true(kj_rt_fused_broadcast_error("ac21:1;b21:2;", 3, nd, shapes, msg, sizeof msg, &line, &col));
    assert_string_equal(msg, "operands could not be broadcast together with shapes (2,3) (2,) ");
    assert_int_equal(col, 2);
    /* shapes that broadcast, and malformed trees: no message */
    assert_false(kj_rt_fused_broadcast_error("ac21:1;", 3, nd, shapes, msg, sizeof msg, &line, &col));
    assert_false(kj_rt_fused_broadcast_error("a2", 3, nd, shapes, msg, sizeof msg, &line, &col));
    assert_false(kj_rt_fused_broadcast_error("az2", 3, nd, shapes, msg, sizeof msg, &line, &col));
}

static void test_golden_run(void **state)
{
    (void)state;
    /* tests/golden/run, from this file's path (meson runs tests in the
     * build directory, and compiles with paths relative to it) */
    char dir[PATH_MAX], cwd[PATH_MAX];
    const char *root = getenv("KJIT_SOURCE_ROOT");
    if (root) snprintf(dir, sizeof dir, "%s/tests/golden/run", root);
    else snprintf(dir, sizeof dir, "%.*s/../golden/run", (int)(strrchr(__FILE__, '/') - __FILE__), __FILE__);
    assert_non_null(getcwd(cwd, sizeof cwd));
    DIR *d = opendir(dir);
    if (!d || chdir(dir)) {
        if (d) closedir(d);
        skip(); /* not found from here: set KJIT_SOURCE_ROOT */
    }
    int n = 0, bad = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 3 || strcmp(e->d_name + len - 2, ".k")) continue;
        /* cuda.compile_ptx's PTX is made by the C API's pipeline before the host code
         * (src/api/ptx_consts.c), which this harness does not run: tests/golden/run.sh runs it */
        if (!strncmp(e->d_name, "cuda_compile", 12)) continue;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(len - 2), e->d_name);
        n++;
        bad += !golden_one(name);
    }
    closedir(d);
    assert_int_equal(chdir(cwd), 0);
    assert_true(n >= 30);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spare_memory),
        cmocka_unit_test(test_spare_copy_sort),
        cmocka_unit_test_setup_teardown(test_print, setup, teardown),
        cmocka_unit_test_setup_teardown(test_constructors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_arange_linspace, setup, teardown),
        cmocka_unit_test_setup_teardown(test_random_seeded, setup, teardown),
        cmocka_unit_test_setup_teardown(test_random_unseeded, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reductions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy_reshape_fill, setup, teardown),
        cmocka_unit_test_setup_teardown(test_allclose, setup, teardown),
        cmocka_unit_test_setup_teardown(test_array_operators, setup, teardown),
        cmocka_unit_test_setup_teardown(test_math_on_arrays, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cuda_host, setup, teardown),
        cmocka_unit_test_setup_teardown(test_events, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_load, setup, teardown),
        cmocka_unit_test_setup_teardown(test_vectorize, setup, teardown),
        cmocka_unit_test_setup_teardown(test_guvectorize, setup, teardown),
        cmocka_unit_test_setup_teardown(test_vectorize_is_vectorised, setup, teardown),
        cmocka_unit_test_setup_teardown(test_runtime_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ufunc_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_loops_release_arrays, setup, teardown),
        cmocka_unit_test_setup_teardown(test_index_arrays_release, setup, teardown),
        cmocka_unit_test_setup_teardown(test_generator_frames_release, setup, teardown),
        cmocka_unit_test_setup_teardown(test_returned_array, setup, teardown),
        cmocka_unit_test_setup_teardown(test_error_releases_arrays, setup, teardown),
        cmocka_unit_test(test_fused_broadcast_error),
        cmocka_unit_test(test_golden_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
