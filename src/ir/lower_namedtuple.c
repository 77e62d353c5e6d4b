/* SPDX-License-Identifier: BSD-2-Clause */
/* Lowering of namedtuples (typed in resolve_namedtuple.c): an instance is a
 * TUPLE of its class's type, a field a TUPLE_GET, as for any tuple. */
#include "lower_int.h"

/* Point(1, y=2): the arguments in the order written (as Python evaluates
 * them), each as its field's type, then the tuple in field order. */
kir_ref kj_lower_nt_call(lctx *lc, const kj_expr *e)
{
    const kj_type *t = lc->sp->ei[e->id].type;
    const kj_ntclass *cls = kj_nt_class(t);
    kir_ref *el = KJ_NEWN(lc->s->a, kir_ref, cls->n);
    for (uint32_t i = 0; i < e->call.nargs; i++) el[i] = kj_lw_as(lc, e->call.args[i], t->elems[i]);
    for (uint32_t k = 0; k < e->call.nkw; k++) {
        int f = kj_nt_field(cls, e->call.kw[k].name); /* typing checked it names one free field */
        el[f] = kj_lw_as(lc, e->call.kw[k].value, t->elems[f]);
    }
    kir_ref r = kj_lw_emit(lc, KIR_TUPLE, t, e->span);
    kir_inst *in = kir_at(lc->f, r);
    in->args = el;
    in->nargs = cls->n;
    return r;
}

/* p.x: the field's element */
kir_ref kj_lower_nt_attr(lctx *lc, const kj_expr *e)
{
    const kj_type *ot = kj_strong(lc->s->types, lc->sp->ei[e->attr.obj->id].type);
    int f = kj_nt_field(kj_nt_class(ot), e->attr.name);
    kir_ref v = kj_lw_expr(lc, e->attr.obj);
    kir_ref r = kj_lw_emit(lc, KIR_TUPLE_GET, ot->elems[f], e->span);
    kir_at(lc->f, r)->a = v;
    kir_at(lc->f, r)->i = (uint32_t)f;
    return r;
}
