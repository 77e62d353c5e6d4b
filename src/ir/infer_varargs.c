/* SPDX-License-Identifier: BSD-2-Clause */
/* *args (pysupported.rst "Functions": "*args can only be a tuple"): a call of
 * def f(x, *args) binds the positional arguments to the parameters before
 * *args and the rest to args, the tuple of their types, so that each arity
 * and argument types is its own specialisation, as in Numba. The lowering
 * (lower_varargs.c) packs that tuple at the call. Keyword arguments bind the
 * named parameters only. */
#include "sema_int.h"

#include <string.h>

bool kj_bind_varargs(kj_ictx *ic, const kj_expr *e, const kj_funcdef *def, const kj_type **types, int32_t *map)
{
    kj_types *T = ic->s->types;
    uint32_t fixed = def->nparams - 1, nextra = e->call.nargs > fixed ? e->call.nargs - fixed : 0;
    bool ok = true;
    for (uint32_t i = 0; i < e->call.nargs && i < fixed; i++) {
        types[i] = kj_value_type(ic, e->call.args[i]);
        map[i] = (int32_t)i;
        ok = ok && types[i];
    }
    for (uint32_t k = 0; k < e->call.nkw; k++) {
        const kj_keyword *kw = &e->call.kw[k];
        uint32_t i = 0;
        while (i < fixed && strcmp(def->params[i].name, kw->name)) i++;
        if (i == fixed || map[i] != INT32_MIN) {
            kj_error(ic->d, ic->s->src, kw->span, "%s() got %s '%s'", def->name,
                     i == fixed ? "an unexpected keyword argument" : "multiple values for argument", kw->name);
            ok = false;
            continue;
        }
        types[i] = kj_value_type(ic, kw->value);
        map[i] = -1 - (int32_t)k;
        ok = ok && types[i];
    }
    const kj_type **el = KJ_NEWN(ic->s->a, const kj_type *, nextra + 1);
    for (uint32_t j = 0; j < nextra; j++) {
        const kj_type *t = kj_value_type(ic, e->call.args[fixed + j]);
        el[j] = t ? kj_strong(T, t) : NULL;
        ok = ok && t;
    }
    for (uint32_t i = 0; i < fixed && ok; i++) {
        if (map[i] != INT32_MIN) continue;
        if (!def->params[i].def) {
            kj_error(ic->d, ic->s->src, e->span, "%s() missing required argument '%s'", def->name,
                     def->params[i].name);
            return false;
        }
        kj_cval cv;
        if (!kj_const_eval(ic->s, def->params[i].def, &cv)) return false;
        types[i] = cv.type;
    }
    if (!ok) return false;
    types[fixed] = kj_t_tuple(T, el, nextra);
    map[fixed] = INT32_MAX; /* no one expression: lower_varargs.c packs the tuple */
    return true;
}
