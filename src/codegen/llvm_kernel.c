/* SPDX-License-Identifier: BSD-2-Clause */
/* @cuda.jit kernels and device functions on the host CPU (docs/kernels_cpu.md).
 *
 * Every device-side function takes a hidden kernel context `kx` after `rt`:
 *
 *     struct kx { i64 tid[3], bid[3], bdim[3], gdim[3]; ptr shared; ptr dyn; i64 dyn_bytes;
 *                 ptr store; i64 store_bytes; i64 store_guard; }
 *
 * A launch is a call of kj_rt_launch (llvm_launch.c), which checks the
 * configuration, then loops over the blocks (z, y, x) calling
 * `K.block_entry(rt, kx, args)` (the kx struct is abi.h's kj_abi_kx); that
 * unpacks the arguments and calls `K.block(rt, kx, args...)`, which runs
 * every thread of one block:
 *
 * - A kernel without barriers is compiled as a per-thread function `K`
 *   (the ordinary function generator, llvm_func.c) that `K.block` calls in
 *   a loop nest over threadIdx z, y, x — x innermost. `K` is always
 *   inlined, and the block's copy of kx is a local that SROA turns into
 *   registers, so the thread loop is a plain loop LLVM can vectorise.
 * - A kernel with barriers (cuda.syncthreads*) is split into regions: the
 *   statements between two barriers run in a loop over the block's
 *   threads, and the statements that contain barriers (if/for/while around
 *   them) run once per block, their conditions and bounds checked to be
 *   the same in every thread (CUDA requires a barrier to be reached by all
 *   threads of the block). Locals become per-thread arrays, as do the KIR
 *   values that one region computes and another reads. A thread that
 *   returns is marked exited and skipped by later regions; break/continue
 *   out of a region to a block-level loop must be taken by every live
 *   thread, else the launch stops with a RuntimeError.
 * - Warp operations (shfl_*_sync, votes, activemask, syncwarp) split
 *   regions as barriers do; a statement with warp operations and no
 *   syncthreads runs warp by warp (its conditions uniform per warp).
 * - A barrier-free kernel with a grid-stride loop at its top level is
 *   generated in regions too, the loop run in lockstep: iteration k of
 *   every thread, then k + 1 (find_lockstep).
 *
 * Shared arrays are one buffer per block (static offsets into `shared`,
 * dynamic ones at `dyn`); local arrays one per thread. Both shared memory
 * and the per-thread state of a kernel with barriers (locals, crossing
 * values, local arrays: `nthreads` copies of each) live in the block
 * storage the runtime hands out (kj_rt_block_storage, abi.h), not on the
 * stack: 1024 threads' worth of a 32 KB local array would overflow it.
 * Blocks and threads run serially in a fixed order, so print() output is
 * deterministic. */
#include "kernel_int.h"

#include "../ir/builtins.h"
#include "../ir/kir_inline.h"
#include "../abi/abi.h"

#include <string.h>

enum { KX_TID = 0, KX_BID = 3, KX_BDIM = 6, KX_GDIM = 9 };
enum { KXF_DIMS, KXF_SHARED, KXF_DYN, KXF_DYN_BYTES, KXF_STORE, KXF_STORE_BYTES, KXF_STORE_GUARD };
enum { SHARED_ALIGN = 16, MAX_STATIC_SHARED = 48 * 1024 };
/* Scalar per-thread state up to this many bytes per thread (at most
 * 1 MiB of stack for a block of 1024 threads) stays on the stack. */
enum { MAX_STACK_STATE = 1024 };

static const kj_type T_I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};

bool kj_cg_device_side(const kir_func *f) { return f->kind == KIR_FN_KERNEL || f->kind == KIR_FN_DEVICE; }

/* ---- small helpers ---- */

static LLVMTypeRef kx_type(kj_cg *cg)
{
    LLVMTypeRef f[7] = {LLVMArrayType2(cg->t_i64, 12), cg->t_ptr, cg->t_ptr, cg->t_i64,
                        cg->t_ptr, cg->t_i64, cg->t_i64};
    return LLVMStructTypeInContext(cg->ctx, f, 7, 0);
}

static LLVMValueRef kx_field(kj_cg *cg, LLVMValueRef kx, unsigned field)
{
    return LLVMBuildStructGEP2(cg->b, kx_type(cg), kx, field, "");
}

static LLVMValueRef kx_dim_ptr(kj_cg *cg, LLVMValueRef kx, unsigned k)
{
    LLVMValueRef idx[3] = {kj_cg_i32(cg, 0), kj_cg_i32(cg, KXF_DIMS), kj_cg_i32(cg, k)};
    return LLVMBuildInBoundsGEP2(cg->b, kx_type(cg), kx, idx, 3, "");
}

static LLVMValueRef kx_dim(kj_cg *cg, LLVMValueRef kx, unsigned k)
{
    return LLVMBuildLoad2(cg->b, cg->t_i64, kx_dim_ptr(cg, kx, k), "");
}

/* A counted loop k = start .. n-1. */
LLVMValueRef kj_kn_loop_from(kj_cg *cg, cloop *l, LLVMValueRef start, LLVMValueRef n, const char *name)
{
    l->start = start;
    l->pre = LLVMGetInsertBlock(cg->b);
    LLVMValueRef fn = LLVMGetBasicBlockParent(l->pre);
    l->head = LLVMAppendBasicBlockInContext(cg->ctx, fn, name);
    l->body = LLVMAppendBasicBlockInContext(cg->ctx, fn, "body");
    l->latch = LLVMAppendBasicBlockInContext(cg->ctx, fn, "next");
    l->exit = LLVMAppendBasicBlockInContext(cg->ctx, fn, "done");
    LLVMBuildBr(cg->b, l->head);
    LLVMPositionBuilderAtEnd(cg->b, l->head);
    l->k = LLVMBuildPhi(cg->b, cg->t_i64, name);
    LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, l->k, n, ""), l->body, l->exit);
    LLVMPositionBuilderAtEnd(cg->b, l->body);
    return l->k;
}

void kj_kn_loop_end(kj_cg *cg, cloop *l)
{
    LLVMBuildBr(cg->b, l->latch);
    LLVMMoveBasicBlockAfter(l->latch, LLVMGetInsertBlock(cg->b));
    LLVMPositionBuilderAtEnd(cg->b, l->latch);
    LLVMValueRef k1 = LLVMBuildAdd(cg->b, l->k, kj_cg_i64(cg, 1), "");
    LLVMSetNSW(k1, 1);
    LLVMBuildBr(cg->b, l->head);
    LLVMValueRef inc[2] = {l->start, k1};
    LLVMBasicBlockRef from[2] = {l->pre, l->latch};
    LLVMAddIncoming(l->k, inc, from, 2);
    LLVMMoveBasicBlockAfter(l->exit, l->latch);
    LLVMPositionBuilderAtEnd(cg->b, l->exit);
}

LLVMValueRef kj_kn_loop_begin(kj_cg *cg, cloop *l, LLVMValueRef n, const char *name)
{
    return kj_kn_loop_from(cg, l, kj_cg_i64(cg, 0), n, name);
}

static uint64_t type_size(kj_cg *cg, LLVMTypeRef t) { return LLVMABISizeOfType(cg->td, t); }

static void zero_fill(kj_cg *cg, LLVMValueRef p, LLVMValueRef bytes)
{
    LLVMBuildMemSet(cg->b, p, LLVMConstInt(cg->t_i8, 0, 0), bytes, SHARED_ALIGN);
}

static bool is_block_barrier(const kir_inst *in)
{
    return in->op == KIR_BUILTIN && kj_builtin_has(in->aux, KJ_BF_BARRIER);
}

/* Warp operations exchange values between the threads of a warp, so on
 * the cpu they split regions as barriers do (of the warp: see
 * kj_kn_warp_scope). */
static bool is_warp_op(const kir_inst *in)
{
    return in->op == KIR_BUILTIN && kj_builtin_has(in->aux, KJ_BF_WARP);
}

static bool is_barrier_builtin(const kir_inst *in) { return is_block_barrier(in) || is_warp_op(in); }

static bool has_sub_blocks(const kir_inst *in)
{
    return in->op == KIR_IF || in->op == KIR_LOOP || in->op == KIR_FOR || in->op == KIR_PFOR;
}

static bool stmt_has(const kir_func *f, kir_ref r, bool (*p)(const kir_inst *in));

typedef bool (*inst_pred)(const kir_inst *in);

static bool block_has(const kir_func *f, kir_blkid b, inst_pred p);

/* Does statement r contain an instruction p holds for (itself or in a
 * nested block)? */
static bool stmt_has(const kir_func *f, kir_ref r, inst_pred p)
{
    const kir_inst *in = &f->insts[r];
    if (p(in)) return true;
    if (!has_sub_blocks(in)) return false;
    if (block_has(f, in->blk[0], p)) return true;
    return in->op == KIR_IF && in->blk[1] && block_has(f, in->blk[1], p);
}

static bool block_has(const kir_func *f, kir_blkid b, inst_pred p)
{
    const kir_block *blk = &f->blocks[b];
    for (uint32_t k = 0; k < blk->n; k++)
        if (stmt_has(f, blk->v[k], p)) return true;
    return false;
}

/* ---- loops that only wait (docs/kernels_cpu.md, "Differences") ---- */

static bool atomic_builtin(int b)
{
    switch (b) {
    case KJ_B_ATOMIC_ADD: case KJ_B_ATOMIC_SUB: case KJ_B_ATOMIC_MAX: case KJ_B_ATOMIC_MIN:
    case KJ_B_ATOMIC_EXCH: case KJ_B_ATOMIC_AND: case KJ_B_ATOMIC_OR: case KJ_B_ATOMIC_XOR:
    case KJ_B_ATOMIC_CAS: case KJ_B_ATOMIC_CAS2: return true;
    default: return false;
    }
}

/* The builtins a waiting loop may call: atomics (a spin on a flag or a
 * lock), fences and the thread's coordinates. */
static bool wait_builtin(int b)
{
    switch (b) {
    case KJ_B_THREADFENCE: case KJ_B_THREADFENCE_BLOCK: case KJ_B_THREADFENCE_SYSTEM:
    case KJ_B_TID_X: case KJ_B_TID_Y: case KJ_B_TID_Z: case KJ_B_BID_X: case KJ_B_BID_Y: case KJ_B_BID_Z:
    case KJ_B_BDIM_X: case KJ_B_BDIM_Y: case KJ_B_BDIM_Z: case KJ_B_GDIM_X: case KJ_B_GDIM_Y: case KJ_B_GDIM_Z:
    case KJ_B_CUDA_GRID: case KJ_B_CUDA_GRIDSIZE: case KJ_B_LANEID: case KJ_B_WARPSIZE: return true;
    default: return atomic_builtin(b);
    }
}

