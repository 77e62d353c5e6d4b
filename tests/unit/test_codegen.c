/* SPDX-License-Identifier: BSD-2-Clause */
/* The host code generator: KIR functions built by hand (and, where the front
 * end is complete enough, from source), compiled through LLVM and ORC, and
 * called through their entry points. Checks Python's arithmetic semantics,
 * control flow, tuples, calls, math, arrays and the run-time errors. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "frontend/parser.h"
#include "abi/abi.h"
#include "codegen/codegen.h"
#include "runtime/npy.h"
#include "ir/builtins.h"
#include "ir/kir.h"
#include "ir/pipeline.h"
#include "ir/types.h"
#include "runtime/rt.h"

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fx {
    kj_arena a;
    kj_types *t;
    kir_module *m;
    kj_source src;
    kj_diags d;
    kj_jit *jit;
    const kj_type *i64, *i32, *u8, *f32, *f64, *b, *none;
} fx;

static int setup(void **state)
{
    fx *x = calloc(1, sizeof *x);
    kj_arena_init(&x->a);
    x->t = kj_types_new(&x->a);
    x->src = (kj_source){.path = "prog.k", .text = "", .len = 0};
    x->m = kir_module_new(&x->a, &x->src);
    x->i64 = kj_t_int(x->t, 64, true);
    x->i32 = kj_t_int(x->t, 32, true);
    x->u8 = kj_t_int(x->t, 8, false);
    x->f32 = kj_t_float(x->t, 32);
    x->f64 = kj_t_float(x->t, 64);
    x->b = kj_t_bool(x->t);
    x->none = kj_t_none(x->t);
    *state = x;
    return 0;
}

static int teardown(void **state)
{
    fx *x = *state;
    kj_jit_free(x->jit);
    kj_diags_free(&x->d);
    kj_arena_free(&x->a);
    free(x);
    return 0;
}

/* ---- building KIR ---- */

static kj_span at_line(uint32_t line, uint32_t col) { return (kj_span){.line = line, .col = col}; }

static kir_func *fn(fx *x, const char *name, const kj_type *ret, uint32_t n, ...)
{
    kir_func *f = kir_func_new(&x->a, x->m, name, name, KIR_FN_HOST);
    f->ret = ret;
    f->nparams = n;
    f->params = KJ_NEWN(&x->a, const kj_type *, n + 1);
    f->param_names = KJ_NEWN(&x->a, const char *, n + 1);
    va_list ap;
    va_start(ap, n);
    for (uint32_t k = 0; k < n; k++) {
        f->params[k] = va_arg(ap, const kj_type *);
        f->param_names[k] = kj_arena_printf(&x->a, "p%u", k);
    }
    va_end(ap);
    return f;
}

static kir_ref op_at(fx *x, kir_func *f, kir_blkid blk, kir_op op, const kj_type *ty, kir_ref a, kir_ref b,
                     kj_span sp)
{
    kir_ref r = kir_emit(&x->a, f, blk, op, ty, sp);
    kir_at(f, r)->a = a;
    kir_at(f, r)->b = b;
    return r;
}

static kir_ref op(fx *x, kir_func *f, kir_blkid blk, kir_op o, const kj_type *ty, kir_ref a, kir_ref b)
{
    return op_at(x, f, blk, o, ty, a, b, at_line(1, 1));
}

static kir_ref op_i(fx *x, kir_func *f, kir_blkid blk, kir_op o, const kj_type *ty, int64_t i, kir_ref a)
{
    kir_ref r = op(x, f, blk, o, ty, a, 0);
    kir_at(f, r)->i = i;
    return r;
}

static kir_ref cint(fx *x, kir_func *f, kir_blkid blk, const kj_type *ty, int64_t v)
{
    return op_i(x, f, blk, KIR_CONST_INT, ty, v, 0);
}

static kir_ref cflt(fx *x, kir_func *f, kir_blkid blk, const kj_type *ty, double v)
{
    kir_ref r = op(x, f, blk, KIR_CONST_FLOAT, ty, 0, 0);
    kir_at(f, r)->f = v;
    return r;
}

static kir_ref param(fx *x, kir_func *f, kir_blkid blk, uint32_t i)
{
    return op_i(x, f, blk, KIR_PARAM, f->params[i], i, 0);
}

static kir_ref get(fx *x, kir_func *f, kir_blkid blk, uint32_t l)
{
    return op_i(x, f, blk, KIR_LOCAL_GET, f->locals[l].type, l, 0);
}

static void set(fx *x, kir_func *f, kir_blkid blk, uint32_t l, kir_ref v)
{
    op_i(x, f, blk, KIR_LOCAL_SET, x->none, l, v);
}

static kir_ref with_args(fx *x, kir_func *f, kir_blkid blk, kir_op o, const kj_type *ty, kir_ref a,
                         uint32_t n, const kir_ref *args)
{
    kir_ref r = op(x, f, blk, o, ty, a, 0);
    kir_at(f, r)->args = kir_refs(&x->a, args, n);
    kir_at(f, r)->nargs = n;
    return r;
}

static kir_ref builtin(fx *x, kir_func *f, kir_blkid blk, kj_builtin id, const kj_type *ty, uint32_t n,
                       const kir_ref *args)
{
    kir_ref r = with_args(x, f, blk, KIR_BUILTIN, ty, 0, n, args);
    kir_at(f, r)->aux = (uint16_t)id;
    return r;
}

static void ret(fx *x, kir_func *f, kir_blkid blk, kir_ref v) { op(x, f, blk, KIR_RETURN, x->none, v, 0); }

/* IF cond: returns the then block (and the else block in *els when asked). */
static kir_blkid if_(fx *x, kir_func *f, kir_blkid blk, kir_ref cond, kir_blkid *els)
{
    kir_ref r = op(x, f, blk, KIR_IF, x->none, cond, 0);
    kir_blkid then = kir_block_new(&x->a, f);
    kir_at(f, r)->blk[0] = then;
    if (els) {
        *els = kir_block_new(&x->a, f);
        kir_at(f, r)->blk[1] = *els;
    }
    return then;
}

/* FOR local in range(a, b, c): returns the body. */
static kir_blkid for_(fx *x, kir_func *f, kir_blkid blk, uint32_t local, kir_ref a, kir_ref b, kir_ref c)
{
    kir_ref r = op_i(x, f, blk, KIR_FOR, x->none, local, a);
    kir_at(f, r)->b = b;
    kir_at(f, r)->c = c;
    kir_blkid body = kir_block_new(&x->a, f);
    kir_at(f, r)->blk[0] = body;
    return body;
}

/* ---- compiling and calling ---- */

static void compile_opts(fx *x, const kj_codegen_opts *o)
{
    for (uint32_t k = 0; k < x->m->nfuncs; k++) {
        const char *why = kir_verify(&x->a, x->m->funcs[k]);
        if (why) fail_msg("invalid KIR in %s: %s", x->m->funcs[k]->name, why);
    }
    kj_codegen_opts def = {.opt_level = 3, .verify = true};
    x->jit = kj_codegen_host(x->m, o ? o : &def, &x->d);
    if (!x->jit) {
        for (uint32_t k = 0; k < x->d.n; k++) fprintf(stderr, "diag: %s\n", x->d.v[k].msg);
        fail_msg("kj_codegen_host failed");
    }
}

static void compile(fx *x) { compile_opts(x, NULL); }

