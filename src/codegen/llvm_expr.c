/* SPDX-License-Identifier: BSD-2-Clause */
/* Scalar instructions: constants, arithmetic with Python/NumPy semantics,
 * comparisons, conversions, tuples and direct calls.
 *
 * Integer arithmetic wraps (two's complement, as Numba): no nsw/nuw flags.
 * Integer // and % round toward negative infinity and raise
 * ZeroDivisionError for a zero divisor; float // and % follow NumPy's
 * npy_divmod (the sign of the divisor, inf/nan for a zero divisor). Float
 * / // % by zero raise ZeroDivisionError instead in functions with Python's
 * error model (kir_func.py_errors: host code and @jit, not kernels/ufuncs). */
#include "codegen.h"

LLVMValueRef kj_cg_fm(kj_cg *cg, LLVMValueRef v)
{
    if (cg->fn && cg->fn->fastmath && LLVMIsAInstruction(v) && LLVMCanValueUseFastMathFlags(v))
        LLVMSetFastMathFlags(v, LLVMFastMathAll);
    return v;
}

static bool is_float(const kj_type *t) { return t->kind == KJ_T_FLOAT; }
static bool is_bool(const kj_type *t) { return t->kind == KJ_T_BOOL; }

LLVMValueRef kj_cg_less(kj_cg *cg, const kj_type *t, LLVMValueRef x, LLVMValueRef y)
{
    if (is_float(t)) return kj_cg_fm(cg, LLVMBuildFCmp(cg->b, LLVMRealOLT, x, y, ""));
    return LLVMBuildICmp(cg->b, kj_cg_is_signed(t) ? LLVMIntSLT : LLVMIntULT, x, y, "");
}

static LLVMValueRef fconst(LLVMValueRef like, double v) { return LLVMConstReal(LLVMTypeOf(like), v); }
static LLVMValueRef iconst(LLVMValueRef like, int64_t v)
{
    return LLVMConstInt(LLVMTypeOf(like), (unsigned long long)v, 1);
}

static LLVMValueRef sel(kj_cg *cg, LLVMValueRef c, LLVMValueRef x, LLVMValueRef y)
{
    return kj_cg_fm(cg, LLVMBuildSelect(cg->b, c, x, y, ""));
}

/* ---- integer // and % ---- */

/* Python's floor division and modulo on integers. b == -1 is taken apart
 * because sdiv INT_MIN, -1 traps on x86 (the result wraps, as in NumPy). */
static LLVMValueRef int_divmod(kj_cg *cg, const kir_inst *in, LLVMValueRef a, LLVMValueRef b, bool div)
{
    LLVMBuilderRef B = cg->b;
    if (!(in->aux & KIR_AUX_NONZERO))
        kj_cg_raise_if(cg, LLVMBuildICmp(B, LLVMIntEQ, b, iconst(b, 0), ""), KJ_RT_ZERO_DIVISION,
                       "integer division or modulo by zero", in->span);
    if (!kj_cg_is_signed(in->type))
        return div ? LLVMBuildUDiv(B, a, b, "") : LLVMBuildURem(B, a, b, "");
    LLVMValueRef m1 = LLVMBuildICmp(B, LLVMIntEQ, b, iconst(b, -1), "");
    LLVMValueRef bs = LLVMBuildSelect(B, m1, iconst(b, 1), b, "");
    LLVMValueRef q = LLVMBuildSDiv(B, a, bs, ""), r = LLVMBuildSRem(B, a, bs, "");
    /* Truncation rounded toward zero; step down when the signs differ. */
    LLVMValueRef fix = LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntNE, r, iconst(r, 0), ""),
                                    LLVMBuildICmp(B, LLVMIntSLT, LLVMBuildXor(B, r, b, ""), iconst(r, 0), ""),
                                    "");
    if (div) {
        q = LLVMBuildSub(B, q, LLVMBuildZExt(B, fix, LLVMTypeOf(q), ""), "");
        return LLVMBuildSelect(B, m1, LLVMBuildNeg(B, a, ""), q, "floordiv");
    }
    return LLVMBuildSelect(B, fix, LLVMBuildAdd(B, r, b, ""), r, "mod");
}

/* ---- float // and % (NumPy's npy_divmod) ---- */

