/* SPDX-License-Identifier: BSD-2-Clause */
/* Built-ins the parser rewrites (issue 24; Numba's pysupported.rst, "Built-in
 * functions"):
 *
 *     map(f, a)           [f($m0) for $m0 in a]
 *     map(f, a, b)        [f($m0, $m1) for ($m0, $m1) in zip(a, b)]
 *     filter(f, a)        [$m0 for $m0 in a if f($m0)]
 *     filter(None, a)     [$m0 for $m0 in a if $m0]
 *     getattr(x, 'name')  x.name   (Numba: the name must be a string literal)
 *     pow(a, b)           a ** b   (the same operation in Python; kernels too)
 *     iter(a)             <iter>(), a generator function: for $m0 in a: yield $m0
 *
 * map and filter become comprehensions (parser_comp.c), so that what
 * consumes them — a for loop, list(), sorted(), sum() — sees a list of their
 * values: the same values in the same order as Numba's lazy iterators give,
 * f called once per element. f is read at each element (a name or a lambda:
 * nothing to evaluate twice). A call these forms do not fit is left as it is
 * (sema says what is wrong with it). */
#include "parser_impl.h"

#include <stdio.h>
#include <string.h>

typedef struct mf {
    bool filter;
    kj_expr **iters; /* the iterables, in the enclosing function's call */
    uint32_t n;
    const char **vars; /* $m0, $m1, ... */
    kj_expr *fn;       /* filter: the predicate (NULL for None) */
    kj_span sp;
} mf;

static kj_expr *name(kjp *p, const char *n, kj_span sp)
{
    kj_expr *e = kjp_new_expr(p, KJ_E_NAME, sp);
    e->name = n;
    return e;
}

static kj_expr *call(kjp *p, kj_expr *fn, kj_expr **args, uint32_t n, kj_span sp)
{
    kj_expr *c = kjp_new_expr(p, KJ_E_CALL, sp);
    c->call.fn = fn;
    c->call.args = args;
    c->call.nargs = n;
    return c;
}

/* for $m0 in a: (filter: if f($m0):) inner — or over zip(a, b, ...) */
static kj_stmt *mf_loops(kjp *p, kj_stmt *inner, void *ctx)
{
    mf *m = ctx;
    kj_stmt *f = KJ_NEW(p->a, kj_stmt);
    f->kind = KJ_S_FOR;
    f->span = m->sp;
    if (m->n == 1) {
        f->for_.target = name(p, m->vars[0], m->sp);
        f->for_.iter = m->iters[0];
    } else {
        kj_expr *t = kjp_new_expr(p, KJ_E_TUPLE, m->sp);
        t->seq.v = KJ_NEWN(p->a, kj_expr *, m->n);
        t->seq.n = m->n;
        for (uint32_t i = 0; i < m->n; i++) t->seq.v[i] = name(p, m->vars[i], m->sp);
        f->for_.target = t;
        f->for_.iter = call(p, name(p, "zip", m->sp), m->iters, m->n, m->sp);
    }
    kj_stmt *body = inner;
    if (m->filter) {
        kj_stmt *s = KJ_NEW(p->a, kj_stmt);
        s->kind = KJ_S_IF;
        s->span = m->sp;
        kj_expr *x = name(p, m->vars[0], m->sp);
        if (m->fn) {
            kj_expr **a = KJ_NEWN(p->a, kj_expr *, 1);
            a[0] = x;
            x = call(p, m->fn, a, 1, m->sp);
        }
        s->if_.cond = x;
        kj_stmt **v = KJ_NEWN(p->a, kj_stmt *, 1);
        v[0] = inner;
        s->if_.then = (kj_block){v, 1};
        body = s;
    }
    kj_stmt **v = KJ_NEWN(p->a, kj_stmt *, 1);
    v[0] = body;
    f->for_.body = (kj_block){v, 1};
    return f;
}

static kj_expr *map_filter(kjp *p, kj_expr *c, bool filter, uint32_t nl0)
{
    uint32_t n = c->call.nargs - 1;
    if (filter && n != 1) return c;
    mf m = {.filter = filter, .iters = c->call.args + 1, .n = n, .sp = c->span};
    m.vars = KJ_NEWN(p->a, const char *, n);
    for (uint32_t i = 0; i < n; i++) {
        char buf[16];
        snprintf(buf, sizeof buf, "$m%u", i);
        m.vars[i] = kj_arena_strdup(p->a, buf);
    }
    kj_expr *f = c->call.args[0];
    kj_expr *elt;
    if (filter) {
        m.fn = f->kind == KJ_E_NONE ? NULL : f;
        elt = name(p, m.vars[0], c->span);
    } else {
        kj_expr **a = KJ_NEWN(p->a, kj_expr *, n);
        for (uint32_t i = 0; i < n; i++) a[i] = name(p, m.vars[i], c->span);
        elt = call(p, f, a, n, c->span);
    }
    /* elt holds f for map; the iterables (and filter's f) move in as `more` */
    kj_expr **more = KJ_NEWN(p->a, kj_expr *, n + 1);
    uint32_t nmore = 0;
    for (uint32_t i = 0; i < n; i++) more[nmore++] = m.iters[i];
    if (filter && m.fn) more[nmore++] = m.fn;
    return kjp_comprehension_of(p, c->span, false, NULL, elt, NULL, mf_loops, &m, more, nmore, nl0);
}

/* iter(a): an iterator over what a for loop iterates (lower_pygen.c's
 * generators do the rest: next(), for, list(), ...). a is evaluated when
 * the first value is asked for; what it reads of the function is passed at
 * the call, as a comprehension's. */
static kj_expr *iter_of(kjp *p, kj_expr *c, uint32_t nl0)
{
    mf m = {.iters = c->call.args, .n = 1, .sp = c->span};
    m.vars = KJ_NEWN(p->a, const char *, 1);
    m.vars[0] = "$m0";
    kj_expr **more = KJ_NEWN(p->a, kj_expr *, 1);
    more[0] = m.iters[0];
    return kjp_comprehension_of(p, c->span, false, "iter", name(p, m.vars[0], c->span), NULL, mf_loops, &m, more, 1,
                                nl0);
}

kj_expr *kjp_builtin_call(kjp *p, kj_expr *c, uint32_t nl0)
{
    if (p->panic || c->call.fn->kind != KJ_E_NAME || c->call.nkw) return c;
    const char *fn = c->call.fn->name;
    if (!strcmp(fn, "getattr") && c->call.nargs == 2 && c->call.args[1]->kind == KJ_E_STR &&
        !c->call.args[1]->str.fstr) {
        kj_expr *a = kjp_new_expr(p, KJ_E_ATTR, c->span);
        a->attr.obj = c->call.args[0];
        a->attr.name = c->call.args[1]->str.s;
        a->attr.name_span = c->call.args[1]->span;
        return a;
    }
    if (!strcmp(fn, "pow") && c->call.nargs == 2) {
        kj_expr *e = kjp_new_expr(p, KJ_E_BINOP, c->span);
        e->bin.op = KJ_OP_POW;
        e->bin.l = c->call.args[0];
        e->bin.r = c->call.args[1];
        return e;
    }
    if (!strcmp(fn, "iter") && c->call.nargs == 1) return iter_of(p, c, nl0);
    bool filter = !strcmp(fn, "filter");
    if ((filter || !strcmp(fn, "map")) && c->call.nargs >= 2 &&
        (filter || c->call.args[0]->kind != KJ_E_NONE))
        return map_filter(p, c, filter, nl0);
    return c;
}
