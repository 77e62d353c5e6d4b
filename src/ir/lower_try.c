/* SPDX-License-Identifier: BSD-2-Clause */
/* lower_try — raise and try statements to KIR (kir.h: TRY, TRY_END,
 * EXC_MATCH, RERAISE; the runtime's side is src/runtime/rt_exc.c).
 *
 *     try: B                     t = TRY
 *     except A: H1               IF t { B; TRY_END t; E }
 *     except (C, D): H2          else { IF match(t, A) { H1 }
 *     else: E                          else { IF match(t, C) | match(t, D) { H2 }
 *                                             else { RERAISE t } } }
 *
 * A bare `except:` or `except Exception:` matches everything kjit raises.
 * With `finally: F` the whole statement is the body of another TRY, whose
 * handler is `F; RERAISE`, and F follows it: F runs after the body, the
 * else clause and a handler, and before an exception that no handler
 * caught, or that a handler or the else clause raised, propagates.
 * Inference refuses what would leave a clause without running F (a
 * return, a break or continue out of the statement).
 *
 * In host code `except A as e:` stores EXC_VALUE t (the exception as its
 * str()) in e before H1 runs (raise.c types it). */
#include "lower_int.h"

#include "../abi/exc_obj.h"

/* str(x) of a run-time exception argument; repr(x) for a KeyError, as
 * CPython's str(KeyError(x)) */
static kir_ref message_of(lctx *lc, const kj_expr *x, int kind)
{
    kir_ref v = kj_lw_expr(lc, x);
    const kj_type *st = kj_t_str(lc->s->types);
    bool repr = kind == kj_exc_class("KeyError");
    kir_ref args[2] = {v, 0};
    if (repr) {
        args[1] = kj_lw_emit(lc, KIR_CONST_STR, st, x->span);
        kir_at(lc->f, args[1])->s = "!r";
    }
    kir_ref r = kj_lw_emit_args(lc, KIR_BUILTIN, st, x->span, args, repr ? 2 : 1);
    kir_at(lc->f, r)->aux = (uint16_t)(repr ? KJ_B_STR_FMT1 : KJ_B_STR);
    return r;
}

void kj_lower_raise(lctx *lc, const kj_stmt *st)
{
    int kind = 0;
    const char *msg = NULL;
    kj_raise_eval(lc->s, NULL, lc->sp, st->raise.exc, &kind, &msg);
    const kj_expr *dyn = kj_raise_dynamic(lc->s, lc->sp, st->raise.exc);
    kir_ref m = dyn ? message_of(lc, dyn, kind) : 0;
    kir_ref c = kj_lw_emit(lc, KIR_CONST_INT, kj_t_bool(lc->s->types), st->span); /* False */
    kir_ref r = kj_lw_emit(lc, KIR_ASSERT, NULL, st->span);
    kir_inst *in = kir_at(lc->f, r);
    in->a = c, in->b = m, in->s = msg;
    in->aux = (uint16_t)(KIR_ASSERT_RAISE + kind + (kj_raise_form(lc, st->raise.exc, kind) << KJ_EXC_FORM_SHIFT));
}

void kj_lower_leave_tries(lctx *lc, kj_span sp)
{
    for (uint32_t k = lc->tries.n; k-- > 0;) kir_at(lc->f, kj_lw_emit(lc, KIR_TRY_END, NULL, sp))->a = lc->tries.v[k];
}

static kir_ref match(lctx *lc, kir_ref t, const kj_expr *cls)
{
    kir_ref m = kj_lw_emit(lc, KIR_EXC_MATCH, kj_t_bool(lc->s->types), cls->span);
    kir_at(lc->f, m)->a = t;
    kir_at(lc->f, m)->aux = (uint16_t)kj_exc_class(cls->name);
    return m;
}

/* The handler's body, after `as NAME` is bound to the exception caught by t. */
static void handler_body(lctx *lc, kir_ref t, const kj_stmt *h)
{
    KJ_PUSH(lc->s->a, lc->handlers, t); /* a bare raise in h re-raises t's exception: lower_exc.c */
    if (h->except.target && kj_host_code(lc->sp)) {
        kir_ref v = kj_lw_emit(lc, KIR_EXC_VALUE, kj_t_opaque(lc->s->types, "exception"), h->except.name_span);
        kir_at(lc->f, v)->a = t;
        kj_lw_store(lc, h->except.target, v, h->except.name_span);
    }
    kj_lw_block(lc, &h->except.body);
    lc->handlers.n--;
}

