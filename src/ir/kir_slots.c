/* SPDX-License-Identifier: BSD-2-Clause */
/* kir_slots — the module slots a kernel reads (resolve_modslot.c).
 *
 * A kernel on the GPU has no run context to find the run's slots in: it
 * reads each slot it uses from a global of its PTX module that the runtime
 * fills before the launch (abi.h kj_abi_slot). The launch must know which
 * slots those are: every MODULE_GET of the kernel and of the functions it
 * calls, to any depth (device functions, @jit functions, a ufunc's scalar
 * function), each slot once. */
#include "kir.h"

typedef KJ_VEC(const kir_func *) fvec;
typedef KJ_VEC(const kir_inst *) ivec;

static bool seen_fn(const fvec *v, const kir_func *f)
{
    for (uint32_t k = 0; k < v->n; k++)
        if (v->v[k] == f) return true;
    return false;
}

static bool seen_slot(const ivec *v, const kir_frozen *fz)
{
    for (uint32_t k = 0; k < v->n; k++)
        if (v->v[k]->frozen->slot_index == fz->slot_index) return true;
    return false;
}

uint32_t kir_slot_reads(const kir_func *f, kj_arena *a, const kir_inst ***out)
{
    fvec todo = {0}; /* every function met: those after `next` are still to walk */
    ivec found = {0};
    KJ_PUSH(a, todo, f);
    for (uint32_t next = 0; next < todo.n; next++) {
        const kir_func *g = todo.v[next];
        for (uint32_t r = 1; r < g->ninsts; r++) {
            const kir_inst *in = &g->insts[r];
            if (in->op == KIR_MODULE_GET && in->frozen && in->frozen->slot && !seen_slot(&found, in->frozen))
                KJ_PUSH(a, found, in);
            if ((in->op == KIR_CALL || in->op == KIR_UFUNC_CALL) && in->fn && !seen_fn(&todo, in->fn))
                KJ_PUSH(a, todo, in->fn);
        }
    }
    *out = found.v;
    return found.n;
}
