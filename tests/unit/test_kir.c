/* SPDX-License-Identifier: BSD-2-Clause */
/* KIR: building functions by hand, verifying them, printing them; and the
 * verifier rejecting each class of malformed IR with a precise message. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "ir/builtins.h"
#include "ir/kir.h"
#include "ir/types.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct fx {
    kj_arena a;
    kj_types *t;
    kir_module *m;
    const kj_type *i64, *i32, *f32, *f64, *b, *none, *str;
} fx;

static int setup(void **state)
{
    fx *x = calloc(1, sizeof *x);
    kj_arena_init(&x->a);
    x->t = kj_types_new(&x->a);
    x->m = kir_module_new(&x->a, NULL);
    x->i64 = kj_t_int(x->t, 64, true);
    x->i32 = kj_t_int(x->t, 32, true);
    x->f32 = kj_t_float(x->t, 32);
    x->f64 = kj_t_float(x->t, 64);
    x->b = kj_t_bool(x->t);
    x->none = kj_t_none(x->t);
    x->str = kj_t_str(x->t);
    *state = x;
    return 0;
}

static int teardown(void **state)
{
    fx *x = *state;
    kj_arena_free(&x->a);
    free(x);
    return 0;
}

static const kj_span SP = {0};

/* A function with parameters (types and names, n of them) and a return type. */
static kir_func *fn(fx *x, kir_fn_kind kind, const char *name, const char *mangled, const kj_type *ret,
                    uint32_t n, const kj_type *const *types, const char *const *names)
{
    kir_func *f = kir_func_new(&x->a, x->m, name, mangled, kind);
    f->ret = ret;
    f->nparams = n;
    f->params = KJ_NEWN(&x->a, const kj_type *, n ? n : 1);
    f->param_names = KJ_NEWN(&x->a, const char *, n ? n : 1);
    for (uint32_t k = 0; k < n; k++) {
        f->params[k] = types[k];
        f->param_names[k] = names[k];
    }
    return f;
}

/* op with operands a, b (0 = none) in block blk. */
static kir_ref emit(fx *x, kir_func *f, kir_blkid blk, kir_op op, const kj_type *ty, kir_ref a, kir_ref b)
{
    kir_ref r = kir_emit(&x->a, f, blk, op, ty, SP);
    kir_at(f, r)->a = a;
    kir_at(f, r)->b = b;
    return r;
}

static kir_ref emit_i(fx *x, kir_func *f, kir_blkid blk, kir_op op, const kj_type *ty, int64_t i, kir_ref a)
{
    kir_ref r = emit(x, f, blk, op, ty, a, 0);
    kir_at(f, r)->i = i;
    return r;
}

static kir_ref cint(fx *x, kir_func *f, kir_blkid blk, const kj_type *ty, int64_t v)
{
    return emit_i(x, f, blk, KIR_CONST_INT, ty, v, 0);
}

static kir_ref cfloat(fx *x, kir_func *f, kir_blkid blk, const kj_type *ty, double v)
{
    kir_ref r = emit(x, f, blk, KIR_CONST_FLOAT, ty, 0, 0);
    kir_at(f, r)->f = v;
    return r;
}

static kir_ref param(fx *x, kir_func *f, kir_blkid blk, uint32_t i)
{
    return emit_i(x, f, blk, KIR_PARAM, f->params[i], i, 0);
}

/* An instruction with an argument list (TUPLE, LOAD, CALL, BUILTIN, ...). */
static kir_ref emit_args(fx *x, kir_func *f, kir_blkid blk, kir_op op, const kj_type *ty, kir_ref a,
                         uint32_t n, const kir_ref *args)
{
    kir_ref r = emit(x, f, blk, op, ty, a, 0);
    kir_at(f, r)->args = kir_refs(&x->a, args, n);
    kir_at(f, r)->nargs = n;
    return r;
}

static kir_ref ret(fx *x, kir_func *f, kir_blkid blk, kir_ref v)
{
    return emit(x, f, blk, KIR_RETURN, x->none, v, 0);
}

/* IF cond with new then/else blocks (else omitted when !with_else). */
static kir_ref emit_if(fx *x, kir_func *f, kir_blkid blk, kir_ref cond, bool with_else, kir_blkid *then,
                       kir_blkid *els)
{
    kir_ref r = emit(x, f, blk, KIR_IF, x->none, cond, 0);
    *then = kir_block_new(&x->a, f);
    kir_at(f, r)->blk[0] = *then;
    if (with_else) {
        *els = kir_block_new(&x->a, f);
        kir_at(f, r)->blk[1] = *els;
    }
    return r;
}

static void expect_ir(const kir_func *f, const char *want)
{
    kj_buf b = {0};
    kir_print_func(f, &b);
    char *got = kj_buf_take(&b);
    assert_string_equal(got, want);
    free(got);
}

static void expect_valid(fx *x, const kir_func *f)
{
    const char *why = kir_verify(&x->a, f);
    if (why) fail_msg("unexpected verifier error: %s", why);
}

static void expect_invalid(fx *x, const kir_func *f, const char *want)
{
    const char *why = kir_verify(&x->a, f);
    assert_non_null(why);
    assert_string_equal(why, want);
}

/* ---- building, verifying and printing ---- */

static void test_reserved_ref_and_body(void **state)
{
    fx *x = *state;
    kir_func *f = fn(x, KIR_FN_HOST, "f", "f[]", x->none, 0, NULL, NULL);
    assert_int_equal(f->ninsts, 1);
    assert_int_equal(f->insts[0].op, KIR_NOP);
    assert_int_equal(f->nblocks, 1);
    assert_int_equal(f->blocks[0].n, 0);
    assert_int_equal(x->m->nfuncs, 1);
    assert_ptr_equal(x->m->funcs[0], f);
    assert_int_equal(kir_local_new(&x->a, f, "a", x->i64), 0);
    assert_int_equal(kir_local_new(&x->a, f, "b", x->i64), 1);
    assert_int_equal(kir_block_new(&x->a, f), 1);
    kir_ref r = cint(x, f, 0, x->i64, 7);
    assert_int_equal(r, 1);
    assert_int_equal(f->blocks[0].n, 1);
    assert_int_equal(f->blocks[0].v[0], 1);
    assert_string_equal(kir_op_name(KIR_ADD), "add");
    assert_string_equal(kir_op_name(KIR_TUPLE_GET), "tuple_get");
    assert_string_equal(kir_op_name(KIR_CONST_NONE), "none");
    /* mangled defaults to the name */
    kir_func *g = kir_func_new(&x->a, NULL, "g", NULL, KIR_FN_DEVICE);
    assert_string_equal(g->mangled, "g");
    assert_int_equal(x->m->nfuncs, 1);
}

