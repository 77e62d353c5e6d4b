/* SPDX-License-Identifier: BSD-2-Clause */
/* llvm_npmath — NumPy's math ufuncs of builtins_npmath.h on one element,
 * with npy_math's formulas (numpy/core/src/npymath/npy_math_internal.h.src)
 * and the loop's float type (float32 computes in float32, with its own
 * constants and libm functions), so that the results are NumPy's bits.
 * Target-neutral IR: arithmetic, selects, LLVM intrinsics NVPTX selects and
 * the target's libm (libdevice's __nv_* in kernels). The same code runs on
 * scalars and in the fused loops that map these functions over arrays. */
#include "codegen.h"

#include "../ir/builtins.h"

#include <math.h>

static const kj_type T_I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};
static const kj_type T_F64 = {.kind = KJ_T_FLOAT, .bits = 64};

static const kj_type *type_of(kj_cg *cg, kir_ref r) { return cg->fn->kf->insts[r].type; }

/* Argument k converted to t. */
static LLVMValueRef arg_as(kj_cg *cg, const kir_inst *in, uint32_t k, const kj_type *t)
{
    return kj_cg_cast(cg, kj_cg_val(cg, in->args[k]), type_of(cg, in->args[k]), t);
}

static LLVMValueRef sel(kj_cg *cg, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(cg->b, c, a, b, "");
}

/* The float type the loop computes in: the result's, or (signbit) the
 * float loop of the argument (Numba's: small integers in float32). */
static const kj_type *loop_float(kj_cg *cg, const kir_inst *in, kj_type *buf)
{
    if (in->type->kind == KJ_T_FLOAT) return in->type;
    const kj_type *x = type_of(cg, in->args[0]);
    bool f32 = (x->kind == KJ_T_FLOAT && x->bits == 32) || x->kind == KJ_T_BOOL ||
               (x->kind == KJ_T_INT && x->bits <= 16);
    *buf = (kj_type){.kind = KJ_T_FLOAT, .bits = f32 ? 32 : 64};
    return buf;
}

/* A libm function of one float type: the double name, 'f' appended for float. */
static LLVMValueRef libm(kj_cg *cg, const char *name, const kj_type *ft, LLVMValueRef *a, unsigned n)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%s%s", name, ft->bits == 32 ? "f" : "");
    return kj_cg_libm(cg, buf, kj_cg_type(cg, ft), a, n);
}

static LLVMValueRef fconst(kj_cg *cg, const kj_type *ft, double d, float f)
{
    return LLVMConstReal(kj_cg_type(cg, ft), ft->bits == 32 ? (double)f : d);
}

/* npy_logaddexp / npy_logaddexp2:
 *   x == y: x + log(2) (x + 1)          (infinities of one sign)
 *   tmp = x - y > 0: x + log1p(exp(-tmp))  (log2_1p(exp2(-tmp)))
 *   tmp <= 0:        y + log1p(exp(tmp))
 *   else (NaN): tmp
 * log2_1p(v) is LOG2E * log1p(v). */
