/* SPDX-License-Identifier: BSD-2-Clause */
/* Thread-layout specialisation (src/ir/kir_layout.c): which kernels the
 * LAYOUT stage remaps, on the GPU and on the cpu, which it must never
 * remap (warp operations, the lane id, device functions that read the
 * thread's position; on the cpu whatever shows the threads' order), and
 * the launch's permuted block (abi.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "abi/abi.h"
#include "ir/kir_layout.h"
#include "kernel_fixture.h"

/* The arrays the kernels are launched with: 16 x 16 float32, C, F or 1-d. */
static const char C2[] = "np.ones((16, 16), dtype=np.float32)", F2[] = "np.ones((16, 16), dtype=np.float32).T",
                  C1[] = "np.ones(256, dtype=np.float32)";

/* A program around kernel `kernel` (its source, decorator included),
 * launched with (2, 2) blocks of (8, 4) threads on two arrays made by
 * `arr`, compiled through every stage of KIR for `target`. */
static void compile_on(fx *x, const char *kernel, const char *arr, kj_run_target target, bool specialise)
{
    kj_ir_unit u = {.target = target, .specialise = specialise};
    kfx_compile(x, kernel, arr, arr, "(2, 2), (8, 4)", u);
}

static void compile(fx *x, const char *kernel, kj_run_target target, bool specialise)
{
    compile_on(x, kernel, C2, target, specialise);
}


/* Is kernel k remapped when compiled for target (launched on arr)? */
static bool remapped_on(fx *x, const char *src, const char *arr, kj_run_target target)
{
    compile_on(x, src, arr, target, true);
    return x->k->layout_perm == KJ_ABI_PERM_XY;
}

static bool remapped(fx *x, const char *src, kj_run_target target) { return remapped_on(x, src, C2, target); }

#define NAIVE_BODY                                                                                                   \
    "    i, j = cuda.grid(2)\n"                                                                                     \
    "    if 1 <= i < a.shape[0] - 1 and 1 <= j < a.shape[1] - 1:\n"                                                 \
    "        b[i, j] = a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1]\n"

static const char NAIVE[] = "@cuda.jit\ndef k(a, b):\n" NAIVE_BODY;

static void naive_stencil_remapped(void **state)
{
    fx *x = *state;
    assert_true(remapped(x, NAIVE, KJ_RUN_CUDA));
    int v[3];
    assert_int_equal(kir_layout_contiguous_dim(&x->a, x->k, v), 1);
    assert_int_equal(v[0], 0);
    assert_int_equal(v[1], 5); /* four loads and the store */
    assert_true(remapped(x, NAIVE, KJ_RUN_CPU));
    assert_true(remapped(x, NAIVE, KJ_RUN_PARALLEL));
}

static void coalesced_kept(void **state)
{
    fx *x = *state;
    const char *src = "@cuda.jit\ndef k(a, b):\n    j, i = cuda.grid(2)\n"
                      "    if i < a.shape[0] and j < a.shape[1]:\n        b[i, j] = 2 * a[i, j]\n";
    assert_false(remapped(x, src, KJ_RUN_CUDA));
    assert_int_equal(kir_layout_contiguous_dim(&x->a, x->k, NULL), 0);
    assert_int_equal(x->k->layout_perm, 0);
}

/* KJIT_NO_SPECIALISE=1 (the unit's `specialise` false): nothing changes. */
static void switched_off(void **state)
{
    fx *x = *state;
    compile(x, NAIVE, KJ_RUN_CUDA, false);
    assert_int_equal(x->k->layout_perm, 0);
}

