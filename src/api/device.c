/* SPDX-License-Identifier: BSD-2-Clause */
/* Device memory through the C API (docs/embedding.md "Device memory"): the
 * device address of an array's device copy, and arrays over device memory
 * that another library allocated. Both go through the context's GPU,
 * opened here when no compile has opened it yet; the runtime's side is
 * src/runtime/gpu_foreign.c. */
#include "api_int.h"

/* The context's GPU, opened at first need; NULL with err set. */
static kj_gpu *gpu_of(kjit_ctx *ctx, const char *fn, kjit_error *err)
{
    if (!ctx) {
        kj_api_usage(err, "%s: ctx is NULL", fn);
        return NULL;
    }
    pthread_mutex_lock(&ctx->lock);
    bool ok = kj_api_open_gpu(ctx, NULL, err);
    kj_gpu *g = ctx->gpu;
    pthread_mutex_unlock(&ctx->lock);
    if (ok && !g) kj_api_set_error(err, KJIT_ERR_RUNTIME, NULL, "%s: %s", fn, ctx->gpu_err);
    return ok ? g : NULL;
}

/* A runtime error as the API's (the exception's name first). */
static int rt_failed(kjit_error *err, kjit_status code, const char *fn, const kj_rt_error *e)
{
    kj_api_set_error(err, code, NULL, "%s: %s: %s", fn, e->exc ? e->exc : "RuntimeError", e->message);
    return code;
}

int kjit_array_device_ptr(kjit_ctx *ctx, kjit_array *a, uint64_t *out, kjit_error *err)
{
    if (!a || !out) return kj_api_usage(err, "kjit_array_device_ptr: %s is NULL", !a ? "a" : "out");
    kj_gpu *g = gpu_of(ctx, "kjit_array_device_ptr", err);
    if (!g) return err ? err->code : KJIT_ERR_RUNTIME;
    kj_rt_error e = {0};
    if (!kj_gpu_device_ptr(g, kj_api_arr(a), out, &e)) return rt_failed(err, KJIT_ERR_RUNTIME, "kjit_array_device_ptr", &e);
    kj_api_clear_error(err);
    return KJIT_OK;
}

kjit_array *kjit_array_wrap_device(kjit_ctx *ctx, uint64_t devptr, kjit_dtype dt, int ndim, const int64_t *shape,
                                   const int64_t *strides, kjit_error *err)
{
    static const char fn[] = "kjit_array_wrap_device";
    if (!kj_api_dtype_valid(dt) || ndim < 0 || ndim > KJIT_MAX_DIMS || (ndim && !shape)) {
        kj_api_usage(err, "%s: dtype %d, ndim %d: a valid dtype and 0..%d dimensions with a shape", fn, (int)dt, ndim,
                     KJIT_MAX_DIMS);
        return NULL;
    }
    size_t isz = kjit_dtype_size(dt);
    bool empty = false;
    for (int k = 0; k < ndim; k++) {
        if (shape[k] < 0 || (strides && strides[k] % (int64_t)isz)) {
            kj_api_usage(err, "%s: axis %d: shape %lld, stride %lld (a multiple of the item size %zu)", fn, k,
                         (long long)shape[k], strides ? (long long)strides[k] : 0LL, isz);
            return NULL;
        }
        empty |= shape[k] == 0;
    }
    if (!devptr && !empty) {
        kj_api_usage(err, "%s: devptr is 0", fn);
        return NULL;
    }
    kj_gpu *g = gpu_of(ctx, fn, err);
    if (!g) return NULL;
    kj_rt_error e = {0};
    kj_array *a = kj_gpu_wrap_device(g, devptr, kj_api_dtype(dt), ndim, shape, strides, &e);
    if (!a) {
        rt_failed(err, KJIT_ERR_USAGE, fn, &e);
        return NULL;
    }
    kj_api_clear_error(err);
    return kj_api_pub(a);
}