/* An instruction a waiting loop cannot have: one that changes a local, or
 * memory other than through an atomic, or calls anything. */
static bool not_waiting(const kir_inst *in)
{
    switch ((kir_op)in->op) {
    case KIR_BUILTIN: return !wait_builtin(in->aux);
    case KIR_LOCAL_SET: case KIR_ARRAY_STORE: case KIR_CALL: case KIR_LAUNCH: case KIR_UFUNC_CALL:
    case KIR_UFUNC_REDUCE: case KIR_FOR: case KIR_PFOR: return true;
    default: return false;
    }
}

static bool reads_memory(const kir_inst *in)
{
    return in->op == KIR_ARRAY_LOAD || (in->op == KIR_BUILTIN && atomic_builtin(in->aux));
}

bool kj_cg_loop_waits(const kir_func *f, kir_blkid body)
{
    return !block_has(f, body, not_waiting) && block_has(f, body, reads_memory);
}

/* A statement with warp operations and no syncthreads runs warp by warp
 * (kj_kn_warp_scope), and so do the block-level statements inside it. */
static bool runs_warp_by_warp(const kir_func *f, kir_ref r)
{
    return stmt_has(f, r, is_warp_op) && !stmt_has(f, r, is_block_barrier);
}

/* A barrier of the block or of the warp: a region boundary. */
static bool has_barrier(const kir_func *f, kir_ref r) { return stmt_has(f, r, is_barrier_builtin); }
static bool block_has_barrier(const kir_func *f, kir_blkid b) { return block_has(f, b, is_barrier_builtin); }

/* ---- shared memory layout ---- */

static int64_t round_up(int64_t n) { return (n + SHARED_ALIGN - 1) / SHARED_ALIGN * SHARED_ALIGN; }

/* The bytes of shared array `in` in the block (0: dynamic, sized by the
 * launch), or -1 when its shape is not a constant. */
static int64_t shared_array_bytes(const kir_func *f, const kir_inst *in)
{
    int64_t dims[KJ_ABI_MAX_DIMS];
    unsigned nd = in->type->ndim;
    if (!kj_cg_const_shape(f, in->args[0], dims, nd)) return -1;
    const kj_type *e = in->type->elem;
    int64_t n = kj_cg_elem_count(dims, nd), isz = e->kind == KJ_T_BOOL ? 1 : e->bits / 8; /* memory form */
    return n == 0 ? 0 : round_up(n * isz);
}

static bool is_shared_array(const kir_inst *in) { return in->op == KIR_BUILTIN && in->aux == KJ_B_SHARED_ARRAY; }

int64_t kj_codegen_kernel_static_shared(const kir_func *f)
{
    int64_t total = 0;
    for (uint32_t r = 1; r < f->ninsts; r++) {
        int64_t b = is_shared_array(&f->insts[r]) ? shared_array_bytes(f, &f->insts[r]) : 0;
        total += b > 0 ? b : 0;
    }
    return total;
}

static void layout_shared(kj_cg *cg, kj_cg_kern *kn)
{
    const kir_func *f = kn->kf;
    kn->shoff = KJ_NEWN(cg->a, int64_t, f->ninsts + 1);
    for (uint32_t r = 1; r < f->ninsts; r++) {
        const kir_inst *in = &f->insts[r];
        if (!is_shared_array(in)) continue;
        int64_t size = shared_array_bytes(f, in);
        if (size < 0) {
            kj_cg_fail(cg, in->span, "the shape of cuda.shared.array must be a constant");
            continue;
        }
        if (size == 0) {
            kn->shoff[r] = -1;
            kn->dyn_shared = true;
            continue;
        }
        kn->shoff[r] = kn->shared_bytes;
        kn->shared_bytes += size;
        /* each array is within the limit (sema); together they may not be */
        if (kn->shared_bytes > MAX_STATIC_SHARED && kn->shared_bytes - size <= MAX_STATIC_SHARED)
            kj_cg_fail(cg, in->span,
                       "the static shared arrays of kernel '%s' need %lld bytes or more per block, over "
                       "the %d-byte limit",
                       f->name, (long long)kn->shared_bytes, MAX_STATIC_SHARED);
    }
}

static LLVMValueRef byte_gep(kj_cg *cg, LLVMValueRef base, LLVMValueRef off)
{
    return LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, base, &off, 1, "");
}

/* The per-thread state's bytes per thread: a constant known only when the
 * whole body has been generated (kj_cg_kernel_body sets it), read from a
 * global that the optimiser folds. */
static LLVMValueRef thread_bytes(kj_cg *cg, kj_cg_kern *kn)
{
    const char *name = kj_arena_printf(cg->a, "%s.thread_bytes", kn->kf->mangled);
    kn->tbytes_g = LLVMAddGlobal(cg->mod, cg->t_i64, name);
    LLVMSetLinkage(kn->tbytes_g, LLVMPrivateLinkage);
    LLVMSetGlobalConstant(kn->tbytes_g, 1);
    LLVMSetInitializer(kn->tbytes_g, kj_cg_i64(cg, 0));
    return LLVMBuildLoad2(cg->b, cg->t_i64, kn->tbytes_g, "thread.bytes");
}

static LLVMValueRef block_threads(kj_cg *cg, LLVMValueRef kx)
{
    LLVMValueRef yz = LLVMBuildMul(cg->b, kx_dim(cg, kx, KX_BDIM + 1), kx_dim(cg, kx, KX_BDIM + 2), "");
    return LLVMBuildMul(cg->b, kx_dim(cg, kx, KX_BDIM), yz, "nthreads");
}

/* At the top of K.block: the block's own copy of the kernel context, with
 * its shared memory (zeroed, for deterministic programs) and, for a kernel
 * with barriers, the base of its per-thread state. All of it is one block
 * storage of the runtime's (kj_rt_block_storage, through kx_in, which
 * keeps it from block to block): static shared, nthreads × the per-thread
 * bytes, then dynamic shared, last, so that the runtime can end it at a
 * guard page: a launch with too few shared bytes for what the kernel
 * writes faults there (without boundscheck) instead of corrupting the
 * heap. */
static LLVMValueRef block_context(kj_cg *cg, kj_cg_kern *kn, LLVMValueRef rt, LLVMValueRef kx_in)
{
    LLVMTypeRef kt = kx_type(cg);
    LLVMValueRef kx = LLVMBuildAlloca(cg->b, kt, "kx");
    LLVMBuildStore(cg->b, LLVMBuildLoad2(cg->b, kt, kx_in, ""), kx);
    if (kn->regions) kn->nthreads = block_threads(cg, kx);
    if (!kn->shared_bytes && !kn->dyn_shared && !kn->regions) return kx;
    LLVMValueRef dyn = kj_cg_i64(cg, 0);
    if (kn->dyn_shared) { /* rounded up, as every part is */
        LLVMValueRef n = LLVMBuildLoad2(cg->b, cg->t_i64, kx_field(cg, kx, KXF_DYN_BYTES), "");
        dyn = LLVMBuildAnd(cg->b, LLVMBuildAdd(cg->b, n, kj_cg_i64(cg, SHARED_ALIGN - 1), ""),
                           kj_cg_i64(cg, -SHARED_ALIGN), "");
    }
    LLVMValueRef shared = kj_cg_i64(cg, kn->shared_bytes), threads = kj_cg_i64(cg, 0);
    if (kn->regions) threads = LLVMBuildMul(cg->b, kn->nthreads, thread_bytes(cg, kn), "");
    LLVMValueRef before_dyn = LLVMBuildAdd(cg->b, shared, threads, "");
    LLVMValueRef total = LLVMBuildAdd(cg->b, before_dyn, dyn, "");
    LLVMValueRef a[6] = {rt, kx_in, total, kj_cg_i32(cg, kn->dyn_shared),
                         kj_cg_i32(cg, kn->kf->span.line), kj_cg_i32(cg, kn->kf->span.col)};
    LLVMValueRef base = kj_cg_rtcall(cg, KJ_RTF_BLOCK_STORAGE, a, 6);
    /* as malloc's: nothing else the block reads or writes points into it */
    LLVMAddCallSiteAttribute(base, LLVMAttributeReturnIndex, kj_cg_attr(cg, "noalias", 0));
    if (kn->shared_bytes) {
        zero_fill(cg, base, shared);
        LLVMBuildStore(cg->b, base, kx_field(cg, kx, KXF_SHARED));
    }
    if (kn->regions) kn->tstore = byte_gep(cg, base, shared);
    if (kn->dyn_shared) {
        LLVMValueRef buf = byte_gep(cg, base, before_dyn);
        zero_fill(cg, buf, dyn);
        LLVMBuildStore(cg->b, buf, kx_field(cg, kx, KXF_DYN));
    }
    return kx;
}

/* ---- declarations ---- */

LLVMValueRef kj_cg_kernel_declare(kj_cg *cg, const kir_func *f)
{
    if (f->kind == KIR_FN_DEVICE) return kj_cg_declare(cg, f, kj_cg_fn_name(cg, f), true);
    /* K.block_entry(rt, kx, args): what kj_rt_launch calls for each block
     * (abi.h); declared now so that launches in host code can name it. */
    LLVMTypeRef p[3] = {cg->t_ptr, cg->t_ptr, cg->t_ptr};
    const char *entry = kj_arena_printf(cg->a, "%s.block_entry", f->mangled);
    /* external: kjit_launch looks it up */
    LLVMValueRef e = LLVMAddFunction(cg->mod, entry, LLVMFunctionType(cg->t_void, p, 3, 0));
    LLVMAddAttributeAtIndex(e, LLVMAttributeFunctionIndex, kj_cg_attr(cg, "nounwind", 0));
    /* K.block(rt, kx, args...): runs one block. */
    const char *name = kj_arena_printf(cg->a, "%s.block", f->mangled);
    return kj_cg_declare(cg, f, name, true);
}

/* K.block_entry(rt, kx, args): unpack the arguments from their memory
 * form (args[k] points to argument k) and run the block. */
