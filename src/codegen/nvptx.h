/* SPDX-License-Identifier: BSD-2-Clause */
/* The NVPTX back end's files (nvptx.c: the target table, kernel entries,
 * the pipeline; nvptx_cuda.c: cuda.* on the GPU), for each other. */
#ifndef KJ_NVPTX_H
#define KJ_NVPTX_H

#include "codegen.h"

/* nvptx_cuda.c: the kernel questions of kj_target_nvptx */
LLVMValueRef kj_nvptx_sreg(kj_cg *cg, kj_sreg r, unsigned d);
LLVMValueRef kj_nvptx_laneid(kj_cg *cg);
LLVMValueRef kj_nvptx_barrier(kj_cg *cg, const kir_inst *in);
LLVMValueRef kj_nvptx_grid_sync(kj_cg *cg, const kir_inst *in); /* llvm_cuda_cg.c */
LLVMValueRef kj_nvptx_warp(kj_cg *cg, const kir_inst *in);
LLVMValueRef kj_nvptx_shared_array(kj_cg *cg, const kir_inst *in);
LLVMValueRef kj_nvptx_local_array(kj_cg *cg, const kir_inst *in);
LLVMValueRef kj_nvptx_print(kj_cg *cg, const kir_inst *in);

#endif
