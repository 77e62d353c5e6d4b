/* SPDX-License-Identifier: BSD-2-Clause */
/* lower_exc — exception objects in host code (infer_exc.c types them;
 * builtins_exc.h's built-ins, llvm_excobj.c): `raise e`, a bare `raise`,
 * type(e), `type(e) is C`, isinstance(e, C), and what a raise statement
 * says of its arguments (kj_raise_form: repr(e) and e.args follow from it).
 *
 *     raise                  RERAISE t    (t: the TRY whose except clause encloses it)
 *     raise e                BUILTIN exception.<raise>(e)
 *     type(e) is C           BUILTIN exception.<is>(e, C's kind)
 *     isinstance(e, (A, B))  exception.<isa>(e, A) | exception.<isa>(e, B) */
#include "lower_int.h"

#include "../abi/exc_obj.h"

#include <string.h>

static const kj_type *type_of(lctx *lc, const kj_expr *e) { return lc->sp->ei[e->id].type; }

int kj_raise_form(lctx *lc, const kj_expr *exc, int kind)
{
    if (exc->kind != KJ_E_CALL || !exc->call.nargs) return KJ_EXC_FORM_NONE;
    if (exc->call.nargs > 1) return KJ_EXC_FORM_TUPLE;
    if (kind == kj_exc_class("KeyError")) return KJ_EXC_FORM_REPR; /* its message is already the repr */
    const kj_expr *a = exc->call.args[0];
    const kj_type *t = type_of(lc, a);
    return a->kind == KJ_E_STR || (t && t->kind == KJ_T_STR) ? KJ_EXC_FORM_STR : KJ_EXC_FORM_REPR;
}

static kir_ref builtin(lctx *lc, int b, const kj_type *t, kj_span sp, kir_ref a, kir_ref k)
{
    kir_ref args[2] = {a, k};
    kir_ref r = kj_lw_emit_args(lc, KIR_BUILTIN, t, sp, args, k ? 2 : 1);
    kir_at(lc->f, r)->aux = (uint16_t)b;
    return r;
}

bool kj_lower_raise_obj(lctx *lc, const kj_stmt *st)
{
    const kj_expr *exc = st->raise.exc;
    if (!exc) { /* inference checked that an except clause encloses it */
        if (!lc->handlers.n) return false;
        kir_at(lc->f, kj_lw_emit(lc, KIR_RERAISE, NULL, st->span))->a = lc->handlers.v[lc->handlers.n - 1];
        return true;
    }
    if (!kj_t_is_exception(type_of(lc, exc))) return false;
    builtin(lc, KJ_B_EXC_RAISE, kj_t_none(lc->s->types), st->span, kj_lw_expr(lc, exc), 0);
    return true;
}

/* isinstance(e, C) for one class C or a tuple of them */
static kir_ref isa(lctx *lc, kir_ref v, const kj_expr *cls, kj_span sp)
{
    const kj_type *b = kj_t_bool(lc->s->types);
    if (cls->kind != KJ_E_TUPLE)
        return builtin(lc, KJ_B_EXC_ISA, b, sp, v, kj_lw_i64(lc, kj_exc_class(cls->name), sp));
    kir_ref r = 0;
    for (uint32_t k = 0; k < cls->seq.n; k++) {
        kir_ref m = isa(lc, v, cls->seq.v[k], sp);
        r = r ? kj_lw_emit2(lc, KIR_OR, b, sp, r, m) : m;
    }
    return r;
}

/* type(e) is C, type(e) == C and their negations */
static kir_ref compare(lctx *lc, const kj_expr *e)
{
    const kj_expr *l = e->cmp.operands[0], *c = e->cmp.operands[1];
    if (e->cmp.n != 2 || l->kind != KJ_E_CALL || !type_of(lc, l) || !kj_t_is_excobj(type_of(lc, l)) ||
        c->kind != KJ_E_NAME)
        return 0;
    const kj_type *b = kj_t_bool(lc->s->types);
    kir_ref v = kj_lw_expr(lc, l);
    kir_ref r = builtin(lc, KJ_B_EXC_IS, b, e->span, v, kj_lw_i64(lc, kj_exc_class(c->name), e->span));
    kj_cmpop op = e->cmp.ops[0];
    if (op == KJ_CMP_IS || op == KJ_CMP_EQ) return r;
    kir_ref n = kj_lw_emit(lc, KIR_NOT, b, e->span);
    kir_at(lc->f, n)->a = r;
    return n;
}

kir_ref kj_lower_exc_expr(lctx *lc, const kj_expr *e)
{
    if (e->kind == KJ_E_COMPARE) return compare(lc, e);
    if (e->kind != KJ_E_CALL || e->call.fn->kind != KJ_E_NAME || !e->call.nargs ||
        !kj_t_is_exception(type_of(lc, e->call.args[0])))
        return 0;
    const char *fn = e->call.fn->name;
    if (!strcmp(fn, "type") && e->call.nargs == 1)
        return builtin(lc, KJ_B_EXC_TYPE, kj_t_opaque(lc->s->types, "exception type"), e->span,
                       kj_lw_expr(lc, e->call.args[0]), 0);
    if (!strcmp(fn, "isinstance") && e->call.nargs == 2)
        return isa(lc, kj_lw_expr(lc, e->call.args[0]), e->call.args[1], e->span);
    return 0;
}
