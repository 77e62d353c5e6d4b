/* SPDX-License-Identifier: BSD-2-Clause */
/* kjit's host arrays: NumPy's reductions along one axis (np.sum(a, axis=k),
 * prod, min, max, mean, var, std, argmin, argmax) and the whole-array prod,
 * argmin and argmax. NumPy is the specification, bit for bit.
 *
 * The order of a float sum along an axis (numpy/_core/src/umath/reduction.c
 * and the iterator it builds): the result is allocated by the iterator, so
 * only the input orders the axes — by decreasing |stride|, C order winning
 * ties, length-1 and stride-0 axes ambiguous (npyiter_find_best_axis_ordering;
 * strides are not negated). If the innermost axis of that order is the
 * reduced one, every inner loop is a run along it with the result's stride
 * 0, which the add loop sums pairwise (loops_utils.h), in runs of at most
 * 8192 (the buffer size) added in turn to the result, which starts at 0.
 * Otherwise the inner loop is elementwise, result[j] += a[..., i, ..., j],
 * and each result is the serial sum over the axis: rows added in turn,
 * which is how this file computes it too (a vector add per row). */
#include "array.h"
#include "array_int.h"

#include "../util/alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK = 8192 }; /* NumPy's buffer size: the longest inner loop of a reduction */

/* How results accumulate: in the float type of the input, or exactly in
 * 64-bit integers (wrapping, as NumPy's int64/uint64 loops). */
typedef enum { ACC_F32, ACC_F64, ACC_I64, ACC_U64 } acc_kind;

kj_dtype kj_reduce_dtype(kj_reduce_op op, kj_dtype in)
{
    switch (op) {
    case KJ_REDUCE_SUM:
    case KJ_REDUCE_PROD:
        if (kj_dtype_is_float(in)) return in;
        return kj_dtype_info[in].kind == 'u' ? KJ_DT_UINT64 : KJ_DT_INT64;
    case KJ_REDUCE_MIN:
    case KJ_REDUCE_MAX: return in;
    case KJ_REDUCE_MEAN:
    case KJ_REDUCE_VAR:
    case KJ_REDUCE_STD: return in == KJ_DT_FLOAT32 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64;
    default: return KJ_DT_INT64;
    }
}

static acc_kind acc_of(kj_reduce_op op, kj_dtype in)
{
    if (in == KJ_DT_FLOAT32) return ACC_F32;
    if (in == KJ_DT_FLOAT64 || op == KJ_REDUCE_MEAN || op == KJ_REDUCE_VAR || op == KJ_REDUCE_STD) return ACC_F64;
    return kj_dtype_info[in].kind == 'i' ? ACC_I64 : ACC_U64;
}

/* ------------------------------------------------------------------------ */
/* NumPy's order                                                            */
/* ------------------------------------------------------------------------ */

/* The axes of `a`, outermost first, in the order NumPy's iterator visits
 * them: an insertion sort by |stride| from the innermost C axis outwards,
 * where a pair involving a length-1 or stride-0 axis is ambiguous and
 * skipped, and equal strides keep C order. */
static void numpy_order(const kj_array *a, int *perm)
{
    int nd = a->ndim, p[KJ_MAX_DIMS]; /* p[0]: the innermost */
    int64_t st[KJ_MAX_DIMS];
    for (int d = 0; d < nd; d++) {
        p[d] = nd - 1 - d;
        st[d] = a->shape[d] == 1 ? 0 : a->strides[d] < 0 ? -a->strides[d] : a->strides[d];
    }
    for (int i0 = 1; i0 < nd; i0++) {
        int j0 = p[i0], ipos = i0;
        for (int i1 = i0 - 1; i1 >= 0; i1--) {
            int64_t s1 = st[p[i1]];
            if (st[j0] == 0 || s1 == 0) continue;
            if (s1 <= st[j0]) break;
            ipos = i1;
        }
        memmove(&p[ipos + 1], &p[ipos], (size_t)(i0 - ipos) * sizeof *p);
        p[ipos] = j0;
    }
    for (int i = 0; i < nd; i++) perm[i] = p[nd - 1 - i];
}

/* A reduction along `axis` laid out for the loops below: the other axes of
 * length > 1 in NumPy's order (outermost first) with a's and the result's
 * byte strides, and the reduced axis. */
typedef struct {
    int n;
    int64_t shape[KJ_MAX_DIMS], ast[KJ_MAX_DIMS], ost[KJ_MAX_DIMS];
    int64_t len, stride;
    bool along; /* NumPy's inner loop runs along the reduced axis */
} plan;

