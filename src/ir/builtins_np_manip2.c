/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of more of NumPy's creation and manipulation (issue 25): np.roll,
 * np.tril/triu/tri, np.diag, np.vander, np.take (and a.take), np.extract,
 * np.delete, np.append, np.fill_diagonal, np.split/array_split (a list of
 * views), np.tile, np.rot90 (a view), with the arguments Numba takes.
 * builtins.c's dispatch sends these ids here (KJ_B_NP_MANIP2_CASES); each
 * is one kj_rt_manip2 (or kj_rt_split) call (llvm_np_manip2.c, array_manip2.c). Integer
 * arguments convert to int64 and scalars to their strong type, so the
 * runtime reads them as they are. */
#include "builtins_mctx.h"

static const kj_type *i64t(const mctx *c) { return kj_t_int(c->t, 64, true); }

static const kj_type *arr(const mctx *c, const kj_type *e, int nd) { return kj_t_array(c->t, e, nd, KJ_LAYOUT_C); }

static const kj_type *fail(const mctx *c, uint32_t i, const char *what)
{
    kj_error(c->d, c->src, span_of(c, i), "%s() argument %u must be %s, not %s", c->name, i + 1, what,
             kj_type_str(ty(c, i)));
    return NULL;
}

/* Argument i an array (of `nd` dimensions when nd > 0). */
static const kj_type *array_arg(const mctx *c, uint32_t i, int nd)
{
    const kj_type *x = ty(c, i);
    if (!x || x->kind != KJ_T_ARRAY) return fail(c, i, "an array");
    if (nd && x->ndim != nd) return fail(c, i, nd == 1 ? "a 1-d array" : "a 2-d array");
    return x;
}

/* An int (bool too, where NumPy takes one) argument, converted to int64;
 * `opt`: it may be absent or None. */
static bool int_arg(const mctx *c, uint32_t i, bool opt, bool or_bool)
{
    if (opt && !given(c, i)) return true;
    const kj_type *x = ty(c, i);
    if (!kj_is_int(x) && !(or_bool && x && x->kind == KJ_T_BOOL)) {
        fail(c, i, or_bool ? "a bool" : "an integer");
        return false;
    }
    if (c->conv && x != i64t(c)) c->conv[i] = i64t(c);
    return true;
}

/* An int array argument (indices). */
static bool index_array(const mctx *c, uint32_t i)
{
    const kj_type *x = ty(c, i);
    if (x && x->kind == KJ_T_ARRAY && kj_is_int(x->elem)) return true;
    fail(c, i, "an array of integers");
    return false;
}

/* A real (not complex) scalar argument, converted to its strong type so
 * that the runtime reads it in memory. */
static bool real_scalar(const mctx *c, uint32_t i)
{
    const kj_type *x = ty(c, i);
    if (!kj_is_scalar(x) || kj_is_complex(x)) {
        fail(c, i, "a real number or a bool");
        return false;
    }
    const kj_type *s = kj_strong(c->t, x);
    if (c->conv && s != x) c->conv[i] = s;
    return true;
}

static const kj_type *type_tri(const mctx *c)
{
    if (!int_arg(c, 0, false, false) || !int_arg(c, 1, true, false) || !int_arg(c, 2, true, false)) return NULL;
    const kj_type *e = kj_t_float(c->t, 64);
    if (given(c, 3)) {
        if (ty(c, 3)->kind != KJ_T_DTYPE) return fail(c, 3, "a dtype such as np.float32");
        e = ty(c, 3)->elem;
    }
    return arr(c, e, 2);
}

static const kj_type *type_diag(const mctx *c)
{
    const kj_type *a = array_arg(c, 0, 0);
    if (!a || !int_arg(c, 1, true, false)) return NULL;
    if (a->ndim > 2) {
        kj_error(c->d, c->src, span_of(c, 0), "Input must be 1- or 2-d.");
        return NULL;
    }
    return arr(c, a->elem, a->ndim == 1 ? 2 : 1);
}