static kj_rt_kind call(fx *x, const char *name, void **args, void *result, kj_rt *rt)
{
    kj_entry_fn f = kj_jit_lookup(x->jit, name);
    if (!f) fail_msg("no entry point for %s", name);
    kj_rt_init(rt, "prog.k");
    return kj_rt_call_entry(rt, f, args, result);
}

static int64_t call_ii(fx *x, const char *name, int64_t a, int64_t b)
{
    kj_rt rt;
    int64_t r = 0;
    void *args[2] = {&a, &b};
    kj_rt_kind k = call(x, name, args, &r, &rt);
    if (k) fail_msg("%s(%lld, %lld) raised %s", name, (long long)a, (long long)b, rt.message);
    return r;
}

static double call_dd(fx *x, const char *name, double a, double b)
{
    kj_rt rt;
    double r = 0;
    void *args[2] = {&a, &b};
    assert_int_equal(call(x, name, args, &r, &rt), KJ_RT_OK);
    return r;
}

/* f(a, b) = a OP b for one type. */
static void binop_fn(fx *x, const char *name, kir_op o, const kj_type *t)
{
    kir_func *f = fn(x, name, t, 2, t, t);
    kir_ref r = op_at(x, f, 0, o, t, param(x, f, 0, 0), param(x, f, 0, 1), at_line(7, 12));
    ret(x, f, 0, r);
}

/* ---- tests: scalar arithmetic ---- */

static void test_int_floordiv_mod(void **state)
{
    fx *x = *state;
    binop_fn(x, "fdiv", KIR_FLOORDIV, x->i64);
    binop_fn(x, "mod", KIR_MOD, x->i64);
    compile(x);
    assert_int_equal(call_ii(x, "fdiv", -7, 2), -4);
    assert_int_equal(call_ii(x, "mod", -7, 2), 1);
    assert_int_equal(call_ii(x, "mod", 7, -2), -1);
    assert_int_equal(call_ii(x, "fdiv", 7, -2), -4);
    assert_int_equal(call_ii(x, "fdiv", 7, 2), 3);
    assert_int_equal(call_ii(x, "mod", 7, 2), 1);
    assert_int_equal(call_ii(x, "fdiv", -8, 2), -4);
    assert_int_equal(call_ii(x, "mod", -8, 2), 0);
    assert_int_equal(call_ii(x, "fdiv", INT64_MIN, -1), INT64_MIN); /* wraps, no SIGFPE */
    assert_int_equal(call_ii(x, "mod", INT64_MIN, -1), 0);
}

static void test_int_division_by_zero(void **state)
{
    fx *x = *state;
    binop_fn(x, "fdiv", KIR_FLOORDIV, x->i64);
    binop_fn(x, "mod", KIR_MOD, x->i32);
    compile(x);
    kj_rt rt;
    int64_t a = 5, b = 0, r = 0;
    void *args[2] = {&a, &b};
    assert_int_equal(call(x, "fdiv", args, &r, &rt), KJ_RT_ZERO_DIVISION);
    assert_string_equal(rt.message, "integer division or modulo by zero");
    assert_int_equal(rt.line, 7);
    assert_int_equal(rt.col, 12);
    char buf[256];
    assert_string_equal(kj_rt_format_error(&rt, buf, sizeof buf),
                        "prog.k:7:12: ZeroDivisionError: integer division or modulo by zero");
    int32_t a32 = 3, b32 = 0, r32 = 0;
    void *args32[2] = {&a32, &b32};
    assert_int_equal(call(x, "mod", args32, &r32, &rt), KJ_RT_ZERO_DIVISION);
    /* the context is usable again after an error */
    b32 = -2;
    assert_int_equal(call(x, "mod", args32, &r32, &rt), KJ_RT_OK);
    assert_int_equal(r32, -1);
}

static void test_float_floordiv_mod(void **state)
{
    fx *x = *state;
    binop_fn(x, "fdiv", KIR_FLOORDIV, x->f64);
    binop_fn(x, "mod", KIR_MOD, x->f64);
    binop_fn(x, "div", KIR_DIV, x->f64);
    compile(x);
    assert_true(call_dd(x, "fdiv", -7.5, 2) == -4.0);
    assert_true(call_dd(x, "mod", 7.5, -2) == -0.5);
    assert_true(call_dd(x, "mod", -7.5, 2) == 0.5);
    assert_true(call_dd(x, "fdiv", 7.5, 2) == 3.0);
    assert_true(call_dd(x, "fdiv", 1.0, 0.1) == 9.0); /* Python: 1.0 // 0.1 == 9.0 */
    assert_true(call_dd(x, "mod", 1.0, 0.1) > 0.09);
    double z = call_dd(x, "mod", -4.0, 2.0); /* zero takes the divisor's sign */
    assert_true(z == 0.0 && !signbit(z));
    z = call_dd(x, "mod", 4.0, -2.0);
    assert_true(z == 0.0 && signbit(z));
    assert_true(isinf(call_dd(x, "fdiv", 5.0, 0.0))); /* NumPy: inf, no error */
    assert_true(isnan(call_dd(x, "mod", 5.0, 0.0)));
    assert_true(isinf(call_dd(x, "div", 1.0, 0.0)));
    assert_true(isnan(call_dd(x, "div", 0.0, 0.0)));
}

/* Python's error model (py_errors: host code, @jit): float / // % by ±0.0
 * raise ZeroDivisionError with CPython's message at the operator, even with
 * fastmath; a NaN divisor does not raise (NaN != 0). */
static void test_float_division_by_zero_python(void **state)
{
    fx *x = *state;
    static const struct {
        const char *name;
        kir_op op;
        const char *msg;
    } ops[3] = {{"div", KIR_DIV, "float division by zero"},
                {"fdiv", KIR_FLOORDIV, "float floor division by zero"},
                {"mod", KIR_MOD, "float modulo"}};
    for (int i = 0; i < 3; i++) binop_fn(x, ops[i].name, ops[i].op, x->f64);
    kir_func *fm = fn(x, "fmdiv", x->f32, 2, x->f32, x->f32);
    ret(x, fm, 0, op_at(x, fm, 0, KIR_DIV, x->f32, param(x, fm, 0, 0), param(x, fm, 0, 1), at_line(9, 3)));
    fm->fastmath = true;
    for (uint32_t i = 0; i < x->m->nfuncs; i++) x->m->funcs[i]->py_errors = true;
    compile(x);
    kj_rt rt;
    char buf[256];
    for (int i = 0; i < 3; i++) {
        double a = 5.0, b = i == 1 ? -0.0 : 0.0, r = 0;
        void *args[2] = {&a, &b};
        assert_int_equal(call(x, ops[i].name, args, &r, &rt), KJ_RT_ZERO_DIVISION);
        assert_string_equal(rt.message, ops[i].msg);
        assert_int_equal(rt.line, 7);
        assert_int_equal(rt.col, 12);
        if (i == 2)
            assert_string_equal(kj_rt_format_error(&rt, buf, sizeof buf),
                                "prog.k:7:12: ZeroDivisionError: float modulo");
        b = NAN; /* no error: NumPy's result */
        assert_int_equal(call(x, ops[i].name, args, &r, &rt), KJ_RT_OK);
        assert_true(isnan(r));
    }
    assert_true(call_dd(x, "fdiv", -7.5, 2) == -4.0); /* nonzero divisors unchanged */
    assert_true(call_dd(x, "mod", 7.5, -2) == -0.5);
    float a32 = 1.0f, b32 = 0.0f, r32 = 0;
    void *args32[2] = {&a32, &b32};
    assert_int_equal(call(x, "fmdiv", args32, &r32, &rt), KJ_RT_ZERO_DIVISION);
    assert_string_equal(rt.message, "float division by zero");
    assert_int_equal(rt.line, 9);
    b32 = 4.0f;
    assert_int_equal(call(x, "fmdiv", args32, &r32, &rt), KJ_RT_OK);
    assert_true(r32 == 0.25f);
}