/* `out`: the C-ordered result (NULL: every axis is folded, axis = -1). */
static void make_plan(const kj_array *a, int axis, const kj_array *out, plan *p)
{
    int perm[KJ_MAX_DIMS];
    numpy_order(a, perm);
    int64_t ost[KJ_MAX_DIMS] = {0};
    for (int d = 0, o = 0; d < a->ndim; d++)
        if (d != axis && out) ost[d] = out->strides[o++];
    *p = (plan){.len = axis >= 0 ? a->shape[axis] : 1, .stride = axis >= 0 ? a->strides[axis] : 0};
    int inner = -1;
    for (int i = 0; i < a->ndim; i++) {
        int d = perm[i];
        if (a->shape[d] == 1) continue;
        inner = d;
        if (d == axis) continue;
        p->shape[p->n] = a->shape[d];
        p->ast[p->n] = a->strides[d];
        p->ost[p->n++] = ost[d];
    }
    p->along = inner == axis;
}

bool kj_reduce_along(const kj_array *a, int axis)
{
    plan p;
    make_plan(a, axis, NULL, &p);
    return p.along;
}

typedef void (*visit_fn)(void *ctx, const char *a, char *out);

/* fn for every index of the plan's axes [d, stop) */
static void visit(const plan *p, int d, int stop, const char *a, char *o, visit_fn fn, void *ctx)
{
    if (d == stop) {
        fn(ctx, a, o);
        return;
    }
    for (int64_t i = 0; i < p->shape[d]; i++) visit(p, d + 1, stop, a + i * p->ast[d], o + i * p->ost[d], fn, ctx);
}

/* ------------------------------------------------------------------------ */
/* Folding one run (the reduced axis of one result)                          */
/* ------------------------------------------------------------------------ */

typedef struct {
    kj_reduce_op op;
    kj_dtype in, out;
    acc_kind acc;
    const plan *p;
    int64_t ddof;
    double *buf; /* runs: CHUNK values; rows: 4 rows of the inner length */
} red_ctx;

static float f32_of(const char *p) { float x; memcpy(&x, p, 4); return x; }

/* The float sum of a run of n elements `st` bytes apart as NumPy adds them
 * when its inner loop runs along them: pairwise per CHUNK, the chunks in
 * turn from 0. With `mean`, of the squared deviations (x - mean)**2, in the
 * accumulation type (np.var's temporary array). */
static double run_fsum(const red_ctx *c, const char *a, int64_t n, int64_t st, const double *mean)
{
    bool f32 = c->acc == ACC_F32;
    float t32 = 0;
    double t64 = 0;
    for (int64_t k = 0; k < n; k += CHUNK) {
        int64_t m = n - k < CHUNK ? n - k : CHUNK;
        const char *x = a + k * st;
        if (f32 && !mean) {
            t32 += kj_pairwise_f32(x, m, st);
        } else if (f32) {
            float *b = (float *)(void *)c->buf, mu = (float)*mean;
            for (int64_t i = 0; i < m; i++) {
                float d = f32_of(x + i * st) - mu;
                b[i] = d * d;
            }
            t32 += kj_pairwise_f32((const char *)b, m, 4);
        } else if (c->in == KJ_DT_FLOAT64 && !mean) {
            t64 += kj_pairwise_f64(x, m, st);
        } else {
            for (int64_t i = 0; i < m; i++) {
                double d = ld_f64(x + i * st, c->in);
                c->buf[i] = mean ? (d - *mean) * (d - *mean) : d;
            }
            t64 += kj_pairwise_f64((const char *)c->buf, m, 8);
        }
    }
    return f32 ? (double)t32 : t64;
}

/* mean = sum / n, divided in float64 and cast (NumPy's true_divide by the
 * intp count); var = the deviations' sum / max(n - ddof, 0); std its root
 * in the result type. */
static double finish_mean(acc_kind k, double s, int64_t n)
{
    double m = s / (double)n;
    return k == ACC_F32 ? (double)(float)m : m;
}

static double finish_var(const red_ctx *c, double s, int64_t n)
{
    double div = kj_var_divisor(n, c->ddof), v = s / div;
    if (c->acc == ACC_F32) {
        float f = (float)v;
        return c->op == KJ_REDUCE_STD ? (double)sqrtf(f) : (double)f;
    }
    return c->op == KJ_REDUCE_STD ? sqrt(v) : v;
}

static double fmin_np(double b, double x) { return b != b ? b : x != x ? x : b < x ? b : x; }
static double fmax_np(double b, double x) { return b != b ? b : x != x ? x : b > x ? b : x; }

