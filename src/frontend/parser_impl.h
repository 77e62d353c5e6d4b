/* SPDX-License-Identifier: BSD-2-Clause */
/* Internal to the parser (parser.c: statements, parser_expr.c: expressions).
 *
 * Error model: the first error in a statement sets `panic`; further errors
 * are suppressed and every parse function returns promptly (expressions as
 * an error node, never NULL) until the statement loop skips to the end of
 * the line. So at most one error is reported per statement, every recovery
 * step consumes a token, and nothing loops forever. */
#ifndef KJ_PARSER_IMPL_H
#define KJ_PARSER_IMPL_H

#include "../util/strtab.h"
#include "lexer.h"
#include "parser.h"

/* Nesting budget: each recursive construct (parenthesis, unary operator,
 * block, ...) costs KJP_NEST, each link of an iterative chain (a + b + ...,
 * a.b.c, elif) costs 1. The limit bounds both the parser's C stack and the
 * height of the tree that later passes walk recursively: about 200 nested
 * parentheses or 1000-term chains. */
enum { KJP_LIMIT = 1000, KJP_NEST = 5 };

typedef struct kjp {
    const kj_source *src;
    kj_arena *a;
    kj_diags *d;
    kj_token *tok;
    uint32_t ntok, pos;
    uint32_t *ids;       /* the expression id counter in use */
    uint32_t *mod_ids;   /* the module's: an inner def's decorators and defaults */
    uint32_t depth;      /* nesting budget spent, see KJP_LIMIT */
    bool too_deep;       /* "too deeply nested" was reported */
    bool panic;          /* this statement already has an error */
    uint32_t lex_first;  /* the lexer's diagnostics are d->v[lex_first .. lex_last) */
    uint32_t lex_last;
    uint32_t quiet_from; /* from kj_lex_info */
    uint32_t quiet_to;
    uint32_t loops;      /* enclosing loops in this function */
    bool in_def;
    const kj_funcdef *def; /* the function being parsed (in_def), for its lambdas */
    KJ_VEC(kj_stmt *) lambdas; /* module-level lambdas made into DEFs, not yet in a block (parser_lambda.c) */
    uint32_t nlambdas;         /* in place so far: their names */
    uint32_t ncomps;           /* comprehensions so far: their names (parser_comp.c) */
    uint32_t lifted;           /* lambdas[0 .. lifted) are lifted already (parser_closure.c) */
} kjp;

static inline kj_token *kjp_cur(kjp *p) { return &p->tok[p->pos]; }
static inline kj_tok_kind kjp_kind(kjp *p) { return p->tok[p->pos].kind; }
static inline kj_tok_kind kjp_peek(kjp *p, uint32_t k)
{
    return p->pos + k < p->ntok ? p->tok[p->pos + k].kind : KJ_TOK_EOF;
}
static inline bool kjp_at(kjp *p, kj_tok_kind k) { return p->tok[p->pos].kind == k; }
/* Consume the current token (never moves past EOF). */
static inline kj_token *kjp_next(kjp *p)
{
    kj_token *t = &p->tok[p->pos];
    if (t->kind != KJ_TOK_EOF) p->pos++;
    return t;
}
static inline bool kjp_accept(kjp *p, kj_tok_kind k)
{
    if (!kjp_at(p, k)) return false;
    kjp_next(p);
    return true;
}
/* From `start` to the end of the last consumed token. */
static inline kj_span kjp_span_from(kjp *p, kj_span start)
{
    return p->pos > 0 ? kj_span_join(start, p->tok[p->pos - 1].span) : start;
}

/* KJ_PUSH, but starting from 2 elements: most lists in a program (call
 * arguments, subscripts, blocks) are short, and the arena never frees. */
#define KJP_PUSH(arena, vec, x) KJ_PUSH_FROM(arena, vec, x, 2)

