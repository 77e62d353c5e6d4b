/* SPDX-License-Identifier: BSD-2-Clause */
/* Device buffers GPU to GPU between the ranks of one node, through CUDA
 * IPC (gpu.h, docs/scale-out.md), without a CUDA-aware MPI.
 *
 * The sender exports: the IPC handle of the allocation that holds the view,
 * the view's offset and size, and an interprocess event that follows the
 * launches that may have written it: recorded in their stream when they
 * were all in one (kj_mirror.write_s), else in the legacy default stream,
 * which every launch made before it precedes; the host does not wait. A
 * kernel that another stream runs meanwhile (the interior update of a halo
 * exchange) is not waited for. The
 * receiver pulls: it maps the allocation (once: opened handles are cached,
 * as cuIpcOpenMemHandle costs far more than a copy), makes its own copy
 * stream wait for the sender's event and for the receiver's launches made
 * before the receive was posted (its fence), copies peer to peer (over
 * NVLink where the GPUs have it), and waits for that copy only. The copy
 * stream is a non-blocking one, so that a kernel launched after the receive
 * was posted (the interior update of a halo exchange) runs beside it.
 *
 * Called from the run's host thread only (MPI calls are host code). */
#include "gpu_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { IPC_EVENTS = 64, IPC_MAPS = 64, IPC_OPENED_EVENTS = 256, IPC_EXPORTS = 64 };

/* An allocation of ours with its handle (cuIpcGetMemHandle is a call into
 * the kernel driver: asked once per allocation, forgotten when it is freed). */
typedef struct ipc_export {
    CUdeviceptr base;
    CUipcMemHandle h;
} ipc_export;

typedef struct ipc_event {
    CUevent ev;
    CUipcEventHandle h;
    bool busy;
} ipc_event;

typedef struct ipc_map {
    CUipcMemHandle h;
    CUdeviceptr p;
    uint64_t used; /* the last pull that used it, for closing the oldest */
} ipc_map;

typedef struct ipc_opened_event {
    CUipcEventHandle h;
    CUevent ev;
} ipc_opened_event;

typedef struct kj_gpu_ipc {
    CUstream copy;              /* non-blocking */
    ipc_event ev[IPC_EVENTS];   /* ours: exports and fences */
    unsigned nev;
    ipc_export ex[IPC_EXPORTS]; /* ours, handles asked for */
    unsigned nex;
    ipc_map maps[IPC_MAPS];     /* peers' allocations mapped here */
    unsigned nmaps;
    ipc_opened_event oev[IPC_OPENED_EVENTS]; /* peers' events opened here */
    unsigned noev;
    uint64_t clock;
    char node[40]; /* this machine's boot id: ranks that share it may share GPUs */
} kj_gpu_ipc;

static void read_node(char node[40])
{
    memset(node, 0, 40);
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (!f) return;
    if (!fgets(node, 40, f)) memset(node, 0, 40);
    fclose(f);
}

static kj_gpu_ipc *state(kj_gpu *g, kj_rt_error *e)
{
    if (g->ipc) return g->ipc;
    if (!kj_gpu_current(g, e)) return NULL;
    kj_gpu_ipc *s = calloc(1, sizeof *s);
    if (!s) abort();
    CUresult r = g->cu.cuStreamCreate(&s->copy, CU_STREAM_NON_BLOCKING);
    if (r != CUDA_SUCCESS) {
        free(s);
        kj_gpu_fail(g, r, "cuStreamCreate", e);
        return NULL;
    }
    read_node(s->node);
    return g->ipc = s;
}

void kj_gpu_ipc_free(kj_gpu *g)
{
    kj_gpu_ipc *s = g->ipc;
    if (!s) return;
    for (unsigned k = 0; k < s->nmaps; k++) g->cu.cuIpcCloseMemHandle(s->maps[k].p);
    for (unsigned k = 0; k < s->noev; k++) g->cu.cuEventDestroy(s->oev[k].ev);
    for (unsigned k = 0; k < s->nev; k++) g->cu.cuEventDestroy(s->ev[k].ev);
    g->cu.cuStreamDestroy(s->copy);
    free(s);
    g->ipc = NULL;
}

