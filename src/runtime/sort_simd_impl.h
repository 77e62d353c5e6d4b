/* SPDX-License-Identifier: BSD-2-Clause */
/* One AVX-512 quicksort, included by sort_simd.c once per element type
 * with these macros defined (F: the function-name suffix):
 *   T, L (lanes: 8 or 16), V (the vector type), M (the mask type),
 *   LOADU(p), MLOADU(src, m, p), MSTOREU(p, m, v), SET1(x), VMIN, VMAX,
 *   CMPGE(a, b) (mask of a >= b), COMPRESS(m, v) (the lanes of m packed
 *   low, zeros above), STOREU(p, v),
 *   PERM(idx, v) (idx: an integer vector), BLEND(m, a, b) (b where m),
 *   RMIN(v), RMAX(v) (reductions), TOP (the type's largest value: the
 *   padding of a short block), NEXT(x) (the next larger value; only for
 *   x below some element), IDX (the integer vector of lane indices' type),
 *   ISET(i, vals) builds it, CSTORE(p, m, v) (compress-store to memory),
 *   XPERM(v, x, &p) (an immediate shuffle, sort_simd.c); for floats only,
 *   ISNAN(k, x) and NEGZ(k, x) (the lanes of k holding NaN, -0.0);
 *   KJ_SORT_UNROLL and KJ_SORT_UNROLL_CS (vectors a partition step of each
 *   form: sort_simd_part.h), KJ_SORT_BLOCK_NV (the largest block's vectors).
 * It undefines the element type's own (T, F, VMIN, VMAX, CMPGE, RMIN, RMAX,
 * TOP, NEXT, ISNAN, NEGZ) at its end; the vector ones stay for the next type of
 * a width. No NaN reaches these functions (sort_fast.c moves NaNs aside
 * first; qsort_from gives up on one), so <, min and max are a total order
 * on T.
 *
 * The design is Bramas' (2017) and x86-simd-sort's, written afresh:
 * blocks of at most KJ_SORT_BLOCK_NV vectors sort in registers with a
 * sorting network; larger ranges are partitioned in place around a sampled
 * pivot by compressing (the elements below the pivot written to the left
 * free space, the rest to the right one, vectors read ahead so the writes
 * never overtake the reads); a depth limit (2 log2 n) hands a badly split
 * range to heapsort, so the worst case stays O(n log n). */

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define FN(name) CAT(name, F)

/* The lane permutation l -> l ^ x: the element type's immediate shuffles
 * where it has them (XPERM(v, x, &p) is false otherwise), a permutation by an
 * index vector for the rest. */
static KJ_SIMD_INLINE V FN(xor_perm)(V v, int x)
{
    V p;
    if (XPERM(v, x, &p)) return p;
    int idx[16];
    KJ_UNROLL
    for (int l = 0; l < 16; l++) idx[l] = l ^ x;
    return PERM(ISET(idx), v);
}

/* Compare-exchange of lanes l and l ^ x in every lane pair, the larger
 * going to the lanes of `hi`. */
static KJ_SIMD_INLINE V FN(xchg_in)(V v, int x, M hi)
{
    V p = FN(xor_perm)(v, x);
    return BLEND(hi, VMIN(v, p), VMAX(v, p));
}

/* The lanes whose index has bit b set. */
static KJ_SIMD_INLINE M FN(lanes_with)(int b)
{
    unsigned m = 0;
    KJ_UNROLL
    for (int l = 0; l < L; l++)
        if (l & b) m |= 1u << l;
    return (M)m;
}

/* The smaller of a and b to a, the larger to b, in every lane. */
#define COEX(a, b)                \
    do {                          \
        V lo_ = VMIN(a, b);       \
        (b) = VMAX(a, b);         \
        (a) = lo_;                \
    } while (0)

