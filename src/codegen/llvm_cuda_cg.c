/* SPDX-License-Identifier: BSD-2-Clause */
/* Cooperative groups: `g = cuda.cg.this_grid(); g.sync()`.
 *
 * The grid group is a value with nothing in it (a null pointer); its sync()
 * is a barrier of the whole grid:
 * - on the GPU, a barrier of the block, then block 0 gathers and releases
 *   the others through flags in global memory (one per block, so that no
 *   address is polled or added to by every block: a counter that all blocks
 *   add to and spin on made a sync cost 1.15x a launch at 256 blocks and
 *   1.57x at 1024 on an H100). Thread 0 of block b > 0 writes its arrival
 *   flag arrive[b] = gen + 1 (after a release fence at gpu scope) and spins
 *   with ld.acquire.gpu on its own release[b]; block 0's threads share the
 *   other blocks' arrival flags, wait for each, publish gen + 1 and store
 *   gen + 1 into every release flag; then a barrier of the block again.
 *   `gen` is read before the first block barrier (it cannot change until
 *   this block arrives), so its latency hides behind the barrier; the flags
 *   are 64-bit generations, so they never need resetting or wrap, and a
 *   flag left by an earlier launch of another grid is at most gen. The
 *   launch must have every block resident at once: gpu.c launches such
 *   kernels with cuLaunchCooperativeKernel after checking the occupancy
 *   and KJ_ABI_GRID_SYNC_BLOCKS (the flags' count);
 * - on the cpu targets, a barrier of the block (regions, llvm_kernel.c), then
 *   one call of kj_rt_grid_sync per block, whose blocks each run on a
 *   thread of their own (rt_grid.c). */
#include "codegen.h"
#include "nvptx.h"

#include "../abi/abi.h"
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

/* The module's barrier state (internal globals of address space 1, zero
 * when the module loads): the generation, the syncs completed so far, and
 * per block an arrival and a release flag (64-bit: they never wrap). */
static LLVMValueRef grid_global(kj_cg *cg, const char *name, unsigned n)
{
    LLVMValueRef g = LLVMGetNamedGlobal(cg->mod, name);
    if (g) return g;
    LLVMTypeRef t = n ? LLVMArrayType2(cg->t_i64, n) : cg->t_i64;
    g = LLVMAddGlobalInAddressSpace(cg->mod, t, name, 1);
    LLVMSetInitializer(g, LLVMConstNull(t));
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMSetAlignment(g, n ? 128 : 8);
    return g;
}

/* x + X * (y + Y * z) of a special register and its extent; *n = X * Y * Z */
static LLVMValueRef linear(kj_cg *cg, kj_sreg r, kj_sreg ext, LLVMValueRef *n)
{
    LLVMValueRef ex = kj_nvptx_sreg(cg, ext, 0), ey = kj_nvptx_sreg(cg, ext, 1), ez = kj_nvptx_sreg(cg, ext, 2);
    LLVMValueRef v = LLVMBuildMul(cg->b, ey, kj_nvptx_sreg(cg, r, 2), "");
    v = LLVMBuildAdd(cg->b, kj_nvptx_sreg(cg, r, 1), v, "");
    v = LLVMBuildAdd(cg->b, kj_nvptx_sreg(cg, r, 0), LLVMBuildMul(cg->b, ex, v, ""), "");
    *n = LLVMBuildMul(cg->b, LLVMBuildMul(cg->b, ex, ey, ""), ez, "");
    return v;
}

static void block_barrier(kj_cg *cg)
{
    const char *name = "llvm.nvvm.barrier.cta.sync.aligned.all";
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(cg->mod, id, NULL, 0), zero = kj_cg_i32(cg, 0);
    LLVMBuildCall2(cg->b, LLVMIntrinsicGetType(cg->ctx, id, NULL, 0), f, &zero, 1, "");
}

/* The device's scope (.gpu): the barrier orders memory between the grid's
 * blocks only. A seq_cst fence of LLVM's default scope, fence.sc.sys, cost
 * about 2 us a sync on an H100. */
static unsigned device_scope(kj_cg *cg) { return LLVMGetSyncScopeID(cg->ctx, "device", strlen("device")); }

static LLVMValueRef flag_ptr(kj_cg *cg, LLVMValueRef arr, LLVMValueRef j)
{
    LLVMValueRef idx[2] = {kj_cg_i64(cg, 0), j};
    return LLVMBuildInBoundsGEP2(cg->b, LLVMArrayType2(cg->t_i64, KJ_ABI_GRID_SYNC_BLOCKS), arr, idx, 2, "");
}

