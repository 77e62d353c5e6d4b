/* SPDX-License-Identifier: BSD-2-Clause */
/* numba.cuda.random: xoroshiro128+ generators, the same numbers as
 * numba-cuda for the same states (numba/cuda/random.py, operation for
 * operation). A generator's state is row `index` of an (n, 2) uint64 array
 * (s0, s1); the array comes from create_xoroshiro128p_states, filled by the
 * runtime (src/runtime/cuda_random.c). Device code is target-neutral LLVM:
 * `next` and `jump` are module-internal functions over the addresses of s0
 * and s1, and the float math goes through the target's math library
 * (libm on the cpu targets, libdevice on the GPU), as Numba's math.log /
 * math.cos do. */
#include "codegen.h"

#include "../ir/builtins.h"

static const kj_type T_I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};

static LLVMValueRef u64c(kj_cg *cg, uint64_t v) { return LLVMConstInt(cg->t_i64, v, 0); }

/* rotl(x, k) = (x << k) | (x >> (64 - k)) */
static LLVMValueRef rotl(LLVMBuilderRef b, kj_cg *cg, LLVMValueRef x, unsigned k)
{
    return LLVMBuildOr(b, LLVMBuildShl(b, x, u64c(cg, k), ""), LLVMBuildLShr(b, x, u64c(cg, 64 - k), ""), "");
}

static LLVMValueRef helper_decl(kj_cg *cg, const char *name, LLVMTypeRef ret, LLVMBuilderRef *b)
{
    LLVMTypeRef ps[2] = {cg->t_ptr, cg->t_ptr};
    LLVMValueRef f = LLVMAddFunction(cg->mod, name, LLVMFunctionType(ret, ps, 2, 0));
    LLVMSetLinkage(f, LLVMInternalLinkage);
    *b = LLVMCreateBuilderInContext(cg->ctx);
    LLVMPositionBuilderAtEnd(*b, LLVMAppendBasicBlockInContext(cg->ctx, f, "entry"));
    return f;
}

/* i64 kjit.xoroshiro.next(ptr s0, ptr s1): Numba's xoroshiro128p_next. */
static LLVMValueRef next_fn(kj_cg *cg)
{
    static const char name[] = "kjit.xoroshiro128p.next";
    LLVMValueRef f = LLVMGetNamedFunction(cg->mod, name);
    if (f) return f;
    LLVMBuilderRef b;
    f = helper_decl(cg, name, cg->t_i64, &b);
    LLVMValueRef p0 = LLVMGetParam(f, 0), p1 = LLVMGetParam(f, 1);
    LLVMValueRef s0 = LLVMBuildLoad2(b, cg->t_i64, p0, "s0");
    LLVMValueRef s1 = LLVMBuildLoad2(b, cg->t_i64, p1, "s1");
    LLVMValueRef r = LLVMBuildAdd(b, s0, s1, "");
    s1 = LLVMBuildXor(b, s1, s0, "");
    LLVMValueRef n0 = LLVMBuildXor(b, rotl(b, cg, s0, 55), s1, "");
    n0 = LLVMBuildXor(b, n0, LLVMBuildShl(b, s1, u64c(cg, 14), ""), "");
    LLVMBuildStore(b, n0, p0);
    LLVMBuildStore(b, rotl(b, cg, s1, 36), p1);
    LLVMBuildRet(b, r);
    LLVMDisposeBuilder(b);
    return f;
}

static LLVMValueRef call_next(kj_cg *cg, LLVMBuilderRef b, LLVMValueRef p0, LLVMValueRef p1)
{
    LLVMValueRef f = next_fn(cg), a[2] = {p0, p1};
    return LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, a, 2, "");
}

/* void kjit.xoroshiro.jump(ptr s0, ptr s1): 2**64 steps ahead, Numba's
 * xoroshiro128p_jump: for each of the 128 bits of the jump polynomial, the
 * state is xored into the result where the bit is set, then advanced. */
