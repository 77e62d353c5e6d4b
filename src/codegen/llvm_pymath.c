/* SPDX-License-Identifier: BSD-2-Clause */
/* llvm_pymath — math.degrees, radians, frexp, ldexp, modf, gcd, nextafter,
 * remainder (builtins_pymath.c) as target-neutral IR: arithmetic, bit
 * operations and LLVM intrinsics NVPTX selects, so that the same code runs
 * on the host and in kernels; nextafter/remainder go to the target's libm
 * (libdevice's __nv_* on the GPU). */
#include "codegen.h"

#include "../ir/builtins.h"

#include <math.h>

static const kj_type *type_of(kj_cg *cg, kir_ref r) { return cg->fn->kf->insts[r].type; }

static const kj_type T_I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};
static const kj_type T_F64 = {.kind = KJ_T_FLOAT, .bits = 64};

/* Argument k in type t (the typing converted it; a cast is a no-op then). */
static LLVMValueRef arg_as(kj_cg *cg, const kir_inst *in, uint32_t k, const kj_type *t)
{
    return kj_cg_cast(cg, kj_cg_val(cg, in->args[k]), type_of(cg, in->args[k]), t);
}

static LLVMValueRef f64c(kj_cg *cg, double v) { return LLVMConstReal(cg->t_f64, v); }
static LLVMValueRef i64c(kj_cg *cg, int64_t v) { return kj_cg_i64(cg, v); }

static LLVMValueRef sel(kj_cg *cg, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(cg->b, c, a, b, "");
}

static LLVMValueRef as_f64(kj_cg *cg, LLVMValueRef bits) { return LLVMBuildBitCast(cg->b, bits, cg->t_f64, ""); }
static LLVMValueRef as_i64(kj_cg *cg, LLVMValueRef x) { return LLVMBuildBitCast(cg->b, x, cg->t_i64, ""); }

/* frexp of a double: (m, e) with x = m * 2**e, 0.5 <= |m| < 1; 0, inf and
 * nan give (x, 0). Subnormals are scaled by 2**54 first. */
static void frexp64(kj_cg *cg, LLVMValueRef x, LLVMValueRef *m, LLVMValueRef *e)
{
    LLVMBuilderRef b = cg->b;
    LLVMValueRef emask = i64c(cg, 0x7ff);
    LLVMValueRef bexp = LLVMBuildAnd(b, LLVMBuildLShr(b, as_i64(cg, x), i64c(cg, 52), ""), emask, "");
    LLVMValueRef sub = LLVMBuildICmp(b, LLVMIntEQ, bexp, i64c(cg, 0), "");
    LLVMValueRef xs = sel(cg, sub, LLVMBuildFMul(b, x, f64c(cg, 0x1p54), ""), x);
    LLVMValueRef bits = as_i64(cg, xs);
    LLVMValueRef e2 = LLVMBuildAnd(b, LLVMBuildLShr(b, bits, i64c(cg, 52), ""), emask, "");
    e2 = LLVMBuildSub(b, e2, sel(cg, sub, i64c(cg, 54 + 1022), i64c(cg, 1022)), "");
    LLVMValueRef mb = LLVMBuildOr(b, LLVMBuildAnd(b, bits, i64c(cg, (int64_t)0x800fffffffffffffULL), ""),
                                  i64c(cg, (int64_t)1022 << 52), "");
    LLVMValueRef special = LLVMBuildOr(b, LLVMBuildFCmp(b, LLVMRealOEQ, x, f64c(cg, 0.0), ""),
                                       LLVMBuildICmp(b, LLVMIntEQ, bexp, emask, ""), "");
    *m = sel(cg, special, x, as_f64(cg, mb));
    *e = sel(cg, special, i64c(cg, 0), e2);
}

/* ldexp of a double as musl's scalbn: at most three multiplications by
 * powers of two, so that the result rounds once. */
LLVMValueRef kj_cg_ldexp64(kj_cg *cg, LLVMValueRef x, LLVMValueRef n)
{
    LLVMBuilderRef b = cg->b;
    LLVMValueRef y = x;
    for (int k = 0; k < 2; k++) {
        LLVMValueRef big = LLVMBuildICmp(b, LLVMIntSGT, n, i64c(cg, 1023), "");
        y = sel(cg, big, LLVMBuildFMul(b, y, f64c(cg, 0x1p1023), ""), y);
        n = sel(cg, big, LLVMBuildSub(b, n, i64c(cg, 1023), ""), n);
    }
    n = sel(cg, LLVMBuildICmp(b, LLVMIntSGT, n, i64c(cg, 1023), ""), i64c(cg, 1023), n);
    for (int k = 0; k < 2; k++) {
        LLVMValueRef small = LLVMBuildICmp(b, LLVMIntSLT, n, i64c(cg, -1022), "");
        y = sel(cg, small, LLVMBuildFMul(b, y, f64c(cg, 0x1p-1022 * 0x1p53), ""), y);
        n = sel(cg, small, LLVMBuildAdd(b, n, i64c(cg, 1022 - 53), ""), n);
    }
    n = sel(cg, LLVMBuildICmp(b, LLVMIntSLT, n, i64c(cg, -1022), ""), i64c(cg, -1022), n);
    LLVMValueRef scale = as_f64(cg, LLVMBuildShl(b, LLVMBuildAdd(b, n, i64c(cg, 0x3ff), ""), i64c(cg, 52), ""));
    return LLVMBuildFMul(b, y, scale, "");
}

