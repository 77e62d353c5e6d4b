/* SPDX-License-Identifier: BSD-2-Clause */
/* The methods accumulate and outer of a @vectorize function, typed as
 * NumPy's ufunc methods (Numba's DUFunc hands them to NumPy):
 *   f.accumulate(a, axis=0)  an array of a's shape in f's result type, the
 *                            running f along the axis (no identity used);
 *   f.outer(a, b)            an array of shape a.shape + b.shape,
 *                            out[i..., j...] = f(a[i...], b[j...]);
 *   f.at(a, indices, b=None) None; a[i] = f(a[i], b[k]) for each k, i =
 *                            indices[k], unbuffered (a repeated index
 *                            applies f again), as NumPy's ufunc.at.
 * kir_ufunc_meth.c makes them loops. (reduce: infer_call.c.) */
#include "builtins.h"
#include "kir_ufunc_meth.h"
#include "sema_int.h"

#include <string.h>

enum { MAX_DIMS = 4 };

int kj_ufunc_meth_id(const char *name)
{
    if (!strcmp(name, "accumulate")) return KJ_UM_ACCUMULATE;
    if (!strcmp(name, "outer")) return KJ_UM_OUTER;
    if (!strcmp(name, "at")) return KJ_UM_AT;
    return -1;
}

/* An array argument's type; NULL after reporting. */
static const kj_type *array_arg(kj_ictx *ic, const kj_expr *x, const char *what)
{
    const kj_type *t = kj_value_type(ic, x);
    if (!t) return NULL;
    if (t->kind != KJ_T_ARRAY || t->ndim < 1) {
        kj_error(ic->d, ic->s->src, x->span, "%s takes arrays, not %s", what, kj_type_str(t));
        return NULL;
    }
    return t;
}

/* The ufunc a method is called on: a @vectorize function, or one of
 * NumPy's (np.add.reduce) named by its kj_builtin. */
typedef struct uf {
    const char *name; /* NumPy's name: "add", or the function's */
    uint32_t nin;
    kj_fn *fn;        /* NULL for NumPy's */
    int npb;          /* NumPy's: KJ_B_NP_ADD ... */
} uf;

/* The loop's result type for elements (x, y) (y NULL: unary), as a scalar;
 * for a @vectorize f its specialisation goes to ei->callee, for NumPy's
 * the loop's type to ei->dtype (reduce: a reduction's loop, which widens
 * add's and multiply's small integers). NULL after reporting. */
static const kj_type *loop_type(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, const uf *u, const kj_type *x,
                                const kj_type *y, bool reduce)
{
    if (!u->fn) {
        const kj_type *t = kir_np_ufunc_loop(ic->s->types, u->npb, reduce, x, y);
        if (!t && u->npb == KJ_B_NP_SUBTRACT && kj_strong(ic->s->types, x)->kind == KJ_T_BOOL) {
            kj_error(ic->d, ic->s->src, e->span, "numpy boolean subtract, the `-` operator, is not supported, use "
                     "the bitwise_xor, the `^` operator, or the logical_xor function instead.");
            return NULL;
        }
        if (!t) {
            kj_error(ic->d, ic->s->src, e->span, "ufunc '%s' did not contain a loop with signature matching types "
                     "(%s, %s)", u->name, kj_type_str(x), kj_type_str(y));
            return NULL;
        }
        ei->dtype = t;
        ei->npufunc = u->npb;
        return t;
    }
    const kj_type *el[2] = {x, y};
    kj_spec *callee = kj_specialise(ic, u->fn, el, true, e->span);
    if (!callee || !callee->ret) return NULL;
    if (!kj_is_scalar(callee->ret)) {
        kj_error(ic->d, ic->s->src, e->span, "ufunc '%s' must return a scalar, not %s", u->name,
                 kj_type_str(callee->ret));
        return NULL;
    }
    ei->callee = callee;
    return kj_strong(ic->s->types, callee->ret);
}

/* accumulate's axis: a constant integer (NumPy's AxisError when out of
 * range); None only for a 1-d array. */
static bool accum_axis(kj_ictx *ic, const kj_expr *ax, int ndim, int32_t *axis)
{
    *axis = 0;
    if (!ax) return true;
    if (ax->kind == KJ_E_NONE) {
        if (ndim == 1) return true;
        kj_error(ic->d, ic->s->src, ax->span, "accumulate does not allow multiple axes");
        return false;
    }
    kj_type_expr(ic, ax);
    kj_cval v;
    if (!kj_const_eval(ic->s, ax, &v) || v.type->kind != KJ_T_INT) {
        kj_error(ic->d, ic->s->src, ax->span, "axis must be a constant integer");
        return false;
    }
    if (v.i < -ndim || v.i >= ndim) {
        kj_error(ic->d, ic->s->src, ax->span, "axis %lld is out of bounds for array of dimension %d",
                 (long long)v.i, ndim);
        return false;
    }
    *axis = (int32_t)(v.i < 0 ? v.i + ndim : v.i);
    return true;
}

