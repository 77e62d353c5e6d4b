/* SPDX-License-Identifier: BSD-2-Clause */
/* kjit_array: the runtime's reference-counted kj_array (src/runtime/array.h)
 * seen through the public API. A kjit_array* IS a kj_array*: no wrapper
 * object, so arrays pass between the API and generated code as they are. */
#include "api_int.h"

#include <stdio.h>
#include <string.h>

/* kjit_dtype and kj_dtype list the same types in the same order; the table
 * keeps the mapping explicit anyway. */
static const kj_dtype to_rt[] = {
    [KJIT_BOOL] = KJ_DT_BOOL,       [KJIT_INT8] = KJ_DT_INT8,       [KJIT_INT16] = KJ_DT_INT16,
    [KJIT_INT32] = KJ_DT_INT32,     [KJIT_INT64] = KJ_DT_INT64,     [KJIT_UINT8] = KJ_DT_UINT8,
    [KJIT_UINT16] = KJ_DT_UINT16,   [KJIT_UINT32] = KJ_DT_UINT32,   [KJIT_UINT64] = KJ_DT_UINT64,
    [KJIT_FLOAT32] = KJ_DT_FLOAT32, [KJIT_FLOAT64] = KJ_DT_FLOAT64, [KJIT_COMPLEX64] = KJ_DT_COMPLEX64,
    [KJIT_COMPLEX128] = KJ_DT_COMPLEX128, [KJIT_FLOAT16] = KJ_DT_FLOAT16,
    [KJIT_DATETIME64] = KJ_DT_INT64,      [KJIT_TIMEDELTA64] = KJ_DT_INT64, /* marked: values_cplx.c */
};

bool kj_api_dtype_valid(kjit_dtype dt) { return (unsigned)dt <= KJIT_TIMEDELTA64; }

kj_dtype kj_api_dtype(kjit_dtype dt) { return to_rt[dt]; }

kjit_dtype kj_api_public_dtype(kj_dtype dt)
{
    for (unsigned k = 0; k <= KJIT_FLOAT16; k++)
        if (to_rt[k] == dt) return (kjit_dtype)k;
    return KJIT_FLOAT64;
}

kj_dtype kj_api_type_dtype(const kj_type *t)
{
    if (t->kind == KJ_T_BOOL) return KJ_DT_BOOL;
    if (t->kind == KJ_T_FLOAT) return t->bits == 16 ? KJ_DT_FLOAT16 : t->bits == 32 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64;
    if (t->kind == KJ_T_COMPLEX) return t->bits == 64 ? KJ_DT_COMPLEX64 : KJ_DT_COMPLEX128;
    switch (t->bits) {
    case 8: return t->is_signed ? KJ_DT_INT8 : KJ_DT_UINT8;
    case 16: return t->is_signed ? KJ_DT_INT16 : KJ_DT_UINT16;
    case 32: return t->is_signed ? KJ_DT_INT32 : KJ_DT_UINT32;
    default: return t->is_signed ? KJ_DT_INT64 : KJ_DT_UINT64;
    }
}

size_t kjit_dtype_size(kjit_dtype dt) { return kj_api_dtype_valid(dt) ? kj_dtype_size(to_rt[dt]) : 0; }

const char *kjit_dtype_name(kjit_dtype dt)
{
    if (dt == KJIT_DATETIME64 || dt == KJIT_TIMEDELTA64) return dt == KJIT_DATETIME64 ? "datetime64" : "timedelta64";
    return dt == KJIT_RECORD ? "record" : kj_api_dtype_valid(dt) ? kj_dtype_name(to_rt[dt]) : "?";
}

/* The checks common to wrap and new: dtype, ndim, shape. */
static bool check_shape(kjit_dtype dt, int ndim, const int64_t *shape, const char *fn, kjit_error *err)
{
    if (!kj_api_dtype_valid(dt)) {
        kj_api_set_error(err, KJIT_ERR_USAGE, NULL, "%s: invalid dtype %d", fn, (int)dt);
        return false;
    }
    if (ndim < 0 || ndim > KJIT_MAX_DIMS || (ndim > 0 && !shape)) {
        kj_api_set_error(err, KJIT_ERR_USAGE, NULL, "%s: ndim must be 0..%d with a shape, got %d", fn,
                         KJIT_MAX_DIMS, ndim);
        return false;
    }
    for (int k = 0; k < ndim; k++) {
        if (shape[k] < 0) {
            kj_api_set_error(err, KJIT_ERR_USAGE, NULL, "%s: negative dimension %lld in axis %d", fn,
                             (long long)shape[k], k);
            return false;
        }
    }
    return true;
}

