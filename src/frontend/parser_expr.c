/* SPDX-License-Identifier: BSD-2-Clause */
/* Parser, expressions: Python 3.11's expression grammar and precedence for
 * the subset kjit reads. From loosest to tightest:
 *
 *   expression   disjunction ['if' disjunction 'else' expression]
 *   disjunction  conjunction ('or' conjunction)*
 *   conjunction  inversion ('and' inversion)*
 *   inversion    'not' inversion | comparison
 *   comparison   bitwise_or (compare_op bitwise_or)*
 *   bitwise_or … term   | ^ & << >> + - * / // % @  (left-associative)
 *   factor       ('+' | '-' | '~') factor | power
 *   power        primary ['**' factor]
 *   primary      atom ('.' NAME | '(' args ')' | '[' slices ']')*
 *
 * Constructs kjit does not support (comprehensions, dicts, sets,
 * starred expressions, ':=', yield, await) are recognised far enough to be
 * named in the error. */
#include "parser_impl.h"

#include <string.h>

typedef KJ_VEC(kj_expr *) expr_vec;

kj_expr *kjp_new_expr(kjp *p, kj_expr_kind k, kj_span sp)
{
    kj_expr *e = KJ_NEW(p->a, kj_expr);
    e->kind = k;
    e->span = sp;
    e->id = (*p->ids)++;
    return e;
}

/* What an expression function returns after an error: a None node at the
 * current token, so that callers never see NULL. */
static kj_expr *error_expr(kjp *p) { return kjp_new_expr(p, KJ_E_NONE, kjp_cur(p)->span); }

bool kjp_starts_expr(kj_tok_kind k)
{
    switch (k) {
    case KJ_TOK_NAME: case KJ_TOK_INT: case KJ_TOK_FLOAT: case KJ_TOK_IMAG: case KJ_TOK_STRING:
    case KJ_TOK_LPAREN: case KJ_TOK_LBRACK: case KJ_TOK_LBRACE: case KJ_TOK_MINUS:
    case KJ_TOK_PLUS: case KJ_TOK_TILDE: case KJ_TOK_STAR: case KJ_TOK_ELLIPSIS:
    case KJ_TOK_KW_NOT: case KJ_TOK_KW_TRUE: case KJ_TOK_KW_FALSE: case KJ_TOK_KW_NONE:
    case KJ_TOK_KW_LAMBDA: case KJ_TOK_KW_AWAIT: case KJ_TOK_KW_YIELD:
        return true;
    default:
        return false;
    }
}

static void set_seq(kjp *p, kj_expr *e, expr_vec v)
{
    e->seq.v = v.v;
    e->seq.n = v.n;
    if (v.n > KJ_MAX_ELEMS)
        kjp_error(p, v.v[KJ_MAX_ELEMS]->span,
                  "a %s of %u elements: kjit allows at most %d elements in a tuple or list display",
                  e->kind == KJ_E_LIST ? "list" : "tuple", v.n, KJ_MAX_ELEMS);
}

/* At a `for` after the first element of a bracket or call: name the
 * construct at where it starts. */
static kj_expr *comprehension_error(kjp *p, kj_span start, bool generator)
{
    kj_diag *dg = kjp_error(p, start, generator ? "generator expressions are not supported"
                                                : "comprehensions are not supported");
    kj_diag_hint(dg, "write a for loop instead");
    return error_expr(p);
}

static void close_bracket(kjp *p, kj_tok_kind closer);

/* [elt for ...] or {k: v for ...} at its `for` (parser_comp.c), to the closer */
static kj_expr *comprehension(kjp *p, kj_span open, kj_expr_kind kind, kj_expr *elt, kj_expr *val, uint32_t nl0)
{
    kj_expr *call = kjp_comprehension(p, open, kind, elt, val, nl0);
    if (p->panic) return call;
    close_bracket(p, kind == KJ_E_LIST ? KJ_TOK_RBRACK : KJ_TOK_RBRACE);
    call->span = call->call.fn->span = kjp_span_from(p, open);
    return call;
}