/* min/max of a run of n >= 1 elements */
static kj_scalar run_extreme(const red_ctx *c, const char *a, int64_t n, int64_t st)
{
    bool mx = c->op == KJ_REDUCE_MAX;
    kj_scalar r = {.dtype = c->in};
    if (c->in == KJ_DT_FLOAT32 && st == 4) {
        const float *x = (const float *)(const void *)a;
        r.v.f = mx ? kj_run_max_f32(x, n) : kj_run_min_f32(x, n);
    } else if (c->in == KJ_DT_FLOAT64 && st == 8) {
        const double *x = (const double *)(const void *)a;
        r.v.f = mx ? kj_run_max_f64(x, n) : kj_run_min_f64(x, n);
    } else if (c->acc == ACC_F32 || c->acc == ACC_F64) {
        r.v.f = ld_f64(a, c->in);
        for (int64_t i = 1; i < n; i++) r.v.f = (mx ? fmax_np : fmin_np)(r.v.f, ld_f64(a + i * st, c->in));
    } else if (c->acc == ACC_I64) {
        r.v.i = ld_i64(a, c->in);
        for (int64_t i = 1; i < n; i++) {
            int64_t x = ld_i64(a + i * st, c->in);
            if (mx ? x > r.v.i : x < r.v.i) r.v.i = x;
        }
    } else {
        r.v.u = ld_u64(a, c->in);
        for (int64_t i = 1; i < n; i++) {
            uint64_t x = ld_u64(a + i * st, c->in);
            if (mx ? x > r.v.u : x < r.v.u) r.v.u = x;
        }
    }
    return r;
}

/* argmin/argmax of a run (NumPy's @TYPE@_argmin): the first index of the
 * extreme; for floats the first NaN wins. */
static int64_t run_argext(kj_dtype dt, bool mx, const char *a, int64_t n, int64_t st)
{
    int64_t best = 0;
    char kind = kj_dtype_info[dt].kind;
    if (kind == 'f') {
        double b = ld_f64(a, dt);
        if (b != b) return 0;
        for (int64_t i = 1; i < n; i++) {
            double x = ld_f64(a + i * st, dt);
            if (x != x) return i;
            if (mx ? x > b : x < b) b = x, best = i;
        }
    } else if (kind == 'i') {
        int64_t b = ld_i64(a, dt);
        for (int64_t i = 1; i < n; i++) {
            int64_t x = ld_i64(a + i * st, dt);
            if (mx ? x > b : x < b) b = x, best = i;
        }
    } else {
        uint64_t b = ld_u64(a, dt);
        for (int64_t i = 1; i < n; i++) {
            uint64_t x = ld_u64(a + i * st, dt);
            if (mx ? x > b : x < b) b = x, best = i;
        }
    }
    return best;
}

/* The serial product of a run, starting from 1. */
static kj_scalar run_prod(const red_ctx *c, const char *a, int64_t n, int64_t st, kj_scalar acc)
{
    for (int64_t i = 0; i < n; i++, a += st) {
        switch (c->acc) {
        case ACC_F32: acc.v.f = (double)((float)acc.v.f * f32_of(a)); break;
        case ACC_F64: acc.v.f *= ld_f64(a, c->in); break;
        default: acc.v.u *= ld_u64(a, c->in); break;
        }
    }
    return acc;
}

static kj_scalar run_isum(const red_ctx *c, const char *a, int64_t n, int64_t st)
{
    uint64_t s = 0;
    for (int64_t i = 0; i < n; i++) s += ld_u64(a + i * st, c->in);
    return (kj_scalar){.v.u = s};
}

static void store(const red_ctx *c, char *o, kj_scalar s)
{
    if (c->acc == ACC_F32 || c->acc == ACC_F64) st_f64(o, c->out, s.v.f);
    else st_u64(o, c->out, s.v.u);
}

/* One result: the fold of the run at `a` along the reduced axis. */
static void fold_run(void *vctx, const char *a, char *o)
{
    red_ctx *c = vctx;
    int64_t n = c->p->len, st = c->p->stride;
    bool fl = c->acc == ACC_F32 || c->acc == ACC_F64;
    kj_scalar r = {0};
    switch (c->op) {
    case KJ_REDUCE_SUM:
        if (fl) r.v.f = run_fsum(c, a, n, st, NULL);
        else r = run_isum(c, a, n, st);
        break;
    case KJ_REDUCE_PROD: r = run_prod(c, a, n, st, fl ? (kj_scalar){.v.f = 1} : (kj_scalar){.v.u = 1}); break;
    case KJ_REDUCE_MIN:
    case KJ_REDUCE_MAX: r = run_extreme(c, a, n, st); break;
    case KJ_REDUCE_MEAN: r.v.f = finish_mean(c->acc, run_fsum(c, a, n, st, NULL), n); break;
    case KJ_REDUCE_VAR:
    case KJ_REDUCE_STD: {
        double mean = finish_mean(c->acc, run_fsum(c, a, n, st, NULL), n);
        r.v.f = finish_var(c, run_fsum(c, a, n, st, &mean), n);
        break;
    }
    case KJ_REDUCE_ARGMIN:
    case KJ_REDUCE_ARGMAX:
        st_i64(o, KJ_DT_INT64, run_argext(c->in, c->op == KJ_REDUCE_ARGMAX, a, n, st));
        return;
    }
    store(c, o, r);
}

/* ------------------------------------------------------------------------ */
/* Folding row by row (NumPy's elementwise inner loop)                       */
/* ------------------------------------------------------------------------ */

