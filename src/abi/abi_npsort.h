/* SPDX-License-Identifier: BSD-2-Clause */
/* The operations of kj_rt_npsort (rtfns.def): sorting, searching, sets,
 * order statistics, histograms and the nan reductions, each lowered by
 * llvm_npsort.c to one call and run by rt_npsort.c. Part of the ABI
 * (abi.h's KJ_ABI_VERSION). */
#ifndef KJ_ABI_NPSORT_H
#define KJ_ABI_NPSORT_H

typedef enum kj_npsort_op {
    KJ_NPS_SORT,         /* np.sort(a): a copy sorted along the last axis */
    KJ_NPS_SORT_INPLACE, /* a.sort() */
    KJ_NPS_ARGSORT,      /* np.argsort(a), a.argsort() */
    KJ_NPS_SEARCHSORTED, /* np.searchsorted(a, v=b, side): i0 = side is 'right' */
    KJ_NPS_UNIQUE,       /* np.unique(a) */
    KJ_NPS_MEDIAN,       /* np.median / np.nanmedian (i0 = 1) */
    KJ_NPS_QUANTILE,     /* np.quantile/percentile(a, q=b), i0 = nan form, i1 = percentile (q / 100) */
    KJ_NPS_BINCOUNT,     /* np.bincount(a, weights=b or none, minlength=i0) */
    KJ_NPS_DIFF,         /* np.diff(a, n=i0, axis=i1) */
    KJ_NPS_DIGITIZE,     /* np.digitize(a, bins=b, right=i0) */
    KJ_NPS_HISTOGRAM,    /* np.histogram(a, bins=i0 or the edges b, range=(f0, f1) when i1): out, out2 */
    KJ_NPS_NANREDUCE,    /* np.nansum/...(a): i0 = kj_nan_op (array_sort.h), i1 = ddof */
    KJ_NPS_PARTITION,    /* np.partition(a, kth=i0), np.argpartition (i1 = 1) */
    KJ_NPS_SETOP,        /* np.union1d/.../isin(a, b): i0 = kj_setop (array_sort.h) */
    KJ_NPS_EDIFF1D,      /* np.ediff1d(a) */
    KJ_NPS_TRAPZ,        /* np.trapz(a, x=b or none, dx=f0) */
    KJ_NPS_INTERP,       /* np.interp(a, xp=b, fp=c) */
    KJ_NPS_AVERAGE,      /* np.average(a, weights=b or none) */
    KJ_NPS_ROUND,        /* np.round/around(a, decimals=i0) */
    KJ_NPS_BIN_EDGES     /* np.histogram_bin_edges: np.histogram's edges alone (its parameters) */
} kj_npsort_op;

#endif
