/* SPDX-License-Identifier: BSD-2-Clause */
/* np.argsort's AVX-512 quicksort (sort_simd.h): sort_simd_impl.h's
 * algorithm on (key, index) pairs held in two arrays, the indices moving
 * with their keys (one mask decides both). Equal keys end in no particular
 * order; kj_sort_simd_kv puts each run of equal keys' indices back in
 * ascending order afterwards, which makes the result exactly the stable
 * sort's. The caller keeps the key UINT64_MAX out (it pads short blocks). */
#include "sort_simd.h"

#include "../util/asan.h"

/* (key, index) order: heapsort's result is then the stable sort's. */
static bool less(uint64_t a, int64_t ai, uint64_t b, int64_t bi) { return a < b || (a == b && ai < bi); }

static void sift(uint64_t *k, int64_t *ix, int64_t i, int64_t n)
{
    uint64_t x = k[i];
    int64_t xi = ix[i];
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && less(k[c], ix[c], k[c + 1], ix[c + 1])) c++;
        if (!less(x, xi, k[c], ix[c])) break;
        k[i] = k[c];
        ix[i] = ix[c];
        i = c;
    }
    k[i] = x;
    ix[i] = xi;
}

/* The depth limit's fallback (and all of it off x86-64). */
static void heapsort_kv(uint64_t *k, int64_t *ix, int64_t n)
{
    for (int64_t i = n / 2; i-- > 0;) sift(k, ix, i, n);
    for (int64_t e = n - 1; e > 0; e--) {
        uint64_t t = k[0];
        int64_t ti = ix[0];
        k[0] = k[e], ix[0] = ix[e];
        k[e] = t, ix[e] = ti;
        sift(k, ix, 0, e);
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define KJ_SIMD __attribute__((target("avx512f,popcnt")))
#define KJ_SIMD_INLINE inline __attribute__((always_inline, target("avx512f,popcnt")))
#if KJ_ASAN /* clang's sanitizers on the unrolled networks compile for an hour */
#define KJ_UNROLL
#else
#define KJ_UNROLL _Pragma("GCC unroll 16")
#endif

enum { L = 8, UNROLL = 4 };
typedef __m512i V;

typedef struct {
    V k, i;
} kv;

static KJ_SIMD_INLINE V xor_perm(V v, int x)
{
    return _mm512_permutexvar_epi64(_mm512_set_epi64(7 ^ x, 6 ^ x, 5 ^ x, 4 ^ x, 3 ^ x, 2 ^ x, 1 ^ x, 0 ^ x), v);
}

/* Lanes l and l ^ x exchanged where out of order, the larger key to the
 * lanes of `hi`. */
static KJ_SIMD_INLINE kv xchg_in(kv r, int x, __mmask8 hi)
{
    V pk = xor_perm(r.k, x), pi = xor_perm(r.i, x);
    __mmask8 sw = (__mmask8)((~hi & _mm512_cmplt_epu64_mask(pk, r.k)) | (hi & _mm512_cmpgt_epu64_mask(pk, r.k)));
    return (kv){_mm512_mask_blend_epi64(sw, r.k, pk), _mm512_mask_blend_epi64(sw, r.i, pi)};
}

/* Vectors a (lower) and b exchanged lane by lane where out of order. */
static KJ_SIMD_INLINE void xchg_vec(kv *a, kv *b)
{
    __mmask8 sw = _mm512_cmplt_epu64_mask(b->k, a->k);
    kv lo = {_mm512_mask_blend_epi64(sw, a->k, b->k), _mm512_mask_blend_epi64(sw, a->i, b->i)};
    kv hi = {_mm512_mask_blend_epi64(sw, b->k, a->k), _mm512_mask_blend_epi64(sw, b->i, a->i)};
    *a = lo;
    *b = hi;
}

static KJ_SIMD_INLINE __mmask8 lanes_with(int b)
{
    unsigned m = 0;
    KJ_UNROLL
    for (int l = 0; l < L; l++)
        if (l & b) m |= 1u << l;
    return (__mmask8)m;
}

/* sort_simd_impl.h's network, on pairs. */
static KJ_SIMD_INLINE void network(kv *r, int nv)
{
    KJ_UNROLL
    for (int k = 2; k <= nv * L; k *= 2) {
        if (k <= L) {
            KJ_UNROLL
            for (int v = 0; v < nv; v++) r[v] = xchg_in(r[v], k - 1, lanes_with(k / 2));
        } else {
            int kv_ = k / L;
            KJ_UNROLL
            for (int v = 0; v < nv; v++) {
                if (v & (kv_ / 2)) continue;
                int u = v ^ (kv_ - 1);
                kv rev = {xor_perm(r[u].k, L - 1), xor_perm(r[u].i, L - 1)};
                xchg_vec(&r[v], &rev);
                r[u] = (kv){xor_perm(rev.k, L - 1), xor_perm(rev.i, L - 1)};
            }
        }
        KJ_UNROLL
        for (int j = k / 4; j >= 1; j /= 2) {
            if (j >= L) {
                int jv = j / L;
                KJ_UNROLL
                for (int v = 0; v < nv; v++)
                    if (!(v & jv)) xchg_vec(&r[v], &r[v | jv]);
            } else {
                KJ_UNROLL
                for (int v = 0; v < nv; v++) r[v] = xchg_in(r[v], j, lanes_with(j));
            }
        }
    }
}

static KJ_SIMD_INLINE void block_nv(uint64_t *k, int64_t *ix, int64_t n, int nv)
{
    kv r[8];
    KJ_UNROLL
    for (int v = 0; v < nv; v++) {
        int64_t c = n - (int64_t)v * L;
        __mmask8 m = c >= L ? (__mmask8)0xff : c <= 0 ? (__mmask8)0 : (__mmask8)((1u << c) - 1);
        r[v].k = _mm512_mask_loadu_epi64(_mm512_set1_epi64(-1), m, k + v * L);
        r[v].i = _mm512_mask_loadu_epi64(_mm512_setzero_si512(), m, ix + v * L);
    }
    network(r, nv);
    KJ_UNROLL
    for (int v = 0; v < nv; v++) {
        int64_t c = n - (int64_t)v * L;
        __mmask8 m = c >= L ? (__mmask8)0xff : c <= 0 ? (__mmask8)0 : (__mmask8)((1u << c) - 1);
        _mm512_mask_storeu_epi64(k + v * L, m, r[v].k);
        _mm512_mask_storeu_epi64(ix + v * L, m, r[v].i);
    }
}

static KJ_SIMD void block(uint64_t *k, int64_t *ix, int64_t n)
{
    if (n <= L) block_nv(k, ix, n, 1);
    else if (n <= 2 * L) block_nv(k, ix, n, 2);
    else if (n <= 4 * L) block_nv(k, ix, n, 4);
    else block_nv(k, ix, n, 8);
}

static KJ_SIMD uint64_t pivot(const uint64_t *k, int64_t n)
{
    uint64_t s[16];
    int64_t step = n / 16;
    for (int i = 0; i < 16; i++) s[i] = k[i * step];
    V r[2] = {_mm512_loadu_si512((const void *)s), _mm512_loadu_si512((const void *)(s + 8))};
    kv p[2] = {{r[0], r[0]}, {r[1], r[1]}};
    network(p, 2);
    _mm512_storeu_si512((void *)s, p[0].k);
    _mm512_storeu_si512((void *)(s + 8), p[1].k);
    return s[8];
}

/* One pair vector: keys below the pivot to [ls..], the rest to [..re). */
static KJ_SIMD_INLINE int part_vec(uint64_t *k, int64_t *ix, int64_t ls, int64_t re, kv x, V pv, V *mn, V *mx)
{
    __mmask8 ge = _mm512_cmpge_epu64_mask(x.k, pv), lt = (__mmask8)~ge;
    int nge = __builtin_popcount((unsigned)ge);
    __mmask8 top = (__mmask8)((1u << nge) - 1);
    _mm512_storeu_si512((void *)(k + ls), _mm512_maskz_compress_epi64(lt, x.k));
    _mm512_storeu_si512((void *)(ix + ls), _mm512_maskz_compress_epi64(lt, x.i));
    _mm512_mask_storeu_epi64(k + re - nge, top, _mm512_maskz_compress_epi64(ge, x.k));
    _mm512_mask_storeu_epi64(ix + re - nge, top, _mm512_maskz_compress_epi64(ge, x.i));
    *mn = _mm512_min_epu64(*mn, x.k);
    *mx = _mm512_max_epu64(*mx, x.k);
    return nge;
}

static KJ_SIMD_INLINE kv load_kv(const uint64_t *k, const int64_t *ix, int64_t at)
{
    return (kv){_mm512_loadu_si512((const void *)(k + at)), _mm512_loadu_si512((const void *)(ix + at))};
}

/* Partition n > 8 L pairs around `pivot` (the sort_simd_impl.h scheme
 * with UNROLL vectors a step; what the scalar loop leaves is a multiple of
 * UNROLL L = 32, at least 2 UNROLL L = 8 L). */
static KJ_SIMD int64_t partition(uint64_t *k, int64_t *ix, int64_t n, uint64_t pivot, uint64_t *smallest,
                                 uint64_t *biggest)
{
    enum { UL = UNROLL * L };
    int64_t left = 0, right = n;
    uint64_t sm = k[0], bg = k[0];
    for (int64_t i = n % UL; i > 0; i--) {
        uint64_t x = k[left];
        int64_t xi = ix[left];
        sm = x < sm ? x : sm;
        bg = x > bg ? x : bg;
        if (x < pivot) {
            left++;
        } else {
            right--;
            k[left] = k[right], ix[left] = ix[right];
            k[right] = x, ix[right] = xi;
        }
    }
    V pv = _mm512_set1_epi64((long long)pivot), mn = _mm512_set1_epi64((long long)sm), mx = _mm512_set1_epi64((long long)bg);
    kv vl[UNROLL], vr[UNROLL];
    for (int u = 0; u < UNROLL; u++) {
        vl[u] = load_kv(k, ix, left + u * L);
        vr[u] = load_kv(k, ix, right - UL + u * L);
    }
    int64_t ls = left, re = right;
    left += UL;
    right -= UL;
    while (left < right) {
        int64_t at;
        if (re - right < left - ls) {
            right -= UL;
            at = right;
        } else {
            at = left;
            left += UL;
        }
        kv x[UNROLL];
        for (int u = 0; u < UNROLL; u++) x[u] = load_kv(k, ix, at + u * L);
        for (int u = 0; u < UNROLL; u++) {
            int nge = part_vec(k, ix, ls, re, x[u], pv, &mn, &mx);
            re -= nge;
            ls += L - nge;
        }
    }
    for (int u = 0; u < 2 * UNROLL; u++) {
        int nge = part_vec(k, ix, ls, re, u < UNROLL ? vl[u] : vr[u - UNROLL], pv, &mn, &mx);
        re -= nge;
        ls += L - nge;
    }
    *smallest = _mm512_reduce_min_epu64(mn);
    *biggest = _mm512_reduce_max_epu64(mx);
    return ls;
}

static KJ_SIMD void qsort_kv(uint64_t *k, int64_t *ix, int64_t n, int depth)
{
    while (n > 8 * L) {
        if (depth-- == 0) {
            heapsort_kv(k, ix, n);
            return;
        }
        uint64_t p0 = pivot(k, n), sm, bg;
        int64_t p = partition(k, ix, n, p0, &sm, &bg);
        if (!(sm < bg)) return;
        if (p == 0) { /* the pivot is the smallest key: its equals first */
            p = partition(k, ix, n, p0 + 1, &sm, &bg);
            k += p, ix += p, n -= p;
            continue;
        }
        if (!(p0 < bg)) {
            n = p;
            continue;
        }
        if (p < n - p) {
            qsort_kv(k, ix, p, depth);
            k += p, ix += p, n -= p;
        } else {
            qsort_kv(k + p, ix + p, n - p, depth);
            n = p;
        }
    }
    block(k, ix, n);
}

void kj_sort_simd_kv(uint64_t *k, int64_t *ix, int64_t n)
{
    int depth = 0;
    for (int64_t m = n; m > 1; m >>= 1) depth += 2;
    qsort_kv(k, ix, n, depth);
    for (int64_t i = 0; i < n;) { /* runs of equal keys: indices ascending */
        int64_t j = i + 1;
        while (j < n && k[j] == k[i]) j++;
        if (j - i > 1) kj_sort_simd_i64(ix + i, j - i);
        i = j;
    }
}

#else

void kj_sort_simd_kv(uint64_t *k, int64_t *ix, int64_t n) { heapsort_kv(k, ix, n); }

#endif
