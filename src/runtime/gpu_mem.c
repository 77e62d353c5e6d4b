/* SPDX-License-Identifier: BSD-2-Clause */
/* Host arrays on the GPU (gpu.h, docs/cuda.md): mirrors, lazy coherence,
 * and the copies between host and device memory.
 *
 * Every host array that meets the GPU gets a record, a kj_mirror, on the
 * array that owns its memory: its device copy (allocated when first
 * needed), which side is current, and how often its host memory has been
 * copied to or from the device.
 *
 * Copies go straight between the array's own memory and the device
 * (cuMemcpyHtoD / DtoH): the driver's pageable path (~9–14 GB/s on the H100
 * host) beats staging through pinned buffers of our own (3 GB/s), and there
 * is no copy in between. The second time the same host memory is copied, it
 * is page-locked (cuMemHostRegister) for the rest of its life, and every
 * later copy runs at the bus's pinned speed (~55 GB/s). Registering costs
 * about what one pageable copy does, so memory copied once is never pinned;
 * nor are small arrays (under PIN_MIN), memory kjit did not allocate (the
 * C API's wrapped arrays: the application frees it), or more than a quarter
 * of the machine's memory in all. */
#include "gpu_int.h"

#include "rt.h"
#include "rt_host.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { PIN_MIN = 1 << 20 };

/* The array that owns the memory. A runtime header (kj_rt_header) has the
 * descriptor's owner as its base, and that owner may itself be a view that
 * the runtime made (np.split's, d.split's list elements), whose base is the
 * owner: so walk the chain (kj_array_view keeps it at most two long). */
static kj_array *owner_of(kj_array *a)
{
    while (a->base) a = a->base;
    return a;
}

/* The memory an array spans: [lo, lo + bytes). */
static void extent(const kj_array *a, char **lo, size_t *bytes)
{
    int64_t min = 0, max = 0;
    size_t isz = kj_array_itemsize(a);
    bool empty = false;
    for (int k = 0; k < a->ndim; k++) {
        if (a->shape[k] == 0) empty = true;
        int64_t span = (a->shape[k] - 1) * a->strides[k];
        if (span < 0) min += span;
        else max += span;
    }
    *lo = a->data + min;
    *bytes = empty ? 0 : (size_t)(max - min) + isz;
}

/* The record of a's owner, made (without device memory) at first need. */
static kj_mirror *record(kj_gpu *g, kj_array *a, kj_rt_error *e)
{
    a = owner_of(a);
    if (a->mirror) {
        if (a->mirror->g == g) return a->mirror;
        kj_rt_errorf(e, "RuntimeError", "an array is mirrored on another GPU context");
        return NULL;
    }
    kj_mirror *m = calloc(1, sizeof *m);
    if (!m) abort();
    extent(a, &m->lo, &m->bytes);
    m->g = kj_gpu_retain(g);
    m->host_valid = true;
    m->may_pin = a->owns_data;
    a->mirror = m;
    return m;
}

/* The size of a mirror's device block: large ones rounded up to 2 MiB, so
 * that arrays of nearly the same size share pooled blocks. */
static size_t block_size(size_t bytes)
{
    enum { ROUND = 2u << 20 };
    if (bytes < (1u << 20)) return bytes ? bytes : 1;
    return (bytes + ROUND - 1) / ROUND * ROUND;
}

/* A pooled block of exactly n bytes, or 0. */
static CUdeviceptr pool_take(kj_gpu *g, size_t n)
{
    CUdeviceptr d = 0;
    pthread_mutex_lock(&g->lock);
    for (unsigned k = 0; k < g->npool; k++)
        if (g->pool[k].bytes == n) {
            d = g->pool[k].d;
            g->pool_bytes -= n;
            g->pool[k] = g->pool[--g->npool];
            break;
        }
    pthread_mutex_unlock(&g->lock);
    return d;
}

/* Keep a freed block when there is room, else free it. */
static void pool_put(kj_gpu *g, CUdeviceptr d, size_t n)
{
    pthread_mutex_lock(&g->lock);
    bool keep = !g->streams && g->npool < POOL_BLOCKS && g->pool_bytes + n <= g->pool_cap;
    if (keep) {
        g->pool[g->npool++] = (pool_block){d, n};
        g->pool_bytes += n;
    }
    pthread_mutex_unlock(&g->lock);
    if (!keep) kj_gpu_ipc_forget(g, d), g->cu.cuMemFree(d);
}