/* Expect the closer of the bracket opened at `open`. Only reached with a
 * real token in the way: a missing closer at the end of the line was
 * already reported by the lexer, which then supplied one. */
static void close_bracket(kjp *p, kj_tok_kind closer)
{
    if (kjp_accept(p, closer) || p->panic) return;
    if (kjp_at(p, KJ_TOK_KW_FOR)) {
        comprehension_error(p, kjp_cur(p)->span, false);
        return;
    }
    bool comma = kjp_starts_expr(kjp_kind(p));
    kj_diag *dg = kjp_unexpected(p);
    if (comma) kj_diag_hint(dg, "perhaps you forgot a comma?");
}

/* ---------------------------------------------------------------------- */
/* Atoms                                                                   */

/* STRING+ : adjacent literals are joined, as in Python. */
static kj_expr *strings(kjp *p)
{
    kj_token *first = kjp_cur(p);
    uint32_t n = 0, total = 0;
    bool fstr = false;
    while (p->tok[p->pos + n].kind == KJ_TOK_STRING) {
        fstr |= p->tok[p->pos + n].fstr;
        total += p->tok[p->pos + n++].v.str.n;
    }
    if (fstr) return kjp_fstring(p, n); /* parser_fstring.c */
    for (uint32_t i = 1; i < n; i++)
        if (first[i].bytes != first->bytes) /* CPython's SyntaxError */
            kjp_error(p, first[i].span, "cannot mix bytes and nonbytes literals");
    kj_expr *e = kjp_new_expr(p, KJ_E_STR, first->span);
    e->str.bytes = first->bytes;
    if (n == 1) {
        e->str.s = first->v.str.s;
        e->str.len = first->v.str.n;
    } else {
        char *s = kj_arena_alloc(p->a, (size_t)total + 1);
        for (uint32_t i = 0, k = 0; i < n; i++) {
            memcpy(s + k, first[i].v.str.s, first[i].v.str.n);
            k += first[i].v.str.n;
        }
        e->str.s = s;
        e->str.len = total;
    }
    p->pos += n;
    e->span = kjp_span_from(p, first->span);
    return e;
}

/* '(' ')' | '(' expression ')' | '(' expression ',' [expression (',' expression)* [',']] ')' */
static kj_expr *paren(kjp *p)
{
    kj_span open = kjp_next(p)->span;
    if (kjp_accept(p, KJ_TOK_RPAREN)) return kjp_new_expr(p, KJ_E_TUPLE, kjp_span_from(p, open));
    kj_expr *first = kjp_expr(p);
    if (p->panic) return first;
    if (kjp_at(p, KJ_TOK_KW_FOR)) return kjp_comprehension(p, kjp_span_from(p, open), KJ_E_TUPLE, first, NULL, 0);
    if (!kjp_at(p, KJ_TOK_COMMA)) {
        close_bracket(p, KJ_TOK_RPAREN);
        return first;
    }
    expr_vec v = {0};
    KJP_PUSH(p->a, v, first);
    while (kjp_accept(p, KJ_TOK_COMMA) && kjp_starts_expr(kjp_kind(p))) {
        KJP_PUSH(p->a, v, kjp_expr(p));
        if (p->panic) return first;
    }
    close_bracket(p, KJ_TOK_RPAREN);
    kj_expr *e = kjp_new_expr(p, KJ_E_TUPLE, kjp_span_from(p, open));
    set_seq(p, e, v);
    return e;
}

/* '[' [expression (',' expression)* [',']] ']' */
static kj_expr *list(kjp *p)
{
    kj_span open = kjp_next(p)->span;
    expr_vec v = {0};
    uint32_t nl0 = p->lambdas.n;
    while (!kjp_at(p, KJ_TOK_RBRACK)) {
        KJP_PUSH(p->a, v, kjp_expr(p));
        if (p->panic) return v.v[0];
        if (v.n == 1 && kjp_at(p, KJ_TOK_KW_FOR)) return comprehension(p, open, KJ_E_LIST, v.v[0], NULL, nl0);
        if (!kjp_accept(p, KJ_TOK_COMMA)) break;
    }
    close_bracket(p, KJ_TOK_RBRACK);
    kj_expr *e = kjp_new_expr(p, KJ_E_LIST, kjp_span_from(p, open));
    set_seq(p, e, v);
    return e;
}

