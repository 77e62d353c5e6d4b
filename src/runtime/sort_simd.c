/* SPDX-License-Identifier: BSD-2-Clause */
/* The AVX-512 quicksorts (sort_simd.h): sort_simd_impl.h once per element
 * type. Only these functions carry the AVX-512 target attribute; they run
 * after kj_sort_simd_available() asked the CPU. */
#include "sort_simd.h"

#include "../util/asan.h"

#include <math.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/* Vectors partition() reads a step: fewer mispredicted choices of the
 * side to read. Measured on 10^7 float64 (session 17): 6 the best of
 * 4/6/8 on AMD's Zen 4 (register form); 8 on the GPU machine's Xeon
 * (compress-store form), as x86-simd-sort has it. */
#ifndef KJ_SORT_UNROLL
#define KJ_SORT_UNROLL 6
#endif
/* The same for the compress-store partitions (sort_simd_part.h). */
#ifndef KJ_SORT_UNROLL_CS
#define KJ_SORT_UNROLL_CS 8
#endif
/* Vectors of the largest block the network sorts in registers. */
#ifndef KJ_SORT_BLOCK_NV
#define KJ_SORT_BLOCK_NV 32
#endif
/* The network's loops have constant bounds once inlined: unrolled fully,
 * its vectors stay in registers (GCC's -O2 alone leaves them in memory;
 * a 32-vector block's loops run up to 32 times, hence 64). */
#if KJ_ASAN /* clang's sanitizers on the unrolled networks compile for an hour */
#define KJ_UNROLL
#else
#define KJ_UNROLL _Pragma("GCC unroll 64")
#endif
#define KJ_SIMD __attribute__((target("avx512f,popcnt")))
#define KJ_SIMD_INLINE inline __attribute__((always_inline, target("avx512f,popcnt")))

bool kj_sort_simd_available(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("popcnt");
}

/* 2 log2(n): the partitions allowed before heapsort takes over. */
static int depth_limit(int64_t n)
{
    int d = 0;
    for (; n > 1; n >>= 1) d += 2;
    return d;
}

/* XPERM(v, x, &p): p = v's lanes permuted l -> l ^ x by a shuffle with an
 * immediate, and true, where the lane type has one for x (no index
 * register to hold; inside 128 bits one cycle, the index permutation's
 * three); else false. x is a constant once inlined. */
static KJ_SIMD_INLINE bool xperm_epi64(__m512i v, int x, __m512i *p)
{
    switch (x) {
    case 1: *p = _mm512_shuffle_epi32(v, (_MM_PERM_ENUM)0x4E); return true;
    case 2: *p = _mm512_shuffle_i64x2(v, v, 0xB1); return true;
    case 3: *p = _mm512_permutex_epi64(v, 0x1B); return true;
    case 4: *p = _mm512_shuffle_i64x2(v, v, 0x4E); return true;
    default: return false;
    }
}

static KJ_SIMD_INLINE bool xperm_pd(__m512d v, int x, __m512d *p)
{
    switch (x) {
    case 1: *p = _mm512_permute_pd(v, 0x55); return true;
    case 2: *p = _mm512_shuffle_f64x2(v, v, 0xB1); return true;
    case 3: *p = _mm512_permutex_pd(v, 0x1B); return true;
    case 4: *p = _mm512_shuffle_f64x2(v, v, 0x4E); return true;
    default: return false;
    }
}

static KJ_SIMD_INLINE bool xperm_epi32(__m512i v, int x, __m512i *p)
{
    switch (x) {
    case 1: *p = _mm512_shuffle_epi32(v, (_MM_PERM_ENUM)0xB1); return true;
    case 2: *p = _mm512_shuffle_epi32(v, (_MM_PERM_ENUM)0x4E); return true;
    case 3: *p = _mm512_shuffle_epi32(v, (_MM_PERM_ENUM)0x1B); return true;
    case 4: *p = _mm512_shuffle_i32x4(v, v, 0xB1); return true;
    case 8: *p = _mm512_shuffle_i32x4(v, v, 0x4E); return true;
    default: return false;
    }
}

static KJ_SIMD_INLINE bool xperm_ps(__m512 v, int x, __m512 *p)
{
    switch (x) {
    case 1: *p = _mm512_permute_ps(v, 0xB1); return true;
    case 2: *p = _mm512_permute_ps(v, 0x4E); return true;
    case 3: *p = _mm512_permute_ps(v, 0x1B); return true;
    case 4: *p = _mm512_shuffle_f32x4(v, v, 0xB1); return true;
    case 8: *p = _mm512_shuffle_f32x4(v, v, 0x4E); return true;
    default: return false;
    }
}

