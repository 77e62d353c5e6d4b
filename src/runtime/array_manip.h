/* SPDX-License-Identifier: BSD-2-Clause */
/* Joining and flipping arrays (array_manip.c), NumPy's semantics and
 * messages: np.concatenate, np.stack, np.hstack/vstack/dstack/column_stack,
 * np.flip. */
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
} kj_join_mode;

/* A new C-ordered array of dtype `to` joining the n inputs (n >= 1; their
 * dimensions, after the mode's reshaping, all equal). `axis` may be
 * negative (CONCAT, STACK). Errors: AxisError, NumPy's shape mismatches. */
kj_array *kj_array_join(const kj_array *const *in, int n, kj_join_mode mode, int64_t axis, kj_dtype to,
                        kj_rt_error *err);

/* np.flip(a, axis): a view with `axis` (negative counts from the end)
 * reversed, or every axis when all_axes. */
kj_array *kj_array_flip(kj_array *a, bool all_axes, int64_t axis, kj_rt_error *err);

#endif
