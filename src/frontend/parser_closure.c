/* SPDX-License-Identifier: BSD-2-Clause */
/* Closures (issue 23 point 6): a lambda or def written in a function that
 * reads the function's variables. Numba inlines such a lambda where it is called, so
 * that the call reads the variables' values at that moment (Python's late
 * binding); a lambda that escapes (passed on, returned) is Numba's
 * "Cannot capture the non-constant value ... in a function that will
 * escape". kjit gets the same by lambda lifting, once the enclosing function
 * is parsed: the variables the lambda reads become parameters of the
 * module-level function the lambda was made into (parser_lambda.c), and
 * every call of it in the enclosing function — through the lambda in place or
 * a name bound to it once — passes them by keyword. Any other use of it is an
 * escape, refused with Numba's message.
 *
 * Free names are found syntactically: a name the lambda reads, not its own
 * parameter, that is a parameter of the enclosing function or a target of one
 * of its assignments. A name this misses (in a construct not walked here) is
 * still refused in sema (infer_expr.c's closure_error), never misread. */
#include "parser_impl.h"

#include <string.h>

typedef void (*expr_fn)(kj_expr *e, void *ctx);
#define walk_expr kjp_walk_expr

/* fn on e and every expression below it, pre-order */
void kjp_walk_expr(kj_expr *e, expr_fn fn, void *ctx)
{
    if (!e) return;
    fn(e, ctx);
    switch (e->kind) {
    case KJ_E_ATTR: walk_expr(e->attr.obj, fn, ctx); break;
    case KJ_E_CALL:
        walk_expr(e->call.fn, fn, ctx);
        for (uint32_t i = 0; i < e->call.nargs; i++) walk_expr(e->call.args[i], fn, ctx);
        for (uint32_t i = 0; i < e->call.nkw; i++) walk_expr(e->call.kw[i].value, fn, ctx);
        break;
    case KJ_E_SUBSCRIPT: walk_expr(e->sub.obj, fn, ctx); walk_expr(e->sub.index, fn, ctx); break;
    case KJ_E_SLICE:
        walk_expr(e->slice.lo, fn, ctx);
        walk_expr(e->slice.hi, fn, ctx);
        walk_expr(e->slice.step, fn, ctx);
        break;
    case KJ_E_TUPLE: case KJ_E_LIST: case KJ_E_DICT: case KJ_E_SET:
        for (uint32_t i = 0; i < e->seq.n; i++) walk_expr(e->seq.v[i], fn, ctx);
        break;
    case KJ_E_BINOP: walk_expr(e->bin.l, fn, ctx); walk_expr(e->bin.r, fn, ctx); break;
    case KJ_E_UNARY: walk_expr(e->un.x, fn, ctx); break;
    case KJ_E_BOOLOP: walk_expr(e->boolop.l, fn, ctx); walk_expr(e->boolop.r, fn, ctx); break;
    case KJ_E_COMPARE:
        for (uint32_t i = 0; i < e->cmp.n; i++) walk_expr(e->cmp.operands[i], fn, ctx);
        break;
    case KJ_E_IFEXP:
        walk_expr(e->ifexp.cond, fn, ctx);
        walk_expr(e->ifexp.then, fn, ctx);
        walk_expr(e->ifexp.els, fn, ctx);
        break;
    default: break;
    }
}

/* fn on every expression of the statements of b (nested blocks included) */
static void walk_block(const kj_block *b, expr_fn fn, void *ctx)
{
    for (uint32_t i = 0; i < b->n; i++) {
        kj_stmt *st = b->v[i];
        switch (st->kind) {
        case KJ_S_EXPR: walk_expr(st->expr, fn, ctx); break;
        case KJ_S_ASSIGN:
            for (uint32_t k = 0; k < st->assign.ntargets; k++) walk_expr(st->assign.targets[k], fn, ctx);
            walk_expr(st->assign.value, fn, ctx);
            break;
        case KJ_S_AUGASSIGN: walk_expr(st->aug.target, fn, ctx); walk_expr(st->aug.value, fn, ctx); break;
        case KJ_S_IF: walk_expr(st->if_.cond, fn, ctx); break;
        case KJ_S_WHILE: walk_expr(st->while_.cond, fn, ctx); break;
        case KJ_S_FOR: walk_expr(st->for_.target, fn, ctx); walk_expr(st->for_.iter, fn, ctx); break;
        case KJ_S_WITH: walk_expr(st->with.ctx, fn, ctx); break;
        case KJ_S_RETURN: case KJ_S_YIELD: walk_expr(st->ret.value, fn, ctx); break;
        case KJ_S_ASSERT: walk_expr(st->assert_.cond, fn, ctx); walk_expr(st->assert_.msg, fn, ctx); break;
        default: break;
        }
        const kj_block *in[2];
        for (uint32_t k = 0, nb = kj_stmt_blocks(st, in); k < nb; k++) walk_block(in[k], fn, ctx);
    }
}

