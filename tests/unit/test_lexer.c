/* SPDX-License-Identifier: BSD-2-Clause */
/* Lexer tests: layout (INDENT/DEDENT, brackets, continuation, tabs), every
 * literal form, every lexer error with its line:col, spans, and robustness
 * (binary garbage, deep nesting, huge inputs). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "frontend/lexer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const tok_names[] = {
#define X(name, sp) #name,
    KJ_TOKENS(X)
#undef X
};

typedef struct lexed {
    kj_source src;
    kj_arena a;
    kj_diags d;
    kj_tokens t;
    char kinds[4096]; /* "NAME ASSIGN INT NEWLINE EOF" */
    char errs[4096];  /* "1:5: msg\n..." */
} lexed;

/* Check what every token stream must satisfy: ends in EOF, INDENT/DEDENT
 * balanced and never negative, brackets balanced. */
static void check_stream(const kj_tokens *t)
{
    assert_true(t->n >= 1);
    assert_int_equal(t->v[t->n - 1].kind, KJ_TOK_EOF);
    long depth = 0, brackets = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        kj_tok_kind k = t->v[i].kind;
        if (k == KJ_TOK_EOF) assert_int_equal(i, t->n - 1);
        if (k == KJ_TOK_INDENT) depth++;
        if (k == KJ_TOK_DEDENT) depth--;
        if (k == KJ_TOK_LPAREN || k == KJ_TOK_LBRACK || k == KJ_TOK_LBRACE) brackets++;
        if (k == KJ_TOK_RPAREN || k == KJ_TOK_RBRACK || k == KJ_TOK_RBRACE) brackets--;
        assert_true(depth >= 0);
        assert_true(brackets >= 0);
    }
    assert_int_equal(depth, 0);
    assert_int_equal(brackets, 0);
}

static lexed *lex_n(const char *text, size_t len)
{
    lexed *L = calloc(1, sizeof *L);
    L->src = (kj_source){"t.k", text, len};
    kj_arena_init(&L->a);
    L->t = kj_lex(&L->src, &L->a, &L->d);
    check_stream(&L->t);
    size_t k = 0;
    for (uint32_t i = 0; i < L->t.n && k < sizeof L->kinds - 32; i++)
        k += (size_t)snprintf(L->kinds + k, sizeof L->kinds - k, "%s%s", i ? " " : "", tok_names[L->t.v[i].kind]);
    k = 0;
    for (uint32_t i = 0; i < L->d.n && k < sizeof L->errs - 300; i++)
        k += (size_t)snprintf(L->errs + k, sizeof L->errs - k, "%u:%u: %s\n", L->d.v[i].span.line,
                              L->d.v[i].span.col, L->d.v[i].msg);
    return L;
}

static lexed *lex(const char *text) { return lex_n(text, strlen(text)); }

static void done(lexed *L)
{
    kj_diags_free(&L->d);
    kj_arena_free(&L->a);
    free(L);
}

static void want_kinds(const char *text, const char *kinds)
{
    lexed *L = lex(text);
    assert_string_equal(L->kinds, kinds);
    assert_string_equal(L->errs, "");
    done(L);
}

/* The first error, as "line:col: message\n". */
static void want_error(const char *text, const char *err)
{
    lexed *L = lex(text);
    const char *nl = strchr(L->errs, '\n');
    char first[512] = "";
    if (nl) snprintf(first, sizeof first, "%.*s", (int)(nl - L->errs + 1), L->errs);
    assert_string_equal(first, err);
    done(L);
}

/* ---------------------------------------------------------------------- */

static void test_basic(void **state)
{
    (void)state;
    want_kinds("x = 1\n", "NAME ASSIGN INT NEWLINE EOF");
    want_kinds("x", "NAME NEWLINE EOF"); /* NEWLINE added before EOF */
    want_kinds("", "EOF");
    want_kinds("\n\n   \n# only a comment\n  # indented comment\n", "EOF");
    want_kinds("x # trailing comment", "NAME NEWLINE EOF");
    want_kinds("a;b", "NAME SEMI NAME NEWLINE EOF");
    want_kinds("\xEF\xBB\xBFx\n", "NAME NEWLINE EOF"); /* BOM */
    want_kinds("x = 1\r\ny = 2\rz\n", "NAME ASSIGN INT NEWLINE NAME ASSIGN INT NEWLINE NAME NEWLINE EOF");
}

