/* SPDX-License-Identifier: BSD-2-Clause */
/* Elementwise array operations of host code with NumPy broadcasting:
 * arithmetic and comparisons go to array.c (kj_array_binop_out, NumPy's
 * loop selection and semantics, bit for bit); bitwise operations, shifts,
 * unary operators and math functions on arrays are computed here, one
 * element at a time, in the result's type, except the math functions of
 * float arrays, which go through libmvec's vector forms (mvec.h) along
 * contiguous runs, as NumPy's own SIMD loops do. */
#include "rt_host.h"

#include "array.h"
#include "mvec.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- iteration ---- */

enum { NOPS = 3 };

/* A walk over `shape` in C order with one pointer per operand; operands
 * are aligned to the right and repeated (stride 0) where broadcast. */
typedef struct walk {
    int ndim, nop;
    int64_t shape[KJ_MAX_DIMS];
    int64_t strides[NOPS][KJ_MAX_DIMS];
    char *p[NOPS];
    kj_dtype dt[NOPS];
} walk;

static void walk_operand(walk *w, int o, const kj_array *a)
{
    w->p[o] = a->data;
    w->dt[o] = a->dtype;
    int off = w->ndim - a->ndim;
    for (int d = 0; d < w->ndim; d++) {
        int ad = d - off;
        w->strides[o][d] = ad < 0 || a->shape[ad] == 1 ? 0 : a->strides[ad];
    }
}

/* The innermost loop: n elements from p[o] on, stepping s[o] bytes. */
typedef void (*inner_fn)(void *ctx, char **p, const int64_t *s, int64_t n);

/* Call `inner` for each run of the last dimension; p[0] is the output. */
static void walk_run(walk *w, inner_fn inner, void *ctx)
{
    int64_t idx[KJ_MAX_DIMS] = {0};
    for (int d = 0; d < w->ndim; d++)
        if (w->shape[d] == 0) return;
    int last = w->ndim - 1;
    int64_t s[NOPS] = {0}, n = w->ndim ? w->shape[last] : 1;
    for (int o = 0; o < w->nop; o++) s[o] = w->ndim ? w->strides[o][last] : 0;
    for (;;) {
        char *p[NOPS];
        for (int o = 0; o < w->nop; o++) {
            p[o] = w->p[o];
            for (int d = 0; d < last; d++) p[o] += idx[d] * w->strides[o][d];
        }
        inner(ctx, p, s, n);
        int d = last - 1;
        while (d >= 0 && ++idx[d] == w->shape[d]) idx[d--] = 0;
        if (d < 0) return;
    }
}

/* One element at a time through an element function. */
typedef void (*elem_fn)(kj_rt_eop op, char *const *p, const kj_dtype *dt);

typedef struct elem_ctx {
    kj_rt_eop op;
    elem_fn f;
    const kj_dtype *dt;
    int nop;
} elem_ctx;

static void elem_inner(void *vctx, char **p, const int64_t *s, int64_t n)
{
    elem_ctx *c = vctx;
    for (int64_t i = 0; i < n; i++) {
        c->f(c->op, p, c->dt);
        for (int o = 0; o < c->nop; o++) p[o] += s[o];
    }
}

static void walk_elems(walk *w, kj_rt_eop op, elem_fn f)
{
    elem_ctx c = {op, f, w->dt, w->nop};
    walk_run(w, elem_inner, &c);
}

/* ---- element operations ---- */

static bool is_signed_int(kj_dtype dt) { return kj_dtype_is_int(dt) && kj_dtype_is_signed(dt); }

/* NumPy's shifts: a count of the width or more shifts everything out. */
static int64_t shift(kj_rt_eop op, int64_t x, int64_t n, kj_dtype dt)
{
    unsigned w = (unsigned)kj_dtype_size(dt) * 8;
    if (op == KJ_EOP_SHL) return (uint64_t)n < w ? (int64_t)((uint64_t)x << n) : 0;
    if (is_signed_int(dt)) return (uint64_t)n < w ? x >> n : (x < 0 ? -1 : 0);
    uint64_t ux = (uint64_t)x & (w == 64 ? UINT64_MAX : ((uint64_t)1 << w) - 1);
    return (uint64_t)n < w ? (int64_t)(ux >> n) : 0;
}