/* '{' ... '}': a dict display {k: v, ...} (KJ_E_DICT, keys and values
 * alternating in seq), `{}` (an empty dict) or a set display {a, b}
 * (KJ_E_SET); a comprehension of either is rejected at its `for`. */
static kj_expr *brace(kjp *p)
{
    kj_span open = kjp_next(p)->span;
    expr_vec v = {0};
    int dict = -1; /* unknown until the first element: 1 dict, 0 set */
    uint32_t nl0 = p->lambdas.n;
    while (!kjp_at(p, KJ_TOK_RBRACE)) {
        KJP_PUSH(p->a, v, kjp_expr(p));
        if (p->panic) return v.v[0];
        if (dict < 0) dict = kjp_at(p, KJ_TOK_COLON);
        if (dict) {
            if (!kjp_accept(p, KJ_TOK_COLON)) {
                kjp_error(p, kjp_cur(p)->span, "expected ':' after a dict key");
                return error_expr(p);
            }
            KJP_PUSH(p->a, v, kjp_expr(p));
            if (p->panic) return v.v[0];
        }
        if (kjp_at(p, KJ_TOK_KW_FOR)) {
            if (v.n > 2 - (dict == 0)) return comprehension_error(p, kjp_cur(p)->span, false);
            return comprehension(p, open, dict ? KJ_E_DICT : KJ_E_SET, v.v[0], dict ? v.v[1] : NULL, nl0);
        }
        if (!kjp_accept(p, KJ_TOK_COMMA)) break;
    }
    close_bracket(p, KJ_TOK_RBRACE);
    kj_expr *e = kjp_new_expr(p, dict == 0 ? KJ_E_SET : KJ_E_DICT, kjp_span_from(p, open));
    e->seq.v = v.v;
    e->seq.n = v.n;
    return e;
}

/* A token that cannot start an expression. */
static kj_expr *bad_atom(kjp *p)
{
    kj_span sp = kjp_cur(p)->span;
    kj_diag *dg;
    switch (kjp_kind(p)) {
    case KJ_TOK_ELLIPSIS: kjp_error(p, sp, "'...' (Ellipsis) is not supported"); break;
    case KJ_TOK_KW_LAMBDA: /* where Python's grammar has no lambda: `2 * lambda: 1` */
        dg = kjp_error(p, sp, "a lambda here needs parentheses");
        kj_diag_hint(dg, "write (lambda ...: ...)");
        break;
    case KJ_TOK_KW_YIELD: /* `x = yield v` receives what send() passes: Numba has no send() */
        dg = kjp_error(p, sp, "'yield' as an expression is not supported (generators have no send())");
        kj_diag_hint(dg, "write yield as a statement: yield v");
        break;
    case KJ_TOK_KW_AWAIT: kjp_error(p, sp, "'await' is not supported"); break;
    case KJ_TOK_STAR: kjp_error(p, sp, "starred expressions are not supported"); break;
    case KJ_TOK_NEWLINE: case KJ_TOK_EOF: case KJ_TOK_SEMI: case KJ_TOK_INDENT: case KJ_TOK_DEDENT:
        kjp_error(p, sp, "expected expression");
        break;
    default: kjp_unexpected(p); break;
    }
    return error_expr(p);
}

/* atom: NAME | INT | FLOAT | IMAG | STRING+ | 'True' | 'False' | 'None'
 *     | '(' ... ')' | '[' ... ']' */
