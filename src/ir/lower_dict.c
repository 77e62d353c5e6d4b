/* SPDX-License-Identifier: BSD-2-Clause */
/* lower_dict — dicts and sets to KIR (infer_dict.c typed them). Like lists
 * (lower_list.c), they are run-time objects that KIR handles through
 * BUILTIN instructions, which llvm_dict.c lowers: DICT_NEW (keys and values
 * alternating, converted to the dict's types), SET_NEW, DICT_GETITEM (d[k],
 * KeyError with the key), DICT_SETITEM, DICT_CONTAINS (k in d, x in s);
 * methods are lowered as any method call by lower.c. Iterating a dict or a
 * set walks the list its keys() gives (lower_iter.c). */
#include "lower_int.h"
#include "builtins.h"

static kir_ref builtin(lctx *lc, int b, const kj_type *t, kj_span sp, const kir_ref *args, uint32_t n)
{
    kir_ref r = kj_lw_emit(lc, KIR_BUILTIN, t, sp);
    kir_inst *in = kir_at(lc->f, r);
    in->aux = (uint16_t)b;
    in->args = kir_refs(lc->s->a, args, n);
    in->nargs = n;
    return r;
}

kir_ref kj_lower_dict_literal(lctx *lc, const kj_expr *e)
{
    const kj_type *t = lc->sp->ei[e->id].type;
    if (kj_lsd_class(t)) return kj_lower_lsd_display(lc, e, t); /* {'a': 1, 'b': 2.5}: lower_lsd.c */
    kir_ref *el = KJ_NEWN(lc->s->a, kir_ref, e->seq.n + 1);
    bool set = e->kind == KJ_E_SET;
    for (uint32_t k = 0; k < e->seq.n; k++)
        el[k] = kj_lw_as(lc, e->seq.v[k], set || k % 2 == 0 ? t->elem : t->elems[0]);
    return builtin(lc, set ? KJ_B_SET_NEW : KJ_B_DICT_NEW, t, e->span, el, e->seq.n);
}

kir_ref kj_lower_dict_item(lctx *lc, const kj_expr *e, kir_ref v, kj_span sp)
{
    const kj_type *dt = lc->sp->ei[e->sub.obj->id].type;
    kir_ref args[3] = {kj_lw_expr(lc, e->sub.obj), kj_lw_as(lc, e->sub.index, dt->elem), 0};
    if (!v) return builtin(lc, KJ_B_DICT_GETITEM, dt->elems[0], e->span, args, 2);
    args[2] = kj_lw_cast(lc, v, dt->elems[0], sp);
    return builtin(lc, KJ_B_DICT_SETITEM, NULL, sp, args, 3);
}

/* d[k] op= v and lst[i] op= v: the container and key evaluated once, the
 * item read (*obj, *key kept for kj_lower_item_store). */
kir_ref kj_lower_item_load(lctx *lc, const kj_expr *t, kir_ref *obj, kir_ref *key)
{
    const kj_type *ct = lc->sp->ei[t->sub.obj->id].type;
    bool dict = ct->kind == KJ_T_DICT;
    *obj = kj_lw_expr(lc, t->sub.obj);
    *key = kj_lw_as(lc, t->sub.index, dict ? ct->elem : kj_t_int(lc->s->types, 64, true));
    kir_ref args[2] = {*obj, *key};
    return builtin(lc, dict ? KJ_B_DICT_GETITEM : KJ_B_LIST_GET, dict ? ct->elems[0] : ct->elem, t->span, args, 2);
}

void kj_lower_item_store(lctx *lc, const kj_expr *t, kir_ref obj, kir_ref key, kir_ref v, kj_span sp)
{
    const kj_type *ct = lc->sp->ei[t->sub.obj->id].type;
    bool dict = ct->kind == KJ_T_DICT;
    kir_ref args[3] = {obj, key, kj_lw_cast(lc, v, dict ? ct->elems[0] : ct->elem, sp)};
    builtin(lc, dict ? KJ_B_DICT_SETITEM : KJ_B_LIST_SET, NULL, sp, args, 3);
}

kir_ref kj_lower_dict_in(lctx *lc, const kj_expr *e, bool not_in, kir_ref x, kir_ref d)
{
    kj_types *T = lc->s->types;
    const kj_type *bt = kj_t_bool(T);
    kir_ref args[2] = {d, kj_lw_cast(lc, x, lc->f->insts[d].type->elem, e->span)};
    kir_ref r = builtin(lc, KJ_B_DICT_CONTAINS, bt, e->span, args, 2);
    if (!not_in) return r;
    kir_ref nr = kj_lw_emit(lc, KIR_NOT, bt, e->span);
    kir_at(lc->f, nr)->a = r;
    return nr;
}

kir_ref kj_lower_dict_keys(lctx *lc, kir_ref d, kj_span sp)
{
    const kj_type *t = lc->f->insts[d].type;
    return builtin(lc, KJ_B_DICT_KEYS, kj_t_list(lc->s->types, t->elem), sp, &d, 1);
}
