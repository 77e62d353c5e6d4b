/* SPDX-License-Identifier: BSD-2-Clause */
/* cmath.acos, acosh, asin, asinh, atan, atanh, tan, tanh (builtins.h's
 * CMATH_ACOS..CMATH_TANH) as Numba lowers them (numba/cpython/cmathimpl.py),
 * which is CPython's cmathmodule.c for finite arguments: the square roots of
 * c_acos/c_acosh/c_asinh, c_atanh's three regions, c_tanh's formula (and its
 * branch for |x| > log(DBL_MAX/4), where CPython keeps the tiny imaginary
 * part that 1/cosh(x) loses); asin, atan and tan are -i·f(iz) of asinh,
 * atanh and tanh. Every region is computed and the result selected, so
 * kernels do not diverge; the libm calls are libdevice's on the GPU. */
#include "codegen.h"

#include "../ir/builtins.h"

#include <float.h>
#include <math.h>

typedef struct zv {
    LLVMValueRef re, im;
} zv;

typedef struct ictx {
    kj_cg *cg;
    LLVMTypeRef ft; /* the part type: float or double */
} ictx;

static LLVMValueRef k(const ictx *c, double v) { return LLVMConstReal(c->ft, v); }
static LLVMValueRef add(const ictx *c, LLVMValueRef a, LLVMValueRef b) { return kj_cg_fm(c->cg, LLVMBuildFAdd(c->cg->b, a, b, "")); }
static LLVMValueRef sub(const ictx *c, LLVMValueRef a, LLVMValueRef b) { return kj_cg_fm(c->cg, LLVMBuildFSub(c->cg->b, a, b, "")); }
static LLVMValueRef mul(const ictx *c, LLVMValueRef a, LLVMValueRef b) { return kj_cg_fm(c->cg, LLVMBuildFMul(c->cg->b, a, b, "")); }
static LLVMValueRef dvd(const ictx *c, LLVMValueRef a, LLVMValueRef b) { return kj_cg_fm(c->cg, LLVMBuildFDiv(c->cg->b, a, b, "")); }
static LLVMValueRef neg(const ictx *c, LLVMValueRef a) { return kj_cg_fm(c->cg, LLVMBuildFNeg(c->cg->b, a, "")); }
static LLVMValueRef cmp(const ictx *c, LLVMRealPredicate p, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFCmp(c->cg->b, p, a, b, ""); }
static LLVMValueRef sel(const ictx *c, LLVMValueRef q, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildSelect(c->cg->b, q, a, b, ""); }
static zv zsel(const ictx *c, LLVMValueRef q, zv a, zv b) { return (zv){sel(c, q, a.re, b.re), sel(c, q, a.im, b.im)}; }
static LLVMValueRef or2(const ictx *c, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildOr(c->cg->b, a, b, ""); }
static LLVMValueRef and2(const ictx *c, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildAnd(c->cg->b, a, b, ""); }

static LLVMValueRef m1(const ictx *c, const char *name, LLVMValueRef x)
{
    const char *n = c->ft == c->cg->t_f32 ? kj_arena_printf(c->cg->a, "%sf", name) : name;
    return kj_cg_libm(c->cg, n, c->ft, &x, 1);
}
static LLVMValueRef m2(const ictx *c, const char *name, LLVMValueRef x, LLVMValueRef y)
{
    const char *n = c->ft == c->cg->t_f32 ? kj_arena_printf(c->cg->a, "%sf", name) : name;
    LLVMValueRef a[2] = {x, y};
    return kj_cg_libm(c->cg, n, c->ft, a, 2);
}
static LLVMValueRef fabs_(const ictx *c, LLVMValueRef x) { return kj_cg_intrinsic(c->cg, "llvm.fabs", c->ft, &x, 1); }
static LLVMValueRef csign(const ictx *c, LLVMValueRef x, LLVMValueRef y)
{
    LLVMValueRef a[2] = {x, y};
    return kj_cg_intrinsic(c->cg, "llvm.copysign", c->ft, a, 2);
}
static LLVMValueRef isinf_(const ictx *c, LLVMValueRef x) { return cmp(c, LLVMRealOEQ, fabs_(c, x), k(c, INFINITY)); }
static LLVMValueRef isnan_(const ictx *c, LLVMValueRef x) { return cmp(c, LLVMRealUNO, x, x); }

static zv zsqrt(const ictx *c, LLVMValueRef re, LLVMValueRef im)
{
    zv r;
    kj_cg_csqrt(c->cg, re, im, &r.re, &r.im);
    return r;
}

/* Numba's THRES (DBL_MAX / 4) for a double; FLT_MAX / 4 for a float part,
 * where the double constant would round to inf. */
