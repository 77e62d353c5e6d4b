/* SPDX-License-Identifier: BSD-2-Clause */
/* numpy.polynomial.polynomial.Polynomial and polyutils.as_series as Numba
 * types them (numba/np/polynomial/polynomial_core.py, polynomial_functions.py).
 *
 * A Polynomial is a namedtuple of the constant class POLYNOMIAL, (coef,
 * domain, window), so p.coef / p.domain / p.window and passing it to and
 * from compiled functions are the namedtuple code's. Polynomial(coef): coef
 * a float64 copy, domain and window int64 [-1, 1] (Numba's and NumPy's
 * default); Polynomial(coef, domain, window): the three as float64 copies
 * (the lowering checks that domain and window have 2 elements). Only the
 * first three arguments, as numpysupported.rst says. print() of one is
 * refused: NumPy prints its unicode form (1.0 + 2.0·x), not yet kjit's.
 *
 * as_series(alist, trim=True): alist a tuple of 1-d arrays of real numbers,
 * or a 1-d or 2-d array (its elements or rows), each converted to a float64
 * 1-d array, trailing zeros trimmed when trim; the result a list of them
 * (llvm_polynomial.c). */
#include "builtins_int.h"

static const char *const POLY_FIELDS[3] = {"coef", "domain", "window"};
static const kj_ntclass POLYNOMIAL = {"Polynomial", (const char **)POLY_FIELDS, 3, false};

bool kj_is_polynomial(const kj_type *t) { return kj_nt_class(t) == &POLYNOMIAL; }
const kj_type *kj_t_polynomial(kj_types *t, const kj_type *const *el) { return kj_t_namedtuple(t, &POLYNOMIAL, el); }

/* Integers and floats; NumPy's as_series refuses bools ("Coefficient
 * arrays have no common type"), and complex is not kjit's yet. */
static bool real(const kj_type *e)
{
    return e && (e->kind == KJ_T_INT || e->kind == KJ_T_FLOAT);
}

static bool bool_array(bctx *c, const kj_type *x, uint32_t i)
{
    if (!is_array(x) || x->elem->kind != KJ_T_BOOL) return false;
    kj_error(c->d, c->src, span_of(c, i), "Coefficient arrays have no common type");
    return true;
}

/* Argument i of Polynomial: an array of real numbers, 1-d. */
static bool one_d(bctx *c, uint32_t i)
{
    const kj_type *x = ty(c, i);
    if (bool_array(c, x, i)) return false;
    if (!is_array(x) || !real(x->elem)) return bad_arg(c, i, "a 1-d array of real numbers");
    if (x->ndim != 1) {
        kj_error(c->d, c->src, span_of(c, i), i == 0 ? "Coefficient array is not 1-d" : "%s is not 1-d",
                 i == 1 ? "Domain array" : "Window array");
        return false;
    }
    return true;
}

static const kj_type *type_polynomial(bctx *c)
{
    if (!one_d(c, 0)) return NULL;
    const kj_type *fa = arr(c, f64(c), 1), *el[3] = {fa, arr(c, i64(c), 1), arr(c, i64(c), 1)};
    if (given(c, 1) != given(c, 2)) {
        kj_error(c->d, c->src, c->call,
                 "Polynomial() takes coef alone or coef, domain and window (Numba supports only these forms)");
        return NULL;
    }
    if (given(c, 1)) {
        if (!one_d(c, 1) || !one_d(c, 2)) return NULL;
        el[1] = el[2] = fa;
    }
    return kj_t_namedtuple(c->t, &POLYNOMIAL, el);
}

static const kj_type *type_as_series(bctx *c)
{
    const kj_type *x = ty(c, 0);
    if (given(c, 1) && ty(c, 1)->kind != KJ_T_BOOL) return argerr(c, 1, "a bool (The argument \"trim\" must be boolean)");
    if (bool_array(c, x, 0)) return NULL;
    if (is_array(x) && real(x->elem)) { /* a 2-d array's rows, a 1-d array's elements */
        if (x->ndim > 2) {
            kj_error(c->d, c->src, span_of(c, 0), "Coefficient array is not 1-d");
            return NULL;
        }
        return kj_t_list(c->t, arr(c, f64(c), 1));
    }
    if (!x || x->kind != KJ_T_TUPLE || !x->n)
        return argerr(c, 0, "an array or a tuple of 1-d arrays (kjit's as_series: no list yet)");
    for (uint32_t k = 0; k < x->n; k++) {
        const kj_type *e = x->elems[k];
        if (bool_array(c, e, 0)) return NULL;
        if (is_array(e) && real(e->elem) && e->ndim == 1) continue;
        if (is_array(e) && real(e->elem)) {
            kj_error(c->d, c->src, span_of(c, 0), "Coefficient array is not 1-d");
            return NULL;
        }
        return argerr(c, 0, "a tuple of 1-d arrays of real numbers");
    }
    return kj_t_list(c->t, arr(c, f64(c), 1));
}

const kj_type *kj_btype_polynomial(bctx *c)
{
    return c->id == KJ_B_NP_POLYNOMIAL ? type_polynomial(c) : type_as_series(c);
}

bool kj_polynomial_unprintable(const kj_barg *args, uint32_t nargs, const kj_source *src, kj_diags *d)
{
    for (uint32_t k = 0; k < nargs; k++) {
        if (!kj_is_polynomial(args[k].type)) continue;
        kj_diag_hint(kj_error(d, src, args[k].span, "kjit cannot print a Polynomial (NumPy's 1.0 + 2.0·x form) yet"),
                     "print its attributes: p.coef, p.domain, p.window");
        return true;
    }
    return false;
}