static void define_block_entry(kj_cg *cg, const kir_func *f, LLVMValueRef block)
{
    LLVMValueRef fn = LLVMGetNamedFunction(cg->mod, kj_arena_printf(cg->a, "%s.block_entry", f->mangled));
    LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(cg->ctx, fn, "entry"));
    LLVMValueRef *a = KJ_NEWN(cg->a, LLVMValueRef, f->nparams + 2);
    a[0] = LLVMGetParam(fn, 0);
    a[1] = LLVMGetParam(fn, 1);
    uint32_t nl, used = 0;
    const kj_type **leaf = kj_kargs_leaf_types(cg, f, &nl, NULL);
    LLVMValueRef *lv = KJ_NEWN(cg->a, LLVMValueRef, nl + 1);
    for (uint32_t k = 0; k < nl; k++) { /* args holds the leaves (llvm_kargs.c) */
        LLVMValueRef idx = kj_cg_i64(cg, k);
        LLVMValueRef slot = LLVMBuildInBoundsGEP2(cg->b, cg->t_ptr, LLVMGetParam(fn, 2), &idx, 1, "");
        LLVMValueRef p = LLVMBuildLoad2(cg->b, cg->t_ptr, slot, "");
        lv[k] = kj_cg_from_mem(cg, leaf[k], LLVMBuildLoad2(cg->b, kj_cg_memtype(cg, leaf[k]), p, ""));
    }
    for (uint32_t k = 0; k < f->nparams; k++) a[k + 2] = kj_kargs_join(cg, f->params[k], lv, &used);
    LLVMBuildCall2(cg->b, LLVMGlobalGetValueType(block), block, a, f->nparams + 2, "");
    LLVMBuildRetVoid(cg->b);
}

/* A device function with barriers, warp operations or shared arrays has
 * been inlined into every kernel that calls it (kir_inline.h), since a
 * kernel's regions need its barriers in its own body; what remains of it
 * on the host is never called: a stub that traps. */
static void define_inlined_stub(kj_cg *cg, LLVMValueRef fn)
{
    LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(cg->ctx, fn, "entry"));
    kj_cg_intrinsic(cg, "llvm.trap", NULL, NULL, 0);
    LLVMBuildUnreachable(cg->b);
}

/* Does the kernel read threadIdx.y/z (cuda.grid(2), ...)? Its thread
 * loops are then left out of kj_llvm_optimise's range check elimination
 * (KJ_THREAD_LOOP_ATTR), which splits the y loop around a 2-D bounds test
 * and slows the 3x3 stencil down by half (measured); a 1-D kernel's
 * `if i < n:` gains (the unmasked loop runs at the @jit loop's speed). */
static bool uses_2d_threads(const kir_func *f)
{
    for (uint32_t r = 1; r < f->ninsts; r++) {
        const kir_inst *in = &f->insts[r];
        if (in->op != KIR_BUILTIN) continue;
        if (in->aux == KJ_B_TID_Y || in->aux == KJ_B_TID_Z) return true;
        if ((in->aux == KJ_B_CUDA_GRID || in->aux == KJ_B_CUDA_GRIDSIZE) && in->type->kind == KJ_T_TUPLE) return true;
    }
    return false;
}

static void mark_thread_loops(kj_cg *cg, const kir_func *f, LLVMValueRef blockfn)
{
    if (uses_2d_threads(f)) return;
    LLVMAddAttributeAtIndex(blockfn, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(cg->ctx, KJ_THREAD_LOOP_ATTR, (unsigned)strlen(KJ_THREAD_LOOP_ATTR),
                                                      "", 0));
}

/* K.block for a kernel without barriers: loops over the threads, calling
 * the per-thread function `thread` (inlined). */
static void define_thread_loops(kj_cg *cg, kj_cg_kern *kn, LLVMValueRef blockfn, LLVMValueRef thread)
{
    const kir_func *f = kn->kf;
    LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(cg->ctx, blockfn, "entry"));
    LLVMValueRef kx = block_context(cg, kn, LLVMGetParam(blockfn, 0), LLVMGetParam(blockfn, 1));
    LLVMValueRef *args = KJ_NEWN(cg->a, LLVMValueRef, f->nparams + 2);
    args[0] = LLVMGetParam(blockfn, 0);
    args[1] = kx;
    for (uint32_t k = 0; k < f->nparams; k++) args[k + 2] = LLVMGetParam(blockfn, k + 2);
    LLVMValueRef bd[3];
    for (unsigned d = 0; d < 3; d++) bd[d] = kx_dim(cg, kx, KX_BDIM + d);
    cloop l[3];
    for (int d = 2; d >= 0; d--) {
        static const char *names[3] = {"tx", "ty", "tz"};
        LLVMValueRef t = kj_kn_loop_begin(cg, &l[d], bd[d], names[d]);
        LLVMBuildStore(cg->b, t, kx_dim_ptr(cg, kx, KX_TID + (unsigned)d));
    }
    LLVMBuildCall2(cg->b, LLVMGlobalGetValueType(thread), thread, args, f->nparams + 2, "");
    for (int d = 0; d < 3; d++) kj_kn_loop_end(cg, &l[d]);
    LLVMBuildRetVoid(cg->b);
    mark_thread_loops(cg, f, blockfn);
}

static void prepare_regions(kj_cg *cg, kj_cg_kern *kn);

/* A barrier-free kernel whose body has a loop `for i in range(start, ...)`
 * at its top level with a start that is not a constant (the grid-stride
 * loop: start = cuda.grid(1), step = cuda.gridsize(1)) runs that loop in
 * lockstep (emit_lockstep_loop): iteration k of every thread of the block,
 * then k + 1, so that consecutive threads touch consecutive elements, as
 * on a GPU. Run thread after thread, each would walk the whole array
 * (all of memory, one element per cache line). */
static bool find_lockstep(kj_cg *cg, kj_cg_kern *kn)
{
    const kir_func *f = kn->kf;
    const kir_block *top = &f->blocks[0];
    bool any = false;
    for (uint32_t k = 0; k < top->n; k++) {
        const kir_inst *in = &f->insts[top->v[k]];
        if (in->op != KIR_FOR || f->insts[in->a].op == KIR_CONST_INT) continue;
        if (!kn->lockstep) kn->lockstep = KJ_NEWN(cg->a, bool, f->ninsts + 1);
        kn->lockstep[top->v[k]] = any = true;
    }
    return any;
}

void kj_cg_kernel_define(kj_cg *cg, const kir_func *f, LLVMValueRef fn)
{
    if (f->kind == KIR_FN_DEVICE) {
        if (kir_needs_inline(f)) define_inlined_stub(cg, fn);
        else kj_cg_define(cg, f, fn, NULL);
        return;
    }
    kj_cg_kern *kn = KJ_NEW(cg->a, kj_cg_kern);
    kn->kf = f;
    layout_shared(cg, kn);
    kn->regions = block_has_barrier(f, 0) || find_lockstep(cg, kn);
    if (kn->regions) {
        prepare_regions(cg, kn);
        kj_cg_define(cg, f, fn, kn);
    } else {
        LLVMValueRef thread = kj_cg_declare(cg, f, kj_cg_fn_name(cg, f), true);
        LLVMAddAttributeAtIndex(thread, LLVMAttributeFunctionIndex, kj_cg_attr(cg, "alwaysinline", 0));
        kj_cg_define(cg, f, thread, kn);
        define_thread_loops(cg, kn, fn, thread);
    }
    define_block_entry(cg, f, fn);
}

LLVMValueRef kj_cg_device_call(kj_cg *cg, const kir_inst *in)
{
    const kir_func *f = in->fn;
    LLVMValueRef callee = LLVMGetNamedFunction(cg->mod, kj_cg_fn_name(cg, f));
    bool inlined = cg->tgt == &kj_target_host && kir_needs_inline(f); /* kir_inline.c: never called */
    if (!callee || f->kind != KIR_FN_DEVICE || !cg->fn->kx || inlined) {
        kj_cg_fail(cg, in->span, "call of '%s', which is not compiled for the host", f->name);
        return in->type ? LLVMGetUndef(kj_cg_type(cg, in->type)) : NULL;
    }
    LLVMValueRef *args = KJ_NEWN(cg->a, LLVMValueRef, in->nargs + 2);
    args[0] = cg->fn->rt;
    args[1] = cg->fn->kx;
    for (uint32_t k = 0; k < in->nargs; k++) args[k + 2] = kj_cg_val(cg, in->args[k]);
    LLVMValueRef r = LLVMBuildCall2(cg->b, LLVMGlobalGetValueType(callee), callee, args, in->nargs + 2, "");
    if (!kj_cg_is_void(f->ret)) return r;
    return in->type ? kj_cg_zero(cg, in->type) : NULL;
}

/* ---- kernels with barriers: regions ----
 *
 * Region ids: every maximal run of barrier-free statements of a block is
 * one region; a statement that contains a barrier gets an id of its own
 * (it runs at block level) and its sub-blocks are numbered in turn. */

static void mark_tree(kj_cg_kern *kn, kir_ref r, uint32_t id);

static void mark_block(kj_cg_kern *kn, kir_blkid b, uint32_t id)
{
    const kir_block *blk = &kn->kf->blocks[b];
    for (uint32_t k = 0; k < blk->n; k++) mark_tree(kn, blk->v[k], id);
}

static void mark_tree(kj_cg_kern *kn, kir_ref r, uint32_t id)
{
    const kir_inst *in = &kn->kf->insts[r];
    kn->region[r] = id;
    if (!has_sub_blocks(in)) return;
    mark_block(kn, in->blk[0], id);
    if (in->op == KIR_IF && in->blk[1]) mark_block(kn, in->blk[1], id);
}

/* Does statement r run at block level (regions split around it)? */
static bool splits(const kj_cg_kern *kn, kir_ref r)
{
    return has_barrier(kn->kf, r) || (kn->lockstep && kn->lockstep[r]);
}

static void number_regions(kj_cg_kern *kn, kir_blkid b, uint32_t *next)
{
    const kir_func *f = kn->kf;
    const kir_block *blk = &f->blocks[b];
    uint32_t run = 0;
    for (uint32_t k = 0; k < blk->n; k++) {
        kir_ref r = blk->v[k];
        const kir_inst *in = &f->insts[r];
        if (!splits(kn, r)) {
            if (!run) run = (*next)++;
            mark_tree(kn, r, run);
            continue;
        }
        run = 0;
        kn->region[r] = (*next)++;
        if (!has_sub_blocks(in)) continue;
        number_regions(kn, in->blk[0], next);
        if (in->op == KIR_IF && in->blk[1]) number_regions(kn, in->blk[1], next);
    }
}

static void note_use(kj_cg *cg, kj_cg_kern *kn, kir_ref user, kir_ref op)
{
    if (!op || kn->region[op] == kn->region[user] || !kn->region[op]) return;
    kn->crossing[op] = true;
    for (uint32_t k = 0; k < kn->nuses; k++)
        if (kn->uses[k].ref == op && kn->uses[k].region == kn->region[user]) return;
    if (kn->nuses == kn->cap_uses) {
        uint32_t nc = kn->cap_uses ? kn->cap_uses * 2 : 16;
        kn->uses = kj_arena_grow(cg->a, kn->uses, kn->nuses, nc, sizeof *kn->uses);
        kn->cap_uses = nc;
    }
    kn->uses[kn->nuses++] = (ref_use){kn->region[user], op};
}

