/* SPDX-License-Identifier: BSD-2-Clause */
/* The GPU side of the runtime (gpu.h): the device context, loaded code,
 * launches with argument marshalling, lazy coherence of host arrays and
 * events, and the KJIT_STATS counters; host arrays' mirrors and the copies
 * between host and device are gpu_mem.c's. */
#include "gpu_int.h"

#include "../abi/abi.h"
#include "rt.h"
#include "rt_host.h"
#include "../util/env.h"

#include <inttypes.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

typedef struct code_fn {
    char *symbol;
    const char *key; /* the symbol pointer it was first asked for by (a kernel descriptor's) */
    CUfunction f;
    int max_threads, static_shared, regs; /* the compiled kernel's own limits */
    int dyn_shared_set;                   /* the dynamic shared bytes it has been allowed */
} code_fn;

/* The entries last found, by the address of the symbol asked for: a launch
 * from a loop finds its entry without the lock (direct-mapped, each slot
 * one atomic pointer to an entry that never moves). */
enum { FN_CACHE = 8 };

/* A module slot's global in a module (abi.h kj_abi_slot), found once, and
 * the bytes last written into it: a launch writes it only when they
 * change (an array's descriptor changes only when its device copy moves). */
enum { SLOT_MAX_BYTES = 128 };
typedef struct slot_global {
    char *name;
    CUdeviceptr d;
    size_t bytes;
    bool written;
    unsigned char last[SLOT_MAX_BYTES];
} slot_global;

struct kj_gpu_code {
    kj_gpu *g;
    CUmodule mod;
    CUdeviceptr err; /* the module's error record, 0 when it cannot raise */
    slot_global **globals; /* each allocated once; under lock */
    size_t nglobals;
    pthread_mutex_t lock;
    code_fn **fns; /* each entry allocated once: pointers to it stay valid while c is loaded */
    size_t nfns, cap;
    _Atomic(code_fn *) recent[FN_CACHE];
};

/* Errors after which CUDA's context, and the process's use of the GPU,
 * cannot go on ("sticky": NVIDIA's documentation asks for a new process). */
static bool sticky(CUresult r)
{
    return r == CUDA_ERROR_ILLEGAL_ADDRESS || r == CUDA_ERROR_LAUNCH_FAILED || r == CUDA_ERROR_ILLEGAL_INSTRUCTION ||
           r == CUDA_ERROR_MISALIGNED_ADDRESS || r == CUDA_ERROR_HARDWARE_STACK_ERROR ||
           r == CUDA_ERROR_INVALID_PC || r == CUDA_ERROR_ASSERT;
}

bool kj_gpu_fail(kj_gpu *g, CUresult r, const char *what, kj_rt_error *e)
{
    g->poisoned |= sticky(r);
    char msg[sizeof e->message];
    kj_cu_fail(&g->cu, r, what, msg, sizeof msg);
    kj_rt_errorf(e, "RuntimeError", "%s", msg);
    return false;
}

bool kj_gpu_current(kj_gpu *g, kj_rt_error *e)
{
    /* asking is cheaper than setting (a launch from a loop asks each time) */
    CUcontext now = NULL;
    if (g->cu.cuCtxGetCurrent(&now) == CUDA_SUCCESS && now == g->ctx) return true;
    CUresult r = g->cu.cuCtxSetCurrent(g->ctx);
    return r == CUDA_SUCCESS || kj_gpu_fail(g, r, "cuCtxSetCurrent", e);
}

/* ---- the context ---- */

/* A switch (util/env.h) that is set and on; kjit checked its value at start. */
static bool env_on(const char *name)
{
    bool v = false;
    char why[160];
    return kj_env_flag(name, &v, why, sizeof why) == KJ_ENV_SET && v;
}

kj_gpu *kj_gpu_open(int ordinal, FILE *stats, char *err, size_t cap)
{
    double t0 = kj_rt_perf_counter();
    kj_gpu *g = calloc(1, sizeof *g);
    if (!g) abort();
    if (kj_cu_open(&g->cu, err, cap) && ordinal < 0) { /* rank r of a node: device r % count */
        int n = 0;
        if (g->cu.cuInit(0) == CUDA_SUCCESS && g->cu.cuDeviceGetCount(&n) == CUDA_SUCCESS && n > 0)
            ordinal = (-1 - ordinal) % n;
        else
            ordinal = 0; /* kj_cu_device_open says why there is none */
    }
    g->ordinal = ordinal;
    if (!g->cu.opened || !kj_cu_device_open(&g->cu, ordinal, &g->dev, &g->ctx, &g->props, err, cap)) {
        kj_cu_close(&g->cu);
        free(g);
        return NULL;
    }
    atomic_init(&g->refs, 1);
    atomic_init(&g->last_busy, false);
    pthread_mutex_init(&g->lock, NULL);
    g->stats = stats;
    g->pin_cap = kj_gpu_default_pin_cap();
    g->no_graphs = env_on("KJIT_NO_GRAPHS") || env_on("KJIT_NO_SPECIALISE");
    size_t free_b = 0, total_b = 0;
    g->pool_cap = g->cu.cuMemGetInfo(&free_b, &total_b) == CUDA_SUCCESS ? total_b / 4 : 0;
    g->open_s = kj_rt_perf_counter() - t0;
    return g;
}

