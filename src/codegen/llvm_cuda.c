/* SPDX-License-Identifier: BSD-2-Clause */
/* cuda.* inside kernels and device functions, on every target: what is
 * the same everywhere (cuda.grid, bit operations, atomics, the arrays over
 * shared and local memory) is here; thread ids, barriers, warp operations
 * and where shared and local memory live come from the target
 * (kj_cg_target: llvm_kernel.c for the cpu, nvptx_cuda.c for the GPU). */
#include "codegen.h"

#include "../abi/abi.h"
#include "../ir/builtins.h"

static const kj_type T_I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};

bool kj_cg_const_shape(const kir_func *f, kir_ref r, int64_t *dims, unsigned nd)
{
    const kir_inst *s = &f->insts[r];
    if (s->op == KIR_CONST_INT && nd == 1) {
        dims[0] = s->i;
        return true;
    }
    if (s->op != KIR_TUPLE || s->nargs != nd) return false;
    for (unsigned k = 0; k < nd; k++) {
        const kir_inst *e = &f->insts[s->args[k]];
        if (e->op != KIR_CONST_INT) return false;
        dims[k] = e->i;
    }
    return true;
}

int64_t kj_cg_elem_count(const int64_t *dims, unsigned nd)
{
    int64_t n = 1;
    for (unsigned k = 0; k < nd; k++) n *= dims[k];
    return n;
}

/* Thread id d of the kernel's logical layout: threadIdx and blockDim
 * through the permutation kir_layout.c chose (the launch permutes the
 * block the same way). blockIdx and gridDim as they are on the cpu
 * targets; on the GPU, where the launch also swaps the grid when it can
 * (abi.h, kj_abi_launch_phys), through the swap when the physical
 * gridDim.x says it was made (a uniform select). */
static LLVMValueRef sreg(kj_cg *cg, kj_sreg r, unsigned d)
{
    int32_t perm = cg->fn->kf->layout_perm;
    if (perm && (r == KJ_SREG_TID || r == KJ_SREG_BDIM)) return cg->tgt->sreg(cg, r, kj_abi_perm_dim(perm, d));
    if (perm != KJ_ABI_PERM_XY || cg->tgt != &kj_target_nvptx || d > 1) return cg->tgt->sreg(cg, r, d);
    LLVMValueRef gx = cg->tgt->sreg(cg, KJ_SREG_GDIM, 0);
    LLVMValueRef lim = LLVMConstInt(LLVMTypeOf(gx), KJ_ABI_GRID_YZ_MAX, false);
    LLVMValueRef swapped = LLVMBuildICmp(cg->b, LLVMIntULE, gx, lim, "grid.swapped");
    return LLVMBuildSelect(cg->b, swapped, cg->tgt->sreg(cg, r, 1 - d), cg->tgt->sreg(cg, r, d), "");
}

static LLVMValueRef dim_value(kj_cg *cg, const kir_inst *in, kj_sreg r, unsigned d)
{
    return kj_cg_cast(cg, sreg(cg, r, d), &T_I64, in->type);
}