static LLVMValueRef logaddexp(kj_cg *cg, const kj_type *ft, LLVMValueRef x, LLVMValueRef y, bool base2)
{
    LLVMBuilderRef b = cg->b;
    LLVMValueRef tmp = LLVMBuildFSub(b, x, y, ""), ntmp = LLVMBuildFNeg(b, tmp, "");
    LLVMValueRef e[2] = {libm(cg, base2 ? "exp2" : "exp", ft, &ntmp, 1), libm(cg, base2 ? "exp2" : "exp", ft, &tmp, 1)};
    LLVMValueRef l[2] = {libm(cg, "log1p", ft, &e[0], 1), libm(cg, "log1p", ft, &e[1], 1)};
    if (base2) {
        LLVMValueRef k = fconst(cg, ft, 1.442695040888963407359924681001892137, 1.442695040888963407359924681001892137F);
        l[0] = LLVMBuildFMul(b, k, l[0], "");
        l[1] = LLVMBuildFMul(b, k, l[1], "");
    }
    LLVMValueRef zero = fconst(cg, ft, 0.0, 0.0F);
    LLVMValueRef r = sel(cg, LLVMBuildFCmp(b, LLVMRealOLE, tmp, zero, ""), LLVMBuildFAdd(b, y, l[1], ""), tmp);
    r = sel(cg, LLVMBuildFCmp(b, LLVMRealOGT, tmp, zero, ""), LLVMBuildFAdd(b, x, l[0], ""), r);
    LLVMValueRef same = base2 ? fconst(cg, ft, 1.0, 1.0F)
                              : fconst(cg, ft, 0.693147180559945309417232121458176568, 0.693147180559945309417232121458176568F);
    return sel(cg, LLVMBuildFCmp(b, LLVMRealOEQ, x, y, ""), LLVMBuildFAdd(b, x, same, ""), r);
}

/* fmax/fmin: NumPy's loops (npyv_maxp): y when it is NaN gives x, else
 * x > y ? x : y (for fmin x < y), so equal operands (0.0, -0.0) give y.
 * Integers and bools: the larger (smaller) one. */
static LLVMValueRef fminmax(kj_cg *cg, const kj_type *t, LLVMValueRef x, LLVMValueRef y, bool max)
{
    LLVMBuilderRef b = cg->b;
    if (t->kind == KJ_T_FLOAT) {
        LLVMValueRef pick = LLVMBuildFCmp(b, max ? LLVMRealOGT : LLVMRealOLT, x, y, "");
        return sel(cg, LLVMBuildFCmp(b, LLVMRealUNO, y, y, ""), x, sel(cg, pick, x, y));
    }
    bool s = t->kind == KJ_T_INT && t->is_signed;
    LLVMIntPredicate p = max ? (s ? LLVMIntSGT : LLVMIntUGT) : (s ? LLVMIntSLT : LLVMIntULT);
    return sel(cg, LLVMBuildICmp(b, p, x, y, ""), x, y);
}

/* Euclid's algorithm on two uint64 magnitudes (codegen.h; math.gcd too). */
LLVMValueRef kj_cg_gcd_u64(kj_cg *cg, LLVMValueRef a, LLVMValueRef b)
{
    LLVMBuilderRef bd = cg->b;
    LLVMValueRef z = kj_cg_i64(cg, 0);
    LLVMBasicBlockRef entry = LLVMGetInsertBlock(bd), head = kj_cg_bb(cg, "npgcd.head"),
                      body = kj_cg_bb(cg, "npgcd.body"), done = kj_cg_bb(cg, "npgcd.done");
    LLVMBuildBr(bd, head);
    LLVMPositionBuilderAtEnd(bd, head);
    LLVMValueRef pa = LLVMBuildPhi(bd, cg->t_i64, "gcd.a"), pb = LLVMBuildPhi(bd, cg->t_i64, "gcd.b");
    LLVMBuildCondBr(bd, LLVMBuildICmp(bd, LLVMIntEQ, pb, z, ""), done, body);
    LLVMPositionBuilderAtEnd(bd, body);
    LLVMValueRef r = LLVMBuildURem(bd, pa, pb, "");
    LLVMBuildBr(bd, head);
    LLVMValueRef va[2] = {a, pb}, vb[2] = {b, r};
    LLVMBasicBlockRef from[2] = {entry, body};
    LLVMAddIncoming(pa, va, from, 2);
    LLVMAddIncoming(pb, vb, from, 2);
    LLVMPositionBuilderAtEnd(bd, done);
    return pa;
}

/* npy_gcd / npy_lcm of the loop's integer type t: the magnitudes (NumPy's
 * narrow loops compute in int, so gcd(int8(-128), 0) is 128, stored as
 * -128), gcd by Euclid, lcm = |a| / gcd * |b| (0 when gcd is 0). */