static kj_expr *atom(kjp *p)
{
    kj_token *t = kjp_cur(p);
    kj_expr *e;
    switch (t->kind) {
    case KJ_TOK_NAME:
        e = kjp_new_expr(p, KJ_E_NAME, t->span);
        e->name = kjp_name(p, t);
        break;
    case KJ_TOK_INT:
        e = kjp_new_expr(p, KJ_E_INT, t->span);
        e->int_.value = t->v.i;
        e->int_.big = t->big;
        break;
    case KJ_TOK_FLOAT:
    case KJ_TOK_IMAG:
        e = kjp_new_expr(p, t->kind == KJ_TOK_IMAG ? KJ_E_IMAG : KJ_E_FLOAT, t->span);
        e->float_ = t->v.f;
        break;
    case KJ_TOK_KW_TRUE:
    case KJ_TOK_KW_FALSE:
        e = kjp_new_expr(p, KJ_E_BOOL, t->span);
        e->bool_ = t->kind == KJ_TOK_KW_TRUE;
        break;
    case KJ_TOK_KW_NONE: e = kjp_new_expr(p, KJ_E_NONE, t->span); break;
    case KJ_TOK_STRING: return strings(p);
    case KJ_TOK_LPAREN: return paren(p);
    case KJ_TOK_LBRACK: return list(p);
    case KJ_TOK_LBRACE: return brace(p);
    default: return bad_atom(p);
    }
    kjp_next(p);
    return e;
}

/* ---------------------------------------------------------------------- */
/* Trailers                                                                */

/* args: arg (',' arg)* [','] ;  arg: NAME '=' expression | expression */
static void call_args(kjp *p, kj_expr *call)
{
    expr_vec args = {0};
    KJ_VEC(kj_keyword) kws = {0};
    kj_strtab seen = {0}; /* keyword names so far */
    kj_span over = {0};   /* the first argument past KJ_MAX_ARGS */
    while (!kjp_at(p, KJ_TOK_RPAREN) && !p->panic) {
        kj_token *t = kjp_cur(p);
        if (args.n + kws.n == KJ_MAX_ARGS) over = t->span;
        if (t->kind == KJ_TOK_STAR || t->kind == KJ_TOK_DSTAR) {
            kjp_error(p, t->span, t->kind == KJ_TOK_STAR ? "argument unpacking (*args) is not supported"
                                                          : "keyword argument unpacking (**kwargs) is not supported");
            break;
        }
        if (t->kind == KJ_TOK_NAME && kjp_peek(p, 1) == KJ_TOK_ASSIGN) {
            kj_keyword kw = {kjp_name(p, t), t->span, NULL};
            p->pos += 2;
            kw.value = kjp_expr(p);
            if (!kj_strtab_put(p->a, &seen, kw.name, kws.n) && !p->panic)
                kjp_error(p, kjp_span_from(p, t->span), "keyword argument repeated: %s", kw.name);
            KJP_PUSH(p->a, kws, kw);
        } else {
            uint32_t nl0 = p->lambdas.n;
            kj_expr *a = kjp_expr(p);
            if (p->panic) break;
            if (kjp_at(p, KJ_TOK_KW_FOR)) { /* f(x for x in s): its only argument (parser_comp.c) */
                kj_span start = a->span;
                a = kjp_comprehension(p, start, KJ_E_CALL, a, NULL, nl0);
                if (p->panic) break;
                a->span = a->call.fn->span = kjp_span_from(p, start);
                if (args.n || kws.n || kjp_at(p, KJ_TOK_COMMA))
                    kjp_error(p, a->span, "Generator expression must be parenthesized");
            } else if (kjp_at(p, KJ_TOK_ASSIGN))
                kjp_error(p, a->span, "expression cannot contain assignment, perhaps you meant \"==\"?");
            else if (kws.n) kjp_error(p, a->span, "positional argument follows keyword argument");
            KJP_PUSH(p->a, args, a);
        }
        if (!kjp_accept(p, KJ_TOK_COMMA)) break;
    }
    if (args.n + kws.n > KJ_MAX_ARGS)
        kjp_error(p, over, "a call with %u arguments: kjit allows at most %d", args.n + kws.n,
                  KJ_MAX_ARGS);
    close_bracket(p, KJ_TOK_RPAREN);
    call->call.args = args.v;
    call->call.nargs = args.n;
    call->call.kw = kws.v;
    call->call.nkw = kws.n;
}

