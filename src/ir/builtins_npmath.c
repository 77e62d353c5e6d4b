/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of NumPy's math ufuncs (builtins_npmath.h) as Numba selects their
 * loops (numba/np/ufunc_db.py; NumPy's rule, without float16 loops): the
 * inputs promote (NEP 50: Python scalars are weak), the first loop they
 * cast to safely computes. Float loops: float32 stays; bool, int8, uint8,
 * int16 and uint16 compute in float32, wider integers in float64.
 * Scalars convert to the loop's type; with an array argument the result is
 * an array of the largest rank (broadcasting), computed by a fused loop. */
#include "builtins_int.h"

/* Numba's float loop for a real type t. */
static const kj_type *float_loop(bctx *c, const kj_type *t)
{
    if (t->kind == KJ_T_FLOAT) return kj_t_float(c->t, t->bits == 32 && !t->weak ? 32 : 64);
    bool small = t->kind == KJ_T_BOOL || (t->kind == KJ_T_INT && t->bits <= 16 && !t->weak);
    return kj_t_float(c->t, small ? 32 : 64);
}

/* Argument i's element type, when it is a real number or an array of them. */
static const kj_type *real_elem(bctx *c, uint32_t i)
{
    const kj_type *x = ty(c, i), *e = x ? elem_or_self(x) : NULL;
    if (e && (e->kind == KJ_T_BOOL || e->kind == KJ_T_INT || e->kind == KJ_T_FLOAT)) return e;
    argerr(c, i, "a real number or an array of real numbers");
    return NULL;
}

/* The result: the scalar r, or an array of r when an argument is one. */
static const kj_type *result(bctx *c, const kj_type *r, const kj_type *conv0, const kj_type *conv1)
{
    int nd = 0;
    for (uint32_t i = 0; i < c->nargs; i++)
        if (is_array(ty(c, i)) && ty(c, i)->ndim > nd) nd = ty(c, i)->ndim;
    if (!is_array(ty(c, 0)) && conv0) convto(c, 0, conv0);
    if (c->nargs > 1 && !is_array(ty(c, 1)) && conv1) convto(c, 1, conv1);
    r = kj_strong(c->t, r);
    return nd ? arr(c, r, nd) : r;
}

/* NumPy's message for inputs no loop takes. */
static const kj_type *no_loop(bctx *c)
{
    kj_error(c->d, c->src, c->call,
             "ufunc '%s' not supported for the input types, and the inputs could not be safely coerced to any "
             "supported types according to the casting rule ''safe''",
             strrchr(c->name, '.') + 1);
    return NULL;
}

/* gcd, lcm: integer loops only; bool computes as int8. int64 with uint64
 * promotes to float64, which has no loop. */
static const kj_type *type_gcd(bctx *c, const kj_type *t)
{
    if (t->kind == KJ_T_BOOL) t = kj_t_int(c->t, 8, true);
    if (t->kind != KJ_T_INT) { /* NumPy's _UFuncNoLoopError, with the promoted type */
        const char *n = kj_type_str(kj_strong(c->t, t));
        kj_error(c->d, c->src, c->call, "ufunc '%s' did not contain a loop with signature matching types (%s, %s) -> %s",
                 strrchr(c->name, '.') + 1, n, n, n);
        return NULL;
    }
    return result(c, t, t, t);
}

/* ldexp(x1, x2): x1's float loop, x2 an integer (bool included) the loop
 * takes as int64; uint64 does not cast safely to it. */
static const kj_type *type_ldexp(bctx *c, const kj_type *x, const kj_type *n)
{
    if (n->kind == KJ_T_FLOAT || (n->kind == KJ_T_INT && !n->is_signed && n->bits == 64 && !n->weak))
        return no_loop(c);
    const kj_type *f = float_loop(c, x);
    return result(c, f, f, i64(c));
}

const kj_type *kj_btype_npmath(bctx *c)
{
    const kj_type *x0 = ty(c, 0);
    if (c->id == KJ_B_NP_RECIPROCAL && x0 && is_array(x0) && kj_is_complex(x0->elem))
        return arr(c, x0->elem, x0->ndim); /* NumPy's complex loop (llvm_cpxufunc.c) */
    const kj_type *x = real_elem(c, 0), *y = NULL;
    if (!x) return NULL;
    if (c->nargs > 1 && !(y = real_elem(c, 1))) return NULL;
    if (c->id == KJ_B_NP_LDEXP) return type_ldexp(c, x, y);
    const kj_type *t = y ? kj_promote(c->t, x, y) : x;
    if (!t) return no_loop(c);
    switch (c->id) {
    case KJ_B_NP_GCD: case KJ_B_NP_LCM: return type_gcd(c, t);
    case KJ_B_NP_FMAX: case KJ_B_NP_FMIN: return result(c, t, t, t);
    case KJ_B_NP_RECIPROCAL: {
        const kj_type *r = t->kind == KJ_T_BOOL ? kj_t_int(c->t, 8, true) : t;
        return result(c, r, r, NULL);
    }
    case KJ_B_NP_FLOAT_POWER: return result(c, f64(c), f64(c), f64(c));
    case KJ_B_NP_SIGNBIT: {
        const kj_type *f = float_loop(c, t);
        return result(c, kj_t_bool(c->t), f, NULL);
    }
    default: { /* the float functions */
        const kj_type *f = float_loop(c, t);
        return result(c, f, f, f);
    }
    }
}
