/* The GPU side of the runtime (gpu.h): the device context, loaded code,
 * launches with argument marshalling, lazy coherence of host arrays and
 * their device mirrors, events, and the KJIT_STATS counters. */
#include "gpu.h"

#include "../abi/abi.h"
#include "rt.h"
#include "rt_host.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

enum {
    STAGE_BYTES = 8 << 20,  /* one pinned staging buffer (two alternate) */
    DIRECT_BYTES = 64 << 10, /* smaller transfers go straight from pageable memory */
    MAX_KSTATS = 64,
};

typedef struct kstat {
    char name[64];
    uint64_t launches;
} kstat;

typedef struct xfer_stats {
    uint64_t count, bytes;
    double seconds;
} xfer_stats;

struct kj_gpu {
    kj_cu cu;
    CUdevice dev;
    CUcontext ctx;
    kj_cu_props props;
    atomic_int refs;
    pthread_mutex_t lock; /* staging buffers, stats, the last launch */
    void *stage[2];
    CUevent stage_ev[2];
    bool poisoned; /* a sticky error: the primary context is reset at the end */
    FILE *stats;
    xfer_stats h2d, d2h;
    double open_s, ptx_s, link_s, load_s;
    unsigned compiles, cached;
    kstat k[MAX_KSTATS];
    unsigned nk;
    /* The last launch, named in errors found later; kept raw, formatted
     * only for an error (the launch path stays short). */
    struct {
        char name[64];
        const char *file;
        int32_t line;
        int64_t cfg[6];
    } last;
};

typedef struct code_fn {
    char *symbol;
    CUfunction f;
    int max_threads, static_shared, regs; /* the compiled kernel's own limits */
    int dyn_shared_set;                   /* the dynamic shared bytes it has been allowed */
} code_fn;

struct kj_gpu_code {
    kj_gpu *g;
    CUmodule mod;
    CUdeviceptr err; /* the module's error record, 0 when it cannot raise */
    pthread_mutex_t lock;
    code_fn *fns;
    size_t nfns, cap;
};

struct kj_mirror {
    kj_gpu *g;
    CUdeviceptr d;
    char *lo;     /* the host address d mirrors */
    size_t bytes; /* of the owner's whole memory */
    bool host_valid, dev_valid;
};

/* The driver does not say where in a kernel a fault happened. */
#define FAULT_HINT "; rerun with --boundscheck to find an index out of range"

/* Errors after which CUDA's context, and the process's use of the GPU,
 * cannot go on ("sticky": NVIDIA's documentation asks for a new process). */
static bool sticky(CUresult r)
{
    return r == CUDA_ERROR_ILLEGAL_ADDRESS || r == CUDA_ERROR_LAUNCH_FAILED || r == CUDA_ERROR_ILLEGAL_INSTRUCTION ||
           r == CUDA_ERROR_MISALIGNED_ADDRESS || r == CUDA_ERROR_HARDWARE_STACK_ERROR ||
           r == CUDA_ERROR_INVALID_PC || r == CUDA_ERROR_ASSERT;
}

static bool fail(kj_gpu *g, CUresult r, const char *what, kj_rt_error *e)
{
    g->poisoned |= sticky(r);
    char msg[sizeof e->message];
    kj_cu_fail(&g->cu, r, what, msg, sizeof msg);
    kj_rt_errorf(e, "RuntimeError", "%s", msg);
    return false;
}

static bool current(kj_gpu *g, kj_rt_error *e)
{
    CUresult r = g->cu.cuCtxSetCurrent(g->ctx);
    return r == CUDA_SUCCESS || fail(g, r, "cuCtxSetCurrent", e);
}

/* ---- the context ---- */

kj_gpu *kj_gpu_open(int ordinal, FILE *stats, char *err, size_t cap)
{
    double t0 = kj_rt_perf_counter();
    kj_gpu *g = calloc(1, sizeof *g);
    if (!g) abort();
    if (!kj_cu_open(&g->cu, err, cap) ||
        !kj_cu_device_open(&g->cu, ordinal, &g->dev, &g->ctx, &g->props, err, cap)) {
        kj_cu_close(&g->cu);
        free(g);
        return NULL;
    }
    atomic_init(&g->refs, 1);
    pthread_mutex_init(&g->lock, NULL);
    g->stats = stats;
    g->open_s = kj_rt_perf_counter() - t0;
    return g;
}

