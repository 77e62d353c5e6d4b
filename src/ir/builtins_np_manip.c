/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of NumPy's array creation from sequences and of joining and
 * flipping arrays (issue 25): np.array/asarray/ascontiguousarray,
 * np.concatenate/stack/hstack/vstack/dstack/column_stack, np.flip/fliplr/
 * flipud. builtins.c's dispatch sends these ids here (kj_type_np_manip).
 *
 * np.array of a tuple or of a list display written in the call (a list
 * display there is typed as a tuple, infer_call.c) takes NumPy's shape from
 * the nesting and the dtype from the leaves: each leaf's strong type (a
 * Python int is int64, a Python float float64, as NumPy's array coercion
 * treats them), promoted together; dtype= overrides. The argument converts
 * to the same nesting of the result dtype, so codegen stores the leaves as
 * they are (llvm_np_manip.c). */
#include "builtins_mctx.h"

#include <stdio.h>
#include <string.h>

enum { MAX_ND = 4 };

static bool is_array(const kj_type *x) { return x && x->kind == KJ_T_ARRAY; }

static const kj_type *arr(const mctx *c, const kj_type *e, int nd, kj_layout l)
{
    return kj_t_array(c->t, e, nd, l);
}

static const kj_type *fail(const mctx *c, uint32_t i, const char *fmt, const char *what)
{
    kj_error(c->d, c->src, span_of(c, i), fmt, c->name, what, kj_type_str(ty(c, i)));
    return NULL;
}

/* dtype=: the scalar it names into *out (left alone when absent); false after an error. */
static bool dtype_arg(const mctx *c, uint32_t i, const kj_type **out)
{
    if (!given(c, i)) return true;
    const kj_type *x = ty(c, i);
    if (x->kind != KJ_T_DTYPE) {
        fail(c, i, "%s() argument '%s' must be a dtype such as np.float32, not %s", "dtype");
        return false;
    }
    *out = x->elem;
    return true;
}

/* axis=: an int (converted to int64), checked against [-n, n) when it is a
 * constant (NumPy's AxisError text); a variable is checked at run time. */
static bool axis_arg(const mctx *c, uint32_t i, int n)
{
    if (!given(c, i)) return true;
    const kj_type *x = ty(c, i);
    if (!kj_is_int(x)) {
        fail(c, i, "%s() argument '%s' must be an integer, not %s", "axis");
        return false;
    }
    const kj_barg *a = &c->args[i];
    if (a->is_const && (a->ival < -n || a->ival >= n)) {
        kj_error(c->d, c->src, a->span, "axis %lld is out of bounds for array of dimension %d", (long long)a->ival,
                 n);
        return false;
    }
    if (c->conv) c->conv[i] = kj_t_int(c->t, 64, true);
    return true;
}

/* ---- np.array / np.asarray of sequences ---- */

typedef struct {
    int64_t shape[MAX_ND];
    int nd;         /* dimensions found so far (-1: not yet at a leaf) */
    const kj_type *leaf; /* promoted strong leaf type, NULL while none */
} seqshape;

/* NumPy's ValueError for a ragged nesting. */
static bool ragged(const mctx *c, int depth, const seqshape *s)
{
    char shp[96] = "(";
    for (int k = 0; k < depth; k++) /* Python's tuple repr: (2,) and (2, 3) */
        snprintf(shp + strlen(shp), sizeof shp - strlen(shp), "%s%lld%s", k ? ", " : "", (long long)s->shape[k],
                 depth == 1 ? "," : "");
    strcat(shp, ")");
    kj_error(c->d, c->src, span_of(c, 0),
             "setting an array element with a sequence. The requested array has an inhomogeneous shape after "
             "%d dimensions. The detected shape was %s + inhomogeneous part.",
             depth, shp);
    return false;
}

/* Walk the nesting of tuple type t at `depth`, recording the shape and the
 * promoted leaf type. */