static LLVMValueRef jump_fn(kj_cg *cg)
{
    static const char name[] = "kjit.xoroshiro128p.jump";
    LLVMValueRef f = LLVMGetNamedFunction(cg->mod, name);
    if (f) return f;
    next_fn(cg);
    LLVMBuilderRef b;
    f = helper_decl(cg, name, cg->t_void, &b);
    LLVMValueRef p0 = LLVMGetParam(f, 0), p1 = LLVMGetParam(f, 1);
    LLVMBasicBlockRef entry = LLVMGetInsertBlock(b);
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(cg->ctx, f, "bit");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(cg->ctx, f, "done");
    LLVMBuildBr(b, loop);
    LLVMPositionBuilderAtEnd(b, loop);
    LLVMValueRef i = LLVMBuildPhi(b, cg->t_i64, "i");
    LLVMValueRef a0 = LLVMBuildPhi(b, cg->t_i64, "a0"), a1 = LLVMBuildPhi(b, cg->t_i64, "a1");
    LLVMValueRef lo = LLVMBuildICmp(b, LLVMIntULT, i, u64c(cg, 64), "");
    LLVMValueRef word = LLVMBuildSelect(b, lo, u64c(cg, 0xbeac0467eba5facbULL), u64c(cg, 0xd86b048b86aa9922ULL), "");
    LLVMValueRef bit = LLVMBuildAnd(b, LLVMBuildLShr(b, word, LLVMBuildAnd(b, i, u64c(cg, 63), ""), ""),
                                    u64c(cg, 1), "");
    LLVMValueRef mask = LLVMBuildNeg(b, bit, ""); /* all ones where the bit is set */
    LLVMValueRef s0 = LLVMBuildLoad2(b, cg->t_i64, p0, ""), s1 = LLVMBuildLoad2(b, cg->t_i64, p1, "");
    LLVMValueRef n0 = LLVMBuildXor(b, a0, LLVMBuildAnd(b, s0, mask, ""), "");
    LLVMValueRef n1 = LLVMBuildXor(b, a1, LLVMBuildAnd(b, s1, mask, ""), "");
    call_next(cg, b, p0, p1);
    LLVMValueRef i1 = LLVMBuildAdd(b, i, u64c(cg, 1), "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, i1, u64c(cg, 128), ""), loop, done);
    LLVMValueRef zero = u64c(cg, 0);
    LLVMValueRef iv[2] = {zero, i1}, v0[2] = {zero, n0}, v1[2] = {zero, n1};
    LLVMBasicBlockRef from[2] = {entry, loop};
    LLVMAddIncoming(i, iv, from, 2);
    LLVMAddIncoming(a0, v0, from, 2);
    LLVMAddIncoming(a1, v1, from, 2);
    LLVMPositionBuilderAtEnd(b, done);
    LLVMBuildStore(b, n0, p0);
    LLVMBuildStore(b, n1, p1);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    return f;
}

/* The addresses of states[index, 0] and states[index, 1] (byte strides).
 * For a C-contiguous states array (create_xoroshiro128p_states makes one)
 * the strides are the constants 16 and 8: then LLVM sees that s0 and s1 do
 * not alias and keeps a generator's state in registers across a loop of
 * draws, as Numba's record fields allow, instead of reloading s0 after each
 * store to s1 (3.6x slower Monte Carlo kernel, H100). */
static void state_ptrs(kj_cg *cg, const kir_inst *in, LLVMValueRef p[2])
{
    const kir_func *kf = cg->fn->kf;
    bool c_order = kf->insts[in->args[0]].type->layout == KJ_LAYOUT_C;
    LLVMValueRef arr = kj_cg_val(cg, in->args[0]);
    LLVMValueRef idx = kj_cg_cast(cg, kj_cg_val(cg, in->args[1]), kf->insts[in->args[1]].type, &T_I64);
    LLVMValueRef data = LLVMBuildExtractValue(cg->b, arr, 0, "");
    LLVMValueRef st = LLVMBuildExtractValue(cg->b, arr, 2, "");
    LLVMValueRef row = c_order ? u64c(cg, 16) : LLVMBuildExtractValue(cg->b, st, 0, "");
    LLVMValueRef off = LLVMBuildMul(cg->b, idx, row, "");
    p[0] = LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, data, &off, 1, "");
    LLVMValueRef half = c_order ? u64c(cg, 8) : LLVMBuildExtractValue(cg->b, st, 1, "");
    p[1] = LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, p[0], &half, 1, "");
}

/* uint64_to_unit_float64: (x >> 11) * (1.0 / 2**53), in [0, 1). */
static LLVMValueRef unit_f64(kj_cg *cg, LLVMValueRef x)
{
    LLVMValueRef m = LLVMBuildUIToFP(cg->b, LLVMBuildLShr(cg->b, x, u64c(cg, 11), ""), cg->t_f64, "");
    return LLVMBuildFMul(cg->b, m, LLVMConstReal(cg->t_f64, 0x1p-53), "");
}

