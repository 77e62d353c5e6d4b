/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing the uses of Numba's Optional values (types_optional.c).
 *
 * A value of type Optional(T) is None or a T. Numba converts it to T wherever a T is wanted (an
 * operand, an index, a method's receiver), checking when it runs that it is not None
 * (numba/core/optional.py optional_to_any: TypeError "expected T, got None"). So here every
 * expression of an Optional type reads as T (kj_opt_unwrap, kj_type_expr's last step), remembering
 * the Optional in opt_type; lowering then checks (lower_optional.c). The few places that keep the
 * Optional itself ask for it with kj_ei_raw: a name bound to it, a return, a tuple display, print,
 * an argument of a user function, and `x is None`. Inside `if x is not None:` (or after `if x is
 * None: return`) x stays Optional as in Numba; its uses check a flag that is then always set. */
#include "sema_int.h"

kj_einfo *kj_opt_unwrap(kj_einfo *ei)
{
    if (ei->kind == EI_VALUE && ei->type && ei->type->kind == KJ_T_OPTIONAL) {
        ei->opt_type = ei->type;
        ei->type = ei->type->elem;
    }
    return ei;
}

const kj_type *kj_value_type_raw(kj_ictx *ic, const kj_expr *e)
{
    return kj_value_type(ic, e) ? kj_ei_raw(&ic->sp->ei[e->id]) : NULL;
}

/* x is None, x is not None, None is x, x == None, x != None: which operand is the Optional. As
 * current Numba (numba/cpython/builtins.py gen_non_eq), == and != with None test the flag too. */
int kj_opt_compare_side(const kj_spec *sp, const kj_expr *e)
{
    if (e->kind != KJ_E_COMPARE || e->cmp.n != 2) return -1;
    kj_cmpop op = e->cmp.ops[0];
    if (op != KJ_CMP_IS && op != KJ_CMP_ISNOT && op != KJ_CMP_EQ && op != KJ_CMP_NE) return -1;
    const kj_einfo *a = &sp->ei[e->cmp.operands[0]->id], *b = &sp->ei[e->cmp.operands[1]->id];
    if (a->kind != EI_VALUE || b->kind != EI_VALUE || !a->type || !b->type) return -1;
    if (a->opt_type && b->type->kind == KJ_T_NONE) return 0;
    if (b->opt_type && a->type->kind == KJ_T_NONE) return 1;
    return -1;
}

bool kj_opt_compare(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    if (kj_opt_compare_side(ic->sp, e) < 0) return false;
    ei_value(ei, kj_t_bool(ic->s->types)); /* known when it runs: no constant, both branches typed */
    return true;
}

/* `if x:` of an Optional x: Numba has no bool() of an Optional; host code (CPython) tests it as
 * Python does, for numbers (lower_optional.c). */
bool kj_opt_cond_error(kj_ictx *ic, const kj_expr *e)
{
    const kj_einfo *ei = &ic->sp->ei[e->id];
    if (!ei->opt_type || (kj_host_code(ic->sp) && kj_is_scalar(ei->type))) return false;
    kj_diag *dg = kj_error(ic->d, ic->s->src, e->span,
                           "No implementation of function Function(<class 'bool'>) found for signature: "
                           "bool(%s)", kj_type_str(ei->opt_type));
    kj_diag_hint(dg, "test it with `is not None` first");
    return true;
}
