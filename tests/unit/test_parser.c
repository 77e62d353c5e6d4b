/* SPDX-License-Identifier: BSD-2-Clause */
/* Parser tests: the precedence table, every statement kind, ids and spans,
 * every syntax error and unsupported construct with its line:col, error
 * recovery, deep nesting and huge inputs, and Numba-style programs. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "frontend/parser.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct parsed {
    kj_source src;
    kj_arena a;
    kj_diags d;
    kj_module *m;
    char *dump;
    char errs[8192]; /* "1:5: msg\n..." */
} parsed;

static parsed *parse_n(const char *text, size_t len)
{
    parsed *P = calloc(1, sizeof *P);
    P->src = (kj_source){"t.k", text, len};
    kj_arena_init(&P->a);
    P->m = kj_parse(&P->src, &P->a, &P->d);
    kj_buf b = {0};
    kj_ast_dump(P->m, &b);
    P->dump = kj_buf_take(&b);
    size_t k = 0;
    for (uint32_t i = 0; i < P->d.n && k < sizeof P->errs - 300; i++)
        k += (size_t)snprintf(P->errs + k, sizeof P->errs - k, "%u:%u: %s\n", P->d.v[i].span.line,
                              P->d.v[i].span.col, P->d.v[i].msg);
    return P;
}

static parsed *parse(const char *text) { return parse_n(text, strlen(text)); }

static void done(parsed *P)
{
    free(P->dump);
    kj_diags_free(&P->d);
    kj_arena_free(&P->a);
    free(P);
}

/* The dump of a one-statement module, without the (module ...) around it. */
static void want_stmt(const char *text, const char *dump)
{
    parsed *P = parse(text);
    assert_string_equal(P->errs, "");
    size_t n = strlen(P->dump);
    assert_true(n > strlen("(module\n  )\n"));
    assert_memory_equal(P->dump, "(module\n  ", 10);
    P->dump[n - 2] = 0;
    assert_string_equal(P->dump + 10, dump);
    done(P);
}

/* The dump of an expression statement's expression. */
static void want_expr(const char *text, const char *dump)
{
    char want[2048];
    snprintf(want, sizeof want, "(expr %s)", dump);
    want_stmt(text, want);
}

static void want_module(const char *text, const char *dump)
{
    parsed *P = parse(text);
    assert_string_equal(P->errs, "");
    assert_string_equal(P->dump, dump);
    done(P);
}

/* All errors, as "line:col: message\n" lines. */
static void want_errors(const char *text, const char *errs)
{
    parsed *P = parse(text);
    assert_string_equal(P->errs, errs);
    done(P);
}

/* ---------------------------------------------------------------------- */

static void test_precedence(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"1 + 2 * 3", "(binop + (int 1) (binop * (int 2) (int 3)))"},
        {"(1 + 2) * 3", "(binop * (binop + (int 1) (int 2)) (int 3))"},
        {"a - b - c", "(binop - (binop - (name a) (name b)) (name c))"},
        {"a / b * c // d % e @ f",
         "(binop @ (binop % (binop // (binop * (binop / (name a) (name b)) (name c)) (name d)) (name e)) (name f))"},
        {"a ** b ** c", "(binop ** (name a) (binop ** (name b) (name c)))"},
        {"-2 ** 2", "(unary - (binop ** (int 2) (int 2)))"},
        {"2 ** -1", "(binop ** (int 2) (unary - (int 1)))"},
        {"-a * b", "(binop * (unary - (name a)) (name b))"},
        {"- - +~a", "(unary - (unary - (unary + (unary ~ (name a)))))"},
        {"a | b ^ c & d << e + f",
         "(binop | (name a) (binop ^ (name b) (binop & (name c) (binop << (name d) (binop + (name e) (name f))))))"},
        {"a >> b << c", "(binop << (binop >> (name a) (name b)) (name c))"},
        {"a + b < c * d", "(compare (binop + (name a) (name b)) < (binop * (name c) (name d)))"},
        {"a < b <= c", "(compare (name a) < (name b) <= (name c))"},
        {"a == b != c > d >= e", "(compare (name a) == (name b) != (name c) > (name d) >= (name e))"},
        {"a is b", "(compare (name a) is (name b))"},
        {"a is not None", "(compare (name a) is not (none))"},
        {"a in b", "(compare (name a) in (name b))"},
        {"a not in b", "(compare (name a) not in (name b))"},
        {"not a == b", "(unary not (compare (name a) == (name b)))"},
        {"not not a", "(unary not (unary not (name a)))"},
        {"a and b or c and d", "(boolop or (boolop and (name a) (name b)) (boolop and (name c) (name d)))"},
        {"a or b or c", "(boolop or (boolop or (name a) (name b)) (name c))"},
        {"a and not b", "(boolop and (name a) (unary not (name b)))"},
        {"not a and b", "(boolop and (unary not (name a)) (name b))"},
        {"a if b else c", "(ifexp (name b) (name a) (name c))"},
        {"a if b else c if d else e", "(ifexp (name b) (name a) (ifexp (name d) (name c) (name e)))"},
        {"a or b if c and d else e", "(ifexp (boolop and (name c) (name d)) (boolop or (name a) (name b)) (name e))"},
        {"1 <= i < n - 1", "(compare (int 1) <= (name i) < (binop - (name n) (int 1)))"},
        {"(a if b else c) + 1", "(binop + (ifexp (name b) (name a) (name c)) (int 1))"},
        {"x % 2 == 0 and y", "(boolop and (compare (binop % (name x) (int 2)) == (int 0)) (name y))"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) want_expr(cases[i][0], cases[i][1]);
}