static void test_pow_shift_bitwise(void **state)
{
    fx *x = *state;
    binop_fn(x, "pow", KIR_POW, x->i64);
    binop_fn(x, "fpow", KIR_POW, x->f64);
    binop_fn(x, "shl", KIR_SHL, x->i64);
    binop_fn(x, "shr", KIR_SHR, x->i64);
    binop_fn(x, "xor", KIR_XOR, x->i64);
    compile(x);
    assert_int_equal(call_ii(x, "pow", 2, 10), 1024);
    assert_int_equal(call_ii(x, "pow", -2, 3), -8);
    assert_int_equal(call_ii(x, "pow", 3, 0), 1);
    assert_int_equal(call_ii(x, "pow", 2, 64), 0); /* wraps */
    assert_int_equal(call_ii(x, "pow", 2, -1), 0);
    assert_int_equal(call_ii(x, "pow", -1, -3), -1);
    assert_int_equal(call_ii(x, "pow", 1, -3), 1);
    kj_rt rt;
    int64_t a = 0, b = -1, r;
    void *args[2] = {&a, &b};
    assert_int_equal(call(x, "pow", args, &r, &rt), KJ_RT_ZERO_DIVISION);
    assert_string_equal(rt.message, "0 cannot be raised to a negative power");
    assert_true(call_dd(x, "fpow", 2.0, 0.5) == sqrt(2.0));
    assert_int_equal(call_ii(x, "shl", 1, 62), INT64_C(1) << 62);
    assert_int_equal(call_ii(x, "shl", 1, 64), 0);
    assert_int_equal(call_ii(x, "shr", -16, 2), -4); /* arithmetic */
    assert_int_equal(call_ii(x, "shr", -16, 100), -1);
    assert_int_equal(call_ii(x, "xor", 6, 3), 5);
}

static void test_casts(void **state)
{
    fx *x = *state;
    kir_func *f = fn(x, "f2i", x->i64, 1, x->f64);
    ret(x, f, 0, op(x, f, 0, KIR_CAST, x->i64, param(x, f, 0, 0), 0));
    f = fn(x, "f2u8", x->u8, 1, x->f64);
    ret(x, f, 0, op(x, f, 0, KIR_CAST, x->u8, param(x, f, 0, 0), 0));
    f = fn(x, "f2b", x->b, 1, x->f64);
    ret(x, f, 0, op(x, f, 0, KIR_CAST, x->b, param(x, f, 0, 0), 0));
    f = fn(x, "i2f32", x->f32, 1, x->i64);
    ret(x, f, 0, op(x, f, 0, KIR_CAST, x->f32, param(x, f, 0, 0), 0));
    compile(x);
    kj_rt rt;
    double d;
    int64_t i = 0;
    void *args[1] = {&d};
    struct { double in; int64_t out; } cases[] = {{2.9, 2}, {-2.9, -2}, {1e300, INT64_MIN}, {NAN, INT64_MIN}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        d = cases[k].in;
        assert_int_equal(call(x, "f2i", args, &i, &rt), KJ_RT_OK);
        assert_int_equal(i, cases[k].out);
    }
    uint8_t u = 0;
    d = 300.7; /* through int32, then wraps: 300 & 255 */
    assert_int_equal(call(x, "f2u8", args, &u, &rt), KJ_RT_OK);
    assert_int_equal(u, 44);
    bool bo = false;
    d = NAN; /* bool(nan) is True */
    assert_int_equal(call(x, "f2b", args, &bo, &rt), KJ_RT_OK);
    assert_true(bo);
    d = 0.0;
    assert_int_equal(call(x, "f2b", args, &bo, &rt), KJ_RT_OK);
    assert_false(bo);
    int64_t big = (INT64_C(1) << 24) + 1;
    float fl = 0;
    void *iargs[1] = {&big};
    assert_int_equal(call(x, "i2f32", iargs, &fl, &rt), KJ_RT_OK);
    assert_true(fl == 16777216.0f);
}

/* ---- control flow ---- */

/* s = 0; for i in range(n): if i % 2 == 1: continue; if i > 50: break; s += i */
static void test_loops_break_continue(void **state)
{
    fx *x = *state;
    kir_func *f = fn(x, "evens", x->i64, 1, x->i64);
    uint32_t s = kir_local_new(&x->a, f, "s", x->i64), i = kir_local_new(&x->a, f, "i", x->i64);
    kir_ref n = param(x, f, 0, 0);
    kir_blkid body = for_(x, f, 0, i, cint(x, f, 0, x->i64, 0), n, 0);
    kir_ref iv = get(x, f, body, i);
    kir_ref odd =
        op(x, f, body, KIR_EQ, x->b, op(x, f, body, KIR_MOD, x->i64, iv, cint(x, f, body, x->i64, 2)),
           cint(x, f, body, x->i64, 1));
    op(x, f, if_(x, f, body, odd, NULL), KIR_CONTINUE, x->none, 0, 0);
    kir_ref big = op(x, f, body, KIR_GT, x->b, iv, cint(x, f, body, x->i64, 50));
    op(x, f, if_(x, f, body, big, NULL), KIR_BREAK, x->none, 0, 0);
    set(x, f, body, s, op(x, f, body, KIR_ADD, x->i64, get(x, f, body, s), iv));
    ret(x, f, 0, get(x, f, 0, s));

    /* while loop: k = 0; while True: k += 1; if k * k > n: break — returns k */
    kir_func *g = fn(x, "isqrt_up", x->i64, 1, x->i64);
    uint32_t k = kir_local_new(&x->a, g, "k", x->i64);
    kir_ref gn = param(x, g, 0, 0);
    kir_ref lp = op(x, g, 0, KIR_LOOP, x->none, 0, 0);
    kir_blkid lb = kir_block_new(&x->a, g);
    kir_at(g, lp)->blk[0] = lb;
    set(x, g, lb, k, op(x, g, lb, KIR_ADD, x->i64, get(x, g, lb, k), cint(x, g, lb, x->i64, 1)));
    kir_ref kv = get(x, g, lb, k);
    kir_ref done = op(x, g, lb, KIR_GT, x->b, op(x, g, lb, KIR_MUL, x->i64, kv, kv), gn);
    op(x, g, if_(x, g, lb, done, NULL), KIR_BREAK, x->none, 0, 0);
    ret(x, g, 0, get(x, g, 0, k));
    compile(x);
    assert_int_equal(call_ii(x, "evens", 100, 0), 650); /* 0+2+...+50 */
    assert_int_equal(call_ii(x, "evens", 10, 0), 20);
    assert_int_equal(call_ii(x, "evens", 0, 0), 0);
    assert_int_equal(call_ii(x, "isqrt_up", 99, 0), 10);
}

