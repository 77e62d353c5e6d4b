/* SPDX-License-Identifier: BSD-2-Clause */
/* Comprehensions (issue 24 point 1). Python compiles `[elt for x in it if c]`
 * into a function that it calls in place, and Numba 0.56 inlines that
 * function (pysupported.rst, "list comprehension"); kjit does the same in
 * the parser: the comprehension becomes a function, as a lambda does
 * (parser_lambda.c),
 *
 *     def <listcomp>():              # <dictcomp> for {k: v for ...}
 *         $r = []                    # {}
 *         for x in it:               # one `for` per clause, nested
 *             if c:                  # one `if` per condition
 *                 $r.append(elt)     # $r[k] = v
 *         return $r
 *
 * and the comprehension the call `<listcomp>()`. What the comprehension reads
 * of the enclosing function (or of a script's module-level variables) is
 * passed to it by parser_closure.c's lambda lifting, so a comprehension sees
 * the values at the moment it runs, as Python's does; its targets are its own
 * locals (Python 3 scoping). The element was parsed before its `for` was seen,
 * as an expression of the enclosing function: it is renumbered into the new
 * function, and the lambdas and comprehensions written in it move there too.
 *
 * Numba 0.56 refuses set comprehensions and generator expressions (its
 * messages, located); so does kjit, for every .k program must run under Numba. */
#include "parser_impl.h"

#include <stdio.h>
#include <string.h>

#define RESULT "$r" /* the list or dict being built: no Python name can clash */

static void renumber(kj_expr *e, void *ctx)
{
    e->id = (*(uint32_t *)ctx)++;
}

static kj_stmt *stmt(kjp *p, kj_stmt_kind k, kj_span sp)
{
    kj_stmt *s = KJ_NEW(p->a, kj_stmt);
    s->kind = k;
    s->span = sp;
    return s;
}

static kj_block block1(kjp *p, kj_stmt *s)
{
    kj_stmt **v = KJ_NEWN(p->a, kj_stmt *, 1);
    v[0] = s;
    return (kj_block){v, 1};
}

static kj_expr *result(kjp *p, kj_span sp)
{
    kj_expr *e = kjp_new_expr(p, KJ_E_NAME, sp);
    e->name = RESULT;
    return e;
}

/* the innermost statement: $r.append(elt) or $r[k] = v */
static kj_stmt *add_stmt(kjp *p, bool dict, kj_expr *elt, kj_expr *val)
{
    kj_span sp = dict ? kj_span_join(elt->span, val->span) : elt->span;
    if (dict) {
        kj_stmt *s = stmt(p, KJ_S_ASSIGN, sp);
        kj_expr *t = kjp_new_expr(p, KJ_E_SUBSCRIPT, sp);
        t->sub.obj = result(p, sp);
        t->sub.index = elt;
        s->assign.targets = KJ_NEWN(p->a, kj_expr *, 1);
        s->assign.targets[0] = t;
        s->assign.ntargets = 1;
        s->assign.value = val;
        return s;
    }
    kj_expr *m = kjp_new_expr(p, KJ_E_ATTR, sp);
    m->attr.obj = result(p, sp);
    m->attr.name = "append";
    m->attr.name_span = sp;
    kj_expr *call = kjp_new_expr(p, KJ_E_CALL, sp);
    call->call.fn = m;
    call->call.args = KJ_NEWN(p->a, kj_expr *, 1);
    call->call.args[0] = elt;
    call->call.nargs = 1;
    kj_stmt *s = stmt(p, KJ_S_EXPR, sp);
    s->expr = call;
    return s;
}

/* comp_for: ('for' target_list 'in' disjunction ('if' disjunction)*)+, at
 * the first `for`; the loops nest around `inner`, which is returned wrapped */
