/* SPDX-License-Identifier: BSD-2-Clause */
/* infer_list — Numba's reflected lists (reference/pysupported.rst, "list"):
 * a display [a, b, c] is a list of its elements' unified (strong) type, as
 * Numba's typeof gives list(int64) for [1, 2]; `[]` is a list whose element
 * type the first lst.append(x) of its variable settles (Numba's "undefined"
 * list refined by append). Elements: scalars, tuples of them, arrays, lists. Lists are
 * host-side objects: Numba's CUDA target has none, so a list in a kernel or
 * device function is a located error naming the construct. */
#include "sema_int.h"
#include "builtins.h"

bool kj_list_elem_ok(const kj_type *t)
{
    if (kj_is_scalar(t) || t->kind == KJ_T_ARRAY || t->kind == KJ_T_STR || (t->kind == KJ_T_LIST && t->elem))
        return true; /* a string element: a pointer to a run-owned string (str.c) */
    if (t->kind != KJ_T_TUPLE) return false;
    for (uint32_t k = 0; k < t->n; k++) /* a list keeps array elements alive, not arrays inside tuples */
        if (!kj_is_scalar(t->elems[k])) return false;
    return true;
}

/* An element list_sort.c compares (sort, sorted, list comparisons): a real
 * number (float32/float64, ints, bool), a string, or a tuple of real numbers. */
bool kj_list_orderable(const kj_type *t)
{
    if (t->kind == KJ_T_TUPLE) {
        for (uint32_t k = 0; k < t->n; k++)
            if (t->elems[k]->kind == KJ_T_TUPLE || !kj_list_orderable(t->elems[k])) return false;
        return t->n > 0 && t->n <= 64;
    }
    if (t->kind == KJ_T_STR) return true;
    if (!kj_is_scalar(t) || kj_is_complex(t)) return false;
    return t->kind != KJ_T_FLOAT || t->bits == 32 || t->bits == 64;
}

kj_einfo *kj_type_list_literal(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    kj_types *T = ic->s->types;
    if (kj_is_device_ctx(ic->sp)) {
        kj_diag *dg = kj_error(ic->d, ic->s->src, e->span, "lists are not supported in CUDA kernels and device functions");
        kj_diag_hint(dg, "Numba's CUDA target has no lists: use a tuple, a local array (cuda.local.array) or a "
                         "device array argument");
        return ei_value(ei, NULL);
    }
    const kj_type *el = NULL;
    for (uint32_t k = 0; k < e->seq.n; k++) {
        const kj_type *t = kj_value_type(ic, e->seq.v[k]);
        if (!t) return ei_value(ei, NULL);
        t = kj_strong(T, t);
        if (!kj_list_elem_ok(t)) {
            kj_error(ic->d, ic->s->src, e->seq.v[k]->span,
                     "a list holds numbers, strings, tuples of numbers, arrays or lists, not %s", kj_type_str(t));
            return ei_value(ei, NULL);
        }
        const kj_type *u = el ? kj_unify(T, el, t) : t;
        if (!u) { /* Numba: "Cannot unify ... for 'list'" at the display */
            kj_error(ic->d, ic->s->src, e->seq.v[k]->span, "can't unify %s and %s in a list display: a list holds "
                     "one type", kj_type_str(el), kj_type_str(t));
            return ei_value(ei, NULL);
        }
        el = u;
    }
    return ei_value(ei, kj_t_list(T, el));
}

/* A slice bound: an integer or None (Python's "slice indices must be
 * integers or None or have an __index__ method"). */
static bool slice_part_ok(kj_ictx *ic, const kj_expr *p)
{
    if (!p) return true;
    const kj_type *t = kj_value_type(ic, p);
    if (!t) return false;
    if (kj_is_int(t) || t->kind == KJ_T_NONE) return true;
    kj_error(ic->d, ic->s->src, p->span, "slice indices must be integers or None or have an __index__ method");
    return false;
}

static bool slice_parts_ok(kj_ictx *ic, const kj_expr *ix)
{
    return slice_part_ok(ic, ix->slice.lo) && slice_part_ok(ic, ix->slice.hi) && slice_part_ok(ic, ix->slice.step);
}

/* lst[a:b] = other (infer.c's assign_subscript): other a list of the same
 * elements (or `[]`), as Numba's reflected list takes it. */
void kj_list_setslice_check(kj_ictx *ic, const kj_expr *target, const kj_type *lt, const kj_type *t)
{
    if (t->kind == KJ_T_LIST && (!t->elem || t->elem == lt->elem)) return;
    kj_error(ic->d, ic->s->src, target->span, "cannot assign %s to a slice of %s: assign a list of the same "
             "elements", kj_type_str(t), kj_type_str(lt));
}

/* `del x[i]` / `del x[a:b]`, which the parser makes the call x.<del>(i):
 * of a list; of a dict, pyops_dict.c. */