static void test_indentation(void **state)
{
    (void)state;
    want_kinds("if x:\n    y\n    if z:\n        w\nv\n",
                 "KW_IF NAME COLON NEWLINE INDENT NAME NEWLINE KW_IF NAME COLON NEWLINE INDENT NAME NEWLINE "
                 "DEDENT DEDENT NAME NEWLINE EOF");
    /* Dedents at EOF, without a final newline. */
    want_kinds("if x:\n  if y:\n    z", "KW_IF NAME COLON NEWLINE INDENT KW_IF NAME COLON NEWLINE INDENT NAME "
                                          "NEWLINE DEDENT DEDENT EOF");
    /* Blank lines, comment-only lines at any indentation, do not count. */
    want_kinds("if x:\n\n        # deep comment\n    y\n# c\n    z\n",
                 "KW_IF NAME COLON NEWLINE INDENT NAME NEWLINE NAME NEWLINE DEDENT EOF");
    /* Dedent to an intermediate level. */
    want_kinds("a:\n  b:\n    c\n  d\n", "NAME COLON NEWLINE INDENT NAME COLON NEWLINE INDENT NAME NEWLINE "
                                           "DEDENT NAME NEWLINE DEDENT EOF");
    /* Tabs alone are consistent; so are tabs mixed the same way on each line. */
    want_kinds("if x:\n\ty\n\tif z:\n\t\tw\n",
                 "KW_IF NAME COLON NEWLINE INDENT NAME NEWLINE KW_IF NAME COLON NEWLINE INDENT NAME NEWLINE "
                 "DEDENT DEDENT EOF");
    want_kinds("if x:\n  \ty\n  \tz\n", "KW_IF NAME COLON NEWLINE INDENT NAME NEWLINE NAME NEWLINE DEDENT EOF");
    /* Form feed resets the column, as in CPython. */
    want_kinds("x\n\f  \fy\n", "NAME NEWLINE NAME NEWLINE EOF");
}

static void test_layout_spans(void **state)
{
    (void)state;
    lexed *L = lex("if x:\n    y = 1  # c\nz\n");
    /* if x : NEWLINE INDENT y = 1 NEWLINE DEDENT z NEWLINE EOF */
    assert_string_equal(L->kinds, "KW_IF NAME COLON NEWLINE INDENT NAME ASSIGN INT NEWLINE DEDENT NAME NEWLINE EOF");
    kj_token *t = L->t.v;
    assert_int_equal(t[3].span.line, 1); /* NEWLINE right after the ':' */
    assert_int_equal(t[3].span.col, 6);
    assert_int_equal(t[3].span.len, 0);
    assert_int_equal(t[4].span.line, 2); /* INDENT at the first token of its line */
    assert_int_equal(t[4].span.col, 5);
    assert_int_equal(t[4].span.len, 0);
    assert_int_equal(t[8].span.line, 2); /* NEWLINE after `1`, before the comment */
    assert_int_equal(t[8].span.col, 10);
    assert_int_equal(t[9].span.line, 3); /* DEDENT at the first token of the dedented line */
    assert_int_equal(t[9].span.col, 1);
    assert_int_equal(t[12].span.line, 4); /* EOF after the final newline */
    assert_int_equal(t[12].span.col, 1);
    assert_int_equal(t[12].span.off, strlen("if x:\n    y = 1  # c\nz\n"));
    /* A name's span. */
    assert_int_equal(t[5].span.off, 10);
    assert_int_equal(t[5].span.len, 1);
    assert_int_equal(t[5].span.line, 2);
    assert_int_equal(t[5].span.col, 5);
    done(L);

    L = lex("foo_bar = 0x1F + 'abc'\n");
    t = L->t.v;
    assert_int_equal(t[0].span.len, 7);
    assert_int_equal(t[2].span.col, 11);
    assert_int_equal(t[2].span.len, 4);
    assert_int_equal(t[4].span.col, 18);
    assert_int_equal(t[4].span.len, 5);
    done(L);
}

