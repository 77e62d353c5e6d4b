/* The host built-ins that JIT-compiled code calls: NumPy constructors,
 * reductions, copies, random numbers, print, elementwise array operations
 * and the shape work of ufunc calls. Each is one row of KJ_RTFNS
 * (src/codegen/codegen.h), which declares it to generated code.
 *
 * Conventions (see also abi.h and docs/codegen.md):
 * - Arrays are passed as a pointer to their ABI descriptor, its static
 *   ndim (1..4) and dtype (kj_dtype). An *operand* may also be a scalar:
 *   ndim 0, the pointer then points to the value in its memory form.
 * - A result array is written as a descriptor to `out` (of the ndim the
 *   caller states); the kj_array behind it is registered in the context
 *   (kj_rt_own), so generated code never releases anything itself.
 * - Functions that can fail take the source line and column of the call
 *   and raise there (kj_rt_raise*), after releasing their temporaries. */
#ifndef KJ_RT_HOST_H
#define KJ_RT_HOST_H

#include "rt.h"

#include <stdint.h>

/* ---- shared by the runtime's files ---- */

/* A kj_array header on the caller's stack over an operand (a descriptor,
 * or a scalar when ndim is 0); never released. Its `base` is the
 * descriptor's owner. */
void kj_rt_header(kj_array *h, const void *p, int32_t ndim, int32_t dtype);
/* A new array of that shape over memory a dropped array of the same size
 * left (kj_rt.spare), or NULL: the caller allocates. Not zeroed. */
kj_array *kj_rt_spare_array(kj_rt *rt, kj_dtype dt, int ndim, const int64_t *shape);
/* Register `a` and describe it into `out`; a is NULL: raise `err`. */
void kj_rt_result(kj_rt *rt, kj_array *a, const kj_rt_error *err, void *out, int32_t ndim, int32_t line,
                  int32_t col);
/* cuda events (rt.c): freed with the run. */
kj_rt_event *kj_rt_event_alloc(kj_rt *rt);
void kj_rt_event_set(kj_rt_event *e, double t);
bool kj_rt_event_get(const kj_rt_event *e, double *t); /* false: never recorded */
void *kj_rt_event_cu(const kj_rt_event *e);           /* its CUevent, or NULL on the host */

/* ---- constructors (rt_builtins.c) ---- */

/* np.zeros/ones/empty/full(shape, dtype) and cuda.device_array: `fill`
 * points to one element of the dtype, NULL for zeros (np.empty is zeroed
 * too, so that programs are deterministic). */
void kj_rt_alloc(kj_rt *rt, int32_t dtype, int32_t ndim, const int64_t *shape, const void *fill, void *out,
                 int32_t line, int32_t col);
/* np.arange with int64 or float64 arguments (stop/step already defaulted). */
void kj_rt_arange_i(kj_rt *rt, int64_t start, int64_t stop, int64_t step, int32_t dtype, void *out,
                    int32_t line, int32_t col);
void kj_rt_arange_f(kj_rt *rt, double start, double stop, double step, int32_t dtype, void *out,
                    int32_t line, int32_t col);
void kj_rt_linspace(kj_rt *rt, double start, double stop, int64_t num, int32_t endpoint, int32_t dtype,
                    void *out, int32_t line, int32_t col);

/* ---- np.random (rt_builtins.c); the stream is rt->rng ---- */

void kj_rt_seed(kj_rt *rt, int64_t seed, int32_t line, int32_t col);
double kj_rt_random(kj_rt *rt);                 /* np.random.random() */
void kj_rt_rand(kj_rt *rt, int32_t ndim, const int64_t *shape, void *out, int32_t line, int32_t col);
/* randint(low, high) of an integer dtype, as one value (int64 bits). */
int64_t kj_rt_randint(kj_rt *rt, int64_t low, int64_t high, int32_t dtype, int32_t line, int32_t col);
void kj_rt_randint_array(kj_rt *rt, int64_t low, int64_t high, int32_t dtype, int32_t ndim,
                         const int64_t *shape, void *out, int32_t line, int32_t col);

/* ---- reductions, copies, files (rt_builtins.c) ---- */

typedef enum {
    KJ_RED_SUM, KJ_RED_MIN, KJ_RED_MAX, KJ_RED_MEAN, KJ_RED_STD,
    KJ_RED_PROD, KJ_RED_VAR, KJ_RED_ARGMIN, KJ_RED_ARGMAX
} kj_rt_reduce_op;

/* np.sum/min/max/mean/std(a): the result, cast to `rdtype`, is stored at
 * `result` (memory form). */
void kj_rt_reduce(kj_rt *rt, int32_t op, const void *a, int32_t ndim, int32_t dtype, int32_t rdtype,
                  void *result, int32_t line, int32_t col);
