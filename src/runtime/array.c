/* SPDX-License-Identifier: BSD-2-Clause */
/* kjit's host arrays (see array.h). NumPy is the specification: where a
 * function mirrors a NumPy routine, the routine is named above it. */
#include "array.h"
#include "gpu.h"
#include "array_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* ------------------------------------------------------------------------ */
/* dtypes                                                                    */
/* ------------------------------------------------------------------------ */

const dtype_info kj_dtype_info[KJ_DT_COUNT] = {
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
    [KJ_DT_COMPLEX64] = {8, "complex64", "<c8", 'c'},
    [KJ_DT_COMPLEX128] = {16, "complex128", "<c16", 'c'},
    [KJ_DT_FLOAT16] = {2, "float16", "<f2", 'f'},
};

size_t kj_dtype_size(kj_dtype dt) { return kj_dtype_info[dt].size; }
const char *kj_dtype_name(kj_dtype dt) { return kj_dtype_info[dt].name; }
const char *kj_dtype_descr(kj_dtype dt) { return kj_dtype_info[dt].descr; }
bool kj_dtype_is_float(kj_dtype dt) { return kj_dtype_info[dt].kind == 'f'; }
bool kj_dtype_is_int(kj_dtype dt) { return kj_dtype_info[dt].kind == 'i' || kj_dtype_info[dt].kind == 'u'; }
bool kj_dtype_is_signed(kj_dtype dt) { return kj_dtype_info[dt].kind == 'i' || kj_dtype_info[dt].kind == 'f'; }

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
 * that holds it exactly (float16 for 8-bit ints, float32 up to 16-bit ints,
 * else float64). */
kj_dtype kj_dtype_promote(kj_dtype a, kj_dtype b)
{
    if (a == b) return a;
    if (a == KJ_DT_BOOL) return b;
    if (b == KJ_DT_BOOL) return a;
    char ka = kj_dtype_info[a].kind, kb = kj_dtype_info[b].kind;
    size_t sa = kj_dtype_info[a].size, sb = kj_dtype_info[b].size;
    if (ka == kb) return sa >= sb ? a : b;
    if (ka == 'f' || kb == 'f') {
        kj_dtype f = ka == 'f' ? a : b, i = ka == 'f' ? b : a;
        if (f == KJ_DT_FLOAT64) return f;
        if (f == KJ_DT_FLOAT16 && kj_dtype_info[i].size == 1) return f;
        return kj_dtype_info[i].size <= 2 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64;
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
    switch (kj_dtype_info[s.dtype].kind) {
    case 'f': return s.v.f;
    case 'u': return (double)s.v.u;
    default: return (double)s.v.i;
    }
}

kj_scalar kj_elem_load(const void *p, kj_dtype dt)
{
    kj_scalar s = {.dtype = dt};
    switch (kj_dtype_info[dt].kind) {
    case 'f': s.v.f = ld_f64(p, dt); break;
    case 'u': s.v.u = ld_u64(p, dt); break;
    default: s.v.i = ld_i64(p, dt); break;
    }
    return s;
}

void kj_elem_store(void *p, kj_dtype dt, kj_scalar v)
{
    switch (kj_dtype_info[v.dtype].kind) {
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

size_t kj_array_itemsize(const kj_array *a) { return kj_dtype_info[a->dtype].size; }

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
    /* As NumPy: the product of the nonzero dimensions must fit (the C
     * strides are made of it, even when another dimension is 0). */
    uint64_t n = kj_dtype_info[dt].size;
    bool overflow = false, empty = false;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0)
            return kj_rt_errorf(err, "ValueError", "negative dimensions are not allowed");
        if (shape[i] == 0) {
            empty = true;
            continue;
        }
        if (n > (uint64_t)INT64_MAX / (uint64_t)shape[i]) overflow = true;
        else n *= (uint64_t)shape[i];
    }
    if (empty && !overflow) n = 0;
    if (overflow)
        return kj_rt_errorf(err, "ValueError",
                            "array is too big; `arr.size * arr.dtype.itemsize` is larger "
                            "than the maximum possible size.");
    *nbytes = (size_t)n;
    return true;
}

/* Transparent huge pages for a large array, as NumPy asks for its arrays of
 * 4 MiB and more (madvise mode is the common default): writing it then takes
 * 512 times fewer page faults, which otherwise cost as much as a cheap loop
 * over it, and reading it takes fewer TLB misses. Advisory only. */
static void huge_pages(void *data, size_t nbytes)
{
    enum { PAGE = 4096, MIN_BYTES = 4 << 20 };
    if (nbytes < MIN_BYTES) return;
    uintptr_t lo = ((uintptr_t)data + PAGE - 1) & ~(uintptr_t)(PAGE - 1);
    uintptr_t hi = ((uintptr_t)data + nbytes) & ~(uintptr_t)(PAGE - 1);
#ifdef MADV_HUGEPAGE
    if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)lo;
    (void)hi;
#endif
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
                     sz, sh, kj_dtype_info[dt].name);
        return NULL;
    }
    huge_pages(data, nbytes);
    if (zero) memset(data, 0, cap ? cap : 64);
    return kj_array_adopt(data, dt, ndim, shape);
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
    size_t isz = kj_dtype_info[dt].size;
    kj_elem_store(v, dt, value);
    int64_t n = kj_array_size(a);
    for (int64_t i = 0; i < n; i++) memcpy(a->data + i * (int64_t)isz, v, isz);
    return a;
}