static bool ends_slice_part(kjp *p)
{
    kj_tok_kind k = kjp_kind(p);
    return k == KJ_TOK_COLON || k == KJ_TOK_COMMA || k == KJ_TOK_RBRACK;
}

/* slice: expression | [expression] ':' [expression] [':' [expression]] */
static kj_expr *slice(kjp *p)
{
    kj_span start = kjp_cur(p)->span;
    kj_expr *lo = NULL;
    if (!kjp_at(p, KJ_TOK_COLON)) {
        lo = kjp_expr(p);
        if (p->panic || !kjp_at(p, KJ_TOK_COLON)) return lo;
    }
    kjp_next(p);
    kj_expr *hi = ends_slice_part(p) ? NULL : kjp_expr(p);
    kj_expr *step = NULL;
    if (!p->panic && kjp_accept(p, KJ_TOK_COLON)) {
        kj_tok_kind k = kjp_kind(p);
        if (k != KJ_TOK_COMMA && k != KJ_TOK_RBRACK) step = kjp_expr(p);
    }
    kj_expr *e = kjp_new_expr(p, KJ_E_SLICE, kjp_span_from(p, start));
    e->slice.lo = lo;
    e->slice.hi = hi;
    e->slice.step = step;
    return e;
}

/* '[' slice (',' slice)* [','] ']' — several make a TUPLE index. */
static kj_expr *subscript_index(kjp *p)
{
    kjp_next(p);
    kj_span start = kjp_cur(p)->span;
    kj_expr *first = slice(p);
    if (!p->panic && kjp_at(p, KJ_TOK_COMMA)) {
        expr_vec v = {0};
        KJP_PUSH(p->a, v, first);
        while (kjp_accept(p, KJ_TOK_COMMA) && !kjp_at(p, KJ_TOK_RBRACK)) {
            KJP_PUSH(p->a, v, slice(p));
            if (p->panic) break;
        }
        first = kjp_new_expr(p, KJ_E_TUPLE, kjp_span_from(p, start));
        set_seq(p, first, v);
    }
    close_bracket(p, KJ_TOK_RBRACK);
    return first;
}

/* primary: atom ('.' NAME | '(' args ')' | '[' slices ']')* */
static kj_expr *primary(kjp *p)
{
    kj_span start = kjp_cur(p)->span;
    kj_expr *e = atom(p);
    uint32_t links = 0;
    for (;;) {
        kj_tok_kind k = kjp_kind(p);
        if (p->panic || (k != KJ_TOK_DOT && k != KJ_TOK_LPAREN && k != KJ_TOK_LBRACK)) break;
        if (!kjp_enter(p, 1)) break;
        links++;
        kj_expr *t;
        if (k == KJ_TOK_DOT) {
            kjp_next(p);
            kj_token *name = kjp_cur(p);
            if (name->kind != KJ_TOK_NAME) {
                kjp_error(p, name->span, "expected an attribute name after '.'");
                break;
            }
            kjp_next(p);
            t = kjp_new_expr(p, KJ_E_ATTR, kjp_span_from(p, start));
            t->attr.obj = e;
            t->attr.name = kjp_name(p, name);
            t->attr.name_span = name->span;
        } else if (k == KJ_TOK_LPAREN) {
            uint32_t nl0 = p->lambdas.n;
            kjp_next(p);
            t = kjp_new_expr(p, KJ_E_CALL, start);
            t->call.fn = e;
            call_args(p, t);
            t->span = kjp_span_from(p, start);
            t = kjp_builtin_call(p, t, nl0); /* map, filter, getattr: parser_builtin.c */
        } else {
            kj_expr *index = subscript_index(p);
            t = kjp_new_expr(p, KJ_E_SUBSCRIPT, kjp_span_from(p, start));
            t->sub.obj = e;
            t->sub.index = index;
        }
        e = t;
    }
    kjp_leave(p, links);
    return e;
}

/* ---------------------------------------------------------------------- */
/* Operators                                                               */

static kj_expr *factor(kjp *p);

