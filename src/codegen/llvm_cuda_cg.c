/* SPDX-License-Identifier: BSD-2-Clause */
/* Cooperative groups: `g = cuda.cg.this_grid(); g.sync()`.
 *
 * The grid group is a value with nothing in it (a null pointer); its sync()
 * is a barrier of the whole grid:
 * - on the GPU, a barrier of the block, then the block's thread 0 adds to a
 *   counter in global memory (the module's `__kjit_grid_bar`) and spins
 *   until every block has added, then a barrier of the block again. Block
 *   (0, 0, 0) adds 2^31 - (nblocks - 1) and the others 1, so the counter's
 *   top bit flips exactly when the last block arrives and the low bits are
 *   back to what they were: the counter never needs resetting (CUDA's own
 *   cooperative groups do the same). The launch must have every block
 *   resident at once: gpu.c launches such kernels with
 *   cuLaunchCooperativeKernel after checking the occupancy;
 * - on the cpu targets, a barrier of the block (regions, llvm_kernel.c), then
 *   one call of kj_rt_grid_sync per block, whose blocks each run on a
 *   thread of their own (rt_grid.c). */
#include "codegen.h"
#include "nvptx.h"

#include "../ir/builtins.h"

#include <string.h>

enum { MAX_DEPTH = 16 };

static bool uses(const kir_func *f, const kir_func **stack, unsigned depth)
{
    if (depth >= MAX_DEPTH) return false;
    for (unsigned k = 0; k < depth; k++)
        if (stack[k] == f) return false;
    stack[depth] = f;
    for (uint32_t r = 1; r < f->ninsts; r++) {
        const kir_inst *in = &f->insts[r];
        if (in->op == KIR_BUILTIN && in->aux == KJ_B_GRID_SYNC) return true;
        if (in->op == KIR_CALL && in->fn && uses(in->fn, stack, depth + 1)) return true;
    }
    return false;
}

bool kj_cg_uses_grid_sync(const kir_func *f)
{
    const kir_func *stack[MAX_DEPTH];
    return uses(f, stack, 0);
}

/* cpu: the block-level part of grid.sync(), once per block. */
void kj_cg_grid_sync_host(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef a[3] = {cg->fn->rt, kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_GRID_SYNC, a, 3);
}

static LLVMValueRef grid_counter(kj_cg *cg)
{
    const char *name = "__kjit_grid_bar";
    LLVMValueRef g = LLVMGetNamedGlobal(cg->mod, name);
    if (g) return g;
    g = LLVMAddGlobalInAddressSpace(cg->mod, cg->t_i32, name, 1);
    LLVMSetInitializer(g, LLVMConstNull(cg->t_i32));
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMSetAlignment(g, 4);
    return g;
}

static LLVMValueRef is_zero3(kj_cg *cg, kj_sreg r)
{
    LLVMValueRef v = kj_nvptx_sreg(cg, r, 0);
    v = LLVMBuildOr(cg->b, v, kj_nvptx_sreg(cg, r, 1), "");
    v = LLVMBuildOr(cg->b, v, kj_nvptx_sreg(cg, r, 2), "");
    return LLVMBuildICmp(cg->b, LLVMIntEQ, v, kj_cg_i64(cg, 0), "");
}

static void block_barrier(kj_cg *cg)
{
    const char *name = "llvm.nvvm.barrier.cta.sync.aligned.all";
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(cg->mod, id, NULL, 0), zero = kj_cg_i32(cg, 0);
    LLVMBuildCall2(cg->b, LLVMIntrinsicGetType(cg->ctx, id, NULL, 0), f, &zero, 1, "");
}

/* The device's scope (.gpu): the barrier orders memory between the grid's
 * blocks only. An arrival is a release fence then a relaxed add (NVPTX in
 * LLVM 22 emits every atomicrmw relaxed, whatever its ordering), the spin an
 * acquire load (fence.acq_rel.gpu, atom, ld.acquire.gpu; the block barriers
 * around them carry the other threads' accesses, PTX's release and acquire
 * being cumulative). A seq_cst fence of LLVM's default scope, fence.sc.sys,
 * cost about 2 us a sync on an H100. */
