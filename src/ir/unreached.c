/* SPDX-License-Identifier: BSD-2-Clause */
/* Names in functions nothing calls.
 *
 * Type inference only reaches functions called from a root (main, explicit
 * signatures), as Numba compiles lazily. A lazy kernel that is never
 * launched still deserves its obvious errors — an unknown name, a misspelt
 * `cuda.syncthread` — so its body is walked once for names alone. */
#include "sema_int.h"

#include <string.h>

typedef struct {
    kj_sema *s;
    KJ_VEC(const char *) locals;
    kj_strtab local_set; /* the same names, hashed */
} nctx;

static bool is_local(const nctx *c, const char *name)
{
    return kj_strtab_get(&c->local_set, name, NULL);
}

static void add_target_name(nctx *c, const char *name)
{
    if (kj_strtab_put(c->s->a, &c->local_set, name, c->locals.n)) KJ_PUSH(c->s->a, c->locals, name);
}

static void add_target(nctx *c, const kj_expr *t)
{
    if (t->kind == KJ_E_TUPLE || t->kind == KJ_E_LIST) {
        for (uint32_t i = 0; i < t->seq.n; i++) add_target(c, t->seq.v[i]);
    } else if (t->kind == KJ_E_NAME) {
        add_target_name(c, t->name);
    }
}

static void collect(nctx *c, const kj_block *b)
{
    for (uint32_t i = 0; i < b->n; i++) {
        kj_expr *const *t;
        const kj_block *in[2];
        for (uint32_t k = 0, nt = kj_stmt_targets(b->v[i], &t); k < nt; k++) add_target(c, t[k]);
        for (uint32_t k = 0, nb = kj_stmt_blocks(b->v[i], in); k < nb; k++) collect(c, in[k]);
    }
}

static void check_expr(nctx *c, const kj_expr *e);

static void check_list(nctx *c, kj_expr *const *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) check_expr(c, v[i]);
}

/* The leftmost name of an attribute chain. */
static const kj_expr *chain_base(const kj_expr *e)
{
    while (e->kind == KJ_E_ATTR) e = e->attr.obj;
    return e;
}

static void check_expr(nctx *c, const kj_expr *e)
{
    if (!e) return;
    kj_einfo ref;
    switch (e->kind) {
    case KJ_E_NAME:
        /* a script's module variable is no error until a compiled function
         * that reads it is called (infer reports it then) */
        if (!is_local(c, e->name) && !kj_static_ref(c->s, e, &ref, false) &&
            !(c->s->script && kj_count_assigns(&c->s->script->def->body, e->name)) &&
            !kj_frozen_is_host_global(c->s, e->name)) {
            kj_diag *dg = kj_error(c->s->d, c->s->src, e->span, "unknown name '%s'", e->name);
            if (!dg) break; /* past the error limit: no hint to look for */
            const char *cands[256];
            size_t n = 0;
            for (uint32_t i = 0; i < c->locals.n && n < 120; i++) cands[n++] = c->locals.v[i];
            for (uint32_t i = 0; i < c->s->syms.n && n < 250; i++) cands[n++] = c->s->syms.v[i].name;
            const char *h = kj_closest(e->name, cands, n);
            if (h) kj_diag_hint(dg, "did you mean '%s'?", h);
        }
        break;
    case KJ_E_ATTR: {
        const kj_expr *base = chain_base(e);
        if (base->kind == KJ_E_NAME && !is_local(c, base->name)) {
            kj_static_ref(c->s, e, &ref, true); /* reports unknown module attributes */
            if (!kj_static_ref(c->s, base, &ref, false)) check_expr(c, base);
        } else {
            check_expr(c, e->attr.obj);
        }
        break;
    }
    case KJ_E_CALL:
        if (kj_is_isinstance_call(e) && e->call.nargs == 2) { /* isinstance(x, CLASS): names no value */
            check_expr(c, e->call.args[0]);
            break;
        }
        if (kj_is_tuple_call(e) || kj_is_static_builtin_call(e)) { /* the tuple constructor; type(x), hasattr */
            check_list(c, e->call.args, e->call.nargs);
            break;
        }
        check_expr(c, e->call.fn);
        check_list(c, e->call.args, e->call.nargs);
        for (uint32_t i = 0; i < e->call.nkw; i++) check_expr(c, e->call.kw[i].value);
        break;
    case KJ_E_SUBSCRIPT: check_expr(c, e->sub.obj); check_expr(c, e->sub.index); break;
    case KJ_E_SLICE: check_expr(c, e->slice.lo); check_expr(c, e->slice.hi); check_expr(c, e->slice.step); break;
    case KJ_E_TUPLE: case KJ_E_LIST: case KJ_E_DICT: case KJ_E_SET: check_list(c, e->seq.v, e->seq.n); break;
    case KJ_E_BINOP: check_expr(c, e->bin.l); check_expr(c, e->bin.r); break;
    case KJ_E_UNARY: check_expr(c, e->un.x); break;
    case KJ_E_BOOLOP: check_expr(c, e->boolop.l); check_expr(c, e->boolop.r); break;
    case KJ_E_COMPARE: check_list(c, e->cmp.operands, e->cmp.n); break;
    case KJ_E_IFEXP: check_expr(c, e->ifexp.cond); check_expr(c, e->ifexp.then); check_expr(c, e->ifexp.els); break;
    default: break;
    }
}

static void check_block(nctx *c, const kj_block *b)
{
    for (uint32_t i = 0; i < b->n; i++) {
        const kj_stmt *st = b->v[i];
        switch (st->kind) {
        case KJ_S_EXPR: check_expr(c, st->expr); break;
        case KJ_S_ASSIGN:
            check_expr(c, st->assign.value);
            for (uint32_t k = 0; k < st->assign.ntargets; k++)
                if (st->assign.targets[k]->kind != KJ_E_NAME) check_expr(c, st->assign.targets[k]);
            break;
        case KJ_S_AUGASSIGN: check_expr(c, st->aug.target); check_expr(c, st->aug.value); break;
        case KJ_S_IF: check_expr(c, st->if_.cond); check_block(c, &st->if_.then); check_block(c, &st->if_.els); break;
        case KJ_S_WHILE: check_expr(c, st->while_.cond); check_block(c, &st->while_.body); break;
        case KJ_S_WITH: check_expr(c, st->with.ctx); check_block(c, &st->with.body); break;
        case KJ_S_FOR: check_expr(c, st->for_.iter); check_block(c, &st->for_.body); break;
        case KJ_S_RETURN: case KJ_S_YIELD: check_expr(c, st->ret.value); break;
        case KJ_S_ASSERT: check_expr(c, st->assert_.cond); break;
        case KJ_S_TRY: check_block(c, &st->try_.body); check_block(c, &st->try_.clauses); break;
        case KJ_S_EXCEPT: check_block(c, &st->except.body); break;
        default: break;
        }
    }
}

void kj_check_unreached(kj_sema *s)
{
    for (uint32_t i = 0; i < s->fns.n; i++) {
        kj_fn *fn = s->fns.v[i];
        bool reached = false;
        for (uint32_t k = 0; k < fn->specs.n && !reached; k++) reached = fn->specs.v[k]->reported;
        if (reached || fn->bad) continue;
        nctx c = {.s = s};
        for (uint32_t p = 0; p < fn->def->nparams; p++) add_target_name(&c, fn->def->params[p].name);
        collect(&c, &fn->def->body);
        check_block(&c, &fn->def->body);
    }
}