static kj_einfo *accumulate_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, const uf *u)
{
    const char *name = u->name;
    const kj_expr *ax = e->call.nargs > 1 ? e->call.args[1] : NULL;
    for (uint32_t k = 0; k < e->call.nkw; k++) {
        if (strcmp(e->call.kw[k].name, "axis") || ax) {
            kj_error(ic->d, ic->s->src, e->call.kw[k].span,
                     "%s.accumulate() got an unexpected keyword argument '%s'", name, e->call.kw[k].name);
            return ei_value(ei, NULL);
        }
        ax = e->call.kw[k].value;
    }
    if (e->call.nargs < 1 || e->call.nargs > 2) {
        kj_error(ic->d, ic->s->src, e->span, "%s.accumulate() takes an array and an axis", name);
        return ei_value(ei, NULL);
    }
    const kj_type *a = kj_value_type(ic, e->call.args[0]);
    if (!a) return ei_value(ei, NULL);
    if (a->kind != KJ_T_ARRAY || a->ndim < 1) {
        kj_error(ic->d, ic->s->src, e->call.args[0]->span, "cannot accumulate on a scalar");
        return ei_value(ei, NULL);
    }
    if (!accum_axis(ic, ax, a->ndim, &ei->axis)) return ei_value(ei, NULL);
    const kj_type *r = loop_type(ic, e, ei, u, a->elem, a->elem, true);
    return ei_value(ei, r ? kj_t_array(ic->s->types, r, a->ndim, KJ_LAYOUT_C) : NULL);
}

static kj_einfo *outer_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, const uf *u)
{
    const char *name = u->name;
    if (e->call.nkw) {
        kj_error(ic->d, ic->s->src, e->call.kw[0].span, "%s.outer() got an unexpected keyword argument '%s'", name,
                 e->call.kw[0].name);
        return ei_value(ei, NULL);
    }
    if (e->call.nargs != 2) {
        kj_error(ic->d, ic->s->src, e->span, "%s.outer() takes exactly 2 arguments (%u given)", name,
                 e->call.nargs);
        return ei_value(ei, NULL);
    }
    const char *what = kj_arena_printf(ic->s->a, "%s.outer()", name);
    const kj_type *a = array_arg(ic, e->call.args[0], what);
    const kj_type *b = a ? array_arg(ic, e->call.args[1], what) : NULL;
    if (!b) return ei_value(ei, NULL);
    if (a->ndim + b->ndim > MAX_DIMS) {
        kj_error(ic->d, ic->s->src, e->span, "%s.outer() of %dd and %dd arrays: kjit's arrays have at most %d dimensions",
                 name, a->ndim, b->ndim, MAX_DIMS);
        return ei_value(ei, NULL);
    }
    const kj_type *r = loop_type(ic, e, ei, u, a->elem, b->elem, false);
    return ei_value(ei, r ? kj_t_array(ic->s->types, r, a->ndim + b->ndim, KJ_LAYOUT_C) : NULL);
}

/* f.at's indices: an integer or a 1-d integer array (NumPy's IndexError
 * for anything else); the values: a number or a 1-d array. */
static bool at_operands(kj_ictx *ic, const kj_expr *e, const kj_type **ts)
{
    const kj_expr *ix = e->call.args[1];
    const kj_type *t = ts[1] = kj_value_type(ic, ix);
    if (!t) return false;
    bool intarr = t->kind == KJ_T_ARRAY && t->elem->kind == KJ_T_INT;
    if (t->kind != KJ_T_INT && !intarr) {
        kj_error(ic->d, ic->s->src, ix->span, "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis "
                                              "(`None`) and integer or boolean arrays are valid indices");
        return false;
    }
    if (intarr && t->ndim != 1) {
        kj_error(ic->d, ic->s->src, ix->span, "at() with %dd index arrays is not supported by kjit yet "
                 "(only one 1-d index array)", t->ndim);
        return false;
    }
    if (e->call.nargs < 3) return true;
    const kj_expr *bx = e->call.args[2];
    t = ts[2] = kj_value_type(ic, bx);
    if (!t) return false;
    if (!kj_is_scalar(t) && !(t->kind == KJ_T_ARRAY && t->ndim == 1)) {
        kj_error(ic->d, ic->s->src, bx->span, "at() takes a number or a 1-d array as its values, not %s",
                 kj_type_str(t));
        return false;
    }
    return true;
}

/* f.at(a, indices[, b]): NumPy's argument errors, then f specialised for
 * a's element type (and b's). */