/* np.vander's dtype is NumPy's promote_types(x.dtype, int). */
static const kj_type *type_vander(const mctx *c)
{
    const kj_type *a = ty(c, 0);
    if (!a || a->kind != KJ_T_ARRAY || a->ndim != 1) {
        kj_error(c->d, c->src, span_of(c, 0), "x must be a one-dimensional array or sequence.");
        return NULL;
    }
    if (kj_is_complex(a->elem)) return fail(c, 0, "a real array (kjit's np.vander)");
    if (!int_arg(c, 1, true, false) || !int_arg(c, 2, true, true)) return NULL;
    return arr(c, kj_promote(c->t, a->elem, i64t(c)), 2);
}

/* np.append(arr, values): values an array or a scalar, both flattened. */
static const kj_type *type_append(const mctx *c)
{
    const kj_type *a = array_arg(c, 0, 0), *v = ty(c, 1);
    if (!a) return NULL;
    if (v && v->kind == KJ_T_ARRAY) return arr(c, kj_promote(c->t, a->elem, v->elem), 1);
    if (!kj_is_scalar(v)) return fail(c, 1, "an array or a number");
    const kj_type *s = kj_strong(c->t, v);
    if (c->conv && s != v) c->conv[1] = s;
    return arr(c, kj_promote(c->t, a->elem, s), 1);
}

static const kj_type *type_fill_diagonal(const mctx *c)
{
    const kj_type *a = array_arg(c, 0, 0);
    if (!a) return NULL;
    if (a->ndim < 2) {
        kj_error(c->d, c->src, span_of(c, 0), "array must be at least 2-d");
        return NULL;
    }
    if (kj_is_complex(a->elem)) return fail(c, 0, "a real array (kjit's np.fill_diagonal)");
    return real_scalar(c, 1) ? kj_t_none(c->t) : NULL;
}

static const kj_type *type_take(const mctx *c)
{
    const kj_type *a = array_arg(c, 0, 0), *ix = ty(c, 1);
    if (!a) return NULL;
    if (kj_is_int(ix)) {
        kj_diag *dg = kj_error(c->d, c->src, span_of(c, 1), "%s() of one integer index is not supported",
                               c->name);
        kj_diag_hint(dg, "index the flattened array instead, as in a.ravel()[i]");
        return NULL;
    }
    return index_array(c, 1) ? arr(c, a->elem, ix->ndim) : NULL;
}

/* np.split/array_split(ary, indices_or_sections, axis=0): sections an int,
 * indices a tuple (or list display) of ints or a 1-d int array; a list of
 * views. A constant axis is checked here (AxisError), a variable one at run
 * time. */
static const kj_type *type_split(const mctx *c)
{
    const kj_type *a = array_arg(c, 0, 0), *ix = ty(c, 1);
    if (!a) return NULL;
    if (ix && ix->kind == KJ_T_TUPLE) {
        const kj_type *el[64];
        if (ix->n > 64) return fail(c, 1, "at most 64 indices");
        for (uint32_t k = 0; k < ix->n; k++) {
            if (!kj_is_int(ix->elems[k])) return fail(c, 1, "an int, a tuple of ints or an int array");
            el[k] = i64t(c);
        }
        if (c->conv) c->conv[1] = kj_t_tuple(c->t, el, ix->n);
    } else if (kj_is_int(ix)) {
        if (!int_arg(c, 1, false, false)) return NULL;
    } else if (!(ix && ix->kind == KJ_T_ARRAY && ix->ndim == 1 && kj_is_int(ix->elem))) {
        return fail(c, 1, "an int, a tuple of ints or a 1-d int array");
    }
    if (!int_arg(c, 2, true, false)) return NULL;
    const kj_barg *ax = c->nargs > 2 ? &c->args[2] : NULL;
    if (ax && ax->is_const && (ax->ival < -a->ndim || ax->ival >= a->ndim)) {
        kj_error(c->d, c->src, ax->span, "axis %lld is out of bounds for array of dimension %d", (long long)ax->ival,
                 a->ndim);
        return NULL;
    }
    return kj_t_list(c->t, kj_t_array(c->t, a->elem, a->ndim, KJ_LAYOUT_A));
}