/* Locals set once, at the top level, to a parameter (`set x, %param`: the
 * parameters of the kernel) hold the same value in every thread: one
 * variable, which LLVM keeps in a register, rather than one per thread. */
static void find_uniform_locals(kj_cg *cg, kj_cg_kern *kn)
{
    const kir_func *f = kn->kf;
    kn->uniform_local = KJ_NEWN(cg->a, bool, f->nlocals + 1);
    uint32_t *sets = KJ_NEWN(cg->a, uint32_t, f->nlocals + 1);
    for (uint32_t r = 1; r < f->ninsts; r++) {
        if (f->insts[r].op == KIR_LOCAL_SET) sets[f->insts[r].i]++;
        if (f->insts[r].op == KIR_FOR) sets[f->insts[r].i] += 2; /* set by the loop */
    }
    const kir_block *top = &f->blocks[0];
    for (uint32_t k = 0; k < top->n; k++) {
        const kir_inst *in = &f->insts[top->v[k]];
        if (in->op == KIR_LOCAL_SET && sets[in->i] == 1 && f->insts[in->a].op == KIR_PARAM)
            kn->uniform_local[in->i] = true;
    }
}

/* Which values cross regions, and where each is read. */
static void prepare_regions(kj_cg *cg, kj_cg_kern *kn)
{
    const kir_func *f = kn->kf;
    kn->region = KJ_NEWN(cg->a, uint32_t, f->ninsts + 1);
    kn->crossing = KJ_NEWN(cg->a, bool, f->ninsts + 1);
    kn->wuniform = kj_kn_find_uniform(cg, f);
    kn->slot = KJ_NEWN(cg->a, LLVMValueRef, f->ninsts + 1);
    uint32_t next = 1;
    number_regions(kn, 0, &next);
    find_uniform_locals(cg, kn);
    for (uint32_t r = 1; r < f->ninsts; r++) {
        const kir_inst *in = &f->insts[r];
        if (!kn->region[r]) continue;
        if (in->op == KIR_RETURN) kn->returns = true;
        if (in->op != KIR_PARAM && in->op != KIR_LOCAL_GET && in->op != KIR_LOCAL_SET &&
            in->op != KIR_CONST_INT && in->op != KIR_CONST_FLOAT && in->op != KIR_CONST_STR &&
            in->op != KIR_CONST_NONE && in->op != KIR_BREAK && in->op != KIR_CONTINUE) {
            note_use(cg, kn, r, in->a);
            note_use(cg, kn, r, in->b);
            note_use(cg, kn, r, in->c);
        } else if (in->op == KIR_LOCAL_SET) {
            note_use(cg, kn, r, in->a);
        }
        for (uint32_t k = 0; k < in->nargs; k++) note_use(cg, kn, r, in->args[k]);
    }
}

LLVMTypeRef kj_kn_ref_type(kj_cg *cg, kir_ref r) { return kj_cg_type(cg, cg->fn->kf->insts[r].type); }

/* `bytes` per thread of the block's per-thread state: the base of its
 * nthreads × bytes (thread t's part at base + t × bytes). Offsets are
 * multiples of 16 bytes per thread, so every part stays 16-byte aligned. */
static LLVMValueRef per_thread_bytes(kj_cg *cg, int64_t bytes, const char *name)
{
    kj_cg_kern *kn = cg->fn->kern;
    LLVMValueRef off = LLVMBuildMul(cg->b, kn->nthreads, kj_cg_i64(cg, kn->tbytes), "");
    kn->tbytes += round_up(bytes);
    LLVMValueRef p = byte_gep(cg, kn->tstore, off);
    LLVMSetValueName2(p, name, strlen(name));
    return p;
}

/* Per-thread storage of one value of type t per thread, zeroed: on the
 * stack while the kernel's scalar state is small (separate allocas, which
 * LLVM knows do not alias, so it keeps the values in registers), else in
 * the block storage. */
static LLVMValueRef per_thread(kj_cg *cg, LLVMTypeRef t, const char *name)
{
    kj_cg_kern *kn = cg->fn->kern;
    int64_t size = (int64_t)type_size(cg, t);
    LLVMValueRef p;
    if (kn->state_on_stack) {
        p = LLVMBuildArrayAlloca(cg->b, t, kn->nthreads, name);
        LLVMSetAlignment(p, SHARED_ALIGN);
    } else {
        p = per_thread_bytes(cg, size, name);
    }
    zero_fill(cg, p, LLVMBuildMul(cg->b, kn->nthreads, kj_cg_i64(cg, size), ""));
    return p;
}

LLVMValueRef kj_kn_per_thread(kj_cg *cg, LLVMTypeRef t, const char *name) { return per_thread(cg, t, name); }

/* Bytes per thread of the scalar state: locals, crossing values, the
 * exited and jump flags (what per_thread gives out in kj_cg_kernel_body). */
static int64_t scalar_state_bytes(kj_cg *cg, kj_cg_kern *kn)
{
    const kir_func *f = kn->kf;
    int64_t n = 2;
    for (uint32_t k = 0; k < f->nlocals; k++) n += (int64_t)type_size(cg, kj_cg_type(cg, f->locals[k].type));
    for (uint32_t r = 1; r < f->ninsts; r++) {
        const kir_inst *in = &f->insts[r];
        if (kn->crossing[r]) n += (int64_t)type_size(cg, kj_kn_ref_type(cg, r));
        if (!has_sub_blocks(in) || !runs_warp_by_warp(f, r) || kn->wuniform[r]) continue;
        n += 2; /* kn_div: save, left, a FOR's range */
        if (in->op == KIR_FOR) n += 3 * (int64_t)type_size(cg, kj_cg_type(cg, f->locals[in->i].type));
    }
    return n;
}

LLVMValueRef kj_kn_at_thread(kj_cg *cg, LLVMTypeRef t, LLVMValueRef base, LLVMValueRef tid)
{
    return LLVMBuildInBoundsGEP2(cg->b, t, base, &tid, 1, "");
}

/* A loop over the threads of the current scope (the block, or a warp). */
LLVMValueRef kj_kn_scope_begin(kj_cg *cg, cloop *l, const char *name)
{
    kj_cg_kern *kn = cg->fn->kern;
    return kj_kn_loop_from(cg, l, kn->lo, kn->hi, name);
}

LLVMValueRef kj_cg_kernel_local(kj_cg *cg, uint32_t k)
{
    kj_cg_kern *kn = cg->fn->kern;
    if (!kn || !kn->regions || kn->uniform_local[k]) return cg->fn->locals[k];
    LLVMTypeRef t = kj_cg_type(cg, cg->fn->kf->locals[k].type);
    return kj_kn_at_thread(cg, t, cg->fn->locals[k], kn->tid ? kn->tid : kj_cg_i64(cg, 0));
}


LLVMValueRef kj_kn_state_ptr(kj_cg *cg, LLVMValueRef th)
{
    return kj_kn_at_thread(cg, cg->t_i8, cg->fn->kern->state, th);
}

/* if (state[t] != 0) goto next: thread t has returned or sits out its
 * warp's branch (kernels that may return early or diverge in a warp). */
LLVMBasicBlockRef kj_kn_skip_exited(kj_cg *cg, LLVMValueRef t, LLVMBasicBlockRef next)
{
    kj_cg_kern *kn = cg->fn->kern;
    if (!kn->returns && !kn->diverges) return NULL;
    LLVMValueRef e = LLVMBuildLoad2(cg->b, cg->t_i8, kj_kn_state_ptr(cg, t), "");
    LLVMBasicBlockRef live = kj_cg_bb(cg, "live");
    LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntNE, e, LLVMConstInt(cg->t_i8, 0, 0), ""), next, live);
    LLVMPositionBuilderAtEnd(cg->b, live);
    return live;
}

static const char *const DIVERGENT =
    "threads of a block disagree on a condition around cuda.syncthreads() (on the cpu target every "
    "thread of a block must reach the same barriers)";
/* kj_kn_find_uniform found the condition the same in every lane of a warp */
static const char *const DIVERGENT_WARP = "internal error: threads of a warp disagree on a condition kjit "
                                          "found uniform around a warp operation";

/* The value of crossing ref r (or of per-thread array base of type t)
 * in the first live thread, checked to be the same in every live thread. */
static LLVMValueRef uniform(kj_cg *cg, LLVMTypeRef t, LLVMValueRef base, const kj_type *kt, kj_span sp)
{
    LLVMValueRef cur = kj_cg_alloca(cg, t, "uniform");
    LLVMValueRef seen = kj_cg_alloca(cg, cg->t_i1, "seen");
    LLVMBuildStore(cg->b, LLVMConstNull(t), cur);
    LLVMBuildStore(cg->b, LLVMConstInt(cg->t_i1, 0, 0), seen);
    cloop l;
    LLVMValueRef th = kj_kn_scope_begin(cg, &l, "t");
    kj_kn_skip_exited(cg, th, l.latch);
    LLVMValueRef v = LLVMBuildLoad2(cg->b, t, kj_kn_at_thread(cg, t, base, th), "");
    bool scalar = kt && (kt->kind == KJ_T_INT || kt->kind == KJ_T_BOOL || kt->kind == KJ_T_FLOAT);
    if (scalar) {
        LLVMValueRef old = LLVMBuildLoad2(cg->b, t, cur, "");
        LLVMValueRef ne = kt->kind == KJ_T_FLOAT ? LLVMBuildFCmp(cg->b, LLVMRealUNE, v, old, "")
                                                 : LLVMBuildICmp(cg->b, LLVMIntNE, v, old, "");
        LLVMValueRef bad = LLVMBuildAnd(cg->b, LLVMBuildLoad2(cg->b, cg->t_i1, seen, ""), ne, "");
        kj_cg_raise_if(cg, bad, KJ_RT_RUNTIME, cg->fn->kern->in_warp ? DIVERGENT_WARP : DIVERGENT, sp);
    }
    LLVMBuildStore(cg->b, v, cur);
    LLVMBuildStore(cg->b, LLVMConstInt(cg->t_i1, 1, 0), seen);
    kj_kn_loop_end(cg, &l);
    return LLVMBuildLoad2(cg->b, t, cur, "");
}

