/* SPDX-License-Identifier: BSD-2-Clause */
/* numba.cuda's special streams and its profiler in host code
 * (builtins_cuda_host.h): the driver's handles on the cuda target
 * (gpu_stream.c); on the cpu targets every stream is the default one (NULL,
 * as cuda.stream() is there: kernels run synchronously) and there is no
 * profiler to start. */
#include "../abi/abi.h"
#include "gpu.h"
#include "rt_host.h"

#include <inttypes.h>

void *kj_rt_cuda_stream(kj_rt *rt, int32_t kind, int64_t ptr)
{
    return rt->gpu ? kj_gpu_stream_special(rt->gpu, kind, (intptr_t)ptr) : NULL;
}

/* As rt_launch.c checks a launch's block: CUDA's limits (1 to 1024 threads,
 * dynamic shared memory not negative). */
int64_t kj_rt_coop_max_blocks(kj_rt *rt, const void *kernel, int64_t threads, int64_t dyn, int32_t line, int32_t col)
{
    const kj_abi_kernel *k = kernel;
    kj_rt_error e = {0};
    if (threads < 1 || threads > 1024 || dyn < 0) {
        kj_rt_errorf(&e, "RuntimeError",
                     "CUDA_ERROR_INVALID_VALUE: max_cooperative_grid_blocks() of kernel '%s' with %" PRId64
                     " threads per block and %" PRId64 " bytes of dynamic shared memory (a block has 1 to 1024 "
                     "threads)",
                     k->name, threads, dyn);
        kj_rt_raise_error(rt, &e, line, col);
    }
    if (!rt->gpu) return kj_rt_grid_max_blocks(threads, k->static_shared + dyn);
    int64_t n = 0;
    if (!kj_gpu_coop_max_blocks(rt->gpu, rt->code, k, threads, dyn, &n, &e)) kj_rt_raise_error(rt, &e, line, col);
    return n;
}

void kj_rt_cuda_profile(kj_rt *rt, int32_t start, int32_t line, int32_t col)
{
    kj_rt_error e = {0};
    if (rt->gpu && !kj_gpu_profile(rt->gpu, start != 0, &e)) kj_rt_raise_error(rt, &e, line, col);
}