/* A tuple of 1..max ints (converted to int64s); its length, 0 after an error. */
static int int_tuple(const mctx *c, uint32_t i, uint32_t max, const char *what)
{
    const kj_type *x = ty(c, i);
    bool ok = x && x->kind == KJ_T_TUPLE && x->n >= 1 && x->n <= max;
    for (uint32_t k = 0; ok && k < x->n; k++) ok = kj_is_int(x->elems[k]);
    if (!ok) {
        fail(c, i, what);
        return 0;
    }
    const kj_type *el[4] = {i64t(c), i64t(c), i64t(c), i64t(c)};
    if (c->conv) c->conv[i] = kj_t_tuple(c->t, el, x->n);
    return (int)x->n;
}

static const kj_type *type_tile(const mctx *c)
{
    const kj_type *a = array_arg(c, 0, 0);
    if (!a) return NULL;
    int n = kj_is_int(ty(c, 1)) ? (int_arg(c, 1, false, false) ? 1 : 0)
                                : int_tuple(c, 1, 4, "an int or a tuple of 1 to 4 ints");
    if (!n) return NULL;
    int nd = n > a->ndim ? n : a->ndim;
    if (nd > 4) {
        kj_error(c->d, c->src, c->call, "%s() makes an array of %d dimensions; kjit arrays have 1 to 4", c->name, nd);
        return NULL;
    }
    return arr(c, a->elem, nd);
}

static const kj_type *type_rot90(const mctx *c)
{
    const kj_type *a = array_arg(c, 0, 0);
    if (!a || !int_arg(c, 1, true, false)) return NULL;
    if (given(c, 2) && int_tuple(c, 2, 2, "a tuple of 2 ints") != 2) {
        kj_error(c->d, c->src, span_of(c, 2), "len(axes) must be 2.");
        return NULL;
    }
    if (!given(c, 2) && a->ndim < 2) {
        kj_error(c->d, c->src, span_of(c, 0), "Axes=(0, 1) out of range for array of ndim=%d.", a->ndim);
        return NULL;
    }
    return kj_t_array(c->t, a->elem, a->ndim, KJ_LAYOUT_A);
}

const kj_type *kj_type_np_manip2(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs, kj_span call,
                                 const kj_source *src, kj_diags *d, const kj_type **conv)
{
    mctx c = {.t = t, .id = id, .name = kj_builtin_get(id)->path, .args = args, .nargs = nargs, .call = call,
               .src = src, .d = d, .conv = conv};
    const kj_type *a;
    switch (id) {
    case KJ_B_NP_ROLL:
        if (!(a = array_arg(&c, 0, 0)) || !int_arg(&c, 1, false, false)) return NULL;
        return arr(&c, a->elem, a->ndim);
    case KJ_B_NP_TRIL: case KJ_B_NP_TRIU:
        if (!(a = array_arg(&c, 0, 0)) || !int_arg(&c, 1, true, false)) return NULL;
        return arr(&c, a->elem, a->ndim < 2 ? 2 : a->ndim);
    case KJ_B_NP_TRI: return type_tri(&c);
    case KJ_B_NP_DIAG: return type_diag(&c);
    case KJ_B_NP_VANDER: return type_vander(&c);
    case KJ_B_NP_TAKE: case KJ_B_ARR_TAKE: return type_take(&c);
    case KJ_B_NP_EXTRACT:
        if (!array_arg(&c, 0, 0) || !(a = array_arg(&c, 1, 0))) return NULL;
        return arr(&c, a->elem, 1);
    case KJ_B_NP_DELETE:
        if (!(a = array_arg(&c, 0, 0))) return NULL;
        if (kj_is_int(ty(&c, 1))) return int_arg(&c, 1, false, false) ? arr(&c, a->elem, 1) : NULL;
        return index_array(&c, 1) ? arr(&c, a->elem, 1) : NULL;
    case KJ_B_NP_APPEND: return type_append(&c);
    case KJ_B_NP_FILL_DIAGONAL: return type_fill_diagonal(&c);
    case KJ_B_NP_SPLIT: case KJ_B_NP_ARRAY_SPLIT: return type_split(&c);
    case KJ_B_NP_TILE: return type_tile(&c);
    case KJ_B_NP_ROT90: return type_rot90(&c);
    default:
        kj_error(d, src, call, "internal error: no typing rule for %s()", c.name);
        return NULL;
    }
}
