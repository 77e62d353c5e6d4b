/* SPDX-License-Identifier: BSD-2-Clause */
/* The operations of kj_rt_cpx_ufunc/kj_rt_cpx_ufuncf (rtfns.def): NumPy's
 * complex ufunc loops that kjit's fused array loops call per element
 * (llvm_cpxufunc.c), run by cpxufunc.c with NumPy's algorithms: C's
 * <complex.h> functions where NumPy calls them (glibc's cexp, clog, ...),
 * NumPy's own loops for division, reciprocal and power. Part of the ABI
 * (abi.h's KJ_ABI_VERSION). */
#ifndef KJ_ABI_CPXUFUNC_H
#define KJ_ABI_CPXUFUNC_H

typedef enum kj_cpx_ufunc_op {
    KJ_CUF_EXP, KJ_CUF_LOG, KJ_CUF_LOG10, KJ_CUF_SQRT,
    KJ_CUF_SIN, KJ_CUF_COS, KJ_CUF_TAN, KJ_CUF_SINH, KJ_CUF_COSH, KJ_CUF_TANH,
    KJ_CUF_ASIN, KJ_CUF_ACOS, KJ_CUF_ATAN, KJ_CUF_ASINH, KJ_CUF_ACOSH, KJ_CUF_ATANH,
    KJ_CUF_RECIPROCAL, /* one operand so far, */
    KJ_CUF_DIV,        /* two from here */
    KJ_CUF_POW,
    KJ_CUF_POW_SCALAR  /* `a ** s`, s a real scalar: NumPy's fast_scalar_power, then POW */
} kj_cpx_ufunc_op;

#endif