/* 16 bytes: what every x86-64 and AArch64 has (wider types are split into
 * scalars where the target lacks them) */
typedef float v4f32 __attribute__((vector_size(16)));
typedef int32_t v4i32 __attribute__((vector_size(16)));
typedef double v2f64 __attribute__((vector_size(16)));
typedef int64_t v2i64 __attribute__((vector_size(16)));

/* t = (x - mu)**2, W at a time (np.var's deviations, rounded as NumPy's
 * two operations); returns how many were done. */
#define DEFINE_VDEV(NAME, T, VT, W)                                                               \
    static int64_t NAME(const T *x, const T *mu, T *t, int64_t m)                                 \
    {                                                                                             \
        int64_t i = 0;                                                                            \
        VT a, b;                                                                                  \
        for (; i + W <= m; i += W) {                                                              \
            memcpy(&a, x + i, sizeof a);                                                          \
            memcpy(&b, mu + i, sizeof b);                                                         \
            a = (a - b) * (a - b);                                                                \
            memcpy(t + i, &a, sizeof a);                                                          \
        }                                                                                         \
        return i;                                                                                 \
    }
DEFINE_VDEV(vdev_f32, float, v4f32, 4)
DEFINE_VDEV(vdev_f64, double, v2f64, 2)

/* A row of m values `st` bytes apart as contiguous values of the
 * accumulation type: the row itself when it already is one, else converted
 * into `tmp`; with `mean` (m values of the accumulation type), the squared
 * deviations from it. */
static const void *row_values(const red_ctx *c, const char *x, int64_t m, int64_t st, const void *mean, void *tmp)
{
    switch (c->acc) {
    case ACC_F32: {
        if (!mean && st == 4) return x;
        float *t = tmp;
        const float *mu = mean;
        int64_t i = mean && st == 4 ? vdev_f32((const float *)(const void *)x, mu, t, m) : 0;
        for (; i < m; i++) {
            float v = f32_of(x + i * st);
            t[i] = mean ? (v - mu[i]) * (v - mu[i]) : v;
        }
        return t;
    }
    case ACC_F64: {
        bool native = st == 8 && c->in == KJ_DT_FLOAT64;
        if (!mean && native) return x;
        double *t = tmp;
        const double *mu = mean;
        int64_t i = mean && native ? vdev_f64((const double *)(const void *)x, mu, t, m) : 0;
        for (; i < m; i++) {
            double v = ld_f64(x + i * st, c->in);
            t[i] = mean ? (v - mu[i]) * (v - mu[i]) : v;
        }
        return t;
    }
    default: {
        if (st == 8 && (c->in == KJ_DT_INT64 || c->in == KJ_DT_UINT64)) return x;
        uint64_t *t = tmp;
        for (int64_t i = 0; i < m; i++) t[i] = ld_u64(x + i * st, c->in);
        return t;
    }
    }
}

/* acc[t] = acc[t] OP v[t] over a row; `first`: acc = identity OP v (the
 * sums start from 0: 0 + -0.0 is 0.0, as NumPy's). Floats go W at a time
 * through GCC/clang vector types (GCC's -O2 leaves a loop of unknown count
 * scalar), with np.minimum's NaN rule as masks: a NaN in acc stays, a NaN
 * in v is taken, and of equal values v, the later one. Returns how many
 * were done; the scalar loop below does the rest and the integer rows. */
#define DEFINE_VROW(NAME, T, VT, VI, W)                                                           \
    static int64_t NAME(kj_reduce_op op, bool first, T *restrict acc, const T *restrict v, int64_t m) \
    {                                                                                             \
        int64_t i = 0;                                                                            \
        VT a, x, zero = {0};                                                                      \
        VI take;                                                                                  \
        switch (op) {                                                                             \
        case KJ_REDUCE_MIN:                                                                       \
        case KJ_REDUCE_MAX:                                                                       \
            for (; !first && i + W <= m; i += W) {                                                \
                memcpy(&a, acc + i, sizeof a);                                                    \
                memcpy(&x, v + i, sizeof x);                                                      \
                take = (op == KJ_REDUCE_MIN ? x <= a : x >= a) | (x != x);                        \
                take &= ~(a != a);                                                                \
                a = (VT)(((VI)x & take) | ((VI)a & ~take));                                       \
                memcpy(acc + i, &a, sizeof a);                                                    \
            }                                                                                     \
            break;                                                                                \
        case KJ_REDUCE_PROD: break;                                                               \
        default:                                                                                  \
            for (; i + W <= m; i += W) {                                                          \
                memcpy(&a, acc + i, sizeof a);                                                    \
                memcpy(&x, v + i, sizeof x);                                                      \
                a = first ? zero + x : a + x;                                                     \
                memcpy(acc + i, &a, sizeof a);                                                    \
            }                                                                                     \
            break;                                                                                \
        }                                                                                         \
        return i;                                                                                 \
    }
