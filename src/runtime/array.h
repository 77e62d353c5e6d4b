/* SPDX-License-Identifier: BSD-2-Clause */
/* kjit's host arrays: reference-counted n-d arrays with NumPy's semantics.
 *
 * A kj_array is a runtime object (malloc'd, not arena data): JIT-compiled
 * host code creates, views and releases them. Shapes and strides are in
 * elements and BYTES respectively, exactly as NumPy's `a.shape`/`a.strides`.
 *
 * Memory ownership: an array either owns its data (`owns_data`, freed with
 * the array), or is a view of `base` (which it holds a reference to), or
 * wraps caller memory (`base` NULL, `owns_data` false: never freed by us).
 *
 * Errors are values: functions that can fail take a kj_rt_error* (may be
 * NULL) and return NULL / false; the message reads like NumPy's. Only
 * running out of memory for the small header struct aborts; a failed data
 * allocation is an error ("unable to allocate ...") as in NumPy.
 *
 * No global state: every function is safe to call from several threads on
 * distinct arrays; kj_array_retain/release are atomic. */
#ifndef KJ_ARRAY_H
#define KJ_ARRAY_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Element types, in NumPy's order of kinds. */
typedef enum kj_dtype {
    KJ_DT_BOOL,
    KJ_DT_INT8,
    KJ_DT_INT16,
    KJ_DT_INT32,
    KJ_DT_INT64,
    KJ_DT_UINT8,
    KJ_DT_UINT16,
    KJ_DT_UINT32,
    KJ_DT_UINT64,
    KJ_DT_FLOAT32,
    KJ_DT_FLOAT64,
    KJ_DT_COMPLEX64,  /* two float32: real, imaginary (NumPy's layout) */
    KJ_DT_COMPLEX128, /* two float64 */
    KJ_DT_FLOAT16,    /* IEEE binary16 (half.h); last, so that the other values keep theirs */
    KJ_DT_COUNT
} kj_dtype;

size_t kj_dtype_size(kj_dtype dt);
const char *kj_dtype_name(kj_dtype dt);  /* "float32", "bool", ... (NumPy's dtype.name) */
const char *kj_dtype_descr(kj_dtype dt); /* "<f4", "|b1", "|u1", ... (little-endian descr) */
bool kj_dtype_is_float(kj_dtype dt);
bool kj_dtype_is_int(kj_dtype dt); /* signed or unsigned, not bool */
bool kj_dtype_is_signed(kj_dtype dt);
/* NumPy's promotion of two strong dtypes (np.result_type): int8+uint8 →
 * int16, int64+uint64 → float64, int32+float32 → float64, bool+x → x. */
kj_dtype kj_dtype_promote(kj_dtype a, kj_dtype b);

/* A runtime error: the Python exception NumPy raises for it ("ValueError",
 * "IndexError", "TypeError", "MemoryError", "ZeroDivisionError", "OSError",
 * "FileNotFoundError"; a static string) and NumPy's message. No location:
 * the caller adds it. */
typedef struct kj_rt_error {
    const char *exc;
    char message[512];
} kj_rt_error;

