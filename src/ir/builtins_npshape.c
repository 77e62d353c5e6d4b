/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of KJ_BUILTINS_NPSHAPE (builtins_npshape.h) with the arguments
 * Numba documents (numpysupported.rst) and its errors where it refuses.
 * Integer arguments convert to int64 and real scalars to float64, so that
 * llvm_npshape.c passes them as they are. The methods that are NumPy
 * functions of their receiver (a.clip, a.dot, a.ptp) take those functions'
 * rules. */
#include "builtins_mctx.h"

static const kj_type *i64t(const mctx *c) { return kj_t_int(c->t, 64, true); }
static const kj_type *f64t(const mctx *c) { return kj_t_float(c->t, 64); }
static bool is_arr(const kj_type *x) { return x && x->kind == KJ_T_ARRAY; }

static const char *const FLAGS_FIELDS[3] = {"c_contiguous", "f_contiguous", "contiguous"};
static const char *const BASE_FIELD[1] = {"base"};
static const char *const SHAPE_FIELD[1] = {"shape"};
static const kj_ntclass FLAGS = {"flags", (const char **)FLAGS_FIELDS, 3, false};
static const kj_ntclass FLATITER = {"flatiter", (const char **)BASE_FIELD, 1, false};
static const kj_ntclass NDINDEX = {"ndindex", (const char **)SHAPE_FIELD, 1, false};
static const kj_ntclass NDENUMERATE = {"ndenumerate", (const char **)BASE_FIELD, 1, false};
static const kj_ntclass NDITER = {"nditer", (const char **)BASE_FIELD, 1, false};

kj_npw kj_npshape_wrapper(const kj_type *t)
{
    const kj_ntclass *c = kj_nt_class(t);
    return c == &FLAGS         ? KJ_NPW_FLAGS
           : c == &FLATITER    ? KJ_NPW_FLAT
           : c == &NDINDEX     ? KJ_NPW_NDINDEX
           : c == &NDENUMERATE ? KJ_NPW_NDENUMERATE
           : c == &NDITER      ? KJ_NPW_NDITER
                               : KJ_NPW_NONE;
}

/* The index tuple of an n-d iteration: n int64s. */
static const kj_type *index_tuple(kj_types *t, int n)
{
    const kj_type *el[KJ_NPSHAPE_MAXDIM];
    for (int k = 0; k < n; k++) el[k] = kj_t_int(t, 64, true);
    return kj_t_tuple(t, el, (uint32_t)n);
}

const kj_type *kj_npshape_iter_elem(kj_types *t, const kj_type *w)
{
    switch (kj_npshape_wrapper(w)) {
    case KJ_NPW_FLAT: case KJ_NPW_NDITER: return w->elems[0]->elem;
    case KJ_NPW_NDINDEX: return w->elems[0];
    case KJ_NPW_NDENUMERATE: {
        const kj_type *el[2] = {index_tuple(t, w->elems[0]->ndim), w->elems[0]->elem};
        return kj_t_tuple(t, el, 2);
    }
    default: return NULL;
    }
}

static const kj_type *wrap(const mctx *c, const kj_ntclass *cls, const kj_type *x)
{
    const kj_type *el[1] = {x};
    return kj_t_namedtuple(c->t, cls, el);
}

static const kj_type *bad_arg(const mctx *c, uint32_t i, const char *what)
{
    kj_error(c->d, c->src, span_of(c, i), "%s() argument %u must be %s, not %s", c->name, i + 1, what,
             kj_type_str(ty(c, i)));
    return NULL;
}

static const kj_type *array_arg(const mctx *c, uint32_t i)
{
    return is_arr(ty(c, i)) ? ty(c, i) : bad_arg(c, i, "an array");
}

static bool int_arg(const mctx *c, uint32_t i, bool opt)
{
    if (opt && !given(c, i)) return true;
    if (!kj_is_int(ty(c, i))) return bad_arg(c, i, "an integer") != NULL;
    conv_arg(c, i, i64t(c));
    return true;
}

static bool real_arg(const mctx *c, uint32_t i)
{
    const kj_type *x = ty(c, i);
    if (!kj_is_scalar(x) || kj_is_complex(x)) return bad_arg(c, i, "a real number") != NULL;
    conv_arg(c, i, f64t(c));
    return true;
}