static bool walk_seq(const mctx *c, const kj_type *t, int depth, seqshape *s)
{
    if (t->kind == KJ_T_TUPLE) {
        if (depth >= MAX_ND) {
            kj_error(c->d, c->src, span_of(c, 0), "%s() makes an array of more than %d dimensions; kjit arrays "
                     "have 1 to %d", c->name, MAX_ND, MAX_ND);
            return false;
        }
        if (s->nd >= 0 && depth >= s->nd) return ragged(c, s->nd, s);
        if (s->shape[depth] < 0) s->shape[depth] = t->n;
        if (s->shape[depth] != (int64_t)t->n) return ragged(c, depth, s);
        if (t->n == 0) {
            if (s->nd >= 0 && s->nd != depth + 1) return ragged(c, depth, s);
            s->nd = depth + 1;
        }
        for (uint32_t k = 0; k < t->n; k++)
            if (!walk_seq(c, t->elems[k], depth + 1, s)) return false;
        return true;
    }
    if (is_array(t)) {
        kj_diag *dg = kj_error(c->d, c->src, span_of(c, 0), "%s() of a sequence of arrays is not supported",
                               c->name);
        kj_diag_hint(dg, "join arrays with np.stack, np.vstack or np.concatenate");
        return false;
    }
    if (!kj_is_scalar(t) && !(kj_is_dt(t) || t->kind == KJ_T_STR)) { /* dates: of a datetime dtype, below */
        kj_error(c->d, c->src, span_of(c, 0), "%s() sequence elements must be numbers or bools, not %s", c->name,
                 kj_type_str(t));
        return false;
    }
    if (s->nd >= 0 && s->nd != depth) return ragged(c, s->nd < depth ? s->nd : depth, s);
    s->nd = depth;
    const kj_type *st = kj_strong(c->t, t);
    if ((kj_is_dt(t) || t->kind == KJ_T_STR || kj_is_dt(s->leaf) || (s->leaf && s->leaf->kind == KJ_T_STR)) &&
        s->leaf && s->leaf != st) { /* dates (strings or datetime64 values) only with their own kind */
        const kj_type *odd = kj_is_scalar(st) ? s->leaf : st;
        kj_error(c->d, c->src, span_of(c, 0), "%s() sequence elements must be numbers or bools, not %s", c->name,
                 kj_type_str(odd));
        return false;
    }
    s->leaf = s->leaf ? kj_promote(c->t, s->leaf, st) : st;
    return true;
}

/* The nesting of tuple type t with every leaf of type e. */
static const kj_type *retype(const mctx *c, const kj_type *t, const kj_type *e)
{
    if (t->kind != KJ_T_TUPLE) return e;
    const kj_type *el[64];
    if (t->n > 64) return NULL;
    for (uint32_t k = 0; k < t->n; k++)
        if (!(el[k] = retype(c, t->elems[k], e))) return NULL;
    return kj_t_tuple(c->t, el, t->n);
}

static const kj_type *type_from_seq(const mctx *c, const kj_type *elem)
{
    seqshape s = {.nd = -1};
    for (int k = 0; k < MAX_ND; k++) s.shape[k] = -1;
    if (!walk_seq(c, ty(c, 0), 0, &s)) return NULL;
    const kj_type *e = elem ? elem : s.leaf ? s.leaf : kj_t_float(c->t, 64); /* np.array([]): float64 */
    if (s.leaf && (s.leaf->kind == KJ_T_STR || kj_is_dt(s.leaf)) && (!kj_is_dt(e) || e->kind != (kj_is_dt(s.leaf) ? s.leaf->kind : KJ_T_DATETIME))) {
        kj_error(c->d, c->src, span_of(c, 0), "%s() sequence elements must be numbers or bools, not %s", c->name,
                 kj_type_str(s.leaf));
        return NULL;
    }
    const kj_type *cv = retype(c, ty(c, 0), e);
    if (!cv) {
        kj_error(c->d, c->src, span_of(c, 0), "%s() sequence is too long (at most 64 elements per level)",
                 c->name);
        return NULL;
    }
    if (c->conv && cv != ty(c, 0)) c->conv[0] = cv;
    return arr(c, e, s.nd, KJ_LAYOUT_C);
}

