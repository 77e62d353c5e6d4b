/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy's complex ufunc loops, one element at a time (abi_cpxufunc.h), for
 * the fused array loops over complex arrays (llvm_cpxufunc.c). NumPy 1.24
 * computes exp, log, sqrt, the trigonometric and hyperbolic functions and
 * their inverses through the C library's <complex.h> functions (npymath's
 * npy_cexp & co. call them where the platform has them, as glibc does), so
 * these call the same functions and give NumPy's bits; log10 is NumPy's
 * nc_log10 (clog scaled by log10(e)), division and reciprocal NumPy's loops
 * (Smith's algorithm, loops.c.src), power NumPy's nc_pow (small integer
 * exponents by repeated squaring, else cpow). complex64 runs the float
 * versions (cexpf, ...), as NumPy's complex64 loops do. */
#include "rt_host.h"
#include "../abi/abi.h"
#include "../abi/abi_cpxufunc.h"

#include <complex.h>
#include <math.h>
#include <string.h>

/* One body for double (suffix empty) and float (suffix f); T the part
 * type, C the complex type, S the libm suffix. */
#define CPX_LOOPS(T, C, S, LOG10E)                                                                              \
    static C mul_##T(C a, C b)                                                                                    \
    {                                                                                                             \
        T ar = creal##S(a), ai = cimag##S(a), br = creal##S(b), bi = cimag##S(b);                                  \
        return CMPLX##S##_(ar * br - ai * bi, ar * bi + ai * br);                                                  \
    }                                                                                                             \
    /* NumPy's complex divide loop (loops.c.src) */                                                               \
    static C div_##T(C a, C b)                                                                                    \
    {                                                                                                             \
        T ar = creal##S(a), ai = cimag##S(a), br = creal##S(b), bi = cimag##S(b);                                  \
        T abr = fabs##S(br), abi = fabs##S(bi);                                                                   \
        if (abr >= abi) {                                                                                         \
            if (abr == 0 && abi == 0) return CMPLX##S##_(ar / abr, ai / abr); /* inf or nan parts */              \
            T rat = bi / br, scl = (T)1.0 / (br + bi * rat);                                                      \
            return CMPLX##S##_((ar + ai * rat) * scl, (ai - ar * rat) * scl);                                     \
        }                                                                                                         \
        T rat = br / bi, scl = (T)1.0 / (bi + br * rat);                                                          \
        return CMPLX##S##_((ar * rat + ai) * scl, (ai * rat - ar) * scl);                                         \
    }                                                                                                             \
    /* NumPy's complex reciprocal loop */                                                                         \
    static C recip_##T(C a)                                                                                       \
    {                                                                                                             \
        T ar = creal##S(a), ai = cimag##S(a);                                                                     \
        if (fabs##S(ai) <= fabs##S(ar)) {                                                                         \
            T r = ai / ar, d = ar + ai * r;                                                                       \
            return CMPLX##S##_((T)1 / d, -r / d);                                                                 \
        }                                                                                                         \
        T r = ar / ai, d = ar * r + ai;                                                                           \
        return CMPLX##S##_(r / d, (T)-1 / d);                                                                     \
    }                                                                                                             \
    /* NumPy's nc_pow (funcs.inc.src) */                                                                                 \
    static C pow_##T(C a, C b)                                                                                    \
    {                                                                                                             \
        T ar = creal##S(a), ai = cimag##S(a), br = creal##S(b), bi = cimag##S(b);                                  \
        if (br == 0 && bi == 0) return CMPLX##S##_(1, 0);                                                         \
        if (ar == 0 && ai == 0) {                                                                                 \
            if (br > 0 && bi == 0) return CMPLX##S##_(0, 0);                                                      \
            return CMPLX##S##_(NAN, NAN);                                                                         \
        }                                                                                                         \
        long long n;                                                                                              \
        if (bi == 0 && br > -100 && br < 100 && (T)(n = (long long)br) == br) {                                   \
            if (n == 1) return a;                                                                                 \
            if (n == 2) return mul_##T(a, a);                                                                     \
            if (n == 3) return mul_##T(mul_##T(a, a), a);                                                         \
            C aa = CMPLX##S##_(1, 0), p = a;                                                                      \
            long long mask = 1;                                                                                   \
            if (n < 0) n = -n;                                                                                    \
            for (;;) {                                                                                            \
                if (n & mask) aa = mul_##T(aa, p);                                                                \
                mask <<= 1;                                                                                       \
                if (n < mask || mask <= 0) break;                                                                 \
                p = mul_##T(p, p);                                                                                \
            }                                                                                                     \
            if (br < 0) aa = div_##T(CMPLX##S##_(1, 0), aa); /* NumPy's divide loop */                           \
            return aa;                                                                                            \
        }                                                                                                         \
        return cpow##S(a, b);                                                                                     \
    }                                                                                                             \
    /* NumPy's fast_scalar_power (number.c): an array ** a real scalar 1, -1, 0, 0.5 or 2 is positive,          \
     * reciprocal, ones_like, sqrt or square */                                                                   \
    static C scalar_pow_##T(C a, C b)                                                                             \
    {                                                                                                             \
        T e = creal##S(b);                                                                                        \
        if (e == 1) return a;                                                                                     \
        if (e == -1) return recip_##T(a);                                                                         \
        if (e == 0) return CMPLX##S##_(1, 0);                                                                     \
        if (e == (T)0.5) return csqrt##S(a);                                                                      \
        if (e == 2) return mul_##T(a, a);                                                                         \
        return pow_##T(a, b);                                                                                     \
    }                                                                                                             \
    static C apply_##T(int32_t op, C a, C b)                                                                      \
    {                                                                                                             \
        switch ((kj_cpx_ufunc_op)op) {                                                                            \
        case KJ_CUF_EXP: return cexp##S(a);                                                                       \
        case KJ_CUF_LOG: return clog##S(a);                                                                       \
        case KJ_CUF_LOG10: {                                                                                      \
            C l = clog##S(a);                                                                                     \
            return CMPLX##S##_(creal##S(l) * LOG10E, cimag##S(l) * LOG10E);                                       \
        }                                                                                                         \
        case KJ_CUF_SQRT: return csqrt##S(a);                                                                     \
        case KJ_CUF_SIN: return csin##S(a);                                                                       \
        case KJ_CUF_COS: return ccos##S(a);                                                                       \
        case KJ_CUF_TAN: return ctan##S(a);                                                                       \
        case KJ_CUF_SINH: return csinh##S(a);                                                                     \
        case KJ_CUF_COSH: return ccosh##S(a);                                                                     \
        case KJ_CUF_TANH: return ctanh##S(a);                                                                     \
        case KJ_CUF_ASIN: return casin##S(a);                                                                     \
        case KJ_CUF_ACOS: return cacos##S(a);                                                                     \
        case KJ_CUF_ATAN: return catan##S(a);                                                                     \
        case KJ_CUF_ASINH: return casinh##S(a);                                                                   \
        case KJ_CUF_ACOSH: return cacosh##S(a);                                                                   \
        case KJ_CUF_ATANH: return catanh##S(a);                                                                   \
        case KJ_CUF_RECIPROCAL: return recip_##T(a);                                                              \
        case KJ_CUF_DIV: return div_##T(a, b);                                                                    \
        case KJ_CUF_POW: return pow_##T(a, b);                                                                    \
        case KJ_CUF_POW_SCALAR: return scalar_pow_##T(a, b);                                                      \
        }                                                                                                         \
        return CMPLX##S##_(NAN, NAN);                                                                             \
    }

/* complex from parts, inf and nan kept (re + im * I is not: 0 * inf); C's
 * CMPLX needs a compiler builtin that clang lacks. A complex is laid out
 * as an array of its two parts (C17 6.2.5). */
static inline double complex CMPLX_(double re, double im)
{
    double complex z;
    double p[2] = {re, im};
    memcpy(&z, p, sizeof z);
    return z;
}

static inline float complex CMPLXf_(float re, float im)
{
    float complex z;
    float p[2] = {re, im};
    memcpy(&z, p, sizeof z);
    return z;
}

CPX_LOOPS(double, double complex, , 0.434294481903251827651128918916605082)
CPX_LOOPS(float, float complex, f, 0.434294481903251827651128918916605082f)

void kj_rt_cpx_ufunc(int32_t op, double ar, double ai, double br, double bi, double *out)
{
    double complex r = apply_double(op, CMPLX_(ar, ai), CMPLX_(br, bi));
    out[0] = creal(r), out[1] = cimag(r);
}

void kj_rt_cpx_ufuncf(int32_t op, float ar, float ai, float br, float bi, float *out)
{
    float complex r = apply_float(op, CMPLXf_(ar, ai), CMPLXf_(br, bi));
    out[0] = crealf(r), out[1] = cimagf(r);
}
