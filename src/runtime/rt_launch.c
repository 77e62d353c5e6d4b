/* SPDX-License-Identifier: BSD-2-Clause */
/* The one launch entry, kj_rt_launch: every kernel launch of generated
 * host code and of the C API's kjit_launch comes here (abi.h "kernels").
 * It checks the configuration as the CUDA driver does (cuLaunchKernel
 * answers CUDA_ERROR_INVALID_VALUE), then runs the kernel on the GPU of the
 * context (gpu.h) or, on the cpu target, its blocks one after the other
 * through the code generator's `K.block_entry` (src/codegen/llvm_kernel.c,
 * docs/kernels_cpu.md). */
#include "rt.h"

#include "../abi/abi.h"
#include "events.h"
#include "gpu.h"
#include "rt_host.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

enum {
    MAX_BLOCK_THREADS = 1024,
    /* shared memory per block, static plus dynamic, with the opt-in
     * attribute: sm_90's (the GPU the cpu target stands in for: --arch's
     * default), CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN */
    MAX_SHARED_OPTIN = 227 * 1024,
};

/* CUDA's limits per dimension: block (1024, 1024, 64), grid (2^31-1,
 * 65535, 65535). */
static const int64_t block_max[3] = {1024, 1024, 64};
static const int64_t grid_max[3] = {INT32_MAX, 65535, 65535};

static bool invalid(kj_rt_error *e, const char *kernel, const char *what, const int64_t *v, const char *why)
{
    return kj_rt_errorf(e, "RuntimeError",
                        "CUDA_ERROR_INVALID_VALUE: kernel '%s' launched with %s (%" PRId64 ", %" PRId64 ", %" PRId64
                        "): %s",
                        kernel, what, v[0], v[1], v[2], why);
}

bool kj_rt_launch_check(const int64_t *cfg, const char *kernel, kj_rt_error *e)
{
    const int64_t *grid = cfg, *block = cfg + 3;
    for (int k = 0; k < 3; k++) {
        if (grid[k] < 1) return invalid(e, kernel, "grid", grid, "every dimension must be at least 1");
        if (grid[k] > grid_max[k]) return invalid(e, kernel, "grid", grid, "a dimension exceeds the device's maximum");
    }
    for (int k = 0; k < 3; k++) {
        if (block[k] < 1) return invalid(e, kernel, "block", block, "every dimension must be at least 1");
        if (block[k] > block_max[k])
            return invalid(e, kernel, "block", block, "a dimension exceeds the device's maximum");
    }
    if (block[0] * block[1] * block[2] > MAX_BLOCK_THREADS)
        return invalid(e, kernel, "block", block, "a block has at most 1024 threads");
    /* a negative count of dynamic shared bytes, on every target */
    if (cfg[7] < 0)
        return kj_rt_errorf(e, "RuntimeError",
                            "CUDA_ERROR_INVALID_VALUE: kernel '%s' launched with %" PRId64
                            " bytes of dynamic shared memory",
                            kernel, cfg[7]);
    return true;
}

/* Only the error's kind and text are set, and only by a failure: a launch
 * clears none of the 520 bytes. */
#define KJ_RT_ERROR_EMPTY(e) ((e).exc = NULL, (e).message[0] = 0)

/* The cpu target's shared memory, static plus dynamic, held to what the
 * GPU path allows (gpu.c, fits): up to sm_90's opt-in limit, which it
 * reaches by asking for more than the default 48 KiB with
 * cuFuncSetAttribute, as CUDA C must; refused over it with gpu.c's
 * message. */
static void check_shared(kj_rt *rt, const kj_abi_kernel *k, const int64_t *cfg, int32_t line, int32_t col)
{
    int64_t dyn = cfg[7];
    if (k->static_shared <= MAX_SHARED_OPTIN && dyn <= MAX_SHARED_OPTIN - k->static_shared) return;
    char msg[256];
    snprintf(msg, sizeof msg,
             "CUDA_ERROR_INVALID_VALUE: kernel '%s' needs %" PRId64 " bytes of static and %" PRId64
             " bytes of dynamic shared memory per block; the device has at most %d",
             k->name, k->static_shared, dyn, (int)MAX_SHARED_OPTIN);
    kj_rt_raise(rt, KJ_RT_RUNTIME, msg, line, col);
}

/* STORE_GUARD: the inaccessible address space after the block storage of
 * a kernel with dynamic shared memory (reserved, never backed by memory):
 * a launch with fewer shared bytes than the kernel writes (no
 * boundscheck) faults there, reported by the fault handler, where it
 * would have corrupted the heap; 1 MiB is 1024 threads writing 1 KiB each
 * past the end. */
