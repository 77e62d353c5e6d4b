/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy statistics along a chosen axis (array_stats2.c): np.cumsum/cumprod
 * with axis=, np.diff with axis=. */
#ifndef KJ_ARRAY_STATS2_H
#define KJ_ARRAY_STATS2_H

#include "array.h"

/* np.cumsum(a, axis) / np.cumprod(a, axis) (`prod`): a new C-ordered array
 * of a's shape and sum's dtype, the running sum (product) along `axis`
 * (negative from the end; an AxisError outside), one operation at a time in
 * the result's dtype as NumPy's add/multiply.accumulate (integers wrap). */
kj_array *kj_array_cumulate_axis(const kj_array *a, bool prod, int64_t axis, kj_rt_error *err);
/* np.diff(a, n, axis): the n-th differences along `axis` (negative from the
 * end; an AxisError outside), as kj_array_diff does along the last. */
kj_array *kj_array_diff_axis(const kj_array *a, int64_t n, int64_t axis, kj_rt_error *err);

#endif
