/* SPDX-License-Identifier: BSD-2-Clause */
/* Parser, statements: recursive descent over the lexer's token array,
 * following Python 3.11's grammar for the subset kjit reads (expressions
 * are in parser_expr.c; the error model is described in parser_impl.h).
 *
 *   file        statement* EOF
 *   statement   compound_stmt | simple_stmts
 *   simple_stmts simple_stmt (';' simple_stmt)* [';'] NEWLINE
 *   block       ':' (simple_stmts | NEWLINE INDENT statement+ DEDENT)
 *
 * Unsupported statements (class, try, with, global, ...) are named in an
 * error at their keyword and skipped, block included. */
#include "parser_impl.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef KJ_VEC(kj_stmt *) stmt_vec;

/* ---------------------------------------------------------------------- */
/* Errors and helpers                                                      */

kj_diag *kjp_error(kjp *p, kj_span sp, const char *fmt, ...)
{
    if (p->panic) return NULL;
    p->panic = true;
    /* Quiet where the lexer already reported the fault: on a line with a
     * lexer error, or where the lexer says its tokens are partly synthetic. */
    if (sp.off >= p->quiet_from && sp.off < p->quiet_to) return NULL;
    for (uint32_t i = p->lex_first; i < p->lex_last && i < p->d->n; i++)
        if (p->d->v[i].src == p->src && p->d->v[i].span.line == sp.line) return NULL;
    va_list ap;
    va_start(ap, fmt);
    char *msg = kj_arena_vprintf(p->a, fmt, ap);
    va_end(ap);
    return kj_error(p->d, p->src, sp, "%s", msg);
}

kj_diag *kjp_unexpected(kjp *p)
{
    kj_token *t = kjp_cur(p);
    int len = t->span.len > 40 ? 40 : (int)t->span.len;
    const char *text = p->src->text + t->span.off;
    switch (t->kind) {
    case KJ_TOK_NAME:
        return kjp_error(p, t->span, "invalid syntax: unexpected name '%.*s'", len, text);
    case KJ_TOK_INT: case KJ_TOK_FLOAT:
        return kjp_error(p, t->span, "invalid syntax: unexpected number '%.*s'", len, text);
    case KJ_TOK_STRING: return kjp_error(p, t->span, "invalid syntax: unexpected string literal");
    case KJ_TOK_NEWLINE: return kjp_error(p, t->span, "invalid syntax: unexpected end of line");
    case KJ_TOK_EOF: return kjp_error(p, t->span, "invalid syntax: unexpected end of file");
    case KJ_TOK_INDENT: return kjp_error(p, t->span, "unexpected indent");
    case KJ_TOK_DEDENT: return kjp_error(p, t->span, "invalid syntax: unexpected dedent");
    default:
        return kjp_error(p, t->span, "invalid syntax: unexpected '%s'", kj_tok_spelling(t->kind));
    }
}

const char *kjp_name(kjp *p, const kj_token *t)
{
    return kj_arena_strndup(p->a, p->src->text + t->span.off, t->span.len);
}

bool kjp_enter(kjp *p, uint32_t cost)
{
    if (p->depth + cost <= KJP_LIMIT) {
        p->depth += cost;
        return true;
    }
    if (!p->too_deep && !p->panic) {
        p->too_deep = true;
        kjp_error(p, kjp_cur(p)->span, "too deeply nested");
    }
    p->panic = true;
    return false;
}

static kj_stmt *new_stmt(kjp *p, kj_stmt_kind k, kj_span sp)
{
    kj_stmt *s = KJ_NEW(p->a, kj_stmt);
    s->kind = k;
    s->span = sp;
    return s;
}

static kj_block to_block(stmt_vec v) { return (kj_block){v.v, v.n}; }

/* Recovery: skip to the end of the logical line, consuming its NEWLINE. */
static void sync_line(kjp *p)
{
    for (;;) {
        kj_tok_kind k = kjp_kind(p);
        if (k == KJ_TOK_EOF || k == KJ_TOK_INDENT || k == KJ_TOK_DEDENT) return;
        kjp_next(p);
        if (k == KJ_TOK_NEWLINE) return;
    }
}

/* Recovery: skip an indented block, INDENT to its DEDENT. */
static void skip_block(kjp *p)
{
    uint32_t level = 0;
    do {
        kj_tok_kind k = kjp_kind(p);
        if (k == KJ_TOK_EOF) return;
        if (k == KJ_TOK_INDENT) level++;
        else if (k == KJ_TOK_DEDENT) level--;
        kjp_next(p);
    } while (level > 0);
}

/* Recovery: skip a whole compound statement, header line and block. */
static void skip_compound(kjp *p)
{
    sync_line(p);
    if (kjp_at(p, KJ_TOK_INDENT)) skip_block(p);
}

static void statement(kjp *p, stmt_vec *out);
static void simple_stmts(kjp *p, stmt_vec *out);

/* INDENT statement+ DEDENT, appended to `out`. */
static void block_body(kjp *p, stmt_vec *out)
{
    if (!kjp_enter(p, KJP_NEST)) {
        skip_block(p);
        return;
    }
    kjp_next(p);
    while (!kjp_at(p, KJ_TOK_DEDENT) && !kjp_at(p, KJ_TOK_EOF)) statement(p, out);
    kjp_accept(p, KJ_TOK_DEDENT);
    kjp_leave(p, KJP_NEST);
}

