/* SPDX-License-Identifier: BSD-2-Clause */
/* numba.cuda's special streams and its profiler in host code
 * (builtins_cuda_host.h): the driver's handles on the cuda target
 * (gpu_stream.c); on the cpu targets every stream is the default one (NULL,
 * as cuda.stream() is there: kernels run synchronously) and there is no
 * profiler to start. */
#include "../abi/abi.h"
#include "gpu.h"
#include "rt_host.h"

void *kj_rt_cuda_stream(kj_rt *rt, int32_t kind, int64_t ptr)
{
    return rt->gpu ? kj_gpu_stream_special(rt->gpu, kind, (intptr_t)ptr) : NULL;
}

void kj_rt_cuda_profile(kj_rt *rt, int32_t start, int32_t line, int32_t col)
{
    kj_rt_error e = {0};
    if (rt->gpu && !kj_gpu_profile(rt->gpu, start != 0, &e)) kj_rt_raise_error(rt, &e, line, col);
}
