/* SPDX-License-Identifier: BSD-2-Clause */
/* Inside the GPU runtime: the context and mirror structures shared by
 * gpu.c (the context, code, launches, streams, events) and gpu_mem.c
 * (mirrors and the copies between host and device). Nothing outside those
 * two files includes this. */
#ifndef KJ_GPU_INT_H
#define KJ_GPU_INT_H

#include "events.h"
#include "gpu.h"

#include <pthread.h>
#include <stdatomic.h>

enum { MAX_KSTATS = 64, POOL_BLOCKS = 16, HOST_BLOCKS = 8 };

/* A block of device memory kept for reuse (see kj_gpu.pool). */
typedef struct pool_block {
    CUdeviceptr d;
    size_t bytes;
} pool_block;

/* Host memory of a freed array kept for the next ufunc result of its size
 * (see kj_gpu.hpool), with what its mirror knew of it. */
typedef struct host_block {
    char *p;
    size_t bytes;
    unsigned copies;
    bool pinned;
} host_block;

typedef struct kstat {
    char name[64];
    uint64_t launches, index32; /* index32: of them, through the 32-bit index entry (gpu_spec.c) */
} kstat;

typedef struct xfer_stats {
    uint64_t count, bytes;
    double seconds;
} xfer_stats;

struct kj_gpu {
    kj_cu cu;
    CUdevice dev;
    int ordinal; /* the one opened */
    CUcontext ctx;
    kj_cu_props props;
    atomic_int refs;
    pthread_mutex_t lock; /* stats, the pinned total, the pools */
    bool poisoned;        /* a sticky error: the primary context is reset at the end */
    FILE *stats;
    kj_ev_sink sink; /* copies reported as events (kj_gpu_set_sink); fn NULL: none */
    xfer_stats h2d, d2h, d2d, pins;
    size_t pinned_bytes, pin_cap; /* host memory page-locked now, and the most that may be */
    /* Device memory of freed mirrors, kept for the next mirror of the same
     * (rounded) size, as CuPy's pool does: cuMemFree waits for the device
     * and cuMemAlloc costs about 0.1 ms per 400 MB. At most POOL_BLOCKS
     * blocks and pool_cap bytes; given back when an allocation fails and at
     * the end. Not used once the program has made a stream: a block freed
     * while a kernel in one stream still reads it could be written by a
     * kernel in another. Under lock. */
    pool_block pool[POOL_BLOCKS];
    unsigned npool;
    size_t pool_bytes, pool_cap;
    bool streams;
    /* The host memory of freed arrays that met the GPU, large ones that
     * kjit allocated, kept (page-locked if they were) for the next ufunc
     * result of the same size: a program that makes a new 400 MB result per
     * call then reuses memory already touched and pinned instead of
     * faulting in fresh pages and copying through the driver's pageable
     * path. At most HOST_BLOCKS blocks within pin_cap (with the pinned
     * total); freed at the end. Under lock. */
    host_block hpool[HOST_BLOCKS];
    unsigned nhpool;
    size_t hpool_bytes;
    struct kj_gpu_ipc *ipc; /* CUDA IPC with peer ranks (gpu_ipc.c); NULL until used */
    struct kj_gpu_combine *combine; /* MPI reductions' kernels (gpu_combine.c); NULL until used */
    struct kj_gpu_blas *blas;       /* cuBLAS (gpu_blas.c); NULL until a product of device arrays */
    bool no_blas;                   /* cuBLAS could not be opened: such products run on the host */
    char blas_why[512];             /* why not, for KJIT_STATS */
    double open_s, ptx_s[4], link_s, load_s;
    unsigned compiles, cached;
    kstat k[MAX_KSTATS];
    unsigned nk;
    /* CUDA graphs of host loops (gpu_graph.c); NULL until a loop is graphed */
    struct kj_gpu_graph *graph;
    bool no_graphs; /* KJIT_NO_GRAPHS=1 or KJIT_NO_SPECIALISE=1 */
    struct {
        uint64_t built, replays, launches;
    } graphs;
    /* The last launch, named in errors found later; kept raw, formatted
     * only for an error (the launch path stays short). Under last_busy, a
     * flag a launch takes without waiting (gpu.c, count_launch), not under
     * lock. */
    atomic_bool last_busy;
    struct {
        char name[64];
        const char *file;
        int32_t line;
        int64_t cfg[6];
    } last;
};