kj_gpu *kj_gpu_retain(kj_gpu *g)
{
    if (g) atomic_fetch_add(&g->refs, 1);
    return g;
}

static void print_stats(kj_gpu *g)
{
    FILE *f = g->stats;
    fprintf(f, "kjit stats: device %s (sm_%d%d)\n", g->props.name, g->props.cc_major, g->props.cc_minor);
    fprintf(f, "kjit stats: host->device %" PRIu64 " transfers, %" PRIu64 " bytes, %.3f ms\n", g->h2d.count,
            g->h2d.bytes, 1e3 * g->h2d.seconds);
    fprintf(f, "kjit stats: device->host %" PRIu64 " transfers, %" PRIu64 " bytes, %.3f ms\n", g->d2h.count,
            g->d2h.bytes, 1e3 * g->d2h.seconds);
    for (unsigned k = 0; k < g->nk; k++)
        fprintf(f, "kjit stats: launches of %s: %" PRIu64 "\n", g->k[k].name, g->k[k].launches);
    fprintf(f, "kjit stats: GPU code: %u modules (%u from the cache), LLVM to PTX %.1f ms, PTX to cubin %.1f ms, "
               "module load %.1f ms\n",
            g->compiles, g->cached, 1e3 * g->ptx_s, 1e3 * g->link_s, 1e3 * g->load_s);
    fprintf(f, "kjit stats: opening the device (driver, cuInit, primary context): %.1f ms\n", 1e3 * g->open_s);
}

void kj_gpu_release(kj_gpu *g)
{
    if (!g || atomic_fetch_sub(&g->refs, 1) != 1) return;
    if (g->stats) print_stats(g);
    g->cu.cuCtxSetCurrent(g->ctx);
    for (int k = 0; k < 2; k++) {
        if (g->stage[k]) g->cu.cuMemFreeHost(g->stage[k]);
        if (g->stage_ev[k]) g->cu.cuEventDestroy(g->stage_ev[k]);
    }
    /* After a fault the context is unusable: reset it (destroying it), so
     * that a new kjit context in this process starts on a working one. */
    if (g->poisoned) {
        g->cu.cuCtxSetCurrent(NULL);
        CUresult r = g->cu.cuDevicePrimaryCtxReset(g->dev);
        if (r != CUDA_SUCCESS) {
            char msg[256];
            kj_cu_fail(&g->cu, r, "cuDevicePrimaryCtxReset", msg, sizeof msg);
            fprintf(stderr, "kjit: warning: the GPU could not be reset after a fault: %s\n", msg);
        }
    }
    g->cu.cuDevicePrimaryCtxRelease(g->dev);
    kj_cu_close(&g->cu);
    pthread_mutex_destroy(&g->lock);
    free(g);
}

const kj_cu_props *kj_gpu_props(const kj_gpu *g) { return &g->props; }

const char *kj_gpu_arch(const kj_gpu *g, char *buf, size_t cap)
{
    snprintf(buf, cap, "sm_%d%d", g->props.cc_major, g->props.cc_minor);
    return buf;
}

bool kj_gpu_mem_info(kj_gpu *g, size_t *free_bytes, size_t *total_bytes)
{
    g->cu.cuCtxSetCurrent(g->ctx);
    return g->cu.cuMemGetInfo(free_bytes, total_bytes) == CUDA_SUCCESS;
}

/* ---- code ---- */

bool kj_gpu_link(kj_gpu *g, const char *ptx, void **cubin, size_t *size, char *err, size_t cap)
{
    g->cu.cuCtxSetCurrent(g->ctx);
    return kj_cu_link_ptx(&g->cu, ptx, cubin, size, err, cap);
}

void kj_gpu_note_compile(kj_gpu *g, double ptx_seconds, double link_seconds, bool cached)
{
    pthread_mutex_lock(&g->lock);
    g->compiles++;
    g->cached += cached;
    g->ptx_s += ptx_seconds;
    g->link_s += link_seconds;
    pthread_mutex_unlock(&g->lock);
}