DEFINE_VROW(vrow_f32, float, v4f32, v4i32, 4)
DEFINE_VROW(vrow_f64, double, v2f64, v2i64, 2)

/* acc = (((acc + r0) + r1) + r2) + r3 over four contiguous rows `st` bytes
 * apart (acc = 0 first): four of the serial steps above in their order, with
 * one load and store of acc instead of four. */
#define DEFINE_VSUM4(NAME, T, VT, W)                                                              \
    static void NAME(bool first, T *restrict acc, const char *x, int64_t st, int64_t m)           \
    {                                                                                             \
        const T *r0 = (const T *)(const void *)x, *r1 = (const T *)(const void *)(x + st);        \
        const T *r2 = (const T *)(const void *)(x + 2 * st), *r3 = (const T *)(const void *)(x + 3 * st); \
        int64_t i = 0;                                                                            \
        VT a, b, zero = {0};                                                                      \
        for (; i + W <= m; i += W) {                                                              \
            if (first) a = zero;                                                                  \
            else memcpy(&a, acc + i, sizeof a);                                                   \
            memcpy(&b, r0 + i, sizeof b), a += b;                                                 \
            memcpy(&b, r1 + i, sizeof b), a += b;                                                 \
            memcpy(&b, r2 + i, sizeof b), a += b;                                                 \
            memcpy(&b, r3 + i, sizeof b), a += b;                                                 \
            memcpy(acc + i, &a, sizeof a);                                                        \
        }                                                                                         \
        for (; i < m; i++) {                                                                      \
            T t = first ? (T)0 : acc[i];                                                          \
            t += r0[i];                                                                           \
            t += r1[i];                                                                           \
            t += r2[i];                                                                           \
            t += r3[i];                                                                           \
            acc[i] = t;                                                                           \
        }                                                                                         \
    }
DEFINE_VSUM4(vsum4_f32, float, v4f32, 4)
DEFINE_VSUM4(vsum4_f64, double, v2f64, 2)

/* The same for var/std's second pass: acc += (r_k - mu)**2 for four rows in
 * turn, each deviation and square rounded on its own as NumPy's temporary
 * array has them. */
#define DEV_STEP(T, k) /* named steps: GCC does not unroll a loop of four */                     \
    (memcpy(&b, (const T *)(const void *)(x + (k) * st) + i, sizeof b), b -= u, b *= b, a += b)
#define DEFINE_VDEV4(NAME, T, VT, W)                                                              \
    static void NAME(bool first, T *restrict acc, const T *restrict mu, const char *x, int64_t st, int64_t m) \
    {                                                                                             \
        int64_t i = 0;                                                                            \
        VT a, b, u, zero = {0};                                                                   \
        for (; i + W <= m; i += W) {                                                              \
            if (first) a = zero;                                                                  \
            else memcpy(&a, acc + i, sizeof a);                                                   \
            memcpy(&u, mu + i, sizeof u);                                                         \
            DEV_STEP(T, 0), DEV_STEP(T, 1), DEV_STEP(T, 2), DEV_STEP(T, 3);                       \
            memcpy(acc + i, &a, sizeof a);                                                        \
        }                                                                                         \
        for (; i < m; i++) {                                                                      \
            T t = first ? (T)0 : acc[i];                                                          \
            for (int k = 0; k < 4; k++) {                                                         \
                T d = ((const T *)(const void *)(x + k * st))[i] - mu[i];                         \
                d *= d;                                                                           \
                t += d;                                                                           \
            }                                                                                     \
            acc[i] = t;                                                                           \
        }                                                                                         \
    }
DEFINE_VDEV4(vdev4_f32, float, v4f32, 4)
DEFINE_VDEV4(vdev4_f64, double, v2f64, 2)

static int64_t vrow_none(kj_reduce_op op, bool first, const void *acc, const void *v, int64_t m)
{
    (void)op, (void)first, (void)acc, (void)v, (void)m;
    return 0;
}

#define ROW_OPS(NAME, T, ISNAN, VROW, ADD, MUL)                                                   \
    static void NAME(kj_reduce_op op, bool first, T *restrict acc, const T *restrict v, int64_t m) \
    {                                                                                             \
        if (first && op != KJ_REDUCE_SUM) {                                                       \
            memcpy(acc, v, (size_t)m * sizeof(T));                                                \
            return;                                                                               \
        }                                                                                         \
        int64_t i = VROW(op, first, acc, v, m);                                                   \
        switch (op) {                                                                             \
        case KJ_REDUCE_PROD:                                                                      \
            for (; i < m; i++) acc[i] = MUL(acc[i], v[i]);                                        \
            break;                                                                                \
        case KJ_REDUCE_MIN:                                                                       \
            for (; i < m; i++) acc[i] = ISNAN(acc[i]) ? acc[i] : ISNAN(v[i]) || v[i] <= acc[i] ? v[i] : acc[i]; \
            break;                                                                                \
        case KJ_REDUCE_MAX:                                                                       \
            for (; i < m; i++) acc[i] = ISNAN(acc[i]) ? acc[i] : ISNAN(v[i]) || v[i] >= acc[i] ? v[i] : acc[i]; \
            break;                                                                                \
        default:                                                                                  \
            for (; i < m; i++) acc[i] = first ? ADD((T)0, v[i]) : ADD(acc[i], v[i]);              \
            break;                                                                                \
        }                                                                                         \
    }
