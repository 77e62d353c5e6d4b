/* SPDX-License-Identifier: BSD-2-Clause */
/* Complex numbers in generated code, host and device alike: a complex is
 * the literal struct {float, float} (complex64) or {double, double}
 * (complex128), NumPy's memory layout. The arithmetic follows Numba's
 * lowering (numba/cpython/numbers.py, cmathimpl.py), which follows CPython:
 * the product is the schoolbook one, the quotient CPython's _Py_c_quot
 * (ZeroDivisionError "complex division by zero" under Python's error
 * model), z ** 2 is z * z and any other power CPython's _Py_c_pow in polar
 * form (Numba's numba_cpow). Branches are selects, so kernels do not
 * diverge. */
#include "codegen.h"

#include "../ir/builtins.h"

#include <string.h>

typedef struct cx {
    LLVMValueRef re, im;
} cx;

static LLVMTypeRef part_type(kj_cg *cg, const kj_type *t) { return t->bits == 64 ? cg->t_f32 : cg->t_f64; }

static cx split(kj_cg *cg, LLVMValueRef v)
{
    return (cx){LLVMBuildExtractValue(cg->b, v, 0, "re"), LLVMBuildExtractValue(cg->b, v, 1, "im")};
}

static LLVMValueRef join(kj_cg *cg, const kj_type *t, cx z)
{
    LLVMValueRef v = LLVMGetUndef(kj_cg_type(cg, t));
    v = LLVMBuildInsertValue(cg->b, v, z.re, 0, "");
    return LLVMBuildInsertValue(cg->b, v, z.im, 1, "");
}

static LLVMValueRef fc(LLVMValueRef like, double v) { return LLVMConstReal(LLVMTypeOf(like), v); }
static LLVMValueRef fadd(kj_cg *cg, LLVMValueRef a, LLVMValueRef b) { return kj_cg_fm(cg, LLVMBuildFAdd(cg->b, a, b, "")); }
static LLVMValueRef fsub(kj_cg *cg, LLVMValueRef a, LLVMValueRef b) { return kj_cg_fm(cg, LLVMBuildFSub(cg->b, a, b, "")); }
static LLVMValueRef fmul(kj_cg *cg, LLVMValueRef a, LLVMValueRef b) { return kj_cg_fm(cg, LLVMBuildFMul(cg->b, a, b, "")); }
static LLVMValueRef fdiv(kj_cg *cg, LLVMValueRef a, LLVMValueRef b) { return kj_cg_fm(cg, LLVMBuildFDiv(cg->b, a, b, "")); }
static LLVMValueRef fcmp(kj_cg *cg, LLVMRealPredicate p, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildFCmp(cg->b, p, a, b, "");
}
static LLVMValueRef sel(kj_cg *cg, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(cg->b, c, a, b, "");
}
static cx csel(kj_cg *cg, LLVMValueRef c, cx a, cx b) { return (cx){sel(cg, c, a.re, b.re), sel(cg, c, a.im, b.im)}; }

/* A libm function of the part type (sinf for complex64), libdevice's on the GPU. */
static LLVMValueRef m1(kj_cg *cg, const char *name, LLVMValueRef x)
{
    LLVMTypeRef ty = LLVMTypeOf(x);
    const char *n = ty == cg->t_f32 ? kj_arena_printf(cg->a, "%sf", name) : name;
    return kj_cg_libm(cg, n, ty, &x, 1);
}
static LLVMValueRef m2(kj_cg *cg, const char *name, LLVMValueRef x, LLVMValueRef y)
{
    LLVMTypeRef ty = LLVMTypeOf(x);
    const char *n = ty == cg->t_f32 ? kj_arena_printf(cg->a, "%sf", name) : name;
    LLVMValueRef a[2] = {x, y};
    return kj_cg_libm(cg, n, ty, a, 2);
}
static LLVMValueRef intr1(kj_cg *cg, const char *name, LLVMValueRef x)
{
    return kj_cg_intrinsic(cg, name, LLVMTypeOf(x), &x, 1);
}