/* The runtime's errors ("ValueError" + NumPy's message) as usage errors. */
static kjit_array *checked(kj_array *a, const kj_rt_error *e, kjit_error *err)
{
    if (!a) kj_api_set_error(err, KJIT_ERR_USAGE, NULL, "%s: %s", e->exc ? e->exc : "error", e->message);
    else kj_api_clear_error(err);
    return kj_api_pub(a);
}

kjit_array *kjit_array_wrap(kjit_ctx *ctx, void *data, kjit_dtype dt, int ndim, const int64_t *shape,
                            const int64_t *strides, kjit_error *err)
{
    (void)ctx;
    if (!check_shape(dt, ndim, shape, "kjit_array_wrap", err)) return NULL;
    int64_t size = kj_dtype_size(to_rt[dt]);
    for (int k = 0; strides && k < ndim; k++) {
        if (strides[k] % size) {
            kj_api_set_error(
                err, KJIT_ERR_USAGE, NULL,
                "kjit_array_wrap: stride %lld of axis %d is not a multiple of the item size %lld",
                (long long)strides[k], k, (long long)size);
            return NULL;
        }
    }
    if (!data) {
        kj_api_set_error(err, KJIT_ERR_USAGE, NULL, "kjit_array_wrap: data is NULL");
        return NULL;
    }
    kj_rt_error e = {0};
    return kj_api_time_mark(checked(kj_array_wrap(data, to_rt[dt], ndim, shape, strides, &e), &e, err), dt);
}

kjit_array *kjit_array_new(kjit_ctx *ctx, kjit_dtype dt, int ndim, const int64_t *shape, kjit_error *err)
{
    (void)ctx;
    if (!check_shape(dt, ndim, shape, "kjit_array_new", err)) return NULL;
    kj_rt_error e = {0};
    return kj_api_time_mark(checked(kj_array_zeros(to_rt[dt], ndim, shape, &e), &e, err), dt);
}

void kjit_array_free(kjit_array *a) { kj_array_release(kj_api_arr(a)); }

/* The application may read or write through the pointer: a copy a kernel
 * left on the GPU comes back first, and the GPU's copy counts as stale. */
void *kjit_array_data(const kjit_array *a)
{
    if (!a) return NULL;
    kj_rt_error e = {0};
    if (!kj_gpu_host_access(kj_api_arr(a), true, &e)) fprintf(stderr, "kjit: %s: %s\n", e.exc, e.message);
    return kj_api_arr(a)->data;
}
int kjit_array_ndim(const kjit_array *a) { return a ? kj_api_arr_rank(kj_api_arr(a)) : 0; }
const int64_t *kjit_array_shape(const kjit_array *a) { return a ? kj_api_arr(a)->shape : NULL; }
const int64_t *kjit_array_strides(const kjit_array *a) { return a ? kj_api_arr(a)->strides : NULL; }
int64_t kjit_array_size(const kjit_array *a)
{
    return !a ? 0 : kj_api_arr(a)->rec ? kj_api_rec_array_size(kj_api_arr(a)) : kj_array_size(kj_api_arr(a));
}

kjit_dtype kjit_array_dtype(const kjit_array *a)
{
    if (a && kj_api_arr(a)->api_time) return kj_api_time_dtype(kj_api_arr(a));
    return !a ? KJIT_FLOAT64 : kj_api_arr(a)->rec ? KJIT_RECORD : kj_api_public_dtype(kj_api_arr(a)->dtype);
}

static const char *type_name(const kjit_value *v, char *buf, size_t cap, int depth);

/* "(int64, float64)"; "(int64,)" for one item, as Python writes it. */
static void tuple_type_name(const kjit_tuple *t, char *buf, size_t cap, int depth)
{
    if (!t || t->n < 0 || (t->n && !t->items)) {
        snprintf(buf, cap, "tuple(NULL)");
        return;
    }
    if (depth > 16) { /* deeper than compiled code takes; maybe a cycle */
        snprintf(buf, cap, "(...)");
        return;
    }
    size_t at = (size_t)snprintf(buf, cap, "(");
    for (int k = 0; k < t->n && at < cap; k++) {
        char item[128];
        type_name(&t->items[k], item, sizeof item, depth + 1);
        at += (size_t)snprintf(buf + at, cap - at, "%s%s", k ? ", " : "", item);
    }
    if (at < cap) snprintf(buf + at, cap - at, t->n == 1 ? ",)" : ")");
}

