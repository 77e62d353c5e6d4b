/* SPDX-License-Identifier: BSD-2-Clause */
/* infer_exc — exception objects in host code. `except C as e` binds e in
 * host code (main and undecorated helpers, which CPython runs under Numba):
 * besides its str() (print(e), str(e), f-strings), CPython's repr(e), e.args
 * (printed, str(), len()), type(e) (its __name__, `type(e) is C`, `==`,
 * printed as <class 'C'>) and isinstance(e, C) (builtins_exc.c types the
 * built-ins these become, lower_exc.c lowers them). A bare `raise` in an
 * except clause re-raises the exception it handles, `raise e` raises e
 * again, and `raise X from Y` raises X (the chain shows only in CPython's
 * traceback, whose last line is X's, as kjit's). Numba's @jit functions
 * bind no exception and refuse the other two with its messages. */
#include "sema_int.h"

#include <string.h>

/* x: a name that holds a caught exception (host code) */
static bool exc_var(kj_ictx *ic, const kj_expr *x)
{
    if (x->kind != KJ_E_NAME) return false;
    const kj_var *v = kj_var_of(ic->sp, x);
    return v && kj_t_is_exception(v->type);
}

static bool named_call(const kj_expr *e, const char *name, uint32_t nargs)
{
    return e->kind == KJ_E_CALL && e->call.fn->kind == KJ_E_NAME && !strcmp(e->call.fn->name, name) &&
           e->call.nargs == nargs && !e->call.nkw;
}

/* An exception class a program may name in a test (abi/exc.h), else an error. */
static bool class_ok(kj_ictx *ic, const kj_expr *c)
{
    if (c->kind == KJ_E_TUPLE) {
        bool ok = true;
        for (uint32_t k = 0; k < c->seq.n; k++) ok = class_ok(ic, c->seq.v[k]) && ok;
        return ok;
    }
    if (c->kind == KJ_E_NAME && !kj_var_of(ic->sp, c) && kj_exc_class(c->name) >= 0) return true;
    kj_diag *dg = kj_error(ic->d, ic->s->src, c->span, "an exception is tested against an exception class kjit knows");
    kj_diag_hint(dg, "name one of Python's built-in classes: Exception, ValueError, IndexError, ... "
                     "(docs/language.md lists them)");
    return false;
}

/* `from Y`: None, an exception class or call (raise.c checks), or an exception */
static void check_cause(kj_ictx *ic, const kj_expr *y)
{
    if (y->kind == KJ_E_NONE) return;
    if (exc_var(ic, y)) {
        kj_type_expr(ic, y);
        return;
    }
    int kind;
    const char *msg;
    kj_raise_eval(ic->s, ic->d, ic->sp, y, &kind, &msg);
}

bool kj_check_raise_obj(kj_ictx *ic, const kj_stmt *st)
{
    const kj_expr *exc = st->raise.exc;
    bool host = kj_host_code(ic->sp);
    if (!exc && !host) {
        kj_diag *dg = kj_error(ic->d, ic->s->src, st->span, "The re-raising of an exception is not yet supported.");
        kj_diag_hint(dg, "Numba's @jit functions cannot re-raise: raise a new exception, or catch it in host code");
        return true;
    }
    if (!exc) {
        if (!ic->handlers) {
            kj_diag *dg = kj_error(ic->d, ic->s->src, st->span, "No active exception to reraise");
            kj_diag_hint(dg, "a bare 'raise' re-raises the exception that an enclosing except clause handles");
        }
        return true;
    }
    if (st->raise.cause && !host) {
        kj_diag *dg = kj_error(ic->d, ic->s->src, st->raise.cause->span, "Multiple argument raise is not supported.");
        kj_diag_hint(dg, "Numba's @jit functions raise without 'from'");
        return true;
    }
    if (st->raise.cause) check_cause(ic, st->raise.cause);
    if (!exc_var(ic, exc)) return false; /* a class or a call of one: raise.c */
    kj_type_expr(ic, exc);
    return true;
}

bool kj_exc_type_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    if (!named_call(e, "type", 1) || !exc_var(ic, e->call.args[0])) return false;
    kj_type_expr(ic, e->call.args[0]);
    ei_value(ei, kj_t_opaque(ic->s->types, "exception type"));
    return true;
}

bool kj_exc_compare(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    if (e->cmp.n != 2 || !named_call(e->cmp.operands[0], "type", 1) ||
        !exc_var(ic, e->cmp.operands[0]->call.args[0]))
        return false;
    kj_cmpop op = e->cmp.ops[0];
    if (op != KJ_CMP_IS && op != KJ_CMP_ISNOT && op != KJ_CMP_EQ && op != KJ_CMP_NE) {
        kj_error(ic->d, ic->s->src, e->span, "an exception's type compares with 'is', 'is not', '==' or '!='");
        return true;
    }
    kj_type_expr(ic, e->cmp.operands[0]);
    const kj_expr *c = e->cmp.operands[1];
    if (c->kind == KJ_E_TUPLE || !class_ok(ic, c)) {
        if (c->kind == KJ_E_TUPLE)
            kj_error(ic->d, ic->s->src, c->span, "an exception's type compares with one exception class");
        return ei_value(ei, NULL), true;
    }
    ei_value(ei, kj_t_bool(ic->s->types));
    return true;
}

bool kj_exc_isinstance(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    if (!named_call(e, "isinstance", 2) || !exc_var(ic, e->call.args[0])) return false;
    kj_type_expr(ic, e->call.args[0]);
    ei_value(ei, class_ok(ic, e->call.args[1]) ? kj_t_bool(ic->s->types) : NULL);
    return true;
}
