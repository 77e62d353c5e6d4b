/* SPDX-License-Identifier: BSD-2-Clause */
/* Launch specialisation (issue 28, point 2; docs/cuda.md "Launch
 * specialisation"): 32-bit index arithmetic. A kernel marked here
 * (kir_func.index32) gets a second PTX entry whose element offsets are
 * computed in i32 with nsw (so that NVPTX emits mad.lo.s32 and
 * mul.wide.s32 instead of 64-bit multiplies), whose array extents and
 * cuda.grid values are known to fit in int32. The runtime launches that
 * entry only when every array argument's extents, element count and
 * element span, and every dimension of the grid (blocks × threads), fit
 * in int32 (gpu_spec.c, kj_gpu_index32_fits); otherwise the generic one. */
#ifndef KJ_KIR_INDEX32_H
#define KJ_KIR_INDEX32_H

#include "kir.h"

/* Why kernel f gets no 32-bit variant, or NULL when it does: not a
 * kernel, it reads module-level values (module slots: their arrays'
 * extents are not among the launch's arguments), or it indexes no array. */
const char *kir_index32_unfit(const kir_func *f, kj_arena *a);

/* Mark the kernels among m->funcs[from..] that get a 32-bit variant, on
 * the cuda target only, when `on` ($KJIT_NO_SPECIALISE=1 and
 * $KJIT_NO_INDEX32=1 turn it off). Returns how many were marked. */
unsigned kir_index32_mark(kj_arena *a, kir_module *m, uint32_t from, kj_run_target target, bool on);

#endif