static LLVMValueRef gcd_lcm(kj_cg *cg, const kir_inst *in, bool lcm)
{
    LLVMBuilderRef b = cg->b;
    const kj_type *t = in->type;
    LLVMValueRef v[2];
    for (uint32_t k = 0; k < 2; k++) {
        v[k] = kj_cg_cast(cg, arg_as(cg, in, k, t), t, &T_I64);
        if (t->is_signed)
            v[k] = sel(cg, LLVMBuildICmp(b, LLVMIntSLT, v[k], kj_cg_i64(cg, 0), ""), LLVMBuildNeg(b, v[k], ""), v[k]);
    }
    LLVMValueRef g = kj_cg_gcd_u64(cg, v[0], v[1]);
    if (lcm) {
        LLVMValueRef zero = kj_cg_i64(cg, 0);
        LLVMValueRef g1 = sel(cg, LLVMBuildICmp(b, LLVMIntEQ, g, zero, ""), kj_cg_i64(cg, 1), g);
        LLVMValueRef l = LLVMBuildMul(b, LLVMBuildUDiv(b, v[0], g1, ""), v[1], "");
        g = sel(cg, LLVMBuildICmp(b, LLVMIntEQ, g, zero, ""), zero, l);
    }
    return kj_cg_cast(cg, g, &T_I64, t);
}

/* np.reciprocal: 1/x in a float type; in an integer type NumPy's loop
 * computes 1.0/x in double and converts: 1 and -1 give themselves, other
 * values 0, and 0 (1.0/0 is inf) gives what x86-64's conversion of inf
 * gives: the minimum of int32 and int64, 0 for the narrower and unsigned
 * types. */
static LLVMValueRef reciprocal(kj_cg *cg, const kj_type *t, LLVMValueRef x)
{
    LLVMBuilderRef b = cg->b;
    if (t->kind == KJ_T_FLOAT) return LLVMBuildFDiv(b, fconst(cg, t, 1.0, 1.0F), x, "");
    LLVMTypeRef it = kj_cg_type(cg, t);
    LLVMValueRef one = LLVMConstInt(it, 1, 0), zero = LLVMConstInt(it, 0, 0);
    LLVMValueRef r = sel(cg, LLVMBuildICmp(b, LLVMIntEQ, x, one, ""), one, zero);
    if (t->is_signed) r = sel(cg, LLVMBuildICmp(b, LLVMIntEQ, x, LLVMConstAllOnes(it), ""), x, r);
    bool minint = t->is_signed && t->bits >= 32;
    LLVMValueRef z = minint ? LLVMConstInt(it, 1ULL << (t->bits - 1), 0) : zero;
    return sel(cg, LLVMBuildICmp(b, LLVMIntEQ, x, zero, ""), z, r);
}

/* The float's bits as an integer of its width. */
static LLVMValueRef bits_of(kj_cg *cg, const kj_type *ft, LLVMValueRef x)
{
    return LLVMBuildBitCast(cg->b, x, ft->bits == 32 ? cg->t_i32 : cg->t_i64, "");
}

/* np.spacing as NumPy's results: the distance from x to the next float
 * away from zero (x's bits plus one, minus x); +0.0 and -0.0 give the
 * smallest positive subnormal; inf and NaN give NaN. */
static LLVMValueRef spacing(kj_cg *cg, const kj_type *ft, LLVMValueRef x)
{
    LLVMBuilderRef b = cg->b;
    LLVMTypeRef fty = kj_cg_type(cg, ft), ity = ft->bits == 32 ? cg->t_i32 : cg->t_i64;
    LLVMValueRef next = LLVMBuildBitCast(b, LLVMBuildAdd(b, bits_of(cg, ft, x), LLVMConstInt(ity, 1, 0), ""), fty, "");
    LLVMValueRef r = LLVMBuildFSub(b, next, x, "");
    LLVMValueRef tiny = LLVMBuildBitCast(b, LLVMConstInt(ity, 1, 0), fty, "");
    r = sel(cg, LLVMBuildFCmp(b, LLVMRealOEQ, x, fconst(cg, ft, 0.0, 0.0F), ""), tiny, r);
    LLVMValueRef ax = kj_cg_intrinsic(cg, "llvm.fabs", fty, &x, 1);
    LLVMValueRef bad = LLVMBuildFCmp(b, LLVMRealUEQ, ax, LLVMConstReal(fty, INFINITY), ""); /* inf or NaN */
    return sel(cg, bad, LLVMConstReal(fty, NAN), r);
}