static unsigned device_scope(kj_cg *cg) { return LLVMGetSyncScopeID(cg->ctx, "device", strlen("device")); }

static LLVMValueRef i32c(kj_cg *cg, uint32_t v) { return LLVMConstInt(cg->t_i32, v, 0); }

/* GPU: grid.sync() (see the top of the file). Tried and measured slower on
 * an H100: two levels (blocks arrive at their group's counter, the last of
 * each group at the grid's): 2.25 against 1.52 us a sync at 256 blocks, as
 * the second arrival and the read before arriving each wait on memory; and
 * (session 15) block 0 gathering per-block arrival flags and releasing each
 * block through its own flag: a heat sweep's step 1.81x, 1.83x and 2.29x
 * repeated launches at 4, 256 and 1024 blocks, against 0.93x, 1.15x and
 * 1.57x with this counter. */
LLVMValueRef kj_nvptx_grid_sync(kj_cg *cg, const kir_inst *in)
{
    if (cg->sm && cg->sm < 70) { /* LLVM's NVPTX has no acquire/release before sm_70 (it aborted) */
        kj_cg_fail(cg, in->span, "grid.sync() needs sm_70 or newer (ld.acquire.gpu, fence.acq_rel.gpu), not sm_%d",
                   cg->sm);
        return NULL;
    }
    LLVMValueRef ctr = grid_counter(cg);
    block_barrier(cg);
    LLVMBasicBlockRef lead = kj_cg_bb(cg, "gsync.lead"), spin = kj_cg_bb(cg, "gsync.spin");
    LLVMBasicBlockRef after = kj_cg_bb(cg, "gsync.after");
    LLVMBuildCondBr(cg->b, is_zero3(cg, KJ_SREG_TID), lead, after);
    LLVMPositionBuilderAtEnd(cg->b, lead);
    LLVMValueRef nb = LLVMBuildMul(cg->b, kj_nvptx_sreg(cg, KJ_SREG_GDIM, 0), kj_nvptx_sreg(cg, KJ_SREG_GDIM, 1), "");
    nb = LLVMBuildTrunc(cg->b, LLVMBuildMul(cg->b, nb, kj_nvptx_sreg(cg, KJ_SREG_GDIM, 2), ""), cg->t_i32, "");
    LLVMValueRef top = i32c(cg, 0x80000000u);
    LLVMValueRef master = LLVMBuildAdd(cg->b, LLVMBuildSub(cg->b, top, nb, ""), i32c(cg, 1), "");
    LLVMValueRef inc = LLVMBuildSelect(cg->b, is_zero3(cg, KJ_SREG_BID), master, i32c(cg, 1), "");
    LLVMBuildFenceSyncScope(cg->b, LLVMAtomicOrderingRelease, device_scope(cg), "");
    LLVMValueRef old = LLVMBuildAtomicRMWSyncScope(cg->b, LLVMAtomicRMWBinOpAdd, ctr, inc, LLVMAtomicOrderingMonotonic,
                                                   device_scope(cg));
    LLVMBuildBr(cg->b, spin);
    LLVMPositionBuilderAtEnd(cg->b, spin);
    LLVMValueRef cur = LLVMBuildLoad2(cg->b, cg->t_i32, ctr, "");
    LLVMSetOrdering(cur, LLVMAtomicOrderingAcquire);
    LLVMSetAtomicSyncScopeID(cur, device_scope(cg));
    LLVMSetAlignment(cur, 4);
    LLVMValueRef flip = LLVMBuildAnd(cg->b, LLVMBuildXor(cg->b, old, cur, ""), top, "");
    LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntNE, flip, i32c(cg, 0), ""), after, spin);
    LLVMPositionBuilderAtEnd(cg->b, after);
    block_barrier(cg);
    return NULL;
}
