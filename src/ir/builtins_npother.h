/* SPDX-License-Identifier: BSD-2-Clause */
/* The built-ins of NumPy's "other functions" family (docs/language.md),
 * rows of KJ_BUILTINS (builtins.h): window functions, triangle indices,
 * np.cross, np.convolve/correlate, np.select, np.shape, np.finfo/iinfo, np.cov/corrcoef, np.sinc, the inf and
 * complex predicates, np.asfarray/asarray_chkfinite. Typed by
 * builtins_npother.c, lowered by llvm_npother.c (to kj_rt_npother, or to a
 * constant for the predicates of a type). Host code only, as every host
 * NumPy function. NP_BARTLETT comes first and NP_ISSCALAR last:
 * kj_builtin_npother tells the family by its range. */
#ifndef KJ_BUILTINS_NPOTHER_H
#define KJ_BUILTINS_NPOTHER_H

#define KJ_BUILTINS_NPOTHER(X)                                                                           \
    X(NP_BARTLETT, "np.bartlett", KJ_BF_HOST, "M")                                                       \
    X(NP_BLACKMAN, "np.blackman", KJ_BF_HOST, "M")                                                       \
    X(NP_HAMMING, "np.hamming", KJ_BF_HOST, "M")                                                         \
    X(NP_HANNING, "np.hanning", KJ_BF_HOST, "M")                                                         \
    X(NP_KAISER, "np.kaiser", KJ_BF_HOST, "M, beta")                                                     \
    X(NP_TRIL_INDICES, "np.tril_indices", KJ_BF_HOST, "n, k=, m=")                                       \
    X(NP_TRIU_INDICES, "np.triu_indices", KJ_BF_HOST, "n, k=, m=")                                       \
    X(NP_TRIL_INDICES_FROM, "np.tril_indices_from", KJ_BF_HOST | KJ_BF_SHAPE, "arr, k=")                 \
    X(NP_TRIU_INDICES_FROM, "np.triu_indices_from", KJ_BF_HOST | KJ_BF_SHAPE, "arr, k=")                 \
    X(NP_CROSS, "np.cross", KJ_BF_HOST | KJ_BF_READS, "a, b")                                            \
    X(NP_CONVOLVE, "np.convolve", KJ_BF_HOST | KJ_BF_READS, "a, v")                                      \
    X(NP_CORRELATE, "np.correlate", KJ_BF_HOST | KJ_BF_READS, "a, v")                                    \
    X(NP_COV, "np.cov", KJ_BF_HOST | KJ_BF_READS, "m, y=, rowvar=, bias=, ddof=")                        \
    X(NP_CORRCOEF, "np.corrcoef", KJ_BF_HOST | KJ_BF_READS, "x, y=, rowvar=")                            \
    X(NP_SINC, "np.sinc", KJ_BF_HOST | KJ_BF_READS, "x")                                                 \
    X(NP_ISPOSINF, "np.isposinf", KJ_BF_HOST | KJ_BF_READS, "x")                                         \
    X(NP_ISNEGINF, "np.isneginf", KJ_BF_HOST | KJ_BF_READS, "x")                                         \
    X(NP_ISCOMPLEX, "np.iscomplex", KJ_BF_HOST | KJ_BF_READS, "x")                                       \
    X(NP_ISREAL, "np.isreal", KJ_BF_HOST | KJ_BF_READS, "x")                                             \
    X(NP_ASARRAY_CHKFINITE, "np.asarray_chkfinite", KJ_BF_HOST | KJ_BF_READS, "a")                       \
    X(NP_ASFARRAY, "np.asfarray", KJ_BF_HOST | KJ_BF_READS, "a, dtype=")                                 \
    X(NP_ISCOMPLEXOBJ, "np.iscomplexobj", KJ_BF_HOST | KJ_BF_SHAPE, "x")                                 \
    X(NP_ISREALOBJ, "np.isrealobj", KJ_BF_HOST | KJ_BF_SHAPE, "x")                                       \
    X(NP_SELECT, "np.select", KJ_BF_HOST | KJ_BF_READS, "condlist, choicelist, default=")                \
    X(NP_SHAPE, "np.shape", KJ_BF_HOST | KJ_BF_SHAPE, "a")                                               \
    X(NP_FINFO, "np.finfo", KJ_BF_HOST | KJ_BF_SHAPE, "dtype")                                           \
    X(NP_IINFO, "np.iinfo", KJ_BF_HOST | KJ_BF_SHAPE, "int_type")                                        \
    X(NP_ISSCALAR, "np.isscalar", KJ_BF_HOST | KJ_BF_SHAPE, "element")

/* np.finfo's fields (builtins_npother.c's FINFO_FIELDS): bits, then 7 of the
 * float type (eps ... resolution), then 8 ints. */
enum { KJ_FINFO_NFIELDS = 16 };

#endif