/* The GPU side of one host array (on the array that owns the memory). */
struct kj_mirror {
    kj_gpu *g;
    CUdeviceptr d; /* its device copy; 0 until one is needed */
    char *lo;      /* the host memory it mirrors: the owner's whole extent */
    size_t bytes;
    bool host_valid, dev_valid;
    unsigned copies;   /* of the host memory, to or from the device */
    bool may_pin;      /* the array owns its memory (kjit allocated it) */
    bool pinned;       /* page-locked (cuMemHostRegister) */
    /* gpu_foreign.c: the device copy is seen by code outside kjit (a host
     * read copies it back whenever it is current), and its memory is not
     * kjit's (never freed or pooled) */
    bool shared, foreign;
    /* The stream of the launches that used the device copy (any argument)
     * and of those that may have written it (not read-only), while they
     * were all in one: CUDA IPC's events (gpu_ipc.c) then follow those
     * launches only, not every stream's (the interior update that a halo
     * exchange overlaps). uses/writes: 0 none yet, 1 one stream, 2 several. */
    CUstream use_s, write_s;
    unsigned char uses, writes;
};

/* Note a launch in stream s on the mirror (kj_mirror.use_s/write_s). */
static inline void kj_mirror_launched(kj_mirror *m, CUstream s, bool write)
{
    if (m->uses == 0) m->use_s = s, m->uses = 1;
    else if (m->use_s != s) m->uses = 2;
    if (!write) return;
    if (m->writes == 0) m->write_s = s, m->writes = 1;
    else if (m->write_s != s) m->writes = 2;
}

/* The driver does not say where in a kernel a fault happened. */
#define KJ_GPU_FAULT_HINT "; rerun with --boundscheck to find an index out of range"

/* e = "cuXxx: CUDA_ERROR_...: ..." for r (a sticky error poisons g); false. */
bool kj_gpu_fail(kj_gpu *g, CUresult r, const char *what, kj_rt_error *e);
/* Make g's context current on this thread. */
bool kj_gpu_current(kj_gpu *g, kj_rt_error *e);
/* Add " (in kernel 'K' launched at f.k:12 ...; found WHY)" to e: a fault of
 * an earlier launch that a later call of the driver reported. */
void kj_gpu_found_after(kj_gpu *g, kj_rt_error *e, const char *why);

/* The mirror of owner array a, its device copy current (allocated and
 * uploaded as needed): what a launch passes (gpu_mem.c). */
kj_mirror *kj_gpu_mirror_current(kj_gpu *g, kj_array *a, kj_rt_error *e);
/* n bytes between host memory h that is not an array's (a staging buffer)
 * and device address d, counted in the transfer stats (gpu_mem.c). */
bool kj_gpu_copy_h2d(kj_gpu *g, CUdeviceptr d, const void *h, size_t n, kj_rt_error *e);
bool kj_gpu_copy_d2h(kj_gpu *g, void *h, CUdeviceptr d, size_t n, const char *why, kj_rt_error *e);
/* The most host memory to page-lock: a quarter of the machine's. */
size_t kj_gpu_default_pin_cap(void);
/* Free every block of the device memory pool (g's context current). */
void kj_gpu_pool_drain(kj_gpu *g);
/* Close what CUDA IPC opened and free its events and stream (gpu_ipc.c). */
void kj_gpu_ipc_free(kj_gpu *g);
/* dst[i] = op(dst[i], src[i]) for n elements of dt, on stream s; the
 * kernel module is kept until kj_gpu_combine_free (gpu_combine.c). */
bool kj_gpu_combine_run(kj_gpu *g, CUstream s, int op, kj_dtype dt, CUdeviceptr dst, CUdeviceptr src, uint64_t n,
                        kj_rt_error *e);
void kj_gpu_combine_free(kj_gpu *g);
/* Destroy the cuBLAS handle and close the library (gpu_blas.c). */
void kj_gpu_blas_free(kj_gpu *g);
/* Device allocation d is being freed: forget its exported handle. */
void kj_gpu_ipc_forget(kj_gpu *g, CUdeviceptr d);
/* Free every block of the host memory pool (unregistering pinned ones). */
void kj_gpu_host_pool_drain(kj_gpu *g);

/* A launch in a graphed host loop (gpu_graph.c), checked and marshalled:
 * n parameters, slot[j] pointing at size[j] bytes. *taken: it will run
 * through a graph (counted, not yet launched); otherwise the caller
 * launches it plainly. False with e on a driver error. */
bool kj_gpu_graph_take(kj_gpu *g, CUfunction f, const int64_t *cfg, void **slot, const uint32_t *size, unsigned n,
                       bool *taken, kj_rt_error *e);
/* Device memory that launches read outside their parameters (a module
 * slot's global, gpu.c) is about to change: the launches a graph took and
 * has not run yet are run first, plainly (they must see what was there);
 * with none pending the graph stays. False with e on a driver error. */
bool kj_gpu_graph_settle(kj_gpu *g, kj_rt_error *e);
void kj_gpu_graph_free(kj_gpu *g);

#endif
