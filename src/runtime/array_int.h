/* SPDX-License-Identifier: BSD-2-Clause */
/* Internal to the array runtime (array.c, array_reduce.c): the dtype table,
 * element loads and stores in any dtype, and the strided iterator. */
#ifndef KJ_ARRAY_INT_H
#define KJ_ARRAY_INT_H

#include "array.h"
#include "half.h"

#include <stdint.h>
#include <string.h>

typedef struct {
    size_t size;
    const char *name, *descr;
    char kind; /* 'b' bool, 'i' signed, 'u' unsigned, 'f' float, 'c' complex */
} dtype_info;

extern const dtype_info kj_dtype_info[KJ_DT_COUNT];

/* var/std's divisor max(n - ddof, 0), with n - ddof computed as NumPy
 * computes it, in intp arithmetic that wraps (a ddof near INT64_MIN makes it
 * negative, so 0: the result is inf, as NumPy's) rather than C's undefined
 * signed overflow. */
static inline double kj_var_divisor(int64_t n, int64_t ddof)
{
    int64_t d = (int64_t)((uint64_t)n - (uint64_t)ddof);
    return d > 0 ? (double)d : 0.0;
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
    case KJ_DT_FLOAT16: { uint16_t t = kj_half_from_double((double)v); memcpy(p, &t, 2); break; }
    default: break;
    }
}

static inline void st_i64(char *p, kj_dtype dt, int64_t v)
{
    if (dt == KJ_DT_FLOAT32) {
        float t = (float)v;
        memcpy(p, &t, 4);
    } else if (dt == KJ_DT_FLOAT16) {
        /* |v| >= 65520 is inf either way, and below that the double is exact */
        uint16_t t = kj_half_from_double((double)v);
        memcpy(p, &t, 2);
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
    case KJ_DT_FLOAT16: { uint16_t t = kj_half_from_double(v); memcpy(p, &t, 2); break; }
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
    case KJ_DT_FLOAT16: { uint16_t t; memcpy(&t, p, 2); return trunc_i64(kj_half_to_double(t)); }
    default: return 0;
    }
}

static inline uint64_t ld_u64(const char *p, kj_dtype dt) { return (uint64_t)ld_i64(p, dt); }

static inline double ld_f64(const char *p, kj_dtype dt)
{
    switch (dt) {
    case KJ_DT_FLOAT32: { float t; memcpy(&t, p, 4); return t; }
    case KJ_DT_FLOAT64: { double t; memcpy(&t, p, 8); return t; }
    case KJ_DT_FLOAT16: { uint16_t t; memcpy(&t, p, 2); return kj_half_to_double(t); }
    case KJ_DT_UINT64: return (double)ld_u64(p, dt);
    default: return (double)ld_i64(p, dt);
    }
}

static inline float ld_f32(const char *p, kj_dtype dt)
{
    switch (dt) {
    case KJ_DT_FLOAT32: { float t; memcpy(&t, p, 4); return t; }
    case KJ_DT_FLOAT64: case KJ_DT_FLOAT16: return (float)ld_f64(p, dt);
    case KJ_DT_UINT64: return (float)ld_u64(p, dt);
    default: return (float)ld_i64(p, dt);
    }
}


enum { MAX_OPS = 3 };

/* An iteration over `shape` with one pointer and stride set per operand.
 * Dimensions that can be merged for every operand are coalesced, so a
 * contiguous operation becomes one inner loop. */
typedef struct {
    int ndim, nop;
    int64_t shape[KJ_MAX_DIMS];
    int64_t strides[MAX_OPS][KJ_MAX_DIMS];
    char *ptrs[MAX_OPS];
} kj_iter;

typedef void (*inner_fn)(void *ctx, char **p, const int64_t *s, int64_t n);

void kj_iter_init(kj_iter *it, int ndim, const int64_t *shape, int nop);
/* Set operand `o` of an iteration over the (broadcast) shape of `it`: its
 * dimensions align to the right; missing and length-1 ones get stride 0. */
void kj_iter_operand(kj_iter *it, int o, const kj_array *a);
/* Merge dimensions that are contiguous for every operand. */
void kj_iter_coalesce(kj_iter *it);
/* Call fn for every innermost run, outer dimensions in C order. */
void kj_iter_run(kj_iter *it, inner_fn fn, void *ctx);

/* A binary operation of the elementwise kernels on two float64 values
 * (NumPy's semantics: NaN-propagating min/max, floor division...). */