/* cuda.grid(n) / cuda.gridsize(n): an int for n == 1, else a tuple. */
static LLVMValueRef grid(kj_cg *cg, const kir_inst *in)
{
    const kir_inst *nd = &cg->fn->kf->insts[in->args[0]];
    unsigned n = nd->op == KIR_CONST_INT && nd->i >= 1 && nd->i <= 3 ? (unsigned)nd->i : 1;
    LLVMValueRef v[3];
    /* one instruction per statement: C leaves the order of evaluation of
     * arguments open, and the generated code must not depend on it */
    for (unsigned d = 0; d < n; d++) {
        LLVMValueRef bd = sreg(cg, KJ_SREG_BDIM, d);
        if (cg->index32) { /* the launch checked that the grid fits in int32 (llvm_index32.c) */
            bool g = in->aux == KJ_B_CUDA_GRID;
            LLVMValueRef a = sreg(cg, g ? KJ_SREG_BID : KJ_SREG_GDIM, d);
            LLVMValueRef t = g ? sreg(cg, KJ_SREG_TID, d) : NULL;
            v[d] = kj_cg_index32_grid(cg, a, bd, t);
        } else if (in->aux == KJ_B_CUDA_GRID) {
            LLVMValueRef bid = sreg(cg, KJ_SREG_BID, d);
            LLVMValueRef base = LLVMBuildMul(cg->b, bid, bd, "");
            v[d] = LLVMBuildAdd(cg->b, base, sreg(cg, KJ_SREG_TID, d), "");
        } else {
            v[d] = LLVMBuildMul(cg->b, sreg(cg, KJ_SREG_GDIM, d), bd, "");
        }
    }
    if (in->type->kind != KJ_T_TUPLE) return kj_cg_cast(cg, v[0], &T_I64, in->type);
    LLVMValueRef t = LLVMGetUndef(kj_cg_type(cg, in->type));
    for (unsigned d = 0; d < n && d < in->type->n; d++)
        t = LLVMBuildInsertValue(cg->b, t, kj_cg_cast(cg, v[d], &T_I64, in->type->elems[d]), d, "");
    return t;
}

/* A C-contiguous descriptor over data with constant dims. */
LLVMValueRef kj_cg_c_array(kj_cg *cg, const kj_type *at, LLVMValueRef data, const LLVMValueRef *dims)
{
    unsigned nd = at->ndim;
    LLVMValueRef a = LLVMConstNull(kj_cg_type(cg, at));
    a = LLVMBuildInsertValue(cg->b, a, data, 0, "");
    LLVMValueRef stride = kj_cg_i64(cg, (int64_t)LLVMABISizeOfType(cg->td, kj_cg_memtype(cg, at->elem)));
    for (int k = (int)nd - 1; k >= 0; k--) {
        unsigned idx0[2] = {1, (unsigned)k}, idx1[2] = {2, (unsigned)k};
        LLVMValueRef s = LLVMBuildExtractValue(cg->b, a, 1, "");
        s = LLVMBuildInsertValue(cg->b, s, dims[k], idx0[1], "");
        a = LLVMBuildInsertValue(cg->b, a, s, idx0[0], "");
        LLVMValueRef st = LLVMBuildExtractValue(cg->b, a, 2, "");
        st = LLVMBuildInsertValue(cg->b, st, stride, idx1[1], "");
        a = LLVMBuildInsertValue(cg->b, a, st, idx1[0], "");
        stride = LLVMBuildMul(cg->b, stride, dims[k], "");
    }
    return a;
}

/* popc, clz, ffs, brev on the argument's integer type. */
static LLVMValueRef bits(kj_cg *cg, const kir_inst *in)
{
    const kj_type *t = cg->fn->kf->insts[in->args[0]].type;
    LLVMValueRef x = kj_cg_val(cg, in->args[0]);
    LLVMTypeRef ty = LLVMTypeOf(x);
    LLVMValueRef r, f = LLVMConstInt(cg->t_i1, 0, 0);
    LLVMValueRef a2[2] = {x, f};
    switch (in->aux) {
    case KJ_B_POPC: r = kj_cg_intrinsic(cg, "llvm.ctpop", ty, &x, 1); break;
    case KJ_B_CLZ: r = kj_cg_intrinsic(cg, "llvm.ctlz", ty, a2, 2); break;
    case KJ_B_BREV: r = kj_cg_intrinsic(cg, "llvm.bitreverse", ty, &x, 1); break;
    default: { /* ffs: 1 + index of the lowest set bit, 0 for 0 */
        LLVMValueRef tz = kj_cg_intrinsic(cg, "llvm.cttz", ty, a2, 2);
        LLVMValueRef z = LLVMBuildICmp(cg->b, LLVMIntEQ, x, LLVMConstNull(ty), "");
        r = LLVMBuildSelect(cg->b, z, LLVMConstNull(ty), LLVMBuildAdd(cg->b, tz, LLVMConstInt(ty, 1, 0), ""), "");
    }
    }
    return kj_cg_cast(cg, r, t, in->type);
}

