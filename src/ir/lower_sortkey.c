/* SPDX-License-Identifier: BSD-2-Clause */
/* lower_sortkey — sorted(x, key=f) and lst.sort(key=f) (infer_sortkey.c
 * typed them) as CPython's list sort does them: f is called once per
 * element, in order; the elements are then ordered by their keys, stably,
 * and reverse=True keeps equal keys in their first order.
 *
 * In KIR: a list of (key, i) tuples (a tuple key flattened into its fields,
 * then i), sorted by LIST_SORT (list_sort.c, with reverse=), then the
 * elements gathered in the order of the sorted i. The index i makes no two
 * pairs equal, and it decides between equal keys exactly as the stable sort
 * would have: list_sort.c compares pairs field by field, so (k, i) < (k', j)
 * is k < k' whenever the keys differ (for NaN too: k < NaN and NaN < k are
 * both false either way), and i < j for equal keys, which in a stable sort
 * is the first order. For reverse=True the pairs hold -i: list_sort.c
 * reverses, sorts and reverses again, as CPython does, and after the first
 * reversal -i again rises along the list, as positions do. */
#include "lower_int.h"
#include "builtins.h"
#include "kir_build.h"

/* the key of element v: the key function's call (a specialisation made by
 * infer_sortkey.c) or a built-in's value */
static kir_ref key_of(lctx *lc, kir_builder *b, const kj_type *fk, const kj_spec *spec, kir_ref v)
{
    kj_types *T = b->ty;
    if (spec) {
        kir_ref a = kb_cast(b, v, spec->args[0]);
        kir_ref r = kb_args(b, KIR_CALL, kj_strong(T, spec->ret), &a, 1);
        kir_at(b->f, r)->fn = spec->kir;
        return r;
    }
    const kj_type *vt = b->f->insts[v].type;
    switch (fk->builtin) {
    case KJ_B_ABS:
        if (vt->kind == KJ_T_BOOL) return kb_cast(b, v, kb_i64(b)); /* abs(True) is 1 */
        return kb_builtin(b, KJ_B_ABS, vt, &v, 1);
    case KJ_B_LEN:
        if (vt->kind == KJ_T_TUPLE) return kb_int(b, vt->n);
        if (vt->kind == KJ_T_ARRAY) return kb_dim(b, v, 0);
        if (vt->kind == KJ_T_STR) {
            lc->cur = b->cur;
            kir_ref n = kj_lower_str_len(lc, v, b->sp);
            b->cur = lc->cur;
            return n;
        }
        return kb_builtin(b, KJ_B_LEN, kb_i64(b), &v, 1);
    default: /* str.lower, str.upper */
        return kb_builtin(b, fk->builtin, vt, &v, 1);
    }
}

/* the (key fields..., index) tuple of key k and index i */
static kir_ref pair_of(kir_builder *b, kir_ref k, kir_ref i, const kj_type *pt)
{
    const kj_type *kt = b->f->insts[k].type;
    kir_ref el[65];
    uint32_t n = 0;
    if (kt->kind == KJ_T_TUPLE) {
        for (uint32_t j = 0; j < kt->n; j++) {
            el[n] = kb_emit(b, KIR_TUPLE_GET, kt->elems[j]);
            kir_at(b->f, el[n])->a = k;
            kir_at(b->f, el[n++])->i = j;
        }
    } else {
        el[n++] = k;
    }
    el[n++] = i;
    return kb_args(b, KIR_TUPLE, pt, el, n);
}

static const kj_type *pair_type(kj_types *T, const kj_type *kt)
{
    const kj_type *el[65];
    uint32_t n = 0;
    if (kt->kind == KJ_T_TUPLE)
        for (uint32_t j = 0; j < kt->n; j++) el[n++] = kt->elems[j];
    else
        el[n++] = kt;
    el[n++] = kj_t_int(T, 64, true);
    return kj_t_tuple(T, el, n);
}

/* The key's type (infer_sortkey.c checked it) on elements of type el. */
static const kj_type *key_type(kj_types *T, const kj_type *fk, const kj_spec *spec, const kj_type *el)
{
    if (spec) return kj_strong(T, spec->ret);
    if (fk->builtin == KJ_B_LEN) return kj_t_int(T, 64, true);
    if (fk->builtin == KJ_B_ABS && el->kind == KJ_T_BOOL) return kj_t_int(T, 64, true);
    return el; /* abs of a number, str.lower/upper of a string */
}

