/* SPDX-License-Identifier: BSD-2-Clause */
/* llvm_pyrandom — the `random` module's built-ins (builtins_pyrandom.c) in
 * host code: one runtime call each (rt_pyrandom.c, the stream rt->pyrng). */
#include "codegen.h"

#include "../ir/builtins.h"
#include "../runtime/pyrandom.h"

static const kj_type T_I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};
static const kj_type T_U64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = false};
static const kj_type T_F64 = {.kind = KJ_T_FLOAT, .bits = 64};

static const kj_type *type_of(kj_cg *cg, kir_ref r) { return cg->fn->kf->insts[r].type; }

/* Argument k, absent (or None) as 0. */
static kir_ref arg(kj_cg *cg, const kir_inst *in, uint32_t k)
{
    if (k >= in->nargs || !in->args[k]) return 0;
    return cg->fn->kf->insts[in->args[k]].type->kind == KJ_T_NONE ? 0 : in->args[k];
}

static LLVMValueRef i64_or(kj_cg *cg, const kir_inst *in, uint32_t k, int64_t dflt)
{
    kir_ref r = arg(cg, in, k);
    return r ? kj_cg_cast(cg, kj_cg_val(cg, r), type_of(cg, r), &T_I64) : kj_cg_i64(cg, dflt);
}

static LLVMValueRef f64_or(kj_cg *cg, const kir_inst *in, uint32_t k, double dflt)
{
    kir_ref r = arg(cg, in, k);
    return r ? kj_cg_cast(cg, kj_cg_val(cg, r), type_of(cg, r), &T_F64) : LLVMConstReal(cg->t_f64, dflt);
}

static kj_pyrand dist_of(kj_cg *cg, const kir_inst *in)
{
    switch (in->aux) {
    case KJ_B_RANDOM_RANDOM: return KJ_PR_RANDOM;
    case KJ_B_RANDOM_UNIFORM: return KJ_PR_UNIFORM;
    case KJ_B_RANDOM_GAUSS: case KJ_B_RANDOM_NORMALVARIATE: return KJ_PR_GAUSS;
    case KJ_B_RANDOM_TRIANGULAR: return arg(cg, in, 2) ? KJ_PR_TRIANGULAR_MODE : KJ_PR_TRIANGULAR;
    case KJ_B_RANDOM_GAMMAVARIATE: return KJ_PR_GAMMA;
    case KJ_B_RANDOM_BETAVARIATE: return KJ_PR_BETA;
    case KJ_B_RANDOM_EXPOVARIATE: return KJ_PR_EXPO;
    case KJ_B_RANDOM_LOGNORMVARIATE: return KJ_PR_LOGNORM;
    case KJ_B_RANDOM_PARETOVARIATE: return KJ_PR_PARETO;
    case KJ_B_RANDOM_WEIBULLVARIATE: return KJ_PR_WEIBULL;
    case KJ_B_RANDOM_VONMISESVARIATE: return KJ_PR_VONMISES;
    default: return KJ_PR__COUNT;
    }
}

/* randrange(stop) / randrange(start, stop[, step]); randint(a, b) is
 * randrange(a, b + 1, 1), as Numba lowers it. */
static LLVMValueRef b_randrange(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef start, stop, step = i64_or(cg, in, 2, 1);
    if (in->aux == KJ_B_RANDOM_RANDINT) {
        start = i64_or(cg, in, 0, 0);
        stop = LLVMBuildAdd(cg->b, i64_or(cg, in, 1, 0), kj_cg_i64(cg, 1), "");
    } else if (arg(cg, in, 1)) {
        start = i64_or(cg, in, 0, 0);
        stop = i64_or(cg, in, 1, 0);
    } else {
        start = kj_cg_i64(cg, 0);
        stop = i64_or(cg, in, 0, 0);
    }
    LLVMValueRef a[6] = {cg->fn->rt, start, stop, step, kj_cg_line(cg, in), kj_cg_col(cg, in)};
    return kj_cg_cast(cg, kj_cg_rtcall(cg, KJ_RTF_PYRANDRANGE, a, 6), &T_I64, in->type);
}

LLVMValueRef kj_cg_pyrandom(kj_cg *cg, const kir_inst *in)
{
    switch (in->aux) {
    case KJ_B_RANDOM_SEED: {
        LLVMValueRef a[2] = {cg->fn->rt, i64_or(cg, in, 0, 0)};
        kj_cg_rtcall(cg, KJ_RTF_PYSEED, a, 2);
        return kj_cg_zero(cg, in->type);
    }
    case KJ_B_RANDOM_RANDINT: case KJ_B_RANDOM_RANDRANGE: return b_randrange(cg, in);
    case KJ_B_RANDOM_GETRANDBITS: {
        LLVMValueRef a[4] = {cg->fn->rt, i64_or(cg, in, 0, 0), kj_cg_line(cg, in), kj_cg_col(cg, in)};
        return kj_cg_cast(cg, kj_cg_rtcall(cg, KJ_RTF_PYGETRANDBITS, a, 4), &T_U64, in->type);
    }
    case KJ_B_RANDOM_SHUFFLE: {
        LLVMValueRef x[3];
        kj_cg_operand(cg, in->args[0], x);
        LLVMValueRef a[4] = {cg->fn->rt, x[0], x[1], x[2]};
        kj_cg_rtcall(cg, KJ_RTF_PYSHUFFLE, a, 4);
        return kj_cg_zero(cg, in->type);
    }
    default: break;
    }
    /* triangular's defaults are CPython's (low=0.0, high=1.0) */
    bool tri = in->aux == KJ_B_RANDOM_TRIANGULAR;
    LLVMValueRef a[7] = {cg->fn->rt,           kj_cg_i32(cg, (int32_t)dist_of(cg, in)),
                         f64_or(cg, in, 0, 0), f64_or(cg, in, 1, tri ? 1.0 : 0.0),
                         f64_or(cg, in, 2, 0), kj_cg_line(cg, in),
                         kj_cg_col(cg, in)};
    return kj_cg_cast(cg, kj_cg_rtcall(cg, KJ_RTF_PYRAND, a, 7), &T_F64, in->type);
}