static LLVMValueRef uniform_ref(kj_cg *cg, kir_ref r, kj_span sp)
{
    kj_cg_kern *kn = cg->fn->kern;
    if (!kn->slot[r]) return kj_cg_val(cg, r); /* a constant of the block level */
    return uniform(cg, kj_kn_ref_type(cg, r), kn->slot[r], cg->fn->kf->insts[r].type, sp);
}

/* Store v into every thread's element of base (every running thread's
 * when `running`: those that sit out a branch keep their own). */
static void store_all(kj_cg *cg, LLVMTypeRef t, LLVMValueRef base, LLVMValueRef v, bool running)
{
    cloop l;
    LLVMValueRef th = kj_kn_scope_begin(cg, &l, "t");
    if (running) kj_kn_skip_exited(cg, th, l.latch);
    LLVMBuildStore(cg->b, v, kj_kn_at_thread(cg, t, base, th));
    kj_kn_loop_end(cg, &l);
}

static LLVMTypeRef lock_type(kj_cg *cg);
static void lock_step(kj_cg *cg, LLVMValueRef th, LLVMBasicBlockRef next);

/* Value r, read by a block-level statement, as thread th has it. */
LLVMValueRef kj_kn_ref_at(kj_cg *cg, kir_ref r, LLVMValueRef th)
{
    kj_cg_kern *kn = cg->fn->kern;
    if (!kn->slot[r]) return kj_cg_val(cg, r); /* a constant of the block level */
    LLVMTypeRef t = kj_kn_ref_type(cg, r);
    return LLVMBuildLoad2(cg->b, t, kj_kn_at_thread(cg, t, kn->slot[r], th), "");
}

/* After a region whose threads may leave it for a block-level loop: all
 * live threads must agree; then reset and go. */
static void dispatch_jumps(kj_cg *cg, kj_span sp)
{
    kj_cg_kern *kn = cg->fn->kern;
    LLVMValueRef code = uniform(cg, cg->t_i8, kn->jmp, &(kj_type){.kind = KJ_T_INT, .bits = 8}, sp);
    zero_fill(cg, kn->jmp, kn->nthreads);
    if (!kn->nbloops) return;
    kj_cg_loop *l = &kn->bloops[kn->nbloops - 1];
    LLVMBasicBlockRef cont = kj_cg_bb(cg, "region.end");
    LLVMValueRef sw = LLVMBuildSwitch(cg->b, code, cont, 2);
    LLVMAddCase(sw, LLVMConstInt(cg->t_i8, JUMP_BREAK, 0), l->brk);
    LLVMAddCase(sw, LLVMConstInt(cg->t_i8, JUMP_CONTINUE, 0), l->cont);
    LLVMPositionBuilderAtEnd(cg->b, cont);
}

/* After a region of a kernel that returns early: stop when no thread is
 * left (a block-level loop would otherwise spin with nobody to end it). */
static void stop_if_all_exited(kj_cg *cg)
{
    kj_cg_kern *kn = cg->fn->kern;
    LLVMValueRef live = kj_cg_alloca(cg, cg->t_i64, "live");
    LLVMBuildStore(cg->b, kj_cg_i64(cg, 0), live);
    cloop l;
    LLVMValueRef th = kj_kn_scope_begin(cg, &l, "t");
    LLVMValueRef e = LLVMBuildLoad2(cg->b, cg->t_i8, kj_kn_state_ptr(cg, th), "");
    e = LLVMBuildAnd(cg->b, e, LLVMConstInt(cg->t_i8, THREAD_EXITED, 0), "");
    LLVMValueRef one = LLVMBuildZExt(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, e, LLVMConstInt(cg->t_i8, 0, 0), ""),
                                     cg->t_i64, "");
    LLVMBuildStore(cg->b, LLVMBuildAdd(cg->b, LLVMBuildLoad2(cg->b, cg->t_i64, live, ""), one, ""), live);
    kj_kn_loop_end(cg, &l);
    LLVMBasicBlockRef done = kj_cg_bb(cg, "all.exited"), cont = kj_cg_bb(cg, "some.live");
    LLVMValueRef none = LLVMBuildICmp(cg->b, LLVMIntEQ, LLVMBuildLoad2(cg->b, cg->t_i64, live, ""),
                                      kj_cg_i64(cg, 0), "");
    LLVMBuildCondBr(cg->b, none, done, cont);
    LLVMPositionBuilderAtEnd(cg->b, done);
    if (kn->in_warp) LLVMBuildBr(cg->b, kn->warp_next); /* this warp is done */
    else LLVMBuildRetVoid(cg->b);
    LLVMPositionBuilderAtEnd(cg->b, cont);
}

/* The statements v[0..n) (no barriers) for every thread of the block. */
static void emit_region(kj_cg *cg, const kir_ref *v, uint32_t n)
{
    kj_cgfn *fn = cg->fn;
    kj_cg_kern *kn = fn->kern;
    uint32_t id = kn->region[v[0]];
    kn->jumps = false;
    cloop l;
    LLVMValueRef th = kj_kn_scope_begin(cg, &l, "thread");
    kn->tid = th;
    kn->next = l.latch;
    kj_kn_skip_exited(cg, th, l.latch);
    if (kn->lock) lock_step(cg, th, l.latch);
    /* threadIdx from the linear id: x fastest */
    LLVMValueRef bx = kx_dim(cg, fn->kx, KX_BDIM), by = kx_dim(cg, fn->kx, KX_BDIM + 1);
    LLVMValueRef tx = LLVMBuildURem(cg->b, th, bx, ""), rest = LLVMBuildUDiv(cg->b, th, bx, "");
    LLVMBuildStore(cg->b, tx, kx_dim_ptr(cg, fn->kx, KX_TID));
    LLVMBuildStore(cg->b, LLVMBuildURem(cg->b, rest, by, ""), kx_dim_ptr(cg, fn->kx, KX_TID + 1));
    LLVMBuildStore(cg->b, LLVMBuildUDiv(cg->b, rest, by, ""), kx_dim_ptr(cg, fn->kx, KX_TID + 2));
    for (uint32_t k = 0; k < kn->nuses; k++) {
        if (kn->uses[k].region != id) continue;
        kir_ref r = kn->uses[k].ref;
        LLVMTypeRef t = kj_kn_ref_type(cg, r);
        fn->vals[r] = LLVMBuildLoad2(cg->b, t, kj_kn_at_thread(cg, t, kn->slot[r], th), "");
    }
    /* a marker: break/continue that reach it leave the region (gen_jump) */
    kj_cg_loop marker = {NULL, NULL};
    uint32_t saved = fn->nloops;
    if (fn->nloops == fn->cap_loops) {
        uint32_t nc = fn->cap_loops ? fn->cap_loops * 2 : 8;
        fn->loops = kj_arena_grow(cg->a, fn->loops, fn->nloops, nc, sizeof *fn->loops);
        fn->cap_loops = nc;
    }
    fn->loops[fn->nloops++] = marker;
    for (uint32_t k = 0; k < n; k++) {
        kj_cg_stmt(cg, v[k]);
        if (kn->slot[v[k]])
            LLVMBuildStore(cg->b, kj_cg_val(cg, v[k]), kj_kn_at_thread(cg, kj_kn_ref_type(cg, v[k]), kn->slot[v[k]], th));
    }
    fn->nloops = saved;
    kj_kn_loop_end(cg, &l);
    kn->tid = NULL;
    if (kn->jumps) dispatch_jumps(cg, fn->kf->insts[v[n - 1]].span);
    if (kn->returns) stop_if_all_exited(cg);
}

bool kj_cg_kernel_return(kj_cg *cg)
{
    kj_cg_kern *kn = cg->fn->kern;
    if (!kn || !kn->regions || !kn->tid) return false;
    LLVMBuildStore(cg->b, LLVMConstInt(cg->t_i8, THREAD_EXITED, 0), kj_kn_state_ptr(cg, kn->tid));
    LLVMBuildBr(cg->b, kn->next);
    LLVMPositionBuilderAtEnd(cg->b, kj_cg_bb(cg, "dead"));
    return true;
}

void kj_cg_kernel_jump(kj_cg *cg, const kir_inst *in)
{
    kj_cg_kern *kn = cg->fn->kern;
    if (!kn || !kn->tid || !kn->nbloops) {
        kj_cg_fail(cg, in->span, "'%s' outside a loop", kir_op_name((kir_op)in->op));
        return;
    }
    if (kn->lock) { /* a lockstep loop: each thread leaves or goes on alone */
        if (in->op == KIR_BREAK)
            LLVMBuildStore(cg->b, LLVMConstNull(lock_type(cg)), kj_kn_at_thread(cg, lock_type(cg), kn->lock->trips, kn->tid));
        LLVMBuildBr(cg->b, kn->next);
        LLVMPositionBuilderAtEnd(cg->b, kj_cg_bb(cg, "dead"));
        return;
    }
    if (kn->in_warp && kn->nbloops > kn->warp_bloops && kn->bleft[kn->nbloops - 1]) { /* a divergent loop */
        kj_kn_warp_jump(cg, in);
        return;
    }
    if (kn->in_warp && kn->nbloops == kn->warp_bloops) {
        kj_cg_fail(cg, in->span,
                   "'%s' out of a statement with warp operations to a loop around cuda.syncthreads() is not "
                   "supported on the cpu target yet",
                   kir_op_name((kir_op)in->op));
        return;
    }
    int code = in->op == KIR_BREAK ? JUMP_BREAK : JUMP_CONTINUE;
    LLVMBuildStore(cg->b, LLVMConstInt(cg->t_i8, (unsigned long long)code, 0),
                   kj_kn_at_thread(cg, cg->t_i8, kn->jmp, kn->tid));
    kn->jumps = true;
    LLVMBuildBr(cg->b, kn->next);
    LLVMPositionBuilderAtEnd(cg->b, kj_cg_bb(cg, "dead"));
}

void kj_kn_push_bloop(kj_cg *cg, LLVMBasicBlockRef brk, LLVMBasicBlockRef cont, LLVMValueRef left)
{
    kj_cg_kern *kn = cg->fn->kern;
    if (kn->nbloops == kn->cap_bloops) {
        uint32_t nc = kn->cap_bloops ? kn->cap_bloops * 2 : 4;
        kn->bloops = kj_arena_grow(cg->a, kn->bloops, kn->nbloops, nc, sizeof *kn->bloops);
        kn->bleft = kj_arena_grow(cg->a, kn->bleft, kn->nbloops, nc, sizeof *kn->bleft);
        kn->cap_bloops = nc;
    }
    kn->bleft[kn->nbloops] = left;
    kn->bloops[kn->nbloops++] = (kj_cg_loop){brk, cont};
}