/* A shape: an int or a tuple of 1..4 ints (all converted to int64); its
 * length, 0 after an error. */
static int shape_arg(const mctx *c, uint32_t i)
{
    const kj_type *x = ty(c, i);
    if (kj_is_int(x)) return int_arg(c, i, false) ? 1 : 0;
    bool ok = x && x->kind == KJ_T_TUPLE && x->n >= 1 && x->n <= 4;
    for (uint32_t k = 0; ok && k < x->n; k++) ok = kj_is_int(x->elems[k]);
    if (!ok) return bad_arg(c, i, "an int or a tuple of 1 to 4 ints") ? 0 : 0;
    conv_arg(c, i, index_tuple(c->t, (int)x->n));
    return (int)x->n;
}

static const kj_type *type_flags(const mctx *c)
{
    const kj_type *b = kj_t_bool(c->t), *el[3] = {b, b, b};
    return kj_t_namedtuple(c->t, &FLAGS, el);
}

/* a.real / a.imag: the parts of a complex array (views), a real array
 * itself / zeros of its type otherwise (Numba refuses other dtypes). */
static const kj_type *type_part(const mctx *c)
{
    const kj_type *a = ty(c, 0);
    if (a->elem->kind == KJ_T_BOOL) {
        kj_error(c->d, c->src, c->call, "cannot access .%s of %s: only numeric dtypes have it (Numba's rule)",
                 c->id == KJ_B_ARR_REAL ? "real" : "imag", kj_type_str(a));
        return NULL;
    }
    if (kj_is_complex(a->elem)) return kj_t_array(c->t, kj_complex_part(c->t, a->elem), a->ndim, KJ_LAYOUT_A);
    return c->id == KJ_B_ARR_REAL ? a : kj_t_array(c->t, a->elem, a->ndim, KJ_LAYOUT_C);
}

/* a.item() / a.itemset(v): Numba's forms without indices. */
static const kj_type *type_item(const mctx *c)
{
    const kj_type *a = ty(c, 0);
    uint32_t want = c->id == KJ_B_ARR_ITEM ? 1 : 2;
    if (c->nargs != want) {
        kj_diag *dg = kj_error(c->d, c->src, c->call, "%s() %s", c->name,
                               want == 1 ? "takes no arguments in Numba (the form without indices)"
                                         : "takes one argument in Numba (the value: the 1-argument form)");
        kj_diag_hint(dg, "index the array instead: a[i] or a[i] = v");
        return NULL;
    }
    if (want == 1) return a->elem;
    if (!kj_is_scalar(ty(c, 1)) || (kj_is_complex(ty(c, 1)) && !kj_is_complex(a->elem)))
        return bad_arg(c, 1, "a number");
    conv_arg(c, 1, a->elem);
    return kj_t_none(c->t);
}

static const kj_type *type_contains(const mctx *c)
{
    const kj_type *a = ty(c, 0), *x = ty(c, 1);
    if (!kj_is_scalar(x)) return bad_arg(c, 1, "a number");
    if (kj_is_complex(x) || kj_is_complex(a->elem)) return bad_arg(c, 1, "a real number (kjit's x in a)");
    conv_arg(c, 1, f64t(c));
    return kj_t_bool(c->t);
}

static const kj_type *type_space(const mctx *c)
{
    if (!real_arg(c, 0) || !real_arg(c, 1) || !int_arg(c, 2, true)) return NULL;
    return kj_t_array(c->t, f64t(c), 1, KJ_LAYOUT_C);
}

static const kj_type *type_indices(const mctx *c)
{
    int n = shape_arg(c, 0);
    if (!n) return NULL;
    if (n + 1 > 4) {
        kj_error(c->d, c->src, c->call, "np.indices() of %d dimensions makes a %d-d array; kjit arrays have 1 to 4",
                 n, n + 1);
        return NULL;
    }
    return kj_t_array(c->t, i64t(c), n + 1, KJ_LAYOUT_C);
}

