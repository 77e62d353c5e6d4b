/* SPDX-License-Identifier: BSD-2-Clause */
/* A ufunc call on the GPU, in host code: the runtime works out the
 * broadcast shape and makes the outputs (kj_rt_ufunc_prepare, as for the
 * host loop), then the call's kernel (src/ir/kir_gpu_ufunc.c) is launched
 * with every array operand as a view of the loop shape — its own strides,
 * 0 along the dimensions it is broadcast in, then its core dimensions for
 * a gufunc. When every array is C-contiguous with the loop's shape the
 * views have extent 1 in all dimensions but the last, which holds every
 * element: the kernel's flat loop, with no index arithmetic per element.
 *
 * An output the call makes is written whole by the kernel: its device copy
 * is allocated without an upload (KJ_ABI_FILL_UNSET) and its host copy
 * comes back only when host code reads it, as after any launch. */
#include "llvm_ufunc.h"

#include "../ir/kir_gpu_ufunc.h"

/* Threads per block, and the most blocks a launch asks for: beyond it each
 * thread takes several elements (the grid-stride loop). */
enum { UF_GPU_THREADS = 256, UF_GPU_MAX_BLOCKS = 1 << 20 };

static LLVMValueRef set_dim(kj_cg *cg, LLVMValueRef desc, unsigned field, unsigned d, LLVMValueRef v)
{
    LLVMValueRef arr = LLVMBuildExtractValue(cg->b, desc, field, "");
    return LLVMBuildInsertValue(cg->b, desc, LLVMBuildInsertValue(cg->b, arr, v, d, ""), field, "");
}

static LLVMValueRef stride_of(kj_cg *cg, LLVMValueRef desc, unsigned d)
{
    return LLVMBuildExtractValue(cg->b, LLVMBuildExtractValue(cg->b, desc, 2, ""), d, "");
}

/* Operand o as the kernel's parameter of type pt: the loop dimensions
 * (flat: all in the last one), then o's own core dimensions. */
static LLVMValueRef loop_view(kj_cg *cg, const uf_call *c, const uf_op *o, const kj_type *pt, LLVMValueRef flat,
                              LLVMValueRef total)
{
    unsigned nd = (unsigned)c->loop_ndim, ncore = (unsigned)pt->ndim - nd;
    LLVMValueRef v = LLVMGetUndef(kj_cg_array_type(cg, pt->ndim));
    v = LLVMBuildInsertValue(cg->b, v, o->data, 0, "");
    v = LLVMBuildInsertValue(cg->b, v, LLVMBuildExtractValue(cg->b, o->desc, 3, ""), 3, "");
    LLVMValueRef isz = kj_cg_i64(cg, (int64_t)LLVMABISizeOfType(cg->td, kj_cg_memtype(cg, o->elem)));
    LLVMValueRef one = kj_cg_i64(cg, 1), zero = kj_cg_i64(cg, 0);
    for (unsigned d = 0; d < nd; d++) {
        bool last = d + 1 == nd;
        LLVMValueRef n = LLVMBuildSelect(cg->b, flat, last ? total : one, c->shape[d], "");
        LLVMValueRef s = LLVMBuildSelect(cg->b, flat, last ? isz : zero, o->strides[d], "");
        v = set_dim(cg, v, 1, d, n);
        v = set_dim(cg, v, 2, d, s);
    }
    for (unsigned j = 0; j < ncore; j++) { /* the last ncore dimensions of o */
        unsigned src = (unsigned)o->ndim - ncore + j;
        v = set_dim(cg, v, 1, nd + j, kj_cg_array_dim(cg, o->desc, src));
        v = set_dim(cg, v, 2, nd + j, stride_of(cg, o->desc, src));
    }
    return v;
}