static LLVMValueRef float_divmod(kj_cg *cg, LLVMValueRef a, LLVMValueRef b, bool div)
{
    LLVMBuilderRef B = cg->b;
    LLVMValueRef zero = fconst(a, 0.0);
    LLVMValueRef mod = kj_cg_fm(cg, LLVMBuildFRem(B, a, b, ""));
    LLVMValueRef bzero = kj_cg_fm(cg, LLVMBuildFCmp(B, LLVMRealOEQ, b, zero, ""));
    LLVMValueRef nz = kj_cg_fm(cg, LLVMBuildFCmp(B, LLVMRealUNE, mod, zero, ""));
    LLVMValueRef bneg = kj_cg_fm(cg, LLVMBuildFCmp(B, LLVMRealOLT, b, zero, ""));
    LLVMValueRef mneg = kj_cg_fm(cg, LLVMBuildFCmp(B, LLVMRealOLT, mod, zero, ""));
    LLVMValueRef adj = LLVMBuildAnd(B, nz, LLVMBuildICmp(B, LLVMIntNE, bneg, mneg, ""), "");
    if (!div) {
        LLVMValueRef m = sel(cg, adj, kj_cg_fm(cg, LLVMBuildFAdd(B, mod, b, "")), mod);
        LLVMValueRef z[2] = {zero, b};
        m = sel(cg, nz, m, kj_cg_intrinsic(cg, "llvm.copysign", LLVMTypeOf(a), z, 2));
        return sel(cg, bzero, mod, m);
    }
    LLVMValueRef q = kj_cg_fm(cg, LLVMBuildFDiv(B, kj_cg_fm(cg, LLVMBuildFSub(B, a, mod, "")), b, ""));
    q = sel(cg, adj, kj_cg_fm(cg, LLVMBuildFSub(B, q, fconst(a, 1.0), "")), q);
    /* Snap to the nearest integer: (a - mod) / b is only nearly integral. */
    LLVMValueRef fl = kj_cg_intrinsic(cg, "llvm.floor", LLVMTypeOf(a), &q, 1);
    LLVMValueRef up = kj_cg_fm(cg, LLVMBuildFCmp(B, LLVMRealOGT, kj_cg_fm(cg, LLVMBuildFSub(B, q, fl, "")),
                                                 fconst(a, 0.5), ""));
    fl = sel(cg, up, kj_cg_fm(cg, LLVMBuildFAdd(B, fl, fconst(a, 1.0), "")), fl);
    LLVMValueRef ab = kj_cg_fm(cg, LLVMBuildFDiv(B, a, b, ""));
    LLVMValueRef z[2] = {zero, ab};
    LLVMValueRef qz = kj_cg_fm(cg, LLVMBuildFCmp(B, LLVMRealUNE, q, zero, ""));
    fl = sel(cg, qz, fl, kj_cg_intrinsic(cg, "llvm.copysign", LLVMTypeOf(a), z, 2));
    return sel(cg, bzero, ab, fl);
}

/* ---- integer ** ---- */

/* a ** b by repeated squaring. A negative exponent follows Numba: 0 raises
 * ZeroDivisionError, 1 and -1 give ±1, anything else 0. */
static LLVMValueRef int_pow(kj_cg *cg, const kir_inst *in, LLVMValueRef a, LLVMValueRef b)
{
    LLVMBuilderRef B = cg->b;
    LLVMTypeRef ty = LLVMTypeOf(a);
    LLVMValueRef zero = iconst(a, 0), one = iconst(a, 1), m1 = iconst(a, -1);
    LLVMBasicBlockRef start = LLVMGetInsertBlock(B), negbb = NULL;
    LLVMBasicBlockRef head = kj_cg_bb(cg, "pow"), body = kj_cg_bb(cg, "pow.step"),
                      done = kj_cg_bb(cg, "pow.done");
    LLVMValueRef negres = NULL;
    if (kj_cg_is_signed(in->type)) {
        LLVMBasicBlockRef neg = kj_cg_bb(cg, "pow.neg");
        LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, b, zero, ""), neg, head);
        LLVMPositionBuilderAtEnd(B, neg);
        kj_cg_raise_if(cg, LLVMBuildICmp(B, LLVMIntEQ, a, zero, ""), KJ_RT_ZERO_DIVISION,
                       "0 cannot be raised to a negative power", in->span);
        LLVMValueRef sign = LLVMBuildSelect(B, LLVMBuildTrunc(B, b, cg->t_i1, ""), m1, one, "");
        LLVMValueRef unit = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, a, m1, ""), sign, zero, "");
        negres = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, a, one, ""), one, unit, "");
        negbb = LLVMGetInsertBlock(B);
        LLVMBuildBr(B, done);
    } else {
        LLVMBuildBr(B, head);
    }
    /* head: while e != 0 { if e & 1: r *= x; x *= x; e >>= 1 } */
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef r = LLVMBuildPhi(B, ty, "r"), x = LLVMBuildPhi(B, ty, "x"), e = LLVMBuildPhi(B, ty, "e");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, e, zero, ""), done, body);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef r2 =
        LLVMBuildSelect(B, LLVMBuildTrunc(B, e, cg->t_i1, ""), LLVMBuildMul(B, r, x, ""), r, "");
    LLVMValueRef x2 = LLVMBuildMul(B, x, x, ""), e2 = LLVMBuildLShr(B, e, one, "");
    LLVMBuildBr(B, head);
    LLVMBasicBlockRef from[2] = {start, body};
    LLVMValueRef rin[2] = {one, r2}, xin[2] = {a, x2}, ein[2] = {b, e2};
    LLVMAddIncoming(r, rin, from, 2);
    LLVMAddIncoming(x, xin, from, 2);
    LLVMAddIncoming(e, ein, from, 2);
    LLVMPositionBuilderAtEnd(B, done);
    if (!negbb) return r;
    LLVMValueRef res = LLVMBuildPhi(B, ty, "pow");
    LLVMValueRef vin[2] = {negres, r};
    LLVMBasicBlockRef vfrom[2] = {negbb, head};
    LLVMAddIncoming(res, vin, vfrom, 2);
    return res;
}