/* s = 0; for i in range(a, b, c): s = s * 10 + i; also returns i after */
static void test_for_negative_step(void **state)
{
    fx *x = *state;
    kir_func *f = fn(x, "digits", x->i64, 3, x->i64, x->i64, x->i64);
    uint32_t s = kir_local_new(&x->a, f, "s", x->i64), i = kir_local_new(&x->a, f, "i", x->i64);
    kir_ref a = param(x, f, 0, 0), b = param(x, f, 0, 1), c = param(x, f, 0, 2);
    kir_blkid body = for_(x, f, 0, i, a, b, c);
    kir_ref iv = get(x, f, body, i);
    set(x, f, body, s, op(x, f, body, KIR_ADD, x->i64, op(x, f, body, KIR_MUL, x->i64, get(x, f, body, s),
                                                      cint(x, f, body, x->i64, 10)), iv));
    /* assigning the loop variable does not change the iteration */
    set(x, f, body, i, cint(x, f, body, x->i64, 1000));
    ret(x, f, 0, get(x, f, 0, s));
    compile(x);
    kj_rt rt;
    int64_t args3[3], r = 0;
    void *args[3] = {&args3[0], &args3[1], &args3[2]};
    struct { int64_t a, b, c, want; } cases[] = {
        {9, 0, -3, 963}, {9, 1, -3, 963}, {0, 10, -1, 0}, {1, 4, 1, 123}, {1, 8, 3, 147},
        {INT64_MAX - 2, INT64_MAX, 5, INT64_MAX - 2}, {-3, -1, 1, -32},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        args3[0] = cases[k].a, args3[1] = cases[k].b, args3[2] = cases[k].c;
        assert_int_equal(call(x, "digits", args, &r, &rt), KJ_RT_OK);
        assert_int_equal(r, cases[k].want);
    }
    args3[2] = 0;
    assert_int_equal(call(x, "digits", args, &r, &rt), KJ_RT_VALUE);
    assert_string_equal(rt.message, "range() arg 3 must not be zero");
}

/* ---- tuples, calls, recursion ---- */

static void test_tuples(void **state)
{
    fx *x = *state;
    const kj_type *el[3] = {x->i64, x->f64, x->b};
    const kj_type *tt = kj_t_tuple(x->t, el, 3);
    kir_func *f = fn(x, "stats", tt, 2, x->i64, x->f64);
    kir_ref a = param(x, f, 0, 0), b = param(x, f, 0, 1);
    kir_ref parts[3] = {op(x, f, 0, KIR_MUL, x->i64, a, a), op(x, f, 0, KIR_ADD, x->f64, b, b),
                        op(x, f, 0, KIR_GT, x->b, a, cint(x, f, 0, x->i64, 0))};
    ret(x, f, 0, with_args(x, f, 0, KIR_TUPLE, tt, 0, 3, parts));

    /* g(n) = t = stats(n, 1.5); t[0] + int(t[1]) + t[2] */
    kir_func *g = fn(x, "use", x->i64, 1, x->i64);
    kir_ref cargs[2] = {param(x, g, 0, 0), cflt(x, g, 0, x->f64, 1.5)};
    kir_ref t = with_args(x, g, 0, KIR_CALL, tt, 0, 2, cargs);
    kir_at(g, t)->fn = f;
    kir_ref t0 = op_i(x, g, 0, KIR_TUPLE_GET, x->i64, 0, t);
    t0 = op(x, g, 0, KIR_ADD, x->i64, t0,
            op(x, g, 0, KIR_CAST, x->i64, op_i(x, g, 0, KIR_TUPLE_GET, x->f64, 1, t), 0));
    kir_ref t2 = op(x, g, 0, KIR_CAST, x->i64, op_i(x, g, 0, KIR_TUPLE_GET, x->b, 2, t), 0);
    ret(x, g, 0, op(x, g, 0, KIR_ADD, x->i64, t0, t2));
    compile(x);

    struct { int64_t i; double d; bool b; } out = {0};
    int64_t n = 7;
    double d = 2.25;
    void *args[2] = {&n, &d};
    kj_rt rt;
    assert_int_equal(call(x, "stats", args, &out, &rt), KJ_RT_OK);
    assert_int_equal(out.i, 49);
    assert_true(out.d == 4.5);
    assert_true(out.b);
    assert_int_equal(call_ii(x, "use", 7, 0), 49 + 3 + 1);
    assert_int_equal(call_ii(x, "use", -2, 0), 4 + 3 + 0);
}

/* fib(n) = n if n < 2 else fib(n-1) + fib(n-2) */
static void test_recursion(void **state)
{
    fx *x = *state;
    kir_func *f = fn(x, "fib", x->i64, 1, x->i64);
    kir_ref n = param(x, f, 0, 0);
    kir_blkid then = if_(x, f, 0, op(x, f, 0, KIR_LT, x->b, n, cint(x, f, 0, x->i64, 2)), NULL);
    ret(x, f, then, n);
    kir_ref a1 = op(x, f, 0, KIR_SUB, x->i64, n, cint(x, f, 0, x->i64, 1));
    kir_ref a2 = op(x, f, 0, KIR_SUB, x->i64, n, cint(x, f, 0, x->i64, 2));
    kir_ref c1 = with_args(x, f, 0, KIR_CALL, x->i64, 0, 1, &a1);
    kir_ref c2 = with_args(x, f, 0, KIR_CALL, x->i64, 0, 1, &a2);
    kir_at(f, c1)->fn = f;
    kir_at(f, c2)->fn = f;
    ret(x, f, 0, op(x, f, 0, KIR_ADD, x->i64, c1, c2));
    compile(x);
    assert_int_equal(call_ii(x, "fib", 20, 0), 6765);
    assert_int_equal(call_ii(x, "fib", 1, 0), 1);
}

static void test_assert(void **state)
{
    fx *x = *state;
    kir_func *f = fn(x, "check", x->none, 1, x->i64);
    kir_ref c = op(x, f, 0, KIR_GE, x->b, param(x, f, 0, 0), cint(x, f, 0, x->i64, 0));
    kir_ref a = op_at(x, f, 0, KIR_ASSERT, x->none, c, 0, at_line(3, 5));
    kir_at(f, a)->s = "n must be non-negative";
    compile(x);
    kj_rt rt;
    int64_t n = 1;
    void *args[1] = {&n};
    assert_int_equal(call(x, "check", args, NULL, &rt), KJ_RT_OK);
    n = -1;
    assert_int_equal(call(x, "check", args, NULL, &rt), KJ_RT_ASSERTION);
    char buf[256];
    assert_string_equal(kj_rt_format_error(&rt, buf, sizeof buf),
                        "prog.k:3:5: AssertionError: n must be non-negative");
}

/* ---- math ---- */

static kir_ref call1(fx *x, kir_func *f, kj_builtin id, const kj_type *ty, kir_ref a)
{
    return builtin(x, f, 0, id, ty, 1, &a);
}

