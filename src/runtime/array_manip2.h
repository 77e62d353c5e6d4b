/* SPDX-License-Identifier: BSD-2-Clause */
/* More of NumPy's array creation and manipulation (array_manip2.c), NumPy's
 * semantics and messages: np.roll, np.tril/triu/tri, np.diag, np.vander,
 * np.take, np.extract, np.delete, np.append, np.fill_diagonal. */
#ifndef KJ_ARRAY_MANIP2_H
#define KJ_ARRAY_MANIP2_H

#include "array.h"

/* The operations of kj_array_manip2. `p` holds the integer arguments, `b`
 * the second array (0-d for a scalar); each result is a new C-ordered
 * array, except FILL_DIAG, which writes `a` and returns it (not retained).
 *   ROLL      np.roll(a, p[0]): the flattened array shifted, a's shape
 *   TRIL/TRIU np.tril/triu(a, k=p[0]) over the last two axes (1-d: n x n)
 *   TRI       np.tri(p[0], p[1], p[2], dtype=to)
 *   DIAG      np.diag(a, k=p[0]): 1-d -> 2-d, 2-d -> its diagonal
 *   VANDER    np.vander(a, N=p[0] if p[1] else len(a), increasing=p[2]) in `to`
 *   TAKE      np.take(a, b): elements of flattened a at int indices b
 *   EXTRACT   np.extract(a, b): flattened b where flattened a is true
 *   DELETE    np.delete(a, b): flattened a without the int indices b
 *   APPEND    np.append(a, b): both flattened and joined, in `to`
 *   FILL_DIAG np.fill_diagonal(a, b): b a 0-d real scalar
 *   TILE      np.tile(a, p[0..p[4])): p[4] (1 to 4) repetitions
 *   ROT90     kj_array_rot90(a, p[0], p[1], p[2]): a view (a must have an owner) */
typedef enum kj_manip2_op {
    KJ_M2_ROLL, KJ_M2_TRIL, KJ_M2_TRIU, KJ_M2_TRI, KJ_M2_DIAG, KJ_M2_VANDER, KJ_M2_TAKE, KJ_M2_EXTRACT,
    KJ_M2_DELETE, KJ_M2_APPEND, KJ_M2_FILL_DIAG, KJ_M2_TILE, KJ_M2_ROT90
} kj_manip2_op;

kj_array *kj_array_manip2(kj_manip2_op op, kj_array *a, const kj_array *b, const int64_t *p, kj_dtype to,
                          kj_rt_error *err);

/* np.rot90(a, k, axes=(ax0, ax1)): a view, NumPy's composition of flips
 * and a transpose; NumPy's errors for equal or out-of-range axes. */
kj_array *kj_array_rot90(kj_array *a, int64_t k, int64_t ax0, int64_t ax1, kj_rt_error *err);

#endif
