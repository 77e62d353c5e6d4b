/* SPDX-License-Identifier: BSD-2-Clause */
/* Numba's thread-pool API (user/threading-layer.rst "Setting the Number of
 * Threads", "Getting a Thread ID"; user/parallel.rst "Scheduling"), as the
 * run context's settings that kj_rt_parallel_for (rt.c) reads:
 *
 *   numba.set_num_threads(n)         the threads later parallel loops use
 *   numba.get_num_threads()
 *   numba.get_thread_id()            0 outside a parallel loop
 *   numba.set_parallel_chunksize(n)  iterations per chunk (0: kjit's choice),
 *                                    the previous size returned
 *   numba.get_parallel_chunksize()
 *   numba.config.NUMBA_NUM_THREADS, NUMBA_DEFAULT_NUM_THREADS
 *
 * Numba keeps these per thread; kjit per context, which is per thread too:
 * a worker's context inherits the thread count, starts with chunk size 0
 * and knows its index (rt.c worker_init, par_task). */
#include "rt.h"
#include "pool.h"

#include <stdio.h>

int kj_rt_threads(const kj_rt *rt)
{
    int size = kj_pool_size(rt->pool);
    return rt->num_threads > 0 && rt->num_threads < size ? rt->num_threads : size;
}

/* Numba's set_num_threads: 1 <= n <= NUMBA_NUM_THREADS, else ValueError. */
KJ_CALLS_JIT void kj_rt_set_num_threads(kj_rt *rt, int64_t n, int32_t line, int32_t col)
{
    int size = kj_pool_size(rt->pool);
    if (n < 1 || n > size) {
        char msg[160];
        snprintf(msg, sizeof msg, "The number of threads must be between 1 and %d", size);
        kj_rt_raise(rt, KJ_RT_VALUE, msg, line, col);
    }
    rt->num_threads = (int32_t)n;
}

int64_t kj_rt_get_num_threads(kj_rt *rt) { return kj_rt_threads(rt); }

int64_t kj_rt_get_thread_id(kj_rt *rt) { return rt->thread_id; }

/* Numba's set_parallel_chunksize: n >= 0 (0: the default schedule), else
 * ValueError; the previous size back. */
KJ_CALLS_JIT int64_t kj_rt_set_parallel_chunksize(kj_rt *rt, int64_t n, int32_t line, int32_t col)
{
    if (n < 0) kj_rt_raise(rt, KJ_RT_VALUE, "chunksize must be greater than or equal to zero", line, col);
    int64_t old = rt->chunksize;
    rt->chunksize = n;
    return old;
}

int64_t kj_rt_get_parallel_chunksize(kj_rt *rt) { return rt->chunksize; }

/* numba.config.NUMBA_NUM_THREADS (the pool's size: KJIT_NUM_THREADS or
 * NUMBA_NUM_THREADS, else the CPUs) and NUMBA_DEFAULT_NUM_THREADS (the
 * CPUs this process may run on, whatever the variables say). */
int64_t kj_rt_config_threads(kj_rt *rt, int32_t which)
{
    if (which == 0) return kj_pool_size(rt->pool);
    int n = 1;
    kj_pool_cpus(&n);
    return n;
}
