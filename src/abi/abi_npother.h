/* SPDX-License-Identifier: BSD-2-Clause */
/* The operations of kj_rt_npother (rtfns.def): NumPy's window functions,
 * triangle indices, cross products, convolution and correlation,
 * covariance, np.sinc, the elementwise predicates isposinf/isneginf/
 * iscomplex/isreal, asarray_chkfinite's check and np.select; each lowered by
 * llvm_npother.c to one call and run by rt_npother.c over
 * array_npother.c. Part of the ABI (abi.h's KJ_ABI_VERSION). */
#ifndef KJ_ABI_NPOTHER_H
#define KJ_ABI_NPOTHER_H

typedef enum kj_npother_op {
    KJ_NPO_WINDOW,       /* np.bartlett/...(M=a): i0 = kj_npo_window, f0 = kaiser's beta */
    KJ_NPO_TRIL_INDICES, /* np.tril_indices(n=a, k=i0, m=i1 (i1_given)) or _from(arr=a 2-d, k=i0): out, out2 */
    KJ_NPO_TRIU_INDICES, /* np.triu_indices, the same */
    KJ_NPO_CROSS,        /* np.cross(a, b) */
    KJ_NPO_CONVOLVE,     /* np.convolve(a, b) ('full') */
    KJ_NPO_CORRELATE,    /* np.correlate(a, b) ('valid') */
    KJ_NPO_COV,          /* np.cov(m=a, y=b, rowvar=i0, bias=i1 & 1, ddof=f0 when i1 & 2) */
    KJ_NPO_CORRCOEF,     /* np.corrcoef(x=a, y=b, rowvar=i0) */
    KJ_NPO_SINC,         /* np.sinc(a) */
    KJ_NPO_PRED,         /* np.isposinf/isneginf/iscomplex/isreal(a): i0 = kj_npo_pred */
    KJ_NPO_CHKFINITE,    /* np.asarray_chkfinite(a)'s check (no result) */
    KJ_NPO_SELECT_INIT,  /* np.select's start: an array of a's shape filled with the 0-d b, in rdtype */
    KJ_NPO_SELECT_STEP   /* np.select's step: c = where(a, b, c), in place in c (no result) */
} kj_npother_op;

typedef enum kj_npo_window { KJ_WIN_BARTLETT, KJ_WIN_BLACKMAN, KJ_WIN_HAMMING, KJ_WIN_HANNING, KJ_WIN_KAISER } kj_npo_window;

typedef enum kj_npo_pred { KJ_PRED_POSINF, KJ_PRED_NEGINF, KJ_PRED_ISCOMPLEX, KJ_PRED_ISREAL } kj_npo_pred;

#endif