/* The lanes of k where x holds a NaN, and where it holds -0.0 (bits
 * compared: as floats -0.0 == 0.0): the float types' ISNAN and NEGZ. */
static KJ_SIMD_INLINE __mmask8 nan_pd(__mmask8 k, __m512d x) { return _mm512_mask_cmp_pd_mask(k, x, x, _CMP_UNORD_Q); }

static KJ_SIMD_INLINE __mmask8 negz_pd(__mmask8 k, __m512d x)
{
    return _mm512_mask_cmpeq_epi64_mask(k, _mm512_castpd_si512(x), _mm512_set1_epi64((long long)(UINT64_C(1) << 63)));
}

static KJ_SIMD_INLINE __mmask16 nan_ps(__mmask16 k, __m512 x) { return _mm512_mask_cmp_ps_mask(k, x, x, _CMP_UNORD_Q); }

static KJ_SIMD_INLINE __mmask16 negz_ps(__mmask16 k, __m512 x)
{
    return _mm512_mask_cmpeq_epi32_mask(k, _mm512_castps_si512(x), _mm512_set1_epi32((int)(UINT32_C(1) << 31)));
}

/* ---- 64-bit lanes ---- */
#define L 8
#define V __m512i
#define M __mmask8
#define ISET(i) _mm512_set_epi64(i[7], i[6], i[5], i[4], i[3], i[2], i[1], i[0])
#define LOADU(p) _mm512_loadu_si512((const void *)(p))
#define MLOADU(s, m, p) _mm512_mask_loadu_epi64(s, m, p)
#define MSTOREU(p, m, v) _mm512_mask_storeu_epi64(p, m, v)
#define COMPRESS(m, v) _mm512_maskz_compress_epi64(m, v)
#define CSTORE(p, m, v) _mm512_mask_compressstoreu_epi64(p, m, v)
#define STOREU(p, v) _mm512_storeu_si512((void *)(p), v)
#define PERM(i, v) _mm512_permutexvar_epi64(i, v)
#define BLEND(m, a, b) _mm512_mask_blend_epi64(m, a, b)
#define XPERM(v, x, p) xperm_epi64(v, x, p)

#define T int64_t
#define F _i64
#define SET1(x) _mm512_set1_epi64(x)
#define VMIN _mm512_min_epi64
#define VMAX _mm512_max_epi64
#define CMPGE(a, b) _mm512_cmpge_epi64_mask(a, b)
#define RMIN _mm512_reduce_min_epi64
#define RMAX _mm512_reduce_max_epi64
#define TOP INT64_MAX
#define NEXT(x) ((x) + 1)
#include "sort_simd_impl.h"

#define T uint64_t
#define F _u64
#define NEXT(x) ((x) + 1)
#define VMIN _mm512_min_epu64
#define VMAX _mm512_max_epu64
#define CMPGE(a, b) _mm512_cmpge_epu64_mask(a, b)
#define RMIN _mm512_reduce_min_epu64
#define RMAX _mm512_reduce_max_epu64
#define TOP UINT64_MAX
#include "sort_simd_impl.h"
#undef SET1
#undef V
#undef LOADU
#undef MLOADU
#undef MSTOREU
#undef COMPRESS
#undef CSTORE
#undef STOREU
#undef PERM
#undef BLEND
#undef XPERM

#define T double
#define F _f64
#define ISNAN nan_pd
#define NEGZ negz_pd
#define V __m512d
#define SET1(x) _mm512_set1_pd(x)
#define LOADU(p) _mm512_loadu_pd(p)
#define MLOADU(s, m, p) _mm512_mask_loadu_pd(s, m, p)
#define MSTOREU(p, m, v) _mm512_mask_storeu_pd(p, m, v)
#define COMPRESS(m, v) _mm512_maskz_compress_pd(m, v)
#define CSTORE(p, m, v) _mm512_mask_compressstoreu_pd(p, m, v)
#define STOREU(p, v) _mm512_storeu_pd(p, v)
#define PERM(i, v) _mm512_permutexvar_pd(i, v)
#define BLEND(m, a, b) _mm512_mask_blend_pd(m, a, b)
#define XPERM(v, x, p) xperm_pd(v, x, p)
#define VMIN _mm512_min_pd
#define VMAX _mm512_max_pd
#define CMPGE(a, b) _mm512_cmp_pd_mask(a, b, _CMP_GE_OQ)
#define RMIN _mm512_reduce_min_pd
#define RMAX _mm512_reduce_max_pd
#define TOP INFINITY
#define NEXT(x) nextafter(x, INFINITY)
#include "sort_simd_impl.h"
#undef V
#undef SET1
#undef LOADU
#undef MLOADU
#undef MSTOREU
#undef COMPRESS
#undef CSTORE
#undef STOREU
#undef PERM
#undef BLEND
#undef XPERM
#undef L
#undef M
#undef ISET

