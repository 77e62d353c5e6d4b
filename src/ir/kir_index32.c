/* SPDX-License-Identifier: BSD-2-Clause */
/* Which kernels get a 32-bit index variant (kir_index32.h).
 *
 * Why the variant computes what the generic entry computes: the runtime
 * launches it only when every array argument has each extent, its element
 * count and its element span (the largest |offset| an in-bounds index
 * reaches, from the strides) at most INT32_MAX, and every grid dimension
 * (blocks × threads) too. Views of an argument reach no further than it;
 * shared, local and constant arrays have compile-time sizes far below
 * that (the GPU's memories are). So for every in-bounds access each index,
 * each partial sum of the offset and the offset itself fit in int32, and
 * the i32 arithmetic with nsw is exact; an access out of bounds is
 * undefined either way (as in Numba without boundscheck; with it, the
 * check runs first, on the 64-bit index). Arrays a kernel reads from module
 * slots are not arguments, so such kernels keep the generic entry only. */
#include "kir_index32.h"

const char *kir_index32_unfit(const kir_func *f, kj_arena *a)
{
    if (f->kind != KIR_FN_KERNEL) return "not a kernel";
    const kir_inst **get;
    if (kir_slot_reads(f, a, &get)) return "it reads module-level values";
    for (kir_ref r = 1; r < f->ninsts; r++) {
        const kir_inst *in = &f->insts[r];
        if ((in->op == KIR_ARRAY_LOAD || in->op == KIR_ARRAY_STORE) && in->nargs > 0) return NULL;
    }
    return "it indexes no array";
}

unsigned kir_index32_mark(kj_arena *a, kir_module *m, uint32_t from, kj_run_target target, bool on)
{
    unsigned n = 0;
    for (uint32_t k = from; on && target == KJ_RUN_CUDA && k < m->nfuncs; k++) {
        kir_func *f = m->funcs[k];
        if (f->index32 || kir_index32_unfit(f, a)) continue;
        f->index32 = true;
        n++;
    }
    return n;
}
