/* SPDX-License-Identifier: BSD-2-Clause */
/* The C API's complex, datetime64/timedelta64 and buffer (bytes, bytearray,
 * memoryview) values (kjit.h, since 0.5): their kj types (Numba's typeof),
 * their checks, their memory forms for compiled code and back, and the
 * datetime mark of arrays. values.c and call.c call these first for every
 * value; each returns "not mine" for the kinds it leaves to them.
 *
 * Memory forms: a complex as NumPy stores it (real then imaginary, each a
 * float32 for complex64, float64 for complex128); a datetime64/timedelta64
 * an int64 count of its type's unit; a buffer an array descriptor, as the
 * compiler types buffers as arrays (types.h kj_t_buffer).
 *
 * A datetime array is an int64 kj_array whose api_time says its dtype and
 * unit (0: not a datetime array): 1 + unit, plus TIME_TD for timedelta64. */
#include "api_int.h"

#include "abi/abi.h"
#include "util/npdatetime.h"

#include <stdio.h>
#include <string.h>

enum { TIME_TD = 0x20 };

static bool time_dtype(kjit_dtype dt) { return dt == KJIT_DATETIME64 || dt == KJIT_TIMEDELTA64; }
static bool valid_unit(int unit) { return unit >= 0 && unit < KJ_DTU_COUNT && unit != 3; }

static uint8_t time_tag(kjit_dtype dt, int unit)
{
    return (uint8_t)(1 + unit + (dt == KJIT_TIMEDELTA64 ? TIME_TD : 0));
}

kjit_array *kj_api_time_mark(kjit_array *a, kjit_dtype dt)
{
    if (a && time_dtype(dt)) kj_api_arr(a)->api_time = time_tag(dt, KJ_DTU_GENERIC);
    return a;
}

kjit_dtype kj_api_time_dtype(const kj_array *a) { return a->api_time & TIME_TD ? KJIT_TIMEDELTA64 : KJIT_DATETIME64; }

int kjit_array_unit(const kjit_array *a)
{
    if (!a || !kj_api_arr(a)->api_time) return -1;
    return (kj_api_arr(a)->api_time & (TIME_TD - 1)) - 1;
}

int kjit_array_set_unit(kjit_array *pa, kjit_dtype dtype, int unit, kjit_error *err)
{
    kj_array *a = kj_api_arr(pa);
    if (!a) return kj_api_usage(err, "kjit_array_set_unit: the array is NULL");
    if (!time_dtype(dtype))
        return kj_api_usage(err, "kjit_array_set_unit: dtype %d is not datetime64 or timedelta64", (int)dtype);
    if (!valid_unit(unit)) return kj_api_usage(err, "kjit_array_set_unit: unit %d is not a KJIT_UNIT_*", unit);
    if (a->dtype != KJ_DT_INT64)
        return kj_api_usage(err, "kjit_array_set_unit: the array's dtype is %s, not int64", kj_dtype_name(a->dtype));
    a->api_time = time_tag(dtype, unit);
    kj_api_clear_error(err);
    return KJIT_OK;
}

/* ---- types ---- */

static kj_layout array_layout(const kj_array *a)
{
    return a->flags & KJ_ARR_C_CONTIGUOUS ? KJ_LAYOUT_C : a->flags & KJ_ARR_F_CONTIGUOUS ? KJ_LAYOUT_F : KJ_LAYOUT_A;
}

/* The element type of a runtime array (its datetime mark included). */
static const kj_type *elem_type(kj_types *T, const kj_array *a)
{
    if (a->api_time) return kj_t_datetime(T, kjit_array_unit(kj_api_pub((kj_array *)a)), a->api_time & TIME_TD);
    switch (a->dtype) {
    case KJ_DT_BOOL: return kj_t_bool(T);
    case KJ_DT_FLOAT16: return kj_t_float(T, 16);
    case KJ_DT_FLOAT32: return kj_t_float(T, 32);
    case KJ_DT_FLOAT64: return kj_t_float(T, 64);
    case KJ_DT_COMPLEX64: return kj_t_complex(T, 64);
    case KJ_DT_COMPLEX128: return kj_t_complex(T, 128);
    default: return kj_t_int(T, (int)kj_dtype_size(a->dtype) * 8, kj_dtype_is_signed(a->dtype));
    }
}