static void test_many_insts_grow(void **state)
{
    fx *x = *state;
    kir_func *f = fn(x, KIR_FN_HOST, "f", "f[]", x->i64, 0, NULL, NULL);
    kir_ref prev = cint(x, f, 0, x->i64, 0);
    for (int k = 1; k < 1000; k++) prev = emit(x, f, 0, KIR_ADD, x->i64, prev, prev);
    ret(x, f, 0, prev);
    assert_int_equal(f->ninsts, 1001 + 1);
    assert_int_equal(f->blocks[0].n, 1001);
    assert_int_equal(f->insts[500].a, 499);
    expect_valid(x, f);
}

static void test_arith(void **state)
{
    fx *x = *state;
    const kj_type *pt[] = {x->i64, x->i64};
    kir_func *f = fn(x, KIR_FN_HOST, "add", "add[int64,int64]", x->i64, 2, pt, (const char *[]){"a", "b"});
    kir_ref a = param(x, f, 0, 0), b = param(x, f, 0, 1);
    kir_ref s = emit(x, f, 0, KIR_ADD, x->i64, a, b);
    kir_ref two = cint(x, f, 0, x->i64, 2);
    kir_ref m = emit(x, f, 0, KIR_MUL, x->i64, s, two);
    kir_ref n = emit(x, f, 0, KIR_NEG, x->i64, m, 0);
    ret(x, f, 0, n);
    expect_valid(x, f);
    expect_ir(f, "host add[int64,int64](a: int64, b: int64) -> int64\n"
                 "  %1 = param a : int64\n"
                 "  %2 = param b : int64\n"
                 "  %3 = add %1, %2 : int64\n"
                 "  %4 = const 2 : int64\n"
                 "  %5 = mul %3, %4 : int64\n"
                 "  %6 = neg %5 : int64\n"
                 "  return %6\n");
}

static void test_if_else(void **state)
{
    fx *x = *state;
    kir_func *f = fn(x, KIR_FN_HOST, "absf", "absf[float32]", x->f32, 1, &x->f32, (const char *[]){"x"});
    uint32_t r = kir_local_new(&x->a, f, "r", x->f32);
    kir_ref p = param(x, f, 0, 0);
    kir_ref zero = cfloat(x, f, 0, x->f32, 0.0);
    kir_ref c = emit(x, f, 0, KIR_LT, x->b, p, zero);
    kir_blkid t, e;
    emit_if(x, f, 0, c, true, &t, &e);
    kir_ref n = emit(x, f, t, KIR_NEG, x->f32, p, 0);
    emit_i(x, f, t, KIR_LOCAL_SET, x->none, r, n);
    emit_i(x, f, e, KIR_LOCAL_SET, x->none, r, p);
    kir_ref g = emit_i(x, f, 0, KIR_LOCAL_GET, x->f32, r, 0);
    ret(x, f, 0, g);
    expect_valid(x, f);
    expect_ir(f, "host absf[float32](x: float32) -> float32\n"
                 "  locals: r: float32\n"
                 "  %1 = param x : float32\n"
                 "  %2 = const 0.0 : float32\n"
                 "  %3 = lt %1, %2 : bool\n"
                 "  if %3 {\n"
                 "    %5 = neg %1 : float32\n"
                 "    set r, %5\n"
                 "  } else {\n"
                 "    set r, %1\n"
                 "  }\n"
                 "  %8 = get r : float32\n"
                 "  return %8\n");
}

static void test_loop_break_continue(void **state)
{
    fx *x = *state;
    kir_func *f = fn(x, KIR_FN_HOST, "count", "count[]", x->i64, 0, NULL, NULL);
    uint32_t i = kir_local_new(&x->a, f, "i", x->i64);
    emit_i(x, f, 0, KIR_LOCAL_SET, x->none, i, cint(x, f, 0, x->i64, 0));
    kir_ref lp = emit(x, f, 0, KIR_LOOP, x->none, 0, 0);
    kir_blkid body = kir_block_new(&x->a, f);
    kir_at(f, lp)->blk[0] = body;
    kir_ref v = emit_i(x, f, body, KIR_LOCAL_GET, x->i64, i, 0);
    kir_ref one = cint(x, f, body, x->i64, 1);
    kir_ref s = emit(x, f, body, KIR_ADD, x->i64, v, one);
    emit_i(x, f, body, KIR_LOCAL_SET, x->none, i, s);
    kir_ref ten = cint(x, f, body, x->i64, 10);
    kir_ref c = emit(x, f, body, KIR_GE, x->b, s, ten);
    kir_blkid t, e;
    emit_if(x, f, body, c, false, &t, &e);
    emit(x, f, t, KIR_BREAK, x->none, 0, 0);
    emit(x, f, body, KIR_CONTINUE, x->none, 0, 0);
    ret(x, f, 0, emit_i(x, f, 0, KIR_LOCAL_GET, x->i64, i, 0));
    expect_valid(x, f);
    expect_ir(f, "host count[]() -> int64\n"
                 "  locals: i: int64\n"
                 "  %1 = const 0 : int64\n"
                 "  set i, %1\n"
                 "  loop {\n"
                 "    %4 = get i : int64\n"
                 "    %5 = const 1 : int64\n"
                 "    %6 = add %4, %5 : int64\n"
                 "    set i, %6\n"
                 "    %8 = const 10 : int64\n"
                 "    %9 = ge %6, %8 : bool\n"
                 "    if %9 {\n"
                 "      break\n"
                 "    }\n"
                 "    continue\n"
                 "  }\n"
                 "  %13 = get i : int64\n"
                 "  return %13\n");
}