/* One of our interprocess events, recorded on `stream` now: its slot, or -1. */
static int event_record(kj_gpu *g, kj_gpu_ipc *s, CUstream stream, kj_rt_error *e)
{
    unsigned k = 0;
    while (k < s->nev && s->ev[k].busy) k++;
    if (k == IPC_EVENTS) {
        kj_rt_errorf(e, "RuntimeError", "more than %d device buffers in flight between ranks", IPC_EVENTS);
        return -1;
    }
    ipc_event *v = &s->ev[k];
    if (k == s->nev) {
        CUresult r = g->cu.cuEventCreate(&v->ev, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING);
        if (r == CUDA_SUCCESS) r = g->cu.cuIpcGetEventHandle(&v->h, v->ev);
        if (r != CUDA_SUCCESS) return kj_gpu_fail(g, r, "cuIpcGetEventHandle", e), -1;
        s->nev++;
    }
    CUresult r = g->cu.cuEventRecord(v->ev, stream);
    if (r != CUDA_SUCCESS) return kj_gpu_fail(g, r, "cuEventRecord", e), -1;
    v->busy = true;
    return (int)k;
}

void kj_gpu_ipc_release(kj_gpu *g, int slot)
{
    if (g->ipc && slot >= 0 && (unsigned)slot < g->ipc->nev) g->ipc->ev[slot].busy = false;
}

static CUresult handle_of(kj_gpu *g, kj_gpu_ipc *s, CUdeviceptr base, CUipcMemHandle *h)
{
    for (unsigned k = 0; k < s->nex; k++)
        if (s->ex[k].base == base) return *h = s->ex[k].h, CUDA_SUCCESS;
    CUresult r = g->cu.cuIpcGetMemHandle(h, base);
    if (r != CUDA_SUCCESS) return r;
    if (s->nex == IPC_EXPORTS) s->nex--; /* full: the newest replaces the last */
    s->ex[s->nex++] = (ipc_export){base, *h};
    return CUDA_SUCCESS;
}

void kj_gpu_ipc_forget(kj_gpu *g, CUdeviceptr d)
{
    kj_gpu_ipc *s = g->ipc;
    if (!s) return;
    for (unsigned k = 0; k < s->nex; k++)
        if (s->ex[k].base == d) s->ex[k--] = s->ex[--s->nex];
}

int kj_gpu_ipc_export(kj_gpu *g, const kj_array *a, kj_gpu_ipc_desc *d, kj_rt_error *e)
{
    kj_gpu_ipc *s = state(g, e);
    if (!s) return -1;
    const kj_array *owner = a->base ? a->base : a;
    const kj_mirror *m = owner->mirror;
    CUdeviceptr at = m->d + (CUdeviceptr)(a->data - m->lo), base = 0;
    memset(d, 0, sizeof *d);
    CUresult r = g->cu.cuMemGetAddressRange(&base, NULL, at);
    if (r == CUDA_SUCCESS) r = handle_of(g, s, base, &d->mem);
    if (r != CUDA_SUCCESS) return kj_gpu_fail(g, r, "cuIpcGetMemHandle", e), -1;
    d->offset = at - base;
    d->bytes = (uint64_t)kj_array_size(a) * kj_array_itemsize(a);
    memcpy(d->node, s->node, sizeof d->node);
    /* after the launches that may have written the view: those of its one
     * stream, else the legacy stream's, which follows every launch so far */
    int slot = event_record(g, s, m->writes == 1 ? m->write_s : NULL, e);
    if (slot >= 0) d->ev = s->ev[slot].h;
    return slot;
}

int kj_gpu_ipc_fence(kj_gpu *g, const kj_array *a, kj_rt_error *e)
{
    kj_gpu_ipc *s = state(g, e);
    const kj_array *owner = a->base ? a->base : a;
    const kj_mirror *m = owner->mirror;
    /* the launches that used the buffer: those of its one stream, or all */
    return s ? event_record(g, s, m && m->uses == 1 ? m->use_s : NULL, e) : -1;
}

