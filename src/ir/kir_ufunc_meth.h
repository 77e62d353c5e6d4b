/* SPDX-License-Identifier: BSD-2-Clause */
/* ufunc.accumulate and ufunc.outer (a UFUNC_REDUCE with KIR_REDUCE_ACCUMULATE
 * or KIR_REDUCE_OUTER in aux, kir.h) made host functions that loop as
 * NumPy's do; kir_reduce_expand calls them in place of the instruction.
 *   accumulate: out[..., 0, ...] = a[..., 0, ...], then out[..., j, ...] =
 *               f(out[..., j-1, ...], a[..., j, ...]) along the axis, each
 *               value converted to f's result type as a ufunc loop does;
 *   outer:      out[i..., j...] = f(a[i...], b[j...]).
 * They run on the host on every target (NumPy's methods of a DUFunc). */
#ifndef KJ_KIR_UFUNC_METH_H
#define KJ_KIR_UFUNC_METH_H

#include "kir.h"

/* The host function for UFUNC_REDUCE `in` (a method one) of function f:
 * its parameters are in->a's array (and in->b's for outer), layout A. */
kir_func *kir_ufunc_meth_func(kj_arena *a, kj_types *ty, kir_module *m, const kir_func *f, const kir_inst *in);

#endif