/* ld.relaxed.gpu / ld.acquire.gpu */
static LLVMValueRef load_at(kj_cg *cg, LLVMValueRef p, LLVMAtomicOrdering o)
{
    LLVMValueRef v = LLVMBuildLoad2(cg->b, cg->t_i64, p, "");
    LLVMSetOrdering(v, o);
    LLVMSetAtomicSyncScopeID(v, device_scope(cg));
    LLVMSetAlignment(v, 8);
    return v;
}

/* a release fence (fence.acq_rel.gpu: cumulative, so it carries what the
 * block barrier before it ordered) then st.relaxed.gpu */
static void release_store(kj_cg *cg, LLVMValueRef p, LLVMValueRef v, bool fence)
{
    if (fence) LLVMBuildFenceSyncScope(cg->b, LLVMAtomicOrderingRelease, device_scope(cg), "");
    LLVMValueRef s = LLVMBuildStore(cg->b, v, p);
    LLVMSetOrdering(s, LLVMAtomicOrderingMonotonic);
    LLVMSetAtomicSyncScopeID(s, device_scope(cg));
    LLVMSetAlignment(s, 8);
}

/* while (ld.acquire.gpu [p] != want) {} */
static void spin_until(kj_cg *cg, LLVMValueRef p, LLVMValueRef want)
{
    LLVMBasicBlockRef spin = kj_cg_bb(cg, "gsync.spin"), done = kj_cg_bb(cg, "gsync.seen");
    LLVMBuildBr(cg->b, spin);
    LLVMPositionBuilderAtEnd(cg->b, spin);
    LLVMValueRef v = load_at(cg, p, LLVMAtomicOrderingAcquire);
    LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, v, want, ""), done, spin);
    LLVMPositionBuilderAtEnd(cg->b, done);
}

typedef struct {
    LLVMValueRef arrive, release, tid, nthreads, nblocks, next; /* next: the generation this sync makes */
} gsync;

/* for (j = tid + 1; j < nblocks; j += nthreads) body(j): block 0's threads
 * share the other blocks' flags */
static void each_block(kj_cg *cg, const gsync *g, void (*body)(kj_cg *, const gsync *, LLVMValueRef))
{
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(cg->b), head = kj_cg_bb(cg, "gsync.j");
    LLVMBasicBlockRef loop = kj_cg_bb(cg, "gsync.jbody"), out = kj_cg_bb(cg, "gsync.jdone");
    LLVMValueRef first = LLVMBuildAdd(cg->b, g->tid, kj_cg_i64(cg, 1), "");
    LLVMBuildBr(cg->b, head);
    LLVMPositionBuilderAtEnd(cg->b, head);
    LLVMValueRef j = LLVMBuildPhi(cg->b, cg->t_i64, "j");
    LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntULT, j, g->nblocks, ""), loop, out);
    LLVMPositionBuilderAtEnd(cg->b, loop);
    body(cg, g, j);
    LLVMValueRef nj = LLVMBuildAdd(cg->b, j, g->nthreads, "");
    LLVMBasicBlockRef end = LLVMGetInsertBlock(cg->b);
    LLVMBuildBr(cg->b, head);
    LLVMValueRef in[2] = {first, nj};
    LLVMBasicBlockRef from[2] = {pre, end};
    LLVMAddIncoming(j, in, from, 2);
    LLVMPositionBuilderAtEnd(cg->b, out);
}

static void wait_arrival(kj_cg *cg, const gsync *g, LLVMValueRef j) { spin_until(cg, flag_ptr(cg, g->arrive, j), g->next); }
static void release(kj_cg *cg, const gsync *g, LLVMValueRef j) { release_store(cg, flag_ptr(cg, g->release, j), g->next, false); }

/* Block 0: wait for every other block's arrival, publish the generation,
 * then release each block (its own flag: no address that all blocks poll). */
static void master(kj_cg *cg, const gsync *g, LLVMValueRef gen)
{
    each_block(cg, g, wait_arrival);
    block_barrier(cg); /* every block has arrived */
    LLVMBasicBlockRef pub = kj_cg_bb(cg, "gsync.publish"), next = kj_cg_bb(cg, "gsync.published");
    LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, g->tid, kj_cg_i64(cg, 0), ""), pub, next);
    LLVMPositionBuilderAtEnd(cg->b, pub);
    release_store(cg, gen, g->next, false);
    LLVMBuildBr(cg->b, next);
    LLVMPositionBuilderAtEnd(cg->b, next);
    /* the generation is out before any block is released (it reads it at its next sync) */
    block_barrier(cg);
    LLVMBasicBlockRef rel = kj_cg_bb(cg, "gsync.release"), done = kj_cg_bb(cg, "gsync.released");
    LLVMValueRef some = LLVMBuildICmp(cg->b, LLVMIntULT, LLVMBuildAdd(cg->b, g->tid, kj_cg_i64(cg, 1), ""), g->nblocks, "");
    LLVMBuildCondBr(cg->b, some, rel, done);
    LLVMPositionBuilderAtEnd(cg->b, rel);
    LLVMBuildFenceSyncScope(cg->b, LLVMAtomicOrderingRelease, device_scope(cg), "");
    each_block(cg, g, release);
    LLVMBuildBr(cg->b, done);
    LLVMPositionBuilderAtEnd(cg->b, done);
}