/* np.array(((1, 2.5), (3, 4.5)), dtype=dt) of a record dtype: a record of each tuple, its items
 * converted to the fields' types (lower_record.c builds it); a 1-d array. */
static const kj_type *type_records(const mctx *c, const kj_type *x, const kj_type *rec)
{
    const kj_recdesc *d = kj_record_of(rec);
    bool ok = x->kind == KJ_T_TUPLE;
    for (uint32_t i = 0; ok && i < x->n; i++) {
        const kj_type *row = x->elems[i];
        ok = row->kind == KJ_T_TUPLE && row->n == d->n;
        for (uint32_t k = 0; ok && k < row->n; k++) ok = kj_is_scalar(row->elems[k]);
    }
    if (ok) return arr(c, rec, 1, KJ_LAYOUT_C);
    kj_diag *dg = kj_error(c->d, c->src, span_of(c, 0), "%s() with a structured dtype of %u fields takes a list "
                           "or tuple display of tuples of %u numbers, not %s", c->name, d->n, d->n,
                           kj_type_str(x));
    kj_diag_hint(dg, "for records made at run time, fill np.zeros(n, dtype=dt) field by field");
    return NULL;
}

static const kj_type *type_asarray(const mctx *c)
{
    const kj_type *x = ty(c, 0), *elem = NULL;
    if (!dtype_arg(c, 1, &elem)) return NULL;
    if (is_array(x)) {
        const kj_type *e = elem ? elem : x->elem;
        /* np.asarray keeps the array itself (and its layout) when no cast is needed */
        bool same = c->id == KJ_B_NP_ASARRAY && e == x->elem;
        return arr(c, e, x->ndim, same ? x->layout : KJ_LAYOUT_C);
    }
    if (elem && kj_record_of(elem) && x) return type_records(c, x, elem);
    bool taken = false;
    const kj_type *sq = x ? kj_type_array_seq(c, x, elem, &taken) : NULL; /* builtins_arrseq.c */
    if (taken) return sq;
    if (x && x->kind == KJ_T_TUPLE) return type_from_seq(c, elem);
    if (x && x->kind == KJ_T_LIST && x->elem && kj_is_scalar(x->elem)) /* a list of numbers: llvm_np_manip.c */
        return arr(c, elem ? elem : x->elem, 1, KJ_LAYOUT_C);
    if (kj_is_scalar(x)) {
        kj_diag *dg = kj_error(c->d, c->src, span_of(c, 0), "%s() of a scalar makes a 0-dimensional array, which "
                               "kjit does not support", c->name);
        kj_diag_hint(dg, "use a sequence, as in %s([x])", c->name);
        return NULL;
    }
    return fail(c, 0, "%s() argument '%s' must be an array, a tuple or a list display, not %s", "object");
}

/* ---- joining ---- */

/* The sequence of arrays of concatenate/stack/...: a tuple (or a list
 * display) of arrays; each one's dimensions after the function's
 * atleast_Nd (`min_nd`; column_stack: 1-d → 2) must agree. */
