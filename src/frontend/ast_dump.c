/* SPDX-License-Identifier: BSD-2-Clause */
/* AST printing: an S-expression per statement, one statement per line,
 * children of compound statements indented by two spaces. Stable, so that
 * parser tests can compare it as text:
 *
 *   (module
 *     (from numba (alias cuda))
 *     (def f (params a (b (int 1))) (decorators (attr (name cuda) jit))
 *       (assign (name x) (binop + (name a) (name b)))
 *       (return (name x))))
 *
 * Expressions: (int 1) (int 18446744073709551615 big) (float 0.5)
 * (str "a\n") (bool True) (none) (name x) (attr OBJ name)
 * (call FN ARG... (kw name VALUE)...) (subscript OBJ INDEX)
 * (slice LO HI STEP) with _ for a missing part, (tuple ...) (list ...)
 * (binop OP L R) (unary OP X) (boolop and|or L R)
 * (compare A OP B OP C ...) (ifexp COND THEN ELSE). */
#include "ast.h"
#include "parser.h"

#include <stdio.h>
#include <stdlib.h>

#define X(n, s) s,
static const char *const binop_names[] = {KJ_BINOPS(X)};
static const char *const unop_names[] = {KJ_UNOPS(X)};
static const char *const cmpop_names[] = {KJ_CMPOPS(X)};
#undef X

const char *kj_binop_str(kj_binop op) { return (unsigned)op < KJ_OP__COUNT ? binop_names[op] : "?"; }
const char *kj_unop_str(kj_unop op) { return (unsigned)op < KJ_UOP__COUNT ? unop_names[op] : "?"; }
const char *kj_cmpop_str(kj_cmpop op) { return (unsigned)op < KJ_CMP__COUNT ? cmpop_names[op] : "?"; }

static void dump_expr(const kj_expr *e, kj_buf *out);

/* The shortest %g form that reads back as the same double (with a '.'
 * whatever LC_NUMERIC says). */
static void dump_float(double v, kj_buf *out)
{
    char s[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(s, sizeof s, "%.*g", prec, v);
        if (strtod(s, NULL) == v) break;
    }
    for (char *c = s; *c; c++)
        if (*c == ',') *c = '.';
    kj_buf_puts(out, s);
}

static void dump_str(const char *s, uint32_t n, kj_buf *out)
{
    kj_buf_putc(out, '"');
    for (uint32_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') kj_buf_printf(out, "\\%c", c);
        else if (c == '\n') kj_buf_puts(out, "\\n");
        else if (c == '\t') kj_buf_puts(out, "\\t");
        else if (c < 0x20 || c == 0x7f) kj_buf_printf(out, "\\x%02x", c);
        else kj_buf_putc(out, (char)c);
    }
    kj_buf_putc(out, '"');
}

static void dump_opt(const kj_expr *e, kj_buf *out)
{
    if (e) dump_expr(e, out);
    else kj_buf_putc(out, '_');
}

static void dump_list(const char *head, kj_expr *const *v, uint32_t n, kj_buf *out)
{
    kj_buf_printf(out, "(%s", head);
    for (uint32_t i = 0; i < n; i++) {
        kj_buf_putc(out, ' ');
        dump_expr(v[i], out);
    }
    kj_buf_putc(out, ')');
}

static void dump_call(const kj_expr *e, kj_buf *out)
{
    kj_buf_puts(out, "(call ");
    dump_expr(e->call.fn, out);
    for (uint32_t i = 0; i < e->call.nargs; i++) {
        kj_buf_putc(out, ' ');
        dump_expr(e->call.args[i], out);
    }
    for (uint32_t i = 0; i < e->call.nkw; i++) {
        kj_buf_printf(out, " (kw %s ", e->call.kw[i].name);
        dump_expr(e->call.kw[i].value, out);
        kj_buf_putc(out, ')');
    }
    kj_buf_putc(out, ')');
}