/* for i in range(0, len(a), 1): s += a[i]; and a prange with the default step. */
static void test_for_over_array(void **state)
{
    fx *x = *state;
    const kj_type *arr = kj_t_array(x->t, x->f32, 1, KJ_LAYOUT_C);
    kir_func *f = fn(x, KIR_FN_HOST, "total", "total[array(float32, 1d, C)]", x->f32, 1, &arr,
                     (const char *[]){"a"});
    uint32_t s = kir_local_new(&x->a, f, "s", x->f32);
    uint32_t i = kir_local_new(&x->a, f, "i", x->i64);
    kir_ref a = param(x, f, 0, 0);
    emit_i(x, f, 0, KIR_LOCAL_SET, x->none, s, cfloat(x, f, 0, x->f32, 0.0));
    kir_ref lo = cint(x, f, 0, x->i64, 0);
    kir_ref n = emit_i(x, f, 0, KIR_ARRAY_DIM, x->i64, 0, a);
    kir_ref step = cint(x, f, 0, x->i64, 1);
    kir_ref loop = emit_i(x, f, 0, KIR_FOR, x->none, i, lo);
    kir_blkid body = kir_block_new(&x->a, f);
    kir_at(f, loop)->b = n;
    kir_at(f, loop)->c = step;
    kir_at(f, loop)->blk[0] = body;
    kir_ref iv = emit_i(x, f, body, KIR_LOCAL_GET, x->i64, i, 0);
    kir_ref el = emit_args(x, f, body, KIR_ARRAY_LOAD, x->f32, a, 1, &iv);
    kir_ref sv = emit_i(x, f, body, KIR_LOCAL_GET, x->f32, s, 0);
    emit_i(x, f, body, KIR_LOCAL_SET, x->none, s, emit(x, f, body, KIR_ADD, x->f32, sv, el));
    kir_ref pl = emit_i(x, f, 0, KIR_PFOR, x->none, i, lo);
    kir_blkid pbody = kir_block_new(&x->a, f);
    kir_at(f, pl)->b = n;
    kir_at(f, pl)->blk[0] = pbody;
    ret(x, f, 0, emit_i(x, f, 0, KIR_LOCAL_GET, x->f32, s, 0));
    expect_valid(x, f);
    expect_ir(f, "host total[array(float32, 1d, C)](a: array(float32, 1d, C)) -> float32\n"
                 "  locals: s: float32, i: int64\n"
                 "  %1 = param a : array(float32, 1d, C)\n"
                 "  %2 = const 0.0 : float32\n"
                 "  set s, %2\n"
                 "  %4 = const 0 : int64\n"
                 "  %5 = dim %1, 0 : int64\n"
                 "  %6 = const 1 : int64\n"
                 "  for i in %4, %5, %6 {\n"
                 "    %8 = get i : int64\n"
                 "    %9 = load %1[%8] : float32\n"
                 "    %10 = get s : float32\n"
                 "    %11 = add %10, %9 : float32\n"
                 "    set s, %11\n"
                 "  }\n"
                 "  pfor i in %4, %5 {\n"
                 "  }\n"
                 "  %14 = get s : float32\n"
                 "  return %14\n");
}

/* A device function called from a kernel; builtins with and without a value. */
static void test_calls_and_module(void **state)
{
    fx *x = *state;
    kir_func *sq = fn(x, KIR_FN_DEVICE, "sq", "sq[float32]", x->f32, 1, &x->f32, (const char *[]){"v"});
    kir_ref v = param(x, sq, 0, 0);
    ret(x, sq, 0, emit(x, sq, 0, KIR_MUL, x->f32, v, v));
    expect_valid(x, sq);

    const kj_type *arr = kj_t_array(x->t, x->f32, 1, KJ_LAYOUT_C);
    kir_func *k = fn(x, KIR_FN_KERNEL, "k", "k[array(float32, 1d, C)]", x->none, 1, &arr,
                     (const char *[]){"a"});
    kir_ref a = param(x, k, 0, 0);
    kir_ref zero = cint(x, k, 0, x->i64, 0);
    kir_ref el = emit_args(x, k, 0, KIR_ARRAY_LOAD, x->f32, a, 1, &zero);
    kir_ref s = emit_args(x, k, 0, KIR_BUILTIN, x->f32, 0, 1, &el);
    kir_at(k, s)->aux = KJ_B_SIN;
    kir_ref c = emit_args(x, k, 0, KIR_CALL, x->f32, 0, 1, &s);
    kir_at(k, c)->fn = sq;
    kir_ref st = emit_args(x, k, 0, KIR_ARRAY_STORE, x->none, a, 1, &zero);
    kir_at(k, st)->b = c;
    kir_ref sync = emit_args(x, k, 0, KIR_BUILTIN, x->none, 0, 0, NULL);
    kir_at(k, sync)->aux = KJ_B_SYNCTHREADS;
    ret(x, k, 0, 0);
    expect_valid(x, k);

    kj_buf b = {0};
    kir_print_module(x->m, &b);
    char *got = kj_buf_take(&b);
    assert_string_equal(got, "device sq[float32](v: float32) -> float32\n"
                             "  %1 = param v : float32\n"
                             "  %2 = mul %1, %1 : float32\n"
                             "  return %2\n"
                             "\n"
                             "kernel k[array(float32, 1d, C)](a: array(float32, 1d, C)) -> none\n"
                             "  %1 = param a : array(float32, 1d, C)\n"
                             "  %2 = const 0 : int64\n"
                             "  %3 = load %1[%2] : float32\n"
                             "  %4 = builtin math.sin(%3) : float32\n"
                             "  %5 = call sq[float32](%4) : float32\n"
                             "  store %1[%2], %5\n"
                             "  builtin cuda.syncthreads()\n"
                             "  return\n");
    free(got);
}

