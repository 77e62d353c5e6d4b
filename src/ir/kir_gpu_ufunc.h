/* SPDX-License-Identifier: BSD-2-Clause */
/* Ufunc calls on the GPU (docs/cuda.md "Ufuncs on the GPU").
 *
 * On the cuda target, a @vectorize or @guvectorize call over arrays in host
 * code runs as a grid-stride kernel that this pass writes in KIR, one per
 * ufunc and operand types, so that everything kernels have — NVPTX code,
 * the launch path, lazy coherence, the disk cache, KJIT_STATS — serves
 * ufuncs too:
 *
 *     host:   %r = ufunc f(%a, %b)        →   %r = ufunc @f.gpu[...](%a, %b)
 *     kernel: for i in grid-stride(0, size(out)):
 *                 out[idx(i)] = f(a[idx(i)], b[idx(i)])      (@vectorize)
 *                 g(a[idx(i), ...], b[idx(i), ...])          (@guvectorize, views)
 *
 * The UFUNC_CALL keeps its operands; its `fn` becomes the kernel, whose
 * `applies` is the ufunc. The host side (codegen's llvm_ufunc_gpu.c) works
 * out the broadcast shape as for the host loop, passes every array operand
 * as a view of the loop shape (stride 0 along broadcast dimensions), and
 * launches. A call whose arrays are all C-contiguous with the result's shape
 * passes them with every dimension but the last of extent 1, which the
 * kernel tests once to index by the flat element number alone. */
#ifndef KJ_KIR_GPU_UFUNC_H
#define KJ_KIR_GPU_UFUNC_H

#include "kir.h"

/* Give every ufunc call over arrays in the host functions funcs[first..]
 * of m its kernel (ufuncs with target 'cpu' or 'parallel' stay on the host,
 * and so do the ufuncs kir_fuse.c makes of host array expressions,
 * and so do calls the kernels cannot express: a gufunc input whose element
 * type is not the signature's, more than 4 dimensions). Kernels are
 * appended to m, one per ufunc and kernel parameter types. */
void kir_gpu_ufuncs(kj_arena *a, kj_types *types, kir_module *m, uint32_t first);

/* Does ufunc uf run on the GPU on the cuda target? A user's ufunc with
 * target 'cuda' or none; the ufuncs kir_fuse.c makes of host array
 * expressions stay on the host, as NumPy's operators would (and as their
 * math library's last bits would). */
bool kir_ufunc_on_gpu(const kir_func *uf);

/* Is this instruction a kernel launch: LAUNCH, or a ufunc call on the GPU? */
static inline bool kir_launches(const kir_inst *in)
{
    return in->op == KIR_LAUNCH || (in->op == KIR_UFUNC_CALL && in->fn && in->fn->kind == KIR_FN_KERNEL);
}

#endif
