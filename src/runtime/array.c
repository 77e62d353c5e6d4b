/* kjit's host arrays (see array.h). NumPy is the specification: where a
 * function mirrors a NumPy routine, the routine is named above it. */
#include "array.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* dtypes                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct {
    size_t size;
    const char *name, *descr;
    char kind; /* 'b' bool, 'i' signed, 'u' unsigned, 'f' float */
} dtype_info;

static const dtype_info DTYPES[KJ_DT_COUNT] = {
    [KJ_DT_BOOL] = {1, "bool", "|b1", 'b'},
    [KJ_DT_INT8] = {1, "int8", "|i1", 'i'},
    [KJ_DT_INT16] = {2, "int16", "<i2", 'i'},
    [KJ_DT_INT32] = {4, "int32", "<i4", 'i'},
    [KJ_DT_INT64] = {8, "int64", "<i8", 'i'},
    [KJ_DT_UINT8] = {1, "uint8", "|u1", 'u'},
    [KJ_DT_UINT16] = {2, "uint16", "<u2", 'u'},
    [KJ_DT_UINT32] = {4, "uint32", "<u4", 'u'},
    [KJ_DT_UINT64] = {8, "uint64", "<u8", 'u'},
    [KJ_DT_FLOAT32] = {4, "float32", "<f4", 'f'},
    [KJ_DT_FLOAT64] = {8, "float64", "<f8", 'f'},
};

size_t kj_dtype_size(kj_dtype dt) { return DTYPES[dt].size; }
const char *kj_dtype_name(kj_dtype dt) { return DTYPES[dt].name; }
const char *kj_dtype_descr(kj_dtype dt) { return DTYPES[dt].descr; }
bool kj_dtype_is_float(kj_dtype dt) { return DTYPES[dt].kind == 'f'; }
bool kj_dtype_is_int(kj_dtype dt) { return DTYPES[dt].kind == 'i' || DTYPES[dt].kind == 'u'; }
bool kj_dtype_is_signed(kj_dtype dt) { return DTYPES[dt].kind == 'i' || DTYPES[dt].kind == 'f'; }

static kj_dtype signed_of_size(size_t size)
{
    switch (size) {
    case 1: return KJ_DT_INT8;
    case 2: return KJ_DT_INT16;
    case 4: return KJ_DT_INT32;
    default: return KJ_DT_INT64;
    }
}

/* np.result_type for two strong dtypes. Within a kind the larger wins; a
 * signed and an unsigned int meet in a signed int wide enough for both
 * (float64 when none is: int64+uint64); an int meets a float in a float
 * that holds it exactly (float32 up to 16-bit ints, else float64). */
kj_dtype kj_dtype_promote(kj_dtype a, kj_dtype b)
{
    if (a == b) return a;
    if (a == KJ_DT_BOOL) return b;
    if (b == KJ_DT_BOOL) return a;
    char ka = DTYPES[a].kind, kb = DTYPES[b].kind;
    size_t sa = DTYPES[a].size, sb = DTYPES[b].size;
    if (ka == kb) return sa >= sb ? a : b;
    if (ka == 'f' || kb == 'f') {
        kj_dtype f = ka == 'f' ? a : b, i = ka == 'f' ? b : a;
        if (f == KJ_DT_FLOAT64) return f;
        return DTYPES[i].size <= 2 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64;
    }
    /* one signed, one unsigned */
    size_t ss = ka == 'i' ? sa : sb, us = ka == 'u' ? sa : sb;
    if (ss > us) return ka == 'i' ? a : b;
    if (us >= 8) return KJ_DT_FLOAT64;
    return signed_of_size(us * 2);
}

/* ------------------------------------------------------------------------ */
/* Errors and scalars                                                        */
/* ------------------------------------------------------------------------ */

bool kj_rt_errorf(kj_rt_error *err, const char *exc, const char *fmt, ...)
{
    if (!err) return false;
    err->exc = exc;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return false;
}

kj_scalar kj_scalar_f64(double x) { return (kj_scalar){KJ_DT_FLOAT64, {.f = x}}; }
kj_scalar kj_scalar_i64(int64_t x) { return (kj_scalar){KJ_DT_INT64, {.i = x}}; }

double kj_scalar_as_f64(kj_scalar s)
{
    switch (DTYPES[s.dtype].kind) {
    case 'f': return s.v.f;
    case 'u': return (double)s.v.u;
    default: return (double)s.v.i;
    }
}

/* Float → integer conversion. C leaves out-of-range values undefined; NumPy
 * inherits what x86-64 compilers emit, which we reproduce so results match:
 * narrow types go through a 32-bit truncation (NaN and overflow give
 * INT32_MIN, then wrap), 32-bit unsigned and 64-bit types through 64-bit
 * truncation (INT64_MIN on overflow), uint64 through the split at 2**63. */
static int64_t trunc_i32(double x)
{
    if (!(x > -2147483649.0 && x < 2147483648.0)) return INT32_MIN;
    return (int32_t)x;
}

static int64_t trunc_i64(double x)
{
    if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0)) return INT64_MIN;
    return (int64_t)x;
}

static uint64_t trunc_u64(double x)
{
    if (x >= 9223372036854775808.0)
        return (uint64_t)trunc_i64(x - 9223372036854775808.0) ^ (UINT64_C(1) << 63);
    return (uint64_t)trunc_i64(x);
}

/* Store helpers: write a value of one of the three computation classes
 * (int64, uint64, double) into an element of type dt, casting. */
static inline void st_u64(char *p, kj_dtype dt, uint64_t v)
{
    switch (dt) {
    case KJ_DT_BOOL: *(uint8_t *)p = v != 0; break;
    case KJ_DT_INT8: case KJ_DT_UINT8: *(uint8_t *)p = (uint8_t)v; break;
    case KJ_DT_INT16: case KJ_DT_UINT16: { uint16_t t = (uint16_t)v; memcpy(p, &t, 2); break; }
    case KJ_DT_INT32: case KJ_DT_UINT32: { uint32_t t = (uint32_t)v; memcpy(p, &t, 4); break; }
    case KJ_DT_INT64: case KJ_DT_UINT64: memcpy(p, &v, 8); break;
    case KJ_DT_FLOAT32: { float t = (float)v; memcpy(p, &t, 4); break; }
    case KJ_DT_FLOAT64: { double t = (double)v; memcpy(p, &t, 8); break; }
    default: break;
    }
}

static inline void st_i64(char *p, kj_dtype dt, int64_t v)
{
    if (dt == KJ_DT_FLOAT32) {
        float t = (float)v;
        memcpy(p, &t, 4);
    } else if (dt == KJ_DT_FLOAT64) {
        double t = (double)v;
        memcpy(p, &t, 8);
    } else {
        st_u64(p, dt, (uint64_t)v); /* two's complement wrap */
    }
}

static inline void st_f64(char *p, kj_dtype dt, double v)
{
    switch (dt) {
    case KJ_DT_BOOL: *(uint8_t *)p = v != 0; break;
    case KJ_DT_INT8: case KJ_DT_INT16: case KJ_DT_INT32:
    case KJ_DT_UINT8: case KJ_DT_UINT16: st_u64(p, dt, (uint64_t)trunc_i32(v)); break;
    case KJ_DT_UINT32: case KJ_DT_INT64: st_u64(p, dt, (uint64_t)trunc_i64(v)); break;
    case KJ_DT_UINT64: st_u64(p, dt, trunc_u64(v)); break;
    case KJ_DT_FLOAT32: { float t = (float)v; memcpy(p, &t, 4); break; }
    case KJ_DT_FLOAT64: memcpy(p, &v, 8); break;
    default: break;
    }
}

/* Load helpers: read an element of type dt into a computation class. */
static inline int64_t ld_i64(const char *p, kj_dtype dt)
{
    switch (dt) {
    case KJ_DT_BOOL: case KJ_DT_UINT8: return *(const uint8_t *)p;
    case KJ_DT_INT8: return *(const int8_t *)p;
    case KJ_DT_INT16: { int16_t t; memcpy(&t, p, 2); return t; }
    case KJ_DT_UINT16: { uint16_t t; memcpy(&t, p, 2); return t; }
    case KJ_DT_INT32: { int32_t t; memcpy(&t, p, 4); return t; }
    case KJ_DT_UINT32: { uint32_t t; memcpy(&t, p, 4); return t; }
    case KJ_DT_INT64: case KJ_DT_UINT64: { int64_t t; memcpy(&t, p, 8); return t; }
    case KJ_DT_FLOAT32: { float t; memcpy(&t, p, 4); return trunc_i64(t); }
    case KJ_DT_FLOAT64: { double t; memcpy(&t, p, 8); return trunc_i64(t); }
    default: return 0;
    }
}