static const kj_type *type_join(const mctx *c)
{
    const kj_type *s = ty(c, 0);
    if (!s || s->kind != KJ_T_TUPLE)
        return fail(c, 0, "%s() argument '%s' must be a tuple of arrays, not %s", "arrays");
    if (s->n == 0) {
        kj_error(c->d, c->src, span_of(c, 0), "need at least one array to %s",
                 c->id == KJ_B_NP_STACK ? "stack" : "concatenate");
        return NULL;
    }
    int min_nd = c->id == KJ_B_NP_VSTACK ? 2 : c->id == KJ_B_NP_DSTACK ? 3 : 1;
    const kj_type *e = NULL;
    int nd0 = 0;
    for (uint32_t k = 0; k < s->n; k++) {
        const kj_type *a = s->elems[k];
        if (!is_array(a)) {
            kj_error(c->d, c->src, span_of(c, 0), "%s() takes a sequence of arrays; element %u is %s", c->name, k,
                     kj_type_str(a));
            return NULL;
        }
        int nd = a->ndim < min_nd ? min_nd : a->ndim;
        if (c->id == KJ_B_NP_COLUMN_STACK && nd == 1) nd = 2;
        if (k && nd != nd0) {
            if (c->id == KJ_B_NP_STACK)
                kj_error(c->d, c->src, span_of(c, 0), "all input arrays must have the same shape");
            else
                kj_error(c->d, c->src, span_of(c, 0), "all the input arrays must have same number of dimensions, "
                         "but the array at index 0 has %d dimension(s) and the array at index %u has %d "
                         "dimension(s)", nd0, k, nd);
            return NULL;
        }
        nd0 = nd;
        e = e ? kj_promote(c->t, e, a->elem) : a->elem;
    }
    int rnd = c->id == KJ_B_NP_STACK ? nd0 + 1 : nd0;
    if (rnd > MAX_ND) {
        kj_error(c->d, c->src, c->call, "%s() makes an array of %d dimensions; kjit arrays have 1 to %d", c->name,
                 rnd, MAX_ND);
        return NULL;
    }
    if ((c->id == KJ_B_NP_CONCATENATE || c->id == KJ_B_NP_STACK) && !axis_arg(c, 1, rnd)) return NULL;
    return arr(c, e, rnd, KJ_LAYOUT_C);
}

/* ---- flipping: views with reversed strides ---- */

static const kj_type *type_flip(const mctx *c)
{
    const kj_type *a = ty(c, 0);
    if (!is_array(a)) return fail(c, 0, "%s() argument '%s' must be an array, not %s", "m");
    if (c->id == KJ_B_NP_FLIPLR && a->ndim < 2) {
        kj_error(c->d, c->src, span_of(c, 0), "Input must be >= 2-d.");
        return NULL;
    }
    if (c->id == KJ_B_NP_FLIP && !axis_arg(c, 1, a->ndim)) return NULL;
    return arr(c, a->elem, a->ndim, KJ_LAYOUT_A); /* negative strides */
}

/* ---- nonzero, repeat, eye ---- */

static const kj_type *i64t(const mctx *c) { return kj_t_int(c->t, 64, true); }

/* np.nonzero(a), a.nonzero(), np.where(a): a tuple of a.ndim int64 arrays;
 * np.flatnonzero: one; np.argwhere: a (count, ndim) array. */
static const kj_type *type_nonzero(const mctx *c)
{
    const kj_type *a = ty(c, 0);
    if (!is_array(a)) return fail(c, 0, "%s() argument '%s' must be an array, not %s", "a");
    const kj_type *v = arr(c, i64t(c), 1, KJ_LAYOUT_C);
    if (c->id == KJ_B_NP_FLATNONZERO) return v;
    if (c->id == KJ_B_NP_ARGWHERE) return arr(c, i64t(c), 2, KJ_LAYOUT_C);
    const kj_type *el[MAX_ND] = {v, v, v, v};
    return kj_t_tuple(c->t, el, (uint32_t)a->ndim);
}

/* An int argument (converted to int64); `opt`: may be absent. */
static bool int_arg(const mctx *c, uint32_t i, const char *name, bool opt)
{
    if (opt && !given(c, i)) return true;
    if (!kj_is_int(ty(c, i))) {
        fail(c, i, "%s() argument '%s' must be an integer, not %s", name);
        return false;
    }
    if (c->conv && ty(c, i) != i64t(c)) c->conv[i] = i64t(c);
    return true;
}

