/* SPDX-License-Identifier: BSD-2-Clause */
/* Built-ins: lookup, aliases, children, argument binding and the typing
 * rule of each group. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/builtins.h"

enum { MAXA = 16 };

#define NA ((const kj_type *)NULL) /* an optional argument not given */

typedef struct {
    kj_arena a;
    kj_types *t;
    kj_diags d;
    const kj_type *conv[MAXA];
    /* shorthands */
    const kj_type *b, *i8, *i16, *i32, *i64, *u8, *u32, *u64, *f32, *f64, *wi, *wf, *none, *str;
} fix;

static int setup(void **state)
{
    fix *f = calloc(1, sizeof *f);
    kj_arena_init(&f->a);
    kj_types *t = f->t = kj_types_new(&f->a);
    f->b = kj_t_bool(t);
    f->i8 = kj_t_int(t, 8, true);
    f->i16 = kj_t_int(t, 16, true);
    f->i32 = kj_t_int(t, 32, true);
    f->i64 = kj_t_int(t, 64, true);
    f->u8 = kj_t_int(t, 8, false);
    f->u32 = kj_t_int(t, 32, false);
    f->u64 = kj_t_int(t, 64, false);
    f->f32 = kj_t_float(t, 32);
    f->f64 = kj_t_float(t, 64);
    f->wi = kj_t_weak_int(t);
    f->wf = kj_t_weak_float(t);
    f->none = kj_t_none(t);
    f->str = kj_t_str(t);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fix *f = *state;
    kj_diags_free(&f->d);
    kj_arena_free(&f->a);
    free(f);
    return 0;
}

static const kj_type *A(fix *f, const kj_type *e, int nd, kj_layout l)
{
    return kj_t_array(f->t, e, nd, l);
}
static const kj_type *AC(fix *f, const kj_type *e, int nd)
{
    return A(f, e, nd, KJ_LAYOUT_C);
}
static const kj_type *T2(fix *f, const kj_type *a, const kj_type *b)
{
    const kj_type *el[2] = {a, b};
    return kj_t_tuple(f->t, el, 2);
}
static const kj_type *TN(fix *f, const kj_type *a, uint32_t n)
{
    const kj_type *el[8] = {a, a, a, a, a, a, a, a};
    return kj_t_tuple(f->t, el, n);
}
static const kj_type *DT(fix *f, const kj_type *e)
{
    return kj_t_dtype(f->t, e);
}

/* Argument i sits at column 10 * (i + 1) so errors can be located. */
static kj_span arg_span(uint32_t i)
{
    return (kj_span){.off = 10 * (i + 1) - 1, .len = 1, .line = 1, .col = 10 * (i + 1)};
}
static const kj_span CALL = {.off = 0, .len = 5, .line = 1, .col = 1};

/* Type a call with already-bound arguments (NULL entries: not given). */
static const kj_type *typev(fix *f, kj_builtin id, const kj_type *target, const kj_barg *args,
                            uint32_t n)
{
    kj_diags_free(&f->d);
    for (int i = 0; i < MAXA; i++) f->conv[i] = (const kj_type *)1; /* must be reset */
    return kj_builtin_type(f->t, id, target, args, n, CALL, NULL, &f->d, f->conv);
}

static const kj_type *call(fix *f, kj_builtin id, uint32_t n, ...)
{
    kj_barg args[MAXA] = {0};
    va_list ap;
    va_start(ap, n);
    for (uint32_t i = 0; i < n; i++) {
        args[i].type = va_arg(ap, const kj_type *);
        args[i].span = arg_span(i);
    }
    va_end(ap);
    return typev(f, id, NULL, args, n);
}

/* The call's result must be `want` with no error. */
#define OK(want, call_expr)                                                                        \
    do {                                                                                           \
        const kj_type *got_ = (call_expr);                                                         \
        if (got_ != (want) || f->d.n)                                                              \
            fail_msg("line %d: got %s, want %s (%s)", __LINE__, kj_type_str(got_),                 \
                     kj_type_str(want), f->d.n ? f->d.v[0].msg : "no error");                      \
    } while (0)

/* The call must fail with exactly this message at this column. */
#define ERR(want_msg, want_col, call_expr)                                                         \
    do {                                                                                           \
        const kj_type *got_ = (call_expr);                                                         \
        if (got_ || f->d.n != 1)                                                                   \
            fail_msg("line %d: got %s, %u errors", __LINE__, kj_type_str(got_), f->d.n);           \
        if (strcmp(f->d.v[0].msg, (want_msg)))                                                     \
            fail_msg("line %d: got '%s'", __LINE__, f->d.v[0].msg);                                \
        if (f->d.v[0].span.col != (want_col))                                                      \
            fail_msg("line %d: col %u, want %u", __LINE__, f->d.v[0].span.col, (want_col));        \
    } while (0)

/* ---- lookup, aliases, children ------------------------------------------------------------ */

static void test_lookup(void **state)
{
    (void)state;
    assert_int_equal(kj_builtin_lookup("math.sin"), KJ_B_SIN);
    assert_int_equal(kj_builtin_lookup("np.sin"), KJ_B_SIN);
    assert_int_equal(kj_builtin_lookup("np.arcsin"), KJ_B_ASIN);
    assert_int_equal(kj_builtin_lookup("np.amin"), KJ_B_NP_MIN);
    assert_int_equal(kj_builtin_lookup("numba.prange"), KJ_B_PRANGE);
    assert_int_equal(kj_builtin_lookup("cuda.threadIdx.x"), KJ_B_TID_X);
    assert_int_equal(kj_builtin_lookup("cuda.atomic.compare_and_swap"), KJ_B_ATOMIC_CAS2);
    assert_int_equal(kj_builtin_lookup("np.random.randint"), KJ_B_NP_RANDOM_RANDINT);
    assert_int_equal(kj_builtin_lookup("array.shape"), KJ_B_ARR_SHAPE);
    assert_int_equal(kj_builtin_lookup("np"), -1);
    assert_int_equal(kj_builtin_lookup("np.sinn"), -1);
    assert_int_equal(kj_builtin_lookup("np.si"), -1);
    assert_int_equal(kj_builtin_lookup(""), -1);
    for (int id = 0; id < KJ_B__COUNT; id++) {
        const kj_builtin_info *bi = kj_builtin_get((kj_builtin)id);
        assert_non_null(bi);
        assert_int_equal(kj_builtin_lookup(bi->path), id);
    }
    assert_null(kj_builtin_get(KJ_B__COUNT));
    assert_string_equal(kj_builtin_get(KJ_B_NP_ZEROS)->path, "np.zeros");
    assert_int_equal(kj_builtin_get(KJ_B_NP_ZEROS)->flags, KJ_BF_HOST);
    assert_string_equal(kj_builtin_get(KJ_B_NP_ZEROS)->params, "shape, dtype=");
}

