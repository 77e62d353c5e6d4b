/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy's math ufuncs of numpysupported.rst that have no math.* twin
 * (docs/language.md, "NumPy math ufuncs"): rows of KJ_BUILTINS
 * (builtins.h). Typed by builtins_npmath.c with Numba's loop selection,
 * computed by llvm_npmath.c with npy_math's formulas, the same code on
 * scalars, in the fused loops that map them over arrays (kir_fuse.c) and
 * in kernels. NP_LOGADDEXP comes first and NP_SPACING last:
 * kj_builtin_npmath tells the family by its range. np.degrees and
 * np.radians are aliases of np.rad2deg and np.deg2rad (builtins.h). */
#ifndef KJ_BUILTINS_NPMATH_H
#define KJ_BUILTINS_NPMATH_H

#define KJ_BUILTINS_NPMATH(X)                                                                            \
    X(NP_LOGADDEXP, "np.logaddexp", KJ_BF_ANY, "x1, x2")                                                 \
    X(NP_LOGADDEXP2, "np.logaddexp2", KJ_BF_ANY, "x1, x2")                                               \
    X(NP_FLOAT_POWER, "np.float_power", KJ_BF_ANY, "x1, x2")                                             \
    X(NP_FMAX, "np.fmax", KJ_BF_ANY, "x1, x2")                                                           \
    X(NP_FMIN, "np.fmin", KJ_BF_ANY, "x1, x2")                                                           \
    X(NP_NEXTAFTER, "np.nextafter", KJ_BF_ANY, "x1, x2")                                                 \
    X(NP_LDEXP, "np.ldexp", KJ_BF_ANY, "x1, x2")                                                         \
    X(NP_GCD, "np.gcd", KJ_BF_ANY, "x1, x2")                                                             \
    X(NP_LCM, "np.lcm", KJ_BF_ANY, "x1, x2")                                                             \
    X(NP_RINT, "np.rint", KJ_BF_ANY, "x")                                                                \
    X(NP_CBRT, "np.cbrt", KJ_BF_ANY, "x")                                                                \
    X(NP_RECIPROCAL, "np.reciprocal", KJ_BF_ANY, "x")                                                    \
    X(NP_DEG2RAD, "np.deg2rad", KJ_BF_ANY, "x")                                                          \
    X(NP_RAD2DEG, "np.rad2deg", KJ_BF_ANY, "x")                                                          \
    X(NP_SIGNBIT, "np.signbit", KJ_BF_ANY, "x")                                                          \
    X(NP_SPACING, "np.spacing", KJ_BF_ANY, "x")

#endif
