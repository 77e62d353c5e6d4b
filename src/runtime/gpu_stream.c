/* SPDX-License-Identifier: BSD-2-Clause */
/* The driver's side of numba.cuda's special streams and its profiler
 * (rt_cuda_host.c): the legacy and per-thread default streams are the
 * driver's CU_STREAM_LEGACY and CU_STREAM_PER_THREAD handles, an external
 * stream the CUstream another library made; cuProfilerStart/Stop when the
 * driver has them. */
#include "../ir/builtins_cuda_host.h"
#include "gpu_int.h"

void *kj_gpu_stream_special(kj_gpu *g, int kind, intptr_t ptr)
{
    if (kind == KJ_STREAM_DEFAULT) return NULL;
    /* Work in a stream other than the default one: no more pooling of
     * device memory, as for cuda.stream() (gpu_int.h). */
    pthread_mutex_lock(&g->lock);
    g->streams = true;
    pthread_mutex_unlock(&g->lock);
    kj_gpu_pool_drain(g);
    if (kind == KJ_STREAM_LEGACY) return (void *)CU_STREAM_LEGACY;
    if (kind == KJ_STREAM_PER_THREAD) return (void *)CU_STREAM_PER_THREAD;
    return (void *)ptr;
}

bool kj_gpu_profile(kj_gpu *g, bool start, kj_rt_error *e)
{
    __typeof__(g->cu.cuProfilerStart) f = start ? g->cu.cuProfilerStart : g->cu.cuProfilerStop;
    if (!f) return true; /* a driver without the profiler's entry points: nothing to start */
    if (!kj_gpu_current(g, e)) return false;
    CUresult r = f();
    return r == CUDA_SUCCESS || kj_gpu_fail(g, r, start ? "cuProfilerStart" : "cuProfilerStop", e);
}
