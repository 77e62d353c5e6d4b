/* SPDX-License-Identifier: BSD-2-Clause */
/* infer_dict — dicts and sets with numba.typed.Dict's semantics (Numba's
 * reference/pysupported.rst "dict", "set"): a display {k: v, ...} is a dict
 * of its keys' and its values' unified (strong) types; `{}` and dict() are a
 * dict whose types the first d[k] = v of its variable settles, as set() is
 * settled by the first s.add(x). Keys: numbers and tuples of numbers (kjit
 * has no strings yet); values: numbers, tuples of numbers, arrays. Dicts
 * and sets are host-side objects: Numba's CUDA target has none, so one in a
 * kernel or device function is a located error naming the construct. */
#include "sema_int.h"
#include "builtins.h"

bool kj_dict_key_ok(const kj_type *t)
{
    if (t->kind == KJ_T_STR) return true; /* hashed by its text: dict.c */
    if (kj_is_scalar(t)) return t->kind != KJ_T_COMPLEX;
    if (t->kind != KJ_T_TUPLE || !t->n) return false;
    for (uint32_t k = 0; k < t->n; k++)
        if (!kj_is_scalar(t->elems[k]) || t->elems[k]->kind == KJ_T_COMPLEX) return false;
    return true;
}

bool kj_dict_value_ok(const kj_type *t)
{
    if (kj_is_scalar(t) || t->kind == KJ_T_ARRAY || t->kind == KJ_T_STR) return true;
    if (t->kind != KJ_T_TUPLE) return false;
    for (uint32_t k = 0; k < t->n; k++)
        if (!kj_is_scalar(t->elems[k])) return false;
    return true;
}

bool kj_dict_in_kernel(kj_ictx *ic, kj_span sp, const char *what)
{
    if (!kj_is_device_ctx(ic->sp)) return false;
    kj_diag *dg = kj_error(ic->d, ic->s->src, sp, "%s are not supported in CUDA kernels and device functions", what);
    kj_diag_hint(dg, "Numba's CUDA target has no dicts or sets: use arrays");
    return true;
}

/* The unified strong type of e's elements from `from`, every `step`-th. */
static const kj_type *unify_elems(kj_ictx *ic, const kj_expr *e, uint32_t from, uint32_t step, bool key,
                                  const char *what)
{
    kj_types *T = ic->s->types;
    const kj_type *el = NULL;
    for (uint32_t k = from; k < e->seq.n; k += step) {
        const kj_type *t = kj_value_type(ic, e->seq.v[k]);
        if (!t) return NULL;
        t = kj_strong(T, t);
        if (key ? !kj_dict_key_ok(t) : !kj_dict_value_ok(t)) {
            kj_error(ic->d, ic->s->src, e->seq.v[k]->span, "%s %s of %s is not supported: %s", e->kind == KJ_E_SET ?
                     "a set" : "a dict", what, kj_type_str(t), key ? "keys are numbers, strings or tuples of numbers"
                     : "values are numbers, strings, tuples of numbers or arrays");
            return NULL;
        }
        const kj_type *u = el ? kj_unify(T, el, t) : t;
        if (!u) { /* Numba: "Cannot unify ... " at the display */
            kj_error(ic->d, ic->s->src, e->seq.v[k]->span, "Cannot unify %s and %s for the %ss of a %s display",
                     kj_type_str(el), kj_type_str(t), what, e->kind == KJ_E_SET ? "set" : "dict");
            return NULL;
        }
        el = kj_strong(T, u);
    }
    return el;
}

/* With string keys, values of different types would be unified (1 → 1.0),
 * where Numba makes a literal-key dict that keeps each value's type and
 * CPython keeps each value: refused rather than printed otherwise. */
static bool same_values(kj_ictx *ic, const kj_expr *e, const kj_type *v)
{
    for (uint32_t k = 1; k < e->seq.n; k += 2) {
        const kj_type *t = kj_strong(ic->s->types, kj_value_type(ic, e->seq.v[k]));
        if (t == v || kj_can_convert(t, v)) continue; /* 2 in {"a": 1.5, "b": 2}: Numba converts too */
        kj_diag *dg = kj_error(ic->d, ic->s->src, e->seq.v[k]->span,
                               "a dict display with string keys and values of different types (%s and %s) is "
                               "Numba's literal-key dict, which kjit does not support",
                               kj_type_str(t), kj_type_str(v));
        kj_diag_hint(dg, "give every value one type (write 1.0 for 1), or use numba.typed.Dict");
        return false;
    }
    return true;
}