static void test_brackets_and_continuation(void **state)
{
    (void)state;
    /* No NEWLINE or INDENT inside brackets. */
    want_kinds("x = (1,\n        2,\n   3)\ny\n",
                 "NAME ASSIGN LPAREN INT COMMA INT COMMA INT RPAREN NEWLINE NAME NEWLINE EOF");
    want_kinds("f([\n{\n}\n])\n", "NAME LPAREN LBRACK LBRACE RBRACE RBRACK RPAREN NEWLINE EOF");
    /* Comments and blank lines inside brackets. */
    want_kinds("x = [  # c\n\n  1  # d\n]\n", "NAME ASSIGN LBRACK INT RBRACK NEWLINE EOF");
    /* Backslash continuation: the next line's indentation does not count. */
    want_kinds("x = 1 + \\\n        2\ny\n", "NAME ASSIGN INT PLUS INT NEWLINE NAME NEWLINE EOF");
    want_kinds("if a and \\\n  b:\n    c\n", "KW_IF NAME KW_AND NAME COLON NEWLINE INDENT NAME NEWLINE DEDENT EOF");
    want_kinds("x = \\\r\n  1\n", "NAME ASSIGN INT NEWLINE EOF");
}

static void test_operators(void **state)
{
    (void)state;
    want_kinds("( ) [ ] { } , : . ; @ -> = := ...",
                 "LPAREN RPAREN LBRACK RBRACK LBRACE RBRACE COMMA COLON DOT SEMI AT ARROW ASSIGN WALRUS ELLIPSIS "
                 "NEWLINE EOF");
    want_kinds("+ - * / // % ** & | ^ ~ << >> < > <= >= == !=",
                 "PLUS MINUS STAR SLASH DSLASH PERCENT DSTAR AMP PIPE CARET TILDE SHL SHR LT GT LE GE EQ NE NEWLINE EOF");
    want_kinds("+= -= *= /= //= %= **= &= |= ^= <<= >>= @=",
                 "PLUSEQ MINUSEQ STAREQ SLASHEQ DSLASHEQ PERCENTEQ DSTAREQ AMPEQ PIPEEQ CARETEQ SHLEQ SHREQ ATEQ "
                 "NEWLINE EOF");
    /* Longest match, no spaces. */
    want_kinds("a**=b//c<<=d->e", "NAME DSTAREQ NAME DSLASH NAME SHLEQ NAME ARROW NAME NEWLINE EOF");
    want_kinds("a.b..c", "NAME DOT NAME DOT DOT NAME NEWLINE EOF");
    assert_string_equal(kj_tok_spelling(KJ_TOK_DSLASHEQ), "//=");
    assert_string_equal(kj_tok_spelling(KJ_TOK_KW_NONLOCAL), "nonlocal");
    assert_string_equal(kj_tok_spelling(KJ_TOK_NAME), "name");
}

static void test_keywords(void **state)
{
    (void)state;
    for (int k = KJ_TOK_KW_FALSE; k <= KJ_TOK_KW_YIELD; k++) {
        lexed *L = lex(kj_tok_spelling((kj_tok_kind)k));
        assert_int_equal(L->t.v[0].kind, k);
        done(L);
    }
    /* Soft keywords and near misses are names. */
    want_kinds("match case _ type print Truex iff none", "NAME NAME NAME NAME NAME NAME NAME NAME NEWLINE EOF");
}

static uint64_t int_of(const char *text, bool *big)
{
    lexed *L = lex(text);
    assert_string_equal(L->errs, "");
    assert_int_equal(L->t.v[0].kind, KJ_TOK_INT);
    uint64_t v = L->t.v[0].v.i;
    *big = L->t.v[0].big;
    done(L);
    return v;
}

static void test_ints(void **state)
{
    (void)state;
    static const struct { const char *text; uint64_t value; } cases[] = {
        {"0", 0}, {"00", 0}, {"0_0", 0}, {"7", 7}, {"1_000_000", 1000000}, {"0x1F", 31}, {"0XfF", 255},
        {"0x_1f", 31}, {"0o17", 15}, {"0O7_7", 63}, {"0b101", 5}, {"0B1_0", 2},
        {"18446744073709551615", UINT64_MAX}, {"0xffffffffffffffff", UINT64_MAX},
        {"9223372036854775808", 9223372036854775808ull},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        bool big;
        assert_int_equal(int_of(cases[i].text, &big), cases[i].value);
        assert_false(big);
    }
    bool big;
    assert_int_equal(int_of("18446744073709551616", &big), UINT64_MAX);
    assert_true(big);
    assert_int_equal(int_of("0x1_0000_0000_0000_0000", &big), UINT64_MAX);
    assert_true(big);
    assert_int_equal(int_of("123456789012345678901234567890", &big), UINT64_MAX);
    assert_true(big);
    /* A number may run into a few keywords, as in CPython. */
    want_kinds("1if x else 2", "INT KW_IF NAME KW_ELSE INT NEWLINE EOF");
    want_kinds("0x1for", "INT KW_OR NEWLINE EOF");
    want_kinds("1or 2", "INT KW_OR INT NEWLINE EOF");
}

