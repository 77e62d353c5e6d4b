/* SPDX-License-Identifier: BSD-2-Clause */
/* Records across the C API (since 0.5): NumPy structured dtypes as Numba's
 * Record (infer_record.c), for record values (KJIT_VALUE_RECORD: a pointer
 * to the caller's bytes, so that writes reach them, as Numba passes a
 * record) and arrays of records (dtype KJIT_RECORD).
 *
 * An array of records is what compiled code makes for one (llvm_record.c):
 * a uint8 kj_array of shape (..., itemsize) whose last axis the descriptor
 * passed to code drops; the kj_array's `rec` holds the public layout. The
 * public functions (kjit_array_ndim, ...) show the records' rank. Also the
 * dispatch of the 0.5 value kinds for values.c and call.c (kj_api_ext_*). */
#include "api_int.h"

#include "abi/abi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- layouts ---- */

static bool field_dtype_ok(kjit_dtype dt) { return kj_api_dtype_valid(dt); }

static int desc_check(const kjit_record_desc *d, const char *fn, kjit_error *err)
{
    if (!d || d->nfields < 1 || !d->names || !d->offsets || !d->dtypes || d->itemsize < 1 ||
        d->itemsize > UINT32_MAX)
        return kj_api_usage(err, "%s: the record layout is NULL, has no fields or no item size", fn);
    for (int i = 0; i < d->nfields; i++) {
        if (!d->names[i] || !field_dtype_ok(d->dtypes[i]))
            return kj_api_usage(err, "%s: field %d has no name or a dtype kjit cannot hold in a record", fn, i);
        int64_t end = d->offsets[i] + (int64_t)kjit_dtype_size(d->dtypes[i]);
        if (d->offsets[i] < 0 || end > d->itemsize)
            return kj_api_usage(err, "%s: field '%s' lies outside the %lld-byte item", fn, d->names[i],
                                (long long)d->itemsize);
        for (int j = 0; j < i; j++) {
            int64_t e2 = d->offsets[j] + (int64_t)kjit_dtype_size(d->dtypes[j]);
            if (!strcmp(d->names[i], d->names[j]) || (d->offsets[i] < e2 && d->offsets[j] < end))
                return kj_api_usage(err, "%s: fields '%s' and '%s' repeat a name or overlap", fn, d->names[j],
                                    d->names[i]);
        }
    }
    return KJIT_OK;
}

/* A copy of a layout in one malloc'd block (free() releases it). */
static kjit_record_desc *desc_copy(int n, const char *const *names, const int64_t *offsets,
                                   const kjit_dtype *dtypes, int64_t itemsize, bool aligned)
{
    size_t text = 0;
    for (int i = 0; i < n; i++) text += strlen(names[i]) + 1;
    size_t head = sizeof(kjit_record_desc), at_names = head, at_off = at_names + (size_t)n * sizeof(char *);
    size_t at_dt = at_off + (size_t)n * sizeof(int64_t), at_text = at_dt + (size_t)n * sizeof(kjit_dtype);
    char *b = malloc(at_text + text);
    if (!b) abort();
    kjit_record_desc *d = (kjit_record_desc *)(void *)b;
    const char **nm = (const char **)(void *)(b + at_names);
    int64_t *off = (int64_t *)(void *)(b + at_off);
    kjit_dtype *dt = (kjit_dtype *)(void *)(b + at_dt);
    char *s = b + at_text;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(names[i]) + 1;
        memcpy(s, names[i], len);
        nm[i] = s;
        s += len;
        off[i] = offsets[i];
        dt[i] = dtypes[i];
    }
    *d = (kjit_record_desc){n, nm, off, dt, itemsize, aligned};
    return d;
}

static kjit_record_desc *desc_dup(const kjit_record_desc *d)
{
    return desc_copy(d->nfields, d->names, d->offsets, d->dtypes, d->itemsize, d->aligned);
}