static void test_atoms_and_trailers(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"x", "(name x)"},
        {"42", "(int 42)"},
        {"0xff", "(int 255)"},
        {"99999999999999999999999", "(int 18446744073709551615 big)"},
        {"1.5", "(float 1.5)"},
        {"0.1", "(float 0.1)"},
        {"1e-3", "(float 0.001)"},
        {"'a\\n'", "(str \"a\\n\")"},
        {"'a' \"b\" '''c'''", "(str \"abc\")"},
        {"True", "(bool True)"},
        {"False", "(bool False)"},
        {"None", "(none)"},
        {"()", "(tuple)"},
        {"(a,)", "(tuple (name a))"},
        {"(a, b)", "(tuple (name a) (name b))"},
        {"(a, b,)", "(tuple (name a) (name b))"},
        {"((a))", "(name a)"},
        {"[]", "(list)"},
        {"[a, 1,]", "(list (name a) (int 1))"},
        {"[['float32(float32)'], 2]", "(list (list (str \"float32(float32)\")) (int 2))"},
        {"{1: 2.5, (3, 4): x,}", "(dict (int 1) (float 2.5) (tuple (int 3) (int 4)) (name x))"},
        {"{}", "(dict)"},
        {"{a, 1}", "(set (name a) (int 1))"},
        {"f()", "(call (name f))"},
        {"f(a, b=1)", "(call (name f) (name a) (kw b (int 1)))"},
        {"f(a,)", "(call (name f) (name a))"},
        {"f(a)(b)", "(call (call (name f) (name a)) (name b))"},
        {"np.zeros(3, dtype=np.float32)", "(call (attr (name np) zeros) (int 3) (kw dtype (attr (name np) float32)))"},
        {"cuda.threadIdx.x", "(attr (attr (name cuda) threadIdx) x)"},
        {"np.random.rand(n)", "(call (attr (attr (name np) random) rand) (name n))"},
        {"a[i]", "(subscript (name a) (name i))"},
        {"a[i, j]", "(subscript (name a) (tuple (name i) (name j)))"},
        {"a[i,]", "(subscript (name a) (tuple (name i)))"},
        {"a[(i, j)]", "(subscript (name a) (tuple (name i) (name j)))"},
        {"a[i][j]", "(subscript (subscript (name a) (name i)) (name j))"},
        {"a[1:-1]", "(subscript (name a) (slice (int 1) (unary - (int 1)) _))"},
        {"a[:]", "(subscript (name a) (slice _ _ _))"},
        {"a[::2]", "(subscript (name a) (slice _ _ (int 2)))"},
        {"a[1:2:3]", "(subscript (name a) (slice (int 1) (int 2) (int 3)))"},
        {"a[::]", "(subscript (name a) (slice _ _ _))"},
        {"a[:, j]", "(subscript (name a) (tuple (slice _ _ _) (name j)))"},
        {"a[i:, :j]", "(subscript (name a) (tuple (slice (name i) _ _) (slice _ (name j) _)))"},
        {"x.shape[0]", "(subscript (attr (name x) shape) (int 0))"},
        {"k[blocks, threads](a, b)", "(call (subscript (name k) (tuple (name blocks) (name threads))) (name a) (name b))"},
        {"a.b(c).d[e]", "(subscript (attr (call (attr (name a) b) (name c)) d) (name e))"},
        {"-a.b ** -c[0]", "(unary - (binop ** (attr (name a) b) (unary - (subscript (name c) (int 0)))))"},
        {"(1 +\n  2)", "(binop + (int 1) (int 2))"},
        {"f(a,\n  b=[1,\n 2])", "(call (name f) (name a) (kw b (list (int 1) (int 2))))"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) want_expr(cases[i][0], cases[i][1]);
}

static void test_assignments(void **state)
{
    (void)state;
    want_stmt("x = 1", "(assign (name x) (int 1))");
    want_stmt("a = b = c", "(assign (name a) (name b) (name c))");
    want_stmt("i, j = cuda.grid(2)", "(assign (tuple (name i) (name j)) (call (attr (name cuda) grid) (int 2)))");
    want_stmt("(a, b) = 1, 2", "(assign (tuple (name a) (name b)) (tuple (int 1) (int 2)))");
    want_stmt("a[i], b = x", "(assign (tuple (subscript (name a) (name i)) (name b)) (name x))");
    want_stmt("[a, (b, c)] = x", "(assign (tuple (name a) (tuple (name b) (name c))) (name x))");
    want_stmt("x = 1,", "(assign (name x) (tuple (int 1)))");
    want_stmt("a.b = c.d = 0", "(assign (attr (name a) b) (attr (name c) d) (int 0))");
    want_stmt("out[i, j] = x[i - 1, j] + 1",
              "(assign (subscript (name out) (tuple (name i) (name j))) "
              "(binop + (subscript (name x) (tuple (binop - (name i) (int 1)) (name j))) (int 1)))");
    static const char *const ops[] = {"+", "-", "*", "/", "//", "%", "**", "@", "<<", ">>", "&", "|", "^"};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        char src[64], want[128];
        snprintf(src, sizeof src, "x[0] %s= y", ops[i]);
        snprintf(want, sizeof want, "(augassign %s (subscript (name x) (int 0)) (name y))", ops[i]);
        want_stmt(src, want);
    }
    want_stmt("a.b += 1, 2", "(augassign + (attr (name a) b) (tuple (int 1) (int 2)))");
}

static void test_simple_statements(void **state)
{
    (void)state;
    want_stmt("pass", "(pass)");
    want_stmt("assert x", "(assert (name x))");
    want_stmt("raise", "(raise)");
    want_stmt("raise e", "(raise (name e))");
    want_stmt("raise ValueError('x') from e", "(raise (call (name ValueError) (str \"x\")) from (name e))");
    want_stmt("assert i == 0, \"msg\"", "(assert (compare (name i) == (int 0)) (str \"msg\"))");
    want_stmt("import numpy as np", "(import (alias numpy np))");
    want_stmt("import math, time", "(import (alias math) (alias time))");
    want_stmt("import numba.cuda as c, os.path", "(import (alias numba.cuda c) (alias os.path))");
    want_stmt("from numba import cuda, vectorize as v", "(from numba (alias cuda) (alias vectorize v))");
    want_stmt("from numba.cuda import (jit,\n  grid as g,\n)", "(from numba.cuda (alias jit) (alias grid g))");
    want_stmt("print('a', x, sep='', end='\\n')",
              "(expr (call (name print) (str \"a\") (name x) (kw sep (str \"\")) (kw end (str \"\\n\"))))");
    want_module("x = 1; y = 2;\nz = 3 ; w\n",
                "(module\n  (assign (name x) (int 1))\n  (assign (name y) (int 2))\n  (assign (name z) (int 3))\n"
                "  (expr (name w)))\n");
    want_module("def f():\n    ...\n", "(module\n  (def f (params)\n    (pass)))\n");
}

