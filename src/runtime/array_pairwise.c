/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy's pairwise summation of floats, the kernel of sum, mean, var and
 * std: the recursion, and a form that sums four of its leaves at once.
 *
 * The recursion's leaves (at most 128 elements) each add into eight
 * accumulators, a chain of up to 15 dependent additions per accumulator:
 * one leaf at a time, a sum runs at the latency of an addition, near half
 * the speed of memory on the Xeon of the GPU machine. The leaves are
 * independent, so where the CPU has AVX2 the leaves of a subtree of at most
 * BATCH elements are summed four at a time (each leaf's eight accumulators
 * in one or two vector registers: the same additions in the same order),
 * then combined by the recursion's own tree. The bits are NumPy's either
 * way (tests/unit/test_array.c compares both forms). */
#include "array_int.h"

#include <stdbool.h>

#if defined(__x86_64__) && defined(__GNUC__)
#define KJ_X86 1
#include <immintrin.h>
#endif

/* NumPy's pairwise summation (@TYPE@_pairwise_sum in loops_utils.h): below
 * 8 elements a plain loop; up to 128 eight accumulators combined as
 * ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)) plus the rest; above, split in two at
 * a multiple of 8 and recurse. The result bits match NumPy's. ELEM(i) reads
 * element i: the strided form and the unit-stride one (NumPy's common
 * case), where the eight accumulators become vector registers — the same
 * additions in the same order. */
#define DEFINE_PAIRWISE(NAME, T, PARAMS, ARGS, ELEM, ADVANCE)                                  \
    static T NAME PARAMS                                                                       \
    {                                                                                          \
        if (n < 8) {                                                                           \
            T res = 0;                                                                         \
            for (int64_t i = 0; i < n; i++) res += ELEM(i);                                    \
            return res;                                                                        \
        }                                                                                      \
        if (n <= 128) {                                                                        \
            T r[8];                                                                            \
            int64_t i;                                                                         \
            for (int k = 0; k < 8; k++) r[k] = ELEM(k);                                        \
            for (i = 8; i < n - (n % 8); i += 8)                                               \
                for (int k = 0; k < 8; k++) r[k] += ELEM(i + k);                               \
            T res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));         \
            for (; i < n; i++) res += ELEM(i);                                                 \
            return res;                                                                        \
        }                                                                                      \
        int64_t n2 = n / 2;                                                                    \
        n2 -= n2 % 8;                                                                          \
        T lo = NAME ARGS;                                                                      \
        ADVANCE;                                                                               \
        n2 = n - n2;                                                                           \
        return lo + NAME ARGS;                                                                 \
    }
#define STRIDED_F64(i) (*(const double *)(const void *)(a + (i) * stride))
#define STRIDED_F32(i) (*(const float *)(const void *)(a + (i) * stride))
#define UNIT(i) (x[i])
DEFINE_PAIRWISE(strided_f64, double, (const char *a, int64_t n, int64_t stride), (a, n2, stride), STRIDED_F64,
                a += n2 * stride)
DEFINE_PAIRWISE(strided_f32, float, (const char *a, int64_t n, int64_t stride), (a, n2, stride), STRIDED_F32,
                a += n2 * stride)
DEFINE_PAIRWISE(unit_f64, double, (const double *restrict x, int64_t n), (x, n2), UNIT, x += n2)
DEFINE_PAIRWISE(unit_f32, float, (const float *restrict x, int64_t n), (x, n2), UNIT, x += n2)

/* Where NumPy's recursion splits n elements (n > 128): at half, rounded
 * down to a multiple of 8. */
static int64_t split(int64_t n)
{
    int64_t n2 = n / 2;
    return n2 - n2 % 8;
}

#ifdef KJ_X86
enum { LEAF = 128, BATCH = 8192, MAX_LEAVES = 256, PREFETCH = 4096, LINE = 64 };

/* The lengths of the recursion's leaves over n elements, in order, stored
 * from len[k] on; returns the count so far. Leaves of a subtree of more
 * than 128 elements have more than 56, so BATCH / 56 < MAX_LEAVES. */
static int leaves(int64_t n, int64_t *len, int k)
{
    if (n <= LEAF) {
        len[k] = n;
        return k + 1;
    }
    int64_t n2 = split(n);
    return leaves(n - n2, len, leaves(n2, len, k));
}

/* Four leaves of n elements (8 <= n <= 128) at x, x + n, x + 2n, x + 3n:
 * each leaf's accumulators r[0..7] are V vectors of 8 / V lanes, added to
 * in the leaf's order; then ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)) and the
 * n % 8 left over, as the one-leaf form does. Memory four leaves ahead is
 * asked for (a prefetch into L2), as the min/max folds do. */