static cx z_mul(kj_cg *cg, cx a, cx b)
{
    return (cx){fsub(cg, fmul(cg, a.re, b.re), fmul(cg, a.im, b.im)),
                fadd(cg, fmul(cg, a.re, b.im), fmul(cg, a.im, b.re))};
}

/* CPython's _Py_c_quot: scaled by the larger part of the divisor. */
static cx z_div(kj_cg *cg, cx a, cx b)
{
    LLVMValueRef abr = intr1(cg, "llvm.fabs", b.re), abi = intr1(cg, "llvm.fabs", b.im);
    LLVMValueRef r1 = fdiv(cg, b.im, b.re), d1 = fadd(cg, b.re, fmul(cg, b.im, r1));
    cx q1 = {fdiv(cg, fadd(cg, a.re, fmul(cg, a.im, r1)), d1), fdiv(cg, fsub(cg, a.im, fmul(cg, a.re, r1)), d1)};
    LLVMValueRef r2 = fdiv(cg, b.re, b.im), d2 = fadd(cg, fmul(cg, b.re, r2), b.im);
    cx q2 = {fdiv(cg, fadd(cg, fmul(cg, a.re, r2), a.im), d2), fdiv(cg, fsub(cg, fmul(cg, a.im, r2), a.re), d2)};
    LLVMValueRef nan = fc(a.re, __builtin_nan(""));
    cx q = csel(cg, fcmp(cg, LLVMRealOGE, abi, abr), q2, (cx){nan, nan});
    return csel(cg, fcmp(cg, LLVMRealOGE, abr, abi), q1, q);
}

/* Numba: z ** 2 as z * z, else CPython's _Py_c_pow (1 for a zero exponent,
 * 0 for a zero base, nan where CPython raises for 0 ** negative). */
static cx z_pow(kj_cg *cg, cx a, cx b)
{
    LLVMValueRef zero = fc(a.re, 0.0), one = fc(a.re, 1.0), nan = fc(a.re, __builtin_nan(""));
    LLVMValueRef vabs = m2(cg, "hypot", a.re, a.im);
    LLVMValueRef len = m2(cg, "pow", vabs, b.re);
    LLVMValueRef at = m2(cg, "atan2", a.im, a.re);
    LLVMValueRef phase = fmul(cg, at, b.re);
    LLVMValueRef bim0 = fcmp(cg, LLVMRealOEQ, b.im, zero);
    len = sel(cg, bim0, len, fdiv(cg, len, m1(cg, "exp", fmul(cg, at, b.im))));
    phase = sel(cg, bim0, phase, fadd(cg, phase, fmul(cg, b.im, m1(cg, "log", vabs))));
    cx r = {fmul(cg, len, m1(cg, "cos", phase)), fmul(cg, len, m1(cg, "sin", phase))};
    LLVMValueRef a0 = LLVMBuildAnd(cg->b, fcmp(cg, LLVMRealOEQ, a.re, zero), fcmp(cg, LLVMRealOEQ, a.im, zero), "");
    LLVMValueRef edom = LLVMBuildOr(cg->b, LLVMBuildNot(cg->b, bim0, ""), fcmp(cg, LLVMRealOLT, b.re, zero), "");
    r = csel(cg, a0, csel(cg, edom, (cx){nan, nan}, (cx){zero, zero}), r);
    r = csel(cg, LLVMBuildAnd(cg->b, fcmp(cg, LLVMRealOEQ, b.re, zero), bim0, ""), (cx){one, zero}, r);
    LLVMValueRef two = LLVMBuildAnd(cg->b, fcmp(cg, LLVMRealOEQ, b.re, fc(a.re, 2.0)), bim0, "");
    return csel(cg, two, z_mul(cg, a, a), r);
}

