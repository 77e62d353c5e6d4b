/* SPDX-License-Identifier: BSD-2-Clause */
/* `with objmode(y='float64', z='int64[:]'):` (Numba's pysupported.rst, "with
 * objmode"). Numba runs the block in the interpreter and hands the names
 * annotated back to compiled code in the types written. kjit has no
 * interpreter: it compiles the block with the function (ir/infer_objmode.c
 * says what that means), and the parser appends to the block, per
 * annotation,
 *
 *     y = $objmode_out(y, 'float64')
 *
 * the conversion of y to the annotated type (a type the string does not
 * name, or one y cannot convert to, is a compile-time error). */
#include "parser_impl.h"

#include <string.h>

static bool is_objmode(const kj_expr *fn)
{
    if (fn->kind == KJ_E_NAME) return !strcmp(fn->name, "objmode");
    return fn->kind == KJ_E_ATTR && !strcmp(fn->attr.name, "objmode") && fn->attr.obj->kind == KJ_E_NAME &&
           !strcmp(fn->attr.obj->name, "numba");
}

static kj_expr *name(kjp *p, const char *n, kj_span sp)
{
    kj_expr *e = kjp_new_expr(p, KJ_E_NAME, sp);
    e->name = n;
    return e;
}

/* y = $objmode_out(y, 'T') for annotation k */
static kj_stmt *out_stmt(kjp *p, const kj_keyword *k)
{
    kj_expr *c = kjp_new_expr(p, KJ_E_CALL, k->value->span);
    c->call.fn = name(p, "$objmode_out", k->span);
    c->call.args = KJ_NEWN(p->a, kj_expr *, 2);
    c->call.nargs = 2;
    c->call.args[0] = name(p, k->name, k->span);
    kj_expr *t = kjp_new_expr(p, k->value->kind, k->value->span); /* the annotation, a new expression */
    t->str = k->value->str;
    c->call.args[1] = t;
    kj_stmt *s = KJ_NEW(p->a, kj_stmt);
    s->kind = KJ_S_ASSIGN;
    s->span = k->span;
    s->assign.targets = KJ_NEWN(p->a, kj_expr *, 1);
    s->assign.targets[0] = name(p, k->name, k->span);
    s->assign.ntargets = 1;
    s->assign.value = c;
    return s;
}

void kjp_objmode(kjp *p, kj_stmt *s)
{
    const kj_expr *c = s->with.ctx;
    if (p->panic || !p->in_def || c->kind != KJ_E_CALL || !is_objmode(c->call.fn) || c->call.nargs) return;
    for (uint32_t i = 0; i < c->call.nkw; i++)
        if (c->call.kw[i].value->kind != KJ_E_STR || c->call.kw[i].value->str.fstr) return; /* sema refuses it */
    uint32_t n = s->with.body.n + c->call.nkw;
    kj_stmt **v = KJ_NEWN(p->a, kj_stmt *, n);
    memcpy(v, s->with.body.v, s->with.body.n * sizeof *v);
    for (uint32_t i = 0; i < c->call.nkw; i++) v[s->with.body.n + i] = out_stmt(p, &c->call.kw[i]);
    s->with.body = (kj_block){v, n};
}