static double float_of(const char *text)
{
    lexed *L = lex(text);
    assert_string_equal(L->errs, "");
    assert_int_equal(L->t.v[0].kind, KJ_TOK_FLOAT);
    assert_int_equal(L->t.v[0].span.len, strlen(text));
    double v = L->t.v[0].v.f;
    done(L);
    return v;
}

static void test_floats(void **state)
{
    (void)state;
    assert_true(float_of("1.5") == 1.5);
    assert_true(float_of("1.") == 1.0);
    assert_true(float_of(".5") == 0.5);
    assert_true(float_of("1e-3") == 1e-3);
    assert_true(float_of("1E10") == 1e10);
    assert_true(float_of("1.5e+3") == 1500.0);
    assert_true(float_of("1_000.5") == 1000.5);
    assert_true(float_of("1.e5") == 1e5);
    assert_true(float_of("1e1_0") == 1e10);
    assert_true(float_of("09.5") == 9.5); /* leading zeros are fine in floats */
    assert_true(float_of("0e0") == 0.0);
    assert_true(float_of("0.1") == 0.1);
    assert_true(float_of("3.141592653589793") == 3.141592653589793);
    want_kinds("x[1:2.5]", "NAME LBRACK INT COLON FLOAT RBRACK NEWLINE EOF");
    want_kinds("1..real", "FLOAT DOT NAME NEWLINE EOF");
}

static void test_number_errors(void **state)
{
    (void)state;
    want_error("x = 1abc\n", "1:5: invalid decimal literal\n");
    want_error("x = 1__0\n", "1:6: invalid decimal literal\n");
    want_error("x = 1_\n", "1:6: invalid decimal literal\n");
    want_error("x = 1e\n", "1:5: invalid decimal literal\n");
    want_error("x = 1._5\n", "1:7: invalid decimal literal\n");
    want_error("x = 1.5e+\n", "1:10: invalid decimal literal\n");
    want_error("x = 1.real\n", "1:5: invalid decimal literal\n");
    want_error("x = 0x\n", "1:5: invalid hexadecimal literal\n");
    want_error("x = 0xg\n", "1:5: invalid hexadecimal literal\n");
    want_error("x = 0x1_\n", "1:5: invalid hexadecimal literal\n");
    want_error("x = 0b\n", "1:5: invalid binary literal\n");
    want_error("x = 0b2\n", "1:7: invalid digit '2' in binary literal\n");
    want_error("x = 0b102\n", "1:9: invalid digit '2' in binary literal\n");
    want_error("x = 0o8\n", "1:7: invalid digit '8' in octal literal\n");
    want_error("x = 0o\n", "1:5: invalid octal literal\n");
    want_error("x = 012\n",
                 "1:5: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal "
                 "integers\n");
    want_error("x = 1jx\n", "1:5: invalid imaginary literal\n");
    want_kinds("x = 1j + 1.5J - 2e3j\n", "NAME ASSIGN IMAG PLUS IMAG MINUS IMAG NEWLINE EOF");
    want_kinds("y = 1j if c else 2j\n", "NAME ASSIGN IMAG KW_IF NAME KW_ELSE IMAG NEWLINE EOF");
    /* Recovery: the bad literal is one token, the rest of the line lexes. */
    lexed *L = lex("x = 1abc + 2\ny = 0b2 + 1\n");
    assert_string_equal(L->kinds, "NAME ASSIGN INT PLUS INT NEWLINE NAME ASSIGN INT PLUS INT NEWLINE EOF");
    assert_string_equal(L->errs, "1:5: invalid decimal literal\n2:7: invalid digit '2' in binary literal\n");
    done(L);
}