/* block: ':' (simple_stmts | NEWLINE INDENT statement+ DEDENT)
 * `what` and `line` name the header for "expected an indented block". When
 * the header had an error, the block is still parsed if there is one. */
static kj_block suite(kjp *p, const char *what, uint32_t line)
{
    stmt_vec v = {0};
    if (!p->panic && !kjp_accept(p, KJ_TOK_COLON)) kjp_error(p, kjp_cur(p)->span, "expected ':'");
    if (p->panic) {
        sync_line(p);
        if (kjp_at(p, KJ_TOK_INDENT)) block_body(p, &v);
        return to_block(v);
    }
    if (kjp_accept(p, KJ_TOK_NEWLINE)) {
        /* Point at the next statement, or at the header's end when the
         * block (or the file) ends right there. */
        kj_token *at = kjp_at(p, KJ_TOK_DEDENT) || kjp_at(p, KJ_TOK_EOF) ? &p->tok[p->pos - 1] : kjp_cur(p);
        if (kjp_at(p, KJ_TOK_INDENT)) block_body(p, &v);
        else kjp_error(p, at->span, "expected an indented block after %s on line %u", what, line);
    } else {
        simple_stmts(p, &v);
    }
    return to_block(v);
}

/* ---------------------------------------------------------------------- */
/* Simple statements                                                       */

static kj_binop augassign_op(kj_tok_kind k, bool *ok)
{
    *ok = true;
    switch (k) {
    case KJ_TOK_PLUSEQ: return KJ_OP_ADD;
    case KJ_TOK_MINUSEQ: return KJ_OP_SUB;
    case KJ_TOK_STAREQ: return KJ_OP_MUL;
    case KJ_TOK_SLASHEQ: return KJ_OP_DIV;
    case KJ_TOK_DSLASHEQ: return KJ_OP_FLOORDIV;
    case KJ_TOK_PERCENTEQ: return KJ_OP_MOD;
    case KJ_TOK_DSTAREQ: return KJ_OP_POW;
    case KJ_TOK_ATEQ: return KJ_OP_MATMUL;
    case KJ_TOK_SHLEQ: return KJ_OP_LSHIFT;
    case KJ_TOK_SHREQ: return KJ_OP_RSHIFT;
    case KJ_TOK_AMPEQ: return KJ_OP_BITAND;
    case KJ_TOK_PIPEEQ: return KJ_OP_BITOR;
    case KJ_TOK_CARETEQ: return KJ_OP_BITXOR;
    default: *ok = false; return KJ_OP_ADD;
    }
}

/* expr_stmt: testlist ('=' testlist)+    (chained, tuple targets)
 *          | target augassign testlist
 *          | testlist */
static kj_stmt *expr_stmt(kjp *p, kj_span start)
{
    kj_expr *lhs = kjp_testlist(p);
    if (p->panic) return NULL;
    bool aug;
    kj_binop op = augassign_op(kjp_kind(p), &aug);
    if (kjp_at(p, KJ_TOK_ASSIGN)) {
        KJ_VEC(kj_expr *) targets = {0};
        while (kjp_accept(p, KJ_TOK_ASSIGN)) {
            if (!kjp_check_target(p, lhs, false, true)) return NULL;
            KJP_PUSH(p->a, targets, lhs);
            lhs = kjp_testlist(p);
            if (p->panic) return NULL;
        }
        if (targets.n == 1 && kjp_lambda_named(p, targets.v[0], lhs)) return NULL; /* f = lambda ...: def f */
        kj_stmt *s = new_stmt(p, KJ_S_ASSIGN, kjp_span_from(p, start));
        s->assign.targets = targets.v;
        s->assign.ntargets = targets.n;
        s->assign.value = lhs;
        return s;
    }
    if (aug) {
        if (!kjp_check_target(p, lhs, true, false)) return NULL;
        kjp_next(p);
        kj_expr *value = kjp_testlist(p);
        kj_stmt *s = new_stmt(p, KJ_S_AUGASSIGN, kjp_span_from(p, start));
        s->aug.op = op;
        s->aug.target = lhs;
        s->aug.value = value;
        return s;
    }
    if (kjp_at(p, KJ_TOK_COLON)) {
        kjp_error(p, kjp_cur(p)->span, "annotations are not supported");
        return NULL;
    }
    kj_stmt *s = new_stmt(p, KJ_S_EXPR, kjp_span_from(p, start));
    s->expr = lhs;
    return s;
}

/* dotted_name: NAME ('.' NAME)* — as one arena string. */
static const char *dotted_name(kjp *p, kj_span *sp)
{
    kj_token *first = kjp_cur(p);
    if (first->kind != KJ_TOK_NAME) {
        kjp_error(p, first->span, "expected a module name");
        return NULL;
    }
    kjp_next(p);
    while (kjp_at(p, KJ_TOK_DOT) && kjp_peek(p, 1) == KJ_TOK_NAME) p->pos += 2;
    *sp = kjp_span_from(p, first->span);
    return kj_arena_strndup(p->a, p->src->text + sp->off, sp->len);
}