/* Sort every column (lane l of r[0..nv-1]) by Batcher's odd-even merge
 * sort across the registers: minima and maxima only, no shuffles. Its
 * stages (p, k) = (2^lp, 2^lk) compare e with e + k where e - k % p is in
 * the lower half of its run of 2k and e, e + k lie in one run of 2p. Every
 * loop counts by one to a bound that is constant once nv is (GCC unrolls
 * those completely, not loops that double or halve). */
static KJ_SIMD_INLINE void FN(columns)(V *r, int nv)
{
    int log_nv = __builtin_ctz((unsigned)nv);
    KJ_UNROLL
    for (int lp = 0; lp < log_nv; lp++) {
        KJ_UNROLL
        for (int lk = lp; lk >= 0; lk--) {
            int p = 1 << lp, k = 1 << lk, o = k % p;
            KJ_UNROLL
            for (int e = 0; e < nv; e++)
                if (e >= o && (e - o) % (2 * k) < k && e + k < nv && e / (2 * p) == (e + k) / (2 * p))
                    COEX(r[e], r[e + k]);
        }
    }
}

/* One merge step at scale s (runs of s/2 lanes become runs of s): across
 * the registers, each block of m registers (m = nv, nv/2, .., 2) has the
 * lanes of its upper half reversed in groups of s and its i-th register
 * compare-exchanged with its (m-1-i)-th; then inside each register, the
 * halving compare-exchanges of a bitonic merge of s lanes. */
static KJ_SIMD_INLINE void FN(merge_step)(V *r, int nv, int log_s)
{
    int s = 1 << log_s;
    KJ_UNROLL
    for (int lm = __builtin_ctz((unsigned)nv); lm >= 1; lm--) {
        int m = 1 << lm;
        KJ_UNROLL
        for (int v = 0; v < nv; v++)
            if ((v & (m - 1)) >= m / 2) r[v] = FN(xor_perm)(r[v], s - 1);
        KJ_UNROLL
        for (int v = 0; v < nv; v++) {
            int i = v & (m - 1);
            if (i < m / 2) COEX(r[v], r[v - i + m - 1 - i]);
        }
    }
    KJ_UNROLL
    for (int lt = log_s; lt >= 1; lt--) {
        int t = 1 << lt;
        KJ_UNROLL
        for (int v = 0; v < nv; v++) r[v] = FN(xchg_in)(r[v], t == s ? s - 1 : t / 2, FN(lanes_with)(t / 2));
    }
}

/* Sort the nv * L elements of r[0..nv-1] (nv a power of two; the calls
 * pass constants, so the loops unroll and r stays in registers), in
 * register order: the columns first, then merge steps of scale 2, 4, ..,
 * L. The form of x86-simd-sort's networks (Intel), written afresh. */
static KJ_SIMD_INLINE void FN(network)(V *r, int nv)
{
    FN(columns)(r, nv);
    KJ_UNROLL
    for (int ls = 1; ls <= __builtin_ctz(L); ls++) FN(merge_step)(r, nv, ls);
}

static KJ_SIMD_INLINE void FN(block_nv)(T *a, int64_t n, int nv)
{
    V r[KJ_SORT_BLOCK_NV];
    KJ_UNROLL
    for (int v = 0; v < nv; v++) {
        int64_t c = n - (int64_t)v * L;
        M m = c >= L ? (M)~(M)0 : c <= 0 ? (M)0 : (M)((1u << c) - 1);
        r[v] = MLOADU(SET1(TOP), m, a + (int64_t)v * L);
    }
    FN(network)(r, nv);
    KJ_UNROLL
    for (int v = 0; v < nv; v++) {
        int64_t c = n - (int64_t)v * L;
        M m = c >= L ? (M)~(M)0 : c <= 0 ? (M)0 : (M)((1u << c) - 1);
        MSTOREU(a + (int64_t)v * L, m, r[v]);
    }
}

/* Sort a block of n <= KJ_SORT_BLOCK_NV L elements in registers (padded
 * with TOP). */