static bool has(const char **v, uint32_t n, const char *s)
{
    for (uint32_t i = 0; i < n; i++)
        if (!strcmp(v[i], s)) return true;
    return false;
}

static void test_children(void **state)
{
    fix *f = *state;
    const char *out[640];
    uint32_t n = kj_builtin_children("cuda.atomic", out, 640, &f->a);
    assert_int_equal(n, 14); /* add ... xor, inc, dec, nanmax, nanmin */
    assert_true(has(out, n, "add") && has(out, n, "and_") && has(out, n, "compare_and_swap"));
    assert_true(has(out, n, "inc") && has(out, n, "nanmin"));
    for (uint32_t i = 1; i < n; i++)
        assert_true(strcmp(out[i - 1], out[i]) < 0); /* sorted, no dups */
    assert_int_equal(kj_builtin_children("cuda.random", out, 640, &f->a), 9); /* numba.cuda.random, xoroshiro128p_dtype */
    n = kj_builtin_children("np.random", out, 640, &f->a);
    assert_int_equal(n, 45);
    assert_string_equal(out[0], "beta");
    assert_string_equal(out[n - 1], "zipf");
    assert_true(has(out, n, "seed") && has(out, n, "randn") && has(out, n, "choice"));
    n = kj_builtin_children("np", out, 640, &f->a);
    assert_true(has(out, n, "zeros") && has(out, n, "random") && has(out, n, "arcsin") &&
                has(out, n, "sin") && has(out, n, "pi"));
    assert_false(has(out, n, "seed") || has(out, n, "float32"));
    for (uint32_t i = 1; i < n; i++) assert_true(strcmp(out[i - 1], out[i]) < 0);
    n = kj_builtin_children("cuda", out, 256, &f->a);
    assert_true(has(out, n, "threadIdx") && has(out, n, "atomic") && has(out, n, "shared") &&
                has(out, n, "grid"));
    assert_false(has(out, n, "x"));
    n = kj_builtin_children("cuda.threadIdx", out, 256, &f->a);
    assert_int_equal(n, 3);
    n = kj_builtin_children("", out, 256, &f->a);
    assert_true(has(out, n, "np") && has(out, n, "math") && has(out, n, "cuda") &&
                has(out, n, "range") && has(out, n, "numba"));
    assert_int_equal(kj_builtin_children("nope", out, 256, &f->a), 0);
    assert_int_equal(kj_builtin_children("np.sin", out, 256, &f->a), 0);
    assert_int_equal(kj_builtin_children("cuda.atomic", out, 3, &f->a), 3);
}

/* ---- binding --------------------------------------------------------------------------- */

typedef struct {
    kj_barg out[MAXA];
    int32_t map[MAXA];
} bound;

static int bind(fix *f, kj_builtin id, uint32_t npos, uint32_t nkw, const char *const *kwnames,
                bound *b)
{
    kj_barg pos[MAXA] = {0}, kw[MAXA] = {0};
    for (uint32_t i = 0; i < npos; i++) pos[i] = (kj_barg){.type = f->wi, .span = arg_span(i)};
    for (uint32_t i = 0; i < nkw; i++)
        kw[i] = (kj_barg){.type = f->f32, .span = arg_span(npos + i)};
    kj_diags_free(&f->d);
    return kj_builtin_bind(id, pos, npos, kwnames, kw, nkw, CALL, NULL, &f->d, b->out, b->map,
                           MAXA);
}

static void expect_bind_err(fix *f, kj_builtin id, uint32_t npos, uint32_t nkw,
                            const char *const *kw, const char *msg, uint32_t col, const char *hint)
{
    bound b;
    assert_int_equal(bind(f, id, npos, nkw, kw, &b), -1);
    assert_int_equal(f->d.n, 1);
    assert_string_equal(f->d.v[0].msg, msg);
    assert_int_equal(f->d.v[0].span.col, col);
    if (hint)
        assert_string_equal(f->d.v[0].hint ? f->d.v[0].hint : "(none)", hint);
    else
        assert_null(f->d.v[0].hint);
}

static void test_bind(void **state)
{
    fix *f = *state;
    bound b;
    assert_int_equal(bind(f, KJ_B_NP_ZEROS, 1, 0, NULL, &b), 2);
    assert_ptr_equal(b.out[0].type, f->wi);
    assert_null(b.out[1].type);
    assert_int_equal(b.map[0], 0);
    assert_int_equal(b.map[1], INT32_MIN);

    const char *dtype[] = {"dtype"};
    assert_int_equal(bind(f, KJ_B_NP_ZEROS, 1, 1, dtype, &b), 2);
    assert_ptr_equal(b.out[1].type, f->f32);
    assert_int_equal(b.map[1], -1);

    const char *shape_dtype[] = {"dtype", "shape"};
    assert_int_equal(bind(f, KJ_B_NP_ZEROS, 0, 2, shape_dtype, &b), 2);
    assert_ptr_equal(b.out[0].type, f->f32);
    assert_int_equal(b.map[0], -2);
    assert_int_equal(b.map[1], -1);

    /* *args takes every positional, each its own entry; sep/end follow. */
    const char *end[] = {"end"};
    assert_int_equal(bind(f, KJ_B_PRINT, 3, 1, end, &b), 5);
    assert_int_equal(b.map[2], 2);
    assert_int_equal(b.map[3], INT32_MIN);
    assert_int_equal(b.map[4], -1);
    assert_ptr_equal(b.out[4].type, f->f32);
    assert_int_equal(bind(f, KJ_B_PRINT, 0, 0, NULL, &b), 2);
    assert_int_equal(bind(f, KJ_B_RANGE, 3, 0, NULL, &b), 3);
    assert_int_equal(bind(f, KJ_B_ARR_RESHAPE, 2, 0, NULL, &b), 2); /* receiver not bound */
    assert_int_equal(bind(f, KJ_B_CUDA_SYNCHRONIZE, 0, 0, NULL, &b), 0);

    const char *dtyp[] = {"dtyp"};
    expect_bind_err(f, KJ_B_NP_ZEROS, 1, 1, dtyp,
                    "np.zeros() got an unexpected keyword argument 'dtyp'", 20,
                    "did you mean 'dtype'?");
    expect_bind_err(f, KJ_B_NP_ZEROS, 0, 1, dtype, "np.zeros() missing required argument 'shape'",
                    1, NULL);
    expect_bind_err(f, KJ_B_SIN, 2, 0, NULL, "math.sin() takes 1 argument but 2 were given", 20,
                    NULL);
    expect_bind_err(f, KJ_B_NP_ZEROS, 2, 1, dtype,
                    "np.zeros() got multiple values for argument 'dtype'", 30, NULL);
    expect_bind_err(f, KJ_B_NP_FULL, 4, 0, NULL,
                    "np.full() takes from 2 to 3 arguments but 4 were given", 40, NULL);
    expect_bind_err(f, KJ_B_TIME_PERF_COUNTER, 1, 0, NULL,
                    "time.perf_counter() takes 0 arguments but 1 was given", 10, NULL);
    const char *xyz[] = {"xyz"};
    expect_bind_err(f, KJ_B_PRINT, 1, 1, xyz, "print() got an unexpected keyword argument 'xyz'",
                    20, NULL);
    const char *args_kw[] = {"args"}; /* *args cannot be passed by keyword */
    expect_bind_err(f, KJ_B_RANGE, 0, 1, args_kw,
                    "range() got an unexpected keyword argument 'args'", 10, NULL);
}