/* The public layout of a compiled record type. */
static kjit_record_desc *desc_of_type(const kj_recdesc *r)
{
    int64_t *off = malloc(r->n * sizeof *off);
    kjit_dtype *dt = malloc(r->n * sizeof *dt);
    if (!off || !dt) abort();
    for (uint32_t i = 0; i < r->n; i++) {
        off[i] = r->offsets[i];
        dt[i] = kj_api_public_dtype(kj_api_type_dtype(r->types[i]));
    }
    kjit_record_desc *d = desc_copy((int)r->n, r->names, off, dt, r->size, r->aligned);
    free(off);
    free(dt);
    return d;
}

static const kj_type *scalar_type(kj_types *t, kjit_dtype dt)
{
    switch (dt) {
    case KJIT_BOOL: return kj_t_bool(t);
    case KJIT_FLOAT16: return kj_t_float(t, 16);
    case KJIT_FLOAT32: return kj_t_float(t, 32);
    case KJIT_FLOAT64: return kj_t_float(t, 64);
    case KJIT_COMPLEX64: return kj_t_complex(t, 64);
    case KJIT_COMPLEX128: return kj_t_complex(t, 128);
    default: return kj_t_int(t, 8 * (int)kjit_dtype_size(dt), dt <= KJIT_INT64);
    }
}

/* The compiler's Record type of a layout (interned by its name, which spells the layout out). */
static const kj_type *record_type(kj_types *t, const kjit_record_desc *d)
{
    kj_arena *a = kj_types_arena(t);
    kj_recdesc *r = KJ_NEW(a, kj_recdesc);
    r->n = (uint32_t)d->nfields;
    r->names = KJ_NEWN(a, const char *, r->n);
    r->types = KJ_NEWN(a, const kj_type *, r->n);
    r->offsets = KJ_NEWN(a, uint32_t, r->n);
    for (uint32_t i = 0; i < r->n; i++) {
        r->names[i] = kj_arena_strdup(a, d->names[i]);
        r->types[i] = scalar_type(t, d->dtypes[i]);
        r->offsets[i] = (uint32_t)d->offsets[i];
    }
    r->size = (uint32_t)d->itemsize;
    r->aligned = d->aligned;
    return kj_t_record(t, r);
}

static bool same_layout(const kj_recdesc *r, const kjit_record_desc *d)
{
    if (!r || r->n != (uint32_t)d->nfields || r->size != d->itemsize || r->aligned != d->aligned) return false;
    for (uint32_t i = 0; i < r->n; i++)
        if (strcmp(r->names[i], d->names[i]) || r->offsets[i] != d->offsets[i] ||
            kj_api_public_dtype(kj_api_type_dtype(r->types[i])) != d->dtypes[i])
            return false;
    return true;
}

/* ---- arrays of records ---- */

static const kjit_record_desc *rec_of(const kj_array *a) { return (const kjit_record_desc *)a->rec; }

const kjit_record_desc *kjit_array_record(const kjit_array *a) { return a ? rec_of(kj_api_arr(a)) : NULL; }

int64_t kj_api_rec_array_size(const kj_array *a)
{
    int64_t n = 1;
    for (int k = 0; k < kj_api_arr_rank(a); k++) n *= a->shape[k];
    return n;
}

/* C when the uint8 array is (its last axis is the item's bytes), F when the records' axes are. */
kj_layout kj_api_rec_array_layout(const kj_array *a)
{
    if (a->flags & KJ_ARR_C_CONTIGUOUS) return KJ_LAYOUT_C;
    int64_t want = rec_of(a)->itemsize;
    for (int k = 0; k < kj_api_arr_rank(a); k++) {
        if (a->shape[k] != 1 && a->strides[k] != want) return KJ_LAYOUT_A;
        want *= a->shape[k];
    }
    return KJ_LAYOUT_F;
}

static bool rank_ok(int ndim, const int64_t *shape, const char *fn, kjit_error *err)
{
    if (ndim < 1 || ndim >= KJIT_MAX_DIMS || !shape) {
        kj_api_set_error(err, KJIT_ERR_USAGE, NULL, "%s: ndim must be 1..%d with a shape, got %d", fn,
                         KJIT_MAX_DIMS - 1, ndim);
        return false;
    }
    for (int k = 0; k < ndim; k++)
        if (shape[k] < 0) {
            kj_api_set_error(err, KJIT_ERR_USAGE, NULL, "%s: negative dimension in axis %d", fn, k);
            return false;
        }
    return true;
}