/* ['as' NAME] after an imported name; extends the alias's span. */
static bool import_as(kjp *p, kj_alias *al)
{
    if (!kjp_accept(p, KJ_TOK_KW_AS)) return true;
    kj_token *t = kjp_cur(p);
    if (t->kind != KJ_TOK_NAME) {
        kjp_error(p, t->span, "expected a name after 'as'");
        return false;
    }
    al->asname = kjp_name(p, t);
    kjp_next(p);
    al->span = kjp_span_from(p, al->span);
    return true;
}

/* import_name: 'import' dotted_name ['as' NAME] (',' dotted_name ['as' NAME])* */
static kj_stmt *import_stmt(kjp *p, kj_span start)
{
    kjp_next(p);
    KJ_VEC(kj_alias) names = {0};
    do {
        kj_alias al = {0};
        al.name = dotted_name(p, &al.span);
        if (!al.name || !import_as(p, &al)) return NULL;
        KJP_PUSH(p->a, names, al);
    } while (kjp_accept(p, KJ_TOK_COMMA));
    kj_stmt *s = new_stmt(p, KJ_S_IMPORT, kjp_span_from(p, start));
    s->import.names = names.v;
    s->import.n = names.n;
    return s;
}

/* global_stmt: 'global' NAME (',' NAME)*: the names, as an import's */
static kj_stmt *global_stmt(kjp *p, kj_span start)
{
    kjp_next(p);
    KJ_VEC(kj_alias) names = {0};
    do {
        kj_alias al = {0};
        if (!kjp_at(p, KJ_TOK_NAME)) {
            kjp_error(p, kjp_cur(p)->span, "expected a name after 'global'");
            return NULL;
        }
        al.span = kjp_cur(p)->span;
        al.name = kjp_name(p, kjp_cur(p));
        kjp_next(p);
        KJP_PUSH(p->a, names, al);
    } while (kjp_accept(p, KJ_TOK_COMMA));
    kj_stmt *s = new_stmt(p, KJ_S_GLOBAL, kjp_span_from(p, start));
    s->import.names = names.v;
    s->import.n = names.n;
    return s;
}

/* import_from: 'from' dotted_name 'import' ('(' names [','] ')' | names)
 * names: NAME ['as' NAME] (',' NAME ['as' NAME])* */
static kj_stmt *from_stmt(kjp *p, kj_span start)
{
    kjp_next(p);
    if (kjp_at(p, KJ_TOK_DOT) || kjp_at(p, KJ_TOK_ELLIPSIS)) {
        kjp_error(p, kjp_cur(p)->span, "relative imports are not supported");
        return NULL;
    }
    kj_span msp;
    const char *module = dotted_name(p, &msp);
    if (!module) return NULL;
    if (!kjp_accept(p, KJ_TOK_KW_IMPORT)) {
        kjp_error(p, kjp_cur(p)->span, "expected 'import'");
        return NULL;
    }
    if (kjp_at(p, KJ_TOK_STAR)) {
        kjp_error(p, kjp_cur(p)->span, "wildcard imports ('import *') are not supported");
        return NULL;
    }
    bool paren = kjp_accept(p, KJ_TOK_LPAREN);
    KJ_VEC(kj_alias) names = {0};
    do {
        if (paren && kjp_at(p, KJ_TOK_RPAREN)) break;
        kj_token *t = kjp_cur(p);
        if (t->kind != KJ_TOK_NAME) {
            kjp_error(p, t->span, "expected a name to import");
            return NULL;
        }
        kj_alias al = {kjp_name(p, t), NULL, t->span};
        kjp_next(p);
        if (!import_as(p, &al)) return NULL;
        KJP_PUSH(p->a, names, al);
    } while (kjp_accept(p, KJ_TOK_COMMA));
    if (paren && !kjp_accept(p, KJ_TOK_RPAREN)) {
        kjp_unexpected(p);
        return NULL;
    }
    kj_stmt *s = new_stmt(p, KJ_S_FROM_IMPORT, kjp_span_from(p, start));
    s->import.module = module;
    s->import.names = names.v;
    s->import.n = names.n;
    return s;
}

/* 'return' [testlist] (and 'yield' [testlist]) */
static kj_stmt *value_stmt(kjp *p, kj_span start, kj_stmt_kind kind)
{
    kjp_next(p);
    kj_tok_kind k = kjp_kind(p);
    kj_expr *value = NULL;
    if (k != KJ_TOK_NEWLINE && k != KJ_TOK_SEMI && k != KJ_TOK_EOF) value = kjp_testlist(p);
    kj_stmt *s = new_stmt(p, kind, kjp_span_from(p, start));
    s->ret.value = value;
    if (!p->in_def) kjp_error(p, s->span, "'%s' outside function", kind == KJ_S_YIELD ? "yield" : "return");
    return s;
}

static kj_stmt *return_stmt(kjp *p, kj_span start) { return value_stmt(p, start, KJ_S_RETURN); }

/* 'yield' [testlist]: a statement (Numba has no send(), so the
 * expression's value is never used); the function is a generator
 * (ir/infer_pygen.c). */
static kj_stmt *yield_stmt(kjp *p, kj_span start)
{
    return value_stmt(p, start, KJ_S_YIELD);
}

/* 'assert' expression [',' expression] */
static kj_stmt *assert_stmt(kjp *p, kj_span start)
{
    kjp_next(p);
    kj_expr *cond = kjp_expr(p);
    kj_expr *msg = !p->panic && kjp_accept(p, KJ_TOK_COMMA) ? kjp_expr(p) : NULL;
    kj_stmt *s = new_stmt(p, KJ_S_ASSERT, kjp_span_from(p, start));
    s->assert_.cond = cond;
    s->assert_.msg = msg;
    return s;
}