kj_gpu_code *kj_gpu_load(kj_gpu *g, const void *cubin, char *err, size_t cap)
{
    g->cu.cuCtxSetCurrent(g->ctx);
    CUmodule mod;
    double t0 = kj_rt_perf_counter();
    if (!kj_cu_module_load(&g->cu, cubin, &mod, err, cap)) return NULL;
    pthread_mutex_lock(&g->lock);
    g->load_s += kj_rt_perf_counter() - t0;
    pthread_mutex_unlock(&g->lock);
    kj_gpu_code *c = calloc(1, sizeof *c);
    if (!c) abort();
    c->g = kj_gpu_retain(g);
    c->mod = mod;
    pthread_mutex_init(&c->lock, NULL);
    /* Every module defines both globals (abi.h); only a module that can
     * raise has its error record read after each launch. */
    size_t bytes = 0;
    CUdeviceptr raises = 0;
    int32_t can_raise = 0;
    if (g->cu.cuModuleGetGlobal(&raises, &bytes, mod, KJ_ABI_GPU_RAISES) != CUDA_SUCCESS ||
        g->cu.cuMemcpyDtoH(&can_raise, raises, sizeof can_raise) != CUDA_SUCCESS ||
        (can_raise && g->cu.cuModuleGetGlobal(&c->err, &bytes, mod, KJ_ABI_GPU_ERROR) != CUDA_SUCCESS))
        c->err = 0;
    return c;
}

void kj_gpu_unload(kj_gpu_code *c)
{
    if (!c) return;
    c->g->cu.cuCtxSetCurrent(c->g->ctx);
    c->g->cu.cuModuleUnload(c->mod);
    for (size_t k = 0; k < c->nfns; k++) free(c->fns[k].symbol);
    free(c->fns);
    pthread_mutex_destroy(&c->lock);
    kj_gpu_release(c->g);
    free(c);
}

/* Entry `symbol` of c, looked up once with its attributes. The entry
 * stays valid while c is loaded (the table only grows). */