/* syncthreads_count/and/or(p): over the live threads' predicates. */
static void emit_sync_reduce(kj_cg *cg, kir_ref r, const kir_inst *in)
{
    kj_cg_kern *kn = cg->fn->kern;
    if (!kn->slot[r]) return; /* the result is unused */
    LLVMValueRef cnt = kj_cg_alloca(cg, cg->t_i64, "count"), all = kj_cg_alloca(cg, cg->t_i64, "live");
    LLVMBuildStore(cg->b, kj_cg_i64(cg, 0), cnt);
    LLVMBuildStore(cg->b, kj_cg_i64(cg, 0), all);
    kir_ref p = in->args[0];
    const kj_type *pt = cg->fn->kf->insts[p].type;
    cloop l;
    LLVMValueRef th = kj_kn_scope_begin(cg, &l, "t");
    kj_kn_skip_exited(cg, th, l.latch);
    LLVMValueRef v = kn->slot[p] ? LLVMBuildLoad2(cg->b, kj_kn_ref_type(cg, p), kj_kn_at_thread(cg, kj_kn_ref_type(cg, p), kn->slot[p], th), "")
                                 : kj_cg_val(cg, p);
    LLVMValueRef nz = pt->kind == KJ_T_FLOAT ? LLVMBuildFCmp(cg->b, LLVMRealUNE, v, LLVMConstNull(LLVMTypeOf(v)), "")
                                             : LLVMBuildICmp(cg->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
    LLVMValueRef c = LLVMBuildLoad2(cg->b, cg->t_i64, cnt, "");
    LLVMBuildStore(cg->b, LLVMBuildAdd(cg->b, c, LLVMBuildZExt(cg->b, nz, cg->t_i64, ""), ""), cnt);
    LLVMBuildStore(cg->b, LLVMBuildAdd(cg->b, LLVMBuildLoad2(cg->b, cg->t_i64, all, ""), kj_cg_i64(cg, 1), ""), all);
    kj_kn_loop_end(cg, &l);
    LLVMValueRef sum = LLVMBuildLoad2(cg->b, cg->t_i64, cnt, ""), n = LLVMBuildLoad2(cg->b, cg->t_i64, all, "");
    LLVMValueRef res = sum;
    if (in->aux == KJ_B_SYNCTHREADS_AND)
        res = LLVMBuildZExt(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, sum, n, ""), cg->t_i64, "");
    if (in->aux == KJ_B_SYNCTHREADS_OR)
        res = LLVMBuildZExt(cg->b, LLVMBuildICmp(cg->b, LLVMIntNE, sum, kj_cg_i64(cg, 0), ""), cg->t_i64, "");
    res = kj_cg_cast(cg, res, &T_I64, in->type);
    store_all(cg, kj_kn_ref_type(cg, r), kn->slot[r], res, false);
}

static void emit_block_if(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef c = uniform_ref(cg, in->a, in->span);
    LLVMBasicBlockRef then = kj_cg_bb(cg, "then"), merge = kj_cg_bb(cg, "endif");
    LLVMBasicBlockRef els = in->blk[1] ? kj_cg_bb(cg, "else") : merge;
    LLVMBuildCondBr(cg->b, c, then, els);
    LLVMPositionBuilderAtEnd(cg->b, then);
    kj_kn_seq(cg, in->blk[0]);
    LLVMBuildBr(cg->b, merge);
    if (in->blk[1]) {
        LLVMPositionBuilderAtEnd(cg->b, els);
        kj_kn_seq(cg, in->blk[1]);
        LLVMBuildBr(cg->b, merge);
    }
    LLVMMoveBasicBlockAfter(merge, LLVMGetInsertBlock(cg->b));
    LLVMPositionBuilderAtEnd(cg->b, merge);
}

/* A block-level `while` (LOOP), or FOR with uniform bounds. */
static void emit_block_loop(kj_cg *cg, const kir_inst *in)
{
    kj_cgfn *fn = cg->fn;
    kj_cg_kern *kn = fn->kern;
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(cg->b);
    LLVMValueRef n = NULL, start = NULL, step = NULL, k = NULL;
    const kj_type *t = in->op == KIR_FOR ? fn->kf->locals[in->i].type : NULL;
    if (in->op == KIR_FOR) {
        LLVMTypeRef ty = kj_cg_type(cg, t);
        start = uniform_ref(cg, in->a, in->span);
        LLVMValueRef stop = uniform_ref(cg, in->b, in->span);
        step = in->c ? uniform_ref(cg, in->c, in->span) : LLVMConstInt(ty, 1, 0);
        kj_cg_raise_if(cg, LLVMBuildICmp(cg->b, LLVMIntEQ, step, LLVMConstInt(ty, 0, 0), ""), KJ_RT_VALUE,
                       "range() arg 3 must not be zero", in->span);
        n = kj_cg_trip_count(cg, t, start, stop, step);
        pre = LLVMGetInsertBlock(cg->b);
    }
    LLVMBasicBlockRef head = kj_cg_bb(cg, "bloop"), body = kj_cg_bb(cg, "bbody"), latch = kj_cg_bb(cg, "bnext"),
                      exit = kj_cg_bb(cg, "bend");
    LLVMBuildBr(cg->b, head);
    LLVMPositionBuilderAtEnd(cg->b, head);
    if (n) {
        k = LLVMBuildPhi(cg->b, LLVMTypeOf(n), "k");
        LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntULT, k, n, ""), body, exit);
    } else {
        LLVMBuildBr(cg->b, body);
    }
    LLVMPositionBuilderAtEnd(cg->b, body);
    if (n) {
        LLVMValueRef i = LLVMBuildAdd(cg->b, start, LLVMBuildMul(cg->b, k, step, ""), "i");
        store_all(cg, LLVMTypeOf(i), fn->locals[in->i], i, kn->diverges);
    }
    kj_kn_push_bloop(cg, exit, latch, NULL);
    kj_kn_seq(cg, in->blk[0]);
    kn->nbloops--;
    LLVMBuildBr(cg->b, latch);
    LLVMMoveBasicBlockAfter(latch, LLVMGetInsertBlock(cg->b));
    LLVMPositionBuilderAtEnd(cg->b, latch);
    if (n) {
        LLVMValueRef k1 = LLVMBuildAdd(cg->b, k, LLVMConstInt(LLVMTypeOf(n), 1, 0), "");
        LLVMValueRef inc[2] = {LLVMConstInt(LLVMTypeOf(n), 0, 0), k1};
        LLVMBasicBlockRef from[2] = {pre, latch};
        LLVMAddIncoming(k, inc, from, 2);
    }
    LLVMBuildBr(cg->b, head);
    LLVMMoveBasicBlockAfter(exit, latch);
    LLVMPositionBuilderAtEnd(cg->b, exit);
}

/* ---- lockstep loops (find_lockstep) ---- */

static bool is_break(const kir_inst *in) { return in->op == KIR_BREAK; }

static bool kn_lockstep(kj_cg *cg, kir_ref r)
{
    kj_cg_kern *kn = cg->fn->kern;
    return kn->lockstep && kn->lockstep[r];
}

/* The type of the loop variable of the lockstep loop being generated. */
static LLVMTypeRef lock_type(kj_cg *cg)
{
    const kir_func *f = cg->fn->kf;
    return kj_cg_type(cg, f->locals[cg->fn->kern->lock->in->i].type);
}

static void prepare_lockstep(kj_cg *cg, kj_cg_kern *kn)
{
    const kir_func *f = kn->kf;
    kn->locks = KJ_NEWN(cg->a, lock_loop, f->ninsts + 1);
    for (uint32_t r = 1; r < f->ninsts; r++) {
        if (!kn->lockstep[r]) continue;
        lock_loop *lk = &kn->locks[r];
        LLVMTypeRef t = kj_cg_type(cg, f->locals[f->insts[r].i].type);
        lk->in = &f->insts[r];
        lk->breaks = block_has(f, f->insts[r].blk[0], is_break);
        lk->start = per_thread(cg, t, "lock.start");
        lk->step = per_thread(cg, t, "lock.step");
        lk->trips = per_thread(cg, t, "lock.trips");
    }
}

static void assume(kj_cg *cg, LLVMValueRef cond) { kj_cg_intrinsic(cg, "llvm.assume", NULL, &cond, 1); }

/* At the top of the body's region, in thread th: past its trip count the
 * thread skips the iteration, else its loop variable is set. */
static void lock_step(kj_cg *cg, LLVMValueRef th, LLVMBasicBlockRef next)
{
    kj_cg_kern *kn = cg->fn->kern;
    lock_loop *lk = kn->lock;
    const kj_type *t = cg->fn->kf->locals[lk->in->i].type;
    LLVMTypeRef ty = lock_type(cg);
    LLVMValueRef k = kj_cg_cast(cg, lk->k, &T_I64, t);
    LLVMBasicBlockRef fast = kj_cg_bb(cg, "affine"), slow = kj_cg_bb(cg, "general"), run = kj_cg_bb(cg, "iteration");
    LLVMBuildCondBr(cg->b, lk->affine, fast, slow);
    /* base + t + k * step while below stop (base >= 0, step > 0, no break
     * in the body): LLVM knows i >= 0, so that indexing needs no
     * wrap-around of negative indices and the loads stay contiguous */
    LLVMPositionBuilderAtEnd(cg->b, fast);
    LLVMValueRef ti = kj_cg_cast(cg, th, &T_I64, t);
    assume(cg, LLVMBuildICmp(cg->b, LLVMIntSGE, lk->base, LLVMConstNull(ty), ""));
    assume(cg, LLVMBuildICmp(cg->b, LLVMIntSGT, lk->step0, LLVMConstNull(ty), ""));
    LLVMValueRef fi = LLVMBuildNSWAdd(cg->b, LLVMBuildNSWAdd(cg->b, lk->base, ti, ""),
                                      LLVMBuildNSWMul(cg->b, k, lk->step0, ""), "");
    LLVMBuildCondBr(cg->b, kj_cg_less(cg, t, fi, lk->stop0), run, next);
    /* start[t] + k * step[t] for the first trips[t] iterations */
    LLVMPositionBuilderAtEnd(cg->b, slow);
    LLVMValueRef trips = LLVMBuildLoad2(cg->b, ty, kj_kn_at_thread(cg, ty, lk->trips, th), "");
    LLVMValueRef done = LLVMBuildICmp(cg->b, LLVMIntSGE, lk->k, kj_cg_cast(cg, trips, t, &T_I64), "");
    LLVMBasicBlockRef sgo = kj_cg_bb(cg, "general.go");
    LLVMBuildCondBr(cg->b, done, next, sgo);
    LLVMPositionBuilderAtEnd(cg->b, sgo);
    LLVMValueRef start = LLVMBuildLoad2(cg->b, ty, kj_kn_at_thread(cg, ty, lk->start, th), "");
    LLVMValueRef step = LLVMBuildLoad2(cg->b, ty, kj_kn_at_thread(cg, ty, lk->step, th), "");
    LLVMValueRef si = LLVMBuildAdd(cg->b, start, LLVMBuildMul(cg->b, k, step, ""), "");
    LLVMBuildBr(cg->b, run);
    LLVMPositionBuilderAtEnd(cg->b, run);
    LLVMValueRef i = LLVMBuildPhi(cg->b, ty, "i");
    LLVMValueRef inc[2] = {fi, si};
    LLVMBasicBlockRef from[2] = {fast, sgo};
    LLVMAddIncoming(i, inc, from, 2);
    LLVMBuildStore(cg->b, i, kj_cg_kernel_local(cg, (uint32_t)lk->in->i));
}