/* ---- typing: math and Python built-ins --------------------------------------------------------
 */

static void test_type_math(void **state)
{
    fix *f = *state;
    OK(f->f32, call(f, KJ_B_SIN, 1, f->f32));
    assert_null(f->conv[0]);
    OK(f->f64, call(f, KJ_B_SIN, 1, f->i32));
    assert_ptr_equal(f->conv[0], f->f64);
    OK(f->f64, call(f, KJ_B_SQRT, 1, f->wf)); /* math.sqrt(0.5): a Python float */
    OK(f->f64, call(f, KJ_B_EXP, 1, f->wi));
    OK(f->f64, call(f, KJ_B_LOG, 1, f->b));
    OK(AC(f, f->f32, 2), call(f, KJ_B_SIN, 1, A(f, f->f32, 2, KJ_LAYOUT_A)));
    OK(AC(f, f->f64, 1), call(f, KJ_B_COS, 1, AC(f, f->i32, 1)));
    ERR("math.sin() argument must be a number, not (int64, int64)", 10,
        call(f, KJ_B_SIN, 1, T2(f, f->i64, f->i64)));
    ERR("math.sin() argument must be a number, not str", 10, call(f, KJ_B_SIN, 1, f->str));
    OK(f->b, call(f, KJ_B_ISNAN, 1, f->f32));
    OK(f->b, call(f, KJ_B_ISINF, 1, f->i64));
    assert_ptr_equal(f->conv[0], f->f64);
    OK(AC(f, f->b, 1), call(f, KJ_B_ISFINITE, 1, AC(f, f->f64, 1)));
    OK(f->i64, call(f, KJ_B_FLOOR, 1, f->f32));
    OK(f->i64, call(f, KJ_B_CEIL, 1, f->wf));
    OK(f->i64, call(f, KJ_B_TRUNC, 1, f->i32));
    assert_ptr_equal(f->conv[0], f->i64);
    OK(f->u64, call(f, KJ_B_FLOOR, 1, f->u64));
    OK(AC(f, f->f32, 1), call(f, KJ_B_FLOOR, 1, AC(f, f->f32, 1))); /* np.floor keeps floats */
    OK(f->f32, call(f, KJ_B_ATAN2, 2, f->f32, f->wf));
    assert_null(f->conv[0]);
    assert_ptr_equal(f->conv[1], f->f32);
    OK(f->f64, call(f, KJ_B_ATAN2, 2, f->f32, f->f64));
    OK(f->f64, call(f, KJ_B_HYPOT, 2, f->i32, f->i32));
    OK(f->f32, call(f, KJ_B_POW, 2, f->f32, f->wi));
    OK(f->f64, call(f, KJ_B_POW, 2, f->wi, f->wi));
    OK(f->f32, call(f, KJ_B_COPYSIGN, 2, f->f32, f->i16));
    OK(f->f64, call(f, KJ_B_FMOD, 2, f->f32, f->i32));
    OK(AC(f, f->f64, 2), call(f, KJ_B_HYPOT, 2, AC(f, f->f32, 1), AC(f, f->f64, 2)));
    OK(AC(f, f->f32, 1), call(f, KJ_B_POW, 2, AC(f, f->f32, 1), f->wf));
    assert_null(f->conv[0]);
    assert_ptr_equal(f->conv[1], f->f32);
    ERR("math.atan2() argument 'y' must be a number or an array, not str", 10,
        call(f, KJ_B_ATAN2, 2, f->str, f->f32));
    ERR("math.atan2() argument 'x' must be a number or an array, not none", 20,
        call(f, KJ_B_ATAN2, 2, f->f32, f->none));
    OK(f->i32, call(f, KJ_B_NP_MINIMUM, 2, f->i32, f->wi));
    OK(f->b, call(f, KJ_B_NP_MAXIMUM, 2, f->b, f->b));
    OK(AC(f, f->f64, 1), call(f, KJ_B_NP_MINIMUM, 2, AC(f, f->i32, 1), f->wf));
    OK(f->wf, call(f, KJ_B_PI, 0));
    OK(f->wf, call(f, KJ_B_NAN, 0));
}

