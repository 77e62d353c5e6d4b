/* SPDX-License-Identifier: BSD-2-Clause */
/* Device memory shared with code outside kjit (gpu.h, docs/embedding.md
 * "Device memory"): the device address of a kjit array's device copy, handed
 * out (kjit_array_device_ptr, __cuda_array_interface__), and arrays over
 * device memory that another library allocated (kjit_array_wrap_device,
 * CuPy, PyTorch), wrapped without a copy.
 *
 * Both are kjit's usual mirrors (gpu_mem.c) with one more fact: the device
 * copy is `shared`, so another party may read or write it between kjit's
 * calls. A host read of a shared array then copies the device's bytes back
 * each time its device copy is current (kjit cannot know whether the other
 * party wrote it since), not only when kjit's own launches made the host
 * copy stale. A wrapped array is a mirror whose device memory is the
 * caller's (`foreign`: never freed or pooled by kjit) and whose host copy,
 * made by kjit at the wrap and filled on demand, starts stale. */
#include "gpu_int.h"

#include <stdlib.h>
#include <string.h>

/* The byte offsets of a view's lowest and highest element from its first,
 * and the bytes it spans (0 when empty). */
static size_t span(int ndim, const int64_t *shape, const int64_t *strides, size_t isz, int64_t *lo)
{
    int64_t min = 0, max = 0;
    for (int k = 0; k < ndim; k++) {
        if (shape[k] == 0) return *lo = 0, 0;
        int64_t s = (shape[k] - 1) * strides[k];
        if (s < 0) min += s;
        else max += s;
    }
    *lo = min;
    return (size_t)(max - min) + isz;
}

/* [d, d + n) must lie in one allocation the driver knows in this context
 * (cuMemGetAddressRange fails for host memory and, without unified
 * addressing, for another context's). */
static bool check_range(kj_gpu *g, CUdeviceptr d, size_t n, kj_rt_error *e)
{
    CUdeviceptr base = 0;
    size_t size = 0;
    CUresult r = g->cu.cuMemGetAddressRange(&base, &size, d);
    if (r != CUDA_SUCCESS) {
        const char *name = NULL;
        if (g->cu.cuGetErrorName) g->cu.cuGetErrorName(r, &name);
        return kj_rt_errorf(e, "ValueError",
                            "device pointer 0x%llx is not device memory of this GPU context (cuMemGetAddressRange: %s)",
                            (unsigned long long)d, name ? name : "error");
    }
    if (d + n > base + size)
        return kj_rt_errorf(e, "ValueError",
                            "the array at device pointer 0x%llx spans %zu bytes, past the end of its allocation "
                            "(%zu bytes from 0x%llx)",
                            (unsigned long long)d, n, size, (unsigned long long)base);
    return true;
}

kj_array *kj_gpu_wrap_device(kj_gpu *g, uint64_t dptr, kj_dtype dt, int ndim, const int64_t *shape,
                             const int64_t *strides, kj_rt_error *e)
{
    if (!kj_gpu_current(g, e)) return NULL;
    int64_t st[KJ_MAX_DIMS], s = (int64_t)kj_dtype_size(dt);
    for (int k = ndim - 1; k >= 0; k--) st[k] = strides ? strides[k] : s, s *= shape[k] ? shape[k] : 1;
    int64_t lo = 0;
    size_t bytes = span(ndim, shape, st, kj_dtype_size(dt), &lo);
    if (bytes && !check_range(g, (CUdeviceptr)dptr + (CUdeviceptr)lo, bytes, e)) return NULL;
    /* the host copy: bytes of kjit's own (pages untouched until a read),
     * owned by a byte array that the view over it keeps alive */
    int64_t nb = (int64_t)(bytes ? bytes : 1);
    kj_array *owner = kj_array_empty(KJ_DT_UINT8, 1, &nb, e);
    if (!owner) return NULL;
    kj_array *a = kj_array_wrap(owner->data - lo, dt, ndim, shape, st, e);
    if (!a) {
        kj_array_release(owner);
        return NULL;
    }
    a->base = owner; /* the view holds the reference kj_array_empty gave */
    kj_mirror *m = calloc(1, sizeof *m);
    if (!m) abort();
    m->g = kj_gpu_retain(g);
    m->lo = owner->data;
    m->bytes = bytes; /* 0 for an empty array: nothing is copied */
    m->d = (CUdeviceptr)dptr + (CUdeviceptr)lo;
    m->dev_valid = true;
    m->foreign = m->shared = true;
    owner->mirror = m;
    return a;
}

bool kj_gpu_device_ptr(kj_gpu *g, kj_array *a, uint64_t *out, kj_rt_error *e)
{
    if (!kj_gpu_current(g, e)) return false;
    kj_mirror *m = kj_gpu_mirror_current(g, a, e);
    if (!m) return false;
    /* the caller may write it from now on: the device copy is the current one */
    m->shared = true;
    m->host_valid = false;
    *out = (uint64_t)(m->d + (CUdeviceptr)(a->data - m->lo));
    return true;
}