/* 'raise' [expression ['from' expression]]: a class, a call of one or an
 * exception object (inference checks which). A bare `raise` re-raises the
 * exception being handled and `raise X from Y` chains: host code has both,
 * Numba neither (infer_exc.c). */
static kj_stmt *raise_stmt(kjp *p, kj_span start)
{
    kjp_next(p);
    kj_tok_kind k = kjp_kind(p);
    kj_expr *exc = NULL, *cause = NULL;
    if (k != KJ_TOK_NEWLINE && k != KJ_TOK_SEMI && k != KJ_TOK_EOF) {
        exc = kjp_expr(p);
        if (!p->panic && kjp_at(p, KJ_TOK_KW_FROM)) {
            kjp_next(p);
            cause = kjp_expr(p);
        }
    }
    kj_stmt *s = new_stmt(p, KJ_S_RAISE, kjp_span_from(p, start));
    s->raise.exc = exc;
    s->raise.cause = cause;
    return s;
}

/* 'break' | 'continue' */
static kj_stmt *loop_jump(kjp *p, kj_span start)
{
    bool brk = kjp_next(p)->kind == KJ_TOK_KW_BREAK;
    if (p->loops == 0)
        kjp_error(p, start, brk ? "'break' outside loop" : "'continue' not properly in loop");
    return new_stmt(p, brk ? KJ_S_BREAK : KJ_S_CONTINUE, start);
}

static kj_stmt *unsupported_simple(kjp *p, const char *msg, const char *hint)
{
    kj_diag *dg = kjp_error(p, kjp_cur(p)->span, "%s", msg);
    if (hint) kj_diag_hint(dg, "%s", hint);
    return NULL;
}

/* 'del' target: `del lst[i]` and `del lst[a:b:c]` become the expression
 * statement lst.<del>(INDEX), a call of a method no program can name
 * (ir/infer_list.c types it, lower_list.c lowers it); other targets are
 * refused here. */
static kj_stmt *del_stmt(kjp *p, kj_span start)
{
    kjp_next(p);
    kj_expr *t = kjp_testlist(p);
    if (p->panic || !t) return NULL;
    if (t->kind != KJ_E_SUBSCRIPT) { /* del x: kjit deletes list items and slices only */
        kjp_error(p, start, "'del' is not supported");
        return NULL;
    }
    kj_expr *fn = kjp_new_expr(p, KJ_E_ATTR, t->span);
    fn->attr.obj = t->sub.obj;
    fn->attr.name = "<del>";
    fn->attr.name_span = t->span;
    kj_expr *c = kjp_new_expr(p, KJ_E_CALL, t->span);
    c->call.fn = fn;
    c->call.args = KJ_NEWN(p->a, kj_expr *, 1);
    c->call.args[0] = t->sub.index;
    c->call.nargs = 1;
    kj_stmt *s = new_stmt(p, KJ_S_EXPR, kjp_span_from(p, start));
    s->expr = c;
    return s;
}

/* simple_stmt: pass | break | continue | return | assert | import | expr_stmt
 * A lone `...` is taken as `pass` (the usual placeholder body). */
static kj_stmt *simple_stmt(kjp *p)
{
    kj_span start = kjp_cur(p)->span;
    switch (kjp_kind(p)) {
    case KJ_TOK_KW_PASS: kjp_next(p); return new_stmt(p, KJ_S_PASS, start);
    case KJ_TOK_KW_BREAK: case KJ_TOK_KW_CONTINUE: return loop_jump(p, start);
    case KJ_TOK_KW_RETURN: return return_stmt(p, start);
    case KJ_TOK_KW_YIELD: return yield_stmt(p, start);
    case KJ_TOK_KW_ASSERT: return assert_stmt(p, start);
    case KJ_TOK_KW_IMPORT: return import_stmt(p, start);
    case KJ_TOK_KW_FROM: return from_stmt(p, start);
    case KJ_TOK_KW_GLOBAL: return global_stmt(p, start); /* checked by ir/infer_global.c */
    case KJ_TOK_KW_NONLOCAL: return unsupported_simple(p, "'nonlocal' is not supported", NULL);
    case KJ_TOK_KW_DEL: return del_stmt(p, start);
    case KJ_TOK_KW_RAISE: return raise_stmt(p, start);
    case KJ_TOK_ELLIPSIS: {
        kj_tok_kind k = kjp_peek(p, 1);
        if (k == KJ_TOK_NEWLINE || k == KJ_TOK_SEMI || k == KJ_TOK_EOF) {
            kjp_next(p);
            return new_stmt(p, KJ_S_PASS, start);
        }
        break;
    }
    default: break;
    }
    return expr_stmt(p, start);
}