static code_fn *function(kj_gpu_code *c, const char *symbol, kj_rt_error *e)
{
    pthread_mutex_lock(&c->lock);
    code_fn *fn = NULL;
    for (size_t k = 0; k < c->nfns && !fn; k++)
        if (!strcmp(c->fns[k].symbol, symbol)) fn = &c->fns[k];
    CUresult r = CUDA_SUCCESS;
    CUfunction f = NULL;
    if (!fn) r = c->g->cu.cuModuleGetFunction(&f, c->mod, symbol);
    if (!fn && r == CUDA_SUCCESS) {
        if (c->nfns == c->cap) {
            c->cap = c->cap ? 2 * c->cap : 8;
            c->fns = realloc(c->fns, c->cap * sizeof *c->fns);
            if (!c->fns) abort();
        }
        fn = &c->fns[c->nfns++];
        *fn = (code_fn){.symbol = strdup(symbol), .f = f};
        if (!fn->symbol) abort();
        const kj_cu *cu = &c->g->cu;
        if (cu->cuFuncGetAttribute(&fn->max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f) != CUDA_SUCCESS)
            fn->max_threads = 1024;
        cu->cuFuncGetAttribute(&fn->static_shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
        cu->cuFuncGetAttribute(&fn->regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
    }
    pthread_mutex_unlock(&c->lock);
    if (!fn) fail(c->g, r, "cuModuleGetFunction", e);
    return fn;
}

/* What this kernel, compiled, allows: threads per block (fewer than 1024
 * when it needs many registers) and shared memory, static plus dynamic,
 * up to the device's opt-in limit (more than 48 KiB of dynamic shared
 * memory is asked for with cuFuncSetAttribute, as CUDA C must). */
static bool fits(kj_gpu *g, code_fn *fn, const kj_abi_kernel *k, const int64_t *cfg, kj_rt_error *e)
{
    int64_t threads = cfg[3] * cfg[4] * cfg[5], dyn = cfg[7];
    if (threads > fn->max_threads)
        return kj_rt_errorf(e, "RuntimeError",
                            "CUDA_ERROR_INVALID_VALUE: kernel '%s' launched with %" PRId64
                            " threads per block; compiled, it runs at most %d (it uses %d registers per thread)",
                            k->name, threads, fn->max_threads, fn->regs);
    int64_t limit = g->props.max_shared_per_block_optin;
    if (fn->static_shared + dyn > limit)
        return kj_rt_errorf(e, "RuntimeError",
                            "CUDA_ERROR_INVALID_VALUE: kernel '%s' needs %d bytes of static and %" PRId64
                            " bytes of dynamic shared memory per block; the device has at most %" PRId64,
                            k->name, fn->static_shared, dyn, limit);
    if (fn->static_shared + dyn > g->props.max_shared_per_block && dyn > fn->dyn_shared_set) {
        CUresult r = g->cu.cuFuncSetAttribute(fn->f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)dyn);
        if (r != CUDA_SUCCESS) return fail(g, r, "cuFuncSetAttribute", e);
        fn->dyn_shared_set = (int)dyn;
    }
    return true;
}

bool kj_gpu_has(kj_gpu_code *c, const char *symbol)
{
    kj_rt_error e = {0};
    c->g->cu.cuCtxSetCurrent(c->g->ctx);
    return function(c, symbol, &e) != NULL;
}

/* ---- transfers (through pinned staging buffers) ---- */

static bool staging(kj_gpu *g, kj_rt_error *e)
{
    for (int k = 0; k < 2; k++) {
        if (g->stage[k]) continue;
        CUresult r = g->cu.cuMemAllocHost(&g->stage[k], STAGE_BYTES);
        if (r == CUDA_SUCCESS) r = g->cu.cuEventCreate(&g->stage_ev[k], CU_EVENT_DISABLE_TIMING);
        if (r != CUDA_SUCCESS) return fail(g, r, "cuMemAllocHost", e);
    }
    return true;
}

static void count(xfer_stats *s, size_t n, double t0)
{
    s->count++;
    s->bytes += n;
    s->seconds += kj_rt_perf_counter() - t0;
}

/* Host → device, n bytes: chunks alternate between the two staging
 * buffers, so that copying one chunk in overlaps the DMA of the other. */
static bool upload(kj_gpu *g, CUdeviceptr d, const char *h, size_t n, kj_rt_error *e)
{
    double t0 = kj_rt_perf_counter();
    CUresult r = CUDA_SUCCESS;
    pthread_mutex_lock(&g->lock);
    if (n <= DIRECT_BYTES || !staging(g, e)) {
        r = n ? g->cu.cuMemcpyHtoD(d, h, n) : CUDA_SUCCESS;
    } else {
        bool pending[2] = {false, false};
        for (size_t off = 0, i = 0; off < n && r == CUDA_SUCCESS; off += STAGE_BYTES, i++) {
            int k = (int)(i & 1);
            size_t c = n - off < STAGE_BYTES ? n - off : STAGE_BYTES;
            if (pending[k]) r = g->cu.cuEventSynchronize(g->stage_ev[k]);
            if (r != CUDA_SUCCESS) break;
            memcpy(g->stage[k], h + off, c);
            r = g->cu.cuMemcpyHtoDAsync(d + off, g->stage[k], c, NULL);
            if (r == CUDA_SUCCESS) r = g->cu.cuEventRecord(g->stage_ev[k], NULL);
            pending[k] = true;
        }
        for (int k = 0; k < 2 && r == CUDA_SUCCESS; k++)
            if (pending[k]) r = g->cu.cuEventSynchronize(g->stage_ev[k]);
    }
    count(&g->h2d, n, t0);
    pthread_mutex_unlock(&g->lock);
    return r == CUDA_SUCCESS || fail(g, r, "cuMemcpyHtoD", e);
}

static const char *last_launch(const kj_gpu *g, char *buf, size_t cap);

/* Device → host: chunk i's DMA into one staging buffer overlaps the copy
 * out of chunk i-1 from the other. */
static bool download(kj_gpu *g, char *h, CUdeviceptr d, size_t n, const char *why, kj_rt_error *e)
{
    double t0 = kj_rt_perf_counter();
    CUresult r = CUDA_SUCCESS;
    pthread_mutex_lock(&g->lock);
    if (n <= DIRECT_BYTES || !staging(g, e)) {
        r = n ? g->cu.cuMemcpyDtoH(h, d, n) : CUDA_SUCCESS;
    } else {
        size_t chunks = (n + STAGE_BYTES - 1) / STAGE_BYTES;
        for (size_t i = 0; i <= chunks && r == CUDA_SUCCESS; i++) {
            int k = (int)(i & 1);
            if (i < chunks) {
                size_t off = i * STAGE_BYTES, c = n - off < STAGE_BYTES ? n - off : STAGE_BYTES;
                r = g->cu.cuMemcpyDtoHAsync(g->stage[k], d + off, c, NULL);
                if (r == CUDA_SUCCESS) r = g->cu.cuEventRecord(g->stage_ev[k], NULL);
            }
            if (i > 0 && r == CUDA_SUCCESS) {
                size_t off = (i - 1) * STAGE_BYTES, c = n - off < STAGE_BYTES ? n - off : STAGE_BYTES;
                r = g->cu.cuEventSynchronize(g->stage_ev[k ^ 1]);
                if (r == CUDA_SUCCESS) memcpy(h + off, g->stage[k ^ 1], c);
            }
        }
    }
    count(&g->d2h, n, t0);
    pthread_mutex_unlock(&g->lock);
    if (r == CUDA_SUCCESS) return true;
    fail(g, r, "cuMemcpyDtoH", e);
    /* a fault of an earlier launch shows up here: name it */
    if (g->last.name[0]) {
        char buf[320];
        size_t len = strlen(e->message);
        snprintf(e->message + len, sizeof e->message - len, " (%s; found %s)%s", last_launch(g, buf, sizeof buf),
                 why, g->poisoned ? FAULT_HINT : "");
    }
    return false;
}

/* ---- mirrors ---- */

/* The memory an array's owner spans: [lo, lo + bytes). */
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

static kj_array *owner_of(kj_array *a) { return a->base ? a->base : a; }

static kj_mirror *mirror(kj_gpu *g, kj_array *a, kj_rt_error *e)
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
    CUresult r = g->cu.cuMemAlloc(&m->d, m->bytes ? m->bytes : 1);
    if (r != CUDA_SUCCESS) {
        size_t want = m->bytes, fb = 0, tb = 0;
        free(m);
        g->cu.cuMemGetInfo(&fb, &tb);
        if (r == CUDA_ERROR_OUT_OF_MEMORY)
            kj_rt_errorf(e, "MemoryError", "out of device memory: %zu bytes requested, %zu of %zu bytes free", want,
                         fb, tb);
        else
            fail(g, r, "cuMemAlloc", e);
        return NULL;
    }
    m->g = kj_gpu_retain(g);
    m->host_valid = true;
    a->mirror = m;
    return m;
}

