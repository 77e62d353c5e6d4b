/* SPDX-License-Identifier: BSD-2-Clause */
/* Numba signature strings and gufunc layout strings.
 *
 *   signature := [type] '(' [type (',' type)* [',']] ')'
 *   type      := scalar ['[' dim (',' dim)* ']']
 *              | 'UniTuple' '(' type ',' INT ')'
 *              | 'Tuple' '(' ( '(' types ')' | types ) ')'
 *              | 'void' | 'none'
 *   dim       := ':' | '::1'
 *
 *   layout    := group (',' group)* '->' group (',' group)*
 *   group     := '(' [NAME (',' NAME)* [',']] ')'
 *
 * Whitespace may appear between any two tokens. Errors point at the
 * offending character inside the string literal. */
#include "types.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

enum { MAX_DIMS = 4, MAX_TUPLE = 64 };

typedef KJ_VEC(const kj_type *) type_vec;

typedef struct sp_state {
    kj_types *t;
    kj_arena *a;
    const char *s;
    uint32_t len, pos;
    const kj_source *src;
    kj_span lit;   /* the string literal, quote included */
    uint32_t base; /* offset of the string's first character from lit.off */
    kj_diags *d;
    const char *what; /* "signature" or "layout" */
} sp_state;

/* Where the string's contents start within the literal: after any prefix
 * letters (r, b, u) and the opening quote (one, or three for '''/""").
 * Without the source text the literal is assumed to be 'like this'. */
static uint32_t content_base(const kj_source *src, kj_span lit)
{
    if (!src || !src->text || lit.off >= src->len) return 1;
    const char *p = src->text + lit.off, *end = src->text + src->len;
    uint32_t i = 0;
    while (p + i < end && p[i] && strchr("rRbBuU", p[i])) i++;
    if (p + i >= end || (p[i] != '\'' && p[i] != '"')) return 1;
    char q = p[i];
    if (p + i + 2 < end && p[i + 1] == q && p[i + 2] == q) return i + 3;
    return i + 1;
}

static kj_span at(const sp_state *st, uint32_t off, uint32_t len)
{
    kj_span sp = st->lit;
    sp.off += st->base + off;
    sp.col += st->base + off;
    sp.len = len ? len : 1;
    return sp;
}

static kj_diag *err_at(sp_state *st, uint32_t off, uint32_t len, const char *msg)
{
    return kj_error(st->d, st->src, at(st, off, len), "%s in %s", msg, st->what);
}

static void skip_ws(sp_state *st)
{
    while (st->pos < st->len && isspace((unsigned char)st->s[st->pos])) st->pos++;
}

static bool at_end(sp_state *st)
{
    skip_ws(st);
    return st->pos >= st->len;
}

static char peek(sp_state *st) { return at_end(st) ? 0 : st->s[st->pos]; }

/* Report the character at the current position as unexpected. */
static bool unexpected(sp_state *st)
{
    if (at_end(st)) {
        kj_error(st->d, st->src, at(st, st->pos, 1), "unexpected end of %s", st->what);
        return false;
    }
    char c = st->s[st->pos];
    if (isprint((unsigned char)c))
        kj_error(st->d, st->src, at(st, st->pos, 1), "unexpected '%c' in %s", c, st->what);
    else
        kj_error(st->d, st->src, at(st, st->pos, 1), "unexpected byte 0x%02x in %s",
                 (unsigned char)c, st->what);
    return false;
}

/* Consume `c` or report "expected 'c'". */
static bool expect(sp_state *st, char c)
{
    if (peek(st) == c) {
        st->pos++;
        return true;
    }
    char msg[32];
    snprintf(msg, sizeof msg, "expected '%c'", c);
    err_at(st, st->pos, 1, msg);
    return false;
}

static bool is_ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool is_ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* NAME; returns its length (0 when there is none) and its start in *start. */
static uint32_t ident(sp_state *st, uint32_t *start)
{
    skip_ws(st);
    *start = st->pos;
    if (st->pos >= st->len || !is_ident_start(st->s[st->pos])) return 0;
    while (st->pos < st->len && is_ident_char(st->s[st->pos])) st->pos++;
    return st->pos - *start;
}

/* ---- signatures ------------------------------------------------------------ */

static const kj_type *parse_type(sp_state *st);

/* Names suggested for a misspelt type. */
static const char *const type_names[] = {
    "bool",   "boolean", "bool_",   "int8",    "int16",   "int32",   "int64",    "uint8",
    "uint16", "uint32",  "uint64",  "float32", "float64", "float_",  "double",   "intp",
    "uintp",  "int_",    "void",    "none",    "Tuple",   "UniTuple", "single",
};