static LLVMValueRef large(const ictx *c, zv z)
{
    LLVMValueRef th = k(c, c->ft == c->cg->t_f32 ? FLT_MAX / 4 : DBL_MAX / 4);
    return or2(c, cmp(c, LLVMRealOGT, fabs_(c, z.re), th), cmp(c, LLVMRealOGT, fabs_(c, z.im), th));
}

/* log(hypot(x/2, y/2)) + ln 4: log|z| without overflow */
static LLVMValueRef log_abs_large(const ictx *c, zv z)
{
    LLVMValueRef h = m2(c, "hypot", mul(c, z.re, k(c, 0.5)), mul(c, z.im, k(c, 0.5)));
    return add(c, m1(c, "log", h), k(c, M_LN2 * 2));
}

static zv z_acos(const ictx *c, zv z)
{
    zv big = {m2(c, "atan2", fabs_(c, z.im), z.re), csign(c, log_abs_large(c, z), neg(c, z.im))};
    zv s1 = zsqrt(c, sub(c, k(c, 1.0), z.re), neg(c, z.im));
    zv s2 = zsqrt(c, add(c, k(c, 1.0), z.re), z.im);
    zv r = {mul(c, k(c, 2.0), m2(c, "atan2", s1.re, s2.re)),
            m1(c, "asinh", sub(c, mul(c, s2.re, s1.im), mul(c, s2.im, s1.re)))};
    return zsel(c, large(c, z), big, r);
}

static zv z_acosh(const ictx *c, zv z)
{
    zv big = {log_abs_large(c, z), m2(c, "atan2", z.im, z.re)};
    zv s1 = zsqrt(c, sub(c, z.re, k(c, 1.0)), z.im);
    zv s2 = zsqrt(c, add(c, z.re, k(c, 1.0)), z.im);
    zv r = {m1(c, "asinh", add(c, mul(c, s1.re, s2.re), mul(c, s1.im, s2.im))),
            mul(c, k(c, 2.0), m2(c, "atan2", s1.im, s2.re))};
    return zsel(c, large(c, z), big, r);
}

static zv z_asinh(const ictx *c, zv z)
{
    zv big = {csign(c, log_abs_large(c, z), z.re), m2(c, "atan2", z.im, fabs_(c, z.re))};
    zv s1 = zsqrt(c, add(c, k(c, 1.0), z.im), neg(c, z.re));
    zv s2 = zsqrt(c, sub(c, k(c, 1.0), z.im), z.re);
    zv r = {m1(c, "asinh", sub(c, mul(c, s1.re, s2.im), mul(c, s2.re, s1.im))),
            m2(c, "atan2", z.im, sub(c, mul(c, s1.re, s2.re), mul(c, s1.im, s2.im)))};
    return zsel(c, large(c, z), big, r);
}

/* c_atanh for z.real >= 0 (the caller reflects): the far region, the
 * neighbourhood of 1 (C99: atanh(1 ± 0i) = inf ± 0i), and the rest. */
static zv atanh_pos(const ictx *c, zv z)
{
    bool f32 = c->ft == c->cg->t_f32;
    LLVMValueRef big_th = k(c, sqrt(f32 ? FLT_MAX / 4 : DBL_MAX / 4)), small_th = k(c, sqrt(f32 ? FLT_MIN : DBL_MIN));
    LLVMValueRef ay = fabs_(c, z.im), pi_2 = k(c, M_PI / 2), zero = k(c, 0.0);
    LLVMValueRef far = or2(c, or2(c, isnan_(c, z.re), cmp(c, LLVMRealOGT, z.re, big_th)), cmp(c, LLVMRealOGT, ay, big_th));
    LLVMValueRef h = m2(c, "hypot", mul(c, z.re, k(c, 0.5)), mul(c, z.im, k(c, 0.5)));
    LLVMValueRef far_re = dvd(c, dvd(c, dvd(c, z.re, k(c, 4.0)), h), h);
    far_re = sel(c, isinf_(c, z.re), zero, far_re);
    far_re = sel(c, isinf_(c, z.im), csign(c, zero, z.re), far_re);
    zv rf = {far_re, neg(c, csign(c, pi_2, neg(c, z.im)))};
    LLVMValueRef one = and2(c, cmp(c, LLVMRealOEQ, z.re, k(c, 1.0)), cmp(c, LLVMRealOLT, ay, small_th));
    LLVMValueRef lg = neg(c, m1(c, "log", dvd(c, m1(c, "sqrt", ay), m1(c, "sqrt", m2(c, "hypot", ay, k(c, 2.0))))));
    zv r1 = {lg, csign(c, dvd(c, m2(c, "atan2", k(c, 2.0), neg(c, ay)), k(c, 2.0)), z.im)};
    r1 = zsel(c, cmp(c, LLVMRealOEQ, ay, zero), (zv){k(c, INFINITY), z.im}, r1);
    LLVMValueRef sqay = mul(c, ay, ay), zr1 = sub(c, k(c, 1.0), z.re);
    LLVMValueRef q = dvd(c, mul(c, k(c, 4.0), z.re), add(c, mul(c, zr1, zr1), sqay));
    zv rn = {mul(c, m1(c, "log1p", q), k(c, 0.25)),
             mul(c, neg(c, m2(c, "atan2", mul(c, k(c, -2.0), z.im), sub(c, mul(c, zr1, add(c, k(c, 1.0), z.re)), sqay))),
                 k(c, 0.5))};
    zv r = zsel(c, far, rf, zsel(c, one, r1, rn));
    r.im = sel(c, isnan_(c, z.im), k(c, NAN), r.im);
    return r;
}