static void dump_expr(const kj_expr *e, kj_buf *out)
{
    switch (e->kind) {
    case KJ_E_INT:
        kj_buf_printf(out, "(int %llu%s)", (unsigned long long)e->int_.value, e->int_.big ? " big" : "");
        return;
    case KJ_E_FLOAT:
        kj_buf_puts(out, "(float ");
        dump_float(e->float_, out);
        kj_buf_putc(out, ')');
        return;
    case KJ_E_IMAG:
        kj_buf_puts(out, "(imag ");
        dump_float(e->float_, out);
        kj_buf_putc(out, ')');
        return;
    case KJ_E_STR:
        kj_buf_puts(out, "(str ");
        dump_str(e->str.s, e->str.len, out);
        kj_buf_putc(out, ')');
        return;
    case KJ_E_BOOL: kj_buf_puts(out, e->bool_ ? "(bool True)" : "(bool False)"); return;
    case KJ_E_NONE: kj_buf_puts(out, "(none)"); return;
    case KJ_E_NAME: kj_buf_printf(out, "(name %s)", e->name); return;
    case KJ_E_ATTR:
        kj_buf_puts(out, "(attr ");
        dump_expr(e->attr.obj, out);
        kj_buf_printf(out, " %s)", e->attr.name);
        return;
    case KJ_E_CALL: dump_call(e, out); return;
    case KJ_E_SUBSCRIPT:
        kj_buf_puts(out, "(subscript ");
        dump_expr(e->sub.obj, out);
        kj_buf_putc(out, ' ');
        dump_expr(e->sub.index, out);
        kj_buf_putc(out, ')');
        return;
    case KJ_E_SLICE:
        kj_buf_puts(out, "(slice ");
        dump_opt(e->slice.lo, out);
        kj_buf_putc(out, ' ');
        dump_opt(e->slice.hi, out);
        kj_buf_putc(out, ' ');
        dump_opt(e->slice.step, out);
        kj_buf_putc(out, ')');
        return;
    case KJ_E_TUPLE: dump_list("tuple", e->seq.v, e->seq.n, out); return;
    case KJ_E_LIST: dump_list("list", e->seq.v, e->seq.n, out); return;
    case KJ_E_DICT: dump_list("dict", e->seq.v, e->seq.n, out); return;
    case KJ_E_SET: dump_list("set", e->seq.v, e->seq.n, out); return;
    case KJ_E_BINOP:
        kj_buf_printf(out, "(binop %s ", kj_binop_str(e->bin.op));
        dump_expr(e->bin.l, out);
        kj_buf_putc(out, ' ');
        dump_expr(e->bin.r, out);
        kj_buf_putc(out, ')');
        return;
    case KJ_E_UNARY:
        kj_buf_printf(out, "(unary %s ", kj_unop_str(e->un.op));
        dump_expr(e->un.x, out);
        kj_buf_putc(out, ')');
        return;
    case KJ_E_BOOLOP:
        kj_buf_printf(out, "(boolop %s ", e->boolop.op == KJ_BOOL_AND ? "and" : "or");
        dump_expr(e->boolop.l, out);
        kj_buf_putc(out, ' ');
        dump_expr(e->boolop.r, out);
        kj_buf_putc(out, ')');
        return;
    case KJ_E_COMPARE:
        kj_buf_puts(out, "(compare ");
        dump_expr(e->cmp.operands[0], out);
        for (uint32_t i = 1; i < e->cmp.n; i++) {
            kj_buf_printf(out, " %s ", kj_cmpop_str(e->cmp.ops[i - 1]));
            dump_expr(e->cmp.operands[i], out);
        }
        kj_buf_putc(out, ')');
        return;
    case KJ_E_IFEXP:
        kj_buf_puts(out, "(ifexp ");
        dump_expr(e->ifexp.cond, out);
        kj_buf_putc(out, ' ');
        dump_expr(e->ifexp.then, out);
        kj_buf_putc(out, ' ');
        dump_expr(e->ifexp.els, out);
        kj_buf_putc(out, ')');
        return;
    case KJ_E__COUNT: break;
    }
    kj_buf_puts(out, "(?)");
}

static void dump_stmt(const kj_stmt *s, int indent, kj_buf *out);

/* The statements of a block, each on its own line, then the closing paren
 * of the statement that owns it. */
static void dump_block(const kj_block *b, int indent, kj_buf *out)
{
    for (uint32_t i = 0; i < b->n; i++) {
        kj_buf_printf(out, "\n%*s", indent, "");
        dump_stmt(b->v[i], indent, out);
    }
}

static void dump_def(const kj_funcdef *fd, int indent, kj_buf *out)
{
    kj_buf_printf(out, "(def %s (params", fd->name);
    for (uint32_t i = 0; i < fd->nparams; i++) {
        const kj_param *pm = &fd->params[i];
        if (!pm->def) {
            kj_buf_printf(out, " %s", pm->name);
            continue;
        }
        kj_buf_printf(out, " (%s ", pm->name);
        dump_expr(pm->def, out);
        kj_buf_putc(out, ')');
    }
    kj_buf_putc(out, ')');
    if (fd->ndecorators) {
        kj_buf_putc(out, ' ');
        dump_list("decorators", fd->decorators, fd->ndecorators, out);
    }
    dump_block(&fd->body, indent + 2, out);
    kj_buf_putc(out, ')');
}

static void dump_import(const kj_stmt *s, kj_buf *out)
{
    if (s->kind == KJ_S_IMPORT) kj_buf_puts(out, "(import");
    else kj_buf_printf(out, "(from %s", s->import.module);
    for (uint32_t i = 0; i < s->import.n; i++) {
        const kj_alias *al = &s->import.names[i];
        kj_buf_printf(out, " (alias %s%s%s)", al->name, al->asname ? " " : "", al->asname ? al->asname : "");
    }
    kj_buf_putc(out, ')');
}