static bool binds(const kj_expr *t, const char *name)
{
    if (t->kind == KJ_E_TUPLE || t->kind == KJ_E_LIST) {
        for (uint32_t i = 0; i < t->seq.n; i++)
            if (binds(t->seq.v[i], name)) return true;
        return false;
    }
    return t->kind == KJ_E_NAME && !strcmp(t->name, name);
}

/* how many statements of b bind name */
static uint32_t count_binds(const kj_block *b, const char *name)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < b->n; i++) {
        kj_expr *const *t;
        const kj_block *in[2];
        for (uint32_t k = 0, nt = kj_stmt_targets(b->v[i], &t); k < nt; k++) n += binds(t[k], name);
        for (uint32_t k = 0, nb = kj_stmt_blocks(b->v[i], in); k < nb; k++) n += count_binds(in[k], name);
    }
    return n;
}

static bool is_param(const kj_funcdef *fd, const char *name)
{
    for (uint32_t i = 0; i < fd->nparams; i++)
        if (!strcmp(fd->params[i].name, name)) return true;
    return false;
}

/* ---- the free names of a lambda ---- */

typedef struct freevars {
    kjp *p;
    const kj_funcdef *encl, *lam;
    KJ_VEC(const kj_expr *) v; /* the first read of each */
} freevars;

static void find_free(kj_expr *e, void *ctx)
{
    freevars *fv = ctx;
    if (e->kind != KJ_E_NAME || is_param(fv->lam, e->name) || count_binds(&fv->lam->body, e->name)) return;
    bool bound = false; /* in the enclosing function, or one around it */
    for (const kj_funcdef *f = fv->encl; f && !bound; f = f->encl)
        bound = is_param(f, e->name) || count_binds(&f->body, e->name);
    if (!bound) return;
    for (uint32_t i = 0; i < fv->v.n; i++)
        if (!strcmp(fv->v.v[i]->name, e->name)) return;
    KJP_PUSH(fv->p->a, fv->v, e);
}

/* ---- its uses in the enclosing function ---- */

typedef struct uses {
    kjp *p;
    kj_funcdef *lam;
    const char *alias;      /* the local bound to it (`f = lambda ...`), or NULL */
    const kj_expr *bind;    /* that binding's value: the lambda's name, not an escape */
    const kj_expr *target;  /* and its target */
    const freevars *fv;
    KJ_VEC(const kj_expr *) callees; /* names called: not escapes */
} uses;

static bool names_lambda(const uses *u, const kj_expr *e)
{
    return e->kind == KJ_E_NAME && (!strcmp(e->name, u->lam->name) || (u->alias && !strcmp(e->name, u->alias)));
}

/* a call of the lambda: its free names passed by keyword */
static void pass_free(kj_expr *e, void *ctx)
{
    uses *u = ctx;
    if (e->kind != KJ_E_CALL || !names_lambda(u, e->call.fn)) return;
    KJP_PUSH(u->p->a, u->callees, e->call.fn);
    uint32_t n = e->call.nkw + u->fv->v.n;
    kj_keyword *kw = KJ_NEWN(u->p->a, kj_keyword, n);
    if (e->call.nkw) memcpy(kw, e->call.kw, e->call.nkw * sizeof *kw); /* kw is NULL when none */
    for (uint32_t i = 0; i < u->fv->v.n; i++) {
        kj_expr *x = kjp_new_expr(u->p, KJ_E_NAME, e->span);
        x->name = u->fv->v.v[i]->name;
        kw[e->call.nkw + i] = (kj_keyword){x->name, e->span, x};
    }
    e->call.kw = kw;
    e->call.nkw = n;
}

static void find_escape(kj_expr *e, void *ctx)
{
    uses *u = ctx;
    if (!names_lambda(u, e) || e == u->bind || e == u->target) return;
    for (uint32_t i = 0; i < u->callees.n; i++)
        if (u->callees.v[i] == e) return;
    kj_diag *dg = kjp_error(u->p, e->span, "Cannot capture the non-constant value associated with variable "
                                           "'%s' in a function that will escape", u->fv->v.v[0]->name);
    kj_diag_hint(dg, "%s reads '%s' of %s(): call it there, or pass '%s' as a parameter", u->lam->name,
                 u->fv->v.v[0]->name, u->fv->encl->name, u->fv->v.v[0]->name);
    u->callees.n = 0; /* one error per lambda */
    KJP_PUSH(u->p->a, u->callees, e);
}

