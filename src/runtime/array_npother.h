/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy's "other functions" computed in the runtime (array_npother.c), as
 * Numba 0.56 computes them (numba/np/arraymath.py), with NumPy's and
 * Numba's messages: window functions, triangle indices, np.cross,
 * np.convolve/correlate, np.cov/corrcoef, np.sinc, isposinf/isneginf/
 * iscomplex/isreal, asarray_chkfinite's check. Each returns a new C-ordered
 * array, NULL after an error in *err. */
#ifndef KJ_ARRAY_NPOTHER_H
#define KJ_ARRAY_NPOTHER_H

#include "array.h"

/* np.bartlett/blackman/hamming/hanning/kaiser(M[, beta]): kind a kj_npo_window. */
kj_array *kj_array_window(int64_t m, int kind, double beta, kj_rt_error *err);

/* np.tril_indices(n, k, m) (upper: triu_indices): the row indices, the
 * column ones in *cols. */
kj_array *kj_npo_tri_indices(int64_t n, int64_t k, int64_t m, bool upper, kj_array **cols, kj_rt_error *err);

/* np.cross(a, b) in dtype `to`: last axes of 2 or 3 (one of them 3), the
 * others broadcast. */
kj_array *kj_npo_cross(const kj_array *a, const kj_array *b, kj_dtype to, kj_rt_error *err);

/* np.convolve(a, v) ('full') or np.correlate(a, v) ('valid') of 1-d arrays, in `to`. */
kj_array *kj_npo_convolve(const kj_array *a, const kj_array *v, bool correlate, kj_dtype to, kj_rt_error *err);

/* np.cov(m, y, rowvar, bias, ddof) (has_ddof false: None), or, corr,
 * np.corrcoef(m, y, rowvar): float64, (n, n); a 0-d array when m is 1-d
 * and y absent (a single variable). */
kj_array *kj_npo_cov(const kj_array *m, const kj_array *y, bool rowvar, bool bias, bool has_ddof, double ddof,
                     bool corr, kj_rt_error *err);

/* np.sinc(a) in a's (float) dtype. */
kj_array *kj_npo_sinc(const kj_array *a, kj_rt_error *err);

/* np.isposinf/isneginf/iscomplex/isreal(a) (which a kj_npo_pred): bool, a's shape. */
kj_array *kj_array_pred(const kj_array *a, int which, kj_rt_error *err);

/* asarray_chkfinite's check: false (ValueError) when a holds an inf or a NaN. */
bool kj_npo_chkfinite(const kj_array *a, kj_rt_error *err);

/* np.select's step: out = np.where(cond, choice, out), in place; the three
 * of one shape (else NumPy's broadcast ValueError). */
bool kj_npo_select_step(const kj_array *cond, const kj_array *choice, kj_array *out, kj_rt_error *err);

#endif