static const char *str_of(lexed *L, uint32_t i, uint32_t *n)
{
    assert_int_equal(L->t.v[i].kind, KJ_TOK_STRING);
    *n = L->t.v[i].v.str.n;
    return L->t.v[i].v.str.s;
}

static void want_string(const char *text, const char *value, uint32_t len)
{
    lexed *L = lex(text);
    assert_string_equal(L->errs, "");
    uint32_t n;
    const char *s = str_of(L, 0, &n);
    assert_int_equal(n, len);
    assert_memory_equal(s, value, len);
    assert_int_equal(L->t.v[0].span.len, strlen(text)); /* the whole literal, prefix and quotes */
    done(L);
}

static void test_strings(void **state)
{
    (void)state;
    want_string("'abc'", "abc", 3);
    want_string("\"a'b\"", "a'b", 3);
    want_string("''", "", 0);
    want_string("'a\\nb\\tc\\\\d\\'e\\\"f'", "a\nb\tc\\d'e\"f", 11);
    want_string("'\\x41\\101\\0z'", "AA\0z", 4);
    want_string("'\\a\\b\\f\\v\\r'", "\a\b\f\v\r", 5);
    want_string("'\\u20ac\\U0001F600\\xe9'", "\xE2\x82\xAC\xF0\x9F\x98\x80\xC3\xA9", 9);
    want_string("'\\d\\w'", "\\d\\w", 4); /* unknown escapes stay */
    want_string("'a\\\nb'", "ab", 2);     /* backslash-newline in a string */
    want_string("'''a\n'b'\n\"\"c'''", "a\n'b'\n\"\"c", 9);
    want_string("\"\"\"x\r\ny\"\"\"", "x\ny", 3);
    want_string("r'a\\nb'", "a\\nb", 4);
    want_string("R'\\''", "\\'", 2);
    want_string("u'abc'", "abc", 3);
    want_string("'caf\xC3\xA9 \xE2\x82\xAC'", "caf\xC3\xA9 \xE2\x82\xAC", 9);
    /* Lines are counted inside triple-quoted strings. */
    lexed *L = lex("x = '''a\nb\nc'''\ny\n");
    assert_string_equal(L->kinds, "NAME ASSIGN STRING NEWLINE NAME NEWLINE EOF");
    assert_int_equal(L->t.v[3].span.line, 3);
    assert_int_equal(L->t.v[3].span.col, 5);
    assert_int_equal(L->t.v[4].span.line, 4);
    done(L);
    want_kinds("print('a' 'b')", "NAME LPAREN STRING STRING RPAREN NEWLINE EOF");
    want_kinds("ur'x'", "NAME STRING NEWLINE EOF"); /* not a Python 3 prefix */
}

static void test_string_errors(void **state)
{
    (void)state;
    want_error("x = 'abc\n", "1:5: unterminated string literal (detected at line 1)\n");
    want_error("x = \"abc", "1:5: unterminated string literal (detected at line 1)\n");
    want_error("x = r'\\'\n", "1:5: unterminated string literal (detected at line 1)\n");
    want_error("x = '''abc\n\n", "1:5: unterminated triple-quoted string literal (detected at line 2)\n");
    want_error("\n\nx = \"\"\"abc\nd\ne", "3:5: unterminated triple-quoted string literal (detected at line 5)\n");
    want_error("x = b'\xc3\xa9'\n", "1:5: bytes can only contain ASCII literal characters\n");
    /* bytes literals: STRING tokens marked bytes, \x escapes are single bytes, \u is not an escape */
    lexed *B = lex("x = Rb'a\\x' b'\\xff\\0\\u1'\n");
    assert_string_equal(B->kinds, "NAME ASSIGN STRING STRING NEWLINE EOF");
    assert_true(B->t.v[2].bytes && B->t.v[3].bytes && !B->t.v[2].fstr);
    assert_int_equal(B->t.v[2].v.str.n, 3);
    assert_int_equal(B->t.v[3].v.str.n, 5);
    assert_memory_equal(B->t.v[3].v.str.s, "\xff\0\\u1", 5);
    assert_string_equal(B->errs, "");
    done(B);
    /* f-strings are STRING tokens marked fstr (the parser reads their fields) */
    lexed *F = lex("x = rf'{a}' 'b'\n");
    assert_string_equal(F->kinds, "NAME ASSIGN STRING STRING NEWLINE EOF");
    assert_true(F->t.v[2].fstr && !F->t.v[3].fstr);
    assert_string_equal(F->errs, "");
    done(F);
    want_error("x = '\\xZZ'\n", "1:6: truncated \\xXX escape\n");
    want_error("x = '\\u12'\n", "1:6: truncated \\uXXXX escape\n");
    want_error("x = '\\U00110000'\n", "1:6: illegal Unicode character in escape\n");
    want_error("x = '\\N{DASH}'\n", "1:6: \\N{...} escapes are not supported\n");
    /* Recovery: an unterminated string ends at the end of its line. */
    lexed *L = lex("x = 'abc\ny = 1\n");
    assert_string_equal(L->kinds, "NAME ASSIGN STRING NEWLINE NAME ASSIGN INT NEWLINE EOF");
    done(L);
    /* Rejected prefixes still give a string token. */
    L = lex("x = f'a' + 1\n");
    assert_string_equal(L->kinds, "NAME ASSIGN STRING PLUS INT NEWLINE EOF");
    done(L);
}

