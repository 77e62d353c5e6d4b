/* SPDX-License-Identifier: BSD-2-Clause */
/* infer_iter — the iterables of a for loop beyond range() calls and tuples
 * (infer.c keeps those): arrays (over the first axis: an element of a 1-d
 * array, a view of the rest of an n-d one), range objects held in
 * variables, and enumerate(x, start=), zip(a, b, ...) and reversed(seq) of
 * any iterable, nested (reversed: of a sequence, not of an enumerate, zip
 * or set, as in Python). Numba's reference/pysupported.rst ("Built-in functions":
 * enumerate, zip, range) and numpysupported.rst ("iteration over arrays").
 * enumerate and zip are typed here only as the iterable of a for loop;
 * lower_iter.c lowers the same shapes to one counted loop. */
#include "sema_int.h"
#include "builtins.h"

/* enumerate, zip or reversed, when `e` is a call of one of them; else -1. */
int kj_iter_call(kj_ictx *ic, const kj_expr *e)
{
    if (e->kind != KJ_E_CALL) return -1;
    kj_einfo *f = kj_type_expr(ic, e->call.fn);
    if (f->kind != EI_BUILTIN || (f->builtin != KJ_B_ENUMERATE && f->builtin != KJ_B_ZIP && f->builtin != KJ_B_REVERSED))
        return -1;
    return f->builtin;
}

/* The type of one step over an array: its element, or the view a[i]. */
const kj_type *kj_iter_array_elem(kj_types *T, const kj_type *at)
{
    if (at->ndim == 1) return at->elem;
    return kj_t_array(T, at->elem, at->ndim - 1, at->layout == KJ_LAYOUT_C ? KJ_LAYOUT_C : KJ_LAYOUT_A);
}

static const kj_type *iter_elem(kj_ictx *ic, const kj_expr *it);

/* A tuple iterated: its elements' one type (arrays of one element type and
 * ndim unify across layouts). */
static const kj_type *tuple_elem(kj_ictx *ic, const kj_expr *it, const kj_type *tt)
{
    const kj_type *et = tt->n > 0 ? kj_strong(ic->s->types, tt->elems[0]) : NULL;
    for (uint32_t k = 1; k < tt->n && et; k++)
        et = kj_unify(ic->s->types, et, kj_strong(ic->s->types, tt->elems[k]));
    if (!et)
        kj_error(ic->d, ic->s->src, it->span, "cannot iterate over %s: its elements have different types",
                 kj_type_str(tt));
    return et;
}

static const kj_type *enumerate_elem(kj_ictx *ic, const kj_expr *it)
{
    if (it->call.nkw > 1 || (it->call.nkw == 1 && strcmp(it->call.kw[0].name, "start")) ||
        it->call.nargs + it->call.nkw < 1 || it->call.nargs + it->call.nkw > 2) {
        kj_error(ic->d, ic->s->src, it->span, "enumerate() takes an iterable and an optional start");
        return NULL;
    }
    if (it->call.nargs < 1) {
        kj_error(ic->d, ic->s->src, it->span, "enumerate() missing required argument 'iterable'");
        return NULL;
    }
    const kj_expr *start = it->call.nargs == 2 ? it->call.args[1] : it->call.nkw ? it->call.kw[0].value : NULL;
    if (start) {
        const kj_type *st = kj_value_type(ic, start);
        if (st && !kj_is_int(st)) {
            kj_error(ic->d, ic->s->src, start->span, "enumerate() start must be an integer, not %s",
                     kj_type_str(st));
            return NULL;
        }
    }
    const kj_type *el[2] = {kj_t_int(ic->s->types, 64, true), iter_elem(ic, it->call.args[0])};
    return el[1] ? kj_t_tuple(ic->s->types, el, 2) : NULL;
}

static const kj_type *zip_elem(kj_ictx *ic, const kj_expr *it)
{
    if (it->call.nkw || it->call.nargs < 1 || it->call.nargs > 8) {
        kj_error(ic->d, ic->s->src, it->span, "zip() takes 1 to 8 iterables and no keywords");
        return NULL;
    }
    const kj_type *el[8];
    bool ok = true;
    for (uint32_t k = 0; k < it->call.nargs; k++) ok = (el[k] = iter_elem(ic, it->call.args[k])) && ok;
    return ok ? kj_t_tuple(ic->s->types, el, it->call.nargs) : NULL;
}

