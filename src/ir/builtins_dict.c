/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of the dict and set built-ins (numba.typed.Dict semantics, Numba's
 * reference/pysupported.rst "dict" and "set"): d.get/setdefault/pop/keys/
 * values/items, s.add/discard/remove/union/intersection/difference, dict()
 * and set(), and the lowering-made d[k], d[k] = v and `k in d`. A key
 * converts to the key type and a value to the value type where Python's
 * numbers allow (conv); builtins.c's dispatch sends these ids here. */
#include "builtins.h"

#include <string.h>

typedef struct {
    kj_types *t;
    kj_builtin id;
    const kj_barg *args;
    uint32_t nargs;
    kj_span call;
    const kj_source *src;
    kj_diags *d;
    const kj_type **conv;
} dctx;

static const kj_type *ty(const dctx *c, uint32_t i) { return i < c->nargs ? c->args[i].type : NULL; }
static bool given(const dctx *c, uint32_t i) { return ty(c, i) && ty(c, i)->kind != KJ_T_NONE; }

static const char *name(const dctx *c) { return kj_builtin_get(c->id)->path; }

/* Argument i converted to `to`, or a located error (NULL). */
static const kj_type *conv_to(dctx *c, uint32_t i, const kj_type *to, const char *what)
{
    const kj_type *x = ty(c, i);
    if (!x || !kj_can_convert(x, to)) {
        kj_error(c->d, c->src, i < c->nargs ? c->args[i].span : c->call, "%s() %s must be %s, not %s", name(c),
                 what, kj_type_str(to), kj_type_str(x));
        return NULL;
    }
    if (c->conv && x != to) c->conv[i] = to;
    return to;
}

static const kj_type *set_method(dctx *c, const kj_type *s)
{
    switch (c->id) {
    case KJ_B_SET_ADD: case KJ_B_SET_DISCARD: case KJ_B_SET_REMOVE:
        return conv_to(c, 1, s->elem, "argument") ? kj_t_none(c->t) : NULL;
    default: /* union, intersection, difference: another set of the same elements */
        if (ty(c, 1) != s) {
            kj_error(c->d, c->src, c->nargs > 1 ? c->args[1].span : c->call, "%s() takes a %s, not %s", name(c),
                     kj_type_str(s), kj_type_str(ty(c, 1)));
            return NULL;
        }
        return s;
    }
}

static const kj_type *items_type(dctx *c, const kj_type *dt)
{
    const kj_type *v = dt->elems[0];
    if (v->kind == KJ_T_ARRAY) { /* a list holds array elements, not arrays inside tuples (infer_list.c) */
        kj_error(c->d, c->src, c->call, "items() of a dict of arrays is not supported yet: loop over keys() and "
                                        "index the dict");
        return NULL;
    }
    const kj_type *kv[2] = {dt->elem, v};
    return kj_t_list(c->t, kj_t_tuple(c->t, kv, 2));
}

static const kj_type *dict_method(dctx *c, const kj_type *dt)
{
    const kj_type *k = dt->elem, *v = dt->elems[0];
    switch (c->id) {
    case KJ_B_DICT_GETITEM: case KJ_B_DICT_CONTAINS:
        if (!conv_to(c, 1, k, "key")) return NULL;
        return c->id == KJ_B_DICT_CONTAINS ? kj_t_bool(c->t) : v;
    case KJ_B_DICT_SETITEM: return conv_to(c, 1, k, "key") && conv_to(c, 2, v, "value") ? kj_t_none(c->t) : NULL;
    case KJ_B_DICT_GET: case KJ_B_DICT_SETDEFAULT: case KJ_B_DICT_POP:
        if (!conv_to(c, 1, k, "key")) return NULL;
        if (!given(c, 2) && c->id == KJ_B_DICT_GET && kj_t_optional(c->t, v))
            return kj_t_optional(c->t, v); /* d.get(k): None when k is missing (llvm_optional.c) */
        if (!given(c, 2) && c->id != KJ_B_DICT_POP) {
            kj_diag *dg = kj_error(c->d, c->src, c->call, "%s() without a default is not supported", name(c));
            kj_diag_hint(dg, "pass the default value: d.get(key, default)");
            return NULL;
        }
        if (given(c, 2) && !conv_to(c, 2, v, "default")) return NULL;
        return v;
    case KJ_B_DICT_KEYS: return kj_t_list(c->t, k);
    case KJ_B_DICT_VALUES: return kj_t_list(c->t, v);
    case KJ_B_DICT_ITEMS: return items_type(c, dt);
    default: return NULL;
    }
}

const kj_type *kj_type_dict_builtin(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs, kj_span call,
                                    const kj_source *src, kj_diags *d, const kj_type **conv)
{
    dctx c = {t, id, args, nargs, call, src, d, conv};
    if (id == KJ_B_DICT) return kj_t_dict(t, NULL, NULL);
    if (id == KJ_B_SET) return kj_t_set(t, NULL);
    if (id == KJ_B_DICT_NEW || id == KJ_B_SET_NEW) { /* made by lowering, never called */
        kj_error(d, src, call, "%s() is not callable", name(&c));
        return NULL;
    }
    const kj_type *r = ty(&c, 0);
    bool set = id >= KJ_B_SET_ADD && id <= KJ_B_SET_DIFFERENCE;
    bool in = id == KJ_B_DICT_CONTAINS && r && r->kind == KJ_T_SET;
    if (!r || r->kind != (set || in ? KJ_T_SET : KJ_T_DICT)) {
        kj_error(d, src, call, "%s() takes a %s as its receiver, not %s", name(&c), set ? "set" : "dict",
                 kj_type_str(r));
        return NULL;
    }
    if (!r->elem) {
        kj_error(d, src, call, "%s() of an empty %s whose types are unknown: store into it first", name(&c),
                 set ? "set" : "dict");
        return NULL;
    }
    if (in) return conv_to(&c, 1, r->elem, "key") ? kj_t_bool(t) : NULL;
    return set ? set_method(&c, r) : dict_method(&c, r);
}