/* power: primary ['**' factor]  — right-associative through factor, and
 * tighter than a unary operator on its left: -2**2 is -(2**2). */
static kj_expr *power(kjp *p)
{
    kj_span start = kjp_cur(p)->span;
    kj_expr *base = primary(p);
    if (p->panic || !kjp_at(p, KJ_TOK_DSTAR)) return base;
    kjp_next(p);
    if (!kjp_enter(p, KJP_NEST)) return base;
    kj_expr *exp = factor(p);
    kjp_leave(p, KJP_NEST);
    kj_expr *e = kjp_new_expr(p, KJ_E_BINOP, kjp_span_from(p, start));
    e->bin.op = KJ_OP_POW;
    e->bin.l = base;
    e->bin.r = exp;
    return e;
}

/* factor: ('+' | '-' | '~') factor | power */
static kj_expr *factor(kjp *p)
{
    kj_token *t = kjp_cur(p);
    kj_unop op;
    switch (t->kind) {
    case KJ_TOK_MINUS: op = KJ_UOP_NEG; break;
    case KJ_TOK_PLUS: op = KJ_UOP_POS; break;
    case KJ_TOK_TILDE: op = KJ_UOP_INVERT; break;
    default: return power(p);
    }
    kjp_next(p);
    if (!kjp_enter(p, KJP_NEST)) return error_expr(p);
    kj_expr *x = factor(p);
    kjp_leave(p, KJP_NEST);
    kj_expr *e = kjp_new_expr(p, KJ_E_UNARY, kjp_span_from(p, t->span));
    e->un.op = op;
    e->un.x = x;
    return e;
}

/* Binding strength of a binary operator token (0: not one). */
static int binop_prec(kj_tok_kind k, kj_binop *op)
{
    switch (k) {
    case KJ_TOK_PIPE: *op = KJ_OP_BITOR; return 1;
    case KJ_TOK_CARET: *op = KJ_OP_BITXOR; return 2;
    case KJ_TOK_AMP: *op = KJ_OP_BITAND; return 3;
    case KJ_TOK_SHL: *op = KJ_OP_LSHIFT; return 4;
    case KJ_TOK_SHR: *op = KJ_OP_RSHIFT; return 4;
    case KJ_TOK_PLUS: *op = KJ_OP_ADD; return 5;
    case KJ_TOK_MINUS: *op = KJ_OP_SUB; return 5;
    case KJ_TOK_STAR: *op = KJ_OP_MUL; return 6;
    case KJ_TOK_SLASH: *op = KJ_OP_DIV; return 6;
    case KJ_TOK_DSLASH: *op = KJ_OP_FLOORDIV; return 6;
    case KJ_TOK_PERCENT: *op = KJ_OP_MOD; return 6;
    case KJ_TOK_AT: *op = KJ_OP_MATMUL; return 6;
    default: return 0;
    }
}

/* bitwise_or .. term: the left-associative binary operators, by
 * precedence climbing (one C frame per precedence level in use, not one
 * per operator). */
static kj_expr *binary(kjp *p, int min_prec)
{
    kj_span start = kjp_cur(p)->span;
    kj_expr *l = factor(p);
    uint32_t links = 0;
    for (;;) {
        kj_binop op;
        int prec = binop_prec(kjp_kind(p), &op);
        if (p->panic || prec == 0 || prec < min_prec || !kjp_enter(p, 1)) break;
        links++;
        kjp_next(p);
        kj_expr *r = binary(p, prec + 1);
        kj_expr *e = kjp_new_expr(p, KJ_E_BINOP, kjp_span_from(p, start));
        e->bin.op = op;
        e->bin.l = l;
        e->bin.r = r;
        l = e;
    }
    kjp_leave(p, links);
    return l;
}

/* compare_op: == != < <= > >= 'in' 'not' 'in' 'is' ['not'] — consumed
 * only when `take`. */
