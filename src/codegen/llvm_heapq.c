/* SPDX-License-Identifier: BSD-2-Clause */
/* llvm_heapq — the heapq module (builtins_heapq.c) in host code: one
 * kj_rt_heapq call (src/runtime/heapq.c) with the list, the item spilled in
 * its memory form and the elements' order (llvm_list.c's desc); an element
 * result is read back from the memory the runtime hands back. */
#include "codegen.h"

#include "../ir/builtins.h"
#include "../runtime/heapq.h"

static const kj_type *type_of(kj_cg *cg, kir_ref r) { return cg->fn->kf->insts[r].type; }

static kj_heapq_op op_of(unsigned id)
{
    switch (id) {
    case KJ_B_HEAPQ_HEAPIFY: return KJ_HQ_HEAPIFY;
    case KJ_B_HEAPQ_HEAPPUSH: return KJ_HQ_HEAPPUSH;
    case KJ_B_HEAPQ_HEAPPOP: return KJ_HQ_HEAPPOP;
    case KJ_B_HEAPQ_HEAPREPLACE: return KJ_HQ_HEAPREPLACE;
    case KJ_B_HEAPQ_HEAPPUSHPOP: return KJ_HQ_HEAPPUSHPOP;
    case KJ_B_HEAPQ_NSMALLEST: return KJ_HQ_NSMALLEST;
    default: return KJ_HQ_NLARGEST;
    }
}

LLVMValueRef kj_cg_heapq(kj_cg *cg, const kir_inst *in)
{
    kj_heapq_op op = op_of(in->aux);
    bool select = op == KJ_HQ_NSMALLEST || op == KJ_HQ_NLARGEST;
    kir_ref lr = in->args[select ? 1 : 0];
    const kj_type *et = type_of(cg, lr)->elem;
    LLVMValueRef item = LLVMConstNull(cg->t_ptr), n = kj_cg_i64(cg, 0);
    if (select) {
        const kj_type *nt = type_of(cg, in->args[0]);
        static const kj_type T_I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};
        n = kj_cg_cast(cg, kj_cg_val(cg, in->args[0]), nt, &T_I64);
    } else if (in->nargs > 1) {
        LLVMValueRef v = kj_cg_cast(cg, kj_cg_val(cg, in->args[1]), type_of(cg, in->args[1]), et);
        item = kj_cg_spill(cg, kj_cg_to_mem(cg, et, v));
    }
    LLVMValueRef a[8] = {cg->fn->rt, kj_cg_i32(cg, op), kj_cg_val(cg, lr), item, kj_cg_list_elem_desc(cg, et),
                         n, kj_cg_line(cg, in), kj_cg_col(cg, in)};
    LLVMValueRef r = kj_cg_rtcall(cg, KJ_RTF_HEAPQ, a, 8);
    if (select) return r;
    if (in->type->kind == KJ_T_NONE) return kj_cg_zero(cg, in->type);
    return kj_cg_from_mem(cg, et, LLVMBuildLoad2(cg->b, kj_cg_memtype(cg, et), r, ""));
}