/* kernel[blocks, UF_GPU_THREADS](args) when there is an element. */
static void launch(kj_cg *cg, const uf_call *c, const kir_func *k, const LLVMValueRef *vals, LLVMValueRef total)
{
    LLVMBasicBlockRef go = kj_cg_bb(cg, "ufg.launch"), done = kj_cg_bb(cg, "ufg.done");
    LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGT, total, kj_cg_i64(cg, 0), ""), go, done);
    LLVMPositionBuilderAtEnd(cg->b, go);
    LLVMValueRef blocks = LLVMBuildSDiv(cg->b, LLVMBuildAdd(cg->b, total, kj_cg_i64(cg, UF_GPU_THREADS - 1), ""),
                                        kj_cg_i64(cg, UF_GPU_THREADS), "");
    LLVMValueRef cap = kj_cg_i64(cg, UF_GPU_MAX_BLOCKS);
    blocks = LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGT, blocks, cap, ""), cap, blocks, "");
    LLVMValueRef one = kj_cg_i64(cg, 1), zero = kj_cg_i64(cg, 0);
    LLVMValueRef cfg[8] = {blocks, one, one, kj_cg_i64(cg, UF_GPU_THREADS), one, one, zero, zero};
    kj_cg_launch_kernel(cg, k, cfg, vals, c->in);
    LLVMBuildBr(cg->b, done);
    LLVMPositionBuilderAtEnd(cg->b, done);
}

/* The outputs the call made: current on the device, with nothing to
 * upload first. A @vectorize kernel writes all of its output; a gufunc's
 * core function need not, and its outputs start as zeros on every target. */
static void fresh_outputs(kj_cg *cg, const uf_call *c, int32_t alloc, bool gufunc)
{
    int32_t fill = gufunc ? KJ_ABI_FILL_ZERO : KJ_ABI_FILL_UNSET;
    for (int k = 0; k < c->nops; k++) {
        if (!(alloc >> k & 1)) continue;
        LLVMValueRef a[5] = {cg->fn->rt, LLVMBuildExtractValue(cg->b, c->op[k].desc, 3, "owner"),
                             kj_cg_i32(cg, fill), kj_cg_line(cg, c->in), kj_cg_col(cg, c->in)};
        kj_cg_rtcall(cg, KJ_RTF_TO_DEVICE, a, 5);
    }
}

/* The call's value: the output (vectorize; a gufunc's single output it
 * made), or none when the outputs were passed. */
static LLVMValueRef result(kj_cg *cg, const uf_call *c)
{
    const kir_inst *in = c->in;
    if (in->type->kind != KJ_T_ARRAY) return kj_cg_zero(cg, in->type);
    return c->op[c->nin].desc;
}

LLVMValueRef kj_cg_ufunc_gpu(kj_cg *cg, uf_call *c)
{
    const kir_inst *in = c->in;
    const kir_func *k = in->fn;
    LLVMValueRef descp[MAX_UF_OPS], core = NULL;
    int32_t alloc = 0;
    kj_gu_layout lay;
    bool gu = c->f->kind == KIR_FN_GUFUNC;
    bool ok = gu ? kj_cg_uf_gufunc_operands(cg, c, &lay, descp, &alloc, &core)
                 : kj_cg_uf_vectorize_operands(cg, c, descp, &alloc);
    if (!ok) return LLVMGetUndef(kj_cg_type(cg, in->type));
    if ((int)k->nparams != c->nops) {
        kj_cg_fail(cg, in->span, "internal compiler error: the GPU kernel of '%s' has %u parameters for %d operands",
                   c->f->name, k->nparams, c->nops);
        return LLVMGetUndef(kj_cg_type(cg, in->type));
    }
    LLVMValueRef flag = kj_cg_uf_prepare(cg, c, descp, alloc, core, gu ? c->f->gu_layout : NULL);
    /* a gufunc's views keep their loop dimensions (the kernel tests them) */
    LLVMValueRef flat = gu ? LLVMConstInt(cg->t_i1, 0, 0) : LLVMBuildICmp(cg->b, LLVMIntNE, flag, kj_cg_i32(cg, 0), "");
    LLVMValueRef total = kj_cg_i64(cg, 1);
    for (int d = 0; d < c->loop_ndim; d++) total = LLVMBuildNSWMul(cg->b, total, c->shape[d], "");
    LLVMValueRef vals[MAX_UF_OPS];
    for (int j = 0; j < c->nops; j++) {
        const uf_op *o = &c->op[j];
        const kj_type *pt = k->params[j];
        vals[j] = pt->kind == KJ_T_ARRAY ? loop_view(cg, c, o, pt, flat, total) : o->value;
    }
    fresh_outputs(cg, c, alloc, gu);
    launch(cg, c, k, vals, total);
    return result(cg, c);
}