static void test_compound_statements(void **state)
{
    (void)state;
    want_module("if a:\n    x = 1\nelif b:\n    x = 2\nelif c: x = 3\nelse:\n    pass\n",
                "(module\n"
                "  (if (name a)\n"
                "    (then\n"
                "      (assign (name x) (int 1)))\n"
                "    (else\n"
                "      (if (name b)\n"
                "        (then\n"
                "          (assign (name x) (int 2)))\n"
                "        (else\n"
                "          (if (name c)\n"
                "            (then\n"
                "              (assign (name x) (int 3)))\n"
                "            (else\n"
                "              (pass))))))))\n");
    want_module("if x: y = 1; z = 2\n",
                "(module\n  (if (name x)\n    (then\n      (assign (name y) (int 1))\n      (assign (name z) (int 2)))))\n");
    want_module("while i < n:\n    i += 1\n    if i: break\n    continue\n",
                "(module\n  (while (compare (name i) < (name n))\n    (augassign + (name i) (int 1))\n"
                "    (if (name i)\n      (then\n        (break)))\n    (continue)))\n");
    want_module("for i, j in zip(a, b):\n    pass\n",
                "(module\n  (for (tuple (name i) (name j)) (call (name zip) (name a) (name b))\n    (pass)))\n");
    want_module("for (i, j) in a, b: pass\n",
                "(module\n  (for (tuple (name i) (name j)) (tuple (name a) (name b))\n    (pass)))\n");
    want_module("for x[0] in range(10, 0, -1):\n  pass\n",
                "(module\n  (for (subscript (name x) (int 0)) (call (name range) (int 10) (int 0) (unary - (int 1)))\n"
                "    (pass)))\n");
    want_module("if __name__ == \"__main__\":\n    main()\n",
                "(module\n  (if (compare (name __name__) == (str \"__main__\"))\n    (then\n"
                "      (expr (call (name main))))))\n");
}

static void test_defs(void **state)
{
    (void)state;
    want_module("def main(n=4096, iters=10):\n    return\n",
                "(module\n  (def main (params (n (int 4096)) (iters (int 10)))\n    (return)))\n");
    want_module("def f(a, b=-1,):\n    return a, b\n",
                "(module\n  (def f (params a (b (unary - (int 1))))\n    (return (tuple (name a) (name b)))))\n");
    want_module("@cuda.jit\ndef k(x): pass\n",
                "(module\n  (def k (params x) (decorators (attr (name cuda) jit))\n    (pass)))\n");
    want_module("@vectorize(['float32(float32)'], target='cuda')\n@jit(cache=True)\ndef f(x):\n    return x\n",
                "(module\n  (def f (params x) (decorators (call (name vectorize) (list (str \"float32(float32)\")) "
                "(kw target (str \"cuda\"))) (call (name jit) (kw cache (bool True))))\n    (return (name x))))\n");
    want_module("def f():\n    for i in range(3):\n        if i:\n            return i\n    return 0\n",
                "(module\n  (def f (params)\n    (for (name i) (call (name range) (int 3))\n      (if (name i)\n"
                "        (then\n          (return (name i)))))\n    (return (int 0))))\n");
    /* A def inside a module-level if is not nested. */
    want_module("if x:\n    def f(): pass\n", "(module\n  (if (name x)\n    (then\n      (def f (params)\n        (pass)))))\n");
}

/* ---------------------------------------------------------------------- */
/* Expression ids and spans                                                */

typedef struct id_check {
    uint32_t limit;
    unsigned char *seen;
} id_check;

static void check_expr_ids(id_check *c, const kj_expr *e)
{
    if (!e) return;
    assert_true(e->id < c->limit);
    assert_false(c->seen[e->id]);
    c->seen[e->id] = 1;
    switch (e->kind) {
    case KJ_E_ATTR: check_expr_ids(c, e->attr.obj); break;
    case KJ_E_CALL:
        check_expr_ids(c, e->call.fn);
        for (uint32_t i = 0; i < e->call.nargs; i++) check_expr_ids(c, e->call.args[i]);
        for (uint32_t i = 0; i < e->call.nkw; i++) check_expr_ids(c, e->call.kw[i].value);
        break;
    case KJ_E_SUBSCRIPT: check_expr_ids(c, e->sub.obj), check_expr_ids(c, e->sub.index); break;
    case KJ_E_SLICE:
        check_expr_ids(c, e->slice.lo), check_expr_ids(c, e->slice.hi), check_expr_ids(c, e->slice.step);
        break;
    case KJ_E_TUPLE: case KJ_E_LIST:
        for (uint32_t i = 0; i < e->seq.n; i++) check_expr_ids(c, e->seq.v[i]);
        break;
    case KJ_E_BINOP: check_expr_ids(c, e->bin.l), check_expr_ids(c, e->bin.r); break;
    case KJ_E_UNARY: check_expr_ids(c, e->un.x); break;
    case KJ_E_BOOLOP: check_expr_ids(c, e->boolop.l), check_expr_ids(c, e->boolop.r); break;
    case KJ_E_COMPARE:
        for (uint32_t i = 0; i < e->cmp.n; i++) check_expr_ids(c, e->cmp.operands[i]);
        break;
    case KJ_E_IFEXP:
        check_expr_ids(c, e->ifexp.cond), check_expr_ids(c, e->ifexp.then), check_expr_ids(c, e->ifexp.els);
        break;
    default: break;
    }
}

static void check_block_ids(id_check *mod, id_check *fn, const kj_block *b);

static void check_stmt_ids(id_check *mod, id_check *fn, const kj_stmt *s)
{
    id_check *c = fn ? fn : mod;
    switch (s->kind) {
    case KJ_S_EXPR: check_expr_ids(c, s->expr); break;
    case KJ_S_ASSIGN:
        for (uint32_t i = 0; i < s->assign.ntargets; i++) check_expr_ids(c, s->assign.targets[i]);
        check_expr_ids(c, s->assign.value);
        break;
    case KJ_S_AUGASSIGN: check_expr_ids(c, s->aug.target), check_expr_ids(c, s->aug.value); break;
    case KJ_S_IF:
        check_expr_ids(c, s->if_.cond);
        check_block_ids(mod, fn, &s->if_.then);
        check_block_ids(mod, fn, &s->if_.els);
        break;
    case KJ_S_WHILE: check_expr_ids(c, s->while_.cond), check_block_ids(mod, fn, &s->while_.body); break;
    case KJ_S_FOR:
        check_expr_ids(c, s->for_.target), check_expr_ids(c, s->for_.iter);
        check_block_ids(mod, fn, &s->for_.body);
        break;
    case KJ_S_RETURN: check_expr_ids(c, s->ret.value); break;
    case KJ_S_ASSERT: check_expr_ids(c, s->assert_.cond), check_expr_ids(c, s->assert_.msg); break;
    case KJ_S_DEF: {
        const kj_funcdef *fd = s->def;
        for (uint32_t i = 0; i < fd->ndecorators; i++) check_expr_ids(mod, fd->decorators[i]);
        for (uint32_t i = 0; i < fd->nparams; i++) check_expr_ids(mod, fd->params[i].def);
        id_check body = {fd->nexprs, calloc(fd->nexprs + 1, 1)};
        check_block_ids(mod, &body, &fd->body);
        for (uint32_t i = 0; i < fd->nexprs; i++) assert_true(body.seen[i]); /* ids are dense */
        free(body.seen);
        break;
    }
    default: break;
    }
}