/* GPU: grid.sync() (see the top of the file). */
LLVMValueRef kj_nvptx_grid_sync(kj_cg *cg, const kir_inst *in)
{
    if (cg->sm && cg->sm < 70) { /* LLVM's NVPTX has no acquire/release before sm_70 (it aborted) */
        kj_cg_fail(cg, in->span, "grid.sync() needs sm_70 or newer (ld.acquire.gpu, fence.acq_rel.gpu), not sm_%d",
                   cg->sm);
        return NULL;
    }
    gsync g = {.arrive = grid_global(cg, "__kjit_grid_arrive", KJ_ABI_GRID_SYNC_BLOCKS),
               .release = grid_global(cg, "__kjit_grid_release", KJ_ABI_GRID_SYNC_BLOCKS)};
    LLVMValueRef gen = grid_global(cg, "__kjit_grid_gen", 0), zero = kj_cg_i64(cg, 0);
    g.tid = linear(cg, KJ_SREG_TID, KJ_SREG_BDIM, &g.nthreads);
    LLVMValueRef bid = linear(cg, KJ_SREG_BID, KJ_SREG_GDIM, &g.nblocks);
    LLVMValueRef lead = LLVMBuildICmp(cg->b, LLVMIntEQ, g.tid, zero, ""), b0 = LLVMBuildICmp(cg->b, LLVMIntEQ, bid, zero, "");
    /* the generation, read before the block barrier (its latency hidden by
     * it) by the threads that use it: it cannot change until this block
     * arrives */
    LLVMBasicBlockRef entry = LLVMGetInsertBlock(cg->b), rd = kj_cg_bb(cg, "gsync.gen"), bar = kj_cg_bb(cg, "gsync.bar");
    LLVMBuildCondBr(cg->b, LLVMBuildOr(cg->b, lead, b0, ""), rd, bar);
    LLVMPositionBuilderAtEnd(cg->b, rd);
    LLVMValueRef cur = load_at(cg, gen, LLVMAtomicOrderingMonotonic);
    LLVMBuildBr(cg->b, bar);
    LLVMPositionBuilderAtEnd(cg->b, bar);
    LLVMValueRef ph = LLVMBuildPhi(cg->b, cg->t_i64, "gen");
    LLVMValueRef vals[2] = {cur, zero};
    LLVMBasicBlockRef from[2] = {rd, entry};
    LLVMAddIncoming(ph, vals, from, 2);
    g.next = LLVMBuildAdd(cg->b, ph, kj_cg_i64(cg, 1), "");
    block_barrier(cg);
    LLVMBasicBlockRef mb = kj_cg_bb(cg, "gsync.master"), wb = kj_cg_bb(cg, "gsync.worker");
    LLVMBasicBlockRef arr = kj_cg_bb(cg, "gsync.arrive"), after = kj_cg_bb(cg, "gsync.after");
    /* one block: the block barrier was the grid's */
    LLVMValueRef many = LLVMBuildICmp(cg->b, LLVMIntUGT, g.nblocks, kj_cg_i64(cg, 1), "");
    LLVMBasicBlockRef sw = kj_cg_bb(cg, "gsync.many");
    LLVMBuildCondBr(cg->b, many, sw, after);
    LLVMPositionBuilderAtEnd(cg->b, sw);
    LLVMBuildCondBr(cg->b, b0, mb, wb);
    LLVMPositionBuilderAtEnd(cg->b, mb);
    master(cg, &g, gen);
    LLVMBuildBr(cg->b, after);
    LLVMPositionBuilderAtEnd(cg->b, wb);
    LLVMBuildCondBr(cg->b, lead, arr, after);
    LLVMPositionBuilderAtEnd(cg->b, arr);
    release_store(cg, flag_ptr(cg, g.arrive, bid), g.next, true);
    spin_until(cg, flag_ptr(cg, g.release, bid), g.next);
    LLVMBuildBr(cg->b, after);
    LLVMPositionBuilderAtEnd(cg->b, after);
    block_barrier(cg);
    return NULL;
}