static void test_type_python(void **state)
{
    fix *f = *state;
    OK(f->i32, call(f, KJ_B_ABS, 1, f->i32));
    OK(f->wf, call(f, KJ_B_ABS, 1, f->wf));
    OK(f->i64, call(f, KJ_B_ABS, 1, f->b));
    assert_ptr_equal(f->conv[0], f->i64);
    OK(AC(f, f->f32, 1), call(f, KJ_B_ABS, 1, A(f, f->f32, 1, KJ_LAYOUT_A)));
    OK(f->f64, call(f, KJ_B_MIN, 2, f->i32, f->f32));
    assert_ptr_equal(f->conv[0], f->f64);
    assert_ptr_equal(f->conv[1], f->f64);
    OK(f->f32, call(f, KJ_B_MAX, 3, f->wi, f->f32, f->wf));
    OK(f->wi, call(f, KJ_B_MAX, 2, f->wi, f->wi));
    OK(f->i64, call(f, KJ_B_MIN, 1, T2(f, f->i32, f->i64)));
    assert_ptr_equal(f->conv[0], T2(f, f->i64, f->i64));
    /* one array (issue 23 point 8): its elements; n-d arrays refused */
    OK(f->i32, call(f, KJ_B_MIN, 1, AC(f, f->i32, 1)));
    OK(f->b, call(f, KJ_B_MAX, 1, A(f, f->b, 1, KJ_LAYOUT_A)));
    OK(f->f32, call(f, KJ_B_MIN, 1, AC(f, f->f32, 1)));
    ERR("max() of a 2-d array compares its rows, whose truth value is ambiguous", 10,
        call(f, KJ_B_MAX, 1, AC(f, f->i64, 2)));
    /* sum(iterable, start=0): tuples unify with start, int arrays are int64 */
    OK(f->f64, call(f, KJ_B_SUM, 1, T2(f, f->i32, f->f64)));
    OK(f->i64, call(f, KJ_B_SUM, 2, AC(f, f->i32, 1), f->wi));
    OK(f->i64, call(f, KJ_B_SUM, 1, T2(f, f->b, f->b)));
    OK(f->f32, call(f, KJ_B_SUM, 1, AC(f, f->f32, 1)));
    OK(f->f64, call(f, KJ_B_SUM, 2, AC(f, f->f32, 1), f->f64));
    ERR("sum() of array(uint8, 1d, C) is not supported (Python adds element by element)", 1,
        call(f, KJ_B_SUM, 1, AC(f, f->u8, 1)));
    /* any/all: a 1-d array or a tuple of numbers, bool */
    OK(f->b, call(f, KJ_B_ANY, 1, AC(f, f->f64, 1)));
    OK(f->b, call(f, KJ_B_ALL, 1, T2(f, f->i32, f->f64)));
    ERR("all() of a 2-d array takes the truth of its rows, which is ambiguous", 10,
        call(f, KJ_B_ALL, 1, AC(f, f->i64, 2)));
    ERR("round() of an array is not supported", 10, call(f, KJ_B_ROUND, 1, AC(f, f->f64, 1)));
    ERR("max() expects 2 or more arguments", 1, call(f, KJ_B_MAX, 1, f->f32));
    ERR("max() expects 2 or more arguments", 1, call(f, KJ_B_MAX, 0));
    ERR("max() argument must be a number, not array(float32, 1d, C)", 20,
        call(f, KJ_B_MAX, 2, f->f32, AC(f, f->f32, 1)));
    OK(f->i64, call(f, KJ_B_INT, 1, f->f32));
    assert_null(f->conv[0]);
    OK(f->f64, call(f, KJ_B_FLOAT, 1, f->i32));
    OK(f->b, call(f, KJ_B_BOOL, 1, f->f32));
    ERR("int() argument must be a number, not str", 10, call(f, KJ_B_INT, 1, f->str));
    OK(f->i64, call(f, KJ_B_ROUND, 2, f->f32, NA));
    OK(f->f32, call(f, KJ_B_ROUND, 2, f->f32, f->wi));
    ERR("round() argument 'ndigits' must be an integer, not float32", 20,
        call(f, KJ_B_ROUND, 2, f->f32, f->f32));
    OK(f->i64, call(f, KJ_B_LEN, 1, AC(f, f->f32, 2)));
    OK(f->i64, call(f, KJ_B_LEN, 1, T2(f, f->i32, f->f32)));
    ERR("len() argument must be an array or a tuple, not int32", 10, call(f, KJ_B_LEN, 1, f->i32));
    OK(kj_t_range(f->t, f->i64), call(f, KJ_B_RANGE, 1, f->wi));
    assert_ptr_equal(f->conv[0], f->i64);
    OK(kj_t_range(f->t, f->i32), call(f, KJ_B_RANGE, 2, f->i32, f->wi));
    OK(kj_t_range(f->t, f->i64), call(f, KJ_B_PRANGE, 3, f->i32, f->i64, f->wi));
    OK(kj_t_range(f->t, f->i64), call(f, KJ_B_RANGE, 2, f->i64, f->u64));
    OK(kj_t_range(f->t, f->u32), call(f, KJ_B_RANGE, 1, f->u32));
    ERR("range() arguments must be integers, not float32", 20,
        call(f, KJ_B_RANGE, 2, f->wi, f->f32));
    ERR("range() arguments must be integers, not float", 10, call(f, KJ_B_RANGE, 1, f->wf));
    ERR("range() takes 1 to 3 arguments but 0 were given", 1, call(f, KJ_B_RANGE, 0));
    ERR("range() takes 1 to 3 arguments but 4 were given", 1,
        call(f, KJ_B_RANGE, 4, f->wi, f->wi, f->wi, f->wi));
    OK(f->none, call(f, KJ_B_PRINT, 4, f->str, AC(f, f->f32, 1), NA, f->str));
    OK(f->none, call(f, KJ_B_PRINT, 2, NA, NA));
    ERR("print() argument 'sep' must be a string, not int", 20,
        call(f, KJ_B_PRINT, 3, f->i32, f->wi, NA));
}

static void test_type_convert(void **state)
{
    fix *f = *state;
    kj_barg a = {.type = f->i64, .span = arg_span(0)};
    OK(f->f32, typev(f, KJ_B_CONVERT, f->f32, &a, 1));
    assert_null(f->conv[0]);
    OK(f->u8, typev(f, KJ_B_CONVERT, DT(f, f->u8), &a, 1));
    a.type = AC(f, f->i64, 2);
    OK(AC(f, f->f32, 2), typev(f, KJ_B_CONVERT, f->f32, &a, 1));
    a.type = f->str;
    ERR("float32() argument must be a number, not str", 10, typev(f, KJ_B_CONVERT, f->f32, &a, 1));
    a.type = f->i32;
    assert_null(typev(f, KJ_B_CONVERT, NULL, &a, 1));
    assert_int_equal(f->d.n, 1);
}

/* ---- typing: host NumPy and array methods ------------------------------------------------------
 */

