/* SPDX-License-Identifier: BSD-2-Clause */
/* The operations of kj_rt_nppoly (rtfns.def): numpy.polynomial's functions
 * and a few other NumPy functions of one array (builtins_nppoly.h),
 * lowered by llvm_nppoly.c to one call and run by rt_nppoly.c over
 * array_nppoly.c. Part of the ABI (abi.h's KJ_ABI_VERSION). */
#ifndef KJ_ABI_NPPOLY_H
#define KJ_ABI_NPPOLY_H

typedef enum kj_nppoly_op {
    KJ_NPP_ADD,     /* polyadd(a, b) */
    KJ_NPP_SUB,     /* polysub(a, b) */
    KJ_NPP_MUL,     /* polymul(a, b) */
    KJ_NPP_DIV,     /* polydiv(a, b): quotient at out, remainder at out2 */
    KJ_NPP_INT,     /* polyint(a, m=i0) */
    KJ_NPP_VAL,     /* polyval(x=b, c=a): x's shape (a scalar x: a 0-d b, the float64 stored at out) */
    KJ_NPP_TRIMSEQ, /* trimseq(a): a's dtype */
    /* other NumPy functions of one array (builtins_nppoly.h) */
    KJ_NPP_NANCUMSUM,  /* np.nancumsum(a): flattened, in rdtype */
    KJ_NPP_NANCUMPROD, /* np.nancumprod(a): flattened, in rdtype */
    KJ_NPP_NAN_TO_NUM, /* np.nan_to_num(a, copy=i0, nan=f0): a itself when not copied */
    KJ_NPP_TRIM_ZEROS, /* np.trim_zeros(a, trim): i0 bit 1 front, bit 2 back; a view */
    KJ_NPP_UNWRAP,     /* np.unwrap(a, discont=f0 (NaN: None), period=f1), 1-d, float64 */
    KJ_NPP_ROOTS,      /* np.roots(a): the eigenvalues of the companion matrix (kj_rt_linalg), float64 */
} kj_nppoly_op;

#endif
