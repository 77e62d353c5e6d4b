/* SPDX-License-Identifier: BSD-2-Clause */
/* llvm_pybuiltin — chr, ord, repr of a str (run-time calls, str_pybuiltin.c)
 * and hash (builtins_pybuiltin.c) in target-neutral IR, as CPython hashes
 * and Numba follows it (numba/cpython/hashing.py): an integer is its value
 * modulo the Mersenne prime P = 2**61 - 1 with its sign; a float m·2**e
 * (m the 53-bit integer mantissa) is m·2**e modulo P, which is m rotated
 * left by e mod 61 within 61 bits (2**61 ≡ 1), with the float's sign, ±inf
 * ±314159 and nan 0; a complex hash(re) + 1000003·hash(im); a tuple
 * CPython 3.8's xxHash-based combination of its items' hashes. -1 becomes
 * -2 everywhere (CPython's error value). */
#include "codegen.h"

#include "../ir/builtins.h"

#define P61 ((int64_t)0x1fffffffffffffffLL)

static LLVMValueRef i64c(kj_cg *cg, int64_t v) { return kj_cg_i64(cg, v); }
static LLVMValueRef sel(kj_cg *cg, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(cg->b, c, a, b, "");
}
static LLVMValueRef eq(kj_cg *cg, LLVMValueRef a, int64_t v) { return LLVMBuildICmp(cg->b, LLVMIntEQ, a, i64c(cg, v), ""); }

/* -1 → -2 */
static LLVMValueRef not_m1(kj_cg *cg, LLVMValueRef h) { return sel(cg, eq(cg, h, -1), i64c(cg, -2), h); }

static LLVMValueRef hash_int(kj_cg *cg, LLVMValueRef v, const kj_type *t)
{
    LLVMBuilderRef b = cg->b;
    bool sgn = t->kind != KJ_T_BOOL && kj_cg_is_signed(t);
    if (LLVMGetIntTypeWidth(LLVMTypeOf(v)) < 64) v = sgn ? LLVMBuildSExt(b, v, cg->t_i64, "") : LLVMBuildZExt(b, v, cg->t_i64, "");
    if (!sgn) return LLVMBuildURem(b, v, i64c(cg, P61), "");
    LLVMValueRef neg = LLVMBuildICmp(b, LLVMIntSLT, v, i64c(cg, 0), "");
    LLVMValueRef a = sel(cg, neg, LLVMBuildNeg(b, v, ""), v); /* INT64_MIN: 2**63 as unsigned */
    LLVMValueRef h = LLVMBuildURem(b, a, i64c(cg, P61), "");
    return not_m1(cg, sel(cg, neg, LLVMBuildNeg(b, h, ""), h));
}

static LLVMValueRef hash_float(kj_cg *cg, LLVMValueRef v)
{
    LLVMBuilderRef b = cg->b;
    if (LLVMTypeOf(v) != cg->t_f64) v = LLVMBuildFPExt(b, v, cg->t_f64, "");
    LLVMValueRef bits = LLVMBuildBitCast(b, v, cg->t_i64, "");
    LLVMValueRef ef = LLVMBuildAnd(b, LLVMBuildLShr(b, bits, i64c(cg, 52), ""), i64c(cg, 0x7ff), "");
    LLVMValueRef frac = LLVMBuildAnd(b, bits, i64c(cg, ((int64_t)1 << 52) - 1), "");
    LLVMValueRef sub = eq(cg, ef, 0);
    LLVMValueRef m = sel(cg, sub, frac, LLVMBuildOr(b, frac, i64c(cg, (int64_t)1 << 52), ""));
    LLVMValueRef e = sel(cg, sub, i64c(cg, -1074), LLVMBuildSub(b, ef, i64c(cg, 1075), ""));
    LLVMValueRef r = LLVMBuildSRem(b, e, i64c(cg, 61), ""); /* e mod 61 in [0, 61) */
    r = sel(cg, LLVMBuildICmp(b, LLVMIntSLT, r, i64c(cg, 0), ""), LLVMBuildAdd(b, r, i64c(cg, 61), ""), r);
    LLVMValueRef x = LLVMBuildOr(b, LLVMBuildAnd(b, LLVMBuildShl(b, m, r, ""), i64c(cg, P61), ""),
                                 LLVMBuildLShr(b, m, LLVMBuildSub(b, i64c(cg, 61), r, ""), ""), "");
    LLVMValueRef neg = LLVMBuildICmp(b, LLVMIntSLT, bits, i64c(cg, 0), "");
    LLVMValueRef h = not_m1(cg, sel(cg, neg, LLVMBuildNeg(b, x, ""), x));
    LLVMValueRef inf = eq(cg, ef, 0x7ff);
    LLVMValueRef nan = LLVMBuildICmp(b, LLVMIntNE, frac, i64c(cg, 0), "");
    LLVMValueRef special = sel(cg, nan, i64c(cg, 0), sel(cg, neg, i64c(cg, -314159), i64c(cg, 314159)));
    return sel(cg, inf, special, h);
}

