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
 *   ISET(i, vals) builds it, CSTORE(p, m, v) (compress-store to memory);
 *   KJ_SORT_UNROLL and KJ_SORT_UNROLL_CS (vectors a partition step of each
 *   form: sort_simd_part.h), KJ_SORT_BLOCK_NV (the largest block's vectors).
 * It undefines the element type's own (T, F, VMIN, VMAX, CMPGE, RMIN, RMAX,
 * TOP, NEXT) at its end; the vector ones stay for the next type of a width.
 * No NaN reaches these functions (sort_fast.c moves NaNs aside first), so
 * <, min and max are a total order on T.
 *
 * The design is Bramas' (2017) and x86-simd-sort's, written afresh:
 * blocks of at most KJ_SORT_BLOCK_NV vectors sort in registers with a
 * bitonic network; larger ranges are partitioned in place around a sampled
 * pivot by compressing (the elements below the pivot written to the left
 * free space, the rest to the right one, vectors read ahead so the writes
 * never overtake the reads); a depth limit (2 log2 n) hands a badly split
 * range to heapsort, so the worst case stays O(n log n). */

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define FN(name) CAT(name, F)

/* The lane permutation l -> l ^ x. */
static KJ_SIMD_INLINE V FN(xor_perm)(V v, int x)
{
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

/* Sort the nv * L elements of r[0..nv-1] (nv a power of two, at most 8;
 * the calls pass constants, so the loops unroll): the bitonic network in
 * the form whose comparators all point one way, a "flip" of each 2k block
 * followed by half-cleaners. */
static KJ_SIMD_INLINE void FN(network)(V *r, int nv)
{
    KJ_UNROLL
    for (int k = 2; k <= nv * L; k *= 2) {
        if (k <= L) {
            KJ_UNROLL
            for (int v = 0; v < nv; v++) r[v] = FN(xchg_in)(r[v], k - 1, FN(lanes_with)(k / 2));
        } else {
            int kv = k / L;
            KJ_UNROLL
            for (int v = 0; v < nv; v++) {
                if (v & (kv / 2)) continue;
                int u = v ^ (kv - 1);
                V rev = FN(xor_perm)(r[u], L - 1);
                V lo = VMIN(r[v], rev), hi = VMAX(r[v], rev);
                r[v] = lo;
                r[u] = FN(xor_perm)(hi, L - 1);
            }
        }
        KJ_UNROLL
        for (int j = k / 4; j >= 1; j /= 2) {
            if (j >= L) {
                int jv = j / L;
                KJ_UNROLL
            for (int v = 0; v < nv; v++) {
                    if (v & jv) continue;
                    V lo = VMIN(r[v], r[v | jv]), hi = VMAX(r[v], r[v | jv]);
                    r[v] = lo;
                    r[v | jv] = hi;
                }
            } else {
                KJ_UNROLL
            for (int v = 0; v < nv; v++) r[v] = FN(xchg_in)(r[v], j, FN(lanes_with)(j));
            }
        }
    }
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

/* Sort a block of n <= 8 L elements in registers (padded with TOP). */
static KJ_SIMD void FN(block)(T *a, int64_t n)
{
    if (n <= L) FN(block_nv)(a, n, 1);
    else if (n <= 2 * L) FN(block_nv)(a, n, 2);
    else if (n <= 4 * L) FN(block_nv)(a, n, 4);
#if KJ_SORT_BLOCK_NV > 8
    else if (n <= 8 * L) FN(block_nv)(a, n, 8);
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

/* The median of 16 elements spread over a[0..n-1] (n > 8 L), sorted by
 * the network: no branch to mispredict, which a scalar sort of the samples
 * at every partition costs. */
static KJ_SIMD T FN(pivot)(const T *a, int64_t n)
{
    T s[16];
    int64_t step = n / 16;
    for (int i = 0; i < 16; i++) s[i] = a[i * step];
    V r[16 / L];
    KJ_UNROLL
    for (int v = 0; v < 16 / L; v++) r[v] = LOADU(s + v * L);
    FN(network)(r, 16 / L);
    KJ_UNROLL
    for (int v = 0; v < 16 / L; v++) STOREU(s + v * L, r[v]);
    return s[8];
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

#undef FN
#undef CAT
#undef CAT_
/* The element type's parameters are consumed: the next instance defines its own. */
#undef T
#undef F
#undef VMIN
#undef VMAX
#undef CMPGE
#undef RMIN
#undef RMAX
#undef TOP
#undef NEXT
