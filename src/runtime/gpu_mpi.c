/* SPDX-License-Identifier: BSD-2-Clause */
/* MPI buffers on the GPU (gpu.h, docs/scale-out.md): the device side of
 * the array views that rt_mpi.c hands to MPI.
 *
 * A view is device-resident when MPI should take its bytes from, or put
 * them into, the device copy: for a send, the device copy is current and
 * the host copy stale (a kernel wrote it); for a receive, the device copy
 * is current (receiving there keeps it current for the next launch, where
 * receiving through the host copy would make the whole array go up again).
 * Only C-contiguous views qualify; others go through the host copy.
 *
 * Copies run on the default stream, which waits for the kernels of every
 * stream (kjit's streams are blocking ones), so a staged send reads what
 * the last launch wrote, as a download by host code does. */
#include "gpu_int.h"

#include <string.h>

static kj_mirror *mirror_of(const kj_array *a)
{
    const kj_array *owner = a->base ? a->base : a;
    return owner->mirror;
}

static size_t view_bytes(const kj_array *a) { return (size_t)kj_array_size(a) * kj_array_itemsize(a); }

/* The device address of view a (its owner's device block, at its offset). */
static CUdeviceptr device_addr(const kj_mirror *m, const kj_array *a)
{
    return m->d + (CUdeviceptr)(a->data - m->lo);
}

bool kj_gpu_mpi_on_device(const kj_array *a, bool recv)
{
    const kj_mirror *m = mirror_of(a);
    if (!m || !m->d || !m->dev_valid || (!recv && m->host_valid)) return false;
    return a->ndim > 0 && kj_array_is_c_contiguous(a);
}

bool kj_gpu_mpi_device_ptr(kj_gpu *g, const kj_array *a, void **p, kj_rt_error *e)
{
    /* which stream wrote the view is not known: wait for them all */
    if (!kj_gpu_synchronize(g, e)) return false;
    *p = (void *)(uintptr_t)device_addr(mirror_of(a), a);
    return true;
}

void kj_gpu_mpi_received(kj_array *a)
{
    kj_mirror *m = mirror_of(a);
    if (m) m->host_valid = false;
}

bool kj_gpu_view_combine(kj_gpu *g, int op, kj_array *dst, const kj_array *src, kj_rt_error *e)
{
    if (!kj_gpu_current(g, e)) return false;
    CUdeviceptr to = device_addr(mirror_of(dst), dst), from = device_addr(mirror_of(src), src);
    /* the legacy stream follows every launch that wrote either view */
    if (op) {
        if (!kj_gpu_combine_run(g, NULL, op, dst->dtype, to, from, (uint64_t)kj_array_size(dst), e)) return false;
    } else {
        CUresult r = g->cu.cuMemcpyDtoDAsync(to, from, view_bytes(dst), NULL);
        if (r != CUDA_SUCCESS) return kj_gpu_fail(g, r, "cuMemcpyDtoDAsync", e);
    }
    if (!kj_gpu_synchronize(g, e)) return false;
    kj_gpu_mpi_received(dst);
    return true;
}

bool kj_gpu_view_download(kj_gpu *g, const kj_array *a, void *h, kj_rt_error *e)
{
    if (!kj_gpu_current(g, e)) return false;
    return kj_gpu_copy_d2h(g, h, device_addr(mirror_of(a), a), view_bytes(a), "staging an MPI send", e);
}

bool kj_gpu_view_upload(kj_gpu *g, kj_array *a, const void *h, kj_rt_error *e)
{
    kj_mirror *m = mirror_of(a);
    size_t n = view_bytes(a);
    if (!kj_gpu_current(g, e) || !kj_gpu_copy_h2d(g, device_addr(m, a), h, n, e)) return false;
    if (m->host_valid) memcpy(a->data, h, n); /* the host copy stays current */
    return true;
}

void *kj_gpu_pinned_alloc(kj_gpu *g, size_t n, kj_rt_error *e)
{
    void *p = NULL;
    if (!kj_gpu_current(g, e)) return NULL;
    CUresult r = g->cu.cuMemHostAlloc(&p, n ? n : 1, 0);
    if (r != CUDA_SUCCESS) {
        kj_gpu_fail(g, r, "cuMemHostAlloc", e);
        return NULL;
    }
    return p;
}

void kj_gpu_pinned_free(kj_gpu *g, void *p)
{
    if (!p) return;
    g->cu.cuCtxSetCurrent(g->ctx);
    g->cu.cuMemFreeHost(p);
}