/* (rt_reduce.c) Every reduction, along `axis` when has_axis (an AxisError
 * unless -ndim <= axis < ndim), with var/std's ddof. out_ndim 0: the scalar
 * (of rdtype) is stored at `result`; else the array is described into it. */
void kj_rt_reduce_axis(kj_rt *rt, int32_t op, const void *a, int32_t ndim, int32_t dtype, int32_t rdtype,
                       int32_t has_axis, int64_t axis, int64_t ddof, void *result, int32_t out_ndim, int32_t line,
                       int32_t col);
/* a.copy(), a.astype(to), cuda.to_device(a), d.copy_to_host(): a new
 * C-ordered array of dtype `to`. */
void kj_rt_copy(kj_rt *rt, const void *a, int32_t ndim, int32_t dtype, int32_t to, void *out, int32_t line,
                int32_t col);
/* np.cumsum(a), np.cumprod(a) (prod = 1): a new 1-d array (array.h
 * kj_array_cumulate). */
void kj_rt_cumulate(kj_rt *rt, const void *a, int32_t ndim, int32_t dtype, int32_t prod, void *out, int32_t line,
                    int32_t col);
/* a.reshape(shape): a view when NumPy makes one, else a copy. */
void kj_rt_reshape(kj_rt *rt, const void *a, int32_t ndim, int32_t dtype, int32_t new_ndim,
                   const int64_t *shape, void *out, int32_t line, int32_t col);
/* a.ravel(), np.ravel(a): a 1-d view of a C-contiguous array, else a copy. */
void kj_rt_ravel(kj_rt *rt, const void *a, int32_t ndim, int32_t dtype, void *out, int32_t line, int32_t col);
/* np.allclose(a, b, rtol, atol) for two operands (arrays or scalars). */
int32_t kj_rt_allclose(kj_rt *rt, const void *a, int32_t andim, int32_t adt, const void *b, int32_t bndim,
                       int32_t bdt, double rtol, double atol, int32_t line, int32_t col);
/* np.load(path) where the compiler read the file's type: dtype, ndim and
 * layout (KJ_LAYOUT_C = 1 / F = 2 as kj_layout) must still hold. */
void kj_rt_load(kj_rt *rt, const char *path, int32_t dtype, int32_t ndim, int32_t layout, void *out, int32_t line,
                int32_t col);
void kj_rt_save(kj_rt *rt, const char *path, const void *a, int32_t ndim, int32_t dtype, int32_t line,
                int32_t col);

/* ---- time and cuda events (rt_builtins.c) ---- */

double kj_rt_perf_counter(void); /* time.perf_counter(): CLOCK_MONOTONIC seconds */
void *kj_rt_event_new(kj_rt *rt);
void kj_rt_event_record(kj_rt *rt, void *ev);
/* cuda.event_elapsed_time(a, b): milliseconds between the records. */
float kj_rt_event_elapsed(kj_rt *rt, void *a, void *b, int32_t line, int32_t col);

/* ---- the GPU from host code (rt_cuda.c; no-ops without a GPU) ---- */

/* Host code reads (write = 0) or writes the array whose owner is `owner`
 * (a kj_array*, or NULL): brings a stale host copy back from the GPU
 * (gpu.h, lazy coherence). */
void kj_rt_host_access(kj_rt *rt, void *owner, int32_t write, int32_t line, int32_t col);
/* The array gets its device copy now: uploaded (fill = KJ_GPU_UPLOAD,
 * cuda.to_device), zeroed (KJ_GPU_ZERO, device_array) or left for the next
 * launch to write whole (KJ_GPU_UNSET, a ufunc's output); gpu.h. */
void kj_rt_to_device(kj_rt *rt, void *owner, int32_t fill, int32_t line, int32_t col);
/* cuda.synchronize() */
void kj_rt_cuda_sync(kj_rt *rt, int32_t line, int32_t col);
/* With kernels on the GPU: cuda.to_device(a) (to_device 1) and
 * d.copy_to_host() (0), a new C-ordered copy of `a` of dtype `to`, made on
 * the side it is for; copied straight from where `a` is current
 * (kj_gpu_copy) when it can be, else through the host. They check the
 * coherence of their arrays themselves. */
void kj_rt_device_copy(kj_rt *rt, const void *a, int32_t ndim, int32_t dtype, int32_t to, void *out,
                       int32_t to_device, int32_t line, int32_t col);
/* d.copy_to_host(ary) with kernels on the GPU: d into ary (dst). */
void kj_rt_copy_into(kj_rt *rt, const void *dst, int32_t dst_ndim, const void *src, int32_t src_ndim,
                     int32_t dtype, int32_t line, int32_t col);
