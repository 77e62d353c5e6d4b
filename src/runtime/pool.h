/* SPDX-License-Identifier: BSD-2-Clause */
/* A thread pool for the `parallel` target (docs/runtime.md "Thread pool").
 *
 * One pool per kjit context, shared (reference counted) with the modules
 * the context compiled. It runs "N independent tasks with a worker index":
 * kj_pool_run(pool, n, fn, ctx) calls fn(ctx, task, worker) once for every
 * task in [0, n), spread over the pool's threads, and returns when all
 * have run. The calling thread takes part as worker 0; the pool's own
 * threads are workers 1..size-1, started at the first run that has more
 * than one task and sleeping on a condition variable between runs. Tasks
 * are taken in increasing order from a shared counter, so a task function
 * can skip the rest cheaply once one failed.
 *
 * A run started while the pool is busy (a task that itself runs a parallel
 * loop, or a second thread using the same pool) runs inline on the calling
 * thread, in task order, as worker 0 — nested parallelism is serial, as in
 * Numba's default.
 *
 * Task functions must not longjmp out of kj_pool_run: the runtime's raise
 * path is caught per task (kj_rt_parallel_for in rt.c). The pool knows
 * nothing of kj_rt. */
#ifndef KJ_POOL_H
#define KJ_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct kj_pool kj_pool;

/* fn(ctx, task, worker): worker in [0, kj_pool_size). */
typedef void (*kj_pool_fn)(void *ctx, int64_t task, int worker);

/* The most threads a pool may have. */
enum { KJ_POOL_MAX_THREADS = 1024 };

/* The thread count from the environment: KJIT_NUM_THREADS, else
 * NUMBA_NUM_THREADS, else the CPUs this process may run on
 * (sched_getaffinity). False, with the reason in err, when a variable is
 * set but not an integer in [1, KJ_POOL_MAX_THREADS]. */
bool kj_pool_threads_from_env(int *out, char *err, size_t cap);
/* The CPUs this process may run on (sched_getaffinity), at most
 * KJ_POOL_MAX_THREADS: Numba's NUMBA_DEFAULT_NUM_THREADS. */
void kj_pool_cpus(int *out);

/* A pool of `nthreads` workers (the caller included; clamped to
 * [1, KJ_POOL_MAX_THREADS]); no thread starts until the first run. One
 * reference, for the caller. */
kj_pool *kj_pool_new(int nthreads);
kj_pool *kj_pool_retain(kj_pool *p);
/* Drop a reference; the last one stops and joins the threads. NULL is
 * ignored. Must not be called from a task. */
void kj_pool_release(kj_pool *p);
int kj_pool_size(const kj_pool *p);

/* Run tasks [0, ntasks) as described above; returns when all have run.
 * ntasks <= 0 does nothing. If threads cannot be started the tasks run on
 * the threads there are (at worst all inline). */
void kj_pool_run(kj_pool *p, int64_t ntasks, kj_pool_fn fn, void *ctx);
/* The same on workers 0..nworkers-1 only (numba.set_num_threads masks the
 * others out): the rest take no task of this run. */
void kj_pool_run_on(kj_pool *p, int64_t ntasks, kj_pool_fn fn, void *ctx, int nworkers);

/* For KJIT_STATS: the runs spread over the threads so far (parallel
 * regions; runs done inline are not counted) and their wall time. */
void kj_pool_stats(const kj_pool *p, uint64_t *regions, double *seconds);

#endif