static void test_tuples_and_grid(void **state)
{
    fx *x = *state;
    const kj_type *arr = kj_t_array(x->t, x->i64, 2, KJ_LAYOUT_C);
    const kj_type *pair = kj_t_tuple(x->t, (const kj_type *[]){x->i64, x->i64}, 2);
    const kj_type *mixed = kj_t_tuple(x->t, (const kj_type *[]){x->f32, x->i64}, 2);
    kir_func *f = fn(x, KIR_FN_KERNEL, "g", "g[array(int64, 2d, C)]", x->none, 1, &arr,
                     (const char *[]){"out"});
    kir_ref two = cint(x, f, 0, x->i64, 2);
    kir_ref grid = emit_args(x, f, 0, KIR_BUILTIN, pair, 0, 1, &two);
    kir_at(f, grid)->aux = KJ_B_CUDA_GRID;
    kir_ref i = emit_i(x, f, 0, KIR_TUPLE_GET, x->i64, 0, grid);
    kir_ref j = emit_i(x, f, 0, KIR_TUPLE_GET, x->i64, 1, grid);
    kir_ref h = cfloat(x, f, 0, x->f32, 0.5);
    kir_ref t = emit_args(x, f, 0, KIR_TUPLE, mixed, 0, 2, (kir_ref[]){h, j});
    kir_ref t1 = emit_i(x, f, 0, KIR_TUPLE_GET, x->i64, 1, t);
    kir_ref out = param(x, f, 0, 0);
    kir_ref st = emit_args(x, f, 0, KIR_ARRAY_STORE, x->none, out, 2, (kir_ref[]){i, j});
    kir_at(f, st)->b = t1;
    ret(x, f, 0, 0);
    expect_valid(x, f);
    expect_ir(f, "kernel g[array(int64, 2d, C)](out: array(int64, 2d, C)) -> none\n"
                 "  %1 = const 2 : int64\n"
                 "  %2 = builtin cuda.grid(%1) : (int64, int64)\n"
                 "  %3 = tuple_get %2, 0 : int64\n"
                 "  %4 = tuple_get %2, 1 : int64\n"
                 "  %5 = const 0.5 : float32\n"
                 "  %6 = tuple %5, %4 : (float32, int64)\n"
                 "  %7 = tuple_get %6, 1 : int64\n"
                 "  %8 = param out : array(int64, 2d, C)\n"
                 "  store %8[%3, %4], %7\n"
                 "  return\n");
}

/* m[-1, 1:] with wrapping and bounds checking. */
static void test_views_and_checks(void **state)
{
    fx *x = *state;
    const kj_type *m2 = kj_t_array(x->t, x->f64, 2, KJ_LAYOUT_C);
    const kj_type *row = kj_t_array(x->t, x->f64, 1, KJ_LAYOUT_A);
    const kj_type *slice = kj_t_opaque(x->t, "slice");
    kir_func *f = fn(x, KIR_FN_HOST, "v", "v[array(float64, 2d, C)]", row, 1, &m2, (const char *[]){"m"});
    kir_ref m = param(x, f, 0, 0);
    kir_ref neg = cint(x, f, 0, x->i64, -1);
    kir_ref d0 = emit_i(x, f, 0, KIR_ARRAY_DIM, x->i64, 0, m);
    kir_ref w = emit(x, f, 0, KIR_WRAP_INDEX, x->i64, neg, d0);
    kir_ref bc = emit(x, f, 0, KIR_BOUNDS_CHECK, x->none, w, d0);
    kir_at(f, bc)->i = 0;
    kir_ref one = cint(x, f, 0, x->i64, 1);
    kir_ref sl = emit(x, f, 0, KIR_SLICE, slice, one, 0);
    kir_ref vw = emit_args(x, f, 0, KIR_ARRAY_VIEW, row, m, 2, (kir_ref[]){w, sl});
    ret(x, f, 0, vw);
    expect_valid(x, f);
    expect_ir(f, "host v[array(float64, 2d, C)](m: array(float64, 2d, C)) -> array(float64, 1d, A)\n"
                 "  %1 = param m : array(float64, 2d, C)\n"
                 "  %2 = const -1 : int64\n"
                 "  %3 = dim %1, 0 : int64\n"
                 "  %4 = wrap %2, %3 : int64\n"
                 "  boundscheck %4, %3, 0\n"
                 "  %6 = const 1 : int64\n"
                 "  %7 = slice %6, _, _ : slice\n"
                 "  %8 = view %1[%4, %7] : array(float64, 1d, A)\n"
                 "  return %8\n");
}