static void check_block_ids(id_check *mod, id_check *fn, const kj_block *b)
{
    for (uint32_t i = 0; i < b->n; i++) check_stmt_ids(mod, fn, b->v[i]);
}

static void test_expression_ids(void **state)
{
    (void)state;
    const char *src = "N = 4 * 2\n"
                      "@jit(cache=True)\n"
                      "def f(a, b=N + 1):\n"
                      "    x = a[0, 1:2] if b else -a\n"
                      "    return f(x, b=3), x < 1 < 2\n"
                      "def g(c=(1, 2)):\n"
                      "    while c: c -= 1\n"
                      "if __name__ == '__main__':\n"
                      "    f(1)\n";
    parsed *P = parse(src);
    assert_string_equal(P->errs, "");
    id_check mod = {P->m->nexprs, calloc(P->m->nexprs + 1, 1)};
    check_block_ids(&mod, NULL, &P->m->body);
    for (uint32_t i = 0; i < P->m->nexprs; i++) assert_true(mod.seen[i]);
    free(mod.seen);
    /* module: N 4 2 4*2 | jit True call | N 1 N+1 | (1,2) 1 2 | __name__ '__main__' cmp | f 1 call */
    assert_int_equal(P->m->nexprs, 4 + 3 + 3 + 3 + 3 + 3);
    const kj_funcdef *f = P->m->body.v[1]->def;
    assert_int_equal(f->nexprs, 12 + 9);
    assert_int_equal(P->m->body.v[2]->def->nexprs, 3);
    done(P);
}

static kj_span span_of(const char *src, const char *what)
{
    const char *p = strstr(src, what);
    assert_non_null(p);
    return (kj_span){(uint32_t)(p - src), (uint32_t)strlen(what), 0, 0};
}

static void assert_span(const char *src, kj_span got, const char *what)
{
    kj_span want = span_of(src, what);
    assert_int_equal(got.off, want.off);
    assert_int_equal(got.len, want.len);
}

/* A span of `len` bytes where `what` starts. */
static void assert_span_n(const char *src, kj_span got, const char *what, uint32_t len)
{
    kj_span want = span_of(src, what);
    assert_int_equal(got.off, want.off);
    assert_int_equal(got.len, len);
}

static void test_spans(void **state)
{
    (void)state;
    const char *src = "x = (a + b) * c[i, 1:n]\n"
                      "@cuda.jit\n"
                      "def kernel(x, out):\n"
                      "    out[0] = f(x, y=2) if x.a.b else (1, 2)\n"
                      "    return -x ** 2\n";
    parsed *P = parse(src);
    assert_string_equal(P->errs, "");
    kj_stmt *s = P->m->body.v[0];
    assert_span(src, s->span, "x = (a + b) * c[i, 1:n]");
    assert_int_equal(s->span.line, 1);
    assert_int_equal(s->span.col, 1);
    kj_expr *e = s->assign.value;
    assert_span(src, e->span, "(a + b) * c[i, 1:n]");
    assert_span(src, e->bin.l->span, "a + b");
    assert_span(src, e->bin.r->span, "c[i, 1:n]");
    assert_span(src, e->bin.r->sub.index->span, "i, 1:n");
    assert_span(src, e->bin.r->sub.index->seq.v[1]->span, "1:n");

    s = P->m->body.v[1];
    assert_int_equal(s->kind, KJ_S_DEF);
    assert_span(src, s->span, "def kernel");
    assert_span(src, s->def->span, "def kernel");
    assert_span(src, s->def->name_span, "kernel");
    assert_int_equal(s->def->span.line, 3);
    assert_span(src, s->def->decorators[0]->span, "cuda.jit");
    assert_span(src, s->def->params[1].span, "out");

    kj_stmt *a = s->def->body.v[0];
    assert_int_equal(a->span.line, 4);
    assert_int_equal(a->span.col, 5);
    e = a->assign.value;
    assert_span(src, e->span, "f(x, y=2) if x.a.b else (1, 2)");
    assert_span(src, e->ifexp.then->span, "f(x, y=2)");
    assert_span_n(src, e->ifexp.then->call.kw[0].span, "y=2", 1);
    assert_span(src, e->ifexp.cond->span, "x.a.b");
    assert_span_n(src, e->ifexp.cond->attr.name_span, "b else", 1);
    assert_span(src, e->ifexp.els->span, "(1, 2)");
    kj_stmt *r = s->def->body.v[1];
    assert_span(src, r->span, "return -x ** 2");
    assert_span(src, r->ret.value->span, "-x ** 2");
    assert_span(src, r->ret.value->un.x->span, "x ** 2");
    done(P);
}

/* ---------------------------------------------------------------------- */
/* Errors                                                                  */