/* Whether the threads' loops are base + t + k * step (lock_loop.affine):
 * the first live thread's values, compared with every other's. */
typedef struct affine_state {
    LLVMTypeRef ty;
    LLVMValueRef ok, seen, base, step, stop; /* allocas */
} affine_state;

static void affine_begin(kj_cg *cg, affine_state *af, LLVMTypeRef ty, bool never)
{
    af->ty = ty;
    af->ok = kj_cg_alloca(cg, cg->t_i1, "affine");
    af->seen = kj_cg_alloca(cg, cg->t_i1, "seen");
    af->base = kj_cg_alloca(cg, ty, "base");
    af->step = kj_cg_alloca(cg, ty, "step0");
    af->stop = kj_cg_alloca(cg, ty, "stop0");
    LLVMBuildStore(cg->b, LLVMConstInt(cg->t_i1, !never, 0), af->ok);
    LLVMBuildStore(cg->b, LLVMConstInt(cg->t_i1, 0, 0), af->seen);
    LLVMValueRef z = LLVMConstNull(ty);
    LLVMBuildStore(cg->b, z, af->base);
    LLVMBuildStore(cg->b, z, af->step);
    LLVMBuildStore(cg->b, z, af->stop);
}

static void affine_thread(kj_cg *cg, affine_state *af, const kj_type *t, LLVMValueRef th, LLVMValueRef a,
                          LLVMValueRef b, LLVMValueRef c)
{
    LLVMBuilderRef bd = cg->b;
    LLVMValueRef base = LLVMBuildSub(bd, a, kj_cg_cast(cg, th, &T_I64, t), "");
    LLVMValueRef seen = LLVMBuildLoad2(bd, cg->t_i1, af->seen, "");
    LLVMValueRef b0 = LLVMBuildLoad2(bd, af->ty, af->base, ""), c0 = LLVMBuildLoad2(bd, af->ty, af->step, "");
    LLVMValueRef e0 = LLVMBuildLoad2(bd, af->ty, af->stop, "");
    LLVMValueRef same = LLVMBuildAnd(bd, LLVMBuildICmp(bd, LLVMIntEQ, base, b0, ""),
                                     LLVMBuildAnd(bd, LLVMBuildICmp(bd, LLVMIntEQ, c, c0, ""),
                                                  LLVMBuildICmp(bd, LLVMIntEQ, b, e0, ""), ""), "");
    LLVMValueRef ok = LLVMBuildLoad2(bd, cg->t_i1, af->ok, "");
    LLVMBuildStore(bd, LLVMBuildAnd(bd, ok, LLVMBuildOr(bd, LLVMBuildNot(bd, seen, ""), same, ""), ""), af->ok);
    LLVMBuildStore(bd, LLVMBuildSelect(bd, seen, b0, base, ""), af->base);
    LLVMBuildStore(bd, LLVMBuildSelect(bd, seen, c0, c, ""), af->step);
    LLVMBuildStore(bd, LLVMBuildSelect(bd, seen, e0, b, ""), af->stop);
    LLVMBuildStore(bd, LLVMConstInt(cg->t_i1, 1, 0), af->seen);
}

/* The affine path also needs base >= 0 and step > 0 (so that LLVM may
 * know i >= 0), and stop + step + the scope's threads within the type: i
 * is computed with no-signed-wrap arithmetic up to a step past stop. Loop
 * variables of unsigned types take the general path. */
static void affine_end(kj_cg *cg, affine_state *af, lock_loop *lk, const kj_type *t)
{
    kj_cg_kern *kn = cg->fn->kern;
    lk->base = LLVMBuildLoad2(cg->b, af->ty, af->base, "base");
    lk->step0 = LLVMBuildLoad2(cg->b, af->ty, af->step, "step0");
    lk->stop0 = LLVMBuildLoad2(cg->b, af->ty, af->stop, "stop0");
    if (!kj_cg_is_signed(t)) {
        lk->affine = LLVMConstInt(cg->t_i1, 0, 0);
        return;
    }
    LLVMValueRef z = LLVMConstNull(af->ty);
    LLVMValueRef smax = LLVMConstInt(af->ty, (1ULL << (LLVMGetIntTypeWidth(af->ty) - 1)) - 1, 0);
    LLVMValueRef room = LLVMBuildSub(cg->b, LLVMBuildSub(cg->b, smax, lk->step0, ""),
                                     kj_cg_cast(cg, kn->hi, &T_I64, t), "");
    LLVMValueRef ok = LLVMBuildAnd(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGE, lk->base, z, ""),
                                   LLVMBuildICmp(cg->b, LLVMIntSGT, lk->step0, z, ""), "");
    ok = LLVMBuildAnd(cg->b, ok, LLVMBuildICmp(cg->b, LLVMIntSLE, lk->stop0, room, ""), "");
    lk->affine = LLVMBuildAnd(cg->b, LLVMBuildLoad2(cg->b, cg->t_i1, af->ok, ""), ok, "affine");
}


/* The most trips of the threads' loops: in the affine case those of the
 * scope's first thread (the lowest start; one division), else every
 * thread's, kept per thread for lock_step's general path. */
static LLVMValueRef lock_trips(kj_cg *cg, lock_loop *lk, const kj_type *t)
{
    kj_cg_kern *kn = cg->fn->kern;
    LLVMTypeRef ty = kj_cg_type(cg, t);
    LLVMValueRef most = kj_cg_alloca(cg, cg->t_i64, "most");
    LLVMBasicBlockRef fast = kj_cg_bb(cg, "trips.affine"), slow = kj_cg_bb(cg, "trips.general"),
                      done = kj_cg_bb(cg, "trips.done");
    LLVMBuildCondBr(cg->b, lk->affine, fast, slow);
    LLVMPositionBuilderAtEnd(cg->b, fast);
    LLVMValueRef first = LLVMBuildAdd(cg->b, lk->base, kj_cg_cast(cg, kn->lo, &T_I64, t), "");
    LLVMBuildStore(cg->b, kj_cg_cast(cg, kj_cg_trip_count(cg, t, first, lk->stop0, lk->step0), t, &T_I64), most);
    LLVMBuildBr(cg->b, done);
    LLVMPositionBuilderAtEnd(cg->b, slow);
    LLVMBuildStore(cg->b, kj_cg_i64(cg, 0), most);
    cloop l;
    LLVMValueRef th = kj_kn_scope_begin(cg, &l, "t");
    kj_kn_skip_exited(cg, th, l.latch);
    LLVMValueRef a = LLVMBuildLoad2(cg->b, ty, kj_kn_at_thread(cg, ty, lk->start, th), "");
    LLVMValueRef c = LLVMBuildLoad2(cg->b, ty, kj_kn_at_thread(cg, ty, lk->step, th), "");
    LLVMValueRef n = kj_cg_trip_count(cg, t, a, kj_kn_ref_at(cg, lk->in->b, th), c);
    LLVMBuildStore(cg->b, n, kj_kn_at_thread(cg, ty, lk->trips, th));
    LLVMValueRef n64 = kj_cg_cast(cg, n, t, &T_I64), m = LLVMBuildLoad2(cg->b, cg->t_i64, most, "");
    LLVMBuildStore(cg->b, LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGT, n64, m, ""), n64, m, ""), most);
    kj_kn_loop_end(cg, &l);
    LLVMBuildBr(cg->b, done);
    LLVMPositionBuilderAtEnd(cg->b, done);
    return LLVMBuildLoad2(cg->b, cg->t_i64, most, "");
}

void kj_kn_range_at(kj_cg *cg, const kir_inst *in, LLVMTypeRef ty, LLVMValueRef th, LLVMValueRef start,
                    LLVMValueRef step, LLVMValueRef abc[3])
{
    abc[0] = kj_kn_ref_at(cg, in->a, th), abc[1] = kj_kn_ref_at(cg, in->b, th);
    abc[2] = in->c ? kj_kn_ref_at(cg, in->c, th) : LLVMConstInt(ty, 1, 0);
    kj_cg_raise_if(cg, LLVMBuildICmp(cg->b, LLVMIntEQ, abc[2], LLVMConstInt(ty, 0, 0), ""), KJ_RT_VALUE,
                   "range() arg 3 must not be zero", in->span);
    LLVMBuildStore(cg->b, abc[0], kj_kn_at_thread(cg, ty, start, th));
    LLVMBuildStore(cg->b, abc[2], kj_kn_at_thread(cg, ty, step, th));
}

/* for i in range(a, b, c) in lockstep: every thread's a and c (is the loop
 * affine?), the trip counts, then iterations k = 0 .. the most trips, each
 * a region over the threads that still have iteration k. */
static void emit_lockstep_loop(kj_cg *cg, kir_ref r)
{
    kj_cg_kern *kn = cg->fn->kern;
    const kir_inst *in = &cg->fn->kf->insts[r];
    lock_loop *lk = &kn->locks[r];
    const kj_type *t = cg->fn->kf->locals[in->i].type;
    LLVMTypeRef ty = kj_cg_type(cg, t);
    affine_state af;
    affine_begin(cg, &af, ty, lk->breaks);
    cloop l;
    LLVMValueRef th = kj_kn_scope_begin(cg, &l, "t");
    kj_kn_skip_exited(cg, th, l.latch);
    LLVMValueRef abc[3];
    kj_kn_range_at(cg, in, ty, th, lk->start, lk->step, abc);
    affine_thread(cg, &af, t, th, abc[0], abc[1], abc[2]);
    kj_kn_loop_end(cg, &l);
    affine_end(cg, &af, lk, t);
    LLVMValueRef most = lock_trips(cg, lk, t);
    cloop kl;
    lk->k = kj_kn_loop_begin(cg, &kl, most, "k");
    kn->lock = lk;
    kj_kn_push_bloop(cg, kl.exit, kl.latch, NULL);
    kj_kn_seq(cg, in->blk[0]);
    kn->nbloops--;
    kn->lock = NULL;
    kj_kn_loop_end(cg, &kl);
}

