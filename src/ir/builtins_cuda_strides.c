/* SPDX-License-Identifier: BSD-2-Clause */
/* cuda.device_array(shape, dtype, strides=...) (numba-cuda's devicearray.py: DeviceNDArray(shape,
 * strides, dtype), its memory memory_size_from_info's extent of those strides): an array of
 * layout A over a new zeroed block just large enough for them (codegen: llvm_cuda_strides.c). */
#include "builtins_int.h"

/* strides: an int (1-d) or a tuple of one int per dimension, as numba-cuda takes them */
const kj_type *kj_btype_device_array_strides(bctx *c, const kj_type *a)
{
    const kj_type *s = ty(c, 2);
    if (kj_record_of(a->elem) || kj_is_xoro_states(a))
        return argerr(c, 2, "None for an array of records or random states (their layout is C)");
    bool ok = a->ndim == 1 && kj_is_int(s);
    if (s && s->kind == KJ_T_TUPLE && s->n == a->ndim) {
        ok = true;
        for (uint32_t k = 0; k < s->n; k++) ok = ok && kj_is_int(s->elems[k]);
    }
    if (!ok) { /* numba-cuda's DeviceNDArrayBase: ValueError('strides not match ndim') */
        kj_error(c->d, c->src, span_of(c, 2), "cuda.device_array(): strides not match ndim: strides= must be %s%u %s, "
                 "not %s", a->ndim == 1 ? "an int or a tuple of " : "a tuple of ", (unsigned)a->ndim,
                 a->ndim == 1 ? "int" : "ints (one per dimension of the shape)", kj_type_str(s));
        return NULL;
    }
    return kj_t_array(c->t, a->elem, a->ndim, KJ_LAYOUT_A);
}