/* reversed(seq): a sequence with a length (Python's __reversed__ or
 * __len__ and __getitem__): not an enumerate, zip or set. */
static const kj_type *reversed_elem(kj_ictx *ic, const kj_expr *it)
{
    if (it->call.nkw || it->call.nargs != 1) {
        kj_error(ic->d, ic->s->src, it->span, "reversed() takes exactly one argument");
        return NULL;
    }
    if (!kj_host_code(ic->sp)) {
        kj_diag *dg = kj_error(ic->d, ic->s->src, it->span, "reversed() is not supported in compiled functions");
        kj_diag_hint(dg, "Numba's @jit and kernels have no reversed() (host code has): iterate over range(n - 1, -1, -1)");
        return NULL;
    }
    const kj_expr *x = it->call.args[0];
    int inner = kj_iter_call(ic, x);
    const kj_type *t = inner >= 0 ? NULL : kj_value_type(ic, x);
    if (inner >= 0 || (t && (t->kind == KJ_T_SET || t->kind == KJ_T_GENERATOR))) {
        kj_error(ic->d, ic->s->src, x->span, "'%s' object is not reversible",
                 inner >= 0 ? kj_builtin_get(inner)->path : t->kind == KJ_T_SET ? "set" : "generator");
        return NULL;
    }
    return iter_elem(ic, x);
}

/* The element type of iterating `it`, NULL after an error. */
static const kj_type *iter_elem(kj_ictx *ic, const kj_expr *it)
{
    int b = kj_iter_call(ic, it);
    if (b >= 0) {
        ei_reset(ic, it);
        return b == KJ_B_ENUMERATE ? enumerate_elem(ic, it) : b == KJ_B_ZIP ? zip_elem(ic, it) : reversed_elem(ic, it);
    }
    const kj_type *t = kj_value_type(ic, it);
    if (!t) return NULL;
    switch (t->kind) {
    case KJ_T_ARRAY: return kj_iter_array_elem(ic->s->types, t);
    case KJ_T_RANGE: return t->elem;
    case KJ_T_TUPLE: /* a.flat, np.ndindex, ...: builtins_npshape.c */
        return kj_npshape_wrapper(t) ? kj_npshape_iter_elem(ic->s->types, t) : tuple_elem(ic, it, t);
    case KJ_T_DICT: case KJ_T_SET: /* the keys, in insertion order (lower_dict.c) */
        if (!t->elem) kj_error(ic->d, ic->s->src, it->span, "iterating an empty dict or set whose types are unknown");
        return t->elem;
    case KJ_T_LIST:
        if (!t->elem) kj_error(ic->d, ic->s->src, it->span, "iterating an empty list whose element type is unknown");
        return t->elem;
    case KJ_T_STR: return kj_device_str_refused(ic, it->span) ? NULL : t; /* its characters: lower_str.c */
    case KJ_T_GENERATOR: return t->elem; /* enumerate(g), zip(g, ...): lower_iter.c's gen_loop */
    case KJ_T_OPAQUE: /* for g in cuda.gpus: each device (lower_iter.c) */
        if (!strcmp(t->name, "gpus")) return kj_t_opaque(ic->s->types, "device");
        break;
    default: break;
    }
    kj_diag *dg = kj_error(ic->d, ic->s->src, it->span, "'%s' object is not iterable",
                           kj_type_str(kj_strong(ic->s->types, t)));
    kj_diag_hint(dg, "for loops iterate over arrays, tuples, range(), enumerate() and zip()");
    return NULL;
}

bool kj_infer_for_iter(kj_ictx *ic, const kj_expr *it, const kj_type **elem)
{
    *elem = NULL;
    if (kj_iter_call(ic, it) < 0) {
        const kj_type *t = kj_value_type(ic, it);
        if (t && t->kind == KJ_T_GENERATOR) { /* lower_pygen.c */
            *elem = t->elem;
            return true;
        }
        bool range_value = t && t->kind == KJ_T_RANGE && it->kind != KJ_E_CALL;
        if (!t || (t->kind != KJ_T_ARRAY && t->kind != KJ_T_LIST && t->kind != KJ_T_DICT &&
                   t->kind != KJ_T_SET && t->kind != KJ_T_STR && !range_value && !kj_is_scalar(t) &&
                   !kj_npshape_wrapper(t) && !(t->kind == KJ_T_OPAQUE && !strcmp(t->name, "gpus"))))
            return false;
    }
    *elem = iter_elem(ic, it);
    return true;
}
