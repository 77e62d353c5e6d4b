/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of KJ_BUILTINS_NPOTHER (builtins_npother.h) with the arguments
 * Numba 0.56 takes and its TypingError texts (numba/np/arraymath.py).
 * Integer arguments convert to int64 and floats to float64, so that
 * llvm_npother.c passes them as they are; the results are Numba's, except
 * that np.cov/corrcoef of one variable give a float64 where Numba gives a
 * 0-d array (kjit has no 0-d arrays; both print the same). */
#include "builtins_mctx.h"

static const kj_type *i64t(const mctx *c) { return kj_t_int(c->t, 64, true); }
static const kj_type *f64t(const mctx *c) { return kj_t_float(c->t, 64); }
static const kj_type *arr1(const mctx *c, const kj_type *e) { return kj_t_array(c->t, e, 1, KJ_LAYOUT_C); }
static bool is_arr(const kj_type *x) { return x && x->kind == KJ_T_ARRAY; }

/* Numba's TypingError text, at argument i. */
static const kj_type *refuse(const mctx *c, uint32_t i, const char *msg)
{
    kj_error(c->d, c->src, span_of(c, i), "%s", msg);
    return NULL;
}

static const kj_type *bad_arg(const mctx *c, uint32_t i, const char *what)
{
    kj_error(c->d, c->src, span_of(c, i), "%s() argument %u must be %s, not %s", c->name, i + 1, what,
             kj_type_str(ty(c, i)));
    return NULL;
}

/* An int argument (optional: absent or None is fine), converted to int64. */
static bool int_arg(const mctx *c, uint32_t i, bool opt, const char *name)
{
    if (opt && !given(c, i)) return true;
    if (!kj_is_int(ty(c, i))) {
        kj_error(c->d, c->src, span_of(c, i), "%s must be an integer", name);
        return false;
    }
    conv_arg(c, i, i64t(c));
    return true;
}

/* A real array (ints, floats; bool when `bool_ok`). */
static bool real_array(const mctx *c, uint32_t i, bool bool_ok)
{
    const kj_type *x = ty(c, i);
    if (is_arr(x) && !kj_is_complex(x->elem) && (bool_ok || x->elem->kind != KJ_T_BOOL)) return true;
    bad_arg(c, i, bool_ok ? "a real array" : "an array of numbers (not bool or complex)");
    return false;
}

static const kj_type *type_window(const mctx *c)
{
    if (!int_arg(c, 0, false, "M")) return NULL;
    if (c->id == KJ_B_NP_KAISER) {
        const kj_type *b = ty(c, 1);
        if (!kj_is_int(b) && !kj_is_float(b)) return refuse(c, 1, "beta must be an integer or float");
        conv_arg(c, 1, f64t(c));
    }
    return arr1(c, f64t(c));
}

static const kj_type *type_tri_indices(const mctx *c)
{
    bool from = c->id == KJ_B_NP_TRIL_INDICES_FROM || c->id == KJ_B_NP_TRIU_INDICES_FROM;
    if (from) {
        if (!is_arr(ty(c, 0))) return bad_arg(c, 0, "an array");
        if (ty(c, 0)->ndim != 2) return refuse(c, 0, "input array must be 2-d");
        if (!int_arg(c, 1, true, "k")) return NULL;
    } else if (!int_arg(c, 0, false, "n") || !int_arg(c, 1, true, "k") || !int_arg(c, 2, true, "m")) {
        return NULL;
    }
    const kj_type *el[2] = {arr1(c, i64t(c)), arr1(c, i64t(c))};
    return kj_t_tuple(c->t, el, 2);
}

static const kj_type *type_cross_conv(const mctx *c)
{
    bool cross = c->id == KJ_B_NP_CROSS;
    if (!real_array(c, 0, !cross) || !real_array(c, 1, !cross)) return NULL;
    const kj_type *a = ty(c, 0), *b = ty(c, 1);
    if (!cross && (a->ndim != 1 || b->ndim != 1)) {
        kj_error(c->d, c->src, span_of(c, a->ndim != 1 ? 0 : 1), "%s() only supported on 1D arrays", c->name);
        return NULL;
    }
    const kj_type *e = kj_promote(c->t, a->elem, b->elem);
    return kj_t_array(c->t, e, cross ? (a->ndim > b->ndim ? a->ndim : b->ndim) : 1, KJ_LAYOUT_C);
}

