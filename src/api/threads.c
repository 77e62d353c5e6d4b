/* SPDX-License-Identifier: BSD-2-Clause */
/* Numba's thread-pool settings from outside compiled code (kjit.h
 * kjit_ctx_threads_get / _set): a context's settings, which every call of
 * its modules starts with (kj_api_call_entry) and which keep what compiled
 * code set (runtime/rt_threads.c). The modules hold references, as they may
 * outlive the context. */
#include "threads.h"

#include "api_int.h"
#include "runtime/pool.h"

#include <stdlib.h>

kj_api_threads *kj_api_threads_new(void)
{
    kj_api_threads *t = calloc(1, sizeof *t);
    if (!t) abort();
    atomic_init(&t->refs, 1);
    return t;
}

kj_api_threads *kj_api_threads_retain(kj_api_threads *t)
{
    if (t) atomic_fetch_add(&t->refs, 1);
    return t;
}

void kj_api_threads_release(kj_api_threads *t)
{
    if (t && atomic_fetch_sub(&t->refs, 1) == 1) free(t);
}

/* The pool's size: the context's pool, else what the environment asks for. */
static int64_t max_threads(kjit_ctx *ctx)
{
    if (ctx) {
        pthread_mutex_lock(&ctx->lock);
        int64_t n = ctx->pool ? kj_pool_size(ctx->pool) : 0;
        pthread_mutex_unlock(&ctx->lock);
        if (n) return n;
    }
    int n = 1;
    char why[200];
    return kj_pool_threads_from_env(&n, why, sizeof why) ? n : -1;
}

int64_t kjit_ctx_threads_get(kjit_ctx *ctx, kjit_threads_setting which)
{
    switch (which) {
    case KJIT_THREADS_MAX: return max_threads(ctx);
    case KJIT_THREADS_CPUS: {
        int n = 1;
        kj_pool_cpus(&n);
        return n;
    }
    case KJIT_THREADS_NUM: {
        if (!ctx) return -1;
        int n = atomic_load(&ctx->threads->num_threads);
        return n > 0 ? n : max_threads(ctx);
    }
    case KJIT_THREADS_CHUNKSIZE: return ctx ? atomic_load(&ctx->threads->chunksize) : -1;
    }
    return -1;
}

kjit_status kjit_ctx_threads_set(kjit_ctx *ctx, kjit_threads_setting which, int64_t value, kjit_error *err)
{
    if (!ctx) return kj_api_usage(err, "kjit_ctx_threads_set: ctx is NULL");
    if (which == KJIT_THREADS_NUM) {
        int64_t max = max_threads(ctx);
        if (max < 1) max = 1;
        if (value < 1 || value > max)
            return kj_api_usage(err, "The number of threads must be between 1 and %lld", (long long)max);
        atomic_store(&ctx->threads->num_threads, (int)value);
    } else if (which == KJIT_THREADS_CHUNKSIZE) {
        if (value < 0) return kj_api_usage(err, "chunksize must be greater than or equal to zero");
        atomic_store(&ctx->threads->chunksize, value);
    } else {
        return kj_api_usage(err, "kjit_ctx_threads_set: setting %d cannot be set", (int)which);
    }
    kj_api_clear_error(err);
    return KJIT_OK;
}