#define FLOAT_NAN(x) ((x) != (x))
#define INT_NAN(x) false
#define PLAIN_ADD(a, b) ((a) + (b))
#define PLAIN_MUL(a, b) ((a) * (b))
/* signed integers wrap, as NumPy's loops do (in C: through unsigned) */
#define WRAP_ADD(a, b) ((int64_t)((uint64_t)(a) + (uint64_t)(b)))
#define WRAP_MUL(a, b) ((int64_t)((uint64_t)(a) * (uint64_t)(b)))
ROW_OPS(rows_f32, float, FLOAT_NAN, vrow_f32, PLAIN_ADD, PLAIN_MUL)
ROW_OPS(rows_f64, double, FLOAT_NAN, vrow_f64, PLAIN_ADD, PLAIN_MUL)
ROW_OPS(rows_i64, int64_t, INT_NAN, vrow_none, WRAP_ADD, WRAP_MUL)
ROW_OPS(rows_u64, uint64_t, INT_NAN, vrow_none, PLAIN_ADD, PLAIN_MUL)

/* acc = the fold of the n rows at a, a + st, ...: m values `ist` apart. */
static void fold_rows(const red_ctx *c, const char *a, int64_t m, int64_t ist, const void *mean, void *acc,
                      void *tmp)
{
    kj_reduce_op op = c->op == KJ_REDUCE_MEAN || c->op == KJ_REDUCE_VAR || c->op == KJ_REDUCE_STD ? KJ_REDUCE_SUM
                                                                                                  : c->op;
    int64_t st = c->p->stride, j = 0;
    /* float sums (and var's sums of squared deviations) of contiguous rows of
     * the input's own type: four at a time */
    bool f32 = c->acc == ACC_F32 && ist == 4, f64 = c->acc == ACC_F64 && c->in == KJ_DT_FLOAT64 && ist == 8;
    if (op == KJ_REDUCE_SUM && (f32 || f64))
        for (; j + 4 <= c->p->len; j += 4) {
            if (f32 && mean) vdev4_f32(j == 0, acc, mean, a + j * st, st, m);
            else if (mean) vdev4_f64(j == 0, acc, mean, a + j * st, st, m);
            else if (f32) vsum4_f32(j == 0, acc, a + j * st, st, m);
            else vsum4_f64(j == 0, acc, a + j * st, st, m);
        }
    /* min/max of such rows: the first copied, then up to four at a time */
    if ((op == KJ_REDUCE_MIN || op == KJ_REDUCE_MAX) && (f32 || f64) && c->p->len > 0) {
        memcpy(acc, a, (size_t)(m * ist));
        for (j = 1; j < c->p->len; j += 4) {
            int k = c->p->len - j < 4 ? (int)(c->p->len - j) : 4;
            if (f32)
                (op == KJ_REDUCE_MIN ? kj_rows_min_f32_isa : kj_rows_max_f32_isa)(KJ_FOLD_BEST, acc, a + j * st,
                                                                                  st, k, m);
            else
                (op == KJ_REDUCE_MIN ? kj_rows_min_f64_isa : kj_rows_max_f64_isa)(KJ_FOLD_BEST, acc, a + j * st,
                                                                                  st, k, m);
        }
    }
    for (; j < c->p->len; j++) {
        const void *v = row_values(c, a + j * st, m, ist, mean, tmp);
        switch (c->acc) {
        case ACC_F32: rows_f32(op, j == 0, acc, v, m); break;
        case ACC_F64: rows_f64(op, j == 0, acc, v, m); break;
        case ACC_I64: rows_i64(op, j == 0, acc, v, m); break;
        case ACC_U64: rows_u64(op, j == 0, acc, v, m); break;
        }
    }
}

static double acc_get(acc_kind k, const void *acc, int64_t i)
{
    return k == ACC_F32 ? (double)((const float *)acc)[i] : ((const double *)acc)[i];
}

/* One row of results: the innermost other axis, folded over the reduced
 * axis in serial order (mean/var/std: the sums, then the deviations'). */