static void test_syntax_errors(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"if x\n    pass\n", "1:5: expected ':'\n"},
        {"while x\n    pass\n", "1:8: expected ':'\n"},
        {"def f()\n    pass\n", "1:8: expected ':'\n"},
        {"if x:\ny = 1\n", "2:1: expected an indented block after 'if' statement on line 1\n"},
        {"if x:\n    pass\nelse:\ny = 1\n", "4:1: expected an indented block after 'else' statement on line 3\n"},
        {"if x:\n    pass\nelif y:\n", "3:8: expected an indented block after 'elif' statement on line 3\n"},
        {"x = 1\n\nfor i in x:\nprint(i)\n", "4:1: expected an indented block after 'for' statement on line 3\n"},
        {"while x:\n", "1:9: expected an indented block after 'while' statement on line 1\n"},
        {"def f():\n", "1:9: expected an indented block after function definition on line 1\n"},
        {"  x = 1\n", "1:3: unexpected indent\n"},
        {"if x:\n  pass\n    y\n", "3:5: unexpected indent\n"},
        {"f(a))\n", "1:5: unmatched ')'\n"},
        {"x = (1, 2\ny = 3\n", "1:5: '(' was never closed\n"},
        {"f() = 1\n", "1:1: cannot assign to function call\n"},
        {"1 = x\n", "1:1: cannot assign to literal\n"},
        {"'a' = x\n", "1:1: cannot assign to literal\n"},
        {"None = x\n", "1:1: cannot assign to None\n"},
        {"True = x\n", "1:1: cannot assign to True\n"},
        {"a + b = 1\n", "1:1: cannot assign to expression\n"},
        {"-a = 1\n", "1:1: cannot assign to expression\n"},
        {"a < b = 1\n", "1:1: cannot assign to comparison\n"},
        {"a if b else c = 1\n", "1:1: cannot assign to conditional expression\n"},
        {"x, f() = 1, 2\n", "1:4: cannot assign to function call\n"},
        {"x = f() = 1\n", "1:5: cannot assign to function call\n"},
        {"for f() in x: pass\n", "1:5: cannot assign to function call\n"},
        {"for 1 in x: pass\n", "1:5: cannot assign to literal\n"},
        {"for x y: pass\n", "1:7: expected 'in'\n"},
        {"f() += 1\n", "1:1: 'function call' is an illegal expression for augmented assignment\n"},
        {"a, b += 1\n", "1:1: 'tuple' is an illegal expression for augmented assignment\n"},
        {"f(a=1, 2)\n", "1:8: positional argument follows keyword argument\n"},
        {"f(a.b=1)\n", "1:3: expression cannot contain assignment, perhaps you meant \"==\"?\n"},
        {"f(a=1, a=2)\n", "1:8: keyword argument repeated: a\n"},
        {"def f(a=1, b): pass\n", "1:12: non-default argument follows default argument\n"},
        {"def f(a, a): pass\n", "1:10: duplicate argument 'a' in function definition\n"},
        {"def (a): pass\n", "1:5: expected a function name after 'def'\n"},
        {"def f(a b): pass\n", "1:9: invalid syntax: unexpected name 'b'\n"},
        {"def f(1): pass\n", "1:7: invalid syntax: unexpected number '1'\n"},
        {"x = a if b\n", "1:5: expected 'else' after 'if' expression\n"},
        {"x y\n", "1:3: invalid syntax: unexpected name 'y'\n"},
        {"f(a b)\n", "1:5: invalid syntax: unexpected name 'b'\n"},
        {"x = (a b)\n", "1:8: invalid syntax: unexpected name 'b'\n"},
        {"x = [a b]\n", "1:8: invalid syntax: unexpected name 'b'\n"},
        {"x = a[1 2]\n", "1:9: invalid syntax: unexpected number '2'\n"},
        {"x = 1 +\n", "1:8: expected expression\n"},
        {"x =\n", "1:4: expected expression\n"},
        {"x = )\n", "1:5: unmatched ')'\n"},
        {"x = a[]\n", "1:7: invalid syntax: unexpected ']'\n"},
        {"x = a.1\n", "1:6: invalid syntax: unexpected number '.1'\n"},
        {"x = a.if\n", "1:7: expected an attribute name after '.'\n"},
        {"else:\n    x = 1\n", "1:1: invalid syntax: unexpected 'else'\n"},
        {"x = 1 = \n", "1:5: cannot assign to literal\n"},
        {"return 1\n", "1:1: 'return' outside function\n"},
        {"break\n", "1:1: 'break' outside loop\n"},
        {"continue\n", "1:1: 'continue' not properly in loop\n"},
        {"def f():\n    break\n", "2:5: 'break' outside loop\n"},
        {"for i in x:\n    def f():\n        continue\n", "3:9: 'continue' not properly in loop\n"},
        {"print 'x'\n", "1:1: missing parentheses in call to 'print'\n"},
        {"import\n", "1:7: expected a module name\n"},
        {"import a as\n", "1:12: expected a name after 'as'\n"},
        {"from a b\n", "1:8: expected 'import'\n"},
        {"from a import (b\n", "1:15: '(' was never closed\n"},
        {"from a import 1\n", "1:15: expected a name to import\n"},
        {"@dec\nx = 1\n", "2:1: invalid syntax: unexpected name 'x'\n"},
        {"@\ndef f(): pass\n", "1:2: expected expression\n"},
        {"if x: if y: pass\n", "1:7: invalid syntax: unexpected 'if'\n"},
        {"x = 1 if\n", "1:9: expected expression\n"},
        {"a = (yield)\n", "1:6: 'yield' as an expression is not supported (generators have no send())\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        parsed *P = parse(cases[i][0]);
        const char *nl = strchr(P->errs, '\n');
        char first[512] = "";
        if (nl) snprintf(first, sizeof first, "%.*s", (int)(nl - P->errs + 1), P->errs);
        if (strcmp(first, cases[i][1])) print_error("source: %s", cases[i][0]);
        assert_string_equal(first, cases[i][1]);
        done(P);
    }
}

static void test_hints(void **state)
{
    (void)state;
    parsed *P = parse("f() = 1\n");
    assert_string_equal(P->d.v[0].hint, "maybe you meant '==' instead of '='?");
    done(P);
    P = parse("f(a b)\n");
    assert_string_equal(P->d.v[0].hint, "perhaps you forgot a comma?");
    done(P);
    P = parse("print x\n");
    assert_string_equal(P->d.v[0].hint, "did you mean print(...)?");
    done(P);
}

