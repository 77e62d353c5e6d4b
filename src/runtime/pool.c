/* SPDX-License-Identifier: BSD-2-Clause */
/* The thread pool of the `parallel` target (pool.h): pthreads sleeping on
 * a condition variable, one generation number per run, tasks taken from an
 * atomic counter, the caller working as worker 0. */
#include "pool.h"

#include "../util/alloc.h"
#include "../util/env.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct pool_worker {
    kj_pool *p;
    int index;
    pthread_t th;
} pool_worker;

struct kj_pool {
    atomic_uint refs;
    int size;          /* workers, the caller included */
    int nstarted;      /* threads running (workers 1..nstarted) */
    bool start_tried;  /* threads are started once; a failure is not retried */
    pool_worker *workers;
    atomic_bool busy;  /* a run is in progress: further runs go inline */
    pthread_mutex_t mu;
    pthread_cond_t wake; /* workers: a new generation or stop */
    pthread_cond_t done; /* the caller: active reached 0 */
    uint64_t generation;
    bool stop;
    int active; /* threads still working on this generation */
    /* the run of the current generation */
    kj_pool_fn fn;
    void *ctx;
    int64_t ntasks;
    int nworkers; /* of this run: workers at or above it take no task */
    atomic_int_fast64_t next;
    /* KJIT_STATS: runs spread over the threads and their wall time */
    atomic_uint_least64_t regions, region_ns;
};

/* Parse one variable; 0: unset or empty, -1: bad (err filled). */
static int parse_env(const char *name, char *err, size_t cap)
{
    int64_t v = 0;
    kj_env_status st = kj_env_int(name, 1, KJ_POOL_MAX_THREADS, "a thread count", &v, err, cap);
    return st == KJ_ENV_BAD ? -1 : st == KJ_ENV_UNSET ? 0 : (int)v;
}

bool kj_pool_threads_from_env(int *out, char *err, size_t cap)
{
    static const char *const vars[] = {"KJIT_NUM_THREADS", "NUMBA_NUM_THREADS"};
    for (size_t k = 0; k < sizeof vars / sizeof *vars; k++) {
        int n = parse_env(vars[k], err, cap);
        if (n < 0) return false;
        if (n > 0) {
            *out = n;
            return true;
        }
    }
    kj_pool_cpus(out);
    return true;
}

void kj_pool_cpus(int *out)
{
    cpu_set_t set;
    int n = 0;
    if (sched_getaffinity(0, sizeof set, &set) == 0) n = CPU_COUNT(&set);
    if (n < 1) n = (int)sysconf(_SC_NPROCESSORS_ONLN);
    *out = n < 1 ? 1 : n > KJ_POOL_MAX_THREADS ? KJ_POOL_MAX_THREADS : n;
}

kj_pool *kj_pool_new(int nthreads)
{
    kj_pool *p = xcalloc(1, sizeof *p);
    atomic_init(&p->refs, 1);
    p->size = nthreads < 1 ? 1 : nthreads > KJ_POOL_MAX_THREADS ? KJ_POOL_MAX_THREADS : nthreads;
    atomic_init(&p->busy, false);
    atomic_init(&p->next, 0);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    return p;
}

kj_pool *kj_pool_retain(kj_pool *p)
{
    if (p) atomic_fetch_add(&p->refs, 1);
    return p;
}

int kj_pool_size(const kj_pool *p) { return p ? p->size : 1; }

/* Take tasks until none is left. */
static void work(kj_pool *p, kj_pool_fn fn, void *ctx, int64_t n, int worker)
{
    for (;;) {
        int64_t t = atomic_fetch_add(&p->next, 1);
        if (t >= n) return;
        fn(ctx, t, worker);
    }
}

static void *worker_main(void *arg)
{
    pool_worker *w = arg;
    kj_pool *p = w->p;
    uint64_t seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && p->generation == seen) pthread_cond_wait(&p->wake, &p->mu);
        if (p->stop) break;
        seen = p->generation;
        kj_pool_fn fn = p->fn;
        void *ctx = p->ctx;
        int64_t n = p->ntasks;
        bool masked = w->index >= p->nworkers;
        pthread_mutex_unlock(&p->mu);
        if (!masked) work(p, fn, ctx, n, w->index);
        pthread_mutex_lock(&p->mu);
        if (--p->active == 0) pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Start workers 1..size-1 (once). Those that fail to start are left out. */
static void start_threads(kj_pool *p)
{
    if (p->start_tried) return;
    p->start_tried = true;
    p->workers = xcalloc((size_t)p->size, sizeof *p->workers);
    for (int k = 1; k < p->size; k++) {
        pool_worker *w = &p->workers[p->nstarted + 1];
        *w = (pool_worker){.p = p, .index = p->nstarted + 1};
        if (pthread_create(&w->th, NULL, worker_main, w) != 0) break;
        p->nstarted++;
    }
}

void kj_pool_run(kj_pool *p, int64_t ntasks, kj_pool_fn fn, void *ctx)
{
    kj_pool_run_on(p, ntasks, fn, ctx, p ? p->size : 1);
}

void kj_pool_run_on(kj_pool *p, int64_t ntasks, kj_pool_fn fn, void *ctx, int nworkers)
{
    if (ntasks <= 0) return;
    bool inline_only = !p || p->size == 1 || ntasks == 1 || nworkers <= 1;
    bool was_busy = false;
    if (!inline_only) was_busy = atomic_exchange(&p->busy, true);
    if (inline_only || was_busy) {
        for (int64_t t = 0; t < ntasks; t++) fn(ctx, t, 0);
        return;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0); /* ~20 ns, against a wake-up of every thread */
    start_threads(p);
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->ctx = ctx;
    p->ntasks = ntasks;
    p->nworkers = nworkers;
    atomic_store(&p->next, 0);
    p->active = p->nstarted;
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    work(p, fn, ctx, ntasks, 0);
    pthread_mutex_lock(&p->mu);
    while (p->active > 0) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    atomic_fetch_add(&p->regions, 1);
    atomic_fetch_add(&p->region_ns, (uint64_t)((t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec)));
    atomic_store(&p->busy, false);
}

void kj_pool_stats(const kj_pool *p, uint64_t *regions, double *seconds)
{
    kj_pool *q = (kj_pool *)(uintptr_t)p; /* atomics are read, not changed */
    *regions = atomic_load(&q->regions);
    *seconds = 1e-9 * (double)atomic_load(&q->region_ns);
}

void kj_pool_release(kj_pool *p)
{
    if (!p || atomic_fetch_sub(&p->refs, 1) != 1) return;
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (int k = 1; k <= p->nstarted; k++) pthread_join(p->workers[k].th, NULL);
    free(p->workers);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->mu);
    free(p);
}