/* ---- shifts (NumPy: a count >= the width shifts everything out) ---- */

static LLVMValueRef shift(kj_cg *cg, const kir_inst *in, LLVMValueRef a, LLVMValueRef b)
{
    LLVMBuilderRef B = cg->b;
    unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(a));
    LLVMValueRef big = LLVMBuildICmp(B, LLVMIntUGE, b, iconst(b, w), "");
    LLVMValueRef zero = iconst(a, 0);
    if (in->op == KIR_SHL)
        return LLVMBuildSelect(B, big, zero, LLVMBuildShl(B, a, LLVMBuildSelect(B, big, zero, b, ""), ""),
                               "");
    if (kj_cg_is_signed(in->type)) /* arithmetic: a count past the width fills with the sign */
        return LLVMBuildAShr(B, a, LLVMBuildSelect(B, big, iconst(b, w - 1), b, ""), "");
    return LLVMBuildSelect(B, big, zero, LLVMBuildLShr(B, a, LLVMBuildSelect(B, big, zero, b, ""), ""), "");
}

/* ---- binary arithmetic ---- */

/* Python's error model: a float / // % whose divisor is ±0.0 raises with
 * CPython's message (NaN divisors do not: NaN != 0). The compare carries no
 * fast-math flags, so fastmath=True keeps the check, as in Numba. The raise
 * is a noreturn cold call, so the branch is laid out as never taken. */
static void float_zero_check(kj_cg *cg, const kir_inst *in, LLVMValueRef b)
{
    const char *msg = in->op == KIR_DIV ? "float division by zero"
                    : in->op == KIR_FLOORDIV ? "float floor division by zero"
                    : "float modulo";
    LLVMValueRef z = LLVMBuildFCmp(cg->b, LLVMRealOEQ, b, fconst(b, 0.0), "divisor.zero");
    kj_cg_raise_if(cg, z, KJ_RT_ZERO_DIVISION, msg, in->span);
}

static LLVMValueRef float_arith(kj_cg *cg, const kir_inst *in, LLVMValueRef a, LLVMValueRef b)
{
    LLVMBuilderRef B = cg->b;
    if (cg->fn->kf->py_errors && (in->op == KIR_DIV || in->op == KIR_FLOORDIV || in->op == KIR_MOD))
        float_zero_check(cg, in, b);
    switch ((kir_op)in->op) {
    case KIR_ADD: return kj_cg_fm(cg, LLVMBuildFAdd(B, a, b, ""));
    case KIR_SUB: return kj_cg_fm(cg, LLVMBuildFSub(B, a, b, ""));
    case KIR_MUL: return kj_cg_fm(cg, LLVMBuildFMul(B, a, b, ""));
    case KIR_DIV: return kj_cg_fm(cg, LLVMBuildFDiv(B, a, b, ""));
    case KIR_FLOORDIV: return float_divmod(cg, a, b, true);
    case KIR_MOD: return float_divmod(cg, a, b, false);
    case KIR_POW: {
        LLVMValueRef args[2] = {a, b};
        return kj_cg_intrinsic(cg, "llvm.pow", LLVMTypeOf(a), args, 2);
    }
    default:
        kj_cg_fail(cg, in->span, "'%s' on %s", kir_op_name((kir_op)in->op), kj_type_str(in->type));
        return a;
    }
}

