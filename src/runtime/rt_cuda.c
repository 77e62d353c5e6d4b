/* Host code's side of the GPU (rt_host.h): coherence checks before host
 * code touches an array, cuda.to_device / device_array, cuda.synchronize.
 * On the cpu target generated code does not call them; they are no-ops
 * when the context has no GPU anyway. */
#include "rt_host.h"

#include "gpu.h"

#include <stdlib.h>

void kj_rt_host_access(kj_rt *rt, void *owner, int32_t write, int32_t line, int32_t col)
{
    kj_rt_error e = {0};
    if (owner && !kj_gpu_host_access(owner, write != 0, &e)) kj_rt_raise_error(rt, &e, line, col);
}

void kj_rt_to_device(kj_rt *rt, void *owner, int32_t upload, int32_t line, int32_t col)
{
    kj_rt_error e = {0};
    if (rt->gpu && owner && !kj_gpu_to_device(rt->gpu, owner, upload != 0, &e)) kj_rt_raise_error(rt, &e, line, col);
}

void kj_rt_cuda_sync(kj_rt *rt, int32_t line, int32_t col)
{
    kj_rt_error e = {0};
    if (rt->gpu && !kj_gpu_synchronize(rt->gpu, &e)) kj_rt_raise_error(rt, &e, line, col);
}

void *kj_rt_stream_new(kj_rt *rt)
{
    void *s = rt->gpu ? kj_gpu_stream_new(rt->gpu) : NULL;
    if (!s) return NULL;
    if (rt->nstreams == rt->cap_streams) {
        rt->cap_streams = rt->cap_streams ? 2 * rt->cap_streams : 4;
        rt->streams = realloc(rt->streams, rt->cap_streams * sizeof *rt->streams);
        if (!rt->streams) abort();
    }
    rt->streams[rt->nstreams++] = s;
    return s;
}

void kj_rt_stream_sync(kj_rt *rt, void *stream, int32_t line, int32_t col)
{
    kj_rt_error e = {0};
    if (rt->gpu && !kj_gpu_stream_sync(rt->gpu, stream, &e)) kj_rt_raise_error(rt, &e, line, col);
}
