/* SPDX-License-Identifier: BSD-2-Clause */
/* Regrouped blocks on the cpu target (issue 28, docs/kernels_cpu.md
 * "Regrouped blocks"): a kernel whose threads are independent of their
 * block — no barriers, no shared arrays, no warp operations, nothing that
 * shows the order threads run in, and no read of threadIdx, blockIdx,
 * blockDim or gridDim except through cuda.grid and cuda.gridsize — computes
 * the same whatever blocks its threads are grouped in. The cpu launch then
 * runs the whole grid's extent of the dimension its innermost thread loop
 * walks (physical x: logical x, or logical y for a remapped kernel) as one
 * block (abi.h kj_abi_regroup), so that this loop runs the full width of
 * the arrays instead of one block's 8 or 16 threads. */
#ifndef KJ_KIR_REGROUP_H
#define KJ_KIR_REGROUP_H

#include "kir.h"

/* Why kernel f may not be regrouped on `target`, or NULL when it may. */
const char *kir_regroup_unfit(const kir_func *f, kj_run_target target);

/* Mark the kernels among m->funcs[from..] that may be regrouped (sets
 * kir_func.regroup), on the cpu target only, when `on` (false:
 * $KJIT_NO_SPECIALISE=1 or $KJIT_NO_REGROUP=1). Returns how many. */
unsigned kir_regroup_mark(kir_module *m, uint32_t from, kj_run_target target, bool on);

#endif