static void test_constants_and_locals(void **state)
{
    fx *x = *state;
    kir_func *f = fn(x, KIR_FN_MAIN, "main", "main", x->none, 0, NULL, NULL);
    uint32_t tmp = kir_local_new(&x->a, f, NULL, x->b);
    uint32_t n1 = kir_local_new(&x->a, f, "n", x->i64);
    uint32_t n2 = kir_local_new(&x->a, f, "n", x->f64);
    kir_ref t = cint(x, f, 0, x->b, 1);
    emit_i(x, f, 0, KIR_LOCAL_SET, x->none, tmp, t);
    kir_ref tenth = cfloat(x, f, 0, x->f64, 0.1);
    cfloat(x, f, 0, x->f64, 1.0);
    cfloat(x, f, 0, x->f64, 1e300);
    cfloat(x, f, 0, x->f64, -INFINITY);
    cfloat(x, f, 0, x->f64, NAN);
    cfloat(x, f, 0, x->f64, 3.141592653589793);
    cfloat(x, f, 0, x->f64, -0.0);
    kir_ref s = emit(x, f, 0, KIR_CONST_STR, x->str, 0, 0);
    kir_at(f, s)->s = "a\"b\\c\n\t\x01";
    emit(x, f, 0, KIR_CONST_NONE, x->none, 0, 0);
    kir_ref m5 = cint(x, f, 0, x->i64, -5);
    emit_i(x, f, 0, KIR_LOCAL_SET, x->none, n1, m5);
    emit_i(x, f, 0, KIR_LOCAL_SET, x->none, n2, emit(x, f, 0, KIR_CAST, x->f64, m5, 0));
    kir_ref pr = emit_args(x, f, 0, KIR_BUILTIN, x->none, 0, 4, (kir_ref[]){s, tenth, 0, 0});
    kir_at(f, pr)->aux = KJ_B_PRINT;
    kir_ref as = emit(x, f, 0, KIR_ASSERT, x->none, t, 0);
    kir_at(f, as)->s = "boom";
    emit(x, f, 0, KIR_ASSERT, x->none, t, 0);
    kir_ref sel = emit(x, f, 0, KIR_SELECT, x->i64, t, m5);
    kir_at(f, sel)->c = m5;
    ret(x, f, 0, 0);
    expect_valid(x, f);
    expect_ir(f, "main main() -> none\n"
                 "  locals: $0: bool, n$1: int64, n$2: float64\n"
                 "  %1 = const true : bool\n"
                 "  set $0, %1\n"
                 "  %3 = const 0.1 : float64\n"
                 "  %4 = const 1.0 : float64\n"
                 "  %5 = const 1e+300 : float64\n"
                 "  %6 = const -inf : float64\n"
                 "  %7 = const nan : float64\n"
                 "  %8 = const 3.141592653589793 : float64\n"
                 "  %9 = const -0.0 : float64\n"
                 "  %10 = str \"a\\\"b\\\\c\\n\\t\\x01\" : str\n"
                 "  %11 = none : none\n"
                 "  %12 = const -5 : int64\n"
                 "  set n$1, %12\n"
                 "  %14 = cast %12 : float64\n"
                 "  set n$2, %14\n"
                 "  builtin print(%10, %3, _, _)\n"
                 "  assert %1, \"boom\"\n"
                 "  assert %1\n"
                 "  %19 = select %1, %12, %12 : int64\n"
                 "  return\n");
}

/* The run target's names: parsed once (a decorator's target=), printed in
 * the function header; a name that is no target parses as none. */
static void test_run_target_names(void **state)
{
    (void)state;
    const char *names[] = {"cpu", "parallel", "cuda"};
    for (unsigned k = 0; k < 3; k++) {
        kj_run_target t = kj_run_target_parse(names[k]);
        assert_int_equal(t, KJ_RUN_CPU + (int)k);
        assert_string_equal(kj_run_target_name(t), names[k]);
    }
    assert_int_equal(kj_run_target_parse("gpu"), KJ_RUN_DEFAULT);
    assert_int_equal(kj_run_target_parse("Cuda"), KJ_RUN_DEFAULT);
    assert_int_equal(kj_run_target_parse(NULL), KJ_RUN_DEFAULT);
    assert_null(kj_run_target_name(KJ_RUN_DEFAULT));
}

/* Function options in the header; launch and ufunc call. */
static void test_launch_ufunc_and_options(void **state)
{
    fx *x = *state;
    const kj_type *pt[] = {x->f32, x->f32};
    kir_func *u = fn(x, KIR_FN_UFUNC, "add", "add[float32,float32]", x->f32, 2, pt, (const char *[]){"x", "y"});
    u->fastmath = true;
    u->target = KJ_RUN_CUDA;
    kir_ref px = param(x, u, 0, 0), py = param(x, u, 0, 1);
    ret(x, u, 0, emit(x, u, 0, KIR_ADD, x->f32, px, py));
    kir_func *g = fn(x, KIR_FN_GUFUNC, "g", "g[float32]", x->none, 1, &x->f32, (const char *[]){"v"});
    g->gu_layout = "(n),()->(n)";
    ret(x, g, 0, 0);
    kir_func *k = fn(x, KIR_FN_KERNEL, "k", "k[float32]", x->none, 1, &x->f32, (const char *[]){"v"});
    k->boundscheck = true;
    ret(x, k, 0, 0);
    kir_func *f = fn(x, KIR_FN_MAIN, "main", "main", x->none, 0, NULL, NULL);
    kir_ref one = cint(x, f, 0, x->i64, 1), n = cint(x, f, 0, x->i64, 32);
    kir_ref h = cfloat(x, f, 0, x->f32, 1.5);
    kir_ref l = emit_args(x, f, 0, KIR_LAUNCH, x->none, 0, 9, (kir_ref[]){one, one, one, n, one, one, 0, 0, h});
    kir_at(f, l)->fn = k;
    kir_ref uc = emit_args(x, f, 0, KIR_UFUNC_CALL, x->f32, 0, 2, (kir_ref[]){h, h});
    kir_at(f, uc)->fn = u;
    kir_ref uo = emit_args(x, f, 0, KIR_UFUNC_CALL, x->f32, 0, 3, (kir_ref[]){h, h, uc});
    kir_at(f, uo)->fn = u;
    kir_at(f, uo)->aux = 1; /* one out= argument */
    ret(x, f, 0, 0);
    expect_valid(x, u);
    expect_valid(x, g);
    expect_valid(x, k);
    expect_valid(x, f);
    kj_buf b = {0};
    kir_print_module(x->m, &b);
    char *got = kj_buf_take(&b);
    assert_string_equal(got, "ufunc add[float32,float32](x: float32, y: float32) -> float32 fastmath "
                             "target=\"cuda\"\n"
                             "  %1 = param x : float32\n"
                             "  %2 = param y : float32\n"
                             "  %3 = add %1, %2 : float32\n"
                             "  return %3\n"
                             "\n"
                             "gufunc g[float32](v: float32) -> none layout=\"(n),()->(n)\"\n"
                             "  return\n"
                             "\n"
                             "kernel k[float32](v: float32) -> none boundscheck\n"
                             "  return\n"
                             "\n"
                             "main main() -> none\n"
                             "  %1 = const 1 : int64\n"
                             "  %2 = const 32 : int64\n"
                             "  %3 = const 1.5 : float32\n"
                             "  launch k[float32][%1, %1, %1, %2, %1, %1, _, _](%3)\n"
                             "  %5 = ufunc add[float32,float32](%3, %3) : float32\n"
                             "  %6 = ufunc add[float32,float32](%3, %3, out=%5) : float32\n"
                             "  return\n");
    free(got);
}