int kj_gpu_ordinal(const kj_gpu *g) { return g->ordinal; }

int kj_gpu_count(const kj_gpu *g)
{
    int n = 0;
    return g->cu.cuDeviceGetCount(&n) == CUDA_SUCCESS ? n : 1;
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
    fprintf(f, "kjit stats: device->device %" PRIu64 " copies, %" PRIu64 " bytes, %.3f ms\n", g->d2d.count,
            g->d2d.bytes, 1e3 * g->d2d.seconds);
    fprintf(f, "kjit stats: page-locked %" PRIu64 " host arrays copied more than once, %" PRIu64 " bytes, %.3f ms\n",
            g->pins.count, g->pins.bytes, 1e3 * g->pins.seconds);
    for (unsigned k = 0; k < g->nk; k++) {
        fprintf(f, "kjit stats: launches of %s: %" PRIu64 "\n", g->k[k].name, g->k[k].launches);
        if (g->k[k].index32) /* launch specialisation (kir_index32.h) */
            fprintf(f, "kjit stats: launches of %s with 32-bit indices: %" PRIu64 "\n", g->k[k].name, g->k[k].index32);
    }
    if (g->graphs.built)
        fprintf(f, "kjit stats: CUDA graphs of host loops: %" PRIu64 " built, %" PRIu64 " replays of %" PRIu64
                   " launches\n", g->graphs.built, g->graphs.replays, g->graphs.launches);
    const double *p = g->ptx_s;
    fprintf(f, "kjit stats: GPU code: %u modules (%u from the cache), LLVM to PTX %.1f ms (IR %.1f, libdevice %.1f, "
               "optimise %.1f, emit %.1f), PTX to cubin %.1f ms, module load %.1f ms\n",
            g->compiles, g->cached, 1e3 * (p[0] + p[1] + p[2] + p[3]), 1e3 * p[0], 1e3 * p[1], 1e3 * p[2], 1e3 * p[3],
            1e3 * g->link_s, 1e3 * g->load_s);
    fprintf(f, "kjit stats: opening the device (driver, cuInit, primary context): %.1f ms\n", 1e3 * g->open_s);
    if (g->no_blas) fprintf(f, "kjit stats: products of device arrays ran on the host: %s\n", g->blas_why);
}