/* Handlers k.. of the clauses, for the exception caught by t. */
static void dispatch(lctx *lc, kir_ref t, const kj_block *cl, uint32_t k, kj_span sp)
{
    if (k == cl->n || cl->v[k]->except.clause != KJ_EXCEPT_HANDLER) {
        kir_at(lc->f, kj_lw_emit(lc, KIR_RERAISE, NULL, sp))->a = t;
        return;
    }
    const kj_stmt *h = cl->v[k];
    const kj_expr *ty = h->except.type;
    if (!ty || (ty->kind == KJ_E_NAME && kj_exc_class(ty->name) == kj_exc_class("Exception"))) {
        handler_body(lc, t, h);
        return;
    }
    kir_ref cond = 0;
    uint32_t n = ty->kind == KJ_E_TUPLE ? ty->seq.n : 1;
    for (uint32_t i = 0; i < n; i++) {
        kir_ref m = match(lc, t, ty->kind == KJ_E_TUPLE ? ty->seq.v[i] : ty);
        if (!cond) {
            cond = m;
            continue;
        }
        kir_ref o = kj_lw_emit(lc, KIR_OR, kj_t_bool(lc->s->types), ty->span);
        kir_at(lc->f, o)->a = cond, kir_at(lc->f, o)->b = m;
        cond = o;
    }
    kir_blkid then, els, saved = lc->cur;
    kj_lower_if(lc, cond, h->span, &then, &els);
    lc->cur = then;
    handler_body(lc, t, h);
    lc->cur = els;
    dispatch(lc, t, cl, k + 1, sp);
    lc->cur = saved;
}

/* IF TRY { body; TRY_END; els } else { handlers }, or body alone for a
 * try statement with only a finally clause. */
static void try_except(lctx *lc, const kj_stmt *st, const kj_stmt *els)
{
    const kj_block *cl = &st->try_.clauses;
    if (!cl->n || cl->v[0]->except.clause != KJ_EXCEPT_HANDLER) {
        kj_lw_block(lc, &st->try_.body);
        return;
    }
    kir_ref t = kj_lw_emit(lc, KIR_TRY, kj_t_bool(lc->s->types), st->span);
    kir_blkid then, other, saved = lc->cur;
    kj_lower_if(lc, t, st->span, &then, &other);
    lc->cur = then;
    KJ_PUSH(lc->s->a, lc->tries, t);
    kj_lw_block(lc, &st->try_.body);
    lc->tries.n--;
    kir_at(lc->f, kj_lw_emit(lc, KIR_TRY_END, NULL, st->span))->a = t;
    if (els) kj_lw_block(lc, &els->except.body);
    lc->cur = other;
    dispatch(lc, t, cl, 0, st->span);
    lc->cur = saved;
}

void kj_lower_try(lctx *lc, const kj_stmt *st)
{
    const kj_block *cl = &st->try_.clauses;
    const kj_stmt *els = NULL, *fin = NULL;
    for (uint32_t k = 0; k < cl->n; k++) {
        if (cl->v[k]->except.clause == KJ_EXCEPT_ELSE) els = cl->v[k];
        if (cl->v[k]->except.clause == KJ_EXCEPT_FINALLY) fin = cl->v[k];
    }
    if (!fin) {
        try_except(lc, st, els);
        return;
    }
    kir_ref t = kj_lw_emit(lc, KIR_TRY, kj_t_bool(lc->s->types), fin->span);
    kir_blkid then, other, saved = lc->cur;
    kj_lower_if(lc, t, fin->span, &then, &other);
    lc->cur = then;
    try_except(lc, st, els);
    kir_at(lc->f, kj_lw_emit(lc, KIR_TRY_END, NULL, fin->span))->a = t;
    lc->cur = other;
    kj_lw_block(lc, &fin->except.body);
    kir_at(lc->f, kj_lw_emit(lc, KIR_RERAISE, NULL, fin->span))->a = t;
    lc->cur = saved;
    kj_lw_block(lc, &fin->except.body);
}