/* `NAME = <lambda>` once in the function: NAME is its alias */
static void find_alias(const kj_block *b, uses *u)
{
    for (uint32_t i = 0; i < b->n; i++) {
        kj_stmt *st = b->v[i];
        const kj_block *in[2];
        for (uint32_t k = 0, nb = kj_stmt_blocks(st, in); k < nb; k++) find_alias(in[k], u);
        if (st->kind != KJ_S_ASSIGN || st->assign.ntargets != 1) continue;
        const kj_expr *t = st->assign.targets[0], *v = st->assign.value;
        if (t->kind == KJ_E_NAME && v->kind == KJ_E_NAME && !strcmp(v->name, u->lam->name)) {
            u->alias = t->name;
            u->bind = v;
            u->target = t;
        }
    }
}

/* def NAME inside a function (named OUTER.NAME): NAME in its own body is
 * the function itself (recursion), not the enclosing function's variable */
static void self_name(kj_expr *e, void *ctx)
{
    const kj_funcdef *lam = ctx;
    const char *dot = strrchr(lam->name, '.');
    if (e->kind == KJ_E_NAME && dot && !strcmp(e->name, dot + 1)) e->name = lam->name;
}

static void lift(kjp *p, kj_funcdef *encl, kj_funcdef *lam)
{
    if (strchr(lam->name, '.')) walk_block(&lam->body, self_name, lam);
    freevars fv = {.p = p, .encl = encl, .lam = lam};
    walk_block(&lam->body, find_free, &fv);
    if (!fv.v.n) return;
    if (lam->vararg) { /* the captures would follow the *args parameter, which takes every extra argument */
        kjp_error(p, lam->span, "an inner function with *args that reads '%s' of %s() is not supported",
                  fv.v.v[0]->name, encl->name);
        return;
    }
    kj_param *ps = KJ_NEWN(p->a, kj_param, lam->nparams + fv.v.n);
    if (lam->nparams) memcpy(ps, lam->params, lam->nparams * sizeof *ps); /* NULL when none */
    for (uint32_t i = 0; i < fv.v.n; i++) ps[lam->nparams + i] = (kj_param){fv.v.v[i]->name, fv.v.v[i]->span, NULL};
    lam->params = ps;
    lam->nparams += fv.v.n;
    uses u = {.p = p, .lam = lam, .fv = &fv};
    find_alias(&encl->body, &u);
    if (u.alias && count_binds(&encl->body, u.alias) != 1) u.alias = NULL; /* rebound: every use escapes */
    uint32_t *ids = p->ids;
    p->ids = &encl->nexprs; /* the names passed are expressions of encl's body */
    walk_block(&encl->body, pass_free, &u);
    walk_block(&encl->body, find_escape, &u);
    p->ids = &lam->nexprs; /* and of its own, when it calls itself */
    u.alias = NULL;
    walk_block(&lam->body, pass_free, &u);
    walk_block(&lam->body, find_escape, &u);
    p->ids = ids;
}

void kjp_lift_closures(kjp *p)
{
    /* innermost first (each is pushed when its parse ends): what an inner
     * function reads of an outer one is passed through the ones between */
    for (uint32_t i = p->lifted; i < p->lambdas.n; i++) {
        kj_funcdef *lam = p->lambdas.v[i]->def;
        kj_funcdef *encl = (kj_funcdef *)lam->encl; /* arena-owned, being parsed */
        if (!encl) continue;
        bool panic = p->panic;
        p->panic = false; /* its own errors, whatever the function's last statement left */
        lift(p, encl, lam);
        p->panic = panic || p->panic;
    }
    p->lifted = p->lambdas.n;
}

/* A script's module-level statements are the body of <module>
 * (resolve_script.c): a comprehension there gets the module-level variables
 * it reads as a comprehension in a function gets the function's. */
void kjp_lift_module(kjp *p, const kj_block *body)
{
    kjp_lift_closures(p); /* those nested in a module-level comprehension first */
    kj_funcdef mod = {.name = "<module>", .body = *body, .nexprs = *p->mod_ids};
    for (uint32_t i = 0; i < p->lambdas.n; i++) {
        kj_funcdef *lam = p->lambdas.v[i]->def;
        if (lam->encl || (strncmp(lam->name, "<listcomp", 9) && strncmp(lam->name, "<dictcomp", 9))) continue;
        bool panic = p->panic;
        p->panic = false;
        lift(p, &mod, lam);
        p->panic = panic || p->panic;
    }
    *p->mod_ids = mod.nexprs;
}