void kj_gpu_release(kj_gpu *g)
{
    if (!g || atomic_fetch_sub(&g->refs, 1) != 1) return;
    if (g->stats) print_stats(g);
    g->cu.cuCtxSetCurrent(g->ctx);
    kj_gpu_graph_free(g);
    kj_gpu_ipc_free(g);
    kj_gpu_combine_free(g);
    kj_gpu_blas_free(g);
    kj_gpu_pool_drain(g);
    kj_gpu_host_pool_drain(g);
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

void kj_gpu_note_compile(kj_gpu *g, const double *ptx_phases, double link_seconds, bool cached)
{
    pthread_mutex_lock(&g->lock);
    g->compiles++;
    g->cached += cached;
    for (int k = 0; k < 4 && ptx_phases; k++) g->ptx_s[k] += ptx_phases[k];
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
    for (size_t k = 0; k < c->nfns; k++) free(c->fns[k]->symbol), free(c->fns[k]);
    free(c->fns);
    for (size_t k = 0; k < c->nglobals; k++) free(c->globals[k]->name), free(c->globals[k]);
    free(c->globals);
    pthread_mutex_destroy(&c->lock);
    kj_gpu_release(c->g);
    free(c);
}

/* Entry `symbol` of c, looked up once with its attributes, under the lock. */
static code_fn *function_locked(kj_gpu_code *c, const char *symbol, kj_rt_error *e)
{
    pthread_mutex_lock(&c->lock);
    code_fn *fn = NULL;
    for (size_t k = 0; k < c->nfns && !fn; k++)
        if (!strcmp(c->fns[k]->symbol, symbol)) fn = c->fns[k];
    CUresult r = CUDA_SUCCESS;
    CUfunction f = NULL;
    if (!fn) r = c->g->cu.cuModuleGetFunction(&f, c->mod, symbol);
    if (!fn && r == CUDA_SUCCESS) {
        if (c->nfns == c->cap) {
            c->cap = c->cap ? 2 * c->cap : 8;
            c->fns = realloc(c->fns, c->cap * sizeof *c->fns);
            if (!c->fns) abort();
        }
        fn = malloc(sizeof *fn);
        if (!fn) abort();
        *fn = (code_fn){.symbol = strdup(symbol), .key = symbol, .f = f};
        if (!fn->symbol) abort();
        c->fns[c->nfns++] = fn;
        const kj_cu *cu = &c->g->cu;
        if (cu->cuFuncGetAttribute(&fn->max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f) != CUDA_SUCCESS)
            fn->max_threads = 1024;
        cu->cuFuncGetAttribute(&fn->static_shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
        cu->cuFuncGetAttribute(&fn->regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
    }
    pthread_mutex_unlock(&c->lock);
    if (!fn) kj_gpu_fail(c->g, r, "cuModuleGetFunction", e);
    return fn;
}

/* Entry `symbol` of c: from the cache when it was asked for lately by the
 * same symbol pointer (or the same name), else looked up and cached. The
 * pointer comparison needs every symbol string asked for to live as long
 * as c: they are kernel descriptors' (host code's constants, the C API's
 * module arena), which go with the module that owns c. */
static code_fn *function(kj_gpu_code *c, const char *symbol, kj_rt_error *e)
{
    _Atomic(code_fn *) *slot = &c->recent[((uintptr_t)symbol >> 4) % FN_CACHE];
    code_fn *fn = atomic_load_explicit(slot, memory_order_acquire);
    if (fn && (fn->key == symbol || !strcmp(fn->symbol, symbol))) return fn;
    fn = function_locked(c, symbol, e);
    if (fn) atomic_store_explicit(slot, fn, memory_order_release);
    return fn;
}

/* More than 48 KiB of shared memory a block (static plus dyn) is asked for
 * with cuFuncSetAttribute, as CUDA C must, up to the device's opt-in limit
 * (beyond it the occupancy is 0 and a launch fails: see fits()). */
static bool allow_dyn_shared(kj_gpu *g, code_fn *fn, int64_t dyn, kj_rt_error *e)
{
    if (fn->static_shared + dyn <= g->props.max_shared_per_block || dyn <= fn->dyn_shared_set ||
        fn->static_shared + dyn > g->props.max_shared_per_block_optin)
        return true;
    CUresult r = g->cu.cuFuncSetAttribute(fn->f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)dyn);
    if (r != CUDA_SUCCESS) return kj_gpu_fail(g, r, "cuFuncSetAttribute", e);
    fn->dyn_shared_set = (int)dyn;
    return true;
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
    return allow_dyn_shared(g, fn, dyn, e);
}

/* A cooperative launch (grid.sync()) needs every block resident at once:
 * at most the occupancy's blocks per SM times the SMs, checked before
 * launching (the driver would answer
 * CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, without the numbers). */
static bool coop_fits(kj_gpu *g, code_fn *fn, const kj_abi_kernel *k, const int64_t *cfg, kj_rt_error *e)
{
    int per_sm = 0;
    int64_t threads = cfg[3] * cfg[4] * cfg[5], nblocks = cfg[0] * cfg[1] * cfg[2];
    CUresult r = g->cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn->f, (int)threads, (size_t)cfg[7]);
    if (r != CUDA_SUCCESS) return kj_gpu_fail(g, r, "cuOccupancyMaxActiveBlocksPerMultiprocessor", e);
    int64_t limit = (int64_t)per_sm * g->props.sm_count;
    if (nblocks <= limit) return true;
    return kj_rt_errorf(e, "RuntimeError",
                        "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE: kernel '%s' uses grid.sync() and was launched "
                        "with grid (%" PRId64 ", %" PRId64 ", %" PRId64 ") of %" PRId64 " blocks; at most %" PRId64
                        " blocks of %" PRId64 " threads can be resident at once (%d per SM x %d SMs)",
                        k->name, cfg[0], cfg[1], cfg[2], nblocks, limit, threads, per_sm, g->props.sm_count);
}

bool kj_gpu_coop_max_blocks(kj_gpu *g, kj_gpu_code *c, const kj_abi_kernel *k, int64_t threads, int64_t dyn,
                            int64_t *out, kj_rt_error *e)
{
    if (!kj_gpu_current(g, e)) return false;
    code_fn *fn = function(c, k->symbol, e);
    /* as a launch with that much dynamic shared memory would ask for it */
    if (!fn || !allow_dyn_shared(g, fn, dyn, e)) return false;
    int per_sm = 0;
    CUresult r = g->cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn->f, (int)threads, (size_t)dyn);
    if (r != CUDA_SUCCESS) return kj_gpu_fail(g, r, "cuOccupancyMaxActiveBlocksPerMultiprocessor", e);
    *out = (int64_t)per_sm * g->props.sm_count;
    return true;
}

bool kj_gpu_has(kj_gpu_code *c, const char *symbol)
{
    kj_rt_error e = {0};
    c->g->cu.cuCtxSetCurrent(c->g->ctx);
    return function(c, symbol, &e) != NULL;
}