/* simple_stmts: simple_stmt (';' simple_stmt)* [';'] NEWLINE */
static void simple_stmts(kjp *p, stmt_vec *out)
{
    kj_stmt *s;
    for (;;) {
        s = simple_stmt(p);
        if (s) KJP_PUSH(p->a, *out, s);
        if (p->panic || !kjp_accept(p, KJ_TOK_SEMI)) break;
        if (kjp_at(p, KJ_TOK_NEWLINE) || kjp_at(p, KJ_TOK_EOF)) break;
    }
    if (!p->panic && !kjp_accept(p, KJ_TOK_NEWLINE)) {
        bool more = kjp_starts_expr(kjp_kind(p)) && kjp_kind(p) != KJ_TOK_STAR;
        if (more && s && s->kind == KJ_S_EXPR && s->expr->kind == KJ_E_NAME && !strcmp(s->expr->name, "print")) {
            kj_diag *dg = kjp_error(p, kjp_span_from(p, s->span), "missing parentheses in call to 'print'");
            kj_diag_hint(dg, "did you mean print(...)?");
        } else {
            kj_diag *dg = kjp_unexpected(p);
            if (more) kj_diag_hint(dg, "perhaps you forgot a comma or an operator?");
        }
    }
    if (p->panic) {
        sync_line(p);
        /* A broken line followed by a block was most likely a broken
         * header: parse the block rather than call it unexpected. */
        if (kjp_at(p, KJ_TOK_INDENT)) block_body(p, out);
    }
}

/* ---------------------------------------------------------------------- */
/* Compound statements                                                     */

/* if_stmt: 'if' expression block ('elif' expression block)* ['else' block]
 * An elif is an IF alone in the else block; the chain is built iteratively
 * (each link costs nesting budget: later passes walk it recursively). */
static kj_stmt *if_stmt(kjp *p)
{
    kj_stmt *first = NULL;
    kj_block *hole = NULL;
    uint32_t links = 0;
    bool link = true;
    for (;;) {
        kj_token *kw = kjp_next(p);
        kj_stmt *s = new_stmt(p, KJ_S_IF, kw->span);
        s->if_.cond = kjp_expr(p);
        s->span = kjp_span_from(p, kw->span);
        s->if_.then = suite(p, kw->kind == KJ_TOK_KW_IF ? "'if' statement" : "'elif' statement", kw->span.line);
        if (!first) {
            first = s;
        } else if (link) {
            kj_stmt **one = KJ_NEW(p->a, kj_stmt *);
            *one = s;
            *hole = (kj_block){one, 1};
        }
        if (link) hole = &s->if_.els;
        p->panic = false; /* the next clause is a new line */
        if (kjp_at(p, KJ_TOK_KW_ELIF)) {
            if (link && kjp_enter(p, 1)) links++;
            else link = false;
            continue;
        }
        if (kjp_at(p, KJ_TOK_KW_ELSE)) {
            kw = kjp_next(p);
            kj_block els = suite(p, "'else' statement", kw->span.line);
            if (link) *hole = els;
        }
        break;
    }
    kjp_leave(p, links);
    return first;
}

/* `else` after a loop: Python runs it when the loop ends without break.
 * Not supported; report it and skip it. */
static void loop_else(kjp *p, const char *loop)
{
    if (!kjp_at(p, KJ_TOK_KW_ELSE)) return;
    p->panic = false;
    kjp_error(p, kjp_cur(p)->span, "'else' after a '%s' loop is not supported", loop);
    skip_compound(p);
}

/* while_stmt: 'while' expression block */
static kj_stmt *while_stmt(kjp *p)
{
    kj_token *kw = kjp_next(p);
    kj_stmt *s = new_stmt(p, KJ_S_WHILE, kw->span);
    s->while_.cond = kjp_expr(p);
    s->span = kjp_span_from(p, kw->span);
    p->loops++;
    s->while_.body = suite(p, "'while' statement", kw->span.line);
    p->loops--;
    loop_else(p, "while");
    return s;
}

/* One clause of a try statement: `except [TYPE [as NAME]]:`, `else:` or
 * `finally:`, with its block. */
static kj_stmt *except_clause(kjp *p, kj_except_kind clause)
{
    kj_token *kw = kjp_next(p);
    kj_stmt *s = new_stmt(p, KJ_S_EXCEPT, kw->span);
    s->except.clause = clause;
    if (clause == KJ_EXCEPT_HANDLER && !kjp_at(p, KJ_TOK_COLON)) {
        s->except.type = kjp_expr(p);
        if (!p->panic && kjp_accept(p, KJ_TOK_KW_AS)) {
            kj_token *n = kjp_cur(p);
            if (n->kind != KJ_TOK_NAME) {
                kjp_unexpected(p);
            } else {
                s->except.name = kjp_name(p, n);
                s->except.name_span = n->span;
                s->except.target = kjp_new_expr(p, KJ_E_NAME, n->span);
                s->except.target->name = s->except.name;
                kjp_next(p);
            }
        }
    }
    s->span = kjp_span_from(p, kw->span);
    s->except.body = suite(p, clause == KJ_EXCEPT_HANDLER ? "'except' clause"
                              : clause == KJ_EXCEPT_ELSE  ? "'else' clause"
                                                          : "'finally' clause",
                           kw->span.line);
    return s;
}

/* try_stmt: 'try' block (except_clause+ ['else' block] ['finally' block]
 * | 'finally' block) */
