/* SPDX-License-Identifier: BSD-2-Clause */
/* chr, ord, repr, hash and divmod (builtins_pybuiltin.c) in KIR: divmod is
 * Python's // and % of its two arguments, each evaluated once (KIR's
 * FLOORDIV and MOD have Python's floor semantics and its ZeroDivisionError:
 * "integer division or modulo by zero", CPython's divmod message, for
 * integers; floats are checked first, for CPython's message); repr of a number is str of it; the rest are BUILTINs that
 * llvm_pybuiltin.c computes. */
#include "lower_int.h"

#include "../abi/exc.h"

enum { /* the run-time error kinds, as rt.h numbers them */
#define X(kind, name, base, raisable) EXC_##kind,
    KJ_EXC_CLASSES(X)
#undef X
};

/* CPython's float divmod by zero: ZeroDivisionError "float divmod()" (KIR's
 * FLOORDIV would say "float floor division by zero"); only under Python's
 * error model, where float division raises at all. */
static void float_divmod_check(lctx *lc, kir_ref y, kj_span sp)
{
    const kj_type *ft = kir_at(lc->f, y)->type;
    if (!lc->f->py_errors || ft->kind != KJ_T_FLOAT) return;
    kir_ref nz = kj_lw_emit2(lc, KIR_NE, kj_t_bool(lc->s->types), sp, y, kj_lw_num(lc, ft, 0, sp));
    kir_ref r = kj_lw_emit(lc, KIR_ASSERT, NULL, sp);
    kir_inst *in = kir_at(lc->f, r);
    in->a = nz, in->s = "float divmod()", in->aux = (uint16_t)(KIR_ASSERT_RAISE + EXC_ZERO_DIVISION);
}

kir_ref kj_lower_pybuiltin(lctx *lc, int b, const kj_type *t, const kir_ref *args, uint32_t n, kj_span sp)
{
    if (b == KJ_B_DIVMOD) {
        const kj_type *r = t->elems[0];
        kir_ref x = kj_lw_cast(lc, args[0], r, sp), y = kj_lw_cast(lc, args[1], r, sp);
        float_divmod_check(lc, y, sp);
        kir_ref qr[2] = {kj_lw_emit2(lc, KIR_FLOORDIV, r, sp, x, y), 0};
        qr[1] = kj_lw_emit2(lc, KIR_MOD, r, sp, x, y);
        return kj_lw_emit_args(lc, KIR_TUPLE, t, sp, qr, 2);
    }
    if (b == KJ_B_REPR && kir_at(lc->f, args[0])->type->kind != KJ_T_STR && !kj_t_is_excobj(kir_at(lc->f, args[0])->type))
        b = KJ_B_STR;
    kir_ref r = kj_lw_emit_args(lc, KIR_BUILTIN, t, sp, args, n);
    kir_at(lc->f, r)->aux = (uint16_t)b;
    return r;
}

/* s += t and s *= n of a str variable: s = s + t (STR_CAT), s = s * n
 * (STR_REPEAT); type inference typed them as the operators (lower.c's
 * arithmetic path has no operation type for them). */
bool kj_lower_str_augassign(lctx *lc, const kj_stmt *st)
{
    const kj_expr *t = st->aug.target;
    const kj_type *tt = lc->sp->ei[t->id].type;
    if (t->kind != KJ_E_NAME || !tt || tt->kind != KJ_T_STR ||
        (st->aug.op != KJ_OP_ADD && st->aug.op != KJ_OP_MUL))
        return false;
    kir_ref a[2] = {kj_lw_expr(lc, t), 0};
    bool cat = st->aug.op == KJ_OP_ADD;
    a[1] = cat ? kj_lw_expr(lc, st->aug.value) : kj_lw_as(lc, st->aug.value, kj_t_int(lc->s->types, 64, true));
    kir_ref r = kj_lw_emit_args(lc, KIR_BUILTIN, tt, st->span, a, 2);
    kir_at(lc->f, r)->aux = (uint16_t)(cat ? KJ_B_STR_CAT : KJ_B_STR_REPEAT);
    kj_lw_store(lc, t, r, st->span);
    return true;
}