/* parser.c */
kj_diag *kjp_error(kjp *p, kj_span sp, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
kj_diag *kjp_unexpected(kjp *p); /* "invalid syntax: unexpected X" at the current token */
const char *kjp_name(kjp *p, const kj_token *t);
bool kjp_enter(kjp *p, uint32_t cost);
static inline void kjp_leave(kjp *p, uint32_t cost) { p->depth -= cost; }

/* parser_lambda.c: `lambda ...: expr` at the current token; at module level
 * a DEF in p->lambdas and a NAME of it */
kj_expr *kjp_lambda(kjp *p);
/* `target = value` where value is the lambda just made: it becomes the
 * function named target (true), and the assignment is dropped */
bool kjp_lambda_named(kjp *p, const kj_expr *target, const kj_expr *value);
/* a def (fd, parsed) inside the function outer: made a module-level function
 * named OUTER.NAME, its DEF in p->lambdas, and the statement NAME =
 * OUTER.NAME returned, which binds it in outer (NULL when outer is a lambda) */
kj_stmt *kjp_inner_def(kjp *p, kj_funcdef *fd, const kj_funcdef *outer);
/* parser_closure.c: once a module-level def is parsed, the lambdas and defs
 * written in it that read its (or an enclosing function's) variables get
 * them as parameters, passed at each call */
void kjp_lift_closures(kjp *p);
/* and at the end of a module-level statement: the comprehensions in it get
 * the script's variables they read (body: the module's statements so far) */
void kjp_lift_module(kjp *p, const kj_block *body);
/* fn on e and every expression below it, pre-order (e may be NULL) */
void kjp_walk_expr(kj_expr *e, void (*fn)(kj_expr *e, void *ctx), void *ctx);

/* parser_comp.c: at the `for` of a comprehension whose element elt (a dict's
 * key elt, value val) was parsed after p->lambdas.n was nl0: a call of the
 * function made of it (kind LIST or DICT); SET and generators (CALL, TUPLE)
 * are Numba's errors */
kj_expr *kjp_comprehension(kjp *p, kj_span open, kj_expr_kind kind, kj_expr *elt, kj_expr *val, uint32_t nl0);
typedef kj_stmt *(*kjp_loops_fn)(kjp *p, kj_stmt *inner, void *ctx);
kj_expr *kjp_comprehension_of(kjp *p, kj_span open, bool dict, const char *what, kj_expr *elt, kj_expr *val,
                              kjp_loops_fn loops, void *ctx, kj_expr **more, uint32_t nmore, uint32_t nl0);
/* parser_comp.c: `yield elt`; the DEF of fd with the one statement body (iter(a): parser_builtin.c) */
kj_stmt *kjp_yield_of(kjp *p, kj_expr *elt);
kj_stmt *kjp_def_of(kjp *p, kj_funcdef *fd, kj_stmt *body);
void kjp_objmode(kjp *p, kj_stmt *with_stmt); /* parser_objmode.c: with objmode(y='T'): */
kj_expr *kjp_builtin_call(kjp *p, kj_expr *call, uint32_t nl0); /* parser_builtin.c: map, filter, getattr */

/* parser_fstring.c: the n adjacent string literals at the current token, of
 * which one or more are f-strings, as "<format>".format(fields...) */
kj_expr *kjp_fstring(kjp *p, uint32_t n);

/* parser_expr.c */
kj_expr *kjp_new_expr(kjp *p, kj_expr_kind k, kj_span sp);
bool kjp_starts_expr(kj_tok_kind k);
kj_expr *kjp_expr(kjp *p);          /* expression (ifexp; no tuple) */
kj_expr *kjp_disjunction(kjp *p);   /* a or b: a comprehension's iterable and condition */
kj_expr *kjp_testlist(kjp *p);      /* expression (',' expression)* [','] → TUPLE when a comma */
kj_expr *kjp_target_list(kjp *p);   /* the target of `for`: or-expressions, maybe a TUPLE */
/* Check an assignment target; `aug` for augmented assignment, `eq` adds the
 * "maybe you meant '=='" hint. Returns false after reporting. */
bool kjp_check_target(kjp *p, kj_expr *e, bool aug, bool eq);

#endif