static const kj_type *type_repeat(const mctx *c)
{
    const kj_type *a = ty(c, 0), *r = ty(c, 1);
    if (!is_array(a)) return fail(c, 0, "%s() argument '%s' must be an array, not %s", "a");
    if (is_array(r)) {
        if (r->ndim != 1 || !kj_is_int(r->elem))
            return fail(c, 1, "%s() argument '%s' must be an int or a 1-d array of ints, not %s", "repeats");
    } else if (!int_arg(c, 1, "repeats", false)) {
        return NULL;
    }
    if (!given(c, 2)) return arr(c, a->elem, 1, KJ_LAYOUT_C);
    return axis_arg(c, 2, a->ndim) ? arr(c, a->elem, a->ndim, KJ_LAYOUT_C) : NULL;
}

static const kj_type *type_eye(const mctx *c)
{
    const kj_type *e = kj_t_float(c->t, 64);
    bool eye = c->id == KJ_B_NP_EYE;
    uint32_t dt = eye ? 3 : 1;
    if (!int_arg(c, 0, eye ? "N" : "n", false) || (eye && (!int_arg(c, 1, "M", true) || !int_arg(c, 2, "k", true))) ||
        !dtype_arg(c, dt, &e))
        return NULL;
    return arr(c, e, 2, KJ_LAYOUT_C);
}

/* ---- views that move, add or repeat dimensions ---- */

/* A constant axis checked against [-n, n) as NumPy checks it ("source: "
 * before moveaxis's); a variable one is converted and checked at run time. */
static bool axis_named(const mctx *c, uint32_t i, int n, const char *what, const char *param)
{
    if (!int_arg(c, i, param, false)) return false;
    const kj_barg *a = &c->args[i];
    if (a->is_const && (a->ival < -n || a->ival >= n)) {
        kj_error(c->d, c->src, a->span, "%saxis %lld is out of bounds for array of dimension %d", what,
                 (long long)a->ival, n);
        return false;
    }
    return true;
}

/* broadcast_to's shape: an int or a tuple of ints (converted to int64s). */
static int shape_arg(const mctx *c, uint32_t i)
{
    const kj_type *s = ty(c, i);
    if (kj_is_int(s)) return int_arg(c, i, "shape", false) ? 1 : 0;
    bool ok = s && s->kind == KJ_T_TUPLE && s->n >= 1 && s->n <= MAX_ND;
    for (uint32_t k = 0; ok && k < s->n; k++) ok = kj_is_int(s->elems[k]);
    if (!ok) {
        fail(c, i, "%s() argument '%s' must be an int or a tuple of 1 to 4 ints, not %s", "shape");
        return 0;
    }
    const kj_type *el[MAX_ND] = {i64t(c), i64t(c), i64t(c), i64t(c)};
    if (c->conv) c->conv[i] = kj_t_tuple(c->t, el, s->n);
    return (int)s->n;
}

static const kj_type *type_restride(const mctx *c)
{
    const kj_type *a = ty(c, 0);
    if (!is_array(a)) return fail(c, 0, "%s() argument '%s' must be an array, not %s", "a");
    int nd = a->ndim, rnd = nd;
    switch (c->id) {
    case KJ_B_NP_EXPAND_DIMS:
        if (!axis_named(c, 1, nd + 1, "", "axis")) return NULL;
        rnd = nd + 1;
        break;
    case KJ_B_NP_SWAPAXES: case KJ_B_ARR_SWAPAXES:
        if (!axis_named(c, 1, nd, "axis1: ", "axis1") || !axis_named(c, 2, nd, "axis2: ", "axis2")) return NULL;
        break;
    case KJ_B_NP_MOVEAXIS:
        if (!axis_named(c, 1, nd, "source: ", "source") || !axis_named(c, 2, nd, "destination: ", "destination"))
            return NULL;
        break;
    case KJ_B_NP_ATLEAST_1D: case KJ_B_NP_ATLEAST_2D: case KJ_B_NP_ATLEAST_3D: {
        int n = 1 + (int)(c->id - KJ_B_NP_ATLEAST_1D);
        rnd = nd < n ? n : nd;
        break;
    }
    default: /* broadcast_to */
        if (!(rnd = shape_arg(c, 1))) return NULL;
        if (rnd < nd) {
            kj_error(c->d, c->src, span_of(c, 1), "input operand has more dimensions than allowed by the axis "
                     "remapping");
            return NULL;
        }
    }
    if (rnd > MAX_ND) {
        kj_error(c->d, c->src, c->call, "%s() makes an array of %d dimensions; kjit arrays have 1 to %d", c->name,
                 rnd, MAX_ND);
        return NULL;
    }
    return arr(c, a->elem, rnd, rnd == nd && c->id >= KJ_B_NP_ATLEAST_1D && c->id <= KJ_B_NP_ATLEAST_3D ? a->layout
                                                                                                       : KJ_LAYOUT_A);
}