static kjit_array *finish(kj_array *a, const kjit_record_desc *rec, const kj_rt_error *e, kjit_error *err)
{
    if (!a) {
        kj_api_set_error(err, KJIT_ERR_USAGE, NULL, "%s: %s", e->exc ? e->exc : "error", e->message);
        return NULL;
    }
    a->rec = desc_dup(rec);
    kj_api_clear_error(err);
    return kj_api_pub(a);
}

kjit_array *kjit_array_wrap_record(kjit_ctx *ctx, void *data, const kjit_record_desc *rec, int ndim,
                                   const int64_t *shape, const int64_t *strides, kjit_error *err)
{
    (void)ctx;
    if (desc_check(rec, "kjit_array_wrap_record", err) || !rank_ok(ndim, shape, "kjit_array_wrap_record", err))
        return NULL;
    if (!data) {
        kj_api_set_error(err, KJIT_ERR_USAGE, NULL, "kjit_array_wrap_record: data is NULL");
        return NULL;
    }
    int64_t sh[KJIT_MAX_DIMS], st[KJIT_MAX_DIMS], s = rec->itemsize;
    for (int k = ndim - 1; k >= 0; k--) {
        sh[k] = shape[k];
        st[k] = strides ? strides[k] : s;
        s *= shape[k] ? shape[k] : 1;
    }
    sh[ndim] = rec->itemsize, st[ndim] = 1;
    kj_rt_error e = {0};
    return finish(kj_array_wrap(data, KJ_DT_UINT8, ndim + 1, sh, st, &e), rec, &e, err);
}

kjit_array *kjit_array_new_record(kjit_ctx *ctx, const kjit_record_desc *rec, int ndim, const int64_t *shape,
                                  kjit_error *err)
{
    (void)ctx;
    if (desc_check(rec, "kjit_array_new_record", err) || !rank_ok(ndim, shape, "kjit_array_new_record", err))
        return NULL;
    int64_t sh[KJIT_MAX_DIMS];
    memcpy(sh, shape, (size_t)ndim * sizeof *sh);
    sh[ndim] = rec->itemsize;
    kj_rt_error e = {0};
    return finish(kj_array_zeros(KJ_DT_UINT8, ndim + 1, sh, &e), rec, &e, err);
}

/* ---- the 0.5 value kinds for call.c and values.c ---- */

int kj_api_ext_check(const kjit_value *v, int k, kjit_error *err)
{
    if (v->kind == KJIT_VALUE_RNG) return kj_api_rng_check(v, k, err);
    if (v->kind != KJIT_VALUE_RECORD) return -1;
    if (!v->v.rec || !v->v.rec->data) return kj_api_usage(err, "argument %d: record or its data is NULL", k + 1);
    char fn[32];
    snprintf(fn, sizeof fn, "argument %d", k + 1);
    return desc_check(v->v.rec->desc, fn, err);
}

const kj_type *kj_api_ext_type(kj_types *t, const kjit_value *v)
{
    if (v->kind == KJIT_VALUE_RNG) return kj_api_rng_type(t);
    if (v->kind == KJIT_VALUE_RECORD) return record_type(t, v->v.rec->desc);
    if (v->kind == KJIT_VALUE_ARRAY && v->v.a && kj_api_arr(v->v.a)->rec) {
        const kj_array *a = kj_api_arr(v->v.a);
        return kj_t_array(t, record_type(t, rec_of(a)), kj_api_arr_rank(a), kj_api_rec_array_layout(a));
    }
    return NULL;
}

