/* SPDX-License-Identifier: BSD-2-Clause */
/* Cooperative launches on the cpu targets: `cuda.cg.this_grid().sync()`.
 *
 * A grid barrier needs every block of the launch live at once, so a
 * kernel that uses one (kj_abi_kernel.cooperative) runs each of its blocks
 * on an OS thread of its own, with a context of its own (as the parallel
 * target's workers), on `cpu` and `parallel` alike. Inside a block,
 * grid.sync() is first a barrier of the block (the code generator splits
 * regions there, llvm_kernel.c); then `K.block` calls kj_rt_grid_sync once,
 * which waits here until every block has come (a mutex and a condition
 * variable: a generation count, as a pthread barrier, plus the failures).
 *
 * As on a GPU the grid must fit on the device at once: the cpu target
 * stands in for sm_90 (132 SMs of an H100 SXM, 2048 threads, 32 blocks and
 * 228 KiB of shared memory each; registers are not counted), and a larger
 * grid is refused before any block runs, with the limit named. A block that
 * ends, or raises, while others wait at grid.sync() (a GPU would hang)
 * stops the launch with an error. */
#include "rt.h"
#include "rt_host.h"

#include "../abi/abi.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    SM_COUNT = 132,
    SM_THREADS = 2048,
    SM_BLOCKS = 32,
    SM_SHARED = 228 * 1024,
    BLOCK_STACK = 8 << 20, /* per block thread: a kernel's per-thread locals may take 1 MiB of stack */
};

typedef struct kj_grid_run {
    const kj_abi_kernel *k;
    const int64_t *cfg;
    void **args;
    int32_t line;
    const kj_rt *parent;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int64_t nblocks, waiting, ended;
    uint64_t gen;
    int32_t sync_line, sync_col; /* where the waiting blocks wait */
    /* the first error (a block's, or the launch's own); later ones, of
     * blocks stopped by it, are not kept */
    bool failed;
    kj_rt_kind kind;
    int32_t eline, ecol;
    char message[sizeof ((kj_rt *)0)->message];
} kj_grid_run;

typedef struct grid_block {
    kj_grid_run *run;
    int64_t b;
    pthread_t th;
} grid_block;

static int64_t coop_max_blocks(int64_t threads, int64_t shared_bytes)
{
    int64_t warps = (threads + 31) / 32;
    int64_t per_sm = warps > 0 ? SM_THREADS / (warps * 32) : SM_BLOCKS;
    if (per_sm > SM_BLOCKS) per_sm = SM_BLOCKS;
    if (shared_bytes > 0 && SM_SHARED / shared_bytes < per_sm) per_sm = SM_SHARED / shared_bytes;
    return per_sm * SM_COUNT;
}

int64_t kj_rt_grid_max_blocks(int64_t threads, int64_t shared_bytes) { return coop_max_blocks(threads, shared_bytes); }

/* Keep the first error; the caller holds mu. */
static void fail_locked(kj_grid_run *r, kj_rt_kind kind, const char *msg, int32_t line, int32_t col)
{
    if (r->failed) return;
    r->failed = true;
    r->kind = kind;
    r->eline = line;
    r->ecol = col;
    snprintf(r->message, sizeof r->message, "%s", msg);
    pthread_cond_broadcast(&r->cv);
}

/* Every block has either reached grid.sync() or ended: when some ended,
 * those waiting would wait forever. The caller holds mu. */
static void check_stranded(kj_grid_run *r)
{
    if (r->waiting == 0 || r->ended == 0 || r->waiting + r->ended != r->nblocks) return;
    char msg[400];
    snprintf(msg, sizeof msg,
             "%" PRId64 " of the %" PRId64 " blocks of kernel '%s' ended without reaching grid.sync(), "
             "where the other %" PRId64 " wait for them (on a GPU the kernel would hang)",
             r->ended, r->nblocks, r->k->name, r->waiting);
    fail_locked(r, KJ_RT_RUNTIME, msg, r->sync_line, r->sync_col);
}

void kj_rt_grid_sync(kj_rt *rt, int32_t line, int32_t col)
{
    kj_grid_run *r = rt->grid;
    if (!r) kj_rt_raise(rt, KJ_RT_RUNTIME, "grid.sync() outside a cooperative launch", line, col);
    pthread_mutex_lock(&r->mu);
    if (!r->waiting) {
        r->sync_line = line;
        r->sync_col = col;
    }
    uint64_t gen = r->gen;
    r->waiting++;
    if (r->waiting == r->nblocks) { /* the last to come releases the others */
        r->waiting = 0;
        r->gen++;
        pthread_cond_broadcast(&r->cv);
    } else {
        check_stranded(r);
        while (r->gen == gen && !r->failed) pthread_cond_wait(&r->cv, &r->mu);
    }
    bool failed = r->failed && r->gen == gen;
    pthread_mutex_unlock(&r->mu);
    /* stopped by another block's error: this block's own is not kept */
    if (failed) kj_rt_raise(rt, KJ_RT_RUNTIME, "the launch was stopped by another block", line, col);
}