static inline uint64_t ld_u64(const char *p, kj_dtype dt) { return (uint64_t)ld_i64(p, dt); }

static inline double ld_f64(const char *p, kj_dtype dt)
{
    switch (dt) {
    case KJ_DT_FLOAT32: { float t; memcpy(&t, p, 4); return t; }
    case KJ_DT_FLOAT64: { double t; memcpy(&t, p, 8); return t; }
    case KJ_DT_UINT64: return (double)ld_u64(p, dt);
    default: return (double)ld_i64(p, dt);
    }
}

static inline float ld_f32(const char *p, kj_dtype dt)
{
    switch (dt) {
    case KJ_DT_FLOAT32: { float t; memcpy(&t, p, 4); return t; }
    case KJ_DT_FLOAT64: return (float)ld_f64(p, dt);
    case KJ_DT_UINT64: return (float)ld_u64(p, dt);
    default: return (float)ld_i64(p, dt);
    }
}

kj_scalar kj_elem_load(const void *p, kj_dtype dt)
{
    kj_scalar s = {.dtype = dt};
    switch (DTYPES[dt].kind) {
    case 'f': s.v.f = ld_f64(p, dt); break;
    case 'u': s.v.u = ld_u64(p, dt); break;
    default: s.v.i = ld_i64(p, dt); break;
    }
    return s;
}

void kj_elem_store(void *p, kj_dtype dt, kj_scalar v)
{
    switch (DTYPES[v.dtype].kind) {
    case 'f': st_f64(p, dt, v.v.f); break;
    case 'u': st_u64(p, dt, v.v.u); break;
    default: st_i64(p, dt, v.v.i); break;
    }
}

kj_scalar kj_scalar_cast(kj_scalar s, kj_dtype to)
{
    char tmp[8];
    kj_elem_store(tmp, to, s);
    return kj_elem_load(tmp, to);
}

/* ------------------------------------------------------------------------ */
/* Creation, reference counting, flags                                       */
/* ------------------------------------------------------------------------ */

int64_t kj_array_size(const kj_array *a)
{
    int64_t n = 1;
    for (int i = 0; i < a->ndim; i++) n *= a->shape[i];
    return n;
}

size_t kj_array_itemsize(const kj_array *a) { return DTYPES[a->dtype].size; }

/* NumPy's _UpdateContiguousFlags: length-1 dimensions do not matter, and an
 * array with a zero-length dimension is both C- and F-contiguous. */
void kj_array_update_flags(kj_array *a)
{
    int64_t isz = (int64_t)kj_array_itemsize(a), sd = isz;
    bool c = true, f = true;
    for (int i = 0; i < a->ndim; i++)
        if (a->shape[i] == 0) {
            a->flags = KJ_ARR_C_CONTIGUOUS | KJ_ARR_F_CONTIGUOUS;
            return;
        }
    for (int i = a->ndim - 1; i >= 0; i--) {
        if (a->shape[i] == 1) continue;
        if (a->strides[i] != sd) c = false;
        sd *= a->shape[i];
    }
    sd = isz;
    for (int i = 0; i < a->ndim; i++) {
        if (a->shape[i] == 1) continue;
        if (a->strides[i] != sd) f = false;
        sd *= a->shape[i];
    }
    a->flags = (c ? KJ_ARR_C_CONTIGUOUS : 0u) | (f ? KJ_ARR_F_CONTIGUOUS : 0u);
}

static kj_array *new_header(kj_dtype dt, int ndim, const int64_t *shape)
{
    kj_array *a = calloc(1, sizeof *a);
    if (!a) {
        fputs("kjit: out of memory\n", stderr);
        abort();
    }
    a->dtype = dt;
    a->ndim = ndim;
    if (ndim) memcpy(a->shape, shape, (size_t)ndim * sizeof *shape);
    atomic_init(&a->refcount, 1);
    return a;
}

static void c_strides(kj_array *a)
{
    int64_t sd = (int64_t)kj_array_itemsize(a);
    for (int i = a->ndim - 1; i >= 0; i--) {
        a->strides[i] = sd;
        sd *= a->shape[i] ? a->shape[i] : 1;
    }
}

void kj_shape_str(char *buf, size_t cap, int ndim, const int64_t *shape)
{
    size_t n = (size_t)snprintf(buf, cap, "(");
    for (int i = 0; i < ndim && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, i ? ",%lld" : "%lld", (long long)shape[i]);
    if (n < cap) snprintf(buf + n, cap - n, ndim == 1 ? ",)" : ")");
}

/* NumPy's _size_to_string, for the "unable to allocate" message. */
static void size_str(char *buf, size_t cap, uint64_t nbytes)
{
    static const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int bits = 0;
    for (uint64_t t = nbytes; t; t >>= 1) bits++;
    int u = (bits - 1 > 1 ? bits - 1 : 1) / 10;
    double n = (double)nbytes / ldexp(1.0, 10 * u);
    if (round(n) == 1024.0) u++, n /= 1024.0;
    if (u == 0) snprintf(buf, cap, "%.0f %s", n, units[0]);
    else if (round(n) < 1000.0) snprintf(buf, cap, "%#.3g %s", n, units[u]);
    else snprintf(buf, cap, "%.0f %s", n, units[u]);
}

/* Check the shape and compute the byte size (NumPy's errors). */
static bool checked_nbytes(kj_dtype dt, int ndim, const int64_t *shape, size_t *nbytes,
                           kj_rt_error *err)
{
    if (ndim < 0 || ndim > KJ_MAX_DIMS)
        return kj_rt_errorf(err, "ValueError",
                            "maximum supported dimension for an array is %d, found %d",
                            KJ_MAX_DIMS, ndim);
    uint64_t n = DTYPES[dt].size;
    bool overflow = false;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0)
            return kj_rt_errorf(err, "ValueError", "negative dimensions are not allowed");
        if (shape[i] && n > (uint64_t)INT64_MAX / (uint64_t)shape[i]) overflow = true;
        n *= (uint64_t)shape[i];
    }
    for (int i = 0; i < ndim; i++)
        if (shape[i] == 0) n = 0, overflow = false;
    if (overflow)
        return kj_rt_errorf(err, "ValueError",
                            "array is too big; `arr.size * arr.dtype.itemsize` is larger "
                            "than the maximum possible size.");
    *nbytes = (size_t)n;
    return true;
}

static kj_array *alloc_array(kj_dtype dt, int ndim, const int64_t *shape, bool zero,
                             kj_rt_error *err)
{
    size_t nbytes = 0;
    if (!checked_nbytes(dt, ndim, shape, &nbytes, err)) return NULL;
    /* 64-byte alignment for vectorised JIT code; never a NULL data pointer */
    size_t cap = (nbytes + 63) & ~(size_t)63;
    char *data = aligned_alloc(64, cap ? cap : 64);
    if (!data) {
        char sh[256], sz[64];
        kj_shape_str(sh, sizeof sh, ndim, shape);
        size_str(sz, sizeof sz, (uint64_t)nbytes);
        kj_rt_errorf(err, "MemoryError",
                     "unable to allocate %s for an array with shape %s and data type %s",
                     sz, sh, DTYPES[dt].name);
        return NULL;
    }
    if (zero) memset(data, 0, cap ? cap : 64);
    kj_array *a = new_header(dt, ndim, shape);
    a->data = data;
    a->owns_data = true;
    c_strides(a);
    kj_array_update_flags(a);
    return a;
}

kj_array *kj_array_empty(kj_dtype dt, int ndim, const int64_t *shape, kj_rt_error *err)
{
    return alloc_array(dt, ndim, shape, false, err);
}

kj_array *kj_array_zeros(kj_dtype dt, int ndim, const int64_t *shape, kj_rt_error *err)
{
    return alloc_array(dt, ndim, shape, true, err);
}

kj_array *kj_array_full(kj_dtype dt, int ndim, const int64_t *shape, kj_scalar value,
                        kj_rt_error *err)
{
    kj_array *a = alloc_array(dt, ndim, shape, false, err);
    if (!a) return NULL;
    char v[8];
    size_t isz = DTYPES[dt].size;
    kj_elem_store(v, dt, value);
    int64_t n = kj_array_size(a);
    for (int64_t i = 0; i < n; i++) memcpy(a->data + i * (int64_t)isz, v, isz);
    return a;
}