static zv z_atanh(const ictx *c, zv z)
{
    LLVMValueRef negate = cmp(c, LLVMRealOLT, z.re, k(c, 0.0));
    zv a = zsel(c, negate, (zv){neg(c, z.re), neg(c, z.im)}, z);
    zv r = atanh_pos(c, a);
    return zsel(c, negate, (zv){neg(c, r.re), neg(c, r.im)}, r);
}

static zv z_tanh(const ictx *c, zv z)
{
    LLVMValueRef x = z.re, y = z.im;
    LLVMValueRef one = k(c, 1.0), zero = k(c, 0.0);
    zv inf = {csign(c, one, x), sel(c, isinf_(c, y), zero, csign(c, zero, m1(c, "sin", mul(c, k(c, 2.0), y))))};
    LLVMValueRef tx = m1(c, "tanh", x), ty = m1(c, "tan", y), cx = dvd(c, one, m1(c, "cosh", x));
    LLVMValueRef txty = mul(c, tx, ty), denom = add(c, one, mul(c, txty, txty));
    zv r = {dvd(c, mul(c, tx, add(c, one, mul(c, ty, ty))), denom), mul(c, mul(c, dvd(c, ty, denom), cx), cx)};
    /* CPython's c_tanh past log(DBL_MAX / 4): 4 sin y cos y e^(-2|x|) */
    LLVMValueRef log_large = k(c, c->ft == c->cg->t_f32 ? 87.33654469094846 : 708.3964185322641);
    LLVMValueRef far = cmp(c, LLVMRealOGT, fabs_(c, x), log_large);
    LLVMValueRef fim = mul(c, mul(c, mul(c, k(c, 4.0), m1(c, "sin", y)), m1(c, "cos", y)),
                           m1(c, "exp", mul(c, k(c, -2.0), fabs_(c, x))));
    r = zsel(c, far, (zv){csign(c, one, x), fim}, r);
    return zsel(c, isinf_(c, x), inf, r);
}

/* -i·f(iz): f of (-y, x), the result (r.im, -r.re) */
static zv rot(const ictx *c, zv z) { return (zv){neg(c, z.im), z.re}; }
static zv unrot(const ictx *c, zv r) { return (zv){r.im, neg(c, r.re)}; }

bool kj_cg_cmath_inv(kj_cg *cg, unsigned id, LLVMValueRef re, LLVMValueRef im, LLVMValueRef *ore, LLVMValueRef *oim)
{
    ictx c = {cg, LLVMTypeOf(re)};
    zv z = {re, im}, r;
    switch (id) {
    case KJ_B_CMATH_ACOS: r = z_acos(&c, z); break;
    case KJ_B_CMATH_ACOSH: r = z_acosh(&c, z); break;
    case KJ_B_CMATH_ASIN: r = unrot(&c, z_asinh(&c, rot(&c, z))); break;
    case KJ_B_CMATH_ASINH: r = z_asinh(&c, z); break;
    case KJ_B_CMATH_ATAN: { /* Numba: (r.im, r.re) when x is inf and y nan */
        zv a = z_atanh(&c, rot(&c, z));
        r = zsel(&c, and2(&c, isinf_(&c, z.re), isnan_(&c, z.im)), (zv){a.im, a.re}, unrot(&c, a));
        break;
    }
    case KJ_B_CMATH_ATANH: r = z_atanh(&c, z); break;
    case KJ_B_CMATH_TAN: r = unrot(&c, z_tanh(&c, rot(&c, z))); break;
    case KJ_B_CMATH_TANH: r = z_tanh(&c, z); break;
    default: return false;
    }
    *ore = r.re;
    *oim = r.im;
    return true;
}