static void test_type_numpy(void **state)
{
    fix *f = *state;
    OK(AC(f, f->f64, 1), call(f, KJ_B_NP_ZEROS, 2, f->wi, NA));
    assert_ptr_equal(f->conv[0], f->i64);
    OK(AC(f, f->f32, 2), call(f, KJ_B_NP_ONES, 2, T2(f, f->i32, f->wi), DT(f, f->f32)));
    assert_ptr_equal(f->conv[0], T2(f, f->i64, f->i64));
    OK(AC(f, f->i64, 4), call(f, KJ_B_NP_EMPTY, 2, TN(f, f->i64, 4), DT(f, f->i64)));
    assert_null(f->conv[0]);
    OK(AC(f, f->f64, 1), call(f, KJ_B_NP_ZEROS, 2, f->wi, f->none)); /* dtype=None */
    ERR("np.zeros() argument 'shape' must be an int or a tuple of ints, not float32", 10,
        call(f, KJ_B_NP_ZEROS, 2, f->f32, NA));
    ERR("np.zeros() argument 'shape' must be an int or a tuple of ints, not (int64, float32)", 10,
        call(f, KJ_B_NP_ZEROS, 2, T2(f, f->i64, f->f32), NA));
    ERR("np.zeros() shape must have 1 to 4 dimensions, not 5", 10,
        call(f, KJ_B_NP_ZEROS, 2, TN(f, f->i64, 5), NA));
    ERR("np.zeros() argument 'dtype' must be a dtype such as np.float32, not float32", 20,
        call(f, KJ_B_NP_ZEROS, 2, f->wi, f->f32));
    OK(AC(f, f->i64, 1), call(f, KJ_B_NP_FULL, 3, f->wi, f->wi, NA)); /* np.full(3, 7) */
    assert_ptr_equal(f->conv[1], f->i64);
    OK(AC(f, f->f32, 1), call(f, KJ_B_NP_FULL, 3, f->wi, f->wf, DT(f, f->f32)));
    assert_ptr_equal(f->conv[1], f->f32);
    OK(AC(f, f->f32, 2), call(f, KJ_B_NP_FULL, 3, T2(f, f->wi, f->wi), f->f32, NA));
    OK(AC(f, f->f32, 2), call(f, KJ_B_NP_ZEROS_LIKE, 2, A(f, f->f32, 2, KJ_LAYOUT_F), NA));
    OK(AC(f, f->i32, 2), call(f, KJ_B_NP_EMPTY_LIKE, 2, AC(f, f->f32, 2), DT(f, f->i32)));
    OK(AC(f, f->f32, 1), call(f, KJ_B_NP_FULL_LIKE, 3, AC(f, f->f32, 1), f->wi, NA));
    assert_ptr_equal(f->conv[1], f->f32);
    ERR("np.ones_like() argument 'a' must be an array, not int", 10,
        call(f, KJ_B_NP_ONES_LIKE, 2, f->wi, NA));
    OK(AC(f, f->i64, 1), call(f, KJ_B_NP_ARANGE, 4, f->wi, NA, NA, NA));
    OK(AC(f, f->f64, 1), call(f, KJ_B_NP_ARANGE, 4, f->wi, f->wf, NA, NA));
    OK(AC(f, f->f32, 1), call(f, KJ_B_NP_ARANGE, 4, f->wi, NA, NA, DT(f, f->f32)));
    OK(AC(f, f->f64, 1), call(f, KJ_B_NP_LINSPACE, 5, f->wi, f->wi, f->wi, NA, NA));
    OK(f->none, call(f, KJ_B_NP_RANDOM_SEED, 1, f->wi));
    ERR("np.random.seed() argument must be an integer, not float", 10,
        call(f, KJ_B_NP_RANDOM_SEED, 1, f->wf));
    OK(f->f64, call(f, KJ_B_NP_RANDOM_RAND, 0));
    OK(AC(f, f->f64, 2), call(f, KJ_B_NP_RANDOM_RAND, 2, f->wi, f->i32));
    OK(f->f64, call(f, KJ_B_NP_RANDOM_RANDOM, 1, NA));
    OK(f->f64, call(f, KJ_B_NP_RANDOM_RANDOM, 1, f->none));
    OK(AC(f, f->f64, 2), call(f, KJ_B_NP_RANDOM_RANDOM, 1, T2(f, f->wi, f->wi)));
    OK(f->i64, call(f, KJ_B_NP_RANDOM_RANDINT, 4, f->wi, f->wi, NA, NA));
    OK(AC(f, f->i64, 1), call(f, KJ_B_NP_RANDOM_RANDINT, 4, f->wi, f->wi, f->wi, NA));
    OK(AC(f, f->i32, 2),
       call(f, KJ_B_NP_RANDOM_RANDINT, 4, f->wi, NA, T2(f, f->wi, f->wi), DT(f, f->i32)));
    ERR("np.load needs a dtype and shape known at compile time; use np.load(...) only where its "
        "type can be inferred",
        1, call(f, KJ_B_NP_LOAD, 1, f->str));
    kj_barg file = {.type = f->str, .span = arg_span(0)};
    OK(AC(f, f->f32, 2), typev(f, KJ_B_NP_LOAD, AC(f, f->f32, 2), &file, 1));
    OK(f->none, call(f, KJ_B_NP_SAVE, 2, f->str, AC(f, f->f32, 1)));
    OK(f->b, call(f, KJ_B_NP_ALLCLOSE, 4, AC(f, f->f32, 1), AC(f, f->f64, 1), NA, f->wf));
    OK(f->i64, call(f, KJ_B_NP_SUM, 1, AC(f, f->i32, 1)));
    OK(f->u64, call(f, KJ_B_NP_SUM, 1, AC(f, f->u8, 1)));
    OK(f->i64, call(f, KJ_B_NP_SUM, 1, AC(f, f->b, 1)));
    OK(f->f32, call(f, KJ_B_NP_SUM, 1, AC(f, f->f32, 3)));
    OK(f->i16, call(f, KJ_B_NP_MIN, 1, AC(f, f->i16, 1)));
    OK(f->f64, call(f, KJ_B_NP_MEAN, 1, AC(f, f->i32, 1)));
    OK(f->f32, call(f, KJ_B_NP_STD, 1, AC(f, f->f32, 1)));
    ERR("np.sum() argument 'a' must be an array, not int32", 10, call(f, KJ_B_NP_SUM, 1, f->i32));
    /* axis=: an int drops that axis (a scalar from 1-d), None keeps the whole-array form */
    OK(AC(f, f->f32, 2), call(f, KJ_B_NP_SUM, 2, AC(f, f->f32, 3), f->i64));
    OK(f->f64, call(f, KJ_B_NP_MEAN, 2, AC(f, f->i32, 1), f->i64));
    OK(f->f32, call(f, KJ_B_NP_VAR, 2, AC(f, f->f32, 2), f->none));
    OK(AC(f, f->i64, 1), call(f, KJ_B_NP_ARGMIN, 2, AC(f, f->f64, 2), f->i32));
    OK(AC(f, f->u64, 1), call(f, KJ_B_NP_PROD, 2, AC(f, f->u8, 2), f->i64));
    OK(f->f64, call(f, KJ_B_NP_STD, 3, AC(f, f->f64, 2), NA, f->i64));
    ERR("np.sum() argument 'axis' must be an integer or None, not float64", 20,
        call(f, KJ_B_NP_SUM, 2, AC(f, f->f32, 2), f->f64));
    ERR("np.std() argument 'ddof' must be an integer, not float64", 30,
        call(f, KJ_B_NP_STD, 3, AC(f, f->f32, 2), NA, f->f64));
    OK(f->f64, call(f, KJ_B_TIME_PERF_COUNTER, 0));
}