kj_array *kj_array_wrap(void *data, kj_dtype dt, int ndim, const int64_t *shape,
                        const int64_t *strides, kj_rt_error *err)
{
    size_t nbytes = 0;
    if (!checked_nbytes(dt, ndim, shape, &nbytes, err)) return NULL;
    kj_array *a = new_header(dt, ndim, shape);
    a->data = data;
    if (strides) memcpy(a->strides, strides, (size_t)ndim * sizeof *strides);
    else c_strides(a);
    kj_array_update_flags(a);
    return a;
}

kj_array *kj_array_from_scalar(kj_scalar s)
{
    kj_array *a = alloc_array(s.dtype, 0, NULL, false, NULL);
    if (!a) {
        fputs("kjit: out of memory\n", stderr);
        abort();
    }
    kj_elem_store(a->data, s.dtype, s);
    return a;
}

kj_array *kj_array_retain(kj_array *a)
{
    if (a) atomic_fetch_add_explicit(&a->refcount, 1, memory_order_relaxed);
    return a;
}

void kj_array_release(kj_array *a)
{
    while (a && atomic_fetch_sub_explicit(&a->refcount, 1, memory_order_acq_rel) == 1) {
        kj_array *base = a->base;
        if (a->owns_data) free(a->data);
        free(a);
        a = base; /* drop the view's reference to its base, iteratively */
    }
}

/* A new header viewing `a`'s memory; the view references the array that
 * owns the memory (NumPy collapses base chains the same way). */
static kj_array *new_view(kj_array *a, int ndim, const int64_t *shape, const int64_t *strides,
                          char *data)
{
    kj_array *v = new_header(a->dtype, ndim, shape);
    if (ndim) memcpy(v->strides, strides, (size_t)ndim * sizeof *strides);
    v->data = data;
    v->base = kj_array_retain(a->base ? a->base : a);
    kj_array_update_flags(v);
    return v;
}

/* ------------------------------------------------------------------------ */
/* Iteration                                                                 */
/* ------------------------------------------------------------------------ */

enum { MAX_OPS = 3 };

/* An iteration over `shape` with one pointer and stride set per operand.
 * Dimensions that can be merged for every operand are coalesced, so a
 * contiguous operation becomes one inner loop. */
typedef struct {
    int ndim, nop;
    int64_t shape[KJ_MAX_DIMS];
    int64_t strides[MAX_OPS][KJ_MAX_DIMS];
    char *ptrs[MAX_OPS];
} iter;

typedef void (*inner_fn)(void *ctx, char **p, const int64_t *s, int64_t n);

static void iter_coalesce(iter *it)
{
    int nd = 0;
    for (int d = 0; d < it->ndim; d++) {
        if (it->shape[d] == 1 && it->ndim > 1) continue;
        bool merge = nd > 0;
        for (int o = 0; o < it->nop && merge; o++)
            merge = it->strides[o][nd - 1] == it->strides[o][d] * it->shape[d];
        if (merge) {
            it->shape[nd - 1] *= it->shape[d];
            for (int o = 0; o < it->nop; o++) it->strides[o][nd - 1] = it->strides[o][d];
        } else {
            it->shape[nd] = it->shape[d];
            for (int o = 0; o < it->nop; o++) it->strides[o][nd] = it->strides[o][d];
            nd++;
        }
    }
    it->ndim = nd;
}

/* Call fn for every innermost run, outer dimensions in C order. */
static void iter_run(iter *it, inner_fn fn, void *ctx)
{
    for (int d = 0; d < it->ndim; d++)
        if (it->shape[d] == 0) return;
    iter_coalesce(it);
    if (it->ndim == 0) {
        int64_t s[MAX_OPS] = {0};
        fn(ctx, it->ptrs, s, 1);
        return;
    }
    int in = it->ndim - 1;
    int64_t idx[KJ_MAX_DIMS] = {0}, inner_s[MAX_OPS];
    char *p[MAX_OPS];
    for (int o = 0; o < it->nop; o++) inner_s[o] = it->strides[o][in], p[o] = it->ptrs[o];
    for (;;) {
        fn(ctx, p, inner_s, it->shape[in]);
        int d = in - 1;
        for (; d >= 0; d--) {
            for (int o = 0; o < it->nop; o++) p[o] += it->strides[o][d];
            if (++idx[d] < it->shape[d]) break;
            for (int o = 0; o < it->nop; o++) p[o] -= it->strides[o][d] * it->shape[d];
            idx[d] = 0;
        }
        if (d < 0) return;
    }
}

/* Set operand `o` of an iteration over the (broadcast) shape of `it`: its
 * dimensions align to the right; missing and length-1 ones get stride 0. */
static void iter_operand(iter *it, int o, const kj_array *a)
{
    it->ptrs[o] = a->data;
    int off = it->ndim - a->ndim;
    for (int d = 0; d < it->ndim; d++) {
        int ad = d - off;
        it->strides[o][d] = (ad < 0 || a->shape[ad] == 1) ? 0 : a->strides[ad];
    }
}

static void iter_init(iter *it, int ndim, const int64_t *shape, int nop)
{
    memset(it, 0, sizeof *it);
    it->ndim = ndim;
    it->nop = nop;
    if (ndim) memcpy(it->shape, shape, (size_t)ndim * sizeof *shape);
}

/* ------------------------------------------------------------------------ */
/* Elements                                                                  */
/* ------------------------------------------------------------------------ */

void *kj_array_ptr(const kj_array *a, const int64_t *idx)
{
    char *p = a->data;
    for (int i = 0; i < a->ndim; i++) p += idx[i] * a->strides[i];
    return p;
}

kj_scalar kj_array_get(const kj_array *a, const int64_t *idx)
{
    return kj_elem_load(kj_array_ptr(a, idx), a->dtype);
}

double kj_array_get_f64(const kj_array *a, const int64_t *idx)
{
    return ld_f64(kj_array_ptr(a, idx), a->dtype);
}

int64_t kj_array_get_i64(const kj_array *a, const int64_t *idx)
{
    return ld_i64(kj_array_ptr(a, idx), a->dtype);
}

void kj_array_set(kj_array *a, const int64_t *idx, kj_scalar v)
{
    kj_elem_store(kj_array_ptr(a, idx), a->dtype, v);
}

void kj_array_set_f64(kj_array *a, const int64_t *idx, double v)
{
    st_f64(kj_array_ptr(a, idx), a->dtype, v);
}

void kj_array_set_i64(kj_array *a, const int64_t *idx, int64_t v)
{
    st_i64(kj_array_ptr(a, idx), a->dtype, v);
}

/* ------------------------------------------------------------------------ */
/* Views                                                                     */
/* ------------------------------------------------------------------------ */

/* PySlice_Unpack + PySlice_AdjustIndices: normalise a slice of a dimension
 * of length `len` to (start, step, count). */
static bool slice_adjust(const kj_index *ix, int64_t len, int64_t *start, int64_t *step,
                         int64_t *count, kj_rt_error *err)
{
    int64_t st = ix->step;
    if (st == 0) return kj_rt_errorf(err, "ValueError", "slice step cannot be zero");
    if (st < -INT64_MAX) st = -INT64_MAX;
    int64_t lo = ix->has_start ? ix->start : (st < 0 ? INT64_MAX : 0);
    int64_t hi = ix->has_stop ? ix->stop : (st < 0 ? INT64_MIN : INT64_MAX);
    if (lo < 0) {
        lo += len;
        if (lo < 0) lo = st < 0 ? -1 : 0;
    } else if (lo >= len) {
        lo = st < 0 ? len - 1 : len;
    }
    if (hi < 0) {
        hi += len;
        if (hi < 0) hi = st < 0 ? -1 : 0;
    } else if (hi >= len) {
        hi = st < 0 ? len - 1 : len;
    }
    if (st < 0) *count = hi < lo ? (lo - hi - 1) / (-st) + 1 : 0;
    else *count = lo < hi ? (hi - lo - 1) / st + 1 : 0;
    *start = lo;
    *step = st;
    return true;
}