/* A statement that contains a barrier, once per block. */
void kj_kn_block_stmt(kj_cg *cg, kir_ref r)
{
    const kir_inst *in = &cg->fn->kf->insts[r];
    switch ((kir_op)in->op) {
    case KIR_BUILTIN: /* the region boundary is the barrier itself */
        if (is_warp_op(in))
            kj_kn_warp_op(cg, r, in);
        else if (in->aux == KJ_B_GRID_SYNC)
            kj_cg_grid_sync_host(cg, in);
        else if (in->aux != KJ_B_SYNCTHREADS)
            emit_sync_reduce(cg, r, in);
        break;
    case KIR_IF:
        if (cg->fn->kern->in_warp && !cg->fn->kern->wuniform[r]) kj_kn_warp_if(cg, r);
        else emit_block_if(cg, in);
        break;
    case KIR_LOOP:
    case KIR_FOR:
        if (kn_lockstep(cg, r)) emit_lockstep_loop(cg, r);
        else if (cg->fn->kern->in_warp && !cg->fn->kern->wuniform[r]) kj_kn_warp_loop(cg, r);
        else emit_block_loop(cg, in);
        break;
    default:
        kj_cg_fail(cg, in->span, "cuda.syncthreads() inside '%s' is not supported on the cpu target yet",
                   kir_op_name((kir_op)in->op));
        break;
    }
}

void kj_kn_seq(kj_cg *cg, kir_blkid b)
{
    const kir_func *f = cg->fn->kf;
    const kir_block *blk = &f->blocks[b];
    uint32_t k = 0;
    while (k < blk->n) {
        if (splits(cg->fn->kern, blk->v[k])) {
            kir_ref r = blk->v[k++];
            kj_cg_kern *kn = cg->fn->kern;
            if (!kn->in_warp && has_sub_blocks(&f->insts[r]) && runs_warp_by_warp(f, r))
                kj_kn_warp_scope(cg, r);
            else
                kj_kn_block_stmt(cg, r);
            continue;
        }
        uint32_t j = k;
        while (j < blk->n && !splits(cg->fn->kern, blk->v[j])) j++;
        emit_region(cg, blk->v + k, j - k);
        k = j;
    }
}

bool kj_cg_kernel_body(kj_cg *cg)
{
    kj_cgfn *fn = cg->fn;
    kj_cg_kern *kn = fn->kern;
    if (!kn || !kn->regions) return false;
    const kir_func *f = fn->kf;
    kn->state_on_stack = scalar_state_bytes(cg, kn) <= MAX_STACK_STATE;
    fn->kx = block_context(cg, kn, fn->rt, LLVMGetParam(fn->fn, 1));
    kn->lo = kj_cg_i64(cg, 0);
    kn->hi = kn->nthreads;
    fn->locals = KJ_NEWN(cg->a, LLVMValueRef, f->nlocals + 1);
    for (uint32_t k = 0; k < f->nlocals; k++) {
        const char *name = f->locals[k].name ? f->locals[k].name : "tmp";
        LLVMTypeRef t = kj_cg_type(cg, f->locals[k].type);
        fn->locals[k] = kn->uniform_local[k] ? kj_cg_alloca(cg, t, name) : per_thread(cg, t, name);
    }
    if (kn->lockstep) prepare_lockstep(cg, kn);
    for (uint32_t r = 1; r < f->ninsts; r++)
        if (kn->crossing[r]) kn->slot[r] = per_thread(cg, kj_kn_ref_type(cg, r), "cross");
    kn->state = per_thread(cg, cg->t_i8, "state");
    kn->jmp = per_thread(cg, cg->t_i8, "jump");
    kn->div = KJ_NEWN(cg->a, kn_div, f->ninsts + 1);
    for (uint32_t r = 1; r < f->ninsts; r++)
        if (has_sub_blocks(&f->insts[r]) && runs_warp_by_warp(f, r) && !kn->wuniform[r]) kj_kn_div_prepare(cg, r);
    kj_kn_seq(cg, 0);
    LLVMSetInitializer(kn->tbytes_g, kj_cg_i64(cg, kn->tbytes)); /* now known */
    return true;
}

/* ---- the host target's side of cuda.* (llvm_cuda.c has the rest) ---- */

static LLVMValueRef host_sreg(kj_cg *cg, kj_sreg r, unsigned d)
{
    static const unsigned base[4] = {KX_TID, KX_BID, KX_BDIM, KX_GDIM};
    return kx_dim(cg, cg->fn->kx, base[r] + d);
}

/* The lane: the linear thread index within the block (x fastest) mod 32. */
static LLVMValueRef host_laneid(kj_cg *cg)
{
    LLVMValueRef kx = cg->fn->kx;
    LLVMValueRef bx = kx_dim(cg, kx, KX_BDIM), by = kx_dim(cg, kx, KX_BDIM + 1);
    LLVMValueRef z = LLVMBuildMul(cg->b, kx_dim(cg, kx, KX_TID + 2), by, "");
    LLVMValueRef yz = LLVMBuildMul(cg->b, LLVMBuildAdd(cg->b, z, kx_dim(cg, kx, KX_TID + 1), ""), bx, "");
    return LLVMBuildURem(cg->b, LLVMBuildAdd(cg->b, yz, kx_dim(cg, kx, KX_TID), ""), kj_cg_i64(cg, 32), "");
}

static LLVMValueRef host_shared_array(kj_cg *cg, const kir_inst *in)
{
    kj_cg_kern *kn = cg->fn->kern;
    kir_ref r = (kir_ref)(in - cg->fn->kf->insts);
    if (!kn || !kn->shoff) return LLVMGetUndef(kj_cg_type(cg, in->type));
    LLVMValueRef dims[KJ_ABI_MAX_DIMS];
    int64_t cd[KJ_ABI_MAX_DIMS] = {0};
    kj_cg_const_shape(cg->fn->kf, in->args[0], cd, in->type->ndim);
    LLVMValueRef data;
    if (kn->shoff[r] < 0) { /* dynamic: the whole of the launch's shared bytes */
        data = LLVMBuildLoad2(cg->b, cg->t_ptr, kx_field(cg, cg->fn->kx, KXF_DYN), "");
        LLVMValueRef bytes = LLVMBuildLoad2(cg->b, cg->t_i64, kx_field(cg, cg->fn->kx, KXF_DYN_BYTES), "");
        int64_t isz = (int64_t)type_size(cg, kj_cg_memtype(cg, in->type->elem));
        dims[0] = LLVMBuildSDiv(cg->b, bytes, kj_cg_i64(cg, isz), "");
        for (unsigned k = 1; k < in->type->ndim; k++) dims[k] = kj_cg_i64(cg, cd[k]);
    } else {
        LLVMValueRef base = LLVMBuildLoad2(cg->b, cg->t_ptr, kx_field(cg, cg->fn->kx, KXF_SHARED), "");
        LLVMValueRef off = kj_cg_i64(cg, kn->shoff[r]);
        data = LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, base, &off, 1, "");
        for (unsigned k = 0; k < in->type->ndim; k++) dims[k] = kj_cg_i64(cg, cd[k]);
    }
    return kj_cg_c_array(cg, in->type, data, dims);
}

/* cuda.local.array: per thread, zeroed where it is created. */
static LLVMValueRef host_local_array(kj_cg *cg, const kir_inst *in)
{
    int64_t cd[KJ_ABI_MAX_DIMS];
    unsigned nd = in->type->ndim;
    if (!kj_cg_const_shape(cg->fn->kf, in->args[0], cd, nd)) {
        kj_cg_fail(cg, in->span, "the shape of cuda.local.array must be a constant");
        return LLVMGetUndef(kj_cg_type(cg, in->type));
    }
    int64_t bytes = kj_cg_elem_count(cd, nd) * (int64_t)type_size(cg, kj_cg_memtype(cg, in->type->elem));
    if (bytes < 1) bytes = 1;
    kj_cg_kern *kn = cg->fn->kern;
    LLVMValueRef data;
    if (kn && kn->regions && kn->tid) { /* per thread, in the block storage */
        LLVMValueRef base = per_thread_bytes(cg, bytes, "local");
        data = byte_gep(cg, base, LLVMBuildMul(cg->b, kn->tid, kj_cg_i64(cg, round_up(bytes)), ""));
    } else { /* a barrier-free kernel's thread, a device function: at most 512 KiB (sema) */
        data = kj_cg_alloca(cg, LLVMArrayType2(cg->t_i8, (uint64_t)bytes), "local");
        LLVMSetAlignment(data, SHARED_ALIGN);
    }
    zero_fill(cg, data, kj_cg_i64(cg, bytes));
    LLVMValueRef dims[KJ_ABI_MAX_DIMS];
    for (unsigned k = 0; k < nd; k++) dims[k] = kj_cg_i64(cg, cd[k]);
    return kj_cg_c_array(cg, in->type, data, dims);
}

/* Barriers and warp operations are emulated on the cpu, but as block-level
 * statements of a kernel split into regions (kj_kn_block_stmt here, the
 * warp exchanges in llvm_kernel_warp.c), never as values of a per-thread
 * function: a function that has one is such a kernel or a device function
 * inlined into one (kir_inline.c). These hooks are reached only by a
 * compiler bug, and say so. */
static LLVMValueRef host_block_level(kj_cg *cg, const kir_inst *in)
{
    const kj_builtin_info *bi = kj_builtin_get((kj_builtin)in->aux);
    kj_cg_fail(cg, in->span, "internal compiler error: '%s' outside the block-level statements of a kernel",
               bi ? bi->path : "?");
    return in->type && !kj_cg_is_void(in->type) ? LLVMGetUndef(kj_cg_type(cg, in->type)) : NULL;
}

const kj_cg_target kj_target_host = {
    .name = "host",
    .kernel_declare = kj_cg_kernel_declare,
    .kernel_define = kj_cg_kernel_define,
    .sreg = host_sreg,
    .laneid = host_laneid,
    .shared_array = host_shared_array,
    .local_array = host_local_array,
    .barrier = host_block_level,
    .warp = host_block_level,
    .body = kj_cg_kernel_body,
    .local_ptr = kj_cg_kernel_local,
    .ret = kj_cg_kernel_return,
    .jump = kj_cg_kernel_jump,
};