static const kj_type *type_resize(const mctx *c)
{
    const kj_type *a = ty(c, 0);
    if (kj_is_scalar(a)) conv_arg(c, 0, kj_strong(c->t, a));
    else if (!array_arg(c, 0)) return NULL;
    int n = shape_arg(c, 1);
    return n ? kj_t_array(c->t, kj_is_scalar(a) ? kj_strong(c->t, a) : a->elem, n, KJ_LAYOUT_C) : NULL;
}

/* np.insert(arr, obj, values): obj an int or an int array, values a number
 * or an array; the result flattened (Numba's only form), arr's dtype. */
static const kj_type *type_insert(const mctx *c)
{
    const kj_type *a = array_arg(c, 0), *o = ty(c, 1), *v = ty(c, 2);
    if (!a) return NULL;
    if (kj_is_int(o)) conv_arg(c, 1, i64t(c));
    else if (!(is_arr(o) && kj_is_int(o->elem) && o->ndim == 1)) return bad_arg(c, 1, "an int or a 1-d int array");
    if (kj_is_complex(a->elem)) return bad_arg(c, 0, "a real array (kjit's np.insert)");
    if (kj_is_scalar(v) && !kj_is_complex(v)) conv_arg(c, 2, kj_strong(c->t, v));
    else if (!is_arr(v) || kj_is_complex(v->elem)) return bad_arg(c, 2, "a real number or array");
    return kj_t_array(c->t, a->elem, 1, KJ_LAYOUT_C);
}

static const kj_type *type_take_along(const mctx *c)
{
    const kj_type *a = array_arg(c, 0), *ix = ty(c, 1);
    if (!a) return NULL;
    if (!is_arr(ix) || !kj_is_int(ix->elem)) return bad_arg(c, 1, "an array of integers");
    if (c->nargs < 3 || !c->args[2].is_const || !kj_is_int(ty(c, 2))) {
        kj_error(c->d, c->src, span_of(c, 2), "axis must be a literal value");
        return NULL;
    }
    int64_t ax = c->args[2].ival;
    if (ax < -a->ndim || ax >= a->ndim) {
        kj_error(c->d, c->src, span_of(c, 2), "axis %lld is out of bounds for array of dimension %d", (long long)ax,
                 a->ndim);
        return NULL;
    }
    if (ix->ndim != a->ndim) {
        kj_error(c->d, c->src, span_of(c, 1), "`indices` and `arr` must have the same number of dimensions");
        return NULL;
    }
    conv_arg(c, 2, i64t(c));
    return kj_t_array(c->t, a->elem, a->ndim, KJ_LAYOUT_C);
}

/* np.hsplit/vsplit/dsplit(ary, sections or indices): np.split's rule on
 * axis 1 (0 for 1-d), 0 and 2, with NumPy's dimension checks. */
static const kj_type *type_xsplit(const mctx *c)
{
    const kj_type *a = array_arg(c, 0), *ix = ty(c, 1);
    if (!a) return NULL;
    int need = c->id == KJ_B_NP_HSPLIT ? 1 : c->id == KJ_B_NP_VSPLIT ? 2 : 3;
    if (a->ndim < need) {
        kj_error(c->d, c->src, span_of(c, 0), "%s only works on arrays of %d or more dimensions",
                 c->id == KJ_B_NP_HSPLIT ? "hsplit" : c->id == KJ_B_NP_VSPLIT ? "vsplit" : "dsplit", need);
        return NULL;
    }
    if (kj_is_int(ix)) conv_arg(c, 1, i64t(c));
    else if (!(is_arr(ix) && ix->ndim == 1 && kj_is_int(ix->elem))) return bad_arg(c, 1, "an int or a 1-d int array");
    return kj_t_list(c->t, kj_t_array(c->t, a->elem, a->ndim, KJ_LAYOUT_A));
}

static const kj_type *type_ndindex(const mctx *c)
{
    int n;
    if (c->nargs == 1 && ty(c, 0) && ty(c, 0)->kind == KJ_T_TUPLE) {
        if (!(n = shape_arg(c, 0))) return NULL;
    } else {
        if (c->nargs < 1 || c->nargs > 4) {
            kj_error(c->d, c->src, c->call, "np.ndindex() takes 1 to 4 dimensions or a tuple of them");
            return NULL;
        }
        for (uint32_t k = 0; k < c->nargs; k++)
            if (!int_arg(c, k, false)) return NULL;
        n = (int)c->nargs;
    }
    return wrap(c, &NDINDEX, index_tuple(c->t, n));
}