static LLVMValueRef atomic(kj_cg *cg, const kir_inst *in);

/* cuda.threadfence_block / threadfence / threadfence_system: a fence of
 * the block, the device or the system on the GPU (fence.sc.cta / .gpu /
 * .sys, Numba's membar.cta / .gl / .sys); the host has one kind of fence. */
static LLVMValueRef fence(kj_cg *cg, const kir_inst *in)
{
    const char *scope = in->aux == KJ_B_THREADFENCE_BLOCK ? "block" : in->aux == KJ_B_THREADFENCE ? "device" : "";
    if (cg->tgt != &kj_target_nvptx || !*scope) {
        LLVMBuildFence(cg->b, LLVMAtomicOrderingSequentiallyConsistent, 0, "");
        return NULL;
    }
    unsigned id = LLVMGetSyncScopeID(cg->ctx, scope, strlen(scope));
    LLVMBuildFenceSyncScope(cg->b, LLVMAtomicOrderingSequentiallyConsistent, id, "");
    return NULL;
}


LLVMValueRef kj_cg_kernel_builtin(kj_cg *cg, const kir_inst *in)
{
    const kj_builtin_info *bi = kj_builtin_get((kj_builtin)in->aux);
    if (!cg->fn->kx) {
        kj_cg_fail(cg, in->span, "'%s' is only available inside kernels", bi ? bi->path : "?");
        return in->type && !kj_cg_is_void(in->type) ? LLVMGetUndef(kj_cg_type(cg, in->type)) : NULL;
    }
    if (kj_builtin_has(in->aux, KJ_BF_BARRIER)) return cg->tgt->barrier(cg, in);
    if (kj_builtin_has(in->aux, KJ_BF_WARP)) return cg->tgt->warp(cg, in);
    if (kj_builtin_libdevice(in->aux)) return kj_cg_libdevice(cg, in);
    switch ((kj_builtin)in->aux) {
    case KJ_B_TID_X: case KJ_B_TID_Y: case KJ_B_TID_Z: return dim_value(cg, in, KJ_SREG_TID, in->aux - KJ_B_TID_X);
    case KJ_B_BID_X: case KJ_B_BID_Y: case KJ_B_BID_Z: return dim_value(cg, in, KJ_SREG_BID, in->aux - KJ_B_BID_X);
    case KJ_B_BDIM_X: case KJ_B_BDIM_Y: case KJ_B_BDIM_Z:
        return dim_value(cg, in, KJ_SREG_BDIM, in->aux - KJ_B_BDIM_X);
    case KJ_B_GDIM_X: case KJ_B_GDIM_Y: case KJ_B_GDIM_Z:
        return dim_value(cg, in, KJ_SREG_GDIM, in->aux - KJ_B_GDIM_X);
    case KJ_B_CUDA_GRID: case KJ_B_CUDA_GRIDSIZE: return grid(cg, in);
    case KJ_B_LANEID: return kj_cg_cast(cg, cg->tgt->laneid(cg), &T_I64, in->type);
    case KJ_B_WARPSIZE: return LLVMConstInt(kj_cg_type(cg, in->type), 32, 0);
    case KJ_B_THREADFENCE: case KJ_B_THREADFENCE_BLOCK: case KJ_B_THREADFENCE_SYSTEM: return fence(cg, in);
    case KJ_B_SHARED_ARRAY: return cg->tgt->shared_array(cg, in);
    case KJ_B_LOCAL_ARRAY: return cg->tgt->local_array(cg, in);
    case KJ_B_CONST_ARRAY_LIKE: return kj_cg_const_array_like(cg, in);
    case KJ_B_POPC: case KJ_B_CLZ: case KJ_B_FFS: case KJ_B_BREV: return bits(cg, in);
    case KJ_B_ATOMIC_ADD: case KJ_B_ATOMIC_SUB: case KJ_B_ATOMIC_MAX: case KJ_B_ATOMIC_MIN:
    case KJ_B_ATOMIC_EXCH: case KJ_B_ATOMIC_AND: case KJ_B_ATOMIC_OR: case KJ_B_ATOMIC_XOR:
    case KJ_B_ATOMIC_CAS: case KJ_B_ATOMIC_CAS2: case KJ_B_ATOMIC_INC: case KJ_B_ATOMIC_DEC:
    case KJ_B_ATOMIC_NANMAX: case KJ_B_ATOMIC_NANMIN:
        return atomic(cg, in);
    case KJ_B_CBRT: case KJ_B_SELP: case KJ_B_NANOSLEEP: case KJ_B_LANEMASK_LT: return kj_cg_cuda_misc(cg, in);
    case KJ_B_CG_THIS_GRID: return LLVMConstNull(kj_cg_type(cg, in->type)); /* nothing in it */
    default:
        if (bi && (bi->flags & KJ_BF_FP16)) return kj_cg_fp16(cg, in);
        kj_cg_fail(cg, in->span, "'%s' is not supported on the cpu target yet", bi ? bi->path : "?");
        return in->type && !kj_cg_is_void(in->type) ? LLVMGetUndef(kj_cg_type(cg, in->type)) : NULL;
    }
}