LLVMValueRef kj_cg_complex_arith(kj_cg *cg, const kir_inst *in, LLVMValueRef av, LLVMValueRef bv)
{
    int np_op = kj_cg_cpx_ufunc_op(cg, in); /* / and ** in a fused array loop: NumPy's (llvm_cpxufunc.c) */
    if (np_op >= 0) return kj_cg_cpx_ufunc(cg, np_op, in->type, av, bv);
    cx a = split(cg, av), b = split(cg, bv);
    switch ((kir_op)in->op) {
    case KIR_ADD: return join(cg, in->type, (cx){fadd(cg, a.re, b.re), fadd(cg, a.im, b.im)});
    case KIR_SUB: return join(cg, in->type, (cx){fsub(cg, a.re, b.re), fsub(cg, a.im, b.im)});
    case KIR_MUL: return join(cg, in->type, z_mul(cg, a, b));
    case KIR_DIV:
        if (cg->fn->kf->py_errors) {
            LLVMValueRef z = LLVMBuildAnd(cg->b, fcmp(cg, LLVMRealOEQ, b.re, fc(b.re, 0.0)),
                                          fcmp(cg, LLVMRealOEQ, b.im, fc(b.re, 0.0)), "divisor.zero");
            kj_cg_raise_if(cg, z, KJ_RT_ZERO_DIVISION, "complex division by zero", in->span);
        }
        return join(cg, in->type, z_div(cg, a, b));
    case KIR_POW: return join(cg, in->type, z_pow(cg, a, b));
    default:
        kj_cg_fail(cg, in->span, "'%s' on %s", kir_op_name((kir_op)in->op), kj_type_str(in->type));
        return av;
    }
}

LLVMValueRef kj_cg_complex_neg(kj_cg *cg, const kir_inst *in, LLVMValueRef v)
{
    cx a = split(cg, v);
    return join(cg, in->type, (cx){kj_cg_fm(cg, LLVMBuildFNeg(cg->b, a.re, "")), kj_cg_fm(cg, LLVMBuildFNeg(cg->b, a.im, ""))});
}

/* == and != (ordering is refused by type inference, as Python does). */
LLVMValueRef kj_cg_complex_compare(kj_cg *cg, const kir_inst *in, LLVMValueRef av, LLVMValueRef bv)
{
    cx a = split(cg, av), b = split(cg, bv);
    if (in->op == KIR_EQ)
        return LLVMBuildAnd(cg->b, fcmp(cg, LLVMRealOEQ, a.re, b.re), fcmp(cg, LLVMRealOEQ, a.im, b.im), "");
    return LLVMBuildOr(cg->b, fcmp(cg, LLVMRealUNE, a.re, b.re), fcmp(cg, LLVMRealUNE, a.im, b.im), "");
}

/* A real number to a complex (imaginary part 0), complex64 ↔ complex128,
 * and a complex to bool (true unless both parts are 0). Complex → int or
 * float never reaches here: type inference refuses it. */
LLVMValueRef kj_cg_complex_cast(kj_cg *cg, LLVMValueRef v, const kj_type *from, const kj_type *to)
{
    if (to->kind == KJ_T_BOOL) {
        cx a = split(cg, v);
        return LLVMBuildOr(cg->b, fcmp(cg, LLVMRealUNE, a.re, fc(a.re, 0.0)), fcmp(cg, LLVMRealUNE, a.im, fc(a.im, 0.0)), "");
    }
    if (to->kind != KJ_T_COMPLEX) {
        kj_cg_fail(cg, (kj_span){0}, "conversion of %s to %s", kj_type_str(from), kj_type_str(to));
        return LLVMGetUndef(kj_cg_type(cg, to));
    }
    kj_type part = {.kind = KJ_T_FLOAT, .bits = to->bits == 64 ? 32 : 64};
    if (from->kind == KJ_T_COMPLEX) {
        kj_type fpart = {.kind = KJ_T_FLOAT, .bits = from->bits == 64 ? 32 : 64};
        cx a = split(cg, v);
        return join(cg, to, (cx){kj_cg_cast(cg, a.re, &fpart, &part), kj_cg_cast(cg, a.im, &fpart, &part)});
    }
    LLVMValueRef re = kj_cg_cast(cg, v, from, &part);
    return join(cg, to, (cx){re, LLVMConstReal(part_type(cg, to), 0.0)});
}

