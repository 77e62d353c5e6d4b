/* SPDX-License-Identifier: BSD-2-Clause */
/* try statements in host code (see src/runtime/rt_exc.c for the runtime's
 * side and src/ir/lower_try.c for their KIR).
 *
 * TRY reserves the statement's frame in the entry block, makes it the
 * context's innermost (kj_rt_try_enter) and calls _setjmp on it: 0 the
 * first time (the TRY is true: the body runs), again non-zero when an
 * exception raised below longjmps back (kj_rt_try_caught keeps it in the
 * frame; the TRY is false: the handlers run).
 *
 * A local changed after _setjmp and read after the longjmp must be read
 * from memory, not from a register _setjmp saved (C's rule for volatile
 * locals): in a function with a TRY every local is loaded and stored
 * volatile (kj_cg_volatile_locals), which also keeps LLVM from promoting
 * them to registers. */
#include "codegen.h"

#include "../abi/abi.h"

bool kj_cg_volatile_locals(const kir_func *f)
{
    for (uint32_t r = 1; r < f->ninsts; r++)
        if (f->insts[r].op == KIR_TRY) return true;
    return false;
}

/* The frame of TRY `t`, reserved at its first use (the TRY). */
static LLVMValueRef frame_of(kj_cg *cg, kir_ref t)
{
    kj_cgfn *fn = cg->fn;
    if (!fn->frames) fn->frames = KJ_NEWN(cg->a, LLVMValueRef, fn->kf->ninsts + 1);
    if (!fn->frames[t]) {
        fn->frames[t] = kj_cg_alloca(cg, LLVMArrayType(cg->t_i8, KJ_ABI_TRY_SIZE), "try.frame");
        LLVMSetAlignment(fn->frames[t], 16);
    }
    return fn->frames[t];
}

/* int _setjmp(jmp_buf), which returns twice. */
static LLVMValueRef setjmp_fn(kj_cg *cg, LLVMTypeRef *ty)
{
    LLVMTypeRef p = cg->t_ptr;
    *ty = LLVMFunctionType(cg->t_i32, &p, 1, 0);
    LLVMValueRef f = LLVMGetNamedFunction(cg->mod, "_setjmp");
    if (f) return f;
    f = LLVMAddFunction(cg->mod, "_setjmp", *ty);
    unsigned k = LLVMGetEnumAttributeKindForName("returns_twice", 13);
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(cg->ctx, k, 0));
    return f;
}

static LLVMValueRef gen_try(kj_cg *cg, kir_ref r)
{
    LLVMValueRef frame = frame_of(cg, r);
    LLVMValueRef args[2] = {cg->fn->rt, frame};
    kj_cg_rtcall(cg, KJ_RTF_TRY_ENTER, args, 2);
    LLVMTypeRef ty;
    LLVMValueRef sj = setjmp_fn(cg, &ty);
    LLVMValueRef call = LLVMBuildCall2(cg->b, ty, sj, &frame, 1, "");
    unsigned k = LLVMGetEnumAttributeKindForName("returns_twice", 13);
    LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(cg->ctx, k, 0));
    LLVMValueRef caught = LLVMBuildICmp(cg->b, LLVMIntNE, call, kj_cg_i32(cg, 0), "caught");
    LLVMBasicBlockRef keep = kj_cg_bb(cg, "try.caught"), body = kj_cg_bb(cg, "try.body");
    LLVMBuildCondBr(cg->b, caught, keep, body);
    LLVMPositionBuilderAtEnd(cg->b, keep);
    kj_cg_rtcall(cg, KJ_RTF_TRY_CAUGHT, args, 2);
    LLVMBuildBr(cg->b, body);
    LLVMPositionBuilderAtEnd(cg->b, body);
    return LLVMBuildNot(cg->b, caught, "try");
}

void kj_cg_exc(kj_cg *cg, kir_ref r)
{
    const kir_inst *in = &cg->fn->kf->insts[r];
    LLVMValueRef args[2] = {cg->fn->rt, in->op == KIR_TRY ? NULL : frame_of(cg, in->a)};
    switch ((kir_op)in->op) {
    case KIR_TRY: cg->fn->vals[r] = gen_try(cg, r); break;
    case KIR_TRY_END: kj_cg_rtcall(cg, KJ_RTF_TRY_END, args, 2); break;
    case KIR_EXC_MATCH: {
        LLVMValueRef m[2] = {args[1], kj_cg_i32(cg, in->aux)};
        cg->fn->vals[r] = LLVMBuildICmp(cg->b, LLVMIntNE, kj_cg_rtcall(cg, KJ_RTF_EXC_MATCH, m, 2),
                                        kj_cg_i32(cg, 0), "match");
        break;
    }
    case KIR_EXC_VALUE: cg->fn->vals[r] = kj_cg_rtcall(cg, KJ_RTF_EXC_VALUE, args, 2); break;
    case KIR_RERAISE:
        kj_cg_rtcall(cg, KJ_RTF_RERAISE, args, 2);
        kj_cg_noreturn(cg);
        break;
    default: break;
    }
}