/* The address of ary[idx] (idx an int or a tuple of ints, one per
 * dimension) through the descriptor's byte strides. */
static LLVMValueRef atomic_ptr(kj_cg *cg, const kj_type *at, LLVMValueRef arr, kir_ref idx)
{
    LLVMValueRef off = kj_cg_i64(cg, 0);
    const kj_type *it = idx ? cg->fn->kf->insts[idx].type : NULL;
    LLVMValueRef iv = idx ? kj_cg_val(cg, idx) : NULL;
    for (unsigned k = 0; k < at->ndim; k++) {
        LLVMValueRef i = kj_cg_i64(cg, 0);
        if (it && it->kind == KJ_T_TUPLE && k < it->n)
            i = kj_cg_cast(cg, LLVMBuildExtractValue(cg->b, iv, k, ""), it->elems[k], &T_I64);
        else if (it && it->kind != KJ_T_TUPLE && k == 0)
            i = kj_cg_cast(cg, iv, it, &T_I64);
        unsigned path[2] = {2, k};
        LLVMValueRef st = LLVMBuildExtractValue(cg->b, LLVMBuildExtractValue(cg->b, arr, path[0], ""), path[1], "");
        off = LLVMBuildAdd(cg->b, off, LLVMBuildMul(cg->b, i, st, ""), "");
    }
    LLVMValueRef data = LLVMBuildExtractValue(cg->b, arr, 0, "");
    return LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, data, &off, 1, "");
}