static void test_empty_module_prints_nothing(void **state)
{
    fx *x = *state;
    kj_buf b = {0};
    kir_print_module(x->m, &b);
    char *got = kj_buf_take(&b);
    assert_string_equal(got, "");
    free(got);
}

/* ---- the verifier rejects ---- */

/* A host function f() -> ret with no parameters. */
static kir_func *fn0(fx *x, const kj_type *ret_type)
{
    return fn(x, KIR_FN_HOST, "f", "f[]", ret_type, 0, NULL, NULL);
}

static void test_reject_arith_types(void **state)
{
    fx *x = *state;
    kir_func *f = fn0(x, x->none);
    kir_ref a = cint(x, f, 0, x->i32, 1), b = cint(x, f, 0, x->i64, 2);
    emit(x, f, 0, KIR_ADD, x->i64, a, b);
    expect_invalid(x, f, "%3: add operands int32 and int64 differ");

    f = fn0(x, x->none);
    a = cint(x, f, 0, x->i32, 1);
    emit(x, f, 0, KIR_SUB, x->i64, a, a);
    expect_invalid(x, f, "%2: sub operands are int32 but the result is int64");

    f = fn0(x, x->none);
    a = cint(x, f, 0, x->i64, 1);
    emit(x, f, 0, KIR_DIV, x->i64, a, a);
    expect_invalid(x, f, "%2: div on int64 (true division is float)");

    f = fn0(x, x->none);
    a = cfloat(x, f, 0, x->f32, 1);
    emit(x, f, 0, KIR_SHL, x->f32, a, a);
    expect_invalid(x, f, "%2: shl on float32");

    f = fn0(x, x->none);
    a = cint(x, f, 0, x->i64, 1);
    emit(x, f, 0, KIR_NOT, x->b, a, 0);
    expect_invalid(x, f, "%2: not operand is int64, expected bool");

    f = fn0(x, x->none);
    a = cint(x, f, 0, x->i64, 1);
    emit(x, f, 0, KIR_NEG, x->i64, 0, 0);
    expect_invalid(x, f, "%2: neg is missing an operand");
}

static void test_reject_compare_and_cast(void **state)
{
    fx *x = *state;
    kir_func *f = fn0(x, x->none);
    kir_ref a = cfloat(x, f, 0, x->f32, 1), b = cint(x, f, 0, x->i64, 2);
    emit(x, f, 0, KIR_LT, x->b, a, b);
    expect_invalid(x, f, "%3: lt operands float32 and int64 differ");

    f = fn0(x, x->none);
    a = cint(x, f, 0, x->i64, 2);
    emit(x, f, 0, KIR_EQ, x->i64, a, a);
    expect_invalid(x, f, "%2: eq has type int64, expected bool");

    f = fn0(x, x->none);
    a = emit(x, f, 0, KIR_CONST_STR, x->str, 0, 0);
    kir_at(f, a)->s = "s";
    emit(x, f, 0, KIR_CAST, x->f32, a, 0);
    expect_invalid(x, f, "%2: cast from str to float32 is not a scalar conversion");

    f = fn0(x, x->none);
    cint(x, f, 0, x->f32, 2);
    expect_invalid(x, f, "%1: integer constant has type float32");
}

static void test_reject_scoping(void **state)
{
    fx *x = *state;
    /* used before its definition */
    kir_func *f = fn0(x, x->none);
    emit(x, f, 0, KIR_NEG, x->i64, 2, 0);
    cint(x, f, 0, x->i64, 1);
    expect_invalid(x, f, "%1: neg operand %2 is used before it is defined");

    /* defined in a then-block, used after the if */
    f = fn0(x, x->none);
    kir_ref c = cint(x, f, 0, x->b, 1);
    kir_blkid t, e;
    emit_if(x, f, 0, c, true, &t, &e);
    kir_ref v = cint(x, f, t, x->i64, 3);
    emit(x, f, 0, KIR_NEG, x->i64, v, 0);
    expect_invalid(x, f, "%4: neg operand %3 is not visible here (its block has ended)");

    /* defined in the then-block, used in the else-block */
    f = fn0(x, x->none);
    c = cint(x, f, 0, x->b, 1);
    emit_if(x, f, 0, c, true, &t, &e);
    v = cint(x, f, t, x->i64, 3);
    emit(x, f, e, KIR_NEG, x->i64, v, 0);
    expect_invalid(x, f, "%4: neg operand %3 is not visible here (its block has ended)");

    /* a statement used as a value */
    f = fn0(x, x->none);
    uint32_t l = kir_local_new(&x->a, f, "l", x->i64);
    kir_ref s = emit_i(x, f, 0, KIR_LOCAL_SET, x->none, l, cint(x, f, 0, x->i64, 1));
    emit(x, f, 0, KIR_NEG, x->i64, s, 0);
    expect_invalid(x, f, "%3: neg operand %2 is a set statement, not a value");

    /* an instruction listed in two blocks */
    f = fn0(x, x->none);
    kir_ref one = cint(x, f, 0, x->i64, 1);
    kir_block *b0 = &f->blocks[0];
    b0->v = kj_arena_grow(&x->a, b0->v, b0->n, b0->n + 1, sizeof *b0->v);
    b0->v[b0->n++] = one;
    expect_invalid(x, f, "%1: listed twice (again in block 0)");

    /* an operand that does not exist */
    f = fn0(x, x->none);
    emit(x, f, 0, KIR_NEG, x->i64, 99, 0);
    expect_invalid(x, f, "%1: neg operand %99 does not exist");
}