static const kj_buf_kind buf_kinds[] = {
    [KJIT_BUFFER_BYTES] = KJ_BUF_BYTES, [KJIT_BUFFER_BYTEARRAY] = KJ_BUF_BYTEARRAY,
    [KJIT_BUFFER_MEMORYVIEW] = KJ_BUF_MEMVIEW, [KJIT_BUFFER_MEMORYVIEW_RO] = KJ_BUF_MEMVIEW_RO};

const kj_type *kj_api_cplx_value_type(kj_types *T, const kjit_value *v)
{
    if (v->kind == KJIT_VALUE_COMPLEX) return kj_t_complex(T, v->dtype == KJIT_COMPLEX64 ? 64 : 128);
    if (v->kind == KJIT_VALUE_INT && time_dtype(v->dtype))
        return kj_t_datetime(T, v->v.dt.unit, v->dtype == KJIT_TIMEDELTA64);
    if (v->kind == KJIT_VALUE_BYTES) {
        const kj_array *a = kj_api_arr(v->v.buf.a);
        return kj_t_buffer(T, buf_kinds[v->v.buf.kind], elem_type(T, a), a->ndim, array_layout(a));
    }
    if (v->kind == KJIT_VALUE_ARRAY && v->v.a && (kj_api_arr(v->v.a)->api_time || kj_api_arr(v->v.a)->dtype == KJ_DT_FLOAT16)) {
        const kj_array *a = kj_api_arr(v->v.a);
        return kj_t_array(T, elem_type(T, a), a->ndim, array_layout(a));
    }
    return NULL;
}

/* ---- checks ---- */

int kj_api_cplx_check(const kjit_value *v, int k, kjit_error *err)
{
    if (v->kind == KJIT_VALUE_COMPLEX)
        return v->dtype == KJIT_COMPLEX64 || v->dtype == KJIT_COMPLEX128
                   ? KJIT_OK
                   : kj_api_usage(err, "argument %d: a complex value needs dtype complex64 or complex128", k + 1);
    if (v->kind == KJIT_VALUE_INT && time_dtype(v->dtype))
        return valid_unit(v->v.dt.unit) ? KJIT_OK
                                        : kj_api_usage(err, "argument %d: unit %d is not a KJIT_UNIT_*", k + 1,
                                                       (int)v->v.dt.unit);
    if (v->kind == KJIT_VALUE_BYTES) {
        if ((unsigned)v->v.buf.kind > KJIT_BUFFER_MEMORYVIEW_RO)
            return kj_api_usage(err, "argument %d: buffer kind %d is not a kjit_buffer_kind", k + 1, (int)v->v.buf.kind);
        const kj_array *a = kj_api_arr(v->v.buf.a);
        if (!a) return kj_api_usage(err, "argument %d: the buffer's array is NULL", k + 1);
        if (v->v.buf.kind <= KJIT_BUFFER_BYTEARRAY && (a->dtype != KJ_DT_UINT8 || a->ndim != 1 || a->api_time))
            return kj_api_usage(err, "argument %d: bytes and bytearray are 1-d uint8 arrays", k + 1);
        if (a->ndim < 1 || a->ndim > KJ_ABI_MAX_DIMS)
            return kj_api_usage(err, "argument %d: compiled code takes buffers of 1 to %d dimensions, not %d", k + 1,
                                KJ_ABI_MAX_DIMS, a->ndim);
        return KJIT_OK;
    }
    return -1;
}

/* ---- memory forms ---- */

static void store_complex(void *out, kj_dtype dt, double re, double im)
{
    if (dt == KJ_DT_COMPLEX64) {
        float f[2] = {(float)re, (float)im};
        memcpy(out, f, sizeof f);
    } else {
        double d[2] = {re, im};
        memcpy(out, d, sizeof d);
    }
}

static void store_array(void *out, const kj_array *a)
{
    kj_abi_array d;
    kj_abi_array_pack(&d, a->ndim, a->data, a->shape, a->strides, (kj_array *)a);
    memcpy(out, &d, kj_abi_array_bytes(a->ndim));
}