void kj_gpu_pool_drain(kj_gpu *g)
{
    pthread_mutex_lock(&g->lock);
    for (unsigned k = 0; k < g->npool; k++) kj_gpu_ipc_forget(g, g->pool[k].d), g->cu.cuMemFree(g->pool[k].d);
    g->npool = 0;
    g->pool_bytes = 0;
    pthread_mutex_unlock(&g->lock);
}

/* m's device memory, allocated at first need (from the pool when it has a
 * block of the size). */
static bool device_memory(kj_gpu *g, kj_mirror *m, kj_rt_error *e)
{
    if (m->d) return true;
    size_t n = block_size(m->bytes);
    if ((m->d = pool_take(g, n))) return true;
    CUresult r = g->cu.cuMemAlloc(&m->d, n);
    if (r == CUDA_ERROR_OUT_OF_MEMORY && g->npool) { /* what the pool holds may be enough */
        kj_gpu_pool_drain(g);
        r = g->cu.cuMemAlloc(&m->d, n);
    }
    if (r == CUDA_SUCCESS) return true;
    m->d = 0;
    if (r != CUDA_ERROR_OUT_OF_MEMORY) return kj_gpu_fail(g, r, "cuMemAlloc", e);
    size_t fb = 0, tb = 0;
    g->cu.cuMemGetInfo(&fb, &tb);
    return kj_rt_errorf(e, "MemoryError", "out of device memory: %zu bytes requested, %zu of %zu bytes free", m->bytes,
                        fb, tb);
}

/* Keep the host memory of mirror m (all of `data`, which kjit allocated)
 * in the host pool when it is large and there is room; false otherwise. */
static bool host_keep(kj_gpu *g, kj_mirror *m, void *data)
{
    if (!data || data != m->lo || !m->may_pin || m->bytes < PIN_MIN) return false;
    pthread_mutex_lock(&g->lock);
    size_t unpinned = m->pinned ? 0 : m->bytes; /* pinned ones are in pinned_bytes already */
    bool keep = g->nhpool < HOST_BLOCKS && g->hpool_bytes + g->pinned_bytes + unpinned <= g->pin_cap;
    if (keep) {
        g->hpool[g->nhpool++] = (host_block){m->lo, m->bytes, m->copies, m->pinned};
        g->hpool_bytes += unpinned;
    }
    pthread_mutex_unlock(&g->lock);
    return keep;
}

bool kj_gpu_mirror_free(kj_mirror *m, void *data)
{
    if (!m) return false;
    kj_gpu *g = m->g;
    g->cu.cuCtxSetCurrent(g->ctx);
    if (m->d && !m->foreign) pool_put(g, m->d, block_size(m->bytes));
    bool kept = host_keep(g, m, data);
    if (m->pinned && !kept) {
        g->cu.cuMemHostUnregister(m->lo);
        pthread_mutex_lock(&g->lock);
        g->pinned_bytes -= m->bytes;
        pthread_mutex_unlock(&g->lock);
    }
    kj_gpu_release(g); /* may end g, which frees its pools */
    free(m);
    return kept;
}

void kj_gpu_host_pool_drain(kj_gpu *g)
{
    pthread_mutex_lock(&g->lock);
    for (unsigned k = 0; k < g->nhpool; k++) {
        host_block *b = &g->hpool[k];
        if (b->pinned) {
            g->cu.cuMemHostUnregister(b->p);
            g->pinned_bytes -= b->bytes;
        }
        free(b->p);
    }
    g->nhpool = 0;
    g->hpool_bytes = 0;
    pthread_mutex_unlock(&g->lock);
}

kj_array *kj_gpu_host_array(kj_gpu *g, kj_dtype dt, int ndim, const int64_t *shape)
{
    size_t n = kj_dtype_size(dt);
    for (int k = 0; k < ndim; k++) {
        if (shape[k] <= 0 || n > SIZE_MAX / (size_t)shape[k]) return NULL;
        n *= (size_t)shape[k];
    }
    if (n < PIN_MIN) return NULL;
    host_block b = {0};
    pthread_mutex_lock(&g->lock);
    for (unsigned k = 0; k < g->nhpool; k++)
        if (g->hpool[k].bytes == n) {
            b = g->hpool[k];
            g->hpool[k] = g->hpool[--g->nhpool];
            if (!b.pinned) g->hpool_bytes -= n;
            break;
        }
    pthread_mutex_unlock(&g->lock);
    if (!b.p) return NULL;
    kj_array *a = kj_array_adopt(b.p, dt, ndim, shape);
    kj_rt_error e = {0};
    kj_mirror *m = record(g, a, &e);
    if (!m) { /* cannot happen for a new array; keep the memory right anyway */
        kj_array_release(a);
        return NULL;
    }
    m->copies = b.copies; /* its page-locking and history go with the memory */
    m->pinned = b.pinned;
    return a;
}