static void test_math_f32(void **state)
{
    fx *x = *state;
    /* f(x) = sin(x)*cos(x) + sqrt(x) + exp(x) + tan(x) + lgamma(x) + erf(x) */
    kir_func *f = fn(x, "mix", x->f32, 1, x->f32);
    kir_ref p = param(x, f, 0, 0);
    kir_ref v =
        op(x, f, 0, KIR_MUL, x->f32, call1(x, f, KJ_B_SIN, x->f32, p), call1(x, f, KJ_B_COS, x->f32, p));
    kj_builtin more[] = {KJ_B_SQRT, KJ_B_EXP, KJ_B_TAN, KJ_B_LGAMMA, KJ_B_ERF, KJ_B_ATANH};
    for (size_t k = 0; k < sizeof more / sizeof more[0]; k++)
        v = op(x, f, 0, KIR_ADD, x->f32, v, call1(x, f, more[k], x->f32, p));
    ret(x, f, 0, v);
    /* g(x) = floor(x) (int64), round(x) (int64) packed as floor*1000 + round */
    kir_func *g = fn(x, "fr", x->i64, 1, x->f64);
    kir_ref q = param(x, g, 0, 0);
    kir_ref fl = call1(x, g, KJ_B_FLOOR, x->i64, q), rd = call1(x, g, KJ_B_ROUND, x->i64, q);
    ret(x, g, 0,
        op(x, g, 0, KIR_ADD, x->i64, op(x, g, 0, KIR_MUL, x->i64, fl, cint(x, g, 0, x->i64, 1000)), rd));
    /* h(a, b) = min(a, b) - as Python: keeps a unless b < a */
    kir_func *h = fn(x, "pymin", x->f64, 2, x->f64, x->f64);
    kir_ref hab[2] = {param(x, h, 0, 0), param(x, h, 0, 1)};
    ret(x, h, 0, builtin(x, h, 0, KJ_B_MIN, x->f64, 2, hab));
    kir_func *k2 = fn(x, "npmin", x->f64, 2, x->f64, x->f64);
    kir_ref kab[2] = {param(x, k2, 0, 0), param(x, k2, 0, 1)};
    ret(x, k2, 0, builtin(x, k2, 0, KJ_B_NP_MINIMUM, x->f64, 2, kab));
    kir_func *nan = fn(x, "isnan", x->b, 1, x->f64);
    ret(x, nan, 0, call1(x, nan, KJ_B_ISNAN, x->b, param(x, nan, 0, 0)));
    compile(x);

    kj_rt rt;
    float in = 0.7f, out = 0;
    void *args[1] = {&in};
    assert_int_equal(call(x, "mix", args, &out, &rt), KJ_RT_OK);
    float want = sinf(in) * cosf(in) + sqrtf(in) + expf(in) + tanf(in) + lgammaf(in) + erff(in) + atanhf(in);
    assert_true(fabsf(out - want) <= 4e-6f * fabsf(want));

    double d;
    int64_t r = 0;
    void *dargs[1] = {&d};
    struct { double in; int64_t want; } cases[] = {
        {2.5, 2002}, {3.5, 3004}, {-2.5, -3000 - 2}, {-0.5, -1000}, {7.7, 7008},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        d = cases[k].in;
        assert_int_equal(call(x, "fr", dargs, &r, &rt), KJ_RT_OK);
        assert_int_equal(r, cases[k].want);
    }
    assert_true(call_dd(x, "pymin", 1.0, 2.0) == 1.0);
    assert_true(isnan(call_dd(x, "pymin", NAN, 1.0)));  /* 1 < nan is false: keeps nan */
    assert_true(call_dd(x, "pymin", 1.0, NAN) == 1.0);  /* nan < 1 is false: keeps 1 */
    assert_true(isnan(call_dd(x, "npmin", 1.0, NAN)));  /* NumPy propagates */
    assert_true(isnan(call_dd(x, "npmin", NAN, 1.0)));
    bool isn = false;
    d = NAN;
    assert_int_equal(call(x, "isnan", dargs, &isn, &rt), KJ_RT_OK);
    assert_true(isn);
}

/* A function using an unsupported built-in is reported, located. */
static void test_unsupported_builtin(void **state)
{
    fx *x = *state;
    kir_func *f = fn(x, "f", x->none, 0);
    kir_ref r = builtin(x, f, 0, KJ_B_SYNCTHREADS, x->none, 0, NULL);
    kir_at(f, r)->span = at_line(4, 9);
    kj_codegen_opts o = {.opt_level = 1, .verify = true};
    assert_null(kj_codegen_host(x->m, &o, &x->d));
    assert_int_equal(x->d.nerrors, 1);
    assert_string_equal(x->d.v[0].msg,
                        "built-in 'cuda.syncthreads' is not supported by the host code generator yet");
    assert_int_equal(x->d.v[0].span.line, 4);
}

/* ---- arrays ---- */

static const kj_type *arr(fx *x, const kj_type *el, int nd, kj_layout l)
{
    return kj_t_array(x->t, el, nd, l);
}

/* sum(a) = s = 0; for i in range(len(a)): s += a[i] (with bounds checks) */
static kir_func *sum_fn(fx *x, const char *name, const kj_type *at)
{
    kir_func *f = fn(x, name, x->f64, 1, at);
    uint32_t s = kir_local_new(&x->a, f, "s", x->f64), i = kir_local_new(&x->a, f, "i", x->i64);
    kir_ref a = param(x, f, 0, 0);
    kir_ref n = op_i(x, f, 0, KIR_ARRAY_DIM, x->i64, 0, a);
    kir_blkid body = for_(x, f, 0, i, cint(x, f, 0, x->i64, 0), n, 0);
    kir_ref iv = get(x, f, body, i);
    kir_ref el = with_args(x, f, body, KIR_ARRAY_LOAD, at->elem, a, 1, &iv);
    set(x, f, body, s, op(x, f, body, KIR_ADD, x->f64, get(x, f, body, s), el));
    ret(x, f, 0, get(x, f, 0, s));
    return f;
}

static void test_array_sum_and_views(void **state)
{
    fx *x = *state;
    const kj_type *ac = arr(x, x->f64, 1, KJ_LAYOUT_C), *aa = arr(x, x->f64, 1, KJ_LAYOUT_A);
    kir_func *sum = sum_fn(x, "sum_c", ac);
    kir_func *suma = sum_fn(x, "sum_a", aa);
    (void)sum;
    /* every_other(a) = sum_a(a[1::2]) */
    kir_func *g = fn(x, "odd_sum", x->f64, 1, ac);
    kir_ref a = param(x, g, 0, 0);
    kir_ref one = cint(x, g, 0, x->i64, 1), two = cint(x, g, 0, x->i64, 2);
    kir_ref sl = op(x, g, 0, KIR_SLICE, kj_t_opaque(x->t, "slice"), one, 0);
    kir_at(g, sl)->c = two;
    kir_ref v = with_args(x, g, 0, KIR_ARRAY_VIEW, aa, a, 1, &sl);
    kir_ref c = with_args(x, g, 0, KIR_CALL, x->f64, 0, 1, &v);
    kir_at(g, c)->fn = suma;
    ret(x, g, 0, c);
    /* rev_sum(a) = sum_a(a[-2::-3]) */
    kir_func *h = fn(x, "rev_sum", x->f64, 1, ac);
    kir_ref ha = param(x, h, 0, 0);
    kir_ref m2 = cint(x, h, 0, x->i64, -2), m3 = cint(x, h, 0, x->i64, -3);
    kir_ref hs = op(x, h, 0, KIR_SLICE, kj_t_opaque(x->t, "slice"), m2, 0);
    kir_at(h, hs)->c = m3;
    kir_ref hv = with_args(x, h, 0, KIR_ARRAY_VIEW, aa, ha, 1, &hs);
    kir_ref hc = with_args(x, h, 0, KIR_CALL, x->f64, 0, 1, &hv);
    kir_at(h, hc)->fn = suma;
    ret(x, h, 0, hc);
    compile(x);

    double data[10];
    for (int k = 0; k < 10; k++) data[k] = k + 1; /* 1..10 */
    kj_abi_array d;
    int64_t shape[1] = {10}, strides[1] = {8};
    kj_abi_array_pack(&d, 1, data, shape, strides, NULL);
    void *args[1] = {&d};
    double r = 0;
    kj_rt rt;
    assert_int_equal(call(x, "sum_c", args, &r, &rt), KJ_RT_OK);
    assert_true(r == 55.0);
    assert_int_equal(call(x, "odd_sum", args, &r, &rt), KJ_RT_OK);
    assert_true(r == 2 + 4 + 6 + 8 + 10);
    assert_int_equal(call(x, "rev_sum", args, &r, &rt), KJ_RT_OK);
    assert_true(r == 9 + 6 + 3);
    /* a strided caller view: every third element, through the A-layout function */
    int64_t s3[1] = {4}, st3[1] = {24};
    kj_abi_array_pack(&d, 1, data, s3, st3, NULL);
    assert_int_equal(call(x, "sum_a", args, &r, &rt), KJ_RT_OK);
    assert_true(r == 1 + 4 + 7 + 10);
}