kj_einfo *kj_type_list_del(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    const kj_expr *obj = e->call.fn->attr.obj, *ix = e->call.args[0];
    const kj_type *t = kj_value_type(ic, obj);
    if (!t) return ei_value(ei, NULL);
    if (t->kind != KJ_T_LIST) {
        if (t->kind == KJ_T_DICT) return kj_type_dict_del(ic, e, t, ei); /* pyops_dict.c */
        kj_error(ic->d, ic->s->src, e->span, "'%s' object doesn't support item deletion", kj_type_str(t));
        return ei_value(ei, NULL);
    }
    if (kj_is_device_ctx(ic->sp)) {
        kj_error(ic->d, ic->s->src, e->span, "lists are not supported in CUDA kernels and device functions");
        return ei_value(ei, NULL);
    }
    if (ix->kind == KJ_E_SLICE) {
        if (!slice_parts_ok(ic, ix)) return ei_value(ei, NULL);
    } else {
        const kj_type *it = kj_value_type(ic, ix);
        if (!it) return ei_value(ei, NULL);
        if (!kj_is_int(it)) {
            kj_error(ic->d, ic->s->src, ix->span, "list indices must be integers or slices, not %s",
                     kj_type_str(it));
            return ei_value(ei, NULL);
        }
    }
    return ei_value(ei, kj_t_none(ic->s->types));
}

kj_einfo *kj_type_list_subscript(kj_ictx *ic, const kj_expr *e, const kj_type *lt, kj_einfo *ei)
{
    const kj_expr *ix = e->sub.index;
    if (ix->kind == KJ_E_SLICE) { /* lst[a:b:c]: a new list of the same elements (lower_list.c) */
        if (!slice_parts_ok(ic, ix)) return ei_value(ei, NULL);
        return ei_value(ei, lt);
    }
    const kj_type *it = kj_value_type(ic, ix);
    if (!it) return ei_value(ei, NULL);
    if (!kj_is_int(it)) {
        kj_error(ic->d, ic->s->src, ix->span, "list indices must be integers, not %s", kj_type_str(it));
        return ei_value(ei, NULL);
    }
    if (!lt->elem) {
        kj_error(ic->d, ic->s->src, e->span, "indexing an empty list whose element type is unknown");
        return ei_value(ei, NULL);
    }
    return ei_value(ei, lt->elem);
}

void kj_list_append_refine(kj_ictx *ic, const kj_expr *call)
{
    const kj_expr *recv = call->call.fn->attr.obj;
    if (recv->kind != KJ_E_NAME || call->call.nargs != 1) return;
    kj_var *v = kj_var_of(ic->sp, recv);
    if (!v || !v->type || v->type->kind != KJ_T_LIST || v->type->elem) return;
    const kj_type *x = kj_value_type(ic, call->call.args[0]);
    if (!x) return;
    x = kj_strong(ic->s->types, x);
    if (!kj_list_elem_ok(x)) return; /* the append's own typing reports it */
    v->type = kj_t_list(ic->s->types, x);
    ic->changed = true;
}

const kj_type *kj_list_binop_type(kj_ictx *ic, kj_binop op, const kj_type *l, const kj_type *r, kj_span sp)
{
    if (op == KJ_OP_ADD && l->kind == KJ_T_LIST && r->kind == KJ_T_LIST) {
        const kj_type *u = kj_unify(ic->s->types, l, r);
        if (u) return u;
    }
    if (op == KJ_OP_MUL && ((l->kind == KJ_T_LIST && kj_is_int(r)) || (r->kind == KJ_T_LIST && kj_is_int(l))))
        return l->kind == KJ_T_LIST ? l : r;
    kj_error(ic->d, ic->s->src, sp, "unsupported operand type(s) for %s: '%s' and '%s'", kj_binop_str(op),
             kj_type_str(l), kj_type_str(r));
    return NULL;
}

/* lst1 == lst2, <, ... (CPython's lexicographic list comparison; Numba
 * compares reflected lists so too): lists of one element type of numbers
 * or strings (`[]` compares with any list); lower_list.c, list_sort.c. */
const kj_type *kj_list_compare_type(kj_ictx *ic, const kj_expr *e, kj_cmpop op, const kj_type *l, const kj_type *r,
                                    const kj_type **optype)
{
    const kj_type *el = l->elem ? l->elem : r->elem;
    bool ok = op != KJ_CMP_IS && op != KJ_CMP_ISNOT &&
              (!l->elem || !r->elem || l->elem == r->elem || kj_list_mixed_numbers(l->elem, r->elem));
    if (!ok || (el && !kj_list_orderable(el))) {
        kj_error(ic->d, ic->s->src, e->span, "comparing %s and %s with %s is not supported yet: kjit compares "
                 "lists of the same real numbers, strings or tuples of them", kj_type_str(l), kj_type_str(r),
                 kj_cmpop_str(op));
        return NULL;
    }
    *optype = NULL;
    return kj_t_bool(ic->s->types);
}