/* ---- copies ---- */

void kj_gpu_set_sink(kj_gpu *g, const kj_ev_sink *sink)
{
    pthread_mutex_lock(&g->lock);
    g->sink = *sink;
    pthread_mutex_unlock(&g->lock);
}

static void count(xfer_stats *s, size_t n, double t0)
{
    s->count++;
    s->bytes += n;
    s->seconds += kj_rt_perf_counter() - t0;
}

/* A copy of n bytes started at t0: counted, and reported as an event. */
static void count_copy(kj_gpu *g, xfer_stats *s, kj_ev_kind kind, size_t n, double t0)
{
    double dt = kj_rt_perf_counter() - t0;
    count(s, n, t0);
    kj_ev_emit(&g->sink, kind, NULL, n, dt, false);
}

/* m's host memory is about to be copied: page-lock it the second time
 * (see the top of this file). A failed registration is not retried; the
 * copies then stay pageable. g->lock held. */
static void note_copy(kj_gpu *g, kj_mirror *m)
{
    if (!m || m->pinned || !m->may_pin || ++m->copies != 2) return;
    if (m->bytes < PIN_MIN || g->pinned_bytes + m->bytes > g->pin_cap) return;
    double t0 = kj_rt_perf_counter();
    if (g->cu.cuMemHostRegister(m->lo, m->bytes, 0) != CUDA_SUCCESS) return;
    m->pinned = true;
    g->pinned_bytes += m->bytes;
    count(&g->pins, m->bytes, t0);
}

/* n bytes from host memory h (of record hm) to device address d. */
static bool h2d(kj_gpu *g, kj_mirror *hm, CUdeviceptr d, const char *h, size_t n, kj_rt_error *e)
{
    pthread_mutex_lock(&g->lock);
    note_copy(g, hm);
    double t0 = kj_rt_perf_counter();
    CUresult r = n ? g->cu.cuMemcpyHtoD(d, h, n) : CUDA_SUCCESS;
    count_copy(g, &g->h2d, KJ_EV_H2D, n, t0);
    pthread_mutex_unlock(&g->lock);
    return r == CUDA_SUCCESS || kj_gpu_fail(g, r, "cuMemcpyHtoD", e);
}

/* n bytes from device address d to host memory h (of record hm); `why`
 * names what needed them, for a fault of an earlier launch found here. */
static bool d2h(kj_gpu *g, kj_mirror *hm, char *h, CUdeviceptr d, size_t n, const char *why, kj_rt_error *e)
{
    pthread_mutex_lock(&g->lock);
    note_copy(g, hm);
    double t0 = kj_rt_perf_counter();
    CUresult r = n ? g->cu.cuMemcpyDtoH(h, d, n) : CUDA_SUCCESS;
    count_copy(g, &g->d2h, KJ_EV_D2H, n, t0);
    pthread_mutex_unlock(&g->lock);
    if (r == CUDA_SUCCESS) return true;
    kj_gpu_fail(g, r, "cuMemcpyDtoH", e);
    kj_gpu_found_after(g, e, why);
    return false;
}

static bool d2d(kj_gpu *g, CUdeviceptr to, CUdeviceptr from, size_t n, kj_rt_error *e)
{
    double t0 = kj_rt_perf_counter();
    CUresult r = n ? g->cu.cuMemcpyDtoD(to, from, n) : CUDA_SUCCESS;
    pthread_mutex_lock(&g->lock);
    count_copy(g, &g->d2d, KJ_EV_D2D, n, t0);
    pthread_mutex_unlock(&g->lock);
    if (r == CUDA_SUCCESS) return true;
    kj_gpu_fail(g, r, "cuMemcpyDtoD", e);
    kj_gpu_found_after(g, e, "copying on the device");
    return false;
}

/* ---- coherence ---- */

/* The device copy of m, current. */
static bool on_device(kj_gpu *g, kj_mirror *m, kj_rt_error *e)
{
    if (m->dev_valid) return true;
    if (!device_memory(g, m, e) || !h2d(g, m, m->d, m->lo, m->bytes, e)) return false;
    m->dev_valid = true;
    return true;
}