/* &, |, ^, <<, >> on integers or bools, in the output's type. */
static void elem_bitwise(kj_rt_eop op, char *const *p, const kj_dtype *dt)
{
    int64_t x = kj_elem_load(p[1], dt[1]).v.i, y = kj_elem_load(p[2], dt[2]).v.i, r = 0;
    switch (op) {
    case KJ_EOP_AND: r = x & y; break;
    case KJ_EOP_OR: r = x | y; break;
    case KJ_EOP_XOR: r = x ^ y; break;
    default: r = shift(op, x, y, dt[0]); break;
    }
    kj_elem_store(p[0], dt[0], kj_scalar_i64(dt[0] == KJ_DT_BOOL ? r != 0 : r));
}

#define FLOAT_BINARY(NAME, T, SFX)                                                 \
    static T NAME(kj_rt_eop op, T x, T y)                                          \
    {                                                                              \
        switch (op) {                                                              \
        case KJ_EOP_ATAN2: return atan2##SFX(x, y);                                \
        case KJ_EOP_HYPOT: return hypot##SFX(x, y);                                \
        case KJ_EOP_COPYSIGN: return copysign##SFX(x, y);                          \
        case KJ_EOP_FMOD: return fmod##SFX(x, y);                                  \
        default: return pow##SFX(x, y);                                            \
        }                                                                          \
    }
FLOAT_BINARY(fbin_f64, double, )
FLOAT_BINARY(fbin_f32, float, f)

/* np.fmod in an integer type: C's remainder; 0 for a zero divisor (NumPy
 * warns) and for -1 (whose remainder is 0, and whose C remainder of the
 * most negative value overflows). */
static void elem_int_fmod(char *const *p, const kj_dtype *dt)
{
    int64_t x = kj_elem_load(p[1], dt[1]).v.i, y = kj_elem_load(p[2], dt[2]).v.i, r = 0;
    if (!is_signed_int(dt[0])) r = y ? (int64_t)((uint64_t)x % (uint64_t)y) : 0;
    else if (y != 0 && y != -1) r = x % y;
    kj_elem_store(p[0], dt[0], kj_scalar_i64(r));
}

static void elem_float_binary(kj_rt_eop op, char *const *p, const kj_dtype *dt)
{
    if (op == KJ_EOP_FMOD && kj_dtype_is_int(dt[0])) {
        elem_int_fmod(p, dt);
        return;
    }
    double x = kj_scalar_as_f64(kj_elem_load(p[1], dt[1])), y = kj_scalar_as_f64(kj_elem_load(p[2], dt[2]));
    double r = dt[0] == KJ_DT_FLOAT32 ? (double)fbin_f32(op, (float)x, (float)y) : fbin_f64(op, x, y);
    kj_elem_store(p[0], dt[0], kj_scalar_f64(r));
}

static double lgamma_f64(double x)
{
    int sign;
    return lgamma_r(x, &sign);
}

static float lgamma_f32(float x)
{
    int sign;
    return lgammaf_r(x, &sign);
}

