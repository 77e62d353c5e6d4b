/* SPDX-License-Identifier: BSD-2-Clause */
/* Ufunc calls in host code, shared by the host loop (llvm_ufunc.c) and the
 * launch of a ufunc's kernel on the GPU (llvm_ufunc_gpu.c): the operands as
 * the generated code sees them, and the runtime's shape work. */
#ifndef KJ_LLVM_UFUNC_H
#define KJ_LLVM_UFUNC_H

#include "codegen.h"

#include "../abi/abi.h"

enum { MAX_UF_OPS = 16 };

/* One operand of a ufunc call, as the generated loop uses it. */
typedef struct uf_op {
    bool array;           /* walks an array (else `value` is passed each time) */
    LLVMValueRef desc;    /* the array's descriptor (value) */
    LLVMValueRef data;    /* its data pointer */
    LLVMValueRef strides[KJ_ABI_MAX_DIMS]; /* byte strides over the loop dimensions */
    LLVMValueRef value;   /* a scalar input */
    const kj_type *elem;  /* element (or scalar) type */
    const kj_type *param; /* the compiled function's parameter type */
    int ndim, ncore;
    LLVMValueRef view;    /* gufunc: the core view template (data filled per iteration) */
    LLVMValueRef temp;    /* gufunc: storage of a scalar passed as a 1-element array */
} uf_op;

typedef struct uf_call {
    const kir_inst *in;
    const kir_func *f;
    LLVMValueRef callee;
    uf_op op[MAX_UF_OPS];
    int nin, nops, loop_ndim;
    LLVMValueRef shape[KJ_ABI_MAX_DIMS];
    bool flat; /* the contiguous loop: element i of every array */
} uf_call;

/* Operand o from KIR value r. */
void kj_cg_uf_operand(kj_cg *cg, uf_op *o, kir_ref r);

/* @vectorize f(a, b[, out=o]): the operands of c (c->in, c->f set), the
 * descriptors to pass the runtime (descp) and the outputs it must make
 * (alloc); c->loop_ndim. False after reporting. */
bool kj_cg_uf_vectorize_operands(kj_cg *cg, uf_call *c, LLVMValueRef *descp, int32_t *alloc);

/* @guvectorize g(...): the same, with the layout parsed (lay) and the core
 * specification for the runtime (*core). */
bool kj_cg_uf_gufunc_operands(kj_cg *cg, uf_call *c, kj_gu_layout *lay, LLVMValueRef *descp, int32_t *alloc,
                              LLVMValueRef *core);

/* kj_rt_ufunc_prepare: the loop shape (c->shape), each array operand's
 * strides over it, the outputs made (bit k of alloc). `layout`: a gufunc's
 * layout, '!' then a fused expression's tree (kir_fuse.c), or NULL. Returns
 * the contiguity flag (i32: every array C-contiguous with the loop's shape). */
LLVMValueRef kj_cg_uf_prepare(kj_cg *cg, uf_call *c, LLVMValueRef *descp, int32_t alloc, LLVMValueRef core,
                              const char *layout);

/* The kernel of a ufunc call on the GPU, launched (llvm_ufunc_gpu.c). */
LLVMValueRef kj_cg_ufunc_gpu(kj_cg *cg, uf_call *c);

#endif
