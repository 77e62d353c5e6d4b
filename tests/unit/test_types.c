/* SPDX-License-Identifier: BSD-2-Clause */
/* Types: interning, names, NumPy 2 / NEP 50 promotion, unification,
 * conversion, signature and layout parsing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/types.h"

typedef struct {
    kj_arena a;
    kj_types *t;
    kj_diags d;
} fix;

static int setup(void **state)
{
    fix *f = calloc(1, sizeof *f);
    kj_arena_init(&f->a);
    f->t = kj_types_new(&f->a);
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

/* The 11 strong scalar types in NumPy's order. */
enum { B, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64, NSCALAR };

static const kj_type *sc(kj_types *t, int k)
{
    switch (k) {
    case B: return kj_t_bool(t);
    case I8: return kj_t_int(t, 8, true);
    case I16: return kj_t_int(t, 16, true);
    case I32: return kj_t_int(t, 32, true);
    case I64: return kj_t_int(t, 64, true);
    case U8: return kj_t_int(t, 8, false);
    case U16: return kj_t_int(t, 16, false);
    case U32: return kj_t_int(t, 32, false);
    case U64: return kj_t_int(t, 64, false);
    case F32: return kj_t_float(t, 32);
    default: return kj_t_float(t, 64);
    }
}

/* ---- interning and names ------------------------------------------------------ */

static void test_interning(void **state)
{
    fix *f = *state;
    kj_types *t = f->t;
    assert_ptr_equal(kj_t_int(t, 32, true), kj_t_int(t, 32, true));
    assert_ptr_not_equal(kj_t_int(t, 32, true), kj_t_int(t, 32, false));
    assert_ptr_not_equal(kj_t_int(t, 64, true), kj_t_weak_int(t));
    assert_ptr_not_equal(kj_t_float(t, 64), kj_t_weak_float(t));
    const kj_type *f32 = kj_t_float(t, 32), *i64 = kj_t_int(t, 64, true);
    assert_ptr_equal(kj_t_array(t, f32, 2, KJ_LAYOUT_C), kj_t_array(t, f32, 2, KJ_LAYOUT_C));
    assert_ptr_not_equal(kj_t_array(t, f32, 2, KJ_LAYOUT_C), kj_t_array(t, f32, 2, KJ_LAYOUT_A));
    assert_ptr_not_equal(kj_t_array(t, f32, 2, KJ_LAYOUT_C), kj_t_array(t, f32, 1, KJ_LAYOUT_C));
    const kj_type *el[2] = {i64, f32};
    const kj_type *tup = kj_t_tuple(t, el, 2);
    el[0] = f32; /* the table copies elems */
    const kj_type *el2[2] = {i64, f32};
    assert_ptr_equal(tup, kj_t_tuple(t, el2, 2));
    assert_ptr_not_equal(tup, kj_t_tuple(t, el, 2));
    assert_ptr_equal(kj_t_opaque(t, "stream"), kj_t_opaque(t, "stream"));
    assert_ptr_not_equal(kj_t_opaque(t, "stream"), kj_t_opaque(t, "event"));
    assert_ptr_equal(kj_t_range(t, i64), kj_t_range(t, i64));
    assert_ptr_equal(kj_t_dtype(t, f32), kj_t_dtype(t, f32));
    assert_ptr_not_equal(kj_t_dtype(t, f32), kj_t_dtype(t, i64));
    /* Ids are dense: every type so far has a distinct id below the count. */
    const kj_type *all[] = {kj_t_none(t),     kj_t_bool(t),      i64, f32, tup, kj_t_str(t),
                            kj_t_weak_int(t), kj_t_weak_float(t)};
    for (size_t i = 0; i < 8; i++)
        for (size_t j = i + 1; j < 8; j++) assert_int_not_equal(all[i]->id, all[j]->id);
}

static void test_interning_many(void **state)
{
    /* Enough types to force the table to grow several times. */
    fix *f = *state;
    const kj_type *first[200];
    for (int i = 0; i < 200; i++) {
        const kj_type *el[3] = {sc(f->t, i % NSCALAR), sc(f->t, (i / NSCALAR) % NSCALAR),
                                sc(f->t, i / 121)};
        first[i] = kj_t_tuple(f->t, el, 3);
    }
    for (int i = 0; i < 200; i++) {
        const kj_type *el[3] = {sc(f->t, i % NSCALAR), sc(f->t, (i / NSCALAR) % NSCALAR),
                                sc(f->t, i / 121)};
        assert_ptr_equal(first[i], kj_t_tuple(f->t, el, 3));
        assert_true(first[i]->id < 400);
    }
}