kj_array *kj_array_view(kj_array *a, const kj_index *idx, int nidx, kj_rt_error *err)
{
    if (nidx > a->ndim) {
        kj_rt_errorf(err, "IndexError",
                     "too many indices for array: array is %d-dimensional, but %d were "
                     "indexed", a->ndim, nidx);
        return NULL;
    }
    int64_t shape[KJ_MAX_DIMS], strides[KJ_MAX_DIMS];
    int nd = 0;
    int64_t offset = 0;
    bool empty = false;
    for (int d = 0; d < a->ndim; d++) {
        int64_t len = a->shape[d];
        if (d < nidx && idx[d].kind == KJ_IDX_INT) {
            int64_t i = idx[d].i < 0 ? idx[d].i + len : idx[d].i;
            if (i < 0 || i >= len) {
                kj_rt_errorf(err, "IndexError",
                             "index %lld is out of bounds for axis %d with size %lld",
                             (long long)idx[d].i, d, (long long)len);
                return NULL;
            }
            offset += i * a->strides[d];
            continue;
        }
        int64_t start = 0, step = 1, count = len;
        if (d < nidx && !slice_adjust(&idx[d], len, &start, &step, &count, err)) return NULL;
        if (count == 0) empty = true;
        else offset += start * a->strides[d];
        shape[nd] = count;
        /* with fewer than two elements the stride is never used (and a huge
         * step must not overflow it) */
        strides[nd] = count > 1 ? a->strides[d] * step : a->strides[d];
        nd++;
    }
    return new_view(a, nd, shape, strides, empty ? a->data : a->data + offset);
}

/* NumPy's convert_shape_to_string for reshape messages: leading unknown
 * (negative) dimensions are dropped, later ones print as "newaxis". */
static void reshape_shape_str(char *buf, size_t cap, int n, const int64_t *v)
{
    int i = 0;
    while (i < n && v[i] < 0) i++;
    if (i == n) {
        snprintf(buf, cap, "()");
        return;
    }
    size_t k = (size_t)snprintf(buf, cap, "(%lld", (long long)v[i++]);
    for (; i < n && k < cap; i++) {
        if (v[i] < 0) k += (size_t)snprintf(buf + k, cap - k, ",newaxis");
        else k += (size_t)snprintf(buf + k, cap - k, ",%lld", (long long)v[i]);
    }
    if (k < cap) snprintf(buf + k, cap - k, i == 1 ? ",)" : ")");
}

/* NumPy's _fix_unknown_dimension. */
static bool fix_unknown_dim(int64_t size, int n, const int64_t *req, int64_t *out,
                            kj_rt_error *err)
{
    int unknown = -1;
    int64_t known = 1;
    bool bad = false;
    for (int i = 0; i < n; i++) {
        out[i] = req[i];
        if (req[i] < 0) {
            if (unknown >= 0)
                return kj_rt_errorf(err, "ValueError", "can only specify one unknown dimension");
            unknown = i;
        } else if (req[i] && known > INT64_MAX / req[i]) {
            bad = true;
        } else {
            known *= req[i];
        }
    }
    if (!bad && unknown >= 0) {
        bad = known == 0 || size % known != 0;
        if (!bad) out[unknown] = size / known;
    } else if (!bad) {
        bad = size != known;
    }
    if (bad) {
        char sh[256];
        reshape_shape_str(sh, sizeof sh, n, req);
        return kj_rt_errorf(err, "ValueError", "cannot reshape array of size %lld into shape %s",
                            (long long)size, sh);
    }
    return true;
}

/* NumPy's _attempt_nocopy_reshape (C order): find strides for the new shape
 * that address the same elements, merging old axes only where they are
 * contiguous with each other. */
static bool nocopy_strides(const kj_array *a, int newnd, const int64_t *newdims,
                           int64_t *newstrides)
{
    int64_t olddims[KJ_MAX_DIMS], oldstrides[KJ_MAX_DIMS];
    int oldnd = 0;
    for (int i = 0; i < a->ndim; i++)
        if (a->shape[i] != 1) olddims[oldnd] = a->shape[i], oldstrides[oldnd++] = a->strides[i];
    int oi = 0, oj = 1, ni = 0, nj = 1;
    while (ni < newnd && oi < oldnd) {
        int64_t np = newdims[ni], op = olddims[oi];
        while (np != op) {
            if (np < op) np *= newdims[nj++];
            else op *= olddims[oj++];
        }
        for (int ok = oi; ok < oj - 1; ok++)
            if (oldstrides[ok] != olddims[ok + 1] * oldstrides[ok + 1]) return false;
        newstrides[nj - 1] = oldstrides[oj - 1];
        for (int nk = nj - 1; nk > ni; nk--) newstrides[nk - 1] = newstrides[nk] * newdims[nk];
        ni = nj++;
        oi = oj++;
    }
    int64_t last = ni >= 1 ? newstrides[ni - 1] : (int64_t)kj_array_itemsize(a);
    for (int nk = ni; nk < newnd; nk++) newstrides[nk] = last;
    return true;
}

kj_array *kj_array_reshape(kj_array *a, int ndim, const int64_t *shape, kj_rt_error *err)
{
    if (ndim < 0 || ndim > KJ_MAX_DIMS) {
        kj_rt_errorf(err, "ValueError", "maximum supported dimension for an array is %d, found %d",
                     KJ_MAX_DIMS, ndim);
        return NULL;
    }
    int64_t dims[KJ_MAX_DIMS], strides[KJ_MAX_DIMS];
    if (!fix_unknown_dim(kj_array_size(a), ndim, shape, dims, err)) return NULL;
    if (kj_array_is_c_contiguous(a)) {
        kj_array *v = new_view(a, ndim, dims, strides, a->data);
        c_strides(v);
        kj_array_update_flags(v);
        return v;
    }
    if (nocopy_strides(a, ndim, dims, strides)) return new_view(a, ndim, dims, strides, a->data);
    kj_array *c = kj_array_copy(a, err);
    if (!c) return NULL;
    kj_array *v = kj_array_reshape(c, ndim, dims, err);
    kj_array_release(c);
    return v;
}

/* ------------------------------------------------------------------------ */
/* Copies and casts                                                          */
/* ------------------------------------------------------------------------ */

typedef struct {
    kj_dtype from, to;
} cast_ctx;

static void copy_inner(void *ctx, char **p, const int64_t *s, int64_t n)
{
    size_t isz = *(size_t *)ctx;
    char *d = p[0];
    const char *src = p[1];
    if (s[0] == (int64_t)isz && s[1] == (int64_t)isz) {
        memmove(d, src, (size_t)n * isz);
        return;
    }
    for (int64_t i = 0; i < n; i++, d += s[0], src += s[1]) memmove(d, src, isz);
}

static void cast_inner(void *ctx, char **p, const int64_t *s, int64_t n)
{
    const cast_ctx *c = ctx;
    char *d = p[0], *src = p[1];
    char kind = DTYPES[c->from].kind;
    for (int64_t i = 0; i < n; i++, d += s[0], src += s[1]) {
        if (kind == 'f') st_f64(d, c->to, ld_f64(src, c->from));
        else if (kind == 'u') st_u64(d, c->to, ld_u64(src, c->from));
        else st_i64(d, c->to, ld_i64(src, c->from));
    }
}

/* The byte range [lo, hi) an array's elements occupy. */
static void mem_bounds(const kj_array *a, const char **lo, const char **hi)
{
    const char *l = a->data, *h = a->data + kj_array_itemsize(a);
    for (int d = 0; d < a->ndim; d++) {
        if (a->shape[d] == 0) {
            *lo = *hi = a->data;
            return;
        }
        int64_t ext = (a->shape[d] - 1) * a->strides[d];
        if (ext < 0) l += ext;
        else h += ext;
    }
    *lo = l;
    *hi = h;
}

/* Does writing `dst` element by element risk clobbering `src` elements not
 * yet read? Identical layouts are safe (each element reads itself). */
static bool overlaps(const kj_array *dst, const kj_array *src)
{
    const char *dl, *dh, *sl, *sh;
    mem_bounds(dst, &dl, &dh);
    mem_bounds(src, &sl, &sh);
    if (dl >= sh || sl >= dh) return false;
    if (dst->data == src->data && dst->ndim == src->ndim && dst->dtype == src->dtype &&
        !memcmp(dst->shape, src->shape, (size_t)dst->ndim * sizeof dst->shape[0]) &&
        !memcmp(dst->strides, src->strides, (size_t)dst->ndim * sizeof dst->strides[0]))
        return false;
    return true;
}