const char *kjit_value_type_name(const kjit_value *v, char *buf, size_t cap)
{
    return type_name(v, buf, cap, 0);
}

static const char *type_name(const kjit_value *v, char *buf, size_t cap, int depth)
{
    if (!buf || !cap) return "";
    if (!v) snprintf(buf, cap, "none");
    else switch (v->kind) {
    case KJIT_VALUE_NONE: snprintf(buf, cap, "none"); break;
    case KJIT_VALUE_BOOL: snprintf(buf, cap, "bool"); break;
    case KJIT_VALUE_INT:
    case KJIT_VALUE_FLOAT:
        if (v->dtype == KJIT_DATETIME64 || v->dtype == KJIT_TIMEDELTA64) kj_api_cplx_type_name(v, buf, cap);
        else snprintf(buf, cap, "%s", kjit_dtype_name(v->dtype));
        break;
    case KJIT_VALUE_COMPLEX:
    case KJIT_VALUE_BYTES: kj_api_cplx_type_name(v, buf, cap); break;
    case KJIT_VALUE_STR: snprintf(buf, cap, "str"); break;
    case KJIT_VALUE_DTYPE: snprintf(buf, cap, "dtype(%s)", kjit_dtype_name(v->dtype)); break;
    case KJIT_VALUE_FUNCTION: snprintf(buf, cap, "function(%s)", v->v.fn ? kjit_fn_name(v->v.fn) : "NULL"); break;
    case KJIT_VALUE_DICT: snprintf(buf, cap, "dict"); break;
    case KJIT_VALUE_GENERATOR: snprintf(buf, cap, "generator"); break;
    case KJIT_VALUE_TUPLE: tuple_type_name(v->v.t, buf, cap, depth); break;
    case KJIT_VALUE_LIST:
    case KJIT_VALUE_SET: { /* "list(int64)", as kjit names the type; an empty one's items are unknown */
        char item[128] = "undefined";
        if (v->v.l && v->v.l->n > 0 && v->v.l->items && depth < 16)
            type_name(&v->v.l->items[0], item, sizeof item, depth + 1);
        snprintf(buf, cap, "%s(%s)", v->kind == KJIT_VALUE_LIST ? "list" : "set", item);
        break;
    }
    case KJIT_VALUE_RNG: snprintf(buf, cap, "NumPyRandomGeneratorType"); break;
    case KJIT_VALUE_RECORD: snprintf(buf, cap, "record"); break;
    case KJIT_VALUE_ARRAY:
        if (v->v.a)
            snprintf(buf, cap, "array(%s, %dd)", kjit_dtype_name(kjit_array_dtype(v->v.a)),
                     kjit_array_ndim(v->v.a));
        else snprintf(buf, cap, "array(NULL)");
        break;
    default: snprintf(buf, cap, "invalid value kind %d", (int)v->kind);
    }
    return buf;
}

int kjit_array_rewrap(kjit_array *pa, void *data, const int64_t *shape, const int64_t *strides, kjit_error *err)
{
    kj_array *a = kj_api_arr(pa);
    if (!a || !data || !shape) return kj_api_usage(err, "kjit_array_rewrap: %s is NULL", !a ? "a" : !data ? "data" : "shape");
    /* what another reference sees must not change under it; a GPU copy would be of the old memory */
    if (a->owns_data || a->base || a->mirror || a->rec || atomic_load(&a->refcount) != 1)
        return kj_api_usage(err, "kjit_array_rewrap: the array is not a wrapper that only the caller holds");
    int64_t size = (int64_t)kj_dtype_size(a->dtype), limit = INT64_MAX / size;
    for (int k = 0; k < a->ndim; k++) {
        if (shape[k] < 0 || (strides && strides[k] % size))
            return kj_api_usage(err, "kjit_array_rewrap: axis %d: shape %lld, stride %lld", k, (long long)shape[k],
                                strides ? (long long)strides[k] : 0LL);
        if (shape[k] && limit / shape[k] < 1) return kj_api_usage(err, "kjit_array_rewrap: the array is too large");
        if (shape[k]) limit /= shape[k];
    }
    a->data = data;
    memcpy(a->shape, shape, (size_t)a->ndim * sizeof *shape);
    if (strides) {
        memcpy(a->strides, strides, (size_t)a->ndim * sizeof *strides);
    } else {
        int64_t s = size;
        for (int k = a->ndim - 1; k >= 0; k--) a->strides[k] = s, s *= shape[k] ? shape[k] : 1;
    }
    kj_array_update_flags(a);
    kj_api_clear_error(err);
    return KJIT_OK;
}