/* np.broadcast_shapes(*shapes): ints or tuples of ints; the broadcast shape
 * (a tuple of the longest length). */
static const kj_type *type_bshapes(const mctx *c)
{
    int n = 0;
    for (uint32_t k = 0; k < c->nargs; k++) {
        int m = shape_arg(c, k);
        if (!m) return NULL;
        if (m > n) n = m;
    }
    if (!c->nargs) {
        kj_error(c->d, c->src, c->call, "np.broadcast_shapes() needs at least one shape (kjit)");
        return NULL;
    }
    return index_tuple(c->t, n);
}

static const kj_type *type_barrays(const mctx *c)
{
    if (c->nargs < 1 || c->nargs > 4) {
        kj_error(c->d, c->src, c->call, "np.broadcast_arrays() takes 1 to 4 arrays (kjit)");
        return NULL;
    }
    int nd = 0;
    const kj_type *e = NULL;
    for (uint32_t k = 0; k < c->nargs; k++) {
        const kj_type *a = array_arg(c, k);
        if (!a) return NULL;
        if (e && a->elem != e) return bad_arg(c, k, "an array of the first one's dtype (a list holds one type)");
        e = a->elem;
        if (a->ndim > nd) nd = a->ndim;
    }
    return kj_t_list(c->t, kj_t_array(c->t, e, nd, KJ_LAYOUT_A));
}

static const kj_type *type_as_strided(const mctx *c)
{
    const kj_type *a = array_arg(c, 0);
    if (!a) return NULL;
    if (!given(c, 1) || !given(c, 2)) {
        kj_error(c->d, c->src, c->call, "as_strided() needs shape= and strides= (Numba's supported form)");
        return NULL;
    }
    int n = shape_arg(c, 1), m = n ? shape_arg(c, 2) : 0;
    if (!n || !m) return NULL;
    if (n != m) {
        kj_error(c->d, c->src, span_of(c, 2), "mismatch in length of strides and shape");
        return NULL;
    }
    return kj_t_array(c->t, a->elem, n, KJ_LAYOUT_A);
}

static const kj_type *type_sliding(const mctx *c)
{
    const kj_type *a = array_arg(c, 0);
    if (!a) return NULL;
    int w = shape_arg(c, 1);
    if (!w) return NULL;
    if (given(c, 2) && shape_arg(c, 2) != w) {
        kj_error(c->d, c->src, span_of(c, 2), "Must provide matching length window_shape and axis; got %d "
                 "window_shape elements", w);
        return NULL;
    }
    if (!given(c, 2) && w != a->ndim) {
        kj_error(c->d, c->src, span_of(c, 1), "Since axis is `None`, must provide window_shape for all "
                 "dimensions of `x`; got %d window_shape elements and `x.ndim` is %d.", w, a->ndim);
        return NULL;
    }
    if (a->ndim + w > 4) {
        kj_error(c->d, c->src, c->call, "sliding_window_view() makes a %d-d array; kjit arrays have 1 to 4",
                 a->ndim + w);
        return NULL;
    }
    return kj_t_array(c->t, a->elem, a->ndim + w, KJ_LAYOUT_A);
}