double kj_float_op(kj_array_op op, double x, double y);

/* array_extreme.c: the np.minimum/np.maximum fold of a contiguous run
 * (n >= 1: the first NaN, else the extreme, the last of equal ones), in the
 * widest vectors the CPU has. */
double kj_run_min_f64(const double *x, int64_t n);
double kj_run_max_f64(const double *x, int64_t n);
float kj_run_min_f32(const float *x, int64_t n);
float kj_run_max_f32(const float *x, int64_t n);

/* The instruction sets of those folds, narrowest first: the `_isa` forms
 * take the widest the CPU has up to `use` (the unit tests run each). */
typedef enum { KJ_FOLD_SSE, KJ_FOLD_AVX2, KJ_FOLD_AVX512, KJ_FOLD_BEST = KJ_FOLD_AVX512 } kj_fold_isa;
float kj_run_min_f32_isa(kj_fold_isa use, const float *x, int64_t n);
float kj_run_max_f32_isa(kj_fold_isa use, const float *x, int64_t n);
double kj_run_min_f64_isa(kj_fold_isa use, const double *x, int64_t n);
double kj_run_max_f64_isa(kj_fold_isa use, const double *x, int64_t n);

/* acc[i] = np.minimum (np.maximum) of acc[i] and the k rows' element i, in
 * row order, for i < m; the rows are contiguous and `st` bytes apart. */
void kj_rows_min_f32_isa(kj_fold_isa use, float *restrict acc, const char *x, int64_t st, int k, int64_t m);
void kj_rows_max_f32_isa(kj_fold_isa use, float *restrict acc, const char *x, int64_t st, int k, int64_t m);
void kj_rows_min_f64_isa(kj_fold_isa use, double *restrict acc, const char *x, int64_t st, int k, int64_t m);
void kj_rows_max_f64_isa(kj_fold_isa use, double *restrict acc, const char *x, int64_t st, int k, int64_t m);

/* Reductions of arrays of fewer elements stay on one thread even where
 * there are tasks (kj_tasks): starting tasks costs microseconds, a million
 * floats a fraction of a millisecond. */
enum { KJ_PAR_MIN = 1 << 20 };

/* array_pairwise.c, for array_reduce.c and array_reduce_axis.c: NumPy's
 * pairwise sum of n elements `stride` bytes apart (loops_utils.h); the
 * `_isa` forms as above (AVX2 and up: four leaves at once). */
double kj_pairwise_f64(const char *a, int64_t n, int64_t stride);
float kj_pairwise_f32(const char *a, int64_t n, int64_t stride);
double kj_pairwise_f64_isa(kj_fold_isa use, const char *a, int64_t n, int64_t stride);
float kj_pairwise_f32_isa(kj_fold_isa use, const char *a, int64_t n, int64_t stride);

/* Complex arrays (array_cpx.c, array_cpx_axis.c): NumPy's complex pairwise
 * sum of n elements (parts as doubles; complex64's exact); whether NumPy's
 * inner loop of a reduction along `axis` runs along it (array_reduce_axis.c);
 * np.sum/prod/mean/var/std along an axis, var/std of the whole array (a
 * float or double at out), cumsum/cumprod of C-ordered rows of length m. */
void kj_cpx_pairwise(const char *a, int64_t n, int64_t stride, bool f32, double *re, double *im);
bool kj_reduce_along(const kj_array *a, int axis);
kj_array *kj_array_cpx_reduce_axis(const kj_array *a, kj_reduce_op op, int axis, int64_t ddof, kj_rt_error *err);
bool kj_array_cpx_var(const kj_array *a, bool std, int64_t ddof, void *out, kj_rt_error *err);
void kj_array_cpx_cumulate_rows(kj_array *c, bool prod, int64_t m);
/* np.nansum (op 0), nanprod (1), nanmean (2) of a complex array: a 0-d array */
kj_array *kj_array_cpx_nanreduce(const kj_array *a, int op, kj_rt_error *err);
/* array_sort_cpx.c: NumPy's complex order for sort (rows of a C-contiguous
 * array, in place), argsort and unique */
bool kj_array_cpx_sort_rows(kj_array *r, kj_rt_error *err);
kj_array *kj_array_cpx_argsort(const kj_array *a, kj_rt_error *err);
kj_array *kj_array_cpx_unique(const kj_array *a, kj_rt_error *err);

#endif
