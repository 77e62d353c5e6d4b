/* SPDX-License-Identifier: BSD-2-Clause */
/* Numba's thread-pool settings of a context (threads.c): shared, counted
 * references, by the context and the modules it compiled. */
#ifndef KJ_API_THREADS_H
#define KJ_API_THREADS_H

#include <stdint.h>

struct kj_rt;
typedef struct kj_api_threads kj_api_threads;

kj_api_threads *kj_api_threads_new(void);
kj_api_threads *kj_api_threads_retain(kj_api_threads *t);
void kj_api_threads_release(kj_api_threads *t); /* NULL is ignored */

/* What a call starts with and leaves: `enter` puts the settings into the
 * call's run context and notes them in `seen`; `leave` keeps what the call
 * changed (numba.set_num_threads / set_parallel_chunksize in compiled code
 * last beyond the call, as Numba's per-thread settings do). */
typedef struct kj_api_threads_seen {
    int32_t num_threads;
    int64_t chunksize;
} kj_api_threads_seen;
void kj_api_threads_enter(kj_api_threads *t, struct kj_rt *rt, kj_api_threads_seen *seen);
void kj_api_threads_leave(kj_api_threads *t, const struct kj_rt *rt, const kj_api_threads_seen *seen);

#endif