void kj_gpu_mirror_free(kj_mirror *m)
{
    if (!m) return;
    m->g->cu.cuCtxSetCurrent(m->g->ctx);
    m->g->cu.cuMemFree(m->d);
    kj_gpu_release(m->g);
    free(m);
}

/* The device copy of m, current. */
static bool on_device(kj_gpu *g, kj_mirror *m, kj_rt_error *e)
{
    if (m->dev_valid) return true;
    if (!upload(g, m->d, m->lo, m->bytes, e)) return false;
    m->dev_valid = true;
    return true;
}

bool kj_gpu_host_access(kj_array *a, bool write, kj_rt_error *e)
{
    kj_mirror *m = owner_of(a)->mirror;
    if (!m) return true;
    if (!m->host_valid) {
        if (!current(m->g, e) || !download(m->g, m->lo, m->d, m->bytes, "reading the array", e)) return false;
        m->host_valid = true;
    }
    if (write) m->dev_valid = false;
    return true;
}

bool kj_gpu_to_device(kj_gpu *g, kj_array *a, bool upload_data, kj_rt_error *e)
{
    if (!current(g, e)) return false;
    kj_mirror *m = mirror(g, a, e);
    if (!m) return false;
    if (upload_data) return on_device(g, m, e);
    CUresult r = m->bytes ? g->cu.cuMemsetD8(m->d, 0, m->bytes) : CUDA_SUCCESS;
    if (r != CUDA_SUCCESS) return fail(g, r, "cuMemsetD8", e);
    m->dev_valid = true;
    return true;
}

/* ---- launches ---- */

static void count_launch(kj_gpu *g, const kj_abi_kernel *k, const int64_t *cfg, const char *file, int32_t line)
{
    pthread_mutex_lock(&g->lock);
    size_t n = strnlen(k->name, sizeof g->last.name - 1);
    memcpy(g->last.name, k->name, n);
    g->last.name[n] = 0;
    g->last.file = file;
    g->last.line = line;
    memcpy(g->last.cfg, cfg, sizeof g->last.cfg);
    if (g->stats) { /* launches per kernel, for KJIT_STATS */
        unsigned j = 0;
        while (j < g->nk && strcmp(g->k[j].name, k->name)) j++;
        if (j == g->nk && g->nk < MAX_KSTATS) snprintf(g->k[g->nk++].name, sizeof g->k[0].name, "%s", k->name);
        if (j < g->nk) g->k[j].launches++;
    }
    pthread_mutex_unlock(&g->lock);
}