/* np.transpose(a, axes), a.transpose(axes), a.transpose(*axes): axes a
 * tuple of a.ndim ints or a.ndim int arguments (each converted to int64);
 * a repeated axis is found at run time. */
static const kj_type *type_transpose_axes(const mctx *c)
{
    const kj_type *a = ty(c, 0), *x = ty(c, 1);
    uint32_t n = x->kind == KJ_T_TUPLE && c->nargs == 2 ? x->n : c->nargs - 1;
    if (n != (uint32_t)a->ndim) {
        kj_error(c->d, c->src, span_of(c, 1), "axes don't match array");
        return NULL;
    }
    if (x->kind == KJ_T_TUPLE) {
        for (uint32_t k = 0; k < n; k++)
            if (!kj_is_int(x->elems[k])) return fail(c, 1, "%s() argument '%s' must be a tuple of ints, not %s", "axes");
        const kj_type *el[MAX_ND] = {i64t(c), i64t(c), i64t(c), i64t(c)};
        if (c->conv) c->conv[1] = kj_t_tuple(c->t, el, n);
    } else {
        for (uint32_t k = 1; k <= n; k++)
            if (!int_arg(c, k, "axes", false)) return NULL;
    }
    return arr(c, a->elem, a->ndim, KJ_LAYOUT_A);
}

const kj_type *kj_type_np_manip(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs, kj_span call,
                                const kj_source *src, kj_diags *d, const kj_type **conv)
{
    mctx c = {.t = t, .id = id, .name = kj_builtin_get(id)->path, .args = args, .nargs = nargs, .call = call,
              .src = src, .d = d, .conv = conv};
    switch (id) {
    case KJ_B_NP_ARRAY: case KJ_B_NP_ASARRAY: case KJ_B_NP_ASCONTIGUOUSARRAY: return type_asarray(&c);
    case KJ_B_NP_CONCATENATE: case KJ_B_NP_STACK: case KJ_B_NP_HSTACK: case KJ_B_NP_VSTACK:
    case KJ_B_NP_DSTACK: case KJ_B_NP_COLUMN_STACK: return type_join(&c);
    case KJ_B_NP_FLIP: case KJ_B_NP_FLIPLR: case KJ_B_NP_FLIPUD: return type_flip(&c);
    case KJ_B_NP_NONZERO: case KJ_B_ARR_NONZERO: case KJ_B_NP_FLATNONZERO: case KJ_B_NP_ARGWHERE:
        return type_nonzero(&c);
    case KJ_B_NP_REPEAT: case KJ_B_ARR_REPEAT: return type_repeat(&c);
    case KJ_B_NP_EYE: case KJ_B_NP_IDENTITY: return type_eye(&c);
    case KJ_B_NP_EXPAND_DIMS: case KJ_B_NP_SWAPAXES: case KJ_B_ARR_SWAPAXES: case KJ_B_NP_MOVEAXIS:
    case KJ_B_NP_ATLEAST_1D: case KJ_B_NP_ATLEAST_2D: case KJ_B_NP_ATLEAST_3D: case KJ_B_NP_BROADCAST_TO:
        return type_restride(&c);
    case KJ_B_ARR_TRANSPOSE: case KJ_B_NP_TRANSPOSE: return type_transpose_axes(&c);
    default:
        kj_error(d, src, call, "internal error: no typing rule for %s()", c.name);
        return NULL;
    }
}
