/* SPDX-License-Identifier: BSD-2-Clause */
/* llvm_genlife — generator frames die with their scope (runtime/pygen.c
 * has the rule): as arrays are released (llvm_func.c), a function that
 * makes generators takes a mark at entry and frees, at each return, the
 * frames made since that its result does not reach; a loop whose body
 * makes them frees at the end of every iteration those that the function's
 * variables do not reach. Generators are made by calls (of a generator
 * function, or of a function returning one); a generator's own body keeps
 * its frames otherwise (kj_cg_genlife_suspend pins what each run of it
 * made). So `for i in range(10**6): s += sum(gen(i))` runs in constant
 * memory. */
#include "codegen.h"

bool kj_cg_type_has_gen(const kj_type *t)
{
    if (!t) return false;
    if (t->kind == KJ_T_GENERATOR) return true;
    if (t->kind == KJ_T_TUPLE)
        for (uint32_t k = 0; k < t->n; k++)
            if (kj_cg_type_has_gen(t->elems[k])) return true;
    return false;
}

/* The generators (coroutine handles) in value v of type t into out[n..max). */
unsigned kj_cg_gens_of(kj_cg *cg, const kj_type *t, LLVMValueRef v, LLVMValueRef *out, unsigned n, unsigned max)
{
    if (t->kind == KJ_T_GENERATOR && n < max) out[n++] = v;
    if (t->kind == KJ_T_TUPLE)
        for (uint32_t k = 0; k < t->n; k++)
            if (kj_cg_type_has_gen(t->elems[k]))
                n = kj_cg_gens_of(cg, t->elems[k], LLVMBuildExtractValue(cg->b, v, k, ""), out, n, max);
    return n;
}

static bool block_makes(const kir_func *f, kir_blkid b)
{
    const kir_block *blk = &f->blocks[b];
    for (uint32_t k = 0; k < blk->n; k++) {
        const kir_inst *in = &f->insts[blk->v[k]];
        if (in->op == KIR_CALL && in->fn && kj_cg_type_has_gen(in->fn->ret)) return true;
        if ((in->op == KIR_IF || in->op == KIR_LOOP || in->op == KIR_FOR || in->op == KIR_PFOR) &&
            block_makes(f, in->blk[0]))
            return true;
        if (in->op == KIR_IF && in->blk[1] && block_makes(f, in->blk[1])) return true;
    }
    return false;
}

LLVMValueRef kj_cg_genlife_mark(kj_cg *cg, kir_blkid b)
{
    const kir_func *f = cg->fn->kf;
    if (f->generator || cg->fn->kx || !block_makes(f, b)) return NULL;
    return kj_cg_rtcall(cg, KJ_RTF_GEN_MARK, &cg->fn->rt, 1);
}

enum { MAX_KEEP = 256 };

static void collect(kj_cg *cg, LLVMValueRef mark, const LLVMValueRef *keep, unsigned n)
{
    LLVMValueRef arr = LLVMConstNull(cg->t_ptr);
    if (n) {
        LLVMTypeRef at = LLVMArrayType2(cg->t_ptr, n);
        LLVMValueRef v = LLVMGetUndef(at);
        for (unsigned k = 0; k < n; k++) v = LLVMBuildInsertValue(cg->b, v, keep[k], k, "");
        arr = kj_cg_alloca(cg, at, "genkeep");
        LLVMBuildStore(cg->b, v, arr);
    }
    LLVMValueRef a[4] = {cg->fn->rt, mark, arr, kj_cg_i32(cg, (int64_t)n)};
    kj_cg_rtcall(cg, KJ_RTF_GEN_COLLECT, a, 4);
}

void kj_cg_genlife_locals(kj_cg *cg, LLVMValueRef mark)
{
    const kir_func *f = cg->fn->kf;
    LLVMValueRef keep[MAX_KEEP];
    unsigned n = 0;
    for (uint32_t k = 0; k < f->nlocals; k++) {
        const kj_type *t = f->locals[k].type;
        if (!kj_cg_type_has_gen(t)) continue;
        if (n == MAX_KEEP) return; /* too many to list: the function's return frees them */
        LLVMValueRef v = LLVMBuildLoad2(cg->b, kj_cg_type(cg, t), kj_cg_local_ptr(cg, k), "");
        n = kj_cg_gens_of(cg, t, v, keep, n, MAX_KEEP);
    }
    collect(cg, mark, keep, n);
}

void kj_cg_genlife_return(kj_cg *cg, LLVMValueRef ret)
{
    if (!cg->fn->gen_mark) return;
    LLVMValueRef keep[MAX_KEEP];
    const kj_type *t = cg->fn->kf->ret;
    unsigned n = ret && kj_cg_type_has_gen(t) ? kj_cg_gens_of(cg, t, ret, keep, 0, MAX_KEEP) : 0;
    collect(cg, cg->fn->gen_mark, keep, n);
}
