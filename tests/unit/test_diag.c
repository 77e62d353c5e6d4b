/* SPDX-License-Identifier: BSD-2-Clause */
/* Diagnostics (src/frontend/diag.c): the three output formats, caret
 * placement, hints, the error cap and spelling suggestions. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "util/diag.h"

#include <stdlib.h>
#include <string.h>

static kj_source src_of(const char *path, const char *text)
{
    return (kj_source){.path = path, .text = text, .len = strlen(text)};
}

/* A span of `len` bytes at byte offset `off` of `text`, with its line/col. */
static kj_span span_at(const char *text, uint32_t off, uint32_t len)
{
    kj_span sp = {.off = off, .len = len, .line = 1, .col = 1};
    for (uint32_t i = 0; i < off; i++) {
        if (text[i] == '\n') sp.line++, sp.col = 1;
        else sp.col++;
    }
    return sp;
}

/* The diagnostics printed in `fmt`, malloc'd. */
static char *render(const kj_diags *d, kj_diag_format fmt)
{
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    assert_non_null(f);
    kj_diags_print(d, f, fmt);
    fclose(f);
    return s;
}

static void expect_render(const kj_diags *d, kj_diag_format fmt, const char *want)
{
    char *got = render(d, fmt);
    assert_string_equal(got, want);
    free(got);
}

static void test_human_caret_and_hint(void **state)
{
    (void)state;
    const char *text = "import math\nx = foo + 1\n";
    kj_source src = src_of("prog.k", text);
    kj_diags d = {0};
    kj_diag *dg = kj_error(&d, &src, span_at(text, 16, 3), "unknown name '%s'", "foo");
    assert_non_null(dg);
    kj_diag_hint(dg, "did you mean '%s'?", "food");
    assert_true(kj_has_errors(&d));
    assert_int_equal(d.nerrors, 1);
    expect_render(&d, KJ_DIAG_HUMAN,
                  "prog.k:2:5: error: unknown name 'foo'\n"
                  "    x = foo + 1\n"
                  "        ^~~\n"
                  "    hint: did you mean 'food'?\n");
    kj_diags_free(&d);
    assert_int_equal(d.n, 0);
    assert_null(d.v);
}

static void test_human_first_column_and_eol(void **state)
{
    (void)state;
    const char *text = "def f(:\n    pass";
    kj_source src = src_of("a.k", text);
    kj_diags d = {0};
    kj_error(&d, &src, span_at(text, 0, 1), "first");
    /* A span at the end of a line (the newline itself) puts the caret just past the text. */
    kj_error(&d, &src, span_at(text, 7, 1), "at end of line");
    /* The last line has no newline. */
    kj_error(&d, &src, span_at(text, 16, 0), "at end of file");
    expect_render(&d, KJ_DIAG_HUMAN,
                  "a.k:1:1: error: first\n"
                  "    def f(:\n"
                  "    ^\n"
                  "a.k:1:8: error: at end of line\n"
                  "    def f(:\n"
                  "           ^\n"
                  "a.k:2:9: error: at end of file\n"
                  "        pass\n"
                  "            ^\n");
    kj_diags_free(&d);
}

static void test_human_span_clipped_to_line(void **state)
{
    (void)state;
    const char *text = "y = (1 +\n     2)\n";
    kj_source src = src_of("b.k", text);
    kj_diags d = {0};
    kj_error(&d, &src, span_at(text, 4, 14), "multi-line span");
    expect_render(&d, KJ_DIAG_HUMAN,
                  "b.k:1:5: error: multi-line span\n"
                  "    y = (1 +\n"
                  "        ^~~~\n");
    kj_diags_free(&d);
}