/* get(a, i, j) = a[i, j] on a 2-d C array with wrap + bounds checks. */
static void test_bounds_check(void **state)
{
    fx *x = *state;
    const kj_type *at = arr(x, x->i32, 2, KJ_LAYOUT_C);
    kir_func *f = fn(x, "get", x->i32, 3, at, x->i64, x->i64);
    kir_ref a = param(x, f, 0, 0);
    kir_ref idx[2];
    for (int k = 0; k < 2; k++) {
        kir_ref n = op_i(x, f, 0, KIR_ARRAY_DIM, x->i64, k, a);
        kir_ref w = op(x, f, 0, KIR_WRAP_INDEX, x->i64, param(x, f, 0, 1 + k), n);
        kir_ref bc = op_at(x, f, 0, KIR_BOUNDS_CHECK, x->none, w, n, at_line(12, 8 + k));
        kir_at(f, bc)->i = k;
        idx[k] = w;
    }
    ret(x, f, 0, with_args(x, f, 0, KIR_ARRAY_LOAD, x->i32, a, 2, idx));
    compile(x);

    int32_t data[10 * 3];
    for (int k = 0; k < 30; k++) data[k] = k;
    kj_abi_array d;
    int64_t shape[2] = {10, 3}, strides[2] = {12, 4};
    kj_abi_array_pack(&d, 2, data, shape, strides, NULL);
    int64_t i, j;
    int32_t r = 0;
    void *args[3] = {&d, &i, &j};
    kj_rt rt;
    i = 4, j = 2;
    assert_int_equal(call(x, "get", args, &r, &rt), KJ_RT_OK);
    assert_int_equal(r, 14);
    i = -1, j = -3;
    assert_int_equal(call(x, "get", args, &r, &rt), KJ_RT_OK);
    assert_int_equal(r, 27);
    i = 10, j = 0;
    assert_int_equal(call(x, "get", args, &r, &rt), KJ_RT_INDEX);
    char buf[256];
    assert_string_equal(kj_rt_format_error(&rt, buf, sizeof buf),
                        "prog.k:12:8: IndexError: index 10 is out of bounds for axis 0 with size 10");
    i = 0, j = -4;
    assert_int_equal(call(x, "get", args, &r, &rt), KJ_RT_INDEX);
    assert_string_equal(rt.message, "index -4 is out of bounds for axis 1 with size 3");
}

/* fill(a) = a[1:-1] = 7.0; copy(a, b) = a[::2] = b */
static void test_slice_assign(void **state)
{
    fx *x = *state;
    const kj_type *ac = arr(x, x->f64, 1, KJ_LAYOUT_C), *aa = arr(x, x->f64, 1, KJ_LAYOUT_A);
    const kj_type *sl = kj_t_opaque(x->t, "slice");
    kir_func *f = fn(x, "fill", x->none, 1, ac);
    kir_ref s = op(x, f, 0, KIR_SLICE, sl, cint(x, f, 0, x->i64, 1), cint(x, f, 0, x->i64, -1));
    kir_ref v = with_args(x, f, 0, KIR_ARRAY_VIEW, aa, param(x, f, 0, 0), 1, &s);
    op(x, f, 0, KIR_ARRAY_STORE, x->none, v, cflt(x, f, 0, x->f64, 7.0));
    kir_func *g = fn(x, "copy", x->none, 2, ac, ac);
    kir_ref two = cint(x, g, 0, x->i64, 2);
    kir_ref gs = op(x, g, 0, KIR_SLICE, sl, 0, 0);
    kir_at(g, gs)->c = two;
    kir_ref gv = with_args(x, g, 0, KIR_ARRAY_VIEW, aa, param(x, g, 0, 0), 1, &gs);
    op_at(x, g, 0, KIR_ARRAY_STORE, x->none, gv, param(x, g, 0, 1), at_line(5, 3));
    compile(x);

    double data[6] = {0}, src[3] = {1, 2, 3};
    kj_abi_array d, e;
    int64_t shape[1] = {6}, strides[1] = {8}, s3[1] = {3}, s2[1] = {2};
    kj_abi_array_pack(&d, 1, data, shape, strides, NULL);
    void *args[2] = {&d, &e};
    kj_rt rt;
    assert_int_equal(call(x, "fill", args, NULL, &rt), KJ_RT_OK);
    double want[6] = {0, 7, 7, 7, 7, 0};
    assert_memory_equal(data, want, sizeof want);
    kj_abi_array_pack(&e, 1, src, s3, strides, NULL);
    assert_int_equal(call(x, "copy", args, NULL, &rt), KJ_RT_OK);
    double want2[6] = {1, 7, 2, 7, 3, 0};
    assert_memory_equal(data, want2, sizeof want2);
    kj_abi_array_pack(&e, 1, src, s2, strides, NULL);
    assert_int_equal(call(x, "copy", args, NULL, &rt), KJ_RT_VALUE);
    assert_string_equal(rt.message, "could not broadcast input array from shape (2,) into shape (3,)");
}