static LLVMValueRef pair(kj_cg *cg, const kj_type *t, LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef s = LLVMGetUndef(kj_cg_type(cg, t));
    s = LLVMBuildInsertValue(cg->b, s, a, 0, "");
    return LLVMBuildInsertValue(cg->b, s, b, 1, "");
}

/* modf: (x - trunc(x), trunc(x)), the fraction with x's sign; inf gives
 * (±0.0, inf) as C's modf. */
static LLVMValueRef modf_(kj_cg *cg, const kir_inst *in, const kj_type *ft, LLVMValueRef x)
{
    LLVMTypeRef ty = kj_cg_type(cg, ft);
    LLVMValueRef t = kj_cg_intrinsic(cg, "llvm.trunc", ty, &x, 1);
    LLVMValueRef ax = kj_cg_intrinsic(cg, "llvm.fabs", ty, &x, 1);
    LLVMValueRef inf = LLVMBuildFCmp(cg->b, LLVMRealOEQ, ax, LLVMConstReal(ty, INFINITY), "");
    LLVMValueRef f[2] = {sel(cg, inf, LLVMConstReal(ty, 0.0), LLVMBuildFSub(cg->b, x, t, "")), x};
    return pair(cg, in->type, kj_cg_intrinsic(cg, "llvm.copysign", ty, f, 2), t);
}

/* gcd(a, b) of int64s: Euclid's algorithm on the magnitudes (unsigned, so
 * that gcd(-2**63, 0) is 2**63 as a uint64, -2**63 as an int64, as Numba). */
static LLVMValueRef gcd_(kj_cg *cg, LLVMValueRef a, LLVMValueRef b)
{
    LLVMBuilderRef bd = cg->b;
    LLVMValueRef z = i64c(cg, 0);
    a = sel(cg, LLVMBuildICmp(bd, LLVMIntSLT, a, z, ""), LLVMBuildNeg(bd, a, ""), a);
    b = sel(cg, LLVMBuildICmp(bd, LLVMIntSLT, b, z, ""), LLVMBuildNeg(bd, b, ""), b);
    return kj_cg_gcd_u64(cg, a, b); /* llvm_npmath.c */
}

LLVMValueRef kj_cg_pymath(kj_cg *cg, const kir_inst *in)
{
    if (in->aux == KJ_B_MATH_GCD) return kj_cg_cast(cg, gcd_(cg, arg_as(cg, in, 0, &T_I64), arg_as(cg, in, 1, &T_I64)),
                                                    &T_I64, in->type);
    const kj_type *ft = in->type->kind == KJ_T_TUPLE ? in->type->elems[0] : in->type;
    LLVMTypeRef ty = kj_cg_type(cg, ft);
    LLVMValueRef x = arg_as(cg, in, 0, ft);
    switch (in->aux) {
    case KJ_B_MATH_DEGREES: return LLVMBuildFMul(cg->b, x, LLVMConstReal(ty, 180.0 / M_PI), "");
    case KJ_B_MATH_RADIANS: return LLVMBuildFMul(cg->b, x, LLVMConstReal(ty, M_PI / 180.0), "");
    case KJ_B_MATH_MODF: return modf_(cg, in, ft, x);
    case KJ_B_MATH_FREXP: {
        LLVMValueRef m, e;
        frexp64(cg, kj_cg_cast(cg, x, ft, &T_F64), &m, &e);
        return pair(cg, in->type, kj_cg_cast(cg, m, &T_F64, ft), LLVMBuildTrunc(cg->b, e, cg->t_i32, ""));
    }
    case KJ_B_MATH_LDEXP: {
        LLVMValueRef r = kj_cg_ldexp64(cg, kj_cg_cast(cg, x, ft, &T_F64), arg_as(cg, in, 1, &T_I64));
        return kj_cg_cast(cg, r, &T_F64, ft);
    }
    default: { /* nextafter, remainder: the target's libm */
        LLVMValueRef a[2] = {x, arg_as(cg, in, 1, ft)};
        const char *name = in->aux == KJ_B_MATH_NEXTAFTER ? "nextafter" : "remainder";
        return kj_cg_libm(cg, ft->bits == 32 ? (in->aux == KJ_B_MATH_NEXTAFTER ? "nextafterf" : "remainderf") : name,
                          ty, a, 2);
    }
    }
}
