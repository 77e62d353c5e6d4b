/* SPDX-License-Identifier: BSD-2-Clause */
/* Joining, flipping, selecting and repeating arrays (array_manip.c),
 * NumPy's semantics and messages: np.concatenate, np.stack,
 * np.hstack/vstack/dstack/column_stack, np.flip, np.nonzero and its
 * relatives, np.repeat, np.eye. */
#ifndef KJ_ARRAY_MANIP_H
#define KJ_ARRAY_MANIP_H

#include "array.h"

/* How the inputs are shaped before they are concatenated (NumPy's
 * definitions of the stacking functions in terms of np.concatenate). */
typedef enum kj_join_mode {
    KJ_JOIN_CONCAT,  /* as they are, along `axis` */
    KJ_JOIN_STACK,   /* same shapes required; a new axis of length 1 at `axis` */
    KJ_JOIN_HSTACK,  /* along axis 0 for 1-d inputs, else axis 1 */
    KJ_JOIN_VSTACK,  /* atleast_2d, along axis 0 */
    KJ_JOIN_DSTACK,  /* atleast_3d, along axis 2 */
    KJ_JOIN_COLUMN,  /* 1-d inputs become columns (n, 1); along axis 1 */
    KJ_JOIN_ARRAY,   /* np.array([a, b, ...]): STACK at axis 0, with np.array's message for ragged shapes */
} kj_join_mode;

/* A new C-ordered array of dtype `to` joining the n inputs (n >= 1; their
 * dimensions, after the mode's reshaping, all equal). `axis` may be
 * negative (CONCAT, STACK). Errors: AxisError, NumPy's shape mismatches. */
kj_array *kj_array_join(const kj_array *const *in, int n, kj_join_mode mode, int64_t axis, kj_dtype to,
                        kj_rt_error *err);

/* np.flip(a, axis): a view with `axis` (negative counts from the end)
 * reversed, or every axis when all_axes. */
kj_array *kj_array_flip(kj_array *a, bool all_axes, int64_t axis, kj_rt_error *err);

/* np.nonzero(a) (NONZERO: ndim int64 arrays into outs[0..ndim), the
 * coordinates of the nonzero elements in C order; NaN is nonzero),
 * np.flatnonzero(a) (FLAT: their C-order positions, outs[0]),
 * np.argwhere(a) (ARGWHERE: one (count, ndim) array, outs[0]). */
typedef enum kj_nonzero_mode { KJ_NONZERO, KJ_NONZERO_FLAT, KJ_NONZERO_ARGWHERE } kj_nonzero_mode;
bool kj_array_nonzero(const kj_array *a, kj_nonzero_mode mode, kj_array **outs, kj_rt_error *err);

/* np.repeat(a, repeats, axis): `reps` a 0-d or 1-d integer array (one
 * count, or one per element along the axis); without an axis (has_axis
 * false) the flattened array is repeated. */
kj_array *kj_array_repeat(const kj_array *a, const kj_array *reps, bool has_axis, int64_t axis, kj_rt_error *err);

/* np.eye(n, m, k, dtype): ones on diagonal k of an n x m array of zeros. */
kj_array *kj_array_eye(int64_t n, int64_t m, int64_t k, kj_dtype dt, kj_rt_error *err);

/* Views that only move, add or repeat dimensions (no copy), `p` holding
 * the operation's integers: EXPAND np.expand_dims(a, p[0]); SWAP
 * np.swapaxes(a, p[0], p[1]); MOVE np.moveaxis(a, p[0], p[1]); ATLEAST
 * np.atleast_Nd(a) with N = p[0]; PERM np.transpose(a, p[0..ndim));
 * BROADCAST np.broadcast_to(a, p[0..np)). Axes may be negative. */
typedef enum kj_restride_op {
    KJ_RS_EXPAND, KJ_RS_SWAP, KJ_RS_MOVE, KJ_RS_ATLEAST, KJ_RS_PERM, KJ_RS_BROADCAST
} kj_restride_op;
kj_array *kj_array_restride(kj_array *a, kj_restride_op op, const int64_t *p, int np, kj_rt_error *err);

#endif