/* ---- launches ---- */

/* g->last is written by one launch at a time without waiting: a launch
 * that finds another thread writing it leaves it (either names a launch
 * that ran last); a reader waits for the writer. */
static bool last_take(kj_gpu *g) { return !atomic_exchange_explicit(&g->last_busy, true, memory_order_acquire); }
static void last_give(kj_gpu *g) { atomic_store_explicit(&g->last_busy, false, memory_order_release); }

static void count_launch(kj_gpu *g, const kj_abi_kernel *k, const int64_t *cfg, const char *file, int32_t line,
                         const code_fn *fn)
{
    if (last_take(g)) {
        size_t n = strnlen(k->name, sizeof g->last.name - 1);
        memcpy(g->last.name, k->name, n);
        g->last.name[n] = 0;
        g->last.file = file;
        g->last.line = line;
        memcpy(g->last.cfg, cfg, sizeof g->last.cfg);
        last_give(g);
    }
    if (!g->stats) return;
    pthread_mutex_lock(&g->lock); /* launches per kernel, for KJIT_STATS */
    unsigned j = 0;
    while (j < g->nk && strcmp(g->k[j].name, k->name)) j++;
    if (j == g->nk && g->nk < MAX_KSTATS) snprintf(g->k[g->nk++].name, sizeof g->k[0].name, "%s", k->name);
    if (j < g->nk) g->k[j].launches++, g->k[j].index32 += k->symbol32 && !strcmp(fn->symbol, k->symbol32);
    pthread_mutex_unlock(&g->lock);
}

/* "in kernel 'K' launched at f.k:12 with grid (..), block (..)" into buf,
 * or "" before any launch. */
static const char *last_launch(kj_gpu *g, char *buf, size_t cap)
{
    while (!last_take(g)) sched_yield();
    char where[200] = "through kjit_launch";
    if (g->last.line > 0) snprintf(where, sizeof where, "at %s:%d", g->last.file ? g->last.file : "?", g->last.line);
    const int64_t *c = g->last.cfg;
    if (!g->last.name[0]) buf[0] = 0;
    else
        snprintf(buf, cap,
                 "in kernel '%s' launched %s with grid (%" PRId64 ", %" PRId64 ", %" PRId64 "), block (%" PRId64
                 ", %" PRId64 ", %" PRId64 ")",
                 g->last.name, where, c[0], c[1], c[2], c[3], c[4], c[5]);
    last_give(g);
    return buf;
}

void kj_gpu_found_after(kj_gpu *g, kj_rt_error *e, const char *why)
{
    char buf[320];
    if (!last_launch(g, buf, sizeof buf)[0]) return;
    size_t len = strlen(e->message);
    snprintf(e->message + len, sizeof e->message - len, " (%s; found %s)%s", buf, why,
             g->poisoned ? KJ_GPU_FAULT_HINT : "");
}

/* Add " in kernel 'K' launched at ..." to an error found after a launch. */
static bool with_launch(kj_gpu *g, kj_rt_error *e)
{
    char buf[320];
    size_t len = strlen(e->message);
    const char *what = last_launch(g, buf, sizeof buf);
    snprintf(e->message + len, sizeof e->message - len, "%s%s%s", what[0] ? " " : "", what,
             g->poisoned ? KJ_GPU_FAULT_HINT : "");
    return false;
}

/* After a launch of a module that can raise: wait, and turn the error
 * record into the raised error (at the raise's line, in eline and ecol). */