static void test_unsupported(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"class A:\n    def f(self): pass\n", "1:1: classes are not supported\n"},
        {"@dataclass\nclass A: pass\n", "2:1: classes are not supported\n"},
        {"try:\n    x = 1\ny = 2\n", "3:1: expected 'except' or 'finally' block\n"},
        {"except E:\n    pass\n", "1:1: 'except' without 'try'\n"},
        {"with open(f) as g, open(h) as k:\n    pass\n", "1:1: 'with' is not supported\n"},
        {"x = 2 * lambda a: a\n", "1:9: a lambda here needs parentheses\n"},
        {"def f():\n    return lambda a, b=1: a\n", "2:23: a default value in a lambda inside a function is not supported\n"},
        {"x = [i for i y]\n", "1:14: expected 'in'\n"},
        {"f = lambda y: [i for i in y]\n", "1:15: a comprehension inside a lambda is not supported\n"},
        {"x = (i for i in y)\n", "1:5: The use of yield in a closure is unsupported.\n"},
        {"f(i for i in y, 2)\n", "1:3: Generator expression must be parenthesized\n"},
        {"f(1, i for i in y)\n", "1:6: Generator expression must be parenthesized\n"},
        {"x = {i for i in y}\n", "1:5: Use of unsupported opcode (SET_ADD) found\n"},
        {"x = [i, j for i in y]\n", "1:11: comprehensions are not supported\n"},
        {"yield 1\n", "1:1: 'yield' outside function\n"},
        {"def f():\n    x = yield\n", "2:9: 'yield' as an expression is not supported (generators have no send())\n"},
        {"def f():\n    global 1\n", "2:12: expected a name after 'global'\n"},
        {"def f():\n    nonlocal x\n", "2:5: 'nonlocal' is not supported\n"},
        {"del x\n", "1:1: 'del' is not supported\n"},
        {"async def f(): pass\n", "1:1: 'async' is not supported\n"},
        {"def f():\n    await x\n", "2:5: 'await' is not supported\n"},
        {"def f(*args, b): pass\n", "1:7: parameters after *args (keyword-only) are not supported\n"},
        {"def f(a, **kw): pass\n", "1:10: **kwargs is not supported\n"},
        {"def f(a, *, b): pass\n", "1:10: keyword-only parameters ('*') are not supported\n"},
        {"def f(a, /, b): pass\n", "1:10: positional-only parameters ('/') are not supported\n"},
        {"def f(x: int): pass\n", "1:8: annotations are not supported\n"},
        {"def f(x) -> int: pass\n", "1:10: annotations are not supported\n"},
        {"x: int = 3\n", "1:2: annotations are not supported\n"},
        {"f(*a)\n", "1:3: argument unpacking (*args) is not supported\n"},
        {"f(x, **a)\n", "1:6: keyword argument unpacking (**kwargs) is not supported\n"},
        {"a, *b = x\n", "1:4: starred expressions are not supported\n"},
        {"x = [*a]\n", "1:6: starred expressions are not supported\n"},
        {"if (n := 10) > 5: pass\n", "1:7: ':=' is not supported\n"},
        {"while x:\n    pass\nelse:\n    pass\n", "3:1: 'else' after a 'while' loop is not supported\n"},
        {"for x in y:\n    pass\nelse:\n    pass\n", "3:1: 'else' after a 'for' loop is not supported\n"},
        {"match x:\n    case 1:\n        pass\n", "1:1: 'match' is not supported\n"},
        {"def f():\n    def g(*a, **k):\n        pass\n", "2:11: parameters after *args (keyword-only) are not supported\n"},
        {"x = a[...]\n", "1:7: '...' (Ellipsis) is not supported\n"},
        {"from . import x\n", "1:6: relative imports are not supported\n"},
        {"from a import *\n", "1:15: wildcard imports ('import *') are not supported\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        parsed *P = parse(cases[i][0]);
        if (strcmp(P->errs, cases[i][1])) print_error("source: %s", cases[i][0]);
        assert_string_equal(P->errs, cases[i][1]); /* exactly one error: recovery is clean */
        done(P);
    }
    /* `match` is a soft keyword. */
    want_module("match = 1\nmatch(x)\nmatch.y = 2\n",
                "(module\n  (assign (name match) (int 1))\n  (expr (call (name match) (name x)))\n"
                "  (assign (attr (name match) y) (int 2)))\n");
}

static void test_recovery(void **state)
{
    (void)state;
    /* Several errors, one per broken statement, parsing resumes after each. */
    want_errors("x = 1 +\ny = (2 *)\nclass A:\n    z = 3\nw = 4 5\nok = 1\nv = ]\n",
                "1:8: expected expression\n"
                "2:9: invalid syntax: unexpected ')'\n"
                "3:1: classes are not supported\n"
                "5:7: invalid syntax: unexpected number '5'\n"
                "7:5: unmatched ']'\n");
    /* The statements around the errors are still in the tree. */
    parsed *P = parse("a = 1\nb = (\nc = 2\n");
    assert_string_equal(P->errs, "2:5: '(' was never closed\n");
    done(P);
    P = parse("a = 1\nb = +\nc = 2\ndef f(1):\n    d = 3\n    e = 4 +\n");
    assert_string_equal(P->errs, "2:6: expected expression\n4:7: invalid syntax: unexpected number '1'\n6:12: expected expression\n");
    assert_string_equal(P->dump, "(module\n  (assign (name a) (int 1))\n  (assign (name c) (int 2))\n"
                                 "  (def f (params)\n    (assign (name d) (int 3))))\n");
    done(P);
    /* A header error: the block is still parsed, errors in it reported. */
    want_errors("if x\n    y = )\n    z = 1\n", "1:5: expected ':'\n2:9: unmatched ')'\n");
    want_errors("for x in\n    a = 1 +\n", "1:9: expected expression\n2:12: expected expression\n");
    /* One error per statement line, even with several faults on it. */
    want_errors("x = 1abc + $ + )\n", "1:5: invalid decimal literal\n");
    want_errors("x = 1 +; y = *\n", "1:8: expected expression\n");
    want_errors("f(a=1, 2, *b, c d)\n", "1:8: positional argument follows keyword argument\n");
    /* The lexer's error is not repeated by the parser. */
    want_errors("x = (1\ny = 2\nz = 3\n", "1:5: '(' was never closed\n");
    want_errors("x = [1, 2)\n", "1:10: closing parenthesis ')' does not match opening parenthesis '['\n");
    want_errors("x = 1 €\n", "1:7: invalid character '€' (U+20AC)\n");
    want_errors("x = 'abc\n", "1:5: unterminated string literal (detected at line 1)\n");
    /* A bad unindent stays in its block, without more errors. */
    P = parse("def f():\n        x = 1\n    y = 2\n    return y\nz = 3\n");
    assert_string_equal(P->errs, "3:5: unindent does not match any outer indentation level\n");
    assert_string_equal(P->dump, "(module\n  (def f (params)\n    (assign (name x) (int 1))\n"
                                 "    (assign (name y) (int 2))\n    (return (name y)))\n  (assign (name z) (int 3)))\n");
    done(P);
    want_errors("if x:\n        a = 1\n    b = 2\n    c = 3\n", "3:5: unindent does not match any outer indentation level\n");
    /* Diagnostics come out in source order. */
    want_errors("x = +\ny = $\nz = -\n",
                "1:6: expected expression\n2:5: invalid character '$' (U+0024)\n3:6: expected expression\n");
    /* An unexpected indent: the block is parsed in place. */
    P = parse("x = 1\n    y = 2\n    z = )\nw = 3\n");
    assert_string_equal(P->errs, "2:5: unexpected indent\n3:9: unmatched ')'\n");
    done(P);
}

/* ---------------------------------------------------------------------- */
/* Robustness                                                              */

