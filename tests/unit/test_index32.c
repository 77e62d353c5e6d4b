/* SPDX-License-Identifier: BSD-2-Clause */
/* Launch specialisation, 32-bit index arithmetic (src/ir/kir_index32.c,
 * src/runtime/gpu_spec.c): which kernels get a 32-bit entry, and which
 * launches run it — never one with an extent, element count, element span
 * or grid dimension over INT32_MAX. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "abi/abi.h"
#include "ir/kir_index32.h"
#include "runtime/array.h"
#include "runtime/gpu.h"
#include "kernel_fixture.h"

/* Kernel `k` (source with decorator) launched on two 16 x 16 arrays,
 * through every stage of KIR for `target`; is it marked for a 32-bit entry? */
static bool marked(fx *x, const char *kernel, kj_run_target target, bool on)
{
    kj_ir_unit u = {.target = target, .specialise = on, .index32 = on};
    return kfx_compile(x, kernel, "np.ones((16, 16), dtype=np.float32)", "np.zeros_like(a)", "(2, 2), (8, 8)", u)
        ->index32;
}

static const char STENCIL[] = "@cuda.jit\ndef k(a, b):\n    i, j = cuda.grid(2)\n"
                              "    if 0 < i < a.shape[0] - 1 and 0 < j < a.shape[1] - 1:\n"
                              "        b[i, j] = a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1]\n";

static void marked_on_cuda_only(void **state)
{
    fx *x = *state;
    assert_true(marked(x, STENCIL, KJ_RUN_CUDA, true));
    assert_false(marked(x, STENCIL, KJ_RUN_CUDA, false)); /* KJIT_NO_SPECIALISE / KJIT_NO_INDEX32 */
    assert_false(marked(x, STENCIL, KJ_RUN_CPU, true));
    assert_false(marked(x, STENCIL, KJ_RUN_PARALLEL, true));
}

static void no_array_access_unmarked(void **state)
{
    fx *x = *state;
    static const char shape_only[] = "@cuda.jit\ndef k(a, b):\n    i = cuda.grid(1)\n"
                                     "    if i == a.shape[0]:\n        print(i)\n";
    assert_false(marked(x, shape_only, KJ_RUN_CUDA, true));
}

/* A kernel with a 32-bit entry whose parameters are arrays of ndim[k]
 * dimensions of float32 (or a scalar where ndim[k] is 0). */
static kj_abi_kernel kernel_of(kj_abi_param *p, const int *ndim, int n)
{
    for (int k = 0; k < n; k++)
        p[k] = ndim[k] ? (kj_abi_param){KJ_ABI_PARAM_ARRAY, ndim[k], 0, KJ_DT_FLOAT32}
                       : (kj_abi_param){KJ_ABI_PARAM_SCALAR, 0, 8, KJ_DT_INT64};
    return (kj_abi_kernel){.name = "k", .symbol = "k_0", .symbol32 = "k_0_i32", .nparams = n, .params = p};
}

/* The descriptor of a float32 array of this shape, C order unless strides
 * (in bytes) are given. */
static void desc(kj_abi_array *d, int ndim, const int64_t *shape, const int64_t *strides)
{
    int64_t st[4], s = 4;
    for (int k = ndim; k-- > 0;) st[k] = strides ? strides[k] : s, s *= shape[k] ? shape[k] : 1;
    kj_abi_array_pack(d, ndim, (void *)(uintptr_t)4096, shape, st, NULL);
}

static bool fits2d(int64_t rows, int64_t cols, const int64_t *strides, const int64_t *cfg)
{
    kj_abi_param p[3];
    const int nd[3] = {2, 2, 0};
    kj_abi_kernel k = kernel_of(p, nd, 3);
    kj_abi_array a, b;
    const int64_t shape[2] = {rows, cols}, small[2] = {4, 4};
    desc(&a, 2, shape, strides);
    desc(&b, 2, small, NULL);
    int64_t scalar = 7;
    void *args[3] = {&a, &b, &scalar};
    return kj_gpu_index32_fits(&k, cfg, args);
}

