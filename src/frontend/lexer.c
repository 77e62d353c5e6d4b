/* SPDX-License-Identifier: BSD-2-Clause */
/* Lexer: source bytes → tokens, following CPython's tokenizer (Python 3.11)
 * for the subset kjit reads.
 *
 * Layout: at the start of each logical line outside brackets the width of
 * the indentation is compared with a stack of widths, giving INDENT or
 * DEDENTs. Like CPython, widths are measured twice, with tabs to multiples
 * of 8 and with tabs as 1 column; the two must order lines the same way or
 * the mix of tabs and spaces is ambiguous (TabError). Blank and
 * comment-only lines do not count; inside (), [] and {} newlines are plain
 * whitespace; a backslash before a newline joins the lines.
 *
 * Errors never stop the lexer except where going on would only produce
 * noise (100 nested blocks): bad characters are skipped, bad literals
 * become ordinary tokens, unclosed brackets get synthetic closers at the
 * end, so the parser always gets a well-formed stream ending in
 * NEWLINE DEDENT* EOF. At most one lexer error is reported per line. */
#include "lexer.h"

#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    MAX_INDENT = 100, /* CPython's MAXINDENT: at most 99 nested blocks */
    MAX_PAREN = 200,  /* CPython's MAXLEVEL */
};

static const char *const spellings[] = {
#define X(name, sp) sp,
    KJ_TOKENS(X)
#undef X
};

const char *kj_tok_spelling(kj_tok_kind k)
{
    return (unsigned)k < KJ_TOK__COUNT ? spellings[k] : "?";
}

typedef struct open_bracket {
    kj_tok_kind kind; /* LPAREN, LBRACK or LBRACE */
    kj_span span;
} open_bracket;

typedef struct lexer {
    const kj_source *src;
    const unsigned char *s;
    uint32_t n, pos;
    uint32_t line, line_start; /* current line (1-based) and its first byte */
    kj_arena *a;
    kj_diags *d;

    kj_token *tok; /* malloc'd while lexing, copied to the arena at the end */
    uint32_t ntok, cap;

    uint32_t ind[MAX_INDENT], alt[MAX_INDENT]; /* widths: tab=8 and tab=1 */
    uint32_t alias[MAX_INDENT]; /* a width also taken as the level's, after a bad unindent */
    uint32_t depth;           /* ind[0..depth] are live */

    open_bracket br[MAX_PAREN];
    uint32_t nbr;
    uint32_t extra;  /* openers beyond MAX_PAREN, not tracked */
    bool overflowed; /* "too many nested parentheses" was reported */

    bool line_has_tok; /* a token was emitted on this logical line */
    kj_span last_end;  /* zero-length span just after the last token */
    uint32_t err_line; /* line of the last lexer error (one per line) */
    bool tab_reported, nul_reported, stopped;
    bool bytes_mode; /* decoding a bytes literal: \x and octal escapes are bytes, \u is not an escape */
    uint32_t quiet_from, quiet_to; /* see kj_lex_info */
    locale_t c_locale; /* for strtod, made on the first float literal */
} lexer;

/* ---------------------------------------------------------------------- */
/* Small helpers                                                           */

static inline int at(const lexer *L, uint32_t p) { return p < L->n ? L->s[p] : -1; }
static inline bool is_digit(int c) { return c >= '0' && c <= '9'; }
static inline bool is_alpha(int c) { return ((unsigned)c | 32u) - 'a' < 26u || c == '_'; }
static inline bool is_alnum(int c) { return is_alpha(c) || is_digit(c); }
static inline bool is_hex(int c) { return is_digit(c) || ((unsigned)c | 32u) - 'a' < 6u; }

static inline int hex_val(int c) { return is_digit(c) ? c - '0' : (c | 32) - 'a' + 10; }

/* Length of the line break at p (\n, \r\n or a lone \r), or 0. */
static inline uint32_t newline_len(const lexer *L, uint32_t p)
{
    int c = at(L, p);
    if (c == '\n') return 1;
    if (c == '\r') return at(L, p + 1) == '\n' ? 2 : 1;
    return 0;
}

static inline void next_line(lexer *L, uint32_t line_start)
{
    L->line++;
    L->line_start = line_start;
}

/* A span starting at `off` on the current line. */
static inline kj_span span_at(const lexer *L, uint32_t off, uint32_t len)
{
    return (kj_span){off, len, L->line, off - L->line_start + 1};
}

/* Decode one UTF-8 sequence; returns its length, or 0 when it is invalid
 * (bad lead byte, truncated, overlong, surrogate or beyond U+10FFFF). */
