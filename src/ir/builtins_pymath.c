/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of the math functions of Numba's pysupported.rst ("math") and
 * numba-cuda's kernel math that kjit computes in its own IR
 * (llvm_pymath.c), the same on the host and on the GPU: degrees, radians,
 * frexp, ldexp, modf, gcd, nextafter, remainder. A float32 argument keeps
 * float32 (Numba's Float signatures); integers compute in float64. */
#include "builtins_int.h"

/* Argument i, a real scalar: its float type (integers: float64), converted. */
static const kj_type *real_float(bctx *c, uint32_t i)
{
    const kj_type *x = ty(c, i);
    if (!x || !(kj_is_int(x) || x->kind == KJ_T_BOOL || x->kind == KJ_T_FLOAT)) {
        argerr(c, i, "a float");
        return NULL;
    }
    const kj_type *r = float_of(c, x);
    convto(c, i, r);
    return r;
}

static bool int_scalar(bctx *c, uint32_t i)
{
    const kj_type *x = ty(c, i);
    if (!x || !(kj_is_int(x) || x->kind == KJ_T_BOOL)) return bad_arg(c, i, "an integer");
    convto(c, i, i64(c));
    return true;
}

const kj_type *kj_btype_pymath(bctx *c)
{
    const kj_type *ft = c->id == KJ_B_MATH_GCD ? NULL : real_float(c, 0);
    if (c->id != KJ_B_MATH_GCD && !ft) return NULL;
    switch (c->id) {
    case KJ_B_MATH_DEGREES: case KJ_B_MATH_RADIANS: return ft;
    case KJ_B_MATH_LDEXP: return int_scalar(c, 1) ? ft : NULL;
    case KJ_B_MATH_FREXP: {
        const kj_type *e[2] = {ft, i32(c)}; /* Numba: (float, intc) */
        return kj_t_tuple(c->t, e, 2);
    }
    case KJ_B_MATH_MODF: {
        const kj_type *e[2] = {ft, ft};
        return kj_t_tuple(c->t, e, 2);
    }
    case KJ_B_MATH_NEXTAFTER: case KJ_B_MATH_REMAINDER: {
        const kj_type *f2 = real_float(c, 1);
        if (!f2) return NULL;
        /* both in one float type: float32 only when both are */
        const kj_type *r = ft->bits == 32 && f2->bits == 32 ? ft : f64(c);
        convto(c, 0, r);
        convto(c, 1, r);
        return r;
    }
    default: /* gcd */
        return int_scalar(c, 0) && int_scalar(c, 1) ? i64(c) : NULL;
    }
}
