/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of Generator.permuted(x, axis=None, out=None) (NumPy's; Numba
 * documents no permuted: a kjit extension, random_permuted.c): argument 0
 * is the Generator. The result is a new array of x's dtype and dimensions,
 * or out itself, into which x must copy under casting='safe' (NumPy's
 * np.copyto(out, x, casting='safe')); out's shape is checked at run time. */
#include "builtins_int.h"
#include "sema_int.h" /* kj_can_cast_safe */

const kj_type *kj_btype_gen_permuted(bctx *c)
{
    const kj_type *x = ty(c, 1);
    if (!is_array(x) || !kj_is_scalar(x->elem)) return argerr(c, 1, "an array of numbers");
    if (given(c, 2) && !int_arg(c, 2)) return NULL;
    if (!given(c, 3)) return arr(c, x->elem, x->ndim);
    const kj_type *o = ty(c, 3);
    if (!is_array(o)) {
        kj_error(c->d, c->src, span_of(c, 3), "out must be a numpy array, not %s", kj_type_str(o));
        return NULL;
    }
    if (o->ndim != x->ndim) {
        kj_error(c->d, c->src, span_of(c, 3), "out must have the same shape as x: it has %d dimension%s, x %d",
                 o->ndim, o->ndim == 1 ? "" : "s", x->ndim);
        return NULL;
    }
    if (!kj_can_cast_safe(x->elem, o->elem)) {
        kj_error(c->d, c->src, span_of(c, 3),
                 "Cannot cast array data from dtype('%s') to dtype('%s') according to the rule 'safe'",
                 kj_type_str(x->elem), kj_type_str(o->elem));
        return NULL;
    }
    return o;
}
