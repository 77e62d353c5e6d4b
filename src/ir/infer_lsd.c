/* SPDX-License-Identifier: BSD-2-Clause */
/* Numba's heterogeneous literal string key dictionary (pysupported.rst
 * "Heterogeneous Literal String Key Dictionary"): a dict display whose keys
 * are all string constants and whose values are not homogeneous (a value
 * does not convert safely to the first value's type, Numba's rule in
 * typeinfer.BuildMapConstraint) keeps each value's type. As in Numba it is a
 * named tuple inside the compiler (a kj_ntclass marked strkey_dict, fields
 * the keys) and immutable: d['key'] with a constant key, len(d), 'key' in d
 * (a constant), passing it to @jit functions and printing it (as CPython
 * prints the dict; Numba cannot) work; a key that is not a constant, a
 * missing key and every store are refused with Numba's words. */
#include "sema_int.h"

#include <string.h>

const kj_ntclass *kj_lsd_class(const kj_type *t)
{
    const kj_ntclass *c = kj_nt_class(t);
    return c && c->strkey_dict ? c : NULL;
}

/* A string constant key (not bytes), or NULL. */
static const char *str_key(const kj_expr *k)
{
    return k->kind == KJ_E_STR && !k->str.bytes && !k->str.fstr ? k->str.s : NULL;
}

static const kj_ntclass *lsd_class_of(kj_ictx *ic, const kj_expr *e, uint32_t n);

/* Whether the display is Numba's literal-key dict; its type in ei when it is. */
bool kj_lsd_display(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    uint32_t n = e->seq.n / 2;
    if (!n) return false;
    for (uint32_t k = 0; k < n; k++)
        if (!str_key(e->seq.v[2 * k])) return false;
    kj_types *T = ic->s->types;
    const kj_type **el = KJ_NEWN(ic->s->a, const kj_type *, n);
    bool homogeneous = true;
    for (uint32_t k = 0; k < n; k++) {
        const kj_type *t = kj_value_type(ic, e->seq.v[2 * k + 1]);
        if (!t) {
            ei_value(ei, NULL);
            return true;
        }
        el[k] = kj_strong(T, t);
        homogeneous &= kj_can_convert(el[k], el[0]) && (n > 1 || kj_dict_value_ok(el[k]));
    }
    if (homogeneous) return false;
    const kj_ntclass *c = lsd_class_of(ic, e, n);
    if (!c) return ei_value(ei, NULL), true;
    ei_value(ei, kj_t_namedtuple(T, c, el));
    return true;
}

/* The one class of these keys (a type is the same on every pass of inference), or NULL after an error. */
static const kj_ntclass *lsd_class_of(kj_ictx *ic, const kj_expr *e, uint32_t n)
{
    for (uint32_t i = 0; i < ic->s->lsd_classes.n; i++) {
        const kj_ntclass *c = ic->s->lsd_classes.v[i];
        uint32_t k = 0;
        while (c->n == n && k < n && !strcmp(c->fields[k], str_key(e->seq.v[2 * k]))) k++;
        if (c->n == n && k == n) return c;
    }
    kj_ntclass *c = KJ_NEW(ic->s->a, kj_ntclass);
    c->name = "LiteralStrKey[Dict]";
    c->n = n;
    c->strkey_dict = true;
    c->fields = KJ_NEWN(ic->s->a, const char *, n);
    for (uint32_t k = 0; k < n; k++) {
        c->fields[k] = str_key(e->seq.v[2 * k]);
        for (uint32_t j = 0; j < k; j++)
            if (!strcmp(c->fields[j], c->fields[k])) { /* {'a': 1, 'a': 2.5}: one key, as CPython */
                kj_error(ic->d, ic->s->src, e->seq.v[2 * k]->span,
                         "a literal-key dict display repeats the key '%s'", c->fields[k]);
                return NULL;
            }
    }
    KJ_PUSH(ic->s->a, ic->s->lsd_classes, c);
    return c;
}

/* d['key']: the field of that key (lowered as the tuple's item, lower.c) */
kj_einfo *kj_type_lsd_subscript(kj_ictx *ic, const kj_expr *e, const kj_type *t, kj_einfo *ei)
{
    kj_einfo *ix = kj_type_expr(ic, e->sub.index);
    if (ix->kind != EI_VALUE) return ei_value(ei, NULL);
    if (!ix->is_const || !ix->cval.type || ix->cval.type->kind != KJ_T_STR) {
        kj_error(ic->d, ic->s->src, e->span,
                 "Cannot get{item}() on a literal dictionary, return type cannot be statically determined");
        return ei_value(ei, NULL);
    }
    int f = kj_nt_field(kj_lsd_class(t), ix->cval.s);
    if (f < 0) {
        kj_error(ic->d, ic->s->src, e->sub.index->span, "Key '%s' is not in dict.", ix->cval.s);
        return ei_value(ei, NULL);
    }
    return ei_value(ei, t->elems[f]);
}

/* The field index of a typed d['key'] (for lowering). */
int kj_lsd_field(const kj_spec *sp, const kj_expr *e)
{
    const kj_einfo *ix = &sp->ei[e->sub.index->id];
    return kj_nt_field(kj_lsd_class(sp->ei[e->sub.obj->id].type), ix->cval.s);
}

bool kj_lsd_store_error(kj_ictx *ic, const kj_expr *target, const kj_type *t)
{
    if (!kj_lsd_class(t)) return false;
    kj_error(ic->d, ic->s->src, target->span,
             "No implementation of function Function(<built-in function setitem>) found for signature: "
             "setitem(%s, ...): a literal-key dict is immutable",
             kj_type_str(t));
    return true;
}
