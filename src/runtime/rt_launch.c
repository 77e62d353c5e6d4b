/* Kernel launches on the host: checking a launch configuration as the CUDA
 * driver does (cuLaunchKernel answers CUDA_ERROR_INVALID_VALUE), before the
 * generated loops over blocks and threads run (src/codegen/llvm_kernel.c,
 * docs/kernels_cpu.md). */
#include "rt.h"

#include <inttypes.h>
#include <stdio.h>

enum {
    MAX_BLOCK_THREADS = 1024,
    MAX_DYN_SHARED = 48 * 1024, /* without the opt-in attribute */
};

/* CUDA's limits per dimension: block (1024, 1024, 64), grid (2^31-1,
 * 65535, 65535). */
static const int64_t block_max[3] = {1024, 1024, 64};
static const int64_t grid_max[3] = {INT32_MAX, 65535, 65535};

_Noreturn static void invalid(kj_rt *rt, const char *kernel, const char *what, const int64_t *v,
                              const char *why, int32_t line, int32_t col)
{
    char msg[256];
    snprintf(msg, sizeof msg,
             "CUDA_ERROR_INVALID_VALUE: kernel '%s' launched with %s (%" PRId64 ", %" PRId64 ", %" PRId64
             "): %s",
             kernel, what, v[0], v[1], v[2], why);
    kj_rt_raise(rt, KJ_RT_RUNTIME, msg, line, col);
}

void kj_rt_launch_check(kj_rt *rt, const int64_t *cfg, const char *kernel, int32_t line, int32_t col)
{
    const int64_t *grid = cfg, *block = cfg + 3;
    for (int k = 0; k < 3; k++) {
        if (grid[k] < 1) invalid(rt, kernel, "grid", grid, "every dimension must be at least 1", line, col);
        if (grid[k] > grid_max[k])
            invalid(rt, kernel, "grid", grid, "a dimension exceeds the device's maximum", line, col);
    }
    for (int k = 0; k < 3; k++) {
        if (block[k] < 1) invalid(rt, kernel, "block", block, "every dimension must be at least 1", line, col);
        if (block[k] > block_max[k])
            invalid(rt, kernel, "block", block, "a dimension exceeds the device's maximum", line, col);
    }
    if (block[0] * block[1] * block[2] > MAX_BLOCK_THREADS)
        invalid(rt, kernel, "block", block, "a block has at most 1024 threads", line, col);
    if (cfg[7] < 0 || cfg[7] > MAX_DYN_SHARED) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "CUDA_ERROR_INVALID_VALUE: kernel '%s' launched with %" PRId64
                 " bytes of dynamic shared memory (at most 49152)",
                 kernel, cfg[7]);
        kj_rt_raise(rt, KJ_RT_RUNTIME, msg, line, col);
    }
}