/* "in kernel 'K' launched at f.k:12 with grid (..), block (..)" into buf. */
static const char *last_launch(const kj_gpu *g, char *buf, size_t cap)
{
    char where[200] = "through kjit_launch";
    if (g->last.line > 0) snprintf(where, sizeof where, "at %s:%d", g->last.file ? g->last.file : "?", g->last.line);
    const int64_t *c = g->last.cfg;
    snprintf(buf, cap,
             "in kernel '%s' launched %s with grid (%" PRId64 ", %" PRId64 ", %" PRId64 "), block (%" PRId64
             ", %" PRId64 ", %" PRId64 ")",
             g->last.name, where, c[0], c[1], c[2], c[3], c[4], c[5]);
    return buf;
}

/* Add " in kernel 'K' launched at ..." to an error found after a launch. */
static bool with_launch(kj_gpu *g, kj_rt_error *e)
{
    char buf[320];
    size_t len = strlen(e->message);
    snprintf(e->message + len, sizeof e->message - len, " %s%s", last_launch(g, buf, sizeof buf),
             g->poisoned ? FAULT_HINT : "");
    return false;
}

/* After a launch of a module that can raise: wait, and turn the error
 * record into the raised error (at the raise's line, in eline and ecol). */
static bool check_raise(kj_gpu *g, kj_gpu_code *c, kj_rt_error *e, int32_t *eline, int32_t *ecol)
{
    kj_abi_gpu_error rec;
    CUresult r = g->cu.cuMemcpyDtoH(&rec, c->err, sizeof rec);
    if (r != CUDA_SUCCESS) return fail(g, r, "cuMemcpyDtoH", e), with_launch(g, e);
    if (!rec.flag) return true;
    char msg[256] = "";
    if (rec.msg) {
        /* the message is a constant of the module; read it a byte at a time
         * up to its NUL (it may end close to the end of its section) */
        for (size_t k = 0; k + 1 < sizeof msg; k++) {
            if (g->cu.cuMemcpyDtoH(msg + k, (CUdeviceptr)rec.msg + k, 1) != CUDA_SUCCESS || !msg[k]) break;
        }
    }
    static const char *const exc[KJ_RT__COUNT] = {
        [KJ_RT_ZERO_DIVISION] = "ZeroDivisionError", [KJ_RT_INDEX] = "IndexError",
        [KJ_RT_ASSERTION] = "AssertionError",        [KJ_RT_VALUE] = "ValueError",
        [KJ_RT_OVERFLOW] = "OverflowError",          [KJ_RT_RUNTIME] = "RuntimeError",
    };
    const char *name = rec.kind > 0 && rec.kind < KJ_RT__COUNT && exc[rec.kind] ? exc[rec.kind] : "RuntimeError";
    if (rec.kind == KJ_RT_INDEX && rec.index >= 0 && !msg[0])
        kj_rt_errorf(e, name, "index %" PRId64 " is out of bounds for axis %" PRId64 " with size %" PRId64,
                     rec.index, rec.axis, rec.size);
    else
        kj_rt_errorf(e, name, "%s", msg);
    with_launch(g, e);
    *eline = rec.line;
    *ecol = rec.col;
    kj_abi_gpu_error zero = {0};
    g->cu.cuMemcpyHtoD(c->err, &zero, sizeof zero);
    return false;
}

enum { MAX_SLOTS = 256 };

