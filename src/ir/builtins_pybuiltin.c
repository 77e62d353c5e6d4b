/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of chr, ord, repr, hash and divmod (issue 24; Numba's
 * pysupported.rst, "Built-in functions" and "Hashing"); lowered by
 * lower_pybuiltin.c, computed by llvm_pybuiltin.c and str_pybuiltin.c. */
#include "builtins_int.h"

/* hash() takes what Numba hashes as CPython does: numbers and tuples of
 * them. A str's hash is CPython's SipHash under the process's random
 * PYTHONHASHSEED, which no compiled program can reproduce: refused. */
static bool hashable(const kj_type *x)
{
    if (!x) return false;
    if (kj_is_int(x) || x->kind == KJ_T_BOOL || x->kind == KJ_T_FLOAT || kj_is_complex(x)) return true;
    if (x->kind != KJ_T_TUPLE) return false;
    for (uint32_t i = 0; i < x->n; i++)
        if (!hashable(x->elems[i])) return false;
    return true;
}

static const kj_type *type_hash(bctx *c)
{
    const kj_type *x = ty(c, 0);
    if (hashable(x)) {
        if (x->weak) convto(c, 0, kj_strong(c->t, x));
        return i64(c);
    }
    kj_diag *dg = kj_error(c->d, c->src, span_of(c, 0), "hash() of %s is not supported", kj_type_str(x));
    kj_diag_hint(dg, x && x->kind == KJ_T_STR ? "a str's hash depends on the process's PYTHONHASHSEED; kjit hashes "
                                                "numbers and tuples of numbers as CPython does"
                                              : "kjit hashes numbers and tuples of numbers as CPython does");
    return NULL;
}

static bool real(const kj_type *x) { return x && (kj_is_int(x) || x->kind == KJ_T_BOOL || x->kind == KJ_T_FLOAT); }

/* divmod(a, b): (a // b, a % b) in the type both promote to: int64 for
 * integers (uint64 when both are), float64 with a float (float32 when both
 * are float32), as Numba's int and float divmod. */
static const kj_type *type_divmod(bctx *c)
{
    const kj_type *a = ty(c, 0), *b = ty(c, 1);
    if (!real(a) || !real(b)) {
        kj_error(c->d, c->src, real(a) ? span_of(c, 1) : span_of(c, 0),
                 "unsupported operand type(s) for divmod(): '%s' and '%s'", kj_type_str(a), kj_type_str(b));
        return NULL;
    }
    const kj_type *r;
    if (a->kind == KJ_T_FLOAT || b->kind == KJ_T_FLOAT) {
        bool f32 = a->kind == KJ_T_FLOAT && b->kind == KJ_T_FLOAT && a->bits == 32 && b->bits == 32;
        r = kj_t_float(c->t, f32 ? 32 : 64);
    } else {
        bool u = kj_is_int(a) && kj_is_int(b) && !a->is_signed && !b->is_signed && a->bits == 64 && b->bits == 64;
        r = kj_t_int(c->t, 64, !u);
    }
    convto(c, 0, r);
    convto(c, 1, r);
    const kj_type *el[2] = {r, r};
    return kj_t_tuple(c->t, el, 2);
}

const kj_type *kj_btype_pybuiltin(bctx *c)
{
    const kj_type *x = ty(c, 0);
    switch (c->id) {
    case KJ_B_CHR:
        if (!x || !(kj_is_int(x) || x->kind == KJ_T_BOOL)) return argerr(c, 0, "an integer");
        convto(c, 0, i64(c));
        return kj_t_str(c->t);
    case KJ_B_ORD:
        if (x && x->kind == KJ_T_STR) return i64(c);
        kj_error(c->d, c->src, span_of(c, 0), "ord() expected string of length 1, but %s found", kj_type_str(x));
        return NULL;
    case KJ_B_REPR: /* of a str: quoted; of a number: str(x), which is its repr */
        if (x && x->kind == KJ_T_STR) return x;
        return kj_builtin_type(c->t, KJ_B_STR, NULL, c->args, c->nargs, c->call, c->src, c->d, c->conv);
    case KJ_B_HASH: return type_hash(c);
    default: return type_divmod(c);
    }
}
