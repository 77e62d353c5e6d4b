/* SPDX-License-Identifier: BSD-2-Clause */
/* Numba's thread-pool settings of a context (threads.c): shared, counted
 * references, by the context and the modules it compiled. */
#ifndef KJ_API_THREADS_H
#define KJ_API_THREADS_H

#include <stdint.h>

#include "runtime/rt.h"

#include <stdatomic.h>

struct kj_api_threads {
    atomic_int refs;
    atomic_int num_threads;    /* 0: all of the pool's */
    _Atomic int64_t chunksize; /* 0: kjit's schedule */
};
typedef struct kj_api_threads kj_api_threads;

kj_api_threads *kj_api_threads_new(void);
kj_api_threads *kj_api_threads_retain(kj_api_threads *t);
void kj_api_threads_release(kj_api_threads *t); /* NULL is ignored */

/* What a call starts with and leaves: `enter` puts the settings into the
 * call's run context and notes them in `seen`; `leave` keeps what the call
 * changed (numba.set_num_threads / set_parallel_chunksize in compiled code
 * last beyond the call, as Numba's per-thread settings do). Inline: every
 * kjit_call runs them (a few loads, no calls). */
typedef struct kj_api_threads_seen {
    int32_t num_threads;
    int64_t chunksize;
} kj_api_threads_seen;

static inline void kj_api_threads_enter(kj_api_threads *t, kj_rt *rt, kj_api_threads_seen *seen)
{
    seen->num_threads = rt->num_threads = atomic_load_explicit(&t->num_threads, memory_order_relaxed);
    seen->chunksize = rt->chunksize = atomic_load_explicit(&t->chunksize, memory_order_relaxed);
}

static inline void kj_api_threads_leave(kj_api_threads *t, const kj_rt *rt, const kj_api_threads_seen *seen)
{
    /* only what the call changed: a call on another thread may have set the other */
    if (rt->num_threads != seen->num_threads) atomic_store(&t->num_threads, rt->num_threads);
    if (rt->chunksize != seen->chunksize) atomic_store(&t->chunksize, rt->chunksize);
}

#endif