/* np.ldexp(x, n): x * 2**n rounded once; n is the loop's int64. */
static LLVMValueRef ldexp_(kj_cg *cg, const kir_inst *in)
{
    const kj_type *ft = in->type;
    LLVMValueRef r = kj_cg_ldexp64(cg, arg_as(cg, in, 0, &T_F64), arg_as(cg, in, 1, &T_I64));
    return kj_cg_cast(cg, r, &T_F64, ft);
}

/* deg2rad / rad2deg: x * (pi/180) and x * (180/pi) with the constant
 * rounded in the loop's type, as NPY_PIf/180.0f. */
static LLVMValueRef angle(kj_cg *cg, const kj_type *ft, LLVMValueRef x, bool to_rad)
{
    float pif = (float)M_PI;
    LLVMValueRef k = to_rad ? fconst(cg, ft, M_PI / 180.0, pif / 180.0F) : fconst(cg, ft, 180.0 / M_PI, 180.0F / pif);
    return LLVMBuildFMul(cg->b, x, k, "");
}

LLVMValueRef kj_cg_npmath(kj_cg *cg, const kir_inst *in)
{
    kj_type buf;
    const kj_type *t = in->type, *ft = loop_float(cg, in, &buf);
    switch (in->aux) {
    case KJ_B_NP_GCD: return gcd_lcm(cg, in, false);
    case KJ_B_NP_LCM: return gcd_lcm(cg, in, true);
    case KJ_B_NP_LDEXP: return ldexp_(cg, in);
    case KJ_B_NP_FMAX: case KJ_B_NP_FMIN:
        return fminmax(cg, t, arg_as(cg, in, 0, t), arg_as(cg, in, 1, t), in->aux == KJ_B_NP_FMAX);
    case KJ_B_NP_RECIPROCAL: return reciprocal(cg, t, arg_as(cg, in, 0, t));
    case KJ_B_NP_SIGNBIT: {
        LLVMValueRef bits = bits_of(cg, ft, arg_as(cg, in, 0, ft));
        return LLVMBuildICmp(cg->b, LLVMIntSLT, bits, LLVMConstNull(LLVMTypeOf(bits)), "signbit");
    }
    default: break;
    }
    LLVMValueRef x = arg_as(cg, in, 0, ft);
    switch (in->aux) {
    case KJ_B_NP_LOGADDEXP: case KJ_B_NP_LOGADDEXP2:
        return logaddexp(cg, ft, x, arg_as(cg, in, 1, ft), in->aux == KJ_B_NP_LOGADDEXP2);
    case KJ_B_NP_FLOAT_POWER: case KJ_B_NP_NEXTAFTER: {
        LLVMValueRef a[2] = {x, arg_as(cg, in, 1, ft)};
        return libm(cg, in->aux == KJ_B_NP_FLOAT_POWER ? "pow" : "nextafter", ft, a, 2);
    }
    case KJ_B_NP_RINT: return kj_cg_intrinsic(cg, "llvm.rint", kj_cg_type(cg, ft), &x, 1);
    case KJ_B_NP_CBRT: return libm(cg, "cbrt", ft, &x, 1);
    case KJ_B_NP_DEG2RAD: case KJ_B_NP_RAD2DEG: return angle(cg, ft, x, in->aux == KJ_B_NP_DEG2RAD);
    default: return spacing(cg, ft, x); /* KJ_B_NP_SPACING */
    }
}