static void fold_row(void *vctx, const char *a, char *o)
{
    red_ctx *c = vctx;
    const plan *p = c->p;
    int64_t m = p->shape[p->n - 1], ist = p->ast[p->n - 1], ost = p->ost[p->n - 1], n = p->len;
    double *acc = c->buf, *mean = c->buf + m, *tmp = c->buf + 2 * m;
    const void *mean_acc = mean;
    fold_rows(c, a, m, ist, NULL, acc, tmp);
    bool var = c->op == KJ_REDUCE_VAR || c->op == KJ_REDUCE_STD;
    if (c->op == KJ_REDUCE_MEAN || var)
        for (int64_t i = 0; i < m; i++) mean[i] = finish_mean(c->acc, acc_get(c->acc, acc, i), n);
    if (var && c->acc == ACC_F32) { /* the deviations take the mean in float32 */
        float *m32 = (float *)(void *)(c->buf + 3 * m);
        for (int64_t i = 0; i < m; i++) m32[i] = (float)mean[i];
        mean_acc = m32;
    }
    if (var) fold_rows(c, a, m, ist, mean_acc, acc, tmp);
    for (int64_t i = 0; i < m; i++) {
        char *d = o + i * ost;
        if (c->op == KJ_REDUCE_MEAN) st_f64(d, c->out, mean[i]);
        else if (var) st_f64(d, c->out, finish_var(c, acc_get(c->acc, acc, i), n));
        else if (c->acc == ACC_F32 || c->acc == ACC_F64) st_f64(d, c->out, acc_get(c->acc, acc, i));
        else st_u64(d, c->out, ((const uint64_t *)(const void *)acc)[i]);
    }
}

/* ------------------------------------------------------------------------ */
/* Entry points                                                             */
/* ------------------------------------------------------------------------ */

static bool empty_error(kj_reduce_op op, kj_rt_error *err)
{
    switch (op) {
    case KJ_REDUCE_MIN:
    case KJ_REDUCE_MAX:
        return kj_rt_errorf(err, "ValueError", "zero-size array to reduction operation %s which has no identity",
                            op == KJ_REDUCE_MAX ? "maximum" : "minimum");
    case KJ_REDUCE_ARGMIN:
    case KJ_REDUCE_ARGMAX:
        return kj_rt_errorf(err, "ValueError", "attempt to get %s of an empty sequence",
                            op == KJ_REDUCE_ARGMAX ? "argmax" : "argmin");
    default: return true;
    }
}

typedef struct {
    const plan *p;
    const red_ctx *c;
    visit_fn fn;
    int stop;           /* the visit's depth: 0 when it is one call for all */
    const char *a;
    char *o;
    int64_t len, per;   /* what is split: the visit's outermost axis, else the row's columns */
    size_t buf_bytes;
} axis_job;

/* Results [t * per, (t + 1) * per) of the split axis: the visit's outermost
 * one, or, for one call that folds rows into one row of results, that row's
 * columns. Every result is computed as one thread computes it (from its own
 * elements, in their order), so the bits do not depend on the split. */
static void axis_task(void *vctx, int64_t t)
{
    const axis_job *j = vctx;
    int64_t lo = t * j->per, hi = lo + j->per < j->len ? lo + j->per : j->len;
    plan p = *j->p;
    red_ctx c = *j->c;
    c.p = &p;
    c.buf = xmalloc(j->buf_bytes);
    int d = j->stop > 0 ? 0 : p.n - 1;
    p.shape[d] = hi - lo;
    if (j->stop > 0) visit(&p, 0, j->stop, j->a + lo * p.ast[d], j->o + lo * p.ost[d], j->fn, &c);
    else j->fn(&c, j->a + lo * p.ast[d], j->o + lo * p.ost[d]);
    free(c.buf);
}

/* The visit on tk's threads when the array is large and the split axis long
 * enough; false: not done. */
static bool par_visit(const kj_array *a, const plan *p, const red_ctx *c, int stop, visit_fn fn, char *o,
                      size_t buf_bytes, const kj_tasks *tk)
{
    if (!tk || tk->width < 2 || kj_array_size(a) < KJ_PAR_MIN || p->n == 0) return false;
    axis_job j = {p, c, fn, stop, a->data, o, stop > 0 ? p->shape[0] : p->shape[p->n - 1], 0, buf_bytes};
    if (j.len < 2) return false;
    int64_t parts = j.len < 4 * (int64_t)tk->width ? j.len : 4 * (int64_t)tk->width;
    j.per = (j.len + parts - 1) / parts;
    tk->run(tk, (j.len + j.per - 1) / j.per, axis_task, &j);
    return true;
}

kj_array *kj_array_reduce_axis(const kj_array *a, kj_reduce_op op, int axis, int64_t ddof, kj_rt_error *err)
{
    return kj_array_reduce_axis_on(a, op, axis, ddof, NULL, err);
}