/* Sort list l in place by key fk (spec: its specialisation, NULL for a
 * built-in), reverse= rev (0 when not given). */
static void sort_by_key(lctx *lc, kir_builder *b, kir_ref l, const kj_type *fk, const kj_spec *spec, kir_ref rev)
{
    kj_types *T = b->ty;
    const kj_type *lt = b->f->insts[l].type, *i64 = kb_i64(b), *none = kj_t_none(T);
    kir_ref n = kb_builtin(b, KJ_B_LEN, i64, &l, 1);
    uint32_t i_l = kb_local(b, i64);
    const kj_type *pt = pair_type(T, key_type(T, fk, spec, lt->elem)), *plt = kj_t_list(T, pt);
    kir_ref pairs = kb_builtin(b, KJ_B_LIST_NEW, plt, NULL, 0);
    kir_blkid top = b->cur;
    b->cur = kb_for(b, i_l, kb_int(b, 0), n);
    kir_ref i = kb_get(b, i_l);
    kir_ref k = key_of(lc, b, fk, spec, kb_builtin(b, KJ_B_LIST_GET, lt->elem, (kir_ref[]){l, i}, 2));
    kir_ref ix = rev ? kb_select(b, rev, kb_binop(b, KIR_SUB, i64, kb_int(b, 0), i), i) : i;
    kb_builtin(b, KJ_B_LIST_APPEND, none, (kir_ref[]){pairs, pair_of(b, k, ix, pt)}, 2);
    b->cur = top;
    kb_builtin(b, KJ_B_LIST_SORT, none, (kir_ref[]){pairs, 0, rev}, 3);
    /* gather: l[j] = old[index of the j-th pair] */
    kir_ref old = kb_builtin(b, KJ_B_LIST_COPY, lt, &l, 1);
    uint32_t j_l = kb_local(b, i64);
    b->cur = kb_for(b, j_l, kb_int(b, 0), n);
    kir_ref j = kb_get(b, j_l);
    kir_ref p = kb_builtin(b, KJ_B_LIST_GET, pt, (kir_ref[]){pairs, j}, 2);
    kir_ref at = kb_emit(b, KIR_TUPLE_GET, i64);
    kir_at(b->f, at)->a = p;
    kir_at(b->f, at)->i = pt->n - 1;
    if (rev) at = kb_select(b, rev, kb_binop(b, KIR_SUB, i64, kb_int(b, 0), at), at);
    kir_ref v = kb_builtin(b, KJ_B_LIST_GET, lt->elem, (kir_ref[]){old, at}, 2);
    kb_builtin(b, KJ_B_LIST_SET, none, (kir_ref[]){l, j, v}, 3);
    b->cur = top;
}

kir_ref kj_lower_sort_key(lctx *lc, const kj_expr *e, const kj_einfo *ei, int builtin, const kj_type *t,
                          const kir_ref *args)
{
    if (ei->nbound < 2 || !args[1] || lc->f->insts[args[1]].type->kind != KJ_T_FUNC) return 0;
    int32_t m = ei->argmap[1];
    const kj_expr *ke = m >= 0 ? e->call.args[m] : e->call.kw[-1 - m].value;
    const kj_spec *spec = lc->sp->ei[ke->id].callee;
    const kj_type *fk = lc->f->insts[args[1]].type;
    kir_ref rev = ei->nbound > 2 ? args[2] : 0;
    kir_ref l = builtin == KJ_B_SORTED ? kj_lower_sorted(lc, KJ_B_LIST_OF, t, args, 1, e->span) : args[0];
    kir_builder b = {.a = lc->s->a, .ty = lc->s->types, .f = lc->f, .cur = lc->cur, .sp = e->span};
    if (lc->f->insts[l].type->elem && (spec || fk->builtin >= 0)) sort_by_key(lc, &b, l, fk, spec, rev);
    lc->cur = b.cur;
    if (builtin == KJ_B_SORTED) return l;
    return kj_lw_emit(lc, KIR_CONST_NONE, kj_t_none(lc->s->types), e->span);
}