static void test_names(void **state)
{
    fix *f = *state;
    kj_types *t = f->t;
    static const char *want[NSCALAR] = {"bool",   "int8",   "int16",  "int32",   "int64",  "uint8",
                                        "uint16", "uint32", "uint64", "float32", "float64"};
    for (int k = 0; k < NSCALAR; k++) assert_string_equal(kj_type_str(sc(t, k)), want[k]);
    assert_string_equal(kj_type_str(kj_t_weak_int(t)), "int");
    assert_string_equal(kj_type_str(kj_t_weak_float(t)), "float");
    assert_string_equal(kj_type_str(kj_t_none(t)), "none");
    assert_string_equal(kj_type_str(kj_t_str(t)), "str");
    const kj_type *f32 = sc(t, F32), *i64 = sc(t, I64);
    assert_string_equal(kj_type_str(kj_t_array(t, f32, 2, KJ_LAYOUT_C)), "array(float32, 2d, C)");
    assert_string_equal(kj_type_str(kj_t_array(t, i64, 1, KJ_LAYOUT_A)), "array(int64, 1d, A)");
    assert_string_equal(kj_type_str(kj_t_array(t, f32, 3, KJ_LAYOUT_F)), "array(float32, 3d, F)");
    const kj_type *el[2] = {i64, f32};
    assert_string_equal(kj_type_str(kj_t_tuple(t, el, 2)), "(int64, float32)");
    assert_string_equal(kj_type_str(kj_t_tuple(t, el, 1)), "(int64,)");
    assert_string_equal(kj_type_str(kj_t_tuple(t, el, 0)), "()");
    const kj_type *nested[2] = {kj_t_tuple(t, el, 2), kj_t_array(t, f32, 1, KJ_LAYOUT_C)};
    assert_string_equal(kj_type_str(kj_t_tuple(t, nested, 2)),
                        "((int64, float32), array(float32, 1d, C))");
    assert_string_equal(kj_type_str(kj_t_range(t, i64)), "range(int64)");
    assert_string_equal(kj_type_str(kj_t_dtype(t, f32)), "dtype(float32)");
    assert_string_equal(kj_type_str(kj_t_opaque(t, "stream")), "stream");
    assert_string_equal(kj_type_str(NULL), "?");
    /* bytes, bytearray, memoryview: arrays marked with their kind, as Numba names them */
    const kj_type *u8 = sc(t, U8);
    const kj_type *b = kj_t_buffer(t, KJ_BUF_BYTES, u8, 1, KJ_LAYOUT_C);
    assert_string_equal(kj_type_str(b), "readonly bytes(uint8, 1d, C)");
    assert_string_equal(kj_type_str(kj_t_buffer(t, KJ_BUF_BYTEARRAY, u8, 1, KJ_LAYOUT_C)), "bytearray(uint8, 1d, C)");
    assert_string_equal(kj_type_str(kj_t_buffer(t, KJ_BUF_MEMVIEW_RO, f32, 2, KJ_LAYOUT_A)),
                        "readonly memoryview(float32, 2d, A)");
    assert_ptr_equal(b, kj_t_buffer(t, KJ_BUF_BYTES, u8, 1, KJ_LAYOUT_C));
    assert_ptr_not_equal(b, kj_t_array(t, u8, 1, KJ_LAYOUT_C));
    assert_int_equal(kj_buffer_kind(b), KJ_BUF_BYTES);
    assert_int_equal(kj_buffer_kind(kj_t_array(t, u8, 1, KJ_LAYOUT_C)), KJ_BUF_NOT);
    assert_int_equal(kj_buffer_kind(kj_t_xoro_states(t)), KJ_BUF_NOT);
}

