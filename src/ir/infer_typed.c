/* SPDX-License-Identifier: BSD-2-Clause */
/* infer_typed — numba.typed.List and numba.typed.Dict (Numba's
 * reference/pysupported.rst "Typed List", "Typed Dict"): constructors of the
 * lists (infer_list.c) and dicts (infer_dict.c) kjit already has, with the
 * element, key and value types given as Numba type objects:
 *
 *   List()                      a list whose first append settles its type
 *   List(lst)                   a new list holding lst's items
 *   List(iterable)              of a range, str, set, dict or 1-d array, as list()
 *   List.empty_list(t)          an empty list of t
 *   Dict()                      a dict whose first d[k] = v settles its types
 *   Dict.empty(key_type=k, value_type=v)
 *
 * The type objects (types.int64, types.float64[:], types.unicode_type,
 * types.UniTuple(types.int64, 2)) are evaluated at compile time by
 * resolve_sig.c, as Numba evaluates them in the interpreter. */
#include "sema_int.h"
#include "builtins.h"

#include <string.h>

enum { MAX_PARAMS = 3 };

/* Bind the call's arguments to the built-in's parameter names (positional,
 * then by keyword); false after reporting. */
static bool bind(kj_ictx *ic, const kj_expr *e, const char *const *names, uint32_t np, uint32_t nreq,
                 const char *fname, const kj_expr **out)
{
    memset(out, 0, MAX_PARAMS * sizeof *out);
    if (e->call.nargs > np) {
        kj_error(ic->d, ic->s->src, e->span, "%s() takes at most %u arguments (%u given)", fname, np,
                 e->call.nargs);
        return false;
    }
    for (uint32_t i = 0; i < e->call.nargs; i++) out[i] = e->call.args[i];
    for (uint32_t k = 0; k < e->call.nkw; k++) {
        const kj_keyword *kw = &e->call.kw[k];
        uint32_t i = 0;
        while (i < np && strcmp(names[i], kw->name)) i++;
        if (i == np || out[i]) {
            kj_error(ic->d, ic->s->src, kw->span, i == np ? "%s() got an unexpected keyword argument '%s'"
                                                          : "%s() got multiple values for argument '%s'",
                     fname, kw->name);
            return false;
        }
        out[i] = kw->value;
    }
    for (uint32_t i = 0; i < nreq; i++)
        if (!out[i]) {
            kj_error(ic->d, ic->s->src, e->span, "%s() missing required argument: '%s'", fname, names[i]);
            return false;
        }
    return true;
}

/* An optional capacity (allocated=, n_keys=): an integer, used only as a hint. */
static bool capacity_ok(kj_ictx *ic, const kj_expr *x)
{
    if (!x) return true;
    const kj_type *t = kj_value_type(ic, x);
    if (t && !kj_is_int(t)) kj_error(ic->d, ic->s->src, x->span, "the capacity must be an integer, not %s",
                                     kj_type_str(t));
    return t && kj_is_int(t);
}

/* A type argument: Numba evaluates a type expression (types.float64[:],
 * types.UniTuple(...)) only in the interpreter; a @jit function names one
 * bound at module level ("Type-expression is not supported in jit
 * functions", Numba's typed-dict docs). NULL after reporting. */
static const kj_type *type_arg(kj_ictx *ic, const kj_expr *x)
{
    bool host = ic->sp->fn->kind == FK_MAIN || ic->sp->fn->kind == FK_HELPER;
    if (!host && (x->kind == KJ_E_CALL || x->kind == KJ_E_SUBSCRIPT)) {
        kj_diag *dg = kj_error(ic->d, ic->s->src, x->span, "a type expression is not supported in a @jit function");
        kj_diag_hint(dg, "bind it to a name at module level (float_array = types.float64[:]) and use the name");
        return NULL;
    }
    return kj_eval_type(ic->s, x, true);
}

/* List(iterable) of a range, a string, a set, a dict (its keys) or a 1-d
 * array: the element type list() gives it (lower_list.c builds both). */