#define DEFINE_LEAF4(NAME, T, VT, P, S, V)                                                        \
    __attribute__((target("avx2"))) static void NAME(const T *x, int64_t n, T *out)               \
    {                                                                                             \
        enum { LANES = 8 / V };                                                                   \
        for (int64_t q = 0; q < 4 * n * (int64_t)sizeof(T); q += LINE)                            \
            _mm_prefetch((const char *)x + PREFETCH + q, _MM_HINT_T1);                            \
        VT r[4][V];                                                                               \
        _Pragma("GCC unroll 4") for (int k = 0; k < 4; k++)                                       \
            _Pragma("GCC unroll 2") for (int v = 0; v < V; v++)                                   \
                r[k][v] = P##_loadu_##S(x + k * n + v * LANES);                                   \
        int64_t m = n - n % 8;                                                                    \
        for (int64_t i = 8; i < m; i += 8)                                                        \
            _Pragma("GCC unroll 4") for (int k = 0; k < 4; k++)                                   \
                _Pragma("GCC unroll 2") for (int v = 0; v < V; v++)                               \
                    r[k][v] = P##_add_##S(r[k][v], P##_loadu_##S(x + k * n + i + v * LANES));     \
        for (int k = 0; k < 4; k++) {                                                             \
            T l[8];                                                                               \
            for (int v = 0; v < V; v++) P##_storeu_##S(l + v * LANES, r[k][v]);                  \
            T res = ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]));            \
            for (int64_t j = m; j < n; j++) res += x[k * n + j];                                  \
            out[k] = res;                                                                         \
        }                                                                                         \
    }
DEFINE_LEAF4(leaf4_f32, float, __m256, _mm256, ps, 1)
DEFINE_LEAF4(leaf4_f64, double, __m256d, _mm256, pd, 2)

/* The recursion over n elements with the leaves of each subtree of at most
 * BATCH elements summed first (four at a time where four equal ones
 * follow each other, as they do in a power-of-two chunk), then combined in
 * the recursion's order. */
#define DEFINE_BATCHED(NAME, T, LEAF4, UNIT)                                                      \
    static T NAME##_combine(int64_t n, const T *s, int *k)                                        \
    {                                                                                             \
        if (n <= LEAF) return s[(*k)++];                                                          \
        int64_t n2 = split(n);                                                                    \
        T lo = NAME##_combine(n2, s, k);                                                          \
        return lo + NAME##_combine(n - n2, s, k);                                                 \
    }                                                                                             \
    static T NAME(const T *x, int64_t n)                                                          \
    {                                                                                             \
        if (n <= LEAF) return UNIT(x, n);                                                         \
        if (n > BATCH) {                                                                          \
            int64_t n2 = split(n);                                                                \
            T lo = NAME(x, n2);                                                                   \
            return lo + NAME(x + n2, n - n2);                                                     \
        }                                                                                         \
        int64_t len[MAX_LEAVES];                                                                  \
        T s[MAX_LEAVES];                                                                          \
        int nl = leaves(n, len, 0), k = 0;                                                        \
        for (int j = 0; j < nl;) {                                                                \
            if (j + 4 <= nl && len[j] >= 8 && len[j + 1] == len[j] && len[j + 2] == len[j] &&     \
                len[j + 3] == len[j]) {                                                           \
                LEAF4(x, len[j], s + j);                                                          \
                x += 4 * len[j], j += 4;                                                          \
            } else {                                                                              \
                s[j] = UNIT(x, len[j]);                                                           \
                x += len[j], j++;                                                                 \
            }                                                                                     \
        }                                                                                         \
        return NAME##_combine(n, s, &k);                                                          \
    }
DEFINE_BATCHED(batched_f32, float, leaf4_f32, unit_f32)
DEFINE_BATCHED(batched_f64, double, leaf4_f64, unit_f64)
#endif

double kj_pairwise_f64_isa(kj_fold_isa use, const char *a, int64_t n, int64_t stride)
{
    if (stride != 8) return strided_f64(a, n, stride);
    const double *x = (const double *)(const void *)a;
#ifdef KJ_X86
    if (use >= KJ_FOLD_AVX2 && __builtin_cpu_supports("avx2")) return batched_f64(x, n);
#endif
    (void)use;
    return unit_f64(x, n);
}

float kj_pairwise_f32_isa(kj_fold_isa use, const char *a, int64_t n, int64_t stride)
{
    if (stride != 4) return strided_f32(a, n, stride);
    const float *x = (const float *)(const void *)a;
#ifdef KJ_X86
    if (use >= KJ_FOLD_AVX2 && __builtin_cpu_supports("avx2")) return batched_f32(x, n);
#endif
    (void)use;
    return unit_f32(x, n);
}

double kj_pairwise_f64(const char *a, int64_t n, int64_t stride)
{
    return kj_pairwise_f64_isa(KJ_FOLD_BEST, a, n, stride);
}

float kj_pairwise_f32(const char *a, int64_t n, int64_t stride)
{
    return kj_pairwise_f32_isa(KJ_FOLD_BEST, a, n, stride);
}