static KJ_SIMD void FN(block)(T *a, int64_t n)
{
    if (n <= L) FN(block_nv)(a, n, 1);
    else if (n <= 2 * L) FN(block_nv)(a, n, 2);
    else if (n <= 4 * L) FN(block_nv)(a, n, 4);
    else if (n <= 8 * L) FN(block_nv)(a, n, 8);
#if KJ_SORT_BLOCK_NV > 16
    else if (n <= 16 * L) FN(block_nv)(a, n, 16);
#endif
    else FN(block_nv)(a, n, KJ_SORT_BLOCK_NV);
}

static void FN(sift)(T *a, int64_t i, int64_t n)
{
    T x = a[i];
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && a[c] < a[c + 1]) c++;
        if (!(x < a[c])) break;
        a[i] = a[c];
        i = c;
    }
    a[i] = x;
}

/* The depth limit's fallback. */
static void FN(heapsort)(T *a, int64_t n)
{
    for (int64_t i = n / 2; i-- > 0;) FN(sift)(a, i, n);
    for (int64_t e = n - 1; e > 0; e--) {
        T t = a[0];
        a[0] = a[e];
        a[e] = t;
        FN(sift)(a, 0, e);
    }
}

/* The median of 4 vectors read at spread places of a[0..n-1] (n > 4 L),
 * sorted by the network: no branch to mispredict, which a scalar sort of
 * the samples at every partition costs. */
static KJ_SIMD T FN(pivot)(const T *a, int64_t n)
{
    enum { NV = 4 };
    int64_t step = (n - L) / NV;
    V r[NV];
    KJ_UNROLL
    for (int v = 0; v < NV; v++) r[v] = LOADU(a + v * step);
    FN(network)(r, NV);
    T s[NV * L];
    KJ_UNROLL
    for (int v = 0; v < NV; v++) STOREU(s + v * L, r[v]);
    return s[NV * L / 2];
}

/* Partition the first k elements of a[left..right) one by one (k < L: each
 * a branch to mispredict, so only to make the rest whole vectors), tracking
 * the smallest and largest. */
static KJ_SIMD_INLINE void FN(part_scalar)(T *a, int64_t k, T pivot, int64_t *left, int64_t *right, T *sm, T *bg)
{
    for (; k > 0; k--) {
        T x = a[*left];
        *sm = x < *sm ? x : *sm;
        *bg = x > *bg ? x : *bg;
        if (x < pivot) {
            ++*left;
        } else {
            a[*left] = a[--*right];
            a[*right] = x;
        }
    }
}

#define PFN(name) FN(name)
#define KJ_PART_CSTORE 0
#define KJ_PART_UNROLL KJ_SORT_UNROLL
#include "sort_simd_part.h"
#undef PFN
#undef KJ_PART_CSTORE
#undef KJ_PART_UNROLL
#define PFN(name) FN(CAT(name, _cs))
#define KJ_PART_CSTORE 1
#define KJ_PART_UNROLL KJ_SORT_UNROLL_CS
#include "sort_simd_part.h"
#undef PFN
#undef KJ_PART_CSTORE
#undef KJ_PART_UNROLL

/* cs: partition by compress-stores (sort_simd_part.h). */
static KJ_SIMD void FN(qsort)(T *a, int64_t n, int depth, bool cs)
{
    while (n > KJ_SORT_BLOCK_NV * L) {
        if (depth-- == 0) {
            FN(heapsort)(a, n);
            return;
        }
        T pivot = FN(pivot)(a, n), sm, bg;
        int64_t p = cs ? FN(partition_cs)(a, n, pivot, &sm, &bg) : FN(partition)(a, n, pivot, &sm, &bg);
        if (!(sm < bg)) return; /* all equal */
        if (p == 0) {
            /* Nothing below the pivot: it is the smallest element. The
             * elements equal to it go first, and stay there. */
            p = cs ? FN(partition_cs)(a, n, NEXT(pivot), &sm, &bg) : FN(partition)(a, n, NEXT(pivot), &sm, &bg);
            a += p;
            n -= p;
            continue;
        }
        if (!(pivot < bg)) { /* the right part is all equal to the pivot */
            n = p;
            continue;
        }
        if (p < n - p) { /* recurse into the smaller part, loop on the larger */
            FN(qsort)(a, p, depth, cs);
            a += p;
            n -= p;
        } else {
            FN(qsort)(a + p, n - p, depth, cs);
            n = p;
        }
    }
    FN(block)(a, n);
}