static void test_predicates_strong(void **state)
{
    fix *f = *state;
    kj_types *t = f->t;
    assert_true(kj_is_scalar(kj_t_bool(t)));
    assert_false(kj_is_numeric(kj_t_bool(t)));
    assert_true(kj_is_numeric(kj_t_weak_int(t)));
    assert_true(kj_is_int(kj_t_weak_int(t)));
    assert_true(kj_is_float(kj_t_weak_float(t)));
    assert_false(kj_is_scalar(kj_t_array(t, sc(t, F32), 1, KJ_LAYOUT_C)));
    assert_false(kj_is_scalar(kj_t_none(t)));
    assert_ptr_equal(kj_strong(t, kj_t_weak_int(t)), sc(t, I64));
    assert_ptr_equal(kj_strong(t, kj_t_weak_float(t)), sc(t, F64));
    assert_ptr_equal(kj_strong(t, sc(t, F32)), sc(t, F32));
    const kj_type *w[2] = {kj_t_weak_int(t), sc(t, F32)}, *s[2] = {sc(t, I64), sc(t, F32)};
    assert_ptr_equal(kj_strong(t, kj_t_tuple(t, w, 2)), kj_t_tuple(t, s, 2));
}

static void test_scalar_by_name(void **state)
{
    fix *f = *state;
    kj_types *t = f->t;
    static const struct {
        const char *name;
        int k;
    } cases[] = {
        {"int8", I8},    {"int16", I16},  {"int32", I32},  {"int64", I64},   {"uint8", U8},
        {"uint16", U16}, {"uint32", U32}, {"uint64", U64}, {"float32", F32}, {"float64", F64},
        {"float_", F64}, {"double", F64}, {"single", F32}, {"bool_", B},     {"boolean", B},
        {"b1", B},       {"bool", B},     {"intp", I64},   {"int_", I64},    {"uintp", U64},
        {"f4", F32},     {"f8", F64},     {"i1", I8},      {"i2", I16},      {"i4", I32},
        {"i8", I64},     {"u1", U8},      {"u2", U16},     {"u4", U32},      {"u8", U64},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        assert_ptr_equal(kj_scalar_by_name(t, cases[i].name), sc(t, cases[i].k));
    assert_null(kj_scalar_by_name(t, "flaot32"));
    assert_ptr_equal(kj_scalar_by_name(t, "float16"), kj_t_float(t, 16));
    assert_ptr_equal(kj_scalar_by_name(t, "f2"), kj_t_float(t, 16));
    assert_null(kj_scalar_by_name(t, "float8"));
    assert_null(kj_scalar_by_name(t, ""));
}

/* ---- promotion -------------------------------------------------------------------- */

/* np.result_type(a, b) for every pair, computed once with NumPy 1.24 (the
 * strong-type table is unchanged in NumPy 2). */
static const int8_t result_type[NSCALAR][NSCALAR] = {
    {B, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64},     /* bool */
    {I8, I8, I16, I32, I64, I16, I32, I64, F64, F32, F64},   /* int8 */
    {I16, I16, I16, I32, I64, I16, I32, I64, F64, F32, F64}, /* int16 */
    {I32, I32, I32, I32, I64, I32, I32, I64, F64, F64, F64}, /* int32 */
    {I64, I64, I64, I64, I64, I64, I64, I64, F64, F64, F64}, /* int64 */
    {U8, I16, I16, I32, I64, U8, U16, U32, U64, F32, F64},   /* uint8 */
    {U16, I32, I32, I32, I64, U16, U16, U32, U64, F32, F64}, /* uint16 */
    {U32, I64, I64, I64, I64, U32, U32, U32, U64, F64, F64}, /* uint32 */
    {U64, F64, F64, F64, F64, U64, U64, U64, U64, F64, F64}, /* uint64 */
    {F32, F32, F32, F64, F64, F32, F32, F64, F64, F32, F64}, /* float32 */
    {F64, F64, F64, F64, F64, F64, F64, F64, F64, F64, F64}, /* float64 */
};

static void test_promote_strong(void **state)
{
    fix *f = *state;
    kj_types *t = f->t;
    for (int a = 0; a < NSCALAR; a++)
        for (int b = 0; b < NSCALAR; b++) {
            const kj_type *r = kj_promote(t, sc(t, a), sc(t, b));
            if (r != sc(t, result_type[a][b]))
                fail_msg("%s + %s gave %s, want %s", kj_type_str(sc(t, a)), kj_type_str(sc(t, b)),
                         kj_type_str(r), kj_type_str(sc(t, result_type[a][b])));
        }
}

/* NEP 50, checked against NumPy 1.24 with np._set_promotion_state("weak"):
 * np.array(1, dtype=T)[()] + 1 and + 1.0 for every T. */
/* NumPy with complex: complex64 stays beside float32, int8/16, bool and
 * Python scalars; float64 and wider ints make complex128; complex → real is
 * no implicit conversion. */
static void test_promote_complex(void **state)
{
    fix *f = *state;
    kj_types *t = f->t;
    const kj_type *c64 = kj_t_complex(t, 64), *c128 = kj_t_complex(t, 128);
    assert_string_equal(kj_type_str(c64), "complex64");
    assert_ptr_equal(kj_scalar_by_name(t, "complex128"), c128);
    assert_ptr_equal(kj_scalar_by_name(t, "c8"), c64);
    assert_ptr_equal(kj_promote(t, c64, kj_t_float(t, 32)), c64);
    assert_ptr_equal(kj_promote(t, kj_t_int(t, 16, true), c64), c64);
    assert_ptr_equal(kj_promote(t, c64, kj_t_float(t, 64)), c128);
    assert_ptr_equal(kj_promote(t, kj_t_int(t, 32, true), c64), c128);
    assert_ptr_equal(kj_promote(t, c64, kj_t_weak_float(t)), c64);
    assert_ptr_equal(kj_promote(t, c64, c128), c128);
    assert_ptr_equal(kj_promote(t, kj_t_bool(t), c128), c128);
    assert_ptr_equal(kj_unify(t, kj_t_weak_int(t), c128), c128);
    assert_true(kj_can_convert(kj_t_float(t, 64), c128));
    assert_true(kj_can_convert(c128, c64)); /* same kind */
    assert_false(kj_can_convert(c128, kj_t_float(t, 64)));
    assert_false(kj_can_convert(c64, kj_t_int(t, 64, true)));
    assert_ptr_equal(kj_complex_part(t, c64), kj_t_float(t, 32));
}

static void test_promote_weak(void **state)
{
    fix *f = *state;
    kj_types *t = f->t;
    const kj_type *wi = kj_t_weak_int(t), *wf = kj_t_weak_float(t);
    for (int k = 0; k < NSCALAR; k++) {
        const kj_type *s = sc(t, k);
        /* weak int: the strong type, except bool → int64 (np.True_ + 1) */
        const kj_type *want_i = k == B ? sc(t, I64) : s;
        assert_ptr_equal(kj_promote(t, wi, s), want_i);
        assert_ptr_equal(kj_promote(t, s, wi), want_i);
        /* weak float: a strong float stays, anything else → float64 */
        const kj_type *want_f = k == F32 || k == F64 ? s : sc(t, F64);
        assert_ptr_equal(kj_promote(t, wf, s), want_f);
        assert_ptr_equal(kj_promote(t, s, wf), want_f);
    }
    assert_ptr_equal(kj_promote(t, wi, wi), wi);
    assert_ptr_equal(kj_promote(t, wi, wf), wf);
    assert_ptr_equal(kj_promote(t, wf, wi), wf);
    assert_ptr_equal(kj_promote(t, wf, wf), wf);
    assert_null(kj_promote(t, kj_t_array(t, sc(t, F32), 1, KJ_LAYOUT_C), sc(t, F32)));
    assert_null(kj_promote(t, kj_t_none(t), wi));
    assert_null(kj_promote(t, kj_t_str(t), wi));
}

/* ---- unify and convert ---------------------------------------------------------- */

static void test_unify(void **state)
{
    fix *f = *state;
    kj_types *t = f->t;
    const kj_type *wi = kj_t_weak_int(t), *wf = kj_t_weak_float(t);
    const kj_type *f32 = sc(t, F32), *i32 = sc(t, I32), *i64 = sc(t, I64);
    assert_ptr_equal(kj_unify(t, f32, f32), f32);
    assert_ptr_equal(kj_unify(t, wi, f32), f32); /* x = 0 then x = a[i] */
    assert_ptr_equal(kj_unify(t, f32, wf), f32);
    assert_ptr_equal(kj_unify(t, i32, wi), i32);
    assert_ptr_equal(kj_unify(t, wi, wi), wi);
    assert_ptr_equal(kj_unify(t, wi, wf), wf);
    assert_ptr_equal(kj_unify(t, i32, i64), i64);
    assert_ptr_equal(kj_unify(t, i64, f32), sc(t, F64));
    const kj_type *c2 = kj_t_array(t, f32, 2, KJ_LAYOUT_C),
                  *f2 = kj_t_array(t, f32, 2, KJ_LAYOUT_F);
    assert_ptr_equal(kj_unify(t, c2, c2), c2);
    assert_ptr_equal(kj_unify(t, c2, f2), kj_t_array(t, f32, 2, KJ_LAYOUT_A));
    assert_null(kj_unify(t, c2, kj_t_array(t, f32, 1, KJ_LAYOUT_C)));
    assert_null(kj_unify(t, c2, kj_t_array(t, i64, 2, KJ_LAYOUT_C)));
    const kj_type *a[2] = {wi, f32}, *b[2] = {i32, wf}, *want[2] = {i32, f32};
    assert_ptr_equal(kj_unify(t, kj_t_tuple(t, a, 2), kj_t_tuple(t, b, 2)), kj_t_tuple(t, want, 2));
    assert_null(kj_unify(t, kj_t_tuple(t, a, 2), kj_t_tuple(t, a, 1)));
    const kj_type *bad[2] = {c2, f32};
    assert_null(kj_unify(t, kj_t_tuple(t, a, 2), kj_t_tuple(t, bad, 2)));
    assert_null(kj_unify(t, kj_t_none(t), f32));
    assert_null(kj_unify(t, c2, f32));
    assert_null(kj_unify(t, kj_t_opaque(t, "stream"), kj_t_opaque(t, "event")));
    assert_null(kj_unify(t, NULL, f32));
}

/* Numba's unification with None (types_optional.c): none and T give OptionalType(T), strong. */
static void test_unify_optional(void **state)
{
    fix *f = *state;
    kj_types *t = f->t;
    const kj_type *none = kj_t_none(t), *wi = kj_t_weak_int(t), *i64 = sc(t, I64), *f64 = sc(t, F64);
    const kj_type *oi = kj_t_optional(t, i64);
    assert_non_null(oi);
    assert_string_equal(kj_type_str(oi), "OptionalType(int64)");
    assert_ptr_equal(kj_t_optional(t, wi), oi);      /* a literal is stored strong */
    assert_ptr_equal(kj_t_optional(t, oi), oi);      /* never nested */
    assert_null(kj_t_optional(t, none));
    assert_null(kj_t_optional(t, kj_t_opaque(t, "stream")));
    assert_ptr_equal(kj_unify_opt(t, none, wi), oi); /* found = None, then found = 0 */
    assert_ptr_equal(kj_unify_opt(t, i64, none), oi);
    assert_ptr_equal(kj_unify_opt(t, oi, none), oi);
    assert_ptr_equal(kj_unify_opt(t, none, oi), oi);
    assert_ptr_equal(kj_unify_opt(t, oi, i64), oi);
    assert_ptr_equal(kj_unify_opt(t, oi, f64), kj_t_optional(t, f64)); /* None, 1, 2.5 */
    assert_ptr_equal(kj_unify_opt(t, f64, kj_t_optional(t, f64)), kj_t_optional(t, f64));
    assert_ptr_equal(kj_unify_opt(t, none, none), none);
    assert_ptr_equal(kj_unify_opt(t, i64, f64), f64);   /* no None: kj_unify */
    assert_null(kj_unify_opt(t, oi, kj_t_str(t)));       /* None, 1, "s" */
    assert_null(kj_unify(t, oi, i64));                   /* kj_unify itself never makes or widens one */
}

/* np.can_cast(a, b, "same_kind"), from NumPy 1.24: row = from, col = to. */
static const char *const same_kind[NSCALAR] = {
    "11111111111", ".1111....11", ".1111....11", ".1111....11", ".1111....11", ".1111111111",
    ".1111111111", ".1111111111", ".1111111111", ".........11", ".........11",
};

static void test_can_convert(void **state)
{
    fix *f = *state;
    kj_types *t = f->t;
    for (int a = 0; a < NSCALAR; a++)
        for (int b = 0; b < NSCALAR; b++)
            if (kj_can_convert(sc(t, a), sc(t, b)) != (same_kind[a][b] == '1'))
                fail_msg("can_convert(%s, %s)", kj_type_str(sc(t, a)), kj_type_str(sc(t, b)));
    const kj_type *wi = kj_t_weak_int(t), *wf = kj_t_weak_float(t), *f32 = sc(t, F32);
    assert_true(kj_can_convert(wi, sc(t, U8)));
    assert_true(kj_can_convert(wi, f32));
    assert_true(kj_can_convert(wf, f32));
    assert_true(kj_can_convert(wf, sc(t, I32)));
    assert_false(kj_can_convert(wi, sc(t, B)));
    assert_false(kj_can_convert(f32, wf));
    const kj_type *c = kj_t_array(t, f32, 2, KJ_LAYOUT_C), *A = kj_t_array(t, f32, 2, KJ_LAYOUT_A);
    assert_true(kj_can_convert(c, A));
    assert_true(kj_can_convert(kj_t_array(t, f32, 2, KJ_LAYOUT_F), A));
    assert_false(kj_can_convert(A, c));
    assert_false(kj_can_convert(c, kj_t_array(t, sc(t, F64), 2, KJ_LAYOUT_A)));
    const kj_type *from[2] = {wi, c}, *to[2] = {sc(t, I32), A};
    assert_true(kj_can_convert(kj_t_tuple(t, from, 2), kj_t_tuple(t, to, 2)));
    assert_false(kj_can_convert(kj_t_tuple(t, to, 2), kj_t_tuple(t, from, 2)));
    assert_true(kj_can_convert(kj_t_none(t), kj_t_none(t)));
    assert_false(kj_can_convert(kj_t_none(t), f32));
}

/* ---- signatures -------------------------------------------------------------------- */

/* A source line `@cuda.jit('SIG')` with the literal at column 11. */
typedef struct {
    char text[256];
    kj_source src;
    kj_span lit;
} lit_src;

static void make_lit(lit_src *l, const char *sig)
{
    snprintf(l->text, sizeof l->text, "@cuda.jit('%s')\n", sig);
    l->src = (kj_source){.path = "t.k", .text = l->text, .len = strlen(l->text)};
    l->lit = (kj_span){.off = 10, .len = (uint32_t)strlen(sig) + 2, .line = 1, .col = 11};
}

static bool parse(fix *f, const char *sig, kj_sig *out)
{
    lit_src l;
    make_lit(&l, sig);
    kj_diags_free(&f->d);
    return kj_parse_sig(f->t, &f->a, sig, (uint32_t)strlen(sig), &l.src, l.lit, &f->d, out);
}

static const char *sig_str(fix *f, const char *sig)
{
    kj_sig s;
    if (!parse(f, sig, &s)) return "<error>";
    kj_buf b = {0};
    kj_buf_printf(&b, "%s(", s.ret ? kj_type_str(s.ret) : "-");
    for (uint32_t i = 0; i < s.nparams; i++)
        kj_buf_printf(&b, "%s%s", i ? "; " : "", kj_type_str(s.params[i]));
    kj_buf_puts(&b, ")");
    char *r = kj_arena_strdup(&f->a, b.s);
    kj_buf_free(&b);
    return r;
}

static void test_sig_ok(void **state)
{
    fix *f = *state;
    assert_string_equal(sig_str(f, "void(float32[:], float32[:])"),
                        "none(array(float32, 1d, A); array(float32, 1d, A))");
    assert_string_equal(sig_str(f, "float32(float32, float32)"), "float32(float32; float32)");
    assert_string_equal(sig_str(f, "(float32[:], int64)"), "-(array(float32, 1d, A); int64)");
    assert_string_equal(sig_str(f, "void(float32[::1])"), "none(array(float32, 1d, C))");
    assert_string_equal(sig_str(f, "void(float32[:, ::1])"), "none(array(float32, 2d, C))");
    assert_string_equal(sig_str(f, "void(float32[::1, :])"), "none(array(float32, 2d, F))");
    assert_string_equal(sig_str(f, "void(int64[:,:,:])"), "none(array(int64, 3d, A))");
    assert_string_equal(sig_str(f, "void(f8[:,:,:,::1])"), "none(array(float64, 4d, C))");
    assert_string_equal(sig_str(f, "none()"), "none()");
    assert_string_equal(sig_str(f, "()"), "-()");
    assert_string_equal(sig_str(f, "UniTuple(int64, 2)(int64)"), "(int64, int64)(int64)");
    assert_string_equal(sig_str(f, "Tuple(int64, float32)(b1)"), "(int64, float32)(bool)");
    assert_string_equal(sig_str(f, "Tuple((int64, float32))()"), "(int64, float32)()");
    assert_string_equal(sig_str(f, "void(UniTuple(float32[:], 1))"),
                        "none((array(float32, 1d, A),))");
    assert_string_equal(sig_str(f, "  float32 ( float32 [ : , : : 1 ] ,int32 , )  "),
                        "float32(array(float32, 2d, C); int32)");
    assert_string_equal(sig_str(f, "float32[:](double, uint8, boolean)"),
                        "array(float32, 1d, A)(float64; uint8; bool)");
}

/* Parse `sig`, expect exactly one error at column `col` of the test line. */
static void expect_sig_err(fix *f, const char *sig, uint32_t col, const char *msg, const char *hint)
{
    kj_sig s;
    if (parse(f, sig, &s)) fail_msg("'%s' parsed", sig);
    assert_int_equal(f->d.n, 1);
    const kj_diag *dg = &f->d.v[0];
    if (strcmp(dg->msg, msg)) fail_msg("'%s': got '%s', want '%s'", sig, dg->msg, msg);
    if (dg->span.col != col) fail_msg("'%s': col %u, want %u", sig, dg->span.col, col);
    assert_int_equal(dg->span.off, col - 1);
    assert_int_equal(dg->span.line, 1);
    if (hint)
        assert_string_equal(dg->hint ? dg->hint : "(none)", hint);
    else
        assert_null(dg->hint);
}

static void test_sig_errors(void **state)
{
    fix *f = *state;
    /* `@cuda.jit('` is 11 columns: the string's offset k is at column 12 + k. */
    expect_sig_err(f, "void(flaot32[:])", 17, "unknown type 'flaot32' in signature",
                   "did you mean 'float32'?");
    assert_int_equal(f->d.v[0].span.len, 7);
    expect_sig_err(f, "void(float32[:], float32[:]", 39, "expected ')' in signature", NULL);
    expect_sig_err(f, "void(float32[:,:,:,:,:])", 33, "arrays have at most 4 dimensions", NULL);
    expect_sig_err(f, "void(float32)x", 25, "unexpected 'x' in signature", NULL);
    expect_sig_err(f, "void(float32 x)", 25, "expected ')' in signature", NULL);
    expect_sig_err(f, "void(float32[:], 3)", 29, "unexpected '3' in signature", NULL);
    expect_sig_err(f, "float32", 19, "expected '(' in signature", NULL);
    expect_sig_err(f, "void(float32[1])", 25, "expected ':' in signature", NULL);
    expect_sig_err(f, "void(float32[::2])", 27, "unexpected '2' in signature", NULL);
    expect_sig_err(f, "void(float32[:, ::1, :])", 17,
                   "'::1' must be the first or last dimension in signature", NULL);
    expect_sig_err(f, "void(float32[::1, ::1])", 30, "only one dimension can be '::1' in signature",
                   NULL);
    expect_sig_err(f, "void(float32[:)", 26, "expected ']' in signature", NULL);
    expect_sig_err(f, "", 12, "unexpected end of signature", NULL);
    expect_sig_err(f, "UniTuple(int64)()", 26, "expected ',' in signature", NULL);
    expect_sig_err(f, "UniTuple(int64, n)()", 28, "expected a count in signature", NULL);
    expect_sig_err(f, "void(boolen)", 17, "unknown type 'boolen' in signature",
                   "did you mean 'boolean'?");
    expect_sig_err(f, "void(xyzzy)", 17, "unknown type 'xyzzy' in signature", NULL);
}

static void test_sig_triple_quoted(void **state)
{
    /* The column accounts for a prefix and a triple quote. */
    fix *f = *state;
    const char *text = "@jit(r\"\"\"void(flaot32)\"\"\")\n";
    kj_source src = {.path = "t.k", .text = text, .len = strlen(text)};
    kj_span lit = {.off = 5, .len = 22, .line = 1, .col = 6};
    kj_sig s;
    kj_diags_free(&f->d);
    assert_false(kj_parse_sig(f->t, &f->a, "void(flaot32)", 13, &src, lit, &f->d, &s));
    assert_int_equal(f->d.v[0].span.col, 15);
    /* Without source text the literal is taken to start with one quote. */
    kj_diags_free(&f->d);
    assert_false(kj_parse_sig(f->t, &f->a, "void(flaot32)", 13, NULL, lit, &f->d, &s));
    assert_int_equal(f->d.v[0].span.col, 12);
}

/* ---- layouts ------------------------------------------------------------------------ */

static bool layout(fix *f, const char *s, kj_gu_layout *out)
{
    lit_src l;
    make_lit(&l, s);
    kj_diags_free(&f->d);
    return kj_parse_layout(&f->a, s, (uint32_t)strlen(s), &l.src, l.lit, &f->d, out);
}

static void test_layout_ok(void **state)
{
    fix *f = *state;
    kj_gu_layout g;
    assert_true(layout(f, "(n),()->(n)", &g));
    assert_int_equal(g.nin, 2);
    assert_int_equal(g.nout, 1);
    assert_int_equal(g.args[0].ndims, 1);
    assert_string_equal(g.args[0].dims[0], "n");
    assert_int_equal(g.args[1].ndims, 0);
    assert_int_equal(g.args[2].ndims, 1);
    assert_string_equal(g.args[2].dims[0], "n");

    assert_true(layout(f, " (m, n) , (n,p) -> (m ,p) ", &g));
    assert_int_equal(g.nin, 2);
    assert_int_equal(g.nout, 1);
    assert_int_equal(g.args[0].ndims, 2);
    assert_string_equal(g.args[0].dims[1], "n");
    assert_string_equal(g.args[1].dims[1], "p");
    assert_string_equal(g.args[2].dims[0], "m");
    assert_string_equal(g.args[2].dims[1], "p");

    assert_true(layout(f, "(n)->()", &g));
    assert_int_equal(g.nin, 1);
    assert_int_equal(g.nout, 1);
    assert_int_equal(g.args[1].ndims, 0);

    assert_true(layout(f, "(n),(n)->(n),()", &g));
    assert_int_equal(g.nout, 2);
}

static void expect_layout_err(fix *f, const char *s, uint32_t col, const char *msg)
{
    kj_gu_layout g;
    if (layout(f, s, &g)) fail_msg("'%s' parsed", s);
    assert_int_equal(f->d.n, 1);
    if (strcmp(f->d.v[0].msg, msg)) fail_msg("'%s': got '%s'", s, f->d.v[0].msg);
    if (f->d.v[0].span.col != col) fail_msg("'%s': col %u, want %u", s, f->d.v[0].span.col, col);
}

static void test_layout_errors(void **state)
{
    fix *f = *state;
    expect_layout_err(f, "(n),()(n)", 18, "expected '->' in layout");
    expect_layout_err(f, "(n->(n)", 14, "expected ')' in layout");
    expect_layout_err(f, "(n)->(m)", 18,
                      "output dimension 'm' does not appear in any input of the layout");
    expect_layout_err(f, "(3)->()", 13, "unexpected '3' in layout");
    expect_layout_err(f, "n->()", 12, "expected '(' in layout");
    expect_layout_err(f, "(n)->(n)x", 20, "unexpected 'x' in layout");
    expect_layout_err(f, "(n)->", 17, "expected '(' in layout");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_interning, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interning_many, setup, teardown),
        cmocka_unit_test_setup_teardown(test_names, setup, teardown),
        cmocka_unit_test_setup_teardown(test_promote_complex, setup, teardown),
        cmocka_unit_test_setup_teardown(test_predicates_strong, setup, teardown),
        cmocka_unit_test_setup_teardown(test_scalar_by_name, setup, teardown),
        cmocka_unit_test_setup_teardown(test_promote_strong, setup, teardown),
        cmocka_unit_test_setup_teardown(test_promote_weak, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unify, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unify_optional, setup, teardown),
        cmocka_unit_test_setup_teardown(test_can_convert, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sig_ok, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sig_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sig_triple_quoted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_layout_ok, setup, teardown),
        cmocka_unit_test_setup_teardown(test_layout_errors, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