bool kj_array_assign(kj_array *dst, const kj_array *src, kj_rt_error *err)
{
    int nd = 0;
    int64_t shape[KJ_MAX_DIMS];
    if (!kj_broadcast_shapes(dst->ndim, dst->shape, src->ndim, src->shape, &nd, shape, NULL) ||
        nd != dst->ndim || memcmp(shape, dst->shape, (size_t)nd * sizeof shape[0])) {
        char a[256], b[256];
        kj_shape_str(a, sizeof a, src->ndim, src->shape);
        kj_shape_str(b, sizeof b, dst->ndim, dst->shape);
        return kj_rt_errorf(err, "ValueError",
                            "could not broadcast input array from shape %s into shape %s",
                            a, b);
    }
    kj_array *tmp = NULL;
    if (overlaps(dst, src)) {
        tmp = kj_array_copy(src, err);
        if (!tmp) return false;
        src = tmp;
    }
    iter it;
    iter_init(&it, dst->ndim, dst->shape, 2);
    iter_operand(&it, 0, dst);
    iter_operand(&it, 1, src);
    if (dst->dtype == src->dtype) {
        size_t isz = kj_array_itemsize(dst);
        iter_run(&it, copy_inner, &isz);
    } else {
        cast_ctx c = {src->dtype, dst->dtype};
        iter_run(&it, cast_inner, &c);
    }
    kj_array_release(tmp);
    return true;
}

kj_array *kj_array_astype(const kj_array *a, kj_dtype dt, kj_rt_error *err)
{
    kj_array *c = kj_array_empty(dt, a->ndim, a->shape, err);
    if (c && !kj_array_assign(c, a, err)) {
        kj_array_release(c);
        return NULL;
    }
    return c;
}

kj_array *kj_array_copy(const kj_array *a, kj_rt_error *err)
{
    return kj_array_astype(a, a->dtype, err);
}

/* ------------------------------------------------------------------------ */
/* Broadcasting and elementwise binary operations                            */
/* ------------------------------------------------------------------------ */

/* NumPy's broadcasting: shapes align to the right; each pair of lengths must
 * be equal or one of them 1. */
bool kj_broadcast_shapes(int na, const int64_t *sa, int nb, const int64_t *sb, int *nout,
                         int64_t *out, kj_rt_error *err)
{
    int n = na > nb ? na : nb;
    for (int d = 0; d < n; d++) {
        int ia = d - (n - na), ib = d - (n - nb);
        int64_t x = ia >= 0 ? sa[ia] : 1, y = ib >= 0 ? sb[ib] : 1;
        if (x != y && x != 1 && y != 1) {
            char s1[256], s2[256];
            kj_shape_str(s1, sizeof s1, na, sa);
            kj_shape_str(s2, sizeof s2, nb, sb);
            return kj_rt_errorf(err, "ValueError",
                                "operands could not be broadcast together with shapes %s %s",
                                s1, s2);
        }
        out[d] = x == 1 ? y : x;
    }
    *nout = n;
    return true;
}

static bool is_comparison(kj_array_op op) { return op >= KJ_AOP_EQ; }

bool kj_array_op_dtype(kj_array_op op, kj_dtype a, kj_dtype b, kj_dtype *out, kj_rt_error *err)
{
    if (is_comparison(op)) {
        *out = KJ_DT_BOOL;
        return true;
    }
    kj_dtype p = kj_dtype_promote(a, b);
    switch (op) {
    case KJ_AOP_DIV: /* true_divide: integer inputs use the float64 loop */
        *out = kj_dtype_is_float(p) ? p : KJ_DT_FLOAT64;
        return true;
    case KJ_AOP_SUB:
        if (p == KJ_DT_BOOL)
            return kj_rt_errorf(err, "TypeError",
                                "numpy boolean subtract, the `-` operator, is not supported, "
                                "use the bitwise_xor, the `^` operator, or the logical_xor "
                                "function instead.");
        break;
    case KJ_AOP_FLOORDIV: case KJ_AOP_MOD: case KJ_AOP_POW:
        if (p == KJ_DT_BOOL) p = KJ_DT_INT8; /* no '??' loop: the first fit is int8 */
        break;
    default:
        break;
    }
    *out = p;
    return true;
}

/* The computation class of an operation: the type its loop computes in. */
typedef enum { CL_BOOL, CL_I64, CL_U64, CL_F32, CL_F64 } op_class;

static op_class class_of(kj_dtype dt)
{
    switch (DTYPES[dt].kind) {
    case 'b': return CL_BOOL;
    case 'i': return CL_I64;
    case 'u': return CL_U64;
    default: return dt == KJ_DT_FLOAT32 ? CL_F32 : CL_F64;
    }
}

typedef struct {
    kj_array_op op;
    kj_dtype da, db, dout;
    bool negative_power; /* set when int ** negative int was met */
} binop_ctx;

/* Python/NumPy floor division and modulo on floats (npy_divmod): fmod, then
 * adjust toward the divisor's sign, snapping the quotient to an integer. */
#define DEFINE_DIVMOD(NAME, T, FMOD, FLOOR, COPYSIGN)                                          \
    static T NAME(T a, T b, T *modulus)                                                        \
    {                                                                                          \
        T mod = FMOD(a, b);                                                                    \
        if (!b) {                                                                              \
            *modulus = mod;                                                                    \
            return a / b;                                                                      \
        }                                                                                      \
        T div = (a - mod) / b;                                                                 \
        if (mod) {                                                                             \
            if ((b < 0) != (mod < 0)) {                                                        \
                mod += b;                                                                      \
                div -= (T)1;                                                                   \
            }                                                                                  \
        } else {                                                                               \
            mod = COPYSIGN((T)0, b);                                                           \
        }                                                                                      \
        T floordiv;                                                                            \
        if (div) {                                                                             \
            floordiv = FLOOR(div);                                                             \
            if (div - floordiv > (T)0.5) floordiv += (T)1;                                     \
        } else {                                                                               \
            floordiv = COPYSIGN((T)0, a / b);                                                  \
        }                                                                                      \
        *modulus = mod;                                                                        \
        return floordiv;                                                                       \
    }
DEFINE_DIVMOD(divmod_f64, double, fmod, floor, copysign)
DEFINE_DIVMOD(divmod_f32, float, fmodf, floorf, copysignf)

/* Floating operations on class T (double or float). np.minimum/maximum
 * propagate NaN and, between equal values (0.0 and -0.0), return the second
 * operand, as NumPy's SIMD loops do. */
#define DEFINE_FLOAT_OP(NAME, T, DIVMOD, FMOD, POW)                                            \
    static T NAME(kj_array_op op, T x, T y)                                                       \
    {                                                                                          \
        T m;                                                                                   \
        switch (op) {                                                                          \
        case KJ_AOP_ADD: return x + y;                                                          \
        case KJ_AOP_SUB: return x - y;                                                          \
        case KJ_AOP_MUL: return x * y;                                                          \
        case KJ_AOP_DIV: return x / y;                                                          \
        case KJ_AOP_FLOORDIV: return y ? DIVMOD(x, y, &m) : x / y;                              \
        case KJ_AOP_MOD: return y ? (DIVMOD(x, y, &m), m) : FMOD(x, y);                         \
        case KJ_AOP_POW: return POW(x, y);                                                      \
        case KJ_AOP_MIN: return x != x ? x : y != y ? y : x < y ? x : y;                         \
        case KJ_AOP_MAX: return x != x ? x : y != y ? y : x > y ? x : y;                         \
        default: return 0;                                                                     \
        }                                                                                      \
    }
DEFINE_FLOAT_OP(fop_f64, double, divmod_f64, fmod, pow)
DEFINE_FLOAT_OP(fop_f32, float, divmod_f32, fmodf, powf)

static bool compare(kj_array_op op, int c) /* c: <0, 0, >0; 2 = unordered (NaN) */
{
    switch (op) {
    case KJ_AOP_EQ: return c == 0;
    case KJ_AOP_NE: return c != 0;
    case KJ_AOP_LT: return c == -1;
    case KJ_AOP_LE: return c == -1 || c == 0;
    case KJ_AOP_GT: return c == 1;
    case KJ_AOP_GE: return c == 1 || c == 0;
    default: return false;
    }
}

#define CMP3(x, y) ((x) < (y) ? -1 : (x) > (y) ? 1 : (x) == (y) ? 0 : 2)

/* Integer power by squaring (NumPy's loop), wrapping. */
static uint64_t ipow(uint64_t base, uint64_t exp)
{
    if (exp == 0 || base == 1) return 1;
    uint64_t out = exp & 1 ? base : 1;
    exp >>= 1;
    while (exp) {
        base *= base;
        if (exp & 1) out *= base;
        exp >>= 1;
    }
    return out;
}