/* Threads that share a warp change with the swap: never with warp operations. */
static void warp_operations_never(void **state)
{
    fx *x = *state;
    static const char *const forms[] = {
        "v = cuda.shfl_down_sync(0xffffffff, a[i, j], 1)",
        "v = a[i, j] + cuda.laneid",
        "v = a[i, j] + cuda.warpsize",
        "v = a[i, j] + cuda.ballot_sync(0xffffffff, True)",
        "v = a[i, j] + cuda.activemask()",
        "v = a[i, j] + cuda.all_sync(0xffffffff, True)",
        "v = a[i, j] + cuda.match_any_sync(0xffffffff, i)",
        "v = a[i, j] + cuda.lanemask_lt()",
    };
    for (size_t k = 0; k < sizeof forms / sizeof *forms; k++) {
        char src[512];
        snprintf(src, sizeof src,
                 "@cuda.jit\ndef k(a, b):\n    i, j = cuda.grid(2)\n    if i < a.shape[0] and j < a.shape[1]:\n"
                 "        %s\n        b[i, j] = v\n",
                 forms[k]);
        assert_false(remapped(x, src, KJ_RUN_CUDA));
        const char *why = kir_layout_illegal(x->k, KJ_RUN_CUDA);
        assert_non_null(why);
        assert_non_null(strstr(why, "warp"));
    }
}

/* A barrier and shared memory keep the block's threads together: allowed. */
static void barriers_and_shared_allowed(void **state)
{
    fx *x = *state;
    const char *src = "from numba import float32\n\n\n@cuda.jit\ndef k(a, b):\n"
                      "    s = cuda.shared.array((8, 4), float32)\n"
                      "    i, j = cuda.grid(2)\n    ti = cuda.threadIdx.x\n    tj = cuda.threadIdx.y\n"
                      "    s[ti, tj] = a[i, j]\n    cuda.syncthreads()\n"
                      "    b[i, j] = s[ti, tj] + s[ti, cuda.blockDim.y - 1 - tj]\n";
    assert_true(remapped(x, src, KJ_RUN_CUDA));
    assert_null(kir_layout_illegal(x->k, KJ_RUN_CUDA));
    assert_true(remapped(x, src, KJ_RUN_CPU));
}

/* On the cpu the threads run in an order that print, atomics and raised
 * errors show: kept as written there, remapped on the GPU. */
static void order_visible_on_cpu(void **state)
{
    fx *x = *state;
    static const char *const forms[] = {
        "print(i, j)",
        "cuda.atomic.add(b, (0, 0), 1.0)",
        "assert a[i, j] >= 0",
    };
    for (size_t k = 0; k < sizeof forms / sizeof *forms; k++) {
        char src[512];
        snprintf(src, sizeof src, "@cuda.jit\ndef k(a, b):\n" NAIVE_BODY "        %s\n", forms[k]);
        assert_true(remapped(x, src, KJ_RUN_CUDA));
        assert_false(remapped(x, src, KJ_RUN_CPU));
        assert_non_null(kir_layout_illegal(x->k, KJ_RUN_CPU));
    }
}

/* A device function that reads the thread's position is compiled once for
 * every caller, unswapped: its callers stay as written. One that does not
 * is no obstacle. */
static void device_functions(void **state)
{
    fx *x = *state;
    const char *reads = "@cuda.jit(device=True)\ndef col():\n    return cuda.threadIdx.y\n\n\n"
                        "@cuda.jit\ndef k(a, b):\n" NAIVE_BODY "        b[i, j] += col()\n";
    assert_false(remapped(x, reads, KJ_RUN_CUDA));
    assert_non_null(strstr(kir_layout_illegal(x->k, KJ_RUN_CUDA), "device function"));
    const char *pure = "@cuda.jit(device=True)\ndef half(v):\n    return v * 0.5\n\n\n"
                       "@cuda.jit\ndef k(a, b):\n" NAIVE_BODY "        b[i, j] = half(b[i, j])\n";
    assert_true(remapped(x, pure, KJ_RUN_CUDA));
}

/* The layout of the arrays decides: F arrays are contiguous in their first
 * dimension; 'A' arrays of two dimensions are not known until run time. */
