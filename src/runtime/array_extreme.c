/* SPDX-License-Identifier: BSD-2-Clause */
/* np.minimum / np.maximum folds of float runs, the inner loops of min and
 * max over whole arrays and along axes, in the widest vectors the CPU has.
 *
 * The runtime is compiled for baseline x86-64 (SSE2), while NumPy picks
 * AVX2 or AVX-512 loops at run time, and on a one-thread fold over memory
 * the width shows: 10^8 float32 on the Xeon of the GPU machine, SSE 62 ms,
 * AVX2 50 ms, AVX-512 44 ms (benchmarks/cpu/fold_isa.sh, 2026-11-25, before
 * the prefetch below). So each loop is written once, over the
 * intrinsics of one instruction set, and instantiated for SSE2, AVX2 and
 * AVX-512F (GCC/clang `target` attributes); the entry points pick the
 * widest the CPU supports (`__builtin_cpu_supports`). Every form computes
 * the same result bits: the folds below do not depend on the order in
 * which equal values meet, except for zeros, which a final scan settles.
 * Elsewhere than x86-64 a scalar loop does the work. */
#include "array_int.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define KJ_X86 1
#include <immintrin.h>
#endif

/* The element-at-a-time steps: the fold of a run takes the first NaN
 * (`run`: v CMP m ? v : m, NaNs returned on sight); the fold of rows keeps
 * np.minimum(acc, v)'s rule: a NaN in acc stays, a NaN in v is taken, and
 * of equal values v, the later one. */
#define RUN_STEP(CMP, m, v) ((v) CMP (m) ? (v) : (m))
#define ROW_STEP(CMP, a, v) ((a) != (a) ? (a) : (v) != (v) || !((a) CMP (v)) ? (v) : (a))

/* The scalar end of a run's fold from element i with the running m, then
 * the zero rule: of the elements equal to the extreme (0.0 and -0.0 are
 * equal), the last one, as the element-at-a-time loop leaves it. */
#define RUN_TAIL(CMP, x, n, i, m)                                                                 \
    do {                                                                                          \
        for (; (i) < (n); (i)++) {                                                                \
            if ((x)[i] != (x)[i]) return (x)[i];                                                  \
            (m) = RUN_STEP(CMP, m, (x)[i]);                                                       \
        }                                                                                         \
        if ((m) != 0) return (m);                                                                 \
        for (int64_t j_ = (n) - 1; j_ >= 0; j_--)                                                 \
            if ((x)[j_] == (m)) return (x)[j_];                                                   \
        return (m);                                                                               \
    } while (0)

#define ROWS_TAIL(CMP, T, acc, x, st, k, m, i)                                                    \
    for (; (i) < (m); (i)++)                                                                      \
        for (int r_ = 0; r_ < (k); r_++) {                                                        \
            T v_ = ((const T *)(const void *)((x) + r_ * (st)))[i];                               \
            (acc)[i] = ROW_STEP(CMP, (acc)[i], v_);                                               \
        }

#ifdef KJ_X86
/* What differs between the instruction sets: the NaN test of two vectors
 * (a vector of lane masks for SSE/AVX, a mask register for AVX-512), the or
 * of two such masks, whether any lane is set, and a select m ? a : t.
 * P is the intrinsics' prefix (_mm, _mm256, _mm512), S their suffix (ps,
 * pd). The rest is spelled the same in all three: loadu, storeu, min, max. */
