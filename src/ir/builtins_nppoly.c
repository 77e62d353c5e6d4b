/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of numpy.polynomial's functions (builtins_nppoly.h). Coefficients
 * are 1-d arrays of real numbers; the results are float64 (NumPy's
 * as_series: integers and bools convert to double), trimseq keeps the
 * dtype. polyval's x is a real number (a float64 result) or an array of
 * them (an array of x's shape). */
#include "builtins_int.h"

static bool real(const kj_type *e)
{
    return e && (e->kind == KJ_T_BOOL || e->kind == KJ_T_INT || e->kind == KJ_T_FLOAT);
}

/* Argument i: a 1-d array of real numbers. */
static bool coef(bctx *c, uint32_t i)
{
    const kj_type *x = ty(c, i);
    if (is_array(x) && x->ndim == 1 && real(x->elem)) return true;
    if (is_array(x) && real(x->elem)) {
        kj_error(c->d, c->src, span_of(c, i), "Coefficient array is not 1-d");
        return false;
    }
    return bad_arg(c, i, "a 1-d array of real numbers");
}

/* Argument i: an array of real numbers (1-d when one1d). */
static const kj_type *real_array(bctx *c, uint32_t i, bool one1d)
{
    const kj_type *x = ty(c, i);
    if (is_array(x) && real(x->elem) && (!one1d || x->ndim == 1)) return x;
    argerr(c, i, one1d ? "a 1-d array of real numbers" : "an array of real numbers");
    return NULL;
}

/* Optional argument i: a real number, converted to float64. */
static bool opt_real(bctx *c, uint32_t i)
{
    if (!given(c, i)) return true;
    if (!real(ty(c, i))) return bad_arg(c, i, "a real number");
    convto(c, i, f64(c));
    return true;
}

/* np.nancumsum/nancumprod (only a, as Numba), np.nan_to_num(x, copy, nan),
 * np.trim_zeros(filt, trim), np.unwrap(p, discont, axis=-1, period). */
static const kj_type *type_other(bctx *c)
{
    const kj_type *x = real_array(c, 0, c->id == KJ_B_NP_TRIM_ZEROS || c->id == KJ_B_NP_UNWRAP);
    /* np.roots: Numba's ValueError for more dimensions, at compile time */
    if (!x) return NULL;
    const kj_type *e = x->elem;
    switch (c->id) {
    case KJ_B_NP_NANCUMSUM: case KJ_B_NP_NANCUMPROD: /* NumPy's cumsum types: integers widen to 64 bits */
        return arr(c, e->kind == KJ_T_FLOAT ? e : kj_t_int(c->t, 64, e->kind == KJ_T_BOOL || e->is_signed), 1);
    case KJ_B_NP_NAN_TO_NUM:
        if (given(c, 1) && !(c->args[1].is_const && ty(c, 1)->kind == KJ_T_BOOL)) return argerr(c, 1, "a constant bool");
        if (!opt_real(c, 2)) return NULL;
        return given(c, 1) && c->args[1].ival == 0 ? x : arr(c, e, x->ndim); /* copy=False: x itself */
    case KJ_B_NP_TRIM_ZEROS: {
        const char *t = given(c, 1) ? c->args[1].sval : "fb";
        if (!t) return argerr(c, 1, "a constant string");
        return kj_t_array(c->t, e, 1, x->layout); /* a view */
    }
    case KJ_B_NP_ROOTS:
        if (e->kind == KJ_T_FLOAT && e->bits == 32) return argerr(c, 0, "an array of float64 or integers (float32: not yet)");
        if (x->ndim != 1) {
            kj_error(c->d, c->src, span_of(c, 0), "Input must be a 1d array.");
            return NULL;
        }
        return arr(c, f64(c), 1);
    default: /* unwrap */
        if (e->kind == KJ_T_FLOAT && e->bits == 32) return argerr(c, 0, "an array of float64 or integers (float32: not yet)");
        if (given(c, 2) && !(c->args[2].is_const && kj_is_int(ty(c, 2)) && c->args[2].ival == -1)) {
            kj_error(c->d, c->src, span_of(c, 2), "Value for argument 'axis' is not supported.");
            return NULL;
        }
        return opt_real(c, 1) && opt_real(c, 3) ? arr(c, f64(c), 1) : NULL;
    }
}

const kj_type *kj_btype_nppoly(bctx *c)
{
    if (c->id >= KJ_B_NP_NANCUMSUM) return type_other(c);
    if (c->id == KJ_B_NP_POLYNOMIAL || c->id == KJ_B_NP_PU_AS_SERIES) return kj_btype_polynomial(c);
    const kj_type *f = f64(c), *v = arr(c, f, 1);
    switch (c->id) {
    case KJ_B_NP_PU_TRIMSEQ: return coef(c, 0) ? arr(c, ty(c, 0)->elem, 1) : NULL;
    case KJ_B_NP_POLYINT: {
        if (!coef(c, 0)) return NULL;
        if (given(c, 1) && !kj_is_int(ty(c, 1))) return argerr(c, 1, "an integer");
        if (given(c, 1)) convto(c, 1, i64(c));
        return v;
    }
    case KJ_B_NP_POLYVAL: {
        const kj_type *x = ty(c, 0);
        if (!coef(c, 1)) return NULL;
        if (given(c, 2) && !(c->args[2].is_const && ty(c, 2)->kind == KJ_T_BOOL))
            return argerr(c, 2, "a constant bool");
        if (is_array(x) && real(x->elem)) return arr(c, f, x->ndim);
        if (!real(x)) return argerr(c, 0, "a real number or an array of real numbers");
        convto(c, 0, f);
        return f;
    }
    default: break;
    }
    if (!coef(c, 0) || !coef(c, 1)) return NULL;
    if (c->id != KJ_B_NP_POLYDIV) return v;
    const kj_type *el[2] = {v, v};
    return kj_t_tuple(c->t, el, 2);
}