static void test_type_methods(void **state)
{
    fix *f = *state;
    const kj_type *a = A(f, f->f32, 2, KJ_LAYOUT_A);
    OK(AC(f, f->i32, 2), call(f, KJ_B_ARR_ASTYPE, 2, a, DT(f, f->i32)));
    OK(AC(f, f->f32, 2), call(f, KJ_B_ARR_COPY, 1, a));
    OK(AC(f, f->f32, 2), call(f, KJ_B_ARR_COPY_TO_HOST, 1, a));
    /* a reshaped A array may be a strided view (b[::2].reshape(-1)); a C one stays C */
    OK(A(f, f->f32, 2, KJ_LAYOUT_A), call(f, KJ_B_ARR_RESHAPE, 3, a, f->wi, f->wi));
    OK(A(f, f->f32, 3, KJ_LAYOUT_A), call(f, KJ_B_ARR_RESHAPE, 2, a, TN(f, f->wi, 3)));
    OK(A(f, f->f32, 1, KJ_LAYOUT_A), call(f, KJ_B_ARR_RESHAPE, 2, a, f->wi));
    OK(AC(f, f->f32, 1), call(f, KJ_B_ARR_RESHAPE, 2, AC(f, f->f32, 3), f->wi));
    OK(A(f, f->f32, 1, KJ_LAYOUT_A), call(f, KJ_B_ARR_RESHAPE, 2, A(f, f->f32, 2, KJ_LAYOUT_F), f->wi));
    OK(AC(f, f->f32, 1), call(f, KJ_B_ARR_RAVEL, 1, a));
    ERR("array.reshape() missing required argument 'shape'", 1, call(f, KJ_B_ARR_RESHAPE, 1, a));
    OK(f->f32, call(f, KJ_B_ARR_SUM, 1, a));
    OK(f->f32, call(f, KJ_B_ARR_MAX, 1, a));
    OK(f->f64, call(f, KJ_B_ARR_MEAN, 1, AC(f, f->i64, 1)));
    OK(f->none, call(f, KJ_B_ARR_FILL, 2, a, f->wi));
    assert_ptr_equal(f->conv[1], f->f32);
    OK(T2(f, f->i64, f->i64), call(f, KJ_B_ARR_SHAPE, 1, a));
    OK(f->i64, call(f, KJ_B_ARR_SIZE, 1, a));
    OK(f->i64, call(f, KJ_B_ARR_NDIM, 1, a));
    OK(DT(f, f->f32), call(f, KJ_B_ARR_DTYPE, 1, a));
    ERR("'int64' object has no attribute 'shape'", 10, call(f, KJ_B_ARR_SHAPE, 1, f->i64));
    ERR("'float32' object has no attribute 'astype'", 10,
        call(f, KJ_B_ARR_ASTYPE, 2, f->f32, DT(f, f->i32)));
}

static void test_type_cuda_host(void **state)
{
    fix *f = *state;
    const kj_type *a = A(f, f->f32, 2, KJ_LAYOUT_A), *st = kj_t_opaque(f->t, "stream"),
                  *ev = kj_t_opaque(f->t, "event");
    OK(a, call(f, KJ_B_CUDA_TO_DEVICE, 2, a, NA));
    OK(a, call(f, KJ_B_CUDA_TO_DEVICE, 2, a, st));
    ERR("cuda.to_device() argument 'stream' must be a stream, not float32", 20,
        call(f, KJ_B_CUDA_TO_DEVICE, 2, a, f->f32));
    OK(AC(f, f->f32, 2),
       call(f, KJ_B_CUDA_DEVICE_ARRAY, 3, T2(f, f->wi, f->wi), DT(f, f->f32), NA));
    OK(AC(f, f->f64, 1), call(f, KJ_B_CUDA_DEVICE_ARRAY, 3, f->wi, NA, NA));
    OK(AC(f, f->f32, 2), call(f, KJ_B_CUDA_DEVICE_ARRAY_LIKE, 2, a, NA));
    OK(f->none, call(f, KJ_B_CUDA_SYNCHRONIZE, 0));
    OK(st, call(f, KJ_B_CUDA_STREAM, 0));
    OK(ev, call(f, KJ_B_CUDA_EVENT, 1, NA));
    OK(f->f32, call(f, KJ_B_CUDA_EVENT_ELAPSED_TIME, 2, ev, ev));
    ERR("cuda.event_elapsed_time() argument 'evtend' must be a cuda event, not stream", 20,
        call(f, KJ_B_CUDA_EVENT_ELAPSED_TIME, 2, ev, st));
    OK(f->none, call(f, KJ_B_STREAM_SYNCHRONIZE, 1, st));
    OK(f->none, call(f, KJ_B_EVENT_RECORD, 2, ev, st));
    OK(f->none, call(f, KJ_B_EVENT_SYNCHRONIZE, 1, ev));
}

/* ---- typing: kernels
 * ------------------------------------------------------------------------------ */