static void test_reject_blocks(void **state)
{
    fx *x = *state;
    /* two owners */
    kir_func *f = fn0(x, x->none);
    kir_ref c = cint(x, f, 0, x->b, 1);
    kir_blkid t, e;
    emit_if(x, f, 0, c, false, &t, &e);
    kir_ref lp = emit(x, f, 0, KIR_LOOP, x->none, 0, 0);
    kir_at(f, lp)->blk[0] = t;
    expect_invalid(x, f, "%3: block 1 has a second owner");

    /* no owner */
    f = fn0(x, x->none);
    kir_block_new(&x->a, f);
    expect_invalid(x, f, "block 1 has no owner");

    /* owning the body */
    f = fn0(x, x->none);
    emit(x, f, 0, KIR_LOOP, x->none, 0, 0);
    expect_invalid(x, f, "%1: loop owns block 0, which is the function body");

    /* owning a block that does not exist */
    f = fn0(x, x->none);
    lp = emit(x, f, 0, KIR_LOOP, x->none, 0, 0);
    kir_at(f, lp)->blk[0] = 7;
    expect_invalid(x, f, "%1: loop owns block 7, which does not exist");

    /* an if condition that is not bool */
    f = fn0(x, x->none);
    c = cint(x, f, 0, x->i64, 1);
    emit_if(x, f, 0, c, false, &t, &e);
    expect_invalid(x, f, "%2: if condition is int64, expected bool");
}

static void test_reject_locals_and_loops(void **state)
{
    fx *x = *state;
    kir_func *f = fn0(x, x->none);
    uint32_t l = kir_local_new(&x->a, f, "l", x->i64);
    emit_i(x, f, 0, KIR_LOCAL_SET, x->none, l, cfloat(x, f, 0, x->f32, 1));
    expect_invalid(x, f, "%2: set value is float32, expected int64");

    f = fn0(x, x->none);
    l = kir_local_new(&x->a, f, "l", x->i64);
    emit_i(x, f, 0, KIR_LOCAL_GET, x->f32, l, 0);
    expect_invalid(x, f, "%1: get has type float32, local is int64");

    f = fn0(x, x->none);
    emit_i(x, f, 0, KIR_LOCAL_GET, x->f32, 3, 0);
    expect_invalid(x, f, "%1: get of local 3 out of range (function has 0)");

    /* a float loop variable */
    f = fn0(x, x->none);
    l = kir_local_new(&x->a, f, "v", x->f32);
    kir_ref lo = cfloat(x, f, 0, x->f32, 0), hi = cfloat(x, f, 0, x->f32, 1);
    kir_ref fr = emit_i(x, f, 0, KIR_FOR, x->none, l, lo);
    kir_at(f, fr)->b = hi;
    kir_at(f, fr)->blk[0] = kir_block_new(&x->a, f);
    expect_invalid(x, f, "%3: for variable has type float32, expected an integer");

    /* bounds of another integer type */
    f = fn0(x, x->none);
    l = kir_local_new(&x->a, f, "i", x->i64);
    lo = cint(x, f, 0, x->i64, 0), hi = cint(x, f, 0, x->i32, 1);
    fr = emit_i(x, f, 0, KIR_PFOR, x->none, l, lo);
    kir_at(f, fr)->b = hi;
    kir_at(f, fr)->blk[0] = kir_block_new(&x->a, f);
    expect_invalid(x, f, "%3: pfor stop is int32, expected int64");

    /* break and continue outside a loop, also inside an if */
    f = fn0(x, x->none);
    emit(x, f, 0, KIR_BREAK, x->none, 0, 0);
    expect_invalid(x, f, "%1: break outside a loop");
    f = fn0(x, x->none);
    kir_blkid t, e;
    emit_if(x, f, 0, cint(x, f, 0, x->b, 0), false, &t, &e);
    emit(x, f, t, KIR_CONTINUE, x->none, 0, 0);
    expect_invalid(x, f, "%3: continue outside a loop");
}

static void test_reject_returns_and_statements(void **state)
{
    fx *x = *state;
    kir_func *f = fn0(x, x->f32);
    ret(x, f, 0, cint(x, f, 0, x->i64, 1));
    expect_invalid(x, f, "%2: return value is int64, the function returns float32");

    f = fn0(x, x->f32);
    ret(x, f, 0, 0);
    expect_invalid(x, f, "%1: return without a value in a function returning float32");

    f = fn(x, KIR_FN_KERNEL, "k", "k[]", x->i64, 0, NULL, NULL);
    expect_invalid(x, f, "kernel returns int64; kernels return none");

    f = fn0(x, x->none);
    uint32_t l = kir_local_new(&x->a, f, "l", x->i64);
    emit_i(x, f, 0, KIR_LOCAL_SET, x->i64, l, cint(x, f, 0, x->i64, 1));
    expect_invalid(x, f, "%2: set statement has type int64");

    f = fn0(x, x->none);
    emit(x, f, 0, KIR_ADD, NULL, 0, 0);
    expect_invalid(x, f, "%1: add has no type");

    f = fn0(x, x->none);
    emit(x, f, 0, KIR_ASSERT, x->none, cint(x, f, 0, x->i64, 1), 0);
    expect_invalid(x, f, "%2: assert condition is int64, expected bool");

    f = fn(x, KIR_FN_HOST, "p", "p[int64]", x->none, 1, &x->i64, (const char *[]){"a"});
    emit_i(x, f, 0, KIR_PARAM, x->f32, 0, 0);
    expect_invalid(x, f, "%1: param 0 has type float32, declared int64");
}

