/* SPDX-License-Identifier: BSD-2-Clause */
/* numpy.polynomial.polynomial's functions on 1-d coefficient arrays
 * (array_nppoly.c), NumPy's algorithms and messages. Each returns a new
 * float64 array, NULL after an error in *err. */
#ifndef KJ_ARRAY_NPPOLY_H
#define KJ_ARRAY_NPPOLY_H

#include "array.h"

kj_array *kj_nppoly_addsub(const kj_array *a, const kj_array *b, bool sub, kj_rt_error *err); /* polyadd/polysub */
kj_array *kj_nppoly_mul(const kj_array *a, const kj_array *b, kj_rt_error *err);              /* polymul */
/* polydiv: the quotient, the remainder in *rem. */
kj_array *kj_nppoly_div(const kj_array *a, const kj_array *b, kj_array **rem, kj_rt_error *err);
kj_array *kj_nppoly_int(const kj_array *a, int64_t m, kj_rt_error *err); /* polyint(a, m) */
/* polyval(x, c): x's shape. */
kj_array *kj_nppoly_val(const kj_array *x, const kj_array *c, kj_rt_error *err);
/* trimseq's length of a: without its trailing zeros, at least 1 (0 when empty). */
int64_t kj_nppoly_trimseq_len(const kj_array *a);

/* np.nancumsum/nancumprod(a): flattened, NaN as 0 (1), accumulated in `to`. */
kj_array *kj_array_nancum(const kj_array *a, bool prod, kj_dtype to, kj_rt_error *err);
/* np.nan_to_num in place (float arrays; others stay). */
void kj_array_nan_to_num(kj_array *a, double nan);
/* np.trim_zeros' bounds [*lo, *hi) of the 1-d a. */
void kj_array_trim_zeros(const kj_array *a, bool front, bool back, int64_t *lo, int64_t *hi);
/* np.unwrap(a, discont (NaN: None), period) of a 1-d array, float64. */
kj_array *kj_array_unwrap(const kj_array *a, double discont, double period, kj_rt_error *err);

#endif
