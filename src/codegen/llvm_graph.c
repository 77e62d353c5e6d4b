/* SPDX-License-Identifier: BSD-2-Clause */
/* CUDA graphs for host loops: which `for` loops of host code may have their
 * launches replayed as a graph (runtime/gpu_graph.c), and the calls that
 * bracket them.
 *
 * A loop qualifies when its body only launches kernels and computes scalars
 * and tuples from locals and constants (`a, b = b, a`, `t = t + dt`): no
 * call, builtin, array access, branch, inner loop, return or break, and no
 * operation that can raise (division, %, ** are out). Then nothing in the
 * body can look at device data or need a launch to have been made, and the
 * only errors are the launches' own, which end the graph before they are
 * raised (rt_launch.c). The launch configuration (grid, block, stream,
 * shared bytes) must be computed outside the body: its checks then pass in
 * every iteration once they pass in the first, so none can raise with
 * launches pending. Everything else falls back to plain launches. */
#include "codegen.h"

#include "../ir/kir.h"

#include <stdlib.h>

enum { LAUNCH_CONFIG_ARGS = 8 }; /* grid3, block3, stream, shared bytes */

static bool scalar_op(kir_op op)
{
    switch (op) {
    case KIR_NOP: case KIR_CONST_INT: case KIR_CONST_FLOAT: case KIR_CONST_NONE: case KIR_PARAM:
    case KIR_LOCAL_GET: case KIR_LOCAL_SET: case KIR_ADD: case KIR_SUB: case KIR_MUL: case KIR_AND: case KIR_OR:
    case KIR_XOR: case KIR_NEG: case KIR_NOT: case KIR_INVERT: case KIR_EQ: case KIR_NE: case KIR_LT: case KIR_LE:
    case KIR_GT: case KIR_GE: case KIR_CAST: case KIR_SELECT: case KIR_TUPLE: case KIR_TUPLE_GET:
        return true;
    default: return false;
    }
}

/* Is r (an operand of a launch configuration) the same in every iteration:
 * made before the loop, a constant, a read of a local the body does not
 * set, or scalar arithmetic of such? set[i]: local i changes in the loop. */
static bool invariant(const kir_func *f, const bool *inside, const bool *set, kir_ref r, int depth)
{
    if (!r || !inside[r]) return true;
    const kir_inst *in = &f->insts[r];
    switch ((kir_op)in->op) {
    case KIR_CONST_INT: case KIR_CONST_FLOAT: case KIR_CONST_NONE: return true;
    case KIR_LOCAL_GET: return !set[in->i];
    case KIR_ADD: case KIR_SUB: case KIR_MUL: case KIR_NEG: case KIR_CAST:
        return depth < 16 && invariant(f, inside, set, in->a, depth + 1) &&
               invariant(f, inside, set, in->b, depth + 1);
    default: return false;
    }
}

bool kj_cg_graph_loop_ok(const kir_func *f, const kir_inst *loop)
{
    if (loop->op != KIR_FOR) return false;
    const kir_block *blk = &f->blocks[loop->blk[0]];
    bool *inside = calloc(f->ninsts + 1, sizeof *inside), *set = calloc(f->nlocals + 1, sizeof *set);
    if (!inside || !set) return free(inside), free(set), false;
    set[loop->i] = true; /* the loop's variable */
    for (uint32_t k = 0; k < blk->n; k++) {
        inside[blk->v[k]] = true;
        if (f->insts[blk->v[k]].op == KIR_LOCAL_SET) set[f->insts[blk->v[k]].i] = true;
    }
    bool launches = false, ok = true;
    for (uint32_t k = 0; k < blk->n && ok; k++) {
        const kir_inst *in = &f->insts[blk->v[k]];
        if (in->op == KIR_LAUNCH) {
            launches = true;
            for (uint32_t j = 0; j < LAUNCH_CONFIG_ARGS && j < in->nargs && ok; j++)
                ok = invariant(f, inside, set, in->args[j], 0);
            continue;
        }
        ok = scalar_op((kir_op)in->op);
    }
    free(inside);
    free(set);
    return ok && launches;
}

bool kj_cg_graph_begin(kj_cg *cg, const kir_inst *loop)
{
    if (cg->fn->kx || !kj_cg_graph_loop_ok(cg->fn->kf, loop)) return false;
    kj_cg_rtcall(cg, KJ_RTF_GRAPH_BEGIN, &cg->fn->rt, 1);
    return true;
}

void kj_cg_graph_end(kj_cg *cg, const kir_inst *loop)
{
    LLVMValueRef a[3] = {cg->fn->rt, kj_cg_line(cg, loop), kj_cg_col(cg, loop)};
    kj_cg_rtcall(cg, KJ_RTF_GRAPH_END, a, 3);
}