static LLVMAtomicRMWBinOp rmw_op(kj_builtin b, const kj_type *et)
{
    bool fl = et->kind == KJ_T_FLOAT, sg = et->is_signed;
    switch (b) {
    case KJ_B_ATOMIC_ADD: return fl ? LLVMAtomicRMWBinOpFAdd : LLVMAtomicRMWBinOpAdd;
    case KJ_B_ATOMIC_SUB: return fl ? LLVMAtomicRMWBinOpFSub : LLVMAtomicRMWBinOpSub;
    case KJ_B_ATOMIC_MAX: return fl ? LLVMAtomicRMWBinOpFMax : sg ? LLVMAtomicRMWBinOpMax : LLVMAtomicRMWBinOpUMax;
    case KJ_B_ATOMIC_MIN: return fl ? LLVMAtomicRMWBinOpFMin : sg ? LLVMAtomicRMWBinOpMin : LLVMAtomicRMWBinOpUMin;
    case KJ_B_ATOMIC_AND: return LLVMAtomicRMWBinOpAnd;
    case KJ_B_ATOMIC_OR: return LLVMAtomicRMWBinOpOr;
    case KJ_B_ATOMIC_XOR: return LLVMAtomicRMWBinOpXor;
    /* Numba's inc: old >= val ? 0 : old + 1; dec: old == 0 || old > val ? val : old - 1 */
    case KJ_B_ATOMIC_INC: return LLVMAtomicRMWBinOpUIncWrap;
    case KJ_B_ATOMIC_DEC: return LLVMAtomicRMWBinOpUDecWrap;
    /* LLVM's fmax/fmin are maxnum/minnum: a NaN operand is ignored, as np.nanmax */
    case KJ_B_ATOMIC_NANMAX: return fl ? LLVMAtomicRMWBinOpFMax : sg ? LLVMAtomicRMWBinOpMax : LLVMAtomicRMWBinOpUMax;
    case KJ_B_ATOMIC_NANMIN: return fl ? LLVMAtomicRMWBinOpFMin : sg ? LLVMAtomicRMWBinOpMin : LLVMAtomicRMWBinOpUMin;
    default: return LLVMAtomicRMWBinOpXchg;
    }
}

/* cuda.atomic.*(ary, idx, val) → the old value: LLVM atomicrmw (float
 * add/sub/max/min become compare-and-swap loops where the CPU has no
 * instruction); cas / compare_and_swap → cmpxchg. Relaxed ordering, as
 * CUDA's atomics. */
static LLVMValueRef atomic(kj_cg *cg, const kir_inst *in)
{
    const kir_func *f = cg->fn->kf;
    const kj_type *at = f->insts[in->args[0]].type;
    if (!at || at->kind != KJ_T_ARRAY || at->elem->kind == KJ_T_BOOL) {
        kj_cg_fail(cg, in->span, "'%s' needs an array of numbers", kj_builtin_get((kj_builtin)in->aux)->path);
        return LLVMGetUndef(kj_cg_type(cg, in->type));
    }
    const kj_type *et = at->elem;
    if (et->kind == KJ_T_FLOAT && et->bits == 16 && cg->sm && cg->sm < 70) {
        kj_cg_fail(cg, in->span, "cuda.atomic.add on float16 needs sm_70 or newer (atom.add.noftz.f16), "
                   "not sm_%d", cg->sm);
        return LLVMGetUndef(kj_cg_type(cg, in->type));
    }
    bool cas2 = in->aux == KJ_B_ATOMIC_CAS2;
    LLVMValueRef p = atomic_ptr(cg, at, kj_cg_val(cg, in->args[0]), cas2 ? 0 : in->args[1]);
    unsigned vi = cas2 ? 1 : 2;
    LLVMValueRef v = kj_cg_cast(cg, kj_cg_val(cg, in->args[vi]), f->insts[in->args[vi]].type, et);
    LLVMValueRef old;
    if (in->aux == KJ_B_ATOMIC_CAS || cas2) {
        LLVMValueRef nv = kj_cg_cast(cg, kj_cg_val(cg, in->args[vi + 1]), f->insts[in->args[vi + 1]].type, et);
        LLVMValueRef x = LLVMBuildAtomicCmpXchg(cg->b, p, v, nv, LLVMAtomicOrderingMonotonic,
                                                LLVMAtomicOrderingMonotonic, 0);
        old = LLVMBuildExtractValue(cg->b, x, 0, "old");
    } else {
        old = LLVMBuildAtomicRMW(cg->b, rmw_op((kj_builtin)in->aux, et), p, v, LLVMAtomicOrderingMonotonic, 0);
    }
    return kj_cg_cast(cg, old, et, in->type);
}