static void test_human_tabs_utf8_and_control_bytes(void **state)
{
    (void)state;
    /* A tab shows as one space, "é" (2 bytes) as one cell, a control byte as '?'. */
    const char *text = "\ts = \"\xc3\xa9\x01\" + zz\n";
    kj_source src = src_of("c.k", text);
    kj_diags d = {0};
    const char *zz = strstr(text, "zz");
    kj_error(&d, &src, span_at(text, (uint32_t)(zz - text), 2), "bad");
    char *got = render(&d, KJ_DIAG_HUMAN);
    assert_non_null(strstr(got, "\n     s = \"\xc3\xa9?\" + zz\n"));
    /* Cells before zz: tab, 's', ' ', '=', ' ', '"', 'é', '?', '"', ' ', '+', ' ' = 12. */
    assert_non_null(strstr(got, "\n                ^~\n"));
    free(got);
    kj_diags_free(&d);
}

static void test_human_no_excerpt(void **state)
{
    (void)state;
    /* Without a line number there is nothing to quote. */
    kj_source src = src_of(NULL, "x = 1\n");
    kj_diags d = {0};
    kj_error(&d, &src, (kj_span){0}, "no location");
    expect_render(&d, KJ_DIAG_HUMAN, "<input>:0:0: error: no location\n");
    kj_diags_free(&d);

    /* A line longer than 400 bytes (minified or binary) is not quoted. */
    char *big = malloc(1001);
    memset(big, 'a', 1000);
    big[1000] = 0;
    kj_source bsrc = src_of("big.k", big);
    kj_error(&d, &bsrc, span_at(big, 500, 1), "long line");
    expect_render(&d, KJ_DIAG_HUMAN, "big.k:1:501: error: long line\n");
    kj_diags_free(&d);
    free(big);
}

static void test_short_format(void **state)
{
    (void)state;
    const char *text = "x = foo\ny = bar\n";
    kj_source src = src_of("s.k", text);
    kj_diags d = {0};
    kj_diag_hint(kj_error(&d, &src, span_at(text, 4, 3), "unknown name 'foo'"), "did you mean 'food'?");
    kj_warning(&d, &src, span_at(text, 12, 3), "unused value");
    assert_int_equal(d.nerrors, 1);
    expect_render(&d, KJ_DIAG_SHORT,
                  "s.k:1:5: error: unknown name 'foo'\n"
                  "    hint: did you mean 'food'?\n"
                  "s.k:2:5: warning: unused value\n");
    kj_diags_free(&d);
}

static void test_json_format_and_escaping(void **state)
{
    (void)state;
    const char *text = "print(\"a\")\n";
    kj_source src = src_of("dir/\"q\".k", text);
    kj_diags d = {0};
    kj_diag *dg = kj_error(&d, &src, span_at(text, 6, 3), "bad \"string\"\\ here\nnext\x01");
    kj_diag_hint(dg, "tab\there");
    kj_warning(&d, &src, span_at(text, 0, 5), "w");
    expect_render(&d, KJ_DIAG_JSON,
                  "{\"file\":\"dir/\\\"q\\\".k\",\"line\":1,\"col\":7,\"severity\":\"error\","
                  "\"message\":\"bad \\\"string\\\"\\\\ here\\nnext\\u0001\",\"hint\":\"tab\\u0009here\"}\n"
                  "{\"file\":\"dir/\\\"q\\\".k\",\"line\":1,\"col\":1,\"severity\":\"warning\","
                  "\"message\":\"w\"}\n");
    kj_diags_free(&d);
}

static void test_error_cap(void **state)
{
    (void)state;
    const char *text = "a\n";
    kj_source src = src_of("e.k", text);
    kj_diags d = {.max_errors = 2};
    assert_non_null(kj_error(&d, &src, span_at(text, 0, 1), "e1"));
    assert_non_null(kj_error(&d, &src, span_at(text, 0, 1), "e2"));
    for (int i = 3; i <= 5; i++) {
        kj_diag *dg = kj_error(&d, &src, span_at(text, 0, 1), "e%d", i);
        assert_null(dg);
        kj_diag_hint(dg, "ignored"); /* a hint on a dropped error is a no-op */
    }
    /* Warnings are not capped by the error limit. */
    assert_non_null(kj_warning(&d, &src, span_at(text, 0, 1), "w"));
    assert_int_equal(d.n, 3);
    assert_int_equal(d.nerrors, 5);
    assert_int_equal(d.dropped, 3);
    expect_render(&d, KJ_DIAG_SHORT,
                  "e.k:1:1: error: e1\ne.k:1:1: error: e2\ne.k:1:1: warning: w\n"
                  "note: 3 more errors not shown\n");
    char *json = render(&d, KJ_DIAG_JSON);
    assert_null(strstr(json, "more error"));
    free(json);
    kj_diags_free(&d);

    d.max_errors = 1;
    kj_error(&d, &src, span_at(text, 0, 1), "e1");
    kj_error(&d, &src, span_at(text, 0, 1), "e2");
    expect_render(&d, KJ_DIAG_SHORT, "e.k:1:1: error: e1\nnote: 1 more error not shown\n");
    kj_diags_free(&d);
}

