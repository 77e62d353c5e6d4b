/* SPDX-License-Identifier: BSD-2-Clause */
/* Numba's Optional(T) values (src/ir/types_optional.c) in LLVM: the literal struct { valid, T } of
 * llvm_types.c, the valid flag a bool (i1 in registers, i8 in memory); a None is all zeros. Here:
 * the conversion between the two forms, d.get(k), and printing. */
#include "codegen.h"

LLVMValueRef kj_cg_opt_convert(kj_cg *cg, const kj_type *t, LLVMValueRef v, bool to_mem)
{
    LLVMValueRef flag = LLVMBuildExtractValue(cg->b, v, 0, ""), val = LLVMBuildExtractValue(cg->b, v, 1, "");
    flag = to_mem ? LLVMBuildZExt(cg->b, flag, cg->t_i8, "")
                  : LLVMBuildICmp(cg->b, LLVMIntNE, flag, LLVMConstInt(cg->t_i8, 0, 0), "");
    val = to_mem ? kj_cg_to_mem(cg, t->elem, val) : kj_cg_from_mem(cg, t->elem, val);
    LLVMValueRef out = LLVMGetUndef(to_mem ? kj_cg_memtype(cg, t) : kj_cg_type(cg, t));
    out = LLVMBuildInsertValue(cg->b, out, flag, 0, "");
    return LLVMBuildInsertValue(cg->b, out, val, 1, "");
}

/* The value p points to (in its memory form, as a dict keeps it), or None where p is NULL: d.get(k). */
LLVMValueRef kj_cg_opt_found(kj_cg *cg, const kj_type *t, LLVMValueRef p)
{
    LLVMTypeRef mt = kj_cg_memtype(cg, t->elem);
    LLVMValueRef zero = kj_cg_alloca(cg, mt, "opt.none");
    LLVMBuildStore(cg->b, LLVMConstNull(mt), zero);
    LLVMValueRef found = LLVMBuildIsNotNull(cg->b, p, "found");
    LLVMValueRef v = LLVMBuildLoad2(cg->b, mt, LLVMBuildSelect(cg->b, found, p, zero, ""), "");
    LLVMValueRef out = LLVMBuildInsertValue(cg->b, LLVMGetUndef(kj_cg_type(cg, t)), found, 0, "");
    return LLVMBuildInsertValue(cg->b, out, kj_cg_from_mem(cg, t->elem, v), 1, "");
}

/* None, or the value as print shows it (put: llvm_host_builtins.c's print_value). */
void kj_cg_print_optional(kj_cg *cg, const kir_inst *in, const kj_type *t, LLVMValueRef v, bool repr,
                          void (*put)(kj_cg *, const kir_inst *, const kj_type *, LLVMValueRef, bool),
                          void (*text)(kj_cg *, const char *))
{
    LLVMBasicBlockRef some = kj_cg_bb(cg, "popt.value"), none = kj_cg_bb(cg, "popt.none"),
                      done = kj_cg_bb(cg, "popt.done");
    LLVMBuildCondBr(cg->b, LLVMBuildExtractValue(cg->b, v, 0, ""), some, none);
    LLVMPositionBuilderAtEnd(cg->b, some);
    put(cg, in, t->elem, LLVMBuildExtractValue(cg->b, v, 1, ""), repr);
    LLVMBuildBr(cg->b, done);
    LLVMPositionBuilderAtEnd(cg->b, none);
    text(cg, "None");
    LLVMBuildBr(cg->b, done);
    LLVMPositionBuilderAtEnd(cg->b, done);
}