/* cuda.stream(): a CUDA stream (NULL, the default stream, without a GPU),
 * destroyed at the end of the run; s.synchronize(). */
void *kj_rt_stream_new(kj_rt *rt);
void kj_rt_stream_sync(kj_rt *rt, void *stream, int32_t line, int32_t col);

/* ---- print (rt_print.c): Python's print, NumPy's str of arrays ---- */

void kj_rt_print_str(kj_rt *rt, const char *s);
void kj_rt_print_repr_str(kj_rt *rt, const char *s); /* 'it''s' as Python's repr */
void kj_rt_print_int(kj_rt *rt, int64_t v);
void kj_rt_print_uint(kj_rt *rt, int64_t v);         /* the bits of a uint64 */
void kj_rt_print_bool(kj_rt *rt, int32_t v);
void kj_rt_print_f64(kj_rt *rt, double v);           /* repr(float) */
void kj_rt_print_f32(kj_rt *rt, float v);            /* str(np.float32) */
/* str(a), or repr(a) (inside a tuple) when `repr` */
void kj_rt_print_array(kj_rt *rt, const void *a, int32_t ndim, int32_t dtype, int32_t repr);

/* ---- elementwise array operations (rt_elementwise.c) ---- */

/* Elementwise operations. The first group has array.c's order
 * (kj_array_op) and runs there; the rest run in rt_elementwise.c. */
typedef enum kj_rt_eop {
    KJ_EOP_ADD, KJ_EOP_SUB, KJ_EOP_MUL, KJ_EOP_DIV, KJ_EOP_FLOORDIV, KJ_EOP_MOD, KJ_EOP_POW,
    KJ_EOP_MINIMUM, KJ_EOP_MAXIMUM, KJ_EOP_EQ, KJ_EOP_NE, KJ_EOP_LT, KJ_EOP_LE, KJ_EOP_GT, KJ_EOP_GE,
    /* binary, computed in the result's type */
    KJ_EOP_AND, KJ_EOP_OR, KJ_EOP_XOR, KJ_EOP_SHL, KJ_EOP_SHR,
    KJ_EOP_FPOW, KJ_EOP_ATAN2, KJ_EOP_HYPOT, KJ_EOP_COPYSIGN, KJ_EOP_FMOD,
    /* unary */
    KJ_EOP_NEG, KJ_EOP_NOT, KJ_EOP_INVERT, KJ_EOP_ABS,
    KJ_EOP_SIN, KJ_EOP_COS, KJ_EOP_TAN, KJ_EOP_ASIN, KJ_EOP_ACOS, KJ_EOP_ATAN, KJ_EOP_SINH,
    KJ_EOP_COSH, KJ_EOP_TANH, KJ_EOP_ASINH, KJ_EOP_ACOSH, KJ_EOP_ATANH, KJ_EOP_EXP, KJ_EOP_EXPM1,
    KJ_EOP_EXP2, KJ_EOP_LOG, KJ_EOP_LOG1P, KJ_EOP_LOG2, KJ_EOP_LOG10, KJ_EOP_SQRT, KJ_EOP_FABS,
    KJ_EOP_ERF, KJ_EOP_ERFC, KJ_EOP_GAMMA, KJ_EOP_LGAMMA, KJ_EOP_FLOOR, KJ_EOP_CEIL, KJ_EOP_TRUNC,
    KJ_EOP_ISNAN, KJ_EOP_ISINF, KJ_EOP_ISFINITE,
    KJ_EOP__COUNT
} kj_rt_eop;

/* out = a OP b with NumPy broadcasting, into a new array of dtype odt and
 * ndim ondim. */
void kj_rt_binop(kj_rt *rt, int32_t op, const void *a, int32_t andim, int32_t adt, const void *b,
                 int32_t bndim, int32_t bdt, int32_t odt, int32_t ondim, void *out, int32_t line, int32_t col);
/* out = OP a (NEG..ISFINITE), a new array of dtype odt, a's shape. */
void kj_rt_unop(kj_rt *rt, int32_t op, const void *a, int32_t ndim, int32_t adt, int32_t odt, void *out,
                int32_t line, int32_t col);

/* ---- ufunc calls (rt_ufunc.c) ---- */