kj_array *kj_array_adopt(void *data, kj_dtype dt, int ndim, const int64_t *shape)
{
    kj_array *a = new_header(dt, ndim, shape);
    a->data = data;
    a->owns_data = true;
    c_strides(a);
    kj_array_update_flags(a);
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
        bool kept = a->mirror && kj_gpu_mirror_free(a->mirror, a->owns_data ? a->data : NULL);
        if (a->owns_data && !kept) free(a->data);
        free(a->rec);
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


void kj_iter_coalesce(kj_iter *it)
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
void kj_iter_run(kj_iter *it, inner_fn fn, void *ctx)
{
    for (int d = 0; d < it->ndim; d++)
        if (it->shape[d] == 0) return;
    kj_iter_coalesce(it);
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
void kj_iter_operand(kj_iter *it, int o, const kj_array *a)
{
    it->ptrs[o] = a->data;
    int off = it->ndim - a->ndim;
    for (int d = 0; d < it->ndim; d++) {
        int ad = d - off;
        it->strides[o][d] = (ad < 0 || a->shape[ad] == 1) ? 0 : a->strides[ad];
    }
}

void kj_iter_init(kj_iter *it, int ndim, const int64_t *shape, int nop)
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

kj_array *kj_array_ravel(kj_array *a, kj_rt_error *err)
{
    int64_t n = kj_array_size(a);
    if (kj_array_is_c_contiguous(a)) return kj_array_reshape(a, 1, &n, err);
    kj_array *c = kj_array_copy(a, err);
    if (!c) return NULL;
    kj_array *v = kj_array_reshape(c, 1, &n, err);
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

/* One element to or from a complex type, through its parts as doubles (a
 * real source has imaginary part 0; a real destination takes the real
 * part, as NumPy's cast). complex64 parts are floats: exact either way. */
static void cast_complex(char *d, kj_dtype to, const char *s, kj_dtype from)
{
    double re, im = 0;
    if (from == KJ_DT_COMPLEX64) {
        float f[2];
        memcpy(f, s, sizeof f);
        re = f[0], im = f[1];
    } else if (from == KJ_DT_COMPLEX128) {
        double f[2];
        memcpy(f, s, sizeof f);
        re = f[0], im = f[1];
    } else {
        re = ld_f64(s, from);
    }
    if (to == KJ_DT_COMPLEX64) {
        float f[2] = {(float)re, (float)im};
        memcpy(d, f, sizeof f);
    } else if (to == KJ_DT_COMPLEX128) {
        double f[2] = {re, im};
        memcpy(d, f, sizeof f);
    } else {
        st_f64(d, to, re);
    }
}

static void cast_inner(void *ctx, char **p, const int64_t *s, int64_t n)
{
    const cast_ctx *c = ctx;
    char *d = p[0], *src = p[1];
    char kind = kj_dtype_info[c->from].kind;
    bool cx = kind == 'c' || kj_dtype_info[c->to].kind == 'c';
    for (int64_t i = 0; i < n; i++, d += s[0], src += s[1]) {
        if (cx) cast_complex(d, c->to, src, c->from);
        else if (kind == 'f') st_f64(d, c->to, ld_f64(src, c->from));
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

bool kj_array_overlaps(const kj_array *a, const kj_array *b)
{
    const char *al, *ah, *bl, *bh;
    mem_bounds(a, &al, &ah);
    mem_bounds(b, &bl, &bh);
    return al < bh && bl < ah;
}

bool kj_array_may_clobber(const kj_array *dst, const kj_array *src)
{
    if (!kj_array_overlaps(dst, src)) return false;
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
    if (kj_array_may_clobber(dst, src)) {
        tmp = kj_array_copy(src, err);
        if (!tmp) return false;
        src = tmp;
    }
    kj_iter it;
    kj_iter_init(&it, dst->ndim, dst->shape, 2);
    kj_iter_operand(&it, 0, dst);
    kj_iter_operand(&it, 1, src);
    if (dst->dtype == src->dtype) {
        size_t isz = kj_array_itemsize(dst);
        kj_iter_run(&it, copy_inner, &isz);
    } else {
        cast_ctx c = {src->dtype, dst->dtype};
        kj_iter_run(&it, cast_inner, &c);
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
    switch (kj_dtype_info[dt].kind) {
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

double kj_float_op(kj_array_op op, double x, double y) { return fop_f64(op, x, y); }

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
    if (kj_array_may_clobber(out, a) && !(ta = kj_array_copy(a, err))) return false;
    if (kj_array_may_clobber(out, b) && !(tb = kj_array_copy(b, err))) {
        kj_array_release(ta);
        return false;
    }
    /* comparisons compute in the promoted input type; arithmetic in the
     * result type (int / int computes in float64) */
    kj_dtype compute = is_comparison(op) ? kj_dtype_promote(a->dtype, b->dtype) : rt;
    binop_ctx c = {op, a->dtype, b->dtype, out->dtype, false};
    static const inner_fn loops[] = {loop_bool, loop_i64, loop_u64, loop_f32, loop_f64};
    kj_iter it;
    kj_iter_init(&it, nd, shape, 3);
    kj_iter_operand(&it, 0, out);
    kj_iter_operand(&it, 1, ta ? ta : a);
    kj_iter_operand(&it, 2, tb ? tb : b);
    kj_iter_run(&it, loops[class_of(compute)], &c);
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