static LLVMValueRef hash_of(kj_cg *cg, LLVMValueRef v, const kj_type *t);

/* CPython 3.8+'s tuplehash (xxHash's primes and rotation) */
static LLVMValueRef hash_tuple(kj_cg *cg, LLVMValueRef v, const kj_type *t)
{
    LLVMBuilderRef b = cg->b;
    const uint64_t p1 = 11400714785074694791ULL, p2 = 14029467366897019727ULL, p5 = 2870177450012600261ULL;
    LLVMValueRef acc = i64c(cg, (int64_t)p5);
    for (uint32_t i = 0; i < t->n; i++) {
        LLVMValueRef lane = hash_of(cg, LLVMBuildExtractValue(b, v, i, ""), t->elems[i]);
        acc = LLVMBuildAdd(b, acc, LLVMBuildMul(b, lane, i64c(cg, (int64_t)p2), ""), "");
        acc = LLVMBuildOr(b, LLVMBuildShl(b, acc, i64c(cg, 31), ""), LLVMBuildLShr(b, acc, i64c(cg, 33), ""), "");
        acc = LLVMBuildMul(b, acc, i64c(cg, (int64_t)p1), "");
    }
    acc = LLVMBuildAdd(b, acc, i64c(cg, (int64_t)((uint64_t)t->n ^ (p5 ^ 3527539ULL))), "");
    return sel(cg, eq(cg, acc, -1), i64c(cg, 1546275796), acc);
}

static LLVMValueRef hash_of(kj_cg *cg, LLVMValueRef v, const kj_type *t)
{
    switch (t->kind) {
    case KJ_T_FLOAT: return hash_float(cg, v);
    case KJ_T_COMPLEX: {
        LLVMValueRef re = hash_float(cg, LLVMBuildExtractValue(cg->b, v, 0, ""));
        LLVMValueRef im = hash_float(cg, LLVMBuildExtractValue(cg->b, v, 1, ""));
        return not_m1(cg, LLVMBuildAdd(cg->b, re, LLVMBuildMul(cg->b, im, i64c(cg, 1000003), ""), ""));
    }
    case KJ_T_TUPLE: return hash_tuple(cg, v, t);
    default: return hash_int(cg, v, t);
    }
}

LLVMValueRef kj_cg_pybuiltin(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef a = kj_cg_val(cg, in->args[0]);
    switch (in->aux) {
    case KJ_B_HASH: return hash_of(cg, a, cg->fn->kf->insts[in->args[0]].type);
    case KJ_B_CHR: {
        LLVMValueRef v[4] = {cg->fn->rt, a, kj_cg_line(cg, in), kj_cg_col(cg, in)};
        return kj_cg_rtcall(cg, KJ_RTF_STR_CHR, v, 4);
    }
    case KJ_B_ORD: {
        LLVMValueRef v[4] = {cg->fn->rt, a, kj_cg_line(cg, in), kj_cg_col(cg, in)};
        return kj_cg_rtcall(cg, KJ_RTF_STR_ORD, v, 4);
    }
    default: { /* REPR of a str */
        LLVMValueRef v[2] = {cg->fn->rt, a};
        return kj_cg_rtcall(cg, KJ_RTF_STR_REPR, v, 2);
    }
    }
}