static bool compare_op(kjp *p, kj_cmpop *op, bool take)
{
    uint32_t n = 1;
    switch (kjp_kind(p)) {
    case KJ_TOK_EQ: *op = KJ_CMP_EQ; break;
    case KJ_TOK_NE: *op = KJ_CMP_NE; break;
    case KJ_TOK_LT: *op = KJ_CMP_LT; break;
    case KJ_TOK_LE: *op = KJ_CMP_LE; break;
    case KJ_TOK_GT: *op = KJ_CMP_GT; break;
    case KJ_TOK_GE: *op = KJ_CMP_GE; break;
    case KJ_TOK_KW_IN: *op = KJ_CMP_IN; break;
    case KJ_TOK_KW_NOT:
        if (kjp_peek(p, 1) != KJ_TOK_KW_IN) return false;
        *op = KJ_CMP_NOTIN, n = 2;
        break;
    case KJ_TOK_KW_IS:
        if (kjp_peek(p, 1) == KJ_TOK_KW_NOT) *op = KJ_CMP_ISNOT, n = 2;
        else *op = KJ_CMP_IS;
        break;
    default: return false;
    }
    if (take) p->pos += n;
    return true;
}

/* comparison: bitwise_or (compare_op bitwise_or)*  — one COMPARE node for
 * a chain: a < b <= c. */
static kj_expr *comparison(kjp *p)
{
    kj_span start = kjp_cur(p)->span;
    kj_expr *first = binary(p, 1);
    kj_cmpop op;
    if (p->panic || !compare_op(p, &op, false)) return first;
    expr_vec operands = {0};
    KJ_VEC(kj_cmpop) ops = {0};
    KJP_PUSH(p->a, operands, first);
    uint32_t links = 0;
    while (!p->panic && compare_op(p, &op, false) && kjp_enter(p, 1)) {
        links++;
        compare_op(p, &op, true);
        KJP_PUSH(p->a, ops, op);
        KJP_PUSH(p->a, operands, binary(p, 1));
    }
    kjp_leave(p, links);
    kj_expr *e = kjp_new_expr(p, KJ_E_COMPARE, kjp_span_from(p, start));
    e->cmp.operands = operands.v;
    e->cmp.ops = ops.v;
    e->cmp.n = operands.n;
    return e;
}

/* inversion: 'not' inversion | comparison */
static kj_expr *inversion(kjp *p)
{
    if (!kjp_at(p, KJ_TOK_KW_NOT)) return comparison(p);
    kj_span start = kjp_next(p)->span;
    if (!kjp_enter(p, KJP_NEST)) return error_expr(p);
    kj_expr *x = inversion(p);
    kjp_leave(p, KJP_NEST);
    kj_expr *e = kjp_new_expr(p, KJ_E_UNARY, kjp_span_from(p, start));
    e->un.op = KJ_UOP_NOT;
    e->un.x = x;
    return e;
}

/* conjunction: inversion ('and' inversion)*
 * disjunction: conjunction ('or' conjunction)*   — both nest to the left */
static kj_expr *boolop(kjp *p, kj_boolop op)
{
    kj_tok_kind tok = op == KJ_BOOL_AND ? KJ_TOK_KW_AND : KJ_TOK_KW_OR;
    kj_span start = kjp_cur(p)->span;
    kj_expr *l = op == KJ_BOOL_AND ? inversion(p) : boolop(p, KJ_BOOL_AND);
    uint32_t links = 0;
    while (!p->panic && kjp_at(p, tok) && kjp_enter(p, 1)) {
        links++;
        kjp_next(p);
        kj_expr *r = op == KJ_BOOL_AND ? inversion(p) : boolop(p, KJ_BOOL_AND);
        kj_expr *e = kjp_new_expr(p, KJ_E_BOOLOP, kjp_span_from(p, start));
        e->boolop.op = op;
        e->boolop.l = l;
        e->boolop.r = r;
        l = e;
    }
    kjp_leave(p, links);
    return l;
}

/* expression: disjunction ['if' disjunction 'else' expression]
 * (':=' after it is rejected here too.) */
