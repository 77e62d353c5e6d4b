/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of the `random` module's functions (Numba's reference/pysupported.rst,
 * "random"; numba/cpython/randomimpl.py): numbers in, a float out (an int
 * for randint/randrange, a uint64 for getrandbits, None for seed/shuffle).
 * The lowering is llvm_pyrandom.c; the algorithms src/runtime/pyrandom.c. */
#include "builtins_int.h"

/* A real number (int, bool or float; not complex), converted to float64. */
static bool real_arg(bctx *c, uint32_t i)
{
    const kj_type *x = ty(c, i);
    if (!x || !(kj_is_int(x) || x->kind == KJ_T_FLOAT)) return bad_arg(c, i, "a float");
    convto(c, i, f64(c));
    return true;
}

static const kj_type *reals(bctx *c, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (given(c, i) && !real_arg(c, i)) return NULL;
    return f64(c);
}

const kj_type *kj_btype_pyrandom(bctx *c)
{
    switch (c->id) {
    case KJ_B_RANDOM_SEED: return int_arg(c, 0) ? none(c) : NULL;
    case KJ_B_RANDOM_RANDOM: return f64(c);
    case KJ_B_RANDOM_RANDINT: return int_arg(c, 0) && int_arg(c, 1) ? i64(c) : NULL;
    case KJ_B_RANDOM_RANDRANGE:
        for (uint32_t i = 0; i < 3; i++)
            if (given(c, i) && !int_arg(c, i)) return NULL;
        return i64(c);
    case KJ_B_RANDOM_GETRANDBITS: return int_arg(c, 0) ? kj_t_int(c->t, 64, false) : NULL;
    case KJ_B_RANDOM_SHUFFLE:
        /* Numba shuffles arrays only (a "buffer type") */
        return is_array(ty(c, 0)) && ty(c, 0)->ndim >= 1 ? none(c) : argerr(c, 0, "an array");
    case KJ_B_RANDOM_EXPOVARIATE: case KJ_B_RANDOM_PARETOVARIATE: return reals(c, 1);
    case KJ_B_RANDOM_TRIANGULAR: return reals(c, 3);
    default: return reals(c, 2); /* uniform, gauss, ...: two parameters */
    }
}