/* ---- 32-bit lanes ---- */
#define L 16
#define V __m512i
#define M __mmask16
#define ISET(i) _mm512_set_epi32(i[15], i[14], i[13], i[12], i[11], i[10], i[9], i[8], \
                                 i[7], i[6], i[5], i[4], i[3], i[2], i[1], i[0])
#define LOADU(p) _mm512_loadu_si512((const void *)(p))
#define MLOADU(s, m, p) _mm512_mask_loadu_epi32(s, m, p)
#define MSTOREU(p, m, v) _mm512_mask_storeu_epi32(p, m, v)
#define COMPRESS(m, v) _mm512_maskz_compress_epi32(m, v)
#define CSTORE(p, m, v) _mm512_mask_compressstoreu_epi32(p, m, v)
#define STOREU(p, v) _mm512_storeu_si512((void *)(p), v)
#define PERM(i, v) _mm512_permutexvar_epi32(i, v)
#define BLEND(m, a, b) _mm512_mask_blend_epi32(m, a, b)
#define XPERM(v, x, p) xperm_epi32(v, x, p)
#define SET1(x) _mm512_set1_epi32((int)(x))

#define T int32_t
#define F _i32
#define VMIN _mm512_min_epi32
#define VMAX _mm512_max_epi32
#define CMPGE(a, b) _mm512_cmpge_epi32_mask(a, b)
#define RMIN _mm512_reduce_min_epi32
#define RMAX _mm512_reduce_max_epi32
#define TOP INT32_MAX
#define NEXT(x) ((x) + 1)
#include "sort_simd_impl.h"

#define T uint32_t
#define F _u32
#define NEXT(x) ((x) + 1)
#define VMIN _mm512_min_epu32
#define VMAX _mm512_max_epu32
#define CMPGE(a, b) _mm512_cmpge_epu32_mask(a, b)
#define RMIN _mm512_reduce_min_epu32
#define RMAX _mm512_reduce_max_epu32
#define TOP UINT32_MAX
#include "sort_simd_impl.h"
#undef SET1
#undef V
#undef LOADU
#undef MLOADU
#undef MSTOREU
#undef COMPRESS
#undef CSTORE
#undef STOREU
#undef PERM
#undef BLEND
#undef XPERM

#define T float
#define F _f32
#define ISNAN nan_ps
#define NEGZ negz_ps
#define V __m512
#define SET1(x) _mm512_set1_ps(x)
#define LOADU(p) _mm512_loadu_ps(p)
#define MLOADU(s, m, p) _mm512_mask_loadu_ps(s, m, p)
#define MSTOREU(p, m, v) _mm512_mask_storeu_ps(p, m, v)
#define COMPRESS(m, v) _mm512_maskz_compress_ps(m, v)
#define CSTORE(p, m, v) _mm512_mask_compressstoreu_ps(p, m, v)
#define STOREU(p, v) _mm512_storeu_ps(p, v)
#define PERM(i, v) _mm512_permutexvar_ps(i, v)
#define BLEND(m, a, b) _mm512_mask_blend_ps(m, a, b)
#define XPERM(v, x, p) xperm_ps(v, x, p)
#define VMIN _mm512_min_ps
#define VMAX _mm512_max_ps
#define CMPGE(a, b) _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ)
#define RMIN _mm512_reduce_min_ps
#define RMAX _mm512_reduce_max_ps
#define TOP INFINITY
#define NEXT(x) nextafterf(x, INFINITY)
#include "sort_simd_impl.h"

/* Whether compress-stores to memory are fast here: on Intel's cores they
 * are; AMD's Zen 4 microcodes them (a third of the speed). */
static bool compress_store_fast(void)
{
    __builtin_cpu_init();
    return !__builtin_cpu_is("amd");
}

#define SORT_FNS(F, T)                                                                   \
    void kj_sort_simd##F##_by(T *a, int64_t n, kj_sort_part how)                         \
    {                                                                                    \
        bool cs = how == KJ_SORT_PART_AUTO ? compress_store_fast() : how == KJ_SORT_PART_CSTORE; \
        qsort##F(a, n, depth_limit(n), cs);                                              \
    }                                                                                    \
    void kj_sort_simd##F(T *a, int64_t n) { kj_sort_simd##F##_by(a, n, KJ_SORT_PART_AUTO); } \
    bool kj_sort_simd##F##_from_by(T *dst, const T *src, int64_t n, kj_sort_part how)   \
    {                                                                                    \
        bool cs = how == KJ_SORT_PART_AUTO ? compress_store_fast() : how == KJ_SORT_PART_CSTORE; \
        if (n <= KJ_SORT_BLOCK_NV * 16) return false; /* for both lane widths */         \
        return qsort_from##F(dst, src, n, depth_limit(n), cs);                           \
    }                                                                                    \
    bool kj_sort_simd##F##_from(T *dst, const T *src, int64_t n)                        \
    {                                                                                    \
        return kj_sort_simd##F##_from_by(dst, src, n, KJ_SORT_PART_AUTO);                \
    }