/* The math functions of one float type: f64 names and f32 names. */
#define FLOAT_UNARY(NAME, T, SFX, LGAMMA)                                          \
    static T NAME(kj_rt_eop op, T x)                                               \
    {                                                                              \
        switch (op) {                                                              \
        case KJ_EOP_SIN: return sin##SFX(x);                                       \
        case KJ_EOP_COS: return cos##SFX(x);                                       \
        case KJ_EOP_TAN: return tan##SFX(x);                                       \
        case KJ_EOP_ASIN: return asin##SFX(x);                                     \
        case KJ_EOP_ACOS: return acos##SFX(x);                                     \
        case KJ_EOP_ATAN: return atan##SFX(x);                                     \
        case KJ_EOP_SINH: return sinh##SFX(x);                                     \
        case KJ_EOP_COSH: return cosh##SFX(x);                                     \
        case KJ_EOP_TANH: return tanh##SFX(x);                                     \
        case KJ_EOP_ASINH: return asinh##SFX(x);                                   \
        case KJ_EOP_ACOSH: return acosh##SFX(x);                                   \
        case KJ_EOP_ATANH: return atanh##SFX(x);                                   \
        case KJ_EOP_EXP: return exp##SFX(x);                                       \
        case KJ_EOP_EXPM1: return expm1##SFX(x);                                   \
        case KJ_EOP_EXP2: return exp2##SFX(x);                                     \
        case KJ_EOP_LOG: return log##SFX(x);                                       \
        case KJ_EOP_LOG1P: return log1p##SFX(x);                                   \
        case KJ_EOP_LOG2: return log2##SFX(x);                                     \
        case KJ_EOP_LOG10: return log10##SFX(x);                                   \
        case KJ_EOP_SQRT: return sqrt##SFX(x);                                     \
        case KJ_EOP_FABS: case KJ_EOP_ABS: return fabs##SFX(x);                    \
        case KJ_EOP_ERF: return erf##SFX(x);                                       \
        case KJ_EOP_ERFC: return erfc##SFX(x);                                     \
        case KJ_EOP_GAMMA: return tgamma##SFX(x);                                  \
        case KJ_EOP_LGAMMA: return LGAMMA(x);                                      \
        case KJ_EOP_FLOOR: return floor##SFX(x);                                   \
        case KJ_EOP_CEIL: return ceil##SFX(x);                                     \
        case KJ_EOP_TRUNC: return trunc##SFX(x);                                   \
        case KJ_EOP_NEG: return -x;                                                \
        default: return x;                                                         \
        }                                                                          \
    }
FLOAT_UNARY(fun_f64, double, , lgamma_f64)
FLOAT_UNARY(fun_f32, float, f, lgamma_f32)

/* ---- the float fast path: same float type in and out ---- */

static double neg_f64(double x) { return -x; }
static float neg_f32(float x) { return -x; }

typedef double (*f64_fn)(double);
typedef float (*f32_fn)(float);

#define FLOAT_FN(NAME, T, SFX, LGAMMA, NEG)                                        \
    static T (*NAME(kj_rt_eop op))(T)                                              \
    {                                                                              \
        switch (op) {                                                              \
        case KJ_EOP_SIN: return sin##SFX;                                          \
        case KJ_EOP_COS: return cos##SFX;                                          \
        case KJ_EOP_TAN: return tan##SFX;                                          \
        case KJ_EOP_ASIN: return asin##SFX;                                        \
        case KJ_EOP_ACOS: return acos##SFX;                                        \
        case KJ_EOP_ATAN: return atan##SFX;                                        \
        case KJ_EOP_SINH: return sinh##SFX;                                        \
        case KJ_EOP_COSH: return cosh##SFX;                                        \
        case KJ_EOP_TANH: return tanh##SFX;                                        \
        case KJ_EOP_ASINH: return asinh##SFX;                                      \
        case KJ_EOP_ACOSH: return acosh##SFX;                                      \
        case KJ_EOP_ATANH: return atanh##SFX;                                      \
        case KJ_EOP_EXP: return exp##SFX;                                          \
        case KJ_EOP_EXPM1: return expm1##SFX;                                      \
        case KJ_EOP_EXP2: return exp2##SFX;                                        \
        case KJ_EOP_LOG: return log##SFX;                                          \
        case KJ_EOP_LOG1P: return log1p##SFX;                                      \
        case KJ_EOP_LOG2: return log2##SFX;                                        \
        case KJ_EOP_LOG10: return log10##SFX;                                      \
        case KJ_EOP_SQRT: return sqrt##SFX;                                        \
        case KJ_EOP_FABS: case KJ_EOP_ABS: return fabs##SFX;                       \
        case KJ_EOP_ERF: return erf##SFX;                                          \
        case KJ_EOP_ERFC: return erfc##SFX;                                        \
        case KJ_EOP_GAMMA: return tgamma##SFX;                                     \
        case KJ_EOP_LGAMMA: return LGAMMA;                                         \
        case KJ_EOP_FLOOR: return floor##SFX;                                      \
        case KJ_EOP_CEIL: return ceil##SFX;                                        \
        case KJ_EOP_TRUNC: return trunc##SFX;                                      \
        case KJ_EOP_NEG: return NEG;                                               \
        default: return NULL;                                                      \
        }                                                                          \
    }
