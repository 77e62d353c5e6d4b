/* SPDX-License-Identifier: BSD-2-Clause */
/* f-strings (Python's "formatted string literals", PEP 498): f"a{x:.3f}b{s!r}"
 * and its adjacent literals become the call "a{0:.3f}b{1!r}".format(x, s)
 * whose format string is marked `fstr`; lower_str.c formats it as .format
 * does, and refuses specs and conversions inside @jit functions as Numba 0.56
 * does ("format spec in f-strings not supported yet").
 *
 * Each {expression} is lexed from a copy of the source in which everything
 * before it is blanked (newlines kept) and the braces are parentheses, so its
 * tokens carry their real offsets, lines and columns (and names read from
 * the real source); the same parser then parses them. */
#include "parser_impl.h"

#include "../util/buf.h"

#include <stdlib.h>
#include <string.h>

typedef struct fs {
    kjp *p;
    const kj_token *t; /* the f-string token being read */
    const char *s;     /* the source text */
    kj_buf fmt;
    KJ_VEC(kj_expr *) args;
} fs;

/* The span of source bytes [off, off + len) inside token t. */
static kj_span span_in(const fs *f, uint32_t off, uint32_t len)
{
    kj_span sp = {off, len, f->t->span.line, f->t->span.col};
    for (uint32_t i = f->t->span.off; i < off; i++) {
        if (f->s[i] == '\n') sp.line++, sp.col = 1;
        else sp.col++;
    }
    return sp;
}

/* Literal text: braces doubled, as the format string spells them. */
static void lit(fs *f, const char *s, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (s[i] == '{' || s[i] == '}') kj_buf_putc(&f->fmt, s[i]);
        kj_buf_putc(&f->fmt, s[i]);
    }
}

static void lit_src(fs *f, uint32_t b, uint32_t e, bool raw)
{
    if (e <= b) return;
    uint32_t n;
    const char *d = kj_lex_decode(f->p->src, f->p->a, b, e, raw, &n);
    lit(f, d, n);
}

/* The expression in source bytes [xb, xe) (after a '{'): lexed from a copy
 * of the source that is blank before it, then parsed by p. */
static kj_expr *sub_expr(fs *f, uint32_t xb, uint32_t xe)
{
    kjp *p = f->p;
    char *text = malloc((size_t)xe + 2);
    if (!text) abort();
    for (uint32_t i = 0; i + 1 < xb; i++) text[i] = f->s[i] == '\n' || f->s[i] == '\r' ? f->s[i] : ' ';
    text[xb - 1] = '(';
    memcpy(text + xb, f->s + xb, xe - xb);
    text[xe] = ')';
    text[xe + 1] = '\n';
    kj_source sub = {p->src->path, text, (size_t)xe + 2};
    kj_diags sd = {0};
    kj_tokens tk = kj_lex(&sub, p->a, &sd);
    kj_expr *e = NULL;
    if (kj_has_errors(&sd)) {
        kjp_error(p, sd.v[0].span, "f-string: %s", sd.v[0].msg);
    } else {
        kj_token *otok = p->tok;
        uint32_t ontok = p->ntok, opos = p->pos;
        p->tok = tk.v, p->ntok = tk.n, p->pos = 0;
        while (kjp_at(p, KJ_TOK_INDENT) || kjp_at(p, KJ_TOK_NEWLINE)) p->pos++;
        e = kjp_expr(p);
        if (!p->panic && !kjp_at(p, KJ_TOK_NEWLINE)) kjp_unexpected(p);
        p->tok = otok, p->ntok = ontok, p->pos = opos;
    }
    kj_diags_free(&sd);
    free(text);
    return e;
}

/* The end of the expression of a field starting at x: the first '}', ':' or
 * '!' (not '!=') outside brackets and string literals, or e. */
static uint32_t expr_end(const fs *f, uint32_t x, uint32_t e)
{
    int depth = 0;
    char q = 0;
    for (; x < e; x++) {
        char c = f->s[x];
        if (q) {
            if (c == q) q = 0;
        } else if (c == '\'' || c == '"') {
            q = c;
        } else if (c == '(' || c == '[' || c == '{') {
            depth++;
        } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
            depth--;
        } else if (depth == 0 && (c == '}' || c == ':' || (c == '!' && f->s[x + 1] != '='))) {
            return x;
        }
    }
    return e;
}

static uint32_t fail(fs *f, uint32_t at, const char *msg)
{
    kjp_error(f->p, span_in(f, at, 1), "f-string: %s", msg);
    return UINT32_MAX;
}