/* np.cov(m, y, rowvar, bias, ddof), np.corrcoef(x, y, rowvar). */
static const kj_type *type_cov(const mctx *c)
{
    static const char *const names[] = {"m", "y"};
    for (uint32_t i = 0; i < 2; i++) {
        if (i == 1 && !given(c, 1)) break;
        if (!real_array(c, i, true)) return NULL;
        if (ty(c, i)->ndim > 2) {
            kj_error(c->d, c->src, span_of(c, i), "%s has more than 2 dimensions", names[i]);
            return NULL;
        }
    }
    for (uint32_t i = 2; i < 4 && i < c->nargs; i++)
        if (given(c, i) && ty(c, i)->kind != KJ_T_BOOL) return bad_arg(c, i, "a bool");
    if (given(c, 4)) {
        const kj_type *dd = ty(c, 4);
        if (!kj_is_int(dd) && !kj_is_float(dd) && dd->kind != KJ_T_BOOL)
            return refuse(c, 4, "ddof must be a real numerical scalar type");
        conv_arg(c, 4, f64t(c));
    }
    if (ty(c, 0)->ndim == 1 && !given(c, 1)) return f64t(c); /* one variable */
    return kj_t_array(c->t, f64t(c), 2, KJ_LAYOUT_C);
}

/* The elementwise ones: an array gives an array of its shape, a scalar a scalar. */
static const kj_type *type_elementwise(const mctx *c)
{
    const kj_type *x = ty(c, 0), *e = is_arr(x) ? x->elem : x;
    if (!is_arr(x) && !kj_is_scalar(x)) return bad_arg(c, 0, "an array or a number");
    const kj_type *r = kj_t_bool(c->t);
    if (c->id == KJ_B_NP_SINC) {
        if (!kj_is_float(e)) return bad_arg(c, 0, "a float or an array of floats");
        r = is_arr(x) ? e : kj_strong(c->t, e);
    } else if ((c->id == KJ_B_NP_ISPOSINF || c->id == KJ_B_NP_ISNEGINF) && kj_is_complex(e)) {
        return bad_arg(c, 0, "a real number or a real array");
    }
    if (!is_arr(x)) conv_arg(c, 0, kj_strong(c->t, x));
    return is_arr(x) ? kj_t_array(c->t, r, x->ndim, KJ_LAYOUT_C) : r;
}

static const kj_type *type_asfarray(const mctx *c)
{
    const kj_type *x = ty(c, 0), *e = f64t(c);
    if (!is_arr(x)) return bad_arg(c, 0, "an array");
    if (c->id == KJ_B_NP_ASARRAY_CHKFINITE) return x; /* the array itself */
    if (given(c, 1)) {
        if (ty(c, 1)->kind != KJ_T_DTYPE) return bad_arg(c, 1, "a dtype such as np.float32");
        if (kj_is_float(ty(c, 1)->elem) || kj_is_complex(ty(c, 1)->elem)) e = ty(c, 1)->elem;
    }
    return e == x->elem ? x : kj_t_array(c->t, e, x->ndim, KJ_LAYOUT_C);
}

/* np.finfo(dtype) / np.iinfo(int_type): a namedtuple of the machine limits
 * Numba's finfo/iinfo give (llvm_npother.c fills in the constants); the
 * argument a dtype or a number (its type). The classes are
 * constant: the namedtuple code only reads them. */
static const char *const FINFO_FIELDS[KJ_FINFO_NFIELDS] = {
    "bits", "eps", "epsneg", "max", "min", "tiny", "smallest_normal", "resolution",
    "precision", "nmant", "nexp", "maxexp", "minexp", "machep", "negep", "iexp"};
static const char *const IINFO_FIELDS[3] = {"bits", "min", "max"};
static const kj_ntclass FINFO = {"finfo", (const char **)FINFO_FIELDS, KJ_FINFO_NFIELDS, false};
static const kj_ntclass IINFO = {"iinfo", (const char **)IINFO_FIELDS, 3, false};

static const kj_type *type_info(const mctx *c)
{
    const kj_type *x = ty(c, 0);
    const kj_type *e = !x ? NULL : x->kind == KJ_T_DTYPE ? x->elem : kj_is_scalar(x) ? kj_strong(c->t, x) : NULL;
    if (!e) return bad_arg(c, 0, "a dtype such as np.float32 or a number");
    const kj_type *el[KJ_FINFO_NFIELDS];
    if (c->id == KJ_B_NP_IINFO) {
        if (!kj_is_int(e)) {
            char kind = kj_is_complex(e) ? 'c' : kj_is_float(e) ? 'f' : 'b'; /* NumPy's dtype.kind */
            kj_error(c->d, c->src, span_of(c, 0), "Invalid integer data type '%c'.", kind);
            return NULL;
        }
        el[0] = i64t(c), el[1] = el[2] = e;
        return kj_t_namedtuple(c->t, &IINFO, el);
    }
    if (kj_is_complex(e)) e = kj_complex_part(c->t, e);
    if (!kj_is_float(e) || e->bits < 32) {
        kj_error(c->d, c->src, span_of(c, 0), "data type %s not inexact (kjit's np.finfo: float32, float64 and complex)",
                 kj_type_str(e));
        return NULL;
    }
    for (int k = 0; k < KJ_FINFO_NFIELDS; k++) el[k] = k >= 1 && k <= 7 ? e : i64t(c);
    return kj_t_namedtuple(c->t, &FINFO, el);
}