static uint32_t utf8_decode(const unsigned char *p, uint32_t avail, uint32_t *cp)
{
    unsigned c = p[0];
    uint32_t need, min, v;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if ((c & 0xE0) == 0xC0) need = 2, v = c & 0x1F, min = 0x80;
    else if ((c & 0xF0) == 0xE0) need = 3, v = c & 0x0F, min = 0x800;
    else if ((c & 0xF8) == 0xF0) need = 4, v = c & 0x07, min = 0x10000;
    else return 0;
    if (need > avail) return 0;
    for (uint32_t i = 1; i < need; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        v = v << 6 | (p[i] & 0x3Fu);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    *cp = v;
    return need;
}

static uint32_t utf8_encode(uint32_t cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | cp >> 12);
        out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | cp >> 18);
    out[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    out[2] = (char)(0x80 | (cp >> 6 & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* ---------------------------------------------------------------------- */
/* Output and errors                                                       */

static void lex_error(lexer *L, kj_span sp, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void lex_error(lexer *L, kj_span sp, const char *fmt, ...)
{
    if (sp.line == L->err_line) return;
    L->err_line = sp.line;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    kj_error(L->d, L->src, sp, "%s", msg);
}

/* Tell the parser to keep quiet in [from, to): a lexer error there
 * already covers whatever it would find. One range, widened as needed. */
static void set_quiet(lexer *L, uint32_t from, uint32_t to)
{
    if (from < L->quiet_from) L->quiet_from = from;
    if (to > L->quiet_to || L->quiet_to == 0) L->quiet_to = to;
}

static kj_token *push_token(lexer *L, kj_tok_kind kind, kj_span sp)
{
    if (L->ntok == L->cap) {
        uint32_t cap = L->cap ? L->cap * 2 : 256;
        kj_token *t = realloc(L->tok, (size_t)cap * sizeof *t);
        if (!t) {
            fputs("kjit: out of memory\n", stderr);
            abort();
        }
        L->tok = t;
        L->cap = cap;
    }
    kj_token *t = &L->tok[L->ntok++];
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->span = sp;
    return t;
}

/* Emit a real token that ends at the current position. */
static kj_token *emit(lexer *L, kj_tok_kind kind, kj_span sp)
{
    L->line_has_tok = true;
    L->last_end = span_at(L, L->pos, 0);
    return push_token(L, kind, sp);
}

/* ---------------------------------------------------------------------- */
/* Indentation                                                             */

static void tab_error(lexer *L, kj_span sp)
{
    if (L->tab_reported) return;
    L->tab_reported = true;
    lex_error(L, sp, "inconsistent use of tabs and spaces in indentation");
}

static void push_level(lexer *L, uint32_t col, uint32_t alt)
{
    L->depth++;
    L->ind[L->depth] = col;
    L->alt[L->depth] = alt;
    L->alias[L->depth] = UINT32_MAX;
}

/* Pop the levels deeper than `col`. A line that lands between two levels
 * is an error; it is kept in the inner block (a mis-indented statement
 * usually belongs there, and a `return` moved out of its function would
 * be a second error), and its width becomes an alias of that block's so
 * that the lines after it at the same width are not errors again. */
static void dedent_to(lexer *L, uint32_t col, uint32_t alt, kj_span first)
{
    while (L->depth > 0 && col < L->ind[L->depth] && col != L->alias[L->depth]) {
        if (col > L->ind[L->depth - 1]) {
            lex_error(L, first, "unindent does not match any outer indentation level");
            L->alias[L->depth] = col;
            return;
        }
        push_token(L, KJ_TOK_DEDENT, first);
        L->depth--;
    }
    if (col == L->ind[L->depth] && alt != L->alt[L->depth])
        tab_error(L, span_at(L, L->line_start, first.off - L->line_start));
}

/* At the start of a line outside brackets: measure the indentation and
 * emit INDENT/DEDENT. Blank and comment-only lines are left alone. */
static void indentation(lexer *L)
{
    uint32_t col = 0, alt = 0, p = L->pos;
    for (;; p++) {
        int c = at(L, p);
        if (c == ' ') col++, alt++;
        else if (c == '\t') col = (col / 8 + 1) * 8, alt++;
        else if (c == '\f') col = alt = 0;
        else break;
    }
    L->pos = p;
    int c = at(L, p);
    if (c < 0 || c == '#' || c == '\n' || c == '\r') return;

    kj_span first = span_at(L, p, 0);
    kj_span ws = span_at(L, L->line_start, p - L->line_start);
    uint32_t top = L->ind[L->depth];
    if (col == top) {
        if (alt != L->alt[L->depth]) tab_error(L, ws);
    } else if (col > top) {
        if (L->depth + 1 >= MAX_INDENT) {
            /* Fatal: nobody writes 100 nested blocks, so stop here rather
             * than report every deeper line. */
            lex_error(L, first, "too many levels of indentation");
            set_quiet(L, L->last_end.off, UINT32_MAX); /* from the header's NEWLINE on */
            L->stopped = true;
            return;
        }
        if (alt <= L->alt[L->depth]) tab_error(L, ws);
        push_level(L, col, alt);
        push_token(L, KJ_TOK_INDENT, first);
    } else {
        dedent_to(L, col, alt, first);
    }
}

/* ---------------------------------------------------------------------- */
/* Names and keywords                                                      */

static kj_tok_kind keyword(const unsigned char *s, uint32_t len)
{
    if (len < 2 || len > 8) return KJ_TOK_NAME;
    for (int k = KJ_TOK_KW_FALSE; k <= KJ_TOK_KW_YIELD; k++) {
        const char *kw = spellings[k];
        if ((unsigned char)kw[0] == s[0] && !strncmp(kw, (const char *)s, len) && kw[len] == 0)
            return (kj_tok_kind)k;
    }
    return KJ_TOK_NAME;
}

static void lex_string(lexer *L, uint32_t start, uint32_t quote, bool raw, bool bytes);

/* A string prefix CPython accepts: r, u, b, f, and rb/br/rf/fr; `bytes` is
 * set for bytes literals, `fstr` for f-strings (their fields are parsed by
 * parser_fstring.c from the source text). */
static bool string_prefix(const unsigned char *s, uint32_t len, bool *raw, bool *fstr, bool *bytes)
{
    bool r = false, b = false, f = false, u = false;
    for (uint32_t i = 0; i < len; i++) {
        int c = s[i] | 32;
        if (c == 'r' && !r) r = true;
        else if (c == 'b' && !b) b = true;
        else if (c == 'f' && !f) f = true;
        else if (c == 'u' && !u) u = true;
        else return false;
    }
    if ((b && f) || (u && len > 1)) return false;
    *raw = r;
    *fstr = f;
    *bytes = b;
    return true;
}

/* NAME, keyword, or the prefix of a string literal (r'...'). */
static void lex_name(lexer *L)
{
    uint32_t st = L->pos, p = st;
    while (is_alnum(at(L, p))) p++;
    uint32_t len = p - st;
    int c = at(L, p);
    bool raw, fstr, bytes;
    if ((c == '\'' || c == '"') && len <= 2 && string_prefix(L->s + st, len, &raw, &fstr, &bytes)) {
        lex_string(L, st, p, raw, bytes);
        L->tok[L->ntok - 1].fstr = fstr;
        return;
    }
    L->pos = p;
    emit(L, keyword(L->s + st, len), span_at(L, st, len));
}

/* ---------------------------------------------------------------------- */
/* Numbers                                                                 */

static bool radix_digit(int c, int radix)
{
    return radix == 16 ? is_hex(c) : c >= '0' && c < '0' + radix;
}

/* digit ('_'? digit)* : consume a run of digits with single underscores
 * between them. On a misplaced underscore, *bad is set to its offset. */
static uint32_t digit_run(const lexer *L, uint32_t p, int radix, uint32_t *bad)
{
    for (;;) {
        while (radix_digit(at(L, p), radix)) p++;
        if (at(L, p) != '_') return p;
        if (!radix_digit(at(L, p + 1), radix)) {
            if (*bad == UINT32_MAX) *bad = p;
            return p + 1;
        }
        p++;
    }
}

/* CPython lets a number run into a few keywords (`1if x else 2`). */
static bool keyword_follows(const lexer *L, uint32_t p)
{
    static const char *const kws[] = {"and", "else", "for", "if", "in", "is", "not", "or"};
    uint32_t e = p;
    while (is_alnum(at(L, e))) e++;
    for (size_t i = 0; i < sizeof kws / sizeof *kws; i++)
        if (strlen(kws[i]) == e - p && !memcmp(kws[i], L->s + p, e - p)) return true;
    return false;
}

/* The value of the digits in [st, end), skipping underscores; saturates at
 * UINT64_MAX and sets *big on overflow. */
static uint64_t int_value(const lexer *L, uint32_t st, uint32_t end, int radix, bool *big)
{
    uint64_t v = 0;
    for (uint32_t p = st; p < end; p++) {
        int c = L->s[p];
        if (c == '_') continue;
        uint64_t dv = (uint64_t)hex_val(c);
        if (v > (UINT64_MAX - dv) / (uint64_t)radix) {
            *big = true;
            return UINT64_MAX;
        }
        v = v * (uint64_t)radix + dv;
    }
    return v;
}

/* The value of a float literal. strtod_l in the "C" locale: the
 * embedding program's LC_NUMERIC may want a decimal comma. */
static double float_value(lexer *L, uint32_t st, uint32_t end)
{
    if (!L->c_locale) {
        L->c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
        if (!L->c_locale) abort();
    }
    char small[128];
    size_t len = end - st;
    char *buf = len < sizeof small ? small : malloc(len + 1);
    if (!buf) abort();
    size_t k = 0;
    for (uint32_t p = st; p < end; p++)
        if (L->s[p] != '_') buf[k++] = (char)L->s[p];
    buf[k] = 0;
    double v = strtod_l(buf, NULL, L->c_locale);
    if (buf != small) free(buf);
    return v;
}

/* After a bad literal: swallow the rest of the word so that the parser
 * sees a single number token. */
static uint32_t skip_word(const lexer *L, uint32_t p)
{
    while (is_alnum(at(L, p))) p++;
    return p;
}

/* '0' ('x'|'o'|'b') '_'? digits */
static void lex_radix_int(lexer *L)
{
    uint32_t st = L->pos;
    int pc = L->s[st + 1] | 32;
    int radix = pc == 'x' ? 16 : pc == 'o' ? 8 : 2;
    const char *name = radix == 16 ? "hexadecimal" : radix == 8 ? "octal" : "binary";
    uint32_t p = st + 2, bad = UINT32_MAX;
    if (at(L, p) == '_') p++;
    uint32_t digits = p;
    if (radix_digit(at(L, p), radix)) p = digit_run(L, p, radix, &bad);
    else if (radix == 16 || !is_digit(at(L, p))) bad = p;
    uint32_t end = p;
    if (bad == UINT32_MAX && is_digit(at(L, p))) {
        lex_error(L, span_at(L, p, 1), "invalid digit '%c' in %s literal", L->s[p], name);
        p = skip_word(L, p);
    } else if (bad != UINT32_MAX || (is_alnum(at(L, p)) && !keyword_follows(L, p))) {
        lex_error(L, span_at(L, st, p - st), "invalid %s literal", name);
        p = skip_word(L, p);
    }
    bool big = false;
    uint64_t v = bad == UINT32_MAX ? int_value(L, digits, end, radix, &big) : 0;
    L->pos = p;
    kj_token *t = emit(L, KJ_TOK_INT, span_at(L, st, p - st));
    t->v.i = v;
    t->big = big;
}

/* Decimal integer, float (1.5, 1., .5, 1e-3, 1_000.5) or imaginary (1j,
 * 2.5e3J). */
static void lex_number(lexer *L)
{
    uint32_t st = L->pos, p = st, bad = UINT32_MAX;
    int c1 = at(L, st + 1) | 32;
    if (L->s[st] == '0' && (c1 == 'x' || c1 == 'o' || c1 == 'b')) {
        lex_radix_int(L);
        return;
    }
    bool is_float = false;
    if (L->s[p] != '.') p = digit_run(L, p, 10, &bad);
    uint32_t int_end = p;
    if (at(L, p) == '.' && bad == UINT32_MAX) {
        is_float = true;
        p++;
        if (is_digit(at(L, p))) p = digit_run(L, p, 10, &bad);
        else if (at(L, p) == '_') bad = p;
    }
    if ((at(L, p) | 32) == 'e' && bad == UINT32_MAX) {
        uint32_t q = p + 1;
        if (at(L, q) == '+' || at(L, q) == '-') q++;
        if (is_digit(at(L, q))) {
            p = digit_run(L, q, 10, &bad);
            is_float = true;
        } else if (q != p + 1) {
            bad = q; /* 1e+ */
        }           /* else `1else`: the word check below decides */
    }
    uint32_t end = p;
    if (bad != UINT32_MAX || (is_alnum(at(L, p)) && (at(L, p) | 32) != 'j' && !keyword_follows(L, p))) {
        lex_error(L, span_at(L, bad != UINT32_MAX ? bad : st, 1), "invalid decimal literal");
        p = skip_word(L, p);
    } else if ((at(L, p) | 32) == 'j' && is_alnum(at(L, p + 1)) && !keyword_follows(L, p + 1)) {
        lex_error(L, span_at(L, st, p + 1 - st), "invalid imaginary literal");
        p = skip_word(L, p + 1);
    } else if ((at(L, p) | 32) == 'j') { /* an imaginary literal: 2j, 1.5e3J */
        L->pos = p + 1;
        emit(L, KJ_TOK_IMAG, span_at(L, st, p + 1 - st))->v.f = float_value(L, st, end);
        return;
    } else if (!is_float && L->s[st] == '0') {
        for (uint32_t q = st; q < int_end; q++) {
            if (L->s[q] != '0' && L->s[q] != '_') {
                lex_error(L, span_at(L, st, int_end - st),
                          "leading zeros in decimal integer literals are not permitted; "
                          "use an 0o prefix for octal integers");
                break;
            }
        }
    }
    L->pos = p;
    kj_token *t = emit(L, is_float ? KJ_TOK_FLOAT : KJ_TOK_INT, span_at(L, st, p - st));
    if (is_float) t->v.f = float_value(L, st, end);
    else t->v.i = int_value(L, st, int_end, 10, &t->big);
}

/* ---------------------------------------------------------------------- */
/* Strings                                                                 */

typedef struct str_pos { /* a position inside a (maybe multi-line) string */
    uint32_t line, line_start;
} str_pos;

static kj_span str_span(str_pos sp, uint32_t off, uint32_t len)
{
    return (kj_span){off, len, sp.line, off - sp.line_start + 1};
}

/* \x, \u, \U: exactly `ndig` hex digits. Returns the code point or
 * UINT32_MAX after reporting an error. */
static uint32_t hex_escape(lexer *L, str_pos sp, uint32_t bs, uint32_t end, int ndig)
{
    uint32_t v = 0;
    for (int i = 0; i < ndig; i++) {
        uint32_t p = bs + 2 + (uint32_t)i;
        if (p >= end || !is_hex(L->s[p])) {
            int e = L->s[bs + 1];
            lex_error(L, str_span(sp, bs, 2), "truncated \\%c%s escape", e,
                      e == 'x' ? "XX" : e == 'u' ? "XXXX" : "XXXXXXXX");
            return UINT32_MAX;
        }
        v = v << 4 | (uint32_t)hex_val(L->s[p]);
    }
    if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF && ndig > 2)) {
        lex_error(L, str_span(sp, bs, (uint32_t)ndig + 2), "illegal Unicode character in escape");
        return UINT32_MAX;
    }
    return v;
}

/* One escape sequence at s[bs] == '\\' (not raw); appends its bytes to
 * out and returns the offset after it. */
static uint32_t decode_escape(lexer *L, str_pos *sp, uint32_t bs, uint32_t end, char *out,
                              uint32_t *k)
{
    int e = bs + 1 < end ? L->s[bs + 1] : -1;
    uint32_t nl = bs + 1 < end ? newline_len(L, bs + 1) : 0;
    static const char simple_from[] = "\\'\"abfnrtv";
    static const char simple_to[] = "\\'\"\a\b\f\n\r\t\v";
    const char *sm = e > 0 ? strchr(simple_from, e) : NULL;
    if (nl) { /* backslash-newline: both vanish */
        sp->line++;
        sp->line_start = bs + 1 + nl;
        return bs + 1 + nl;
    }
    if (sm) {
        out[(*k)++] = simple_to[sm - simple_from];
        return bs + 2;
    }
    if (e >= '0' && e <= '7') {
        uint32_t v = 0, p = bs + 1;
        while (p < end && p < bs + 4 && L->s[p] >= '0' && L->s[p] <= '7') v = v * 8 + (L->s[p++] - '0');
        if (L->bytes_mode) out[(*k)++] = (char)(v & 0xFF);
        else *k += utf8_encode(v, out + *k);
        return p;
    }
    if (L->bytes_mode && e == 'x') { /* one byte, not a code point */
        uint32_t v = hex_escape(L, *sp, bs, end, 2);
        if (v == UINT32_MAX) return bs + 2;
        out[(*k)++] = (char)v;
        return bs + 4;
    }
    if (L->bytes_mode && (e == 'u' || e == 'U' || e == 'N')) { /* not escapes in bytes: kept as written */
        out[(*k)++] = '\\';
        return bs + 1;
    }
    if (e == 'x' || e == 'u' || e == 'U') {
        int ndig = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        uint32_t v = hex_escape(L, *sp, bs, end, ndig);
        if (v == UINT32_MAX) return bs + 2;
        *k += utf8_encode(v, out + *k);
        return bs + 2 + (uint32_t)ndig;
    }
    if (e == 'N') lex_error(L, str_span(*sp, bs, 2), "\\N{...} escapes are not supported");
    out[(*k)++] = '\\'; /* unknown escapes stay as written, like Python */
    return bs + 1;
}

/* The contents of a string body [b, e) with escapes decoded and line
 * breaks normalised to \n, as an arena string. The decoded form is never
 * longer than the source form. */
static char *decode_string(lexer *L, str_pos sp, uint32_t b, uint32_t e, bool raw, uint32_t *len)
{
    char *out = kj_arena_alloc(L->a, (size_t)(e - b) + 1);
    uint32_t k = 0, p = b;
    while (p < e) {
        int c = L->s[p];
        uint32_t nl = newline_len(L, p);
        if (nl) {
            out[k++] = '\n';
            p += nl;
            sp.line++;
            sp.line_start = p;
        } else if (c == '\\' && !raw) {
            p = decode_escape(L, &sp, p, e, out, &k);
        } else if (c == '\\' && p + 1 < e) { /* raw: keep both, but a quote does not end it */
            out[k++] = (char)c;
            p++;
            if (!newline_len(L, p)) out[k++] = (char)L->s[p++];
        } else {
            out[k++] = (char)c;
            p++;
        }
    }
    out[k] = 0;
    *len = k;
    return out;
}

/* Check the bytes of a string or comment: NUL and invalid UTF-8 are errors.
 * Returns the length of the character at p. */
static uint32_t check_char(lexer *L, uint32_t p)
{
    unsigned c = L->s[p];
    if (c == 0) {
        if (!L->nul_reported) lex_error(L, span_at(L, p, 1), "source code cannot contain null bytes");
        L->nul_reported = true;
        return 1;
    }
    if (c < 0x80) return 1;
    uint32_t cp, len = utf8_decode(L->s + p, L->n - p, &cp);
    if (len) return len;
    lex_error(L, span_at(L, p, 1), "invalid UTF-8 byte 0x%02x", c);
    return 1;
}

/* Scan a string body from p; returns the offset of its closing quote(s), or
 * of where it stopped (end of line or file) with *closed false. */
static uint32_t scan_string(lexer *L, uint32_t p, int q, bool triple, bool *closed)
{
    *closed = false;
    while (p < L->n) {
        int c = L->s[p];
        if (c == q && (!triple || (at(L, p + 1) == q && at(L, p + 2) == q))) {
            *closed = true;
            return p;
        }
        uint32_t nl = newline_len(L, p);
        if (nl) {
            if (!triple) return p;
            p += nl;
            next_line(L, p);
        } else if (c == '\\') {
            p++;
            nl = newline_len(L, p);
            if (nl) {
                p += nl;
                next_line(L, p);
            } else if (at(L, p) == q || at(L, p) == '\\') {
                p++;
            }
        } else {
            p += c == 0 || c >= 0x80 ? check_char(L, p) : 1;
        }
    }
    return p;
}

/* STRING: prefix at [start, quote), then ' " ''' or """. */
static void lex_string(lexer *L, uint32_t start, uint32_t quote, bool raw, bool bytes)
{
    kj_span sp = span_at(L, start, 0);
    str_pos body_pos = {L->line, L->line_start};
    int q = L->s[quote];
    bool triple = at(L, quote + 1) == q && at(L, quote + 2) == q;
    uint32_t body = quote + (triple ? 3 : 1);
    bool closed;
    uint32_t end = scan_string(L, body, q, triple, &closed);
    if (closed) {
        L->pos = end + (triple ? 3 : 1);
    } else {
        L->pos = end;
        uint32_t line = L->line;
        if (end == L->n && L->line_start == L->n && line > sp.line) line--; /* file ends in \n */
        lex_error(L, (kj_span){start, 1, sp.line, sp.col},
                  "unterminated %sstring literal (detected at line %u)", triple ? "triple-quoted " : "",
                  line);
    }
    uint32_t len;
    for (uint32_t p = body; bytes && p < end; p++)
        if (L->s[p] >= 0x80) { /* CPython's SyntaxError */
            lex_error(L, span_at(L, start, 1), "bytes can only contain ASCII literal characters");
            break;
        }
    L->bytes_mode = bytes;
    char *s = decode_string(L, body_pos, body, end, raw, &len);
    L->bytes_mode = false;
    sp.len = L->pos - start;
    kj_token *t = emit(L, KJ_TOK_STRING, sp);
    t->bytes = bytes;
    t->v.str.s = s;
    t->v.str.n = len;
}

/* ---------------------------------------------------------------------- */
/* Operators and brackets                                                  */

/* The operator at p (longest match), or EOF when there is none. */
static kj_tok_kind operator(const lexer *L, uint32_t p, uint32_t *len)
{
    int c = L->s[p], c1 = at(L, p + 1), c2 = at(L, p + 2);
    *len = 1;
#define TWO(ch, k2, k1) (c1 == (ch) ? (*len = 2, (k2)) : (k1))
    switch (c) {
    case '(': return KJ_TOK_LPAREN;
    case ')': return KJ_TOK_RPAREN;
    case '[': return KJ_TOK_LBRACK;
    case ']': return KJ_TOK_RBRACK;
    case '{': return KJ_TOK_LBRACE;
    case '}': return KJ_TOK_RBRACE;
    case ',': return KJ_TOK_COMMA;
    case ';': return KJ_TOK_SEMI;
    case '~': return KJ_TOK_TILDE;
    case ':': return TWO('=', KJ_TOK_WALRUS, KJ_TOK_COLON);
    case '+': return TWO('=', KJ_TOK_PLUSEQ, KJ_TOK_PLUS);
    case '%': return TWO('=', KJ_TOK_PERCENTEQ, KJ_TOK_PERCENT);
    case '@': return TWO('=', KJ_TOK_ATEQ, KJ_TOK_AT);
    case '&': return TWO('=', KJ_TOK_AMPEQ, KJ_TOK_AMP);
    case '|': return TWO('=', KJ_TOK_PIPEEQ, KJ_TOK_PIPE);
    case '^': return TWO('=', KJ_TOK_CARETEQ, KJ_TOK_CARET);
    case '=': return TWO('=', KJ_TOK_EQ, KJ_TOK_ASSIGN);
    case '!': return c1 == '=' ? (*len = 2, KJ_TOK_NE) : KJ_TOK_EOF;
    case '-':
        if (c1 == '>') return *len = 2, KJ_TOK_ARROW;
        return TWO('=', KJ_TOK_MINUSEQ, KJ_TOK_MINUS);
    case '.':
        if (c1 == '.' && c2 == '.') return *len = 3, KJ_TOK_ELLIPSIS;
        return KJ_TOK_DOT;
    case '*':
        if (c1 == '*') return c2 == '=' ? (*len = 3, KJ_TOK_DSTAREQ) : (*len = 2, KJ_TOK_DSTAR);
        return TWO('=', KJ_TOK_STAREQ, KJ_TOK_STAR);
    case '/':
        if (c1 == '/') return c2 == '=' ? (*len = 3, KJ_TOK_DSLASHEQ) : (*len = 2, KJ_TOK_DSLASH);
        return TWO('=', KJ_TOK_SLASHEQ, KJ_TOK_SLASH);
    case '<':
        if (c1 == '<') return c2 == '=' ? (*len = 3, KJ_TOK_SHLEQ) : (*len = 2, KJ_TOK_SHL);
        return TWO('=', KJ_TOK_LE, KJ_TOK_LT);
    case '>':
        if (c1 == '>') return c2 == '=' ? (*len = 3, KJ_TOK_SHREQ) : (*len = 2, KJ_TOK_SHR);
        return TWO('=', KJ_TOK_GE, KJ_TOK_GT);
    default: return KJ_TOK_EOF;
    }
#undef TWO
}

static char bracket_char(kj_tok_kind k)
{
    switch (k) {
    case KJ_TOK_LPAREN: return '(';
    case KJ_TOK_RPAREN: return ')';
    case KJ_TOK_LBRACK: return '[';
    case KJ_TOK_RBRACK: return ']';
    case KJ_TOK_LBRACE: return '{';
    default: return '}';
    }
}

static kj_tok_kind closer_of(kj_tok_kind open) { return (kj_tok_kind)(open + 1); }

/* An opening bracket. Past MAX_PAREN levels the error is reported once;
 * deeper brackets are only counted, and the parser is told to keep quiet
 * until the outermost one closes. */
static void open_bracket_tok(lexer *L, kj_tok_kind k, kj_span sp)
{
    if (L->nbr == MAX_PAREN) {
        if (!L->overflowed) lex_error(L, sp, "too many nested parentheses");
        L->overflowed = true;
        set_quiet(L, L->br[0].span.off, UINT32_MAX);
        L->extra++;
    } else {
        L->br[L->nbr++] = (open_bracket){k, sp};
    }
    emit(L, k, sp);
}

/* A closing bracket. When it does not match the innermost opener but does
 * match one further out, the inner ones are taken as unclosed (`f(a[1)`);
 * otherwise it is taken as the closer the opener wanted. */
static void close_bracket_tok(lexer *L, kj_tok_kind k, kj_span sp)
{
    if (L->extra > 0) {
        L->extra--;
        emit(L, k, sp);
        return;
    }
    if (L->nbr == 0) {
        lex_error(L, sp, "unmatched '%c'", bracket_char(k));
        return;
    }
    open_bracket *top = &L->br[L->nbr - 1];
    if (closer_of(top->kind) != k) {
        if (top->span.line == sp.line)
            lex_error(L, sp, "closing parenthesis '%c' does not match opening parenthesis '%c'",
                      bracket_char(k), bracket_char(top->kind));
        else
            lex_error(L, sp, "closing parenthesis '%c' does not match opening parenthesis '%c' on line %u",
                      bracket_char(k), bracket_char(top->kind), top->span.line);
        uint32_t i = L->nbr - 1;
        while (i > 0 && closer_of(L->br[i].kind) != k) i--;
        if (closer_of(L->br[i].kind) == k) {
            for (; L->nbr - 1 > i; L->nbr--)
                emit(L, closer_of(L->br[L->nbr - 1].kind), (kj_span){sp.off, 0, sp.line, sp.col});
        } else {
            k = closer_of(top->kind);
        }
    }
    L->nbr--;
    emit(L, k, sp);
    if (L->nbr == 0 && L->quiet_to == UINT32_MAX && L->overflowed) L->quiet_to = sp.off + 1;
}

/* A byte that starts no token: report it and skip it. */
static void bad_char(lexer *L)
{
    uint32_t p = L->pos;
    unsigned c = L->s[p];
    uint32_t cp = c;
    uint32_t len = c < 0x80 ? 1 : utf8_decode(L->s + p, L->n - p, &cp);
    if (c == 0) {
        check_char(L, p);
    } else if (len == 0) {
        lex_error(L, span_at(L, p, 1), "invalid UTF-8 byte 0x%02x", c);
        len = 1;
    } else if (cp < 0x20 || (cp >= 0x7f && cp <= 0xa0) || cp == 0xad || (cp >= 0x200b && cp <= 0x200f) ||
               cp == 0x2028 || cp == 0x2029 || cp == 0xfeff) {
        lex_error(L, span_at(L, p, len), "invalid non-printable character U+%04X", cp);
    } else {
        lex_error(L, span_at(L, p, len), "invalid character '%.*s' (U+%04X)", (int)len, L->s + p, cp);
    }
    L->pos = p + len;
}

/* ---------------------------------------------------------------------- */
/* Driver                                                                  */

static void lex_token(lexer *L)
{
    uint32_t st = L->pos;
    int c = L->s[st];
    if (is_alpha(c)) {
        lex_name(L);
    } else if (is_digit(c) || (c == '.' && is_digit(at(L, st + 1)))) {
        lex_number(L);
    } else if (c == '\'' || c == '"') {
        lex_string(L, st, st, false, false);
    } else {
        uint32_t len;
        kj_tok_kind k = operator(L, st, &len);
        if (k == KJ_TOK_EOF) {
            bad_char(L);
            return;
        }
        kj_span sp = span_at(L, st, len);
        L->pos = st + len;
        if (k == KJ_TOK_LPAREN || k == KJ_TOK_LBRACK || k == KJ_TOK_LBRACE) open_bracket_tok(L, k, sp);
        else if (k == KJ_TOK_RPAREN || k == KJ_TOK_RBRACK || k == KJ_TOK_RBRACE) close_bracket_tok(L, k, sp);
        else emit(L, k, sp);
    }
}

static void skip_comment(lexer *L)
{
    uint32_t p = L->pos;
    while (p < L->n && L->s[p] != '\n' && L->s[p] != '\r') {
        unsigned c = L->s[p];
        p += c == 0 || c >= 0x80 ? check_char(L, p) : 1;
    }
    L->pos = p;
}

/* A line break: ends the logical line unless inside brackets. */
static void end_of_line(lexer *L)
{
    if (L->nbr == 0 && L->line_has_tok) {
        push_token(L, KJ_TOK_NEWLINE, L->last_end);
        L->line_has_tok = false;
    }
    L->pos += newline_len(L, L->pos);
    next_line(L, L->pos);
}

/* '\' newline: the logical line goes on (not into the end of the file). */
static void continuation(lexer *L)
{
    uint32_t nl = newline_len(L, L->pos + 1);
    if (nl && L->pos + 1 + nl < L->n) {
        L->pos += 1 + nl;
        next_line(L, L->pos);
        return;
    }
    kj_span sp = span_at(L, L->pos, 1);
    if (L->pos + 1 + nl >= L->n) lex_error(L, sp, "unexpected end of file after line continuation character");
    else lex_error(L, sp, "unexpected character after line continuation character");
    L->pos++;
}

/* Close what is still open so that the parser sees a well-formed stream:
 * brackets (reporting the innermost), the last line, the blocks. */
static void finish(lexer *L)
{
    kj_span here = span_at(L, L->pos, 0);
    if (L->nbr > 0) {
        open_bracket *top = &L->br[L->nbr - 1];
        if (!L->overflowed) lex_error(L, top->span, "'%c' was never closed", bracket_char(top->kind));
        set_quiet(L, L->br[0].span.off, UINT32_MAX);
        for (; L->extra > 0; L->extra--) push_token(L, closer_of(top->kind), here);
        while (L->nbr > 0) push_token(L, closer_of(L->br[--L->nbr].kind), here);
        L->last_end = here;
    }
    if (L->line_has_tok) push_token(L, KJ_TOK_NEWLINE, L->last_end);
    for (; L->depth > 0; L->depth--)
        push_token(L, KJ_TOK_DEDENT, here);
    push_token(L, KJ_TOK_EOF, here);
}

static void lex_all(lexer *L)
{
    if (L->n >= 3 && !memcmp(L->s, "\xEF\xBB\xBF", 3)) L->pos = L->line_start = 3; /* UTF-8 BOM */
    bool bol = true;
    while (!L->stopped) {
        if (bol) {
            bol = false;
            if (L->nbr == 0) indentation(L);
            if (L->stopped) break;
        }
        int c = at(L, L->pos);
        while (c == ' ' || c == '\t' || c == '\f') c = at(L, ++L->pos);
        if (c < 0) break;
        if (c == '#') skip_comment(L);
        else if (c == '\n' || c == '\r') end_of_line(L), bol = true;
        else if (c == '\\') continuation(L);
        else lex_token(L);
    }
    finish(L);
}

kj_tokens kj_lex_ex(const kj_source *src, kj_arena *a, kj_diags *d, kj_lex_info *info)
{
    /* The lexer state is a few kB (the indentation and bracket stacks). */
    lexer *L = calloc(1, sizeof *L);
    if (!L) abort();
    L->src = src;
    L->s = (const unsigned char *)src->text;
    L->line = 1;
    L->alias[0] = UINT32_MAX;
    L->a = a;
    L->d = d;
    L->quiet_from = UINT32_MAX;
    L->quiet_to = 0;
    if (src->len >= UINT32_MAX || (!src->text && src->len)) {
        kj_error(d, src, (kj_span){0, 0, 1, 1}, "source file too large (4 GiB at most)");
        L->n = 0;
    } else {
        L->n = (uint32_t)src->len;
    }
    /* Typical code has a token per 3-4 bytes of source. */
    L->cap = L->n / 4 + 64;
    L->tok = malloc((size_t)L->cap * sizeof *L->tok);
    if (!L->tok) abort();
    lex_all(L);

    kj_tokens out = {L->tok, L->ntok};
    if (info) {
        info->quiet_from = L->quiet_from;
        info->quiet_to = L->quiet_to;
    }
    if (L->c_locale) freelocale(L->c_locale);
    free(L);
    return out;
}

char *kj_lex_decode(const kj_source *src, kj_arena *a, uint32_t b, uint32_t e, bool raw, uint32_t *len)
{
    lexer *L = calloc(1, sizeof *L);
    if (!L) abort();
    kj_diags scratch = {0}; /* the lexer reported these when it read the whole literal */
    L->src = src;
    L->s = (const unsigned char *)src->text;
    L->n = (uint32_t)src->len;
    L->a = a;
    L->d = &scratch;
    L->line = 1;
    char *s = decode_string(L, (str_pos){1, 0}, b, e, raw, len);
    kj_diags_free(&scratch);
    free(L);
    return s;
}

kj_tokens kj_lex(const kj_source *src, kj_arena *a, kj_diags *d)
{
    kj_tokens t = kj_lex_ex(src, a, d, NULL);
    kj_tokens out = {KJ_NEWN(a, kj_token, t.n), t.n};
    memcpy(out.v, t.v, (size_t)t.n * sizeof *t.v);
    free(t.v);
    return out;
}