/* The peer's allocation of handle h, mapped here (cached). */
static CUresult map_of(kj_gpu *g, kj_gpu_ipc *s, const CUipcMemHandle *h, CUdeviceptr *p)
{
    ipc_map *old = NULL;
    for (unsigned k = 0; k < s->nmaps; k++) {
        if (!memcmp(&s->maps[k].h, h, sizeof *h)) {
            s->maps[k].used = ++s->clock;
            *p = s->maps[k].p;
            return CUDA_SUCCESS;
        }
        if (!old || s->maps[k].used < old->used) old = &s->maps[k];
    }
    ipc_map *slot = s->nmaps < IPC_MAPS ? &s->maps[s->nmaps] : old;
    if (slot == old) g->cu.cuIpcCloseMemHandle(old->p); /* the least recently used */
    CUresult r = g->cu.cuIpcOpenMemHandle(p, *h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
    if (r != CUDA_SUCCESS) {
        if (slot == old) *old = s->maps[--s->nmaps]; /* its mapping is gone */
        return r;
    }
    *slot = (ipc_map){*h, *p, ++s->clock};
    if (slot != old) s->nmaps++;
    return CUDA_SUCCESS;
}

static CUresult event_of(kj_gpu *g, kj_gpu_ipc *s, const CUipcEventHandle *h, CUevent *ev)
{
    for (unsigned k = 0; k < s->noev; k++)
        if (!memcmp(&s->oev[k].h, h, sizeof *h)) return *ev = s->oev[k].ev, CUDA_SUCCESS;
    CUresult r = g->cu.cuIpcOpenEventHandle(ev, *h);
    if (r != CUDA_SUCCESS || s->noev == IPC_OPENED_EVENTS) return r; /* full: used once, left open */
    s->oev[s->noev++] = (ipc_opened_event){*h, *ev};
    return CUDA_SUCCESS;
}

int kj_gpu_ipc_pull(kj_gpu *g, const kj_gpu_ipc_desc *d, kj_array *dst, void *host, int fence, int combine,
                    kj_rt_error *e)
{
    kj_gpu_ipc *s = state(g, e);
    if (!s) return -1;
    if (!s->node[0] || memcmp(d->node, s->node, sizeof s->node)) return 0; /* another machine */
    CUdeviceptr src = 0;
    CUevent ev = NULL;
    if (map_of(g, s, &d->mem, &src) != CUDA_SUCCESS) return 0; /* a GPU this one cannot reach */
    CUresult r = event_of(g, s, &d->ev, &ev);
    if (r == CUDA_SUCCESS) r = g->cu.cuStreamWaitEvent(s->copy, ev, 0);
    if (r == CUDA_SUCCESS && fence >= 0) r = g->cu.cuStreamWaitEvent(s->copy, s->ev[fence].ev, 0);
    src += (CUdeviceptr)d->offset;
    if (r == CUDA_SUCCESS && host) r = g->cu.cuMemcpyDtoHAsync(host, src, (size_t)d->bytes, s->copy);
    else if (r == CUDA_SUCCESS) {
        const kj_array *owner = dst->base ? dst->base : dst;
        const kj_mirror *m = owner->mirror;
        CUdeviceptr to = m->d + (CUdeviceptr)(dst->data - m->lo);
        /* a reduction reads the peer's memory where it is: no copy first */
        if (combine) {
            kj_dtype dt = dst->dtype;
            if (!kj_gpu_combine_run(g, s->copy, combine, dt, to, src, d->bytes / kj_dtype_size(dt), e)) return -1;
        } else {
            r = g->cu.cuMemcpyDtoDAsync(to, src, (size_t)d->bytes, s->copy);
        }
    }
    if (r == CUDA_SUCCESS) r = g->cu.cuStreamSynchronize(s->copy);
    if (r != CUDA_SUCCESS) return kj_gpu_fail(g, r, "a copy from a peer GPU (CUDA IPC)", e), -1;
    return 1;
}