static void test_default_cap_is_20(void **state)
{
    (void)state;
    kj_source src = src_of("f.k", "x\n");
    kj_diags d = {0};
    for (int i = 0; i < 25; i++) kj_error(&d, &src, span_at("x\n", 0, 1), "e%d", i);
    assert_int_equal(d.n, 20);
    assert_int_equal(d.nerrors, 25);
    assert_int_equal(d.dropped, 5);
    kj_diags_free(&d);
}

static void test_only_warnings_is_not_an_error(void **state)
{
    (void)state;
    kj_source src = src_of("w.k", "x\n");
    kj_diags d = {0};
    kj_warning(&d, &src, span_at("x\n", 0, 1), "careful");
    assert_false(kj_has_errors(&d));
    assert_int_equal(d.n, 1);
    kj_diags_free(&d);
}

static void test_closest(void **state)
{
    (void)state;
    const char *names[] = {"range", "print", NULL, "prange", "float32", "food", "fool"};
    size_t n = sizeof names / sizeof *names;
    assert_string_equal(kj_closest("rnage", names, n), "range");
    assert_string_equal(kj_closest("prnt", names, n), "print");
    assert_string_equal(kj_closest("float23", names, n), "float32");
    /* Ties go to the first candidate. */
    assert_string_equal(kj_closest("foo", names, n), "food");
    /* An exact match is not a suggestion; nothing else is close. */
    assert_null(kj_closest("range_", (const char *[]){"range_"}, 1));
    assert_null(kj_closest("xyz", names, n));
    /* Short names allow one edit only, longer ones more. */
    assert_null(kj_closest("ab", (const char *[]){"xy"}, 1));
    assert_string_equal(kj_closest("abcdefg", (const char *[]){"abcxyzg"}, 1), "abcxyzg");
    assert_null(kj_closest("abcdefgh", (const char *[]){"abwxyzgh"}, 1));
    assert_null(kj_closest("x", NULL, 0));
}

static void test_span_join(void **state)
{
    (void)state;
    kj_span a = {.off = 4, .len = 3, .line = 2, .col = 5};
    kj_span b = {.off = 10, .len = 2, .line = 2, .col = 11};
    kj_span j = kj_span_join(a, b);
    assert_int_equal(j.off, 4);
    assert_int_equal(j.len, 8);
    assert_int_equal(j.line, 2);
    assert_int_equal(j.col, 5);
    /* b before a: a alone. */
    j = kj_span_join(b, a);
    assert_int_equal(j.off, 10);
    assert_int_equal(j.len, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_human_caret_and_hint),
        cmocka_unit_test(test_human_first_column_and_eol),
        cmocka_unit_test(test_human_span_clipped_to_line),
        cmocka_unit_test(test_human_tabs_utf8_and_control_bytes),
        cmocka_unit_test(test_human_no_excerpt),
        cmocka_unit_test(test_short_format),
        cmocka_unit_test(test_json_format_and_escaping),
        cmocka_unit_test(test_error_cap),
        cmocka_unit_test(test_default_cap_is_20),
        cmocka_unit_test(test_only_warnings_is_not_an_error),
        cmocka_unit_test(test_closest),
        cmocka_unit_test(test_span_join),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
