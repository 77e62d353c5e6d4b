/* SPDX-License-Identifier: BSD-2-Clause */
/* What the runtime's host built-ins share: the helpers of their files, and
 * the operation codes generated code passes them (kj_rt_reduce_op,
 * kj_rt_eop). The built-ins themselves (NumPy constructors, reductions,
 * copies, random numbers, print, elementwise array operations, the shape
 * work of ufunc calls, the GPU and MPI from host code) are what generated
 * code calls: each is one row of src/abi/rtfns.def, which declares and
 * describes it, and from which rt.h makes its prototype. */
#ifndef KJ_RT_HOST_H
#define KJ_RT_HOST_H

#include "rt.h"
#include "../abi/abi.h"

#include <stdint.h>

/* ---- shared by the runtime's files ---- */

/* A kj_array header on the caller's stack over an operand (a descriptor,
 * or a scalar when ndim is 0); never released. Its `base` is the
 * descriptor's owner. */
void kj_rt_header(kj_array *h, const void *p, int32_t ndim, int32_t dtype);
/* h itself when it has an owner, else a heap header over its memory (caller
 * memory kjit did not allocate) registered with the run, so that views of it
 * can reference it (rt_manip.c). */
kj_array *kj_rt_viewable(kj_rt *rt, kj_array *h, int32_t line, int32_t col);
/* A new array of that shape over memory a dropped array of the same size
 * left (kj_rt.spare), or NULL: the caller allocates. Not zeroed. */
kj_array *kj_rt_spare_array(kj_rt *rt, kj_dtype dt, int ndim, const int64_t *shape);
/* Register `a` and describe it into `out`; a is NULL: raise `err`. */
void kj_rt_result(kj_rt *rt, kj_array *a, const kj_rt_error *err, void *out, int32_t ndim, int32_t line,
                  int32_t col);
/* np.random's stream of this context (per worker in prange bodies), seeded
 * from OS entropy at first use unless np.random.seed was called. */
kj_mt19937 *kj_rt_rng(kj_rt *rt);
/* cuda events (rt.c): freed with the run. */
kj_rt_event *kj_rt_event_alloc(kj_rt *rt);
void kj_rt_event_set(kj_rt_event *e, double t);
bool kj_rt_event_get(const kj_rt_event *e, double *t); /* false: never recorded */
void *kj_rt_event_cu(const kj_rt_event *e);           /* its CUevent, or NULL on the host */

/* ---- operation codes ---- */

/* kj_rt_reduce and kj_rt_reduce_axis */
typedef enum {
    KJ_RED_SUM, KJ_RED_MIN, KJ_RED_MAX, KJ_RED_MEAN, KJ_RED_STD,
    KJ_RED_PROD, KJ_RED_VAR, KJ_RED_ARGMIN, KJ_RED_ARGMAX
} kj_rt_reduce_op;

/* Elementwise operations (kj_rt_binop, kj_rt_unop). The first group has
 * array.c's order (kj_array_op) and runs there; the rest run in
 * rt_elementwise.c. */
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

/* ---- the runtime's own ---- */

/* A fused array expression whose operands (nops shapes of ndims[k]
 * dimensions, KJ_ABI_MAX_DIMS entries each) do not broadcast: NumPy's
 * message for the first operator of `tree` (kir_func.fuse_tree, without its
 * '!') that fails, in msg, and that operator's line and column. False when
 * the tree finds none. (rt_fuse.c) */
bool kj_rt_fused_broadcast_error(const char *tree, int nops, const int32_t *ndims, const int64_t *shapes,
                                 char *msg, size_t cap, int32_t *line, int32_t *col);

/* mpi4py (rt_mpi.c): the run's requests, freed at the end of a run (rt.c). */
void kj_rt_mpi_free(kj_rt *rt);

/* Cooperative launches on the cpu targets (rt_grid.c, rt_launch.c). */
void kj_rt_worker_init(kj_rt *w, const kj_rt *parent);
void kj_rt_run_block_range(kj_rt *rt, const kj_abi_kernel *k, const int64_t *cfg, void **args, int32_t line,
                           int64_t first, int64_t last);
void kj_rt_launch_cooperative(kj_rt *rt, const kj_abi_kernel *k, const int64_t *cfg, void **args, int32_t line,
                              int32_t col);
/* The emulated device's co-residency limit: blocks of `threads` threads and
 * `shared_bytes` of shared memory resident at once (kernel.max_cooperative_grid_blocks). */
int64_t kj_rt_grid_max_blocks(int64_t threads, int64_t shared_bytes);

#endif
