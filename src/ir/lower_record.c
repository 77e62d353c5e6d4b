/* SPDX-License-Identifier: BSD-2-Clause */
/* Records (infer_record.c) lowered: r.x and r['x'] a REC_GET of the field, r.x = v a REC_SET, a['x']
 * of an array of records a REC_VIEW (a strided view of the field); the field an int64 constant
 * argument; np.array of tuples with a record dtype, np.zeros and a REC_SET per field. llvm_record.c
 * generates the code, the same for host and device. */
#include "lower_int.h"

static kir_ref rec_op(lctx *lc, kj_builtin b, const kj_type *t, kj_span sp, kir_ref obj, int f, kir_ref v)
{
    kir_ref args[3] = {obj, kj_lw_i64(lc, f, sp), v};
    kir_ref r = kj_lw_emit_args(lc, KIR_BUILTIN, t, sp, args, v ? 3 : 2);
    kir_at(lc->f, r)->aux = b;
    return r;
}

static const kj_type *type_of_expr(lctx *lc, const kj_expr *e) { return kj_strong(lc->s->types, lc->sp->ei[e->id].type); }

static const char *key_of(lctx *lc, const kj_expr *e) { return lc->sp->ei[e->sub.index->id].cval.s; }

kir_ref kj_lower_record_attr(lctx *lc, const kj_expr *e)
{
    const kj_type *rt = type_of_expr(lc, e->attr.obj);
    int f = kj_record_field(rt, e->attr.name);
    if (f < 0) /* r.dtype (infer_record.c): a dtype constant */
        return kj_lw_emit(lc, KIR_CONST_NONE, kj_t_dtype(lc->s->types, rt), e->span);
    return rec_op(lc, KJ_B_REC_GET, kj_record_of(rt)->types[f], e->span, kj_lw_expr(lc, e->attr.obj), f, 0);
}

kir_ref kj_lower_record_item(lctx *lc, const kj_expr *e)
{
    const kj_type *ot = type_of_expr(lc, e->sub.obj);
    bool arr = ot->kind == KJ_T_ARRAY;
    int f = kj_record_field(arr ? ot->elem : ot, key_of(lc, e));
    return rec_op(lc, arr ? KJ_B_REC_VIEW : KJ_B_REC_GET, type_of_expr(lc, e), e->span, kj_lw_expr(lc, e->sub.obj), f, 0);
}

/* r.x = v, r['x'] = v: v converted to the field's type. False when t is no record's field. */
bool kj_lower_record_store(lctx *lc, const kj_expr *t, kir_ref v, kj_span sp)
{
    const kj_expr *obj = t->kind == KJ_E_ATTR ? t->attr.obj : t->kind == KJ_E_SUBSCRIPT ? t->sub.obj : NULL;
    const kj_type *rt = obj ? type_of_expr(lc, obj) : NULL;
    if (!kj_record_of(rt)) return false;
    int f = kj_record_field(rt, t->kind == KJ_E_ATTR ? t->attr.name : key_of(lc, t));
    kir_ref r = kj_lw_expr(lc, obj);
    rec_op(lc, KJ_B_REC_SET, NULL, sp, r, f, kj_lw_cast(lc, v, kj_record_of(rt)->types[f], sp));
    return true;
}

/* np.array(SEQ, dtype=rec) of a display of tuples (builtins_np_manip.c typed it): np.zeros(n, rec),
 * then each field of record i set from item k of tuple i. */
kir_ref kj_lower_record_array(lctx *lc, const kj_type *t, kir_ref seq, kj_span sp)
{
    const kj_type *st = lc->f->insts[seq].type;
    const kj_recdesc *d = kj_record_of(t->elem);
    kir_ref dt = kj_lw_emit(lc, KIR_CONST_NONE, kj_t_dtype(lc->s->types, t->elem), sp);
    kir_ref a = kj_lw_emit_args(lc, KIR_BUILTIN, t, sp, (kir_ref[]){kj_lw_i64(lc, st->n, sp), dt}, 2);
    kir_at(lc->f, a)->aux = KJ_B_NP_ZEROS;
    for (uint32_t i = 0; i < st->n; i++) {
        kir_ref row = kj_lw_emit(lc, KIR_TUPLE_GET, st->elems[i], sp);
        kir_at(lc->f, row)->a = seq;
        kir_at(lc->f, row)->i = i;
        kir_ref idx = kj_lw_i64(lc, i, sp);
        kir_ref r = kj_lw_emit_args(lc, KIR_ARRAY_LOAD, t->elem, sp, &idx, 1);
        kir_at(lc->f, r)->a = a;
        for (uint32_t k = 0; k < d->n; k++) {
            kir_ref v = kj_lw_emit(lc, KIR_TUPLE_GET, st->elems[i]->elems[k], sp);
            kir_at(lc->f, v)->a = row;
            kir_at(lc->f, v)->i = k;
            rec_op(lc, KJ_B_REC_SET, NULL, sp, r, (int)k, kj_lw_cast(lc, v, d->types[k], sp));
        }
    }
    return a;
}