static kj_stmt *try_stmt(kjp *p)
{
    kj_token *kw = kjp_next(p);
    kj_stmt *s = new_stmt(p, KJ_S_TRY, kw->span);
    s->try_.body = suite(p, "'try' statement", kw->span.line);
    stmt_vec v = {0};
    bool bare = false;
    while (kjp_at(p, KJ_TOK_KW_EXCEPT)) {
        if (bare) kjp_error(p, kjp_cur(p)->span, "default 'except:' must be last");
        kj_stmt *c = except_clause(p, KJ_EXCEPT_HANDLER);
        bare = !c->except.type;
        KJP_PUSH(p->a, v, c);
    }
    if (v.n && kjp_at(p, KJ_TOK_KW_ELSE)) KJP_PUSH(p->a, v, except_clause(p, KJ_EXCEPT_ELSE));
    if (kjp_at(p, KJ_TOK_KW_FINALLY)) KJP_PUSH(p->a, v, except_clause(p, KJ_EXCEPT_FINALLY));
    if (!v.n) kjp_error(p, kjp_cur(p)->span, "expected 'except' or 'finally' block");
    s->try_.clauses = (kj_block){v.v, v.n};
    return s;
}

/* Does the with statement at the cursor have one item? (Several stay
 * unsupported; `as` binds what cuda.mapped() and auto_synchronize() give.) */
static bool with_is_simple(kjp *p)
{
    int depth = 0;
    for (uint32_t k = p->pos + 1; k < p->ntok; k++) {
        kj_tok_kind t = p->tok[k].kind;
        if (t == KJ_TOK_LPAREN || t == KJ_TOK_LBRACK || t == KJ_TOK_LBRACE) depth++;
        else if (t == KJ_TOK_RPAREN || t == KJ_TOK_RBRACK || t == KJ_TOK_RBRACE) depth--;
        else if (t == KJ_TOK_NEWLINE || t == KJ_TOK_EOF || (t == KJ_TOK_COLON && depth <= 0)) return true;
        else if (depth <= 0 && t == KJ_TOK_COMMA) return false;
    }
    return true;
}

/* with_stmt: 'with' expression ['as' target] block (the form Numba's context
 * managers take: stream.auto_synchronize(), cuda.pinned(a), cuda.mapped(a) as m,
 * cuda.defer_cleanup(), cuda.profiling(), cuda.gpus[0]) */
static kj_stmt *with_stmt(kjp *p)
{
    kj_token *kw = kjp_next(p);
    kj_stmt *s = new_stmt(p, KJ_S_WITH, kw->span);
    s->with.ctx = kjp_expr(p);
    if (!p->panic && kjp_accept(p, KJ_TOK_KW_AS)) {
        s->with.target = kjp_target_list(p);
        if (!p->panic) kjp_check_target(p, s->with.target, false, false);
    }
    s->span = kjp_span_from(p, kw->span);
    s->with.body = suite(p, "'with' statement", kw->span.line);
    kjp_objmode(p, s); /* with objmode(y='float64'): parser_objmode.c */
    return s;
}

/* for_stmt: 'for' target_list 'in' testlist block */
static kj_stmt *for_stmt(kjp *p)
{
    kj_token *kw = kjp_next(p);
    kj_stmt *s = new_stmt(p, KJ_S_FOR, kw->span);
    s->for_.target = kjp_target_list(p);
    if (!p->panic && kjp_check_target(p, s->for_.target, false, false) && !kjp_accept(p, KJ_TOK_KW_IN))
        kjp_error(p, kjp_cur(p)->span, "expected 'in'");
    s->for_.iter = p->panic ? s->for_.target : kjp_testlist(p);
    s->span = kjp_span_from(p, kw->span);
    p->loops++;
    s->for_.body = suite(p, "'for' statement", kw->span.line);
    p->loops--;
    loop_else(p, "for");
    return s;
}

/* A parameter the grammar knows but kjit does not take. */
static bool bad_param(kjp *p)
{
    kj_token *t = kjp_cur(p);
    switch (t->kind) {
    case KJ_TOK_STAR:
        kjp_error(p, t->span, kjp_peek(p, 1) == KJ_TOK_NAME ? "parameters after *args (keyword-only) are not supported"
                                                             : "keyword-only parameters ('*') are not supported");
        return true;
    case KJ_TOK_DSTAR: kjp_error(p, t->span, "**kwargs is not supported"); return true;
    case KJ_TOK_SLASH: kjp_error(p, t->span, "positional-only parameters ('/') are not supported"); return true;
    case KJ_TOK_NAME: return false;
    default: kjp_unexpected(p); return true;
    }
}

/* '*' NAME as the last parameter, as Numba takes it (pysupported.rst "*args"):
 * the tuple of the extra positional arguments. Consumes the '*'. */
static bool star_param(kjp *p, kj_funcdef *fd)
{
    if (!kjp_at(p, KJ_TOK_STAR) || kjp_peek(p, 1) != KJ_TOK_NAME) return false;
    kj_tok_kind after = kjp_peek(p, 2);
    if (after != KJ_TOK_RPAREN && !(after == KJ_TOK_COMMA && kjp_peek(p, 3) == KJ_TOK_RPAREN)) return false;
    kjp_next(p);
    fd->vararg = true;
    return true;
}

/* params: '(' [param (',' param)* [',']] ')' ;  param: NAME ['=' expression] | '*' NAME (last)
 * Defaults are module-level expressions (the caller's id counter). */