kj_einfo *kj_type_dict_literal(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    kj_types *T = ic->s->types;
    bool set = e->kind == KJ_E_SET;
    if (kj_dict_in_kernel(ic, e->span, set ? "sets" : "dicts")) return ei_value(ei, NULL);
    const kj_type *k = unify_elems(ic, e, 0, set ? 1 : 2, true, set ? "element" : "key");
    if (!k && e->seq.n) return ei_value(ei, NULL);
    if (set) return ei_value(ei, kj_t_set(T, k));
    if (kj_lsd_display(ic, e, ei)) return ei; /* {'a': 1, 'b': 2.5}: infer_lsd.c */
    const kj_type *v = unify_elems(ic, e, 1, 2, false, "value");
    if (!v && e->seq.n) return ei_value(ei, NULL);
    if (k && k->kind == KJ_T_STR && !same_values(ic, e, v)) return ei_value(ei, NULL);
    return ei_value(ei, kj_t_dict(T, k, v));
}

kj_einfo *kj_type_dict_subscript(kj_ictx *ic, const kj_expr *e, const kj_type *dt, kj_einfo *ei)
{
    const kj_type *kt = kj_value_type(ic, e->sub.index);
    if (!kt) return ei_value(ei, NULL);
    if (dt->kind != KJ_T_DICT) {
        kj_error(ic->d, ic->s->src, e->span, "'%s' object is not subscriptable", kj_type_str(dt));
        return ei_value(ei, NULL);
    }
    if (!dt->elem) {
        kj_error(ic->d, ic->s->src, e->span, "indexing an empty dict whose types are unknown: store into it first");
        return ei_value(ei, NULL);
    }
    if (!kj_can_convert(kt, dt->elem)) {
        kj_error(ic->d, ic->s->src, e->sub.index->span, "a key of %s cannot look up %s", kj_type_str(kt),
                 kj_type_str(dt));
        return ei_value(ei, NULL);
    }
    return ei_value(ei, dt->elems[0]);
}

/* d[k] = v: an empty dict's variable takes the types of its first store;
 * then the key and value must convert. */
void kj_dict_store(kj_ictx *ic, const kj_expr *target, const kj_type *vt)
{
    kj_types *T = ic->s->types;
    const kj_expr *obj = target->sub.obj;
    const kj_type *dt = ic->sp->ei[obj->id].type;
    const kj_type *kt = kj_value_type(ic, target->sub.index);
    if (!kt || !vt) return;
    if (!dt->elem) {
        kj_var *var = obj->kind == KJ_E_NAME ? kj_var_of(ic->sp, obj) : NULL;
        kt = kj_strong(T, kt), vt = kj_strong(T, vt);
        if (!var || !kj_dict_key_ok(kt) || !kj_dict_value_ok(vt)) {
            kj_error(ic->d, ic->s->src, target->span, "cannot store %s: %s into %s", kj_type_str(kt),
                     kj_type_str(vt), kj_type_str(dt));
            return;
        }
        var->type = kj_t_dict(T, kt, vt);
        ic->changed = true;
        return;
    }
    if (!kj_can_convert(kt, dt->elem) || !kj_can_convert(vt, dt->elems[0]))
        kj_error(ic->d, ic->s->src, target->span, "cannot store %s: %s into %s", kj_type_str(kt), kj_type_str(vt),
                 kj_type_str(dt));
}

void kj_set_add_refine(kj_ictx *ic, const kj_expr *call)
{
    const kj_expr *recv = call->call.fn->attr.obj;
    if (recv->kind != KJ_E_NAME || call->call.nargs != 1) return;
    kj_var *v = kj_var_of(ic->sp, recv);
    if (!v || !v->type || v->type->kind != KJ_T_SET || v->type->elem) return;
    const kj_type *x = kj_value_type(ic, call->call.args[0]);
    if (!x) return;
    x = kj_strong(ic->s->types, x);
    if (!kj_dict_key_ok(x)) return; /* the add's own typing reports it */
    v->type = kj_t_set(ic->s->types, x);
    ic->changed = true;
}