static void test_indentation_errors(void **state)
{
    (void)state;
    want_error("if x:\n        a\n    b\n", "3:5: unindent does not match any outer indentation level\n");
    want_error("if x:\n\ta\n        b\n", "3:1: inconsistent use of tabs and spaces in indentation\n");
    /* Equal with tab=8 but not with tab=1 … */
    want_error("if x:\n        a\n\tb\n", "3:1: inconsistent use of tabs and spaces in indentation\n");
    /* … and deeper with tab=8 but not with tab=1. */
    want_error("if x:\n       \ta\n\t\t b\n", "3:1: inconsistent use of tabs and spaces in indentation\n");
    /* Recovery after a bad unindent: the line stays in the inner block,
     * and later lines at its width do not each report an error. */
    lexed *L = lex("if x:\n        a\n    b\n    c\n        e\nd\n");
    assert_string_equal(L->kinds, "KW_IF NAME COLON NEWLINE INDENT NAME NEWLINE NAME NEWLINE NAME NEWLINE "
                                  "NAME NEWLINE DEDENT NAME NEWLINE EOF");
    assert_string_equal(L->errs, "3:5: unindent does not match any outer indentation level\n");
    done(L);

    /* 99 nested blocks are fine, the 100th is not (CPython's limit). */
    char *src = malloc(200 * 120);
    size_t k = 0;
    for (int i = 0; i < 100; i++) k += (size_t)sprintf(src + k, "%*sif x:\n", i, "");
    k += (size_t)sprintf(src + k, "%*spass\n", 100, "");
    L = lex_n(src, k);
    assert_string_equal(L->errs, "101:101: too many levels of indentation\n");
    done(L);
    k = 0;
    for (int i = 0; i < 99; i++) k += (size_t)sprintf(src + k, "%*sif x:\n", i, "");
    k += (size_t)sprintf(src + k, "%*spass\n", 99, "");
    L = lex_n(src, k);
    assert_string_equal(L->errs, "");
    done(L);
    free(src);
}

static void test_bracket_errors(void **state)
{
    (void)state;
    want_error("x = (1,\n", "1:5: '(' was never closed\n");
    want_error("x = (1, [2,\n\n", "1:9: '[' was never closed\n");
    want_error("x = foo(1,\n  2\ny = 3\n", "1:8: '(' was never closed\n");
    want_error("x = (1]\n", "1:7: closing parenthesis ']' does not match opening parenthesis '('\n");
    want_error("x = (1\n]\n", "2:1: closing parenthesis ']' does not match opening parenthesis '(' on line 1\n");
    want_error("x = 1)\n", "1:6: unmatched ')'\n");
    want_error("}\n", "1:1: unmatched '}'\n");
    /* Recovery: a closer matching an outer opener closes the inner ones. */
    lexed *L = lex("f(a[1)\n");
    assert_string_equal(L->kinds, "NAME LPAREN NAME LBRACK INT RBRACK RPAREN NEWLINE EOF");
    assert_string_equal(L->errs, "1:6: closing parenthesis ')' does not match opening parenthesis '['\n");
    done(L);
    L = lex("x = (1]\ny = 2\n");
    assert_string_equal(L->kinds, "NAME ASSIGN LPAREN INT RPAREN NEWLINE NAME ASSIGN INT NEWLINE EOF");
    done(L);
    L = lex("x = 1)\ny = 2\n");
    assert_string_equal(L->kinds, "NAME ASSIGN INT NEWLINE NAME ASSIGN INT NEWLINE EOF");
    done(L);
    /* 200 nested brackets are fine; the 201st is one error, reported once. */
    char src[2000];
    memset(src, '(', 200);
    memset(src + 200, ')', 200);
    src[400] = 0;
    L = lex(src);
    assert_string_equal(L->errs, "");
    done(L);
    char *deep = malloc(10000 + 8);
    memcpy(deep, "x = ", 4);
    memset(deep + 4, '[', 10000);
    L = lex_n(deep, 10004);
    assert_string_equal(L->errs, "1:205: too many nested parentheses\n");
    done(L);
    free(deep);
}