static const kj_type *grid(fix *f, kj_builtin id, const kj_type *ty, bool is_const, int64_t v)
{
    kj_barg a = {.type = ty, .span = arg_span(0), .is_const = is_const, .ival = v};
    return typev(f, id, NULL, &a, 1);
}

static void test_type_kernel(void **state)
{
    fix *f = *state;
    OK(f->i64, grid(f, KJ_B_CUDA_GRID, f->wi, true, 1));
    OK(T2(f, f->i64, f->i64), grid(f, KJ_B_CUDA_GRID, f->wi, true, 2));
    OK(TN(f, f->i64, 3), grid(f, KJ_B_CUDA_GRIDSIZE, f->wi, true, 3));
    ERR("cuda.grid() argument must be a constant 1, 2 or 3", 10,
        grid(f, KJ_B_CUDA_GRID, f->i64, false, 0));
    ERR("cuda.grid() argument must be a constant 1, 2 or 3", 10,
        grid(f, KJ_B_CUDA_GRID, f->wi, true, 4));
    OK(f->i32, call(f, KJ_B_TID_X, 0));
    OK(f->i32, call(f, KJ_B_GDIM_Z, 0));
    OK(f->i32, call(f, KJ_B_WARPSIZE, 0));
    OK(f->none, call(f, KJ_B_SYNCTHREADS, 0));
    OK(f->none, call(f, KJ_B_THREADFENCE_BLOCK, 0));
    OK(f->none, call(f, KJ_B_SYNCWARP, 1, NA));
    OK(f->i32, call(f, KJ_B_SYNCTHREADS_COUNT, 1, f->b));
    OK(f->i32, call(f, KJ_B_SYNCTHREADS_OR, 1, f->i32));
    assert_ptr_equal(f->conv[0], f->b);
    OK(AC(f, f->f32, 1), call(f, KJ_B_SHARED_ARRAY, 2, f->wi, DT(f, f->f32)));
    OK(AC(f, f->i32, 2), call(f, KJ_B_LOCAL_ARRAY, 2, T2(f, f->wi, f->wi), DT(f, f->i32)));
    ERR("cuda.shared.array() argument 'dtype' must be a dtype such as np.float32, not float32", 20,
        call(f, KJ_B_SHARED_ARRAY, 2, f->wi, f->f32));
}

static void test_type_atomics(void **state)
{
    fix *f = *state;
    const kj_type *a1 = AC(f, f->f32, 1), *a2 = A(f, f->f32, 2, KJ_LAYOUT_A);
    OK(f->f32, call(f, KJ_B_ATOMIC_ADD, 3, a1, f->wi, f->wf));
    assert_ptr_equal(f->conv[1], f->i64);
    assert_ptr_equal(f->conv[2], f->f32);
    OK(f->f32, call(f, KJ_B_ATOMIC_MAX, 3, a2, T2(f, f->i32, f->wi), f->f64));
    assert_ptr_equal(f->conv[1], T2(f, f->i64, f->i64));
    assert_ptr_equal(f->conv[2], f->f32);
    OK(f->f32, call(f, KJ_B_ATOMIC_SUB, 3, a1, kj_t_tuple(f->t, &f->wi, 1), f->wf));
    ERR("cuda.atomic.add() index has 1 component but the array has 2 dimensions", 20,
        call(f, KJ_B_ATOMIC_ADD, 3, a2, f->i32, f->wf));
    ERR("cuda.atomic.add() index has 3 components but the array has 1 dimension", 20,
        call(f, KJ_B_ATOMIC_ADD, 3, a1, TN(f, f->i32, 3), f->wf));
    ERR("cuda.atomic.add() argument 'idx' must be an int or a tuple of ints, not float32", 20,
        call(f, KJ_B_ATOMIC_ADD, 3, a1, f->f32, f->wf));
    ERR("cuda.atomic.and_() argument 'ary' must be an array of int32, uint32, int64 or uint64, not "
        "array(float32, 1d, C)",
        10, call(f, KJ_B_ATOMIC_AND, 3, a1, f->wi, f->wi));
    ERR("cuda.atomic.add() argument 'ary' must be an array of int32, uint32, int64, uint64, "
        "float32 "
        "or float64, not array(int16, 1d, C)",
        10, call(f, KJ_B_ATOMIC_ADD, 3, AC(f, f->i16, 1), f->wi, f->wi));
    OK(f->u32, call(f, KJ_B_ATOMIC_OR, 3, AC(f, f->u32, 1), f->wi, f->wi));
    OK(f->i64, call(f, KJ_B_ATOMIC_EXCH, 3, AC(f, f->i64, 1), f->wi, f->wi));
    ERR("cuda.atomic.exch() argument 'ary' must be an array of int32, uint32, int64 or uint64, not "
        "array(float64, 1d, C)",
        10, call(f, KJ_B_ATOMIC_EXCH, 3, AC(f, f->f64, 1), f->wi, f->wi));
    OK(f->i32, call(f, KJ_B_ATOMIC_CAS, 4, AC(f, f->i32, 2), T2(f, f->wi, f->wi), f->wi, f->wi));
    assert_ptr_equal(f->conv[2], f->i32);
    assert_ptr_equal(f->conv[3], f->i32);
    OK(f->i64, call(f, KJ_B_ATOMIC_CAS2, 3, AC(f, f->i64, 1), f->wi, f->wi));
    ERR("cuda.atomic.compare_and_swap() argument 'ary' must be a 1-dimensional array, not "
        "array(int64, 2d, C)",
        10, call(f, KJ_B_ATOMIC_CAS2, 3, AC(f, f->i64, 2), f->wi, f->wi));
    ERR("cuda.atomic.add() argument 'val' must be a number, not array(float32, 1d, C)", 30,
        call(f, KJ_B_ATOMIC_ADD, 3, a1, f->wi, a1));
}