/* kernel(a, b, out): for i in range(len(a)): out[i] = a[i]*b[i] + sin(a[i]) + cos(b[i]) */
static void test_vector_loop_f32(void **state)
{
    fx *x = *state;
    const kj_type *at = arr(x, x->f32, 1, KJ_LAYOUT_C);
    kir_func *f = fn(x, "kernel", x->none, 3, at, at, at);
    uint32_t i = kir_local_new(&x->a, f, "i", x->i64);
    kir_ref a = param(x, f, 0, 0), b = param(x, f, 0, 1), o = param(x, f, 0, 2);
    kir_blkid body =
        for_(x, f, 0, i, cint(x, f, 0, x->i64, 0), op_i(x, f, 0, KIR_ARRAY_DIM, x->i64, 0, a), 0);
    kir_ref iv = get(x, f, body, i);
    kir_ref av = with_args(x, f, body, KIR_ARRAY_LOAD, x->f32, a, 1, &iv);
    kir_ref bv = with_args(x, f, body, KIR_ARRAY_LOAD, x->f32, b, 1, &iv);
    kir_ref sa = builtin(x, f, body, KJ_B_SIN, x->f32, 1, &av),
            cb = builtin(x, f, body, KJ_B_COS, x->f32, 1, &bv);
    kir_ref v = op(x, f, body, KIR_ADD, x->f32, op(x, f, body, KIR_ADD, x->f32,
                                                   op(x, f, body, KIR_MUL, x->f32, av, bv), sa), cb);
    kir_ref st = with_args(x, f, body, KIR_ARRAY_STORE, x->none, o, 1, &iv);
    kir_at(f, st)->b = v;
    kj_codegen_opts opts = {.opt_level = 3, .verify = true, .keep_asm = true, .keep_ir = true};
    compile_opts(x, &opts);

    const int64_t n = 10 * 1000 * 1000;
    float *pa = malloc(n * sizeof *pa), *pb = malloc(n * sizeof *pb), *po = malloc(n * sizeof *po);
    for (int64_t k = 0; k < n; k++) {
        pa[k] = (float)(k % 1000) * 0.001f;
        pb[k] = (float)(k % 777) * 0.002f;
    }
    kj_abi_array da, db, dout;
    int64_t shape[1] = {n}, strides[1] = {4};
    kj_abi_array_pack(&da, 1, pa, shape, strides, NULL);
    kj_abi_array_pack(&db, 1, pb, shape, strides, NULL);
    kj_abi_array_pack(&dout, 1, po, shape, strides, NULL);
    void *args[3] = {&da, &db, &dout};
    kj_rt rt;
    assert_int_equal(call(x, "kernel", args, NULL, &rt), KJ_RT_OK);
    for (int64_t k = 0; k < n; k += 9973) {
        float want = pa[k] * pb[k] + sinf(pa[k]) + cosf(pb[k]);
        if (fabsf(po[k] - want) > 2e-6f * fmaxf(1.0f, fabsf(want)))
            fail_msg("out[%lld] = %.9g, want %.9g", (long long)k, po[k], want);
    }
    free(pa);
    free(pb);
    free(po);
    /* the loop is vectorised: packed multiplies on vector registers */
    const char *asm_text = kj_jit_asm(x->jit);
    assert_non_null(asm_text);
    assert_non_null(strstr(asm_text, "vmulps"));
    assert_true(strstr(asm_text, "ymm") || strstr(asm_text, "zmm"));
    assert_non_null(kj_jit_ir(x->jit));
    if (getenv("KJ_DUMP")) fprintf(stderr, "%s\n%s\n", kj_jit_ir(x->jit), asm_text);
    assert_non_null(strstr(kj_jit_ir(x->jit), " x float>")); /* vector IR */
}

/* The object file can be loaded into a fresh JIT (what the cache does). */
static void test_object_roundtrip(void **state)
{
    fx *x = *state;
    binop_fn(x, "fdiv", KIR_FLOORDIV, x->i64);
    kj_codegen_opts o = {.opt_level = 2, .keep_object = true};
    compile_opts(x, &o);
    size_t n;
    const void *obj = kj_jit_object(x->jit, &n);
    assert_non_null(obj);
    char err[256];
    kj_jit *j2 = kj_jit_from_object(obj, n, err, sizeof err);
    assert_non_null(j2);
    kj_entry_fn f = kj_jit_lookup(j2, "fdiv");
    assert_non_null(f);
    assert_null(kj_jit_lookup(j2, "nope"));
    int64_t a = -9, b = 4, r = 0;
    void *args[2] = {&a, &b};
    kj_rt rt;
    kj_rt_init(&rt, NULL);
    assert_int_equal(kj_rt_call_entry(&rt, f, args, &r), KJ_RT_OK);
    assert_int_equal(r, -3);
    kj_jit_free(j2);
}

/* fastmath, unsigned arithmetic, bool arrays (one byte per element), select */
static void test_fastmath_unsigned_bools(void **state)
{
    fx *x = *state;
    kir_func *f = fn(x, "fm", x->f32, 2, x->f32, x->f32);
    f->fastmath = true;
    ret(x, f, 0,
        op(x, f, 0, KIR_ADD, x->f32, op(x, f, 0, KIR_MUL, x->f32, param(x, f, 0, 0), param(x, f, 0, 1)),
           param(x, f, 0, 1)));
    const kj_type *u64 = kj_t_int(x->t, 64, false);
    binop_fn(x, "udiv", KIR_FLOORDIV, u64);
    binop_fn(x, "ushr", KIR_SHR, u64);
    /* count(mask) = number of True; also flips every element in place */
    const kj_type *bt = arr(x, x->b, 1, KJ_LAYOUT_C);
    kir_func *g = fn(x, "count", x->i64, 1, bt);
    uint32_t c = kir_local_new(&x->a, g, "c", x->i64), i = kir_local_new(&x->a, g, "i", x->i64);
    kir_ref m = param(x, g, 0, 0);
    kir_blkid body =
        for_(x, g, 0, i, cint(x, g, 0, x->i64, 0), op_i(x, g, 0, KIR_ARRAY_DIM, x->i64, 0, m), 0);
    kir_ref iv = get(x, g, body, i);
    kir_ref v = with_args(x, g, body, KIR_ARRAY_LOAD, x->b, m, 1, &iv);
    kir_ref one = cint(x, g, body, x->i64, 1), zero = cint(x, g, body, x->i64, 0);
    kir_ref inc = op(x, g, body, KIR_SELECT, x->i64, v, one);
    kir_at(g, inc)->c = zero;
    set(x, g, body, c, op(x, g, body, KIR_ADD, x->i64, get(x, g, body, c), inc));
    kir_ref nv = op(x, g, body, KIR_NOT, x->b, v, 0);
    kir_ref st = with_args(x, g, body, KIR_ARRAY_STORE, x->none, m, 1, &iv);
    kir_at(g, st)->b = nv;
    ret(x, g, 0, get(x, g, 0, c));
    kj_codegen_opts o = {.opt_level = 0, .verify = true, .keep_ir = true};
    compile_opts(x, &o);

    assert_non_null(strstr(kj_jit_ir(x->jit), "fmul fast float"));
    assert_int_equal((uint64_t)call_ii(x, "udiv", (int64_t)UINT64_MAX, 2), UINT64_MAX / 2);
    assert_int_equal((uint64_t)call_ii(x, "ushr", (int64_t)UINT64_MAX, 60), 15);
    bool mask[5] = {true, false, true, true, false};
    kj_abi_array d;
    int64_t shape[1] = {5}, strides[1] = {1};
    kj_abi_array_pack(&d, 1, mask, shape, strides, NULL);
    void *args[1] = {&d};
    int64_t r = 0;
    kj_rt rt;
    assert_int_equal(call(x, "count", args, &r, &rt), KJ_RT_OK);
    assert_int_equal(r, 3);
    bool want[5] = {false, true, false, false, true};
    assert_memory_equal(mask, want, sizeof want);
}

/* Compiles on several threads at once: each has its own LLVM context and
 * JIT (run under ThreadSanitizer/ASan to catch shared state). */
static void *compile_thread(void *arg)
{
    int64_t *result = arg;
    fx *x;
    setup((void **)&x);
    binop_fn(x, "pow", KIR_POW, x->i64);
    kj_codegen_opts o = {.opt_level = 2, .verify = true};
    x->jit = kj_codegen_host(x->m, &o, &x->d);
    *result = x->jit ? call_ii(x, "pow", 3, 4) : -1;
    teardown((void **)&x);
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    enum { N = 4 };
    pthread_t th[N];
    int64_t res[N];
    for (int k = 0; k < N; k++) assert_int_equal(pthread_create(&th[k], NULL, compile_thread, &res[k]), 0);
    for (int k = 0; k < N; k++) {
        pthread_join(th[k], NULL);
        assert_int_equal(res[k], 81);
    }
}