kj_array *kj_array_reduce_axis_on(const kj_array *a, kj_reduce_op op, int axis, int64_t ddof, const kj_tasks *tk,
                                  kj_rt_error *err)
{
    if (a->shape[axis] == 0 && !empty_error(op, err)) return NULL;
    int64_t shape[KJ_MAX_DIMS];
    for (int d = 0, o = 0; d < a->ndim; d++)
        if (d != axis) shape[o++] = a->shape[d];
    kj_array *out = kj_array_empty(kj_reduce_dtype(op, a->dtype), a->ndim - 1, shape, err);
    if (!out || kj_array_size(out) == 0) return out;
    plan p;
    make_plan(a, axis, out, &p);
    red_ctx c = {op, a->dtype, out->dtype, acc_of(op, a->dtype), &p, ddof, NULL};
    /* NumPy's inner loop along the axis, or a result at a time where rows
     * would be too short to pay (argmin/argmax always: their value does not
     * depend on the order). */
    bool rows = !p.along && p.n > 0 && p.len > 0 && op != KJ_REDUCE_ARGMIN && op != KJ_REDUCE_ARGMAX;
    size_t bytes = (rows ? 4 * (size_t)p.shape[p.n - 1] : (size_t)CHUNK) * sizeof(double);
    int stop = rows ? p.n - 1 : p.n;
    visit_fn fn = rows ? fold_row : fold_run;
    if (!par_visit(a, &p, &c, stop, fn, out->data, bytes, tk)) {
        c.buf = xmalloc(bytes);
        visit(&p, 0, stop, a->data, out->data, fn, &c);
        free(c.buf);
    }
    return out;
}

typedef struct {
    red_ctx *c;
    kj_scalar acc;
} prod_ctx;

static void prod_run(void *vctx, const char *a, char *o)
{
    (void)o;
    prod_ctx *pc = vctx;
    const plan *p = pc->c->p;
    pc->acc = run_prod(pc->c, a, p->n ? p->shape[p->n - 1] : 1, p->n ? p->ast[p->n - 1] : 0, pc->acc);
}

/* np.prod(a): NumPy's multiply loop is serial, over the elements in its
 * iteration order; integers wrap. */
kj_scalar kj_array_prod(const kj_array *a)
{
    plan p;
    make_plan(a, -1, NULL, &p);
    red_ctx c = {KJ_REDUCE_PROD, a->dtype, kj_reduce_dtype(KJ_REDUCE_PROD, a->dtype),
                 acc_of(KJ_REDUCE_PROD, a->dtype), &p, 0, NULL};
    bool fl = c.acc == ACC_F32 || c.acc == ACC_F64;
    prod_ctx pc = {&c, fl ? (kj_scalar){.v.f = 1} : (kj_scalar){.v.u = 1}};
    if (kj_array_size(a) > 0) visit(&p, 0, p.n ? p.n - 1 : 0, a->data, NULL, prod_run, &pc);
    pc.acc.dtype = c.out;
    return pc.acc;
}

typedef struct {
    const kj_array *a;
    bool is_max, nan;
    int64_t seen, best;
    char *at; /* the best element so far */
} argext_ctx;

/* the innermost C axis of a at `p`, one row */
static void argext_row(argext_ctx *c, const char *p)
{
    const kj_array *a = c->a;
    int d = a->ndim - 1;
    int64_t n = a->ndim ? a->shape[d] : 1, st = a->ndim ? a->strides[d] : 0;
    if (c->nan) return;
    int64_t i = run_argext(a->dtype, c->is_max, p, n, st);
    const char *x = p + i * st;
    bool take = c->seen == 0;
    if (!take) {
        if (kj_dtype_info[a->dtype].kind == 'f') {
            double v = ld_f64(x, a->dtype), b = ld_f64(c->at, a->dtype);
            take = v != v || (c->is_max ? v > b : v < b);
        } else if (kj_dtype_info[a->dtype].kind == 'i') {
            int64_t v = ld_i64(x, a->dtype), b = ld_i64(c->at, a->dtype);
            take = c->is_max ? v > b : v < b;
        } else {
            uint64_t v = ld_u64(x, a->dtype), b = ld_u64(c->at, a->dtype);
            take = c->is_max ? v > b : v < b;
        }
    }
    if (take) {
        c->best = c->seen + i;
        c->at = (char *)x;
        double v = kj_dtype_info[a->dtype].kind == 'f' ? ld_f64(x, a->dtype) : 0;
        c->nan = v != v;
    }
    c->seen += n;
}

static void argext_walk(argext_ctx *c, int d, const char *p)
{
    if (d >= c->a->ndim - 1) {
        argext_row(c, p);
        return;
    }
    for (int64_t i = 0; i < c->a->shape[d]; i++) argext_walk(c, d + 1, p + i * c->a->strides[d]);
}

/* np.argmin/argmax(a): the index into a.ravel() (C order). */
bool kj_array_argext(const kj_array *a, bool is_max, int64_t *out, kj_rt_error *err)
{
    if (kj_array_size(a) == 0) return empty_error(is_max ? KJ_REDUCE_ARGMAX : KJ_REDUCE_ARGMIN, err);
    argext_ctx c = {.a = a, .is_max = is_max};
    argext_walk(&c, 0, a->data);
    *out = c.best;
    return true;
}