FLOAT_FN(fn_f64, double, , lgamma_f64, neg_f64)
FLOAT_FN(fn_f32, float, f, lgamma_f32, neg_f32)

/* The libm name of a math function libmvec may have (NULL: none). */
static const char *mvec_name(kj_rt_eop op)
{
    switch (op) {
    case KJ_EOP_SIN: return "sin";
    case KJ_EOP_COS: return "cos";
    case KJ_EOP_TAN: return "tan";
    case KJ_EOP_ASIN: return "asin";
    case KJ_EOP_ACOS: return "acos";
    case KJ_EOP_ATAN: return "atan";
    case KJ_EOP_SINH: return "sinh";
    case KJ_EOP_COSH: return "cosh";
    case KJ_EOP_TANH: return "tanh";
    case KJ_EOP_ASINH: return "asinh";
    case KJ_EOP_ACOSH: return "acosh";
    case KJ_EOP_ATANH: return "atanh";
    case KJ_EOP_EXP: return "exp";
    case KJ_EOP_EXPM1: return "expm1";
    case KJ_EOP_EXP2: return "exp2";
    case KJ_EOP_LOG: return "log";
    case KJ_EOP_LOG1P: return "log1p";
    case KJ_EOP_LOG2: return "log2";
    case KJ_EOP_LOG10: return "log10";
    case KJ_EOP_ERF: return "erf";
    case KJ_EOP_ERFC: return "erfc";
    default: return NULL;
    }
}

/* A float function: the scalar one, and its vector form for contiguous
 * runs (NULL: none). */
typedef struct float_fn {
    f64_fn f64;
    f32_fn f32;
    const kj_mvec *vec;
} float_fn;

static void inner_f64(void *ctx, char **p, const int64_t *s, int64_t n)
{
    const float_fn *ff = ctx;
    f64_fn f = ff->f64;
    if (ff->vec && s[0] == 8 && s[1] == 8) {
        kj_mvec_map(ff->vec, p[0], p[1], n);
        return;
    }
    if (f == sqrt && s[0] == 8 && s[1] == 8) { /* inline square roots */
        double *o = (double *)(void *)p[0];
        const double *a = (const double *)(void *)p[1];
        for (int64_t i = 0; i < n; i++) o[i] = sqrt(a[i]);
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        double x;
        memcpy(&x, p[1] + i * s[1], sizeof x);
        x = f(x);
        memcpy(p[0] + i * s[0], &x, sizeof x);
    }
}

static void inner_f32(void *ctx, char **p, const int64_t *s, int64_t n)
{
    const float_fn *ff = ctx;
    f32_fn f = ff->f32;
    if (ff->vec && s[0] == 4 && s[1] == 4) {
        kj_mvec_map(ff->vec, p[0], p[1], n);
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        float x;
        memcpy(&x, p[1] + i * s[1], sizeof x);
        x = f(x);
        memcpy(p[0] + i * s[0], &x, sizeof x);
    }
}

/* + - * / with both inputs and the output of one float type: the common
 * case of host array code, in typed loops (IEEE arithmetic: the same bits
 * as NumPy's loops); unit strides get a loop the compiler vectorises. */
