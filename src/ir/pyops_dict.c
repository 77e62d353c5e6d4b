/* SPDX-License-Identifier: BSD-2-Clause */
/* `del d[k]` of a dict (CPython: KeyError with the key when it is missing;
 * Numba's typed dict the same), which the parser makes the call
 * d.<del>(k), and list comparisons across element types (`[1] == [1.0]`:
 * CPython compares the numbers, Numba's reflected lists too): both lists
 * are copied into lists of the promoted element type, then compared as
 * lists of one type (lower_list.c's LIST_CMP). */
#include "lower_int.h"
#include "kir_build.h"

kj_einfo *kj_type_dict_del(kj_ictx *ic, const kj_expr *e, const kj_type *dt, kj_einfo *ei)
{
    const kj_expr *ix = e->call.args[0];
    if (ix->kind == KJ_E_SLICE) {
        kj_error(ic->d, ic->s->src, ix->span, "a dict has no slices: del d[k] takes one key");
        return ei_value(ei, NULL);
    }
    const kj_type *kt = kj_value_type(ic, ix);
    if (!kt) return ei_value(ei, NULL);
    if (!dt->elem) {
        kj_error(ic->d, ic->s->src, e->span, "del of an item of an empty dict whose types are unknown");
        return ei_value(ei, NULL);
    }
    if (!kj_can_convert(kt, dt->elem)) {
        kj_error(ic->d, ic->s->src, ix->span, "del d[k]: the key must be %s, not %s", kj_type_str(dt->elem),
                 kj_type_str(kt));
        return ei_value(ei, NULL);
    }
    return ei_value(ei, kj_t_none(ic->s->types));
}

/* del d[k]: d.pop(k) without a default, its value dropped */
kir_ref kj_lower_dict_del(lctx *lc, const kj_expr *e)
{
    const kj_type *dt = kj_strong(lc->s->types, lc->sp->ei[e->call.fn->attr.obj->id].type);
    kir_ref a[2] = {kj_lw_expr(lc, e->call.fn->attr.obj), 0};
    a[1] = kj_lw_as(lc, e->call.args[0], dt->elem);
    kir_ref r = kj_lw_emit_args(lc, KIR_BUILTIN, dt->elems[0], e->span, a, 2);
    kir_at(lc->f, r)->aux = KJ_B_DICT_POP;
    return kj_lw_emit(lc, KIR_CONST_NONE, kj_t_none(lc->s->types), e->span);
}

/* Are lists of a and of b compared by promoting their real numbers? */
bool kj_list_mixed_numbers(const kj_type *a, const kj_type *b)
{
    return a && b && a != b && kj_is_scalar(a) && kj_is_scalar(b) && !kj_is_complex(a) && !kj_is_complex(b);
}

/* a new list of lst's elements converted to el */
static kir_ref converted(lctx *lc, kir_builder *kb, kir_ref lst, const kj_type *el)
{
    const kj_type *lt = kj_t_list(kb->ty, el), *from = lc->f->insts[lst].type->elem;
    if (from == el) return lst;
    kir_ref r = kb_builtin(kb, KJ_B_LIST_NEW, lt, NULL, 0);
    kir_ref n = kb_builtin(kb, KJ_B_LEN, kb_i64(kb), &lst, 1);
    uint32_t i_l = kb_local(kb, kb_i64(kb));
    kir_blkid cur = kb->cur;
    kb->cur = kb_for(kb, i_l, kb_int(kb, 0), n);
    kir_ref x = kb_builtin(kb, KJ_B_LIST_GET, from, (kir_ref[]){lst, kb_get(kb, i_l)}, 2);
    kb_builtin(kb, KJ_B_LIST_APPEND, kj_t_none(kb->ty), (kir_ref[]){r, kb_cast(kb, x, el)}, 2);
    kb->cur = cur;
    return r;
}

/* l and r made lists of their promoted element type (kj_list_mixed_numbers) */
void kj_lower_list_promote(lctx *lc, kir_ref *l, kir_ref *r, kj_span sp)
{
    kj_types *T = lc->s->types;
    kir_builder kb = {.a = lc->s->a, .ty = T, .f = lc->f, .cur = lc->cur, .sp = sp};
    const kj_type *p = kj_strong(T, kj_promote(T, lc->f->insts[*l].type->elem, lc->f->insts[*r].type->elem));
    *l = converted(lc, &kb, *l, p);
    *r = converted(lc, &kb, *r, p);
    lc->cur = kb.cur;
}