bool kj_gpu_launch(kj_gpu *g, kj_gpu_code *c, const kj_abi_kernel *k, const int64_t *cfg, void **args,
                   const char *file, int32_t line, kj_rt_error *e, int32_t *eline, int32_t *ecol)
{
    if (!current(g, e)) return false;
    code_fn *fn = function(c, k->symbol, e);
    if (!fn || !fits(g, fn, k, cfg, e)) return false;
    uint64_t dptr[MAX_SLOTS];
    void *slot[MAX_SLOTS];
    kj_mirror *written[MAX_SLOTS];
    unsigned n = 0, nw = 0;
    for (int32_t j = 0; j < k->nparams; j++) {
        const kj_abi_param *p = &k->params[j];
        if (p->kind != KJ_ABI_PARAM_ARRAY) {
            if (n == MAX_SLOTS) goto too_many;
            slot[n++] = args[j];
            continue;
        }
        const kj_abi_array *d = args[j];
        kj_array *owner = kj_abi_array_owner(d, p->ndim);
        if (!owner)
            return kj_rt_errorf(e, "RuntimeError", "argument %d of kernel '%s' is an array kjit cannot copy to the GPU",
                                j + 1, k->name);
        kj_mirror *m = mirror(g, owner, e);
        if (!m || !on_device(g, m, e)) return false;
        if (n + 1 + 2 * (unsigned)p->ndim > MAX_SLOTS) goto too_many;
        dptr[n] = m->d + (uint64_t)((char *)kj_abi_array_data(d) - m->lo);
        slot[n] = &dptr[n];
        n++;
        for (int i = 0; i < 2 * p->ndim; i++) slot[n++] = (void *)(uintptr_t)kj_abi_array_dims_word(d, i);
        written[nw++] = m;
    }
    count_launch(g, k, cfg, file, line);
    CUresult r = g->cu.cuLaunchKernel(fn->f, (unsigned)cfg[0], (unsigned)cfg[1], (unsigned)cfg[2], (unsigned)cfg[3],
                                      (unsigned)cfg[4], (unsigned)cfg[5], (unsigned)cfg[7],
                                      (CUstream)(uintptr_t)cfg[6], slot, NULL);
    if (r != CUDA_SUCCESS) return fail(g, r, "cuLaunchKernel", e), with_launch(g, e);
    /* the kernel may have written any array argument */
    for (unsigned w = 0; w < nw; w++) written[w]->host_valid = false;
    if (c->err) return check_raise(g, c, e, eline, ecol);
    return true;
too_many:
    return kj_rt_errorf(e, "RuntimeError", "kernel '%s' has more parameters than a launch can pass", k->name);
}

bool kj_gpu_synchronize(kj_gpu *g, kj_rt_error *e)
{
    if (!current(g, e)) return false;
    CUresult r = g->cu.cuCtxSynchronize();
    return r == CUDA_SUCCESS || (fail(g, r, "cuCtxSynchronize", e), with_launch(g, e));
}

/* ---- streams ---- */

void *kj_gpu_stream_new(kj_gpu *g)
{
    CUstream s = NULL;
    g->cu.cuCtxSetCurrent(g->ctx);
    if (g->cu.cuStreamCreate(&s, CU_STREAM_DEFAULT) != CUDA_SUCCESS) return NULL; /* the default stream */
    return s;
}

void kj_gpu_stream_free(kj_gpu *g, void *s)
{
    if (s) g->cu.cuStreamDestroy((CUstream)s);
}

bool kj_gpu_stream_sync(kj_gpu *g, void *s, kj_rt_error *e)
{
    if (!s) return kj_gpu_synchronize(g, e);
    if (!current(g, e)) return false;
    CUresult r = g->cu.cuStreamSynchronize((CUstream)s);
    return r == CUDA_SUCCESS || (fail(g, r, "cuStreamSynchronize", e), with_launch(g, e));
}

/* ---- events ---- */

void *kj_gpu_event_new(kj_gpu *g)
{
    CUevent ev = NULL;
    g->cu.cuCtxSetCurrent(g->ctx);
    if (g->cu.cuEventCreate(&ev, CU_EVENT_DEFAULT) != CUDA_SUCCESS) return NULL;
    return ev;
}

void kj_gpu_event_free(kj_gpu *g, void *ev)
{
    if (ev) g->cu.cuEventDestroy((CUevent)ev);
}

bool kj_gpu_event_record(kj_gpu *g, void *ev, kj_rt_error *e)
{
    if (!current(g, e)) return false;
    CUresult r = g->cu.cuEventRecord((CUevent)ev, NULL);
    return r == CUDA_SUCCESS || fail(g, r, "cuEventRecord", e);
}

bool kj_gpu_event_elapsed(kj_gpu *g, void *a, void *b, float *ms, kj_rt_error *e)
{
    if (!current(g, e)) return false;
    CUresult r = g->cu.cuEventSynchronize((CUevent)b);
    if (r == CUDA_SUCCESS) r = g->cu.cuEventElapsedTime(ms, (CUevent)a, (CUevent)b);
    return r == CUDA_SUCCESS || (fail(g, r, "cuEventElapsedTime", e), with_launch(g, e));
}