/* Signed integer operations, computed in int64 (wrapping via uint64) and
 * truncated to the result width on store, which equals NumPy's wrapping in
 * the narrow type. // and % by zero give 0; MIN // -1 wraps to MIN. */
static int64_t iop(binop_ctx *c, int64_t x, int64_t y)
{
    uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
    switch (c->op) {
    case KJ_AOP_ADD: return (int64_t)(ux + uy);
    case KJ_AOP_SUB: return (int64_t)(ux - uy);
    case KJ_AOP_MUL: return (int64_t)(ux * uy);
    case KJ_AOP_FLOORDIV: {
        if (y == 0) return 0;
        if (y == -1) return (int64_t)(0 - ux);
        int64_t q = x / y;
        return ((x % y) != 0 && ((x < 0) != (y < 0))) ? q - 1 : q;
    }
    case KJ_AOP_MOD: {
        if (y == 0 || y == -1) return 0;
        int64_t r = x % y;
        return (r != 0 && ((r < 0) != (y < 0))) ? r + y : r;
    }
    case KJ_AOP_POW:
        if (y < 0) {
            c->negative_power = true;
            return 0;
        }
        return (int64_t)ipow(ux, uy);
    case KJ_AOP_MIN: return x < y ? x : y;
    case KJ_AOP_MAX: return x > y ? x : y;
    default: return 0;
    }
}

static uint64_t uop(kj_array_op op, uint64_t x, uint64_t y)
{
    switch (op) {
    case KJ_AOP_ADD: return x + y;
    case KJ_AOP_SUB: return x - y;
    case KJ_AOP_MUL: return x * y;
    case KJ_AOP_FLOORDIV: return y ? x / y : 0;
    case KJ_AOP_MOD: return y ? x % y : 0;
    case KJ_AOP_POW: return ipow(x, y);
    case KJ_AOP_MIN: return x < y ? x : y;
    case KJ_AOP_MAX: return x > y ? x : y;
    default: return 0;
    }
}

/* bool + and max are "or", * and min are "and". */
static bool bop(kj_array_op op, bool x, bool y)
{
    return (op == KJ_AOP_ADD || op == KJ_AOP_MAX) ? (x || y) : (x && y);
}

/* One inner loop per computation class; p[0] = out, p[1] = a, p[2] = b. */
#define BINOP_LOOP(NAME, T, LOAD, STORE, APPLY)                                                \
    static void NAME(void *vctx, char **p, const int64_t *s, int64_t n)                        \
    {                                                                                          \
        binop_ctx *c = vctx;                                                                   \
        char *o = p[0], *a = p[1], *b = p[2];                                                  \
        bool cmp = is_comparison(c->op);                                                       \
        for (int64_t i = 0; i < n; i++, o += s[0], a += s[1], b += s[2]) {                     \
            T x = LOAD(a, c->da), y = LOAD(b, c->db);                                          \
            if (cmp) *(uint8_t *)o = compare(c->op, CMP3(x, y));                               \
            else STORE(o, c->dout, APPLY);                                                     \
        }                                                                                      \
    }
#define LD_BOOL(p, dt) (ld_i64(p, dt) != 0)
BINOP_LOOP(loop_f64, double, ld_f64, st_f64, fop_f64(c->op, x, y))
BINOP_LOOP(loop_f32, float, ld_f32, st_f64, fop_f32(c->op, x, y))
BINOP_LOOP(loop_i64, int64_t, ld_i64, st_i64, iop(c, x, y))
BINOP_LOOP(loop_u64, uint64_t, ld_u64, st_u64, uop(c->op, x, y))
BINOP_LOOP(loop_bool, bool, LD_BOOL, st_i64, bop(c->op, x, y))

bool kj_array_binop_out(kj_array_op op, const kj_array *a, const kj_array *b, kj_array *out,
                        kj_rt_error *err)
{
    kj_dtype rt = KJ_DT_BOOL;
    int nd = 0;
    int64_t shape[KJ_MAX_DIMS];
    if (!kj_array_op_dtype(op, a->dtype, b->dtype, &rt, err)) return false;
    if (!kj_broadcast_shapes(a->ndim, a->shape, b->ndim, b->shape, &nd, shape, err)) return false;
    if (nd != out->ndim || memcmp(shape, out->shape, (size_t)nd * sizeof shape[0])) {
        char s1[256], s2[256];
        kj_shape_str(s1, sizeof s1, nd, shape);
        kj_shape_str(s2, sizeof s2, out->ndim, out->shape);
        return kj_rt_errorf(err, "ValueError",
                            "non-broadcastable output operand with shape %s doesn't match "
                            "the broadcast shape %s", s2, s1);
    }
    /* copy an input that overlaps the output in a different layout */
    kj_array *ta = NULL, *tb = NULL;
    if (overlaps(out, a) && !(ta = kj_array_copy(a, err))) return false;
    if (overlaps(out, b) && !(tb = kj_array_copy(b, err))) {
        kj_array_release(ta);
        return false;
    }
    /* comparisons compute in the promoted input type; arithmetic in the
     * result type (int / int computes in float64) */
    kj_dtype compute = is_comparison(op) ? kj_dtype_promote(a->dtype, b->dtype) : rt;
    binop_ctx c = {op, a->dtype, b->dtype, out->dtype, false};
    static const inner_fn loops[] = {loop_bool, loop_i64, loop_u64, loop_f32, loop_f64};
    iter it;
    iter_init(&it, nd, shape, 3);
    iter_operand(&it, 0, out);
    iter_operand(&it, 1, ta ? ta : a);
    iter_operand(&it, 2, tb ? tb : b);
    iter_run(&it, loops[class_of(compute)], &c);
    kj_array_release(ta);
    kj_array_release(tb);
    if (c.negative_power)
        return kj_rt_errorf(err, "ValueError",
                            "Integers to negative integer powers are not allowed.");
    return true;
}

kj_array *kj_array_binop(kj_array_op op, const kj_array *a, const kj_array *b, kj_rt_error *err)
{
    kj_dtype rt = KJ_DT_BOOL;
    int nd = 0;
    int64_t shape[KJ_MAX_DIMS];
    if (!kj_array_op_dtype(op, a->dtype, b->dtype, &rt, err)) return NULL;
    if (!kj_broadcast_shapes(a->ndim, a->shape, b->ndim, b->shape, &nd, shape, err)) return NULL;
    kj_array *out = kj_array_empty(rt, nd, shape, err);
    if (out && !kj_array_binop_out(op, a, b, out, err)) {
        kj_array_release(out);
        return NULL;
    }
    return out;
}

/* ------------------------------------------------------------------------ */
/* Reductions                                                                */
/* ------------------------------------------------------------------------ */

/* The order NumPy's iterator visits the elements of one array in a
 * reduction over all axes: axes sorted by decreasing |stride| (a stable
 * sort, so C order wins ties), strides NOT negated (reductions pass
 * NPY_ITER_DONT_NEGATE_STRIDES), length-1 axes dropped and mergeable axes
 * coalesced. The innermost axis is the run each inner loop gets. */
static void reduction_order(const kj_array *a, iter *it)
{
    iter_init(it, 0, NULL, 1);
    it->ptrs[0] = a->data;
    for (int d = 0; d < a->ndim; d++) {
        int64_t len = a->shape[d], st = a->strides[d];
        if (len == 1) continue;
        int k = it->ndim++;
        int64_t ast = st < 0 ? -st : st;
        while (k > 0) {
            int64_t prev = it->strides[0][k - 1];
            if ((prev < 0 ? -prev : prev) >= ast) break;
            it->shape[k] = it->shape[k - 1];
            it->strides[0][k] = it->strides[0][k - 1];
            k--;
        }
        it->shape[k] = len;
        it->strides[0][k] = st;
    }
    iter_coalesce(it);
}

/* NumPy's pairwise summation (@TYPE@_pairwise_sum in loops_utils.h): below
 * 8 elements a plain loop; up to 128 eight accumulators combined as
 * ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)) plus the rest; above, split in two at
 * a multiple of 8 and recurse. The result bits match NumPy's. */