static const kj_type *iterable_elem(const kj_type *t)
{
    switch (t->kind) {
    case KJ_T_RANGE: case KJ_T_SET: case KJ_T_DICT: return t->elem;
    case KJ_T_STR: return t;
    case KJ_T_ARRAY: return t->ndim == 1 ? t->elem : NULL;
    default: return NULL;
    }
}

static const kj_type *type_list(kj_ictx *ic, const kj_expr *e, int b)
{
    static const char *const ln[] = {"iterable"}, *const en[] = {"item_type", "allocated"};
    const kj_expr *a[MAX_PARAMS];
    if (b == KJ_B_TYPED_LIST) {
        if (!bind(ic, e, ln, 1, 0, "List", a)) return NULL;
        if (!a[0]) return kj_t_list(ic->s->types, NULL);
        const kj_type *t = kj_value_type(ic, a[0]);
        if (t && t->kind == KJ_T_LIST) return kj_strong(ic->s->types, t);
        if (t && iterable_elem(t)) return kj_t_list(ic->s->types, kj_strong(ic->s->types, iterable_elem(t)));
        if (t && t->kind == KJ_T_TUPLE && t->n) { /* a module-level list constant is a tuple */
            const kj_type *el = kj_strong(ic->s->types, t->elems[0]);
            for (uint32_t k = 1; k < t->n && el; k++) el = kj_unify(ic->s->types, el, kj_strong(ic->s->types, t->elems[k]));
            if (el && kj_list_elem_ok(el)) return kj_t_list(ic->s->types, el);
        }
        if (t) kj_error(ic->d, ic->s->src, a[0]->span, "List() takes a list, tuple, range, string, set, dict or 1-d array here, not %s",
                        kj_type_str(t));
        return NULL;
    }
    if (!bind(ic, e, en, 2, 1, "List.empty_list", a) || !capacity_ok(ic, a[1])) return NULL;
    const kj_type *t = type_arg(ic, a[0]);
    if (t && !kj_list_elem_ok(t)) {
        kj_error(ic->d, ic->s->src, a[0]->span, "a list holds numbers, tuples of numbers, arrays or lists, not %s",
                 kj_type_str(t));
        return NULL;
    }
    return t ? kj_t_list(ic->s->types, t) : NULL;
}

static const kj_type *type_dict(kj_ictx *ic, const kj_expr *e, int b)
{
    static const char *const en[] = {"key_type", "value_type", "n_keys"};
    const kj_expr *a[MAX_PARAMS];
    if (b == KJ_B_TYPED_DICT) return bind(ic, e, en, 0, 0, "Dict", a) ? kj_t_dict(ic->s->types, NULL, NULL) : NULL;
    if (!bind(ic, e, en, 3, 2, "Dict.empty", a) || !capacity_ok(ic, a[2])) return NULL;
    const kj_type *k = type_arg(ic, a[0]), *v = k ? type_arg(ic, a[1]) : NULL;
    if (!k || !v) return NULL;
    if (!kj_dict_key_ok(k) || !kj_dict_value_ok(v)) {
        kj_error(ic->d, ic->s->src, !kj_dict_key_ok(k) ? a[0]->span : a[1]->span,
                 "kjit's dicts take keys of numbers or tuples of numbers and values of numbers, tuples of "
                 "numbers or arrays, not %s", kj_type_str(!kj_dict_key_ok(k) ? k : v));
        return NULL;
    }
    return kj_t_dict(ic->s->types, k, v);
}

kj_einfo *kj_type_typed_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, int b)
{
    bool list = b == KJ_B_TYPED_LIST || b == KJ_B_TYPED_LIST_EMPTY;
    if (kj_is_device_ctx(ic->sp)) {
        kj_error(ic->d, ic->s->src, e->span, "numba.typed.%s is not supported in CUDA kernels and device "
                 "functions", list ? "List" : "Dict");
        return ei_value(ei, NULL);
    }
    ei_value(ei, list ? type_list(ic, e, b) : type_dict(ic, e, b));
    ei->builtin = b;
    return ei;
}