static LLVMValueRef int_arith(kj_cg *cg, const kir_inst *in, LLVMValueRef a, LLVMValueRef b)
{
    LLVMBuilderRef B = cg->b;
    bool bl = is_bool(in->type); /* NumPy: bool + is or, * is and */
    switch ((kir_op)in->op) {
    case KIR_ADD: return bl ? LLVMBuildOr(B, a, b, "") : LLVMBuildAdd(B, a, b, "");
    case KIR_SUB: return bl ? LLVMBuildXor(B, a, b, "") : LLVMBuildSub(B, a, b, "");
    case KIR_MUL: return bl ? LLVMBuildAnd(B, a, b, "") : LLVMBuildMul(B, a, b, "");
    case KIR_FLOORDIV: return int_divmod(cg, in, a, b, true);
    case KIR_MOD: return int_divmod(cg, in, a, b, false);
    case KIR_POW: return int_pow(cg, in, a, b);
    case KIR_AND: return LLVMBuildAnd(B, a, b, "");
    case KIR_OR: return LLVMBuildOr(B, a, b, "");
    case KIR_XOR: return LLVMBuildXor(B, a, b, "");
    case KIR_SHL:
    case KIR_SHR: return shift(cg, in, a, b);
    default:
        kj_cg_fail(cg, in->span, "'%s' on %s", kir_op_name((kir_op)in->op), kj_type_str(in->type));
        return a;
    }
}

static LLVMValueRef arith(kj_cg *cg, const kir_inst *in)
{
    if (in->type->kind == KJ_T_ARRAY) return kj_cg_array_arith(cg, in); /* elementwise */
    LLVMValueRef a = kj_cg_val(cg, in->a), b = kj_cg_val(cg, in->b);
    if (in->type->kind == KJ_T_COMPLEX) return kj_cg_complex_arith(cg, in, a, b);
    return is_float(in->type) ? float_arith(cg, in, a, b) : int_arith(cg, in, a, b);
}

/* NEG, NOT, INVERT */
static LLVMValueRef unary(kj_cg *cg, const kir_inst *in)
{
    if (in->type->kind == KJ_T_ARRAY) return kj_cg_array_arith(cg, in); /* elementwise */
    LLVMValueRef a = kj_cg_val(cg, in->a);
    if (in->op == KIR_NEG) {
        if (in->type->kind == KJ_T_COMPLEX) return kj_cg_complex_neg(cg, in, a);
        if (is_float(in->type)) return kj_cg_fm(cg, LLVMBuildFNeg(cg->b, a, ""));
        return LLVMBuildNeg(cg->b, a, "");
    }
    return LLVMBuildNot(cg->b, a, ""); /* NOT on bool; INVERT: ~ on ints, not on bool */
}