#ifdef ISNAN
/* The lanes of k that the float sorts set aside first (sort_fast.c). */
#define SPECIAL(k, x) (ISNAN(k, x) | NEGZ(k, x))

/* kj_sort_simd_scan_* (sort_simd.h): a vector at a time, the tail by a
 * masked load. */
KJ_SIMD bool CAT(kj_sort_simd_scan, F)(T *dst, const T *src, int64_t m, int64_t *nnan)
{
    int64_t nan = 0;
    unsigned negz = 0;
    for (int64_t i = 0; i < m; i += L) {
        M k = m - i >= L ? (M)~(M)0 : (M)((1u << (m - i)) - 1);
        V x = MLOADU(SET1(0), k, src + i);
        if (dst) MSTOREU(dst + i, k, x);
        nan += __builtin_popcount((unsigned)ISNAN(k, x));
        negz |= (unsigned)NEGZ(k, x);
    }
    *nnan = nan;
    return negz != 0;
}
#else
#define SPECIAL(k, x) 0 /* integers: none */
#endif

/* Sort a copy: src[0..n-1] (n > KJ_SORT_BLOCK_NV L) partitioned into dst
 * around a pivot sampled from src, in the pass that copies it, then the
 * two parts sorted in place (np.sort reads and writes its data once less
 * than a copy followed by a sort). False, dst holding a part of src, when
 * an element is one the caller sets aside first (SPECIAL: NaN or -0.0). */
static KJ_SIMD bool FN(qsort_from)(T *dst, const T *src, int64_t n, int depth, bool cs)
{
    T pivot = FN(pivot)(src, n);
    V pv = SET1(pivot), mn = pv, mx = pv;
    int64_t ls = 0, re = n;
    unsigned special = 0;
    for (int64_t i = 0; i < n; i += L) {
        M k = n - i >= L ? (M)~(M)0 : (M)((1u << (n - i)) - 1);
        V x = n - i >= L ? LOADU(src + i) : MLOADU(pv, k, src + i); /* lanes past the end: the pivot, stored nowhere */
        __builtin_prefetch(src + (n - i > 8 * L ? i + 8 * L : i)); /* 8 vectors ahead, inside src */
        special |= (unsigned)SPECIAL(k, x);
        M ge = (M)(CMPGE(x, pv) & k), lt = (M)(~ge & k);
        int nge = __builtin_popcount((unsigned)ge), nlt = __builtin_popcount((unsigned)lt);
        if (cs) {
            CSTORE(dst + ls, lt, x);
            CSTORE(dst + re - nge, ge, x);
        } else {
            MSTOREU(dst + ls, (M)((1u << nlt) - 1), COMPRESS(lt, x));
            MSTOREU(dst + re - nge, (M)((1u << nge) - 1), COMPRESS(ge, x));
        }
        ls += nlt;
        re -= nge;
        mn = VMIN(mn, x);
        mx = VMAX(mx, x);
    }
    if (special) return false;
    if (!(RMIN(mn) < RMAX(mx))) return true; /* all equal */
    /* ls == 0 (the pivot is the smallest) sorts dst whole: its partition
     * sets the elements equal to the pivot first */
    FN(qsort)(dst, ls, depth - 1, cs);
    FN(qsort)(dst + ls, n - ls, depth - 1, cs);
    return true;
}

#undef COEX
#undef FN
#undef CAT
#undef CAT_
/* The element type's parameters are consumed: the next instance defines its own. */
#undef T
#undef F
#undef SPECIAL
#undef ISNAN
#undef NEGZ
#undef VMIN
#undef VMAX
#undef CMPGE
#undef RMIN
#undef RMAX
#undef TOP
#undef NEXT