int kj_api_ext_to_mem(const kj_type *t, const kjit_value *v, void *out)
{
    if (v->kind == KJIT_VALUE_RNG) return kj_api_rng_to_mem(t, v, out);
    if (v->kind == KJIT_VALUE_RECORD) {
        if (!same_layout(kj_record_of(t), v->v.rec->desc)) return 0;
        memcpy(out, &v->v.rec->data, sizeof(void *)); /* a record is a reference to its bytes */
        return 1;
    }
    if (v->kind != KJIT_VALUE_ARRAY || !v->v.a) return -1;
    kj_array *a = kj_api_arr(v->v.a);
    if (!a->rec && (t->kind != KJ_T_ARRAY || !kj_record_of(t->elem))) return -1;
    if (!a->rec || t->kind != KJ_T_ARRAY || t->ndim != kj_api_arr_rank(a) || !same_layout(kj_record_of(t->elem), rec_of(a)))
        return 0;
    kj_abi_array d; /* the records' axes; the array is their owner */
    kj_abi_array_pack(&d, t->ndim, a->data, a->shape, a->strides, a);
    memcpy(out, &d, kj_abi_array_bytes(t->ndim));
    return 1;
}

/* An array-of-records result: a uint8 view (..., itemsize) of the descriptor's memory that holds the
 * reference the entry point handed over to its owner, with the layout. */
static kjit_array *rec_array_result(const kj_type *t, const void *mem)
{
    int nd = t->ndim;
    kj_abi_array d;
    memcpy(&d, mem, kj_abi_array_bytes(nd));
    const kj_recdesc *r = kj_record_of(t->elem);
    int64_t shape[KJ_ABI_MAX_DIMS + 1], strides[KJ_ABI_MAX_DIMS + 1];
    for (int k = 0; k < nd; k++) {
        shape[k] = kj_abi_array_shape(&d, nd, k);
        strides[k] = kj_abi_array_stride(&d, nd, k);
    }
    shape[nd] = r->size, strides[nd] = 1;
    kj_array *v = kj_array_wrap(kj_abi_array_data(&d), KJ_DT_UINT8, nd + 1, shape, strides, NULL);
    if (!v) abort(); /* the shape came from a valid array: only memory can fail */
    v->base = kj_abi_array_owner(&d, nd);
    v->rec = desc_of_type(r);
    return kj_api_pub(v);
}

/* A record result: a malloc'd copy of its bytes and layout (the memory it points to may be the run's). */
bool kj_api_ext_from_mem(const kj_type *t, const void *mem, kjit_value *out)
{
    if (t->kind == KJ_T_ARRAY && kj_record_of(t->elem)) {
        *out = kjit_value_array(rec_array_result(t, mem));
        out->dtype = KJIT_RECORD;
        return true;
    }
    const kj_recdesc *r = kj_record_of(t);
    if (!r) return false;
    const void *src;
    memcpy(&src, mem, sizeof src);
    kjit_record *rec = malloc(sizeof *rec);
    void *data = malloc(r->size);
    if (!rec || !data) abort();
    memcpy(data, src, r->size);
    *rec = (kjit_record){desc_of_type(r), data};
    *out = kjit_value_record(rec);
    return true;
}

bool kj_api_ext_release(kjit_value *v)
{
    if (v->kind != KJIT_VALUE_RECORD) return false;
    if (v->v.rec) {
        free((void *)v->v.rec->desc);
        free(v->v.rec->data);
        free(v->v.rec);
    }
    *v = (kjit_value){0};
    return true;
}

/* A kernel for the GPU takes arrays of records, not a record or a Generator by value: their memory form is
 * a pointer to the host's bytes (a launch would hand the device a host address). */
bool kj_api_ext_gpu_refused(const kir_func *kf, const char *name, kjit_error *err)
{
    for (uint32_t k = 0; k < kf->nparams; k++) {
        const kj_type *t = kf->params[k];
        if (kj_record_of(t) || kj_api_is_rng_type(t)) {
            kj_api_set_error(err, KJIT_ERR_USAGE, NULL,
                             "kernel '%s': kjit_launch cannot pass %s argument %u to the GPU (pass an array of "
                             "records)", name, kj_record_of(t) ? "the record" : "the Generator", k + 1);
            return true;
        }
    }
    return false;
}
