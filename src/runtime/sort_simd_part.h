/* SPDX-License-Identifier: BSD-2-Clause */
/* The partitions of sort_simd_impl.h, included by it twice per element
 * type: PFN(name) names them, KJ_PART_CSTORE says how a partitioned
 * vector is written and KJ_PART_UNROLL how many vectors a step reads.
 *   KJ_PART_CSTORE 1: compress-stores straight to memory, the fastest
 *     form on Intel's cores;
 *   KJ_PART_CSTORE 0: compress in registers, then plain stores, because
 *     a compress-store to memory is microcoded and slow on AMD's Zen 4.
 * sort_simd.c asks the CPU which to run. */

/* Partition one vector: the elements below the pivot to a[ls..], the rest
 * to the end of a[..re); returns how many went right. */
static KJ_SIMD_INLINE int PFN(part_vec)(T *a, int64_t ls, int64_t re, V x, V pv, V *mn, V *mx)
{
    M ge = CMPGE(x, pv);
    int nge = __builtin_popcount((unsigned)ge);
#if KJ_PART_CSTORE
    CSTORE(a + ls, (M)~ge, x);
    CSTORE(a + re - nge, ge, x);
#else
    /* The left store writes a whole vector: its tail is free space
     * (partition keeps at least L free slots each side, or one gap of L
     * that the right store then fills). */
    STOREU(a + ls, COMPRESS((M)~ge, x));
    MSTOREU(a + re - nge, (M)((1u << nge) - 1), COMPRESS(ge, x));
#endif
    *mn = VMIN(*mn, x);
    *mx = VMAX(*mx, x);
    return nge;
}

/* Partition a[0..n-1] around `pivot` in place: the elements below it
 * first; returns their count, and the smallest and largest element.
 * UNROLL vectors are read a step, so the branch that picks the side to
 * read is taken that much less often; qsort's ranges (more than a block)
 * hold the 3 UNROLL vectors this needs. */
_Static_assert(3 * KJ_PART_UNROLL <= KJ_SORT_BLOCK_NV, "a partitioned range holds 3 steps");
static KJ_SIMD int64_t PFN(partition)(T *a, int64_t n, T pivot, T *smallest, T *biggest)
{
    enum { U = KJ_PART_UNROLL, UL = KJ_PART_UNROLL * L };
    int64_t left = 0, right = n;
    T sm = a[0], bg = a[0];
    FN(part_scalar)(a, n % L, pivot, &left, &right, &sm, &bg); /* the rest: whole vectors */
    /* The vectors beyond a multiple of U are held in registers and
     * partitioned last, as are the first and last U read. */
    int extra = (int)((right - left) / L % U);
    V pv = SET1(pivot), mn = SET1(sm), mx = SET1(bg), vl[U], vr[U], va[U];
    int64_t ls = left, re = right; /* the next writes: a[ls..], a[..re) */
    KJ_UNROLL
    for (int u = 0; u < U; u++) {
        if (u < extra) va[u] = LOADU(a + left + u * L);
        else va[u] = pv;
    }
    left += extra * L;
    KJ_UNROLL
    for (int u = 0; u < U; u++) {
        vl[u] = LOADU(a + left + u * L);
        vr[u] = LOADU(a + right - UL + u * L);
    }
    left += UL;
    right -= UL;
    while (left < right) {
        V x[U];
        int64_t at, next; /* this step's first element, the side's next step's */
        if (re - right < left - ls) {
            right -= UL;
            at = right;
            next = right >= UL ? right - UL : 0;
        } else {
            at = left;
            left += UL;
            next = left; /* at most right: inside the array */
        }
        KJ_UNROLL
        for (int u = 0; u < U; u++) x[u] = LOADU(a + at + u * L);
        /* Asked for early: the hardware's prefetcher follows the downward
         * reads too late (without this, 8 vectors a step ran at half the
         * speed of 4). */
        KJ_UNROLL
        for (int u = 0; u < U; u++) __builtin_prefetch(a + next + u * L);
        KJ_UNROLL
        for (int u = 0; u < U; u++) {
            int nge = PFN(part_vec)(a, ls, re, x[u], pv, &mn, &mx);
            re -= nge;
            ls += L - nge;
        }
    }
    KJ_UNROLL
    for (int u = 0; u < 3 * U; u++) {
        if (u >= 2 * U + extra) break;
        int nge = PFN(part_vec)(a, ls, re, u < U ? vl[u] : u < 2 * U ? vr[u - U] : va[u - 2 * U], pv, &mn, &mx);
        re -= nge;
        ls += L - nge;
    }
    *smallest = RMIN(mn);
    *biggest = RMAX(mx);
    return ls;
}