#define ARITH_LOOP(NAME, T, OP)                                                    \
    static void NAME(void *ctx, char **p, const int64_t *s, int64_t n)             \
    {                                                                              \
        (void)ctx;                                                                 \
        if (s[0] == sizeof(T) && s[1] == sizeof(T) && s[2] == sizeof(T)) {         \
            T *o = (T *)(void *)p[0];                                              \
            const T *a = (const T *)(void *)p[1], *b = (const T *)(void *)p[2];    \
            for (int64_t i = 0; i < n; i++) o[i] = a[i] OP b[i];                   \
            return;                                                                \
        }                                                                          \
        if (s[0] == sizeof(T) && s[1] == sizeof(T) && s[2] == 0) { /* a OP scalar */ \
            T *o = (T *)(void *)p[0], y;                                           \
            const T *a = (const T *)(void *)p[1];                                  \
            memcpy(&y, p[2], sizeof y);                                            \
            for (int64_t i = 0; i < n; i++) o[i] = a[i] OP y;                      \
            return;                                                                \
        }                                                                          \
        for (int64_t i = 0; i < n; i++) {                                          \
            T x, y, r;                                                             \
            memcpy(&x, p[1] + i * s[1], sizeof x);                                 \
            memcpy(&y, p[2] + i * s[2], sizeof y);                                 \
            r = x OP y;                                                            \
            memcpy(p[0] + i * s[0], &r, sizeof r);                                 \
        }                                                                          \
    }
ARITH_LOOP(add_f64, double, +)
ARITH_LOOP(sub_f64, double, -)
ARITH_LOOP(mul_f64, double, *)
ARITH_LOOP(div_f64, double, /)
ARITH_LOOP(add_f32, float, +)
ARITH_LOOP(sub_f32, float, -)
ARITH_LOOP(mul_f32, float, *)
ARITH_LOOP(div_f32, float, /)

/* The typed loop of op (ADD..DIV) for float64 or float32. */
static inner_fn arith_loop(kj_rt_eop op, bool f64)
{
    static const inner_fn loops[2][4] = {{add_f32, sub_f32, mul_f32, div_f32},
                                         {add_f64, sub_f64, mul_f64, div_f64}};
    return loops[f64][op - KJ_EOP_ADD];
}

/* Unary operators and math functions; p[1] is the input. */
static void elem_unary(kj_rt_eop op, char *const *p, const kj_dtype *dt)
{
    kj_scalar x = kj_elem_load(p[1], dt[1]);
    kj_dtype odt = dt[0];
    if (op == KJ_EOP_ISNAN || op == KJ_EOP_ISINF || op == KJ_EOP_ISFINITE) {
        double v = kj_scalar_as_f64(x);
        bool r = op == KJ_EOP_ISNAN ? isnan(v) : op == KJ_EOP_ISINF ? isinf(v) : isfinite(v);
        kj_elem_store(p[0], odt, kj_scalar_i64(r));
        return;
    }
    if (kj_dtype_is_float(odt)) {
        double v = kj_scalar_as_f64(x);
        double r = odt == KJ_DT_FLOAT32 ? (double)fun_f32(op, (float)v) : fun_f64(op, v);
        kj_elem_store(p[0], odt, kj_scalar_f64(r));
        return;
    }
    int64_t v = x.v.i, r = v; /* integers and bools, wrapping */
    bool is_bool = odt == KJ_DT_BOOL;
    switch (op) {
    case KJ_EOP_NEG: r = (int64_t)(0 - (uint64_t)v); break;
    case KJ_EOP_NOT: r = v == 0; break;
    case KJ_EOP_INVERT: r = is_bool ? v == 0 : ~v; break;
    case KJ_EOP_ABS: r = is_bool || !is_signed_int(dt[1]) || v >= 0 ? v : (int64_t)(0 - (uint64_t)v); break;
    default: break; /* floor/ceil/trunc of integers: unchanged */
    }
    kj_elem_store(p[0], odt, kj_scalar_i64(r));
}

/* ---- entry points ---- */

static kj_array *new_out(kj_rt *rt, int32_t odt, int nd, const int64_t *shape, int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    kj_array *o = kj_array_empty((kj_dtype)odt, nd, shape, &err);
    if (!o) kj_rt_raise_error(rt, &err, line, col);
    kj_rt_own(rt, o); /* released with the run even if the operation raises */
    return o;
}

