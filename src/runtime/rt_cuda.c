/* SPDX-License-Identifier: BSD-2-Clause */
/* Host code's side of the GPU (src/abi/rtfns.def): coherence checks before host
 * code touches an array, cuda.to_device / device_array, cuda.synchronize.
 * On the cpu target generated code does not call them; they are no-ops
 * when the context has no GPU anyway. */
#include "rt_host.h"

#include "events.h"
#include "gpu.h"
#include "linalg.h"

#include <stdlib.h>
#include <string.h>

void kj_rt_host_access(kj_rt *rt, void *owner, int32_t write, int32_t line, int32_t col)
{
    kj_rt_error e = {0};
    if (owner && !kj_gpu_host_access(owner, write != 0, &e)) kj_rt_raise_error(rt, &e, line, col);
}

int32_t kj_rt_on_device(kj_rt *rt, void *owner)
{
    return rt->gpu && owner && kj_gpu_device_only(owner);
}

void kj_rt_gpu_matmul(kj_rt *rt, const void *pa, const void *pb, int32_t dtype, void *out, int32_t line, int32_t col)
{
    kj_array a, b;
    kj_rt_header(&a, pa, 2, dtype);
    kj_rt_header(&b, pb, 2, dtype);
    kj_rt_error e = {0};
    if (rt->gpu && kj_gpu_gemm_ok(rt->gpu, &a, &b)) {
        kj_rt_result(rt, kj_gpu_gemm(rt->gpu, &a, &b, &e), &e, out, 2, line, col);
        return;
    }
    /* the host's product (NumPy's errors for shapes that do not match),
     * the operands brought back first as for any host code */
    if (!kj_gpu_host_access(&a, false, &e) || !kj_gpu_host_access(&b, false, &e)) kj_rt_raise_error(rt, &e, line, col);
    void *outs[1] = {out};
    kj_rt_linalg(rt, KJ_LA_MATMUL, pa, 2, dtype, pb, 2, dtype, 0, 0.0, outs, line, col);
}

void kj_rt_to_device(kj_rt *rt, void *owner, int32_t fill, int32_t line, int32_t col)
{
    kj_rt_error e = {0};
    if (rt->gpu && owner && !kj_gpu_to_device(rt->gpu, owner, (kj_gpu_fill)fill, &e)) kj_rt_raise_error(rt, &e, line, col);
}

void kj_rt_cuda_sync(kj_rt *rt, int32_t line, int32_t col)
{
    kj_rt_error e = {0};
    if (rt->gpu && !kj_gpu_synchronize(rt->gpu, &e)) kj_rt_raise_error(rt, &e, line, col);
}

void kj_rt_graph_begin(kj_rt *rt)
{
    /* not while each launch is timed by events around it (rt_launch.c) */
    if (rt->gpu && !kj_ev_on(rt->sink)) kj_gpu_graph_begin(rt->gpu);
}

void kj_rt_graph_end(kj_rt *rt, int32_t line, int32_t col)
{
    kj_rt_error e = {0};
    if (rt->gpu && !kj_gpu_graph_end(rt->gpu, &e)) kj_rt_raise_error(rt, &e, line, col);
}

/* Both C-contiguous over memory kjit arrays own, the same shape, different
 * owners: kj_gpu_copy's case. */
static bool direct(const kj_array *dst, const kj_array *src)
{
    return dst->base && src->base && dst->base != src->base && dst->ndim == src->ndim &&
           !memcmp(dst->shape, src->shape, (size_t)src->ndim * sizeof *src->shape) &&
           kj_array_is_c_contiguous(dst) && kj_array_is_c_contiguous(src);
}

void kj_rt_device_copy(kj_rt *rt, const void *a, int32_t ndim, int32_t dtype, int32_t to, void *out,
                       int32_t to_device, int32_t line, int32_t col)
{
    kj_array h;
    kj_rt_header(&h, a, ndim, dtype);
    kj_rt_error e = {0};
    kj_array *r = NULL;
    if (rt->gpu && dtype == to && h.base && kj_array_is_c_contiguous(&h)) {
        r = kj_array_empty((kj_dtype)to, ndim, h.shape, &e);
        if (r && !kj_gpu_copy(rt->gpu, r, &h, to_device != 0, &e)) kj_array_release(r), r = NULL;
        kj_rt_result(rt, r, &e, out, ndim, line, col);
        return;
    }
    /* a cast or a strided view: a host copy, then (to_device) its upload */
    if (h.base && !kj_gpu_host_access(h.base, false, &e)) kj_rt_raise_error(rt, &e, line, col);
    r = kj_array_astype(&h, (kj_dtype)to, &e);
    if (r && to_device && rt->gpu && !kj_gpu_to_device(rt->gpu, r, KJ_GPU_UPLOAD, &e)) kj_array_release(r), r = NULL;
    kj_rt_result(rt, r, &e, out, ndim, line, col);
}

void kj_rt_copy_into(kj_rt *rt, const void *dst, int32_t dst_ndim, const void *src, int32_t src_ndim,
                     int32_t dtype, int32_t line, int32_t col)
{
    kj_array d, s;
    kj_rt_header(&d, dst, dst_ndim, dtype);
    kj_rt_header(&s, src, src_ndim, dtype);
    kj_rt_error e = {0};
    if (rt->gpu && direct(&d, &s)) {
        if (!kj_gpu_copy(rt->gpu, &d, &s, false, &e)) kj_rt_raise_error(rt, &e, line, col);
        return;
    }
    if ((s.base && !kj_gpu_host_access(s.base, false, &e)) || (d.base && !kj_gpu_host_access(d.base, true, &e)))
        kj_rt_raise_error(rt, &e, line, col);
    kj_rt_assign(rt, dst, dst_ndim, src, src_ndim, (int64_t)kj_dtype_size((kj_dtype)dtype), line, col);
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