static const kj_type *type_rest(const mctx *c)
{
    const kj_type *a;
    switch (c->id) {
    case KJ_B_NP_ASFORTRANARRAY:
        if (!(a = array_arg(c, 0))) return NULL;
        return kj_t_array(c->t, a->elem, a->ndim, a->ndim == 1 ? KJ_LAYOUT_C : KJ_LAYOUT_F);
    case KJ_B_NP_DIAGFLAT:
        if (!(a = array_arg(c, 0)) || !int_arg(c, 1, true)) return NULL;
        return kj_t_array(c->t, a->elem, 2, KJ_LAYOUT_C);
    case KJ_B_NP_GEOMSPACE: case KJ_B_NP_LOGSPACE: return type_space(c);
    case KJ_B_NP_INDICES: return type_indices(c);
    case KJ_B_NP_RESIZE: return type_resize(c);
    case KJ_B_NP_INSERT: return type_insert(c);
    case KJ_B_NP_TAKE_ALONG_AXIS: return type_take_along(c);
    case KJ_B_NP_BROADCAST_SHAPES: return type_bshapes(c);
    case KJ_B_NP_BROADCAST_ARRAYS: return type_barrays(c);
    case KJ_B_NP_HSPLIT: case KJ_B_NP_VSPLIT: case KJ_B_NP_DSPLIT: return type_xsplit(c);
    case KJ_B_NP_NDINDEX: return type_ndindex(c);
    case KJ_B_NP_NDENUMERATE: return (a = array_arg(c, 0)) ? wrap(c, &NDENUMERATE, a) : NULL;
    case KJ_B_NP_NDITER: return (a = array_arg(c, 0)) ? wrap(c, &NDITER, a) : NULL;
    case KJ_B_NP_AS_STRIDED: return type_as_strided(c);
    case KJ_B_NP_SLIDING_WINDOW_VIEW: return type_sliding(c);
    default:
        kj_error(c->d, c->src, c->call, "internal error: no typing rule for %s()", c->name);
        return NULL;
    }
}

/* The NumPy function a method stands for (its receiver the first argument). */
static int function_of(kj_builtin id)
{
    switch (id) {
    case KJ_B_ARR_CLIP: return KJ_B_NP_CLIP;
    case KJ_B_ARR_DOT: return KJ_B_NP_DOT;
    case KJ_B_ARR_PTP: return KJ_B_NP_PTP;
    default: return -1;
    }
}

int kj_npshape_function_of(unsigned id) { return function_of((kj_builtin)id); }

const kj_type *kj_builtin_type_npshape(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs,
                                       kj_span call, const kj_source *src, kj_diags *d, const kj_type **conv)
{
    mctx c = {.t = t, .id = id, .name = kj_builtin_get(id)->path, .args = args, .nargs = nargs, .call = call,
              .src = src, .d = d, .conv = conv};
    int fn = function_of(id);
    if (fn >= 0) return kj_builtin_type(t, (kj_builtin)fn, NULL, args, nargs, call, src, d, conv);
    if (id == KJ_B_CPX_ITEM) return kj_is_scalar(ty(&c, 0)) ? kj_strong(t, ty(&c, 0)) : bad_arg(&c, 0, "a number");
    if (id >= KJ_B_ARR_FLAGS && id <= KJ_B_ARR_CONTAINS && !array_arg(&c, 0)) return NULL;
    switch (id) {
    case KJ_B_ARR_FLAGS: return type_flags(&c);
    case KJ_B_ARR_FLAT: return wrap(&c, &FLATITER, ty(&c, 0));
    case KJ_B_ARR_REAL: case KJ_B_ARR_IMAG: return type_part(&c);
    case KJ_B_ARR_CONJ: case KJ_B_ARR_CONJUGATE: return kj_t_array(t, ty(&c, 0)->elem, ty(&c, 0)->ndim, KJ_LAYOUT_C);
    case KJ_B_ARR_ITEM: case KJ_B_ARR_ITEMSET: return type_item(&c);
    case KJ_B_ARR_CONTAINS: return type_contains(&c);
    default: return type_rest(&c);
    }
}

/* print() of a wrapper: Numba cannot convert these native objects to Python
 * ones (a TypeError when it runs); kjit refuses at compile time. */
bool kj_npshape_unprintable(const kj_barg *args, uint32_t nargs, const kj_source *src, kj_diags *d)
{
    static const char *const NAMES[] = {"", "ArrayFlags", "flatiter", "ndindex", "ndenumerate", "nditer"};
    for (uint32_t k = 0; k < nargs; k++) {
        kj_npw w = kj_npshape_wrapper(args[k].type);
        if (w == KJ_NPW_NONE) continue;
        kj_diag *dg = kj_error(d, src, args[k].span, "cannot convert native %s to Python object", NAMES[w]);
        kj_diag_hint(dg, w == KJ_NPW_FLAGS ? "print its attributes: a.flags.c_contiguous, .f_contiguous, .contiguous"
                                           : "iterate over it in a for loop");
        return true;
    }
    return false;
}