/* ---- from source, through the front end ---- */

static const char *program =
    "from numba import jit, float32\n"                        /* 1 */
    "import math\n"                                           /* 2 */
    "\n"                                                      /* 3 */
    "@jit\n"                                                  /* 4 */
    "def fib(n):\n"                                           /* 5 */
    "    if n < 2:\n"                                         /* 6 */
    "        return n\n"                                      /* 7 */
    "    return fib(n - 1) + fib(n - 2)\n"                    /* 8 */
    "\n"                                                      /* 9 */
    "@jit('float32(float32[:], float32[:])', boundscheck=True)\n" /* 10 */
    "def dot(a, b):\n"                                        /* 11 */
    "    s = float32(0)\n"                                    /* 12 */
    "    for i in range(len(a)):\n"                           /* 13 */
    "        s += a[i] * b[i]\n"                              /* 14 */
    "    return s\n"                                          /* 15 */
    "\n"                                                      /* 16 */
    "def divmod2(a, b):\n"                                    /* 17 */
    "    return a // b, a % b\n"                              /* 18 */
    "\n"                                                      /* 19 */
    "def main(n=10):\n"                                       /* 20 */
    "    x = fib(n)\n"                                        /* 21 */
    "    q, r = divmod2(x, n - 10)\n"                         /* 22 */
    "    assert r >= 0, 'negative remainder'\n";              /* 23 */

/* Replace the fixture's module by the program's KIR. */
static void analyze_source(fx *x, const char *text)
{
    x->src = (kj_source){.path = "prog.k", .text = text, .len = strlen(text)};
    /* the compile pipeline's stages of KIR, for the cpu (src/ir/pipeline.h) */
    static const kj_sema_options o = {.boundscheck = -1, .npy_info = kj_npy_header_info};
    kj_ir_unit u = {.a = &x->a, .types = x->t, .src = &x->src, .sopt = &o, .target = KJ_RUN_CPU};
    x->m = kj_ir_stages(&u, KJ_STAGE_PARSE, KJ_STAGE_END, &x->d) ? u.kir : NULL;
    if (!x->m) {
        kj_diags_print(&x->d, stderr, KJ_DIAG_SHORT);
        fail_msg("the program does not analyze");
    }
}

static const char *mangled(fx *x, const char *name)
{
    for (uint32_t k = 0; k < x->m->nfuncs; k++)
        if (strcmp(x->m->funcs[k]->name, name) == 0) return x->m->funcs[k]->mangled;
    fail_msg("no function %s", name);
    return NULL;
}

/* The host tables (kj_cg_run): each target's is complete — every hook but
 * the coherence checks, which only the GPU's has — and kj_cg_run_of picks
 * it, the cpu's when none is named. */
static void test_host_tables(void **state)
{
    (void)state;
    /* (tables compared by name: the test may hold its own copy of them) */
    const kj_run_target targets[] = {KJ_RUN_CPU, KJ_RUN_PARALLEL, KJ_RUN_CUDA};
    for (unsigned k = 0; k < 3; k++) {
        const kj_cg_run *r = kj_cg_run_of(targets[k]);
        assert_string_equal(r->name, kj_run_target_name(targets[k]));
        assert_true(r->parallel_loops && r->stream_new && r->stream_sync && r->synchronize && r->to_device &&
                    r->copy_to_host && r->device_array);
        assert_int_equal(r->host_access != NULL, targets[k] == KJ_RUN_CUDA);
        assert_int_equal(r->hoist_access != NULL, targets[k] == KJ_RUN_CUDA);
        assert_int_equal(r->host_kernels, targets[k] != KJ_RUN_CUDA);
        assert_int_equal(r->parallel_blocks, targets[k] == KJ_RUN_PARALLEL);
    }
    assert_string_equal(kj_cg_run_of(KJ_RUN_DEFAULT)->name, "cpu");
}

static void test_source_program(void **state)
{
    fx *x = *state;
    analyze_source(x, program);
    compile(x);
    assert_int_equal(call_ii(x, mangled(x, "fib"), 20, 0), 6765);

    struct { int64_t q, r; } qr;
    int64_t a = -7, b = 2;
    void *args[2] = {&a, &b};
    kj_rt rt;
    assert_int_equal(call(x, mangled(x, "divmod2"), args, &qr, &rt), KJ_RT_OK);
    assert_int_equal(qr.q, -4);
    assert_int_equal(qr.r, 1);

    /* main(n): n = 10 divides by zero at line 18 (in divmod2) */
    int64_t n = 12;
    void *margs[1] = {&n};
    assert_int_equal(call(x, mangled(x, "main"), margs, NULL, &rt), KJ_RT_OK);
    n = 10;
    assert_int_equal(call(x, mangled(x, "main"), margs, NULL, &rt), KJ_RT_ZERO_DIVISION);
    assert_int_equal(rt.line, 18);

    float fa[4] = {1, 2, 3, 4}, fb[4] = {1, 1, 1, 1};
    kj_abi_array da, db;
    int64_t s4[1] = {4}, s3[1] = {3}, st[1] = {4};
    kj_abi_array_pack(&da, 1, fa, s4, st, NULL);
    kj_abi_array_pack(&db, 1, fb, s4, st, NULL);
    void *dargs[2] = {&da, &db};
    float r = 0;
    assert_int_equal(call(x, mangled(x, "dot"), dargs, &r, &rt), KJ_RT_OK);
    assert_true(r == 10.0f);
    kj_abi_array_pack(&db, 1, fb, s3, st, NULL);
    assert_int_equal(call(x, mangled(x, "dot"), dargs, &r, &rt), KJ_RT_INDEX);
    char buf[256];
    assert_string_equal(kj_rt_format_error(&rt, buf, sizeof buf),
                        "prog.k:14:23: IndexError: index 3 is out of bounds for axis 0 with size 3");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_int_floordiv_mod, setup, teardown),
        cmocka_unit_test_setup_teardown(test_int_division_by_zero, setup, teardown),
        cmocka_unit_test_setup_teardown(test_float_floordiv_mod, setup, teardown),
        cmocka_unit_test_setup_teardown(test_float_division_by_zero_python, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pow_shift_bitwise, setup, teardown),
        cmocka_unit_test_setup_teardown(test_casts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_loops_break_continue, setup, teardown),
        cmocka_unit_test_setup_teardown(test_for_negative_step, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tuples, setup, teardown),
        cmocka_unit_test_setup_teardown(test_recursion, setup, teardown),
        cmocka_unit_test_setup_teardown(test_assert, setup, teardown),
        cmocka_unit_test_setup_teardown(test_math_f32, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unsupported_builtin, setup, teardown),
        cmocka_unit_test_setup_teardown(test_array_sum_and_views, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bounds_check, setup, teardown),
        cmocka_unit_test_setup_teardown(test_slice_assign, setup, teardown),
        cmocka_unit_test_setup_teardown(test_vector_loop_f32, setup, teardown),
        cmocka_unit_test_setup_teardown(test_object_roundtrip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fastmath_unsigned_bools, setup, teardown),
        cmocka_unit_test_setup_teardown(test_source_program, setup, teardown),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_host_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