/* Fill *err (no-op when err is NULL). Returns false, for `return`. */
bool kj_rt_errorf(kj_rt_error *err, const char *exc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A typed scalar: results of reductions, fill values. float32 values are
 * held exactly in `f`; bool in `i` (0/1). */
typedef struct kj_scalar {
    kj_dtype dtype;
    union {
        int64_t i;
        uint64_t u;
        double f;
    } v;
} kj_scalar;

kj_scalar kj_scalar_f64(double x);
kj_scalar kj_scalar_i64(int64_t x);
double kj_scalar_as_f64(kj_scalar s);

#define KJ_MAX_DIMS 8

enum {
    KJ_ARR_C_CONTIGUOUS = 1u << 0,
    KJ_ARR_F_CONTIGUOUS = 1u << 1,
};

/* Generated code does not read this struct: it gets arrays as by-value
 * descriptors { data, shape[N], strides[N], owner } (src/abi/abi.h)
 * whose `owner` is the kj_array that keeps `data` alive. */
typedef struct kj_array {
    char *data;
    int64_t shape[KJ_MAX_DIMS];
    int64_t strides[KJ_MAX_DIMS]; /* bytes */
    int32_t ndim;                  /* 0..KJ_MAX_DIMS */
    kj_dtype dtype;
    uint32_t flags;                /* KJ_ARR_*, recomputed by kj_array_update_flags */
    bool owns_data;
    atomic_int refcount;
    struct kj_array *base;         /* the array this one views (holds a reference) */
    struct kj_mirror *mirror;      /* its copy on a GPU (gpu.h), on the array that owns the memory */
    void *rec;                     /* an array of records made by the C API (api/values_record.c): its
                                      layout (one malloc'd block, freed with the array); the array
                                      itself is uint8 of shape (..., itemsize), as compiled code's */
    uint8_t api_time;              /* the C API's datetime64/timedelta64 mark of an int64 array (api/values_cplx.c) */
} kj_array;

/* Number of elements (product of the shape; 1 for 0-d). */
int64_t kj_array_size(const kj_array *a);
size_t kj_array_itemsize(const kj_array *a);
/* Recompute the C/F-contiguity flags from shape and strides (NumPy's rules:
 * dimensions of length 1 are ignored; an empty array is both). */
void kj_array_update_flags(kj_array *a);
static inline bool kj_array_is_c_contiguous(const kj_array *a)
{
    return (a->flags & KJ_ARR_C_CONTIGUOUS) != 0;
}

/* --- Creation (C order). `shape` has `ndim` entries, each >= 0. --------- */
kj_array *kj_array_empty(kj_dtype dt, int ndim, const int64_t *shape, kj_rt_error *err);
kj_array *kj_array_zeros(kj_dtype dt, int ndim, const int64_t *shape, kj_rt_error *err);
/* np.full: `value` is cast to `dt` with kj_scalar_cast semantics. */
kj_array *kj_array_full(kj_dtype dt, int ndim, const int64_t *shape, kj_scalar value,
                        kj_rt_error *err);
/* A C-ordered array owning `data` (malloc'd, 64-byte aligned, big enough;
 * freed with the array): host memory a freed array left (gpu.h). */
kj_array *kj_array_adopt(void *data, kj_dtype dt, int ndim, const int64_t *shape);
/* Zero-copy wrap of caller memory; `strides` in bytes, NULL = C order. The
 * memory is never freed by kjit and must outlive the array and its views. */
kj_array *kj_array_wrap(void *data, kj_dtype dt, int ndim, const int64_t *shape,
                        const int64_t *strides, kj_rt_error *err);
kj_array *kj_array_from_scalar(kj_scalar s); /* a 0-d array */

kj_array *kj_array_retain(kj_array *a); /* returns a */
void kj_array_release(kj_array *a);     /* NULL is fine */

/* --- Views -------------------------------------------------------------- */
/* One index per dimension, as in `a[i, 1:-1, ::2]`. */
typedef struct kj_index {
    enum { KJ_IDX_INT, KJ_IDX_SLICE } kind;
    int64_t i;                  /* KJ_IDX_INT: negative counts from the end */
    bool has_start, has_stop;   /* KJ_IDX_SLICE: omitted bounds */
    int64_t start, stop, step;  /* step 0 is an error (pass 1 for `a:b`) */
} kj_index;

/* Python's slice semantics (negative bounds, clamping); an integer index
 * drops the dimension; dimensions past `nidx` are taken whole. */
kj_array *kj_array_view(kj_array *a, const kj_index *idx, int nidx, kj_rt_error *err);
/* a.reshape(shape): one negative entry is inferred (NumPy accepts any
 * negative as the unknown). A view when the strides allow it (NumPy's
 * no-copy reshape rule), else a C-order copy. */
kj_array *kj_array_reshape(kj_array *a, int ndim, const int64_t *shape, kj_rt_error *err);
/* a.ravel(): a 1-d view when `a` is C-contiguous, else a C-order copy
 * (NumPy's ravel copies even where a strided 1-d view would do). */
kj_array *kj_array_ravel(kj_array *a, kj_rt_error *err);

/* --- Copies and casts --------------------------------------------------- */
kj_array *kj_array_copy(const kj_array *a, kj_rt_error *err);               /* C order */
/* Does writing `dst` element by element risk clobbering elements of `src`
 * not yet read? Identical layouts are safe (each element reads itself). */
bool kj_array_may_clobber(const kj_array *dst, const kj_array *src);
/* Do the byte ranges the elements of a and b span intersect? */
bool kj_array_overlaps(const kj_array *a, const kj_array *b);
kj_array *kj_array_astype(const kj_array *a, kj_dtype dt, kj_rt_error *err); /* C order */
/* Copy src into dst (same shape after broadcasting src), casting. */
bool kj_array_assign(kj_array *dst, const kj_array *src, kj_rt_error *err);

/* Cast a scalar (NumPy's unsafe casting: float→int truncates toward zero;
 * bool is "nonzero"; see docs/runtime.md for out-of-range floats). */
kj_scalar kj_scalar_cast(kj_scalar s, kj_dtype to);

/* --- Elements ----------------------------------------------------------- */
/* `idx` holds ndim non-negative in-range indices (not checked). */
void *kj_array_ptr(const kj_array *a, const int64_t *idx);
kj_scalar kj_array_get(const kj_array *a, const int64_t *idx);
double kj_array_get_f64(const kj_array *a, const int64_t *idx);
int64_t kj_array_get_i64(const kj_array *a, const int64_t *idx);
void kj_array_set(kj_array *a, const int64_t *idx, kj_scalar v); /* casts */
void kj_array_set_f64(kj_array *a, const int64_t *idx, double v);
void kj_array_set_i64(kj_array *a, const int64_t *idx, int64_t v);
/* Read the element at `p` of type `dt` as a scalar; write with a cast. */
kj_scalar kj_elem_load(const void *p, kj_dtype dt);
void kj_elem_store(void *p, kj_dtype dt, kj_scalar v);

/* --- Broadcasting and elementwise operations ---------------------------- */
/* NumPy's broadcasting of two shapes into `out` (KJ_MAX_DIMS entries). */
bool kj_broadcast_shapes(int na, const int64_t *sa, int nb, const int64_t *sb, int *nout,
                         int64_t *out, kj_rt_error *err);

typedef enum kj_array_op {
    KJ_AOP_ADD, KJ_AOP_SUB, KJ_AOP_MUL, KJ_AOP_DIV, KJ_AOP_FLOORDIV, KJ_AOP_MOD, KJ_AOP_POW,
    KJ_AOP_MIN, KJ_AOP_MAX, /* np.minimum / np.maximum: NaN propagates */
    KJ_AOP_EQ, KJ_AOP_NE, KJ_AOP_LT, KJ_AOP_LE, KJ_AOP_GT, KJ_AOP_GE,
    KJ_AOP_COUNT
} kj_array_op;

/* The result dtype of `a op b` for two strong dtypes, as NumPy's ufunc loop
 * selection gives it: comparisons → bool; `/` → float64 for integer/bool
 * inputs, else the promoted float; bool + and * stay bool, bool //, % and **
 * give int8; otherwise kj_dtype_promote. bool - bool is an error (NumPy's
 * message). Weak (Python literal) operands are resolved by the caller, which
 * passes them as 0-d arrays of the type NEP 50 gives them. */
bool kj_array_op_dtype(kj_array_op op, kj_dtype a, kj_dtype b, kj_dtype *out, kj_rt_error *err);

/* Elementwise `a op b` over the broadcast shape, into a new C-order array of
 * kj_array_op_dtype. Integer // and % by zero give 0 (as NumPy); int ** negative
 * int is an error. */
kj_array *kj_array_binop(kj_array_op op, const kj_array *a, const kj_array *b, kj_rt_error *err);
/* The same into an existing array (`out=`, or `a += b`); `out` must have the
 * broadcast shape; results are cast to out's dtype. Overlap is handled. */
bool kj_array_binop_out(kj_array_op op, const kj_array *a, const kj_array *b, kj_array *out,
                        kj_rt_error *err);

/* --- Reductions over all elements (np.sum(a) etc.) ----------------------- */
/* sum: bool and signed ints → int64, unsigned → uint64, floats keep their
 * type and use NumPy's pairwise summation (same order, same bits). */
kj_scalar kj_array_sum(const kj_array *a);
bool kj_array_min(const kj_array *a, kj_scalar *out, kj_rt_error *err); /* error when empty */
bool kj_array_max(const kj_array *a, kj_scalar *out, kj_rt_error *err);
kj_scalar kj_array_mean(const kj_array *a); /* float64 (float32 for float32); NaN when empty */
kj_scalar kj_array_var(const kj_array *a, int64_t ddof);
kj_scalar kj_array_std(const kj_array *a, int64_t ddof);

/* Independent tasks a caller may spread over threads: run(self, n, task,
 * ctx) calls task(ctx, t) once for each t in [0, n), in any order, up to
 * `width` at once, and returns when all have run (the runtime's pool on the
 * parallel target: kj_rt_tasks). Tasks never raise. */
typedef struct kj_tasks kj_tasks;
typedef void (*kj_task_fn)(void *ctx, int64_t t);
struct kj_tasks {
    void (*run)(const kj_tasks *self, int64_t n, kj_task_fn task, void *ctx);
    void *pool;
    int width;
};
/* The same reductions with the work of a large array that is one
 * unit-stride run of its own float type spread over `tk` (NULL: this thread
 * alone): the sums' chunks of 8192 are independent and added in order, the
 * min/max parts met in order, so the bits are those of one thread. */
kj_scalar kj_array_sum_on(const kj_array *a, const kj_tasks *tk);
bool kj_array_extreme_on(const kj_array *a, bool is_max, const kj_tasks *tk, kj_scalar *out, kj_rt_error *err);
kj_scalar kj_array_mean_on(const kj_array *a, const kj_tasks *tk);
kj_scalar kj_array_var_on(const kj_array *a, int64_t ddof, const kj_tasks *tk);
kj_scalar kj_array_std_on(const kj_array *a, int64_t ddof, const kj_tasks *tk);
kj_scalar kj_array_prod(const kj_array *a); /* sum's types; a serial product in NumPy's order */
/* np.cumsum(a) / np.cumprod(a) (`prod`): a new 1-d array of a's size and
 * sum's dtype, the running sum (product) of a's elements in C order, one
 * addition at a time as NumPy's add.accumulate (integers wrap). */
kj_array *kj_array_cumulate(const kj_array *a, bool prod, kj_rt_error *err);
/* np.argmin/argmax(a): the first index (C order) of the extreme or of the
 * first NaN; an error when empty. */
bool kj_array_argext(const kj_array *a, bool is_max, int64_t *out, kj_rt_error *err);

/* --- Reductions along one axis (array_reduce_axis.c) --------------------- */
/* The operations, in kj_rt_reduce_op's order (rt_host.h). */
typedef enum kj_reduce_op {
    KJ_REDUCE_SUM, KJ_REDUCE_MIN, KJ_REDUCE_MAX, KJ_REDUCE_MEAN, KJ_REDUCE_STD,
    KJ_REDUCE_PROD, KJ_REDUCE_VAR, KJ_REDUCE_ARGMIN, KJ_REDUCE_ARGMAX
} kj_reduce_op;
/* array_cpx.c: np.sum/prod/mean (into out: the two parts) and np.cumsum/cumprod of a complex array */
bool kj_array_cpx_reduce(const kj_array *a, kj_reduce_op op, void *out, kj_rt_error *err);
kj_array *kj_array_cpx_cumulate(const kj_array *a, bool prod, kj_rt_error *err);
/* np.<op>(a, axis=axis) (axis already in [0, ndim), ndim >= 2): a new
 * C-ordered array of a's shape without that axis and the dtype NumPy gives
 * (sum/prod: int64, uint64 or the float; mean/var/std: the float, float64
 * for integers and bool; min/max: a's; argmin/argmax: int64), bit for bit
 * NumPy's values (see docs/runtime.md for the order of the additions).
 * `ddof` is var/std's. Errors: min/max/argmin/argmax along an empty axis. */
kj_array *kj_array_reduce_axis(const kj_array *a, kj_reduce_op op, int axis, int64_t ddof, kj_rt_error *err);
/* The same with the results of a large array computed on tk's threads
 * (kj_tasks above; NULL: this thread), each as one thread computes it. */
kj_array *kj_array_reduce_axis_on(const kj_array *a, kj_reduce_op op, int axis, int64_t ddof, const kj_tasks *tk,
                                  kj_rt_error *err);
/* The dtype of that result (and of the whole-array form's scalar). */
kj_dtype kj_reduce_dtype(kj_reduce_op op, kj_dtype in);
/* np.allclose(a, b, rtol, atol) with equal_nan=False; false + error when the
 * shapes do not broadcast. */
bool kj_array_allclose(const kj_array *a, const kj_array *b, double rtol, double atol,
                       bool *result, kj_rt_error *err);

/* np.array_equal(a, b): equal shapes and elements (array_equal.c). */
bool kj_array_equal(const kj_array *a, const kj_array *b);

/* --- Ranges ------------------------------------------------------------- */
/* np.arange(start, stop, step, dtype): length ceil((stop-start)/step); the
 * first two values are start and start+step cast to dt, the rest are
 * a[0] + i*(a[1]-a[0]) computed in dt (NumPy's fill). */
kj_array *kj_array_arange(double start, double stop, double step, kj_dtype dt,
                          kj_rt_error *err);
/* The same with exact int64 arithmetic for integer arguments. */
kj_array *kj_array_arange_i64(int64_t start, int64_t stop, int64_t step, kj_dtype dt,
                              kj_rt_error *err);
/* np.linspace(start, stop, num, endpoint, dtype): start + i*step with
 * step = (stop-start)/div; the last element is `stop` with endpoint; an
 * integer dtype floors first. */
kj_array *kj_array_linspace(double start, double stop, int64_t num, bool endpoint,
                            kj_dtype dt, kj_rt_error *err);

/* Format a shape as NumPy does in messages: "(3,)", "(2,3)", "()". */
void kj_shape_str(char *buf, size_t cap, int ndim, const int64_t *shape);

#endif