static void params(kjp *p, kj_funcdef *fd)
{
    if (!kjp_accept(p, KJ_TOK_LPAREN)) {
        kjp_error(p, kjp_cur(p)->span, "expected '('");
        return;
    }
    KJ_VEC(kj_param) ps = {0};
    kj_strtab seen = {0}; /* names so far: a duplicate check in O(1) each */
    bool seen_default = false;
    while (!kjp_at(p, KJ_TOK_RPAREN) && (star_param(p, fd) || !bad_param(p))) {
        kj_token *t = kjp_next(p);
        kj_param pm = {kjp_name(p, t), t->span, NULL};
        if (kjp_at(p, KJ_TOK_COLON)) {
            kjp_error(p, kjp_cur(p)->span, "annotations are not supported");
            break;
        }
        if (!fd->vararg && kjp_accept(p, KJ_TOK_ASSIGN)) {
            pm.def = kjp_expr(p);
            seen_default = true;
        } else if (seen_default && !fd->vararg) {
            kjp_error(p, t->span, "non-default argument follows default argument");
        }
        if (!kj_strtab_put(p->a, &seen, pm.name, ps.n))
            kjp_error(p, t->span, "duplicate argument '%s' in function definition", pm.name);
        KJP_PUSH(p->a, ps, pm);
        if (p->panic || !kjp_accept(p, KJ_TOK_COMMA)) break;
    }
    if (ps.n > KJ_MAX_ARGS)
        kjp_error(p, ps.v[KJ_MAX_ARGS].span, "a function of %u parameters: kjit allows at most %d",
                  ps.n, KJ_MAX_ARGS);
    fd->params = ps.v;
    fd->nparams = ps.n;
    if (!p->panic && !kjp_accept(p, KJ_TOK_RPAREN)) {
        bool comma = kjp_at(p, KJ_TOK_NAME);
        kj_diag *dg = kjp_unexpected(p);
        if (comma) kj_diag_hint(dg, "perhaps you forgot a comma?");
    }
}

/* decorators: ('@' expression NEWLINE)+ — module-level expressions. */
static void decorators(kjp *p, kj_funcdef *fd)
{
    KJ_VEC(kj_expr *) v = {0};
    while (kjp_accept(p, KJ_TOK_AT)) {
        KJP_PUSH(p->a, v, kjp_expr(p));
        if (!p->panic && !kjp_accept(p, KJ_TOK_NEWLINE)) kjp_unexpected(p);
        if (p->panic) sync_line(p);
        p->panic = false;
    }
    fd->decorators = v.v;
    fd->ndecorators = v.n;
}

/* funcdef: [decorators] 'def' NAME params ['->' expression] block
 * At module level (or in a module-level if/for/while); a def inside a
 * function is made a module-level one as a lambda is (parser_lambda.c). */
static kj_stmt *def_stmt(kjp *p)
{
    kj_funcdef *fd = KJ_NEW(p->a, kj_funcdef);
    uint32_t *ids = p->ids, loops = p->loops;
    bool in_def = p->in_def;
    const kj_funcdef *outer = p->def;
    p->ids = p->mod_ids; /* decorators and defaults are module-level expressions, an inner def's too */
    decorators(p, fd);
    kj_token *kw = kjp_cur(p);
    if (kw->kind != KJ_TOK_KW_DEF) {
        if (kw->kind == KJ_TOK_KW_CLASS) kjp_error(p, kw->span, "classes are not supported");
        else kj_diag_hint(kjp_unexpected(p), "a decorator must be followed by a function definition");
        skip_compound(p);
        p->ids = ids;
        return NULL;
    }
    kjp_next(p);
    kj_token *name = kjp_cur(p);
    if (name->kind == KJ_TOK_NAME) {
        fd->name = kjp_name(p, name);
        fd->name_span = name->span;
        kjp_next(p);
        params(p, fd);
    } else {
        fd->name = "";
        fd->name_span = name->span;
        kjp_error(p, name->span, "expected a function name after 'def'");
    }
    fd->span = kj_span_join(kw->span, fd->name_span);
    if (!p->panic && kjp_at(p, KJ_TOK_ARROW)) kjp_error(p, kjp_cur(p)->span, "annotations are not supported");

    p->ids = &fd->nexprs;
    p->in_def = true;
    fd->encl = in_def ? outer : NULL;
    p->def = fd;
    p->loops = 0;
    fd->body = suite(p, "function definition", kw->span.line);
    if (!in_def) kjp_lift_closures(p);
    p->ids = ids;
    p->in_def = in_def;
    p->def = outer;
    p->loops = loops;
    if (in_def) return kjp_inner_def(p, fd, outer);

    kj_stmt *s = new_stmt(p, KJ_S_DEF, fd->span);
    s->def = fd;
    return s;
}

/* class, with, async, match: named at their keyword, then skipped with
 * their block. */
static void unsupported_compound(kjp *p, const char *msg)
{
    kjp_error(p, kjp_cur(p)->span, "%s", msg);
    skip_compound(p);
}

/* `match` is a soft keyword: a match statement is `match` followed by an
 * expression (not an operator), on a line that ends in ':'. */