/* ---- cmath (CPython's cmathmodule.c for finite arguments) ---- */

/* c_sqrt: s = 2·sqrt(|x|/8 + hypot(|x|/8, |y|/8)), d = |y| / 2s. */
static cx z_sqrt(kj_cg *cg, cx z)
{
    LLVMValueRef zero = fc(z.re, 0.0);
    LLVMValueRef ax = fdiv(cg, intr1(cg, "llvm.fabs", z.re), fc(z.re, 8.0));
    LLVMValueRef ay = intr1(cg, "llvm.fabs", z.im);
    LLVMValueRef s = fmul(cg, fc(z.re, 2.0), intr1(cg, "llvm.sqrt", fadd(cg, ax, m2(cg, "hypot", ax, fdiv(cg, ay, fc(z.re, 8.0))))));
    LLVMValueRef d = fdiv(cg, ay, fmul(cg, fc(z.re, 2.0), s));
    LLVMValueRef cs[2] = {s, z.im}, cd[2] = {d, z.im};
    LLVMValueRef s_y = kj_cg_intrinsic(cg, "llvm.copysign", LLVMTypeOf(s), cs, 2);
    LLVMValueRef d_y = kj_cg_intrinsic(cg, "llvm.copysign", LLVMTypeOf(s), cd, 2);
    cx r = csel(cg, fcmp(cg, LLVMRealOGE, z.re, zero), (cx){s, d_y}, (cx){d, s_y});
    LLVMValueRef z0 = LLVMBuildAnd(cg->b, fcmp(cg, LLVMRealOEQ, z.re, zero), fcmp(cg, LLVMRealOEQ, z.im, zero), "");
    return csel(cg, z0, (cx){zero, z.im}, r);
}

void kj_cg_csqrt(kj_cg *cg, LLVMValueRef re, LLVMValueRef im, LLVMValueRef *ore, LLVMValueRef *oim)
{
    cx r = z_sqrt(cg, (cx){re, im});
    *ore = r.re;
    *oim = r.im;
}

/* c_log: log|z| (through log1p when |z| is near 1), atan2(y, x). */
static cx z_log(kj_cg *cg, cx z)
{
    LLVMValueRef ax = intr1(cg, "llvm.fabs", z.re), ay = intr1(cg, "llvm.fabs", z.im);
    LLVMValueRef h = m2(cg, "hypot", ax, ay);
    LLVMValueRef xy[2] = {ax, ay};
    LLVMValueRef am = kj_cg_intrinsic(cg, "llvm.maxnum", LLVMTypeOf(ax), xy, 2);
    LLVMValueRef an = kj_cg_intrinsic(cg, "llvm.minnum", LLVMTypeOf(ax), xy, 2);
    LLVMValueRef near = fadd(cg, fmul(cg, fsub(cg, am, fc(am, 1.0)), fadd(cg, am, fc(am, 1.0))), fmul(cg, an, an));
    LLVMValueRef in = LLVMBuildAnd(cg->b, fcmp(cg, LLVMRealOLE, fc(h, 0.71), h), fcmp(cg, LLVMRealOLE, h, fc(h, 1.73)), "");
    LLVMValueRef re = sel(cg, in, fdiv(cg, m1(cg, "log1p", near), fc(h, 2.0)), m1(cg, "log", h));
    return (cx){re, m2(cg, "atan2", z.im, z.re)};
}

static cx z_exp(kj_cg *cg, cx z)
{
    LLVMValueRef l = m1(cg, "exp", z.re);
    return (cx){fmul(cg, l, m1(cg, "cos", z.im)), fmul(cg, l, m1(cg, "sin", z.im))};
}

/* sin(x+iy) = sin x cosh y + i cos x sinh y; cos(x+iy) = cos x cosh y - i sin x sinh y;
 * sinh(x+iy) = cos y sinh x + i sin y cosh x; cosh(x+iy) = cos y cosh x + i sin y sinh x. */
