/* SPDX-License-Identifier: BSD-2-Clause */
/* Numba's literal string key dicts (infer_lsd.c): the display is the tuple of
 * its values in key order, d['key'] that tuple's item. */
#include "lower_int.h"

kir_ref kj_lower_lsd_display(lctx *lc, const kj_expr *e, const kj_type *t)
{
    uint32_t n = e->seq.n / 2;
    kir_ref *el = KJ_NEWN(lc->s->a, kir_ref, n + 1);
    for (uint32_t k = 0; k < n; k++) el[k] = kj_lw_as(lc, e->seq.v[2 * k + 1], t->elems[k]);
    return kj_lw_emit_args(lc, KIR_TUPLE, t, e->span, el, n);
}

kir_ref kj_lower_lsd_item(lctx *lc, const kj_expr *e)
{
    const kj_type *t = lc->sp->ei[e->sub.obj->id].type;
    int f = kj_lsd_field(lc->sp, e);
    kir_ref v = kj_lw_expr(lc, e->sub.obj);
    kir_ref r = kj_lw_emit(lc, KIR_TUPLE_GET, t->elems[f], e->span);
    kir_at(lc->f, r)->a = v;
    kir_at(lc->f, r)->i = (uint32_t)f;
    return r;
}