#define SSE_UNORD(P, S, a, b) _mm_cmpunord_##S(a, b)
#define SSE_OR(P, S, m1, m2) _mm_or_##S(m1, m2)
#define SSE_ANY(P, S, m) (_mm_movemask_##S(m) != 0)
#define SSE_SELECT(P, S, m, a, t) _mm_or_##S(_mm_and_##S(m, a), _mm_andnot_##S(m, t))
#define AVX2_UNORD(P, S, a, b) _mm256_cmp_##S(a, b, _CMP_UNORD_Q)
#define AVX2_OR(P, S, m1, m2) _mm256_or_##S(m1, m2)
#define AVX2_ANY(P, S, m) (_mm256_movemask_##S(m) != 0)
#define AVX2_SELECT(P, S, m, a, t) _mm256_blendv_##S(t, a, m)
#define AVX512_UNORD(P, S, a, b) _mm512_cmp_##S##_mask(a, b, _CMP_UNORD_Q)
#define AVX512_OR(P, S, m1, m2) ((m1) | (m2))
#define AVX512_ANY(P, S, m) ((m) != 0)
#define AVX512_SELECT(P, S, m, a, t) _mm512_mask_blend_##S(m, t, a)

#define VOP(P, op, S) P##_##op##_##S

/* The fold of a run of n >= 1 elements: four vectors of lanes without a
 * chain of dependent compares, eight loads a step; NaNs noted on the way
 * (one test per two vectors) and looked for only when there is one. `OP(v,
 * r)` is min or max: v CMP r ? v : r per lane, the run step. The fold is
 * associative (bar zeros, settled by RUN_TAIL), so lanes combine in any
 * order. The loop is bound by memory: a prefetch into L2 of the lines
 * PREFETCH bytes ahead took 10 % off a fold of 400 MB on the Xeon of the
 * GPU machine (benchmarks/cpu/fold_isa.sh), bringing it to the speed of a
 * bare sum loop. Prefetches do not fault past the end. */
enum { PREFETCH = 4096, LINE = 64 };
#define LOAD4(P, S, p, W, a, b, c, d)                                                             \
    __typeof__(VOP(P, loadu, S)(p)) a = VOP(P, loadu, S)(p), b = VOP(P, loadu, S)((p) + (W));     \
    __typeof__(a) c = VOP(P, loadu, S)((p) + 2 * (W)), d = VOP(P, loadu, S)((p) + 3 * (W))