static double elapsed_ms(struct timespec a, struct timespec b)
{
    return (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
}

/* prefix unit*n middle close*n suffix */
static char *nest(const char *prefix, const char *unit, size_t n, const char *middle, const char *close,
                  const char *suffix, size_t *len)
{
    size_t u = strlen(unit), c = strlen(close);
    size_t total = strlen(prefix) + n * (u + c) + strlen(middle) + strlen(suffix);
    char *s = malloc(total + 1), *q = s;
    q = stpcpy(q, prefix);
    for (size_t i = 0; i < n; i++) q = stpcpy(q, unit);
    q = stpcpy(q, middle);
    for (size_t i = 0; i < n; i++) q = stpcpy(q, close);
    q = stpcpy(q, suffix);
    *len = (size_t)(q - s);
    return s;
}

static void test_deep_nesting(void **state)
{
    (void)state;
    static const struct { const char *prefix, *unit, *middle, *close, *err; } cases[] = {
        {"x = ", "(", "1", ")", "too many nested parentheses"},
        {"x = ", "[", "1", "]", "too many nested parentheses"},
        {"x = ", "(", "", "", "too many nested parentheses"},
        {"x = ", "[\n", "", "", "too many nested parentheses"},
        {"x = ", "f(", "1", ")", "too many nested parentheses"},
        {"x = ", "-", "x", "", "too deeply nested"},
        {"x = ", "~+-", "x", "", "too deeply nested"},
        {"x = ", "not ", "x", "", "too deeply nested"},
        {"x = ", "a**", "a", "", "too deeply nested"},
        {"x = ", "x if x else ", "x", "", "too deeply nested"},
        {"x = ", "a + ", "a", "", "too deeply nested"},
        {"x = ", "a.", "a", "", "too deeply nested"},
        {"x = ", "a < ", "a", "", "too deeply nested"},
        {"x = ", "a and ", "a", "", "too deeply nested"},
        {"x = a", "[0]", "", "", "too deeply nested"},
        {"x = a", "(0)", "", "", "too deeply nested"},
        {"x = ", "a[", "0", "]", "too many nested parentheses"},
        {"x = ", "-(", "1", ")", "too many nested parentheses"},
        {"", "x = ", "1", "", ""}, /* a long chained assignment is fine */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t len;
        char *s = nest(cases[i].prefix, cases[i].unit, 10000, cases[i].middle, cases[i].close, "\ny = 1\n", &len);
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        parsed *P = parse_n(s, len);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (!*cases[i].err) {
            assert_int_equal(P->d.nerrors, 0);
        } else {
            if (P->d.nerrors != 1) print_error("case %zu: %s", i, P->errs);
            assert_int_equal(P->d.nerrors, 1); /* reported once */
            if (!strstr(P->d.v[0].msg, cases[i].err)) print_error("case %zu: %s", i, P->errs);
            assert_non_null(strstr(P->d.v[0].msg, cases[i].err));
            /* The statement after it is still parsed (unless the brackets never close). */
            if (*cases[i].close && !strstr(P->dump, "(assign (name y) (int 1))")) print_error("case %zu\n", i);
            if (*cases[i].close) assert_non_null(strstr(P->dump, "(assign (name y) (int 1))"));
        }
        assert_true(elapsed_ms(t0, t1) < 2000);
        done(P);
        free(s);
    }
    /* Nested blocks: 99 levels parse, deeper is one error. */
    for (int levels = 99; levels <= 10000; levels += 10000 - 99) {
        char *s = malloc((size_t)levels * (size_t)(levels + 8) + 64);
        size_t k = 0;
        for (int i = 0; i < levels; i++) k += (size_t)sprintf(s + k, "%*sif x:\n", i, "");
        k += (size_t)sprintf(s + k, "%*spass\n", levels, "");
        parsed *P = parse_n(s, k);
        assert_int_equal(P->d.nerrors, levels == 99 ? 0 : 1);
        done(P);
        free(s);
    }
    /* Moderate nesting is fine: 150 parentheses, 150 unary minus, a 500-term sum, 150 subscripts. */
    size_t len;
    static const struct { const char *unit, *middle, *close; size_t n; } ok[] = {
        {"(", "1", ")", 150}, {"-", "1", "", 150}, {"a + ", "a", "", 500}, {"a[", "0", "]", 150},
        {"f(", "1", ")", 150}, {"a.", "b", "", 500},
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        char *s = nest("x = ", ok[i].unit, ok[i].n, ok[i].middle, ok[i].close, "\n", &len);
        parsed *P = parse_n(s, len);
        assert_string_equal(P->errs, "");
        done(P);
        free(s);
    }
}

static uint32_t rng_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

/* Random token soup must neither crash nor loop: every recovery step moves. */
static void test_token_soup(void **state)
{
    (void)state;
    static const char *const frags[] = {
        "x", "1", "2.5", "'s'", "(", ")", "[", "]", "{", "}", ",", ":", ".", ";", "@", "=", "+", "-", "*", "**",
        "/", "//", "<", "==", "not", "and", "or", "if", "else", "elif", "for", "in", "while", "def", "return",
        "class", "lambda", "import", "from", "as", "pass", "yield", "is", "\n", "\n", "\n    ", "\n        ",
        "\t", "\\\n", "#c\n", "...", ":=", "->", "+=", "try", "except", "with", "global", "del", "raise",
        "async", "await", "True", "None", "break", "continue", "assert", "match", "*", "**",
    };
    uint64_t seed = 7;
    for (int round = 0; round < 300; round++) {
        size_t n = 1 + rng_next(&seed) % 400, k = 0;
        char *s = malloc(n * 12 + 1);
        for (size_t i = 0; i < n; i++) {
            const char *f = frags[rng_next(&seed) % (sizeof frags / sizeof *frags)];
            k += (size_t)sprintf(s + k, "%s ", f);
        }
        parsed *P = parse_n(s, k);
        assert_true(P->d.n <= 20);
        done(P);
        free(s);
    }
}

static const char vector_add[] =
    "from numba import cuda, float32\n"
    "import numpy as np\n"
    "\n"
    "@cuda.jit\n"
    "def vadd(a, b, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < out.size:\n"
    "        out[i] = a[i] + b[i]\n"
    "\n"
    "def main(n=1 << 20):\n"
    "    a = np.random.rand(n).astype(np.float32)\n"
    "    b = np.ones(n, dtype=np.float32)\n"
    "    out = np.empty_like(a)\n"
    "    threads = 256\n"
    "    blocks = (n + threads - 1) // threads\n"
    "    vadd[blocks, threads](a, b, out)\n"
    "    assert np.allclose(out, a + b), \"mismatch\"\n"
    "    print(out[:4], out.sum(), sep=' | ')\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    main()\n";

static const char stencil[] =
    "from numba import cuda\n"
    "import numpy as np\n"
    "import math\n"
    "\n"
    "@cuda.jit('void(float32[:, :], float32[:, :])')\n"
    "def blur(img, out):\n"
    "    i, j = cuda.grid(2)\n"
    "    n, m = img.shape\n"
    "    if 1 <= i < n - 1 and 1 <= j < m - 1:\n"
    "        acc = 0.0\n"
    "        for di in range(-1, 2):\n"
    "            for dj in range(-1, 2):\n"
    "                acc += img[i + di, j + dj]\n"
    "        out[i, j] = acc / 9.0\n"
    "    elif i < n and j < m:\n"
    "        out[i, j] = img[i, j]\n"
    "\n"
    "def main(n=512, m=512):\n"
    "    img = np.arange(n * m, dtype=np.float32).reshape((n, m))\n"
    "    out = np.zeros_like(img)\n"
    "    tpb = (16, 16)\n"
    "    bpg = (math.ceil(n / tpb[0]), math.ceil(m / tpb[1]))\n"
    "    blur[bpg, tpb](img, out)\n"
    "    print(out[1:-1, 1:-1].mean(), out[::2, 0])\n";

static const char matmul[] =
    "from numba import cuda, float32\n"
    "import numpy as np\n"
    "import time\n"
    "\n"
    "TPB = 16\n"
    "\n"
    "@cuda.jit\n"
    "def matmul(A, B, C):\n"
    "    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)\n"
    "    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)\n"
    "    x, y = cuda.grid(2)\n"
    "    tx = cuda.threadIdx.x\n"
    "    ty = cuda.threadIdx.y\n"
    "    bpg = cuda.gridDim.x\n"
    "    tmp = float32(0.)\n"
    "    for i in range(bpg):\n"
    "        sA[ty, tx] = 0\n"
    "        sB[ty, tx] = 0\n"
    "        if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:\n"
    "            sA[ty, tx] = A[y, tx + i * TPB]\n"
    "        if x < B.shape[1] and (ty + i * TPB) < B.shape[0]:\n"
    "            sB[ty, tx] = B[ty + i * TPB, x]\n"
    "        cuda.syncthreads()\n"
    "        for j in range(TPB):\n"
    "            tmp += sA[ty, j] * sB[j, tx]\n"
    "        cuda.syncthreads()\n"
    "    if y < C.shape[0] and x < C.shape[1]:\n"
    "        C[y, x] = tmp\n"
    "\n"
    "def main(n=1024, iters=10):\n"
    "    A = np.random.random((n, n)).astype(np.float32)\n"
    "    B = np.random.random((n, n)).astype(np.float32)\n"
    "    dA = cuda.to_device(A); dB = cuda.to_device(B)\n"
    "    dC = cuda.device_array((n, n), dtype=np.float32)\n"
    "    blocks = ((n + TPB - 1) // TPB, (n + TPB - 1) // TPB)\n"
    "    t0 = time.perf_counter()\n"
    "    for _ in range(iters):\n"
    "        matmul[blocks, (TPB, TPB)](dA, dB, dC)\n"
    "    cuda.synchronize()\n"
    "    dt = (time.perf_counter() - t0) / iters\n"
    "    C = dC.copy_to_host()\n"
    "    print('GFLOP/s:', 2 * n ** 3 / dt * 1e-9)\n"
    "    assert np.allclose(C, A @ B, rtol=1e-3)\n";

static const char ufunc[] =
    "from numba import vectorize, guvectorize, jit, float32, float64\n"
    "import numpy as np\n"
    "import math\n"
    "\n"
    "@vectorize(['float32(float32, float32)', 'float64(float64, float64)'], target='cuda')\n"
    "def rel_diff(x, y):\n"
    "    return 2 * abs(x - y) / (x + y) if x + y != 0 else 0.0\n"
    "\n"
    "@guvectorize(['void(float32[:], float32, float32[:])'], '(n),()->(n)', target='parallel')\n"
    "def scale(a, s, out):\n"
    "    for i in range(a.shape[0]):\n"
    "        out[i] = a[i] * s\n"
    "\n"
    "@jit(nopython=True, fastmath=True)\n"
    "def norm(v):\n"
    "    acc = 0.0\n"
    "    for i in range(len(v)):\n"
    "        acc += v[i] ** 2\n"
    "    return math.sqrt(acc)\n"
    "\n"
    "def main(n=4096):\n"
    "    np.random.seed(0)\n"
    "    x = np.random.rand(n).astype(np.float32)\n"
    "    y = x[::-1].copy()\n"
    "    d = rel_diff(x, y)\n"
    "    print(norm(d), d.max(), np.sum(scale(x, 2.0)), ~np.int32(5), -x[0] ** 2)\n";

static void test_numba_programs(void **state)
{
    (void)state;
    const char *const progs[] = {vector_add, stencil, matmul, ufunc};
    for (size_t i = 0; i < sizeof progs / sizeof *progs; i++) {
        parsed *P = parse(progs[i]);
        if (P->d.n) print_error("program %zu: %s", i, P->errs);
        assert_string_equal(P->errs, "");
        assert_true(P->m->body.n >= 3);
        done(P);
    }
    parsed *P = parse(matmul);
    assert_non_null(strstr(P->dump, "(assign (name sA) (call (attr (attr (name cuda) shared) array) "
                                    "(kw shape (tuple (name TPB) (name TPB))) (kw dtype (name float32))))"));
    assert_non_null(strstr(P->dump, "(expr (call (subscript (name matmul) (tuple (name blocks) (tuple (name TPB) "
                                    "(name TPB)))) (name dA) (name dB) (name dC)))"));
    done(P);
}

static void test_big_input(void **state)
{
    (void)state;
    size_t unit = strlen(matmul), n = (10u << 20) / unit + 1;
    char *s = malloc(n * unit + 1);
    for (size_t i = 0; i < n; i++) memcpy(s + i * unit, matmul, unit);
    struct timespec t0, t1;
    kj_source src = {"big.k", s, n * unit};
    kj_arena a;
    kj_arena_init(&a);
    kj_diags d = {0};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    kj_module *m = kj_parse(&src, &a, &d);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    print_message("parsing 10 MB (%u statements): %.1f ms\n", m->body.n, elapsed_ms(t0, t1));
    assert_int_equal(d.nerrors, 0);
    assert_int_equal(m->body.n, 6 * n);
    assert_true(elapsed_ms(t0, t1) < 20000);
    kj_diags_free(&d);
    kj_arena_free(&a);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_precedence),
        cmocka_unit_test(test_atoms_and_trailers),
        cmocka_unit_test(test_assignments),
        cmocka_unit_test(test_simple_statements),
        cmocka_unit_test(test_compound_statements),
        cmocka_unit_test(test_defs),
        cmocka_unit_test(test_expression_ids),
        cmocka_unit_test(test_spans),
        cmocka_unit_test(test_syntax_errors),
        cmocka_unit_test(test_hints),
        cmocka_unit_test(test_unsupported),
        cmocka_unit_test(test_recovery),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_token_soup),
        cmocka_unit_test(test_numba_programs),
        cmocka_unit_test(test_big_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
