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

/* NumPy's own binary ufuncs with methods (kir_np_ufunc.c): np.add,
 * np.subtract, np.multiply, np.maximum, np.minimum (builtin b). */
bool kir_np_ufunc_ok(int b);
/* The type of the loop NumPy picks for elements x and y (reduce: for
 * reduce/accumulate, where add and multiply widen small integers to
 * int64); NULL where there is none (bool subtract, complex: not yet). */
const kj_type *kir_np_ufunc_loop(kj_types *ty, int b, bool reduce, const kj_type *x, const kj_type *y);
kir_identity kir_np_ufunc_identity(int b);
/* The scalar function (KIR_FN_UFUNC) of b's loop of type t, made once */
kir_func *kir_np_ufunc_func(kj_arena *a, kj_types *ty, kir_module *m, int b, const kj_type *t);

#endif