static void test_bad_characters(void **state)
{
    (void)state;
    want_error("x = a \xE2\x82\xAC 2\n", "1:7: invalid character '\xE2\x82\xAC' (U+20AC)\n");
    want_error("x = 1 $ 2\n", "1:7: invalid character '$' (U+0024)\n");
    want_error("x = a ? b\n", "1:7: invalid character '?' (U+003F)\n");
    want_error("x = 1\x01\n", "1:6: invalid non-printable character U+0001\n");
    want_error("x = 1\xC2\xA0\n", "1:6: invalid non-printable character U+00A0\n");
    want_error("caf\xC3\xA9 = 1\n", "1:4: invalid character '\xC3\xA9' (U+00E9)\n");
    want_error("\xCF\x80 = 3\n", "1:1: invalid character '\xCF\x80' (U+03C0)\n");
    want_error("x = 1\xff\n", "1:6: invalid UTF-8 byte 0xff\n");
    want_error("x = 1 # \xC3(\n", "1:9: invalid UTF-8 byte 0xc3\n");
    want_error("x = '\xED\xA0\x80'\n", "1:6: invalid UTF-8 byte 0xed\n"); /* a surrogate */
    want_error("x = '\xC0\xAF'\n", "1:6: invalid UTF-8 byte 0xc0\n");         /* overlong */
    want_error("x = \\ 1\n", "1:5: unexpected character after line continuation character\n");
    want_error("x = 1 + \\", "1:9: unexpected end of file after line continuation character\n");
    lexed *L = lex_n("x = 1\0\ny = '\0'\n", 14);
    assert_string_equal(L->errs, "1:6: source code cannot contain null bytes\n"); /* once per file */
    assert_string_equal(L->kinds, "NAME ASSIGN INT NEWLINE NAME ASSIGN STRING NEWLINE EOF");
    done(L);
    /* Recovery: the character is skipped. */
    L = lex("x = 1 $ + 2\n");
    assert_string_equal(L->kinds, "NAME ASSIGN INT PLUS INT NEWLINE EOF");
    done(L);
}

static void test_error_limits(void **state)
{
    (void)state;
    /* One lexer error per line. */
    lexed *L = lex("x = $ $ $ 1abc\ny = $\n");
    assert_string_equal(L->errs, "1:5: invalid character '$' (U+0024)\n2:5: invalid character '$' (U+0024)\n");
    done(L);
    /* The diagnostics keep 20 errors and count the rest. */
    size_t n = 1000;
    char *src = malloc(n * 4);
    for (size_t i = 0; i < n; i++) memcpy(src + 4 * i, "x$\n\n", 4);
    L = lex_n(src, n * 4);
    assert_int_equal(L->d.n, 20);
    assert_int_equal(L->d.nerrors, n);
    assert_int_equal(L->d.dropped, n - 20);
    done(L);
    free(src);
}

static uint32_t rng_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

static void test_garbage(void **state)
{
    (void)state;
    uint64_t seed = 42;
    /* Random bytes, and random bytes biased towards the lexer's tricky ones. */
    static const char tricky[] = "(()[]{}'\"\\\n\r\t #0xbj._e+-=:\xC3\xA9\xff\x00";
    for (int round = 0; round < 40; round++) {
        size_t n = 1 + rng_next(&seed) % 20000;
        char *s = malloc(n);
        for (size_t i = 0; i < n; i++) {
            uint32_t r = rng_next(&seed);
            s[i] = round % 2 ? (char)r : tricky[r % (sizeof tricky - 1)];
        }
        lexed *L = lex_n(s, n); /* check_stream verifies the invariants */
        done(L);
        free(s);
    }
    /* Degenerate inputs. */
    static const char *const odd[] = {"\\", "(", ")", "'", "'''", "\r", "\n\n\n", "\t", "  x", "0x", "1e", ".",
                                      "r", "\xEF\xBB\xBF", "\xEF\xBB", "#", "\\\n", "(\\\n", "'\\", "'''\\"};
    for (size_t i = 0; i < sizeof odd / sizeof *odd; i++) done(lex(odd[i]));
}

