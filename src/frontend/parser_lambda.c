/* SPDX-License-Identifier: BSD-2-Clause */
/* lambda (issue 23 point 6). A lambda at module level — bound to a name
 * (`f = lambda x: x + 1`) or written in place (`cuda.reduce(lambda a, b:
 * a + b)`, `njit(lambda x: 2 * x)`) — is a function as `def` makes one: the
 * parser makes a DEF statement of it, put before the statement that holds
 * the lambda (functions are defined before a script's statements run, so
 * the place does not matter). Bound to one name, the function is that name
 * (`f = lambda ...` is `def f(...)`); in place, it is named `<lambda>` as
 * CPython names it (`<lambda#2>`, ... after the first, so that each is its
 * own function). Its body is one expression, returned.
 *
 * A lambda written inside a function is made a module-level function the
 * same way (in place named `<lambda#N>`; `f = lambda ...` there binds the
 * local f to it, a static local of a host function, resolve.c), which is
 * what Numba's inlining of it computes as long as its body reads only its
 * parameters and module-level names: one that reads a local of the
 * enclosing function is a closure, refused in sema (infer_expr.c) with the
 * name it reads. */
#include "parser_impl.h"

#include <stdio.h>

/* lambda parameters: [NAME ['=' expression] (',' NAME ['=' expression])*] up
 * to the ':' (defaults are module-level expressions, as def's are) */
static void lambda_params(kjp *p, kj_funcdef *fd)
{
    KJ_VEC(kj_param) ps = {0};
    kj_strtab seen = {0};
    bool seen_default = false;
    while (kjp_at(p, KJ_TOK_NAME)) {
        kj_token *t = kjp_next(p);
        kj_param pm = {kjp_name(p, t), t->span, NULL};
        if (kjp_at(p, KJ_TOK_ASSIGN) && p->in_def) { /* defaults are module-level expressions */
            kjp_error(p, kjp_cur(p)->span, "a default value in a lambda inside a function is not supported");
            break;
        }
        if (kjp_accept(p, KJ_TOK_ASSIGN)) {
            pm.def = kjp_expr(p);
            seen_default = true;
        } else if (seen_default) {
            kjp_error(p, t->span, "non-default argument follows default argument");
        }
        if (!kj_strtab_put(p->a, &seen, pm.name, ps.n))
            kjp_error(p, t->span, "duplicate argument '%s' in function definition", pm.name);
        KJP_PUSH(p->a, ps, pm);
        if (p->panic || !kjp_accept(p, KJ_TOK_COMMA)) break;
    }
    fd->params = ps.v;
    fd->nparams = ps.n;
    if (p->panic) return;
    if (ps.n > KJ_MAX_ARGS)
        kjp_error(p, ps.v[KJ_MAX_ARGS].span, "a function of %u parameters: kjit allows at most %d", ps.n,
                  KJ_MAX_ARGS);
    else if (!kjp_accept(p, KJ_TOK_COLON))
        kj_diag_hint(kjp_unexpected(p), "a lambda's parameters are names, each with an optional default, "
                                        "then ':'");
}

static const char *lambda_name(kjp *p)
{
    if (p->nlambdas++ == 0) return "<lambda>";
    char buf[32];
    snprintf(buf, sizeof buf, "<lambda#%u>", p->nlambdas);
    return kj_arena_strdup(p->a, buf);
}

kj_expr *kjp_lambda(kjp *p)
{
    kj_token *kw = kjp_next(p);
    if (p->in_def && !p->def) { /* in a lambda's body */
        kj_diag *dg = kjp_error(p, kw->span, "a lambda inside a lambda is not supported");
        kj_diag_hint(dg, "define the inner one at module level");
        return kjp_new_expr(p, KJ_E_NONE, kw->span);
    }
    kj_funcdef *fd = KJ_NEW(p->a, kj_funcdef);
    fd->encl = p->def;
    fd->name = lambda_name(p);
    fd->span = fd->name_span = kw->span;
    lambda_params(p, fd);
    if (p->panic) return kjp_new_expr(p, KJ_E_NONE, kw->span);
    uint32_t *ids = p->ids, loops = p->loops;
    bool in_def = p->in_def;
    const kj_funcdef *encl = p->def;
    p->ids = &fd->nexprs;
    p->in_def = true;
    p->def = NULL;
    p->loops = 0;
    kj_expr *body = kjp_expr(p);
    p->ids = ids;
    p->in_def = in_def;
    p->def = encl;
    p->loops = loops;
    kj_stmt *ret = KJ_NEW(p->a, kj_stmt);
    ret->kind = KJ_S_RETURN;
    ret->span = body->span;
    ret->ret.value = body;
    kj_stmt **v = KJ_NEWN(p->a, kj_stmt *, 1);
    v[0] = ret;
    fd->body = (kj_block){v, 1};
    kj_stmt *def = KJ_NEW(p->a, kj_stmt);
    def->kind = KJ_S_DEF;
    def->span = fd->span;
    def->def = fd;
    KJP_PUSH(p->a, p->lambdas, def);
    kj_expr *e = kjp_new_expr(p, KJ_E_NAME, kjp_span_from(p, kw->span));
    e->name = fd->name;
    return e;
}

bool kjp_lambda_named(kjp *p, const kj_expr *target, const kj_expr *value)
{
    if (p->in_def || target->kind != KJ_E_NAME || value->kind != KJ_E_NAME || !p->lambdas.n) return false;
    kj_funcdef *fd = p->lambdas.v[p->lambdas.n - 1]->def;
    if (fd->name != value->name) return false; /* not this lambda: another name */
    fd->name = target->name;
    fd->name_span = target->span;
    p->nlambdas--; /* its in-place name is free again */
    return true;
}

kj_stmt *kjp_inner_def(kjp *p, kj_funcdef *fd, const kj_funcdef *outer)
{
    kj_expr *target = kjp_new_expr(p, KJ_E_NAME, fd->name_span);
    target->name = fd->name;
    fd->encl = outer;
    fd->name = kj_arena_printf(p->a, "%s.%s", outer->name, fd->name);
    kj_stmt *def = KJ_NEW(p->a, kj_stmt);
    def->kind = KJ_S_DEF;
    def->span = fd->span;
    def->def = fd;
    KJP_PUSH(p->a, p->lambdas, def);
    kj_expr *value = kjp_new_expr(p, KJ_E_NAME, fd->name_span);
    value->name = fd->name;
    kj_stmt *st = KJ_NEW(p->a, kj_stmt);
    st->kind = KJ_S_ASSIGN;
    st->span = fd->span;
    kj_expr **ts = KJ_NEWN(p->a, kj_expr *, 1);
    ts[0] = target;
    st->assign.targets = ts;
    st->assign.ntargets = 1;
    st->assign.value = value;
    return st;
}