#define NAN4(ISA, P, S, a, b, c, d) ISA##_OR(P, S, ISA##_UNORD(P, S, a, b), ISA##_UNORD(P, S, c, d))
#define DEFINE_RUN(NAME, ATTR, ISA, P, S, T, W, OP, CMP)                                          \
    ATTR static T NAME(const T *x, int64_t n)                                                     \
    {                                                                                             \
        T m = x[0];                                                                               \
        int64_t i = 0;                                                                            \
        if (n >= 4 * W) {                                                                         \
            LOAD4(P, S, x, W, r0, r1, r2, r3);                                                    \
            __typeof__(NAN4(ISA, P, S, r0, r1, r2, r3)) nan = NAN4(ISA, P, S, r0, r1, r2, r3);    \
            for (i = 4 * W; i + 8 * W <= n; i += 8 * W) {                                         \
                _Pragma("GCC unroll 8") for (int q = 0; q < 8 * W * (int)sizeof(T); q += LINE)    \
                    _mm_prefetch((const char *)(x + i) + PREFETCH + q, _MM_HINT_T1);              \
                LOAD4(P, S, x + i, W, v0, v1, v2, v3);                                            \
                LOAD4(P, S, x + i + 4 * W, W, v4, v5, v6, v7);                                       \
                nan = ISA##_OR(P, S, nan,                                                         \
                               ISA##_OR(P, S, NAN4(ISA, P, S, v0, v1, v2, v3), NAN4(ISA, P, S, v4, v5, v6, v7))); \
                r0 = VOP(P, OP, S)(VOP(P, OP, S)(v4, v0), r0);                                    \
                r1 = VOP(P, OP, S)(VOP(P, OP, S)(v5, v1), r1);                                    \
                r2 = VOP(P, OP, S)(VOP(P, OP, S)(v6, v2), r2);                                    \
                r3 = VOP(P, OP, S)(VOP(P, OP, S)(v7, v3), r3);                                    \
            }                                                                                     \
            if (i + 4 * W <= n) {                                                                 \
                LOAD4(P, S, x + i, W, v0, v1, v2, v3);                                            \
                nan = ISA##_OR(P, S, nan, NAN4(ISA, P, S, v0, v1, v2, v3));                       \
                r0 = VOP(P, OP, S)(v0, r0), r1 = VOP(P, OP, S)(v1, r1);                           \
                r2 = VOP(P, OP, S)(v2, r2), r3 = VOP(P, OP, S)(v3, r3);                           \
                i += 4 * W;                                                                       \
            }                                                                                     \
            if (ISA##_ANY(P, S, nan))                                                             \
                for (int64_t j = 0;; j++)                                                         \
                    if (x[j] != x[j]) return x[j];                                                \
            r0 = VOP(P, OP, S)(r1, r0), r2 = VOP(P, OP, S)(r3, r2), r0 = VOP(P, OP, S)(r2, r0);   \
            T lane[W];                                                                            \
            VOP(P, storeu, S)(lane, r0);                                                          \
            for (int l = 0; l < W; l++) m = RUN_STEP(CMP, m, lane[l]);                            \
        }                                                                                         \
        RUN_TAIL(CMP, x, n, i, m);                                                                \
    }

/* acc = acc OP row_0 OP ... OP row_{k-1} elementwise (rows `st` bytes apart,
 * m elements each) by the row step: OP(a, v) is a CMP v ? a : v per lane
 * (v for NaNs and ties), and a NaN already in acc is kept. One load and
 * store of acc for k rows. */
#define DEFINE_ROWS(NAME, ATTR, ISA, P, S, T, W, OP, CMP)                                         \
    ATTR static void NAME(T *restrict acc, const char *x, int64_t st, int k, int64_t m)           \
    {                                                                                             \
        int64_t i = 0;                                                                            \
        for (; i + W <= m; i += W) {                                                              \
            __typeof__(VOP(P, loadu, S)(acc)) a = VOP(P, loadu, S)(acc + i);                      \
            for (int r = 0; r < k; r++) {                                                         \
                __typeof__(a) v = VOP(P, loadu, S)((const T *)(const void *)(x + r * st) + i);    \
                a = ISA##_SELECT(P, S, ISA##_UNORD(P, S, a, a), a, VOP(P, OP, S)(a, v));          \
            }                                                                                     \
            VOP(P, storeu, S)(acc + i, a);                                                        \
        }                                                                                         \
        ROWS_TAIL(CMP, T, acc, x, st, k, m, i)                                                    \
    }

#define SSE_ATTR
#define AVX2_ATTR __attribute__((target("avx2")))
#define AVX512_ATTR __attribute__((target("avx512f")))

/* Every fold for one instruction set: run and rows, min and max, float32
 * and float64. */
#define DEFINE_ISA(ISA, P, WF, WD)                                                                \
    DEFINE_RUN(ISA##_run_min_f32, ISA##_ATTR, ISA, P, ps, float, WF, min, <)                      \
    DEFINE_RUN(ISA##_run_max_f32, ISA##_ATTR, ISA, P, ps, float, WF, max, >)                      \
    DEFINE_RUN(ISA##_run_min_f64, ISA##_ATTR, ISA, P, pd, double, WD, min, <)                     \
    DEFINE_RUN(ISA##_run_max_f64, ISA##_ATTR, ISA, P, pd, double, WD, max, >)                     \
    DEFINE_ROWS(ISA##_rows_min_f32, ISA##_ATTR, ISA, P, ps, float, WF, min, <)                    \
    DEFINE_ROWS(ISA##_rows_max_f32, ISA##_ATTR, ISA, P, ps, float, WF, max, >)                    \
    DEFINE_ROWS(ISA##_rows_min_f64, ISA##_ATTR, ISA, P, pd, double, WD, min, <)                   \
    DEFINE_ROWS(ISA##_rows_max_f64, ISA##_ATTR, ISA, P, pd, double, WD, max, >)
DEFINE_ISA(SSE, _mm, 4, 2)
DEFINE_ISA(AVX2, _mm256, 8, 4)
DEFINE_ISA(AVX512, _mm512, 16, 8)

/* The widest form this CPU runs; `use` (KJ_FOLD_*) caps it for tests. */
static kj_fold_isa widest(kj_fold_isa use)
{
    if (use >= KJ_FOLD_AVX512 && __builtin_cpu_supports("avx512f")) return KJ_FOLD_AVX512;
    if (use >= KJ_FOLD_AVX2 && __builtin_cpu_supports("avx2")) return KJ_FOLD_AVX2;
    return KJ_FOLD_SSE;
}

#define ENTRY_RUN(NAME, T)                                                                        \
    T kj_##NAME##_isa(kj_fold_isa use, const T *x, int64_t n)                                     \
    {                                                                                             \
        switch (widest(use)) {                                                                    \
        case KJ_FOLD_AVX512: return AVX512_##NAME(x, n);                                          \
        case KJ_FOLD_AVX2: return AVX2_##NAME(x, n);                                              \
        default: return SSE_##NAME(x, n);                                                         \
        }                                                                                         \
    }
#define ENTRY_ROWS(NAME, T)                                                                       \
    void kj_##NAME##_isa(kj_fold_isa use, T *restrict acc, const char *x, int64_t st, int k, int64_t m) \
    {                                                                                             \
        switch (widest(use)) {                                                                    \
        case KJ_FOLD_AVX512: AVX512_##NAME(acc, x, st, k, m); break;                              \
        case KJ_FOLD_AVX2: AVX2_##NAME(acc, x, st, k, m); break;                                  \
        default: SSE_##NAME(acc, x, st, k, m); break;                                             \
        }                                                                                         \
    }

#else /* not x86-64: one scalar form */

#define ENTRY_RUN(NAME, T, CMP)                                                                   \
    T kj_##NAME##_isa(kj_fold_isa use, const T *x, int64_t n)                                     \
    {                                                                                             \
        (void)use;                                                                                \
        T m = x[0];                                                                               \
        int64_t i = 1;                                                                            \
        RUN_TAIL(CMP, x, n, i, m);                                                                \
    }
#define ENTRY_ROWS(NAME, T, CMP)                                                                  \
    void kj_##NAME##_isa(kj_fold_isa use, T *restrict acc, const char *x, int64_t st, int k, int64_t m) \
    {                                                                                             \
        (void)use;                                                                                \
        int64_t i = 0;                                                                            \
        ROWS_TAIL(CMP, T, acc, x, st, k, m, i)                                                    \
    }
#endif

#ifdef KJ_X86
#define ENTRIES(T, SUF, MIN, MAX) /* the comparison is the instantiated form's */               \
    ENTRY_RUN(run_min_##SUF, T) ENTRY_RUN(run_max_##SUF, T) ENTRY_ROWS(rows_min_##SUF, T)         \
        ENTRY_ROWS(rows_max_##SUF, T)
#else
#define ENTRIES(T, SUF, MIN, MAX)                                                                 \
    ENTRY_RUN(run_min_##SUF, T, MIN) ENTRY_RUN(run_max_##SUF, T, MAX)                             \
        ENTRY_ROWS(rows_min_##SUF, T, MIN) ENTRY_ROWS(rows_max_##SUF, T, MAX)
#endif
ENTRIES(float, f32, <, >)
ENTRIES(double, f64, <, >)

float kj_run_min_f32(const float *x, int64_t n) { return kj_run_min_f32_isa(KJ_FOLD_BEST, x, n); }
float kj_run_max_f32(const float *x, int64_t n) { return kj_run_max_f32_isa(KJ_FOLD_BEST, x, n); }
double kj_run_min_f64(const double *x, int64_t n) { return kj_run_min_f64_isa(KJ_FOLD_BEST, x, n); }
double kj_run_max_f64(const double *x, int64_t n) { return kj_run_max_f64_isa(KJ_FOLD_BEST, x, n); }