static kj_stmt *clauses(kjp *p, kj_stmt *inner)
{
    kj_token *kw = kjp_next(p);
    kj_stmt *f = stmt(p, KJ_S_FOR, kw->span);
    f->for_.target = kjp_target_list(p);
    if (!p->panic && kjp_check_target(p, f->for_.target, false, false) && !kjp_accept(p, KJ_TOK_KW_IN))
        kjp_error(p, kjp_cur(p)->span, "expected 'in'");
    f->for_.iter = p->panic ? f->for_.target : kjp_disjunction(p);
    f->span = kjp_span_from(p, kw->span);
    KJ_VEC(kj_stmt *) ifs = {0};
    while (!p->panic && kjp_at(p, KJ_TOK_KW_IF)) {
        kj_token *ik = kjp_next(p);
        kj_stmt *s = stmt(p, KJ_S_IF, ik->span);
        s->if_.cond = kjp_disjunction(p);
        s->span = kjp_span_from(p, ik->span);
        KJP_PUSH(p->a, ifs, s);
    }
    kj_stmt *body = !p->panic && kjp_at(p, KJ_TOK_KW_FOR) ? clauses(p, inner) : inner;
    for (uint32_t i = ifs.n; i-- > 0;) {
        ifs.v[i]->if_.then = block1(p, body);
        body = ifs.v[i];
    }
    f->for_.body = block1(p, body);
    return f;
}

static const char *comp_name(kjp *p, const char *what)
{
    char buf[40];
    if (p->ncomps++ == 0) snprintf(buf, sizeof buf, "<%s>", what);
    else snprintf(buf, sizeof buf, "<%s#%u>", what, p->ncomps);
    return kj_arena_strdup(p->a, buf);
}

static kj_expr *refuse(kjp *p, kj_span open, kj_expr_kind kind)
{
    kj_diag *dg;
    if (kind == KJ_E_SET) {
        dg = kjp_error(p, open, "Use of unsupported opcode (SET_ADD) found");
        kj_diag_hint(dg, "Numba 0.56 has no set comprehensions: add to a set in a for loop");
    } else if (kind == KJ_E_TUPLE) {
        dg = kjp_error(p, open, "The use of yield in a closure is unsupported.");
        kj_diag_hint(dg, "Numba 0.56 has no generator expressions: build a list with a list "
                         "comprehension, or use a for loop");
    } else {
        dg = kjp_error(p, open, "a comprehension inside a lambda is not supported");
        kj_diag_hint(dg, "write the lambda as a def");
    }
    return kjp_new_expr(p, KJ_E_NONE, open);
}

/* the function's DEF statement, body `$r = []; <clauses>; return $r` */
static kj_stmt *comp_def(kjp *p, kj_funcdef *fd, kj_span sp, kj_stmt *loops, bool dict)
{
    kj_stmt *init = stmt(p, KJ_S_ASSIGN, sp);
    init->assign.targets = KJ_NEWN(p->a, kj_expr *, 1);
    init->assign.targets[0] = result(p, sp);
    init->assign.ntargets = 1;
    init->assign.value = kjp_new_expr(p, dict ? KJ_E_DICT : KJ_E_LIST, sp);
    kj_stmt *ret = stmt(p, KJ_S_RETURN, sp);
    ret->ret.value = result(p, sp);
    kj_stmt **v = KJ_NEWN(p->a, kj_stmt *, 3);
    v[0] = init, v[1] = loops, v[2] = ret;
    fd->body = (kj_block){v, 3};
    kj_stmt *def = stmt(p, KJ_S_DEF, fd->span);
    def->def = fd;
    return def;
}

/* `yield elt` */
kj_stmt *kjp_yield_of(kjp *p, kj_expr *elt)
{
    kj_stmt *s = stmt(p, KJ_S_YIELD, elt->span);
    s->ret.value = elt;
    return s;
}