/* dim := ':' | '::1'. Sets *contig for '::1'. */
static bool parse_dim(sp_state *st, bool *contig)
{
    if (!expect(st, ':')) return false;
    *contig = false;
    if (peek(st) != ':') return true;
    st->pos++;
    skip_ws(st);
    if (st->pos >= st->len || st->s[st->pos] != '1') return unexpected(st);
    st->pos++;
    *contig = true;
    return true;
}

/* '[' dim (',' dim)* ']' after a scalar type, at most MAX_DIMS dims. Layout:
 * all ':' → A; '::1' last → C; '::1' first (2+ dims) → F. */
static const kj_type *parse_dims(sp_state *st, const kj_type *elem, uint32_t elem_off)
{
    st->pos++; /* '[' */
    int ndim = 0, contig_at = -1;
    for (;;) {
        uint32_t dim_off = (skip_ws(st), st->pos);
        if (ndim == MAX_DIMS) {
            kj_error(st->d, st->src, at(st, dim_off, 1), "arrays have at most %d dimensions",
                     MAX_DIMS);
            return NULL;
        }
        bool contig;
        if (!parse_dim(st, &contig)) return NULL;
        if (contig) {
            if (contig_at >= 0) {
                err_at(st, dim_off, st->pos - dim_off, "only one dimension can be '::1'");
                return NULL;
            }
            contig_at = ndim;
        }
        ndim++;
        if (peek(st) == ']') break;
        if (peek(st) != ',') {
            expect(st, ']');
            return NULL;
        }
        st->pos++;
    }
    st->pos++; /* ']' */
    kj_layout layout = KJ_LAYOUT_A;
    if (contig_at == ndim - 1) layout = KJ_LAYOUT_C;
    else if (contig_at == 0) layout = KJ_LAYOUT_F;
    else if (contig_at > 0) {
        err_at(st, elem_off, st->pos - elem_off, "'::1' must be the first or last dimension");
        return NULL;
    }
    return kj_t_array(st->t, elem, ndim, layout);
}

/* A comma-separated list of types up to `close` (a trailing comma is fine);
 * the closing character is consumed. */
static bool parse_type_list(sp_state *st, char close, type_vec *out)
{
    for (;;) {
        if (peek(st) == close) break;
        if (at_end(st)) return expect(st, close);
        const kj_type *ty = parse_type(st);
        if (!ty) return false;
        KJ_PUSH(st->a, *out, ty);
        if (peek(st) == ',') {
            st->pos++;
            continue;
        }
        if (peek(st) != close) return expect(st, close);
    }
    st->pos++;
    return true;
}

/* 'Tuple' '(' ( '(' types ')' | types ) ')' — Numba writes Tuple((a, b)). */
static const kj_type *parse_tuple(sp_state *st)
{
    if (!expect(st, '(')) return NULL;
    type_vec el = {0};
    bool nested = peek(st) == '(';
    if (nested) st->pos++;
    if (!parse_type_list(st, ')', &el)) return NULL;
    if (nested && !expect(st, ')')) return NULL;
    return kj_t_tuple(st->t, el.v, el.n);
}

/* 'UniTuple' '(' type ',' INT ')' */
static const kj_type *parse_unituple(sp_state *st)
{
    if (!expect(st, '(')) return NULL;
    const kj_type *ty = parse_type(st);
    if (!ty || !expect(st, ',')) return NULL;
    skip_ws(st);
    uint32_t start = st->pos, count = 0;
    while (st->pos < st->len && isdigit((unsigned char)st->s[st->pos]) && count <= MAX_TUPLE)
        count = count * 10 + (uint32_t)(st->s[st->pos++] - '0');
    if (st->pos == start) {
        err_at(st, start, 1, "expected a count");
        return NULL;
    }
    if (count > MAX_TUPLE) {
        kj_error(st->d, st->src, at(st, start, st->pos - start), "tuples have at most %d elements",
                 MAX_TUPLE);
        return NULL;
    }
    if (!expect(st, ')')) return NULL;
    const kj_type *el[MAX_TUPLE];
    for (uint32_t i = 0; i < count; i++) el[i] = ty;
    return kj_t_tuple(st->t, el, count);
}

static const kj_type *unknown_type(sp_state *st, uint32_t start, uint32_t n)
{
    kj_diag *dg = kj_error(st->d, st->src, at(st, start, n), "unknown type '%.*s' in %s", (int)n,
                           st->s + start, st->what);
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)n, st->s + start);
    const char *best = kj_closest(name, type_names, sizeof type_names / sizeof *type_names);
    if (best) kj_diag_hint(dg, "did you mean '%s'?", best);
    return NULL;
}

