/* SPDX-License-Identifier: BSD-2-Clause */
/* Sorting, searching, sets and order statistics (array_sort.c) and the
 * statistics and calculus functions (array_stats.c), NumPy's results:
 * NaN sorts last, every sort is stable (a valid result of NumPy's
 * quicksort too), medians and percentiles interpolate as NumPy 1.24's
 * 'linear' method. Every function returns a new C-ordered array, or NULL
 * with `err` filled in with NumPy's exception and message. */
#ifndef KJ_ARRAY_SORT_H
#define KJ_ARRAY_SORT_H

#include "array.h"

/* np.sort(a) along the last axis (a copy). */
kj_array *kj_array_sorted(const kj_array *a, kj_rt_error *err);
/* The same into r, a C-ordered array of a's shape and dtype that the
 * caller made (np.sort's result in memory it already has). */
bool kj_array_sorted_into(kj_array *r, const kj_array *a, kj_rt_error *err);
/* a.sort(): sorts `a` in place along its last axis. */
bool kj_array_sort_inplace(kj_array *a, kj_rt_error *err);
/* np.argsort(a) along the last axis: int64 indices (stable). */
kj_array *kj_array_argsort(const kj_array *a, kj_rt_error *err);
/* The same into r, a C-ordered int64 array of a's shape that the caller
 * made; a not complex. */
bool kj_array_argsort_into(kj_array *r, const kj_array *a, kj_rt_error *err);
/* np.searchsorted(a, v, side): a is 1-d and sorted; int64 of v's shape
 * (0-d for a scalar v). */
kj_array *kj_array_searchsorted(const kj_array *a, const kj_array *v, bool right, kj_rt_error *err);
/* np.unique(a): the sorted distinct elements of a, flattened (NaNs
 * collapse into one, as NumPy 1.24's equal_nan=True). */
kj_array *kj_array_unique(const kj_array *a, kj_rt_error *err);

/* np.median / np.percentile / np.quantile of the whole array, and their
 * nan* forms (skip_nan): a 0-d array of float64 (float32 for float32
 * input); for percentile/quantile `q` (float64, already divided by 100 for
 * percentile) is a 0-d or 1-d array, the result has q's shape. `what`
 * names the function for messages ("Percentiles" or "Quantiles"). */
kj_array *kj_array_median(const kj_array *a, bool skip_nan, kj_rt_error *err);
kj_array *kj_array_quantile(const kj_array *a, const kj_array *q, bool skip_nan, const char *what,
                            kj_rt_error *err);

/* np.partition(a, kth) / np.argpartition (arg) along the last axis. */
kj_array *kj_array_partition(const kj_array *a, int64_t kth, bool arg, kj_rt_error *err);
typedef enum kj_setop {
    KJ_SET_UNION, KJ_SET_INTERSECT, KJ_SET_DIFF, KJ_SET_XOR, KJ_SET_IN1D, KJ_SET_ISIN
} kj_setop;
/* np.union1d/intersect1d/setdiff1d/setxor1d(a, b) (1-d, sorted, unique),
 * np.in1d(a, b) (1-d bool) and np.isin(a, b) (bool of a's shape), values
 * compared in the common dtype (NaN equals nothing, as NumPy's ==). */
kj_array *kj_array_setop(const kj_array *a, const kj_array *b, kj_setop op, kj_rt_error *err);

/* ---- array_stats.c ---- */

/* np.bincount(x, weights=, minlength=): int64 counts, float64 sums when
 * `w` is not NULL. */
kj_array *kj_array_bincount(const kj_array *x, const kj_array *w, int64_t minlength, kj_rt_error *err);
/* np.diff(a, n) along the last axis (not_equal for bool, as NumPy). */
kj_array *kj_array_diff(const kj_array *a, int64_t n, kj_rt_error *err);
/* np.digitize(x, bins, right): int64 of x's shape. */
kj_array *kj_array_digitize(const kj_array *x, const kj_array *bins, bool right, kj_rt_error *err);
/* np.histogram(a, bins=nbins, range=(lo, hi) when has_range) or with
 * `edges` (a 1-d array of bin edges) when not NULL: *hist (int64) and
 * *out_edges (float64). */
bool kj_array_histogram(const kj_array *a, int64_t nbins, const kj_array *edges, bool has_range, double lo,
                        double hi, kj_array **hist, kj_array **out_edges, kj_rt_error *err);

/* np.ediff1d(a): the differences of the flattened array. */
kj_array *kj_array_ediff1d(const kj_array *a, kj_rt_error *err);
/* np.trapz(y, x=, dx=) of a 1-d y: a 0-d array (float64; float32 for
 * float32 y without x). */
kj_array *kj_array_trapz(const kj_array *y, const kj_array *x, double dx, kj_rt_error *err);
/* np.interp(x, xp, fp): float64 of x's shape (NumPy's compiled loop). */
kj_array *kj_array_interp(const kj_array *x, const kj_array *xp, const kj_array *fp, kj_rt_error *err);
/* np.round/np.around(a, decimals) (a copy; a may be 0-d). */
kj_array *kj_array_round(const kj_array *a, int64_t decimals, kj_rt_error *err);
/* np.average(a, weights=w or NULL) of the whole array: a 0-d array. */
kj_array *kj_array_average(const kj_array *a, const kj_array *w, kj_rt_error *err);

typedef enum kj_nan_op {
    KJ_NAN_SUM, KJ_NAN_PROD, KJ_NAN_MEAN, KJ_NAN_VAR, KJ_NAN_STD, KJ_NAN_MIN, KJ_NAN_MAX,
    KJ_NAN_ARGMIN, KJ_NAN_ARGMAX, KJ_PTP
} kj_nan_op;
/* np.nansum/.../nanargmax of the whole array, and np.ptp: a 0-d array. */
kj_array *kj_array_nanreduce(const kj_array *a, kj_nan_op op, int64_t ddof, kj_rt_error *err);

#endif