static const int64_t GRID[8] = {64, 64, 1, 16, 16, 1, 0, 0};

static void extents_decide(void **state)
{
    (void)state;
    assert_true(fits2d(10000, 10000, NULL, GRID));
    assert_true(fits2d(1, INT32_MAX, NULL, GRID));           /* count INT32_MAX: the largest that fits */
    assert_false(fits2d(1, (int64_t)INT32_MAX + 1, NULL, GRID)); /* an extent over 2^31 - 1 */
    assert_false(fits2d(65536, 65536, NULL, GRID));          /* each extent fits, the count does not */
    assert_false(fits2d(46341, 46341, NULL, GRID));          /* 2147488281 elements */
    assert_true(fits2d(46340, 46340, NULL, GRID));           /* 2147395600 */
    /* a strided view reaching past 2^31 - 1 elements from its start */
    const int64_t far[2] = {(int64_t)1 << 33, 4}; /* 2^31 float32 elements apart */
    assert_false(fits2d(2, 2, far, GRID));
    const int64_t back[2] = {-4 * 1000, -4}; /* negative strides: the span counts */
    assert_true(fits2d(1000, 1000, back, GRID));
    /* an empty array: no access is in bounds, but its extents are still read as int32 */
    assert_true(fits2d(0, 5, NULL, GRID));
    assert_false(fits2d(0, (int64_t)INT32_MAX + 1, NULL, GRID));
    /* a dimension of one: its stride never multiplies a nonzero index */
    const int64_t one[2] = {(int64_t)1 << 40, 4};
    assert_true(fits2d(1, 100, one, GRID));
}

static void grid_decides(void **state)
{
    (void)state;
    int64_t cfg[8] = {2097151, 1, 1, 1024, 1, 1, 0, 0}; /* 2^31 - 1024 threads in x */
    assert_true(fits2d(16, 16, NULL, cfg));
    cfg[0] = 2097152; /* 2^31 */
    assert_false(fits2d(16, 16, NULL, cfg));
    int64_t y[8] = {1, 65535, 1, 1, 1024, 1, 0, 0};
    assert_true(fits2d(16, 16, NULL, y));
    y[1] = 65535 * 64, y[4] = 1024; /* (as a remapped kernel's written grid may be) */
    assert_false(fits2d(16, 16, NULL, y));
}

/* One kernel launched with two shapes: the 32-bit entry for the one that
 * fits, the generic one for the other. Without a 32-bit entry: never. */
static void two_shapes_two_entries(void **state)
{
    (void)state;
    kj_abi_param p[1];
    const int nd[1] = {1};
    kj_abi_kernel k = kernel_of(p, nd, 1);
    kj_abi_array small, big;
    const int64_t s1[1] = {1000}, s2[1] = {(int64_t)3 << 30};
    desc(&small, 1, s1, NULL);
    desc(&big, 1, s2, NULL);
    void *a1[1] = {&small}, *a2[1] = {&big};
    assert_true(kj_gpu_index32_fits(&k, GRID, a1));
    assert_false(kj_gpu_index32_fits(&k, GRID, a2));
    k.cooperative = 1; /* grid.sync(): the entry whose occupancy max_cooperative_grid_blocks gave */
    assert_false(kj_gpu_index32_fits(&k, GRID, a1));
    k.cooperative = 0, k.symbol32 = NULL;
    assert_false(kj_gpu_index32_fits(&k, GRID, a1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(marked_on_cuda_only, setup, teardown),
        cmocka_unit_test_setup_teardown(no_array_access_unmarked, setup, teardown),
        cmocka_unit_test(extents_decide),
        cmocka_unit_test(grid_decides),
        cmocka_unit_test(two_shapes_two_entries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
