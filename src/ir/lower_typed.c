/* SPDX-License-Identifier: BSD-2-Clause */
/* lower_typed — numba.typed.List / Dict constructors (infer_typed.c) to the
 * list and dict built-ins llvm_list.c and llvm_dict.c lower: an empty one is
 * LIST_NEW with no elements or dict(); List(lst) is a copy of lst, List(x) of
 * another iterable is list(x). */
#include "lower_int.h"
#include "builtins.h"

/* List(t) of a tuple t (a module-level list constant): a list of its items. */
static kir_ref from_tuple(lctx *lc, kir_ref x, const kj_type *xt, const kj_type *t, kj_span sp)
{
    kir_ref *el = KJ_NEWN(lc->s->a, kir_ref, xt->n);
    for (uint32_t k = 0; k < xt->n; k++) {
        kir_ref g = kj_lw_emit(lc, KIR_TUPLE_GET, xt->elems[k], sp);
        kir_at(lc->f, g)->a = x;
        kir_at(lc->f, g)->i = k;
        el[k] = kj_lw_cast(lc, g, t->elem, sp);
    }
    kir_ref r = kj_lw_emit(lc, KIR_BUILTIN, t, sp);
    kir_inst *in = kir_at(lc->f, r);
    in->aux = KJ_B_LIST_NEW;
    in->args = el;
    in->nargs = xt->n;
    return r;
}

kir_ref kj_lower_typed_call(lctx *lc, const kj_expr *e, const kj_type *t, int b)
{
    kir_ref r, x = 0;
    uint32_t n = 0;
    int id = b == KJ_B_TYPED_DICT || b == KJ_B_TYPED_DICT_EMPTY ? KJ_B_DICT : KJ_B_LIST_NEW;
    if (b == KJ_B_TYPED_LIST && (e->call.nargs || e->call.nkw)) {
        const kj_expr *a = e->call.nargs ? e->call.args[0] : e->call.kw[0].value;
        x = kj_lw_expr(lc, a);
        const kj_type *xt = lc->f->insts[x].type;
        if (xt->kind == KJ_T_TUPLE) return from_tuple(lc, x, xt, t, e->span);
        if (xt->kind != KJ_T_LIST) return kj_lower_sorted(lc, KJ_B_LIST_OF, t, &x, 1, e->span); /* as list(x) */
        x = kj_lw_cast(lc, x, t, e->span);
        id = KJ_B_LIST_COPY;
        n = 1;
    }
    r = kj_lw_emit(lc, KIR_BUILTIN, t, e->span);
    kir_inst *in = kir_at(lc->f, r);
    in->aux = (uint16_t)id;
    in->args = kir_refs(lc->s->a, &x, n);
    in->nargs = n;
    in->i = id == KJ_B_DICT; /* a numba.typed.Dict, in host code too: printed as Numba prints one (llvm_dict.c) */
    return r;
}