/* the DEF statement of function fd whose body is the one statement `body` */
kj_stmt *kjp_def_of(kjp *p, kj_funcdef *fd, kj_stmt *body)
{
    kj_stmt **v = KJ_NEWN(p->a, kj_stmt *, 1);
    v[0] = body;
    fd->body = (kj_block){v, 1};
    kj_stmt *def = stmt(p, KJ_S_DEF, fd->span);
    def->def = fd;
    return def;
}

static kj_stmt *parse_clauses(kjp *p, kj_stmt *inner, void *ctx)
{
    (void)ctx;
    return clauses(p, inner);
}

kj_expr *kjp_comprehension(kjp *p, kj_span open, kj_expr_kind kind, kj_expr *elt, kj_expr *val, uint32_t nl0)
{
    /* A generator expression that is a call's only argument, sum(x for x in
     * a): host code consumes it as CPython does, so it is the list
     * comprehension; resolve.c refuses it in compiled functions, as Numba. */
    bool gen = kind == KJ_E_CALL;
    if (gen) kind = KJ_E_LIST;
    if (kind != KJ_E_LIST && kind != KJ_E_DICT) return refuse(p, open, kind);
    return kjp_comprehension_of(p, open, kind == KJ_E_DICT, gen ? "genexpr" : NULL, elt, val, parse_clauses, NULL, NULL,
                                0, nl0);
}

/* The function of a comprehension whose `for` clauses `loops` makes (from
 * the tokens, or built by parser_builtin.c for map and filter) around the
 * innermost statement; `more` are the other expressions written in the
 * enclosing function that move into it. `what` names the function
 * ("<what#N>"; NULL: listcomp or dictcomp). */
kj_expr *kjp_comprehension_of(kjp *p, kj_span open, bool dict, const char *what, kj_expr *elt, kj_expr *val,
                              kjp_loops_fn loops_fn, void *ctx, kj_expr **more, uint32_t nmore, uint32_t nl0)
{
    if (p->in_def && !p->def) return refuse(p, open, KJ_E_NONE); /* in a lambda's body */
    kj_funcdef *fd = KJ_NEW(p->a, kj_funcdef);
    fd->encl = p->def;
    fd->name = comp_name(p, what ? what : dict ? "dictcomp" : "listcomp");
    fd->span = fd->name_span = open;
    kjp_walk_expr(elt, renumber, &fd->nexprs);
    kjp_walk_expr(val, renumber, &fd->nexprs);
    for (uint32_t i = 0; i < nmore; i++) kjp_walk_expr(more[i], renumber, &fd->nexprs);
    for (uint32_t i = nl0; i < p->lambdas.n; i++) /* written in the element: now inside fd */
        if (p->lambdas.v[i]->def->encl == p->def) p->lambdas.v[i]->def->encl = fd;
    uint32_t *ids = p->ids;
    bool in_def = p->in_def;
    const kj_funcdef *encl = p->def;
    p->ids = &fd->nexprs;
    p->in_def = true;
    p->def = fd;
    bool gen = what && !strcmp(what, "iter"); /* iter(x): `yield elt` in the loops, nothing else */
    kj_stmt *loops = loops_fn(p, gen ? kjp_yield_of(p, elt) : add_stmt(p, dict, elt, val), ctx);
    fd->span = fd->name_span = kjp_span_from(p, open); /* to the last clause: the closer is the caller's */
    kj_stmt *def = p->panic ? NULL : gen ? kjp_def_of(p, fd, loops) : comp_def(p, fd, fd->span, loops, dict);
    p->ids = ids;
    p->in_def = in_def;
    p->def = encl;
    if (p->panic) return kjp_new_expr(p, KJ_E_NONE, open);
    KJP_PUSH(p->a, p->lambdas, def);
    kj_expr *fn = kjp_new_expr(p, KJ_E_NAME, fd->span);
    fn->name = fd->name;
    kj_expr *call = kjp_new_expr(p, KJ_E_CALL, fd->span);
    call->call.fn = fn;
    return call;
}
