/* SPDX-License-Identifier: BSD-2-Clause */
/* The built-ins of NumPy's sorting, searching, sets, order statistics,
 * histograms and nan reductions (docs/language.md), rows of KJ_BUILTINS
 * (builtins.h): typed by builtins_npsort.c, lowered by llvm_npsort.c to
 * kj_rt_npsort. Host code only, as every host NumPy function. NP_SORT
 * comes first and NP_HISTOGRAM_BIN_EDGES last: kj_builtin_npsort tells the family by
 * its range. */
#ifndef KJ_BUILTINS_NPSORT_H
#define KJ_BUILTINS_NPSORT_H

#define KJ_BUILTINS_NPSORT(X)                                                                            \
    X(NP_SORT, "np.sort", KJ_BF_HOST | KJ_BF_READS, "a, kind=")                                          \
    X(ARR_SORT, "array.sort", KJ_BF_HOST | KJ_BF_METHOD, "kind=")                                        \
    X(NP_ARGSORT, "np.argsort", KJ_BF_HOST | KJ_BF_READS, "a, kind=")                                    \
    X(ARR_ARGSORT, "array.argsort", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "kind=")                    \
    X(NP_SEARCHSORTED, "np.searchsorted", KJ_BF_HOST | KJ_BF_READS, "a, v, side=")                       \
    X(NP_UNIQUE, "np.unique", KJ_BF_HOST | KJ_BF_READS, "ar")                                            \
    X(NP_MEDIAN, "np.median", KJ_BF_HOST | KJ_BF_READS, "a")                                             \
    X(NP_NANMEDIAN, "np.nanmedian", KJ_BF_HOST | KJ_BF_READS, "a")                                       \
    X(NP_PERCENTILE, "np.percentile", KJ_BF_HOST | KJ_BF_READS, "a, q")                                  \
    X(NP_QUANTILE, "np.quantile", KJ_BF_HOST | KJ_BF_READS, "a, q")                                      \
    X(NP_NANPERCENTILE, "np.nanpercentile", KJ_BF_HOST | KJ_BF_READS, "a, q")                            \
    X(NP_NANQUANTILE, "np.nanquantile", KJ_BF_HOST | KJ_BF_READS, "a, q")                                \
    X(NP_BINCOUNT, "np.bincount", KJ_BF_HOST | KJ_BF_READS, "x, weights=, minlength=")                   \
    X(NP_DIFF, "np.diff", KJ_BF_HOST | KJ_BF_READS, "a, n=, axis=")                                      \
    X(NP_DIGITIZE, "np.digitize", KJ_BF_HOST | KJ_BF_READS, "x, bins, right=")                           \
    X(NP_HISTOGRAM, "np.histogram", KJ_BF_HOST | KJ_BF_READS, "a, bins=, range=")                        \
    X(NP_NANSUM, "np.nansum", KJ_BF_HOST | KJ_BF_READS, "a")                                             \
    X(NP_NANPROD, "np.nanprod", KJ_BF_HOST | KJ_BF_READS, "a")                                           \
    X(NP_NANMEAN, "np.nanmean", KJ_BF_HOST | KJ_BF_READS, "a")                                           \
    X(NP_NANVAR, "np.nanvar", KJ_BF_HOST | KJ_BF_READS, "a, ddof=")                                      \
    X(NP_NANSTD, "np.nanstd", KJ_BF_HOST | KJ_BF_READS, "a, ddof=")                                      \
    X(NP_NANMIN, "np.nanmin", KJ_BF_HOST | KJ_BF_READS, "a")                                             \
    X(NP_NANMAX, "np.nanmax", KJ_BF_HOST | KJ_BF_READS, "a")                                             \
    X(NP_NANARGMIN, "np.nanargmin", KJ_BF_HOST | KJ_BF_READS, "a")                                       \
    X(NP_NANARGMAX, "np.nanargmax", KJ_BF_HOST | KJ_BF_READS, "a")                                       \
    X(NP_PTP, "np.ptp", KJ_BF_HOST | KJ_BF_READS, "a")                                                   \
    X(NP_PARTITION, "np.partition", KJ_BF_HOST | KJ_BF_READS, "a, kth")                                  \
    X(NP_ARGPARTITION, "np.argpartition", KJ_BF_HOST | KJ_BF_READS, "a, kth")                            \
    X(NP_UNION1D, "np.union1d", KJ_BF_HOST | KJ_BF_READS, "ar1, ar2")                                    \
    X(NP_INTERSECT1D, "np.intersect1d", KJ_BF_HOST | KJ_BF_READS, "ar1, ar2")                            \
    X(NP_SETDIFF1D, "np.setdiff1d", KJ_BF_HOST | KJ_BF_READS, "ar1, ar2")                                \
    X(NP_SETXOR1D, "np.setxor1d", KJ_BF_HOST | KJ_BF_READS, "ar1, ar2")                                  \
    X(NP_IN1D, "np.in1d", KJ_BF_HOST | KJ_BF_READS, "ar1, ar2, assume_unique=, invert=")                 \
    X(NP_ISIN, "np.isin", KJ_BF_HOST | KJ_BF_READS, "element, test_elements, assume_unique=, invert=")   \
    X(NP_EDIFF1D, "np.ediff1d", KJ_BF_HOST | KJ_BF_READS, "ary")                                         \
    X(NP_TRAPZ, "np.trapz", KJ_BF_HOST | KJ_BF_READS, "y, x=, dx=")                                      \
    X(NP_INTERP, "np.interp", KJ_BF_HOST | KJ_BF_READS, "x, xp, fp")                                     \
    X(NP_AVERAGE, "np.average", KJ_BF_HOST | KJ_BF_READS, "a, weights=")                                \
    X(NP_AROUND, "np.around", KJ_BF_HOST | KJ_BF_READS, "a, decimals=")                                 \
    X(NP_HISTOGRAM_BIN_EDGES, "np.histogram_bin_edges", KJ_BF_HOST | KJ_BF_READS, "a, bins=, range=")

#endif