#define DEFINE_PAIRWISE(NAME, T)                                                               \
    static T NAME(const char *a, int64_t n, int64_t stride)                                    \
    {                                                                                          \
        if (n < 8) {                                                                           \
            T res = 0;                                                                         \
            for (int64_t i = 0; i < n; i++) res += *(const T *)(const void *)(a + i * stride); \
            return res;                                                                        \
        }                                                                                      \
        if (n <= 128) {                                                                        \
            T r[8];                                                                            \
            int64_t i;                                                                         \
            for (int k = 0; k < 8; k++) r[k] = *(const T *)(const void *)(a + k * stride);     \
            for (i = 8; i < n - (n % 8); i += 8)                                               \
                for (int k = 0; k < 8; k++)                                                    \
                    r[k] += *(const T *)(const void *)(a + (i + k) * stride);                  \
            T res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));         \
            for (; i < n; i++) res += *(const T *)(const void *)(a + i * stride);              \
            return res;                                                                        \
        }                                                                                      \
        int64_t n2 = n / 2;                                                                    \
        n2 -= n2 % 8;                                                                          \
        return NAME(a, n2, stride) + NAME(a + n2 * stride, n - n2, stride);                    \
    }
DEFINE_PAIRWISE(pairwise_f64, double)
DEFINE_PAIRWISE(pairwise_f32, float)

/* Float sums as NumPy's reduction iterator feeds them to the add loop: the
 * elements, in reduction_order, in chunks of 8192 (its buffer size, which
 * bounds the inner loop even when no copy is needed); each chunk is summed
 * pairwise and added to the running total, which starts at 0. */
enum { CHUNK = 8192 };

typedef struct {
    kj_dtype dt;
    bool f32;       /* accumulate in float32 (float32 input), else float64 */
    double acc;
    float acc32;
    int64_t nbuf;   /* elements waiting in buf for a partial chunk */
    char *buf;      /* CHUNK doubles or floats */
    int64_t i64;    /* integer sums (exact, wrapping) */
    uint64_t u64;
} sum_ctx;

static void sum_flush(sum_ctx *c)
{
    if (c->f32) c->acc32 += pairwise_f32(c->buf, c->nbuf, 4);
    else c->acc += pairwise_f64(c->buf, c->nbuf, 8);
    c->nbuf = 0;
}

static void float_sum_inner(sum_ctx *c, const char *a, int64_t stride, int64_t n)
{
    bool native = c->dt == (c->f32 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64);
    while (n > 0) {
        int64_t take = CHUNK - c->nbuf < n ? CHUNK - c->nbuf : n;
        if (c->nbuf == 0 && take == CHUNK && native) { /* a whole chunk in place */
            if (c->f32) c->acc32 += pairwise_f32(a, CHUNK, stride);
            else c->acc += pairwise_f64(a, CHUNK, stride);
        } else {
            for (int64_t i = 0; i < take; i++, c->nbuf++) {
                if (c->f32) ((float *)(void *)c->buf)[c->nbuf] = ld_f32(a + i * stride, c->dt);
                else ((double *)(void *)c->buf)[c->nbuf] = ld_f64(a + i * stride, c->dt);
            }
            if (c->nbuf == CHUNK) sum_flush(c);
        }
        a += take * stride;
        n -= take;
    }
}

static void sum_inner(void *vctx, char **p, const int64_t *s, int64_t n)
{
    sum_ctx *c = vctx;
    const char *a = p[0];
    if (c->buf) float_sum_inner(c, a, s[0], n);
    else if (DTYPES[c->dt].kind == 'u')
        for (int64_t i = 0; i < n; i++, a += s[0]) c->u64 += ld_u64(a, c->dt);
    else
        for (int64_t i = 0; i < n; i++, a += s[0])
            c->i64 = (int64_t)((uint64_t)c->i64 + (uint64_t)ld_i64(a, c->dt));
}

/* Sum the n elements at `data` (contiguous, of type dt) or, when `a` is
 * given, all of a's elements in reduction order. `as_float`: a float sum
 * (float32 for float32 elements, else float64), else an integer one. */
static sum_ctx sum_elements(const kj_array *a, const char *data, kj_dtype dt, int64_t n,
                            bool as_float)
{
    sum_ctx c = {.dt = dt, .f32 = dt == KJ_DT_FLOAT32};
    if (as_float && !(c.buf = malloc(CHUNK * sizeof(double)))) {
        fputs("kjit: out of memory\n", stderr);
        abort();
    }
    if (a) {
        iter it;
        reduction_order(a, &it);
        iter_run(&it, sum_inner, &c);
    } else {
        char *p[1] = {(char *)data};
        int64_t st = (int64_t)DTYPES[dt].size;
        sum_inner(&c, p, &st, n);
    }
    if (c.buf) {
        if (c.nbuf) sum_flush(&c);
        free(c.buf);
        c.buf = NULL;
    }
    return c;
}

kj_scalar kj_array_sum(const kj_array *a)
{
    sum_ctx c = sum_elements(a, NULL, a->dtype, 0, kj_dtype_is_float(a->dtype));
    switch (DTYPES[a->dtype].kind) {
    case 'f': return (kj_scalar){a->dtype, {.f = c.f32 ? c.acc32 : c.acc}};
    case 'u': return (kj_scalar){KJ_DT_UINT64, {.u = c.u64}};
    default: return kj_scalar_i64(c.i64);
    }
}

typedef struct {
    kj_dtype dt;
    bool first, is_max;
    kj_scalar best;
} minmax_ctx;

/* np.minimum.reduce / np.maximum.reduce: the running value meets each
 * element as np.minimum does (NaN propagates). */
static void minmax_inner(void *vctx, char **p, const int64_t *s, int64_t n)
{
    minmax_ctx *c = vctx;
    const char *a = p[0];
    int64_t i = 0;
    if (c->first) c->best = kj_elem_load(a, c->dt), c->first = false, i = 1;
    char kind = DTYPES[c->dt].kind;
    for (; i < n; i++) {
        const char *e = a + i * s[0];
        if (kind == 'f') {
            double x = ld_f64(e, c->dt), b = c->best.v.f;
            c->best.v.f = c->is_max ? fop_f64(KJ_AOP_MAX, b, x) : fop_f64(KJ_AOP_MIN, b, x);
        } else if (kind == 'u') {
            uint64_t x = ld_u64(e, c->dt);
            if (c->is_max ? x > c->best.v.u : x < c->best.v.u) c->best.v.u = x;
        } else {
            int64_t x = ld_i64(e, c->dt);
            if (c->is_max ? x > c->best.v.i : x < c->best.v.i) c->best.v.i = x;
        }
    }
}

static bool minmax(const kj_array *a, bool is_max, kj_scalar *out, kj_rt_error *err)
{
    if (kj_array_size(a) == 0)
        return kj_rt_errorf(err, "ValueError",
                            "zero-size array to reduction operation %s which has no identity",
                            is_max ? "maximum" : "minimum");
    minmax_ctx c = {a->dtype, true, is_max, {0}};
    iter it;
    reduction_order(a, &it);
    iter_run(&it, minmax_inner, &c);
    *out = c.best;
    return true;
}

bool kj_array_min(const kj_array *a, kj_scalar *out, kj_rt_error *err)
{
    return minmax(a, false, out, err);
}

bool kj_array_max(const kj_array *a, kj_scalar *out, kj_rt_error *err)
{
    return minmax(a, true, out, err);
}

/* np.mean (numpy/core/_methods.py:_mean): integer and bool arrays are summed
 * in float64; float32 stays float32; the division by the count (an intp
 * scalar) happens in float64 and is cast back. */
kj_scalar kj_array_mean(const kj_array *a)
{
    double n = (double)kj_array_size(a);
    sum_ctx c = sum_elements(a, NULL, a->dtype, 0, true);
    if (c.f32) return (kj_scalar){KJ_DT_FLOAT32, {.f = (float)((double)c.acc32 / n)}};
    return kj_scalar_f64(c.acc / n);
}

typedef struct {
    kj_dtype dt;
    double mean;
    char *out;
    bool f32;
} dev_ctx;

/* x = (a - mean)**2 into a contiguous temporary, in iteration order. */
static void dev_inner(void *vctx, char **p, const int64_t *s, int64_t n)
{
    dev_ctx *c = vctx;
    const char *a = p[0];
    for (int64_t i = 0; i < n; i++, a += s[0]) {
        if (c->f32) {
            float x = ld_f32(a, c->dt) - (float)c->mean;
            memcpy(c->out, &(float){x * x}, 4);
            c->out += 4;
        } else {
            double x = ld_f64(a, c->dt) - c->mean;
            memcpy(c->out, &(double){x * x}, 8);
            c->out += 8;
        }
    }
}

