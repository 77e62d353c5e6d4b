/* SPDX-License-Identifier: BSD-2-Clause */
/* Which kernels the cpu launch may regroup (kir_regroup.h).
 *
 * Why regrouping computes the same: thread (blockIdx b, threadIdx t) of a
 * launch with blocks of B threads in dimension d reads its position only
 * as cuda.grid = b*B + t and cuda.gridsize = G*B; regrouped, the launch has
 * one block of G*B threads in d, and thread t' = b*B + t has blockIdx 0 and
 * cuda.grid t', the same value, cuda.gridsize 1*(G*B), the same. Every
 * logical thread runs once with the same values, and nothing it does can
 * tell which block it ran in (no barrier, no shared array, no warp) or in
 * which order (kir_layout_illegal's cpu checks: print, atomics, raise,
 * assert, bounds checks). Kernels with loops are left out: a grid-stride
 * loop runs in lockstep with per-thread state kept per block
 * (llvm_kernel.c), which a block of a whole row would make large. */
#include "kir_regroup.h"

#include "builtins.h"
#include "kir_layout.h"

enum { MAX_DEPTH = 8 };

static bool position_read(unsigned b)
{
    return (b >= KJ_B_TID_X && b <= KJ_B_TID_Z) || (b >= KJ_B_BID_X && b <= KJ_B_BID_Z) ||
           (b >= KJ_B_BDIM_X && b <= KJ_B_BDIM_Z) || (b >= KJ_B_GDIM_X && b <= KJ_B_GDIM_Z);
}

static const char *unfit_in(const kir_func *f, int depth)
{
    if (depth > MAX_DEPTH) return "device functions nested too deeply to check";
    for (kir_ref r = 1; r < f->ninsts; r++) {
        const kir_inst *in = &f->insts[r];
        if (in->op == KIR_LOOP || in->op == KIR_FOR || in->op == KIR_PFOR) return "it has a loop";
        if (in->op == KIR_CALL && in->fn) {
            const char *why = unfit_in(in->fn, depth + 1);
            if (why) return why;
        }
        if (in->op != KIR_BUILTIN) continue;
        if (position_read(in->aux))
            return "it reads threadIdx, blockIdx, blockDim or gridDim (only cuda.grid and cuda.gridsize keep "
                   "their values in other blocks)";
        if (kj_builtin_has(in->aux, KJ_BF_BARRIER)) return "it has a barrier";
        if (in->aux == KJ_B_SHARED_ARRAY) return "it has a shared array";
    }
    return NULL;
}

const char *kir_regroup_unfit(const kir_func *f, kj_run_target target)
{
    if (target != KJ_RUN_CPU) return "only the cpu target runs blocks one after the other";
    const char *why = kir_layout_illegal(f, target);
    return why ? why : unfit_in(f, 0);
}

unsigned kir_regroup_mark(kir_module *m, uint32_t from, kj_run_target target, bool on)
{
    unsigned n = 0;
    for (uint32_t k = from; on && k < m->nfuncs; k++) {
        kir_func *f = m->funcs[k];
        if (f->kind != KIR_FN_KERNEL || f->regroup || kir_regroup_unfit(f, target)) continue;
        f->regroup = true;
        n++;
    }
    return n;
}