/* A bool, int or float value as a double (for a complex parameter: an explicit signature's conversion). */
static bool real_value(const kjit_value *v, double *x)
{
    if (v->kind == KJIT_VALUE_BOOL) *x = v->v.b;
    else if (v->kind == KJIT_VALUE_FLOAT) *x = v->v.f;
    else if (v->kind == KJIT_VALUE_INT && !time_dtype(v->dtype))
        *x = v->dtype >= KJIT_UINT8 && v->dtype <= KJIT_UINT64 ? (double)(uint64_t)v->v.i : (double)v->v.i;
    else return false;
    return true;
}

int kj_api_cplx_to_mem(const kj_type *t, const kjit_value *v, void *out)
{
    double x;
    if (kj_is_complex(t) && real_value(v, &x)) {
        store_complex(out, kj_api_type_dtype(t), x, 0.0);
        return 1;
    }
    if (v->kind == KJIT_VALUE_COMPLEX) {
        if (!kj_is_complex(t)) return 0;
        store_complex(out, kj_api_type_dtype(t), v->v.c.re, v->v.c.im);
        return 1;
    }
    if (v->kind == KJIT_VALUE_INT && time_dtype(v->dtype)) {
        if (!kj_is_dt(t)) return 0;
        memcpy(out, &v->v.dt.count, sizeof v->v.dt.count); /* sema made the types equal (same unit) */
        return 1;
    }
    if (v->kind == KJIT_VALUE_BYTES) {
        const kj_array *a = kj_api_arr(v->v.buf.a);
        if (t->kind != KJ_T_ARRAY || t->ndim != a->ndim || kj_api_type_dtype(t->elem) != a->dtype) return 0;
        store_array(out, a);
        return 1;
    }
    if (v->kind == KJIT_VALUE_ARRAY && v->v.a && kj_api_arr(v->v.a)->api_time) {
        const kj_array *a = kj_api_arr(v->v.a);
        if (t->kind != KJ_T_ARRAY || t->ndim != a->ndim || !kj_is_dt(t->elem)) return 0;
        store_array(out, a);
        return 1;
    }
    return -1;
}

/* A result of a datetime, complex or buffer type into *r; false for other types. */
static bool from_mem(const kj_type *t, const void *mem, kjit_value *r, kjit_array *(*array_result)(const kj_type *, const void *))
{
    if (kj_is_complex(t)) {
        if (t->bits == 64) {
            float f[2];
            memcpy(f, mem, sizeof f);
            *r = kjit_value_complex(f[0], f[1], KJIT_COMPLEX64);
        } else {
            double d[2];
            memcpy(d, mem, sizeof d);
            *r = kjit_value_complex(d[0], d[1], KJIT_COMPLEX128);
        }
        return true;
    }
    if (kj_is_dt(t)) {
        int64_t n;
        memcpy(&n, mem, sizeof n);
        *r = kjit_value_datetime(n, t->unit, t->kind == KJ_T_TIMEDELTA ? KJIT_TIMEDELTA64 : KJIT_DATETIME64);
        return true;
    }
    if (t->kind != KJ_T_ARRAY) return false;
    kj_buf_kind bk = kj_buffer_kind(t);
    if (!bk && !kj_is_dt(t->elem)) return false;
    kjit_array *a = array_result(t, mem);
    if (kj_is_dt(t->elem)) {
        kjit_dtype dt = t->elem->kind == KJ_T_TIMEDELTA ? KJIT_TIMEDELTA64 : KJIT_DATETIME64;
        kj_api_arr(a)->api_time = time_tag(dt, t->elem->unit);
    }
    if (!bk) {
        *r = kjit_value_array(a);
        r->dtype = kjit_array_dtype(a);
        return true;
    }
    kjit_buffer_kind kinds[] = {[KJ_BUF_BYTES] = KJIT_BUFFER_BYTES, [KJ_BUF_BYTEARRAY] = KJIT_BUFFER_BYTEARRAY,
                                [KJ_BUF_MEMVIEW] = KJIT_BUFFER_MEMORYVIEW,
                                [KJ_BUF_MEMVIEW_RO] = KJIT_BUFFER_MEMORYVIEW_RO};
    *r = kjit_value_buffer(a, kinds[bk]);
    r->dtype = kjit_array_dtype(a);
    return true;
}

/* A result of a type kj_api_cplx_result_type takes (a none value for others). `array_result` makes the
 * kjit_array of a descriptor (values.c). */