/* type := scalar ['[' dims ']'] | UniTuple(...) | Tuple(...) | void | none */
static const kj_type *parse_type(sp_state *st)
{
    uint32_t start, n = ident(st, &start);
    if (!n) return unexpected(st), NULL;
    char name[64];
    if (n >= sizeof name) return unknown_type(st, start, n);
    memcpy(name, st->s + start, n);
    name[n] = 0;
    if (!strcmp(name, "UniTuple")) return parse_unituple(st);
    if (!strcmp(name, "Tuple")) return parse_tuple(st);
    if (!strcmp(name, "void") || !strcmp(name, "none")) return kj_t_none(st->t);
    const kj_type *ty = kj_scalar_by_name(st->t, name);
    if (!ty) return unknown_type(st, start, n);
    if (peek(st) == '[') return parse_dims(st, ty, start);
    return ty;
}

bool kj_parse_sig(kj_types *t, kj_arena *a, const char *s, uint32_t len, const kj_source *src,
                  kj_span sp, kj_diags *d, kj_sig *out)
{
    sp_state st = {.t = t, .a = a, .s = s, .len = len, .src = src, .lit = sp,
                   .base = content_base(src, sp), .d = d, .what = "signature"};
    memset(out, 0, sizeof *out);
    const kj_type *ret = NULL;
    if (peek(&st) != '(') {
        if (!(ret = parse_type(&st))) return false;
        if (!expect(&st, '(')) return false;
    } else {
        st.pos++;
    }
    type_vec params = {0};
    if (!parse_type_list(&st, ')', &params)) return false;
    if (!at_end(&st)) return unexpected(&st);
    out->ret = ret;
    out->params = params.v;
    out->nparams = params.n;
    return true;
}

/* ---- gufunc layouts ----------------------------------------------------------- */

typedef KJ_VEC(const char *) name_vec;
typedef struct {
    name_vec names;
    KJ_VEC(uint32_t) offs; /* where each name starts, for errors */
} group;
typedef KJ_VEC(group) group_vec;

/* group := '(' [NAME (',' NAME)* [',']] ')' */
static bool parse_group(sp_state *st, group *g)
{
    if (!expect(st, '(')) return false;
    for (;;) {
        if (peek(st) == ')') break;
        uint32_t start, n = ident(st, &start);
        if (!n) return unexpected(st);
        KJ_PUSH(st->a, g->names, kj_arena_strndup(st->a, st->s + start, n));
        KJ_PUSH(st->a, g->offs, start);
        if (peek(st) == ',') {
            st->pos++;
            continue;
        }
        if (peek(st) != ')') return expect(st, ')');
    }
    st->pos++;
    return true;
}

/* group (',' group)*, stopping before '->' or the end. */
static bool parse_groups(sp_state *st, group_vec *out)
{
    for (;;) {
        group g = {0};
        if (!parse_group(st, &g)) return false;
        KJ_PUSH(st->a, *out, g);
        if (peek(st) != ',') return true;
        st->pos++;
    }
}

static bool names_contain(const group_vec *gs, const char *name)
{
    for (uint32_t i = 0; i < gs->n; i++)
        for (uint32_t j = 0; j < gs->v[i].names.n; j++)
            if (!strcmp(gs->v[i].names.v[j], name)) return true;
    return false;
}

/* Every output dimension must be fixed by some input (as in NumPy/Numba). */
static bool check_outputs(sp_state *st, const group_vec *in, const group_vec *outs)
{
    for (uint32_t i = 0; i < outs->n; i++)
        for (uint32_t j = 0; j < outs->v[i].names.n; j++) {
            const char *nm = outs->v[i].names.v[j];
            if (names_contain(in, nm)) continue;
            kj_error(st->d, st->src, at(st, outs->v[i].offs.v[j], (uint32_t)strlen(nm)),
                     "output dimension '%s' does not appear in any input of the layout", nm);
            return false;
        }
    return true;
}

bool kj_parse_layout(kj_arena *a, const char *s, uint32_t len, const kj_source *src, kj_span sp,
                     kj_diags *d, kj_gu_layout *out)
{
    sp_state st = {.a = a, .s = s, .len = len, .src = src, .lit = sp,
                   .base = content_base(src, sp), .d = d, .what = "layout"};
    memset(out, 0, sizeof *out);
    group_vec in = {0}, outs = {0};
    if (!parse_groups(&st, &in)) return false;
    skip_ws(&st);
    if (st.pos + 1 >= st.len || st.s[st.pos] != '-' || st.s[st.pos + 1] != '>') {
        err_at(&st, st.pos, 1, "expected '->'");
        return false;
    }
    st.pos += 2;
    if (!parse_groups(&st, &outs)) return false;
    if (!at_end(&st)) return unexpected(&st);
    if (!check_outputs(&st, &in, &outs)) return false;
    out->nin = in.n;
    out->nout = outs.n;
    out->args = kj_arena_alloc(a, (in.n + outs.n) * sizeof *out->args);
    for (uint32_t i = 0; i < in.n + outs.n; i++) {
        const group *g = i < in.n ? &in.v[i] : &outs.v[i - in.n];
        out->args[i].dims = g->names.v;
        out->args[i].ndims = g->names.n;
    }
    return true;
}