static void dump_if(const kj_stmt *s, int indent, kj_buf *out)
{
    kj_buf_puts(out, "(if ");
    dump_expr(s->if_.cond, out);
    kj_buf_printf(out, "\n%*s(then", indent + 2, "");
    dump_block(&s->if_.then, indent + 4, out);
    kj_buf_putc(out, ')');
    if (s->if_.els.n) {
        kj_buf_printf(out, "\n%*s(else", indent + 2, "");
        dump_block(&s->if_.els, indent + 4, out);
        kj_buf_putc(out, ')');
    }
    kj_buf_putc(out, ')');
}

static void dump_stmt(const kj_stmt *s, int indent, kj_buf *out)
{
    switch (s->kind) {
    case KJ_S_EXPR:
        kj_buf_puts(out, "(expr ");
        dump_expr(s->expr, out);
        kj_buf_putc(out, ')');
        return;
    case KJ_S_ASSIGN:
        kj_buf_puts(out, "(assign");
        for (uint32_t i = 0; i < s->assign.ntargets; i++) {
            kj_buf_putc(out, ' ');
            dump_expr(s->assign.targets[i], out);
        }
        kj_buf_putc(out, ' ');
        dump_expr(s->assign.value, out);
        kj_buf_putc(out, ')');
        return;
    case KJ_S_AUGASSIGN:
        kj_buf_printf(out, "(augassign %s ", kj_binop_str(s->aug.op));
        dump_expr(s->aug.target, out);
        kj_buf_putc(out, ' ');
        dump_expr(s->aug.value, out);
        kj_buf_putc(out, ')');
        return;
    case KJ_S_IF: dump_if(s, indent, out); return;
    case KJ_S_WITH:
        kj_buf_puts(out, "(with ");
        dump_expr(s->with.ctx, out);
        dump_block(&s->with.body, indent + 2, out);
        kj_buf_putc(out, ')');
        return;
    case KJ_S_WHILE:
        kj_buf_puts(out, "(while ");
        dump_expr(s->while_.cond, out);
        dump_block(&s->while_.body, indent + 2, out);
        kj_buf_putc(out, ')');
        return;
    case KJ_S_FOR:
        kj_buf_puts(out, "(for ");
        dump_expr(s->for_.target, out);
        kj_buf_putc(out, ' ');
        dump_expr(s->for_.iter, out);
        dump_block(&s->for_.body, indent + 2, out);
        kj_buf_putc(out, ')');
        return;
    case KJ_S_BREAK: kj_buf_puts(out, "(break)"); return;
    case KJ_S_CONTINUE: kj_buf_puts(out, "(continue)"); return;
    case KJ_S_PASS: kj_buf_puts(out, "(pass)"); return;
    case KJ_S_RETURN:
    case KJ_S_YIELD:
        kj_buf_puts(out, s->kind == KJ_S_YIELD ? "(yield" : "(return");
        if (s->ret.value) {
            kj_buf_putc(out, ' ');
            dump_expr(s->ret.value, out);
        }
        kj_buf_putc(out, ')');
        return;
    case KJ_S_TRY:
        kj_buf_puts(out, "(try");
        dump_block(&s->try_.body, indent + 2, out);
        dump_block(&s->try_.clauses, indent + 2, out);
        kj_buf_putc(out, ')');
        return;
    case KJ_S_EXCEPT:
        kj_buf_puts(out, s->except.clause == KJ_EXCEPT_HANDLER ? "(except"
                         : s->except.clause == KJ_EXCEPT_ELSE  ? "(else"
                                                               : "(finally");
        if (s->except.type) {
            kj_buf_putc(out, ' ');
            dump_expr(s->except.type, out);
        }
        if (s->except.name) kj_buf_printf(out, " as %s", s->except.name);
        dump_block(&s->except.body, indent + 2, out);
        kj_buf_putc(out, ')');
        return;
    case KJ_S_RAISE:
        kj_buf_puts(out, "(raise");
        if (s->raise.exc) {
            kj_buf_putc(out, ' ');
            dump_expr(s->raise.exc, out);
        }
        if (s->raise.cause) {
            kj_buf_puts(out, " from ");
            dump_expr(s->raise.cause, out);
        }
        kj_buf_putc(out, ')');
        return;
    case KJ_S_ASSERT:
        kj_buf_puts(out, "(assert ");
        dump_expr(s->assert_.cond, out);
        if (s->assert_.msg) {
            kj_buf_putc(out, ' ');
            dump_expr(s->assert_.msg, out);
        }
        kj_buf_putc(out, ')');
        return;
    case KJ_S_DEF: dump_def(s->def, indent, out); return;
    case KJ_S_IMPORT: case KJ_S_FROM_IMPORT: dump_import(s, out); return;
    case KJ_S_GLOBAL:
        kj_buf_puts(out, "(global");
        for (uint32_t i = 0; i < s->import.n; i++) kj_buf_printf(out, " %s", s->import.names[i].name);
        kj_buf_putc(out, ')');
        return;
    case KJ_S__COUNT: break;
    }
    kj_buf_puts(out, "(?)");
}

void kj_ast_dump(const kj_module *m, kj_buf *out)
{
    kj_buf_puts(out, "(module");
    dump_block(&m->body, 2, out);
    kj_buf_puts(out, ")\n");
}