static double elapsed_ms(struct timespec a, struct timespec b)
{
    return (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
}

static const char kernel_src[] =
    "@cuda.jit\n"
    "def smooth(x, out):  # a 3-point stencil\n"
    "    i = cuda.grid(1)\n"
    "    if 1 <= i < x.shape[0] - 1:\n"
    "        out[i] = (x[i - 1] + 2.0 * x[i] + x[i + 1]) / 4.0\n"
    "    elif i == 0 and not (x.shape[0] == 0):\n"
    "        out[i] = x[i]\n"
    "\n";

static char *repeat(const char *unit, size_t total, size_t *len)
{
    size_t u = strlen(unit), n = total / u + 1;
    char *s = malloc(n * u + 1);
    for (size_t i = 0; i < n; i++) memcpy(s + i * u, unit, u);
    *len = n * u;
    s[*len] = 0;
    return s;
}

/* Time kj_lex alone (best of `reps`), in this thread's CPU time: other
 * processes on a loaded machine stretch the wall clock, not this (the
 * limits below catch a quadratic lexer, not a slow machine). Returns the
 * token count. */
static uint32_t time_lex(const char *s, size_t len, int reps, double *best)
{
    kj_source src = {"t.k", s, len};
    uint32_t n = 0;
    *best = 1e9;
    for (int i = 0; i < reps; i++) {
        kj_arena a;
        kj_arena_init(&a);
        kj_diags d = {0};
        struct timespec t0, t1;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
        kj_tokens t = kj_lex(&src, &a, &d);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
        assert_int_equal(d.nerrors, 0);
        n = t.n;
        kj_diags_free(&d);
        kj_arena_free(&a);
        if (elapsed_ms(t0, t1) < *best) *best = elapsed_ms(t0, t1);
    }
    return n;
}

static void test_performance(void **state)
{
    (void)state;
    size_t len;
    double ms;
    char *s = repeat(kernel_src, 250 * (sizeof kernel_src - 1) - 1, &len); /* 2000 lines */
    uint32_t n = time_lex(s, len, 20, &ms);
    print_message("lexing 2000 lines (%zu bytes, %u tokens): %.3f ms\n", len, n, ms);
    assert_true(ms < 20); /* generous: sanitizer builds are slow */
    free(s);

    s = repeat(kernel_src, 10u << 20, &len);
    n = time_lex(s, len, 1, &ms);
    print_message("lexing 10 MB (%u tokens): %.1f ms\n", n, ms);
    assert_true(ms < 10000);
    free(s);

    /* A very long line and a very long name. */
    s = malloc(4u << 20);
    memset(s, 'a', 4u << 20);
    lexed *L = lex_n(s, 4u << 20);
    assert_string_equal(L->kinds, "NAME NEWLINE EOF");
    assert_int_equal(L->t.v[0].span.len, 4u << 20);
    done(L);
    for (size_t i = 0; i < (4u << 20); i += 2) s[i] = '+';
    L = lex_n(s, 4u << 20);
    assert_string_equal(L->errs, "");
    assert_int_equal(L->t.n, (4u << 20) + 2);
    done(L);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic),
        cmocka_unit_test(test_indentation),
        cmocka_unit_test(test_layout_spans),
        cmocka_unit_test(test_brackets_and_continuation),
        cmocka_unit_test(test_operators),
        cmocka_unit_test(test_keywords),
        cmocka_unit_test(test_ints),
        cmocka_unit_test(test_floats),
        cmocka_unit_test(test_number_errors),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_string_errors),
        cmocka_unit_test(test_indentation_errors),
        cmocka_unit_test(test_bracket_errors),
        cmocka_unit_test(test_bad_characters),
        cmocka_unit_test(test_error_limits),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_performance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