static void array_layouts(void **state)
{
    fx *x = *state;
    const char *f_naive = "@cuda.jit('void(float32[::1, :], float32[::1, :])')\ndef k(a, b):\n" NAIVE_BODY;
    assert_false(remapped_on(x, f_naive, F2, KJ_RUN_CUDA));
    const char *f_swapped = "@cuda.jit('void(float32[::1, :], float32[::1, :])')\ndef k(a, b):\n"
                            "    j, i = cuda.grid(2)\n    if i < a.shape[0] and j < a.shape[1]:\n"
                            "        b[i, j] = a[i, j]\n";
    assert_true(remapped_on(x, f_swapped, F2, KJ_RUN_CUDA));
    const char *any = "@cuda.jit('void(float32[:, :], float32[:, :])')\ndef k(a, b):\n" NAIVE_BODY;
    assert_false(remapped(x, any, KJ_RUN_CUDA));
    assert_int_equal(kir_layout_contiguous_dim(&x->a, x->k, NULL), -1);
    const char *c_sig = "@cuda.jit('void(float32[:, ::1], float32[:, ::1])')\ndef k(a, b):\n" NAIVE_BODY;
    assert_true(remapped(x, c_sig, KJ_RUN_CUDA));
}

/* Index arithmetic: a flattened index, threadIdx read directly, a loop
 * over the contiguous dimension started at the thread's column. */
static void index_forms(void **state)
{
    fx *x = *state;
    const char *flat = "@cuda.jit\ndef k(f, g):\n    i, j = cuda.grid(2)\n    n = 16\n"
                       "    if i < n and j < n:\n        g[i * n + j] = f[i * n + j] + 1\n";
    assert_true(remapped_on(x, flat, C1, KJ_RUN_CUDA));
    const char *tid = "@cuda.jit\ndef k(a, b):\n    tx = cuda.threadIdx.x\n    ty = cuda.threadIdx.y\n"
                      "    b[tx, ty] = a[tx, ty] * 2\n";
    assert_true(remapped(x, tid, KJ_RUN_CUDA));
    const char *loop = "@cuda.jit\ndef k(a, b):\n    i, j0 = cuda.grid(2)\n    sx, sy = cuda.gridsize(2)\n"
                       "    for j in range(j0, a.shape[1], sy):\n        if i < a.shape[0]:\n"
                       "            b[i, j] = a[i, j]\n";
    assert_true(remapped(x, loop, KJ_RUN_CUDA));
    /* a transpose: as many accesses each way, left as written */
    const char *tr = "@cuda.jit\ndef k(a, b):\n    i, j = cuda.grid(2)\n"
                     "    if i < a.shape[0] and j < a.shape[1]:\n        b[j, i] = a[i, j]\n";
    assert_false(remapped(x, tr, KJ_RUN_CUDA));
}

/* The launch runs the block permuted and the grid as written. */
static void block_permuted(void **state)
{
    (void)state;
    kj_abi_kernel k = {.name = "k", .perm = KJ_ABI_PERM_XY};
    const int64_t cfg[8] = {3, 5, 7, 32, 8, 2, 0, 64};
    int64_t out[8];
    kj_abi_block_phys(&k, cfg, out);
    const int64_t want[8] = {3, 5, 7, 8, 32, 2, 0, 64};
    assert_memory_equal(out, want, sizeof want);
    k.perm = 0;
    kj_abi_block_phys(&k, cfg, out);
    assert_memory_equal(out, cfg, sizeof want);
    assert_int_equal(kj_abi_perm_dim(KJ_ABI_PERM_XY, 0), 1);
    assert_int_equal(kj_abi_perm_dim(KJ_ABI_PERM_XY, 1), 0);
    assert_int_equal(kj_abi_perm_dim(KJ_ABI_PERM_XY, 2), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(naive_stencil_remapped, setup, teardown),
        cmocka_unit_test_setup_teardown(coalesced_kept, setup, teardown),
        cmocka_unit_test_setup_teardown(switched_off, setup, teardown),
        cmocka_unit_test_setup_teardown(warp_operations_never, setup, teardown),
        cmocka_unit_test_setup_teardown(barriers_and_shared_allowed, setup, teardown),
        cmocka_unit_test_setup_teardown(order_visible_on_cpu, setup, teardown),
        cmocka_unit_test_setup_teardown(device_functions, setup, teardown),
        cmocka_unit_test_setup_teardown(array_layouts, setup, teardown),
        cmocka_unit_test_setup_teardown(index_forms, setup, teardown),
        cmocka_unit_test(block_permuted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