/* uint64_to_unit_float32: the float64 one rounded to float32. */
static LLVMValueRef uniform_f32(kj_cg *cg, LLVMValueRef p[2])
{
    return LLVMBuildFPTrunc(cg->b, unit_f64(cg, call_next(cg, cg->b, p[0], p[1])), cg->t_f32, "");
}

static LLVMValueRef math1(kj_cg *cg, const char *name, LLVMTypeRef ty, LLVMValueRef x)
{
    return kj_cg_libm(cg, name, ty, &x, 1);
}

/* Box-Muller as Numba writes it, both from two float32 uniforms (Numba's
 * xoroshiro128p_normal_float64 draws float32 ones too):
 *   float32: sqrt(-2f * logf(u1)) * cosf(float32(2 pi) * u2), in float32;
 *   float64: sqrt(-2.0 * double(logf(u1))) * cos(2 pi * double(u2)), the
 *            log in float32 (math.log of a float32 is float32 in Numba). */
static LLVMValueRef normal(kj_cg *cg, LLVMValueRef p[2], bool f64)
{
    LLVMValueRef u1 = uniform_f32(cg, p), u2 = uniform_f32(cg, p);
    LLVMValueRef l = math1(cg, "logf", cg->t_f32, u1);
    LLVMTypeRef t = f64 ? cg->t_f64 : cg->t_f32;
    if (f64) {
        l = LLVMBuildFPExt(cg->b, l, cg->t_f64, "");
        u2 = LLVMBuildFPExt(cg->b, u2, cg->t_f64, "");
    }
    LLVMValueRef r = kj_cg_intrinsic(cg, "llvm.sqrt", t, (LLVMValueRef[]){LLVMBuildFMul(cg->b, LLVMConstReal(t, -2.0), l, "")}, 1);
    double two_pi = f64 ? 6.283185307179586 : (double)(float)6.283185307179586;
    LLVMValueRef c = math1(cg, f64 ? "cos" : "cosf", t, LLVMBuildFMul(cg->b, LLVMConstReal(t, two_pi), u2, ""));
    return LLVMBuildFMul(cg->b, r, c, "");
}

LLVMValueRef kj_cg_xoroshiro(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef p[2];
    state_ptrs(cg, in, p);
    switch ((kj_builtin)in->aux) {
    case KJ_B_XORO_NEXT: return call_next(cg, cg->b, p[0], p[1]);
    case KJ_B_XORO_JUMP: {
        LLVMValueRef f = jump_fn(cg);
        LLVMBuildCall2(cg->b, LLVMGlobalGetValueType(f), f, p, 2, "");
        return NULL;
    }
    case KJ_B_XORO_UNIFORM32: return uniform_f32(cg, p);
    case KJ_B_XORO_UNIFORM64: return unit_f64(cg, call_next(cg, cg->b, p[0], p[1]));
    case KJ_B_XORO_NORMAL32: return normal(cg, p, false);
    default: return normal(cg, p, true);
    }
}

/* Host side: create_xoroshiro128p_states / init_xoroshiro128p_states. */
LLVMValueRef kj_cg_xoroshiro_host(kj_cg *cg, const kir_inst *in)
{
    const kir_func *kf = cg->fn->kf;
    kir_ref sub = in->nargs > 2 && in->args[2] && kf->insts[in->args[2]].type->kind != KJ_T_NONE ? in->args[2] : 0;
    LLVMValueRef seed = kj_cg_cast(cg, kj_cg_val(cg, in->args[1]), kf->insts[in->args[1]].type, &T_I64);
    LLVMValueRef subseq = sub ? kj_cg_cast(cg, kj_cg_val(cg, sub), kf->insts[sub].type, &T_I64) : u64c(cg, 0);
    if (in->aux == KJ_B_XORO_INIT) {
        LLVMValueRef a[6] = {cg->fn->rt, kj_cg_spill(cg, kj_cg_val(cg, in->args[0])), seed, subseq,
                             kj_cg_line(cg, in), kj_cg_col(cg, in)};
        kj_cg_rtcall(cg, KJ_RTF_XORO_INIT, a, 6);
        return NULL;
    }
    LLVMValueRef n = kj_cg_cast(cg, kj_cg_val(cg, in->args[0]), kf->insts[in->args[0]].type, &T_I64);
    LLVMValueRef out = kj_cg_out_desc(cg, 2);
    LLVMValueRef a[7] = {cg->fn->rt, n, seed, subseq, out, kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_XORO_CREATE, a, 7);
    return LLVMBuildLoad2(cg->b, kj_cg_array_type(cg, 2), out, "states");
}