static void test_reject_arrays_tuples_calls(void **state)
{
    fx *x = *state;
    const kj_type *arr = kj_t_array(x->t, x->f32, 1, KJ_LAYOUT_C);
    kir_func *f = fn(x, KIR_FN_HOST, "h", "h[array(float32, 1d, C)]", x->none, 1, &arr, (const char *[]){"a"});
    kir_ref a = param(x, f, 0, 0), i = cint(x, f, 0, x->i64, 0);
    emit_args(x, f, 0, KIR_ARRAY_LOAD, x->f32, a, 2, (kir_ref[]){i, i});
    expect_invalid(x, f, "%3: load with 2 indices into array(float32, 1d, C)");

    f = fn(x, KIR_FN_HOST, "h", "h[array(float32, 1d, C)]", x->none, 1, &arr, (const char *[]){"a"});
    a = param(x, f, 0, 0);
    i = cint(x, f, 0, x->i32, 0);
    emit_args(x, f, 0, KIR_ARRAY_LOAD, x->f32, a, 1, &i);
    expect_invalid(x, f, "%3: load index 0 is int32, expected int64");

    f = fn(x, KIR_FN_HOST, "h", "h[array(float32, 1d, C)]", x->none, 1, &arr, (const char *[]){"a"});
    a = param(x, f, 0, 0);
    i = cint(x, f, 0, x->i64, 0);
    kir_ref st = emit_args(x, f, 0, KIR_ARRAY_STORE, x->none, a, 1, &i);
    kir_at(f, st)->b = i;
    expect_invalid(x, f, "%3: store value is int64, expected float32");

    f = fn0(x, x->none);
    i = cint(x, f, 0, x->i64, 0);
    emit_i(x, f, 0, KIR_ARRAY_DIM, x->i64, 0, i);
    expect_invalid(x, f, "%2: dim of int64, not an array");

    const kj_type *pair = kj_t_tuple(x->t, (const kj_type *[]){x->i64, x->i64}, 2);
    f = fn0(x, x->none);
    i = cint(x, f, 0, x->i64, 0);
    kir_ref t = emit_args(x, f, 0, KIR_TUPLE, pair, 0, 2, (kir_ref[]){i, i});
    emit_i(x, f, 0, KIR_TUPLE_GET, x->i64, 2, t);
    expect_invalid(x, f, "%3: tuple_get index 2 out of range for (int64, int64)");

    f = fn0(x, x->none);
    i = cint(x, f, 0, x->i64, 0);
    emit_args(x, f, 0, KIR_TUPLE, pair, 0, 1, &i);
    expect_invalid(x, f, "%2: tuple of 1 values has type (int64, int64)");

    kir_func *sq = fn(x, KIR_FN_DEVICE, "sq", "sq[float32]", x->f32, 1, &x->f32, (const char *[]){"v"});
    f = fn0(x, x->none);
    i = cint(x, f, 0, x->i64, 0);
    kir_ref c = emit_args(x, f, 0, KIR_CALL, x->f32, 0, 1, &i);
    kir_at(f, c)->fn = sq;
    expect_invalid(x, f, "%2: call argument 0 is int64, sq[float32] expects float32");

    f = fn0(x, x->none);
    c = emit_args(x, f, 0, KIR_CALL, x->f32, 0, 0, NULL);
    kir_at(f, c)->fn = sq;
    expect_invalid(x, f, "%1: call of sq[float32] with 0 arguments, expected 1");

    f = fn0(x, x->none);
    i = cfloat(x, f, 0, x->f32, 0);
    c = emit_args(x, f, 0, KIR_CALL, x->i64, 0, 1, &i);
    kir_at(f, c)->fn = sq;
    expect_invalid(x, f, "%2: call has type int64, sq[float32] returns float32");

    f = fn0(x, x->none);
    c = emit_args(x, f, 0, KIR_LAUNCH, x->none, 0, 0, NULL);
    kir_at(f, c)->fn = sq;
    expect_invalid(x, f, "%1: launch of sq[float32], which is not a kernel");

    f = fn0(x, x->none);
    c = emit_args(x, f, 0, KIR_BUILTIN, x->none, 0, 0, NULL);
    kir_at(f, c)->aux = KJ_B__COUNT;
    char want[64];
    snprintf(want, sizeof want, "%%1: builtin id %d does not exist", (int)KJ_B__COUNT);
    expect_invalid(x, f, want);
}

/* An array argument of layout C is accepted for a parameter of layout A. */
static void test_call_layout_relaxed(void **state)
{
    fx *x = *state;
    const kj_type *any = kj_t_array(x->t, x->f32, 1, KJ_LAYOUT_A);
    const kj_type *c = kj_t_array(x->t, x->f32, 1, KJ_LAYOUT_C);
    kir_func *callee = fn(x, KIR_FN_HOST, "g", "g[array(float32, 1d, A)]", x->none, 1, &any,
                          (const char *[]){"a"});
    ret(x, callee, 0, 0);
    kir_func *f = fn(x, KIR_FN_HOST, "h", "h[array(float32, 1d, C)]", x->none, 1, &c, (const char *[]){"a"});
    kir_ref a = param(x, f, 0, 0);
    kir_ref call = emit_args(x, f, 0, KIR_CALL, x->none, 0, 1, &a);
    kir_at(f, call)->fn = callee;
    expect_valid(x, f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_target_names),
        cmocka_unit_test_setup_teardown(test_reserved_ref_and_body, setup, teardown),
        cmocka_unit_test_setup_teardown(test_many_insts_grow, setup, teardown),
        cmocka_unit_test_setup_teardown(test_arith, setup, teardown),
        cmocka_unit_test_setup_teardown(test_if_else, setup, teardown),
        cmocka_unit_test_setup_teardown(test_loop_break_continue, setup, teardown),
        cmocka_unit_test_setup_teardown(test_for_over_array, setup, teardown),
        cmocka_unit_test_setup_teardown(test_calls_and_module, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tuples_and_grid, setup, teardown),
        cmocka_unit_test_setup_teardown(test_views_and_checks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_constants_and_locals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_launch_ufunc_and_options, setup, teardown),
        cmocka_unit_test_setup_teardown(test_empty_module_prints_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reject_arith_types, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reject_compare_and_cast, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reject_scoping, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reject_blocks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reject_locals_and_loops, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reject_returns_and_statements, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reject_arrays_tuples_calls, setup, teardown),
        cmocka_unit_test_setup_teardown(test_call_layout_relaxed, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