static cx z_trig(kj_cg *cg, kj_builtin id, cx z)
{
    bool hyp = id == KJ_B_CMATH_SINH || id == KJ_B_CMATH_COSH;
    LLVMValueRef t = hyp ? z.im : z.re, h = hyp ? z.re : z.im;
    LLVMValueRef s = m1(cg, "sin", t), c = m1(cg, "cos", t), sh = m1(cg, "sinh", h), ch = m1(cg, "cosh", h);
    switch (id) {
    case KJ_B_CMATH_SIN: return (cx){fmul(cg, s, ch), fmul(cg, c, sh)};
    case KJ_B_CMATH_COS: return (cx){fmul(cg, c, ch), kj_cg_fm(cg, LLVMBuildFNeg(cg->b, fmul(cg, s, sh), ""))};
    case KJ_B_CMATH_SINH: return (cx){fmul(cg, c, sh), fmul(cg, s, ch)};
    default: return (cx){fmul(cg, c, ch), fmul(cg, s, sh)};
    }
}

static LLVMValueRef pred(kj_cg *cg, kj_builtin id, cx z)
{
    LLVMValueRef inf = fc(z.re, __builtin_inf());
    LLVMValueRef ar = intr1(cg, "llvm.fabs", z.re), ai = intr1(cg, "llvm.fabs", z.im);
    switch (id) {
    case KJ_B_ISNAN: case KJ_B_CMATH_ISNAN:
        return LLVMBuildOr(cg->b, fcmp(cg, LLVMRealUNO, z.re, z.re), fcmp(cg, LLVMRealUNO, z.im, z.im), "");
    case KJ_B_ISINF: case KJ_B_CMATH_ISINF:
        return LLVMBuildOr(cg->b, fcmp(cg, LLVMRealOEQ, ar, inf), fcmp(cg, LLVMRealOEQ, ai, inf), "");
    default:
        return LLVMBuildAnd(cg->b, fcmp(cg, LLVMRealOLT, ar, inf), fcmp(cg, LLVMRealOLT, ai, inf), "");
    }
}

static LLVMValueRef argv(kj_cg *cg, const kir_inst *in, uint32_t k)
{
    return k < in->nargs && in->args[k] ? kj_cg_val(cg, in->args[k]) : NULL;
}

/* complex(re, im), .real, .imag, .conjugate() */
static LLVMValueRef cx_value(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef a = argv(cg, in, 0);
    if (in->aux == KJ_B_COMPLEX) {
        LLVMValueRef zero = LLVMConstReal(part_type(cg, in->type), 0.0);
        const kj_type *t0 = a ? cg->fn->kf->insts[in->args[0]].type : NULL;
        if (t0 && t0->kind == KJ_T_COMPLEX) return a; /* complex(z) */
        LLVMValueRef b = argv(cg, in, 1);
        return join(cg, in->type, (cx){a ? a : zero, b ? b : zero});
    }
    const kj_type *t0 = cg->fn->kf->insts[in->args[0]].type;
    if (t0->kind != KJ_T_COMPLEX) { /* np.real/imag/conj/angle, .real/.imag/.conjugate() of a real number */
        if (in->aux == KJ_B_NP_IMAG || in->aux == KJ_B_CPX_IMAG) return kj_cg_zero(cg, in->type);
        if (in->aux != KJ_B_NP_ANGLE) return a;
        return m2(cg, "atan2", LLVMConstReal(LLVMTypeOf(a), 0.0), a);
    }
    cx z = split(cg, a);
    if (in->aux == KJ_B_CPX_REAL || in->aux == KJ_B_NP_REAL) return z.re;
    if (in->aux == KJ_B_CPX_IMAG || in->aux == KJ_B_NP_IMAG) return z.im;
    if (in->aux == KJ_B_NP_ANGLE) return m2(cg, "atan2", z.im, z.re);
    return join(cg, in->type, (cx){z.re, kj_cg_fm(cg, LLVMBuildFNeg(cg->b, z.im, ""))});
}