static void test_type_warp(void **state)
{
    fix *f = *state;
    OK(f->f32, call(f, KJ_B_SHFL_SYNC, 3, f->wi, f->f32, f->wi));
    assert_ptr_equal(f->conv[0], f->u32);
    assert_ptr_equal(f->conv[2], f->i32);
    OK(f->i64, call(f, KJ_B_SHFL_DOWN_SYNC, 3, f->u32, f->wi, f->wi));
    OK(f->i32, call(f, KJ_B_SHFL_XOR_SYNC, 3, f->u32, f->i8, f->wi));
    OK(f->f64, call(f, KJ_B_SHFL_UP_SYNC, 3, f->u32, f->wf, f->wi));
    ERR("cuda.shfl_sync() argument 'value' must be a number, not array(float32, 1d, C)", 20,
        call(f, KJ_B_SHFL_SYNC, 3, f->u32, AC(f, f->f32, 1), f->wi));
    OK(f->b, call(f, KJ_B_ALL_SYNC, 2, f->wi, f->b));
    OK(f->b, call(f, KJ_B_ANY_SYNC, 2, f->wi, f->i32));
    OK(f->i32, call(f, KJ_B_BALLOT_SYNC, 2, f->wi, f->b));
    OK(f->u32, call(f, KJ_B_ACTIVEMASK, 0));
    OK(f->u64, call(f, KJ_B_POPC, 1, f->u64));
    OK(f->i32, call(f, KJ_B_POPC, 1, f->i32));
    OK(f->i64, call(f, KJ_B_CLZ, 1, f->wi));
    OK(f->u32, call(f, KJ_B_FFS, 1, f->i64));
    OK(f->u32, call(f, KJ_B_BREV, 1, f->i32));
    assert_ptr_equal(f->conv[0], f->u32);
    OK(f->u64, call(f, KJ_B_BREV, 1, f->u64));
    ERR("cuda.popc() argument must be an integer, not float32", 10, call(f, KJ_B_POPC, 1, f->f32));
    OK(f->f32, call(f, KJ_B_FMA, 3, f->f32, f->f32, f->wf));
    OK(f->f64, call(f, KJ_B_FMA, 3, f->f32, f->f64, f->wi));
    OK(f->f64, call(f, KJ_B_FMA, 3, f->i32, f->wi, f->wi));
}

/* Every built-in reaches a typing rule: called with no arguments, it either
 * types or reports a user-facing error, never an internal one. The
 * operator ufuncs (np.add: kj_builtin_operator) are typed as their
 * operators by inference instead. */
static void test_every_builtin_has_a_rule(void **state)
{
    fix *f = *state;
    kj_opufunc o;
    assert_true(kj_builtin_operator(KJ_B_NP_ADD, &o) && o.kind == KJ_OPU_BINARY);
    assert_true(kj_builtin_operator(KJ_B_NP_SQUARE, &o) && o.kind == KJ_OPU_SQUARE);
    assert_false(kj_builtin_operator(KJ_B_NP_MINIMUM, &o));
    for (int id = 0; id < KJ_B__COUNT; id++) {
        if (kj_builtin_operator((kj_builtin)id, &o)) continue;
        kj_diags_free(&f->d);
        const kj_type *r =
            kj_builtin_type(f->t, (kj_builtin)id, NULL, NULL, 0, CALL, NULL, &f->d, NULL);
        if (!r && f->d.n != 1)
            fail_msg("%s: NULL with %u errors", kj_builtin_get(id)->path, f->d.n);
        if (f->d.n && !strncmp(f->d.v[0].msg, "internal", 8))
            fail_msg("%s: %s", kj_builtin_get(id)->path, f->d.v[0].msg);
    }
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && !strcmp(s + n - k, tail);
}

/* The properties passes ask (kj_builtin_has) against what the built-ins'
 * names and places say, so that a new row that forgets its flag fails
 * here rather than miscompiling: every `*_sync`, syncwarp and activemask
 * is a warp operation and only they are; every syncthreads* (and the grid
 * group's sync) a barrier;
 * mpi4py's names and cuda.gpus / select_device are KJ_BF_MPI; kernel-only
 * properties only on device built-ins, host ones never on them. */
static void test_properties(void **state)
{
    (void)state;
    unsigned nwarp = 0, nbarrier = 0;
    for (unsigned id = 0; id < KJ_B__COUNT; id++) {
        const kj_builtin_info *bi = kj_builtin_get((kj_builtin)id);
        const char *p = bi->path;
        bool warp = !strncmp(p, "cuda.", 5) && (ends_with(p, "_sync") || !strcmp(p, "cuda.syncwarp") ||
                                                !strcmp(p, "cuda.activemask"));
        bool barrier = !strncmp(p, "cuda.syncthreads", 16) || !strcmp(p, "grid_group.sync");
        bool mpi = !strncmp(p, "MPI.", 4) || !strncmp(p, "comm.", 5) || !strncmp(p, "request.", 8) ||
                   !strcmp(p, "cuda.gpus") || !strcmp(p, "cuda.select_device");
        if (kj_builtin_has(id, KJ_BF_WARP) != warp) fail_msg("%s: KJ_BF_WARP %s", p, warp ? "missing" : "set");
        if (kj_builtin_has(id, KJ_BF_BARRIER) != barrier)
            fail_msg("%s: KJ_BF_BARRIER %s", p, barrier ? "missing" : "set");
        if (kj_builtin_has(id, KJ_BF_MPI) != mpi) fail_msg("%s: KJ_BF_MPI %s", p, mpi ? "missing" : "set");
        if (kj_builtin_has(id, KJ_BF_WARP | KJ_BF_BARRIER | KJ_BF_UNIFORM) && !(bi->flags & KJ_BF_DEV))
            fail_msg("%s: a kernel property on a built-in kernels cannot call", p);
        if (kj_builtin_has(id, KJ_BF_READS | KJ_BF_MPI) && (bi->flags & KJ_BF_DEV))
            fail_msg("%s: a host property on a device built-in", p);
        if (kj_builtin_has(id, KJ_BF_FMATH) && strncmp(p, "math.", 5)) fail_msg("%s: KJ_BF_FMATH off math.*", p);
        nwarp += warp, nbarrier += barrier;
    }
    assert_int_equal(nwarp, 12);
    assert_int_equal(nbarrier, 5);
    assert_false(kj_builtin_has(KJ_B__COUNT, ~0u)); /* not a built-in */
    assert_true(kj_builtin_has(KJ_B_SYNCWARP, KJ_BF_BARRIER | KJ_BF_WARP));
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_lookup),
        T(test_children),
        T(test_bind),
        T(test_type_math),
        T(test_type_python),
        T(test_type_convert),
        T(test_type_numpy),
        T(test_type_methods),
        T(test_type_cuda_host),
        T(test_type_kernel),
        T(test_type_atomics),
        T(test_type_warp),
        T(test_every_builtin_has_a_rule),
        T(test_properties),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