static kj_einfo *at_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, const uf *u)
{
    uint32_t n = e->call.nargs, nin = u->nin;
    const char *err = e->call.nkw ? "at() takes no keyword arguments"
                      : n < 2 ? kj_arena_printf(ic->s->a, "at() takes at least 2 arguments (%u given)", n)
                      : n > 3 ? kj_arena_printf(ic->s->a, "at() takes at most 3 arguments (%u given)", n)
                      : nin > 2 ? "Only unary and binary ufuncs supported at this time"
                      : nin == 2 && n == 2 ? "second operand needed for ufunc"
                      : nin == 1 && n == 3 ? "second operand provided when ufunc is unary" : NULL;
    if (err) {
        kj_error(ic->d, ic->s->src, e->call.nkw ? e->call.kw[0].span : e->span, "%s", err);
        return ei_value(ei, NULL);
    }
    const kj_type *ts[3] = {array_arg(ic, e->call.args[0], "at()"), NULL, NULL};
    if (!ts[0] || !at_operands(ic, e, ts)) return ei_value(ei, NULL);
    if (ts[0]->ndim != 1) {
        kj_error(ic->d, ic->s->src, e->call.args[0]->span, "at() of a %dd array is not supported by kjit yet "
                 "(only 1-d arrays)", ts[0]->ndim);
        return ei_value(ei, NULL);
    }
    const kj_type *el[2] = {ts[0]->elem, n == 3 ? (kj_is_scalar(ts[2]) ? ts[2] : ts[2]->elem) : NULL};
    if (!loop_type(ic, e, ei, u, el[0], el[1], false)) return ei_value(ei, NULL);
    return ei_value(ei, kj_t_none(ic->s->types));
}

/* np.add.reduce(a, axis=0) (NumPy's own ufuncs; a @vectorize f's reduce
 * is infer_call.c's): axis a constant or None (every axis, C order; only
 * for a reorderable ufunc when a has several). */
static kj_einfo *np_reduce_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, const uf *u)
{
    const kj_expr *ax = e->call.nargs > 1 ? e->call.args[1] : NULL;
    for (uint32_t k = 0; k < e->call.nkw; k++) {
        if (strcmp(e->call.kw[k].name, "axis") || ax) {
            kj_error(ic->d, ic->s->src, e->call.kw[k].span, "%s.reduce() got an unexpected keyword argument '%s'",
                     u->name, e->call.kw[k].name);
            return ei_value(ei, NULL);
        }
        ax = e->call.kw[k].value;
    }
    if (e->call.nargs < 1 || e->call.nargs > 2) {
        kj_error(ic->d, ic->s->src, e->span, "%s.reduce() takes an array and an axis", u->name);
        return ei_value(ei, NULL);
    }
    const kj_type *a = array_arg(ic, e->call.args[0], "reduce()");
    if (!a) return ei_value(ei, NULL);
    ei->axis = 0;
    if (ax && ax->kind == KJ_E_NONE) {
        ei->axis = -1;
        if (a->ndim > 1 && !kir_np_ufunc_identity(u->npb).reorderable) {
            kj_error(ic->d, ic->s->src, ax->span,
                     "reduction operation '%s' is not reorderable, so at most one axis may be specified", u->name);
            return ei_value(ei, NULL);
        }
    } else if (!accum_axis(ic, ax, a->ndim, &ei->axis)) {
        return ei_value(ei, NULL);
    }
    const kj_type *r = loop_type(ic, e, ei, u, a->elem, a->elem, true);
    if (!r || ei->axis < 0 || a->ndim == 1) return ei_value(ei, r);
    return ei_value(ei, kj_t_array(ic->s->types, r, a->ndim - 1, KJ_LAYOUT_C));
}

kj_einfo *kj_type_ufunc_meth(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, const kj_einfo *ci)
{
    int meth = ci->builtin;
    uf u = {.fn = ci->fn, .npb = ci->npufunc};
    if (u.fn) u.name = u.fn->def->name, u.nin = u.fn->def->nparams;
    else u.name = kj_builtin_get(u.npb)->path + 3, u.nin = 2; /* "np.add" */
    static const char *const names[] = {"accumulate", "outer", "at", "reduce"};
    if (kj_is_device_ctx(ic->sp)) {
        kj_error(ic->d, ic->s->src, e->span, "%s.%s() is only available in host code", u.name, names[meth]);
        return ei_value(ei, NULL);
    }
    if (meth == KJ_UM_AT) return at_call(ic, e, ei, &u);
    if (meth == KJ_UM_REDUCE) return np_reduce_call(ic, e, ei, &u);
    if (u.nin != 2) {
        kj_error(ic->d, ic->s->src, e->span, meth == KJ_UM_OUTER ? "outer product only supported for binary functions"
                                                                 : "accumulate only supported for binary functions");
        return ei_value(ei, NULL);
    }
    return meth == KJ_UM_OUTER ? outer_call(ic, e, ei, &u) : accumulate_call(ic, e, ei, &u);
}

/* Does np.NAME (builtin b) have the methods reduce, accumulate, outer, at? */
bool kj_np_ufunc_has_methods(int b)
{
    return kir_np_ufunc_ok(b);
}