enum { STORE_ALIGN = 64, STORE_GUARD = 1 << 20 };

static void store_free(kj_abi_kx *kx)
{
    if (kx->store_guard) munmap(kx->store, (size_t)(kx->store_bytes + kx->store_guard));
    else free(kx->store);
    kx->store = NULL;
    kx->store_bytes = kx->store_guard = 0;
}

/* n usable bytes (a multiple of the page size) followed by the guard, or
 * NULL. */
static void *map_guarded(size_t n)
{
    if (n > SIZE_MAX - STORE_GUARD) return NULL;
    void *p = mmap(NULL, n + STORE_GUARD, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return NULL;
    if (mprotect(p, n, PROT_READ | PROT_WRITE) != 0) {
        munmap(p, n + STORE_GUARD);
        return NULL;
    }
    return p;
}

/* The storage's `bytes` at its end (64-byte aligned), so that with a guard
 * the dynamic shared memory, last, ends at most 63 bytes before it. */
static void *storage_tail(const kj_abi_kx *kx, int64_t bytes)
{
    if (!kx->store_guard) return kx->store;
    uintptr_t end = (uintptr_t)kx->store + (uintptr_t)kx->store_bytes;
    return (void *)((end - (uintptr_t)bytes) & ~(uintptr_t)(STORE_ALIGN - 1));
}

void *kj_rt_block_storage(kj_rt *rt, void *kxp, int64_t bytes, int32_t guarded, int32_t line, int32_t col)
{
    kj_abi_kx *kx = kxp;
    if (bytes <= kx->store_bytes - (kx->store_guard ? STORE_ALIGN : 0) && !kx->store_guard == !guarded)
        return storage_tail(kx, bytes);
    size_t unit = STORE_ALIGN;
    if (guarded) {
        long page = sysconf(_SC_PAGESIZE);
        unit = page > STORE_ALIGN ? (size_t)page : STORE_ALIGN;
    }
    /* aligned_alloc wants a multiple of the alignment; a guarded storage
     * whole pages, with room to align its tail */
    size_t want = (size_t)bytes + (guarded ? STORE_ALIGN : 0);
    size_t n = bytes < 0 || (uint64_t)bytes > SIZE_MAX - 2 * unit ? 0 : (want + unit - 1) / unit * unit;
    void *p = !n ? NULL : guarded ? map_guarded(n) : aligned_alloc(STORE_ALIGN, n);
    if (!p) {
        char msg[200];
        snprintf(msg, sizeof msg,
                 "cannot allocate %" PRId64 " bytes for a block's shared memory and per-thread state", bytes);
        kj_rt_raise(rt, KJ_RT_MEMORY, msg, line, col);
    }
    store_free(kx);
    kx->store = p;
    kx->store_bytes = (int64_t)n;
    kx->store_guard = guarded ? STORE_GUARD : 0;
    return storage_tail(kx, bytes);
}

/* How long a waiting loop (kj_rt_spin_check) may spin while blocks run on
 * the pool, where another block may still change what it reads. */
enum { SPIN_LIMIT_POOL_S = 10 };

void kj_rt_spin_check(kj_rt *rt, double *since, int32_t line, int32_t col)
{
    double now = kj_rt_perf_counter();
    if (*since == 0) *since = now;
    /* a worker runs the blocks of a launch on the pool (parallel target) */
    if (rt->in_parallel && now - *since < SPIN_LIMIT_POOL_S) return;
    char msg[400];
    snprintf(msg, sizeof msg,
             "kernel '%s' spins in a loop that changes nothing (it reads memory, or updates it only "
             "atomically), waiting for another thread: on the cpu targets the threads of a block run one "
             "after the other, so a thread that waits for another of its block waits forever "
             "(docs/kernels_cpu.md)",
             rt->fn_name ? rt->fn_name : "?");
    kj_rt_raise(rt, KJ_RT_RUNTIME, msg, line, col);
}

/* Blocks first..last-1 of a launch on the host, in z, y, x order (block
 * b is x = b % gx, y = b / gx % gy, z = b / (gx gy); z, x, y for a kernel
 * whose x and y were swapped). The blocks' storage
 * (kx->store, kj_rt_block_storage) is freed when they are done, and also
 * when one raises: the error is caught here, the storage freed and the
 * error raised on to the entry call that catches it. kx lives in the
 * caller's frame, so nothing here changes between setjmp and longjmp. */
/* not inlined: its loop variable must not live in run_blocks' setjmp frame */
__attribute__((noinline)) KJ_CALLS_JIT static void each_block(kj_rt *rt, const kj_abi_kernel *k, const int64_t *cfg, void **args,
                                    kj_abi_kx *kx, int64_t first, int64_t last)
{
    /* a kernel remapped for its thread layout (kir_layout.h) walks the
     * contiguous dimension with its physical x, logical y: its blocks run
     * y fastest too, so that one block's neighbour in memory runs next (the
     * blocks are independent, and nothing it does shows their order) */
    unsigned fx = kj_abi_perm_dim(k->perm, 0) == 0 ? 0 : 1, fy = 1 - fx;
    for (int64_t b = first; b < last; b++) {
        kx->bid[fx] = b % cfg[fx];
        kx->bid[fy] = b / cfg[fx] % cfg[fy];
        kx->bid[2] = b / (cfg[0] * cfg[1]);
        k->block(rt, kx, args);
    }
}

static void run_blocks(kj_rt *rt, const kj_abi_kernel *k, const int64_t *cfg, void **args, kj_abi_kx *kx,
                       int32_t line, int64_t first, int64_t last)
{
    /* what the fault handler names while the blocks run (fault.h) */
    const char *outer = rt->fn_name;
    int32_t outer_line = rt->fn_line;
    rt->fn_name = k->name;
    rt->fn_line = line;
    jmp_buf jb;
    jmp_buf *saved = rt->jb;
    if (saved && setjmp(jb)) {
        rt->jb = saved;
        rt->fn_name = outer;
        rt->fn_line = outer_line;
        store_free(kx);
        longjmp(*saved, 1);
    }
    if (saved) rt->jb = &jb;
    each_block(rt, k, cfg, args, kx, first, last);
    rt->jb = saved;
    rt->fn_name = outer;
    rt->fn_line = outer_line;
    store_free(kx);
}

static kj_abi_kx kx_of(const int64_t *cfg)
{
    kj_abi_kx kx = {.dyn_bytes = cfg[7]};
    for (int d = 0; d < 3; d++) {
        kx.gdim[d] = cfg[d];
        kx.bdim[d] = cfg[3 + d];
    }
    return kx;
}

void kj_rt_run_block_range(kj_rt *rt, const kj_abi_kernel *k, const int64_t *cfg, void **args, int32_t line,
                           int64_t first, int64_t last)
{
    kj_abi_kx kx = kx_of(cfg);
    run_blocks(rt, k, cfg, args, &kx, line, first, last);
}

/* The parallel target: chunks of a launch's blocks on the thread pool
 * (kj_rt_parallel_for), each worker with a kx, and so a block storage, of
 * its own. Blocks are independent in CUDA's model (only atomics, which are
 * real atomics on the host too, connect them), so the result is the same as
 * one after the other, except the order of what kernels print. */
typedef struct blocks_run {
    const kj_abi_kernel *k;
    const int64_t *cfg;
    void **args;
    int32_t line;
} blocks_run;

static void block_chunk(kj_rt *w, void *env, int64_t begin, int64_t end, void *acc)
{
    (void)acc;
    const blocks_run *r = env;
    kj_abi_kx kx = kx_of(r->cfg);
    run_blocks(w, r->k, r->cfg, r->args, &kx, r->line, begin, end);
}

/* A launch on the GPU timed by two CUDA events around it, waited for (the
 * events' sink asked for each kernel's time, which a launch that returns at
 * once cannot give). The events are freed before any error is raised. */
static bool gpu_launch_timed(kj_rt *rt, const kj_abi_kernel *k, const int64_t *cfg, void **args,
                             const void *const *slots, int32_t line, kj_rt_error *e, int32_t *eline, int32_t *ecol)
{
    void *ev0 = kj_gpu_event_new(rt->gpu), *ev1 = ev0 ? kj_gpu_event_new(rt->gpu) : NULL;
    float ms = 0;
    bool ok = ev1 && kj_gpu_event_record(rt->gpu, ev0, NULL, e) &&
              kj_gpu_launch(rt->gpu, rt->code, k, cfg, args, slots, rt->file, line, e, eline, ecol) &&
              kj_gpu_event_record(rt->gpu, ev1, NULL, e) && kj_gpu_event_elapsed(rt->gpu, ev0, ev1, &ms, e);
    if (!ev1 && !e->message[0]) /* no events (out of resources): launch untimed */
        ok = kj_gpu_launch(rt->gpu, rt->code, k, cfg, args, slots, rt->file, line, e, eline, ecol);
    kj_gpu_event_free(rt->gpu, ev0);
    kj_gpu_event_free(rt->gpu, ev1);
    if (ok) kj_ev_emit(rt->sink, KJ_EV_LAUNCH, k->name, 0, 1e-3 * ms, false);
    return ok;
}

static void launch_host(kj_rt *rt, const kj_abi_kernel *k, const int64_t *cfg, void **args, int32_t line, int32_t col)
{
    if (!k->block) {
        char msg[200];
        snprintf(msg, sizeof msg, "kernel '%s' was compiled for the GPU, and this context has none", k->name);
        kj_rt_raise(rt, KJ_RT_RUNTIME, msg, line, col);
    }
    check_shared(rt, k, cfg, line, col);
    /* a kernel compiled for a thread-layout permutation (kir_layout.h) runs
     * its block permuted: the thread loops' innermost, x, is its logical y */
    int64_t phys[8], grouped[8];
    if (k->regroup && !k->parallel && !k->cooperative) { /* the threads of a row of blocks as one (kir_regroup.h) */
        kj_abi_regroup(k, cfg, grouped);
        cfg = grouped;
    }
    kj_abi_block_phys(k, cfg, phys);
    cfg = phys;
    int64_t nblocks = cfg[0] * cfg[1] * cfg[2];
    if (k->cooperative) {
        kj_rt_launch_cooperative(rt, k, cfg, args, line, col);
        return;
    }
    if (k->parallel && rt->pool && nblocks > 1) {
        blocks_run r = {k, cfg, args, line};
        kj_rt_parallel_for(rt, block_chunk, &r, nblocks, 1, 0, NULL);
        return;
    }
    kj_abi_kx kx = kx_of(cfg);
    run_blocks(rt, k, cfg, args, &kx, line, 0, nblocks);
}

enum { SMALL_SLOTS = 16 };

/* The memory forms of the module slots kernel k reads (abi.h kj_abi_slot),
 * for a launch on the GPU, which writes them into the kernel's module: in
 * small when they fit, else in memory the caller frees. A slot not bound
 * yet raises Python's NameError, as a read on the host does. */
static const void **gpu_slots(kj_rt *rt, const kj_abi_kernel *k, const void **small, int32_t line, int32_t col)
{
    for (int32_t j = 0; j < k->nslots; j++)
        if (!kj_rt_module_slot_peek(rt, k->slots[j].index))
            kj_rt_module_slot(rt, k->slots[j].index, 0, NULL, k->slots[j].name, line, col); /* raises */
    const void **v = k->nslots <= SMALL_SLOTS ? small : malloc((size_t)k->nslots * sizeof *v);
    if (!v) kj_rt_raise(rt, KJ_RT_MEMORY, "no memory for a launch's module values", line, col);
    for (int32_t j = 0; j < k->nslots; j++) v[j] = kj_rt_module_slot_peek(rt, k->slots[j].index);
    return v;
}

void kj_rt_launch(kj_rt *rt, const void *kernel, const int64_t *cfg, void **args, int32_t line, int32_t col)
{
    const kj_abi_kernel *k = kernel;
    kj_rt_error e;
    KJ_RT_ERROR_EMPTY(e);
    if (!kj_rt_launch_check(cfg, k->name, &e)) kj_rt_raise_error(rt, &e, line, col);
    if (rt->gpu) { /* gpu.c permutes the block (kj_abi_block_phys) itself: its messages name the written one */
        int32_t eline = line, ecol = col;
        const void *small[SMALL_SLOTS], **slots = gpu_slots(rt, k, small, line, col);
        bool ok = kj_ev_on(rt->sink)
                      ? gpu_launch_timed(rt, k, cfg, args, slots, line, &e, &eline, &ecol)
                      : kj_gpu_launch(rt->gpu, rt->code, k, cfg, args, slots, rt->file, line, &e, &eline, &ecol);
        if (slots != small) free(slots);
        if (!ok) {
            /* the launches a graph took before this one are made first */
            kj_rt_error later = {0};
            kj_gpu_graph_end(rt->gpu, &later);
            kj_rt_raise_error(rt, &e, eline, ecol);
        }
        return;
    }
    if (!kj_ev_on(rt->sink)) {
        launch_host(rt, k, cfg, args, line, col);
        return;
    }
    double t0 = kj_rt_perf_counter(); /* an error raised skips the event: the run failed anyway */
    launch_host(rt, k, cfg, args, line, col);
    kj_ev_emit(rt->sink, KJ_EV_LAUNCH, k->name, 0, kj_rt_perf_counter() - t0, false);
}