SORT_FNS(_f64, double)
SORT_FNS(_f32, float)
SORT_FNS(_i64, int64_t)
SORT_FNS(_i32, int32_t)
SORT_FNS(_u64, uint64_t)
SORT_FNS(_u32, uint32_t)

#else /* not x86-64: no AVX-512; the callers sort another way */

#include <stdlib.h>
#include <string.h>

#define SCAN_FN(F, T, U, NEGZ)                                                   \
    bool kj_sort_simd_scan##F(T *dst, const T *src, int64_t m, int64_t *nnan)    \
    {                                                                            \
        int64_t nan = 0;                                                         \
        bool negz = false;                                                       \
        for (int64_t i = 0; i < m; i++) {                                        \
            U b;                                                                 \
            memcpy(&b, &src[i], sizeof b);                                       \
            if (dst) dst[i] = src[i];                                            \
            nan += src[i] != src[i];                                             \
            negz |= b == (NEGZ);                                                 \
        }                                                                        \
        *nnan = nan;                                                             \
        return negz;                                                             \
    }
SCAN_FN(_f64, double, uint64_t, UINT64_C(1) << 63)
SCAN_FN(_f32, float, uint32_t, UINT32_C(1) << 31)

bool kj_sort_simd_available(void) { return false; }

/* Correct, if slow, for a build that calls them anyway. */
#define CMP_FN(name, T) \
    static int name(const void *x, const void *y) \
    { \
        T a = *(const T *)x, b = *(const T *)y; \
        return (a > b) - (a < b); \
    }
CMP_FN(cmp_f64, double)
CMP_FN(cmp_f32, float)
CMP_FN(cmp_i64, int64_t)
CMP_FN(cmp_i32, int32_t)
CMP_FN(cmp_u64, uint64_t)
CMP_FN(cmp_u32, uint32_t)
void kj_sort_simd_f64(double *a, int64_t n) { qsort(a, (size_t)n, sizeof *a, cmp_f64); }
void kj_sort_simd_f32(float *a, int64_t n) { qsort(a, (size_t)n, sizeof *a, cmp_f32); }
void kj_sort_simd_i64(int64_t *a, int64_t n) { qsort(a, (size_t)n, sizeof *a, cmp_i64); }
void kj_sort_simd_i32(int32_t *a, int64_t n) { qsort(a, (size_t)n, sizeof *a, cmp_i32); }
void kj_sort_simd_u64(uint64_t *a, int64_t n) { qsort(a, (size_t)n, sizeof *a, cmp_u64); }
void kj_sort_simd_u32(uint32_t *a, int64_t n) { qsort(a, (size_t)n, sizeof *a, cmp_u32); }
void kj_sort_simd_f64_by(double *a, int64_t n, kj_sort_part how) { (void)how, kj_sort_simd_f64(a, n); }
void kj_sort_simd_f32_by(float *a, int64_t n, kj_sort_part how) { (void)how, kj_sort_simd_f32(a, n); }
void kj_sort_simd_i64_by(int64_t *a, int64_t n, kj_sort_part how) { (void)how, kj_sort_simd_i64(a, n); }
void kj_sort_simd_i32_by(int32_t *a, int64_t n, kj_sort_part how) { (void)how, kj_sort_simd_i32(a, n); }
void kj_sort_simd_u64_by(uint64_t *a, int64_t n, kj_sort_part how) { (void)how, kj_sort_simd_u64(a, n); }
void kj_sort_simd_u32_by(uint32_t *a, int64_t n, kj_sort_part how) { (void)how, kj_sort_simd_u32(a, n); }
#define FROM_FN(F, T)                                                                          \
    bool kj_sort_simd##F##_from_by(T *dst, const T *src, int64_t n, kj_sort_part how)         \
    {                                                                                          \
        (void)dst, (void)src, (void)n, (void)how;                                              \
        return false;                                                                          \
    }                                                                                          \
    bool kj_sort_simd##F##_from(T *dst, const T *src, int64_t n)                               \
    {                                                                                          \
        return kj_sort_simd##F##_from_by(dst, src, n, KJ_SORT_PART_AUTO);                      \
    }
FROM_FN(_f64, double)
FROM_FN(_f32, float)
FROM_FN(_i64, int64_t)
FROM_FN(_i32, int32_t)
FROM_FN(_u64, uint64_t)
FROM_FN(_u32, uint32_t)

#endif