static KJ_CALLS_JIT void block_entry(kj_rt *w, void **args, void *ret)
{
    (void)ret;
    const grid_block *gb = args[0];
    const kj_grid_run *r = gb->run;
    kj_rt_run_block_range(w, r->k, r->cfg, r->args, r->line, gb->b, gb->b + 1);
}

static void *block_thread(void *p)
{
    grid_block *gb = p;
    kj_grid_run *r = gb->run;
    kj_rt w;
    kj_rt_worker_init(&w, r->parent);
    w.grid = r;
    void *args[1] = {gb};
    kj_rt_kind kind = kj_rt_call_entry(&w, block_entry, args, NULL);
    pthread_mutex_lock(&r->mu);
    if (kind != KJ_RT_OK) fail_locked(r, w.kind != KJ_RT_OK ? w.kind : kind, w.message, w.line, w.col);
    r->ended++;
    check_stranded(r);
    pthread_mutex_unlock(&r->mu);
    kj_rt_dispose(&w);
    return NULL;
}

static void check_fits(kj_rt *rt, const kj_abi_kernel *k, const int64_t *cfg, int32_t line, int32_t col)
{
    int64_t threads = cfg[3] * cfg[4] * cfg[5], nblocks = cfg[0] * cfg[1] * cfg[2];
    int64_t limit = coop_max_blocks(threads, k->static_shared + cfg[7]);
    if (nblocks <= limit) return;
    char msg[400];
    snprintf(msg, sizeof msg,
             "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE: kernel '%s' uses grid.sync() and was launched with grid "
             "(%" PRId64 ", %" PRId64 ", %" PRId64 ") of %" PRId64 " blocks; at most %" PRId64
             " blocks of %" PRId64 " threads can be resident at once (%" PRId64 " per SM x %d SMs)",
             k->name, cfg[0], cfg[1], cfg[2], nblocks, limit, threads, limit / SM_COUNT, (int)SM_COUNT);
    kj_rt_raise(rt, KJ_RT_RUNTIME, msg, line, col);
}

/* Start every block's thread; false (the launch failed, the started ones
 * stopped) when one cannot be started. */
static bool start_blocks(kj_grid_run *r, grid_block *gb)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, BLOCK_STACK);
    int64_t started = 0;
    for (; started < r->nblocks; started++) {
        gb[started] = (grid_block){.run = r, .b = started};
        if (pthread_create(&gb[started].th, &attr, block_thread, &gb[started]) != 0) break;
    }
    pthread_attr_destroy(&attr);
    if (started < r->nblocks) {
        pthread_mutex_lock(&r->mu);
        char msg[200];
        snprintf(msg, sizeof msg, "cannot start a thread for each of the %" PRId64 " blocks of kernel '%s'",
                 r->nblocks, r->k->name);
        fail_locked(r, KJ_RT_RUNTIME, msg, r->line, 0);
        r->ended += r->nblocks - started; /* never started: count them as ended */
        pthread_mutex_unlock(&r->mu);
    }
    for (int64_t b = 0; b < started; b++) pthread_join(gb[b].th, NULL);
    return !r->failed;
}

void kj_rt_launch_cooperative(kj_rt *rt, const kj_abi_kernel *k, const int64_t *cfg, void **args, int32_t line,
                              int32_t col)
{
    check_fits(rt, k, cfg, line, col);
    kj_grid_run *r = calloc(1, sizeof *r);
    grid_block *gb = r ? calloc((size_t)(cfg[0] * cfg[1] * cfg[2]), sizeof *gb) : NULL;
    if (!gb) {
        free(r);
        kj_rt_raise(rt, KJ_RT_MEMORY, "no memory for a cooperative launch", line, col);
    }
    *r = (kj_grid_run){.k = k, .cfg = cfg, .args = args, .line = line, .parent = rt,
                       .nblocks = cfg[0] * cfg[1] * cfg[2]};
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->cv, NULL);
    bool ok = start_blocks(r, gb);
    pthread_mutex_destroy(&r->mu);
    pthread_cond_destroy(&r->cv);
    free(gb);
    if (ok) {
        free(r);
        return;
    }
    kj_rt_kind kind = r->kind;
    int32_t eline = r->eline, ecol = r->ecol;
    char msg[sizeof r->message];
    memcpy(msg, r->message, sizeof msg);
    free(r);
    kj_rt_raise(rt, kind, msg, eline, ecol);
}
