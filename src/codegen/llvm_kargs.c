/* SPDX-License-Identifier: BSD-2-Clause */
/* Tuple kernel arguments (issue 23): a kernel parameter that is a tuple
 * (nested, of arrays and numbers, as Numba's kernels take them) reaches the
 * kernel as its leaves, in order: the launch passes each leaf as its own
 * parameter (abi.h kj_abi_param: an array or a scalar, which the runtime
 * already moves to the GPU), and the kernel's entry (the cpu target's
 * K.block_entry, the PTX entry) rebuilds the tuple from them. An empty
 * tuple has no leaves. Parameters that are not tuples are their own leaf,
 * so kernels without tuple parameters keep the ABI they had. */
#include "codegen.h"

uint32_t kj_kargs_count(const kj_type *t)
{
    if (t->kind != KJ_T_TUPLE) return 1;
    uint32_t n = 0;
    for (uint32_t k = 0; k < t->n; k++) n += kj_kargs_count(t->elems[k]);
    return n;
}

uint32_t kj_kargs_total(const kir_func *f)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < f->nparams; k++) n += kj_kargs_count(f->params[k]);
    return n;
}

static void leaves(const kj_type *t, const kj_type **out, uint32_t *n)
{
    if (t->kind != KJ_T_TUPLE) {
        out[(*n)++] = t;
        return;
    }
    for (uint32_t k = 0; k < t->n; k++) leaves(t->elems[k], out, n);
}

const kj_type **kj_kargs_leaf_types(kj_cg *cg, const kir_func *f, uint32_t *n, uint32_t **owner)
{
    uint32_t total = kj_kargs_total(f);
    const kj_type **out = KJ_NEWN(cg->a, const kj_type *, total + 1);
    uint32_t *own = KJ_NEWN(cg->a, uint32_t, total + 1);
    *n = 0;
    for (uint32_t k = 0; k < f->nparams; k++) {
        uint32_t from = *n;
        leaves(f->params[k], out, n);
        for (uint32_t i = from; i < *n; i++) own[i] = k;
    }
    if (owner) *owner = own;
    return out;
}

void kj_kargs_split(kj_cg *cg, const kj_type *t, LLVMValueRef v, LLVMValueRef *out, uint32_t *n)
{
    if (t->kind != KJ_T_TUPLE) {
        out[(*n)++] = v;
        return;
    }
    for (uint32_t k = 0; k < t->n; k++)
        kj_kargs_split(cg, t->elems[k], LLVMBuildExtractValue(cg->b, v, k, ""), out, n);
}

LLVMValueRef kj_kargs_join(kj_cg *cg, const kj_type *t, const LLVMValueRef *leaf, uint32_t *n)
{
    if (t->kind != KJ_T_TUPLE) return leaf[(*n)++];
    LLVMValueRef v = LLVMGetUndef(kj_cg_type(cg, t));
    for (uint32_t k = 0; k < t->n; k++)
        v = LLVMBuildInsertValue(cg->b, v, kj_kargs_join(cg, t->elems[k], leaf, n), k, "");
    return v;
}