kj_mirror *kj_gpu_mirror_current(kj_gpu *g, kj_array *a, kj_rt_error *e)
{
    kj_mirror *m = record(g, a, e);
    return m && on_device(g, m, e) ? m : NULL;
}

bool kj_gpu_host_access(kj_array *a, bool write, kj_rt_error *e)
{
    kj_mirror *m = owner_of(a)->mirror;
    if (!m) return true;
    if (!m->host_valid || (m->shared && m->dev_valid)) { /* gpu_foreign.c: others may have written it */
        if (!kj_gpu_current(m->g, e) || !d2h(m->g, m, m->lo, m->d, m->bytes, "reading the array", e)) return false;
        m->host_valid = true;
    }
    if (write) m->dev_valid = false;
    return true;
}

bool kj_gpu_device_only(kj_array *a)
{
    const kj_mirror *m = owner_of(a)->mirror;
    return m && m->dev_valid && !m->host_valid;
}

bool kj_gpu_to_device(kj_gpu *g, kj_array *a, kj_gpu_fill fill, kj_rt_error *e)
{
    if (!kj_gpu_current(g, e)) return false;
    kj_mirror *m = record(g, a, e);
    if (!m) return false;
    if (fill == KJ_GPU_UPLOAD) return on_device(g, m, e);
    if (!device_memory(g, m, e)) return false;
    CUresult r = m->bytes && fill == KJ_GPU_ZERO ? g->cu.cuMemsetD8(m->d, 0, m->bytes) : CUDA_SUCCESS;
    if (r != CUDA_SUCCESS) return kj_gpu_fail(g, r, "cuMemsetD8", e);
    m->dev_valid = true;
    if (fill == KJ_GPU_UNSET) m->host_valid = false;
    return true;
}

/* dst is all of its owner's memory: writing it leaves nothing of the
 * owner's old contents that one side would still need. */
static bool whole(const kj_mirror *m, const kj_array *a, size_t n) { return a->data == m->lo && n == m->bytes; }

bool kj_gpu_copy(kj_gpu *g, kj_array *dst, kj_array *src, bool to_device, kj_rt_error *e)
{
    if (!kj_gpu_current(g, e)) return false;
    size_t n = (size_t)kj_array_size(src) * kj_array_itemsize(src);
    kj_mirror *sm = record(g, src, e), *dm = sm ? record(g, dst, e) : NULL;
    if (!dm) return false;
    /* to the device: from the device copy when it is current; to the host
     * too when the array is big (a transfer into memory that is, or will
     * be, page-locked beats a memcpy), else from the host copy */
    bool from_dev = sm->dev_valid && (to_device || !sm->host_valid || n >= PIN_MIN);
    CUdeviceptr sd = from_dev ? sm->d + (CUdeviceptr)(src->data - sm->lo) : 0;
    bool all = whole(dm, dst, n);
    if (to_device) {
        if (!all && !on_device(g, dm, e)) return false; /* the rest of the owner must be current there */
        if (!device_memory(g, dm, e)) return false;
        CUdeviceptr dd = dm->d + (CUdeviceptr)(dst->data - dm->lo);
        if (!(from_dev ? d2d(g, dd, sd, n, e) : h2d(g, sm, dd, src->data, n, e))) return false;
        dm->dev_valid = true;
        dm->host_valid = false;
        return true;
    }
    if (!all && !kj_gpu_host_access(dst, true, e)) return false;
    if (from_dev) {
        if (!d2h(g, dm, dst->data, sd, n, "copying to the host", e)) return false;
    } else {
        memcpy(dst->data, src->data, n);
    }
    dm->host_valid = true;
    dm->dev_valid = false;
    return true;
}

size_t kj_gpu_default_pin_cap(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (size_t)pages * (size_t)size / 4 : (size_t)1 << 30;
}

/* For gpu_mpi.c: the copies above, counted and reported the same way. */
bool kj_gpu_copy_h2d(kj_gpu *g, CUdeviceptr d, const void *h, size_t n, kj_rt_error *e)
{
    return h2d(g, NULL, d, h, n, e);
}

bool kj_gpu_copy_d2h(kj_gpu *g, void *h, CUdeviceptr d, size_t n, const char *why, kj_rt_error *e)
{
    return d2h(g, NULL, h, d, n, why, e);
}