/* np.std (_methods.py:_var): the mean as np.mean computes it, the squared
 * deviations in a new array (laid out in iteration order), their sum, a
 * division by max(n - ddof, 0) in float64, and the square root in the
 * result type. */
kj_scalar kj_array_std(const kj_array *a, int64_t ddof)
{
    int64_t n = kj_array_size(a);
    bool f32 = a->dtype == KJ_DT_FLOAT32;
    /* the keepdims mean is an array, divided by the count in its own type */
    double mean = f32 ? (double)((float)kj_array_sum(a).v.f / (float)n) : kj_array_mean(a).v.f;
    kj_dtype xdt = f32 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64;
    char *tmp = malloc(n ? (size_t)n * kj_dtype_size(xdt) : 1);
    if (!tmp) {
        fputs("kjit: out of memory\n", stderr);
        abort();
    }
    dev_ctx d = {a->dtype, mean, tmp, f32};
    iter it;
    reduction_order(a, &it);
    iter_run(&it, dev_inner, &d);
    sum_ctx c = sum_elements(NULL, tmp, xdt, n, true);
    free(tmp);
    double div = (double)(n - ddof > 0 ? n - ddof : 0);
    if (f32) return (kj_scalar){KJ_DT_FLOAT32, {.f = sqrtf((float)((double)c.acc32 / div))}};
    return kj_scalar_f64(sqrt(c.acc / div));
}

/* ------------------------------------------------------------------------ */
/* allclose                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct {
    kj_dtype dx, dy;
    bool diff_f32, tol_f32; /* the precision NumPy's isclose computes in */
    double rtol, atol;
    bool all;
} close_ctx;

/* numpy.isclose: y is made inexact (float32 stays, others become float64);
 * finite pairs test |x - y| <= atol + rtol*|y| in the arrays' types (so in
 * float32 for float32 inputs, with rtol and atol cast to float32); other
 * pairs must be equal (inf == inf; NaN never, equal_nan=False). */
static void close_inner(void *vctx, char **p, const int64_t *s, int64_t n)
{
    close_ctx *c = vctx;
    const char *a = p[0], *b = p[1];
    for (int64_t i = 0; i < n && c->all; i++, a += s[0], b += s[1]) {
        double x = ld_f64(a, c->dx), y = ld_f64(b, c->dy);
        bool ok;
        if (!isfinite(x) || !isfinite(y)) {
            ok = x == y;
        } else {
            double diff = c->diff_f32 ? (double)fabsf((float)x - (float)y) : fabs(x - y);
            double tol = c->tol_f32 ? (double)((float)c->atol + (float)c->rtol * fabsf((float)y))
                                    : c->atol + c->rtol * fabs(y);
            ok = diff <= tol;
        }
        if (!ok) c->all = false;
    }
}

bool kj_array_allclose(const kj_array *a, const kj_array *b, double rtol, double atol,
                       bool *result, kj_rt_error *err)
{
    int nd = 0;
    int64_t shape[KJ_MAX_DIMS];
    if (!kj_broadcast_shapes(a->ndim, a->shape, b->ndim, b->shape, &nd, shape, err)) return false;
    kj_dtype ydt = b->dtype == KJ_DT_FLOAT32 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64;
    close_ctx c = {a->dtype, b->dtype, kj_dtype_promote(a->dtype, ydt) == KJ_DT_FLOAT32,
                   ydt == KJ_DT_FLOAT32, rtol, atol, true};
    iter it;
    iter_init(&it, nd, shape, 2);
    iter_operand(&it, 0, a);
    iter_operand(&it, 1, b);
    iter_run(&it, close_inner, &c);
    *result = c.all;
    return true;
}

/* ------------------------------------------------------------------------ */
/* arange, linspace                                                          */
/* ------------------------------------------------------------------------ */

/* NumPy's @NAME@_fill: with a[0] and a[1] stored, a[i] = a[0] + i*delta,
 * delta = a[1] - a[0], in the array's own type. */
static void arange_fill(kj_array *a, int64_t len)
{
    char *d = a->data;
    size_t isz = kj_array_itemsize(a);
    if (a->dtype == KJ_DT_FLOAT64 || a->dtype == KJ_DT_FLOAT32) {
        if (a->dtype == KJ_DT_FLOAT32) {
            float start = ld_f32(d, a->dtype), delta = ld_f32(d + 4, a->dtype) - start;
            for (int64_t i = 2; i < len; i++) st_f64(d + i * 4, a->dtype, start + (float)i * delta);
        } else {
            double start = ld_f64(d, a->dtype), delta = ld_f64(d + 8, a->dtype) - start;
            for (int64_t i = 2; i < len; i++)
                st_f64(d + i * 8, a->dtype, start + (double)i * delta);
        }
        return;
    }
    uint64_t start = (uint64_t)ld_i64(d, a->dtype);
    uint64_t delta = (uint64_t)ld_i64(d + isz, a->dtype) - start;
    for (int64_t i = 2; i < len; i++)
        st_u64(d + i * (int64_t)isz, a->dtype, start + (uint64_t)i * delta);
}

static kj_array *arange_alloc(double len_f, kj_dtype dt, kj_rt_error *err)
{
    if (isnan(len_f)) {
        kj_rt_errorf(err, "ValueError", "arange: cannot compute length");
        return NULL;
    }
    if (len_f >= 9.2e18) {
        kj_rt_errorf(err, "ValueError", "Maximum allowed size exceeded");
        return NULL;
    }
    int64_t len = len_f > 0 ? (int64_t)len_f : 0;
    if (dt == KJ_DT_BOOL && len > 2) {
        kj_rt_errorf(err, "ValueError", "no fill-function for data-type.");
        return NULL;
    }
    return kj_array_empty(dt, 1, &len, err);
}

kj_array *kj_array_arange(double start, double stop, double step, kj_dtype dt,
                          kj_rt_error *err)
{
    if (step == 0) {
        kj_rt_errorf(err, "ZeroDivisionError", "division by zero");
        return NULL;
    }
    kj_array *a = arange_alloc(ceil((stop - start) / step), dt, err);
    if (!a) return NULL;
    int64_t len = a->shape[0];
    if (len > 0) st_f64(a->data, dt, start);
    if (len > 1) st_f64(a->data + kj_array_itemsize(a), dt, start + step);
    arange_fill(a, len);
    return a;
}

kj_array *kj_array_arange_i64(int64_t start, int64_t stop, int64_t step, kj_dtype dt,
                              kj_rt_error *err)
{
    if (step == 0) {
        kj_rt_errorf(err, "ZeroDivisionError", "division by zero");
        return NULL;
    }
    /* exact ceil((stop - start) / step) */
    __int128 range = (__int128)stop - start, q = range / step;
    if (range % step != 0 && ((range < 0) == (step < 0))) q++;
    kj_array *a = arange_alloc(q > 0 ? (double)q : 0.0, dt, err);
    if (!a) return NULL;
    int64_t len = a->shape[0];
    if (len > 0) st_i64(a->data, dt, start);
    if (len > 1) /* start + step, wrapping like NumPy's intp arithmetic */
        st_i64(a->data + kj_array_itemsize(a), dt, (int64_t)((uint64_t)start + (uint64_t)step));
    arange_fill(a, len);
    return a;
}

/* numpy.linspace (function_base.py): y = arange(num) * step + start in
 * float64, step = (stop - start) / div (or (i / div) * delta when the step
 * underflows to 0), y[-1] = stop with endpoint; integer dtypes floor. */
kj_array *kj_array_linspace(double start, double stop, int64_t num, bool endpoint,
                            kj_dtype dt, kj_rt_error *err)
{
    if (num < 0) {
        kj_rt_errorf(err, "ValueError",
                     "Number of samples, %lld, must be non-negative.", (long long)num);
        return NULL;
    }
    kj_array *a = kj_array_empty(dt, 1, &num, err);
    if (!a) return NULL;
    int64_t div = endpoint ? num - 1 : num;
    double delta = stop - start, step = div > 0 ? delta / (double)div : NAN;
    size_t isz = kj_array_itemsize(a);
    for (int64_t i = 0; i < num; i++) {
        double y = (double)i;
        if (div > 0 && step == 0) y = y / (double)div * delta;
        else if (div > 0) y = y * step;
        else y = y * delta;
        y += start;
        if (endpoint && num > 1 && i == num - 1) y = stop;
        if (kj_dtype_is_int(dt)) y = floor(y);
        st_f64(a->data + i * (int64_t)isz, dt, y);
    }
    return a;
}
