/* SPDX-License-Identifier: BSD-2-Clause */
/* IEEE binary16 (NumPy's float16, LLVM's half) as its 16 bits: conversions
 * to and from double with round-to-nearest-even, as NumPy's
 * npy_double_to_half / npy_half_to_double do (C's _Float16 is not on every
 * compiler kjit builds with). */
#ifndef KJ_HALF_H
#define KJ_HALF_H

#include <stdint.h>

/* The float16 nearest to x (ties to even); overflow gives ±inf, a NaN keeps
 * the top bits of its payload (NumPy's rule). */
uint16_t kj_half_from_double(double x);

/* The exact value of the float16 with bits h. */
double kj_half_to_double(uint16_t h);

#endif