/* A field {expr[!c][:spec]} whose '{' is at i, ending before e; nested (a
 * field inside a spec) takes no spec. Returns the offset after its '}', or
 * UINT32_MAX after an error. */
static uint32_t field(fs *f, uint32_t i, uint32_t e, bool nested)
{
    const char *s = f->s;
    uint32_t xb = i + 1, x = expr_end(f, xb, e);
    if (x >= e) return fail(f, i, "expecting '}'");
    uint32_t w = xb;
    while (w < x && (s[w] == ' ' || s[w] == '\t' || s[w] == '\n')) w++;
    if (w == x) return fail(f, x, "empty expression not allowed");
    kj_expr *ex = sub_expr(f, xb, x);
    if (f->p->panic) return UINT32_MAX;
    kj_buf_printf(&f->fmt, "{%u", f->args.n);
    KJP_PUSH(f->p->a, f->args, ex);
    if (s[x] == '!') {
        if (x + 1 >= e || !strchr("rsa", s[x + 1]) || !s[x + 1])
            return fail(f, x + 1, "invalid conversion character: expected 's', 'r', or 'a'");
        kj_buf_printf(&f->fmt, "!%c", s[x + 1]);
        x += 2;
        if (x >= e || (s[x] != ':' && s[x] != '}')) return fail(f, x, "expecting '}'");
    }
    if (s[x] == ':') {
        if (nested) return fail(f, x, "expressions nested too deeply");
        kj_buf_putc(&f->fmt, ':');
        for (x++; x < e && s[x] != '}';) {
            if (s[x] == '{') {
                x = field(f, x, e, true);
                if (x == UINT32_MAX) return x;
            } else {
                kj_buf_putc(&f->fmt, s[x++]);
            }
        }
        if (x >= e) return fail(f, i, "expecting '}'");
    }
    kj_buf_putc(&f->fmt, '}');
    return x + 1;
}

/* One f-string token: its literal parts (escapes decoded) and fields. */
static bool one(fs *f)
{
    const char *s = f->s;
    uint32_t o = f->t->span.off, end = o + f->t->span.len;
    bool raw = false;
    while (s[o] != '\'' && s[o] != '"') raw |= (s[o] | 32) == 'r', o++;
    uint32_t ql = o + 2 < end && s[o + 1] == s[o] && s[o + 2] == s[o] ? 3 : 1;
    uint32_t b = o + ql, e = end >= b + ql ? end - ql : b, start = b;
    for (uint32_t i = b; i < e;) {
        char c = s[i];
        if ((c == '{' || c == '}') && i + 1 < e && s[i + 1] == c) { /* {{ and }} */
            lit_src(f, start, i + 1, raw);
            start = i += 2;
        } else if (c == '}') {
            fail(f, i, "single '}' is not allowed");
            return false;
        } else if (c == '{') {
            lit_src(f, start, i, raw);
            i = field(f, i, e, false);
            if (i == UINT32_MAX) return false;
            start = i;
        } else {
            i++;
        }
    }
    lit_src(f, start, e, raw);
    return true;
}

kj_expr *kjp_fstring(kjp *p, uint32_t n)
{
    kj_token *first = kjp_cur(p);
    fs f = {.p = p, .s = p->src->text};
    bool ok = true;
    for (uint32_t k = 0; k < n && ok; k++) {
        f.t = &first[k];
        if (f.t->fstr) ok = one(&f);
        else lit(&f, f.t->v.str.s, f.t->v.str.n);
    }
    p->pos += n;
    kj_span sp = kjp_span_from(p, first->span);
    kj_expr *fe = kjp_new_expr(p, KJ_E_STR, sp);
    if (!f.fmt.s) kj_buf_puts(&f.fmt, "");
    fe->str.len = (uint32_t)strlen(f.fmt.s);
    fe->str.s = kj_arena_strndup(p->a, f.fmt.s, fe->str.len);
    fe->str.fstr = true;
    kj_buf_free(&f.fmt);
    if (!ok) return fe;
    kj_expr *attr = kjp_new_expr(p, KJ_E_ATTR, sp);
    attr->attr.obj = fe;
    attr->attr.name = kj_arena_strndup(p->a, "format", 6);
    attr->attr.name_span = sp;
    kj_expr *call = kjp_new_expr(p, KJ_E_CALL, sp);
    call->call.fn = attr;
    call->call.args = f.args.v;
    call->call.nargs = f.args.n;
    return call;
}
