/* SPDX-License-Identifier: BSD-2-Clause */
/* Thread-layout specialisation (issue 28, docs/cuda.md "Thread layout"):
 * a kernel whose threadIdx.y, not threadIdx.x, walks the contiguous
 * dimension of its arrays — `i, j = cuda.grid(2)` then `a[i, j]` on
 * C-contiguous arrays, as Numba's documentation writes 2-D kernels — is
 * compiled to read threadIdx and blockDim with x and y swapped, and its
 * launches swap the block's x and y (abi.h, kj_abi_kernel.perm). Each
 * logical thread keeps its block and computes what it computed before;
 * only which physical lane runs it changes, so that a warp (or, on the
 * cpu, the innermost emulated thread loop) walks contiguous memory. */
#ifndef KJ_KIR_LAYOUT_H
#define KJ_KIR_LAYOUT_H

#include "kir.h"

/* Why kernel f may not be remapped on `target`, or NULL when it may: a
 * warp operation, lane id, warp size or lane mask (which threads share a
 * warp changes), a device function it calls that reads threadIdx,
 * blockDim or cuda.grid (it is not compiled for the swap); on the cpu
 * targets also anything whose result depends on the order the emulated
 * threads run in (print, atomics, raise, assert, bounds checks). */
const char *kir_layout_illegal(const kir_func *f, kj_run_target target);

/* The logical thread dimension (0 = x, 1 = y, 2 = z) that most of f's
 * array accesses address their contiguous dimension with (the last of a
 * C array, the first of an F array; 'A' arrays of 2 or more dimensions
 * do not count: their strides are known only at run time), or -1 when
 * none does. votes (3 entries, may be NULL) receives the counts. */
int kir_layout_contiguous_dim(kj_arena *a, const kir_func *f, int votes[3]);

/* Remap the kernels among m->funcs[from..] where it is legal and pays
 * (threadIdx.y walks the contiguous dimension more often than threadIdx.x):
 * sets their layout_perm. `on` false ($KJIT_NO_SPECIALISE=1): nothing.
 * Returns how many kernels were remapped. */
unsigned kir_layout_remap(kj_arena *a, kir_module *m, uint32_t from, kj_run_target target, bool on);

#endif