void kj_rt_binop(kj_rt *rt, int32_t op, const void *a, int32_t andim, int32_t adt, const void *b,
                 int32_t bndim, int32_t bdt, int32_t odt, int32_t ondim, void *out, int32_t line, int32_t col)
{
    kj_array ha, hb;
    kj_rt_header(&ha, a, andim, adt);
    kj_rt_header(&hb, b, bndim, bdt);
    kj_rt_error err = {0};
    int nd = 0;
    int64_t shape[KJ_MAX_DIMS];
    if (!kj_broadcast_shapes(ha.ndim, ha.shape, hb.ndim, hb.shape, &nd, shape, &err)) {
        char s1[200], s2[200]; /* NumPy's message ends with a space */
        kj_shape_str(s1, sizeof s1, ha.ndim, ha.shape);
        kj_shape_str(s2, sizeof s2, hb.ndim, hb.shape);
        snprintf(err.message, sizeof err.message, "operands could not be broadcast together with shapes %s %s ",
                 s1, s2);
        kj_rt_raise_error(rt, &err, line, col);
    }
    kj_array *o = new_out(rt, odt, nd, shape, line, col);
    bool fast = op <= KJ_EOP_DIV && adt == odt && bdt == odt && (odt == KJ_DT_FLOAT64 || odt == KJ_DT_FLOAT32);
    if (fast) {
        walk w = {.ndim = nd, .nop = 3};
        memcpy(w.shape, shape, sizeof shape);
        walk_operand(&w, 0, o);
        walk_operand(&w, 1, &ha);
        walk_operand(&w, 2, &hb);
        walk_run(&w, arith_loop((kj_rt_eop)op, odt == KJ_DT_FLOAT64), NULL);
    } else if (op < KJ_EOP_AND) {
        if (!kj_array_binop_out((kj_array_op)op, &ha, &hb, o, &err)) kj_rt_raise_error(rt, &err, line, col);
    } else {
        walk w = {.ndim = nd, .nop = 3};
        memcpy(w.shape, shape, sizeof shape);
        walk_operand(&w, 0, o);
        walk_operand(&w, 1, &ha);
        walk_operand(&w, 2, &hb);
        walk_elems(&w, (kj_rt_eop)op, op <= KJ_EOP_SHR ? elem_bitwise : elem_float_binary);
    }
    kj_rt_describe(out, o, ondim);
}

void kj_rt_unop(kj_rt *rt, int32_t op, const void *a, int32_t ndim, int32_t adt, int32_t odt, void *out,
                int32_t line, int32_t col)
{
    kj_array ha;
    kj_rt_header(&ha, a, ndim, adt);
    if (op == KJ_EOP_NEG && adt == KJ_DT_BOOL)
        kj_rt_raise(rt, KJ_RT_TYPE,
                    "The numpy boolean negative, the `-` operator, is not supported, use the `~` "
                    "operator or the logical_not function instead.",
                    line, col);
    kj_array *o = new_out(rt, odt, ndim, ha.shape, line, col);
    walk w = {.ndim = ndim, .nop = 2};
    memcpy(w.shape, ha.shape, sizeof w.shape);
    walk_operand(&w, 0, o);
    walk_operand(&w, 1, &ha);
    float_fn ff = {
        .f64 = adt == odt && odt == KJ_DT_FLOAT64 ? fn_f64((kj_rt_eop)op) : NULL,
        .f32 = adt == odt && odt == KJ_DT_FLOAT32 ? fn_f32((kj_rt_eop)op) : NULL,
    };
    const char *vname = ff.f64 || ff.f32 ? mvec_name((kj_rt_eop)op) : NULL;
    if (vname) ff.vec = kj_mvec_find(vname, ff.f32 ? 32 : 64, kj_mvec_cpu_avx2());
    if (ff.f64) walk_run(&w, inner_f64, &ff);
    else if (ff.f32) walk_run(&w, inner_f32, &ff);
    else walk_elems(&w, (kj_rt_eop)op, elem_unary);
    kj_rt_describe(out, o, ndim);
}
