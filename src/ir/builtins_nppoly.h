/* SPDX-License-Identifier: BSD-2-Clause */
/* numpy.polynomial's functions of numpysupported.rst ("Polynomials"):
 * rows of KJ_BUILTINS (builtins.h), imported as `from numpy.polynomial
 * import polynomial as P` / `polyutils as pu` (resolve.c's namespaces).
 * Typed by builtins_nppoly.c, lowered by llvm_nppoly.c to one kj_rt_nppoly
 * call (abi_nppoly.h), computed by array_nppoly.c with NumPy's
 * algorithms. Also np.nancumsum/nancumprod, np.nan_to_num, np.trim_zeros and
 * np.unwrap, np.roots (numpysupported.rst's forms), on the same runtime entry. Host
 * code only. NP_POLYADD comes first and NP_ROOTS last: kj_builtin_nppoly
 * tells the family by its range. */
#ifndef KJ_BUILTINS_NPPOLY_H
#define KJ_BUILTINS_NPPOLY_H

#define KJ_BUILTINS_NPPOLY(X)                                                                            \
    X(NP_POLYADD, "np.polynomial.polynomial.polyadd", KJ_BF_HOST | KJ_BF_READS, "c1, c2")                \
    X(NP_POLYSUB, "np.polynomial.polynomial.polysub", KJ_BF_HOST | KJ_BF_READS, "c1, c2")                \
    X(NP_POLYMUL, "np.polynomial.polynomial.polymul", KJ_BF_HOST | KJ_BF_READS, "c1, c2")                \
    X(NP_POLYDIV, "np.polynomial.polynomial.polydiv", KJ_BF_HOST | KJ_BF_READS, "c1, c2")                \
    X(NP_POLYINT, "np.polynomial.polynomial.polyint", KJ_BF_HOST | KJ_BF_READS, "c, m=")                 \
    X(NP_POLYVAL, "np.polynomial.polynomial.polyval", KJ_BF_HOST | KJ_BF_READS, "x, c, tensor=")         \
    X(NP_PU_TRIMSEQ, "np.polynomial.polyutils.trimseq", KJ_BF_HOST | KJ_BF_READS, "seq")               \
    /* builtins_polynomial.c, llvm_polynomial.c */                                                     \
    X(NP_POLYNOMIAL, "np.polynomial.polynomial.Polynomial", KJ_BF_HOST | KJ_BF_READS, "coef, domain=, window=") \
    X(NP_PU_AS_SERIES, "np.polynomial.polyutils.as_series", KJ_BF_HOST | KJ_BF_READS, "alist, trim=")  \
    /* other NumPy functions of one array, on the same runtime entry */                                  \
    X(NP_NANCUMSUM, "np.nancumsum", KJ_BF_HOST | KJ_BF_READS, "a")                                       \
    X(NP_NANCUMPROD, "np.nancumprod", KJ_BF_HOST | KJ_BF_READS, "a")                                     \
    X(NP_NAN_TO_NUM, "np.nan_to_num", KJ_BF_HOST | KJ_BF_READS, "x, copy=, nan=")                        \
    X(NP_TRIM_ZEROS, "np.trim_zeros", KJ_BF_HOST | KJ_BF_READS, "filt, trim=")                           \
    X(NP_UNWRAP, "np.unwrap", KJ_BF_HOST | KJ_BF_READS, "p, discont=, axis=, period=")               \
    X(NP_ROOTS, "np.roots", KJ_BF_HOST | KJ_BF_READS, "p")


#endif
