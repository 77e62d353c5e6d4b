/* SPDX-License-Identifier: BSD-2-Clause */
/* Regrouped blocks on the cpu target (src/ir/kir_regroup.c, abi.h
 * kj_abi_regroup): only kernels whose threads cannot tell their block
 * (no threadIdx/blockIdx/blockDim/gridDim but through cuda.grid, no
 * barrier, shared array, warp operation, order-visible operation or loop),
 * only on the cpu target, and the launch configuration they run with. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "abi/abi.h"
#include "ir/kir_regroup.h"
#include "kernel_fixture.h"

/* Kernel `k` (source with decorator) launched on two 16 x 16 arrays,
 * through every stage of KIR for `target`; may its blocks be regrouped? */
static bool marked(fx *x, const char *kernel, kj_run_target target, bool on)
{
    kj_ir_unit u = {.target = target, .specialise = on, .regroup = on};
    return kfx_compile(x, kernel, "np.ones((16, 16), dtype=np.float32)", "np.zeros_like(a)", "(2, 2), (8, 8)", u)
        ->regroup;
}

static const char STENCIL[] = "@cuda.jit\ndef k(a, b):\n    i, j = cuda.grid(2)\n"
                              "    if 0 < i < a.shape[0] - 1 and 0 < j < a.shape[1] - 1:\n"
                              "        b[i, j] = a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1]\n";

static void cpu_only(void **state)
{
    fx *x = *state;
    assert_true(marked(x, STENCIL, KJ_RUN_CPU, true));
    assert_false(marked(x, STENCIL, KJ_RUN_CPU, false)); /* KJIT_NO_SPECIALISE / KJIT_NO_REGROUP */
    assert_false(marked(x, STENCIL, KJ_RUN_PARALLEL, true));
    assert_false(marked(x, STENCIL, KJ_RUN_CUDA, true));
}

/* Kernels that can tell their block, or the order threads run in. */
static void never(void **state)
{
    fx *x = *state;
    static const char *const k[] = {
        "@cuda.jit\ndef k(a, b):\n    i = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x\n"
        "    j = cuda.grid(2)[1]\n    if i < a.shape[0] and j < a.shape[1]:\n        b[i, j] = a[i, j]\n",
        "@cuda.jit\ndef k(a, b):\n    i, j = cuda.grid(2)\n    if i < a.shape[0] and j < a.shape[1]:\n"
        "        b[i, j] = a[i, j]\n    cuda.syncthreads()\n",
        "@cuda.jit\ndef k(a, b):\n    s = cuda.shared.array(4, dtype=np.float32)\n    i, j = cuda.grid(2)\n"
        "    s[0] = 1.0\n    if i < a.shape[0] and j < a.shape[1]:\n        b[i, j] = a[i, j] + s[0]\n",
        "@cuda.jit\ndef k(a, b):\n    i, j = cuda.grid(2)\n    if i < a.shape[0] and j < a.shape[1]:\n"
        "        b[i, j] = a[i, j] + cuda.laneid\n",
        "@cuda.jit\ndef k(a, b):\n    i, j = cuda.grid(2)\n    if i < a.shape[0] and j < a.shape[1]:\n"
        "        cuda.atomic.add(b, (0, 0), a[i, j])\n",
        "@cuda.jit\ndef k(a, b):\n    i, j = cuda.grid(2)\n    if i < a.shape[0] and j < a.shape[1]:\n"
        "        for t in range(3):\n            b[i, j] += a[i, j]\n",
    };
    for (size_t n = 0; n < sizeof k / sizeof k[0]; n++) {
        if (marked(x, k[n], KJ_RUN_CPU, true)) fail_msg("kernel %zu regrouped", n);
    }
}

/* The row of blocks the innermost thread loop walks becomes one block:
 * logical x as written, logical y for a kernel remapped (x and y swapped). */
static void launch_regrouped(void **state)
{
    (void)state;
    kj_abi_kernel k = {.name = "k", .regroup = 1};
    const int64_t cfg[8] = {128, 512, 1, 32, 8, 1, 0, 0};
    int64_t out[8];
    kj_abi_regroup(&k, cfg, out);
    const int64_t x[8] = {1, 512, 1, 4096, 8, 1, 0, 0};
    assert_memory_equal(out, x, sizeof x);
    k.perm = KJ_ABI_PERM_XY;
    kj_abi_regroup(&k, cfg, out);
    const int64_t y[8] = {128, 1, 1, 32, 4096, 1, 0, 0};
    assert_memory_equal(out, y, sizeof y);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(cpu_only, setup, teardown),
        cmocka_unit_test_setup_teardown(never, setup, teardown),
        cmocka_unit_test(launch_regrouped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