static bool check_raise(kj_gpu *g, kj_gpu_code *c, kj_rt_error *e, int32_t *eline, int32_t *ecol)
{
    kj_abi_gpu_error rec;
    CUresult r = g->cu.cuMemcpyDtoH(&rec, c->err, sizeof rec);
    if (r != CUDA_SUCCESS) return kj_gpu_fail(g, r, "cuMemcpyDtoH", e), with_launch(g, e);
    if (!rec.flag) return true;
    char msg[256] = "";
    if (rec.msg) {
        /* the message is a constant of the module; read it a byte at a time
         * up to its NUL (it may end close to the end of its section) */
        for (size_t k = 0; k + 1 < sizeof msg; k++) {
            if (g->cu.cuMemcpyDtoH(msg + k, (CUdeviceptr)rec.msg + k, 1) != CUDA_SUCCESS || !msg[k]) break;
        }
    }
    const char *name = rec.kind > 0 ? kj_rt_kind_name((kj_rt_kind)rec.kind) : "RuntimeError";
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

/* A kernel loads an array's numbers at their natural alignment, which the
 * GPU requires (a misaligned load faults). A field of a packed structured
 * dtype (a['x'] of [('x', f4), ('y', i1)]) is an array whose data or strides
 * are not multiples of its item: refused here, with what to do instead. */
static bool aligned_arg(const kj_abi_kernel *k, int32_t j, const kj_abi_array *d, int ndim, kj_rt_error *e)
{
    kj_dtype dt = (kj_dtype)k->params[j].dtype;
    int64_t al = (int64_t)kj_dtype_size(dt);
    if (dt == KJ_DT_COMPLEX64 || dt == KJ_DT_COMPLEX128) al /= 2;
    uint64_t bits = (uint64_t)(uintptr_t)kj_abi_array_data(d);
    for (int i = 0; i < ndim; i++)
        if (kj_abi_array_shape(d, ndim, i) > 1) bits |= (uint64_t)kj_abi_array_stride(d, ndim, i);
    if (al <= 1 || bits % (uint64_t)al == 0) return true;
    return kj_rt_errorf(e, "RuntimeError",
                        "argument %d of kernel '%s' is a misaligned array: its data or strides are not multiples of "
                        "its %lld-byte items (a field of a packed structured dtype?), which the GPU cannot load; "
                        "pass a copy (np.ascontiguousarray) or use an aligned dtype (align=True)",
                        j + 1, k->name, (long long)al);
}

/* The device copy of array argument d (parameter p): current (uploaded
 * when the host's was newer), its address in *dptr. */
static kj_mirror *device_arg(kj_gpu *g, const kj_abi_kernel *k, int32_t j, const kj_abi_array *d, int ndim,
                             uint64_t *dptr, kj_rt_error *e)
{
    kj_array *owner = kj_abi_array_owner(d, ndim);
    if (!owner) {
        kj_rt_errorf(e, "RuntimeError", "argument %d of kernel '%s' is an array kjit cannot copy to the GPU", j + 1,
                     k->name);
        return NULL;
    }
    if (!aligned_arg(k, j, d, ndim, e)) return NULL;
    kj_mirror *m = kj_gpu_mirror_current(g, owner, e);
    if (m) *dptr = m->d + (uint64_t)((char *)kj_abi_array_data(d) - m->lo);
    return m;
}

/* ---- module slots (abi.h kj_abi_slot) ---- */

/* The global of slot `name` in c, looked up once; under c->lock. */
static slot_global *slot_global_of(kj_gpu_code *c, const kj_abi_kernel *k, const kj_abi_slot *sl, kj_rt_error *e)
{
    for (size_t j = 0; j < c->nglobals; j++)
        if (!strcmp(c->globals[j]->name, sl->name)) return c->globals[j];
    char sym[256];
    snprintf(sym, sizeof sym, KJ_ABI_GPU_SLOT "%s", sl->name);
    CUdeviceptr d = 0;
    size_t bytes = 0;
    CUresult r = c->g->cu.cuModuleGetGlobal(&d, &bytes, c->mod, sym);
    if (r != CUDA_SUCCESS) {
        kj_gpu_fail(c->g, r, "cuModuleGetGlobal", e);
        size_t len = strlen(e->message);
        snprintf(e->message + len, sizeof e->message - len, " (kernel '%s' reads module-level '%s': global %s)",
                 k->name, sl->name, sym);
        return NULL;
    }
    if (bytes < (size_t)sl->size || (size_t)sl->size > SLOT_MAX_BYTES) {
        kj_rt_errorf(e, "RuntimeError", "kernel '%s' reads module-level '%s' (%d bytes), but its GPU module's %s has %zu",
                     k->name, sl->name, sl->size, sym, bytes);
        return NULL;
    }
    slot_global *gl = calloc(1, sizeof *gl), **v = realloc(c->globals, (c->nglobals + 1) * sizeof *v);
    if (!gl || !v || !(gl->name = strdup(sl->name))) abort();
    gl->d = d;
    gl->bytes = (size_t)sl->size;
    c->globals = v;
    c->globals[c->nglobals++] = gl;
    return gl;
}

/* The memory form of slot value v as the kernel reads it, into out: a
 * number as it is; an array's descriptor with the address of its device
 * copy, made current (*m), and no owner. */
static bool slot_bytes(kj_gpu *g, const kj_abi_kernel *k, const kj_abi_slot *sl, const void *v, unsigned char *out,
                       kj_mirror **m, kj_rt_error *e)
{
    *m = NULL;
    memcpy(out, v, (size_t)sl->size);
    if (!sl->ndim) return true;
    if (sl->ndim > KJ_ABI_MAX_DIMS)
        return kj_rt_errorf(e, "RuntimeError", "kernel '%s' reads module-level '%s', an array of %d dimensions (at most %d)",
                            k->name, sl->name, sl->ndim, KJ_ABI_MAX_DIMS);
    const kj_abi_array *d = v;
    kj_array *owner = kj_abi_array_owner(d, sl->ndim);
    if (!owner)
        return kj_rt_errorf(e, "RuntimeError", "kernel '%s' reads module-level '%s', an array kjit cannot copy to the GPU",
                            k->name, sl->name);
    if (!(*m = kj_gpu_mirror_current(g, owner, e))) return false;
    uint64_t dptr = (*m)->d + (uint64_t)((char *)kj_abi_array_data(d) - (*m)->lo);
    /* the same descriptor with the device copy's address and no owner (the
     * kernel never frees) */
    int64_t shape[KJ_ABI_MAX_DIMS], strides[KJ_ABI_MAX_DIMS];
    for (int k = 0; k < sl->ndim; k++)
        shape[k] = kj_abi_array_shape(d, sl->ndim, k), strides[k] = kj_abi_array_stride(d, sl->ndim, k);
    kj_abi_array dev;
    kj_abi_array_pack(&dev, sl->ndim, (void *)(uintptr_t)dptr, shape, strides, NULL);
    memcpy(out, &dev, kj_abi_array_bytes(sl->ndim));
    return true;
}

/* Before a launch of k: each module slot it reads into its global (written
 * when its bytes changed, after what a graph holds back has run), the
 * arrays' mirrors appended to used[*n] (read only: kir_readonly.c). */
static bool write_slots(kj_gpu *g, kj_gpu_code *c, const kj_abi_kernel *k, const void *const *slots, kj_mirror **used,
                        unsigned *n, unsigned cap, kj_rt_error *e)
{
    bool ok = true;
    pthread_mutex_lock(&c->lock);
    for (int32_t j = 0; j < k->nslots && ok; j++) {
        const kj_abi_slot *sl = &k->slots[j];
        unsigned char bytes[SLOT_MAX_BYTES];
        kj_mirror *m = NULL;
        slot_global *gl = slot_global_of(c, k, sl, e);
        ok = gl && slot_bytes(g, k, sl, slots[j], bytes, &m, e);
        if (ok && m) {
            if (*n == cap) ok = kj_rt_errorf(e, "RuntimeError", "kernel '%s' reads more arrays than a launch can pass",
                                             k->name);
            else used[(*n)++] = m;
        }
        if (!ok || (gl->written && !memcmp(gl->last, bytes, gl->bytes))) continue;
        ok = kj_gpu_graph_settle(g, e) && kj_gpu_copy_h2d(g, gl->d, bytes, gl->bytes, e);
        if (ok) memcpy(gl->last, bytes, gl->bytes), gl->written = true;
    }
    pthread_mutex_unlock(&c->lock);
    return ok;
}

/* The mirrors a launch uses: all of them, the first nw those it may write. */
typedef struct launch_arrays {
    kj_mirror **m;
    unsigned n, nw;
} launch_arrays;

/* Launch fn over cfg with the marshalled slots, then note what the kernel
 * may have done to its arrays and read the module's error record. */
static bool submit(kj_gpu *g, kj_gpu_code *c, code_fn *fn, const kj_abi_kernel *k, const int64_t *cfg, void **slot,
                   const uint32_t *size, unsigned nslots, const launch_arrays *arr, const char *file, int32_t line,
                   kj_rt_error *e, int32_t *eline, int32_t *ecol)
{
    count_launch(g, k, cfg, file, line, fn);
    int64_t phys[8]; /* the block (and grid) as the kernel was compiled for it (kir_layout.h) */
    kj_abi_launch_phys(k, cfg, phys);
    cfg = phys;
    CUstream s = (CUstream)(uintptr_t)cfg[6];
    /* taken by a graph of the host loop (gpu_graph.c); a launch that cannot
     * be (no parameter sizes: a prepared launch) ends it */
    bool taken = false;
    if (g->graph && !(k->cooperative || c->err || !size ? kj_gpu_graph_end(g, e)
                                                         : kj_gpu_graph_take(g, fn->f, cfg, slot, size, nslots, &taken, e)))
        return with_launch(g, e);
    CUresult r = taken ? CUDA_SUCCESS
                 : k->cooperative
                     ? g->cu.cuLaunchCooperativeKernel(fn->f, (unsigned)cfg[0], (unsigned)cfg[1], (unsigned)cfg[2],
                                                       (unsigned)cfg[3], (unsigned)cfg[4], (unsigned)cfg[5],
                                                       (unsigned)cfg[7], s, slot)
                     : g->cu.cuLaunchKernel(fn->f, (unsigned)cfg[0], (unsigned)cfg[1], (unsigned)cfg[2],
                                            (unsigned)cfg[3], (unsigned)cfg[4], (unsigned)cfg[5], (unsigned)cfg[7], s,
                                            slot, NULL);
    if (r != CUDA_SUCCESS)
        return kj_gpu_fail(g, r, k->cooperative ? "cuLaunchCooperativeKernel" : "cuLaunchKernel", e),
               with_launch(g, e);
    /* the kernel may have written any array argument it does not only read */
    for (unsigned w = 0; w < arr->n; w++) {
        bool write = w < arr->nw;
        if (write) arr->m[w]->host_valid = false;
        kj_mirror_launched(arr->m[w], s, write);
    }
    if (c->err) return check_raise(g, c, e, eline, ecol);
    return true;
}

/* The entry of k in c, checked against the configuration. */
static code_fn *launchable(kj_gpu *g, kj_gpu_code *c, const kj_abi_kernel *k, const char *symbol,
                           const int64_t *cfg, kj_rt_error *e)
{
    if (!kj_gpu_current(g, e)) return NULL;
    code_fn *fn = function(c, symbol, e);
    if (!fn || !fits(g, fn, k, cfg, e) || (k->cooperative && !coop_fits(g, fn, k, cfg, e))) return NULL;
    return fn;
}

bool kj_gpu_launch(kj_gpu *g, kj_gpu_code *c, const kj_abi_kernel *k, const int64_t *cfg, void **args,
                   const void *const *slots, const char *file, int32_t line, kj_rt_error *e, int32_t *eline,
                   int32_t *ecol)
{
    /* launch specialisation: the 32-bit index entry when the arguments fit it (gpu_spec.c) */
    bool i32 = kj_gpu_index32_fits(k, cfg, args);
    code_fn *fn = launchable(g, c, k, i32 ? k->symbol32 : k->symbol, cfg, e);
    if (!fn) return false;
    uint64_t dptr[MAX_SLOTS];
    void *slot[MAX_SLOTS];
    uint32_t size[MAX_SLOTS]; /* of each parameter, for a graph's record of it */
    kj_mirror *written[MAX_SLOTS], *read[MAX_SLOTS], *used[MAX_SLOTS];
    unsigned n = 0, nw = 0, nr = 0;
    for (int32_t j = 0; j < k->nparams; j++) {
        const kj_abi_param *p = &k->params[j];
        if (p->kind == KJ_ABI_PARAM_SCALAR) {
            if (n == MAX_SLOTS) goto too_many;
            size[n] = (uint32_t)p->size;
            slot[n++] = args[j];
            continue;
        }
        if (n + 1 + 2 * (unsigned)p->ndim > MAX_SLOTS) goto too_many;
        const kj_abi_array *d = args[j];
        kj_mirror *m = device_arg(g, k, j, d, p->ndim, &dptr[n], e);
        if (!m) return false;
        slot[n] = &dptr[n];
        size[n++] = sizeof dptr[0];
        for (int i = 0; i < 2 * p->ndim; i++) {
            size[n] = 8;
            slot[n++] = (void *)(uintptr_t)kj_abi_array_dims_word(d, i);
        }
        if (p->kind == KJ_ABI_PARAM_ARRAY) written[nw++] = m;
        else read[nr++] = m;
    }
    if (k->nslots && !write_slots(g, c, k, slots, read, &nr, MAX_SLOTS - nw, e)) return false;
    /* those it may write first */
    memcpy(used, written, nw * sizeof *used);
    memcpy(used + nw, read, nr * sizeof *used);
    launch_arrays arr = {used, nw + nr, nw};
    return submit(g, c, fn, k, cfg, slot, size, n, &arr, file, line, e, eline, ecol);
too_many:
    return kj_rt_errorf(e, "RuntimeError", "kernel '%s' has more parameters than a launch can pass", k->name);
}

/* ---- prepared launches ---- */

/* A launch whose kernel entry and argument slots were found once: per
 * launch only the arrays' device addresses are written (their shapes and
 * strides, and the scalars, are read where the slots point: the caller's
 * argument memory, which it rewrites). */
struct kj_gpu_plan {
    kj_gpu *g;
    kj_gpu_code *c;
    code_fn *fn;
    const kj_abi_kernel *k;
    unsigned nslots, narrays, nwritten;
    struct plan_array {
        const kj_abi_array *d; /* its descriptor in the caller's argument memory */
        int32_t param, ndim;
    } *arrays;                 /* those it may write first */
    uint64_t *dptr;            /* per array: the slot its device address goes in */
    kj_mirror **used;          /* per array, per launch */
    void **slot;
};

kj_gpu_plan *kj_gpu_plan_new(kj_gpu *g, kj_gpu_code *c, const kj_abi_kernel *k, void **args, kj_rt_error *e)
{
    if (k->nslots) { /* a prepared launch has no run whose module slots it could read */
        kj_rt_errorf(e, "NameError", "name '%s' is not defined (kernel '%s' reads a module-level value computed "
                     "when the script runs)", k->slots[0].name, k->name);
        return NULL;
    }
    if (!kj_gpu_current(g, e)) return NULL;
    code_fn *fn = function(c, k->symbol, e);
    if (!fn) return NULL;
    unsigned nslots = 0, narrays = 0, nwritten = 0;
    for (int32_t j = 0; j < k->nparams; j++) {
        const kj_abi_param *p = &k->params[j];
        nslots += p->kind == KJ_ABI_PARAM_SCALAR ? 1 : 1 + 2 * (unsigned)p->ndim;
        narrays += p->kind != KJ_ABI_PARAM_SCALAR;
        nwritten += p->kind == KJ_ABI_PARAM_ARRAY;
    }
    kj_gpu_plan *pl = calloc(1, sizeof *pl);
    if (!pl || !(pl->arrays = calloc(narrays + 1, sizeof *pl->arrays)) ||
        !(pl->dptr = calloc(narrays + 1, sizeof *pl->dptr)) || !(pl->used = calloc(narrays + 1, sizeof *pl->used)) ||
        !(pl->slot = calloc(nslots + 1, sizeof *pl->slot)))
        abort();
    *pl = (kj_gpu_plan){g, c, fn, k, nslots, narrays, nwritten, pl->arrays, pl->dptr, pl->used, pl->slot};
    unsigned n = 0, w = 0, r = nwritten;
    for (int32_t j = 0; j < k->nparams; j++) {
        const kj_abi_param *p = &k->params[j];
        if (p->kind == KJ_ABI_PARAM_SCALAR) {
            pl->slot[n++] = args[j];
            continue;
        }
        unsigned a = p->kind == KJ_ABI_PARAM_ARRAY ? w++ : r++;
        pl->arrays[a] = (struct plan_array){args[j], j, p->ndim};
        pl->slot[n++] = &pl->dptr[a];
        for (int i = 0; i < 2 * p->ndim; i++) pl->slot[n++] = (void *)(uintptr_t)kj_abi_array_dims_word(args[j], i);
    }
    return pl;
}

bool kj_gpu_plan_launch(kj_gpu_plan *pl, const int64_t *cfg, kj_rt_error *e, int32_t *eline, int32_t *ecol)
{
    kj_gpu *g = pl->g;
    if (!kj_gpu_current(g, e) || !fits(g, pl->fn, pl->k, cfg, e) ||
        (pl->k->cooperative && !coop_fits(g, pl->fn, pl->k, cfg, e)))
        return false;
    for (unsigned a = 0; a < pl->narrays; a++) {
        const struct plan_array *x = &pl->arrays[a];
        if (!(pl->used[a] = device_arg(g, pl->k, x->param, x->d, x->ndim, &pl->dptr[a], e))) return false;
    }
    launch_arrays arr = {pl->used, pl->narrays, pl->nwritten};
    return submit(g, pl->c, pl->fn, pl->k, cfg, pl->slot, NULL, 0, &arr, NULL, 0, e, eline, ecol);
}

void kj_gpu_plan_free(kj_gpu_plan *pl)
{
    if (!pl) return;
    free(pl->arrays);
    free(pl->dptr);
    free(pl->used);
    free(pl->slot);
    free(pl);
}

bool kj_gpu_synchronize(kj_gpu *g, kj_rt_error *e)
{
    if (!kj_gpu_current(g, e)) return false;
    CUresult r = g->cu.cuCtxSynchronize();
    return r == CUDA_SUCCESS || (kj_gpu_fail(g, r, "cuCtxSynchronize", e), with_launch(g, e));
}

/* ---- streams ---- */

void *kj_gpu_stream_new(kj_gpu *g)
{
    CUstream s = NULL;
    g->cu.cuCtxSetCurrent(g->ctx);
    pthread_mutex_lock(&g->lock);
    g->streams = true; /* no more pooling of device memory (gpu_int.h) */
    pthread_mutex_unlock(&g->lock);
    kj_gpu_pool_drain(g);
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
    if (!kj_gpu_current(g, e)) return false;
    CUresult r = g->cu.cuStreamSynchronize((CUstream)s);
    return r == CUDA_SUCCESS || (kj_gpu_fail(g, r, "cuStreamSynchronize", e), with_launch(g, e));
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

bool kj_gpu_event_record(kj_gpu *g, void *ev, void *stream, kj_rt_error *e)
{
    if (!kj_gpu_current(g, e)) return false;
    CUresult r = g->cu.cuEventRecord((CUevent)ev, (CUstream)stream);
    return r == CUDA_SUCCESS || kj_gpu_fail(g, r, "cuEventRecord", e);
}

bool kj_gpu_event_elapsed(kj_gpu *g, void *a, void *b, float *ms, kj_rt_error *e)
{
    if (!kj_gpu_current(g, e)) return false;
    CUresult r = g->cu.cuEventSynchronize((CUevent)b);
    if (r == CUDA_SUCCESS) r = g->cu.cuEventElapsedTime(ms, (CUevent)a, (CUevent)b);
    return r == CUDA_SUCCESS || (kj_gpu_fail(g, r, "cuEventElapsedTime", e), with_launch(g, e));
}