/* np.select(condlist, choicelist, default=0): tuples (or list displays)
 * of bool arrays and of arrays of the same number of dimensions; Numba's
 * TypingError texts. The result: choicelist[0]'s shape, the dtype NumPy
 * promotes the choices and the default to. */
static const kj_type *type_select(const mctx *c)
{
    const kj_type *cl = ty(c, 0), *ch = ty(c, 1);
    if (!cl || cl->kind != KJ_T_TUPLE) return refuse(c, 0, "condlist must be a List or a Tuple");
    if (!ch || ch->kind != KJ_T_TUPLE) return refuse(c, 1, "choicelist must be a List or a Tuple");
    if (cl->n != ch->n || !cl->n) return refuse(c, 1, "list of cases must be same length as list of conditions");
    const kj_type *e = NULL;
    for (uint32_t k = 0; k < cl->n; k++) {
        const kj_type *ck = cl->elems[k], *xk = ch->elems[k];
        if (!is_arr(ck)) return refuse(c, 0, "items of condlist must be arrays");
        if (!is_arr(xk)) return refuse(c, 1, "items of choicelist must be arrays");
        if (ck->elem->kind != KJ_T_BOOL) return refuse(c, 0, "condlist arrays must contain booleans");
        if (ck->ndim != xk->ndim || xk->ndim != ch->elems[0]->ndim)
            return refuse(c, 1, "condlist and choicelist elements must have the same number of dimensions");
        if (kj_is_complex(xk->elem)) return bad_arg(c, 1, "arrays of real numbers (kjit's np.select)");
        e = e ? kj_promote(c->t, e, xk->elem) : xk->elem;
    }
    if (given(c, 2)) {
        const kj_type *d = ty(c, 2);
        if (!kj_is_scalar(d) || kj_is_complex(d)) return refuse(c, 2, "default must be a scalar (number or boolean)");
        e = kj_promote(c->t, e, d);
        conv_arg(c, 2, kj_strong(c->t, d));
    }
    return kj_t_array(c->t, e, ch->elems[0]->ndim, KJ_LAYOUT_C);
}

const kj_type *kj_builtin_type_npother(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs,
                                       kj_span call_span, const kj_source *src, kj_diags *d, const kj_type **conv)
{
    mctx c = {.t = t, .id = id, .name = kj_builtin_get(id)->path, .args = args, .nargs = nargs,
              .call = call_span, .src = src, .d = d, .conv = conv};
    if (conv)
        for (uint32_t i = 0; i < nargs; i++) conv[i] = NULL;
    switch (id) {
    case KJ_B_NP_BARTLETT: case KJ_B_NP_BLACKMAN: case KJ_B_NP_HAMMING: case KJ_B_NP_HANNING: case KJ_B_NP_KAISER:
        return type_window(&c);
    case KJ_B_NP_TRIL_INDICES: case KJ_B_NP_TRIU_INDICES: case KJ_B_NP_TRIL_INDICES_FROM:
    case KJ_B_NP_TRIU_INDICES_FROM:
        return type_tri_indices(&c);
    case KJ_B_NP_CROSS: case KJ_B_NP_CONVOLVE: case KJ_B_NP_CORRELATE: return type_cross_conv(&c);
    case KJ_B_NP_COV: case KJ_B_NP_CORRCOEF: return type_cov(&c);
    case KJ_B_NP_SINC: case KJ_B_NP_ISPOSINF: case KJ_B_NP_ISNEGINF: case KJ_B_NP_ISCOMPLEX: case KJ_B_NP_ISREAL:
        return type_elementwise(&c);
    case KJ_B_NP_ASARRAY_CHKFINITE: case KJ_B_NP_ASFARRAY: return type_asfarray(&c);
    case KJ_B_NP_FINFO: case KJ_B_NP_IINFO: return type_info(&c);
    case KJ_B_NP_SELECT: return type_select(&c);
    case KJ_B_NP_SHAPE: { /* an array's shape, a scalar's () */
        const kj_type *x = ty(&c, 0), *el[8];
        if (!is_arr(x) && !kj_is_scalar(x)) return bad_arg(&c, 0, "an array or a number");
        int nd = is_arr(x) ? x->ndim : 0;
        for (int k = 0; k < nd; k++) el[k] = i64t(&c);
        return kj_t_tuple(t, el, (uint32_t)nd);
    }
    case KJ_B_NP_ISCOMPLEXOBJ: case KJ_B_NP_ISREALOBJ: case KJ_B_NP_ISSCALAR:
        if (nargs < 1 || !args[0].type) return bad_arg(&c, 0, "given");
        return kj_t_bool(t); /* a constant of the argument's type (llvm_npother.c) */
    default: kj_error(d, src, call_span, "internal error: no typing rule for %s()", c.name); return NULL;
    }
}