static bool is_match_stmt(kjp *p)
{
    kj_token *t = kjp_cur(p);
    if (t->span.len != 5 || memcmp(p->src->text + t->span.off, "match", 5)) return false;
    kj_tok_kind next = kjp_peek(p, 1);
    if (!kjp_starts_expr(next) || next == KJ_TOK_LPAREN || next == KJ_TOK_LBRACK || next == KJ_TOK_MINUS ||
        next == KJ_TOK_PLUS || next == KJ_TOK_STAR || next == KJ_TOK_TILDE)
        return false;
    uint32_t i = p->pos;
    while (p->tok[i].kind != KJ_TOK_NEWLINE && p->tok[i].kind != KJ_TOK_EOF) i++;
    return i > p->pos && p->tok[i - 1].kind == KJ_TOK_COLON;
}

/* INDENT where no block may start: report, then parse the block in place. */
static void unexpected_indent(kjp *p, stmt_vec *out)
{
    kjp_error(p, kjp_cur(p)->span, "unexpected indent");
    block_body(p, out);
}

/* statement: compound_stmt | simple_stmts */
static void statement(kjp *p, stmt_vec *out)
{
    p->panic = false;
    kj_stmt *s = NULL;
    switch (kjp_kind(p)) {
    case KJ_TOK_INDENT: unexpected_indent(p, out); return;
    case KJ_TOK_NEWLINE: case KJ_TOK_DEDENT: kjp_next(p); return; /* only after recovery */
    case KJ_TOK_EOF: return;
    case KJ_TOK_KW_IF: s = if_stmt(p); break;
    case KJ_TOK_KW_WHILE: s = while_stmt(p); break;
    case KJ_TOK_KW_FOR: s = for_stmt(p); break;
    case KJ_TOK_KW_DEF: case KJ_TOK_AT: s = def_stmt(p); break;
    case KJ_TOK_KW_CLASS: unsupported_compound(p, "classes are not supported"); return;
    case KJ_TOK_KW_TRY: s = try_stmt(p); break;
    case KJ_TOK_KW_EXCEPT: case KJ_TOK_KW_FINALLY:
        kjp_error(p, kjp_cur(p)->span, "'%s' without 'try'", kjp_at(p, KJ_TOK_KW_EXCEPT) ? "except" : "finally");
        skip_compound(p);
        return;
    case KJ_TOK_KW_WITH:
        if (!with_is_simple(p)) {
            unsupported_compound(p, "'with' is not supported");
            return;
        }
        s = with_stmt(p);
        break;
    case KJ_TOK_KW_ASYNC: unsupported_compound(p, "'async' is not supported"); return;
    case KJ_TOK_NAME:
        if (is_match_stmt(p)) {
            unsupported_compound(p, "'match' is not supported");
            return;
        }
        simple_stmts(p, out);
        return;
    default: simple_stmts(p, out); return;
    }
    if (s) KJP_PUSH(p->a, *out, s);
}

/* The module-level lambdas of the statement(s) just parsed (parser_lambda.c)
 * become DEF statements in front of them, at body[at]. */
static void hoist_lambdas(kjp *p, stmt_vec *body, uint32_t at)
{
    uint32_t k = p->lambdas.n;
    if (!k) return;
    for (uint32_t i = 0; i < k; i++) KJP_PUSH(p->a, *body, NULL);
    memmove(body->v + at + k, body->v + at, (body->n - k - at) * sizeof *body->v);
    memcpy(body->v + at, p->lambdas.v, k * sizeof *body->v);
    p->lambdas.n = 0;
    p->lifted = 0;
}

/* The lexer's errors come before the parser's: put this file's
 * diagnostics d->v[first..] in source order (stable, so that an error and
 * what follows from it stay in order). */
typedef struct diag_ref {
    kj_diag dg;
    uint32_t index;
} diag_ref;

static int diag_order(const void *x, const void *y)
{
    const diag_ref *a = x, *b = y;
    if (a->dg.span.line != b->dg.span.line) return a->dg.span.line < b->dg.span.line ? -1 : 1;
    if (a->dg.span.col != b->dg.span.col) return a->dg.span.col < b->dg.span.col ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static void sort_diags(kj_diags *d, uint32_t first)
{
    uint32_t n = d->n - first;
    if (n < 2) return;
    diag_ref *v = malloc(n * sizeof *v);
    if (!v) abort();
    for (uint32_t i = 0; i < n; i++) v[i] = (diag_ref){d->v[first + i], i};
    qsort(v, n, sizeof *v, diag_order);
    for (uint32_t i = 0; i < n; i++) d->v[first + i] = v[i].dg;
    free(v);
}

kj_module *kj_parse(const kj_source *src, kj_arena *a, kj_diags *d)
{
    kj_lex_info info;
    uint32_t lex_first = d->n;
    kj_tokens toks = kj_lex_ex(src, a, d, &info);
    kjp p = {
        .src = src, .a = a, .d = d, .tok = toks.v, .ntok = toks.n,
        .lex_first = lex_first, .lex_last = d->n, .quiet_from = info.quiet_from, .quiet_to = info.quiet_to,
    };
    kj_module *m = KJ_NEW(a, kj_module);
    m->src = src;
    p.ids = p.mod_ids = &m->nexprs;
    stmt_vec body = {0};
    while (!kjp_at(&p, KJ_TOK_EOF)) {
        uint32_t at = body.n;
        statement(&p, &body);
        kjp_lift_module(&p, &(kj_block){body.v, body.n});
        hoist_lambdas(&p, &body, at);
    }
    m->body = to_block(body);
    free(toks.v);
    sort_diags(d, lex_first);
    return m;
}
