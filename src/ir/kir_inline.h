/* SPDX-License-Identifier: BSD-2-Clause */
/* Device functions with barriers, warp operations or shared arrays,
 * inlined into the kernels that call them (docs/kernels_cpu.md § Device
 * functions). On the cpu and parallel targets a kernel with barriers is
 * split into regions run thread loop by thread loop (llvm_kernel.c), which
 * needs every barrier in the kernel's own body; on the GPU such device
 * functions stay functions, with the barriers as intrinsics. */
#ifndef KJ_KIR_INLINE_H
#define KJ_KIR_INLINE_H

#include "kir.h"

/* Does f (a device function) use a barrier, a warp operation or a shared
 * array, itself or through the device functions it calls? */
bool kir_needs_inline(const kir_func *f);

/* Inline those device functions into the kernels among m->funcs[from..]
 * (repeatedly: into what they call too). Recursion through such a function,
 * and a device function whose shared array would be inlined twice into one
 * kernel, are reported to d. Returns false when it reported. */
bool kir_inline_barriers(kj_arena *a, kj_types *types, kir_module *m, uint32_t from, kj_diags *d);

#endif