kjit_value kj_api_cplx_result(const kj_type *t, const void *mem, kjit_array *(*array_result)(const kj_type *, const void *))
{
    kjit_value r = {0};
    from_mem(t, mem, &r, array_result);
    return r;
}

/* ---- sizes, names, prepared calls ---- */

size_t kj_api_cplx_mem_size(const kj_type *t) { return t->bits == 64 ? 8 : 16; }
size_t kj_api_cplx_mem_align(const kj_type *t) { return t->bits == 64 ? 4 : 8; }

void kj_api_cplx_type_name(const kjit_value *v, char *buf, size_t cap)
{
    static const char *const names[] = {"bytes", "bytearray", "memoryview", "memoryview"};
    if (v->kind == KJIT_VALUE_COMPLEX) snprintf(buf, cap, "%s", v->dtype == KJIT_COMPLEX64 ? "complex64" : "complex128");
    else if (v->kind == KJIT_VALUE_INT) /* datetime64[D], timedelta64[h], as Numba names them */
        snprintf(buf, cap, "%s[%s]", kjit_dtype_name(v->dtype),
                 valid_unit(v->v.dt.unit) && v->v.dt.unit != KJ_DTU_GENERIC ? kj_dtu_name(v->v.dt.unit) : "");
    else if ((unsigned)v->v.buf.kind <= KJIT_BUFFER_MEMORYVIEW_RO) snprintf(buf, cap, "%s", names[v->v.buf.kind]);
    else snprintf(buf, cap, "buffer");
}

/* A prepared call's argument of these kinds: true when handled (*ok: it fits and was written). */
bool kj_api_cplx_plan_rewrite(const kj_api_plan_arg *a, const kjit_value *v, void *out, bool *ok)
{
    double re;
    if ((a->store == KJ_DT_COMPLEX64 || a->store == KJ_DT_COMPLEX128) && v->kind != KJIT_VALUE_COMPLEX &&
        real_value(v, &re)) { /* a number for a complex parameter */
        *ok = v->dtype == a->dtype;
        if (*ok) store_complex(out, a->store, re, 0.0);
        return true;
    }
    if (v->kind == KJIT_VALUE_COMPLEX) {
        *ok = v->dtype == a->dtype;
        if (*ok) store_complex(out, a->store, v->v.c.re, v->v.c.im);
        return true;
    }
    if (v->kind == KJIT_VALUE_INT && time_dtype(v->dtype)) {
        *ok = v->dtype == a->dtype && v->v.dt.unit == a->unit;
        if (*ok) memcpy(out, &v->v.dt.count, sizeof v->v.dt.count);
        return true;
    }
    const kj_array *x = v->kind == KJIT_VALUE_BYTES || v->kind == KJIT_VALUE_ARRAY ? kj_api_arr(v->v.a) : NULL;
    if (!x) return false;
    *ok = x->dtype == a->elem && x->ndim == a->ndim && (x->flags & a->flags) == a->flags &&
          x->api_time == a->time && (v->kind != KJIT_VALUE_BYTES || (int)v->v.buf.kind == a->unit);
    if (*ok) store_array(out, x);
    return true;
}

/* The plan's record of such an argument (kj_api_plan_arg_of did the rest). */
void kj_api_cplx_plan_arg(kj_api_plan_arg *a, const kj_type *param, const kjit_value *v)
{
    if (v->kind == KJIT_VALUE_INT && time_dtype(v->dtype)) a->unit = v->v.dt.unit;
    if (v->kind == KJIT_VALUE_BYTES) a->unit = (int)v->v.buf.kind;
    if (v->kind == KJIT_VALUE_BYTES || v->kind == KJIT_VALUE_ARRAY) {
        const kj_array *x = kj_api_arr(v->v.a);
        a->elem = x->dtype;
        a->ndim = x->ndim;
        a->time = x->api_time;
        a->unit_set = x->api_time != 0 || v->kind == KJIT_VALUE_BYTES;
        if (v->kind == KJIT_VALUE_BYTES)
            a->flags = param->layout == KJ_LAYOUT_C   ? KJ_ARR_C_CONTIGUOUS
                       : param->layout == KJ_LAYOUT_F ? KJ_ARR_F_CONTIGUOUS
                                                      : 0;
    }
}
