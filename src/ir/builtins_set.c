/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of set(iterable) and of the set methods of builtins_set.h (Numba's
 * pysupported.rst "set", CPython's semantics): s.clear(), s.pop(),
 * s.update(t), s.issubset(t), s.issuperset(t), s.isdisjoint(t),
 * s.symmetric_difference(t), t a set of the same elements. */
#include "builtins.h"

/* Can a set hold elements of type el (hashed as bytes: numbers, strings,
 * tuples of them)? */
static bool hashable(const kj_type *el)
{
    if (el->kind == KJ_T_TUPLE) {
        for (uint32_t i = 0; i < el->n; i++)
            if (!hashable(el->elems[i])) return false;
        return true;
    }
    return el->kind == KJ_T_STR || (kj_is_scalar(el) && !kj_is_complex(el));
}

/* set(iterable): a set of what list(iterable) would hold */
const kj_type *kj_type_set_of(kj_types *t, const kj_barg *args, uint32_t nargs, kj_span call, const kj_source *src,
                              kj_diags *d)
{
    const kj_type *lt = kj_builtin_type(t, KJ_B_LIST_OF, NULL, args, nargs, call, src, d, NULL);
    if (!lt) return NULL;
    if (lt->elem && !hashable(lt->elem)) {
        kj_error(d, src, args[0].span, "set() of %s: its elements are not hashable", kj_type_str(args[0].type));
        return NULL;
    }
    return kj_t_set(t, lt->elem);
}

const kj_type *kj_type_setops(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs, kj_span call,
                              const kj_source *src, kj_diags *d)
{
    const char *name = kj_builtin_get(id)->path;
    const kj_type *s = nargs ? args[0].type : NULL;
    if (!s || s->kind != KJ_T_SET || !s->elem) {
        kj_error(d, src, call, "%s() takes a set of known elements as its receiver, not %s", name,
                 s ? kj_type_str(s) : "nothing");
        return NULL;
    }
    if (id == KJ_B_SET_CLEAR) return kj_t_none(t);
    if (id == KJ_B_SET_POP) return s->elem;
    const kj_type *o = nargs > 1 ? args[1].type : NULL;
    if (o != s) {
        kj_error(d, src, nargs > 1 ? args[1].span : call, "%s() takes a %s, not %s", name, kj_type_str(s),
                 o ? kj_type_str(o) : "nothing");
        return NULL;
    }
    if (id == KJ_B_SET_UPDATE) return kj_t_none(t);
    if (id == KJ_B_SET_ISSUBSET || id == KJ_B_SET_ISSUPERSET || id == KJ_B_SET_ISDISJOINT) return kj_t_bool(t);
    return s; /* symmetric_difference */
}
