/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy's array attributes, creation and manipulation of builtins_npshape.h
 * (array_npshape.c), NumPy's algorithms and messages. */
#ifndef KJ_ARRAY_NPSHAPE_H
#define KJ_ARRAY_NPSHAPE_H

#include "array.h"

/* The operations of kj_array_npshape: `a`, `b`, `c` its operands (a 0-d
 * array for a scalar), `p` its integers, `f` its two floats; each result a
 * new array (C order unless said), or a view of a where said.
 *   PART       a.real (p[0] 0) / a.imag (p[0] 1) of a complex a: a view;
 *              a.imag of a real a: zeros
 *   CONJ       a.conj(): a copy, the imaginary parts negated
 *   ASFORTRAN  np.asfortranarray(a): a Fortran-ordered copy
 *   DIAGFLAT   np.diagflat(a, k=p[0])
 *   GEOMSPACE  np.geomspace(f[0], f[1], p[0]); LOGSPACE likewise (base 10)
 *   INDICES    np.indices(p[0..p[4]))
 *   RESIZE     np.resize(a, p[0..p[4]))
 *   INSERT     np.insert(a, b, c) on the flattened a (b an int or int array)
 *   TAKE_ALONG np.take_along_axis(a, b, axis=p[0])
 *   AS_STRIDED as_strided(a, shape=p[0..p[8]), strides=p[4..8)): a view
 *   SLIDING    sliding_window_view(a, p[0..p[4]), axis=p[5..9) if p[9]): a view */
typedef enum kj_npshape_op {
    KJ_NPS_PART, KJ_NPS_CONJ, KJ_NPS_ASFORTRAN, KJ_NPS_DIAGFLAT, KJ_NPS_GEOMSPACE, KJ_NPS_LOGSPACE,
    KJ_NPS_INDICES, KJ_NPS_RESIZE, KJ_NPS_INSERT, KJ_NPS_TAKE_ALONG, KJ_NPS_AS_STRIDED, KJ_NPS_SLIDING,
    KJ_NPS_CONTAINS, KJ_NPS_BSHAPES
} kj_npshape_op;

/* The integers kj_rt_npshape takes (p's length). */
enum { KJ_NPS_NPARAMS = 32 };

kj_array *kj_array_npshape(kj_npshape_op op, kj_array *a, const kj_array *b, const kj_array *c, const int64_t *p,
                           const double *f, kj_rt_error *err);

/* x in a: an element of a equal to x (compared as float64). */
bool kj_array_contains(const kj_array *a, double x);

/* np.broadcast_shapes of the n shapes p (p[0] = n, then for each its length
 * and 4 extents) into out (nout extents); NumPy's ValueError. */
bool kj_npshape_bshapes(const int64_t *p, int64_t *out, int nout, kj_rt_error *err);

#endif