/* The shapes of a @vectorize / @guvectorize call over `nops` operands
 * (`nin` inputs, then the outputs). ops[k] points to operand k's descriptor (NULL
 * for a scalar input); ndims[k] is its static ndim (0 for a scalar);
 * dtypes[k] its element dtype. `core` lists, per operand, its number of
 * core dimensions and then their symbol numbers ((n),(n)->() is
 * 1,0, 1,0, 0); NULL for @vectorize. Operands in `alloc` (a bit mask) are
 * outputs to create: their descriptor is written at ops[k] (ndim
 * ndims[k]) with shape loop shape + core sizes. Fills the loop shape
 * (loop_ndim entries, the broadcast of the operands' loop dimensions;
 * given outputs must have exactly it) and each operand's byte strides over
 * it (strides[k * loop_ndim + d], 0 where it is repeated). Returns 1 when
 * every array operand is C-contiguous with the loop shape (one flat loop
 * does), else 0. Raises ValueError like NumPy on mismatched shapes; `name`
 * and the gufunc's `layout` (NULL for @vectorize) are for its messages.
 * An input array a given output overlaps (`f(a, a[::-1], out=a)`) is first
 * copied, its descriptor at ops[k] replaced by the copy's, as NumPy does:
 * for @vectorize only when the layouts differ (the very same view is safe
 * elementwise), for a gufunc's core always.
 * A fused expression passes its tree as `layout`: '!' then the tree, or
 * '=' then the tree when it is assigned into its one output, a view
 * (`v[...] = a + b`): the inputs then broadcast into the view by the
 * assignment's rule. '+' then the tree: an in-place operator (`a += b`):
 * NumPy's add(a, b, out=a). */
int32_t kj_rt_ufunc_prepare(kj_rt *rt, const char *name, const char *layout, int32_t nin, int32_t nops, void *const *ops, const int32_t *ndims,
                            const int32_t *dtypes, const int32_t *core, int32_t alloc, int32_t loop_ndim,
                            int64_t *loop_shape, int64_t *strides, int32_t line, int32_t col);

/* a[...] and a[...] = v with index arrays (rt_index.c), NumPy's advanced
 * indexing. `a` is the array with the subscript's slices applied; ix[d]
 * (d < andim) is what indexes its axis d: NULL (the axis is taken whole),
 * a scalar integer (ixndim[d] 0), an integer array, or a bool mask, which
 * covers axes d to d + ixndim[d] - 1 (their entries are NULL). The result
 * is new, of ndim ondim. v is a scalar (vndim 0) or an array. */
void kj_rt_index_get(kj_rt *rt, const void *a, int32_t andim, int32_t adt, const void *const *ix,
                     const int32_t *ixndim, const int32_t *ixdt, void *out, int32_t ondim, int32_t line,
                     int32_t col);
void kj_rt_index_set(kj_rt *rt, const void *a, int32_t andim, int32_t adt, const void *const *ix,
                     const int32_t *ixndim, const int32_t *ixdt, const void *v, int32_t vndim, int32_t vdt,
                     int32_t line, int32_t col);

/* A fused array expression whose operands (nops shapes of ndims[k]
 * dimensions, KJ_ABI_MAX_DIMS entries each) do not broadcast: NumPy's
 * message for the first operator of `tree` (kir_func.fuse_tree, without its
 * '!') that fails, in msg, and that operator's line and column. False when
 * the tree finds none. (rt_fuse.c) */
bool kj_rt_fused_broadcast_error(const char *tree, int nops, const int32_t *ndims, const int64_t *shapes,
                                 char *msg, size_t cap, int32_t *line, int32_t *col);

/* ---- mpi4py (rt_mpi.c; docs/scale-out.md) ---- */

/* Communicator method `op` (abi_mpi.h, | 0x100 when the calling function
 * has boundscheck): buffers a and b are operands (b NULL when unused),
 * i0..i3 its integer arguments in the order abi_mpi.h lists. Returns the
 * rank, the size or a request; raises at line:col. */
int64_t kj_rt_mpi(kj_rt *rt, int32_t op, const void *a, int32_t andim, int32_t adt, const void *b, int32_t bndim,
                  int32_t bdt, int64_t i0, int64_t i1, int64_t i2, int64_t i3, int32_t line, int32_t col);
double kj_rt_mpi_wtime(kj_rt *rt, int32_t line, int32_t col); /* MPI.Wtime() */
void kj_rt_mpi_free(kj_rt *rt); /* the run's requests (rt.c, at the end of a run) */
/* len(cuda.gpus): the devices the driver sees, 1 without a GPU (the cpu
 * target's one emulated device, as Numba's simulator has). */
int64_t kj_rt_gpu_count(kj_rt *rt);
/* cuda.select_device(i): kjit opens its device before main runs (rank r
 * of a node on GPU r % ngpus, or $KJIT_DEVICE), so i must be that one;
 * another is a RuntimeError saying how to pick it. */
void kj_rt_select_device(kj_rt *rt, int64_t i, int32_t line, int32_t col);

#endif