/* EQ .. GE on scalars of one type. */
static LLVMValueRef compare(kj_cg *cg, const kir_inst *in)
{
    if (in->type->kind == KJ_T_ARRAY) return kj_cg_array_arith(cg, in); /* elementwise */
    const kj_type *t = cg->fn->kf->insts[in->a].type;
    LLVMValueRef a = kj_cg_val(cg, in->a), b = kj_cg_val(cg, in->b);
    if (!kj_is_scalar(t)) {
        kj_cg_fail(cg, in->span, "comparison '%s' of %s is not supported by the host code generator",
                   kir_op_name((kir_op)in->op), kj_type_str(t));
        return LLVMGetUndef(kj_cg_type(cg, in->type));
    }
    if (t->kind == KJ_T_COMPLEX) return kj_cg_complex_compare(cg, in, a, b);
    int k = in->op - KIR_EQ; /* EQ NE LT LE GT GE */
    if (is_float(t)) {
        static const LLVMRealPredicate fp[6] = {LLVMRealOEQ, LLVMRealUNE, LLVMRealOLT,
                                                LLVMRealOLE, LLVMRealOGT, LLVMRealOGE};
        return kj_cg_fm(cg, LLVMBuildFCmp(cg->b, fp[k], a, b, ""));
    }
    static const LLVMIntPredicate sp[6] = {LLVMIntEQ,  LLVMIntNE,  LLVMIntSLT,
                                           LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
    static const LLVMIntPredicate up[6] = {LLVMIntEQ,  LLVMIntNE,  LLVMIntULT,
                                           LLVMIntULE, LLVMIntUGT, LLVMIntUGE};
    return LLVMBuildICmp(cg->b, kj_cg_is_signed(t) ? sp[k] : up[k], a, b, "");
}

/* ---- conversions ---- */

/* float → signed integer of `bits` (32 or 64) as x86-64 truncates: values
 * outside the range and NaN give the minimum (matches the runtime's
 * NumPy-compatible casts, and avoids LLVM's poison). */
static LLVMValueRef trunc_to(kj_cg *cg, LLVMValueRef x, unsigned bits)
{
    LLVMBuilderRef B = cg->b;
    double lo = bits == 64 ? -9223372036854775808.0 : -2147483649.0;
    double hi = bits == 64 ? 9223372036854775808.0 : 2147483648.0;
    LLVMTypeRef ty = LLVMIntTypeInContext(cg->ctx, bits);
    LLVMValueRef in =
        LLVMBuildAnd(B, LLVMBuildFCmp(B, bits == 64 ? LLVMRealOGE : LLVMRealOGT, x, fconst(x, lo), ""),
                     LLVMBuildFCmp(B, LLVMRealOLT, x, fconst(x, hi), ""), "");
    LLVMValueRef min =
        LLVMConstInt(ty, bits == 64 ? (unsigned long long)INT64_MIN : (unsigned long long)INT32_MIN, 1);
    return LLVMBuildSelect(B, in, LLVMBuildFPToSI(B, x, ty, ""), min, "");
}

static LLVMValueRef float_to_int(kj_cg *cg, LLVMValueRef x, const kj_type *to)
{
    LLVMBuilderRef B = cg->b;
    LLVMTypeRef ty = kj_cg_type(cg, to);
    if (to->bits < 32 || (to->bits == 32 && to->is_signed))
        return LLVMBuildTrunc(B, trunc_to(cg, x, 32), ty, "");
    if (to->bits == 32 || to->is_signed) return LLVMBuildTrunc(B, trunc_to(cg, x, 64), ty, "");
    /* uint64: values from 2**63 up are shifted down first */
    LLVMValueRef two63 = fconst(x, 9223372036854775808.0);
    LLVMValueRef big = LLVMBuildFCmp(B, LLVMRealOGE, x, two63, "");
    LLVMValueRef hi = LLVMBuildXor(B, trunc_to(cg, LLVMBuildFSub(B, x, two63, ""), 64),
                                   LLVMConstInt(cg->t_i64, 1ULL << 63, 0), "");
    return LLVMBuildSelect(B, big, hi, trunc_to(cg, x, 64), "");
}

LLVMValueRef kj_cg_cast(kj_cg *cg, LLVMValueRef v, const kj_type *from, const kj_type *to)
{
    LLVMBuilderRef B = cg->b;
    if (from != to && kj_is_dt(from) && kj_is_dt(to)) return kj_cg_dt_convert(cg, v, from, to); /* llvm_datetime.c */
    if (from == to || !kj_is_scalar(from) || !kj_is_scalar(to)) return v;
    if (from->kind == KJ_T_COMPLEX || to->kind == KJ_T_COMPLEX) return kj_cg_complex_cast(cg, v, from, to);
    LLVMTypeRef ty = kj_cg_type(cg, to);
    if (is_bool(to)) {
        if (is_float(from)) return LLVMBuildFCmp(B, LLVMRealUNE, v, fconst(v, 0.0), ""); /* nan is true */
        return LLVMBuildICmp(B, LLVMIntNE, v, iconst(v, 0), "");
    }
    if (is_float(to)) {
        if (is_float(from))
            return to->bits > from->bits ? LLVMBuildFPExt(B, v, ty, "")
                                         : kj_cg_fm(cg, LLVMBuildFPTrunc(B, v, ty, ""));
        return kj_cg_is_signed(from) ? LLVMBuildSIToFP(B, v, ty, "") : LLVMBuildUIToFP(B, v, ty, "");
    }
    if (is_float(from)) return float_to_int(cg, v, to);
    unsigned fw = LLVMGetIntTypeWidth(LLVMTypeOf(v)), tw = LLVMGetIntTypeWidth(ty);
    if (fw == tw) return v;
    if (fw > tw) return LLVMBuildTrunc(B, v, ty, "");
    return kj_cg_is_signed(from) ? LLVMBuildSExt(B, v, ty, "") : LLVMBuildZExt(B, v, ty, "");
}

/* ---- tuples and calls ---- */

static LLVMValueRef tuple(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef t = LLVMGetUndef(kj_cg_type(cg, in->type));
    for (uint32_t k = 0; k < in->nargs; k++)
        t = LLVMBuildInsertValue(cg->b, t, kj_cg_val(cg, in->args[k]), k, "");
    return t;
}

static LLVMValueRef call(kj_cg *cg, const kir_inst *in)
{
    const kir_func *f = in->fn;
    LLVMValueRef callee = f ? LLVMGetNamedFunction(cg->mod, kj_cg_fn_name(cg, f)) : NULL;
    if (!callee) {
        kj_cg_fail(cg, in->span, "call of '%s', which is not compiled for the host",
                   f ? f->name : "?");
        return LLVMGetUndef(kj_cg_type(cg, in->type));
    }
    LLVMValueRef *args = KJ_NEWN(cg->a, LLVMValueRef, in->nargs + 1);
    args[0] = cg->fn->rt;
    for (uint32_t k = 0; k < in->nargs; k++) args[k + 1] = kj_cg_val(cg, in->args[k]);
    LLVMValueRef r = LLVMBuildCall2(cg->b, LLVMGlobalGetValueType(callee), callee, args, in->nargs + 1, "");
    if (!kj_cg_is_void(f->ret)) return r;
    return in->type ? kj_cg_zero(cg, in->type) : NULL;
}

/* ---- dispatch ---- */

LLVMValueRef kj_cg_inst(kj_cg *cg, kir_ref r)
{
    const kir_inst *in = &cg->fn->kf->insts[r];
    switch ((kir_op)in->op) {
    case KIR_CONST_INT: return LLVMConstInt(kj_cg_type(cg, in->type), (unsigned long long)in->i, 1);
    case KIR_CONST_FLOAT: return LLVMConstReal(kj_cg_type(cg, in->type), in->f);
    case KIR_CONST_STR: return kj_cg_cstr(cg, in->s);
    case KIR_CONST_NONE: return kj_cg_zero(cg, in->type);
    case KIR_CONST_ARRAY: return kj_cg_frozen_array(cg, in);
    case KIR_MODULE_GET: return kj_cg_module_get(cg, in);
    case KIR_ADD: case KIR_SUB: case KIR_MUL: case KIR_DIV: case KIR_FLOORDIV: case KIR_MOD:
    case KIR_POW: case KIR_AND: case KIR_OR: case KIR_XOR: case KIR_SHL: case KIR_SHR:
        return arith(cg, in);
    case KIR_NEG: case KIR_NOT: case KIR_INVERT: return unary(cg, in);
    case KIR_EQ: case KIR_NE: case KIR_LT: case KIR_LE: case KIR_GT: case KIR_GE: return compare(cg, in);
    case KIR_CAST: return kj_cg_cast(cg, kj_cg_val(cg, in->a), cg->fn->kf->insts[in->a].type, in->type);
    case KIR_SELECT: return sel(cg, kj_cg_val(cg, in->a), kj_cg_val(cg, in->b), kj_cg_val(cg, in->c));
    case KIR_TUPLE: return tuple(cg, in);
    case KIR_TUPLE_GET: return LLVMBuildExtractValue(cg->b, kj_cg_val(cg, in->a), (unsigned)in->i, "");
    case KIR_CALL: return call(cg, in);
    case KIR_ARRAY_DIM: case KIR_ARRAY_LOAD: case KIR_ARRAY_STORE: case KIR_ARRAY_VIEW: case KIR_SLICE:
    case KIR_WRAP_INDEX: case KIR_BOUNDS_CHECK:
        return kj_cg_array_inst(cg, r);
    case KIR_BUILTIN: return kj_cg_builtin(cg, r);
    case KIR_UFUNC_CALL: return kj_cg_ufunc_call(cg, r);
    case KIR_GEN_NEXT: case KIR_GEN_VALUE: return kj_cg_gen_inst(cg, in); /* llvm_pygen.c */
    default:
        kj_cg_fail(cg, in->span, "'%s' is not supported by the host code generator yet",
                   kir_op_name((kir_op)in->op));
        return in->type && !kj_cg_is_void(in->type) ? LLVMGetUndef(kj_cg_type(cg, in->type)) : NULL;
    }
}