kj_expr *kjp_expr(kjp *p)
{
    if (kjp_at(p, KJ_TOK_KW_LAMBDA)) return kjp_lambda(p); /* expression: lambdef too */
    if (!kjp_enter(p, KJP_NEST)) return error_expr(p);
    kj_span start = kjp_cur(p)->span;
    kj_expr *e = boolop(p, KJ_BOOL_OR);
    if (!p->panic && kjp_at(p, KJ_TOK_KW_IF)) {
        kjp_next(p);
        kj_expr *cond = boolop(p, KJ_BOOL_OR);
        kj_expr *els = NULL;
        if (!p->panic && !kjp_accept(p, KJ_TOK_KW_ELSE))
            kjp_error(p, kjp_span_from(p, start), "expected 'else' after 'if' expression");
        if (!p->panic) els = kjp_expr(p);
        kj_expr *x = kjp_new_expr(p, KJ_E_IFEXP, kjp_span_from(p, start));
        x->ifexp.cond = cond;
        x->ifexp.then = e;
        x->ifexp.els = els ? els : error_expr(p);
        e = x;
    }
    if (!p->panic && kjp_at(p, KJ_TOK_WALRUS))
        kjp_error(p, kjp_cur(p)->span, "':=' is not supported");
    kjp_leave(p, KJP_NEST);
    return e;
}

/* item (',' item)* [','] → a TUPLE when there is a comma, where item is an
 * expression, or an or-expression for `for` targets (so that `in` ends it). */
static kj_expr *tuple_of(kjp *p, bool target)
{
    kj_span start = kjp_cur(p)->span;
    kj_expr *first = target ? binary(p, 1) : kjp_expr(p);
    if (p->panic || !kjp_at(p, KJ_TOK_COMMA)) return first;
    expr_vec v = {0};
    KJP_PUSH(p->a, v, first);
    while (kjp_accept(p, KJ_TOK_COMMA) && kjp_starts_expr(kjp_kind(p))) {
        KJP_PUSH(p->a, v, target ? binary(p, 1) : kjp_expr(p));
        if (p->panic) break;
    }
    kj_expr *e = kjp_new_expr(p, KJ_E_TUPLE, kjp_span_from(p, start));
    set_seq(p, e, v);
    return e;
}

kj_expr *kjp_disjunction(kjp *p) { return boolop(p, KJ_BOOL_OR); }
kj_expr *kjp_testlist(kjp *p) { return tuple_of(p, false); }
kj_expr *kjp_target_list(kjp *p) { return tuple_of(p, true); }

/* What a non-assignable expression is called in errors (CPython's words). */
static const char *target_kind(const kj_expr *e)
{
    switch (e->kind) {
    case KJ_E_CALL: return "function call";
    case KJ_E_INT: case KJ_E_FLOAT: case KJ_E_IMAG: case KJ_E_STR: return "literal";
    case KJ_E_BOOL: return e->bool_ ? "True" : "False";
    case KJ_E_NONE: return "None";
    case KJ_E_COMPARE: return "comparison";
    case KJ_E_IFEXP: return "conditional expression";
    case KJ_E_TUPLE: return "tuple";
    case KJ_E_LIST: return "list";
    case KJ_E_SLICE: return "slice";
    default: return "expression";
    }
}

bool kjp_check_target(kjp *p, kj_expr *e, bool aug, bool eq)
{
    switch (e->kind) {
    case KJ_E_NAME: case KJ_E_ATTR: case KJ_E_SUBSCRIPT:
        return true;
    case KJ_E_TUPLE: case KJ_E_LIST:
        if (aug) break;
        for (uint32_t i = 0; i < e->seq.n; i++)
            if (!kjp_check_target(p, e->seq.v[i], false, false)) return false;
        e->kind = KJ_E_TUPLE; /* [a, b] = ... unpacks exactly like a, b = ... */
        return true;
    default:
        if (aug) break;
        kj_diag *dg = kjp_error(p, e->span, "cannot assign to %s", target_kind(e));
        if (eq) kj_diag_hint(dg, "maybe you meant '==' instead of '='?");
        return false;
    }
    kjp_error(p, e->span, "'%s' is an illegal expression for augmented assignment", target_kind(e));
    return false;
}