static LLVMValueRef cmath(kj_cg *cg, const kir_inst *in)
{
    kj_builtin id = (kj_builtin)in->aux;
    if (id == KJ_B_CMATH_RECT) { /* CPython's rect: phi == 0 gives (r, r·phi) exactly */
        LLVMValueRef r = argv(cg, in, 0), phi = argv(cg, in, 1);
        LLVMValueRef p0 = fcmp(cg, LLVMRealOEQ, phi, fc(phi, 0.0));
        cx v = {sel(cg, p0, r, fmul(cg, r, m1(cg, "cos", phi))), fmul(cg, r, sel(cg, p0, phi, m1(cg, "sin", phi)))};
        return join(cg, in->type, v);
    }
    cx z = split(cg, argv(cg, in, 0));
    switch (id) {
    case KJ_B_ABS: return m2(cg, "hypot", z.re, z.im);
    case KJ_B_CMATH_PHASE: return m2(cg, "atan2", z.im, z.re);
    case KJ_B_CMATH_POLAR: {
        LLVMValueRef t = LLVMGetUndef(kj_cg_type(cg, in->type));
        t = LLVMBuildInsertValue(cg->b, t, m2(cg, "hypot", z.re, z.im), 0, "");
        return LLVMBuildInsertValue(cg->b, t, m2(cg, "atan2", z.im, z.re), 1, "");
    }
    case KJ_B_ISNAN: case KJ_B_ISINF: case KJ_B_ISFINITE: case KJ_B_CMATH_ISNAN: case KJ_B_CMATH_ISINF:
    case KJ_B_CMATH_ISFINITE: return pred(cg, id, z);
    case KJ_B_CMATH_SQRT: return join(cg, in->type, z_sqrt(cg, z));
    case KJ_B_CMATH_EXP: return join(cg, in->type, z_exp(cg, z));
    case KJ_B_CMATH_LOG: case KJ_B_CMATH_LOG10: {
        cx l = z_log(cg, z);
        LLVMValueRef base = argv(cg, in, 1);
        if (id == KJ_B_CMATH_LOG10) { /* CPython: log(z) / ln 10, part by part */
            LLVMValueRef ln10 = fc(l.re, 2.302585092994045684);
            return join(cg, in->type, (cx){fdiv(cg, l.re, ln10), fdiv(cg, l.im, ln10)});
        }
        return join(cg, in->type, base ? z_div(cg, l, z_log(cg, split(cg, base))) : l);
    }
    default: {
        cx r;
        if (kj_cg_cmath_inv(cg, id, z.re, z.im, &r.re, &r.im)) return join(cg, in->type, r); /* llvm_cmath_inv.c */
        return join(cg, in->type, z_trig(cg, id, z));
    }
    }
}

/* Is this built-in call one of ours: a complex built-in, or abs/isnan/
 * isinf/isfinite of a complex scalar? */
bool kj_cg_complex_builtin_of(kj_cg *cg, const kir_inst *in)
{
    if (kj_cg_cpx_ufunc_op(cg, in) >= 0) return true;
    if (in->aux >= KJ_B_COMPLEX && in->aux <= KJ_B_CMATH_ISFINITE) return true;
    if (in->aux != KJ_B_ABS && in->aux != KJ_B_ISNAN && in->aux != KJ_B_ISINF && in->aux != KJ_B_ISFINITE) return false;
    const kj_type *t = in->nargs && in->args[0] ? cg->fn->kf->insts[in->args[0]].type : NULL;
    return t && t->kind == KJ_T_COMPLEX;
}

LLVMValueRef kj_cg_complex_builtin(kj_cg *cg, const kir_inst *in)
{
    int np_op = kj_cg_cpx_ufunc_op(cg, in);
    if (np_op >= 0) return kj_cg_cpx_ufunc(cg, np_op, in->type, argv(cg, in, 0), argv(cg, in, 1));
    if (in->aux <= KJ_B_NP_ANGLE && in->aux >= KJ_B_COMPLEX) return cx_value(cg, in);
    return cmath(cg, in);
}
